"""The SQLite store: chats, games and each game's append-only event log.

Beside the log (migration 0002): a chat may be an alias of another chat (its *home*, whose games
it acts on), a game may have an announce chat, the ids of messages an adapter edits in place, and
a running timer (JSON), so that a restart finds them again. Host mode (migration 0003) keeps its
tables beside them: the lobby, who sits where, the step running now with its deadline and the
players' inputs, a log of every step's length, and each group's club channel.

One :class:`Store` per process, with two aiosqlite connections to the file: a writer and a reader.

* **Writes: group commit.** Every write method is one *unit* under the writer's
  :class:`asyncio.Lock` (coroutines sharing a connection would otherwise interleave their
  statements), inside a ``SAVEPOINT``: a unit that fails is rolled back alone. Units run inside a
  ``BEGIN IMMEDIATE`` transaction that is committed as soon as the units already waiting for the
  lock have run: under load one fsynced ``COMMIT`` acknowledges many units (from many chats), and a
  unit alone commits at once. A write method returns only after ITS commit, so whatever it returns
  is durable (``synchronous=FULL``); a failed commit fails every unit of it.
* **Reads** go through the reader connection (WAL: they see only committed rows and never wait
  behind a write), so no reader ever sees a unit that is not yet committed. An in-memory database
  (``":memory:"``, tests) has one connection: a read then first commits the open batch.
* **Caches.** The store is its process's only writer (one bot process per database), so the small
  per-game and per-chat values read at every action (a game's announce chat, stored message ids and
  timer; a chat's language) are kept in memory, written through after each commit.

The log is the game: the service folds it with :func:`rules.fold`. Nothing in ``events`` is ever
updated or deleted (triggers refuse it); an undo is itself a logged event.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import sqlite3
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable, Mapping, Sequence, TypeVar

import aiosqlite

from . import club
from .migrate import migrate, refuse_unknown
from .web import WebMethods

BUSY_TIMEOUT_MS = 5000

_T = TypeVar("_T")
#: The aliases of a home (``Store.aliases_of``): run at every chat a shared worker claims.
ALIASES_SQL = "SELECT chat FROM chats WHERE home = ? ORDER BY chat"
_IMMUTABLE = frozenset({str, int, float, bool, type(None)})  # JSON values shared safely

#: Seconds after its end that a finished game's delivered outbox rows and snapshot are pruned.
PRUNE_AFTER = 3600.0

#: ``games.result`` values written by the service: a team, a draw, or a game replaced unfinished.
RESULTS = ("red", "black", "draw", "abandoned")


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


class StorageError(Exception):
    """A store operation that cannot be done."""


class NoSuchGame(StorageError):
    """The game id is not in the store."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class StaleRevision(StorageError):
    """``append`` at a ``seq`` that is not the log's next one: someone logged first."""

    def __init__(self, game_id: int, seq: int, current: int) -> None:
        super().__init__(f"game {game_id}: seq {seq} is not next (the log has {current} rows)")
        self.game_id = game_id
        self.seq = seq
        self.current = current


@dataclass(frozen=True)
class GameRow:
    """A row of ``games``; ``config`` and ``names`` decoded from JSON (seats as ints)."""

    id: int
    chat: str
    judge: str
    config: dict[str, Any]
    names: dict[int, str]
    created_at: float
    finished_at: float | None
    result: str | None
    #: Why the stored log no longer folds (0013: set by :meth:`Store.quarantine`), or ``None``.
    quarantine: dict[str, Any] | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class EventRow:
    """A row of a game's log: ``event`` is the JSON form (:func:`rules.to_dict`)."""

    seq: int
    event: dict[str, Any]
    actor: str
    at: float


@dataclass(frozen=True)
class Snapshot:
    """A game's folded state after log row ``seq`` (0005): ``standing`` events counted (undone
    ones not), written by code of ``version``; ``state`` is JSON-ready (a mapping to store, or
    the JSON text as read back)."""

    seq: int
    standing: int
    version: str
    state: Any


@dataclass(frozen=True)
class HostTableRow:
    """A row of ``host_tables`` (0003), JSON decoded: ``seats`` by int seat."""

    id: int
    chat: str
    host: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    seats: dict[int, str]
    game_id: int | None
    lobby_message: int | None
    step: dict[str, Any] | None
    data: dict[str, Any]
    status: str
    created_at: float
    closed_at: float | None


@dataclass(frozen=True)
class HostStepRow:
    """A row of ``host_steps``: a step a host-mode table opened."""

    no: int
    key: str
    kind: str
    seconds: int
    opened_at: float


_HOST_COLUMNS = ("id, chat, host, options, players, seats, game_id, lobby_message, step, data,"
                 " status, created_at, closed_at")
_HOST_FIELDS = frozenset({"players", "seats", "game_id", "lobby_message", "step", "data", "status"})


def _host_row(row: Sequence[Any]) -> HostTableRow:
    return HostTableRow(
        id=row[0], chat=row[1], host=row[2], options=json.loads(row[3]),
        players=json.loads(row[4] or "[]"),
        seats={int(k): v for k, v in json.loads(row[5] or "{}").items()},
        game_id=row[6], lobby_message=row[7], step=json.loads(row[8]) if row[8] else None,
        data=json.loads(row[9] or "{}"), status=row[10], created_at=row[11], closed_at=row[12],
    )


@dataclass(frozen=True)
class OutboxItem:
    """A message to queue (0004): ``kind`` ``"send"`` or ``"edit"``; ``payload`` is what the
    adapter needs (JSON-ready); ``slot``: for a send, store the new message's id under it in the
    game's messages; for an edit, the stored message it edits."""

    chat: str
    payload: Mapping[str, Any]
    kind: str = "send"
    slot: str | None = None


