"""The persistent outbox: what an action announces, delivered at least once, for every platform.

The messages an action causes are rendered before its commit and queued in the ``outbox`` table
in the SAME transaction as its events (:meth:`bot.service.Service.act` with ``render``; storage
migration 0004). One :class:`Outbox` per platform drains them here, chat by chat, oldest first,
through that platform's :class:`Transport` (:mod:`bot.telegram.outbox`, :mod:`bot.discord.outbox`):

* sent → the row is marked sent with the new message's id (and, with a slot, that id is stored
  in the game's messages, for the edits that follow);
* :class:`RetryAfter` (a flood limit) → the row is kept and the chat waits that many seconds in
  the background, then the SAME row is tried again: nothing behind it in that chat overtakes it,
  and the handler that queued it is not held up (the transition is already committed);
* :class:`ChatMoved` (a Telegram group upgraded to a supergroup) → the chat's pending rows follow
  it;
* :class:`Refused` (the user blocked the bot, the chat is gone, the bot may not post there) →
  recorded on the row, which is given up; the rows behind it (and every other chat) go on;
  :class:`NotModified` on an edit is a success;
* :class:`Unreachable` (the network, a timeout, a server error) → recorded, and the chat is tried
  again after ``retry_delay`` seconds.

**What is promised.** Every row is delivered at least once, in order per chat; a row the chat
refuses is given up without holding up the rest. A row is marked sent after its send returns, so
a send whose answer never comes — the process killed during it, a dropped connection, a proxy's
502, a timeout — is tried again, though the platform may have carried it out. Exactly once is not
possible without that answer; what the repeat costs, measured under the fakes' faults
(``tests/test_lost_answers.py``):

* an **edit** (a countdown, a step's buttons, the lobby, a night prompt: the status messages are
  edits of stored messages) costs nothing — the same text is set again, or the platform answers
  "not modified", which counts as success;
* a new message on **Discord** costs nothing: each part goes with a nonce of its own, the same at
  every try, which Discord enforces for a few minutes (:func:`bot.discord.outbox.nonce`) — the
  retry gets the first message back (3 answers lost, 0 copies; before the nonce, 3 copies);
* a new message on **Telegram** costs one copy per lost answer, never more, and in order (3 of
  3): the Bot API has no idempotency key and no way to read a chat back, so the first attempt's
  fate cannot be learnt. Every other row is sent exactly once.

A row of **several calls** — the protocol on Telegram (the score sheet, then a message per JSON
file), a text Discord takes in several parts — records each call as it is delivered, before the
next goes (``made``, :meth:`storage.Store.mark_part`: the row's ``parts``), as a single send is
marked before anything else goes: a failure on a later call (a 502 on a JSON file) retries that
call and those after it, never the ones delivered (:func:`calls`). Only the call whose answer
was lost can repeat, as above.

What a row is (:func:`post`, :func:`edit`, :func:`protocol`): a text message to a chat (``private``:
to a user's direct messages, which Discord opens by the user's id), perhaps with buttons
(:class:`Button`), an edit of a stored message (by its id, by the slot a send stored it under, or
by the outbox row that sends it — an edit queued while that row still waits, behind it: a
countdown that ran out before its announcement left is shown ended as soon as it is out), or the
protocol of a finished game (the score
sheet and the JSON files, rendered from the game's log when it is sent: :mod:`bot.protocol.files`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence

from storage import OutboxItem, OutboxRow, Store

from .lru import CACHED_CHATS, Recent, locks

if TYPE_CHECKING:
    from .service import Service

log = logging.getLogger(__name__)


# --- what a row is ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Button:
    """A button under a message: its label and either the data a press sends back or a URL."""

    label: str
    data: str | None = None
    url: str | None = None


Rows = list[list[Button]]


def rows_payload(rows: Rows | None) -> list[list[dict[str, str]]]:
    """``rows`` as a row's JSON payload (``[]``: no buttons)."""
    return [[{k: v for k, v in (("label", b.label), ("data", b.data), ("url", b.url)) if v}
             for b in row] for row in rows or [] if row]


def rows_of(payload: dict[str, Any]) -> Rows | None:
    """The buttons stored in a row's payload (``None``: none; an edit then takes them off)."""
    rows = [[Button(**b) for b in row] for row in payload.get("rows") or []]
    return rows or None


def post(chat: str, text: str, *, slot: str | None = None, private: bool = False,
         rows: Rows | None = None, **extra: Any) -> OutboxItem:
    """A message to ``chat``; ``slot``: store its id under that slot of the game's messages (a
    later edit finds it); ``private``: ``chat`` is a user, written to in his direct messages
    (host mode's: on Telegram sent protected, never forwarded: :func:`.telegram.outbox.protected`);
    ``rows``: its buttons."""
    payload: dict[str, Any] = {"text": text, **extra}
    if private:
        payload["private"] = True
    if rows:
        payload["rows"] = rows_payload(rows)
    return OutboxItem(chat, payload, slot=slot)


