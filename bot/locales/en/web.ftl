# The table on a screen (issue 30, bot/web): the pages' own words, /stream, the Mini App's button.
web-title = Mafia table
web-fouls = fouls
web-warnings = warnings
web-out = out
web-speaking = speaking
web-ballot = The vote
web-votes = votes
web-result = The result
web-points = Points
web-stopped = The table has stopped.
web-no-game = No game at this table yet.
web-feed = Announcements
web-waiting = The broadcast runs behind the table; it begins shortly.
web-offline = Reconnecting…
web-game = Game
web-seat = Seat
web-timer-paused = paused
web-nominated = nominated
web-command = A command, e.g. /fix 12 /foul 5 4.1.1
web-send = Send
web-refused = Refused
web-outdated = The panel has moved on: shown afresh.
web-roles = Roles
web-standings = Standings
web-tables = Tables
web-signed-out = This page is not signed in: open it from the judge's panel (Telegram) or ask for a new link with /panel (Discord).
web-foul = Foul

web-off = The table's pages are off on this bot (its operator sets MAFIA_REFEREE_WEB_URL).
web-pages = The table's pages (they follow this table's games):
    Live page: { $live }
    Stream overlay (OBS browser source, 1920×1080): { $overlay }
web-broadcast = The broadcast page — roles shown { $delay } behind the table; keep it off the players' screens:
    { $live }
    Overlay: { $overlay }
web-broadcast-sent = The broadcast page's address is sent to you in private.
web-rotated = New addresses: the old ones no longer open the pages.
web-delay-set = The broadcast now runs { $delay } behind the table.
web-tournament = The tournament page: { $url }
web-no-tournament = No tournament is open in this club.
web-app-button = 📱 The panel on a screen
web-app-link = The panel on a screen, for game { $game } (the link opens once, within { $minutes } min):
    { $url }
# a role on the judge's seat grid (a 360-px phone: a few letters)
web-role-short-civilian = Civ
web-role-short-sheriff = Sher
web-role-short-mafia = Maf
web-role-short-don = Don
