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

SQL is written once with SQLite's ``?`` placeholders where it is portable and numbered (``$1``)
here by :func:`_sql`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Mapping, Sequence, TypeVar

from . import club

from .migrate import MigrationError, NewerSchema, bundled
from .web import WebMethods
from .store import (
    _GAME_COLUMNS, _OUTBOX_COLUMNS, PRUNE_AFTER, EventRow, GameRow, HostMethods, HostStepRow,
    NoSuchGame, OutboxItem, OutboxRow, Snapshot, StaleRevision, StorageError, _dumps, _game_row,
    _message_key, _outbox_row, host_assignments, host_step_insert,
)

if TYPE_CHECKING:
    import asyncpg

#: advisory lock keys: (namespace, id) — the schema's migration, a game's transitions
_MIGRATE_LOCK = (7100, 0)
_GAME_LOCK = 7101

_PLACEHOLDER = re.compile(r"\?")
_T = TypeVar("_T")


@lru_cache(maxsize=512)
def _sql(query: str) -> str:
    """SQLite's ``?`` placeholders numbered ``$1``, ``$2`` … (our SQL has no ``?`` in literals)."""
    count = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", query)


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


def redacted(url: str) -> str:
    """``url`` without its password (``postgresql://user:***@host/db``): what messages and logs
    may show."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(normal_url(url))
    if parts.password is None:
        return urlunsplit(parts)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


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
    (:func:`_sql`) and awaited there, one at a time (the thread waits for each)."""

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
        query = _sql(query)
        if query.lstrip().upper().startswith(("SELECT", "WITH")) or " RETURNING " in query.upper():
            rows = self._run(self._conn.fetch(query, *params))
            return _Cursor(rows, len(rows))
        status = self._run(self._conn.execute(query, *params))
        tail = str(status).rsplit(" ", 1)[-1]
        return _Cursor([], int(tail) if tail.isdigit() else -1)

    def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        self._run(self._conn.executemany(_sql(query), list(rows)))


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


#: the inbox update this task applies, if any (see :class:`Applying`)
applying: ContextVar["Applying | None"] = ContextVar("applying", default=None)


