-- 0005: snapshots of a game's folded state (issue 16), so that a cold load or a deep undo replays
-- a bounded tail of the log instead of all of it. A cache, never the truth: the log is the game.
-- One row per game, replaced as the game goes on (in the action's transaction); a snapshot whose
-- version is not the running code's is ignored (rules/snapshot.py), and a finished game's is
-- dropped when its delivered outbox rows are pruned (Store.prune: a finished game's sent messages
-- are of no further use, and were most of what it left in the file).
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE snapshots (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    seq      INTEGER NOT NULL,                     -- the log row of the last event it covers
    standing INTEGER NOT NULL,                     -- the events standing then (undone ones not)
    version  TEXT NOT NULL,                        -- rules.snapshot.version() of the writer
    state    TEXT NOT NULL                         -- JSON: rules.snapshot.state_to_dict(state)
);

-- The delivered rows of a game, found without a scan of the whole outbox when they are pruned.
CREATE INDEX outbox_sent_by_game ON outbox(game_id) WHERE state = 'sent';

PRAGMA user_version = 5;
COMMIT;
