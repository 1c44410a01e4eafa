-- 0013 on PostgreSQL (see ../0013_quarantine.sql): why a game's stored log no longer folds.
ALTER TABLE games ADD COLUMN quarantine TEXT;
