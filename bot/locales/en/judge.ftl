# Judge mode on every platform (bot/judge/controller.py). A message whose wording depends on the
# platform selects it by $platform: tg (Telegram) or dc (Discord).

judge-panel-title = Game #{ $game }
judge-protocol = The protocol of game #{ $game }.
judge-club-result = { $where ->
    [none] Game #{ $game } is over.
   *[other] Game #{ $game } ({ $where }) is over.
 }
judge-club-start = 🎲 Game #{ $game }{ $where ->
    [none] {""}
   *[other] {" "}at «{ $where }»
 } begins.{ $judge ->
    [none] {""}
   *[other] {" "}The judge: { $judge }.
 }
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

## The panel, its pickers, the timer and undo (moved from telegram.ftl: judge mode on every platform)

judge-no-quit = Nothing to close here: the game is saved, go on whenever you like.
judge-press-not-judge = Only this game's judge can do that. Nothing was changed.
judge-press-outdated = That button is outdated: the game has moved on. The panel is refreshed.
judge-press-unknown = That button is not from the current game: nothing changed.
judge-takeover-already = You already judge this game.
judge-takeover-busy = You have an unfinished game of your own: finish it or start a new one, then /takeover again.
judge-taken-over-group = Game #{ $game } is now judged by { $judge }.
judge-panel-taken = Game #{ $game } is judged by { $judge }.
judge-btn-next = Next ▶
judge-btn-morning = Next ▶ (morning)
judge-btn-undo = Undo ↩
judge-btn-foul = Foul ▸
judge-btn-nominate = Nominate ▸
judge-btn-miss = Miss
judge-btn-skip = Skip ▶
judge-btn-accept = Accept ✓
judge-btn-record-voters = { $on ->
    [yes] Hands: by seat ✓
   *[other] Hands: counts
 }
judge-btn-again = Start over
judge-btn-back = ← Back
judge-btn-pause = ⏸ Pause
judge-btn-resume = ▶ Resume
judge-btn-next-part = { $kind ->
    [sheriff_look] Sheriff looks ▶
    [free_seating] Free seating ▶
   *[other] Next part ▶
 }
judge-btn-start = Start the game ▶
judge-btn-roles = Roles ▸
judge-btn-new = New game
judge-btn-foul-generic = Foul
judge-btn-warning = Warning
judge-btn-dq = Disqualification ▸
judge-btn-dq-generic = DQ foul
judge-btn-team-loss = Team loss ▸
judge-btn-team-loss-generic = Team loss
judge-btn-withdraw = Withdraw the last foul
judge-btn-team-red = Red
judge-btn-team-black = Black
judge-btn-result = Result ▸
judge-btn-red-wins = Red wins
judge-btn-black-wins = Black wins
judge-btn-draw = Draw
judge-seat-gone = ·
judge-seat-picked = ✓{ $n }
judge-picked = ✓ { $label }
judge-preset-seed = Club
judge-preset-fiim2024 = FIIM 2024
judge-preset-fsm2024 = FSM 2024
judge-setup-hint =
    Names — /name 3 Vasya. Roles — the "Roles" button (entered only here, in private). The rules — a button or /new fiim2024 …
    Without the roles I cannot see the end of the game, answer the Don's and the Sheriff's checks or count the best move: the judge declares the result.
judge-pick-nominee = Whom does player { $seat } nominate?
judge-pick-foul-seat = Who gets the penalty?
judge-pick-reason = Player { $seat } ({ $fouls }): which penalty?
judge-pick-dq = Player { $seat }: a disqualifying foul (4.2)?
judge-pick-team-loss = Player { $seat }: a team loss (4.3)?
judge-pick-team = The roles are not entered: player { $seat }'s team?
judge-legend-line = { $code } — { $reason }
judge-pick-hands = How many hands against player { $seat }?
judge-pick-raise = How many hands for raising everyone?
judge-btn-hands = Accept: { $count } ✓
judge-pick-voters = Who votes against player { $seat }? Mark the seats. Hands: { $count }.
judge-pick-raise-voters = Who votes to raise? Mark the seats. Hands: { $count } (needed: { $need }).
judge-pick-kill = Who was killed tonight?
judge-pick-don_check = Whom does the Don check?
judge-pick-sheriff_check = Whom does the Sheriff check?
judge-pick-best-move = Player { $seat }'s best move — up to three seats. Picked: { $picked ->
    [none] nobody
   *[other] { $picked }
 }.
