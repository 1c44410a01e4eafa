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
protocol-legend = →7 — nominated #7 · 5/7 — voted against #5, in the revote against #7 · ↑ / ↓ — for / against raising everyone · ■ — a foul

## Penalties after leaving or after the result (seed 4.5, FIIM 2024 §7.9)

protocol-late = + { $what }{ $code ->
    [none] { "" }
   *[other] { " " }({ $code })
 } { $when ->
    [last_word] in the last word
    [night] at night, after the kill
    [end] after the game
   *[other] after the result was settled
 }
protocol-penalty-fouls = 4th foul
protocol-penalty-foul = foul
protocol-penalty-warning = warning
protocol-penalty-disqualifying = disqualification
protocol-penalty-team_loss = team loss

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
