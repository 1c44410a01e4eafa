"""The judge's assistant in Discord (discord.py 2.x): judge mode.

A judge at a live table records the game from his phone. The game lives in a server's text
channel (service chat ``"dc:<channel_id>"``, judge ``"dc:<user_id>"``); the channel gets the public
announcements, the judge's control panel and every private notice (roles, shots, check answers,
the best move's hits, a night removal's reason) go to the judge's direct messages only.

* :mod:`.keys` — the service's chat, user and server keys of Discord ids;
* :mod:`.layout` — the judge's panel (:mod:`bot.judge.panel`, shared) as a ``discord.ui.View``
  of buttons whose ``custom_id`` is ``"<game_id>:<revision>:<action>[:<arg>]"``
  (:mod:`bot.judge.callbacks`, shared), dispatched by a ``discord.ui.DynamicItem``;
* :mod:`.countdown` — the step timer's lines with Discord's live relative timestamp
  (the timer itself is :class:`bot.judge.timer.Timer`, shared);
* :mod:`.rights` — the permissions the bot needs in a channel, and its invite link;
* :mod:`.slash` — the slash commands (``app_commands``): the console's and Telegram's command
  language (:mod:`bot.commands`) with typed options, plus ``/link``, ``/seat``, ``/takeover`` …;
* :mod:`.app` — the client, the adapter over :class:`bot.service.Service`, ``run``;
* :mod:`.both` — the Telegram bot and the Discord bot in one process over one service.

No rule lives here: every action goes through the service and the rules engine, and which notice
may be shown in public is decided by :mod:`bot.judge.routing` (shared).

Host mode (the bot runs the table: a lobby, roles dealt in direct messages, players' votes by
buttons, night actions by the players themselves in direct messages) is :mod:`.host`; its
rules' half (steps, texts, layouts, options) is adapter-neutral (:mod:`bot.host`).
"""
