-- 0014: a row of several calls (the protocol's score sheet and its JSON files on Telegram, a text
-- Discord splits into parts) records each call as it is delivered: ``parts`` is the JSON list of
-- the message ids its calls made so far (NULL: none yet), so that a retry after a failure on a
-- later call makes only the calls not made (bot.outbox). BEGIN/COMMIT are inside the script (see
-- 0001).
BEGIN IMMEDIATE;

ALTER TABLE outbox ADD COLUMN parts TEXT;

PRAGMA user_version = 14;
COMMIT;
