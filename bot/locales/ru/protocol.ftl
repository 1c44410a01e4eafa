# Протокол сыгранной игры: лист судьи (картинка PNG) и выгрузка в JSON (bot/protocol).
# Роли, команды, причины и итог игры — общие слова из common.ftl (role-*, end-*, novote-*).

## Заголовок

protocol-title = Протокол игры
protocol-title-game = Протокол игры №{ $game }
protocol-date = { $dd }.{ $mm }.{ $yyyy }
protocol-subtitle = { $date } · { $preset }

## Игроки

protocol-col-seat = №
protocol-col-player = Игрок
protocol-col-role = Роль
protocol-col-fouls = Фолы
protocol-col-left = Выбытие
protocol-day-short = Д{ $day }
protocol-night-short = Н{ $night }
protocol-left = { $when } · { $how }
protocol-out-vote = голосование
protocol-out-raise = подъём
protocol-out-kill = убийство
protocol-out-fouls = 4 фола
protocol-out-disqualification = дисквалификация
protocol-out-team_loss = ППК
protocol-stays = за столом
protocol-role-unknown = —

## Голосования

protocol-days = Голосования
protocol-col-nominees = Кандидатуры
protocol-col-votes = Голоса
protocol-col-outcome = Итог
protocol-count = { $seat } — { $count }
protocol-revote = переголосование: { $counts }
protocol-raise = подъём: за { $yes } из { $at_table }
protocol-leaves = { $seats } { $seats_n ->
    [one] покидает
   *[other] покидают
 } игру
protocol-raise-leaves = { $seats } покидают игру по голосованию за подъём
protocol-nobody-leaves = никто не покидает игру: { $why }
protocol-not-held = голосование не проводится: { $why }
protocol-cancelled = голосование отменено: { $why }
protocol-none = —
protocol-team-loss = { $seat }: ППК — поражение команды

## Ночи

protocol-nights = Ночи
protocol-col-night = Ночь
protocol-col-shooting = Стрельба
protocol-col-don = Проверка Дона
protocol-col-sheriff = Проверка Шерифа
protocol-kill = убийство: { $seat }
protocol-miss = промах
protocol-shots = выстрелы: { $shots }
protocol-don-sheriff = { $seat } — Шериф
protocol-don-not-sheriff = { $seat } — не Шериф
protocol-sheriff-black = { $seat } — чёрная карта
protocol-sheriff-red = { $seat } — красная карта
protocol-best-move = Лучший ход { $seat }: { $guesses }
protocol-best-move-hits = Лучший ход { $seat }: { $guesses } — чёрных: { $hits }
protocol-legend = →7 — кандидатура: №7 · 5/7 — голос против №5, в переголосовании — против №7 · ↑ / ↓ — за / против подъёма всех · ■ — фол, ■ красного цвета — четвёртый · серая строка — чёрная команда · серая клетка — игрок уже не за столом · розовая клетка — день ухода игрока из игры · баллы: П — победа, ЛХ — лучший ход, С — от Судьи, АД — автоматический доп, ДК — дисквалификация, ППК — поражение команды, Ш — штрафные

## Наказания после выбывания или после результата (seed 4.5, ФИИМ 2024 §7.9)

protocol-late = + { $what }{ $code ->
    [none] { "" }
   *[other] { " " }({ $code })
 } { $when ->
    [last_word] в последнем слове
    [night] ночью, после убийства
    [end] после игры
   *[other] после определения результата
 }{ $applied ->
    [no] , не применяется ({ cite-6_8_6 })
   *[other] { "" }
 }
protocol-penalty-fouls = 4-й фол
protocol-penalty-foul = фол
protocol-penalty-warning = предупреждение
protocol-penalty-disqualifying = дисквалификация
protocol-penalty-team_loss = ППК
protocol-penalty-technical = технический фол

## Заголовок, судья, баллы, наказания (протокол ФИИМ)

protocol-club = { $club }
protocol-table = стол: { $table }
protocol-start = начало { $start }
protocol-start-end = начало { $start }, окончание { $end }
protocol-hours = { $hours } ({ $tz })
protocol-judge = Судья игры: { $judge ->
    [none] { "" }
   *[other] { $judge }{ " " }
 }______________________ (подпись)
protocol-col-points = Баллы
protocol-points-win = П{ $points }
protocol-points-best_move = ЛХ{ $points }
protocol-points-extra = С{ $points }
protocol-points-auto = АД{ $points }
protocol-points-dq = ДК{ $points }
protocol-points-team_loss = ППК{ $points }
protocol-points-bad_play = Ш{ $points }
protocol-penalties = Наказания и баллы от Судьи
protocol-col-penalty = Что
protocol-col-item = Пункт правил
protocol-col-when = Когда
protocol-extra = дополнительные баллы { $points }
protocol-bad-play = штрафные баллы { $points }
protocol-when = { $kind ->
    [night_zero] договорка
    [day_start] Д{ $day }, начало дня
    [morning] Д{ $day }, последнее слово { $seat }
    [speech] Д{ $day }, речь { $seat }
    [voting_start] Д{ $day }, перед голосованием
    [voting] Д{ $day }, { $round ->
        [0] голосование
       *[other] переголосование
    }{ $seat ->
        [none] { "" }
       *[other] , против { $seat }
    }
    [tie_speech] Д{ $day }, речь перед переголосованием { $seat }
    [raise] Д{ $day }, голосование за подъём
    [last_word] Д{ $day }, последнее слово { $seat }
    [night] Н{ $day }, { $step ->
        [don_check] проверка Дона
        [sheriff_check] проверка Шерифа
        [best_move] лучший ход
       *[shooting] стрельба
    }
    [end] после игры
   *[other] Д{ $day }
 }

## Почему выгрузка невозможна

protocol-error-not_finished = Игра ещё не окончена: протокол составляется только после её окончания.
protocol-error-roles_unknown = Роли не вносились, а MafiaRatings записывает роль каждого игрока.
protocol-error-bad_log = Журнал игры не воспроизводится: { $error }.
protocol-error-votes_by_count = День { $day }, { $round ->
    [0] голосование
   *[other] переголосование
 }: голоса против игрока { $seat } записаны числом, а MafiaRatings записывает голос каждого игрока. Записывайте голосующих: /vote { $n } 1,2,3.
protocol-error-two_checks = Две проверки игрока { $seat } { $who ->
    [don] Доном
   *[other] Шерифом
 }, а MafiaRatings записывает одну проверку игрока.
protocol-error-two_deaths = Наказание игрока { $seat } ({ $what }) записано уже после выбывания этого игрока, а MafiaRatings записывает одно выбывание игрока.
protocol-error-options = Исход этой игры зависит от правил, для которых у MafiaRatings нет кода: { $options }.
protocol-error-replay_differs = Выгрузка не воспроизводит игру: { $differences }.
protocol-error-site_check = MafiaRatings не примет выгрузку как есть: { $issues }.
protocol-error-cut_short_vote = День { $day }: удаление игрока { $seat } во время голосования, после того как результат голосования был определён, а игра окончилась раньше голосования. Голосов незавершённого круга MafiaRatings не хранит, а без них это удаление выглядит как удаление до голосования, которое голосование отменяет.
protocol-no-mafiaratings = Выгрузки для MafiaRatings нет: { $why }
