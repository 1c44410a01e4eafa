"""Host mode in a Telegram group: the bot runs the whole table (issue 4).

* :mod:`.limiter` — a rate limiter whose group limit counts messages, not moderation calls;
* :mod:`.driver` — the PTB handlers and jobs: the lobby, the deal, the steps, mutes, the club
  channel, the protocol; a restart resumes every open table.

The options, the steps, the texts and layouts and the table are adapter-neutral
(:mod:`bot.host`). Every rule stays in :mod:`rules`; games go through
:class:`bot.service.Service` with the bot as the judge.
"""

from .driver import BOT, HOST_GROUP, TelegramHost
from .limiter import HostRateLimiter

__all__ = ["BOT", "HOST_GROUP", "HostRateLimiter", "TelegramHost"]
