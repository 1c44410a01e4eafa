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
        [one] Промах: этой ночью никто не убит, но игру покинул удалённый игрок { $removed } (4.5).
       *[other] Промах: этой ночью никто не убит, но игру покинули удалённые игроки { $removed } (4.5).
    }
   *[other] Этой ночью убит игрок { $killed }.{ $removed_n ->
        [0] { "" }
        [one] { " " }Кроме того, игру покинул удалённый игрок { $removed } (4.5).
       *[other] { " " }Кроме того, игру покинули удалённые игроки { $removed } (4.5).
    }
 }
notice-last_word = Последнее слово игрока { $seat } — { $seconds }.
notice-speech = { $silenced ->
    [yes] Игрок { $seat } лишается слова в эту минуту (третий фол, 4.4), но может выставить кандидатуру.
   *[no] { $short ->
        [yes] Слово игроку { $seat } — { $seconds } (третий фол: речь сокращена, 5.7).
       *[no] Слово игроку { $seat } — { $seconds }.
    }
 }
notice-speech_skipped = Речь игрока { $seat } пропускается.
notice-nominated = Игрок { $by } выставляет игрока { $target }. Принято.
notice-vote_not_held = Голосование не проводится: { $why }.
notice-voting_starts = { $round ->
    [0] Голосование. { $nominees_n ->
        [one] На голосование выставлен игрок { $nominees }.
       *[other] На голосование выставлены игроки { $nominees }.
    }
   *[other] Переголосование: игроки { $nominees }.
 }
notice-vote_counted = { $derived ->
    [yes] Против игрока { $nominee } — { $votes }: неподнятые руки отходят последней кандидатуре (ФИИМ 2024, 4.4.8).
   *[no] Против игрока { $nominee } — { $votes }.
 }
notice-off_ballot = Игрок { $seat } покинул игру и снят с голосования: против него больше не голосуют (5.2).{ $last ->
    [none] { "" }
   *[other] { " " }Последней кандидатурой становится игрок { $last }: ему отходят неподнятые руки (ФИИМ 2024, 4.4.8).
 }
notice-tie = Равное количество голосов: игроки { $seats }. Каждому — слово перед переголосованием (ФИИМ 2024, 4.4.12).
notice-tie_speech = Слово игроку { $seat } перед переголосованием — { $seconds }.
notice-raise_vote = Игроки { $seats } снова набрали поровну. Кто за то, чтобы все голосуемые игроки покинули игровой стол? Нужно больше половины: не меньше { $need } из { $at_table } (ФИИМ 2024, 4.4.12.3).
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
notice-vote_cancelled = Голосование дня { $day } не проводится ({ $rule }): игрок { $seat } покинул игру с 4-м или дисквалифицирующим фолом.
notice-next_vote_cancelled = В день { $day } голосование не проводится ({ $rule }): игрок { $seat } покинул игру с 4-м или дисквалифицирующим фолом.
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
    [silence] Игрок { $seat } получает третий фол: лишается слова в ближайшую минуту, но может выставить кандидатуру (4.4).
    [short_speech] Игрок { $seat } получает третий фол: его ближайшая речь будет сокращена, выставить кандидатуру он может.
   *[none] Игрок { $seat } получает третий фол.
 }
notice-removed = { $mode ->
    [fouls] Игрок { $seat } покидает игру без последнего слова (4-й фол, 4.5).
    [dq_item] Игрок { $seat } покидает игру без последнего слова: дисквалифицирующий фол — { $reason } ({ $code }, 4.5).
    [dq] Игрок { $seat } покидает игру без последнего слова: дисквалифицирующий фол (4.5).
   *[night] Игрок { $seat } удалён и покидает игру без последнего слова (4.5).
 }{ $tournament ->
    [yes] { " " }Он также удаляется с турнира (5.3).
   *[no] { "" }
 }
notice-removed_details = { $generic ->
    [yes] Причина удаления игрока { $seat }: { $reason }.
   *[no] Причина удаления игрока { $seat }: { $reason } ({ $code }).
 }{ $tournament ->
    [yes] { " " }Удаление с турнира (5.3).
   *[no] { "" }
 }
notice-team_loss = { $generic ->
    [yes] ППК — поражение команды { $team_of }: нарушение игрока { $seat } (4.3).
   *[no] ППК — поражение команды { $team_of }: игрок { $seat } — { $reason } ({ $code }).
 }
notice-foul_withdrawn = Фол игрока { $seat } снят; у него { $fouls }.
notice-penalty_after_result = Нарушение игрока { $seat } зафиксировано; результат игры не меняется (ФИИМ 2024, 7.9).

## Конец игры

notice-result_fixed = Результат определён. { $outcome } Он будет объявлен после последнего слова (ФИИМ 2024, 7.9).
notice-game_over = Игра окончена. { $outcome }{ $has_roles ->
    [yes] { " " }Роли: { $roles }.
   *[no] { "" }
 }
notice-judge_must_check_end = Роли не внесены, за столом { $players }. Судья, проверьте, не окончена ли игра (чёрных не осталось или их не меньше, чем красных), и объявите итог.
