# Объявления: одно сообщение на каждый rules.Kind (notice-<kind>).
# В публичных объявлениях нет ролей (F24 §4.4.13, §4.5.4) и списка кандидатур (seed 5.4).
# Приватные (только судье): roles_set, shooting_result, don_check, sheriff_check,
# best_move_hits, removed_details, result_fixed.

notice-unknown = Событие: { $kind }.

## Подготовка

notice-name_set = Место { $seat }: { $name }.
notice-roles_set = { $known ->
    [yes] Роли внесены.
   *[no] Игра без внесённых ролей: итог объявляет судья.
 }
notice-game_started = Игра начинается: { $preset }.{ $roles_known ->
    [no] {" "}Роли не внесены: итог игры объявит судья (/result), проверки и лучший ход без ответа.
   *[other] {""}
 }
notice-night_zero = Наступает ночь. Договорка — { $seconds }.

## День

notice-day_starts = День { $day }. За столом { $players }; первым говорит игрок { $opener }.
notice-night_result = Наступает утро. { $killed ->
    [none] { $removed_n ->
        [0] Промах: этой ночью никто не покидает игру.
       *[other] Промах: этой ночью никто не убит.
    }
   *[other] { $killed_removed ->
        [disqualification] Ночной выстрел пришёлся в игрока { $killed }, но этой ночью это место уже опустело: последнего слова нет ({ cite-4_5 }), голосование дня проводится.
        [fouls] Ночной выстрел пришёлся в игрока { $killed }, но этой ночью это место уже опустело: последнего слова нет ({ cite-4_5 }), голосование дня проводится.
       *[other] Этой ночью убит игрок { $killed }.
    }
 }
notice-last_word = Последнее слово игрока { $seat } — { $seconds }.
notice-speech = { $silenced ->
    [yes] Игрок { $seat } лишается слова в эту минуту (третий фол, { cite-4_4 }), но может выставить кандидатуру.
   *[no] { $short ->
        [yes] Слово игроку { $seat } — { $seconds } (третий фол: речь сокращена, { cite-5_7 }).
       *[no] Слово игроку { $seat } — { $seconds }.
    }
 }
notice-speech_skipped = Речь игрока { $seat } пропускается.
notice-nominated = Игрок { $by } выставляет игрока { $target }. Принято.
notice-nomination_withdrawn = Игрок { $by } отзывает кандидатуру игрока { $target }. Отозвано (правило клуба).
notice-vote_not_held = Голосование не проводится: { $why }.
notice-voting_starts = { $round ->
    [0] Голосование. { $nominees_n ->
        [one] На голосование выставлен игрок { $nominees }.
       *[other] На голосование выставлены игроки { $nominees }.
    }
   *[other] Переголосование: игроки { $nominees }.
 }
notice-vote_counted = { $derived ->
    [yes] { $count ->
        [0] Против игрока { $nominee } — { $votes }.
       *[other] Против игрока { $nominee } — { $votes }: неподнятые руки отходят последней кандидатуре ({ cite-4_4_8 }).
    }
   *[no] Против игрока { $nominee } — { $votes }.
 }
notice-off_ballot = Игрок { $seat } покидает игру и снимается с голосования: против него больше не голосуют ({ cite-5_2 }).{ $last ->
    [none] { "" }
   *[other] { " " }Последней кандидатурой становится игрок { $last }: ему отходят неподнятые руки ({ cite-4_4_8 }).
 }
notice-tie = Равное количество голосов: игроки { $seats }. Каждому — слово перед переголосованием ({ cite-4_4_12 }).
notice-tie_speech = Слово игроку { $seat } перед переголосованием — { $seconds }.
notice-raise_vote = Игроки { $seats } снова набрали поровну. Кто за то, чтобы все голосуемые игроки покинули игровой стол? Нужно больше половины: не меньше { $need } из { $at_table } ({ cite-4_4_12_3 }).
notice-raise_result = За подъём — { $yes } из { $at_table }: { $passed ->
    [yes] больше половины.
   *[no] не больше половины, все остаются за столом.
 }
notice-nobody_leaves = Никто не покидает игру: { $why }.
notice-leaves_by_vote = { $cause ->
    [raise] По итогам голосования за подъём игру покидают игроки { $seats }.
   *[vote] По итогам голосования игру покидает игрок { $seats }.
 }
notice-leader_stays = Больше всех голосов у игрока { $seat }, но в первый день он остаётся за столом; ему — слово, { $seconds } (правило клуба).
notice-vote_cancelled = Сегодня, на { $day }-й день, голосование не проводится ({ $rule }): удаление игрока { $seat }{ removal-why }.
notice-next_vote_cancelled = На { $day }-й день голосование не проводится ({ $rule }): удаление игрока { $seat }{ removal-why }.
notice-night_falls = Наступает ночь.

## Ночь

notice-night_step = { $step ->
    [shooting] Мафия выходит на охоту.
    [don_check] Просыпается Дон и ищет Шерифа — { $seconds }.
    [sheriff_check] Просыпается Шериф — { $seconds }.
   *[best_move] Лучший ход — { $seconds }.
 }
notice-shooting_result = { $why ->
    [kill] Стрельба: убит игрок { $killed }.
    [not_at_table] Стрельба: промах — этот игрок уже не за столом.
   *[miss] Стрельба: промах{ $silent_n ->
        [0] .
        [one] { " " }(не стрелял игрок { $silent }).
       *[other] { " " }(не стреляли игроки { $silent }).
    }
 }{ $has_shots ->
    [yes] { " " }Выстрелы: { $shots }.
   *[no] { "" }
 }
