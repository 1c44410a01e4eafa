"""Host mode on Discord: the bot runs the whole table in a server's text channel. The flow is the
shared :class:`bot.host.controller.HostController`; here only Discord's part:

* :mod:`.port` — the primitives (REST calls, member overwrites or timeouts, asyncio timers, the
  persistent buttons :class:`HostButton`);
* :mod:`.handlers` — slash commands, presses and messages handed to the controller, and
  ``/channel`` (the slash commands themselves, host mode's ``/newgame``, ``/stop``, ``/pass``
  among them, are made from the command table: :mod:`bot.discord.slash`).
"""

from .handlers import DiscordHost
from .port import HostButton, is_ours, rows_view

__all__ = ["DiscordHost", "HostButton", "is_ours", "rows_view"]
