# Общие слова: места, числа с падежами, фазы, роли, команды, наборы правил.
# Места — по номеру («№5»); имена игроков — только в панели судьи и в итогах.

seat = №{ $n }
seat-named = №{ $n } { $name }
shot = { $shooter } → { $target ->
    [none] никого
   *[other] { $target }
 }

## Числа с падежами (категории one / few / many — через Babel).

seconds = { $count } { $count ->
    [one] секунда
    [few] секунды
   *[many] секунд
 }
fouls = { $count } { $count ->
    [one] фол
    [few] фола
   *[many] фолов
 }
votes = { $count } { $count ->
    [one] голос
    [few] голоса
   *[many] голосов
 }
players = { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
 }
warnings = { $count } { $count ->
    [one] предупреждение
    [few] предупреждения
   *[many] предупреждений
 }

## Фазы игры и шаги ночи.

phase-setup = подготовка
phase-night_zero = договорка (нулевая ночь)
phase-last_word = последнее слово
phase-speech = речи
phase-voting = голосование
phase-tie_speech = речи перед переголосованием
phase-leader_speech = слово лидеру голосования
phase-raise_vote = голосование за подъём
phase-night = ночь
phase-game_over = игра окончена

step-shooting = стрельба
step-don_check = проверка Дона
step-sheriff_check = проверка Шерифа
step-best_move = лучший ход

## Роли и команды.

role-civilian = мирный житель
role-sheriff = Шериф
role-mafia = мафия
role-don = Дон

team-red = красные
team-black = чёрные
team-of-red = красных
team-of-black = чёрных

roles-part = { $role } — { $seats }
roles-rest = остальные — мирные

## Как игрок покинул игру.

cause-vote = по итогам голосования
cause-raise = по итогам голосования за подъём
cause-kill = ночное убийство
cause-fouls = 4 фола
cause-disqualification = дисквалифицирующий фол
cause-team_loss = ППК

## Наборы правил.

preset-seed = правила ФИИМ (редакция клуба)
preset-fiim2024 = правила ФИИМ 2024
preset-fsm2024 = правила ФСМ 2024

## Правила этой игры, отличные от набора правил (rules.changed_options): коротко, для судьи.

rules-with-options = { $preset } с поправками: { $options }
option-first_day_vote-single_not_voted = в первый день одна кандидатура не голосуется
option-first_day_vote-normal = первый день голосуется как любой другой
option-first_day_vote-no_vote = в первый день голосования нет
option-first_day_vote-raise_only = в первый день лидер голосования остаётся (30 с), уходят только по подъёму
option-first_day_vote-no_break = в первый день лидер голосования остаётся без слова, уходят только по подъёму
option-first_day_vote-self_break = в первый день лидер голосования уходит, только если среди голосов против лидера есть и собственный голос лидера
option-first_day_leader_speech-yes = лидер первого дня, который остаётся, получает 30 с
option-first_day_leader_speech-no = лидер первого дня, который остаётся, не получает слова
option-unvoted_hands_to_last-yes = неподнятые руки отходят последней кандидатуре
option-unvoted_hands_to_last-no = неподнятые руки никому не отходят
option-self_nomination-yes = выставлять себя можно
option-self_nomination-no = выставлять себя нельзя
option-revote_order-same = переголосование в том же порядке
option-revote_order-reverse = переголосование в обратном порядке
option-raise_vote-yes = голосование за подъём проводится
option-raise_vote-no = голосования за подъём нет
option-raise_2_of_4-yes = двоих из четырёх поднимают
option-raise_2_of_4-no = двоих из четырёх не поднимают
option-raise_3_of_9-yes = троих из девяти поднимают
option-raise_3_of_9-no = троих из девяти не поднимают
option-raise_3_of_9_from_day = троих из девяти поднимают с { $value }-го дня
option-third_foul-silence = третий фол — без слова в ближайшую минуту
option-third_foul-short_speech = третий фол — ближайшая речь 30 с
option-third_foul-none = третий фол без последствий
option-third_foul_cuts_current_speech-yes = третий фол обрывает текущую речь
option-third_foul_cuts_current_speech-no = третий фол не обрывает текущую речь
option-best_move-yes = лучший ход есть
option-best_move-no = лучшего хода нет
option-best_move_blocked_by_day1_departures = лучшего хода нет, если в первый день ушли { $value } и больше
option-draw_quiet_nights = ничья после { $value } ночей без выбывших
option-draw_declared-after_third_day = ничья объявляется в конце «дня»
option-draw_declared-after_third_night = ничья объявляется в конце «ночи»
option-last_word_on_decisive_event-yes = последнее слово после решающего голосования или выстрела
option-last_word_on_decisive_event-no = без последнего слова после решающего голосования или выстрела
option-single_nominee_decided-yes = единственная кандидатура от последнего говорящего (со 2-го дня) — результат уже определён: удаление до голосования отменяет голосование следующего дня
option-single_nominee_decided-no = единственная кандидатура от последнего говорящего — ещё не результат: удаление до голосования отменяет сегодняшнее
option-rotation-first = день открывает следующий за открывавшим вчера
option-rotation-last = день закрывает следующий за закрывавшим вчера
option-nomination_withdrawal-none = кандидатуру не отзывают
option-nomination_withdrawal-explicit = кандидатуру можно отозвать в свою минуту
option-nomination_withdrawal-auto = новая кандидатура в свою минуту заменяет прежнюю
option-raise_whole_table-yes = подъём всего стола — ничья
option-raise_whole_table-no = весь стол не поднимают
option-technical_fouls-yes = технические фолы: второй удаляет
option-technical_fouls-no = технических фолов нет
option-record_voters-yes = руки записываются по местам
option-record_voters-no = руки записываются числом
option-timer = { $timer } — { $seconds }
timer-speech = речь
timer-tie_speech = речь перед переголосованием
timer-short_speech = укороченная речь
timer-last_word = последнее слово
timer-mafia_meeting = договорка
timer-sheriff_look = осмотр стола Шерифом в нулевую ночь
timer-free_seating = свободная посадка в нулевую ночь
timer-shooting = стрельба
timer-don_check = проверка Дона
timer-sheriff_check = проверка Шерифа
timer-best_move = лучший ход
timer-vote_window = голосование за кандидатуру

