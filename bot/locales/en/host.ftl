# Host mode: the bot runs the table in a group (bot/telegram/host).
# Nothing in the group names a role or a check's answer before the end (F24 §4.4.13, §4.5.4); the
# night's lines are the same whether or not the role's player is still at the table.

## The lobby

host-lobby = 🎲 A table is forming: { $preset }. Host: { $host }.
    Seats { $seating ->
        [shuffle] are shuffled
       *[join] go by the order of joining
    }. { $count } of 10 joined{ $left ->
        [0] : the table is full.
       *[other] , { $left } more needed.
    }
host-lobby-player = { $index }. { $name }{ $reachable ->
    [yes] { "" }
   *[no] { " " }— has not opened a private chat with me yet
 }
host-lobby-judge = { $plays ->
    [yes] The host { $host } plays at this table, so does not judge it: fouls, removals and /stop are for { $platform ->
        [dc] members with Manage Channels who do not play
       *[tg] chat admins who do not play
    }.
   *[no] The judge is the host { $host } (not playing). To play, the host joins the table, and then { $platform ->
        [dc] members with Manage Channels who do not play
       *[tg] chat admins who do not play
    } judge.
 }
host-lobby-absent = Missed turns: { $count ->
    [0] a silent speech simply runs out.
   *[other] { $count } own { $count ->
        [one] speech
       *[other] speeches
    } in a row with nothing written and nothing pressed is leaving the table, a disqualifying foul (4.2.1).
 } An unraised hand goes to the last nominee ({ cite-4_4_8 }), a shot not fired is a miss, a check not made is not made.
host-lobby-open-bot = To get your role, open a private chat with me and press Start: { $link }
host-rights-read = ⚠ I cannot see the group's messages: make me an admin (or turn my privacy mode off), or I will not notice speech out of turn and "pass".
host-rights-restrict = ⚠ I may not restrict members (or this is not a supergroup): speaking out of one's minute is possible, but it is a foul (4.1.1), and at night a disqualifying foul (4.2.6).
host-rights-delete = ⚠ I may not delete messages: messages out of turn will stay in the chat.
host-btn-join = Join ✋
host-btn-leave = Leave
host-btn-open-bot = Open the bot
host-lobby-started = 🎲 The table is full, the game has begun.
host-lobby-closed = 🎲 The lobby is closed.
host-joined = You have joined the table in "{ $title }". Your role comes here once ten players have joined.
host-join-done = You are at the table.
host-join-already = You have already joined.
host-join-full = The table is full: 10 players.
host-join-open-bot = Open a private chat with me and press Start, or your role cannot reach you.
host-not-in-lobby = You are not on the list.
host-left-lobby = You have left the table.
host-link-stale = This lobby is closed, or you have not joined it.

## The start

host-started = 🎲 The game begins. Host: { $host }.
    { $seats }
    { $mode ->
        [restrict] Only the player whose minute it is may write: I restrict the others during a speech.
        [voice] A voice table: only the player whose minute it is may speak — I server-mute the others; at night and in a vote everyone is muted.
       *[foul] Only the player whose minute it is may write: a message out of one's minute is a foul (4.1.1), at night a disqualifying foul (4.2.6).
    }{ $fallback ->
        [yes] { " " }(I cannot restrict members.)
       *[no] { "" }
    }
host-role-card = 🎭 The table in "{ $title }". Your seat is { $seat }, your role: { $role }.
host-mate = { $role } { $seat }
host-role-blacks = The blacks at the table: { $mates }. During the mafia's meeting write here: I pass it on to the other blacks.
host-relay = { $seat }: { $text }
host-unnamed-deleted = Someone wrote at the table in "{ $title }" in the name of the group or a channel; I cannot tell who. The message is deleted: at the table, players write as themselves, in their own minute.
host-unnamed-kept = Someone wrote at the table in "{ $title }" in the name of the group or a channel; I cannot tell who, and I may not delete messages there. At the table, players write as themselves, in their own minute.
host-private-closed = Messages through me are open only to the blacks during the mafia's meeting. At night your buttons come in my messages here.

