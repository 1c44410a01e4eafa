# Announcements: one message per rules.Kind (notice-<kind>).
# Public announcements name no roles (F24 §4.4.13, §4.5.4) and no list of nominees (seed 5.4).

notice-unknown = Event: { $kind }.

## Setup

notice-name_set = Seat { $seat }: { $name }.
notice-roles_set = { $known ->
    [yes] The roles are entered.
   *[no] Playing without roles entered: the judge declares the result.
 }
notice-game_started = The game begins: { $preset }.{ $roles_known ->
    [no] {" "}No roles entered: the judge declares the result (/result); checks and the best move get no answer.
   *[other] {""}
 }
notice-night_zero = Night falls. The blacks' meeting — { $seconds }.

## Day

notice-day_starts = Day { $day }. { $players } at the table; player { $opener } speaks first.
notice-night_result = Morning comes. { $killed ->
    [none] { $removed_n ->
        [0] A miss: nobody leaves the game tonight.
        [one] A miss: nobody was killed tonight, but player { $removed } was removed and has left the game (4.5).
       *[other] A miss: nobody was killed tonight, but players { $removed } were removed and have left the game (4.5).
    }
   *[other] Player { $killed } was killed tonight.{ $removed_n ->
        [0] { "" }
        [one] { " " }Player { $removed } was also removed and has left the game (4.5).
       *[other] { " " }Players { $removed } were also removed and have left the game (4.5).
    }
 }
notice-last_word = Last word of player { $seat } — { $seconds }.
notice-speech = { $silenced ->
    [yes] Player { $seat } loses this minute (third foul, 4.4) but may still nominate.
   *[no] { $short ->
        [yes] Player { $seat } speaks — { $seconds } (third foul: a short speech, 5.7).
       *[no] Player { $seat } speaks — { $seconds }.
    }
 }
notice-speech_skipped = Player { $seat }'s speech is skipped.
notice-nominated = Player { $by } nominates player { $target }. Accepted.
notice-nomination_withdrawn = Player { $by } withdraws the nomination of player { $target }. Withdrawn (club rule).
notice-vote_not_held = No vote: { $why }.
notice-voting_starts = { $round ->
    [0] The vote. { $nominees_n ->
        [one] Nominated: player { $nominees }.
       *[other] Nominated: players { $nominees }.
    }
   *[other] Revote: players { $nominees }.
 }
notice-vote_counted = { $derived ->
    [yes] Against player { $nominee } — { $votes }: hands not raised go to the last nominee (FIIM 2024, 4.4.8).
   *[no] Against player { $nominee } — { $votes }.
 }
notice-off_ballot = Player { $seat } has left the game and is off the ballot: nobody votes against him any more (5.2).{ $last ->
    [none] { "" }
   *[other] { " " }Player { $last } becomes the last nominee: hands not raised go to him (FIIM 2024, 4.4.8).
 }
notice-tie = A tie: players { $seats }. Each speaks before the revote (FIIM 2024, 4.4.12).
notice-tie_speech = Player { $seat } speaks before the revote — { $seconds }.
notice-raise_vote = Players { $seats } tied again. Who is for all the players under vote leaving the table? More than half is needed: at least { $need } of { $at_table } (FIIM 2024, 4.4.12.3).
notice-raise_result = For raising everyone — { $yes } of { $at_table }: { $passed ->
    [yes] more than half.
   *[no] not more than half; everyone stays at the table.
 }
notice-nobody_leaves = Nobody leaves the game: { $why }.
notice-leaves_by_vote = { $cause ->
    [raise] By the vote to raise everyone, players { $seats } leave the game.
   *[vote] By the vote, player { $seats } leaves the game.
 }
notice-leader_stays = Player { $seat } has the most votes but stays at the table on the first day; he speaks for { $seconds } (club rule).
notice-vote_cancelled = No vote on day { $day } ({ $rule }): player { $seat } left the game with a 4th or disqualifying foul.
notice-next_vote_cancelled = No vote on day { $day } ({ $rule }): player { $seat } left the game with a 4th or disqualifying foul.
notice-night_falls = Night falls.

