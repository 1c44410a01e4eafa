"""One writing process per database (ARCHITECTURE.md, "One writer").

The service keeps each game's folded state, its aliases and its outbox in memory and assumes it is
the store's only writer (:mod:`bot.service`): two bot processes on one SQLite file would both
append to a game's log — an action landing in an abandoned game, a ``/new`` leaving live games
orphaned. So the long-running modes (``telegram``, ``discord``, ``both``) hold an exclusive lock
on a file beside the database, ``<database>.lock``, for as long as they run; a second one finds
it taken and stops at once with one line and exit status 2 (:class:`DatabaseBusy`, said by
:mod:`bot.entry`). ``both`` serves two platforms from one process. The commands that only read
(``health``, ``backup``, ``replay``) and the console take no lock and work beside a running bot.

The lock is an ``flock`` on the open file: the kernel drops it when the process ends, however it
ends (a SIGKILL included), so a restart never finds a stale lock. The file keeps the holder's pid,
for the message.

On PostgreSQL (``MAFIA_REFEREE_DB=postgresql://…``, issue 18) the lock is a session advisory lock
held by a connection of its own (:class:`PgWriterLock`, in a thread of its own, whatever the bot's
event loop does): the server drops it when that connection ends, a killed process included. The
service still assumes one writer per database, so a second worker is refused the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no lock (the service still works)
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".lock"


class DatabaseBusy(Exception):
    """Another process (``pid``, if it said) holds the writer's lock of the database ``db``."""

    def __init__(self, db: Path | str, pid: int | None) -> None:
        super().__init__(f"{db}: another process (pid {pid}) writes it")
        self.db = db
        self.pid = pid


def lock_path(db: Path) -> Path:
    """The lock file of database ``db``: ``<db>.lock`` beside the file itself — symbolic links
    and relative paths resolved, so every name of one database gives one lock."""
    real = db.resolve()
    return real.with_name(real.name + SUFFIX)


class WriterLock:
    """The writer's lock of one database, held from :func:`acquire` until :meth:`release` (or the
    end of a ``with`` block, or of the process)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # the lock goes with the descriptor

    def __enter__(self) -> "WriterLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


#: the advisory lock's key (namespace, id): the one writing process of a PostgreSQL database
PG_WRITER_KEY = (7100, 1)


#: an advisory lock to take: (the function, ``pg_try_advisory_lock`` or ``…_shared``, key, key)
Advisory = tuple[str, int, int]


class PgWriterLock:
    """The writer's lock of a PostgreSQL database: ``pg_try_advisory_lock`` on a connection kept
    open by a daemon thread until :meth:`release`. ``locks``: other advisory locks to take
    instead, each of them or none (:func:`acquire_shards`); ``conflict``: a query (and its
    arguments) that, true once they are taken, means another process disagrees — refused too."""

    def __init__(self, url: str, locks: "tuple[Advisory, ...]" = (("pg_try_advisory_lock", *PG_WRITER_KEY),),
                 conflict: "tuple[object, ...] | None" = None) -> None:
        import asyncio
        import threading

        from storage.pg import redacted

        self.path = redacted(url)
        self._loop = asyncio.new_event_loop()
        self._release: "asyncio.Event | None" = None
        self._result: list[object] = []
        ready = threading.Event()

        async def hold() -> None:
            import asyncpg

            self._release = asyncio.Event()
            try:
                conn = await asyncpg.connect(url)
            except BaseException as error:  # noqa: BLE001 - reported to the caller
                self._result.append(error)
                ready.set()
                return
            try:
                took = True
                for function, first, second in locks:
                    if not await conn.fetchval(f"SELECT {function}($1, $2)", first, second):
                        took = False
                        break
                if took and conflict is not None and await conn.fetchval(*conflict):
                    took = False
                self._result.append(bool(took))
                ready.set()
                if took:
                    await self._release.wait()
            finally:
                await conn.close()

        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(hold(),),
                                        name="pg-writer-lock", daemon=True)
        self._thread.start()
        ready.wait()
        outcome = self._result[0]
        if isinstance(outcome, BaseException):
            self._thread.join()
            self._loop.close()
            raise OSError(f"{redacted(url)}: {outcome}") from outcome
        if outcome is not True:
            self._thread.join()
            self._loop.close()
            raise DatabaseBusy(redacted(url), None)  # its pid is on another machine, perhaps

    def release(self) -> None:
        if self._thread.is_alive() and self._release is not None:
            self._loop.call_soon_threadsafe(self._release.set)
            self._thread.join()
            self._loop.close()

    def __enter__(self) -> "PgWriterLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire_shards(url: str, count: int, ids: tuple[int, ...]) -> PgWriterLock:
    """The locks of a Discord process serving shards ``ids`` of ``count`` beside others on one
    PostgreSQL database (:mod:`bot.discord.shards`): each of its shards (a second process with
    one of them is refused), the writer's lock shared (a single bot process serving the whole
    database refuses them, and they it), and the shard count shared — a process started with
    another count is refused, since each would own servers the other owns. Raises
    :class:`DatabaseBusy` when any is held against it, ``OSError`` when the server cannot be
    reached."""
    from bot.discord.shards import SHARD_COUNT_LOCK, Shards
    from storage.pg import normal_url

    locks: list[Advisory] = [("pg_try_advisory_lock_shared", *PG_WRITER_KEY),
                             ("pg_try_advisory_lock_shared", SHARD_COUNT_LOCK, count)]
    locks += [("pg_try_advisory_lock", first, second) for first, second in Shards(count, ids).lock_keys()]
    other_count = ("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
                   " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                   " AND classid = $1::int::oid AND objid <> $2::int::oid AND objsubid = 2)",
                   SHARD_COUNT_LOCK, count)
    return PgWriterLock(normal_url(url), tuple(locks), other_count)


def acquire(db: Path) -> "WriterLock | PgWriterLock":
    """Take the writer's lock of database ``db`` — before the store is opened, so that a second
    process (perhaps a newer version) never creates or migrates a database another one serves;
    the folder is created if need be. Raises :class:`DatabaseBusy` when another process holds it,
    ``OSError`` when the folder or the lock file cannot be created or opened (or the PostgreSQL
    server cannot be reached: :class:`PgWriterLock`)."""
    from storage import is_url
    from storage.pg import normal_url

    if is_url(db):
        return PgWriterLock(normal_url(db))
    path = lock_path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise DatabaseBusy(db, _holder(fd)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except BaseException:
        os.close(fd)
        raise
    return WriterLock(path, fd)


def _holder(fd: int) -> int | None:
    """The pid the lock's holder wrote in the file (``None`` if it is not there yet)."""
    try:
        return int(os.pread(fd, 32, 0).decode().strip() or "x")
    except (OSError, ValueError):
        return None
