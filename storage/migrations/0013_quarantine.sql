-- 0013: a game whose stored log no longer folds (an engine change refuses an event an older
-- version accepted) is set aside, not deleted: ``quarantine`` holds why (JSON: the log row
-- refused and the refusal; NULL for every other game). Such a game is left out of the open games
-- and timers re-armed at a start (bot.service.Service). BEGIN/COMMIT are inside the script (see
-- 0001).
BEGIN IMMEDIATE;

ALTER TABLE games ADD COLUMN quarantine TEXT;

PRAGMA user_version = 13;
COMMIT;
