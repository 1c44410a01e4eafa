# The front door (bot/front.py): a command typed where it has no route, or by someone who may not
# give it there — the same words on every platform ($platform: tg | dc | console).

front-not-here = /{ $command } { $where ->
    [group] набирают в группе клуба, а не здесь.
    [desk] судья набирает в личном чате со мной.
    [channel] набирают в текстовом канале сервера.
    [table] работает за столом, который веду я (его открывает /newgame).
    [console] работает в консоли судьи.
    [bots] работает в Telegram и Discord, не в консоли.
    [discord] работает в Discord, в текстовом канале сервера.
   *[elsewhere] здесь не работает.
}
front-not-allowed = /{ $command } здесь может дать только { $platform ->
    [dc] участник с правом «Управлять каналами».
   *[tg] администратор чата.
}
front-lang-not-allowed = { $platform ->
    [dc] Язык сервера меняет судья игры или участник с правом «Управлять сервером».
   *[tg] Язык группы меняет судья игры или администратор чата.
}
front-takeover-admin-only = { $platform ->
    [dc] Забрать игру может только участник с правом «Управлять каналами».
   *[tg] Забрать игру может только администратор этого чата.
}
front-channel-admin-only = { $platform ->
    [dc] Канал клуба привязывает участник с правом «Управлять каналами».
   *[tg] Канал клуба привязывает администратор чата.
}
