-- 0009 on PostgreSQL (see ../0009_send_budget.sql): the shared workers' send budget, a token
-- bucket per bot.
CREATE TABLE send_budget (
    bot    TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at     DOUBLE PRECISION NOT NULL
);