@dataclass(frozen=True)
class OutboxRow:
    """A row of ``outbox``."""

    id: int
    chat: str
    game_id: int | None
    kind: str
    payload: dict[str, Any]
    slot: str | None
    created_at: float
    sent_at: float | None
    message_id: int | None
    attempts: int
    last_error: str | None
    state: str


_OUTBOX_COLUMNS = ("id, chat, game_id, kind, payload, slot, created_at, sent_at, message_id,"
                   " attempts, last_error, state")


def _outbox_row(row: Sequence[Any]) -> OutboxRow:
    return OutboxRow(id=row[0], chat=row[1], game_id=row[2], kind=row[3],
                     payload=json.loads(row[4]), slot=row[5], created_at=row[6], sent_at=row[7],
                     message_id=row[8], attempts=row[9], last_error=row[10], state=row[11])


_GAME_COLUMNS = ("g.id, g.chat, g.judge, g.config, g.names, g.created_at, g.finished_at, g.result,"
                 " g.quarantine")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _game_row(row: Sequence[Any]) -> GameRow:
    names = json.loads(row[4]) if row[4] else {}
    return GameRow(
        id=row[0], chat=row[1], judge=row[2], config=json.loads(row[3]),
        names={int(seat): name for seat, name in names.items()},
        created_at=row[5], finished_at=row[6], result=row[7],
        quarantine=json.loads(row[8]) if row[8] else None,
    )


@dataclass
class _Batch:
    """The units of the open transaction: ``done`` resolves at its COMMIT."""

    done: "asyncio.Future[None]"
    hooks: list[Callable[[], None]] = field(default_factory=list)
    committer: "asyncio.Task[None] | None" = None


@dataclass
class _GameExtras:
    """A game's small values read at every action (the cache; JSON decoded)."""

    announce: str | None
    messages: dict[str, int]
    timer: dict[str, Any] | None


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


class HostMethods:
    """Host mode's store methods (0003), one text for both backends over two hooks:
    :meth:`_host_rows` (the rows of a read) and :meth:`_host_write` (statements in one write
    transaction; the first row of each). Plain SQL with ``?`` parameters (PostgreSQL's backend
    numbers them). :meth:`update_host_table` stays each backend's: it queues outbox rows in its
    transaction."""

    async def _host_rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def _host_write(self, *statements: tuple[str, Sequence[Any]]) -> list[Sequence[Any] | None]:
        raise NotImplementedError

    async def create_host_table(self, chat: str, host: str, options: Mapping[str, Any], *,
                                data: Mapping[str, Any] | None = None) -> int:
        """Open a host-mode table (a lobby) in ``chat``, opened by ``host``, with its ``data``
        (JSON-ready). Returns its id."""
        (row,) = await self._host_write((
            "INSERT INTO host_tables(chat, host, options, data, created_at) VALUES (?, ?, ?, ?, ?)"
            " RETURNING id", (chat, host, _dumps(dict(options)), _dumps(dict(data or {})), time.time())))
        assert row is not None
        return int(row[0])

    async def host_table(self, table_id: int) -> HostTableRow | None:
        rows = await self._host_rows(f"SELECT {_HOST_COLUMNS} FROM host_tables WHERE id = ?", table_id)
        return _host_row(rows[0]) if rows else None

    async def host_table_of(self, chat: str, status: str | None = None) -> HostTableRow | None:
        """The chat's latest table (with ``status``, if given), or ``None``."""
        where, params = ("chat = ?", (chat,)) if status is None else (
            "chat = ? AND status = ?", (chat, status))
        rows = await self._host_rows(
            f"SELECT {_HOST_COLUMNS} FROM host_tables WHERE {where} ORDER BY id DESC LIMIT 1", *params)
        return _host_row(rows[0]) if rows else None

    async def open_host_tables(self, *, chat: str | None = None,
                               player: str | None = None) -> list[HostTableRow]:
        """Tables in the lobby or playing (to resume them after a restart), oldest first;
        ``chat``: that chat's only; ``player``: only those ``player`` (a user key) is in."""
        where, params = open_host_where(chat, player)
        rows = await self._host_rows(
            f"SELECT {_HOST_COLUMNS} FROM host_tables WHERE {where} ORDER BY id", *params)
        return open_host_rows(rows, player)

    async def open_host_chats(self, prefix: str = "") -> list[str]:
        """The chats (beginning with ``prefix``) with a table in the lobby or playing: what a
        shared worker looks at for tables nobody runs, without reading the tables."""
        rows = await self._host_rows(
            "SELECT DISTINCT chat FROM host_tables WHERE status IN ('lobby', 'running')"
            " AND substr(chat, 1, ?) = ? ORDER BY chat", len(prefix), prefix)
        return [str(r[0]) for r in rows]

    async def log_host_step(self, table_id: int, no: int, key: str, kind: str, seconds: int,
                            opened_at: float) -> None:
        """Record a step the bot opened (repeating a step number keeps the first record)."""
        await self._host_write(host_step_insert(table_id, HostStepRow(no, key, kind, seconds, opened_at)))

    async def host_steps(self, table_id: int) -> list[HostStepRow]:
        rows = await self._host_rows("SELECT no, key, kind, seconds, opened_at FROM host_steps"
                                     " WHERE table_id = ? ORDER BY no", table_id)
        return [HostStepRow(no=r[0], key=r[1], kind=r[2], seconds=r[3], opened_at=r[4]) for r in rows]

    async def move_host_chat(self, old: str, new: str) -> None:
        """A group changed its id (upgraded to a supergroup): its tables and its club channel
        follow it (the games themselves move with :meth:`move_game`)."""
        await self._host_write(
            ("UPDATE host_tables SET chat = ? WHERE chat = ?", (new, old)),
            ("UPDATE host_channels SET chat = ? WHERE chat = ?"
             " AND NOT EXISTS (SELECT 1 FROM host_channels WHERE chat = ?)", (new, old, new)))

    async def set_host_channel(self, chat: str, channel: str | None, title: str | None = None) -> None:
        """Link the group's club channel (``None`` unlinks it)."""
        if channel is None:
            await self._host_write(("DELETE FROM host_channels WHERE chat = ?", (chat,)))
        else:
            await self._host_write((
                "INSERT INTO host_channels(chat, channel, title) VALUES (?, ?, ?)"
                " ON CONFLICT(chat) DO UPDATE SET channel = excluded.channel,"
                " title = excluded.title", (chat, channel, title)))

    async def host_channel(self, chat: str) -> tuple[str, str | None] | None:
        """The group's channel and its title, or ``None``."""
        rows = await self._host_rows("SELECT channel, title FROM host_channels WHERE chat = ?", chat)
        return (rows[0][0], rows[0][1]) if rows else None


