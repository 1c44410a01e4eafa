# Отказы: ошибки правил (error-<rules.Code>), сервиса (service-<code>), команд (command-<code>).

error-internal = Внутренняя ошибка. Действие не выполнено.
error-not-saved = Внутренняя ошибка: действие не сохранено, игра осталась как была. Попробуйте ещё раз.
error-saved-not-sent = Действие сохранено, но из-за внутренней ошибки сообщение о нём не отправлено. /status покажет игру.
error-unknown = Действие не выполнено ({ $code }).

## Правила

error-wrong_phase = { $phase_code ->
    [setup] Сейчас нельзя { $event }: игра ещё не началась. Внесите имена и роли и начните игру: /start.
   *[other] { $event_code ->
        [set_roles] Сейчас нельзя { $event }: идёт фаза «{ $phase }». Роли вносятся до начала игры; чтобы исправить их, отмените ходы до /start: /undo N (N — сколько действий назад).
       *[other] Сейчас нельзя { $event }: идёт фаза «{ $phase }».
    }
 }
error-no_such_seat = Нет места { $seat }: места за столом — с 1 по 10.
error-not_at_table = Игрок { $seat } уже не за столом.
error-not_speaker = { $speaker ->
    [none] Выставлять кандидатуру можно только в свою минуту ({ cite-4_4_2 }), а сейчас никто не говорит.
   *[other] Выставлять кандидатуру можно только в свою минуту ({ cite-4_4_2 }): сейчас говорит игрок { $speaker }, а не { $seat }.
 }
error-already_nominated = Кандидатура игрока { $seat } уже выставлена на голосование.
error-nomination_used = У игрока { $seat } уже есть кандидатура — игрок { $target }: одна кандидатура в день ({ cite-4_4_3 }).
error-self_nomination = Выставлять себя нельзя (правило этой игры).
error-nomination_in_last_word = В последнем слове выставлять кандидатуру нельзя.
error-not_current_nominee = Сейчас голосуют против игрока { $expected }, а не { $seat }: голосование идёт в порядке выставления ({ cite-4_4_4 }).
error-too_many_hands = Слишком много рук: { $count }, а поднять можно не больше { $left }.
error-duplicate_shot = Выстрел игрока { $seat } указан дважды, а у каждого один выстрел за ночь: оставьте одну запись. Ничего не записано.
error-already_voted = Голос игрока { $seat } уже отдан: голосовать можно только против одной кандидатуры (4.1.8).
error-bad_count = Неверное значение: { $count }.
error-unknown_reason = Неизвестная причина наказания: «{ $reason }». Причины — номера пунктов правил (4.1.1 … 4.3.3) или foul, warning, dq, ppk.
error-unknown_role = Неизвестная роль: «{ $role }».
error-bad_roles = { $black ->
    [none] Укажите роли всех десяти мест.
   *[other] Неверная раздача: нужно 3 чёрных (из них 1 Дон) и 1 Шериф, а указано чёрных — { $black }, Донов — { $don }, Шерифов — { $sheriff }.
 }
error-roles_unknown = Роли не внесены.
error-roles_known = Роли внесены: итог игры определяется по правилам сам.
error-result_required = Роли не внесены, а за столом осталось игроков: { $at_table } — игра окончена. Объявите итог: /result red, black или draw.
error-team_required = Роли не внесены: укажите команду игрока { $seat } (красные или чёрные).
error-team_mismatch = Команда не та: по внесённым ролям игрок { $seat } — из команды { $actual ->
    [red] красных
   *[black] чёрных
 }, а указано { $team ->
    [red] red (красные)
   *[black] black (чёрные)
 }. В ППК указывают команду нарушителя (4.3). Ничего не изменено.
error-not_black = Стреляют только чёрные, а игрок { $seat } не из чёрной команды.
error-no_don = Дона уже нет за столом: проверки Дона нет, перейдите дальше.
error-no_sheriff = Шерифа уже нет за столом: проверки Шерифа нет, перейдите дальше.
error-best_move_not_due = Лучший ход сейчас не положен ({ cite-4_5_9 }).
error-bad_best_move = В лучшем ходе — от одного до трёх разных игроков.
error-no_foul = У игрока { $seat } нет фолов.
error-foul_has_consequences = { $why ->
    [removal] Фол игрока { $seat } снять нельзя: по этому фолу игрок уже вне игры.
    [silence_under_way] Фол игрока { $seat } снять нельзя: молчание за третий фол уже идёт: эта речь и есть молчание. Отменить фол можно через /undo (отменится и всё, что было позже).
    [last_word_cut] Фол игрока { $seat } снять нельзя: по четвёртому фолу последнее слово уже прервано.
   *[silence_served] Фол игрока { $seat } снять нельзя: молчание за третий фол уже отбыто.
 }
