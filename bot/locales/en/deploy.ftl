# mafia-referee health / backup (bot/health.py, deploy/)
health-ok = ok: { $path }, schema { $version }, games: { $count }
health-no_database = Unhealthy: no database at { $path }. Start the bot once to create it, or set MAFIA_REFEREE_DB (--db).
health-bad_database = Unhealthy: the database { $path } cannot be read: { $problem }. Restore it from a backup.
health-old_schema = Unhealthy: the database { $path } has schema { $version }, this version needs { $expected }. Start the bot once to migrate it.
health-new_schema = Unhealthy: the database { $path } has schema { $version }, newer than this version ({ $expected }). Install the newer mafia-referee.
health-no_heartbeat_setting = Unhealthy: --max-age needs a heartbeat file: set MAFIA_REFEREE_HEARTBEAT (or --heartbeat).
health-no_heartbeat = Unhealthy: no heartbeat file { $path }: the bot is not running (or runs without MAFIA_REFEREE_HEARTBEAT).
health-stale_heartbeat = Unhealthy: the heartbeat { $path } is { $age } s old (limit { $limit } s): the bot is stuck or stopped.
backup-done = Backup written: { $path } (games: { $count }).
backup-no_database = No backup: there is no database at { $path }. Set MAFIA_REFEREE_DB (--db).
backup-failed = No backup: { $path } could not be written: { $problem }.
backup-bad_source = No backup: { $path } is not a mafia-referee database or cannot be read: { $problem }. Check --db (MAFIA_REFEREE_DB).
backup-same_file = No backup: { $path } is the live database itself. Choose another file or a folder for the copy.
