"""``mafia-referee health`` and ``mafia-referee backup``: what a container's health check, a
systemd timer or a judge at the console runs beside the bot (``deploy/``).

* :func:`check` — the database at ``db`` exists, opens, is SQLite, its schema is the one this code
  migrates to (``PRAGMA user_version`` = the number of bundled migrations), SQLite's
  ``quick_check`` finds no damage (given at most :data:`QUICK_CHECK_S` seconds) and a read of
  ``games`` works; a database another process holds locked is ``busy`` (wait, nothing to restore),
  a damaged one ``corrupt`` (restore a backup), another program's SQLite file ``foreign_database``;
  with ``max_age``, the heartbeat file the running bot touches every
  ``MAFIA_REFEREE_HEARTBEAT_INTERVAL`` seconds (:func:`heartbeat_job`) is younger than that —
  unless the running mode (``discord``, ``both``: no heartbeat of their own) wrote in it that it
  does not beat (:func:`mark_no_heartbeat`), when the database alone is judged.
  It never creates nor migrates anything: a health check must not write.
* :func:`backup` — SQLite's online backup (``sqlite3.Connection.backup``) into a new file: one
  consistent snapshot taken in one read transaction, safe while the bot writes (WAL: the writer is
  never blocked); written beside ``dest`` and renamed into place, so ``dest`` is never half a file.
  A PostgreSQL database is copied into a new SQLite file the same way (one snapshot:
  :func:`storage.copy.copy_to_sqlite`). The destination's folder must exist and be writable: it
  is never created (a backup mount that is not mounted fails loudly).
  It writes only a new file, an empty one, or over an earlier SQLite file (a backup): never over a
  device, a FIFO, a link, a file that is not SQLite (unless ``force``) nor the live database's own
  files.
* :func:`unwritable` — the database file or folder a process cannot write (SQLite's WAL mode needs
  ``-wal`` and ``-shm`` files beside the database), to say so instead of "restore a backup".
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from storage.migrate import TABLES_SQL, bundled

#: The ``code`` of a :class:`Health`; catalog key ``health-<code>`` (``bot/locales/*/deploy.ftl``).
HEALTH_CODES = ("ok", "no_database", "bad_database", "unreachable", "corrupt", "busy", "read_only", "foreign_database",
                "old_schema", "new_schema", "no_heartbeat_setting", "no_heartbeat", "stale_heartbeat")
#: The ``code`` of a :class:`BackupError`; catalog key ``backup-<code>``.
BACKUP_CODES = ("no_database", "bad_source", "empty_dest", "same_file", "not_a_file", "not_sqlite",
                "no_folder", "read_only", "unreachable", "old_schema", "failed")
BUSY_TIMEOUT_S = 5.0
#: How long ``health`` lets SQLite's ``PRAGMA quick_check`` run (seconds): a check cut short by this
#: bound found nothing wrong so far and is not a failure (a health check must answer in time).
QUICK_CHECK_S = 10.0
#: The first 16 bytes of every SQLite 3 database file (https://sqlite.org/fileformat.html §1.3.1).
SQLITE_HEADER = b"SQLite format 3\x00"
#: The files SQLite keeps beside a database ``X``: ``X-wal``, ``X-shm`` (WAL mode), ``X-journal``.
COMPANIONS = ("-wal", "-shm", "-journal")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Health:
    """The verdict: ``code`` (one of :data:`HEALTH_CODES`) and the catalog message's arguments."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.code == "ok"


