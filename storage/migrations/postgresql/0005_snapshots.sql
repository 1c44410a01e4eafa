-- 0005 on PostgreSQL (see ../0005_snapshots.sql): snapshots of a game's folded state.
CREATE TABLE snapshots (
    game_id  BIGINT PRIMARY KEY REFERENCES games(id) DEFERRABLE,
    seq      BIGINT NOT NULL,
    standing BIGINT NOT NULL,
    version  TEXT NOT NULL,
    state    TEXT NOT NULL
);
CREATE INDEX outbox_sent_by_game ON outbox(game_id) WHERE state = 'sent';
