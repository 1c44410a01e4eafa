# Игроки клуба от игры к игре (issue 17; bot/club/answers.py). Баллы — как в протоколе.

club-period-all = все игры
club-period-season = сезон { $label }
club-period-month = месяц { $label }
club-period-today = сегодня
club-period-dates = { $label }
club-result-red = победа красных
club-result-black = победа чёрных
club-result-draw = ничья
club-role-civilian = мирный житель
club-role-sheriff = Шериф
club-role-mafia = мафия
club-role-don = Дон
club-order-points = баллам
club-order-wins = победам
club-order-winrate = проценту побед
club-order-elo = силе (Глико-2)
club-no-games = В истории клуба пока нет игр: в неё входят оконченные игры с именами игроков и внесёнными ролями (игра вслепую, /roles unknown, в неё не входит). Имена игры можно внести и после её конца: /name 3 Вася.
club-bad-count = /games: число от 1 до { $most }.
club-games-title = Последние игры клуба ({ $count }):
club-games-line = Игра №{ $game }, { $date }: { $result }; больше всех баллов: { $best } ({ $points }){ $link ->
    [none] {""}
   *[other] ; протокол: { $link }
 }
club-no-player = В составе клуба нет игрока «{ $name }» (состав: /roster).
club-stats-whom = Чья статистика? /stats Имя (состав: /roster).
club-stats-none = { $name }: нет игр за период «{ $period }».
club-stats-title = { $name }, { $period }:
club-stats-games = игр { $games }, побед { $wins } ({ $rate })
club-stats-points = баллов { $points } (дополнительных { $additional })
club-stats-role = — { $role }: игр { $games }, побед { $wins } ({ $rate })
club-stats-best-move = лучших ходов { $count }, угадано чёрных { $hits }
club-card-place = №
club-card-name = Игрок
club-card-points = Баллы
club-card-wins = Победы
club-card-games = Игры
club-card-rate = % побед
club-card-strength = Сила
club-card-chart-games = Баллы за игру
club-card-chart-months = Баллы за месяц
club-stats-strength = сила (Глико-2) { $rating } ± { $rd }, игр в расчёте { $games }
club-stats-penalties = убийств в первую ночь { $first }; фолов { $fouls }; удалений { $removed }
club-top-title = Лучшие по { $order }{ $role ->
    [none] {""}
   *[other] , роль: { $role }
 }, { $period } (не меньше { $least ->
    [one] { $least } игры
   *[other] { $least } игр
 }):
club-top-empty = Нет игроков хотя бы с { $least ->
    [one] { $least } игрой
   *[other] { $least } играми
 }.
club-top-unknown = /top не знает «{ $word }»: период (month, season, 2026-03), points|wins|winrate|elo, роль, min=N.
club-top-line = { $place }. { $name } — баллов { $points }, побед { $wins } из { $games } ({ $rate })
club-top-elo-line = { $place }. { $name } — сила { $rating } ± { $rd }, игр { $games }
club-top-elo-role = Сила считается по результату всей команды, своей роли у неё нет: напишите /top elo без роли.
club-roster-empty = Состав пуст: имена игроков вносятся в состав по итогам оконченных игр.
club-roster-title = Состав клуба ({ $count }):
club-roster-line = { $name } — игр { $games }
club-officials-only = Состав меняет судья или администратор чата.
club-renamed = Новое имя: { $name }.
club-merged = Записи объединены: { $name }; игры и прежние имена сохранены.
club-forget-nothing = Клуб ничего не хранит о вашей учётной записи.
club-forget-shown = Клуб хранит о вас: имя { $name } и показатели игр ({ $games }). /forget да — удалить их (протоколы игр остаются).
club-forgotten = Удалено: ваша запись в составе и показатели ваших игр в этом клубе.
club-error-no_player = В составе нет игрока «{ $name }».
club-error-name_taken = В составе уже есть «{ $name }»: /merge объединит две записи.
club-error-shared_game = «{ $source }» и «{ $target }» — разные люди: оба сидят за столом в игре { $game }. Объединить эти записи нельзя.
club-error-bad_period = { $why ->
    [range] Неверный период «{ $period }»: годы — от 1970 до 9998.
    [reversed] Неверный период «{ $period }»: первый день позже последнего. Напишите так: 2026-03-01..2026-03-31.
   *[date] Неверный период «{ $period }»: такой даты нет. Период — 2026, 2026-03, 2026-03-14 или 2026-03-01..2026-03-31.
 }
