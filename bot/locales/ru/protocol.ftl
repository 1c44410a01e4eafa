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
protocol-legend = →7 — кандидатура: №7 · 5/7 — голос против №5, в переголосовании — против №7 · ↑ / ↓ — за / против подъёма всех · ■ — фол

## Наказания после выбывания или после результата (seed 4.5, ФИИМ 2024 §7.9)

protocol-late = + { $what }{ $code ->
    [none] { "" }
   *[other] { " " }({ $code })
 } { $when ->
    [last_word] в последнем слове
    [night] ночью, после убийства
    [end] после игры
   *[other] после определения результата
 }
protocol-penalty-fouls = 4-й фол
protocol-penalty-foul = фол
protocol-penalty-warning = предупреждение
protocol-penalty-disqualifying = дисквалификация
protocol-penalty-team_loss = ППК

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
