-- 0014 on PostgreSQL (see ../0014_outbox_parts.sql): the calls of a multi-call outbox row made.
ALTER TABLE outbox ADD COLUMN parts TEXT;
