cli-bad-setting = Неверная настройка { $name }: { $problem }. Исправьте переменную окружения или файл .env.
cli-bad-database = Не удаётся открыть базу данных: { $problem }. Укажите другой файл (--db или MAFIA_REFEREE_DB).
command-shooting_first = Сначала запишите стрельбу: /kill и номер, /miss (промах) или /shots.
console-new-confirm = Игра №{ $game } не окончена. Новая игра отложит её насовсем: повторите /new, чтобы подтвердить.

## mafia-referee replay: the comparison with the record
replay-record = Запись { $source } { $game }{ $partial ->
    [yes] {" "}(неполная)
   *[no] {""}
}
replay-outcome = { $label ->
    [replay] Повтор
   *[record] Запись
}: победа { $winner }, выбыли { $departures }, несостоявшиеся голосования { $cancelled }
replay-note = примечание: { $note }
replay-difference = расхождение: { $difference }
replay-agrees = итог: совпадает
replay-disagrees = итог: не совпадает
replay-error = ошибка ({ $kind }):{ $field } { $message }