class BackupError(Exception):
    """A backup that could not be made: ``code`` (:data:`BACKUP_CODES`) and the message's arguments."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def _connect_existing(db: Path) -> sqlite3.Connection:
    """A connection to the database file at ``db`` that never creates it (``mode=rw``)."""
    return sqlite3.connect(db.resolve().as_uri() + "?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S)


def _games(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def _check_sqlite(db: Path, expected: int) -> Health:
    """The SQLite file's health (see :func:`check`)."""
    if not db.is_file():
        return Health("no_database", {"path": str(db)})
    try:
        conn = _connect_existing(db)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version < expected:
                if version == 0 and (tables := _tables(conn)):
                    return Health("foreign_database", {"path": str(db), "tables": ", ".join(tables[:5])})
                return Health("old_schema", {"path": str(db), "version": version, "expected": expected})
            if version > expected:
                return Health("new_schema", {"path": str(db), "version": version, "expected": expected})
            damage = quick_check(conn)
            if damage is not None:
                return Health("corrupt", {"path": str(db), "problem": damage})
            games = _games(conn)
        finally:
            conn.close()
    except sqlite3.Error as error:
        if fault(error) == "busy":
            return Health("busy", {"path": str(db), "problem": str(error)})
        place = unwritable(db) if is_sqlite_file(db) else None
        if place is not None:  # a good file SQLite cannot open for writing: no restore needed
            return Health("read_only", {"path": str(place), "problem": str(error)})
        if is_sqlite_file(db):  # an SQLite header over damaged pages
            return Health("corrupt", {"path": str(db), "problem": str(error)})
        return Health("bad_database", {"path": str(db), "problem": str(error)})
    return Health("ok", {"path": str(db), "version": version, "count": games})


def _check_postgresql(url: str, expected: int, timeout: float = 10.0) -> Health:
    """A PostgreSQL database's health (issue 18): reachable, at this code's schema; its URL
    shown without the password."""
    import asyncio

    from storage.pg import normal_url, redacted, schema_version

    shown = redacted(url)

    async def read() -> tuple[int, int]:
        import asyncpg

        conn = await asyncpg.connect(normal_url(url), timeout=timeout)
        try:
            version = await schema_version(conn)
            games = await conn.fetchval("SELECT COUNT(*) FROM games") if version else 0
            return version, int(games)
        finally:
            await conn.close()

    try:
        version, games = asyncio.run(read())
    except Exception as error:  # noqa: BLE001 - asyncpg's, OSError, a timeout: one line
        return Health("unreachable", {"path": shown, "problem": error})
    if version < expected:
        return Health("old_schema", {"path": shown, "version": version, "expected": expected})
    if version > expected:
        return Health("new_schema", {"path": shown, "version": version, "expected": expected})
    return Health("ok", {"path": shown, "version": version, "count": games})


def check(db: Path, *, heartbeat: Path | None = None, max_age: float | None = None,
          now: Callable[[], float] = time.time) -> Health:
    """The health of the database at ``db`` and, with ``max_age`` (seconds, positive and finite:
    ``bot.cli`` refuses anything else), of the bot's heartbeat. A file that begins as an SQLite
    database but cannot be opened because it, its ``-wal``/``-shm`` or its folder is not writable
    is ``read_only`` (nothing to restore); one another process holds locked past
    :data:`BUSY_TIMEOUT_S` is ``busy`` (nothing to restore); one whose ``quick_check`` reports
    damage is ``corrupt``; a file that is not SQLite at all is ``bad_database``; schema 0 with
    tables of its own is ``foreign_database`` (``storage.migrate.ForeignDatabase``)."""
    from storage import is_url

    expected = len(bundled())
    verdict = _check_postgresql(str(db), expected) if is_url(db) else _check_sqlite(db, expected)
    if verdict.code != "ok":
        return verdict
    path, version, games = verdict.params["path"], verdict.params["version"], verdict.params["count"]
    if max_age is not None:
        if heartbeat is None:
            return Health("no_heartbeat_setting")
        try:
            age = now() - heartbeat.stat().st_mtime
            unbeaten = _unbeaten_mode(heartbeat)
        except OSError:
            return Health("no_heartbeat", {"path": str(heartbeat)})
        if unbeaten is not None:  # discord / both: no heartbeat to judge, the database is well
            return Health("ok", {"path": path, "version": version, "count": games})
        if age > max_age:
            # As strings: seconds read better without Fluent's digit grouping ("3 600").
            return Health("stale_heartbeat", {"path": str(heartbeat), "age": str(round(age)),
                                              "limit": str(round(max_age))})
    return Health("ok", {"path": path, "version": version, "count": games})


