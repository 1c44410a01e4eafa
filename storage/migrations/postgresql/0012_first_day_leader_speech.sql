-- 0012 on PostgreSQL (see ../0012_first_day_leader_speech.sql): the games stored before day 1's
-- leader's speech was a step keep the option off, so they replay as played.
UPDATE games SET config = (config::jsonb || '{"first_day_leader_speech": false}'::jsonb)::text
 WHERE config::jsonb ->> 'first_day_vote' IN ('raise_only', 'self_break');
