# The points of a game (rules/points.py; docs/rules.md §8.7). The club's own text has none: its
# preset scores as FIIM 2024. $rules is the game's preset, $item the item's number there.

event-extra = give extra points
event-bad_play = give penalty points

## Citations of the points' rules

cite-8_2_4 = { $rules ->
    [fsm2024] FSM 2024, §8.2.4
   *[other] FIIM 2024, §8.2.4
 }
cite-8_2_5 = { $rules ->
    [fsm2024] FSM 2024, §8.2.5
   *[other] FIIM 2024, §8.2.5
 }
cite-8_3_4 = { $rules ->
    [fsm2024] FSM 2024, §8.3.4
   *[other] FIIM 2024, §8.3.4
 }
cite-8_4_1 = { $rules ->
    [fsm2024] FSM 2024, §8.4.1
   *[other] FIIM 2024, §8.4.1
 }
cite-8_4_2 = { $rules ->
    [fsm2024] FSM 2024, §8.4.2
   *[other] FIIM 2024, §8.4.2
 }
cite-8_4_3 = { $rules ->
    [fsm2024] FSM 2024, §8.4.3
   *[other] FIIM 2024, §8.4.3
 }
cite-8_4_4 = { $rules ->
    [fsm2024] FSM 2024, §8.4.4
   *[other] FIIM 2024, §8.4.4
 }
cite-8_4_6 = { $rules ->
    [fsm2024] FSM 2024, §8.4.6
   *[other] FIIM 2024, §8.4.6
 }
cite-8_4_7 = { $rules ->
    [fsm2024] FSM 2024, §8.4.7
   *[other] FIIM 2024, §8.4.7
 }
cite-8_4_8 = FIIM 2024, §8.4.8
cite-8_5 = { $rules ->
    [fsm2024] FSM 2024, §8.5
   *[other] FIIM 2024, §8.5
 }
cite-points = { $rules ->
    [fsm2024] FSM 2024
   *[other] FIIM 2024
 }, §{ $number }

## Notices to the judge

