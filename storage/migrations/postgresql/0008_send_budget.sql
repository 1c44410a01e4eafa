-- 0008 on PostgreSQL (see ../0008_send_budget.sql): the shared workers' send budget, a token
-- bucket per bot.
CREATE TABLE send_budget (
    bot    TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at     DOUBLE PRECISION NOT NULL
);
