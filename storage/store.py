"""The SQLite store (aiosqlite, the default): the tables, rows and methods of
:mod:`storage.games`, :mod:`storage.host` and :mod:`storage.club`, written once over the connection
bridge (:mod:`storage.bridge`); this module is SQLite's connection to them.

One :class:`Store` per process, with two aiosqlite connections to the file: a writer and a reader.

* **Writes: group commit.** Every write method is one *unit* under the writer's
  :class:`asyncio.Lock` (coroutines sharing a connection would otherwise interleave their
  statements), inside a ``SAVEPOINT``: a unit that fails is rolled back alone. Units run inside a
  ``BEGIN IMMEDIATE`` transaction that is committed as soon as the units already waiting for the
  lock have run: under load one fsynced ``COMMIT`` acknowledges many units (from many chats), and a
  unit alone commits at once. A write method returns only after ITS commit, so whatever it returns
  is durable (``synchronous=FULL``); a failed commit fails every unit of it. A unit is ONE round
  trip to the writer's thread (:meth:`Store._unit`: the bridge's :func:`storage.bridge.run`
  drives it there) — its ``COMMIT`` too when it is alone (no batch open, no other unit waiting
  for the lock: issue 34), else one more for the batch's —, but one that calls the caller's code
  (a new game's announcements, an :func:`storage.bridge.on_loop` step), which comes back to the
  event loop for it: a round trip before and after each such step (:meth:`Store._write`).
* **Reads** go through the reader connection (WAL: they see only committed rows and never wait
  behind a write), so no reader ever sees a unit that is not yet committed; a read is one round
  trip to its thread. An in-memory database (``":memory:"``, tests) has one connection: a read
  then first commits the open batch.
* **Caches.** The store is its process's only writer (one bot process per database), so the small
  per-game and per-chat values read at every action (a game's announce chat, stored message ids and
  timer; a chat's language) are kept in memory, written through after each commit (the hooks of
  :class:`storage.games.GameMethods`).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable, TypeVar

import aiosqlite

from .bridge import Paused, Unit, run
from .club import ClubMethods
from .evening import EveningMethods
from .games import GameExtras, GameMethods
from .host import HostMethods
from .migrate import migrate, refuse_unknown
from .web import WebMethods
from .rows import (  # the rows are the backends' (storage/rows.py); named here for their importers
    PRUNE_AFTER, RESULTS, EventRow, GameRow, HostStepRow, NoSuchGame, OutboxItem, OutboxRow,
    Snapshot, StaleRevision, StorageError,
)

BUSY_TIMEOUT_MS = 5000

_T = TypeVar("_T")


def sqlite_path(target: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """The file of a ``sqlite:///path`` URL (``sqlite:///relative`` or ``sqlite:////absolute``,
    as SQLAlchemy reads them; ``sqlite:/absolute``, what a :class:`~pathlib.Path` folds a URL
    to); any other ``target`` as it is."""
    text = str(target)
    if text.startswith("sqlite:///"):
        return text[len("sqlite:///"):]
    if text.startswith("sqlite:/"):
        return text[len("sqlite:"):]
    return target


def _savepoint(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], _T]) -> _T:
    """``work(db)`` inside the unit's savepoint, rolled back alone on any error."""
    db.execute("SAVEPOINT unit")
    try:
        result = work(db)
    except BaseException:
        try:
            db.execute("ROLLBACK TO unit")
            db.execute("RELEASE unit")
        except sqlite3.Error:  # SQLite rolled the whole batch back: its COMMIT fails
            pass
        raise
    db.execute("RELEASE unit")
    return result


@dataclass
class _Batch:
    """The units of the open transaction: ``done`` resolves at its COMMIT."""

    done: "asyncio.Future[None]"
    hooks: list[Callable[[], None]] = field(default_factory=list)
    committer: "asyncio.Task[None] | None" = None


