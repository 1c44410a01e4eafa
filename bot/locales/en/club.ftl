# A club's players across games (issue 17; bot/club/answers.py). Points as the protocol shows them.

club-period-all = all games
club-period-season = season { $label }
club-period-month = month { $label }
club-period-today = today
club-period-dates = { $label }
club-result-red = the red team wins
club-result-black = the black team wins
club-result-draw = a draw
club-role-civilian = civilian
club-role-sheriff = Sheriff
club-role-mafia = mafia
club-role-don = Don
club-order-points = points
club-order-wins = wins
club-order-winrate = win rate
club-order-elo = strength (Glicko-2)
club-no-games = The club's history has no games yet: it holds the finished games whose seats have names and whose roles were entered (a game played blind, /roles unknown, is not in it). A game's names may be entered after its end too: /name 3 Alex.
club-bad-count = /games takes a number from 1 to { $most }.
club-games-title = The club's last games ({ $count }):
club-games-line = Game #{ $game }, { $date }: { $result }; most points: { $best } ({ $points }){ $link ->
    [none] {""}
   *[other] ; the protocol: { $link }
 }
club-no-player = Nobody called { $name } in this club's roster (/roster lists it).
club-stats-whom = Whose statistics? /stats Name (the roster: /roster).
club-stats-none = { $name }: no games in { $period }.
club-stats-title = { $name }, { $period }:
club-stats-games = games { $games }, wins { $wins } ({ $rate })
club-stats-points = points { $points } (additional { $additional })
club-stats-role = — { $role }: { $games ->
    [one] { $games } game
   *[other] { $games } games
 }, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
 } ({ $rate })
club-stats-best-move = best moves { $count }, black players named in them { $hits }
club-card-place = #
club-card-name = Player
club-card-points = Points
club-card-wins = Wins
club-card-games = Games
club-card-rate = Win rate
club-card-strength = Strength
club-card-chart-games = Points per game
club-card-chart-months = Points per month
club-stats-strength = strength (Glicko-2) { $rating } ± { $rd } over { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
 }
club-stats-penalties = killed on the first night { $first }; fouls { $fouls }; removals { $removed }
club-top-title = Top by { $order }{ $role ->
    [none] {""}
   *[other] , { $role }
 }, { $period } (at least { $least ->
    [one] { $least } game
   *[other] { $least } games
 }):
club-top-empty = Nobody with { $least ->
    [one] { $least } game
   *[other] { $least } games
 } or more.
club-top-unknown = /top does not know «{ $word }»: a period (month, season, 2026-03), points|wins|winrate|elo, a role, min=N.
club-top-line = { $place }. { $name } — { $points } points, { $wins } of { $games ->
    [one] { $games } game
   *[other] { $games } games
 } won ({ $rate })
club-top-elo-line = { $place }. { $name } — { $rating } ± { $rd }, { $games ->
    [one] { $games } game
   *[other] { $games } games
 }
club-top-elo-role = The strength rating counts a team's result for the whole team, so it has no role of its own: write /top elo without a role.
club-roster-empty = The roster is empty: it fills as games with named seats end.
club-roster-title = The club's roster ({ $count }):
club-roster-line = { $name } — { $games ->
    [one] { $games } game
   *[other] { $games } games
 }
