"""Host mode in a Telegram group: the bot runs the whole table. The flow is the shared
:class:`bot.host.controller.HostController`; here only Telegram's part:

* :mod:`.port` — the primitives (Bot API calls, mutes by ``restrictChatMember``, the deadlines);
* :mod:`.handlers` — the PTB handlers that hand the group's, the buttons' and the private chats'
  updates to the controller, and ``/channel``;
* :mod:`.limiter` — a rate limiter whose group limit counts messages, not moderation calls (and
  whose overall limit shared workers take from one budget in the database).
"""

from .handlers import HOST_GROUP, TelegramHost
from .limiter import HostRateLimiter, SharedRateLimiter
from .port import BOT, TelegramHostPort

__all__ = ["BOT", "HOST_GROUP", "HostRateLimiter", "SharedRateLimiter", "TelegramHost", "TelegramHostPort"]
