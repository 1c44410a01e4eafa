# Common words: seats, counted nouns, phases, roles, teams, presets.
# Seats are numbers ("#5"); player names appear only in the judge's panel and the result.

seat = #{ $n }
seat-named = #{ $n } { $name }
shot = { $shooter } → { $target ->
    [none] nobody
   *[other] { $target }
 }

## Counted nouns

seconds = { $count } { $count ->
    [one] second
   *[other] seconds
 }
fouls = { $count } { $count ->
    [one] foul
   *[other] fouls
 }
votes = { $count } { $count ->
    [one] vote
   *[other] votes
 }
players = { $count } { $count ->
    [one] player
   *[other] players
 }
warnings = { $count } { $count ->
    [one] warning
   *[other] warnings
 }

## Phases and night steps

phase-setup = setup
phase-night_zero = night zero (the blacks' meeting)
phase-last_word = last word
phase-speech = speeches
phase-voting = voting
phase-tie_speech = speeches before the revote
phase-raise_vote = the vote to raise everyone
phase-night = night
phase-game_over = game over

step-shooting = shooting
step-don_check = the Don's check
step-sheriff_check = the Sheriff's check
step-best_move = best move

## Roles and teams

role-civilian = civilian
role-sheriff = Sheriff
role-mafia = mafia
role-don = Don

team-red = red
team-black = black
team-of-red = the red team
team-of-black = the black team

roles-part = { $role } — { $seats }
roles-rest = the rest are civilians

## How a player left

cause-vote = by the vote
cause-raise = by the vote to raise everyone
cause-kill = killed at night
cause-fouls = 4 fouls
cause-disqualification = a disqualifying foul
cause-team_loss = team loss

## Rule sets

preset-seed = FIIM rules (the club's edition)
preset-fiim2024 = FIIM rules 2024
preset-fsm2024 = FSM rules 2024

## Actions (for "you can't … now")

event-set_name = set a name
event-set_roles = enter the roles
event-start_game = start the game
event-next = move on
event-nominate = nominate
event-vote = record votes
event-raise_vote = record the vote to raise everyone
event-night_kill = record the shooting
event-shots = record the shots
event-don_check = record the Don's check
event-sheriff_check = record the Sheriff's check
event-best_move = record the best move
event-penalty = give a penalty
event-withdraw_foul = withdraw a foul
event-declare_result = declare the result
event-undo = undo

## How the game ended (F24 §1.4, seed 5.8, 4.3)

end-all_black_out = Red wins: every black player has left the game.
end-parity = Black wins: there are at least as many blacks at the table as reds.
end-draw = Draw: nobody left the game for three nights and three days in a row, starting with a night (5.8).
# The draw by the preset's rule (rules.DrawDeclared): seed 5.8 counts nights and days, FIIM/FSM 2024 §7.7 nights.
end-draw-after_third_day = Draw: nobody left the game for { $nights_text } and { $days_text } in a row, starting with a night ({ cite-5_8 }).
end-draw-after_third_night = Draw: nobody left the game for { $nights_text } in a row ({ cite-7_7 }).
draw-nights = { $count ->
    [3] three nights
    [one] { $count } night
   *[other] { $count } nights
 }
draw-days = { $count ->
    [3] three days
    [one] { $count } day
   *[other] { $count } days
 }
end-team_loss = { $winner ->
    [black] Black wins: team loss for the red team.
   *[red] Red wins: team loss for the black team.
 }
end-declared = { $winner ->
    [red] The judge declares a red win.
    [black] The judge declares a black win.
   *[draw] The judge declares a draw.
 }

## Why no vote is held, or nobody leaves

novote-5_1 = { $seat ->
    [none] a player
   *[other] player { $seat }
 } was removed{ removal-why } ({ cite-5_1 })
novote-5_2 = { $seat ->
    [none] a player
   *[other] player { $seat }
 } was removed{ removal-why } after the vote's result was known ({ cite-5_2 })
# What the removal was for: a fourth foul, or a disqualification with its item (none at night).
removal-why = { $cause ->
    [fouls] : a fourth foul
    [none] { "" }
   *[other] : a disqualification{ $code ->
        [none] { "" }
        [dq] { "" }
       *[other] { " " }({ $code })
    }
 }
novote-no_nominees = nobody was nominated
novote-first_day_no_vote = there is no vote on the first day (club rule)
novote-4_4_10 = only one player was nominated on the first day ({ cite-4_4_10 })
novote-5_6 = three players are at the table and they tied twice ({ cite-5_6 })
novote-5_9 = there is no vote to raise every player at the table ({ cite-5_9 })
novote-3_of_9 = there is no vote to raise three players when nine are at the table ({ cite-7_11 })
novote-2_of_4 = there is no vote to raise two players when four are at the table (club rule)
novote-no_raise_vote = there is no vote to raise everyone (club rule)
novote-raise_failed = no more than half of the players voted to raise everyone ({ cite-4_4_12_3 })
novote-first_day_raise_only = on the first day the vote's leader stays; only a vote to raise everyone removes players (club rule)

## Rule citations: each preset cites its own numbers ($rules is the game's preset).
# The seed's items (seed-rules.ru.txt) under seed; where the seed is silent, FIIM 2024.
cite-4_3 = { $rules ->
    [fiim2024] FIIM 2024, §6.8
    [fsm2024] FSM 2024, §6.8
   *[other] 4.3
 }
cite-4_4 = { $rules ->
    [fiim2024] FIIM 2024, §6.4
    [fsm2024] FSM 2024, §6.4
   *[other] 4.4
 }
cite-4_5 = { $rules ->
    [fiim2024] FIIM 2024, §6.5
    [fsm2024] FSM 2024, §6.5
   *[other] 4.5
 }
cite-5_1 = { $rules ->
    [fiim2024] FIIM 2024, §7.1
    [fsm2024] FSM 2024, §7.1
   *[other] 5.1
 }
cite-5_2 = { $rules ->
    [fiim2024] FIIM 2024, §7.2
    [fsm2024] FSM 2024, §7.2
   *[other] 5.2
 }
cite-5_3 = { $rules ->
    [fiim2024] FIIM 2024, §7.3
    [fsm2024] FSM 2024, §7.3
   *[other] 5.3
 }
cite-5_6 = { $rules ->
    [fiim2024] FIIM 2024, §7.8
    [fsm2024] FSM 2024, §7.8
   *[other] 5.6
 }
cite-5_7 = { $rules ->
    [fiim2024] FIIM 2024, §7.6
    [fsm2024] FSM 2024, §7.6
   *[other] 5.7
 }
cite-5_8 = { $rules ->
    [fiim2024] FIIM 2024, §7.7
    [fsm2024] FSM 2024, §7.7
   *[other] 5.8
 }
cite-5_9 = { $rules ->
    [fiim2024] FIIM 2024, §7.8
    [fsm2024] FSM 2024, §7.8
   *[other] 5.9
 }
cite-4_4_8 = { $rules ->
    [fsm2024] FSM 2024, §4.4.8
   *[other] FIIM 2024, §4.4.8
 }
cite-4_4_10 = { $rules ->
    [fsm2024] FSM 2024, §4.4.10
   *[other] FIIM 2024, §4.4.10
 }
cite-4_4_12 = { $rules ->
    [fsm2024] FSM 2024, §4.4.12
   *[other] FIIM 2024, §4.4.12
 }
cite-4_4_12_3 = { $rules ->
    [fsm2024] FSM 2024, §4.4.12.3
   *[other] FIIM 2024, §4.4.12.3
 }
cite-6_8_5 = { $rules ->
    [fsm2024] FSM 2024, §6.8.5
   *[other] FIIM 2024, §6.8.5
 }
cite-6_8_6 = { $rules ->
    [fsm2024] FSM 2024, §6.8.6
   *[other] FIIM 2024, §6.8.6
 }
cite-7_7 = { $rules ->
    [fsm2024] FSM 2024, §7.7
   *[other] FIIM 2024, §7.7
 }
cite-7_9 = { $rules ->
    [fsm2024] FSM 2024, §7.9
   *[other] FIIM 2024, §7.9
 }
cite-7_11 = { $rules ->
    [fsm2024] FSM 2024, §7.11
   *[other] FIIM 2024, §7.11
 }
