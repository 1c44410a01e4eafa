"""The table on a screen (issue 30): the judge's panel as a Telegram Mini App (a Discord
judge's one-time link), a live table page for spectators and a stream overlay, a tournament
page — one ``aiohttp.web`` server in the bot's process, off unless ``MAFIA_REFEREE_WEB_URL`` is
set.

* :mod:`.server` — :class:`WebLayer`: the server, its routes and headers, the platforms attached;
* :mod:`.hub` — the live streams, fed from the service's commits (:meth:`bot.service.Service.watch`);
* :mod:`.pages` — a page's chat's game as stored; :mod:`.view` — what each page shows (pure);
* :mod:`.judge` — the Mini App's API: its taps through the platform's front door;
* :mod:`.auth` — Telegram's ``initData``, Discord's one-time links, sessions, constant-time checks;
* :mod:`.desk` — ``/stream``; :mod:`.tournament` — the tournament page's data;
* ``static/`` — the pages: plain HTML, ES modules and CSS shipped in the package.

No rule lives here: the pages show the engine's queries and :mod:`bot.render`'s words, and every
action of the judge's page enters through the front door (:mod:`bot.front`).

The package imports nothing itself (its modules import one another: ``from bot.web.server import
WebLayer``), so that no import circles through it (``tests/test_imports.py``).
"""
