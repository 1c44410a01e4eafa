# Telegram: judge mode (bot/telegram). The judge's panel lives in his private chat with the bot;
# a group gets the public announcements only (never roles, checks or night-removal reasons).

tg-welcome =
    I am a sports mafia judge's assistant: I record the game as it goes and tell you what the rules require — who is silent, whether the vote is held, who leaves, who speaks next, who won.
    A new game — /new (or /new fiim2024). To announce in your club's group, add me to the group and type /link there. All commands — /help.
tg-help =
    In Telegram:
    The panel's buttons do what the commands do; the "/" is optional.
    /link — in the club's group: the game's announcements go there; /unlink — unlink the group.
    /takeover — in the group: a chat admin takes the game over (the previous judge is told).
    /lang ru|en — this chat's language (in a group: the announcements' language).
tg-help-group =
    I am a judge's assistant. The judge runs the game in his private chat with me; announcements come here.
    /link — the judge links this group to his game; /unlink — unlinks it.
    /takeover — a chat admin takes the game over.
    /status — the game now; /lang ru|en — the announcements' language.
tg-no-quit = Nothing to close here: the game is saved, go on whenever you like.
tg-group-only = /{ $command } is typed in the club's group, not here.
tg-group-use-private = Game commands go to my private chat: the judge's panel is there. Only announcements here.
tg-only-judge = Only the game's judge can do that.
tg-not-judge = Only this game's judge can do that. Nothing was changed.
tg-press-outdated = That button is outdated: the game has moved on. The panel is refreshed.
tg-not-linked = No game is linked to this group. The judge links it with /link.

## The group

tg-link-no-game = First start a game in your private chat with me (/new), then type /link here.
tg-link-busy = This group is already linked to game #{ $game } of another judge. A chat admin may take it over: /takeover.
tg-link-cannot-post = I cannot write in the group "{ $title }": let me send messages there and type /link again.
tg-linked-group = Game #{ $game } is linked to this group: announcements will come here.
tg-linked-private = The group "{ $title }" is linked to game #{ $game }: public announcements go there. Roles, checks and night-removal reasons stay here.
tg-unlinked = The group is unlinked from the game: no more announcements here.
tg-group-new-game = New game #{ $game }: { $preset }.
tg-takeover-already = You already judge this game.
tg-takeover-not-admin = Only an admin of this chat can take the game over.
tg-takeover-busy = You have an unfinished game of your own: finish it or start a new one, then /takeover again.
tg-takeover-start-bot = I cannot write to you privately: open a chat with me and press Start — the judge's panel will appear there.
tg-taken-over-group = Game #{ $game } is now judged by { $judge }.
tg-taken-over-old = { $judge } (a group admin) took game #{ $game } over. Your panel of this game no longer works.
tg-panel-taken = Game #{ $game } is judged by { $judge }.

## The panel: buttons

tg-btn-next = Next ▶
tg-btn-morning = Next ▶ (morning)
tg-btn-undo = Undo ↩
tg-btn-foul = Foul ▸
tg-btn-nominate = Nominate ▸
tg-btn-miss = Miss
tg-btn-skip = Skip ▶
tg-btn-accept = Accept ✓
tg-btn-again = Start over
tg-btn-back = ← Back
tg-btn-pause = ⏸ Pause
tg-btn-resume = ▶ Resume
tg-btn-start = Start the game ▶
tg-btn-roles = Roles ▸
tg-btn-new = New game
tg-btn-foul-generic = Foul
tg-btn-warning = Warning
tg-btn-dq = Disqualification ▸
tg-btn-dq-generic = DQ foul
tg-btn-team-loss = Team loss ▸
tg-btn-team-loss-generic = Team loss
tg-btn-withdraw = Withdraw the last foul
tg-btn-team-red = Red
tg-btn-team-black = Black
tg-btn-result = Result ▸
tg-btn-red-wins = Red wins
tg-btn-black-wins = Black wins
tg-btn-draw = Draw
tg-seat-gone = ·
tg-seat-picked = ✓{ $n }
tg-picked = ✓ { $label }
tg-preset-seed = Club
tg-preset-fiim2024 = FIIM 2024
tg-preset-fsm2024 = FSM 2024