class AlreadyApplied(StorageError):
    """Inbox update ``update_id`` is applied already (or was never stored): the transition
    meant to apply it is rolled back."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"inbox update {update_id} is applied already")
        self.update_id = update_id


class PgStore(HostMethods, club.ClubMethods, WebMethods):
    """The game store on PostgreSQL. Open with ``await PgStore.open(url)`` and always
    :meth:`close` it. The methods, their arguments, results and errors are
    :class:`storage.Store`'s (see there)."""

    backend = "postgresql"

    def __init__(self, pool: "asyncpg.Pool", url: str) -> None:
        self._pool: "asyncpg.Pool | None" = pool
        self.url = url
        self._queued: dict[str, int] = {}  # chat -> outbox rows committed for it (this process)
        self.prune_after = PRUNE_AFTER

    # --- life cycle ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, *, pool_size: int = 4) -> "PgStore":
        """Connect to ``url`` (a pool of up to ``pool_size`` connections) and migrate."""
        import asyncpg

        url = normal_url(url)
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        assert pool is not None
        try:
            async with pool.acquire() as conn:
                await migrate(conn, redacted(url))
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, url)
        await store._opened()  # 0011: the roster's keys, before any read
        return store

    async def close(self) -> None:
        """Close the pool (idempotent)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> "PgStore":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def pool(self) -> "asyncpg.Pool":
        if self._pool is None:
            raise StorageError("the store is closed")
        return self._pool

    @asynccontextmanager
    async def _write(self, *, fenced: bool = False) -> AsyncIterator["asyncpg.Connection"]:
        """One transaction: committed on leaving the block, rolled back on any error. ``fenced``
        (a write a user's update makes: a new game, a link, a take over): the inbox update being
        applied (:data:`applying`), if not consumed yet, is consumed in it — :class:`AlreadyApplied`
        (nothing written) if a worker applied it first."""
        update = applying.get() if fenced else None
        if update is not None and update.consumed:
            update = None
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                if update is not None:
                    await self._consume(conn, update.update_id, time.time())
                yield conn
        if update is not None:
            update.consumed = True

    async def _fetch(self, query: str, *params: Any) -> list[Any]:
        return await self.pool.fetch(_sql(query), *params)

    async def _row(self, query: str, *params: Any) -> Any:
        return await self.pool.fetchrow(_sql(query), *params)

    @staticmethod
    async def _update_game(conn: "asyncpg.Connection", game_id: int, assignments: str,
                           params: tuple[Any, ...]) -> None:
        status = await conn.execute(_sql(f"UPDATE games SET {assignments} WHERE id = ?"),
                                    *params, game_id)
        if status.endswith(" 0"):
            raise NoSuchGame(game_id)

    # --- games --------------------------------------------------------------------------------
    async def create_game(self, chat: str, judge: str, config: Mapping[str, Any],
                          names: Mapping[int, str], *, announce: str | None = None,
                          abandon: int | None = None,
                          outbox: Callable[[int], Sequence[OutboxItem]] | None = None,
                          tournament: tuple[int, int] | None = None) -> int:
        """As :meth:`storage.Store.create_game` (the tournament's row in the same transaction)."""
        at = time.time()
        async with self._write(fenced=True) as conn:
            if abandon is not None:
                await self._update_game(conn, abandon, "finished_at = ?, result = ?",
                                        (time.time(), "abandoned"))
            await conn.execute(
                "INSERT INTO chats(chat) VALUES ($1) ON CONFLICT(chat) DO NOTHING", chat)
            game_id = int(await conn.fetchval(
                "INSERT INTO games(chat, judge, config, names, announce, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                chat, judge, _dumps(dict(config)), _dumps({str(k): v for k, v in names.items()}),
                announce, at))
            await conn.execute("UPDATE chats SET current_game = $1 WHERE chat = $2", game_id, chat)
            if tournament is not None:
                await self._club(lambda db: club.start_game_sync(db, *tournament, game_id), conn)
            items = list(outbox(game_id)) if outbox is not None else []
            for item in items:
                await self._enqueue(conn, item, game_id, at)
            await self._prune(conn, at - self.prune_after, chat)
        self._bump([item.chat for item in items])
        return game_id

    @staticmethod
    async def _prune(conn: "asyncpg.Connection", before: float, chat: str | None) -> int:
        games = ("SELECT id FROM games WHERE finished_at < $1" + (" AND chat = $2" if chat else ""))
        params = (before, chat) if chat else (before,)
        status = await conn.execute(
            f"DELETE FROM outbox WHERE state = 'sent' AND game_id IN ({games})", *params)
        await conn.execute(f"DELETE FROM snapshots WHERE game_id IN ({games})", *params)
        return int(status.rsplit(" ", 1)[1])

    async def prune(self, before: float | None = None) -> int:
        """:meth:`storage.Store.prune`; also the inbox's updates applied before ``before``
        (a redelivery comes within seconds, never an hour later)."""
        before = time.time() - self.prune_after if before is None else before
        async with self._write() as conn:
            await conn.execute("DELETE FROM inbox WHERE done_at < $1", before)
            return await self._prune(conn, before, None)

    async def current_game(self, chat: str) -> GameRow | None:
        row = await self._row(f"SELECT {_GAME_COLUMNS} FROM chats c JOIN games g"
                              " ON g.id = c.current_game WHERE c.chat = ?", chat)
        return _game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._row(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", game_id)
        return _game_row(row) if row else None

    async def open_games(self) -> list[GameRow]:
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM chats c JOIN games g"
                                 " ON g.id = c.current_game WHERE g.finished_at IS NULL"
                                 " AND g.quarantine IS NULL ORDER BY g.id")
        return [_game_row(r) for r in rows]

    async def set_judge(self, game_id: int, judge: str) -> None:
        async with self._write() as conn:
            await self._update_game(conn, game_id, "judge = ?", (judge,))

    async def finish(self, game_id: int, result: str | None) -> None:
        async with self._write() as conn:
            await self._update_game(conn, game_id, "finished_at = ?, result = ?", (time.time(), result))

    async def reopen(self, game_id: int) -> None:
        async with self._write() as conn:
            await self._update_game(conn, game_id, "finished_at = NULL, result = NULL", ())

    async def quarantine(self, game_id: int, why: Mapping[str, Any] | None) -> None:
        text = None if why is None else _dumps(dict(why))
        async with self._write() as conn:
            await self._update_game(conn, game_id, "quarantine = ?, timer = NULL", (text,))

    # --- the log ------------------------------------------------------------------------------
    async def append(self, game_id: int, seq: int, event: Mapping[str, Any], actor: str) -> None:
        await self.append_many(game_id, seq, [event], actor)

    # --- a club's roster and its players' figures (0006, storage/club.py) ----------------------
    async def _club(self, work: Callable[[Any], _T], conn: "asyncpg.Connection | None" = None) -> _T:
        """Run one of :mod:`storage.club`'s functions on PostgreSQL: in ``conn``'s transaction
        (an action's, see :meth:`append_many`) or else in one of its own. The function is the
        SQLite store's own (plain, portable SQL): it runs in a worker thread on a
        :class:`_Bridge`, whose every statement is awaited on this event loop."""
        if conn is not None:
            return await _bridged(work, conn)
        async with self._write() as own:
            return await _bridged(work, own)

    async def _club_read(self, work: Callable[[Any], _T]) -> _T:
        return await self._club(work)

    async def _club_write(self, work: Callable[[Any], _T]) -> _T:
        return await self._club(work)

    async def append_many(
        self, game_id: int, seq: int, events: Sequence[Mapping[str, Any]], actor: str, *,
        finished: bool | None = None, result: str | None = None,
        outbox: Sequence[OutboxItem] = (),
        timer: Callable[[list[int]], Mapping[str, Any] | None] | None = None,
        snapshot: Snapshot | None = None,
        figures: Sequence[Mapping[str, Any]] | None = None,
        inbox: int | None = None,
    ) -> list[int]:
        """As :meth:`storage.Store.append_many`: ``figures`` (a finished game's players' rows,
        issue 17) are replaced in the same transaction (:func:`storage.club.figures_sync`). With
        ``inbox`` (the shared workers, :mod:`storage.shared`) the inbox update it applies is marked
        done in the same transaction — :class:`AlreadyApplied` (nothing logged) if a worker applied
        it first; without it, the update being applied in this task (:data:`applying`), if not
        consumed yet."""
        import asyncpg

        current_update = applying.get() if inbox is None else None
        if current_update is not None and not current_update.consumed:
            inbox = current_update.update_id
        else:
            current_update = None

        at = time.time()
        rows = [(game_id, seq + i, _dumps(dict(e)), actor, at) for i, e in enumerate(events)]
        try:
            async with self._write() as conn:
                # one game's transitions, one at a time across every worker (until COMMIT)
                await conn.execute("SELECT pg_advisory_xact_lock($1, hashint8($2))",
                                   _GAME_LOCK, game_id)
                exists, current = await conn.fetchrow(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1),"
                    " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1)", game_id)
                if not exists:
                    raise NoSuchGame(game_id)
                if seq != current + 1:
                    raise StaleRevision(game_id, seq, current)
                if rows:
                    await conn.executemany("INSERT INTO events(game_id, seq, event, actor, at)"
                                           " VALUES ($1, $2, $3, $4, $5)", rows)
                if finished is True:
                    await self._update_game(conn, game_id, "finished_at = ?, result = ?", (at, result))
                elif finished is False:
                    await self._update_game(conn, game_id, "finished_at = NULL, result = NULL", ())
                if inbox is not None:
                    await self._consume(conn, inbox, at)
                ids = [await self._enqueue(conn, item, game_id, at) for item in outbox]
                if figures is not None:
                    await self._club(lambda db: club.figures_sync(db, game_id, figures, at), conn)
                if snapshot is not None:
                    await conn.execute(
                        "INSERT INTO snapshots(game_id, seq, standing, version, state)"
                        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT(game_id) DO UPDATE SET"
                        " seq = excluded.seq, standing = excluded.standing,"
                        " version = excluded.version, state = excluded.state",
                        game_id, snapshot.seq, snapshot.standing, snapshot.version,
                        snapshot.state if isinstance(snapshot.state, str) else _dumps(snapshot.state))
                if timer is not None:
                    value = timer(ids)
                    await self._update_game(conn, game_id, "timer = ?",
                                            (None if value is None else _dumps(dict(value)),))
        except asyncpg.UniqueViolationError:  # a writer without the lock logged first
            current = await self.pool.fetchval(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1", game_id)
            raise StaleRevision(game_id, seq, int(current)) from None
        if current_update is not None:
            current_update.consumed = True
        self._bump([item.chat for item in outbox])
        return ids

    # --- the shared workers' inbox (storage/shared.py) ----------------------------------------
    async def inbox_put(self, update_id: int, chat: str, payload: Mapping[str, Any]) -> bool:
        """Store update ``update_id`` for home chat ``chat`` to be applied by its owner; ``False``
        (nothing changed) if it is stored already — a redelivered update is applied once."""
        status = await self.pool.execute(
            "INSERT INTO inbox(update_id, chat, payload, at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (update_id) DO NOTHING", update_id, chat, _dumps(dict(payload)),
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

    async def game_log(self, game_id: int, version: str
                       ) -> tuple[int, list[tuple[int, str]], Snapshot | None]:
        async with self.pool.acquire() as conn:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                found = await conn.fetchrow("SELECT seq, standing, version, state FROM snapshots"
                                            " WHERE game_id = $1", game_id)
                snap = None if found is None else Snapshot(*found)
                after = snap.seq if snap is not None and snap.version == version else 0
                count = await conn.fetchval(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1", game_id)
                rows = await conn.fetch("SELECT seq, event FROM events WHERE game_id = $1"
                                        " AND seq > $2 ORDER BY seq", game_id, after)
        return int(count), [(r[0], r[1]) for r in rows], snap

    async def event_texts(self, game_id: int, upto: int) -> list[tuple[int, str]]:
        rows = await self._fetch("SELECT seq, event FROM events WHERE game_id = ? AND seq <= ?"
                                 " ORDER BY seq", game_id, upto)
        return [(r[0], r[1]) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._fetch(
            "SELECT seq, event, actor, at FROM events WHERE game_id = ? ORDER BY seq", game_id)
        return [EventRow(seq=r[0], event=json.loads(r[1]), actor=r[2], at=r[3]) for r in rows]

    # --- chats --------------------------------------------------------------------------------
    async def set_lang(self, chat: str, lang: str) -> None:
        await self.pool.execute("INSERT INTO chats(chat, lang) VALUES ($1, $2)"
                                " ON CONFLICT(chat) DO UPDATE SET lang = excluded.lang", chat, lang)

    async def lang(self, chat: str) -> str | None:
        return await self.pool.fetchval("SELECT lang FROM chats WHERE chat = $1", chat)

    async def set_alias(self, chat: str, home: str | None) -> None:
        if home == chat:
            raise StorageError(f"a chat cannot be its own alias: {chat}")
        async with self._write(fenced=True) as conn:
            if home is not None:
                await conn.execute(
                    "INSERT INTO chats(chat) VALUES ($1) ON CONFLICT(chat) DO NOTHING", home)
            await conn.execute("INSERT INTO chats(chat, home) VALUES ($1, $2)"
                               " ON CONFLICT(chat) DO UPDATE SET home = excluded.home", chat, home)

    async def alias(self, chat: str) -> str | None:
        return await self.pool.fetchval("SELECT home FROM chats WHERE chat = $1", chat)

    async def aliases_of(self, home: str) -> list[str]:
        rows = await self._fetch("SELECT chat FROM chats WHERE home = ? ORDER BY chat", home)
        return [r[0] for r in rows]

    # --- a game's announce chat, message ids and timer ----------------------------------------
    async def set_announce(self, game_id: int, chat: str | None) -> None:
        async with self._write() as conn:
            await self._update_game(conn, game_id, "announce = ?", (chat,))

    async def announce(self, game_id: int) -> str | None:
        return await self.pool.fetchval("SELECT announce FROM games WHERE id = $1", game_id)

    @staticmethod
    async def _messages(conn: "asyncpg.Connection", game_id: int, *, lock: bool) -> dict[str, int]:
        raw = await conn.fetchrow("SELECT messages FROM games WHERE id = $1"
                                  + (" FOR UPDATE" if lock else ""), game_id)
        if raw is None:
            raise NoSuchGame(game_id)
        return {str(k): int(v) for k, v in json.loads(raw[0] or "{}").items()}

    async def set_message(self, game_id: int, chat: str, slot: str, message_id: int | None) -> None:
        key = _message_key(chat, slot)
        async with self._write() as conn:
            stored = await self._messages(conn, game_id, lock=True)
            if message_id is None:
                stored.pop(key, None)
            else:
                stored[key] = int(message_id)
            await self._update_game(conn, game_id, "messages = ?", (_dumps(stored),))

    async def message(self, game_id: int, chat: str, slot: str) -> int | None:
        key = _message_key(chat, slot)
        async with self.pool.acquire() as conn:
            return (await self._messages(conn, game_id, lock=False)).get(key)

    async def messages(self, game_id: int) -> dict[tuple[str, str], int]:
        async with self.pool.acquire() as conn:
            stored = await self._messages(conn, game_id, lock=False)
        out: dict[tuple[str, str], int] = {}
        for key, message_id in stored.items():
            chat, _, slot = key.rpartition(" ")
            out[(chat, slot)] = message_id
        return out

    async def slots_named(self, prefix: str) -> dict[int, dict[tuple[str, str], int]]:
        rows = await self._fetch("SELECT id, messages FROM games WHERE strpos(messages, ?) > 0",
                                 f" {prefix}")
        out: dict[int, dict[tuple[str, str], int]] = {}
        for game_id, raw in rows:
            for key, value in json.loads(raw or "{}").items():
                chat, _, slot = str(key).rpartition(" ")
                if slot.startswith(prefix):
                    out.setdefault(int(game_id), {})[(chat, slot)] = int(value)
        return out

    async def set_timer(self, game_id: int, timer: Mapping[str, Any] | None) -> None:
        text = None if timer is None else _dumps(dict(timer))
        async with self._write() as conn:
            await self._update_game(conn, game_id, "timer = ?", (text,))

    async def timer(self, game_id: int) -> dict[str, Any] | None:
        raw = await self.pool.fetchval("SELECT timer FROM games WHERE id = $1", game_id)
        return json.loads(raw) if raw else None

    async def open_timers(self, prefix: str = "") -> dict[int, dict[str, Any]]:
        rows = await self._fetch(
            "SELECT g.id, g.timer FROM chats c JOIN games g ON g.id = c.current_game"
            " WHERE g.finished_at IS NULL AND g.timer IS NOT NULL AND c.home IS NULL"
            " AND g.quarantine IS NULL AND substr(c.chat, 1, ?) = ? ORDER BY g.id", len(prefix), prefix)
        return {r[0]: json.loads(r[1]) for r in rows}

    # --- the outbox ---------------------------------------------------------------------------
    @staticmethod
    async def _enqueue(conn: "asyncpg.Connection", item: OutboxItem, game_id: int | None,
                       at: float) -> int:
        return int(await conn.fetchval(
            "INSERT INTO outbox(chat, game_id, kind, payload, slot, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            item.chat, game_id, item.kind, _dumps(dict(item.payload)), item.slot, at))

    def queued(self, chat: str) -> tuple[int, int]:
        """As :meth:`storage.Store.queued`: counts this process's commits of rows for ``chat``."""
        return 0, self._queued.get(chat, 0)

    def _bump(self, chats: Sequence[str]) -> None:
        for chat in chats:
            self._queued[chat] = self._queued.get(chat, 0) + 1

    async def enqueue(self, items: Sequence[OutboxItem], game_id: int | None = None) -> list[int]:
        at = time.time()
        async with self._write() as conn:
            ids = [await self._enqueue(conn, item, game_id, at) for item in items]
        self._bump([item.chat for item in items])
        return ids

    async def pending(self, chat: str | None = None) -> list[OutboxRow]:
        if chat is None:
            rows = await self._fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE state = 'pending' ORDER BY id")
        else:
            rows = await self._fetch(f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
                                     " WHERE state = 'pending' AND chat = ? ORDER BY id", chat)
        return [_outbox_row(r) for r in rows]

    async def pending_chats(self) -> list[str]:
        rows = await self._fetch(
            "SELECT chat FROM outbox WHERE state = 'pending' GROUP BY chat ORDER BY MIN(id)")
        return [r[0] for r in rows]

    async def outbox_row(self, row_id: int) -> OutboxRow | None:
        row = await self._row(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ?", row_id)
        return _outbox_row(row) if row else None

    async def mark_sent(self, row_id: int, message_id: int | None = None, *,
                        row: OutboxRow | None = None) -> None:
        await self.mark_sent_many([(row if row is not None else row_id, message_id)])

    async def mark_sent_many(self, sent: Sequence[tuple[OutboxRow | int, int | None]]) -> None:
        if not sent:
            return
        at = time.time()
        async with self._write() as conn:
            stored: dict[int, dict[str, int]] = {}
            for row, message_id in sent:
                row_id = row if isinstance(row, int) else row.id
                found = await conn.fetchrow(
                    "UPDATE outbox SET state = 'sent', sent_at = $1, message_id = $2,"
                    " attempts = attempts + 1 WHERE id = $3 RETURNING chat, game_id, slot, kind",
                    at, message_id, row_id)
                if found is None:
                    raise StorageError(f"no outbox row {row_id}")
                chat, game_id, slot, kind = found
                if kind == "send" and slot and game_id is not None and message_id is not None:
                    if game_id not in stored:
                        stored[game_id] = await self._messages(conn, game_id, lock=True)
                    stored[game_id][_message_key(chat, slot)] = int(message_id)
            for game_id, messages in stored.items():
                await self._update_game(conn, game_id, "messages = ?", (_dumps(messages),))

    async def mark_attempt(self, row_id: int, error: str, *, give_up: bool = False) -> None:
        await self.pool.execute(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1,"
            " state = CASE WHEN $2 THEN 'failed' ELSE state END WHERE id = $3",
            error[:500], give_up, row_id)

    # --- moving games and chats ---------------------------------------------------------------
    async def move_game(self, game_id: int, home: str, judge: str) -> str:
        async with self._write(fenced=True) as conn:
            old = await conn.fetchval("SELECT chat FROM games WHERE id = $1 FOR UPDATE", game_id)
            if old is None:
                raise NoSuchGame(game_id)
            await self._update_game(conn, game_id, "judge = ?", (judge,))
            if old == home:
                return str(old)
            await conn.execute("INSERT INTO chats(chat) VALUES ($1) ON CONFLICT(chat) DO NOTHING", home)
            await conn.execute("UPDATE chats SET home = NULL, current_game = $1 WHERE chat = $2",
                               game_id, home)
            await conn.execute("UPDATE games SET chat = $1 WHERE id = $2", home, game_id)
            await conn.execute("UPDATE chats SET current_game = (SELECT MAX(id) FROM games"
                               " WHERE chat = $1) WHERE chat = $1", old)
            await conn.execute("UPDATE chats SET home = $1 WHERE home = $2 AND chat <> $1", home, old)
        return str(old)

    async def move_chat(self, old: str, new: str) -> None:
        async with self._write() as conn:
            found = await conn.fetchrow("SELECT home, lang FROM chats WHERE chat = $1", old)
            home, lang = (found[0], found[1]) if found else (None, None)
            await conn.execute(
                "INSERT INTO chats(chat, home, lang) VALUES ($1, $2, $3) ON CONFLICT(chat) DO UPDATE"
                " SET home = COALESCE(excluded.home, chats.home),"
                " lang = COALESCE(excluded.lang, chats.lang)", new, home, lang)
            await conn.execute("UPDATE chats SET home = NULL WHERE chat = $1", old)
            await conn.execute("UPDATE games SET announce = $1 WHERE announce = $2", new, old)
            await conn.execute(
                "UPDATE outbox SET chat = $1 WHERE chat = $2 AND state = 'pending'", new, old)

    # --- host mode (0003; the rest: storage.store.HostMethods) ---------------------------------
    async def _host_rows(self, sql: str, *params: Any) -> list[Any]:
        return await self._fetch(sql, *params)

    async def _host_write(self, *statements: tuple[str, Sequence[Any]]) -> list[Any]:
        async with self._write() as conn:
            return [await conn.fetchrow(_sql(sql), *params) for sql, params in statements]

    async def update_host_table(self, table_id: int, *, opened: HostStepRow | None = None,
                                outbox: Sequence[OutboxItem] = (), outbox_game: int | None = None,
                                **fields: Any) -> None:
        sets, params = host_assignments(fields)
        if not sets and opened is None and not outbox:
            return
        async with self._write() as conn:
            if sets:
                status = await conn.execute(
                    _sql(f"UPDATE host_tables SET {', '.join(sets)} WHERE id = ?"), *params, table_id)
                if status.endswith(" 0"):
                    raise StorageError(f"no host table {table_id}")
            if opened is not None:
                sql, values = host_step_insert(table_id, opened)
                await conn.execute(_sql(sql), *values)
            at = time.time()
            for item in outbox:
                await self._enqueue(conn, item, outbox_game, at)
        self._bump([item.chat for item in outbox])


__all__ = ["PgStore", "is_url", "migrate", "normal_url", "redacted", "schema_version", "MigrationError"]
