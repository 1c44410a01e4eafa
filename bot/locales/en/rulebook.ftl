# /rule: what a rule the bot cites says, in our own words (docs/rules.md).
# rule-<code>: a rule by the engine's code (5_7 is the seed's 5.7; under the 2024 presets its
# number in their text, { cite-5_7 }). $rules: the game's preset; the points come from
# rules.SCORING ($win, $dq, $team_loss, $bm3, $bm2, $bonus, $bad, $xp, $xpa, $xt, $xta, $wlo,
# $whi, $whia, $llo, $lhi).

rule-entry = { $number }: { $text }
rule-entry-reason = Item { $code }{ $items ->
    [none] { "" }
   *[other] { " " }({ $rules ->
        [fsm2024] FSM 2024
       *[other] FIIM 2024
    }, { $items })
 }: { $text }
rule-reason = { $reason } — { $severity ->
    [warning] a verbal warning
    [foul] a foul
    [disqualifying] a disqualifying foul: the player leaves the game at once, with no last word{ $tournament ->
        [yes] { " " }and is removed from the tournament ({ cite-5_3 })
       *[other] { "" }
    }{ $final_minute ->
        [yes] ; in the player's final minute, a team loss ({ cite-6_8_5 })
       *[other] { "" }
    }{ $after_result ->
        [no] ; not applied after the decisive vote or kill ({ cite-6_8_6 })
       *[other] { "" }
    }
    [team_loss] a team loss: the offender's team loses and the game ends
   *[other] a technical foul
 }.
rule-badplay = penalty points { $points } for a bad play: { $play }. The same bad play counts once; different ones add up.
rule-usage = Give a rule's number or a word: /rule 5.7, /rule 4.2.4, /rule draw. The numbers the bot cites in this game: { $numbers }.
rule-unknown = «{ $query }» is not among the rules the bot cites in this game. The list: /rule; or a word: /rule draw.

## The rules by code

rule-4_3 = a team loss: for an oath or a bet, blackmail, threats, bribery, or a hint from the audience, the offender's team loses and the game ends at once.
rule-4_4 = the third foul: the player is silent in the nearest speech but may still nominate; with three or four players at the table, 30 seconds instead ({ cite-5_7 }).
rule-4_5 = the fourth foul or a disqualifying foul: the player leaves the game at once, with no last word.
rule-5_1 = when a player is removed (a fourth foul or a disqualification), the nearest vote — or the one going on — is not held, unless the player was killed that night or is leaving by that vote.
rule-5_2 = when a player is removed after the vote's result is known, that vote is finished and the next one is not held.
rule-5_3 = deliberate peeking, or any other non-game way of learning something, removes the player from the tournament as well as the game.
rule-5_6 = when three players are at the table and they tie twice, nobody leaves and night falls.
rule-5_7 = a player with a third foul, with three or four players at the table, is not silenced but speaks for 30 seconds.
rule-5_8 = the draw: when nobody leaves the game for three «nights» and three «days» in a row, starting with a night, the game is a draw — declared at the end of the third day.
rule-5_9 = there is no vote on raising every player at the table: nobody leaves.
rule-4_4_2 = a player nominates only in the player's own speech.
rule-4_4_3 = a player nominates at most one player a day.
rule-4_4_4 = the nominees are voted in the order they were nominated.
rule-4_4_8 = the hands of those who voted for nobody go to the last nominee.
rule-4_4_10 = on day 1 a single nominee is not voted: there is no vote.
rule-1_4 = who wins: the reds when no black player is left at the table, the blacks when as many blacks as reds are left; the moment of a vote or a kill is the moment of leaving.
rule-4_4_11 = the nominee with the most hands leaves the game (a tie: the revote).
rule-4_4_12 = a tie: each tied player speaks for 30 seconds, then they are voted again, in the same order; if fewer players tie, they are voted again.
rule-4_4_12_3 = the same players tied again: the raise vote — if more than half the players at the table raise their hands, all the tied players leave; otherwise all stay.
rule-4_5_6 = the Don's check: at night the Don shows another player's number and the judge answers whether that is the Sheriff; one check a night, never one's own seat.
rule-4_5_7 = the Sheriff's check: at night the Sheriff shows another player's number and the judge answers red or black; one check a night, never one's own seat.
rule-4_5_9 = the best move: the player killed on the first shooting night names three players thought black, then speaks the last word; if two or more left by day 1's vote, there is no best move.
rule-6_8_5 = a disqualifying foul (an insult, tears, a non-game appeal and a few more items) in the player's final minute — the last word, or while leaving by the vote — loses the game for the offender's team.
rule-6_8_6 = after the decisive vote or kill the result does not change: there is no team loss, and the disqualifying offences other than leaving the table, insults and obscene language are not applied — only recorded in the protocol, with no removal and no penalty points.
rule-7_7 = the draw: when nobody leaves for three shooting nights in a row, the game is a draw, declared at the end of the third night.
rule-7_9 = when the decisive vote or shot has fixed the result, the leaving player still speaks the last word, and only then is the result announced; a removal meanwhile does not change it.
rule-7_10 = if two or more players left by day 1's vote, the first shooting night's victim makes no best move.
rule-7_11 = with nine players at the table, three tied players are not put to a raise vote.

## The points

rule-8_2_4 = a disqualification costs { $dq } — also one given after the result.
rule-8_2_5 = the player whose offence lost the game gets { $team_loss }.
rule-8_3_4 = the best move of a red player or the Sheriff killed on the first night: three blacks named { $bm3 }, two { $bm2 }.
rule-8_4_1 = the judge gives extra points to at most { $xp ->
    [one] { $xp } player
   *[other] { $xp } players
 } ({ $xpa } with the chief judge's approval).
rule-8_4_2 = the extra points add up to at most { $xt } ({ $xta } with approval).
rule-8_4_3 = a winner's extra is { $wlo } to { $whi } (up to { $whia } with approval).
rule-8_4_4 = a loser's extra is { $llo } to { $lhi }.
rule-8_4_6 = of the best move and the judge's extra, the larger counts.
rule-8_4_7 = after a draw the judge gives no extra points.
rule-8_4_8 = every player with no disqualification, team loss or penalty points gets { $bonus } automatically.
rule-8_5 = penalty points ({ $bad }) for the listed bad plays; ask /rule with an item's number.

## Numbers messages write out (not through cite-*): their citations for /rule

cite-4_2 = 4.2
cite-5_4 = { $rules ->
    [fiim2024] FIIM 2024, §7.4
    [fsm2024] FSM 2024, §7.4
   *[other] 5.4
 }
cite-8 = { $rules ->
    [fsm2024] FSM 2024, §8
   *[other] FIIM 2024, §8
 }
cite-8_4 = { $rules ->
    [fsm2024] FSM 2024, §8.4
   *[other] FIIM 2024, §8.4
 }
cite-8_6 = { $rules ->
    [fsm2024] FSM 2024, §8.6
   *[other] FIIM 2024, §8.6
 }
rule-4_2 = a disqualifying foul (leaving the table, night touching, signs or talk, peeking, insults, tears, non-game appeals, a wrong voting form): the player leaves the game at once, with no last word. The items: /rule with an item's number.
rule-5_4 = the judge does not say who is nominated: the players keep track themselves; only the judge sees the list.
rule-8 = the points of a game: a win { $win }, the best move, the judge's extra points, the costs of a disqualification and a team loss, penalty points for bad plays. The points: /points.
rule-8_4 = the judge's extra points, after the result, within the rules' limits: how many players, how many in all, how many each.
rule-8_6 = the compensation of the player killed on the first night needs the player's record over the whole series: the bot does not compute it.
