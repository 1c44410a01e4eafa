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

**A database restart drops no update** (issue 32). An update whose transition the database could
not take — a restart, a failover, the network to it cut (:func:`unreachable`) — is not answered
as failed by the handlers (:func:`kept`: they say nothing) and stays in the inbox: the drainer
lets its chat go (the worker's caches of it dropped) and tries it again once the database
answers, after claiming the chat afresh — applied once, by whichever worker claims it. Its chat's
later updates wait behind it. An update kept :data:`KEPT_TRIES` times while the database answers
the inbox is dropped as a failed one (``on_dropped``: the worker says what to do again).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Collection

from .pg import AlreadyApplied, Applying, PgStore, applying, normal_url

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

#: the advisory lock namespace of a chat's owner (the key: ``hashtext(chat)``)
CHAT_LOCK = 7102
#: the ``application_name`` of a worker's claims connection (with its process id)
CLAIMS_NAME = "mafia-referee claims"
#: chats a worker keeps owning when idle; the least recently used beyond are released
KEPT_CHATS = 1000

#: ``apply(chat, update_id, payload)``: apply one update (its first transition consumes it)
Apply = Callable[[str, int, dict[str, Any]], Awaitable[None]]
#: tries of an update kept for the database (each while the database answered the inbox) before
#: it is dropped as a failed one
KEPT_TRIES = 30
#: seconds the drainer waits after an update was kept before it looks at the inbox again
KEPT_WAIT = 1.0


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` is the database out of reach — its server restarting or shutting down,
    a connection refused, cut or timed out — rather than a refusal of what was asked (asyncpg's
    connection and operator-intervention errors, a closed connection; a connection error or a
    timeout that is not an HTTP client's: a platform's calls raise their own)."""
    import aiohttp
    import asyncpg

    if isinstance(error, (asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError,
                          asyncpg.AdminShutdownError, asyncpg.CrashShutdownError)):
        return True
    if isinstance(error, asyncpg.InterfaceError):
        return "closed" in str(error)  # "connection is closed", "pool is closed" is ours
    return isinstance(error, (ConnectionError, TimeoutError)) \
        and not isinstance(error, aiohttp.ClientError)


def kept(error: BaseException) -> bool:
    """Whether the inbox update being applied (:data:`storage.pg.applying`), if a drainer keeps
    its updates (``Drainer(keep=True)``), is kept for the database: ``error`` is the database out
    of reach (:func:`unreachable`) before the update was consumed. It is then noted on the
    update, and the caller (a handler's catch-all) answers nothing: the update is applied again
    once the database answers, and the worker tells the user so (``on_kept``)."""
    update = applying.get()
    if update is None or not update.keep or update.consumed or not unreachable(error):
        return False
    update.kept = True
    return True


class ChatClaims:
    """The home chats this worker owns: a session advisory lock each, on one connection (one
    statement at a time on it: the drainer, the adopting loop and the outbox's senders claim).
    ``on_release(chat)`` is called for each chat released or lost (the connection ended);
    ``on_claim(chat)`` is awaited for each chat newly claimed (e.g. to arm its timers and send its
    outbox: what the worker that owned it before may have left); ``busy()``: the chats not to
    release for room (a hosted table runs there: releasing it would stop its deadlines until
    another worker adopts it), whatever ``kept`` says."""

    def __init__(self, url: str, *, kept: int = KEPT_CHATS,
                 on_release: Callable[[str], None] | None = None,
                 on_claim: Callable[[str], Awaitable[None]] | None = None,
                 busy: Callable[[], Collection[str]] | None = None) -> None:
        self._url = normal_url(url)
        self._kept = kept
        self._on_release = on_release or (lambda chat: None)
        self._on_claim = on_claim
        self._busy = busy or (lambda: ())
        self._conn: "asyncpg.Connection | None" = None
        self._owned: OrderedDict[str, None] = OrderedDict()  # least recently used first
        self._lock = asyncio.Lock()  # one statement at a time on the connection
        #: chats claimed whose ``on_claim`` runs: another caller's claim waits for it to end
        #: (an update is not applied to a hosted table while the table is being read afresh)
        self._taking: dict[str, asyncio.Future[None]] = {}

    @property
    def owned(self) -> list[str]:
        return list(self._owned)

    async def _connection(self) -> "asyncpg.Connection":
        if self._conn is not None and self._conn.is_closed():
            self._lost()
        if self._conn is None:
            import asyncpg

            self._conn = await asyncpg.connect(  # who owns what: pg_locks, pg_stat_activity
                self._url, server_settings={"application_name": f"{CLAIMS_NAME} {os.getpid()}"})
        return self._conn

    def _lost(self) -> None:
        """The connection ended: the server has dropped every claim."""
        self._conn = None
        for chat in list(self._owned):
            self._drop(chat)

    def _drop(self, chat: str) -> None:
        self._owned.pop(chat, None)
        self._on_release(chat)

    def owns(self, chat: str) -> bool:
        """Whether this worker owns ``chat`` as far as it knows (:meth:`check` finds out)."""
        return chat in self._owned

    async def claim(self, chat: str) -> bool:
        """Own ``chat`` (or keep owning it); ``False`` if another worker owns it. Claims beyond
        ``kept`` are released, the least recently used first (but the busy ones). A chat claimed
        just now by another caller is returned once its ``on_claim`` has ended."""
        async with self._lock:
            conn = await self._connection()
            if chat in self._owned:
                self._owned.move_to_end(chat)
                taking = self._taking.get(chat)
                taken = None
            else:
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
                taking = None
                taken = self._taking[chat] = asyncio.get_running_loop().create_future()
                excess = len(self._owned) - self._kept
                if excess > 0:
                    busy = self._busy()
                    for old in [c for c in self._owned if c != chat and c not in busy][:excess]:
                        await self._release(old)
        if taken is None:  # owned already; if another caller is taking it over, once it has
            if taking is not None:
                await asyncio.shield(taking)
            return True
        try:
            if self._on_claim is not None:
                await self._on_claim(chat)
        except Exception:  # noqa: BLE001 - the chat is owned; its updates still get applied
            log.exception("taking over %s", chat)
        finally:
            del self._taking[chat]
            taken.set_result(None)
        return True

    async def release(self, chat: str) -> None:
        """Stop owning ``chat`` (another worker may claim it)."""
        async with self._lock:
            await self._release(chat)

    async def _release(self, chat: str) -> None:
        if chat not in self._owned:
            return
        self._drop(chat)
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.fetchval("SELECT pg_advisory_unlock($1, hashtext($2))", CHAT_LOCK, chat)

    def alive(self) -> bool:
        """Whether the claims still hold (their connection is open)."""
        return self._conn is not None and not self._conn.is_closed()

    async def check(self, timeout: float = 10.0) -> bool:
        """Whether the claims still hold, asking the server: a connection that does not answer
        within ``timeout`` seconds is given up — every claim released here (``on_release``), as
        the server drops them when it sees the connection end — so that a worker cut off from
        the database stops the deadlines of chats another worker may be claiming."""
        async with self._lock:
            conn = self._conn
            if conn is None or conn.is_closed():
                if conn is not None:
                    self._lost()
                return False
            try:
                await asyncio.wait_for(conn.fetchval("SELECT 1"), timeout)
            except Exception:  # noqa: BLE001 - cut off, whatever the error
                conn.terminate()
                self._lost()
                return False
            return True

    async def close(self) -> None:
        """Release every claim (the connection closes)."""
        async with self._lock:
            conn, self._conn = self._conn, None
            for chat in list(self._owned):
                self._drop(chat)
            if conn is not None:
                await conn.close()


class Drainer:
    """A worker's loop over the inbox: :meth:`round` applies what waits in the chats it owns or
    can claim; :meth:`run` repeats it, sleeping ``idle`` seconds after a round with nothing."""

    def __init__(self, store: PgStore, claims: ChatClaims, apply: Apply, *,
                 batch: int = 100, prefix: str = "", keep: bool = False,
                 on_dropped: Apply | None = None) -> None:
        """``keep``: an update the database could not take is kept in the inbox and tried again
        (:func:`kept`); ``on_dropped(chat, update_id, payload)``: awaited for one kept
        :data:`KEPT_TRIES` times and dropped."""
        self.store = store
        self.claims = claims
        self._apply = apply
        self._batch = batch
        self._prefix = prefix  # one platform's chats only ("dc:": bot.discord.shards)
        self._keep = keep
        self._on_dropped = on_dropped
        self._tries: dict[int, int] = {}  # update id -> the times it was kept
        self._held = False  # the last round stopped at a kept update

    async def round(self) -> int:
        """One pass over the chats with waiting updates. Returns the updates applied here."""
        applied = 0
        self._held = False
        for chat in await self.store.inbox_chats(prefix=self._prefix):
            if not await self.claims.claim(chat):
                continue  # another worker's
            for update_id, payload in await self.store.inbox_waiting(chat, self._batch):
                if not self.claims.alive():
                    return applied  # lost them all: claim again at the next round
                update = Applying(update_id, keep=self._keep)
                token = applying.set(update)
                try:
                    try:
                        await self._apply(chat, update_id, payload)
                    except AlreadyApplied:
                        raise
                    except Exception as error:  # noqa: BLE001 - one bad update never stops its chat
                        if not kept(error):
                            log.exception("inbox update %s of %s failed: dropped", update_id, chat)
                    if update.kept and not update.consumed:
                        if await self._kept(chat, update_id):
                            return applied  # its chat's later updates wait behind it
                        if self._on_dropped is not None:  # kept too often: dropped
                            await self._on_dropped(chat, update_id, payload)
                    else:
                        self._tries.pop(update_id, None)
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

    async def _kept(self, chat: str, update_id: int) -> bool:
        """Update ``update_id`` of ``chat`` was kept for the database (:func:`kept`): ``True``
        while it is tried again — its chat let go (this worker's caches of it dropped; claimed
        afresh at the next round, before the update is tried again) —, ``False`` once it was
        kept :data:`KEPT_TRIES` times (then dropped as failed)."""
        tries = self._tries[update_id] = self._tries.get(update_id, 0) + 1
        if tries >= KEPT_TRIES:
            del self._tries[update_id]
            log.error("inbox update %s of %s: the database was out of reach at %d tries: dropped",
                      update_id, chat, tries)
            return False
        log.warning("inbox update %s of %s: the database is out of reach; kept, tried again "
                    "once it answers", update_id, chat)
        self._held = True
        try:
            await self.claims.release(chat)
        except Exception:  # noqa: BLE001 - the claims' connection is gone too: so are its claims
            log.info("releasing %s: the claims' connection is gone", chat)
        return True

    async def run(self, idle: float = 0.05) -> None:
        """Drain until cancelled (after an update kept for the database, :data:`KEPT_WAIT`
        seconds between two rounds)."""
        while True:
            if not await self.round():
                await asyncio.sleep(KEPT_WAIT if self._held else idle)


class SendBudget:
    """The send budget one bot's workers share (Telegram: about 30 messages a second per token,
    whichever process sends them): a token bucket in the ``send_budget`` row of ``key`` (0009),
    ``rate`` sends a second, at most ``burst`` saved up. :meth:`take` takes one send in ONE
    statement (the row's lock orders the workers' takes) and says how long to wait before it:
    a send past the budget is reserved ahead (the bucket goes below 0), so the workers' sends
    together never pass ``burst + rate × T`` in any ``T`` seconds, and none is refused. The
    clock is ``clock()`` (unix seconds; the workers' clocks are assumed in step, as NTP keeps
    them): a test passes its own."""

    def __init__(self, pool: "Callable[[], asyncpg.Pool]", key: str, rate: float,
                 burst: float | None = None, *, clock: Callable[[], float] = time.time) -> None:
        if rate <= 0:
            raise ValueError(f"rate must be positive, got {rate}")
        self._pool = pool
        self.key = key
        self.rate = float(rate)
        self.burst = float(burst if burst is not None else rate)
        self.clock = clock
        self._left = (self.burst, 0.0)  # (tokens, at) as last reckoned here

    async def take(self) -> float:
        """Take one send; returns the seconds to wait before it (0: at once)."""
        now = self.clock()
        tokens = float(await self._pool().fetchval(
            "INSERT INTO send_budget(bot, tokens, at) VALUES ($1, $3 - 1, $2)"
            " ON CONFLICT (bot) DO UPDATE SET"
            " tokens = LEAST($3, send_budget.tokens"
            " + GREATEST($2 - send_budget.at, 0) * $4) - 1,"
            " at = GREATEST($2, send_budget.at)"
            " RETURNING tokens", self.key, now, self.burst, self.rate))
        self._left = (tokens, now)
        return max(0.0, -tokens / self.rate)

    def left(self) -> float:
        """The sends left in the bucket as last reckoned here, refilled since (other workers'
        sends since then unknown): an estimate, for a send that may be skipped."""
        tokens, at = self._left
        return min(self.burst, tokens + max(0.0, self.clock() - at) * self.rate)
