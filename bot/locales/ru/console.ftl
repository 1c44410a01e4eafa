# Консоль и командная строка (bot/console.py, bot/cli.py).

console-ready = Судейская консоль. Новая игра — /new, список команд — /help.
console-resumed = Продолжается игра №{ $game }.
console-finished = Игра №{ $game } окончена: итоги — /result, отмена последнего действия — /undo, новая игра — /new.
console-undone-what = Отменено: { $what }
console-new-game = Новая игра №{ $game }: { $preset }.
console-replaced = Незаконченная игра №{ $game } отложена.
console-undone = { $count ->
    [0] Ничего не отменено.
    [one] Отменено { $count } действие.
    [few] Отменено { $count } действия.
   *[many] Отменено { $count } действий.
 }
console-interrupted = Выход (Ctrl-C): игра сохранена, продолжить — mafia-referee console.
console-lang = Язык: русский.
# commands-help: the commands of every adapter; console-help adds /quit (console only).
commands-help =
    Команды судьи («/» можно не писать):
    /new [seed|fiim2024|fsm2024] [опция=значение …] — новая игра
    /name 3 Вася — имя игрока на месте №3
    /roles D2 M5 M7 S8 — роли (остальные — мирные); /roles unknown — без ролей
    /start — начать игру (договорка)
    /next (/n, /pass) — дальше: конец речи, последнего слова, шага ночи
    /nominate 3 7 — №3 выставляет №7; /nominate 7 — выставляет тот, кто говорит
    /withdraw — говорящий отзывает свою кандидатуру (если правила этой игры позволяют)
    /vote 7 4 — 4 голоса против №7; /vote 7 1,2,3 — голосовали №1, №2, №3
    /raise 6 — 6 голосов за подъём всех голосуемых
    /kill 4 — ночное убийство: №4; /miss — промах; /shots 2:7 5:7 7:7 — выстрелы
    /don 3 — проверка Дона; /sheriff 5 — проверка Шерифа
    /bestmove 1 2 3 — лучший ход
    /foul 5 [причина], /dq 5 [причина], /ppk 5 [причина] [red|black] — наказания; /warn 5 — предупреждение
    /tech 5 — технический фол (если правила этой игры их знают: второй удаляет)
    /unfoul 5 — снять последний фол
    /result red|black|draw — объявить итог (роли не внесены); /result — итоги
    /extra 3 0,4 [+] — после игры: дополнительные баллы №3 (0 — снять; «+» — по согласованию с Главным Судьёй)
    /badplay 3 <пункт> — после игры: штрафные баллы №3 по пункту правил о баллах; /badplay 3 -<пункт> — снять
    /points — баллы за игру
    /undo [n] — отменить последние действия; /fix 12 /foul 5 4.1.1 — исправить действие 12 (номера — в /log all)
    /timer — таймер шага: сколько осталось; /timer pause|resume — пауза, продолжить; /timer next — осмотр стола Шерифом в нулевую ночь
    /status — положение игры; /log — ход игры; /log all — журнал: все действия с автором и временем записи, что отменено
    /lang ru|en — язык
    По-русски тоже: дальше (далее, пас), выставить 3 7, голос 7 4, подъём 6, убийство 4, промах, дон 3, шериф 5, лх 1 2 3, фол 5, дк 5, ппк 5, отмена, статус, помощь
commands-reasons = Причины наказаний (пункты правил этой игры): { $codes }.
console-help =
    { commands-help }
    /quit — выход из консоли
cli-telegram-unavailable = Telegram-бот пока недоступен. Попробуйте консоль: mafia-referee console.
console-protocol = Протокол игры №{ $game } (лист игры PNG, JSON, выгрузка MafiaRatings): mafia-referee protocol --game { $game } [--png ФАЙЛ] [--json ФАЙЛ] [--mafiaratings ФАЙЛ]
# club-help: the club's commands (issue 17), shown after the judge's.
club-help =
    Клуб: история игр, статистика, рейтинг, состав:
    /games [N] — последние игры клуба; /stats [имя] [month|season|2026-03|2026-03-01..2026-03-31] — статистика игрока; /top [период] [points|wins|winrate] [civilian|sheriff|mafia|don] [min=N] — лучшие игроки
    /rating [период] [fiim|fsm] [min=N] — рейтинг сезона: баллы, компенсация, порядок при равенстве
    /evening — итоги вечера (игры за 12 часов) и рейтинг сезона; в группе с клубным каналом (/channel) — в канал
    /roster [начало имени] — состав клуба; /rename Вася = Василий, /merge Вася = Василий — переименовать, объединить две записи одного игрока; /forget [да] — что клуб хранит о вас, удалить
