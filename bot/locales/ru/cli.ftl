cli-bad-setting = Неверная настройка { $name }: { $problem }. Исправьте переменную окружения или файл .env.
cli-bad-env-file = Не удаётся прочитать файл настроек { $path }: { $problem ->
    [encoding] он не в кодировке UTF-8 (байт { $detail } на позиции { $offset }). Сохраните его в UTF-8.
   *[unreadable] { $detail }.
}
cli-bad-database = Не удаётся открыть базу данных: { $problem }. Укажите другой файл (--db или MAFIA_REFEREE_DB).
cli-new-schema = Не удаётся открыть базу данных: { db-new-schema }
cli-foreign-database = Не удаётся открыть базу данных: { db-foreign }
cli-db-not-writable = Не удаётся открыть базу данных: { $path } недоступно для записи (SQLite пишет файлы -wal и -shm рядом с базой): { $problem }. Дайте право записи или укажите другой файл (--db или MAFIA_REFEREE_DB).
cli-db-busy = С базой данных { $path } уже работает другой процесс mafia-referee (pid { $pid }): один процесс бота на базу. Сначала остановите его, а обе платформы обслуживайте одним процессом: `mafia-referee both`.
cli-shared-needs-postgresql = Для MAFIA_REFEREE_WORKERS=shared нужна база PostgreSQL (MAFIA_REFEREE_DB=postgresql://…): с базой SQLite работает один процесс бота; уберите MAFIA_REFEREE_WORKERS.
cli-shared-needs-secret = Для MAFIA_REFEREE_WORKERS=shared в режиме вебхука нужен MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET, один на все процессы: иначе каждый передаст Telegram свой случайный секрет, и остальные будут отклонять его запросы.
cli-usage = Неверная команда: { $problem }. Справка: { $prog } --help
cli-bad-invite = Неверный --invite { $value }: нужен идентификатор приложения Discord (Application ID) — целое число больше 0, не длиннее 20 цифр.
cli-telegram-bad-token = Telegram не принимает токен бота (401 Unauthorized). Проверьте MAFIA_REFEREE_TELEGRAM_TOKEN (или TELEGRAM_BOT_TOKEN): его выдаёт @BotFather.
command-shooting_first = Сначала запишите стрельбу: /kill и номер, /miss (промах) или /shots.
console-new-confirm = Игра №{ $game } не окончена. Новая игра отложит её насовсем: повторите /new, чтобы подтвердить.


## Bad settings: pydantic's common problems (bot/entry.py)
setting-problem-literal_error = допустимо одно из: { $expected }
setting-problem-greater_than = нужно число больше { $limit }
setting-problem-greater_than_equal = нужно число не меньше { $limit }
setting-problem-less_than = нужно число меньше { $limit }
setting-problem-less_than_equal = нужно число не больше { $limit }
setting-problem-int_parsing = нужно целое число, а не «{ $value }»
setting-problem-int_from_float = нужно целое число, а не «{ $value }»
setting-problem-float_parsing = нужно число, а не «{ $value }»
setting-problem-bool_parsing = нужно true или false, а не «{ $value }»
setting-problem-http_url = нужен адрес http:// или https://, а не «{ $value }»
setting-problem-time_zone = нужен часовой пояс IANA, например Europe/Moscow, а не «{ $value }»
setting-problem-https_url = нужен адрес https:// (Telegram шлёт только по HTTPS; http:// — только через свой сервер Bot API, MAFIA_REFEREE_TELEGRAM_BASE_URL), а не «{ $value }»
setting-problem-webhook_secret = нужно от { $min } до 256 символов из A-Z, a-z, 0-9, _ и -, из них не меньше { $distinct } разных (если её не задавать, при каждом запуске создаётся случайная)
setting-problem-missing = не задана

## mafia-referee replay: the comparison with the record
replay-record = Запись { $source } { $game }{ $partial ->
    [yes] {" "}(неполная)
   *[no] {""}
}
replay-outcome = { $label ->
    [replay] Повтор
   *[record] Запись
}: { $winner }, выбыли: { $departures }; несостоявшиеся голосования (дни): { $cancelled }
replay-winner = { $winner ->
    [team] победа { $team }
    [draw] ничья
   *[none] итог не записан
}
replay-departure = { $seat } — { $cause } ({ $phase ->
    [night] ночь
   *[day] день
} { $day })
replay-note = примечание: { $note }
replay-difference = расхождение: { $difference }
replay-agrees = итог: совпадает
replay-disagrees = итог: не совпадает
replay-error = { $kind ->
    [unreadable] Не удаётся прочитать { $file }
   *[record] Запись { $file } не читается
}:{ $field } { $message }
replay-too-large = файл больше { $limit } МБ ({ $size } МБ)
replay-too-large-stream = больше { $limit } МБ: дальше не читается
replay-too-deep = слишком глубокая вложенность JSON
replay-null-list = null вместо списка
replay-too-many = { $count } записей в списке, больше { $limit }

## mafia-referee protocol, replay --png/--protocol

protocol-cli-no-game = { $game ->
    [none] В базе нет игры консоли: укажите --game.
   *[other] В базе нет игры №{ $game }.
 }
protocol-cli-no-db = Базы { $db } нет: игр в ней тоже нет.
protocol-cli-written = Записан файл { $file }
protocol-cli-not-written = Файл { $file } не записан: { $why }
cli-shards-need-postgresql = Если MAFIA_REFEREE_DISCORD_SHARD_IDS называет не все шарды, нужна база PostgreSQL (MAFIA_REFEREE_DB=postgresql://…), общая с процессами остальных шардов: с базой SQLite все шарды обслуживает один процесс (задайте только MAFIA_REFEREE_DISCORD_SHARDS).
cli-shards-busy = Нельзя обслуживать шарды Discord { $shards } из { $count } на { $path }: один из них уже обслуживает другой процесс, или другой процесс обслуживает всю базу один, или работает с другим MAFIA_REFEREE_DISCORD_SHARDS.
cli-shards-both = mafia-referee both обслуживает все шарды Discord: уберите MAFIA_REFEREE_DISCORD_SHARD_IDS или запустите шарды командой mafia-referee discord, а Telegram отдельно.

## What went wrong with a file, a folder or a connection (bot/i18n.problem_text)
os-error-ENOENT = нет такого файла или папки
os-error-EACCES = нет доступа
os-error-EPERM = операция не разрешена
os-error-EISDIR = это папка
os-error-ENOTDIR = часть пути — не папка
os-error-EROFS = файловая система только для чтения
os-error-ENOSPC = на устройстве нет места
os-error-EEXIST = уже существует
os-error-ECONNREFUSED = в соединении отказано (сервер запущен, на этом порту?)
os-error-EHOSTUNREACH = узел недоступен
os-error-ENETUNREACH = сеть недоступна
os-error-ETIMEDOUT = нет ответа в срок
os-error-ECONNRESET = соединение сброшено
os-error-host = имя узла неизвестно

## Databases, clubs and output files of the commands (bot/cli.py, bot/club/export.py)
cli-no-database = Базы данных { $path } нет (по запросу она не создаётся). Укажите базу бота: --db или MAFIA_REFEREE_DB.
cli-db-unreachable = Не удаётся открыть базу PostgreSQL { $url }: { $problem }. Проверьте, что её сервер работает, и адрес (--db или MAFIA_REFEREE_DB).
cli-bad-output = Не удаётся записать { $path }: { $problem }. Укажите файл в существующей папке, доступной для записи.
cli-not-written = Файл { $path } не записан: { $problem }.
cli-no-club = В базе нет клуба { $club } (ни состава, ни игр). Клубы базы: mafia-referee clubs.
cli-clubs-none = В базе ещё нет клубов: клуб появляется с первой оконченной игрой (с ролями) или записью в составе.
cli-clubs-line = { $club }: { $players ->
    [one] { $players } игрок
    [few] { $players } игрока
   *[many] { $players } игроков
}, { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}{ $last ->
    [none] {""}
   *[other] , последняя { $last }
}
club-export-written = { $path }: { $players ->
    [one] { $players } игрок
    [few] { $players } игрока
   *[many] { $players } игроков
}, { $rows ->
    [one] { $rows } строка
    [few] { $rows } строки
   *[many] { $rows } строк
}
club-card-written = { $path }: { $size } байт
setting-problem-club_rules = нужны слова команды /new: набор правил (seed, fiim2024, fsm2024) и опции имя=значение, а не «{ $value }»
replay-not-json = это не JSON (строка { $line }, столбец { $column })
replay-not-utf8 = это не текст UTF-8 (байт { $offset })
setting-problem-database = нужен путь к файлу или адрес postgresql://пользователь:пароль@сервер:порт/база, а не «{ $shown }»
cli-web-unavailable = Веб-страницы не могут слушать { $listen }:{ $port }: { $problem }. Укажите другие MAFIA_REFEREE_WEB_LISTEN или MAFIA_REFEREE_WEB_PORT.
setting-problem-picture_file = нужен файл PNG, JPEG или SVG, а не «{ $value }»
