-- 0002 on PostgreSQL (see ../0002_links_messages_timers.sql): chat aliases, a game's announce
-- chat, the message ids it edits in place, its running timer.
ALTER TABLE chats ADD COLUMN home TEXT REFERENCES chats(chat) DEFERRABLE;
ALTER TABLE games ADD COLUMN announce TEXT;
ALTER TABLE games ADD COLUMN messages TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN timer TEXT;