## Steps (the line under a step's message)

host-turn = { $kind ->
    [night_zero] 🌙 The mafia's meeting
    [last_word] ⏱ Last word, { $seat }
    [tie_speech] ⏱ Speech before the revote, { $seat }
    [leader_speech] ⏱ The vote's leader speaks, { $seat }
   *[speech] ⏱ The floor: { $seat }
 }{ $stage ->
    [warned] : { $left } left.
    [closed] : over.
   *[running] { "" } — { $seconds }.
 }
host-silenced = 🔇 { $seat } has no speech this minute ({ cite-4_4 }) but may nominate{ $closed ->
    [yes] .
   *[no] { "" } — { $seconds }.
 }
host-step-late = ⏳ This message arrived { $seconds } late: the time counts from when it appeared.
host-vote-open = ✋ Who votes for player { $seat } to leave the table? — { $seconds }. A hand may be lowered until the window closes.
host-raise-open = ✋ Who votes for all the tied players ({ $seats }) to leave the table? — { $seconds }.
host-vote-hands = Against { $seat } — hands: { $who }.
host-raise-hands = For raising all — hands: { $who }.
host-nobody = nobody
host-night-step = { $closed ->
    [yes] 🌙 Night { $night } is over.
   *[no] 🌙 Night { $night }: { $step ->
        [shooting] the mafia goes hunting
        [don_check] the Don looks for the Sheriff
        [sheriff_check] the Sheriff looks for the blacks
       *[best_move] the best move
    } — { $seconds }.
 }
host-btn-pass = Pass
host-btn-nominate = Nominate ▸
host-btn-back = ◂ Back
host-btn-hand = ✋ Against { $seat }
host-btn-raise = ✋ Raise all
host-hand = { $up ->
    [yes] Your hand is up
   *[no] Your hand is down
 }{ $kind ->
    [raise] { "" }.
   *[vote] { "" } (against { $seat }).
 }
host-nominated = You nominated { $seat }.

## The night, in private

host-prompt-shoot = 🔫 Night { $night }: pick your target — { $seconds }. A shot kills only if every black at the table shoots the same player.
    Your choice: { $picked }.
host-prompt-check = { $step ->
    [don_check] 🕵 Night { $night }: Don, whom do you check for the Sheriff? — { $seconds }.
   *[sheriff_check] 🕵 Night { $night }: Sheriff, whom do you check? — { $seconds }.
 }
    Your choice: { $picked }.
host-prompt-best-move = 🎯 You were killed on the first night. Best move: up to three players you believe black — { $seconds }.
    Picked: { $picked }.
host-prompt-closed = Time is up.
host-none-yet = none yet
host-no-shot = no shot
host-btn-no-shot = Do not shoot
host-taken = Taken: you may change it until the step ends.

## The game goes on

host-mute-failed = ⚠ I may no longer restrict members: from now on speaking out of turn is a foul (4.1.1).
host-absent = { $seat }: { $count } own { $count ->
    [one] speech
   *[other] speeches
 } in a row with nothing written and nothing pressed — leaving the table (4.2.1).
host-voice-away = { $seat }: out of the table's voice channel for more than { $seconds } s — leaving the table (4.2.1).
host-voice-unmutable = 🎙 Seats { $seats }: I cannot mute them (the server's owner, or a role above the bot's) — the host fouls speaking out of one's minute (4.1.1).
host-lobby-voice-grace = 🎙 A player out of the table's voice channel for more than { $seconds } s has left the table (4.2.1).
host-stopped = ⏹ The game was stopped by { $who }.
host-busy = { $platform ->
    [dc] This channel already has a table forming or playing. Its host or a member with Manage Channels may stop it: /stop.
   *[tg] A lobby or a game is already on at this table. The host or an admin may stop it: /stop.
}
host-judge-game = A judge's unfinished game #{ $game } is here: I cannot host a table here until it is over.
host-table-command = I run this table: /{ $command } is not for a hosted game. Players use the buttons, «Pass» (/pass) and /nominate; the host /foul, /warn, /dq, /ppk, /unfoul, /stop.
host-judge-linked = This group is linked to a judge's game (/link). For me to host a table here, the judge must /unlink first.
host-no-table = There is no table here. Open one: /newgame.
host-not-started = The table is still forming.
host-not-host = { $platform ->
    [dc] Only the table's host or a member with Manage Channels — one who does not play at this table — can do that. Nothing was changed.
   *[tg] Only the table's host or a chat admin — one who does not play at this table — may do this.
}
host-not-player = You are not playing at this table.
host-not-speaker = It is not your minute.
host-nomination-late = Your minute was over before your nomination reached me: { $target } is not nominated — a nomination is made in one's own speech only ({ cite-4_4_2 }).
host-outdated = This button no longer works.
host-error-bad_option = Unknown value { $value } for { $option }.

