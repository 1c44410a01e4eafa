-- 0017: a club's evening sign-up (issue 33): a club admin posts an evening (/evening new 19:30
-- tables=2) in the club's chat (its key, as in 0006: "tg:-100123", "dc:<channel>"); players press
-- «Иду», «Не приду» or «В резерв» on its post. The start is a wall-clock time in the club's time
-- zone, stored as the instant it names (``starts_at``) with the zone it was read in; the
-- reminders (two hours and fifteen minutes before) and the start are the evening's stored
-- deadlines, re-armed at every start-up from ``starts_at`` and ``reminded``. BEGIN/COMMIT are
-- inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE evenings (
    id         INTEGER PRIMARY KEY,
    club       TEXT NOT NULL,                -- the club's chat, where the sign-up is posted
    status     TEXT NOT NULL,                -- open | closed (the list is final) | cancelled
    starts_at  REAL NOT NULL,                -- the start (unix seconds)
    zone       TEXT NOT NULL,                -- the IANA time zone the start was typed in
    tables     INTEGER NOT NULL,             -- the tables of the evening
    cap        INTEGER NOT NULL,             -- the places: tables × 10
    opened_by  TEXT NOT NULL,                -- the admin who posted it ("tg:42")
    message_id INTEGER,                      -- the sign-up post in the club's chat (NULL: not yet)
    reminded   INTEGER NOT NULL DEFAULT 0,   -- the reminders sent or skipped: 0, 1 (two hours), 2
    opened_at  REAL NOT NULL,
    closed_at  REAL                          -- when it was closed or cancelled
);
-- One evening taking sign-ups per club at a time.
CREATE UNIQUE INDEX evenings_open ON evenings(club) WHERE status = 'open';

-- A player signed up: in the list (``going``) or in the reserve, in the order of ``position``.
CREATE TABLE evening_players (
    evening_id INTEGER NOT NULL REFERENCES evenings(id),
    account    TEXT NOT NULL,                -- the player's account ("tg:42")
    name       TEXT NOT NULL,                -- his name as the chat shows it
    list       TEXT NOT NULL,                -- going | reserve
    position   INTEGER NOT NULL,             -- order within the evening (1, 2, …)
    signed_at  REAL NOT NULL,
    PRIMARY KEY (evening_id, account)
);

PRAGMA user_version = 17;
COMMIT;
