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
club-no-games = В клубе пока нет оконченных игр.
club-bad-count = /games: число от 1 до { $most }.
club-games-title = Последние игры клуба ({ $count }):
club-games-line = Игра №{ $game }, { $date }: { $result }; больше всех баллов: { $best } ({ $points })
club-no-player = В составе клуба нет игрока «{ $name }» (состав: /roster).
club-stats-whom = Чья статистика? /stats Имя (состав: /roster).
club-stats-none = { $name }: нет игр за период «{ $period }».
club-stats-title = { $name }, { $period }:
club-stats-games = игр { $games }, побед { $wins } ({ $rate })
club-stats-points = баллов { $points } (дополнительных { $additional })
club-stats-role = — { $role }: игр { $games }, побед { $wins } ({ $rate })
club-stats-best-move = лучших ходов { $count }, угадано чёрных { $hits }
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
club-top-unknown = /top не знает «{ $word }»: период (month, season, 2026-03), points|wins|winrate, роль, min=N.
club-top-line = { $place }. { $name } — баллов { $points }, побед { $wins } из { $games } ({ $rate })
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
club-evening-none = За последние { $hours } часов не окончилось ни одной игры.
club-evening-title = Вечер { $date }: { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[other] { $games } игр
 }
club-evening-posted = Итоги вечера и рейтинг сезона опубликованы в канале { $channel }.
club-seating-usage = Напишите так: /seating 6 Аня, Боря, … — число игр (до { $most }), затем имена игроков через запятую.
club-seating-players = Разных игроков: { $count }, а за столом их { $seats }.
club-seating-title = Рассадка: игр { $games }, игроков { $players }, столов { $tables } (места — поровну, соперники — как можно разнообразнее):
club-seating-table = Игра { $game }, стол { $table }: { $seats }
club-seating-resting = Игра { $game }, отдыхают: { $names }
club-error-unsupported = Статистика клуба пока ведётся только в базе SQLite, не в PostgreSQL.