club-seat-same-player = Место { $seat } и место { $other } — один и тот же игрок состава клуба (по имени или по привязке /seat): один игрок — одно место. Проверьте имена мест и /seat.
club-error-same_player = Это одна и та же запись.
club-error-bad_name = Имя — от 1 до 64 символов.
club-error-bad_pair = Напишите так: /{ $command } Старое = Новое.
club-rating-title = Рейтинг ({ $scheme ->
    [fsm] ФСМ 2024
   *[other] ФИИМ 2024
 }), { $period } (не меньше { $least ->
    [one] { $least } игры
   *[other] { $least } игр
 }); при равенстве: доп. баллы, победы, победы Доном или Шерифом, смерти в первую ночь, жребий:
club-rating-line = { $place }. { $name } — { $total } (доп. { $additional }; побед { $wins } из { $games }, Доном или Шерифом { $special }; первая ночь { $first })
club-rating-compensation = Компенсация за убийство в первую ночь учтена (ФСМ 2024, §8.6).
club-rating-no-compensation = Компенсация за убийство в первую ночь (ФИИМ 2024, §8.6) не учтена: её формулы нет в правилах, по которым работает бот.
club-rating-unknown = /rating не знает «{ $word }»: период (month, season, 2026-03), fiim|fsm, min=N.
club-name-offered = В составе клуба есть имена, которые так начинаются: { $names } — /name { $seat } <имя>, чтобы выбрать.
club-evening-none = За последние { $hours } часов в историю клуба не вошло ни одной игры: в неё входят оконченные игры с именами игроков и внесёнными ролями.
club-evening-title = Вечер { $date }: { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[other] { $games } игр
 }
club-evening-posted = Итоги вечера и рейтинг сезона опубликованы в канале { $channel }.
club-seating-usage = Напишите так: /seating 6 Аня, Боря, … — число игр (до { $most }), затем имена игроков через запятую.
club-seating-bad-name = Имя «{ $name }» не годится для места за столом: от 1 до { $most } символов, хотя бы один видимый знак.
club-seating-repeated = { $name } в списке игроков дважды: один игрок — одно место. Уберите повтор (имена сравниваются без учёта регистра).
club-seating-players = Разных игроков: { $count }, а за столом их { $seats }.
club-seating-title = Рассадка: игр { $games }, игроков { $players }, столов { $tables } (места — поровну, соперники — как можно разнообразнее):
club-seating-table = Игра { $game }, стол { $table }: { $seats }
club-seating-table-strength = Игра { $game }, стол { $table } (сила { $strength }): { $seats }
club-seating-balanced = Столы уравнены по силе (/top elo), завсегдатаи (от { $regular } игр) распределены поровну; у ещё не оценённого игрока сила 1500.
club-seating-resting = Игра { $game }, отдыхают: { $names }

# Турнирный вечер (issue 17, часть 4; bot/club/tournament.py).
tournament-usage = Напишите так: /tournament open 4 [fiim|fsm] Аня, Боря, … — число игр (до { $most }), система подсчёта, затем имена игроков через запятую; /tournament — состояние всех столов; /tournament close — итоговая таблица; /table N — вести стол N; /table N aside — снять с турнира игру стола, которая не будет доиграна.
club-error-tournament_open = В клубе уже идёт турнир: /tournament показывает его, главный судья закрывает его командой /tournament close.
tournament-opened = Турнир №{ $number } открыт: игр — { $games }, игроков — { $players }, столов — { $tables }; главный судья — { $chief }. Рассадка:
tournament-how = Судья каждого стола пишет здесь /table N (N от 1 до { $tables }); следующая игра стола, начатая командой /new, получает свою рассадку на панели судьи.
tournament-none = В клубе не идёт турнир: /tournament open 4 Аня, Боря, … открывает его.
tournament-bad-table = В турнире столы с 1 по { $tables }: /table N.
tournament-table-yours = Стол { $table } уже ведёте вы.
tournament-table-busy = Стол { $table } ведёт { $judge }; забрать стол может только главный судья.
tournament-finish-first = За вашим столом { $table } идёт игра: сначала доведите её до конца или снимите её с турнира (/table { $table } aside).
tournament-table-set = Стол { $table }: судья — { $judge }; { $left ->
    [0] все его игры сыграны.
   *[other] следующая — игра { $game } из { $games } (/new начинает её с рассадкой).
 }
tournament-table-taken = Стол { $table } передан: судья — { $judge }; { $left ->
    [0] все его игры сыграны.
   *[other] игра { $game } из { $games } — следующая или идёт.
 }
tournament-title = Турнир №{ $number }: игр — { $games }, столов — { $tables }; главный судья — { $chief }.
tournament-now-playing = игра { $game } из { $games }: { $phase ->
    [setup] подготовка
    [night_zero] нулевая ночь
    [night] ночь { $day }
    [game_over] окончена
   *[other] день { $day }
 }
