# Refusals: rule errors (error-<rules.Code>), service errors (service-<code>), commands (command-<code>).

error-internal = Internal error. Nothing was done.
error-not-saved = Internal error: the action was not saved, the game is as it was. Try again.
error-saved-not-sent = The action is saved, but an internal error kept its message from being sent. /status shows the game.
error-kept = No connection to the database: the { $press ->
        [yes] press
       *[no] command
    } is kept and will be carried out as soon as it is back. No need to repeat it.
error-kept-dropped = Not done: { $press ->
        [yes] the button press
       *[no] “{ $command }”
    } — the database was unreachable. Repeat it once the bot answers again.
error-unknown = Refused ({ $code }).

## Rules

error-wrong_phase = { $phase_code ->
    [setup] You can't { $event } now: the game has not started. Enter the names and roles and start it: /start.
   *[other] { $event_code ->
        [set_roles] You can't { $event } now: the phase is “{ $phase }”. Roles are entered before the start or during night 0; to correct them, undo back to night 0: /undo N (N actions back).
       *[other] You can't { $event } now: the phase is “{ $phase }”.
    }
 }
error-no_such_seat = There is no seat { $seat }: seats are 1 to 10.
error-not_at_table = Player { $seat } is no longer at the table.
error-not_speaker = { $speaker ->
    [none] A player nominates only in their own minute ({ cite-4_4_2 }), and nobody is speaking now.
   *[other] A player nominates only in their own minute ({ cite-4_4_2 }): player { $speaker } is speaking, not { $seat }.
 }
error-already_nominated = Player { $seat } is already nominated.
error-nomination_used = Player { $seat } has already nominated player { $target }: one nomination a day ({ cite-4_4_3 }).
error-self_nomination = You can't nominate yourself (this game's rule).
error-nomination_in_last_word = No nominations in a last word.
error-not_current_nominee = The vote is against player { $expected } now, not { $seat }: the vote follows the order of nominations ({ cite-4_4_4 }).
error-too_many_hands = Too many hands: { $count }, and at most { $left } can still be raised.
error-duplicate_shot = Player { $seat }'s shot is given twice: one shot each a night — give it once. Nothing was recorded.
error-already_voted = Player { $seat } has already voted: one vote against one nominee only (4.1.8).
error-bad_count = Invalid value: { $count }.
error-unknown_reason = Unknown penalty reason: “{ $reason }”. Reasons are rule item numbers (4.1.1 … 4.3.3) or foul, warning, dq, ppk.
error-unknown_role = Unknown role: “{ $role }”.
error-bad_roles = { $black ->
    [none] Give the roles of all ten seats.
   *[other] Wrong deal: 3 blacks (one of them the Don) and 1 Sheriff are needed; given: blacks — { $black }, Dons — { $don }, Sheriffs — { $sheriff }.
 }
error-roles_unknown = The roles are not entered.
error-roles_known = The roles are entered: the rules decide the result themselves.
error-result_required = The roles are not entered and { $at_table ->
    [one] { $at_table } player is
   *[other] { $at_table } players are
 } left at the table: the game is over. Declare the result: /result red, black or draw.
error-team_required = The roles are not entered: give player { $seat }'s team (red or black).
error-team_mismatch = Wrong team: by the entered roles player { $seat } is { $actual ->
    [red] red
   *[black] black
 }, but { $team ->
    [red] red
   *[black] black
 } was given. A team loss names the offender's team (4.3). Nothing changed.
error-not_black = Player { $seat } is not black and does not shoot.
error-no_don = The Don is no longer at the table: there is no Don's check, move on.
error-no_sheriff = The Sheriff is no longer at the table: there is no Sheriff's check, move on.
error-best_move_not_due = No best move is due now ({ cite-4_5_9 }).
error-bad_best_move = A best move names one to three different players.
error-self_best_move = A best move names other players — those the victim thinks black ({ $rules ->
    [fsm2024] FSM 2024, §4.5.9
   *[other] FIIM 2024, §4.5.9
 }): player { $seat } cannot name themselves. Nothing was changed.
error-self_check = { $role ->
    [don] The Don looks for the Sheriff among the other players ({ cite-4_5_6 }): seat { $seat } is the Don's own, it cannot be checked.
   *[sheriff] The Sheriff checks the other players ({ cite-4_5_7 }): seat { $seat } is the Sheriff's own, it cannot be checked.
 } Nothing was changed.
error-no_foul = Player { $seat } has no fouls.
error-foul_has_consequences = { $why ->
    [removal] Player { $seat }'s foul can't be withdrawn: it has already removed the player from the game.
    [silence_under_way] Player { $seat }'s foul can't be withdrawn: the third foul's silence is under way — this speech is that silence. /undo takes the foul back with everything after it.
    [last_word_cut] Player { $seat }'s foul can't be withdrawn: the fourth foul has already cut the last word.
   *[silence_served] Player { $seat }'s foul can't be withdrawn: the third foul's silence is already served.
 }
