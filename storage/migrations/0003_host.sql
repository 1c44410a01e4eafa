-- 0003: host mode (the bot runs the whole table in a group: bot/telegram/host). A table is the
-- lobby and then the hosted game; what the game log does not hold lives here: who sits where,
-- the host's options, the step running now (its deadline and the players' inputs collected so
-- far: hands, shots, checks), and the timing log of every step.
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE host_tables (
    id            INTEGER PRIMARY KEY,
    chat          TEXT NOT NULL,                   -- "tg:-100123": the group the table plays in
    host          TEXT NOT NULL,                   -- "tg:42": who opened it (he may stop it)
    options       TEXT NOT NULL,                   -- JSON: host options and the rules config
    players       TEXT NOT NULL DEFAULT '[]',      -- JSON [{"user", "name", "reachable"}], join order
    seats         TEXT NOT NULL DEFAULT '{}',      -- JSON {"1": "tg:42", ...} once dealt
    game_id       INTEGER REFERENCES games(id),    -- the service's game once the table is full
    lobby_message INTEGER,                         -- the lobby message (edited in place)
    step          TEXT,                            -- JSON: the step running now, NULL: none
    data          TEXT NOT NULL DEFAULT '{}',      -- JSON: mutes applied, the night message, ...
    status        TEXT NOT NULL DEFAULT 'lobby'    -- lobby | running | over | stopped
                  CHECK (status IN ('lobby', 'running', 'over', 'stopped')),
    created_at    REAL NOT NULL,
    closed_at     REAL
);
CREATE INDEX host_tables_by_chat ON host_tables(chat, id);
CREATE INDEX host_tables_open ON host_tables(status) WHERE status IN ('lobby', 'running');

-- Every step the bot opened, with its length: the audit of the table's timing (a night step lasts
-- the same whether or not its role is alive).
CREATE TABLE host_steps (
    table_id  INTEGER NOT NULL REFERENCES host_tables(id),
    no        INTEGER NOT NULL,
    key       TEXT NOT NULL,                       -- the step's identity (day, turn, nominee ...)
    kind      TEXT NOT NULL,                       -- speech, vote, shooting, don_check, ...
    seconds   INTEGER NOT NULL,                    -- its length in timer seconds
    opened_at REAL NOT NULL,
    PRIMARY KEY (table_id, no)
) WITHOUT ROWID;

-- A group's club channel (/channel @name): the start and the result of its games are posted there.
CREATE TABLE host_channels (
    chat    TEXT PRIMARY KEY,                      -- the group
    channel TEXT NOT NULL,                         -- "tg:-100..."
    title   TEXT
);

PRAGMA user_version = 3;
COMMIT;
