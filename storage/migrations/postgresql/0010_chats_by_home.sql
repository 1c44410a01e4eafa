-- 0010 on PostgreSQL (see ../0010_chats_by_home.sql): the aliases of a home found by an index.
CREATE INDEX chats_by_home ON chats(home) WHERE home IS NOT NULL;
