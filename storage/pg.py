"""The PostgreSQL store (asyncpg): the same tables, rows and methods as :class:`storage.Store`, for
several worker processes (or machines) sharing one database. Chosen by
``MAFIA_REFEREE_DB=postgresql://…`` (:func:`storage.open_store`); nothing above ``storage/`` knows
which backend it has.

What differs from the SQLite store, and why:

* **Many writers.** Every write method is one transaction on a pooled connection; there is no
  group commit (PostgreSQL commits concurrent transactions together by itself) and no in-process
  write lock. A transition (:meth:`PgStore.append_many`) first takes the game's transaction-scoped
  advisory lock (``pg_advisory_xact_lock``), so two workers never interleave one game's rows; the
  revision check is still the insert's own (the next ``seq`` or :class:`StaleRevision`), and a
  primary-key clash of two racing inserts is the same :class:`StaleRevision`.
* **No caches.** Another worker may change a game's timer, message ids or a chat's language at
  any time, so every read goes to the database (one indexed row each).
* **Schema.** ``storage/migrations/postgresql``: SQLite's migrations, number for number
  (:func:`storage.migrate.bundled` checks it), recorded in ``schema_version`` and applied under an
  advisory lock, so workers starting together migrate once.
* **A club's players (0006).** :mod:`storage.club`'s functions are synchronous (SQLite's
  units run them on its own thread); here they run in a worker thread on a :class:`_Bridge`
  whose statements are awaited on the event loop, inside the action's transaction — one copy of
  the queries for both backends.

The methods are written once for both backends (:mod:`storage.games`, :mod:`storage.host`,
:mod:`storage.club`), each a unit of the connection bridge (:mod:`storage.bridge`); this module
runs them — :meth:`PgStore._read_unit`, :meth:`PgStore._write_unit` — with SQLite's SQL numbered
(``$1``) by :func:`storage.bridge.pg_sql`, and adds the shared workers' inbox.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Mapping, Sequence, TypeVar

from .bridge import Step, Unit, drive, pg_sql
from .club import ClubMethods
from .evening import EveningMethods
from .games import GameMethods
from .host import HostMethods
from .migrate import MigrationError, NewerSchema, bundled
from .rows import PRUNE_AFTER, OutboxRow, StaleRevision, StorageError, dumps
from .web import WebMethods

if TYPE_CHECKING:
    import asyncpg

#: advisory lock keys: (namespace, id) — the schema's migration, a game's transitions
_MIGRATE_LOCK = (7100, 0)
_GAME_LOCK = 7101

_T = TypeVar("_T")


def is_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://`` or ``postgres://``; also
    as a :class:`pathlib.Path` made of the URL, which folds ``//`` to ``/``)."""
    text = str(target)
    return text.startswith(("postgresql:/", "postgres:/"))


def normal_url(target: object) -> str:
    """The URL of :func:`is_url`'s ``target`` with its ``//`` restored."""
    text = str(target)
    scheme, _, rest = text.partition(":")
    return f"{scheme}://{rest.lstrip('/')}"


#: ``scheme:/…user:PASSWORD@`` in any text (a URL as given, or folded to ``scheme:/`` by a path);
#: the password runs to the host's ``@``, the last before the path (an ``@`` typed in it too)
_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*:/+[^\s:/@]*:)[^\s/]*@")
#: a URL's scheme at the start of a setting (two letters at least: ``C:/`` is a Windows path)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):/")