club-officials-only = Only the judge or a chat admin changes the roster.
club-renamed = Renamed: { $name }.
club-merged = Merged into { $name }: the games and the old names are kept.
club-forget-nothing = The club keeps nothing about your account.
club-forget-shown = Kept about you here: the name { $name } and the figures of { $games ->
    [one] { $games } game
   *[other] { $games } games
 }. /forget yes deletes them (the games' protocols stay).
club-forgotten = Deleted: your roster entry and your games' figures in this club.
club-error-no_player = Nobody called { $name } in the roster.
club-error-name_taken = The roster already has { $name }: /merge joins two entries.
club-error-shared_game = { $source } and { $target } are two people: both sit at the table of game { $game }. These entries cannot be merged.
club-error-bad_period = { $why ->
    [range] Invalid period "{ $period }": the years go from 1970 to 9998.
    [reversed] Invalid period "{ $period }": the first day comes after the last. Write it so: 2026-03-01..2026-03-31.
   *[date] Invalid period "{ $period }": there is no such date. A period: 2026, 2026-03, 2026-03-14 or 2026-03-01..2026-03-31.
 }
club-seat-same-player = Seats { $seat } and { $other } would be one and the same player of the club's roster (by name or by /seat): one player, one seat. Check the seats' names and /seat.
club-error-same_player = That is one and the same entry.
club-error-bad_name = A name of 1 to 64 characters, please.
club-error-bad_pair = Write it as /{ $command } Old = New.
club-rating-title = Rating ({ $scheme ->
    [fsm] FSM 2024
   *[other] FIIM 2024
 }), { $period } (at least { $least ->
    [one] { $least } game
   *[other] { $least } games
 }); ties: additional points, wins, wins as Don or Sheriff, first-night deaths, lot:
club-rating-line = { $place }. { $name } — { $total } (additional { $additional }; wins { $wins } of { $games }, as Don or Sheriff { $special }; first night { $first })
club-rating-compensation = The first night's victims' compensation is counted in (FSM 2024 §8.6).
club-rating-no-compensation = The first night's victims' compensation (FIIM 2024 §8.6) is not counted: its formula is not in the rules this bot follows.
club-rating-unknown = /rating does not know «{ $word }»: a period (month, season, 2026-03), fiim|fsm, min=N.
club-name-offered = The roster has names beginning so: { $names } — /name { $seat } <name> takes one.
club-evening-none = No game of the last { $hours } hours is in the club's history: it holds the finished games whose seats have names and whose roles were entered.
club-evening-title = The evening of { $date }: { $games ->
    [one] { $games } game
   *[other] { $games } games
 }
club-evening-posted = The evening's table and the season's rating are posted to { $channel }.
club-seating-usage = Write it as /seating 6 Anya, Borya, … — the number of games (up to { $most }), then the players' names separated by commas.
club-seating-bad-name = «{ $name }» cannot be a seat's name: 1 to { $most } characters, at least one of them visible.
club-seating-repeated = { $name } is in the list of players twice: one player, one seat. Remove the repeat (names are compared ignoring case).
club-seating-players = { $count } different players: a table needs { $seats }.
club-seating-title = The seating of { $games ->
    [one] { $games } game
   *[other] { $games } games
 } for { $players ->
    [one] { $players } player
   *[other] { $players } players
 } at { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
 } (seats even; opponents as varied as can be):
club-seating-table = Game { $game }, table { $table }: { $seats }
club-seating-table-strength = Game { $game }, table { $table } (strength { $strength }): { $seats }
club-seating-balanced = The tables are balanced by the strength rating (/top elo), the regulars ({ $regular ->
    [one] { $regular } game
   *[other] { $regular } games
 } or more) spread evenly; a player not yet rated counts as 1500.
club-seating-resting = Game { $game }, resting: { $names }

# A tournament evening (issue 17, part 4; bot/club/tournament.py).
tournament-usage = Write it as /tournament open 4 [fiim|fsm] Anya, Borya, … — the number of games (up to { $most }), the standings' scheme, then the players' names separated by commas; /tournament — every table's state; /tournament close — the standings; /table N — run table N; /table N aside — set aside from the tournament a table's game that will not be finished.
club-error-tournament_open = A tournament is running in this club already: /tournament shows it, its chief judge closes it with /tournament close.
tournament-opened = Tournament #{ $number } is open: { $games ->
    [one] { $games } game
   *[other] { $games } games
 }, { $players ->
    [one] { $players } player
   *[other] { $players } players
 }, { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
 }; chief judge { $chief }. The seating:
tournament-how = Each table's judge types /table N here (N from 1 to { $tables }); the table's next game, started with /new, gets its seating on the judge's panel.
tournament-none = No tournament is running in this club: /tournament open 4 Anya, Borya, … opens one.
tournament-bad-table = The tournament has tables 1 to { $tables }: /table N.
tournament-table-yours = You run table { $table } already.
tournament-table-busy = Table { $table } is run by { $judge }; only the chief judge can take it over.
tournament-finish-first = Your table { $table } has a game running: finish it first, or set it aside from the tournament (/table { $table } aside).
tournament-table-set = Table { $table }: judge { $judge }; { $left ->
    [0] its games are all played.
   *[other] next is game { $game } of { $games } (/new starts it with its seating).
 }
tournament-table-taken = Table { $table } is taken over: judge { $judge }; { $left ->
    [0] its games are all played.
   *[other] game { $game } of { $games } is next or running.
 }
tournament-title = Tournament #{ $number }: { $games ->
    [one] { $games } game
   *[other] { $games } games
 } at { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
 }; chief judge { $chief }.
