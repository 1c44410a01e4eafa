-- 0007 on PostgreSQL (see ../0007_inbox.sql): the shared workers' inbox, one row per update.
CREATE TABLE inbox (
    update_id BIGINT PRIMARY KEY,
    chat      TEXT NOT NULL,
    payload   TEXT NOT NULL,
    at        DOUBLE PRECISION NOT NULL,
    done_at   DOUBLE PRECISION
);
CREATE INDEX inbox_waiting ON inbox(chat, update_id) WHERE done_at IS NULL;
