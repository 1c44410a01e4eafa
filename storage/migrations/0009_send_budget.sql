-- 0009: the send budget the shared workers take from (issue 18): Telegram lets one bot (one
-- token) send about 30 messages a second overall, whichever process sends them; with several
-- workers each one's own limiter would count only its own sends. One row per bot: a token
-- bucket (``tokens`` left at ``at``, unix seconds), taken from atomically by every worker
-- (storage/shared.py, SendBudget). Only the PostgreSQL shared mode writes it; on SQLite (one
-- process: PTB's limiter counts every send) it stays empty, here so that both backends keep one
-- schema. BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE send_budget (
    bot    TEXT PRIMARY KEY,                       -- the bot's id (the token's first half)
    tokens REAL NOT NULL,                          -- sends left at ``at`` (below 0: reserved ahead)
    at     REAL NOT NULL                           -- when ``tokens`` was reckoned (unix seconds)
);

PRAGMA user_version = 9;
COMMIT;