tournament-now-playing = game { $game } of { $games }: { $phase ->
    [setup] setting up
    [night_zero] night 0
    [night] night { $day }
    [game_over] over
   *[other] day { $day }
 }
tournament-now-done = { $games ->
    [one] its one game played
   *[other] all { $games } games played
 }
tournament-now-waiting = waiting for game { $game } of { $games }
tournament-table-line = Table { $table } ({ $judge ->
    [none] no judge yet
   *[other] judge { $judge }
 }): { $now }{ $result ->
    [none] {""}
   *[other]; game { $last }: { $result }
 }
tournament-chief-only = Only the chief judge ({ $chief }) closes the tournament.
tournament-still-running = { $count ->
    [1] A game is running at table { $tables }: the tournament closes when it ends.
   *[other] Games are running at tables { $tables }: the tournament closes when they end.
 }
tournament-still-running-aside = Table { $table }: a game that will not be finished is set aside from the tournament by the chief judge or the table's judge — /table { $table } aside.
tournament-still-running-hosted = Table { $table } is run by the host bot in «{ $group }»: /stop there stops its lobby or game.
tournament-standings = Tournament #{ $number }: the standings ({ $scheme ->
    [fsm] FSM 2024
   *[other] FIIM 2024
 }) over { $games ->
    [one] { $games } game that counts
   *[other] { $games } games that count
 }; ties: additional points, wins, wins as Don or Sheriff, first-night deaths, lot:
tournament-no-games = No game of the tournament counts.
tournament-game-started = Table { $table }, game { $game } of { $games } of the tournament: { $seats }
tournament-posted = The standings and the games' protocols are posted to { $channel }.
tournament-protocol = Tournament game #{ $game }: the protocol
tournament-admins-only = { $platform ->
    [dc] Only a member with Manage Channels opens a tournament (and becomes its chief judge).
   *[tg] Only an admin of this chat opens a tournament (and becomes its chief judge).
}
tournament-sheet-table = tournament #{ $number }, table { $table }, game { $game }
tournament-own-game = A game of yours is running in your chat: finish it first, then take table { $table } over with its game.
# A hosted table of a tournament (/table N host in a group: the bot runs the table's games there).
tournament-hosted-judge = the host bot in «{ $group }»
tournament-hosted-running = Table { $table } is run by the host bot in «{ $group }», and a lobby or a game is on there: the table can be taken once it ends (or once /stop there stops it).
tournament-host-chief-only = Only the chief judge ({ $chief }) can give a table to the host bot here.
tournament-host-admins-only = Only an admin can give a table to the host bot here: the bot will run games here.
tournament-host-already = Table { $table } is run by the host bot here already.
tournament-host-busy = A lobby or a game is on at table { $table }: finish it first.
tournament-host-set = Table { $table } of tournament #{ $number } is run by the host bot here; { $left ->
    [0] its games are all played.
   *[other] next is game { $game } of { $games }: /newgame opens its lobby, the seats as the tournament's plan says.
 }
tournament-host-unavailable = The bot runs no tables itself here: /table N runs a table as its judge.
# A table's game that will not be finished leaves the tournament (/table N aside; a game never started: by itself at a table change or the close).
tournament-set-aside = Table { $table }: game #{ $id } (game { $game } of { $games } of the tournament) { $started ->
    [yes] is set aside from the tournament
   *[no] was never started — set aside from the tournament
 }: it does not count{ $closing ->
    [yes] , and the tournament closes without it.
   *[no] , and its place in the seating plan is free — the table's next /new starts game { $game } of the plan anew.
 }
tournament-aside-who = Only the chief judge ({ $chief }) or the judge of table { $table } sets its game aside from the tournament.
tournament-aside-hosted = Table { $table } is run by the host bot in «{ $group }»: /stop there stops its lobby or game, and its place in the plan is free again.
tournament-aside-nothing = Table { $table } has no unfinished game of the tournament: nothing to set aside.
tournament-not-counted = Does not count: game #{ $id } (table { $table }, game { $game }) — { $why ->
    [no-roles] ended with its roles not entered, no points
   *[stopped] stopped before its end
 }.
tournament-result-not-counted = { $result } (does not count: roles not entered)