error-game_over = The game is over. The result: /result; a new game: /new.
error-nothing_to_undo = Nothing to undo.
error-not_fixable = { $why ->
    [undone] Action { $seq } was undone: there is nothing to correct.
    [kind] Action { $seq } can only be corrected into one of its own kind: a penalty into a penalty, a nomination into a nomination, votes into votes, the shooting into the shooting, a check into a check.
    [same] Action { $seq } is that already: the correction changes nothing.
   *[no_such] There is no action { $seq } to correct: /log all numbers the actions (an undo or a correction is not corrected but undone).
 }
error-fix_breaks = { $itself ->
    [yes] Correction refused: the rules do not allow “{ $action }” in the place of action { $seq }. { $why }
   *[no] Correction refused: with it, action { $seq } “{ $action }” could not have happened. { $why }
 }
error-bad_name = { $why ->
    [invisible] Invalid name for seat { $seat }: it has no visible character.
   *[length] Invalid name for seat { $seat }: 1 to 64 characters.
 }
error-name_taken = Seat { $other } already has the name { $name }: one player, one seat. If this is someone else, make the name differ (a surname, an initial); if seat { $other } is wrong, rename it first.
error-no_withdrawal = A nomination cannot be withdrawn: this game's rules have no withdrawal.
error-no_nomination = Player { $seat } has nominated nobody today: there is nothing to withdraw.
error-voters_required = On the first day the vote's leader leaves only if that player voted against themselves (this game's rule): record the seats that voted against player { $nominee }, not only how many.

## Service

service-no_game = There is no game in this chat. Start one: /new.
service-not_judge = Only the game's judge can do this.
service-stale = This button is out of date: the game has moved on. Here is where it stands.
console-stale = The game was changed elsewhere (another console or a bot on the same database): the command was not carried out. Here is where it stands:
service-game_exists = A game is already running in this chat. Finish it or start over.
service-quarantined = The stored game №{ $game_id } cannot be loaded: { $place ->
        [rules] this version of the bot refuses its rules or names.
            Why: { $why }
        [edited] its log was changed outside the bot — the actions up to { $seq } are not those the bot recorded and kept in the game's snapshot (the log is only ever added to).
       *[row] this version of the bot refuses its logged action { $seq }.
            Why: { $why }
    }
    Nothing is deleted: its log is kept. Start a new game: { $hosted ->
        [yes] /newgame
       *[other] /new
    }. The bot's administrator can export that game's log: mafia-referee protocol --game { $game_id } --raw FILE
service-nothing_to_undo = { $available ->
    [0] Nothing to undo.
   *[other] Cannot undo that many: at most { $available } { $available ->
        [one] step
       *[other] steps
    }.
}

## Commands

command-empty_command = An empty command. The commands: /help.
command-unknown_command = Unknown command: { $command }. The commands: /help.
command-too_long = The message is too long: { $length } { $length ->
    [one] character
   *[other] characters
 }, at most { $limit }.
command-missing_argument = /{ $command }: missing { $argument }. See /help.
command-too_many_arguments = /{ $command }: “{ $argument }” is one too many. See /help.
command-bad_seat = /{ $command }: “{ $argument }” is not a seat number (seats are 1 to 10).
command-bad_argument = /{ $command }: can't understand “{ $argument }”. See /help.
command-duplicate_seat = /{ $command }: seat { $seat } is given twice.
command-no_speaker = /{ $command }: nobody is speaking now — say who nominates: /nominate 3 7.
command-wrong_reason = /{ $command }: reason { $code } ({ $reason }) is a penalty of another weight.
command-unknown_preset = Unknown rule set: “{ $preset }”. Known: seed, fiim2024, fsm2024.
command-unknown_option = Unknown option: “{ $option }”.
command-bad_option_value = Invalid value for option { $option }: “{ $value }”.
command-unknown_lang = Unknown language: “{ $lang }”. Known: ru, en.
command-bad_undo = /{ $command }: you can undo 1 to { $limit } steps, not “{ $argument }”.
command-result_known = /{ $command }: the result is already known — the game is over. The result: /result; a new game: /new.
command-bad_team = /{ $command }: “{ $argument }” is not a team. The team is red or black.
command-bad_fix = /{ $command }: “{ $argument }” is not a game action. A correction is an action of the same kind, e.g. /fix 12 /foul 5 4.1.1 (/log all numbers the actions).
command-duplicate_option = /new: the option { $option } is given twice — keep one value.
command-unknown_reason = /{ $command }: unknown reason “{ $reason }”. This game's reasons: { $codes }.
command-no_technical_fouls = /{ $command }: this game's rules have no technical fouls (a game begun with the option technical_fouls=yes has them: /new … technical_fouls=yes). A foul: /foul.

what-seat = a seat number
what-name = a name
what-roles = the roles
what-count = the number of votes
what-shots = the shots
what-lang = a language
what-points = a number of points
what-item = an item number
what-action = an action's number (from /log all)
what-command = the corrected action, e.g. /foul 5 4.1.1
what-seconds = a number of seconds
command-several_names = /{ $command } names one seat: nothing is recorded for seat { $seat } ({ $count ->
    [one] one name
   *[other] { $count } names
 } given). One seat, one name, a command each: /{ $command } { $number } Anna, then /{ $command } { $next } Boris …
