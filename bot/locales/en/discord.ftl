# Discord: judge mode (bot/discord). The game lives in a server's text channel; the judge's panel
# and every private notice go to the judge's direct messages (never roles or checks in a channel).

dc-guild-only = I work in a server's text channels: use the command there.
dc-done = Done. Details and the panel are in our direct messages.
dc-missing-rights = In this channel I lack: { $rights }. Give me these permissions (server settings → roles, or this channel's permissions).
dc-right-view_channel = View Channel (to see the channel)
dc-right-send_messages = Send Messages (the announcements)
dc-right-attach_files = Attach Files (the protocol's picture and JSON)
dc-right-moderate_members = Moderate Members (a timeout for a removed player mapped with /seat; my role must also be above the player's)
dc-panel-channel = Table: { $channel }.
dc-panel-setup = { $club ->
    [none] Announcements go to the game's channel; /link #channel — the results also to a club channel.
   *[other] Announcements go to the game's channel; the results also to { $club }.
 } /seat 5 @member — whose seat it is: a removed player is timed out until the end of the game.

## Linking a club channel

dc-linked = The results of this game go to { $channel } too.
dc-linked-club = The start and the result of game #{ $game } from { $channel } will come here.
dc-link-cannot-post = I cannot post in { $channel }: I need { $rights } there. Nothing was linked.
dc-link-self = That is the game's own channel: its announcements come here anyway.
dc-unlinked = The club channel is unlinked: the results stay in the game's channel.

## Seats and timeouts

dc-seat-set = Seat { $seat }: { $member }.
dc-seat-cleared = Seat { $seat } is no longer mapped to a member.
dc-timeout-failed = I could not time out seat(s) { $seats }: I need { $rights }.

## Take over


## The timer

dc-timer-ends = Ends { $until }.

## The slash commands: descriptions (names are the same in every language)

dc-cmd-new = A new game in this channel: preset and options (timers.speech=45 …)
dc-cmd-name = A player's name
dc-cmd-roles = The dealt cards: D2 M5 M7 S8 (others civilians), or unknown
dc-cmd-start = Start the game: night 0 begins
dc-cmd-next = End the current speech, last word or night step
dc-cmd-nominate = The speaker (or seat "by") nominates a seat
dc-cmd-vote = Hands against a nominee: a count (4) or the voters (1,2,3)
dc-cmd-raise = Hands for raising all tied players: a count or the voters
dc-cmd-kill = The night's victim
dc-cmd-miss = The mafia missed
dc-cmd-shots = Each black's shot: 2:7 5:7 7:7 (2:- did not shoot)
dc-cmd-don = The Don checks a seat
dc-cmd-sheriff = The Sheriff checks a seat
dc-cmd-bestmove = The best move of night 1's victim: up to three seats
dc-cmd-foul = A foul (reason: a rule item, e.g. 4.1.1)
dc-cmd-warn = A warning
dc-cmd-dq = A disqualifying foul (4.2.x)
dc-cmd-ppk = A team loss (4.3.x)
dc-cmd-unfoul = Withdraw a seat's last foul
dc-cmd-withdraw = Withdraw the speaker's nomination (a rule option, MafiaRatings 7.5)
dc-cmd-tech = A technical foul (a rule option, MafiaRatings 9.6: the second removes)
dc-cmd-result = With roles unknown: declare the result; without a winner: show it
dc-cmd-extra = After the result: the judge's extra points (F24/S24 §8.4)
dc-cmd-badplay = After the result: penalty points for a listed bad play (F24/S24 §8.5)
dc-cmd-points = The points of the game
dc-cmd-undo = Take back the last actions
dc-cmd-status = The game now (the judge: the panel afresh)
dc-cmd-fix = Correct an earlier action: its number from /log scope:all and the corrected action
dc-cmd-timer = The step's timer: what is left; pause, resume, its next part
dc-cmd-log = The game's log (the judge's: in direct messages)
dc-cmd-help = Every command
dc-cmd-lang = The server's language
dc-cmd-panel = The judge's panel afresh in direct messages
dc-cmd-link = A club channel that gets the results and the protocol
dc-cmd-unlink = Stop sending the results to the club channel
dc-cmd-seat = Whose seat it is (for timeouts of removed players); no member — unmap
dc-cmd-takeover = Take the game over (Manage Channels)
dc-arg-preset = The rules: seed (the club's), fiim2024, fsm2024
dc-arg-options = Options: raise_vote=no timers.speech=45 …
dc-arg-seat = A seat, 1–10
dc-arg-name = The player's name
dc-arg-roles = D2 M5 M7 S8, or unknown
dc-arg-target = The nominated seat
dc-arg-by = Who nominates (default: the speaker)
dc-arg-nominee = The nominee voted now
dc-arg-hands = A count of hands (4) or the voters' seats (1,2,3)
dc-arg-shots = shooter:target pairs, e.g. 2:7 5:7 7:-
dc-arg-seats = Up to three seats: 1 2 3
dc-arg-reason = A rule item (4.1.1 …) or nothing
dc-arg-team = The offender's team (when roles are unknown)
dc-arg-winner = red, black or draw
dc-arg-action = The action's number (from /log scope:all)
dc-arg-command = The corrected action as typed: /foul 5 4.1.1
dc-arg-timer-action = pause, resume or next (night 0: the Sheriff's look)
dc-arg-scope = all — the audit trail: every action, who recorded it and when, what was undone (the judge only)
dc-arg-steps = How many actions (1 by default)
dc-arg-points = Points, a decimal; zero takes them back
dc-arg-approved = Approved by the chief judge (more than the limit)
dc-arg-item = The bad play's item number; a minus before it takes it back
dc-arg-lang = ru or en
dc-arg-channel = The club channel
dc-arg-member = The member at this seat

cli-discord-no-token = No Discord bot token. Set MAFIA_REFEREE_DISCORD_TOKEN (or DISCORD_BOT_TOKEN) — the Developer Portal gives one (see README, "Discord") — and run again: mafia-referee discord.
cli-both-no-token = mafia-referee both needs both tokens: MAFIA_REFEREE_TELEGRAM_TOKEN and MAFIA_REFEREE_DISCORD_TOKEN.

## Host mode (bot/discord/host): the bot runs the table in the channel.

dc-cmd-newgame = Host mode: open a table here (the bot runs the game)
dc-cmd-stop = Host mode: stop this channel's table (its host or Manage Channels)
dc-cmd-pass = Host mode: the speaker ends the minute («Пас»)
dc-cmd-protocol = The last game's protocol again: the score sheet and the JSON files
dc-cmd-channel = Host mode: the club channel for starts and results (Manage Channels)
dc-arg-host-options = e.g. fiim2024 seats=shuffle mute=auto shooting=20 timers.speech=45
dc-arg-club = The club channel
dc-arg-off = Unlink the club channel
dc-arg-voice = A voice table: the voice channel where the players speak
dc-voice-lobby = 🎙 A voice table: in its voice channel only the speaker is heard, the others are server-muted (at night and in a vote, everyone). { $right ->
    [yes] A member I cannot mute (the server's owner, a role above mine) is fouled by the host for speaking out of turn (4.1.1).
   *[no] ⚠ I lack Mute Members: nobody will be muted, speaking out of one's minute is a foul by the host (4.1.1).
 }
dc-voice-bound = 🎙 Voice table: { $channel }. The members mapped with /seat are server-muted there but the one who has the floor (you never are). { $right ->
    [yes] A member I cannot mute (the server's owner, a role above mine) gets your 4.1.1 fouls instead.
   *[no] ⚠ I lack Mute Members there: nobody will be muted until I get it.
 }
dc-voice-reason = Mafia game #{ $game }: not your minute
dc-voice-unmutable = 🎙 Seat { $seat } cannot be muted in voice (the server's owner, or a role above mine): speaking out of that minute is your 4.1.1 foul.
dc-voice-no-right = 🎙 I lack Mute Members in the voice channel: nobody is muted; speaking out of one's minute is your 4.1.1 foul.
dc-voice-left = 🎙 Seat { $seat } leaves the voice channel { $channel }. If not back, it is leaving the table (4.2.1): your call.
dc-host-opened = The table is open: the lobby is in the channel.
dc-done-host = Done.
dc-host-dm-closed = ⚠ A player marked so cannot get direct messages from me: allow direct messages from this server's members (Privacy Settings), then press «Join» again.
dc-host-join-dm-closed = I cannot write to you in direct messages, and your role must come there: allow direct messages from this server's members (Privacy Settings), then press «Join» again.
dc-host-right-overwrite = ⚠ I lack Manage Permissions in this channel, so I cannot close it to all but the speaker. { $mode ->
    [timeout] I will time the other players out during each speech instead (Moderate Members).
   *[foul] Speaking out of one's minute is a foul (4.1.1).
 }
dc-host-right-timeout = ⚠ I lack Moderate Members: a player removed by the rules (the 4th foul, a disqualification) cannot be timed out.
dc-host-right-delete = ⚠ I lack Manage Messages: a message out of one's minute stays in the channel.
dc-host-mute-reason = Mafia table #{ $table }: not your minute
dc-host-channel-usage = Link a club channel for the hosted games' starts and results: /channel channel:#club; unlink: /channel off:True.
dc-host-channel-is = The club channel: { $channel }. Unlink: /channel off:True.
dc-host-club-linked = The hosted games of { $channel } will post their starts and results here.
access-server = I serve only my club's servers. This server's id is { $server }: the bot's admin may add it to MAFIA_REFEREE_ALLOWED_CHATS.
dc-cmd-rule = What a rule says, as this game numbers it: 5.7, 4.2.4, draw
dc-cmd-why = Why the last ruling was made
dc-arg-rule = The rule's number (5.7, 4.2.4) or a word (draw); none: the list

# The club's commands (issue 17)
dc-cmd-games = The club's last games
dc-cmd-stats = A player's statistics in this club
dc-cmd-top = The club's best players
dc-cmd-roster = The club's roster
dc-cmd-rename = Rename a roster entry (the judge, Manage Channels)
dc-cmd-merge = Merge two entries of one player (the judge, Manage Channels)
dc-cmd-forget = What the club keeps about you; delete it
dc-arg-count = How many games (10 by default)
dc-arg-player = A name from the roster (default: you)
dc-arg-period = month, season, all, 2026-03 or 2026-03-01..2026-03-31
dc-arg-order = points, wins, winrate or elo (the strength rating)
dc-arg-role = Only the games in this role
dc-arg-least = The fewest games to be ranked (3 by default)
dc-arg-name-start = The names beginning so
dc-arg-new-name = The new name
dc-arg-merged = The entry merged away
dc-arg-into = The entry that stays
dc-arg-confirm = True: delete it
dc-cmd-rating = The club's rating of a season, with its tie-breaks
dc-arg-scheme = fiim or fsm: whose rules of points
dc-cmd-evening = The evening's table and the season's rating; new, close, cancel: the evening's sign-up
dc-arg-evening-action = new (post the sign-up), close (the list final) or cancel; none: the evening's table
dc-arg-evening-start = The start by the club's clock: 19:30, or 2026-03-29 19:30
dc-arg-evening-tables = How many tables (ten places each)
dc-cmd-seating = A seating plan for a series: each game's tables and seats
dc-arg-series-games = How many games in the series
dc-arg-players = The players' names, separated by commas
dc-cmd-tournament = A tournament evening: open it, every table's state, close it
dc-arg-tournament-action = open (the seating) or close (the standings); none: every table
dc-cmd-table = Run a table of the tournament (the chief judge: take it over)
dc-arg-table-number = The table's number
dc-cmd-join = Host mode, a tournament's table: take your name's seat of the plan
dc-arg-plan-name = The name as the tournament's plan writes it
dc-arg-table-host = The host bot runs the table in this channel (the chief judge, Manage Channels)
dc-arg-table-aside = Set the table's unfinished game aside from the tournament (chief judge or the table's judge)

dc-cmd-settings = The rules the club's games start with
dc-arg-club-rules = The rules, as after /new: fiim2024 timers.speech=45
dc-arg-settings-off = Forget the club's own rules
dc-cmd-stream = The table's live page, stream overlay and broadcast page (judge or Manage Channels)
dc-arg-stream-what = new: new addresses; delay: the broadcast's delay; tournament: the tournament's page
dc-arg-stream-seconds = The broadcast's delay in seconds (with delay)