async def _connect_reader(path: str | os.PathLike[str]) -> aiosqlite.Connection:
    """The reader connection: autocommit, so every read sees what is committed by then."""
    reader = await aiosqlite.connect(path, isolation_level=None)
    try:
        await reader.execute_fetchall(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        await reader.execute_fetchall("PRAGMA query_only=ON")
    except BaseException:
        await reader.close()
        raise
    return reader


class _WriteLock:
    """The store's write lock (an :class:`asyncio.Lock`, used as ``async with``) that also says
    how many writers wait for it (:attr:`waiting`): the group commit asks whether a unit is
    alone (:meth:`Store._alone`) without reading the lock's private state."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self.waiting = 0  # the writers inside ``async with`` that do not hold the lock yet

    async def __aenter__(self) -> None:
        self.waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self.waiting -= 1

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()


class Store(GameMethods, HostMethods, ClubMethods, WebMethods, EveningMethods):
    """The game store. Open with ``await Store.open(path)`` (or ``async with await Store.open(p)``)
    and always :meth:`close` it."""

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection | None = None) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._reader = reader  # None: reads share the writer (an in-memory database)
        self._lock = _WriteLock()
        self._batch: _Batch | None = None  # the open transaction's units, until its COMMIT
        self._games: dict[int, GameExtras] = {}  # written through after each commit
        self._langs: dict[str, str | None] = {}
        self._epoch = 0  # counts the commits that changed a cached value
        self._queued: dict[str, int] = {}  # chat -> outbox rows committed for it (this process)
        self._fresh: dict[str, tuple[int, list[OutboxRow]]] = {}  # those rows (queued_since)
        self._forgotten = 0  # counts the times the caches were dropped
        self.prune_after = PRUNE_AFTER  # see :meth:`prune`

    # --- life cycle ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> "Store":
        """Open (creating the directories and the file) and migrate the database at ``path``: a
        file path or ``sqlite:///path``; a ``postgresql://…`` URL opens the PostgreSQL store
        instead (:class:`storage.pg.PgStore`: the same methods), so that every entry point takes
        ``MAFIA_REFEREE_DB`` as it is."""
        from .pg import PgStore, is_url

        if is_url(path):
            return await PgStore.open(str(path))  # type: ignore[return-value]
        path = sqlite_path(path)
        if str(path) != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:  # a read-only file system, a file in the way: like SQLite's own
                raise sqlite3.OperationalError(
                    f"cannot create the folder {Path(path).parent}: {error.strerror or error}") from error
            # Probe synchronously first: a path SQLite cannot open (a directory, no write access)
            # then fails here with sqlite3.Error, not inside aiosqlite's worker thread.
            sqlite3.connect(path).close()
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE itself.
        conn = await aiosqlite.connect(path, isolation_level=None)
        store = cls(conn)

        async def prepare() -> None:
            await refuse_unknown(conn)  # a newer schema, another program's file: before any write
            await conn.execute_fetchall("PRAGMA journal_mode=WAL")
            # FULL: in WAL mode NORMAL does not fsync the WAL at each commit, so a power loss can
            # take back transactions that were already acknowledged to the judge. One accepted
            # action is one small commit; the fsync is cheap next to a chat round trip.
            await conn.execute_fetchall("PRAGMA synchronous=FULL")
            await conn.execute_fetchall(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await conn.execute_fetchall("PRAGMA foreign_keys=ON")
            await migrate(conn)
            if str(path) != ":memory:":
                store._reader = await _connect_reader(path)

        return await store._opened(prepare)

    async def close(self) -> None:
        """Close the connections (idempotent); an open batch is committed first."""
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                if self._batch is not None:
                    await self._commit(conn)
                await conn.close()
        reader, self._reader = self._reader, None
        if reader is not None:
            await reader.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The open connection (for migrations and tests)."""
        if self._conn is None:
            raise StorageError("the store is closed")
        return self._conn

    # --- transactions -------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection to read committed rows from (see the module's docstring)."""
        if self._reader is not None:
            self.conn  # raises once the store is closed
            yield self._reader
            return
        async with self._lock:
            conn = self.conn
            if self._batch is not None:
                await self._commit(conn)
            yield conn

    def _open_batch(self) -> _Batch:
        """The open batch, or a new one with its committer (under the write lock; the caller
        says ``BEGIN IMMEDIATE`` before anything else reaches the connection)."""
        if self._batch is None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            # the error is each unit's to raise; retrieved here too, in case none is left
            done.add_done_callback(lambda f: f.cancelled() or f.exception())
            self._batch = _Batch(done)
            self._batch.committer = asyncio.create_task(self._commit_when_idle())
        return self._batch

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One unit of the group commit (see the module's docstring): its statements run under
        the write lock inside a savepoint, rolled back alone on any error (cancellation
        included); on leaving the block the caller waits for the batch's ``COMMIT``. Each call
        into the connection is a round trip to its thread: a unit that need not come back to the
        event loop in between uses :meth:`_unit`."""
        async with self._lock:
            conn = self.conn
            if self._batch is None:
                await conn.execute_fetchall("BEGIN IMMEDIATE")
            batch = self._open_batch()
            hooks = len(batch.hooks)
            await conn.execute_fetchall("SAVEPOINT unit")
            try:
                yield conn
            except BaseException:
                del batch.hooks[hooks:]
                try:
                    await conn.execute_fetchall("ROLLBACK TO unit")
                    await conn.execute_fetchall("RELEASE unit")
                except sqlite3.Error:  # SQLite rolled the whole batch back: its COMMIT fails
                    pass
                raise
            await conn.execute_fetchall("RELEASE unit")
        # shield: a caller cancelled now leaves the batch (and its own unit) to commit
        await asyncio.shield(batch.done)

    async def _unit(self, work: Callable[[sqlite3.Connection], _T],
                    then: Callable[[_T], None] | None = None) -> _T:
        """One unit of the group commit as :meth:`_write`, in ONE round trip to the writer's
        thread: ``work(db)`` runs there on the plain :class:`sqlite3.Connection` (with the
        ``BEGIN IMMEDIATE`` of a new batch and the unit's savepoint around it), and its result
        is returned after the batch's ``COMMIT``. ``work`` must touch nothing the event loop
        uses meanwhile (it may build values); ``then(result)`` runs once the batch is committed
        (as an :meth:`_after_commit` hook: the caches follow the rows). An error inside ``work`` rolls the unit back
        alone. A caller cancelled while ``work`` runs cannot stop it: the unit then commits
        with its batch, as one cancelled while waiting for the ``COMMIT`` does in
        :meth:`_write`, and the cancellation is raised after. A unit alone — no batch open,
        no other unit waiting for the lock once the loop has run what was ready — is committed
        in that same round trip (:meth:`_unit_alone`)."""
        async with self._lock:
            conn = self.conn
            if self._batch is None and await self._alone():
                return await self._unit_alone(conn, work, then)
            opening = self._batch is None
            batch = self._open_batch()

            def inside(db: sqlite3.Connection) -> _T:
                if opening:
                    db.execute("BEGIN IMMEDIATE")
                return _savepoint(db, work)

            call = asyncio.ensure_future(conn._execute(inside, conn._conn))
            cancelled: asyncio.CancelledError | None = None
            try:
                result = await asyncio.shield(call)
            except asyncio.CancelledError as error:
                result = await call  # it ran (or runs) to its end in the thread: commit it
                cancelled = error
            except BaseException:
                if opening and not conn.in_transaction and self._batch is batch:
                    self._batch = None  # its BEGIN failed: no batch to commit
                    if not batch.done.done():
                        batch.done.set_exception(StorageError("the batch did not begin"))
                raise
            if then is not None:
                batch.hooks.append(lambda: then(result))
        # the batch's COMMIT is made under the lock (its committer queues for it): waited for
        # outside it, a cancelled unit too (waiting inside, it held the COMMIT off for good)
        await asyncio.shield(batch.done)
        if cancelled is not None:
            raise cancelled
        return result

    async def _alone(self) -> bool:
        """Under the write lock, no batch open: whether this unit is alone — the loop first runs
        what was ready (units started with this one queue for the lock meanwhile, and form a
        batch of the group commit), then no writer waits for the lock."""
        await asyncio.sleep(0)
        return self._batch is None and not self._lock.waiting

    async def _unit_alone(self, conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], _T],
                          then: Callable[[_T], None] | None) -> _T:
        """:meth:`_unit` of a unit alone (under the lock): its ``BEGIN IMMEDIATE``, savepoint,
        statements and ``COMMIT`` in ONE round trip to the writer's thread; ``then(result)``
        once committed. A failed ``COMMIT`` is rolled back and the caches dropped (as
        :meth:`_commit`)."""
        def inside(db: sqlite3.Connection) -> _T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = _savepoint(db, work)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.rollback()
                raise
            return result

        call = asyncio.ensure_future(conn._execute(inside, conn._conn))
        try:
            result = await asyncio.shield(call)
        except asyncio.CancelledError:
            result = await call  # it ran (or runs) to its end in the thread: it is committed
            if then is not None:
                then(result)
            raise
        except sqlite3.Error:
            self._forget()  # the store's state is in doubt: read it afresh
            raise
        if then is not None:
            then(result)
        return result

    def _after_commit(self, hook: Callable[[], None]) -> None:
        """Inside a unit: run ``hook`` once the batch is committed (not if the unit or the
        batch fails). Hooks run in the units' order: the caches follow the committed rows."""
        assert self._batch is not None, "only inside a write unit"
        self._batch.hooks.append(hook)

    async def _commit_when_idle(self) -> None:
        """The batch's committer: it queues for the lock when the batch opens, so the units
        already waiting run first, inside the batch; then it commits them all at once."""
        async with self._lock:
            if self._batch is not None and self._conn is not None:
                try:
                    await self._commit(self._conn)
                except Exception:  # the batch's units have the error
                    pass

    async def _commit(self, conn: aiosqlite.Connection) -> None:
        """COMMIT the open batch (under the lock) and tell its units how it went."""
        batch, self._batch = self._batch, None
        assert batch is not None
        try:
            await conn.execute_fetchall("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                await conn.rollback()
            self._forget()  # the store's state is in doubt: read it afresh
            if not batch.done.done():
                batch.done.set_exception(error if isinstance(error, Exception)
                                         else StorageError("the commit was interrupted"))
            raise
        else:
            for hook in batch.hooks:
                hook()
            if not batch.done.done():
                batch.done.set_result(None)

    # --- the caches (the hooks of GameMethods: read through, written after each commit) -------
    async def _extras(self, game_id: int) -> GameExtras | None:
        """The game's announce chat, message ids and timer (cached), or ``None``: no such game."""
        extras = self._games.get(game_id)
        if extras is None:
            epoch = self._epoch
            extras = await super()._extras(game_id)
            if extras is None:
                return None
            if epoch == self._epoch:  # no commit changed a cached value during the read
                extras = self._games.setdefault(game_id, extras)
        return extras

    def _set_cached(self, game_id: int, **values: Any) -> None:
        """Once committed: the game's cached extras follow the rows."""
        self._epoch += 1
        extras = self._games.get(game_id)
        if extras is not None:
            for name, value in values.items():
                setattr(extras, name, value)

    async def lang(self, chat: str) -> str | None:
        """The chat's language (``/lang``), or ``None`` (cached)."""
        if chat in self._langs:
            return self._langs[chat]
        epoch = self._epoch
        lang = await super().lang(chat)
        if epoch == self._epoch:
            self._langs.setdefault(chat, lang)
        return lang

    def _set_cached_lang(self, chat: str, lang: str) -> None:
        self._epoch += 1
        self._langs[chat] = lang

    def _forget(self) -> None:
        """Drop the caches (after a change that touches many rows at once)."""
        self._epoch += 1
        self._forgotten += 1
        self._games.clear()
        self._langs.clear()
        self._fresh.clear()

    # --- the connection bridge (storage/bridge.py): the hooks of the methods written once -----
    async def _read_unit(self, unit: Unit[_T], *, consistent: bool = False) -> _T:
        """A reading unit in ONE round trip to the reader's thread (its statements one call)."""
        async with self._read() as conn:
            return await conn._execute(run, conn._conn, unit)

    async def _write_unit(self, unit: Unit[_T], then: Callable[[_T], None] | None = None, *,
                          on_loop: bool = False) -> _T:
        """A write unit of the group commit: in ONE round trip to the writer's thread
        (:meth:`_unit`); with ``on_loop`` (:meth:`_write`) one between each of its
        :func:`storage.bridge.on_loop` steps, run here on the event loop."""
        if not on_loop:
            return await self._unit(lambda db: run(db, unit), then)  # type: ignore[arg-type]
        async with self._write() as conn:
            out = await conn._execute(run, conn._conn, unit, None, pausing=True)
            while isinstance(out, Paused):
                answer = out.step.fn(*out.step.params)  # type: ignore[misc]
                out = await conn._execute(run, conn._conn, unit, answer, pausing=True)
            result: _T = out
            if then is not None:
                self._after_commit(lambda: then(result))
        return result