## Действия (для отказов «сейчас нельзя …»).

event-set_name = записать имя
event-set_roles = внести роли
event-start_game = начать игру
event-next = перейти дальше
event-nominate = выставить кандидатуру
event-vote = записать голоса
event-raise_vote = записать голосование за подъём
event-night_kill = записать стрельбу
event-shots = записать выстрелы
event-don_check = записать проверку Дона
event-sheriff_check = записать проверку Шерифа
event-best_move = записать лучший ход
event-penalty = дать наказание
event-withdraw_foul = снять фол
event-withdraw_nomination = отозвать кандидатуру
event-declare_result = объявить итог
event-undo = отменить действие
event-fix = исправить действие

## Итог игры (F24 §1.4, seed 5.8, 4.3).

end-all_black_out = Победа красных: все чёрные игроки покинули игру.
end-parity = Победа чёрных: чёрных за столом не меньше, чем красных.
end-draw = Ничья: три «ночи» и три «дня» подряд, начиная с «ночи», — без выбывших (5.8).
# Ничья по правилу набора (rules.DrawDeclared): seed 5.8 — «ночи» и «дни», ФИИМ/ФСМ 2024 §7.7 — «ночи».
end-draw-after_third_day = Ничья: { $nights_text } и { $days_text } подряд, начиная с «ночи», — без выбывших ({ cite-5_8 }).
end-draw-after_third_night = Ничья: { $nights_text } подряд без выбывших ({ cite-7_7 }).
draw-nights = { $count ->
    [3] три «ночи»
    [one] { $count } «ночь»
    [few] { $count } «ночи»
   *[many] { $count } «ночей»
 }
draw-days = { $count ->
    [3] три «дня»
    [one] { $count } «день»
    [few] { $count } «дня»
   *[many] { $count } «дней»
 }
end-team_loss = { $winner ->
    [black] Победа чёрных: ППК — поражение команды красных.
   *[red] Победа красных: ППК — поражение команды чёрных.
 }
end-declared = { $winner ->
    [red] Судья объявляет победу красных.
    [black] Судья объявляет победу чёрных.
   *[draw] Судья объявляет ничью.
 }
end-table_raised = Ничья: все игроки за столом покинули игру по голосованию за подъём (правило этой игры).

## Почему голосование не проводится или никто не покидает игру.

novote-5_1 = удаление игрока{ $seat ->
    [none] { "" }
   *[other] { " " }{ $seat }
 }{ removal-why } ({ cite-5_1 })
novote-5_2 = удаление игрока{ $seat ->
    [none] { "" }
   *[other] { " " }{ $seat }
 }{ removal-why } после того, как был определён результат голосования ({ cite-5_2 })
# Чем вызвано удаление: четвёртый фол или дисквалификация с её пунктом (без пункта — ночью).
removal-why = { $cause ->
    [fouls] : четвёртый фол
    [none] { "" }
   *[other] : дисквалификация{ $code ->
        [none] { "" }
        [dq] { "" }
       *[other] { " " }({ $code })
    }
 }
novote-no_nominees = кандидатур нет
novote-first_day_no_vote = в первый день голосования нет (правило этой игры)
novote-4_4_10 = в первый день выставлена только одна кандидатура ({ cite-4_4_10 })
novote-5_6 = за столом три игрока, и они дважды набрали одинаковое количество голосов ({ cite-5_6 })
novote-5_9 = голосование за подъём всех игроков, находящихся за столом, не проводится ({ cite-5_9 })
novote-3_of_9 = голосование за подъём трёх игроков при девяти за столом не проводится ({ cite-7_11 })
novote-2_of_4 = голосование за подъём двух игроков при четырёх за столом не проводится (правило этой игры)
novote-no_raise_vote = голосование за подъём не проводится (правило этой игры)
novote-raise_failed = за подъём проголосовало не больше половины игроков ({ cite-4_4_12_3 })
novote-first_day_raise_only = в первый день лидер голосования остаётся за столом, покинуть игру можно только по голосованию за подъём (правило этой игры)
novote-first_day_no_break = в первый день лидер голосования остаётся за столом, слова не получает (правило этой игры)
novote-first_day_self_break = в первый день лидер голосования покидает игру, только если среди голосов против лидера есть и собственный голос лидера (правило этой игры)