error-game_over = Игра окончена. Итоги — /result, новая игра — /new.
error-nothing_to_undo = Отменять нечего.
error-not_fixable = { $why ->
    [undone] Действие { $seq } уже отменено: исправлять нечего.
    [kind] Действие { $seq } исправляется только действием того же рода: фол — наказанием, выставление — выставлением, голоса — голосами, стрельба — стрельбой, проверка — проверкой.
    [same] Действие { $seq } и так такое: исправление ничего не меняет.
   *[no_such] Нет действия { $seq }, которое можно исправить: номера действий — в /log all (отмену и исправление не исправляют, их отменяют).
 }
error-fix_breaks = { $itself ->
    [yes] Исправление не принято: «{ $action }» на месте действия { $seq } правила не допускают. { $why }
   *[no] Исправление не принято: с ним было бы невозможно действие { $seq } «{ $action }». { $why }
 }
error-bad_name = { $why ->
    [invisible] Неверное имя для места { $seat }: в имени нет ни одного видимого знака.
   *[length] Неверное имя для места { $seat }: от 1 до 64 символов.
 }
error-name_taken = Имя «{ $name }» уже у места { $other }: один игрок — одно место за столом. Если это другой человек, добавьте к имени отличие (фамилию, букву); если неверно записано место { $other }, сначала исправьте имя этого места.
error-no_withdrawal = Отозвать кандидатуру нельзя: по правилам этой игры отзыва нет.
error-no_nomination = У игрока { $seat } сегодня нет кандидатуры: отзывать нечего.
error-voters_required = В первый день лидер голосования покидает игру, только если среди голосов против лидера есть и собственный голос лидера (правило этой игры): запишите номера голосовавших против игрока { $nominee }, а не только их число.

## Сервис

service-no_game = В этом чате нет игры. Начните новую: /new.
service-not_judge = Это может делать только судья игры.
service-stale = Кнопка устарела: игра уже изменилась. Вот текущее положение.
console-stale = Игру изменили в другом месте (другая консоль или бот на той же базе): команда не выполнена. Вот текущее положение:
service-game_exists = В этом чате уже идёт игра. Доиграйте её или начните заново.
service-nothing_to_undo = { $available ->
    [0] Отменять нечего.
   *[other] Столько не отменить: можно отменить не больше { $available } { $available ->
        [one] шага
       *[other] шагов
    }.
}

## Команды

command-empty_command = Пустая команда. Список команд: /help.
command-unknown_command = Неизвестная команда: { $command }. Список команд: /help.
command-too_long = Слишком длинное сообщение: { $length } { $length ->
    [one] символ
    [few] символа
   *[many] символов
 }, можно не больше { $limit }.
command-missing_argument = /{ $command }: не хватает: { $argument }. Подробнее: /help.
command-too_many_arguments = /{ $command }: лишнее «{ $argument }». Подробнее: /help.
command-bad_seat = /{ $command }: «{ $argument }» — не номер места (места с 1 по 10).
command-bad_argument = /{ $command }: не понимаю «{ $argument }». Подробнее: /help.
command-duplicate_seat = /{ $command }: место { $seat } указано дважды.
command-no_speaker = /{ $command }: сейчас никто не говорит — укажите, кто выставляет: /nominate 3 7.
command-wrong_reason = /{ $command }: причина { $code } ({ $reason }) — наказание другой тяжести.
command-unknown_preset = Неизвестный набор правил: «{ $preset }». Есть: seed, fiim2024, fsm2024.
command-unknown_option = Неизвестная опция: «{ $option }».
command-bad_option_value = Неверное значение опции { $option }: «{ $value }».
command-unknown_lang = Неизвестный язык: «{ $lang }». Есть: ru, en.
command-bad_undo = /{ $command }: отменить можно от 1 до { $limit } шагов, а не «{ $argument }».
command-result_known = /{ $command }: итог уже известен — игра окончена. Посмотреть итоги: /result; новая игра: /new.
command-bad_team = /{ $command }: «{ $argument }» — не команда. Команда: red или black (красные или чёрные).
command-bad_fix = /{ $command }: «{ $argument }» — не действие игры. Исправление — это действие того же рода, например /fix 12 /foul 5 4.1.1 (номера действий — в /log all).
command-duplicate_option = /new: опция { $option } указана дважды — оставьте одно значение.
command-unknown_reason = /{ $command }: неизвестная причина «{ $reason }». Причины этой игры: { $codes }.
command-no_technical_fouls = /{ $command }: в правилах этой игры нет технических фолов (они есть в игре, начатой с опцией technical_fouls=yes: /new … technical_fouls=yes). Фол — /foul.

what-seat = номер места
what-name = имя
what-roles = роли
what-count = число голосов
what-shots = выстрелы
what-lang = язык
what-points = число баллов
what-item = номер пункта
what-action = номер действия (из /log all)
what-command = исправленное действие, например /foul 5 4.1.1
