# Панель судьи (status-*, action-*) и итоги игры (result-*).

## Заголовок

status-setup = Подготовка к игре: { $preset }.
status-rules = Правила: { $rules }.
status-night-zero = Нулевая ночь — договорка.
status-day = День { $day } — { $phase }.
status-night = Ночь { $night } — { $step }.
status-over = Игра окончена. { $outcome }

## Кто говорит

status-turn-speech = Говорит игрок { $seat } — { $seconds }.
status-turn-silenced = Игрок { $seat }: третий фол — без слова в эту минуту ({ cite-4_4 }), можно только выставить кандидатуру.
status-turn-last_word = Последнее слово игрока { $seat } — { $seconds }.
status-turn-tie_speech = Слово перед переголосованием: игрок { $seat } — { $seconds }.
status-turn-leader_speech = Слово лидеру голосования (остаётся за столом): игрок { $seat } — { $seconds }.

## Голосование

status-vote-banned = На { $day }-й день голосование не проводится ({ $rule }): удаление игрока { $seat }{ removal-why }.
status-roles-unknown = Роли не внесены: итог игры объявляет судья.
status-nominees = Выставлены (только для судьи, { cite-5_4 }): { $seats }.
status-no-nominees = Кандидатур нет.
status-count = { $seat } — { $votes }
status-ballot = { $round ->
    [0] Голосование
   *[other] Переголосование
 } среди игроков { $seats }{ $counts ->
    [none] .
   *[other] : { $counts }.
 }
status-raise = Голосование за подъём игроков { $seats }.
status-result-fixed = Итог уже определён. { $outcome } Объявить после последнего слова ({ cite-7_9 }).

## Места

status-seats = Игроки:
status-seat = { $seat }: { $facts }
status-disqualified = дисквалификация
status-short-pending = ближайшая речь — { $seconds } (третий фол, { $why ->
    [option] правило этой игры
   *[other] { cite-5_7 }
 })
status-silence-pending = без слова в ближайшую минуту (третий фол, { cite-4_4 })

left-vote = покидает игру по итогам голосования (день { $day })
left-raise = покидает игру по итогам голосования за подъём (день { $day })
left-kill = покидает игру: ночное убийство (ночь { $day })
left-fouls = удаление: 4 фола, { $when ->
    [night] ночь
   *[day] день
 } { $day } ({ cite-4_5 })
left-disqualification = удаление: дисквалификация{ $reason ->
    [none] { "" }
   *[other] { " — " }{ $reason } ({ $code })
 }, { $when ->
    [night] ночь
   *[day] день
 } { $day }
left-team_loss = ППК — команде присуждается поражение ({ $when ->
    [night] ночь
   *[day] день
 } { $day })

## Что дальше

action-start = Дальше: имена (/name), роли (/roles), затем начало игры — /start.
action-next = Дальше: договорка — { $seconds }; затем /next — наступает утро.
action-speech = Дальше: речь игрока { $seat } — { $seconds }. Выставить кандидатуру — /nominate, закончить речь — /next.
action-silenced = Дальше: игрок { $seat } без слова ({ cite-4_4 }), но может выставить кандидатуру — /nominate; дальше — /next.
action-last_word = Дальше: последнее слово игрока { $seat } — { $seconds }; закончить — /next.
action-tie_speech = Дальше: слово игрока { $seat } перед переголосованием — { $seconds }; закончить — /next.
action-leader_speech = Дальше: слово лидеру голосования, игроку { $seat }, — { $seconds }; закончить — /next, затем ночь.
action-vote = Кто за то, чтобы игроку { $nominee } покинуть игровой стол? Осталось: { $left }. Запишите: /vote { $n } и число голосов.
action-raise_vote = Кто за то, чтобы все голосуемые игроки ({ $seats }) покинули игровой стол? Нужно не меньше { $need } из { $at_table }. Запишите: /raise и число голосов.
action-shooting = Дальше: стрельба — /kill и номер, /shots или промах — /miss.
action-don_check = Дальше: проверка Дона — /don и номер; без проверки — /next.
action-sheriff_check = Дальше: проверка Шерифа — /sheriff и номер; без проверки — /next.
action-best_move = Дальше: лучший ход игрока { $seat } — /bestmove и до трёх номеров; без лучшего хода — /next.
action-none = Игра окончена.

## Итоги

result-title = Итоги игры. { $outcome }
result-not-over = Игра ещё не окончена.
result-departures = Покинули игру по порядку:
result-departure = { $index }. { $seat } — { $how }
result-no-departures = Выбывших нет.
result-fouls = Фолы: { $list }.
result-no-fouls = Фолов нет.
result-best-move = Лучший ход игрока { $seat }: { $guesses }.
result-best-move-hits = Лучший ход игрока { $seat }: { $guesses } (чёрных: { $hits }).
result-roles = Роли: { $roles }.
result-roles-unknown = Роли не вносились.