def masked(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***`` (``user:***@``),
    whatever the scheme; never raises."""
    return _PASSWORD.sub(r"\1***@", str(text))


def redacted(url: str) -> str:
    """``url`` without its password (``postgresql://user:***@host/db``): what messages and logs
    may show (:func:`masked`; never raises, whether the URL parses or not)."""
    return masked(normal_url(url))


class BadTarget(ValueError):
    """A database setting (``MAFIA_REFEREE_DB``, ``--db``) that names no database this bot can
    open. ``shown``: the value without its password; ``why``: ``"scheme"`` (a URL of another
    kind than ``postgresql://``, ``sqlite:///``), ``"url"`` (a PostgreSQL URL that does not
    parse: its host, its port) or ``"empty"``."""

    def __init__(self, shown: str, why: str) -> None:
        super().__init__(f"not a database ({why}): {shown}")
        self.shown = shown
        self.why = why


def check_target(target: object) -> None:
    """Raise :class:`BadTarget` unless ``target`` is a file path, ``sqlite:///path`` or a
    PostgreSQL URL that parses (a host, a port that is a number). Checked before anything is
    opened or created: a mistyped URL never becomes a file whose name carries its password."""
    from urllib.parse import urlsplit

    text = str(target).strip()
    if not text or text == ".":
        raise BadTarget(text, "empty")
    scheme = _SCHEME.match(text)
    if scheme is None or scheme.group(1).lower() == "sqlite":
        return
    if not is_url(text):
        raise BadTarget(masked(text if "://" in text else text.replace(":/", "://", 1)), "scheme")
    try:
        parts = urlsplit(normal_url(text))
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise BadTarget(redacted(text), "url") from None


async def schema_version(conn: "asyncpg.Connection") -> int:
    """The database's schema version (0: never migrated)."""
    found = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not found:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: "asyncpg.Connection", url: str = "") -> list[int]:
    """Apply the PostgreSQL migrations above the database's version, each in one transaction
    with its ``schema_version`` row, under an advisory lock (several workers starting at once
    migrate once). Returns the numbers applied. Raises :class:`NewerSchema` for a database of a
    newer mafia-referee, changing nothing."""
    ordered = bundled("postgresql")
    await conn.execute("SELECT pg_advisory_lock($1, $2)", *_MIGRATE_LOCK)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                           " version BIGINT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
        version = await schema_version(conn)
        if version > len(ordered):
            raise NewerSchema(url, version, len(ordered))
        applied = []
        for migration in ordered[version:]:
            async with conn.transaction():
                await conn.execute(migration.sql)
                await conn.execute("INSERT INTO schema_version(version, applied_at) VALUES ($1, $2)",
                                   migration.number, time.time())
            applied.append(migration.number)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", *_MIGRATE_LOCK)


class _Cursor:
    """What :mod:`storage.club` reads of an :class:`sqlite3.Cursor`: rows, ``rowcount``."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = [tuple(r) for r in rows]
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return self._rows

    def __iter__(self) -> Any:
        return iter(self._rows)


class _Bridge:
    """An :class:`sqlite3.Connection`'s ``execute``/``executemany`` for a function running in a
    worker thread, on an asyncpg connection owned by ``loop``: each statement is numbered
    (:func:`storage.bridge.pg_sql`) and awaited there, one at a time (the thread waits for each)."""

    def __init__(self, conn: "asyncpg.Connection", loop: asyncio.AbstractEventLoop) -> None:
        self._conn = conn
        self._loop = loop
        self.closed = False  # set when the caller was cancelled: no further statement runs

    def _run(self, coro: Any) -> Any:
        if self.closed:
            coro.close()
            raise StorageError("cancelled")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def execute(self, query: str, params: Sequence[Any] = ()) -> _Cursor:
        query = pg_sql(query)
        if query.lstrip().upper().startswith(("SELECT", "WITH")) or " RETURNING " in query.upper():
            rows = self._run(self._conn.fetch(query, *params))
            return _Cursor(rows, len(rows))
        status = self._run(self._conn.execute(query, *params))
        tail = str(status).rsplit(" ", 1)[-1]
        return _Cursor([], int(tail) if tail.isdigit() else -1)

    def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        self._run(self._conn.executemany(pg_sql(query), list(rows)))


async def _bridged(work: Callable[[Any], _T], conn: "asyncpg.Connection") -> _T:
    """``work(bridge)`` in a worker thread. Cancelled, it lets the thread's statement in flight
    end and stops the thread before the connection's transaction is rolled back and the
    connection goes back to the pool (a thread cannot be cancelled)."""
    bridge = _Bridge(conn, asyncio.get_running_loop())
    running = asyncio.ensure_future(asyncio.to_thread(work, bridge))
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        bridge.closed = True
        await asyncio.wait([running])
        raise


@dataclass
class Applying:
    """The inbox update being applied (:class:`storage.shared.Drainer` sets :data:`applying`):
    the first transition made while applying it consumes it — marks it done in its own
    transaction — whoever above ``storage/`` makes it (the service knows nothing of it)."""

    update_id: int
    consumed: bool = False
    keep: bool = False  # kept in the inbox if the database is out of reach (storage.shared.kept)
    kept: bool = False  # it was: applied again once the database answers


#: the inbox update this task applies, if any (see :class:`Applying`)
applying: ContextVar["Applying | None"] = ContextVar("applying", default=None)


class AlreadyApplied(StorageError):
    """Inbox update ``update_id`` is applied already (or was never stored): the transition
    meant to apply it is rolled back."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"inbox update {update_id} is applied already")
        self.update_id = update_id


class PgStore(GameMethods, HostMethods, ClubMethods, WebMethods, EveningMethods):
    """The game store on PostgreSQL. Open with ``await PgStore.open(url)`` and always
    :meth:`close` it. The methods, their arguments, results and errors are
    :class:`storage.Store`'s: one text (:mod:`storage.games`, :mod:`storage.host`,
    :mod:`storage.club`)."""

    backend = "postgresql"
    _PRUNED_TOO = ("DELETE FROM inbox WHERE done_at < ?",)  # applied an hour ago: no redelivery

    def __init__(self, pool: "asyncpg.Pool", url: str) -> None:
        self._pool: "asyncpg.Pool | None" = pool
        self.url = url
        self._queued: dict[str, int] = {}  # chat -> outbox rows committed for it (this process)
        self._fresh: dict[str, tuple[int, list[OutboxRow]]] = {}  # those rows (queued_since)
        self.prune_after = PRUNE_AFTER

    # --- life cycle ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, *, pool_size: int = 4) -> "PgStore":
        """Connect to ``url`` (a pool of up to ``pool_size`` connections) and migrate."""
        import asyncpg

        url = normal_url(url)
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        assert pool is not None

        async def prepare() -> None:
            async with pool.acquire() as conn:
                await migrate(conn, redacted(url))

        return await cls(pool, url)._opened(prepare)

    async def close(self) -> None:
        """Close the pool (idempotent)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    @property
    def pool(self) -> "asyncpg.Pool":
        if self._pool is None:
            raise StorageError("the store is closed")
        return self._pool

    @asynccontextmanager
    async def _write(self) -> AsyncIterator["asyncpg.Connection"]:
        """One transaction: committed on leaving the block, rolled back on any error."""
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                yield conn

    # --- the log: what PostgreSQL adds to GameMethods.append_many ------------------------------
    async def append_many(self, game_id: int, seq: int, events: Sequence[Mapping[str, Any]],
                          actor: str, *, inbox: int | None = None, **options: Any) -> list[int]:
        """As :meth:`storage.games.GameMethods.append_many` (its ``options``). With ``inbox``
        (the shared workers, :mod:`storage.shared`) that inbox update is the one marked done in
        the same transaction — :class:`AlreadyApplied` (nothing logged) if a worker applied it
        first; without it, the update being applied in this task (:data:`applying`), if not
        consumed yet. A primary-key clash of two racing inserts (a writer without the game's
        lock) is :class:`StaleRevision` too."""
        import asyncpg

        token = None if inbox is None else applying.set(Applying(inbox))
        try:
            return await super().append_many(game_id, seq, events, actor, **options)
        except asyncpg.UniqueViolationError:  # a writer without the lock logged first
            current = await self.pool.fetchval(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1", game_id)
            raise StaleRevision(game_id, seq, int(current)) from None
        finally:
            if token is not None:
                applying.reset(token)

    # --- the shared workers' inbox (storage/shared.py) ----------------------------------------
    async def inbox_put(self, update_id: int, chat: str, payload: Mapping[str, Any]) -> bool:
        """Store update ``update_id`` for home chat ``chat`` to be applied by its owner; ``False``
        (nothing changed) if it is stored already — a redelivered update is applied once."""
        status = await self.pool.execute(
            "INSERT INTO inbox(update_id, chat, payload, at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (update_id) DO NOTHING", update_id, chat, dumps(dict(payload)),
            time.time())
        return not status.endswith(" 0")

    async def inbox_chats(self, limit: int = 1000, prefix: str = "") -> list[str]:
        """The chats with updates waiting (at most ``limit``; with ``prefix``, one platform's:
        ``"dc:"``), the longest-waiting first."""
        rows = await self.pool.fetch(
            "SELECT chat FROM inbox WHERE done_at IS NULL AND starts_with(chat, $2) GROUP BY chat"
            " ORDER BY MIN(update_id) LIMIT $1", limit, prefix)
        return [r[0] for r in rows]

    async def inbox_waiting(self, chat: str, limit: int = 100) -> list[tuple[int, dict[str, Any]]]:
        """Chat ``chat``'s waiting updates in update order: ``(update_id, payload)``."""
        rows = await self.pool.fetch(
            "SELECT update_id, payload FROM inbox WHERE chat = $1 AND done_at IS NULL"
            " ORDER BY update_id LIMIT $2", chat, limit)
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def inbox_done(self, update_id: int) -> None:
        """Mark an update applied that consumed nothing (refused, only read, or an unfenced
        write — a language —: a worker killed between it and this may see the update applied
        again); :class:`AlreadyApplied` if a worker marked it first."""
        async with self._write() as conn:
            await self._consume(conn, update_id, time.time())

    @staticmethod
    async def _consume(conn: "asyncpg.Connection", update_id: int, at: float) -> None:
        status = await conn.execute("UPDATE inbox SET done_at = $2 WHERE update_id = $1"
                                    " AND done_at IS NULL", update_id, at)
        if status.endswith(" 0"):
            raise AlreadyApplied(update_id)

    # --- the connection bridge (storage/bridge.py): the hooks of the methods written once -----
    async def _read_unit(self, unit: Unit[_T], *, consistent: bool = False) -> _T:
        """A reading unit on a pooled connection: each statement on its own, or with
        ``consistent`` in one read-only transaction (``REPEATABLE READ``: one snapshot)."""
        async with self.pool.acquire() as conn:
            if not consistent:
                return await drive(unit, lambda step: _step(conn, step))
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await drive(unit, lambda step: _step(conn, step))

    async def _write_unit(self, unit: Unit[_T], then: Callable[[_T], None] | None = None, *,
                          on_loop: bool = False) -> _T:
        """A write unit in one transaction on a pooled connection (always on the loop). Its
        :data:`storage.bridge.FENCE` consumes the inbox update being applied (:data:`applying`),
        if not consumed yet — :class:`AlreadyApplied` (nothing written) if a worker applied it
        first."""
        update = applying.get()
        if update is not None and update.consumed:
            update = None
        fenced = False
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                async def execute(step: Step) -> Any:
                    nonlocal fenced
                    if step.op != "fence":
                        return await _step(conn, step)
                    if update is not None and not fenced:
                        await self._consume(conn, update.update_id, time.time())
                        fenced = True
                    return None

                result = await drive(unit, execute)
        if fenced:
            assert update is not None
            update.consumed = True
        if then is not None:
            then(result)
        return result

    async def _write_step(self, step: Step, then: Callable[[Any], None] | None = None) -> Any:
        """One writing statement on a pooled connection, on its own (atomic)."""
        async with self.pool.acquire() as conn:
            answer = await _step(conn, step)
        if then is not None:
            then(answer)
        return answer


async def _step(conn: "asyncpg.Connection", step: Step) -> Any:
    """Run ``step`` on asyncpg connection ``conn`` (a fence is :meth:`PgStore._write_unit`'s)."""
    op = step.op
    if op == "rows":
        return await conn.fetch(pg_sql(step.sql), *step.params)
    if op == "one":
        return await conn.fetchrow(pg_sql(step.sql), *step.params)
    if op == "count":
        status = await conn.execute(pg_sql(step.sql), *step.params)
        tail = str(status).rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0
    if op == "many":
        await conn.executemany(pg_sql(step.sql), list(step.params))
        return None
    if op == "call":
        fn = step.fn
        assert fn is not None
        return await _bridged(lambda db: fn(db, *step.params), conn)
    if op == "loop":
        assert step.fn is not None
        return step.fn(*step.params)
    if op == "lock":  # one game's transitions, one at a time across every worker (until COMMIT)
        await conn.execute("SELECT pg_advisory_xact_lock($1, hashint8($2))", _GAME_LOCK, *step.params)
    return None


__all__ = ["PgStore", "is_url", "migrate", "normal_url", "redacted", "schema_version", "MigrationError"]