## The panel: questions

tg-setup-hint =
    Names — /name 3 Vasya. Roles — the "Roles" button (entered only here, in private). The rules — a button or /new fiim2024 …
    Without the roles I cannot see the end of the game, answer the Don's and the Sheriff's checks or count the best move: the judge declares the result.
tg-announce-group = Announcements go to the linked group.
tg-announce-here = Announcements come here. To announce in your club's group, add me to the group and type /link there.
tg-pick-nominee = Whom does player { $seat } nominate?
tg-pick-foul-seat = Who gets the penalty?
tg-pick-reason = Player { $seat } ({ $fouls }): which penalty?
tg-pick-dq = Player { $seat }: a disqualifying foul (4.2)?
tg-pick-team-loss = Player { $seat }: a team loss (4.3)?
tg-pick-team = The roles are not entered: player { $seat }'s team?
tg-legend-line = { $code } — { $reason }
tg-pick-hands = How many hands against player { $seat }?
tg-pick-raise = How many hands for raising everyone?
tg-pick-kill = Who was killed tonight?
tg-pick-don_check = Whom does the Don check?
tg-pick-sheriff_check = Whom does the Sheriff check?
tg-pick-best-move = Player { $seat }'s best move — up to three seats. Picked: { $picked ->
    [none] nobody
   *[other] { $picked }
 }.
tg-pick-result = The roles are not entered: the judge declares the result.
tg-pick-role = Roles: the seat of the { $role }? So far: { $so_far }.
tg-roles-confirm = Roles: { $so_far }; the rest are civilians. Correct?
tg-roles-none-yet = nothing
tg-role-seat = { $role } — { $seat }

## The speech timer

tg-timer-title = { $kind ->
    [last_word] Player { $seat }'s last word
    [tie_speech] Player { $seat }'s speech before the revote
   *[speech] Player { $seat }'s speech
 }
tg-timer-running = ⏱ { $title } — { $seconds }.
tg-timer-resumed = ⏱ { $title }: resumed, { $left } left.
tg-timer-warned = ⏱ { $title }: { $left } left.
tg-timer-paused = ⏸ { $title }: paused, { $left } left.
tg-timer-over = ⏹ { $title }: time is up.
tg-timer-stopped = ⏹ { $title }: over.

## Undo

tg-undone = { $count ->
    [one] ↩ { $count } action undone.
   *[other] ↩ { $count } actions undone.
 }
tg-undone-public = { $count ->
    [one] ↩ Correction: the judge undid { $count } action.
   *[other] ↩ Correction: the judge undid { $count } actions.
 }
tg-now-turn = Now: { $kind ->
    [last_word] player { $seat }'s last word.
    [tie_speech] player { $seat }'s speech before the revote.
   *[speech] player { $seat }'s speech.
 }
tg-now-night = Now: night { $night } — { $step }.
tg-now-phase = Now: { $phase }.

## The command menu

tg-menu-new = a new game
tg-menu-next = move on
tg-menu-foul = a foul: /foul 5 4.1.1
tg-menu-nominate = nominate: /nominate 3 7
tg-menu-undo = undo the last action
tg-menu-status = the judge's panel
tg-menu-link = link a group to the game (in the group)
tg-menu-takeover = take the game over (a group admin)
tg-menu-lang = language: ru or en
tg-menu-help = every command

## Service refusals added for chats

service-home_busy = This chat has an unfinished game of its own, #{ $game_id }: finish it or start a new one.
service-bad_alias = This chat cannot be linked to a game.

cli-telegram-no-token = No bot token. Set MAFIA_REFEREE_TELEGRAM_TOKEN (or TELEGRAM_BOT_TOKEN) — @BotFather gives you one — and run again: mafia-referee telegram.
