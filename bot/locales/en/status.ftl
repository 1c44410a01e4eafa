# The judge's panel (status-*, action-*) and the result (result-*).

## Header

status-setup = Setting up the game: { $preset }.
status-rules = Rules: { $rules }.
status-night-zero = Night zero — the blacks' meeting.
status-day = Day { $day } — { $phase }.
status-night = Night { $night } — { $step }.
status-over = Game over. { $outcome }

## Who speaks

status-turn-speech = Player { $seat } speaks — { $seconds }.
status-turn-silenced = Player { $seat }: third foul — no speech this minute ({ cite-4_4 }); a nomination only.
status-turn-last_word = Last word of player { $seat } — { $seconds }.
status-turn-tie_speech = Before the revote: player { $seat } speaks — { $seconds }.
status-turn-leader_speech = The vote's leader, who stays, speaks: player { $seat } — { $seconds }.

## Voting

status-vote-banned = No vote on day { $day } ({ $rule }): player { $seat } was removed{ removal-why }.
status-roles-unknown = The roles are not entered: the judge declares the result.
status-nominees = Nominated (for the judge only, { cite-5_4 }): { $seats }.
status-no-nominees = Nobody is nominated.
status-count = { $seat } — { $votes }
status-ballot = { $round ->
    [0] The vote
   *[other] The revote
 } among players { $seats }{ $counts ->
    [none] .
   *[other] : { $counts }.
 }
status-raise = The vote to raise players { $seats }.
status-result-fixed = The result is settled. { $outcome } Announce it after the last word ({ cite-7_9 }).

## Seats

status-seats = Players:
status-seat = { $seat }: { $facts }
status-disqualified = disqualification
status-short-pending = the nearest speech is { $seconds } (third foul, { $why ->
    [option] this game's rule
   *[other] { cite-5_7 }
 })
status-silence-pending = no speech in the nearest minute (third foul, { cite-4_4 })

left-vote = left by the vote (day { $day })
left-raise = left by the vote to raise everyone (day { $day })
left-kill = killed in night { $day }
left-fouls = removed: 4 fouls, { $when ->
    [night] night
   *[day] day
 } { $day } ({ cite-4_5 })
left-disqualification = removed: a disqualification{ $reason ->
    [none] { "" }
   *[other] { " — " }{ $reason } ({ $code })
 }, { $when ->
    [night] night
   *[day] day
 } { $day }
left-team_loss = team loss — the team is awarded the loss ({ $when ->
    [night] night
   *[day] day
 } { $day })

## What next

action-start = Next: names (/name), roles (/roles), then start the game — /start.
action-next = Next: the blacks' meeting — { $seconds }; then /next — morning comes.
action-speech = Next: player { $seat } speaks — { $seconds }. Nominate — /nominate, end the speech — /next.
action-silenced = Next: player { $seat } has no speech ({ cite-4_4 }) but may nominate — /nominate; move on — /next.
action-last_word = Next: last word of player { $seat } — { $seconds }; end it — /next.
action-tie_speech = Next: player { $seat } speaks before the revote — { $seconds }; end it — /next.
action-leader_speech = Next: the vote's leader, player { $seat }, speaks — { $seconds }; end it — /next, then night.
action-vote = Who is for player { $nominee } leaving the table? Left: { $left }. Record: /vote { $n } and the number of votes.
action-raise_vote = Who is for all the players under vote ({ $seats }) leaving the table? At least { $need } of { $at_table } are needed. Record: /raise and the number of votes.
action-shooting = Next: the shooting — /kill and a seat, /shots, or a miss — /miss.
action-don_check = Next: the Don's check — /don and a seat; no check — /next.
action-sheriff_check = Next: the Sheriff's check — /sheriff and a seat; no check — /next.
action-best_move = Next: best move of player { $seat } — /bestmove and up to three seats; none — /next.
action-none = The game is over.

## Result

result-title = The result. { $outcome }
result-not-over = The game is not over yet.
result-departures = Left the game, in order:
result-departure = { $index }. { $seat } — { $how }
result-no-departures = Nobody left the game.
result-fouls = Fouls: { $list }.
result-no-fouls = No fouls.
result-best-move = Best move of player { $seat }: { $guesses }.
result-best-move-hits = Best move of player { $seat }: { $guesses } (blacks: { $hits }).
result-roles = Roles: { $roles }.
result-roles-unknown = The roles were not entered.