notice-extra_points = { $taken ->
    [yes] Player { $seat }: extra points taken back.
   *[other] Player { $seat }: extra points +{ $points }{ $approved ->
        [yes] { " " }(with the chief judge's approval)
       *[other] { "" }
    } ({ cite-8_4_1 }).
 }
notice-bad_play = { $withdrawn ->
    [yes] Player { $seat }: penalty points for "{ $what }" taken back.
   *[other] Player { $seat }: penalty points { $points } — { $what } ({ $cite }).
 }

## Refusals

error-bad_points = Not a number of points: "{ $value }". Points are zero or more, with at most two decimals: 0.4.
error-extra_in_draw = A draw gives no extra points from the judge ({ cite-8_4_7 }).
error-extra_value = { $side ->
    [winners] { $approvable ->
        [yes] Player { $seat } is on the winning team: the judge may give { $allowed } ({ cite-8_4_3 }), not { $value }. More only with the chief judge's approval: add "+" (/extra { $n } { $value } +) if you have it.
       *[no] Player { $seat } is on the winning team: the judge may give { $allowed } ({ cite-8_4_3 }), not { $value }.
    }
   *[losers] Player { $seat } is on the losing team: the judge may give { $allowed } ({ cite-8_4_4 }), not { $value }.
 }
error-extra_players = { $count ->
    [one] { $count } player
   *[other] { $count } players
 } would get extra points; at most { $limit } may ({ cite-8_4_1 }). Take another player's back (/extra N 0), or add "+" with the chief judge's approval.
error-extra_total = The extra points would come to { $total } in all; at most { $limit } ({ cite-8_4_2 }).
error-unknown_bad_play = No such item of penalty points: "{ $item }". The items are { cite-8_5 }: /badplay N item.
error-bad_play_role = Item { $item } is not for player { $seat }: it concerns { $who ->
    [red] a red player
    [black] a black player
    [sheriff] the Sheriff
   *[other] any player
 }.
error-bad_play_given = Player { $seat } already has the penalty points of item { $item }: the same play is counted once.
error-bad_play_not_given = Player { $seat } has no penalty points of item { $item }: nothing to take back.

## The bad plays (FIIM 2024, §8.5; FSM 2024, §8.5), in our own words

badplay-fiim2024-8_5_1 = two or more destructive plays
badplay-fiim2024-8_5_2 = broke day 1's vote into a red (or into their own seat), and the reds lost
badplay-fiim2024-8_5_3 = broke the vote into a red at four players
badplay-fiim2024-8_5_4 = voted against three or more "testaments" pointing at a red
badplay-fiim2024-8_5_5 = voted at three against three without playing out two Sheriffs' checks
badplay-fiim2024-8_5_6 = a black owned up in the four-player endgame, and the blacks lost
badplay-fiim2024-8_5_7 = voted for their own removal by accident, and the team lost
badplay-fiim2024-8_5_8 = split the vote twice at three players
badplay-fiim2024-8_5_9 = voted at two against two or three against three against a sure red
badplay-fiim2024-8_5_10 = a red claimed the Sheriff and left it standing, and the reds lost
badplay-fiim2024-8_5_11 = the Sheriff never revealed the role, and the reds lost
badplay-fiim2024-8_5_12 = the Sheriff's checks left wrong or incomplete, and the reds lost
badplay-fiim2024-8_5_13_1 = a black slept through the договорка, and the blacks lost
badplay-fiim2024-8_5_13_2 = the Sheriff checked nobody for two nights or more, and the reds lost
badplay-fiim2024-8_5_13_3 = the Sheriff checked nobody when any check won the game, and the reds lost
badplay-fiim2024-8_5_13_4 = a black did not shoot for two nights or more, and the blacks lost
badplay-fiim2024-8_5_13_5 = a black missed the obvious target when the shot won the game, and the blacks lost
badplay-fsm2024-8_5_1 = { badplay-fiim2024-8_5_2 }
badplay-fsm2024-8_5_2 = { badplay-fiim2024-8_5_3 }
badplay-fsm2024-8_5_3 = { badplay-fiim2024-8_5_10 }
badplay-fsm2024-8_5_4 = { badplay-fiim2024-8_5_11 }
badplay-fsm2024-8_5_5 = { badplay-fiim2024-8_5_12 }
badplay-fsm2024-8_5_7 = { badplay-fiim2024-8_5_13_1 }
badplay-fsm2024-8_5_8 = { badplay-fiim2024-8_5_13_2 }
badplay-fsm2024-8_5_9 = { badplay-fiim2024-8_5_13_3 }
badplay-fsm2024-8_5_10 = { badplay-fiim2024-8_5_13_4 }
badplay-fsm2024-8_5_11 = { badplay-fiim2024-8_5_13_5 }

## Points: /points, the result, the protocol (docs/rules.md §8.7)

points-title = The game's points ({ $scheme ->
    [fsm2024] FSM 2024, §8
   *[other] FIIM 2024, §8
 }{ $rules ->
    [seed] : the club's own text has no points, so FIIM 2024's are used
   *[other] { "" }
 }):
points-line = { $seat } — { $total }: { $parts }
points-part-win = win { $points }
points-part-best_move = best move { $points }
points-part-extra = the judge's { $points }
points-part-auto = automatic bonus { $points }
points-part-dq = disqualification { $points }
points-part-team_loss = team loss { $points }
points-part-bad_play = penalty { $points }
points-part-none = nothing
points-not-over = The game is not over yet: the points follow from its result.
points-roles-unknown = The roles were not entered: without them there are no points (they follow from the teams).
points-not-computed = The first night's victim's compensation ({ $rules ->
    [fsm2024] FSM 2024, §8.6
   *[other] FIIM 2024, §8.6
 }) is { $rules ->
    [fsm2024] counted over a series, not a game: the club's /rating and a tournament's standings add it.
   *[other] not computed: FIIM 2024's formula for it is not in the rules text this referee follows (its digest lost it), so neither this sheet nor the club's /rating counts it rather than guess.
 }
error-bad_play_not_lost = Item { $item } is a play by which the player's team lost, and { $result ->
    [draw] this game was a draw
   *[won] player { $seat }'s team won this game
 }: no penalty points for it.
