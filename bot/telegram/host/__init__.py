"""Host mode: the bot runs the whole table in a Telegram group (issue 4).

* :mod:`.options` — ``/newgame``'s options (seating, how "only the speaker writes" is enforced,
  the lengths the rules leave open) and the rules config;
* :mod:`.steps` — pure: the step the rules expect now, its length, who may write, who is asked
  what in private, the engine event a closing step becomes;
* :mod:`.views` — pure: the group's and the players' texts and keyboards, the callback codec;
* :mod:`.limiter` — a rate limiter whose group limit counts messages, not moderation calls;
* :mod:`.driver` — the PTB handlers and jobs: the lobby, the deal, the steps, mutes, the club
  channel, the protocol; a restart resumes every open table.

Every rule stays in :mod:`rules`; games go through :class:`bot.service.Service` with the bot as
the judge.
"""

from .driver import BOT, HOST_GROUP, Table, TelegramHost
from .limiter import HostRateLimiter

__all__ = ["BOT", "HOST_GROUP", "HostRateLimiter", "Table", "TelegramHost"]
