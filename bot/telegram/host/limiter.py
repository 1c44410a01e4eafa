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
    """:class:`AIORateLimiter` whose group limit applies to messages and edits only."""

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