tournament-now-done = сыграны все игры ({ $games })
tournament-now-waiting = ждёт игру { $game } из { $games }
tournament-table-line = Стол { $table } ({ $judge ->
    [none] судьи пока нет
   *[other] судья — { $judge }
 }): { $now }{ $result ->
    [none] {""}
   *[other]; игра { $last }: { $result }
 }
tournament-chief-only = Закрыть турнир может только главный судья ({ $chief }).
tournament-still-running = { $count ->
    [1] За столом { $tables } идёт игра: турнир закрывается, когда она окончена.
   *[other] За столами { $tables } идут игры: турнир закрывается, когда они окончены.
 }
tournament-still-running-aside = Стол { $table }: игру, которая не будет доиграна, главный судья или судья стола снимает с турнира — /table { $table } aside.
tournament-still-running-hosted = Стол { $table } ведёт бот-ведущий в «{ $group }»: набор или игру там останавливает /stop.
tournament-standings = Турнир №{ $number }: итоговая таблица ({ $scheme ->
    [fsm] ФСМ 2024
   *[other] ФИИМ 2024
 }), игр в зачёте — { $games }; при равенстве: дополнительные баллы, победы, победы Доном или Шерифом, гибели в первую ночь, жребий:
tournament-no-games = В зачёте нет ни одной игры турнира.
tournament-game-started = Стол { $table }, игра { $game } из { $games } турнира: { $seats }
tournament-posted = Итоговая таблица и протоколы игр опубликованы в канале { $channel }.
tournament-protocol = Игра турнира №{ $game }: протокол
tournament-admins-only = { $platform ->
    [dc] Открыть турнир (и стать его главным судьёй) может только участник с правом «Управлять каналами».
   *[tg] Открыть турнир (и стать его главным судьёй) может только администратор чата.
}
tournament-sheet-table = турнир №{ $number }, стол { $table }, игра { $game }
tournament-own-game = В вашем чате идёт ваша игра: сначала доведите её до конца, затем забирайте стол { $table } вместе с его игрой.
# A hosted table of a tournament (/table N host in a group: the bot runs the table's games there).
tournament-hosted-judge = бот-ведущий в «{ $group }»
tournament-hosted-running = Стол { $table } ведёт бот-ведущий в «{ $group }», и там идёт набор или игра: стол можно забрать, когда она окончена (или остановлена командой /stop там).
tournament-host-chief-only = Отдать стол боту-ведущему здесь может только главный судья ({ $chief }).
tournament-host-admins-only = Отдать стол боту-ведущему здесь может только администратор: бот будет вести здесь игры.
tournament-host-already = Стол { $table } уже ведёт бот-ведущий здесь.
tournament-host-busy = За столом { $table } идёт набор или игра: сначала доведите её до конца.
tournament-host-set = Стол { $table } турнира №{ $number } ведёт здесь бот-ведущий; { $left ->
    [0] все игры стола сыграны.
   *[other] следующая — игра { $game } из { $games }: /newgame открывает набор, места — по рассадке турнира.
 }
tournament-host-unavailable = Здесь бот не ведёт столы сам: /table N — вести стол судьёй.
# A table's game that will not be finished leaves the tournament (/table N aside; a game never started: by itself at a table change or the close).
tournament-set-aside = Стол { $table }: игра №{ $id } (игра { $game } из { $games } турнира) { $started ->
    [yes] снята с турнира
   *[no] не начата — снята с турнира
 }: в зачёт она не идёт{ $closing ->
    [yes] , турнир закрывается без неё.
   *[no] , её место в рассадке свободно — следующая /new за этим столом начнёт игру { $game } по рассадке заново.
 }
tournament-aside-who = Снять игру стола { $table } с турнира может главный судья ({ $chief }) или судья этого стола.
tournament-aside-hosted = Стол { $table } ведёт бот-ведущий в «{ $group }»: набор или игру там останавливает /stop, и место в рассадке освобождается.
tournament-aside-nothing = За столом { $table } нет неоконченной игры турнира: снимать нечего.
tournament-not-counted = Не в зачёте: игра №{ $id } (стол { $table }, игра { $game }) — { $why ->
    [no-roles] окончена без внесённых ролей, очков нет
   *[stopped] остановлена до конца
 }.
tournament-result-not-counted = { $result } (не в зачёте: роли не внесены)

# /settings (the club's admin): the rules the club's new games start with (issue 31).
club-settings-own = Новые игры клуба начинаются с его правил: { $words }. Изменить — /settings и правила, как после /new; вернуть правила по умолчанию — /settings off.
club-settings-default = Своих правил у клуба нет: новые игры начинаются с правил бота ({ $words }). Задать свои — /settings и правила, как после /new (например, /settings fiim2024).
club-settings-seed = Своих правил у клуба нет: новые игры начинаются с правил seed. Задать свои — /settings и правила, как после /new (например, /settings fiim2024 или /settings fsm2024).
club-settings-set = Готово: новые игры клуба начинаются с правил { $words } (/new и /newgame; набранное после них — поверх).
club-settings-reset = Свои правила клуба забыты.
club-settings-admin-only = { $platform ->
    [dc] Правила клуба задаёт участник с правом «Управлять каналами».
   *[tg] Правила клуба задаёт администратор чата.
}

