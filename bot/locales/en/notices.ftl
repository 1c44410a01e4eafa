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
       *[other] A miss: nobody was killed tonight.
    }
   *[other] { $killed_removed ->
        [none] Player { $killed } was killed tonight.
       *[other] Player { $killed } was killed tonight — a seat already removed from the game this night, so there is no last word{ $night ->
            [1] { " " }and no best move
           *[other] { "" }
        } ({ cite-4_5 }); today's vote is held ({ cite-5_1 }).
    }
 }
notice-last_word = Last word of player { $seat } — { $seconds }.
notice-last_word_skipped = No last word for { $seats }: the result is decided, and this game's rules give no last word after the deciding vote or shot.
notice-speech = { $silenced ->
    [yes] Player { $seat } loses this minute (third foul, { cite-4_4 }) but may still nominate.
   *[no] { $short ->
        [yes] { $option ->
            [yes] Player { $seat } speaks — { $seconds } (third foul: a short speech, this game's rule).
           *[no] Player { $seat } speaks — { $seconds } (third foul: a short speech, { cite-5_7 }).
        }
       *[no] Player { $seat } speaks — { $seconds }.
    }
 }
notice-speech_skipped = Player { $seat }'s speech is skipped.
notice-nominated = Player { $by } nominates player { $target }. Accepted.
notice-nomination_withdrawn = Player { $by } withdraws the nomination of player { $target }. Withdrawn (this game's rule).
notice-vote_not_held = No vote: { $why }.
notice-voting_starts = { $round ->
    [0] The vote. { $nominees_n ->
        [one] Nominated: player { $nominees }.
       *[other] Nominated: players { $nominees }.
    }
   *[other] Revote: players { $nominees }.
 }
notice-vote_counted = { $derived ->
    [yes] { $count ->
        [0] Against player { $nominee } — { $votes }.
       *[other] Against player { $nominee } — { $votes }: hands not raised go to the last nominee ({ cite-4_4_8 }).
    }
   *[no] Against player { $nominee } — { $votes }.
 }
notice-off_ballot = Player { $seat } leaves the game and the ballot: nobody votes against that player any more ({ cite-5_2 }).{ $last ->
    [none] { "" }
   *[other] { " " }Player { $last } becomes the last nominee: hands not raised go to that player ({ cite-4_4_8 }).
 }
notice-tie = A tie: players { $seats }. Each speaks before the revote ({ cite-4_4_12 }).
notice-tie_speech = Player { $seat } speaks before the revote — { $seconds }.
notice-raise_vote = Players { $seats } tied again. Who is for all the players under vote leaving the table? More than half is needed: at least { $need } of { $at_table } ({ cite-4_4_12_3 }).
notice-raise_result = For raising everyone — { $yes } of { $at_table }: { $passed ->
    [yes] more than half.
   *[no] not more than half; everyone stays at the table.
 }
notice-nobody_leaves = Nobody leaves the game: { $why }.
notice-leaves_by_vote = { $cause ->
    [raise] By the vote to raise everyone, players { $seats } leave the game.
   *[vote] By the vote, player { $seats } leaves the game.
 }
notice-leader_stays = Player { $seat } has the most votes but stays at the table on the first day and speaks for { $seconds } (this game's rule).
notice-vote_cancelled = No vote today, on day { $day } ({ $rule }): player { $seat } was removed{ removal-why }.
notice-next_vote_cancelled = No vote on day { $day } ({ $rule }): player { $seat } was removed{ removal-why }.
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
notice-best_move_skipped = Player { $seat } makes no best move: { $why ->
    [day1_departures] { $departed } players left by the first day's vote ({ $rule }).
   *[off] this game's rules do without it.
 }

## Penalties

notice-warning = { $generic ->
    [yes] Player { $seat } gets a warning.
   *[no] Player { $seat } gets a warning: { $reason } ({ $code }).
 }
notice-foul = { $generic ->
    [yes] Player { $seat } gets a foul; now { $fouls }.
   *[no] Player { $seat } gets a foul: { $reason } ({ $code }); now { $fouls }.
 }
notice-third_foul = { $effect ->
    [silence] { $short ->
        [yes] Player { $seat } gets a third foul: three or four players are at the table, so the player's nearest speech is { $seconds } ({ cite-5_7 }).
       *[no] Player { $seat } gets a third foul: the nearest minute is lost, but the player may still nominate ({ cite-4_4 }).
    }
    [short_speech] Player { $seat } gets a third foul: the nearest speech is cut to { $seconds }; the player may still nominate.
   *[none] Player { $seat } gets a third foul.
 }
notice-tech_foul = { $count ->
    [1] Player { $seat } gets a technical foul (this game's rule): a second technical foul removes a player from the game.
   *[other] Player { $seat } gets a second technical foul (this game's rule).
 }
notice-removed = { $last_word ->
    [cut] Player { $seat }: { removal-what } — the player's last word ends ({ cite-4_5 }).
    [lost] Player { $seat }: { removal-what } — the player loses the last word still to come ({ cite-4_5 }).
    [killed] Judge: player { $seat }, killed tonight, is removed — { removal-what }. In the morning the player is announced as killed and removed: there is no last word and no best move — a removed player leaves without a last word ({ cite-4_5 }). The next vote is held: the player was killed tonight ({ cite-5_1 }).
   *[other] { $mode ->
        [fouls] Player { $seat } leaves the game without a last word: a fourth foul ({ cite-4_5 }).
        [dq_item] Player { $seat } leaves the game without a last word: a disqualification — { $reason } ({ $code }; { cite-4_5 }).
        [dq] Player { $seat } leaves the game without a last word: a disqualification ({ cite-4_5 }).
       *[night] Player { $seat } is removed and leaves the game without a last word ({ cite-4_5 }).
    }
 }{ $tournament ->
    [yes] { " " }The player is also removed from the tournament ({ cite-5_3 }).
   *[no] { "" }
 }{ $stands ->
    [yes] { " " }The result is already decided and stands ({ cite-7_9 }).
   *[no] { "" }
 }
# What was given: a fourth foul, or a disqualification with its item.
removal-what = { $cause ->
    [fouls] a fourth foul
   *[other] a disqualification{ $generic ->
        [yes] { "" }
       *[other] { " " }— { $reason } ({ $code })
    }
 }
notice-removed_details = { $generic ->
    [yes] Why player { $seat } was removed: { $reason }.
   *[no] Why player { $seat } was removed: { $reason } ({ $code }).
 }{ $tournament ->
    [yes] { " " }Removal from the tournament ({ cite-5_3 }).
   *[no] { "" }
 }
notice-team_loss = { $final_minute ->
    [yes] Team loss for { $team_of }: player { $seat } — { $reason } ({ $code }) in the last word ({ cite-6_8_5 }).
   *[other] { $generic ->
        [yes] Team loss for { $team_of }: an offence by player { $seat } ({ cite-4_3 }).
       *[no] Team loss for { $team_of }: player { $seat } — { $reason } ({ $code }).
    }
 }
notice-foul_withdrawn = Player { $seat }'s foul is withdrawn; now { $fouls }.
notice-penalty_after_result = { $applied ->
    [no] { $over ->
        [yes] After the game: player { $seat } — { penalty-what }; after the decisive vote or kill it is not applied ({ cite-6_8_6 }). Recorded in the protocol.
       *[other] Player { $seat }'s offence — { penalty-what } — is not applied after the decisive vote or kill ({ cite-6_8_6 }): recorded in the protocol; the result stands.
    }
   *[other] { $over ->
        [yes] After the game: player { $seat } — { penalty-what }. Recorded in the protocol; the result of the game stands ({ cite-7_9 }).
       *[other] Player { $seat }'s offence — { penalty-what } — is recorded in the protocol; the result is already settled and stands ({ cite-6_8_6 }).
    }
 }
penalty-what = { $severity ->
    [warning] a warning
    [foul] a foul
    [disqualifying] a disqualification
    [team_loss] a team loss
   *[other] an offence
 }{ $generic ->
    [yes] { "" }
   *[other] { " " }({ $code })
 }

## The end

notice-result_fixed = The result is settled. { $outcome } It is announced after the last word ({ cite-7_9 }).
notice-game_over = Game over. { $outcome }{ $has_roles ->
    [yes] { " " }Roles: { $roles }.
   *[no] { "" }
 }
notice-judge_must_check_end = Roles are not entered; { $players } at the table. Judge, check whether the game is over (no blacks left, or at least as many blacks as reds) and declare the result.