## The club channel and the protocol

host-channel-usage = Link the club's channel: /channel @channel_name (I must be an admin there, allowed to post); unlink: /channel off.
host-channel-is = The club's channel: { $title }. Unlink: /channel off.
host-channel-not-found = Channel { $name } not found, or I cannot see it.
host-channel-cannot-post = I may not post in { $name }: make me an admin of the channel allowed to post messages.
host-channel-linked = The club's channel is linked: { $title }. Each game's start and result, with its protocol, go there.
host-channel-unlinked = The club's channel is unlinked.
host-channel-start = 🎲 A game in "{ $title }". Host: { $host }.
    { $seats }
host-channel-result = 🏁 The game in "{ $title }" is over. It took { $length }.
    { $result }
host-minutes = { $count } { $count ->
    [one] minute
   *[other] minutes
 }
host-protocol-caption = The protocol of game { $game }
host-protocol-none = No game has been played here yet.
host-protocol-failed = The protocol of this game could not be made.

## A removed player's mute until the end (both modes where the platform has it)

game-removal-reason = Game #{ $game }: seat { $seat } removed by the rules, until the end of the game.
game-removal-lifted = Game #{ $game }: seat { $seat } is back or the game is over.
host-removal-failed = ⚠ I could not time out the removed player at seat { $seats }: I need Moderate Members and a role above the player's.

## A tournament's table (issue 17): the plan's seats, each taken by its player
host-lobby-tournament = 🎲 Tournament #{ $number }, table { $table }: the lobby of game { $game } of { $games }, { $preset }. Host: { $host }.
    The seats are the tournament's plan: each player takes their own with «Join ✋» (if your { $platform ->
        [dc] Discord
       *[tg] Telegram
    } name is not the plan's, with /join Name). { $count } of 10 taken.
host-lobby-seat = { $seat }. { $name } — { $taken ->
    [no] free
    [yes] { $who }
   *[unreachable] { $who }, has not opened a private chat with me yet
 }
host-tournament-not-listed = «{ $name }» is not in the seating of game { $game } at table { $table }. If the plan has you under another name, type /join Name in the { $platform ->
    [dc] channel
   *[tg] group
 } — as the plan writes it.
host-tournament-other-account = «{ $name }» belongs to another account in the club: only that account can take this seat.
host-tournament-taken = Seat { $seat } ({ $name }) is taken already.
host-tournament-seated = { $who } — seat { $seat } ({ $name }).
host-join-button = Players join this table with «Join ✋» under the lobby.
host-join-usage = Write it as /join Name — the name as the tournament's plan writes it.
host-tournament-moved = the chief judge (table { $table } of the tournament is no longer hosted in this group)
host-join-evening-only = This table is for the evening's list: the players of its sign-up sit here.
host-btn-open-evening = Let anyone take the free seats ▸
host-evening-opened = The table is open: the free seats are for anyone, not only the evening's list.
host-lobby-evening = The evening's list ({ $count }){ $only ->
    [yes] : only its players sit here.
   *[no] : the free seats are anyone's.
} Not seated yet: { $waiting ->
    [none] everyone is.
   *[other] { $waiting }
}