## Запись на вечер (issue 33): /evening new 19:30 tables=2
evening-post = { $status ->
    [cancelled] Вечер { $date } в { $time } отменён.
    [closed] Вечер { $date } в { $time } ({ $zone }): запись закрыта.
   *[open] Вечер { $date } в { $time } ({ $zone }): { $tables ->
        [one] { $tables } стол
        [few] { $tables } стола
       *[other] { $tables } столов
    }, мест — { $cap }. Запишитесь кнопкой ниже.
}
evening-post-going = Идут ({ $count }/{ $cap }): { $going ->
    [none] пока никого.
   *[other] { $going }
}
evening-post-more = { $listed ->
    [yes] … и ещё { $count }
   *[no] { $count } (имена не поместились в сообщение)
}
evening-post-reserve = Резерв: { $reserve }
evening-post-how = Напоминания — за 2 часа и за 15 минут до начала; при отказе из списка первое место в резерве переходит в список.
evening-btn-go = Иду
evening-btn-no = Не приду
evening-btn-reserve = В резерв
evening-pressed-going = Вы в списке на вечер.
evening-pressed-full = Мест больше нет: вы в резерве, номер { $place }. Освободится место — бот напишет вам в личные сообщения.
evening-pressed-reserve = Вы в резерве, номер { $place }.
evening-pressed-out = Вы вычеркнуты из записи на этот вечер.
evening-pressed-already_going = Вы уже в списке.
evening-pressed-already_reserve = { $full ->
    [yes] Мест пока нет: вы в резерве, номер { $place }.
   *[no] Вы уже в резерве, номер { $place }.
}
evening-pressed-not_signed = Вас и так нет в списке.
evening-pressed-closed = Запись на этот вечер закрыта: ничего не изменилось.
evening-pressed-stale = Эта кнопка устарела: такой записи больше нет.
evening-moved-up = Освободилось место: вы в списке на вечер { $date } в { $time }.
evening-reminder = Напоминание: вечер начинается через { $minutes ->
    [120] 2 часа
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[other] { $minutes } минут
}, в { $time }. Идут ({ $count }/{ $cap }): { $going ->
    [none] пока никого.
   *[other] { $going }
}
evening-reminder-private = Напоминание: вы в списке на вечер { $date } в { $time }.
evening-started = Запись закрыта, вечер начинается. Играют { $count }: { $going ->
    [none] список пуст.
   *[other] { $going }
}
    Турнир по этому списку: /tournament open <число игр> (без имён); стол с ботом-ведущим для этого списка: /newgame.
evening-opened = Запись опубликована. { $count ->
    [0] Напоминаний не будет: до начала меньше 15 минут.
    [one] Напоминание: { $times } ({ $zone }).
   *[other] Напоминания: { $times } ({ $zone }).
}
evening-closed = Запись закрыта. В списке { $count }: { $going ->
    [none] никого.
   *[other] { $going }
}
evening-cancelled = Вечер отменён, запись закрыта.
evening-usage = Напишите так: /evening new 19:30 tables=2 (или /вечер новый 29.03 19:30 столов=2) — дата (если не сегодня), начало по времени клуба и число столов (до { $most }); /evening close — закрыть запись; /evening cancel — отменить вечер; /evening — итоги вечера.
evening-typed-usage = Напишите так: /evening go Аня — «Иду» за игрока (/evening no Аня — «Не приду», /evening reserve Аня — «В резерв»).
evening-admins-only = Открыть, закрыть или отменить запись на вечер может только администратор чата.
evening-already = Запись на вечер { $date } в { $time } уже открыта: сначала /evening close или /evening cancel.
evening-none = Открытой записи на вечер нет.
evening-past = Это время уже прошло.
evening-no-such-time = { $date } в { $time } по времени клуба не наступит: в эту ночь часы переводят вперёд. Назначьте другое время.
evening-not-posted = Не получилось опубликовать запись в этом чате: ничего не изменилось.
evening-bad-zone = Часовой пояс клуба { $zone } неизвестен системе (MAFIA_REFEREE_TIMEZONE).
evening-in-group = Запись на вечер открывают в чате клуба (в группе или канале), а не здесь.
evening-from-list = Игроки — из записи на вечер { $date } в { $time }.
evening-list-empty = В записи на вечер нет игроков: перечислите имена через запятую.