#: The ``code`` of :func:`fault`; the catalog's ``db-fault`` selects its words by it (deploy.ftl).
FAULT_CODES = ("busy", "full", "read_only", "io", "other")
_FAULTS = {5: "busy", 6: "busy", 13: "full", 8: "read_only", 10: "io"}


def fault(error: sqlite3.Error) -> str:
    """What went wrong with the database in the middle of a session, as one of
    :data:`FAULT_CODES`: locked by another process (``SQLITE_BUSY``/``LOCKED``), the disk full
    (``SQLITE_FULL``), the file made read-only (``SQLITE_READONLY``), an I/O error
    (``SQLITE_IOERR``), else ``other``. The primary result code is the extended one's low byte."""
    code = getattr(error, "sqlite_errorcode", None)
    return _FAULTS.get(code & 0xFF, "other") if isinstance(code, int) else "other"


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute(TABLES_SQL).fetchall()]


def quick_check(conn: sqlite3.Connection, limit: float | None = None,
                clock: Callable[[], float] = time.monotonic) -> str | None:
    """SQLite's ``PRAGMA quick_check`` on ``conn``: ``None`` when it finds nothing wrong (or runs
    out of its ``limit``, default :data:`QUICK_CHECK_S` seconds, before it does), else its first
    findings (one line). A damaged file may also raise ``sqlite3.DatabaseError`` here."""
    deadline = clock() + (QUICK_CHECK_S if limit is None else limit)
    conn.set_progress_handler(lambda: int(clock() > deadline), 10_000)
    try:
        rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.OperationalError as error:
        if clock() > deadline and "interrupt" in str(error):
            return None
        raise
    finally:
        conn.set_progress_handler(None, 0)
    findings = [str(row[0]) for row in rows]
    return None if findings == ["ok"] else "; ".join(findings)


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a regular file that begins with :data:`SQLITE_HEADER`."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never open a FIFO (it would block) or a device
            return False
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def unwritable(db: Path) -> Path | None:
    """The first of the database's folder (or the nearest existing one above, which the folder
    would be created in), the database file and its ``-wal``/``-shm`` files (those that exist)
    that this process may not write (``os.access``, which also sees a read-only mount, even as
    root), else ``None``. SQLite in WAL mode writes all of them, even to read."""
    folder = db.parent
    while not folder.exists() and folder != folder.parent:  # the console creates missing folders
        folder = folder.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return folder
    for place in (db, *(Path(f"{db}{suffix}") for suffix in COMPANIONS[:2])):
        if place.exists() and not os.access(place, os.W_OK):
            return place
    return None


#: The first word of the heartbeat file written by a mode that does not beat (:func:`mark_no_heartbeat`).
NO_HEARTBEAT = "no-heartbeat:"


def mark_no_heartbeat(path: Path, mode: str) -> bool:
    """Say in the heartbeat file that the running mode (``discord``, ``both``) does not touch it,
    so that ``health --max-age`` (the Dockerfile's health check) judges the database alone
    instead of waiting for a beat that never comes. Returns whether the file was written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{NO_HEARTBEAT} {mode}\n", encoding="utf-8")
    except OSError as error:
        log.warning("cannot write the heartbeat file %s: %s", path, error.strerror or error)
        return False
    return True


def _unbeaten_mode(path: Path) -> str | None:
    """The mode named by :func:`mark_no_heartbeat` in the file, else ``None`` (a real beat)."""
    with open(path, "rb") as handle:
        head = handle.read(64).decode("utf-8", errors="replace")
    if not head.startswith(NO_HEARTBEAT):
        return None
    return head[len(NO_HEARTBEAT):].strip() or "?"


def touch_heartbeat(path: Path) -> None:
    """Mark the bot alive: the file's mtime is now (its text says when, for a human)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(datetime.now(timezone.utc).isoformat(timespec="seconds") + "\n", encoding="utf-8")


