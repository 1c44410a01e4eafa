-- 0006: a club's players across games (issue 17). A club is the chat a game's table reads: its
-- announce chat (a Telegram group linked to the judge's game) or else its home (a hosted group, a
-- Discord channel, the console's "console:local"). Its roster holds a player per account where
-- there is one, else per nickname; every finished game leaves one row per seated player with the
-- figures statistics and ratings add up, written in the same transaction as the action that
-- ended (or changed) the game — no query replays a log. Plain types only (INTEGER, REAL, TEXT):
-- the same script reads on PostgreSQL (issue 18). Points are kept in hundredths (INTEGER): sums
-- are exact.
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    club        TEXT NOT NULL,                     -- the club's chat: "tg:-100123"
    name        TEXT NOT NULL,                     -- the name shown now
    folded      TEXT NOT NULL,                     -- name, case-folded: the roster's key
    account     TEXT,                              -- "tg:42", "dc:7": NULL for a nickname
    merged_into INTEGER REFERENCES players(id),    -- merged into another entry (kept: history)
    created_at  REAL NOT NULL
);
CREATE UNIQUE INDEX players_by_account ON players(club, account) WHERE account IS NOT NULL;
CREATE INDEX players_by_name ON players(club, folded);

-- Every name a player had, and since when (a rename or a merge keeps the old ones).
CREATE TABLE player_names (
    player_id INTEGER NOT NULL REFERENCES players(id),
    name      TEXT NOT NULL,
    since     REAL NOT NULL
);
CREATE INDEX player_names_by_player ON player_names(player_id);

-- One row per seat of a finished game (not of an abandoned one), replaced whenever the game's
-- figures change after its end (the judge's extra points, a correction) and deleted when an undo
-- takes the end back.
CREATE TABLE game_players (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seat         INTEGER NOT NULL,
    club         TEXT NOT NULL,
    player_id    INTEGER NOT NULL REFERENCES players(id),
    name         TEXT NOT NULL,                    -- the seat's name in that game
    role         TEXT NOT NULL,                    -- civilian | sheriff | mafia | don
    result       TEXT NOT NULL,                    -- red | black | draw
    won          INTEGER NOT NULL,                 -- 1: the seat's team won
    points       INTEGER NOT NULL,                 -- the total, in hundredths (F24/S24 §8)
    additional   INTEGER NOT NULL,                 -- additional points, hundredths (F24 §8.7.1)
    best_move    INTEGER,                          -- the best move's hits (0–3), NULL: none made
    first_killed INTEGER NOT NULL,                 -- 1: killed on the first night (F24 §8.6)
    fouls        INTEGER NOT NULL,
    removed      INTEGER NOT NULL,                 -- 1: removed by fouls or a disqualification
    finished_at  REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_club ON game_players(club, finished_at);
CREATE INDEX game_players_by_player ON game_players(player_id, finished_at);
-- The first nights' victims of a period, for the compensation's count (S24 §8.6).
CREATE INDEX game_players_first_nights ON game_players(club, finished_at) WHERE first_killed = 1;

-- The same figures summed per player, role and calendar month (UTC; ``month`` is the month's
-- first second, unix time), kept with the rows in the same transaction: a period's totals add
-- up its whole months here and only the rows of its partial months at the edges, so /top over
-- a season reads a few thousand rows however many games the club has played.
CREATE TABLE player_months (
    club           TEXT NOT NULL,
    month          INTEGER NOT NULL,
    player_id      INTEGER NOT NULL REFERENCES players(id),
    role           TEXT NOT NULL,
    games          INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    additional     INTEGER NOT NULL,
    best_moves     INTEGER NOT NULL,
    best_move_hits INTEGER NOT NULL,
    first_killed   INTEGER NOT NULL,
    fouls          INTEGER NOT NULL,
    removed        INTEGER NOT NULL,
    PRIMARY KEY (club, month, player_id, role)
);
CREATE INDEX player_months_by_player ON player_months(player_id, month);

PRAGMA user_version = 6;
COMMIT;
