# Judge mode on every platform (bot/judge/controller.py). A message whose wording depends on the
# platform selects it by $platform: tg (Telegram) or dc (Discord).

judge-panel-title = Игра №{ $game }
judge-protocol = Протокол игры №{ $game }.
judge-club-result = { $where ->
    [none] Игра №{ $game } окончена.
   *[other] Игра №{ $game } ({ $where }) окончена.
 }
judge-club-start = 🎲 Игра №{ $game }{ $where ->
    [none] {""}
   *[other] {" "}в «{ $where }»
 } начинается.{ $judge ->
    [none] {""}
   *[other] {" "}Судья — { $judge }.
 }
judge-created = { $platform ->
   *[dc] Игра №{ $game } создана в этом канале. Панель судьи — в ваших личных сообщениях.
    [tg] {""}
}
judge-not-judge = { $platform ->
    [dc] Это может только судья этой игры ({ $judge }). Ничего не изменено. Участник с правом «Управлять каналами» может забрать игру: /takeover.
   *[tg] Это может делать только судья игры.
}
judge-busy = { $platform ->
    [dc] В этом канале идёт незаконченная игра №{ $game }, судья { $judge }. Новую может начать только судья; участник с правом «Управлять каналами» может забрать игру: /takeover.
   *[tg] Здесь идёт незаконченная игра №{ $game } другого судьи. Новую может начать только её судья.
}
judge-unreachable = { $platform ->
    [dc] Готово, но я не могу написать вам в личные сообщения: разрешите личные сообщения от участников сервера (настройки приватности), затем /panel.
   *[tg] Не могу написать вам в личный чат: откройте чат со мной и нажмите «Старт» — панель судьи появится там.
}
judge-panel-sent = { $platform ->
   *[dc] Панель судьи — в ваших личных сообщениях.
    [tg] {""}
}
judge-sent-privately = Отправлено вам в личные сообщения.
judge-new-game-public = { $platform ->
    [dc] Новая игра №{ $game }: { $preset }. Судья: { $judge }.
   *[tg] Новая игра №{ $game }: { $preset }.
}
judge-preset = Игра №{ $game } теперь идёт по правилам: { $preset }.
judge-takeover-no-game = { $platform ->
    [dc] Здесь нет незаконченной игры.
   *[tg] К этой группе не привязана игра. Судья привязывает её командой /link.
}
judge-taken-over-old = { $platform ->
    [dc] Игру №{ $game } в { $where } теперь судит { $judge }. Ваша панель этой игры больше не работает.
   *[tg] Игру №{ $game } теперь судит { $judge } (администратор группы). Панель этой игры у вас больше не работает.
}
judge-takeover-done = { $platform ->
   *[dc] Теперь вы судите игру №{ $game }: панель — в ваших личных сообщениях.
    [tg] {""}
}
judge-help = { $platform ->
    [dc] В Discord:
        Команды набираются в канале игры; мои ответы видите только вы. Панель судьи, роли и проверки — в личных сообщениях судьи.
        /panel — панель судьи заново. /seat 5 @участник — чьё это место (удалённый игрок получает тайм-аут до конца игры).
        /link #канал — итоги и протокол ещё и в канал клуба; /unlink — отвязать.
        /takeover — участник с правом «Управлять каналами» забирает игру. /lang ru|en — язык сервера (судьи его игр или право «Управлять сервером»).
   *[tg] В Telegram:
        Кнопки панели делают то же, что команды; «/» можно не писать.
        /link — в группе клуба: объявления игры идут туда; /unlink — отвязать группу.
        /takeover — в группе: администратор чата забирает игру себе (прежний судья получит уведомление).
        /lang ru|en — язык этого чата (в группе — язык объявлений).
}

## The panel, its pickers, the timer and undo (moved from telegram.ftl: judge mode on every platform)

judge-no-quit = Здесь нечего закрывать: игра сохранена, продолжайте, когда удобно.
judge-press-not-judge = Это может делать только судья этой игры. Ничего не изменено.
judge-press-outdated = Кнопка устарела: игра уже изменилась. Панель обновлена.
judge-press-unknown = Эта кнопка не от текущей игры: ничего не изменилось.
judge-takeover-already = Вы уже судья этой игры.
judge-takeover-busy = У вас есть своя незаконченная игра: доиграйте её или начните новую, затем повторите /takeover.
judge-taken-over-group = Игру №{ $game } теперь ведёт судья { $judge }.
judge-panel-taken = Игру №{ $game } ведёт судья { $judge }.
judge-btn-next = Далее ▶
judge-btn-morning = Далее ▶ (утро)
judge-btn-undo = Отмена хода ↩
judge-btn-foul = Фол ▸
judge-btn-nominate = Выставить ▸
judge-btn-miss = Промах
judge-btn-skip = Пропустить ▶
judge-btn-accept = Принято ✓
judge-btn-record-voters = { $on ->
    [yes] Руки: по местам ✓
   *[other] Руки: числом
 }
judge-btn-again = Заново
judge-btn-back = ← Назад
judge-btn-pause = ⏸ Пауза
judge-btn-resume = ▶ Продолжить
judge-btn-next-part = { $kind ->
    [sheriff_look] Шериф смотрит ▶
    [free_seating] Свободная посадка ▶
   *[other] Следующая часть ▶
 }