class Heartbeat:
    """The heartbeat of ``path``: :meth:`beat` touches it now; awaited as a JobQueue callback it
    does the same on the bot's event loop, so a stale file means the loop is stuck or the
    process is gone. A file that cannot be written is one warning line when it starts failing
    (and one info line when it works again), never an exception each interval: the bot itself
    is well, only its health check will say otherwise."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._failing: str | None = None  # the last failure's text, while it lasts

    def beat(self) -> None:
        try:
            touch_heartbeat(self.path)
        except OSError as error:
            problem = error.strerror or str(error)
            if self._failing != problem:
                log.warning("cannot write the heartbeat file %s: %s (MAFIA_REFEREE_HEARTBEAT); "
                            "the bot goes on, its health check will fail", self.path, problem)
                self._failing = problem
            return
        if self._failing is not None:
            log.info("the heartbeat file %s is written again", self.path)
            self._failing = None

    async def __call__(self, _context: Any) -> None:
        self.beat()


def heartbeat_job(path: Path) -> Heartbeat:
    """A :class:`Heartbeat` of ``path`` (a JobQueue callback)."""
    return Heartbeat(path)


def backup_path(dest: str | os.PathLike[str], now: Callable[[], float] = time.time) -> Path:
    """``dest`` itself, or a dated file name inside it when it is a directory (or ends with ``/``)."""
    if str(dest).endswith(("/", os.sep)) or Path(dest).is_dir():
        dest = Path(dest)
        stamp = datetime.fromtimestamp(now(), timezone.utc).strftime("%Y%m%d-%H%M%S")
        return dest / f"referee-{stamp}.sqlite3"
    return Path(dest)


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (a link, ``..`` or a relative path notwithstanding)."""
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _live_files(db: Path) -> tuple[Path, ...]:
    """The live database and the files SQLite keeps beside it (:data:`COMPANIONS`)."""
    return (db, *(Path(f"{db}{suffix}") for suffix in COMPANIONS))


def _check_target(db: Path | None, target: Path, *, force: bool) -> None:
    """Refuse (:class:`BackupError`) a ``target`` that is one of the live database's files
    (``same_file``), that exists and is not a regular file — a device such as ``/dev/null``, a
    FIFO, a socket, a symbolic link, a folder (``not_a_file``) — or a non-empty regular file that
    is not an SQLite database (``not_sqlite``: it would be lost) unless ``force``."""
    if db is not None and any(_same_file(live, target) for live in _live_files(db)):
        raise BackupError("same_file", path=str(target))
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as error:
        raise BackupError("failed", path=str(target), problem=error) from error
    if not stat.S_ISREG(info.st_mode):
        raise BackupError("not_a_file", path=str(target))
    if info.st_size and not force and not is_sqlite_file(target):
        raise BackupError("not_sqlite", path=str(target))


def _check_source(db: Path) -> None:
    """The source opens as an SQLite database with a ``games`` table, or :class:`BackupError`
    ``bad_source`` names it (not the destination) as the problem."""
    try:
        source = _connect_existing(db)
        try:
            _games(source)
        finally:
            source.close()
    except sqlite3.Error as error:
        raise BackupError("bad_source", path=str(db), problem=str(error)) from error


def _check_folder(target: Path) -> None:
    """The folder the copy goes into exists (never made here: a backup mount that is not
    mounted must fail loudly, not fill the disk under it — ``no_folder``) and this process may
    create a file in it (tried, as root ignores modes: a read-only mount — ``read_only``)."""
    folder = target.parent
    if not folder.is_dir():
        raise BackupError("no_folder", path=str(folder))
    probe = folder / f".{target.name}.probe"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as error:
        raise BackupError("read_only", path=str(folder), problem=error) from error
    os.close(fd)
    probe.unlink(missing_ok=True)


