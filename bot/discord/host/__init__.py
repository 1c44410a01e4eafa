"""Host mode on Discord: the bot runs the whole table in a server's text channel (issue 5).

The rules' half is shared with Telegram's host mode (:mod:`bot.host`): the options of
``/newgame`` (:mod:`~bot.host.options`), the step the rules expect now, its length, who
may write, who is asked what in private and the engine event a closing step becomes
(:mod:`~bot.host.steps`), the texts and the button layouts
(:mod:`~bot.host.views`). What is Discord's own lives here:

* :mod:`.commands` — the slash commands only host mode has (``/newgame``, ``/stop``, ``/pass``,
  ``/protocol``, ``/channel``);
* :mod:`.driver` — the lobby (a ``discord.ui.View`` with Join/Leave), the deal and every night
  prompt in direct messages, night 0 relayed between the blacks, the steps with Discord's live
  countdown, "only the speaker writes" (channel permission overwrites, else member timeouts, else
  a 4.1.1 foul), the removal timeout, the result, the club channel and the protocol.

No rule lives here: every event goes through :class:`bot.service.Service` with the bot as the
judge.
"""

from .driver import DiscordHost, HostButton

__all__ = ["DiscordHost", "HostButton"]