## Ссылки на правила: каждый набор правил называет свои номера ($rules — набор правил игры).
# Пункты сида — под seed; там, где сид молчит, — ФИИМ 2024 (docs/rules.md §1). Правило, которое
# опция берёт из другого набора, называет тот набор: ничья seed 5.8 при наборах 2024 года — из
# редакции клуба, F24 §7.11 при fsm2024 — из ФИИМ (в тексте ФСМ такого пункта нет).
cite-4_3 = { $rules ->
    [fiim2024] ФИИМ 2024, §6.8
    [fsm2024] ФСМ 2024, §6.8
   *[other] 4.3
 }
cite-4_4 = { $rules ->
    [fiim2024] ФИИМ 2024, §6.4
    [fsm2024] ФСМ 2024, §6.4
   *[other] 4.4
 }
cite-4_5 = { $rules ->
    [fiim2024] ФИИМ 2024, §6.5
    [fsm2024] ФСМ 2024, §6.5
   *[other] 4.5
 }
cite-5_1 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.1
    [fsm2024] ФСМ 2024, §7.1
   *[other] 5.1
 }
cite-5_2 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.2
    [fsm2024] ФСМ 2024, §7.2
   *[other] 5.2
 }
cite-5_3 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.3
    [fsm2024] ФСМ 2024, §7.3
   *[other] 5.3
 }
cite-5_6 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.8
    [fsm2024] ФСМ 2024, §7.8
   *[other] 5.6
 }
cite-5_7 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.6
    [fsm2024] ФСМ 2024, §7.6
   *[other] 5.7
 }
cite-5_8 = { $rules ->
    [fiim2024] редакция клуба, 5.8
    [fsm2024] редакция клуба, 5.8
   *[other] 5.8
 }
cite-5_9 = { $rules ->
    [fiim2024] ФИИМ 2024, §7.8
    [fsm2024] ФСМ 2024, §7.8
   *[other] 5.9
 }
cite-4_4_2 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.2
   *[other] ФИИМ 2024, §4.4.2
 }
cite-4_4_3 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.3
   *[other] ФИИМ 2024, §4.4.3
 }
cite-4_4_4 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.4
   *[other] ФИИМ 2024, §4.4.4
 }
cite-4_5_6 = { $rules ->
    [fsm2024] ФСМ 2024, §4.5.6
   *[other] ФИИМ 2024, §4.5.6
 }
cite-4_5_7 = { $rules ->
    [fsm2024] ФСМ 2024, §4.5.7
   *[other] ФИИМ 2024, §4.5.7
 }
cite-4_5_9 = { $rules ->
    [fsm2024] ФСМ 2024, §4.5.9, §7.10
   *[other] ФИИМ 2024, §4.5.9, §7.10
 }
cite-4_4_8 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.8
   *[other] ФИИМ 2024, §4.4.8
 }
cite-4_4_10 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.10
   *[other] ФИИМ 2024, §4.4.10
 }
cite-1_4 = { $rules ->
    [fsm2024] ФСМ 2024, §1.4
   *[other] ФИИМ 2024, §1.4
 }
cite-4_4_11 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.11
   *[other] ФИИМ 2024, §4.4.11
 }
cite-4_4_12 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.12
   *[other] ФИИМ 2024, §4.4.12
 }
cite-4_4_12_3 = { $rules ->
    [fsm2024] ФСМ 2024, §4.4.12.3
   *[other] ФИИМ 2024, §4.4.12.3
 }
cite-6_8_5 = { $rules ->
    [fsm2024] ФСМ 2024, §6.8.5
   *[other] ФИИМ 2024, §6.8.5
 }
cite-6_8_6 = { $rules ->
    [fsm2024] ФСМ 2024, §6.8.6
   *[other] ФИИМ 2024, §6.8.6
 }
cite-7_7 = { $rules ->
    [fsm2024] ФСМ 2024, §7.7
   *[other] ФИИМ 2024, §7.7
 }
cite-7_9 = { $rules ->
    [fsm2024] ФСМ 2024, §7.9
   *[other] ФИИМ 2024, §7.9
 }
cite-7_10 = { $rules ->
    [fsm2024] ФСМ 2024, §7.10
   *[other] ФИИМ 2024, §7.10
 }
cite-7_11 = ФИИМ 2024, §7.11

# Слова пользователя, которые ответ в группе не повторяет (вместо них — это).
said-unquoted = …
