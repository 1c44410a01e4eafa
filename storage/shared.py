"""Several workers on one PostgreSQL database, one chat never in two places (issue 18).

Every worker takes updates (behind one webhook endpoint) and stores each in the **inbox**
(:meth:`PgStore.inbox_put`, keyed by the platform's update id: a redelivered update is stored
once). A home chat is applied by the one worker that **owns** it: :class:`ChatClaims` holds a
session advisory lock per owned chat (``pg_try_advisory_lock(7102, hashtext(chat))``) on a
connection of its own; the server drops them all the moment that connection ends — a SIGKILLed
or cut-off worker included — so another worker claims the chat at its next round, with no lease
to wait out and no clock involved. (Two chats whose hashes collide share an owner: harmless.)

:class:`Drainer` is a worker's loop: for each chat with waiting updates (the longest-waiting
first), claim it (or skip it: another worker owns it) and apply its waiting updates in update
order. **Exactly once** does not rest on the ownership: the first ``append_many`` (an action, an
undo, a fix) made while applying an update marks it done in its own transaction
(:data:`storage.pg.applying`, a context variable the drainer sets: the service and the adapters
know nothing of it), and :class:`AlreadyApplied` rolls back a second one; a new game, a link and
a take over (``create_game``, ``set_alias``, ``move_game``) consume it the same way. An update
that makes none of them is marked afterwards (:meth:`PgStore.inbox_done`): a refusal or a read is
harmless to repeat; a write of another kind (a language) is not fenced by it. A worker
that lost its claims without knowing it (its connection cut) can at worst try an update the new
owner applied: refused. Its in-memory caches of a chat must be dropped when the chat is released
or lost (``on_release``, e.g. :meth:`bot.service.Service.forget`).

Order: one chat's updates are applied in update-id order among those stored; an update stored
after a later one of the same chat was applied (two deliveries racing through two workers) is
applied after it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from .pg import AlreadyApplied, Applying, PgStore, applying, normal_url

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

#: the advisory lock namespace of a chat's owner (the key: ``hashtext(chat)``)
CHAT_LOCK = 7102
#: chats a worker keeps owning when idle; the least recently used beyond are released
KEPT_CHATS = 1000

#: ``apply(chat, update_id, payload)``: apply one update (its first transition consumes it)
Apply = Callable[[str, int, dict[str, Any]], Awaitable[None]]


class ChatClaims:
    """The home chats this worker owns: a session advisory lock each, on one connection.
    ``on_release(chat)`` is called for each chat released or lost (the connection ended);
    ``on_claim(chat)`` is awaited for each chat newly claimed (e.g. to arm its timers and send its
    outbox: what the worker that owned it before may have left)."""

    def __init__(self, url: str, *, kept: int = KEPT_CHATS,
                 on_release: Callable[[str], None] | None = None,
                 on_claim: Callable[[str], Awaitable[None]] | None = None) -> None:
        self._url = normal_url(url)
        self._kept = kept
        self._on_release = on_release or (lambda chat: None)
        self._on_claim = on_claim
        self._conn: "asyncpg.Connection | None" = None
        self._owned: OrderedDict[str, None] = OrderedDict()  # least recently used first
        # one statement at a time on the connection: a worker's drainer and its adoption loop
        # claim at once (asyncpg refuses a second operation in progress on one connection)
        self._sql = asyncio.Lock()

    @property
    def owned(self) -> list[str]:
        return list(self._owned)

    async def _connection(self) -> "asyncpg.Connection":
        if self._conn is not None and self._conn.is_closed():
            self._lost()
        if self._conn is None:
            import asyncpg

            self._conn = await asyncpg.connect(self._url)
        return self._conn

    def _lost(self) -> None:
        """The connection ended: the server has dropped every claim."""
        self._conn = None
        for chat in list(self._owned):
            self._drop(chat)

    def _drop(self, chat: str) -> None:
        self._owned.pop(chat, None)
        self._on_release(chat)

    async def claim(self, chat: str) -> bool:
        """Own ``chat`` (or keep owning it); ``False`` if another worker owns it. Claims beyond
        ``kept`` are released, the least recently used first."""
        async with self._sql:
            conn = await self._connection()
            if chat in self._owned:
                self._owned.move_to_end(chat)
                return True
            try:
                took = await conn.fetchval("SELECT pg_try_advisory_lock($1, hashtext($2))",
                                           CHAT_LOCK, chat)
            except BaseException:
                if conn.is_closed():
                    self._lost()
                raise
            if not took:
                return False
            self._owned[chat] = None
        while len(self._owned) > self._kept:
            await self.release(next(iter(self._owned)))
        if self._on_claim is not None:
            try:
                await self._on_claim(chat)
            except Exception:  # noqa: BLE001 - the chat is owned; its updates still get applied
                log.exception("taking over %s", chat)
        return True

    async def release(self, chat: str) -> None:
        """Stop owning ``chat`` (another worker may claim it)."""
        if chat not in self._owned:
            return
        self._drop(chat)
        async with self._sql:
            if self._conn is not None and not self._conn.is_closed():
                await self._conn.fetchval("SELECT pg_advisory_unlock($1, hashtext($2))", CHAT_LOCK, chat)

    def alive(self) -> bool:
        """Whether the claims still hold (their connection is open)."""
        return self._conn is not None and not self._conn.is_closed()

    async def close(self) -> None:
        """Release every claim (the connection closes)."""
        conn, self._conn = self._conn, None
        for chat in list(self._owned):
            self._drop(chat)
        if conn is not None:
            await conn.close()


class Drainer:
    """A worker's loop over the inbox: :meth:`round` applies what waits in the chats it owns or
    can claim; :meth:`run` repeats it, sleeping ``idle`` seconds after a round with nothing."""

    def __init__(self, store: PgStore, claims: ChatClaims, apply: Apply, *,
                 batch: int = 100, prefix: str = "") -> None:
        self.store = store
        self.claims = claims
        self._apply = apply
        self._batch = batch
        self._prefix = prefix  # one platform's chats only ("dc:": bot.discord.shards)

    async def round(self) -> int:
        """One pass over the chats with waiting updates. Returns the updates applied here."""
        applied = 0
        for chat in await self.store.inbox_chats(prefix=self._prefix):
            if not await self.claims.claim(chat):
                continue  # another worker's
            for update_id, payload in await self.store.inbox_waiting(chat, self._batch):
                if not self.claims.alive():
                    return applied  # lost them all: claim again at the next round
                update = Applying(update_id)
                token = applying.set(update)
                try:
                    try:
                        await self._apply(chat, update_id, payload)
                    except AlreadyApplied:
                        raise
                    except Exception:  # noqa: BLE001 - one bad update never stops its chat
                        log.exception("inbox update %s of %s failed: dropped", update_id, chat)
                    if not update.consumed:  # refused, failed, or only read: nothing logged
                        await self.store.inbox_done(update_id)
                except AlreadyApplied:
                    log.warning("inbox update %s was applied by another worker", update_id)
                    await self.claims.release(chat)
                    break
                finally:
                    applying.reset(token)
                applied += 1
        return applied

    async def run(self, idle: float = 0.05) -> None:
        """Drain until cancelled."""
        while True:
            if not await self.round():
                await asyncio.sleep(idle)
