# Telegram: judge mode (bot/telegram). The judge's panel lives in his private chat with the bot;
# a group gets the public announcements only (never roles, checks or night-removal reasons).

tg-welcome =
    I am a sports mafia judge's assistant: I record the game as it goes and tell you what the rules require — who is silent, whether the vote is held, who leaves, who speaks next, who won.
    A new game — /new (or /new fiim2024). To announce in your club's group, add me to the group and type /link there. All commands — /help.
tg-help-group =
    I am a judge's assistant. The judge runs the game in a private chat with me; announcements come here.
    /link — the judge links this group to the game; /unlink — unlinks it.
    /takeover — a chat admin takes the game over.
    /status — the game now; /lang ru|en — the announcements' language.
    /rule 5.7 — what a rule says; /why — why the last ruling was made.
    A tournament evening: /tournament open 4 Anya, Borya, … (the chief judge; the seating per table), /table N (a table's judge), /table N aside (its game that will not be finished leaves the tournament), /tournament (every table), /tournament close (the standings to the club's channel).
tg-group-use-private = Game commands go to my private chat: the judge's panel is there. Only announcements here.
tg-group-new = A judge starts a new game in a private chat with me ({ $bot }): /new and the judge's panel are there; then /link here, and the announcements come here. For me to run a table in this group myself, type /newgame.
access-group = I serve only my club's chats. This chat's id is { $chat }: the bot's admin may add it to MAFIA_REFEREE_ALLOWED_CHATS.
access-private = A game can be started here by members of the club's groups and by those the bot's admin listed in MAFIA_REFEREE_ALLOWED_CHATS (your id: tg:{ $user }).
tg-only-judge = Only the game's judge can do that.
tg-not-linked = No game is linked to this group. The judge links it with /link.

## The group

tg-link-no-game = First start a game in your private chat with me (/new), then type /link here.
tg-link-busy = This group is already linked to game #{ $game } of another judge. A chat admin may take it over: /takeover.
tg-link-cannot-post = I cannot write in the group "{ $title }": let me send messages there and type /link again.
tg-linked-group = Game #{ $game } is linked to this group: announcements will come here.
tg-linked-private = The group "{ $title }" is linked to game #{ $game }: public announcements go there. Roles, checks and night-removal reasons stay here.
tg-unlinked = The group is unlinked from the game: no more announcements here.

## The panel: questions

tg-announce-group = Announcements go to the linked group.
tg-announce-here = Announcements come here. To announce in your club's group, add me to the group and type /link there.

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
tg-menu-vote = hands: /vote 7 4
tg-menu-newgame = open a table: I run the game
tg-menu-join = a tournament lobby's seat by name: /join Name
tg-menu-pass = end your minute (pass)
tg-menu-protocol = the table's last protocol
tg-menu-rule = what a rule says: /rule 5.7
tg-menu-why = why the last ruling was made
tg-menu-stop = stop the table (host, admin)
tg-menu-warn = a warning: /warn 5
tg-menu-unfoul = withdraw the last foul: /unfoul 5
tg-menu-dq = disqualification: /dq 5
tg-menu-unlink = unlink the group from the game
tg-menu-channel = the club's channel for results: /channel @name
tg-menu-group-status = where the game stands
tg-menu-group-nominate = nominate in your minute: /nominate 7
tg-menu-group-foul = a foul (the table's host): /foul 5
tg-menu-group-link = link the group to your game (the judge)

## Service refusals added for chats

service-home_busy = This chat has an unfinished game of its own, #{ $game_id }: finish it or start a new one.
service-bad_alias = This chat cannot be linked to a game.

cli-telegram-no-token = No bot token. Set MAFIA_REFEREE_TELEGRAM_TOKEN (or TELEGRAM_BOT_TOKEN) — @BotFather gives you one — and run again: mafia-referee telegram.
