-- 0001: chats, games and the append-only event log.
-- BEGIN/COMMIT are inside the script: aiosqlite's executescript() commits any open transaction
-- first, so the runner cannot wrap the script in one of its own. user_version is part of the
-- same transaction, so a migration is either fully applied and recorded, or not at all.
BEGIN IMMEDIATE;

CREATE TABLE chats (
    chat         TEXT PRIMARY KEY,                 -- "tg:-100123", "console:local"
    current_game INTEGER REFERENCES games(id),     -- the chat's latest game (finished or not)
    lang         TEXT                              -- the chat's catalog ("ru", "en"), NULL = default
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    chat        TEXT NOT NULL REFERENCES chats(chat),
    judge       TEXT NOT NULL,                     -- "tg:42"
    config      TEXT NOT NULL,                     -- JSON: rules.config_to_dict(config)
    names       TEXT NOT NULL DEFAULT '{}',        -- JSON: {"seat": "name"} given at creation
    created_at  REAL NOT NULL,                     -- unix time
    finished_at REAL,                              -- NULL while the game is open
    result      TEXT                               -- "red" | "black" | "draw" | "abandoned"
);
CREATE INDEX games_by_chat ON games(chat, id);

-- The game log: one row per logged event (undo events included), seq = 1, 2, 3, ...
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    event   TEXT NOT NULL,                         -- JSON: rules.to_dict(event)
    actor   TEXT NOT NULL,                         -- who did it ("tg:42")
    at      REAL NOT NULL,                         -- unix time
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Append-only: the log is the game's protocol and audit trail.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

PRAGMA user_version = 1;
COMMIT;
