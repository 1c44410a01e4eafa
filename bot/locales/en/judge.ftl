# Judge mode on every platform (bot/judge/controller.py). A message whose wording depends on the
# platform selects it by $platform: tg (Telegram) or dc (Discord).

judge-panel-title = Game #{ $game }
judge-protocol = The protocol of game #{ $game }.
judge-club-result = Game #{ $game } ({ $where }) is over.
judge-created = { $platform ->
   *[dc] Game #{ $game } is created in this channel. The judge's panel is in your direct messages.
    [tg] {""}
}
judge-not-judge = { $platform ->
    [dc] Only this game's judge ({ $judge }) can do that. Nothing was changed. A member with Manage Channels may take the game over: /takeover.
   *[tg] Only the game's judge may do this.
}
judge-busy = { $platform ->
    [dc] This channel has an unfinished game #{ $game } judged by { $judge }. Only its judge may start another; a member with Manage Channels may take it over: /takeover.
   *[tg] Another judge's unfinished game #{ $game } is here. Only its judge may start another.
}
judge-unreachable = { $platform ->
    [dc] Done, but I cannot write to you in direct messages: allow direct messages from this server's members (Privacy Settings), then /panel.
   *[tg] I cannot write to you privately: open a chat with me and press Start — the judge's panel will appear there.
}
judge-panel-sent = { $platform ->
   *[dc] The judge's panel is in your direct messages.
    [tg] {""}
}
judge-sent-privately = Sent to your direct messages.
judge-new-game-public = { $platform ->
    [dc] New game #{ $game }: { $preset }. Judge: { $judge }.
   *[tg] New game #{ $game }: { $preset }.
}
judge-preset = Game #{ $game } now follows: { $preset }.
judge-takeover-no-game = { $platform ->
    [dc] There is no unfinished game here.
   *[tg] No game is linked to this group. The judge links it with /link.
}
judge-taken-over-old = { $platform ->
    [dc] { $judge } judges game #{ $game } in { $where } now. Your panel of this game no longer works.
   *[tg] { $judge } (a group admin) judges game #{ $game } now. Your panel of this game no longer works.
}
judge-takeover-done = { $platform ->
   *[dc] You judge game #{ $game } now: the panel is in your direct messages.
    [tg] {""}
}
judge-help = { $platform ->
    [dc] In Discord:
        Commands are typed in the game's channel; my answers are seen by you only. The judge's panel, the roles and the checks are in the judge's direct messages.
        /panel — the judge's panel afresh. /seat 5 @member — whose seat it is (a removed player is timed out until the end of the game).
        /link #channel — the results and the protocol also go to a club channel; /unlink.
        /takeover — a member with Manage Channels takes the game over. /lang ru|en — the server's language (its judges or Manage Server).
   *[tg] In Telegram:
        The panel's buttons do what the commands do; the "/" is optional.
        /link — in the club's group: the game's announcements go there; /unlink — unlink the group.
        /takeover — in the group: a chat admin takes the game over (the previous judge is told).
        /lang ru|en — this chat's language (in a group: the announcements' language).
}
