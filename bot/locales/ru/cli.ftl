cli-bad-setting = Неверная настройка { $name }: { $problem }. Исправьте переменную окружения или файл .env.
cli-bad-database = Не удаётся открыть базу данных: { $problem }. Укажите другой файл (--db или MAFIA_REFEREE_DB).
command-shooting_first = Сначала запишите стрельбу: /kill и номер, /miss (промах) или /shots.
console-new-confirm = Игра №{ $game } не окончена. Новая игра отложит её насовсем: повторите /new, чтобы подтвердить.
