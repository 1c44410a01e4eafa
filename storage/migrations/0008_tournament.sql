-- 0008: a club's tournament evenings (issue 17, part 4). A chief judge opens a tournament in the
-- club (its chat, as in 0006) with a seating plan for its games; each of its tables is run by a
-- judge (a Telegram judge's panel, the console) and each game a table plays is recorded against
-- its place in the plan, so that the game's rows (0006) go to the tournament's club and its
-- standings add up the tournament's games only. Plain types only: the same script reads on
-- PostgreSQL (see postgresql/0008_tournament.sql).
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE tournaments (
    id        INTEGER PRIMARY KEY,
    club      TEXT NOT NULL,                       -- the club's chat: "tg:-100123"
    chief     TEXT NOT NULL,                       -- the chief judge's account: "tg:42"
    games     INTEGER NOT NULL,                    -- the games of the series (rounds of the plan)
    scheme    TEXT NOT NULL,                       -- the standings' scheme: fiim | fsm
    plan      TEXT NOT NULL,                       -- JSON: {"rounds": [[[name by seat]…]…], "resting": [[…]…]}
    opened_at REAL NOT NULL,
    closed_at REAL                                 -- NULL while it runs
);
-- One tournament open per club at a time.
CREATE UNIQUE INDEX tournaments_open ON tournaments(club) WHERE closed_at IS NULL;

-- A table of the tournament and its judge (NULL: none yet).
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    table_no      INTEGER NOT NULL,                -- 1, 2, …
    judge         TEXT,                            -- "tg:42"; his private chat is the table's home
    PRIMARY KEY (tournament_id, table_no)
);
CREATE INDEX tournament_tables_by_judge ON tournament_tables(judge);

-- A game a table plays in the series: game ``game_no`` of the plan at table ``table_no``. A game
-- set aside before its end (abandoned) gives its place to the next one started there.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    table_no      INTEGER NOT NULL,
    game_no       INTEGER NOT NULL,                -- 1 … games
    game_id       INTEGER NOT NULL REFERENCES games(id),
    PRIMARY KEY (tournament_id, table_no, game_no)
);
CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games(game_id);

PRAGMA user_version = 8;
COMMIT;
