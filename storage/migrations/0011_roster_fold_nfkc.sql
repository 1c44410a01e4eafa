-- 0011: the roster's key of a name (players.folded, 0006) now folds NFKC too (rules.name_key:
-- a fullwidth «Ｄina» is «Dina»), so the stored keys are recomputed. SQL cannot NFKC-normalize:
-- the migration empties every key (no name folds to '': a name has a visible character), and
-- opening the store refolds each empty one in Python (storage.club.refold_sync) before anything
-- reads the roster; a process stopped in between refolds at its next start. Entries whose keys
-- now coincide stay apart (a lookup takes the oldest); /merge joins them. BEGIN/COMMIT are
-- inside the script (see 0001).
BEGIN IMMEDIATE;

UPDATE players SET folded = '';

PRAGMA user_version = 11;
COMMIT;
