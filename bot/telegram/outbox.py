"""The sender of the persistent outbox (ENGINEERING.md §1; storage migration 0004).

The messages an action causes are rendered before its commit and queued in the ``outbox`` table in
the SAME transaction as its events (:meth:`bot.service.Service.act` with ``render``). A sender per
chat drains them here, oldest first:

* sent → the row is marked sent with the new message's id (and, with a slot, that id is stored
  in the game's messages, for the edits that follow);
* ``RetryAfter`` (429) → the row is kept and the chat waits ``retry_after`` seconds in the
  background, then the SAME row is tried again: nothing behind it in that chat overtakes it, and
  the handler that queued it is not held up (the transition is already committed);
* the chat moved (a group upgraded to a supergroup) → the chat's pending rows follow it;
* a permanent refusal (403: the user blocked the bot; 400: chat not found, …) → recorded on the row,
  which is given up; the rows behind it (and every other chat) go on;
* a network error or a timeout → recorded, and the chat is tried again after ``retry_delay``.

Delivery is at least once: a row is marked sent after its send returns, so a process that dies
during that one send repeats it after the restart (:meth:`Outbox.drain_all` at start-up); every
other row is sent exactly once. Panel and timer edits do not go through here: they edit a stored
message in place, so repeating or losing one is harmless, and the next change re-renders them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from storage import OutboxRow, Store

from ..render import fit

log = logging.getLogger(__name__)

PREFIX = "tg:"
MAX_TEXT = 4096  # Bot API: a message's text, in UTF-16 code units


def _chat_id(chat: str) -> int:
    return int(chat.removeprefix(PREFIX))


def retry_seconds(error: RetryAfter) -> float:
    """The wait a 429 asks for, in seconds (PTB gives an int, or a timedelta with PTB_TIMEDELTA)."""
    value = error.retry_after
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


class Outbox:
    """Drains the outbox of each Telegram chat (``"tg:<id>"``) through ``bot()``.

    ``on_migrate(old, new)`` is awaited when a chat turned out to have moved (it must move the
    chat's pending rows: :meth:`bot.service.Service.migrate_chat` does); ``on_sent(chat, id)`` is
    told of every message sent. ``fit`` cuts a text to Telegram's limit (:data:`MAX_TEXT`)."""

    def __init__(self, store: Callable[[], Store], bot: Callable[[], Any], *,
                 on_migrate: Callable[[str, str], Awaitable[None]],
                 on_sent: Callable[[str, int], None] | None = None,
                 fit: Callable[[str], str] = lambda text: fit(text, MAX_TEXT),
                 retry_delay: float = 5.0) -> None:
        self._store = store
        self._bot = bot
        self._on_migrate = on_migrate
        self._on_sent = on_sent
        self._fit = fit
        self.retry_delay = retry_delay
        self._locks: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, asyncio.Task[None]] = {}  # chat -> its retry after a wait
        self._tasks: set[asyncio.Task[None]] = set()

    # --- draining -------------------------------------------------------------------------------
    def waiting(self, chat: str) -> bool:
        """Whether the chat waits out a 429 (or a network error) before its next send."""
        task = self._waiting.get(chat)
        return task is not None and not task.done()

    async def flush(self, chat: str) -> None:
        """Send the chat's pending rows in order now; return early when the chat must wait (its
        background retry sends the rest, in order)."""
        if self.waiting(chat):
            return
        lock = self._locks.setdefault(chat, asyncio.Lock())
        async with lock:
            while not self.waiting(chat):
                rows = await self._store().pending(chat)
                if not rows:
                    return
                for row in rows:
                    if not await self._deliver(row):
                        return

    def kick(self, chat: str) -> None:
        """Flush the chat in the background."""
        self._spawn(self.flush(chat))

    async def drain_all(self) -> None:
        """At start-up: send what a previous process queued and did not send, chat by chat."""
        for chat in await self._store().pending_chats():
            if chat.startswith(PREFIX):
                await self.flush(chat)

    async def close(self) -> None:
        """Cancel the waits and background flushes (the rows stay queued for the next start)."""
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down
                pass
        self._waiting.clear()

    # --- one row --------------------------------------------------------------------------------
    async def _deliver(self, row: OutboxRow) -> bool:
        """Try one row. ``True``: go on with the next row; ``False``: stop draining this chat."""
        store = self._store()
        try:
            message_id = await self._call(row)
        except RetryAfter as error:
            wait = retry_seconds(error)
            await store.mark_attempt(row.id, f"429 retry after {wait:g} s")
            log.info("outbox %s: flood limit, %s waits %g s", row.id, row.chat, wait)
            self._wait(row.chat, wait)
            return False
        except ChatMigrated as moved:
            new = f"{PREFIX}{moved.new_chat_id}"
            await self._on_migrate(row.chat, new)  # the chat's pending rows follow it
            self.kick(new)
            return False
        except (Forbidden, BadRequest) as error:
            if row.kind == "edit" and "not modified" in str(error).lower():
                await store.mark_sent(row.id, row.message_id, row=row)
                return True
            log.warning("outbox %s: %s refused it, given up: %s", row.id, row.chat, error)
            await store.mark_attempt(row.id, f"{type(error).__name__}: {error}", give_up=True)
            return True
        except TelegramError as error:  # network, timeout, server error: try again later
            log.warning("outbox %s: sending to %s failed, retrying: %s", row.id, row.chat, error)
            await store.mark_attempt(row.id, f"{type(error).__name__}: {error}")
            self._wait(row.chat, self.retry_delay)
            return False
        await store.mark_sent(row.id, message_id, row=row)
        if message_id is not None and self._on_sent is not None:
            self._on_sent(row.chat, message_id)
        return True

    async def _call(self, row: OutboxRow) -> int | None:
        bot = self._bot()
        payload = row.payload
        text = self._fit(str(payload.get("text", "")))
        if row.kind == "edit":
            message_id = payload.get("message_id")
            if message_id is None and row.slot and row.game_id is not None:
                message_id = await self._store().message(row.game_id, row.chat, row.slot)
            if message_id is None:
                raise BadRequest("message to edit not found")
            await bot.edit_message_text(text, chat_id=_chat_id(row.chat), message_id=message_id)
            return int(message_id)
        sent = await bot.send_message(_chat_id(row.chat), text)
        return int(sent.message_id)

    # --- waiting --------------------------------------------------------------------------------
    def _wait(self, chat: str, seconds: float) -> None:
        if self.waiting(chat):
            return
        self._waiting[chat] = self._spawn(self._after(chat, seconds))

    async def _after(self, chat: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._waiting.pop(chat, None)
        await self.flush(chat)

    def _spawn(self, coroutine: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("outbox: a background flush failed", exc_info=task.exception())