def backup(db: Path, dest: str | os.PathLike[str], *, force: bool = False) -> tuple[Path, int]:
    """Copy the database at ``db`` to ``dest`` (a file, or a directory for a dated file) with
    SQLite's online backup; returns the file written and its number of games (read back from
    the copy, which is checked with ``PRAGMA quick_check``). Refused (:class:`BackupError`),
    nothing written: no database at ``db`` or not one (``no_database``, ``bad_source``), an empty
    ``dest`` (``empty_dest``), ``dest`` is the live database or its ``-wal``/``-shm``/``-journal``
    file (``same_file``: the copy would replace it), ``dest`` exists and is not a regular file
    (``not_a_file``: ``/dev/null``, a FIFO, a link), ``dest`` is a non-empty file that is not an
    SQLite database and ``force`` is not given (``not_sqlite``), ``dest`` cannot be written
    (``failed``)."""
    from storage import is_url

    if not str(dest).strip():
        raise BackupError("empty_dest")
    if is_url(db):
        return _backup_postgresql(str(db), backup_path(dest), force=force)
    if not db.is_file():
        raise BackupError("no_database", path=str(db))
    target = backup_path(dest)
    _check_target(db, target, force=force)
    _check_folder(target)
    _check_source(db)
    partial = target.with_name(f".{target.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        source = _connect_existing(db)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # pages=-1: the whole database in one step, one snapshot
                verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
                if verdict != "ok":
                    raise sqlite3.DatabaseError(f"quick_check: {verdict}")
                games = _games(copy)
                # A copy that stands alone: one file, no -wal beside it.
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
        finally:
            source.close()
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as error:
        with contextlib.suppress(OSError):  # a folder that cannot be written holds no partial file
            partial.unlink(missing_ok=True)
        raise BackupError("failed", path=str(target), problem=error) from error
    return target, games


def _backup_postgresql(url: str, target: Path, *, force: bool) -> tuple[Path, int]:
    """``backup`` of a PostgreSQL database (``MAFIA_REFEREE_DB=postgresql://…``): one snapshot
    of every table copied into a new SQLite file at ``target`` and checked
    (:func:`storage.copy.copy_to_sqlite`), written beside it and renamed into place as SQLite's
    backup is; ``mafia-referee migrate --db FILE --to URL`` copies it back into an empty
    database. The same refusals as :func:`backup`, and ``unreachable`` (the server, the user,
    the database: the URL shown without its password), ``old_schema`` (start the bot once)."""
    import asyncio

    from storage.copy import CopyError, copy_to_sqlite
    from storage.migrate import MigrationError
    from storage.pg import redacted

    _check_target(None, target, force=force)  # no live file of ours beside it to collide with
    _check_folder(target)
    partial = target.with_name(f".{target.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        tables = asyncio.run(copy_to_sqlite(url, partial))
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {verdict}")
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        os.replace(partial, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
            for suffix in COMPANIONS:
                Path(f"{partial}{suffix}").unlink(missing_ok=True)
        if isinstance(error, CopyError) and error.code == "old_schema":
            raise BackupError("old_schema", path=redacted(url)) from error
        if isinstance(error, (MigrationError, KeyboardInterrupt, SystemExit)):
            raise
        if isinstance(error, (sqlite3.Error, CopyError)) or (
                isinstance(error, OSError) and error.filename is not None):
            raise BackupError("failed", path=str(target), problem=error) from error
        if isinstance(error, Exception):  # asyncpg's own, a refused connection, a timeout
            raise BackupError("unreachable", path=redacted(url), problem=error) from error
        raise
    return target, next((t.rows for t in tables if t.table == "games"), 0)
