-- 0004: the persistent outbox (ARCHITECTURE.md, "The promises"). The messages an action causes
-- are written here in the SAME transaction as its events, and a sender per chat drains them in id
-- order: a send that fails or waits (429 RetryAfter) never rolls back or repeats the transition,
-- and what was acknowledged is delivered even if the process dies before sending it (at least
-- once: a one-off announcement can repeat only if the process died during its own send).
-- BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,                -- the order of sending within a chat
    chat       TEXT NOT NULL,                      -- "tg:-100123": where it goes
    game_id    INTEGER REFERENCES games(id),       -- the game it belongs to (NULL: none)
    kind       TEXT NOT NULL DEFAULT 'send'        -- send | edit (of a stored message id)
               CHECK (kind IN ('send', 'edit')),
    payload    TEXT NOT NULL,                      -- JSON: what the adapter needs ({"text": ...})
    slot       TEXT,                               -- send: store the new id under this slot of the
                                                   -- game's messages; edit: the slot edited
    created_at REAL NOT NULL,
    sent_at    REAL,                               -- NULL while pending
    message_id INTEGER,                            -- what the chat answered (a later edit needs it)
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    state      TEXT NOT NULL DEFAULT 'pending'     -- pending | sent | failed (given up)
               CHECK (state IN ('pending', 'sent', 'failed'))
);
CREATE INDEX outbox_pending ON outbox(chat, id) WHERE state = 'pending';

PRAGMA user_version = 4;
COMMIT;
