-- 0010: the chats that are aliases of a home, found by an index (issue 16). ``aliases_of(home)``
-- ran on every chat a shared worker claims (its unsent messages kicked in each alias) and at
-- every /link, and take-over moves the aliases (``UPDATE chats ... WHERE home = ?``): without
-- an index each scanned the whole table, 7.5 ms with 20,000 chats (SQLite, measured), and more
-- as chats accumulate (a chat row is never deleted). Only aliases have a home, so the index
-- holds only them. BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE INDEX chats_by_home ON chats(home) WHERE home IS NOT NULL;

PRAGMA user_version = 10;
COMMIT;