def edit(chat: str, text: str, *, message_id: int | None = None, slot: str | None = None,
         private: bool = False, rows: Rows | None = None, of_row: int | None = None) -> OutboxItem:
    """An edit of a message in ``chat``: the stored ``message_id``, the one stored under ``slot``
    once its send has left, or the one outbox row ``of_row`` sent (queue it behind that row: the
    chat's order sends the row first; a row given up takes its edits with it). Its buttons become
    ``rows`` (none: taken off)."""
    payload: dict[str, Any] = {"text": text}
    if message_id is not None:
        payload["message_id"] = message_id
    if of_row is not None:
        payload["of_row"] = of_row
    if private:
        payload["private"] = True
    if rows:
        payload["rows"] = rows_payload(rows)
    return OutboxItem(chat, payload, kind="edit", slot=slot)


#: The slot under which a protocol's first message is stored (queued with its game): the club's
#: ``/games`` links to it (issue 17).
PROTOCOL_SLOT = "protocol"


def protocol(chat: str, game_id: int, caption: str = "", *, lang: str = "ru",
             private: bool = False, judge: str | None = None, table: str | None = None) -> OutboxItem:
    """The protocol of finished game ``game_id`` (the score sheet PNG and the JSON exports),
    rendered from its log when the row is sent, with ``caption``; ``private``: ``chat`` is a
    user, written to in his direct messages. ``judge`` (the judge's name) and ``table`` (where
    it was played) go on the sheet (:class:`bot.protocol.sheet.SheetInfo`). Its first
    message's id is stored under :data:`PROTOCOL_SLOT` when the row is queued with the game."""
    payload: dict[str, Any] = {"text": caption, "protocol": game_id, "lang": lang}
    if private:
        payload["private"] = True
    if judge:
        payload["judge"] = judge
    if table:
        payload["table"] = table
    return OutboxItem(chat, payload, slot=PROTOCOL_SLOT)


# --- what a transport may answer ----------------------------------------------------------------------

class DeliveryError(Exception):
    """Why a row did not leave (raised by a :class:`Transport`)."""


class RetryAfter(DeliveryError):
    """A flood limit: try the same row again after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry after {seconds:g} s")
        self.seconds = seconds


class ChatMoved(DeliveryError):
    """The chat has a new id (``chat``, a service key): its pending rows follow it."""

    def __init__(self, chat: str) -> None:
        super().__init__(f"moved to {chat}")
        self.chat = chat


class Refused(DeliveryError):
    """A permanent refusal: the row is given up."""


class NotModified(DeliveryError):
    """An edit that changes nothing: a success."""


class Unreachable(DeliveryError):
    """The network, a timeout or a server error: the chat is tried again later."""


#: ``made(message_id)``: one more call of a row of several is delivered (the id of the message it
#: made, ``None``: none); awaited before the next call goes, it is stored when it returns.
Made = Callable[[int | None], Awaitable[None]]


class Transport(Protocol):
    """One platform's way of sending a row (:mod:`bot.telegram.outbox`, :mod:`bot.discord.outbox`)."""

    prefix: str  # the chats it serves: "tg:" or "dc:"

    async def deliver(self, row: OutboxRow, made: Made) -> int | None:
        """Send ``row``; return the id of the message sent or edited (``None`` if there is
        none). A row of several calls makes only those after ``row.parts`` (made by an earlier
        try) and awaits ``made`` after each but its last (:func:`calls`). Raises a
        :class:`DeliveryError`."""


async def calls(row: OutboxRow, steps: Sequence[Callable[[], Awaitable[int | None]]],
                made: Made) -> list[int | None]:
    """Make a row's calls (``steps``, in order) but the first ``len(row.parts)``, which an
    earlier try delivered: each delivered one is recorded (``made``) before the next goes, the
    last not (the row is marked sent with it). The message ids of all the row's calls."""
    ids = list(row.parts)[:len(steps)]
    for step in steps[len(ids):]:
        ids.append(await step())
        if len(ids) < len(steps):
            await made(ids[-1])
    return ids


def _mark_first(sent: Sequence[tuple[OutboxRow, int | None]]) -> bool:
    """Whether the rows delivered so far must be marked sent before the next row goes: the marks of
    edits are put off and written together (an edit repeated after a kill is harmless), but a
    delivered send is marked before anything else goes, so that a kill repeats only the send it
    cut, and a later edit (a timer, a panel) finds the message's id."""
    return any(r.kind == "send" for r, _ in sent)