## Night

notice-night_step = { $step ->
    [shooting] The mafia goes hunting.
    [don_check] The Don wakes up and looks for the Sheriff — { $seconds }.
    [sheriff_check] The Sheriff wakes up — { $seconds }.
   *[best_move] Best move — { $seconds }.
 }
notice-shooting_result = { $why ->
    [kill] Shooting: player { $killed } is killed.
    [not_at_table] Shooting: a miss — that player is no longer at the table.
   *[miss] Shooting: a miss{ $silent_n ->
        [0] .
        [one] { " " }(player { $silent } did not shoot).
       *[other] { " " }(players { $silent } did not shoot).
    }
 }{ $has_shots ->
    [yes] { " " }Shots: { $shots }.
   *[no] { "" }
 }
notice-don_check = The Don checks player { $target }: { $sheriff ->
    [yes] the Sheriff.
    [no] not the Sheriff.
   *[none] roles not entered, answer from the card.
 }
notice-sheriff_check = The Sheriff checks player { $target }: { $black ->
    [yes] black.
    [no] red.
   *[none] roles not entered, answer from the card.
 }
notice-best_move_due = Player { $seat }, you were killed. Best move: name three players — { $seconds }.
notice-best_move = Best move of player { $seat }: { $guesses }. Accepted.
notice-best_move_hits = Best move of player { $seat }: blacks guessed — { $hits }.

## Penalties

notice-warning = { $generic ->
    [yes] Player { $seat } gets a warning.
   *[no] Player { $seat } gets a warning: { $reason } ({ $code }).
 }
notice-foul = { $generic ->
    [yes] Player { $seat } gets a foul. He has { $fouls }.
   *[no] Player { $seat } gets a foul: { $reason } ({ $code }). He has { $fouls }.
 }
notice-third_foul = { $effect ->
    [silence] Player { $seat } gets a third foul: he loses his nearest minute but may still nominate (4.4).
    [short_speech] Player { $seat } gets a third foul: his nearest speech will be short; he may still nominate.
   *[none] Player { $seat } gets a third foul.
 }
notice-tech_foul = { $count ->
    [1] Player { $seat } gets a technical foul (club rule): a second technical foul removes a player from the game.
   *[other] Player { $seat } gets a second technical foul (club rule).
 }
notice-removed = { $mode ->
    [fouls] Player { $seat } leaves the game without a last word (4th foul, 4.5).
    [dq_item] Player { $seat } leaves the game without a last word: a disqualifying foul — { $reason } ({ $code }, 4.5).
    [dq] Player { $seat } leaves the game without a last word: a disqualifying foul (4.5).
   *[night] Player { $seat } is removed and leaves the game without a last word (4.5).
 }{ $tournament ->
    [yes] { " " }He is also removed from the tournament (5.3).
   *[no] { "" }
 }
notice-removed_details = { $generic ->
    [yes] Why player { $seat } was removed: { $reason }.
   *[no] Why player { $seat } was removed: { $reason } ({ $code }).
 }{ $tournament ->
    [yes] { " " }Removal from the tournament (5.3).
   *[no] { "" }
 }
notice-team_loss = { $generic ->
    [yes] Team loss for { $team_of }: an offence by player { $seat } (4.3).
   *[no] Team loss for { $team_of }: player { $seat } — { $reason } ({ $code }).
 }
notice-foul_withdrawn = Player { $seat }'s foul is withdrawn; he has { $fouls }.
notice-penalty_after_result = Player { $seat }'s offence is recorded; the result of the game stands (FIIM 2024, 7.9).

## The end

notice-result_fixed = The result is settled. { $outcome } It is announced after the last word (FIIM 2024, 7.9).
notice-game_over = Game over. { $outcome }{ $has_roles ->
    [yes] { " " }Roles: { $roles }.
   *[no] { "" }
 }
notice-judge_must_check_end = Roles are not entered; { $players } at the table. Judge, check whether the game is over (no blacks left, or at least as many blacks as reds) and declare the result.