# /settings (the club's admin): the rules the club's new games start with (issue 31).
club-settings-own = The club's new games start with its own rules: { $words }. To change them: /settings and the rules, as after /new; back to the defaults: /settings off.
club-settings-default = The club has no rules of its own: its new games start with the bot's ({ $words }). To set its own: /settings and the rules, as after /new (for example, /settings fiim2024).
club-settings-seed = The club has no rules of its own: its new games start with the seed rules. To set its own: /settings and the rules, as after /new (for example, /settings fiim2024 or /settings fsm2024).
club-settings-set = Done: the club's new games start with { $words } (/new and /newgame; what is typed after them goes over it).
club-settings-reset = The club's own rules are forgotten.
club-settings-admin-only = { $platform ->
    [dc] The club's rules are set by a member with Manage Channels.
   *[tg] The club's rules are set by a chat admin.
}

## The evening's sign-up (issue 33): /evening new 19:30 tables=2
evening-post = { $status ->
    [cancelled] The evening of { $date } at { $time } is called off.
    [closed] The evening of { $date } at { $time } ({ $zone }): the sign-up is closed.
   *[open] The evening of { $date } at { $time } ({ $zone }): { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    }, { $cap } places. Sign up with the buttons below.
}
evening-post-going = Coming ({ $count }/{ $cap }): { $going ->
    [none] nobody yet.
   *[other] { $going }
}
evening-post-more = { $listed ->
    [yes] … and { $count } more
   *[no] { $count } (the names did not fit in the message)
}
evening-post-reserve = Reserve: { $reserve }
evening-post-how = Reminders two hours and fifteen minutes before the start; when someone on the list drops out, the first of the reserve takes the place.
evening-btn-go = Coming
evening-btn-no = Not coming
evening-btn-reserve = Reserve
evening-pressed-going = You are on the list.
evening-pressed-full = The places are taken: you are in the reserve, number { $place }. When a place frees up the bot writes to you in private.
evening-pressed-reserve = You are in the reserve, number { $place }.
evening-pressed-out = You are off the list for this evening.
evening-pressed-already_going = You are on the list already.
evening-pressed-already_reserve = { $full ->
    [yes] No place yet: you are in the reserve, number { $place }.
   *[no] You are in the reserve already, number { $place }.
}
evening-pressed-not_signed = You are not on the list anyway.
evening-pressed-closed = The sign-up for this evening is closed: nothing changed.
evening-pressed-stale = This button is outdated: that sign-up is gone.
evening-moved-up = A place freed up: you are on the list for the evening of { $date } at { $time }.
evening-reminder = Reminder: the evening starts in { $minutes ->
    [120] two hours
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}, at { $time }. Coming ({ $count }/{ $cap }): { $going ->
    [none] nobody yet.
   *[other] { $going }
}
evening-reminder-private = Reminder: you are on the list for the evening of { $date } at { $time }.
evening-started = The sign-up is closed, the evening begins. Playing, { $count }: { $going ->
    [none] nobody signed up.
   *[other] { $going }
}
    A tournament of this list: /tournament open <games> (no names); a table the bot hosts for this list: /newgame.
evening-opened = The sign-up is posted. { $count ->
    [0] No reminders: the start is less than fifteen minutes away.
    [one] A reminder at { $times } ({ $zone }).
   *[other] Reminders at { $times } ({ $zone }).
}
evening-closed = The sign-up is closed. On the list, { $count }: { $going ->
    [none] nobody.
   *[other] { $going }
}
evening-cancelled = The evening is called off, the sign-up closed.
evening-usage = Write it as /evening new 19:30 tables=2 (or /evening new 2026-03-29 19:30 tables=2) — the date (unless today), the start by the club's clock and the tables (up to { $most }); /evening close — close the sign-up; /evening cancel — call the evening off; /evening — the evening's results.
evening-typed-usage = Write it as /evening go Anya — «Coming» for a player (/evening no Anya — «Not coming», /evening reserve Anya — «Reserve»).
evening-admins-only = Only an admin of this chat opens, closes or calls off an evening's sign-up.
evening-already = The sign-up for the evening of { $date } at { $time } is open already: /evening close or /evening cancel first.
evening-none = No evening's sign-up is open.
evening-past = That time has passed.
evening-no-such-time = { $date } at { $time } never comes by the club's clock: the clocks go forward that night. Choose another time.
evening-not-posted = The sign-up could not be posted in this chat: nothing changed.
evening-bad-zone = The club's time zone { $zone } is unknown to the system (MAFIA_REFEREE_TIMEZONE).
evening-in-group = An evening's sign-up is opened in the club's chat (a group or a channel), not here.
evening-from-list = The players come from the sign-up of the evening of { $date } at { $time }.
evening-list-empty = The evening's sign-up has no players: name them, separated by commas.
