-- 0002: what a chat adapter needs beside the log: chat aliases, a game's announce chat, the ids of
-- the messages it edits in place, and a running timer. Columns, not tables: each belongs to a chat
-- or a game row, and is read and written with it.
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

-- A chat that acts on another chat's game (a club's group linked to the judge's private chat):
-- the service resolves it to its home chat before locking or loading. NULL: the chat is a home.
ALTER TABLE chats ADD COLUMN home TEXT REFERENCES chats(chat);

-- Where the game's public announcements go (a linked group), NULL: only the home chat.
ALTER TABLE games ADD COLUMN announce TEXT;

-- JSON {"<chat> <slot>": message_id}: the panel, the timer message ... edited in place, also after
-- a restart.
ALTER TABLE games ADD COLUMN messages TEXT NOT NULL DEFAULT '{}';

-- JSON of the running timer (deadline, what it times), so a restart re-arms it. NULL: none.
ALTER TABLE games ADD COLUMN timer TEXT;

PRAGMA user_version = 2;
COMMIT;