notice-don_check = Дон проверяет игрока { $target }: { $sheriff ->
    [yes] Шериф.
    [no] не Шериф.
   *[none] роли не внесены, ответ по карте.
 }
notice-sheriff_check = Шериф проверяет игрока { $target }: { $black ->
    [yes] чёрный.
    [no] красный.
   *[none] роли не внесены, ответ по карте.
 }
notice-best_move_due = Игрок { $seat }, вас убили. Лучший ход: назовите трёх игроков — { $seconds }.
notice-best_move = Лучший ход игрока { $seat }: { $guesses }. Принято.
notice-best_move_hits = Лучший ход игрока { $seat }: угадано чёрных — { $hits }.

## Наказания

notice-warning = { $generic ->
    [yes] Игроку { $seat } — устное предупреждение.
   *[no] Игроку { $seat } — устное предупреждение: { $reason } ({ $code }).
 }
notice-foul = { $generic ->
    [yes] Игроку { $seat } — фол. У него { $fouls }.
   *[no] Игроку { $seat } — фол: { $reason } ({ $code }). У него { $fouls }.
 }
notice-third_foul = { $effect ->
    [silence] { $short ->
        [yes] Игрок { $seat } получает третий фол: за столом три или четыре игрока, поэтому его ближайшая речь — { $seconds } ({ cite-5_7 }).
       *[no] Игрок { $seat } получает третий фол: лишается слова в ближайшую минуту, но может выставить кандидатуру ({ cite-4_4 }).
    }
    [short_speech] Игрок { $seat } получает третий фол: его ближайшая речь будет сокращена до { $seconds }, выставить кандидатуру он может.
   *[none] Игрок { $seat } получает третий фол.
 }
notice-tech_foul = { $count ->
    [1] Игроку { $seat } — технический фол (правило клуба): второй технический фол удаляет из игры.
   *[other] Игроку { $seat } — второй технический фол (правило клуба).
 }
notice-removed = { $last_word ->
    [cut] Игрок { $seat }: { removal-what } — его последнее слово окончено ({ cite-4_5 }).
    [lost] Игрок { $seat }: { removal-what } — он лишается последнего слова ({ cite-4_5 }).
    [killed] Судье: игрок { $seat }, убитый этой ночью, удалён — { removal-what }. Утром он объявляется убитым и удалённым; по умолчанию — без последнего слова и лучшего хода ({ cite-4_5 }), дать ли их, решает судья. Следующее голосование проводится ({ cite-5_1 }).
   *[other] { $mode ->
        [fouls] Игрок { $seat } покидает игру без последнего слова: четвёртый фол ({ cite-4_5 }).
        [dq_item] Игрок { $seat } покидает игру без последнего слова: дисквалификация — { $reason } ({ $code }; { cite-4_5 }).
        [dq] Игрок { $seat } покидает игру без последнего слова: дисквалификация ({ cite-4_5 }).
       *[night] Игрок { $seat } удалён и покидает игру без последнего слова ({ cite-4_5 }).
    }
 }{ $tournament ->
    [yes] { " " }Он также удаляется с турнира ({ cite-5_3 }).
   *[no] { "" }
 }
# Что дано: четвёртый фол или дисквалификация с её пунктом.
removal-what = { $cause ->
    [fouls] четвёртый фол
   *[other] дисквалификация{ $generic ->
        [yes] { "" }
       *[other] { " " }— { $reason } ({ $code })
    }
 }
notice-removed_details = { $generic ->
    [yes] Причина удаления игрока { $seat }: { $reason }.
   *[no] Причина удаления игрока { $seat }: { $reason } ({ $code }).
 }{ $tournament ->
    [yes] { " " }Удаление с турнира ({ cite-5_3 }).
   *[no] { "" }
 }
notice-team_loss = { $final_minute ->
    [yes] ППК — поражение команды { $team_of }: игрок { $seat } — { $reason } ({ $code }) в последнем слове ({ cite-6_8_5 }).
   *[other] { $generic ->
        [yes] ППК — поражение команды { $team_of }: нарушение игрока { $seat } ({ cite-4_3 }).
       *[no] ППК — поражение команды { $team_of }: игрок { $seat } — { $reason } ({ $code }).
    }
 }
notice-foul_withdrawn = Фол игрока { $seat } снят; у него { $fouls }.
notice-penalty_after_result = { $over ->
    [yes] После игры: игрок { $seat } — { penalty-what }. Записано в протокол; результат игры не меняется ({ cite-7_9 }).
   *[other] Нарушение игрока { $seat } — { penalty-what } — записано в протокол; результат игры уже определён и не меняется ({ cite-6_8_6 }).
 }
penalty-what = { $severity ->
    [warning] устное предупреждение
    [foul] фол
    [disqualifying] дисквалификация
    [team_loss] ППК
   *[other] нарушение
 }{ $generic ->
    [yes] { "" }
   *[other] { " " }({ $code })
 }

## Конец игры

notice-result_fixed = Результат определён. { $outcome } Он будет объявлен после последнего слова ({ cite-7_9 }).
notice-game_over = Игра окончена. { $outcome }{ $has_roles ->
    [yes] { " " }Роли: { $roles }.
   *[no] { "" }
 }
notice-judge_must_check_end = Роли не внесены, за столом { $players }. Судья, проверьте, не окончена ли игра (чёрных не осталось или их не меньше, чем красных), и объявите итог.
