-- 0015: a club's own rules (issue 31): the preset and options its new games start with, as the
-- words typed after /new ("fiim2024 raise_2_of_4=false timers.speech=45"), set by the club's
-- admin; a club without a row starts with the setting MAFIA_REFEREE_RULES, else the seed preset.
-- A club is its chat key, as in 0006 ("tg:-100123", "dc:<channel>", "console:local"). The words
-- are checked when they are set (bot.club.defaults) and again at every new game. BEGIN/COMMIT are
-- inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE club_rules (
    club   TEXT PRIMARY KEY,
    words  TEXT NOT NULL,
    set_by TEXT,                 -- who set them ("tg:42"), NULL when unknown
    set_at REAL NOT NULL         -- unix seconds
);

PRAGMA user_version = 15;
COMMIT;