def host_step_insert(table_id: int, row: HostStepRow) -> tuple[str, tuple[Any, ...]]:
    """The statement recording a step in ``host_steps`` (a step number already there keeps its
    first record): :meth:`HostMethods.log_host_step`, and each backend's
    :meth:`update_host_table` in its transaction."""
    return ("INSERT INTO host_steps(table_id, no, key, kind, seconds, opened_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(table_id, no) DO NOTHING",
            (table_id, row.no, row.key, row.kind, int(row.seconds), row.opened_at))


class Store(HostMethods, club.ClubMethods, WebMethods):
    """The game store. Open with ``await Store.open(path)`` (or ``async with await Store.open(p)``)
    and always :meth:`close` it."""

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection | None = None) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._reader = reader  # None: reads share the writer (an in-memory database)
        self._lock = asyncio.Lock()
        self._batch: _Batch | None = None  # the open transaction's units, until its COMMIT
        self._games: dict[int, _GameExtras] = {}  # written through after each commit
        self._langs: dict[str, str | None] = {}
        self._epoch = 0  # counts the commits that changed a cached value
        self._queued: dict[str, int] = {}  # chat -> outbox rows committed for it (this process)
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
        try:
            await refuse_unknown(conn)  # a newer schema, another program's file: before any write
            await conn.execute_fetchall("PRAGMA journal_mode=WAL")
            # FULL: in WAL mode NORMAL does not fsync the WAL at each commit, so a power loss can
            # take back transactions that were already acknowledged to the judge. One accepted
            # action is one small commit; the fsync is cheap next to a chat round trip.
            await conn.execute_fetchall("PRAGMA synchronous=FULL")
            await conn.execute_fetchall(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await conn.execute_fetchall("PRAGMA foreign_keys=ON")
            await migrate(conn)
            reader = None if str(path) == ":memory:" else await _connect_reader(path)
        except BaseException:
            await conn.close()
            raise
        store = cls(conn, reader)
        await store._opened()  # 0011: the roster's keys, before any read
        return store

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

    async def __aenter__(self) -> "Store":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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
        included); on leaving the block the caller waits for the batch's ``COMMIT``. Each
        statement is a round trip to the connection's thread: a hot path uses :meth:`_unit`."""
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
        :meth:`_write`, and the cancellation is raised after."""
        async with self._lock:
            conn = self.conn
            opening = self._batch is None
            batch = self._open_batch()

            def run(db: sqlite3.Connection) -> _T:
                if opening:
                    db.execute("BEGIN IMMEDIATE")
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

            call = asyncio.ensure_future(conn._execute(run, conn._conn))
            try:
                result = await asyncio.shield(call)
            except asyncio.CancelledError:
                result = await call  # it ran (or runs) to its end in the thread: commit it
                if then is not None:
                    batch.hooks.append(lambda: then(result))
                await asyncio.shield(batch.done)
                raise
            except BaseException:
                if opening and not conn.in_transaction and self._batch is batch:
                    self._batch = None  # its BEGIN failed: no batch to commit
                    if not batch.done.done():
                        batch.done.set_exception(StorageError("the batch did not begin"))
                raise
            if then is not None:
                batch.hooks.append(lambda: then(result))
        await asyncio.shield(batch.done)
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

    async def _extras(self, game_id: int) -> "_GameExtras | None":
        """The game's announce chat, message ids and timer (cached), or ``None``: no such game."""
        extras = self._games.get(game_id)
        if extras is None:
            epoch = self._epoch
            async with self._read() as conn:
                rows = await conn.execute_fetchall(
                    "SELECT announce, messages, timer FROM games WHERE id = ?", (game_id,))
            if not rows:
                return None
            extras = _GameExtras(
                announce=rows[0][0],
                messages={str(k): int(v) for k, v in json.loads(rows[0][1] or "{}").items()},
                timer=json.loads(rows[0][2]) if rows[0][2] else None)
            if epoch == self._epoch:  # no commit changed a cached value during the read
                extras = self._games.setdefault(game_id, extras)
        return extras

    def _cache(self, game_id: int, **values: Any) -> None:
        """Inside a unit: set the cached extras of the game once committed."""
        self._after_commit(lambda: self._set_cached(game_id, **values))

    def _set_cached(self, game_id: int, **values: Any) -> None:
        """Once committed: the game's cached extras follow the rows."""
        self._epoch += 1
        extras = self._games.get(game_id)
        if extras is not None:
            for name, value in values.items():
                setattr(extras, name, value)

    # --- games --------------------------------------------------------------------------------
    async def create_game(self, chat: str, judge: str, config: Mapping[str, Any],
                          names: Mapping[int, str], *, announce: str | None = None,
                          abandon: int | None = None,
                          outbox: Callable[[int], Sequence[OutboxItem]] | None = None,
                          tournament: tuple[int, int] | None = None) -> int:
        """Create a game and make it the chat's current game, in one transaction with where its
        announcements go (``announce``, as :meth:`set_announce``), the game it replaces recorded as
        ``"abandoned"`` (``abandon``: its id), the messages that announce it (``outbox``: given
        the new id, the items to queue; stamped with the game's creation time) and its place in a
        tournament (``tournament``: ``(tournament id, table)``, the table's next game of the plan,
        :func:`storage.club.start_game_sync`; a crash cannot leave the game without it). Returns
        the new game's id."""
        at = time.time()
        async with self._write() as conn:
            if abandon is not None:
                await self._update_game(conn, abandon, "finished_at = ?, result = ?",
                                        (time.time(), "abandoned"))
            await conn.execute_fetchall(
                "INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", (chat,))
            row = await conn.execute_insert(
                "INSERT INTO games(chat, judge, config, names, announce, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (chat, judge, _dumps(dict(config)), _dumps({str(k): v for k, v in names.items()}),
                 announce, at),
            )
            assert row is not None
            game_id = int(row[0])
            await conn.execute_fetchall(
                "UPDATE chats SET current_game = ? WHERE chat = ?", (game_id, chat))
            if tournament is not None:
                await conn._execute(club.start_game_sync, conn._conn, *tournament, game_id)
            for item in (outbox(game_id) if outbox is not None else ()):
                await self._enqueue(conn, item, game_id, at)
            await conn._execute(_prune_sync, conn._conn, at - self.prune_after, chat)
        return game_id

    async def prune(self, before: float | None = None) -> int:
        """Drop what a finished game no longer needs: its delivered (``sent``) outbox rows and
        its snapshot, for the games finished before ``before`` (default: :attr:`prune_after`
        seconds ago). The log, the game's row, its stored message ids and any row not yet
        delivered (or given up) stay: the protocol is read from the log. Also done for a
        chat's own finished games whenever it starts a new one. Returns the rows dropped."""
        before = time.time() - self.prune_after if before is None else before
        return await self._unit(lambda db: _prune_sync(db, before, None))

    async def current_game(self, chat: str) -> GameRow | None:
        """The chat's current (latest) game, finished or not."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM chats c JOIN games g ON g.id = c.current_game"
                " WHERE c.chat = ?", (chat,))
        return _game_row(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRow | None:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    async def open_games(self) -> list[GameRow]:
        """The chats' current games that are not finished (to re-arm them after a restart), a
        quarantined one left out."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM chats c JOIN games g ON g.id = c.current_game"
                " WHERE g.finished_at IS NULL AND g.quarantine IS NULL ORDER BY g.id")
        return [_game_row(r) for r in rows]

    async def set_judge(self, game_id: int, judge: str) -> None:
        async with self._write() as conn:
            await self._update_game(conn, game_id, "judge = ?", (judge,))

    async def finish(self, game_id: int, result: str | None) -> None:
        """Mark the game finished now with ``result`` (see :data:`RESULTS`)."""
        async with self._write() as conn:
            await self._update_game(conn, game_id, "finished_at = ?, result = ?", (time.time(), result))

    async def reopen(self, game_id: int) -> None:
        """Mark a finished game open again (an undo took back its end)."""
        async with self._write() as conn:
            await self._update_game(conn, game_id, "finished_at = NULL, result = NULL", ())

    async def quarantine(self, game_id: int, why: Mapping[str, Any] | None) -> None:
        """Set game ``game_id`` aside: its stored log no longer folds (``why``, JSON-ready: the
        event refused and the refusal, :class:`bot.service.Service`). Nothing is deleted; its
        timer is cleared, and it is no longer among the open games and timers re-armed at a
        start. ``why=None`` puts it back (a later engine folds it). Raises :class:`NoSuchGame`."""
        text = None if why is None else _dumps(dict(why))
        await self._unit(lambda db: _update_game_sync(db, game_id, "quarantine = ?, timer = NULL", (text,)),
                         lambda _: self._set_cached(game_id, timer=None))

    @staticmethod
    async def _update_game(conn: aiosqlite.Connection, game_id: int, assignments: str,
                           params: tuple[Any, ...]) -> None:
        cursor = await conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*params, game_id))
        if cursor.rowcount == 0:
            raise NoSuchGame(game_id)

    # --- the log ------------------------------------------------------------------------------
    async def append(self, game_id: int, seq: int, event: Mapping[str, Any], actor: str) -> None:
        """Log ``event`` as row ``seq`` = the log's row count + 1. Raises :class:`StaleRevision`
        if that is not the next row (someone logged first) and :class:`NoSuchGame`."""
        await self.append_many(game_id, seq, [event], actor)

    async def append_many(
        self, game_id: int, seq: int, events: Sequence[Mapping[str, Any]], actor: str, *,
        finished: bool | None = None, result: str | None = None,
        outbox: Sequence[OutboxItem] = (),
        timer: Callable[[list[int]], Mapping[str, Any] | None] | None = None,
        snapshot: Snapshot | None = None,
        figures: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[int]:
        """Log ``events`` as rows ``seq``, ``seq + 1``, … in ONE transaction, and in the same
        transaction set the game's end: ``finished=True`` marks it finished with ``result``,
        ``finished=False`` reopens it, ``None`` leaves it; queue the ``outbox`` messages the
        events caused (0004); and with ``timer`` store the game's timer: ``timer(outbox ids)``
        (``None`` clears it); with ``snapshot``, replace the game's snapshot (0005); with
        ``figures``, replace the game's rows of its players (0006, :meth:`_store_figures`; an
        empty list deletes them). Either all of it is stored or nothing. Returns the outbox
        ids."""
        at = time.time()
        rows = [(game_id, seq + i, _dumps(dict(e)), actor, at) for i, e in enumerate(events)]
        payloads = [(item, _dumps(dict(item.payload))) for item in outbox]
        snap = None if snapshot is None else (
            game_id, snapshot.seq, snapshot.standing, snapshot.version,
            snapshot.state if isinstance(snapshot.state, str) else _dumps(snapshot.state))

        def work(db: sqlite3.Connection) -> tuple[list[int], str | None, bool]:
            # the revision check is the insert's own: the next seq, or no row at all
            inserted = db.execute(
                "INSERT INTO events(game_id, seq, event, actor, at)"
                " SELECT ?, ?, ?, ?, ? WHERE ? = (SELECT COALESCE(MAX(seq), 0) + 1 FROM events"
                " WHERE game_id = ?) AND EXISTS (SELECT 1 FROM games WHERE id = ?)",
                (*rows[0], seq, game_id, game_id)).rowcount if rows else 0
            if not inserted:
                exists, current = db.execute(
                    "SELECT (SELECT COUNT(*) FROM games WHERE id = ?),"
                    " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?)",
                    (game_id, game_id)).fetchone()
                if not exists:
                    raise NoSuchGame(game_id)
                if rows or seq != current + 1:
                    raise StaleRevision(game_id, seq, current)
            if len(rows) > 1:
                db.executemany("INSERT INTO events(game_id, seq, event, actor, at)"
                               " VALUES (?, ?, ?, ?, ?)", rows[1:])
            if finished is True:
                _update_game_sync(db, game_id, "finished_at = ?, result = ?", (at, result))
            elif finished is False:
                _update_game_sync(db, game_id, "finished_at = NULL, result = NULL", ())
            ids = [_enqueue_sync(db, item, text, game_id, at) for item, text in payloads]
            if figures is not None:
                club.figures_sync(db, game_id, figures, at)
            if snap is not None:
                db.execute("INSERT INTO snapshots(game_id, seq, standing, version, state)"
                           " VALUES (?, ?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET"
                           " seq = excluded.seq, standing = excluded.standing,"
                           " version = excluded.version, state = excluded.state", snap)
            if timer is None:
                return ids, None, False
            value = timer(ids)
            text = None if value is None else _dumps(dict(value))
            _update_game_sync(db, game_id, "timer = ?", (text,))
            return ids, text, True

        def cached(out: tuple[list[int], str | None, bool]) -> None:
            self._bump([item.chat for item in outbox])
            if out[2]:
                self._set_cached(game_id, timer=None if out[1] is None else json.loads(out[1]))

        ids, _, _ = await self._unit(work, cached)
        return ids

    async def game_log(self, game_id: int, version: str
                       ) -> tuple[int, list[tuple[int, str]], Snapshot | None]:
        """What a cold load reads, in one round trip: the log's row count, its rows as ``(seq,
        JSON text)`` in order (decoded by the caller as far as it needs), and the game's
        snapshot (``state`` as JSON text) or ``None``. With a snapshot of ``version`` only the
        rows after it are read (:meth:`event_texts` reads the others if they are needed)."""
        def read(db: sqlite3.Connection) -> tuple[int, list[tuple[int, str]], Snapshot | None]:
            found = db.execute("SELECT seq, standing, version, state FROM snapshots"
                               " WHERE game_id = ?", (game_id,)).fetchone()
            snap = None if found is None else Snapshot(*found)
            after = snap.seq if snap is not None and snap.version == version else 0
            (count,), = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                   (game_id,)).fetchall()
            rows = db.execute("SELECT seq, event FROM events WHERE game_id = ? AND seq > ?"
                              " ORDER BY seq", (game_id, after)).fetchall()
            return count, rows, snap

        async with self._read() as conn:
            return await conn._execute(read, conn._conn)

    async def event_texts(self, game_id: int, upto: int) -> list[tuple[int, str]]:
        """The game's log rows ``1..upto`` as ``(seq, JSON text)``."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT seq, event FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq",
                (game_id, upto))
        return [(r[0], r[1]) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's log in order (empty for an unknown game)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT seq, event, actor, at FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [EventRow(seq=r[0], event=json.loads(r[1]), actor=r[2], at=r[3]) for r in rows]

    # --- chats --------------------------------------------------------------------------------
    async def set_lang(self, chat: str, lang: str) -> None:
        async with self._write() as conn:
            await conn.execute_fetchall(
                "INSERT INTO chats(chat, lang) VALUES (?, ?)"
                " ON CONFLICT(chat) DO UPDATE SET lang = excluded.lang", (chat, lang))
            self._after_commit(lambda: self._set_cached_lang(chat, lang))

    async def lang(self, chat: str) -> str | None:
        """The chat's language (``/lang``), or ``None`` (cached)."""
        if chat in self._langs:
            return self._langs[chat]
        epoch = self._epoch
        async with self._read() as conn:
            rows = await conn.execute_fetchall("SELECT lang FROM chats WHERE chat = ?", (chat,))
        lang = rows[0][0] if rows else None
        if epoch == self._epoch:
            self._langs.setdefault(chat, lang)
        return lang

    def _set_cached_lang(self, chat: str, lang: str) -> None:
        self._epoch += 1
        self._langs[chat] = lang

    # --- chat aliases (0002) ------------------------------------------------------------------
    async def set_alias(self, chat: str, home: str | None) -> None:
        """Make ``chat`` act on ``home``'s games (``None``: ``chat`` is a home of its own again)."""
        if home == chat:
            raise StorageError(f"a chat cannot be its own alias: {chat}")
        async with self._write() as conn:
            if home is not None:
                await conn.execute_fetchall(
                    "INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", (home,))
            await conn.execute_fetchall(
                "INSERT INTO chats(chat, home) VALUES (?, ?)"
                " ON CONFLICT(chat) DO UPDATE SET home = excluded.home", (chat, home))

    async def alias(self, chat: str) -> str | None:
        """The home chat ``chat`` is an alias of, or ``None``."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall("SELECT home FROM chats WHERE chat = ?", (chat,))
        return rows[0][0] if rows else None

    async def aliases_of(self, home: str) -> list[str]:
        """The chats that are aliases of ``home`` (the index ``chats_by_home``, 0010)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(ALIASES_SQL, (home,))
        return [r[0] for r in rows]

    # --- a game's announce chat, message ids and timer (0002) ---------------------------------
    async def set_announce(self, game_id: int, chat: str | None) -> None:
        """Where the game's public announcements go (``None``: nowhere but its home chat)."""
        async with self._write() as conn:
            await self._update_game(conn, game_id, "announce = ?", (chat,))
            self._cache(game_id, announce=chat)

    async def announce(self, game_id: int) -> str | None:
        extras = await self._extras(game_id)
        return None if extras is None else extras.announce

    async def set_message(self, game_id: int, chat: str, slot: str, message_id: int | None) -> None:
        """Remember (or with ``None`` forget) the id of the message in ``slot`` of ``chat`` for the
        game: the panel, the timer message, … that an adapter edits in place."""
        key = _message_key(chat, slot)

        def work(db: sqlite3.Connection) -> dict[str, int]:
            stored = _messages_sync(db, game_id)
            if message_id is None:
                stored.pop(key, None)
            else:
                stored[key] = int(message_id)
            _update_game_sync(db, game_id, "messages = ?", (_dumps(stored),))
            return stored

        await self._unit(work, lambda stored: self._set_cached(game_id, messages=stored))

    async def message(self, game_id: int, chat: str, slot: str) -> int | None:
        key = _message_key(chat, slot)
        extras = await self._extras(game_id)
        if extras is None:
            raise NoSuchGame(game_id)
        return extras.messages.get(key)

    async def messages(self, game_id: int) -> dict[tuple[str, str], int]:
        """Every stored message id of the game, by ``(chat, slot)``."""
        extras = await self._extras(game_id)
        if extras is None:
            raise NoSuchGame(game_id)
        out: dict[tuple[str, str], int] = {}
        for key, message_id in extras.messages.items():
            chat, _, slot = key.rpartition(" ")
            out[(chat, slot)] = message_id
        return out

    async def slots_named(self, prefix: str) -> dict[int, dict[tuple[str, str], int]]:
        """Every stored slot whose name starts with ``prefix``, of every game (finished or not),
        by game id then ``(chat, slot)`` — what a platform must still undo after its games (a
        voice mute of a member who was away when the game ended)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id, messages FROM games WHERE instr(messages, ?) > 0", (f" {prefix}",))
        out: dict[int, dict[tuple[str, str], int]] = {}
        for game_id, raw in rows:
            for key, value in json.loads(raw or "{}").items():
                chat, _, slot = str(key).rpartition(" ")
                if slot.startswith(prefix):
                    out.setdefault(int(game_id), {})[(chat, slot)] = int(value)
        return out

    async def set_timer(self, game_id: int, timer: Mapping[str, Any] | None) -> None:
        """Store the game's running timer (a JSON-ready mapping), or clear it with ``None``."""
        text = None if timer is None else _dumps(dict(timer))
        await self._unit(lambda db: _update_game_sync(db, game_id, "timer = ?", (text,)),
                         lambda _: self._set_cached(game_id, timer=None if text is None
                                                    else json.loads(text)))

    async def timer(self, game_id: int) -> dict[str, Any] | None:
        """The game's stored timer as a new dict, the caller's to change (the cache is not
        touched by it), or ``None``. A timer of plain values (a judge's timer: numbers, strings,
        ``None``) is copied shallowly — its values cannot be changed in place —: 2.7 µs against
        ``copy.deepcopy``'s 13 µs (timeit, a 9-field timer) at every panel render and timer
        tick; one holding a list or an object is copied deeply."""
        extras = await self._extras(game_id)
        if extras is None or extras.timer is None:
            return None
        timer = extras.timer
        if all(type(value) in _IMMUTABLE for value in timer.values()):
            return dict(timer)
        return copy.deepcopy(timer)

    async def open_timers(self, prefix: str = "") -> dict[int, dict[str, Any]]:
        """The timers of the chats' current unfinished games, by game id (to re-arm them); with
        ``prefix`` only the games whose home chat starts with it (``"tg:"``: one adapter's own,
        when several adapters share the store)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.id, g.timer FROM chats c JOIN games g ON g.id = c.current_game"
                " WHERE g.finished_at IS NULL AND g.timer IS NOT NULL AND c.home IS NULL"
                " AND g.quarantine IS NULL AND substr(c.chat, 1, ?) = ? ORDER BY g.id",
                (len(prefix), prefix))
        return {r[0]: json.loads(r[1]) for r in rows}

    # --- the outbox (0004) --------------------------------------------------------------------
    async def _enqueue(self, conn: aiosqlite.Connection, item: OutboxItem, game_id: int | None,
                       at: float) -> int:
        row = await conn.execute_insert(
            "INSERT INTO outbox(chat, game_id, kind, payload, slot, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (item.chat, game_id, item.kind, _dumps(dict(item.payload)), item.slot, at))
        assert row is not None
        self._after_commit(lambda: self._bump([item.chat]))
        return int(row[0])

    def queued(self, chat: str) -> tuple[int, int]:
        """A token that changes whenever outbox rows for ``chat`` are committed by this process
        (or the caches are dropped): a sender that read the chat's pending rows and sees the
        same token after sending them needs not read again."""
        return self._forgotten, self._queued.get(chat, 0)

    def _bump(self, chats: Sequence[str]) -> None:
        for chat in chats:
            self._queued[chat] = self._queued.get(chat, 0) + 1

    async def enqueue(self, items: Sequence[OutboxItem], game_id: int | None = None) -> list[int]:
        """Queue messages outside any action (in one transaction). Returns their ids."""
        at = time.time()
        async with self._write() as conn:
            return [await self._enqueue(conn, item, game_id, at) for item in items]

    async def pending(self, chat: str | None = None) -> list[OutboxRow]:
        """The chat's (or every chat's) messages not yet sent nor given up, oldest first."""
        where, params = ("state = 'pending'", ()) if chat is None else (
            "state = 'pending' AND chat = ?", (chat,))
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE {where} ORDER BY id", params)
        return [_outbox_row(r) for r in rows]

    async def pending_chats(self) -> list[str]:
        """The chats with pending messages (to drain them after a restart), by oldest message."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT chat FROM outbox WHERE state = 'pending' GROUP BY chat ORDER BY MIN(id)")
        return [r[0] for r in rows]

    async def outbox_row(self, row_id: int) -> OutboxRow | None:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (row_id,))
        return _outbox_row(rows[0]) if rows else None

    async def mark_sent(self, row_id: int, message_id: int | None = None, *,
                        row: OutboxRow | None = None) -> None:
        """The message left (``message_id``: what the chat answered). A send with a slot also
        stores the id in the game's messages, in the same transaction, for later edits.
        ``row``: the row as the caller read it (saves reading it again; its chat, game, slot and
        kind never change once queued, but for a chat that moved, which is read again)."""
        await self.mark_sent_many([(row if row is not None else row_id, message_id)])

    async def mark_sent_many(self, sent: Sequence[tuple[OutboxRow | int, int | None]]) -> None:
        """:meth:`mark_sent` of several rows (a row as read, or its id, with the message id the
        chat answered) in ONE write unit, in order. Raises :class:`StorageError` for an
        unknown row (then none is marked)."""
        if not sent:
            return
        at = time.time()

        def work(db: sqlite3.Connection) -> dict[int, dict[str, int]]:
            stored: dict[int, dict[str, int]] = {}
            for row, message_id in sent:
                row_id = row if isinstance(row, int) else row.id
                if isinstance(row, int) or row.slot:
                    found = db.execute("SELECT chat, game_id, slot, kind FROM outbox WHERE id = ?",
                                       (row_id,)).fetchone()
                    if found is None:
                        raise StorageError(f"no outbox row {row_id}")
                    chat, game_id, slot, kind = found
                else:
                    chat, game_id, slot, kind = row.chat, row.game_id, row.slot, row.kind
                if db.execute("UPDATE outbox SET state = 'sent', sent_at = ?, message_id = ?,"
                              " attempts = attempts + 1 WHERE id = ?",
                              (at, message_id, row_id)).rowcount == 0:
                    raise StorageError(f"no outbox row {row_id}")
                if kind == "send" and slot and game_id is not None and message_id is not None:
                    if game_id not in stored:
                        stored[game_id] = _messages_sync(db, game_id)
                    stored[game_id][_message_key(chat, slot)] = int(message_id)
            for game_id, messages in stored.items():
                _update_game_sync(db, game_id, "messages = ?", (_dumps(messages),))
            return stored

        def cached(stored: dict[int, dict[str, int]]) -> None:
            for game_id, messages in stored.items():
                self._set_cached(game_id, messages=messages)

        await self._unit(work, cached)

    async def mark_attempt(self, row_id: int, error: str, *, give_up: bool = False) -> None:
        """A send failed: record it; ``give_up`` (a permanent error: blocked, chat not found)
        takes the row out of the queue."""
        async with self._write() as conn:
            await conn.execute_fetchall(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?,"
                " state = CASE WHEN ? THEN 'failed' ELSE state END WHERE id = ?",
                (error[:500], int(give_up), row_id))

    # --- moving games and chats (0002) --------------------------------------------------------
    async def move_game(self, game_id: int, home: str, judge: str) -> str:
        """Make ``home`` the game's home chat and ``judge`` its judge, in one transaction (a take
        over: the game follows its new judge). The old home falls back to its previous game;
        the old home's aliases follow the game; ``home`` stops being an alias. Returns the old
        home chat."""
        async with self._write() as conn:
            rows = await conn.execute_fetchall("SELECT chat FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise NoSuchGame(game_id)
            old = rows[0][0]
            await self._update_game(conn, game_id, "judge = ?", (judge,))
            if old == home:
                return old
            await conn.execute_fetchall(
                "INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", (home,))
            await conn.execute_fetchall(
                "UPDATE chats SET home = NULL, current_game = ? WHERE chat = ?", (game_id, home))
            await conn.execute_fetchall("UPDATE games SET chat = ? WHERE id = ?", (home, game_id))
            await conn.execute_fetchall(
                "UPDATE chats SET current_game = (SELECT MAX(id) FROM games WHERE chat = ?)"
                " WHERE chat = ?", (old, old))
            await conn.execute_fetchall(
                "UPDATE chats SET home = ? WHERE home = ? AND chat <> ?", (home, old, home))
        return old

    async def move_chat(self, old: str, new: str) -> None:
        """A chat changed its id (a Telegram group upgraded to a supergroup): its alias, its
        language, the games announcing there and its pending outbox messages follow it; stored
        message ids are dropped (the messages stay behind in the old chat)."""
        async with self._write() as conn:
            rows = await conn.execute_fetchall("SELECT home, lang FROM chats WHERE chat = ?", (old,))
            home, lang = rows[0] if rows else (None, None)
            await conn.execute_fetchall(
                "INSERT INTO chats(chat, home, lang) VALUES (?, ?, ?) ON CONFLICT(chat) DO UPDATE"
                " SET home = COALESCE(excluded.home, home), lang = COALESCE(excluded.lang, lang)",
                (new, home, lang))
            await conn.execute_fetchall("UPDATE chats SET home = NULL WHERE chat = ?", (old,))
            await conn.execute_fetchall("UPDATE games SET announce = ? WHERE announce = ?", (new, old))
            await conn.execute_fetchall(  # what was queued for the old id goes to the new one
                "UPDATE outbox SET chat = ? WHERE chat = ? AND state = 'pending'", (new, old))
            self._after_commit(self._forget)

    def _forget(self) -> None:
        """Drop the caches (after a change that touches many rows at once)."""
        self._epoch += 1
        self._forgotten += 1
        self._games.clear()
        self._langs.clear()


    # --- host mode: tables, their step log, club channels (0003; the rest: HostMethods) -------
    async def _host_rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        async with self._read() as conn:
            return list(await conn.execute_fetchall(sql, params))

    async def _host_write(self, *statements: tuple[str, Sequence[Any]]) -> list[Sequence[Any] | None]:
        firsts: list[Sequence[Any] | None] = []
        async with self._write() as conn:
            for sql, params in statements:
                rows = await conn.execute_fetchall(sql, params)
                firsts.append(rows[0] if rows else None)
        return firsts

    async def update_host_table(self, table_id: int, *, opened: HostStepRow | None = None,
                                outbox: Sequence[OutboxItem] = (), outbox_game: int | None = None,
                                **fields: Any) -> None:
        """Change a table's fields: ``players``, ``seats``, ``step``, ``data`` (JSON-ready),
        ``game_id``, ``lobby_message``, ``status``; a status of ``over`` or ``stopped`` also
        stamps ``closed_at``. ``step`` and ``lobby_message`` may be ``None``. ``opened``: the
        step just stored is recorded in ``host_steps`` in the same transaction (as
        :meth:`log_host_step`). ``outbox``: messages queued in the same transaction (of game
        ``outbox_game``, as :meth:`enqueue`). Raises :class:`StorageError` for an unknown field or
        table."""
        sets, params = host_assignments(fields)
        if not sets and opened is None and not outbox:
            return
        async with self._write() as conn:
            if sets:
                cursor = await conn.execute(
                    f"UPDATE host_tables SET {', '.join(sets)} WHERE id = ?", (*params, table_id))
                if cursor.rowcount == 0:
                    raise StorageError(f"no host table {table_id}")
            if opened is not None:
                await conn.execute_fetchall(*host_step_insert(table_id, opened))
            at = time.time()
            for item in outbox:
                await self._enqueue(conn, item, outbox_game, at)

    # --- a club's roster and its players' figures (0006: club.ClubMethods' two hooks) -----------
    async def _club_read(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        async with self._read() as conn:
            return await conn._execute(work, conn._conn)

    async def _club_write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        return await self._unit(work)


def open_host_where(chat: str | None, player: str | None) -> tuple[str, list[Any]]:
    """The ``WHERE`` of both backends' :meth:`open_host_tables` and its values: a ``player``
    is looked for in the ``players`` JSON text as a JSON string (a user key holds no ``%``,
    ``_`` or quote), and :func:`open_host_rows` keeps only the rows that truly list him."""
    where, params = ["status IN ('lobby', 'running')"], []
    if chat is not None:
        where.append("chat = ?")
        params.append(chat)
    if player is not None:
        where.append("players LIKE ?")
        params.append(f"%{json.dumps(player)}%")
    return " AND ".join(where), params


def open_host_rows(rows: Iterable[Sequence[Any]], player: str | None) -> list[HostTableRow]:
    """The decoded rows :func:`open_host_where` found (with ``player``: those listing him)."""
    tables = [_host_row(r) for r in rows]
    return tables if player is None else [
        t for t in tables if any(p.get("user") == player for p in t.players)]


def host_assignments(fields: Mapping[str, Any]) -> tuple[list[str], list[Any]]:
    """A host table's changed ``fields`` as ``UPDATE`` assignments (``name = ?``) and their
    values, JSON where the column holds JSON; a status of ``over`` or ``stopped`` also stamps
    ``closed_at``. Both backends' :meth:`update_host_table`. Raises :class:`StorageError` for an
    unknown field."""
    sets: list[str] = []
    params: list[Any] = []
    for name, value in fields.items():
        if name not in _HOST_FIELDS:
            raise StorageError(f"no host table field {name!r}")
        if name == "seats":
            value = _dumps({str(k): v for k, v in dict(value).items()})
        elif name in ("players", "data") or (name == "step" and value is not None):
            value = _dumps(value)
        sets.append(f"{name} = ?")
        params.append(value)
        if name == "status" and value in ("over", "stopped"):
            sets.append("closed_at = ?")
            params.append(time.time())
    return sets, params


def _update_game_sync(db: sqlite3.Connection, game_id: int, assignments: str,
                      params: tuple[Any, ...]) -> None:
    """:meth:`Store._update_game` inside a :meth:`Store._unit`."""
    if db.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*params, game_id)).rowcount == 0:
        raise NoSuchGame(game_id)


