# Telegram: режим судьи (bot/telegram). Панель судьи — в личном чате с ботом;
# в группе — только публичные объявления (роли, проверки и причины ночных удалений — никогда).

tg-welcome =
    Я помощник судьи спортивной мафии: записываю игру по ходу и говорю, чего требуют правила — кто молчит, проводится ли голосование, кто покидает игру, кто говорит следующим, кто победил.
    Новая игра — /new (или /new fiim2024). Чтобы объявления шли в группу клуба, добавьте меня в группу и наберите там /link. Все команды — /help.
tg-help =
    В Telegram:
    Кнопки панели делают то же, что команды; «/» можно не писать.
    /link — в группе клуба: объявления игры идут туда; /unlink — отвязать группу.
    /takeover — в группе: администратор чата забирает игру себе (прежний судья получит уведомление).
    /lang ru|en — язык этого чата (в группе — язык объявлений).
tg-help-group =
    Я помощник судьи. Игру ведёт судья в личном чате со мной; здесь — объявления.
    /link — судья привязывает эту группу к своей игре; /unlink — отвязывает.
    /takeover — администратор чата забирает игру себе.
    /status — положение игры; /lang ru|en — язык объявлений.
tg-no-quit = Здесь нечего закрывать: игра сохранена, продолжайте, когда удобно.
tg-group-only = /{ $command } набирают в группе клуба, а не здесь.
tg-group-use-private = Команды игры — в личном чате со мной: там панель судьи. Здесь только объявления.
tg-only-judge = Это может делать только судья игры.
tg-not-judge = Это может делать только судья этой игры. Ничего не изменено.
tg-press-outdated = Кнопка устарела: игра уже изменилась. Панель обновлена.
tg-not-linked = К этой группе не привязана игра. Судья привязывает её командой /link.

## Группа

tg-link-no-game = Сначала начните игру в личном чате со мной (/new), затем наберите здесь /link.
tg-link-busy = Эта группа уже привязана к игре №{ $game } другого судьи. Администратор чата может забрать игру: /takeover.
tg-link-cannot-post = Я не могу писать в группе «{ $title }»: дайте мне право отправлять сообщения и наберите /link ещё раз.
tg-linked-group = Игра №{ $game } привязана к этой группе: объявления будут здесь.
tg-linked-private = Группа «{ $title }» привязана к игре №{ $game }: публичные объявления идут туда. Роли, проверки и причины ночных удалений остаются здесь.
tg-unlinked = Группа отвязана от игры: объявлений здесь больше не будет.
tg-group-new-game = Новая игра №{ $game }: { $preset }.
tg-takeover-already = Вы уже судья этой игры.
tg-takeover-not-admin = Забрать игру может только администратор этого чата.
tg-takeover-busy = У вас есть своя незаконченная игра: доиграйте её или начните новую, затем повторите /takeover.
tg-takeover-start-bot = Не могу написать вам в личный чат: откройте чат со мной и нажмите «Старт» — панель судьи появится там.
tg-taken-over-group = Игру №{ $game } теперь ведёт судья { $judge }.
tg-taken-over-old = Игру №{ $game } забрал судья { $judge } (администратор группы). Панель этой игры у вас больше не работает.
tg-panel-taken = Игру №{ $game } ведёт судья { $judge }.

## Панель: кнопки

tg-btn-next = Далее ▶
tg-btn-morning = Далее ▶ (утро)
tg-btn-undo = Отмена хода ↩
tg-btn-foul = Фол ▸
tg-btn-nominate = Выставить ▸
tg-btn-miss = Промах
tg-btn-skip = Пропустить ▶
tg-btn-accept = Принято ✓
tg-btn-again = Заново
tg-btn-back = ← Назад
tg-btn-pause = ⏸ Пауза
tg-btn-resume = ▶ Продолжить
tg-btn-start = Начать игру ▶
tg-btn-roles = Роли ▸
tg-btn-new = Новая игра
tg-btn-foul-generic = Фол
tg-btn-warning = Предупреждение
tg-btn-dq = Дисквалификация ▸
tg-btn-dq-generic = Дискв. фол
tg-btn-team-loss = ППК ▸
tg-btn-team-loss-generic = ППК
tg-btn-withdraw = Снять последний фол
tg-btn-team-red = Красные
tg-btn-team-black = Чёрные
tg-btn-result = Итог ▸
tg-btn-red-wins = Победа красных
tg-btn-black-wins = Победа чёрных
tg-btn-draw = Ничья
tg-seat-gone = ·
tg-seat-picked = ✓{ $n }
tg-picked = ✓ { $label }
tg-preset-seed = Клуб
tg-preset-fiim2024 = ФИИМ 2024
tg-preset-fsm2024 = ФСМ 2024

