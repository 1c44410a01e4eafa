"""A rate limiter tuned for a bot that moderates a group.

PTB's :class:`AIORateLimiter` queues EVERY request naming a group (``chat_id < 0``) under the
group limit (about 20 messages a minute). Telegram's limit counts messages; host mode also mutes
and unmutes players at each speech (``restrictChatMember``), deletes messages written out of turn
and asks about members: under the stock limiter those calls would eat the group's budget and hold
the game up for a minute at a time. Here they pass under the overall limit only; messages and
edits keep the group limit, and a ``RetryAfter`` still pauses everything (inherited).

A private chat has a limit of its own too (issue 34; Telegram: about one message a second to one
chat; PTB's limiter has none there): its messages and edits are paced (:class:`Pacer`), so that a
judge pressing faster than once a second gets his panel's edits one a second, not 429s and their
retries.

With several workers (``MAFIA_REFEREE_WORKERS=shared``) the overall limit is the bot's, not a
process's: :class:`SharedRateLimiter` takes every request's turn from a budget the workers share
in PostgreSQL (:class:`storage.shared.SendBudget`). The group limit stays each worker's own: a
group's messages are sent by the one worker that owns its chat (:mod:`bot.telegram.shared`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine

from aiolimiter import AsyncLimiter
from telegram.ext import AIORateLimiter

if TYPE_CHECKING:
    from storage.shared import SendBudget

log = logging.getLogger(__name__)

# Moderation and lookups: not messages, so not under the group's messages-per-minute limit.
NOT_MESSAGES = frozenset({
    "restrictChatMember", "deleteMessage", "deleteMessages", "getChatMember", "getChat",
    "getChatAdministrators", "getChatMemberCount", "answerCallbackQuery", "banChatMember",
    "unbanChatMember",
})


class Pacer:
    """At most ``rate`` calls per ``period`` seconds to one chat, evenly spaced: each call to
    :meth:`turn` waits (``sleep``) until the chat's next slot on ``clock`` (seconds; a test's
    own clock and sleep, else the event loop's). ``rate=0``: no limit. Chats idle for a period
    are forgotten (at most ``kept`` remembered)."""

    def __init__(self, rate: float, period: float, *, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep, kept: int = 512) -> None:
        self.gap = period / rate if rate > 0 and period > 0 else 0.0
        self._clock = clock
        self._sleep = sleep
        self._kept = kept
        self._next: dict[int, float] = {}  # chat -> when its next call may go

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    async def turn(self, chat: int) -> None:
        """Wait for ``chat``'s next slot, and take it."""
        if not self.gap:
            return
        now = self._now()
        if len(self._next) > self._kept:
            self._next = {c: at for c, at in self._next.items() if at > now}
        at = max(now, self._next.get(chat, now))
        self._next[chat] = at + self.gap
        if at > now:
            await self._sleep(at - now)


def private_chat(data: dict[str, Any]) -> int | None:
    """The private chat (a user's id: positive) a request is sent to, or ``None``."""
    try:
        chat = int(data.get("chat_id"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return chat if chat > 0 else None


class HostRateLimiter(AIORateLimiter):
    """:class:`AIORateLimiter` whose group limit applies to messages and edits only, which
    paces a private chat's messages and edits (``private_max_rate`` per
    ``private_time_period`` seconds: :class:`Pacer`; ``pacer``: a test's own), and which tells
    whether it has room for a request that may be skipped (:meth:`has_room`)."""

    def __init__(self, *, private_max_rate: float = 0, private_time_period: float = 1,
                 pacer: Pacer | None = None, **limits: Any) -> None:
        super().__init__(**limits)
        self.pacer = pacer if pacer is not None else Pacer(private_max_rate, private_time_period)

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

    def group_has_room(self, chat_id: int, kept: float) -> bool:
        """Whether one more message to group ``chat_id`` would go at once and leave ``kept``
        (0–1) of its budget (``group_max_rate`` per ``group_time_period``, about 20 a minute)
        free for others, with no flood wait holding every request back. No group limit:
        always. Reads the state PTB's :class:`AIORateLimiter` keeps (``_group_limiters``: an
        ``aiolimiter.AsyncLimiter`` a group, made at its first message)."""
        if not self._retry_after_event.is_set():
            return False
        limiter = self._group_limiters.get(chat_id) if self._group_max_rate else None
        return limiter is None or limiter.has_capacity(min(limiter.max_rate, 1 + limiter.max_rate * kept))

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
        else:
            await self._paced(data)
        return await super().process_request(callback, args, kwargs, endpoint, data,
                                              rate_limit_args)

    async def _paced(self, data: dict[str, Any]) -> None:
        """A message or an edit to a private chat waits for that chat's turn."""
        chat = private_chat(data)
        if chat is not None:
            await self.pacer.turn(chat)


class SharedRateLimiter(HostRateLimiter):
    """:class:`HostRateLimiter` whose overall limit is ``budget``, shared by every worker of the
    bot: each request with a chat (each attempt, a retry too) waits for its turn
    (:meth:`storage.shared.SendBudget.take`) inside its group's limit and once no flood wait
    runs, then goes. The group limit is this worker's (:class:`AIORateLimiter`'s), as one worker
    sends a group's messages. If the budget cannot be read (the database is away) the request
    goes under a local limit at the full rate, and this is logged. ``sleep``: a test's own."""

    def __init__(self, budget: "SendBudget", *, group_max_rate: float, group_time_period: float,
                 max_retries: int, sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
                 private_max_rate: float = 0, private_time_period: float = 1) -> None:
        super().__init__(overall_max_rate=0, group_max_rate=group_max_rate,
                         group_time_period=group_time_period, max_retries=max_retries,
                         private_max_rate=private_max_rate, private_time_period=private_time_period)
        self.budget = budget
        self._sleep = sleep
        self._fallback = AsyncLimiter(budget.rate, 1)

    def has_room(self, share: float) -> bool:
        """As :meth:`HostRateLimiter.has_room`, from the shared budget as last seen here."""
        if not self._retry_after_event.is_set():
            return False
        return self.budget.left() - 1 >= self.budget.burst * (1 - share)

    async def _turn(self) -> None:
        try:
            wait = await self.budget.take()
        except Exception:  # noqa: BLE001 - the database is away: a local limit meanwhile
            log.warning("the shared send budget cannot be read: limiting this worker alone",
                        exc_info=True)
            async with self._fallback:
                return
        if wait > 0:
            await self._sleep(wait)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        if data.get("chat_id") is None or data.get("allow_paid_broadcast"):
            return await super().process_request(callback, args, kwargs, endpoint, data,
                                                  rate_limit_args)

        async def in_turn(*call_args: Any, **call_kwargs: Any) -> Any:
            await self._turn()
            return await callback(*call_args, **call_kwargs)

        return await super().process_request(in_turn, args, kwargs, endpoint, data,
                                              rate_limit_args)
