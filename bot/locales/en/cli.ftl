cli-bad-setting = Bad setting { $name }: { $problem }. Fix the environment variable or the .env file.
cli-bad-env-file = Cannot read the settings file { $path }: { $problem ->
    [encoding] it is not UTF-8 (byte { $detail } at offset { $offset }). Save it as UTF-8.
   *[unreadable] { $detail }.
}
cli-bad-database = Cannot open the database: { $problem }. Choose another file (--db or MAFIA_REFEREE_DB).
cli-new-schema = Cannot open the database: { db-new-schema }
cli-foreign-database = Cannot open the database: { db-foreign }
cli-db-not-writable = Cannot open the database: { $path } is not writable (SQLite writes -wal and -shm files beside the database): { $problem }. Grant write access or choose another file (--db or MAFIA_REFEREE_DB).
cli-db-busy = Another mafia-referee process (pid { $pid }) is already serving the database { $path }: one bot process per database. Stop it first, or serve both platforms from one process with `mafia-referee both`.
cli-shared-needs-postgresql = MAFIA_REFEREE_WORKERS=shared needs a PostgreSQL database (MAFIA_REFEREE_DB=postgresql://…): on SQLite one bot process serves the database; unset MAFIA_REFEREE_WORKERS.
cli-shared-needs-secret = MAFIA_REFEREE_WORKERS=shared in webhook mode needs MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET, the same for every worker: each would otherwise give Telegram a random one of its own, and the others would refuse its requests.
cli-usage = Bad command line: { $problem }. Help: { $prog } --help
cli-bad-invite = Bad --invite { $value }: it must be the Discord application ID, a whole number over 0 of at most 20 digits.
cli-telegram-bad-token = Telegram refuses the bot token (401 Unauthorized). Check MAFIA_REFEREE_TELEGRAM_TOKEN (or TELEGRAM_BOT_TOKEN): @BotFather gives it.
command-shooting_first = Record the shooting first: /kill and a seat, /miss or /shots.
console-new-confirm = Game { $game } is not over. A new game shelves it for good: type /new again to confirm.


## Bad settings: pydantic's common problems (bot/entry.py)
setting-problem-literal_error = must be one of: { $expected }
setting-problem-greater_than = must be a number over { $limit }
setting-problem-greater_than_equal = must be a number of at least { $limit }
setting-problem-less_than = must be a number under { $limit }
setting-problem-less_than_equal = must be a number of at most { $limit }
setting-problem-int_parsing = must be a whole number, not “{ $value }”
setting-problem-int_from_float = must be a whole number, not “{ $value }”
setting-problem-float_parsing = must be a number, not “{ $value }”
setting-problem-bool_parsing = must be true or false, not “{ $value }”
setting-problem-http_url = must be an http:// or https:// URL, not “{ $value }”
setting-problem-time_zone = must be an IANA time zone such as Europe/Moscow, not “{ $value }”
setting-problem-https_url = must be an https:// URL (Telegram posts to HTTPS only; http:// only through a local Bot API server, MAFIA_REFEREE_TELEGRAM_BASE_URL), not “{ $value }”
setting-problem-webhook_secret = must be { $min }–256 characters of A-Z, a-z, 0-9, _ and -, at least { $distinct } of them different (left unset, a random one is made at each start)
setting-problem-missing = is not set

## mafia-referee replay: the comparison with the record
replay-record = Record { $source } { $game }{ $partial ->
    [yes] {" "}(partial)
   *[no] {""}
}
replay-outcome = { $label ->
    [replay] Replay
   *[record] Record
}: { $winner }, departures: { $departures }; cancelled votes (days): { $cancelled }
replay-winner = { $winner ->
    [team] { $team } wins
    [draw] a draw
   *[none] no result recorded
}
replay-departure = { $seat } — { $cause } ({ $phase ->
    [night] night
   *[day] day
} { $day })
replay-note = note: { $note }
replay-difference = difference: { $difference }
replay-agrees = result: agrees
replay-disagrees = result: disagrees
replay-error = { $kind ->
    [unreadable] Cannot read { $file }
   *[record] Cannot read the record { $file }
}:{ $field } { $message }
replay-too-large = the file is over { $limit } MB ({ $size } MB)
replay-too-large-stream = over { $limit } MB: not read any further
replay-too-deep = JSON nested too deep
replay-null-list = null instead of a list
replay-too-many = { $count ->
    [one] { $count } entry
   *[other] { $count } entries
 } in a list, over { $limit }

## mafia-referee protocol, replay --png/--protocol

protocol-cli-no-game = { $game ->
    [none] The database has no console game: give --game.
   *[other] The database has no game #{ $game }.
 }
protocol-cli-no-db = There is no database { $db }: nor any game in it.
protocol-cli-written = Written: { $file }
protocol-cli-not-written = { $file } is not written: { $why }
cli-shards-need-postgresql = MAFIA_REFEREE_DISCORD_SHARD_IDS naming some of the shards needs a PostgreSQL database (MAFIA_REFEREE_DB=postgresql://…), which the processes of the other shards share: on SQLite one process serves every shard (set MAFIA_REFEREE_DISCORD_SHARDS alone).
cli-shards-busy = Cannot serve Discord shards { $shards } of { $count } on { $path }: another process already serves one of them, serves the whole database alone, or runs with another MAFIA_REFEREE_DISCORD_SHARDS.
cli-shards-both = mafia-referee both serves every Discord shard: unset MAFIA_REFEREE_DISCORD_SHARD_IDS, or run the shards with mafia-referee discord and Telegram apart.

## What went wrong with a file, a folder or a connection (bot/i18n.problem_text)
os-error-ENOENT = no such file or folder
os-error-EACCES = permission denied
os-error-EPERM = operation not permitted
os-error-EISDIR = it is a folder
os-error-ENOTDIR = a part of the path is not a folder
os-error-EROFS = the file system is read-only
os-error-ENOSPC = no space left on the device
os-error-EEXIST = it exists already
os-error-ECONNREFUSED = the connection was refused (is the server running, on that port?)
os-error-EHOSTUNREACH = the host cannot be reached
os-error-ENETUNREACH = the network cannot be reached
os-error-ETIMEDOUT = no answer in time
os-error-ECONNRESET = the connection was reset
os-error-host = the host name is not known

## Databases, clubs and output files of the commands (bot/cli.py, bot/club/export.py)
cli-no-database = There is no database { $path } (nothing is created by asking). Give the bot's database: --db or MAFIA_REFEREE_DB.
cli-db-unreachable = Cannot open the PostgreSQL database { $url }: { $problem }. Check that its server runs and the URL (--db or MAFIA_REFEREE_DB).
cli-bad-output = Cannot write { $path }: { $problem }. Name a file in a folder that exists and may be written.
cli-not-written = { $path } is not written: { $problem }.
cli-no-club = The database has no club { $club } (no roster, no games). Its clubs: mafia-referee clubs.
cli-clubs-none = The database has no club yet: a club appears with its first finished game (roles entered) or roster entry.
cli-clubs-line = { $club }: { $players ->
    [one] { $players } player
   *[other] { $players } players
}, { $games ->
    [one] { $games } game
   *[other] { $games } games
}{ $last ->
    [none] {""}
   *[other] , the last on { $last }
}
club-export-written = { $path }: { $players ->
    [one] { $players } player
   *[other] { $players } players
}, { $rows ->
    [one] { $rows } row
   *[other] { $rows } rows
}
club-card-written = { $path }: { $size ->
    [one] { $size } byte
   *[other] { $size } bytes
 }
setting-problem-club_rules = must be the words of /new: a preset (seed, fiim2024, fsm2024) and options name=value, not “{ $value }”
replay-not-json = it is not JSON (line { $line }, column { $column })
replay-not-utf8 = it is not UTF-8 text (byte { $offset })
setting-problem-database = must be a file path or a postgresql://user:password@host:port/database URL, not “{ $shown }”
cli-web-unavailable = The web pages cannot listen on { $listen }:{ $port }: { $problem }. Choose another MAFIA_REFEREE_WEB_LISTEN or MAFIA_REFEREE_WEB_PORT.
setting-problem-picture_file = must be a PNG, JPEG or SVG file, not “{ $value }”
