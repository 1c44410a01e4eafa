# mafia-referee health / backup (bot/health.py, deploy/)
health-ok = ok: { $path }, schema { $version }, games: { $count }
health-no_database = Unhealthy: no database at { $path }. Start the bot once to create it, or set MAFIA_REFEREE_DB (--db).
health-bad_database = Unhealthy: the database { $path } cannot be read: { $problem }. Restore it from a backup.
health-read_only = Unhealthy: { $path } is not writable (SQLite writes -wal and -shm files beside the database): { $problem }. The database is most likely intact: let the bot's user write that folder and its files; no restore is needed.
health-old_schema = Unhealthy: the database { $path } has schema { $version }, this version needs { $expected }. Start the bot once to migrate it.
health-new_schema = Unhealthy: { db-new-schema }
health-corrupt = Unhealthy: the database { $path } is damaged (SQLite's quick_check: { $problem }). Stop the bot and restore it from a backup.
health-busy = Unhealthy: the database { $path } is busy: another process holds it locked ({ $problem }). Nothing to restore: check that only one bot runs on this file, and try again.
health-foreign_database = Unhealthy: { db-foreign }
# Shared by health and every command that opens the database (bot/entry.py): one wording.
db-new-schema = the database { $path } has schema { $version }, newer than this version ({ $expected }): a newer mafia-referee wrote it. Install that version again, or restore the backup taken before the upgrade.
db-foreign = { $path } is another program's SQLite database (it holds { $tables }), not a mafia-referee one: nothing was added to it. Choose another file (--db or MAFIA_REFEREE_DB).
health-unreachable = Unhealthy: the PostgreSQL database { $path } cannot be reached: { $problem }. Check that its server runs and the URL (MAFIA_REFEREE_DB); nothing to restore.
health-no_heartbeat_setting = Unhealthy: --max-age needs a heartbeat file: set MAFIA_REFEREE_HEARTBEAT (or --heartbeat).
health-no_heartbeat = Unhealthy: no heartbeat file { $path }: the bot is not running (or runs without MAFIA_REFEREE_HEARTBEAT).
health-stale_heartbeat = Unhealthy: the heartbeat { $path } is { $age } s old (limit { $limit } s): the bot is stuck or stopped.
health-bad_max_age = Bad --max-age { $value }: it must be a number of seconds over 0 (for example 120).
backup-done = Backup written: { $path } (games: { $count }).
backup-no_database = No backup: there is no database at { $path }. Set MAFIA_REFEREE_DB (--db).
backup-failed = No backup: { $path } could not be written: { $problem }.
backup-bad_source = No backup: { $path } is not a mafia-referee database or cannot be read: { $problem }. Check --db (MAFIA_REFEREE_DB).
backup-same_file = No backup: { $path } is the live database itself or its -wal, -shm or -journal file. Choose another file or a folder for the copy.
backup-empty_dest = No backup: no destination given. Name a file or a folder (for example backups/).
backup-not_a_file = No backup: { $path } exists and is not a regular file (a device, a pipe, a link or a folder). Name a new file, or a folder ending in /.
backup-not_sqlite = No backup: { $path } exists and is not an SQLite database: it would be lost. Name another file, or add --force to replace it.
# A database fault in the middle of a session (bot/health.fault): the command is not recorded.
db-fault = { $code ->
    [busy] Not recorded: the database is busy (another process holds it locked). Try again in a moment; only one bot may run on a database.
    [full] Not recorded: the disk is full. Free some space, then repeat the command; the game so far is safe.
    [read_only] Not recorded: the database file has become read-only. Let the bot's user write it, then repeat the command; the game so far is safe.
    [io] Not recorded: the disk could not be read or written. Check the disk, then repeat the command.
   *[other] Not recorded: a database error.
} ({ $problem })

## mafia-referee migrate --to postgresql://… (issue 18)
migrate-bad-target = Not migrated: { $target } is not a PostgreSQL database URL (postgresql://user@host:port/name), or --db is not an SQLite file.
migrate-not-empty = Not migrated: the PostgreSQL database already holds rows (table { $table }). Migrate into an empty database.
migrate-differs = The copy differs from the SQLite database ({ $problem }). Keep serving the SQLite file; the copy is left for inspection.
migrate-table = { $table }: { $count ->
    [one] { $count } row
   *[other] { $count } rows
 } copied and checked (sha256 { $digest })
migrate-done = Copied and checked: { $count ->
    [one] { $count } row
   *[other] { $count } rows
 }. Set MAFIA_REFEREE_DB to the PostgreSQL URL to serve from it.
backup-no_folder = No backup: the folder { $path } does not exist. Create it (or mount the backup disk) first: a backup never creates its folder.
backup-read_only = No backup: the folder { $path } cannot be written: { $problem }.
backup-unreachable = No backup: the PostgreSQL database { $path } cannot be reached: { $problem }. Check that its server runs and the URL (MAFIA_REFEREE_DB).
backup-old_schema = No backup: the PostgreSQL database { $path } is of an older schema than this version's. Start the bot once to migrate it (or back it up with pg_dump).
