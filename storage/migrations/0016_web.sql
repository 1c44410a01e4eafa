-- 0016: the live pages of a table (issue 30, bot/web): per home chat — the chat whose games a
-- table's page shows (a judge's private chat or channel, a hosted table's group; a tournament's
-- page is ``tournament:<club chat>``) — the secret of its public page (the live page and the
-- stream overlay: nothing role-bearing before the result), the second secret of its broadcast
-- page (the roles shown ``delay`` seconds late, as streams of sports mafia do), and that delay.
-- A page's address carries ``<id>.<secret>``: the row is found by its id and the secret
-- compared in constant time; a rotation (``/stream new``) writes new secrets. BEGIN/COMMIT are
-- inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE web_tables (
    id        INTEGER PRIMARY KEY,
    chat      TEXT NOT NULL UNIQUE,                -- the home chat: "tg:42", "dc:123", "tournament:tg:-100…"
    secret    TEXT NOT NULL,                       -- the public page's secret (URL-safe)
    broadcast TEXT NOT NULL,                       -- the broadcast page's secret (URL-safe)
    delay     INTEGER NOT NULL,                    -- seconds the broadcast page runs behind
    made_at   REAL NOT NULL                        -- when the secrets were made (unix seconds)
);

PRAGMA user_version = 16;
COMMIT;
