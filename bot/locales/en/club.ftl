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
club-no-games = No finished games in this club yet.
club-bad-count = /games takes a number from 1 to { $most }.
club-games-title = The club's last games ({ $count }):
club-games-line = Game #{ $game }, { $date }: { $result }; most points: { $best } ({ $points })
club-no-player = Nobody called { $name } in this club's roster (/roster lists it).
club-stats-whom = Whose statistics? /stats Name (the roster: /roster).
club-stats-none = { $name }: no games in { $period }.
club-stats-title = { $name }, { $period }:
club-stats-games = games { $games }, wins { $wins } ({ $rate })
club-stats-points = points { $points } (additional { $additional })
club-stats-role = — { $role }: { $games } games, { $wins } wins ({ $rate })
club-stats-best-move = best moves { $count }, black players named in them { $hits }
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
club-top-unknown = /top does not know «{ $word }»: a period (month, season, 2026-03), points|wins|winrate, a role, min=N.
club-top-line = { $place }. { $name } — { $points } points, { $wins } of { $games } won ({ $rate })
club-roster-empty = The roster is empty: it fills as games with named seats end.
club-roster-title = The club's roster ({ $count }):
club-roster-line = { $name } — { $games } games
club-officials-only = Only the judge or a chat admin changes the roster.
club-renamed = Renamed: { $name }.
club-merged = Merged into { $name }: the games and the old names are kept.
club-forget-nothing = The club keeps nothing about your account.
club-forget-shown = Kept about you here: the name { $name } and { $games } games' figures. /forget yes deletes them (the games' protocols stay).
club-forgotten = Deleted: your roster entry and your games' figures in this club.
club-error-no_player = Nobody called { $name } in the roster.
club-error-name_taken = The roster already has { $name }: /merge joins two entries.
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
club-evening-none = No games ended in the last { $hours } hours.
club-evening-title = The evening of { $date }: { $games ->
    [one] { $games } game
   *[other] { $games } games
 }
club-evening-posted = The evening's table and the season's rating are posted to { $channel }.
club-seating-usage = Write it as /seating 6 Anya, Borya, … — the number of games (up to { $most }), then the players' names separated by commas.
club-seating-players = { $count } different players: a table needs { $seats }.
club-seating-title = The seating of { $games } games for { $players } players at { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
 } (seats even; opponents as varied as can be):
club-seating-table = Game { $game }, table { $table }: { $seats }
club-seating-resting = Game { $game }, resting: { $names }
club-error-unsupported = The club's statistics are kept only in the SQLite database for now, not in PostgreSQL.