judge-btn-start = Начать игру ▶
judge-btn-roles = Роли ▸
judge-btn-new = Новая игра
judge-btn-foul-generic = Фол
judge-btn-warning = Предупреждение
judge-btn-dq = Дисквалификация ▸
judge-btn-dq-generic = Дискв. фол
judge-btn-team-loss = ППК ▸
judge-btn-team-loss-generic = ППК
judge-btn-withdraw = Снять последний фол
judge-btn-team-red = Красные
judge-btn-team-black = Чёрные
judge-btn-result = Итог ▸
judge-btn-red-wins = Победа красных
judge-btn-black-wins = Победа чёрных
judge-btn-draw = Ничья
judge-seat-gone = ·
judge-seat-picked = ✓{ $n }
judge-picked = ✓ { $label }
judge-preset-seed = Клуб
judge-preset-fiim2024 = ФИИМ 2024
judge-preset-fsm2024 = ФСМ 2024
judge-setup-hint =
    Имена — /name 3 Вася. Роли — кнопкой «Роли» (вводятся только здесь, в личном чате). Набор правил — кнопкой или /new fiim2024 …
    Без ролей я не смогу сам определить конец игры, ответить на проверки Дона и Шерифа и посчитать лучший ход: итог объявит судья.
judge-pick-nominee = Кого выставляет игрок { $seat }?
judge-pick-foul-seat = Кому наказание?
judge-pick-reason = Игрок { $seat } ({ $fouls }): наказание?
judge-pick-dq = Игрок { $seat }: дисквалифицирующий фол (4.2)?
judge-pick-team-loss = Игрок { $seat }: поражение команды (4.3)?
judge-pick-team = Роли не внесены: команда игрока { $seat }?
judge-legend-line = { $code } — { $reason }
judge-pick-hands = Сколько рук против игрока { $seat }?
judge-pick-raise = Сколько рук за подъём?
judge-btn-hands = Принято: { $count } ✓
judge-pick-voters = Кто голосует против игрока { $seat }? Отметьте места. Рук: { $count }.
judge-pick-raise-voters = Кто голосует за подъём? Отметьте места. Рук: { $count } (нужно { $need }).
judge-pick-kill = Кого убили ночью?
judge-pick-don_check = Кого проверяет Дон?
judge-pick-sheriff_check = Кого проверяет Шериф?
judge-pick-best-move = Лучший ход игрока { $seat } — до трёх номеров. Выбрано: { $picked ->
    [none] никого
   *[other] { $picked }
 }.
judge-pick-result = Роли не внесены: итог игры объявляет судья.
judge-pick-role = Роли: место — { $role }? Пока: { $so_far }.
judge-roles-confirm = Роли: { $so_far }; остальные — мирные. Верно?
judge-roles-none-yet = ничего
judge-role-seat = { $role } — { $seat }
judge-timer-title = { $kind ->
    [last_word] Последнее слово игрока { $seat }
    [tie_speech] Слово игрока { $seat } перед переголосованием
    [leader_speech] Слово игрока { $seat } — лидера голосования
    [mafia_meeting] Договорка
    [sheriff_look] Шериф осматривает стол
    [free_seating] Свободная посадка
    [shooting] Охота мафии
    [don_check] Проверка Дона
    [sheriff_check] Проверка Шерифа
    [best_move] Лучший ход игрока { $seat }
   *[speech] Речь игрока { $seat }
 }
judge-timer-running = ⏱ { $title } — { $seconds }.
judge-timer-resumed = ⏱ { $title }: продолжается, осталось { $left }.
judge-timer-warned = ⏱ { $title }: осталось { $left }.
judge-timer-countdown = ⏱ { $title }: осталось { $left }, до { $until }.
judge-timer-no-next = /timer next: у этого шага нет следующей части. Части есть только у договорки: после неё — осмотр стола Шерифом или свободная рассадка, где они есть в правилах игры. Следующий шаг игры — /next.
judge-timer-none = Сейчас ничего не отсчитывается: у этого шага нет таймера.
judge-timer-paused = ⏸ { $title }: пауза, осталось { $left }.
judge-timer-over = ⏹ { $title }: время вышло.
judge-timer-stopped = ⏹ { $title }: окончено.
judge-btn-log = Журнал 📜
judge-btn-why = Почему?
judge-log-title = Журнал игры №{ $game }: каждое действие — автор и время записи, что отменено и кем.
judge-log-line = { $seq }. { $when } · { $who } · { $what }
judge-log-undo = ↩ отмена действия { $seq }
judge-log-undone = — отменено действием { $seq } ({ $who }, { $when })
judge-log-fix = ✎ исправление действия { $seq }: { $now }
judge-log-fixed = — исправлено действием { $seq } ({ $who }, { $when })
judge-log-empty = В журнале игры №{ $game } пока нет действий.
judge-fixed = ✎ Исправлено действие { $seq }: было «{ $was }», стало «{ $now }».
judge-fixed-now = Теперь:
judge-fixed-no-longer = Больше не так:
judge-fixed-nothing-else = Больше от этого ничего не меняется.
judge-fixed-public = ✎ Поправка судьи: исправлено одно из прежних действий.
judge-undone = { $count ->
    [one] ↩ Отменено { $count } действие.
    [few] ↩ Отменено { $count } действия.
   *[many] ↩ Отменено { $count } действий.
 }
judge-undone-public = { $count ->
    [one] ↩ Поправка судьи: отменено { $count } действие.
    [few] ↩ Поправка судьи: отменено { $count } действия.
   *[many] ↩ Поправка судьи: отменено { $count } действий.
 }
judge-undone-public-retold = ↩ Поправка судьи: отмена.
judge-now-turn = Сейчас: { $kind ->
    [last_word] последнее слово игрока { $seat }.
    [tie_speech] слово игрока { $seat } перед переголосованием.
    [leader_speech] слово лидеру голосования, игрок { $seat }.
   *[speech] речь игрока { $seat }.
 }
judge-now-night = Сейчас: ночь { $night } — { $step }.
judge-now-phase = Сейчас: { $phase }.
judge-protocol-none = Протокола пока нет: последняя игра здесь ещё не окончена (или её нет).
