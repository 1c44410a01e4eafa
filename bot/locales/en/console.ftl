# The console and the command line (bot/console.py, bot/cli.py).

console-ready = The judge's console. A new game — /new, the commands — /help.
console-resumed = Game #{ $game } continues.
console-finished = Game #{ $game } is over: the result — /result, take back the last action — /undo, a new game — /new.
console-undone-what = Taken back: { $what }
console-new-game = New game #{ $game }: { $preset }.
console-replaced = The unfinished game #{ $game } is set aside.
console-undone = { $count ->
    [0] Nothing was undone.
    [one] { $count } action undone.
   *[other] { $count } actions undone.
 }
console-interrupted = Quit (Ctrl-C): the game is saved; mafia-referee console resumes it.
console-lang = Language: English.
# commands-help: the commands of every adapter; console-help adds /quit (console only).
commands-help =
    The judge's commands (the "/" is optional):
    /new [seed|fiim2024|fsm2024] [option=value …] — a new game
    /name 3 Vasya — the name of the player on seat 3
    /roles D2 M5 M7 S8 — the roles (the rest are civilians); /roles unknown — no roles
    /start — start the game (the blacks' meeting)
    /next (/n, /pass) — move on: end a speech, a last word, a night step
    /nominate 3 7 — #3 nominates #7; /nominate 7 — the speaker nominates
    /withdraw — the speaker withdraws their nomination (where this game's rules allow it)
    /vote 7 4 — 4 votes against #7; /vote 7 1,2,3 — #1, #2, #3 voted
    /raise 6 — 6 votes to raise all the players under vote
    /kill 4 — #4 is killed at night; /miss — a miss; /shots 2:7 5:7 7:7 — the shots
    /don 3 — the Don's check; /sheriff 5 — the Sheriff's check
    /bestmove 1 2 3 — the best move
    /foul 5 [reason], /dq 5 [reason], /ppk 5 [reason] [red|black] — penalties; /warn 5 — a warning
    /tech 5 — a technical foul (where this game's rules have them: the second removes)
    /unfoul 5 — withdraw the last foul
    /result red|black|draw — declare the result (roles not entered); /result — the result
    /extra 3 <points> [+] — after the game: #3's extra points (0 takes them back; "+" with the chief judge's approval)
    /badplay 3 <item> — after the game: #3's penalty points by the points rules' item; /badplay 3 -<item> takes them back
    /points — the game's points
    /rule 5.7 — what a rule says, numbered as this game's rules number it (/rule draw; /rule — the list); /why — why the last ruling was made
    /undo [n] — take back the last actions; /fix 12 /foul 5 4.1.1 — correct action 12 (/log all numbers them)
    /timer — the step's timer: what is left; /timer pause|resume; /timer next — the Sheriff's look on night 0
    /status — the game now; /log — the game so far; /log all — the audit trail: every action, who recorded it and when, what was undone
    /lang ru|en — language
    The Russian words work too: дальше (далее, пас), выставить 3 7, голос 7 4, подъём 6, убийство 4, промах, дон 3, шериф 5, лх 1 2 3, фол 5, дк 5, ппк 5, отмена, статус, помощь
commands-reasons = Penalty reasons (this game's rule items): { $codes }.
console-help =
    { commands-help }
    /quit — leave the console
cli-telegram-unavailable = The Telegram bot is not available yet. Try the console: mafia-referee console.
console-protocol = The protocol of game #{ $game } (the score sheet PNG, JSON, the MafiaRatings export): mafia-referee protocol --game { $game } [--png FILE] [--json FILE] [--mafiaratings FILE]
# club-help: the club's commands (issue 17), shown after the judge's.
club-help =
    The club: its games, statistics, rating, roster:
    /games [N] — the club's last games; /stats [name] [month|season|2026-03|2026-03-01..2026-03-31] — a player's statistics; /top [period] [points|wins|winrate|elo] [civilian|sheriff|mafia|don] [min=N] — the best players (elo: by the strength rating)
    /rating [period] [fiim|fsm] [min=N] — the season's rating: points, the compensation, the tie-breaks
    /evening — the evening's table (the games of the last 12 hours) and the season's rating; in a group with a club channel (/channel), posted there
    /evening new 19:30 tables=2 — the evening's sign-up (/evening close, /evening cancel); on the console for a player: /evening go|no|reserve Anya
    /seating 6 Anya, Borya, … — a seating plan for a series of 6 games: seats even, opponents as varied as can be
    /tournament open 4 Anya, Borya, … — open a tournament (its seating per table; no names: the evening's sign-up list); /table N — run table N; /table N aside — set aside its game that will not be finished; /tournament — every table; /tournament close — the standings (the chief judge)
    /roster [name's start] — the club's roster; /rename Vasya = Vasily, /merge Vasya = Vasily — rename, merge two entries of one player; /forget [yes] — what the club keeps about you, delete it
    /settings [the rules, as after /new | off] — the rules the club's new games start with (an admin)
console-undone-actions = { $count ->
    [one] Taken back: { $actions }
   *[other] Taken back, the last first: { $actions }
 }

console-evening-private = (in private) { $text }