# --- the sender -------------------------------------------------------------------------------------

class Outbox:
    """Drains the outbox of each of a platform's chats through ``transport``.

    ``store`` returns the store (it may be opened after the outbox is built).
    ``on_migrate(old, new)`` is awaited when a chat turned out to have moved (it must move the
    chat's pending rows: :meth:`bot.service.Service.migrate_chat` does); ``on_sent(chat, id)`` is
    told of every message sent. ``may_send(chat)``, if set, is awaited before a chat is drained:
    ``False`` leaves its rows to another sender (a shared worker sends the chats it owns only,
    :mod:`bot.telegram.shared`)."""

    def __init__(self, store: Callable[[], Store], transport: Transport, *,
                 on_migrate: Callable[[str, str], Awaitable[None]] | None = None,
                 on_sent: Callable[[str, int], None] | None = None,
                 retry_delay: float = 5.0, cached: int = CACHED_CHATS) -> None:
        self._store = store
        self.transport = transport
        self._on_migrate = on_migrate
        self._on_sent = on_sent
        self.retry_delay = retry_delay
        self._locks = locks(cached)  # chat -> its drain's lock (at most ``cached`` idle ones kept)
        # chat -> (the store, its queued() token) when the chat was last found with nothing
        # pending: a flush with the same token has nothing to read (an action that queued
        # nothing for the judge's chat flushes it without a read of the store)
        self._drained: Recent[str, tuple[Store, tuple[int, int]]] = Recent(cached)
        # (the store, its queued() token of a chat this process never queued for) when
        # drain_all read which chats have pending rows: any other chat with that token has
        # none (its first flush after a start reads nothing); the chats it found, or kicked to be
        # read again since, are in _unclean
        self._clean: tuple[Store, tuple[int, int]] | None = None
        self._unclean: set[str] = set()
        # (game, chat, slot) -> the id of the message its send made, once marked sent (issue 34:
        # the host's step message is taken from here, not read back from the store)
        self._slots: Recent[tuple[int, str, str], int] = Recent(cached)
        self._waiting: dict[str, asyncio.Task[None]] = {}  # chat -> its retry after a wait
        self._tasks: set[asyncio.Task[None]] = set()
        self.may_send: Callable[[str], Awaitable[bool]] | None = None

    @classmethod
    def of(cls, service: Callable[[], "Service"], transport: Transport, **options: Any) -> "Outbox":
        """The outbox of the service ``service()`` gives (a platform builds its outbox before
        the service opens): its rows are that service's store's; ``options`` as
        :class:`Outbox` takes them."""
        return cls(lambda: service().store, transport, **options)

    # --- draining -------------------------------------------------------------------------------
    def delivered(self, game_id: int, chat: str, slot: str) -> int | None:
        """The id of the message that a send of game ``game_id`` under ``slot`` made in ``chat``,
        if this process sent it and marked it sent (as the store then holds it in the game's
        messages), else ``None``: ask the store."""
        return self._slots.get((game_id, chat, slot))

    def waiting(self, chat: str) -> bool:
        """Whether the chat waits out a flood limit (or a network error) before its next send."""
        task = self._waiting.get(chat)
        return task is not None and not task.done()

    async def flush(self, *chats: str, defer_files: bool = False) -> None:
        """Send each chat's pending rows in order now; a chat that must wait is left to its
        background retry (which sends the rest, in order). ``defer_files``: a protocol row (the
        score sheet takes about a second to draw) and what follows it are sent in the background,
        so that a press is not held up by it."""
        for chat in dict.fromkeys(chats):
            await self._flush(chat, defer_files=defer_files)

    async def _flush(self, chat: str, *, defer_files: bool = False) -> None:
        if self.waiting(chat) or (self.may_send is not None and not await self.may_send(chat)):
            return
        lock = self._locks.setdefault(chat, asyncio.Lock())
        async with lock:
            while not self.waiting(chat):
                store = self._store()
                seen = store.queued(chat)
                drained = self._drained.get(chat) or self._clean
                token = drained[1] if drained is not None and drained[0] is store \
                    and (drained is not self._clean or chat not in self._unclean) else None
                if token == seen:
                    return  # found empty, and nothing was queued since
                # what this process queued since it found the chat empty is known without a read
                # (issue 34); taken once: a chat left before the end reads its rows next time
                rows = store.queued_since(chat, token) if token is not None else None
                self._drained.pop(chat, None)
                if rows is None:
                    rows = await store.pending(chat)
                if not rows:
                    self._drained[chat] = (store, seen)
                    return
                sent: list[tuple[OutboxRow, int | None]] = []
                try:
                    for row in rows:
                        if defer_files and row.payload.get("protocol") is not None:
                            self.kick(chat)  # after this lock, in order
                            return
                        if _mark_first(sent):
                            await self._mark(sent)
                        if not await self._deliver(row, sent):
                            return
                finally:
                    await self._mark(sent)
                self._drained[chat] = (store, seen)  # every row read was sent and marked
                if store.queued(chat) == seen:
                    return  # nothing was queued meanwhile: no need to look again

    def kick(self, chat: str, *, reread: bool = False) -> None:
        """Flush the chat in the background; ``reread``: read its pending rows even if this
        process queued nothing there since it found none (another process may have)."""
        if reread:
            self._drained.pop(chat, None)
            if self._clean is not None:
                self._unclean.add(chat)
        self._spawn(self._flush(chat))

    async def drain_all(self) -> None:
        """At start-up: send what a previous process queued and did not send, chat by chat
        (and prune what finished games no longer need: :meth:`storage.Store.prune`). The
        other chats have nothing pending: their first flush reads nothing until this process
        queues something there (it is the only one that writes to this store: the caller's
        promise; a shared worker never drains all)."""
        store = self._store()
        await store.prune()
        fresh = store.queued("")  # the token of a chat not queued for since the start
        chats = await store.pending_chats()
        self._unclean = set(chats)
        self._clean = (store, fresh)
        for chat in chats:
            if chat.startswith(self.transport.prefix):
                await self._flush(chat)

    async def settle(self) -> None:
        """Until every background flush started so far (and those they start) is done."""
        while tasks := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

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
    async def _deliver(self, row: OutboxRow, sent: list[tuple[OutboxRow, int | None]]) -> bool:
        """Try one row; once it is delivered it goes into ``sent``, to be marked with the
        others (:meth:`_mark`). ``True``: go on with the next row; ``False``: stop draining
        this chat."""
        store = self._store()
        if row.kind == "edit" and row.payload.get("message_id") is None and row.payload.get("of_row"):
            target = await store.outbox_row(int(row.payload["of_row"]))
            if target is None or target.message_id is None:  # never sent (given up): nothing to edit
                await store.mark_attempt(row.id, "the message to edit was not sent", give_up=True)
                return True
            row = dataclasses.replace(row, payload={**row.payload, "message_id": target.message_id})
        parts = list(row.parts)

        async def made(message_id: int | None) -> None:
            parts.append(message_id)
            await store.mark_part(row.id, parts)

        try:
            message_id = await self.transport.deliver(row, made)
        except RetryAfter as error:
            await self._mark(sent)
            await store.mark_attempt(row.id, f"429 retry after {error.seconds:g} s")
            log.info("outbox %s: flood limit, %s waits %g s", row.id, row.chat, error.seconds)
            self._wait(row.chat, error.seconds)
            return False
        except ChatMoved as moved:
            await self._mark(sent)
            if self._on_migrate is not None:
                await self._on_migrate(row.chat, moved.chat)  # the chat's pending rows follow it
            else:
                await store.move_chat(row.chat, moved.chat)
            self.kick(moved.chat)
            return False
        except NotModified:
            sent.append((row, row.message_id))
            return True
        except Refused as error:
            await self._mark(sent)
            log.warning("outbox %s: %s refused it, given up: %s", row.id, row.chat, error)
            await store.mark_attempt(row.id, str(error), give_up=True)
            return True
        except Unreachable as error:
            await self._mark(sent)
            log.warning("outbox %s: sending to %s failed, retrying: %s", row.id, row.chat, error)
            await store.mark_attempt(row.id, str(error))
            self._wait(row.chat, self.retry_delay)
            return False
        sent.append((row, message_id))
        if message_id is not None and self._on_sent is not None:
            self._on_sent(row.chat, message_id)
        return True

    async def _mark(self, sent: list[tuple[OutboxRow, int | None]]) -> None:
        """Mark the delivered rows sent, in one write unit, and forget them."""
        if sent:
            batch = list(sent)
            sent.clear()
            await self._store().mark_sent_many(batch)
            for row, message_id in batch:
                if row.kind == "send" and row.slot and row.game_id is not None \
                        and message_id is not None:
                    self._slots[(row.game_id, row.chat, row.slot)] = message_id

    # --- waiting --------------------------------------------------------------------------------
    def _wait(self, chat: str, seconds: float) -> None:
        if self.waiting(chat):
            return
        self._waiting[chat] = self._spawn(self._after(chat, seconds))

    async def _after(self, chat: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._waiting.pop(chat, None)
        await self._flush(chat)

    def _spawn(self, coroutine: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("outbox: a background flush failed", exc_info=task.exception())
