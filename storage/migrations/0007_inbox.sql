-- 0007: the inbox of the shared workers (issue 18): several worker processes on one PostgreSQL
-- database take webhook updates behind one endpoint, and the worker that owns an update's home
-- chat applies it (storage/shared.py). One row per update, keyed by the platform's update id:
-- a redelivered update is stored once; ``done_at`` is set in the transaction that applied it, so
-- it is applied exactly once. Only the PostgreSQL shared mode writes it; on SQLite (one process)
-- it stays empty, here so that both backends keep one schema (storage/copy.py copies it too).
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE inbox (
    update_id INTEGER PRIMARY KEY,                 -- the platform's update id (Telegram's)
    chat      TEXT NOT NULL,                       -- the home chat that applies it
    payload   TEXT NOT NULL,                       -- JSON: the update as received
    at        REAL NOT NULL,                       -- when it was received (unix seconds)
    done_at   REAL                                 -- when it was applied (NULL: waiting)
);

-- The waiting updates of a chat, in update order, without a scan of the applied ones.
CREATE INDEX inbox_waiting ON inbox(chat, update_id) WHERE done_at IS NULL;

PRAGMA user_version = 7;
COMMIT;