## Панель: вопросы

tg-setup-hint =
    Имена — /name 3 Вася. Роли — кнопкой «Роли» (вводятся только здесь, в личном чате). Набор правил — кнопкой или /new fiim2024 …
    Без ролей я не смогу сам определить конец игры, ответить на проверки Дона и Шерифа и посчитать лучший ход: итог объявит судья.
tg-announce-group = Объявления идут в привязанную группу.
tg-announce-here = Объявления идут сюда. Чтобы объявлять в группе клуба, добавьте меня в группу и наберите там /link.
tg-pick-nominee = Кого выставляет игрок { $seat }?
tg-pick-foul-seat = Кому наказание?
tg-pick-reason = Игрок { $seat } ({ $fouls }): наказание?
tg-pick-dq = Игрок { $seat }: дисквалифицирующий фол (4.2)?
tg-pick-team-loss = Игрок { $seat }: поражение команды (4.3)?
tg-pick-team = Роли не внесены: команда игрока { $seat }?
tg-legend-line = { $code } — { $reason }
tg-pick-hands = Сколько рук против игрока { $seat }?
tg-pick-raise = Сколько рук за подъём?
tg-pick-kill = Кого убили ночью?
tg-pick-don_check = Кого проверяет Дон?
tg-pick-sheriff_check = Кого проверяет Шериф?
tg-pick-best-move = Лучший ход игрока { $seat } — до трёх номеров. Выбрано: { $picked ->
    [none] никого
   *[other] { $picked }
 }.
tg-pick-result = Роли не внесены: итог игры объявляет судья.
tg-pick-role = Роли: место — { $role }? Пока: { $so_far }.
tg-roles-confirm = Роли: { $so_far }; остальные — мирные. Верно?
tg-roles-none-yet = ничего
tg-role-seat = { $role } — { $seat }

## Таймер речи

tg-timer-title = { $kind ->
    [last_word] Последнее слово игрока { $seat }
    [tie_speech] Слово игрока { $seat } перед переголосованием
   *[speech] Речь игрока { $seat }
 }
tg-timer-running = ⏱ { $title } — { $seconds }.
tg-timer-resumed = ⏱ { $title }: продолжается, осталось { $left }.
tg-timer-warned = ⏱ { $title }: осталось { $left }.
tg-timer-paused = ⏸ { $title }: пауза, осталось { $left }.
tg-timer-over = ⏹ { $title }: время вышло.
tg-timer-stopped = ⏹ { $title }: окончено.

## Отмена

tg-undone = { $count ->
    [one] ↩ Отменено { $count } действие.
    [few] ↩ Отменено { $count } действия.
   *[many] ↩ Отменено { $count } действий.
 }
tg-undone-public = { $count ->
    [one] ↩ Поправка: судья отменил { $count } действие.
    [few] ↩ Поправка: судья отменил { $count } действия.
   *[many] ↩ Поправка: судья отменил { $count } действий.
 }
tg-now-turn = Сейчас: { $kind ->
    [last_word] последнее слово игрока { $seat }.
    [tie_speech] слово игрока { $seat } перед переголосованием.
   *[speech] речь игрока { $seat }.
 }
tg-now-night = Сейчас: ночь { $night } — { $step }.
tg-now-phase = Сейчас: { $phase }.

## Меню команд

tg-menu-new = новая игра
tg-menu-next = дальше
tg-menu-foul = фол: /foul 5 4.1.1
tg-menu-nominate = выставить: /nominate 3 7
tg-menu-undo = отменить последнее действие
tg-menu-status = панель судьи
tg-menu-link = привязать группу к игре (в группе)
tg-menu-takeover = забрать игру (администратор группы)
tg-menu-lang = язык: ru или en
tg-menu-help = все команды

## Отказы сервиса, добавленные для чатов

service-home_busy = В этом чате есть своя незаконченная игра №{ $game_id }: доиграйте её или начните новую.
service-bad_alias = Этот чат нельзя привязать к игре.

cli-telegram-no-token = Нет токена бота. Задайте MAFIA_REFEREE_TELEGRAM_TOKEN (или TELEGRAM_BOT_TOKEN) — токен выдаёт @BotFather — и запустите снова: mafia-referee telegram.
