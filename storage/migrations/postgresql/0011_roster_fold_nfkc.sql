-- 0011 on PostgreSQL (see ../0011_roster_fold_nfkc.sql): the roster's keys emptied, to be
-- refolded with NFKC by storage.club.refold_sync when the store opens.
UPDATE players SET folded = '';
