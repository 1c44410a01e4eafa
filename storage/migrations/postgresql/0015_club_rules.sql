-- 0015 on PostgreSQL (see ../0015_club_rules.sql): a club's own rules, the words of /new.
CREATE TABLE club_rules (
    club   TEXT PRIMARY KEY,
    words  TEXT NOT NULL,
    set_by TEXT,
    set_at DOUBLE PRECISION NOT NULL
);
