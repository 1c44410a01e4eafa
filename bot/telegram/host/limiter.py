"""A rate limiter tuned for a bot that moderates a group.

PTB's :class:`AIORateLimiter` queues EVERY request naming a group (``chat_id < 0``) under the
group limit (about 20 messages a minute). Telegram's limit counts messages; host mode also mutes
and unmutes players at each speech (``restrictChatMember``), deletes messages written out of turn
and asks about members: under the stock limiter those calls would eat the group's budget and hold
the game up for a minute at a time. Here they pass under the overall limit only; messages and
edits keep the group limit, and a ``RetryAfter`` still pauses everything (inherited).
"""

from __future__ import annotations

from typing import Any, Callable, Coroutine

from telegram.ext import AIORateLimiter

# Moderation and lookups: not messages, so not under the group's messages-per-minute limit.
NOT_MESSAGES = frozenset({
    "restrictChatMember", "deleteMessage", "deleteMessages", "getChatMember", "getChat",
    "getChatAdministrators", "getChatMemberCount", "answerCallbackQuery", "banChatMember",
    "unbanChatMember",
})


class HostRateLimiter(AIORateLimiter):
    """:class:`AIORateLimiter` whose group limit applies to messages and edits only, and which
    tells whether it has room for a request that may be skipped (:meth:`has_room`)."""

    def has_room(self, share: float) -> bool:
        """Whether one more request would go at once and leave at most ``share`` (0–1) of the
        overall per-second budget in use, with no flood wait (``RetryAfter``) holding every
        request back. No overall limit (``overall_max_rate=0``): always. Reads the state PTB's
        :class:`AIORateLimiter` keeps (``_base_limiter``, an ``aiolimiter.AsyncLimiter``;
        ``_retry_after_event``, set while no wait runs)."""
        if not self._retry_after_event.is_set():
            return False
        base = self._base_limiter
        return base is None or base.has_capacity(1 + base.max_rate * (1 - share))

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        if endpoint in NOT_MESSAGES and "chat_id" in data:
            data = {**data, "chat_id": 0}  # decides the limits only: the request keeps its chat
        return await super().process_request(callback, args, kwargs, endpoint, data,
                                              rate_limit_args)
