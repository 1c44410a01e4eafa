-- 0012: the games stored before day 1's single leader's 30 s speech became a step of its own
-- (rules option ``first_day_leader_speech``, on by default) keep how they were played: under
-- ``first_day_vote`` ``raise_only`` or ``self_break`` night fell at once after that vote, and
-- their logs hold the night's actions right after it. Their stored config gets the option off,
-- so they replay as played (a finished game's protocol, an unfinished one resumed). Other games
-- never reach the step. BEGIN/COMMIT are inside the script (see 0001).
BEGIN IMMEDIATE;

UPDATE games SET config = json_set(config, '$.first_day_leader_speech', json('false'))
 WHERE json_extract(config, '$.first_day_vote') IN ('raise_only', 'self_break');

PRAGMA user_version = 12;
COMMIT;