def _messages_sync(db: sqlite3.Connection, game_id: int) -> dict[str, int]:
    """:meth:`Store._messages` inside a :meth:`Store._unit`."""
    row = db.execute("SELECT messages FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NoSuchGame(game_id)
    return {str(k): int(v) for k, v in json.loads(row[0] or "{}").items()}


def _enqueue_sync(db: sqlite3.Connection, item: OutboxItem, payload: str, game_id: int | None,
                  at: float) -> int:
    """Queue one outbox row inside a :meth:`Store._unit` (``payload``: its JSON); its id."""
    cursor = db.execute(
        "INSERT INTO outbox(chat, game_id, kind, payload, slot, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (item.chat, game_id, item.kind, payload, item.slot, at))
    assert cursor.lastrowid is not None
    return int(cursor.lastrowid)


def _prune_sync(db: sqlite3.Connection, before: float, chat: str | None) -> int:
    """:meth:`Store.prune` (of one home chat's games, with ``chat``) inside a unit."""
    games = ("SELECT id FROM games WHERE finished_at < ?" + (" AND chat = ?" if chat else ""))
    params = (before, chat) if chat else (before,)
    dropped = db.execute(f"DELETE FROM outbox WHERE state = 'sent' AND game_id IN ({games})",
                         params).rowcount
    db.execute(f"DELETE FROM snapshots WHERE game_id IN ({games})", params)
    return dropped


def _message_key(chat: str, slot: str) -> str:
    if " " in slot or not slot:
        raise StorageError(f"bad message slot {slot!r}")
    return f"{chat} {slot}"