judge-pick-result = The roles are not entered: the judge declares the result.
judge-pick-role = Roles: the seat of the { $role }? So far: { $so_far }.
judge-roles-confirm = Roles: { $so_far }; the rest are civilians. Correct?
judge-roles-none-yet = nothing
judge-role-seat = { $role } — { $seat }
judge-timer-title = { $kind ->
    [last_word] Player { $seat }'s last word
    [tie_speech] Player { $seat }'s speech before the revote
    [leader_speech] Player { $seat }'s speech as the vote's leader
    [mafia_meeting] The mafia's meeting
    [sheriff_look] The Sheriff looks at the table
    [free_seating] Free seating
    [shooting] The mafia's hunt
    [don_check] The Don's check
    [sheriff_check] The Sheriff's check
    [best_move] Player { $seat }'s best move
   *[speech] Player { $seat }'s speech
 }
judge-timer-running = ⏱ { $title } — { $seconds }.
judge-timer-resumed = ⏱ { $title }: resumed, { $left } left.
judge-timer-warned = ⏱ { $title }: { $left } left.
judge-timer-countdown = ⏱ { $title }: { $left } left, until { $until }.
judge-timer-no-next = /timer next: this step has no next part. Only night 0's meeting has parts: after it the Sheriff's look or the free seating, where the game's rules have them. The game's next step: /next.
judge-timer-none = Nothing is timed now: this step has no timer.
judge-timer-paused = ⏸ { $title }: paused, { $left } left.
judge-timer-over = ⏹ { $title }: time is up.
judge-timer-stopped = ⏹ { $title }: over.
judge-btn-log = Log 📜
judge-btn-why = Why?
judge-log-title = Game { $game }'s log: every action, who recorded it and when, what was undone and by whom.
judge-log-line = { $seq }. { $when } · { $who } · { $what }
judge-log-undo = ↩ undo of action { $seq }
judge-log-undone = — undone by action { $seq } ({ $who }, { $when })
judge-log-fix = ✎ correction of action { $seq }: { $now }
judge-log-fixed = — corrected by action { $seq } ({ $who }, { $when })
judge-log-empty = Game { $game }'s log has no actions yet.
judge-fixed = ✎ Action { $seq } corrected: it was “{ $was }”, it is “{ $now }”.
judge-fixed-now = Now:
judge-fixed-no-longer = No longer so:
judge-fixed-nothing-else = Nothing else changes by it.
judge-fixed-public = ✎ The judge's correction: one of the earlier actions is corrected.
judge-undone = { $count ->
    [one] ↩ { $count } action undone.
   *[other] ↩ { $count } actions undone.
 }
judge-undone-public = { $count ->
    [one] ↩ Correction: the judge undid { $count } action.
   *[other] ↩ Correction: the judge undid { $count } actions.
 }
judge-undone-public-retold = ↩ The judge's correction: undone.
judge-now-turn = Now: { $kind ->
    [last_word] player { $seat }'s last word.
    [tie_speech] player { $seat }'s speech before the revote.
    [leader_speech] the vote's leader, player { $seat }, speaks.
   *[speech] player { $seat }'s speech.
 }
judge-now-night = Now: night { $night } — { $step }.
judge-now-phase = Now: { $phase }.
judge-protocol-none = No protocol yet: the last game here is not over (or there is none).
