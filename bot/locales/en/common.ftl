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
phase-leader_speech = the vote's leader speaks
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

## This game's rules that differ from the preset (rules.changed_options): short, for the judge.

rules-with-options = { $preset } with these changes: { $options }
option-first_day_vote-single_not_voted = on the first day a single nominee is not voted
option-first_day_vote-normal = the first day is voted like any other
option-first_day_vote-no_vote = no vote on the first day
option-first_day_vote-raise_only = on the first day the vote's leader stays (30 s); only the raise removes
option-first_day_vote-no_break = on the first day the vote's leader stays, with no speech; only the raise removes
option-first_day_vote-self_break = on the first day the vote's leader leaves only with their own vote against themselves
option-first_day_leader_speech-yes = the first day's leader who stays speaks 30 s
option-first_day_leader_speech-no = the first day's leader who stays gets no speech
option-unvoted_hands_to_last-yes = hands not raised go to the last nominee
option-unvoted_hands_to_last-no = hands not raised go to nobody
option-self_nomination-yes = self-nomination allowed
option-self_nomination-no = no self-nomination
option-revote_order-same = revote in the same order
option-revote_order-reverse = revote in reverse order
option-raise_vote-yes = the raise vote is held
option-raise_vote-no = no raise vote
option-raise_2_of_4-yes = two of four are raised
option-raise_2_of_4-no = two of four are not raised
option-raise_3_of_9-yes = three of nine are raised
option-raise_3_of_9-no = three of nine are not raised
option-raise_3_of_9_from_day = three of nine are raised from day { $value }
option-third_foul-silence = third foul: no speech in the nearest minute
option-third_foul-short_speech = third foul: the nearest speech is 30 s
option-third_foul-none = third foul: no effect
option-third_foul_cuts_current_speech-yes = a third foul ends the current speech
option-third_foul_cuts_current_speech-no = a third foul does not end the current speech
option-best_move-yes = best move
option-best_move-no = no best move
option-best_move_blocked_by_day1_departures = no best move when { $value } or more left on the first day
option-draw_quiet_nights = a draw after { $value ->
    [one] { $value } night
   *[other] { $value } nights
 } with nobody leaving
option-draw_declared-after_third_day = the draw is declared at the end of a day
option-draw_declared-after_third_night = the draw is declared at the end of a night
option-last_word_on_decisive_event-yes = a last word after the deciding vote or shot
option-last_word_on_decisive_event-no = no last word after the deciding vote or shot
option-single_nominee_decided-yes = the last speaker's only candidate (day 2 on) decides the vote: a removal before it costs the next day's vote
option-single_nominee_decided-no = the last speaker's only candidate decides nothing yet: a removal before the vote cancels today's
option-rotation-first = each day opens with the seat after yesterday's opener
option-rotation-last = each day closes with the seat after yesterday's closer
option-nomination_withdrawal-none = no withdrawing a nomination
option-nomination_withdrawal-explicit = a nomination may be withdrawn in one's own minute
option-nomination_withdrawal-auto = a new nomination in one's minute replaces the earlier one
option-raise_whole_table-yes = raising the whole table is a draw
option-raise_whole_table-no = the whole table is not raised
option-technical_fouls-yes = technical fouls: the second removes
option-technical_fouls-no = no technical fouls
option-record_voters-yes = hands recorded by seat
option-record_voters-no = hands recorded as counts
option-timer = { $timer } — { $seconds }
timer-speech = speech
timer-tie_speech = speech before a revote
timer-short_speech = short speech
timer-last_word = last word
timer-mafia_meeting = the mafia's meeting
timer-sheriff_look = the Sheriff's look on night 0
timer-free_seating = free seating on night 0
timer-shooting = the shooting
timer-don_check = the Don's check
timer-sheriff_check = the Sheriff's check
timer-best_move = best move
timer-vote_window = the vote on a nominee

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
event-withdraw_nomination = withdraw a nomination
event-declare_result = declare the result
event-undo = undo
event-fix = correct an action

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
end-table_raised = A draw: every player at the table left by the vote to raise everyone (this game's rule).

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
novote-first_day_no_vote = there is no vote on the first day (this game's rule)
novote-4_4_10 = only one player was nominated on the first day ({ cite-4_4_10 })
novote-5_6 = three players are at the table and they tied twice ({ cite-5_6 })
novote-5_9 = there is no vote to raise every player at the table ({ cite-5_9 })
novote-3_of_9 = there is no vote to raise three players when nine are at the table ({ cite-7_11 })
novote-2_of_4 = there is no vote to raise two players when four are at the table (this game's rule)
novote-no_raise_vote = there is no vote to raise everyone (this game's rule)
novote-raise_failed = no more than half of the players voted to raise everyone ({ cite-4_4_12_3 })
novote-first_day_raise_only = on the first day the vote's leader stays; only a vote to raise everyone removes players (this game's rule)
novote-first_day_no_break = on the first day the vote's leader stays at the table, with no speech (this game's rule)
novote-first_day_self_break = on the first day the vote's leader leaves only by their own vote against themselves (this game's rule)

## Rule citations: each preset cites its own numbers ($rules is the game's preset).
# The seed's items under seed; where the seed is silent, FIIM 2024 (docs/rules.md §1). A rule an
# option takes from another rule set cites that set: seed 5.8's draw under the 2024 presets is the
# club edition's, F24 §7.11 under fsm2024 is FIIM's (FSM's text has no such clause).
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
    [fiim2024] club edition, 5.8
    [fsm2024] club edition, 5.8
   *[other] 5.8
 }
cite-5_9 = { $rules ->
    [fiim2024] FIIM 2024, §7.8
    [fsm2024] FSM 2024, §7.8
   *[other] 5.9
 }
cite-4_4_2 = { $rules ->
    [fsm2024] FSM 2024, §4.4.2
   *[other] FIIM 2024, §4.4.2
 }
cite-4_4_3 = { $rules ->
    [fsm2024] FSM 2024, §4.4.3
   *[other] FIIM 2024, §4.4.3
 }
cite-4_4_4 = { $rules ->
    [fsm2024] FSM 2024, §4.4.4
   *[other] FIIM 2024, §4.4.4
 }
cite-4_5_6 = { $rules ->
    [fsm2024] FSM 2024, §4.5.6
   *[other] FIIM 2024, §4.5.6
 }
cite-4_5_7 = { $rules ->
    [fsm2024] FSM 2024, §4.5.7
   *[other] FIIM 2024, §4.5.7
 }
cite-4_5_9 = { $rules ->
    [fsm2024] FSM 2024, §4.5.9, §7.10
   *[other] FIIM 2024, §4.5.9, §7.10
 }
cite-4_4_8 = { $rules ->
    [fsm2024] FSM 2024, §4.4.8
   *[other] FIIM 2024, §4.4.8
 }
cite-4_4_10 = { $rules ->
    [fsm2024] FSM 2024, §4.4.10
   *[other] FIIM 2024, §4.4.10
 }
cite-1_4 = { $rules ->
    [fsm2024] FSM 2024, §1.4
   *[other] FIIM 2024, §1.4
 }
cite-4_4_11 = { $rules ->
    [fsm2024] FSM 2024, §4.4.11
   *[other] FIIM 2024, §4.4.11
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
cite-7_10 = { $rules ->
    [fsm2024] FSM 2024, §7.10
   *[other] FIIM 2024, §7.10
 }
cite-7_11 = FIIM 2024, §7.11

# A user's words a group's answer does not repeat (this stands for them).
said-unquoted = …
