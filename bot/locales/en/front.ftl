# The front door (bot/front.py): a command typed where it has no route, or by someone who may not
# give it there — the same words on every platform ($platform: tg | dc | console).

front-not-here = /{ $command } { $where ->
    [group] is typed in the club's group, not here.
    [desk] is typed by the judge in a private chat with me.
    [channel] is typed in a server's text channel.
    [table] works at a table I run (/newgame opens one).
    [console] works in the judge's console.
    [bots] works in Telegram and Discord, not in the console.
    [discord] works in Discord, in a server's text channel.
   *[elsewhere] does not work here.
}
front-not-allowed = Here only { $platform ->
    [dc] a member with Manage Channels
   *[tg] a chat admin
} may give /{ $command }.
front-lang-not-allowed = { $platform ->
    [dc] The server's language is changed by a game's judge or a member with Manage Server.
   *[tg] The group's language is changed by a game's judge or a chat admin.
}
front-takeover-admin-only = { $platform ->
    [dc] Only a member with Manage Channels may take a game over.
   *[tg] Only an admin of this chat can take the game over.
}
front-channel-admin-only = { $platform ->
    [dc] The club channel is linked by a member with Manage Channels.
   *[tg] A chat admin links the club's channel.
}
