# The protocol of a finished game: the judge's score sheet (a PNG) and the JSON export (bot/protocol).
# Roles, teams, causes and the result are common words from common.ftl (role-*, end-*, novote-*).

## Header

protocol-title = Game protocol
protocol-title-game = Game protocol #{ $game }
protocol-date = { $yyyy }-{ $mm }-{ $dd }
protocol-subtitle = { $date } · { $preset }

## Players

protocol-col-seat = #
protocol-col-player = Player
protocol-col-role = Role
protocol-col-fouls = Fouls
protocol-col-left = Left the game
protocol-day-short = D{ $day }
protocol-night-short = N{ $night }
protocol-left = { $when } · { $how }
protocol-out-vote = vote
protocol-out-raise = raise vote
protocol-out-kill = killed
protocol-out-fouls = 4 fouls
protocol-out-disqualification = disqualified
protocol-out-team_loss = team loss
protocol-stays = at the table
protocol-role-unknown = —

## Votes

protocol-days = Votes
protocol-col-nominees = Nominees
protocol-col-votes = Hands
protocol-col-outcome = Outcome
protocol-count = { $seat } — { $count }
protocol-revote = revote: { $counts }
protocol-raise = raise everyone: { $yes } of { $at_table } for
protocol-leaves = { $seats } { $seats_n ->
    [one] leaves
   *[other] leave
 } the game
protocol-raise-leaves = { $seats } leave the game by the vote to raise everyone
protocol-nobody-leaves = nobody leaves: { $why }
protocol-not-held = no vote: { $why }
protocol-cancelled = the vote is cancelled: { $why }
protocol-none = —
protocol-team-loss = { $seat }: team loss

## Nights

protocol-nights = Nights
protocol-col-night = Night
protocol-col-shooting = Shooting
protocol-col-don = Don's check
protocol-col-sheriff = Sheriff's check
protocol-kill = { $seat } killed
protocol-miss = miss
protocol-shots = shots: { $shots }
protocol-don-sheriff = { $seat } — the Sheriff
protocol-don-not-sheriff = { $seat } — not the Sheriff
protocol-sheriff-black = { $seat } — black
protocol-sheriff-red = { $seat } — red
protocol-best-move = Best move of { $seat }: { $guesses }
protocol-best-move-hits = Best move of { $seat }: { $guesses } — blacks: { $hits }
protocol-legend = →7 — nominated #7 · 5/7 — voted against #5, in the revote against #7 · ↑ / ↓ — for / against raising everyone · ■ — a foul, a red ■ the fourth · grey row — the black team · grey cell — no longer at the table · pink cell — the day the player left · points: W — win, BM — best move, J — the judge's extra, AB — automatic bonus, DQ — disqualification, TL — team loss, P — penalty points

## Penalties after leaving or after the result (seed 4.5, FIIM 2024 §7.9)

protocol-late = + { $what }{ $code ->
    [none] { "" }
   *[other] { " " }({ $code })
 } { $when ->
    [last_word] in the last word
    [night] at night, after the kill
    [end] after the game
   *[other] after the result was settled
 }{ $applied ->
    [no] , not applied ({ cite-6_8_6 })
   *[other] { "" }
 }
protocol-penalty-fouls = 4th foul
protocol-penalty-foul = foul
protocol-penalty-warning = warning
protocol-penalty-disqualifying = disqualification
protocol-penalty-team_loss = team loss
protocol-penalty-technical = technical foul


## The header, the judge, the points, the penalties (FIIM's protocol)

protocol-club = { $club }
protocol-table = table: { $table }
protocol-start = start { $start }
protocol-start-end = start { $start }, end { $end }
protocol-hours = { $hours } ({ $tz })
protocol-judge = The game's judge: { $judge ->
    [none] { "" }
   *[other] { $judge }{ " " }
 }______________________ (signature)
protocol-col-points = Points
protocol-points-win = W{ $points }
protocol-points-best_move = BM{ $points }
protocol-points-extra = J{ $points }
protocol-points-auto = AB{ $points }
protocol-points-dq = DQ{ $points }
protocol-points-team_loss = TL{ $points }
protocol-points-bad_play = P{ $points }
protocol-penalties = Penalties and the judge's points
protocol-col-penalty = What
protocol-col-item = Rule's item
protocol-col-when = When
protocol-extra = extra points { $points }
protocol-bad-play = penalty points { $points }
protocol-when = { $kind ->
    [night_zero] the blacks' meeting
    [day_start] D{ $day }, the day's start
    [morning] D{ $day }, { $seat }'s last word
    [speech] D{ $day }, { $seat }'s speech
    [voting_start] D{ $day }, before the vote
    [voting] D{ $day }, { $round ->
        [0] the vote
       *[other] the revote
    }{ $seat ->
        [none] { "" }
       *[other] , on { $seat }
    }
    [tie_speech] D{ $day }, { $seat }'s speech before the revote
    [raise] D{ $day }, the vote to raise everyone
    [last_word] D{ $day }, { $seat }'s last word
    [night] N{ $day }, { $step ->
        [don_check] the Don's check
        [sheriff_check] the Sheriff's check
        [best_move] the best move
       *[shooting] the shooting
    }
    [end] after the game
   *[other] D{ $day }
 }

## Why an export cannot be made

protocol-error-not_finished = The game is not over yet: a protocol is made only after the end.
protocol-error-roles_unknown = The roles were not entered, and MafiaRatings records every player's role.
protocol-error-bad_log = The game log does not replay: { $error }.
protocol-error-votes_by_count = Day { $day }, { $round ->
    [0] vote
   *[other] revote
 }: the hands against player { $seat } were entered as a count, and MafiaRatings records each player's vote. Enter the voters: /vote { $n } 1,2,3.
protocol-error-two_checks = The { $who ->
    [don] Don
   *[other] Sheriff
 } checked player { $seat } twice, and MafiaRatings records one check of a player.
protocol-error-two_deaths = Player { $seat } was penalised ({ $what }) after leaving the game, and MafiaRatings records one departure a player.
protocol-error-options = The outcome of this game depends on rules MafiaRatings has no code for: { $options }.
protocol-error-replay_differs = The export does not replay the game: { $differences }.
protocol-error-site_check = MafiaRatings would not take the export as it is: { $issues }.
protocol-error-cut_short_vote = Day { $day }: player { $seat } was removed during the vote after its result was known, and the game ended before the vote did. MafiaRatings keeps no ballots of a round left unfinished, and without them the removal reads as one before the vote, which cancels it.
protocol-no-mafiaratings = No MafiaRatings export: { $why }
