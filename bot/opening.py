"""Opening a command's database: SQLite or PostgreSQL by its target (:func:`storage.is_url`),
its failures as the errors :mod:`bot.entry` says in one line (no traceback, exit 2). Below
:mod:`bot.cli`, which re-exports these, so that the console, the demo and the other commands
open their database the same way without importing the command line."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from storage import Store


class DatabaseNotWritable(sqlite3.OperationalError):
    """SQLite could not open the database because ``path`` (the file, its ``-wal``/``-shm``, or
    its folder) is not writable: said as such (:mod:`bot.entry`), not as a broken database."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class DatabaseUnreachable(sqlite3.OperationalError):
    """The PostgreSQL database ``url`` cannot be reached or opened (its server is down, refuses
    the user, has no such database; issue 18): ``cause`` is the driver's error. Said in one line
    (:mod:`bot.entry`: ``cli-db-unreachable``), the URL without its password."""

    def __init__(self, url: str, cause: BaseException) -> None:
        from storage.pg import redacted

        self.url = redacted(url)
        self.cause = cause
        super().__init__(f"{self.url}: {cause}")


class NoDatabase(Exception):
    """A command that reads a database was given a file that does not exist (none is created):
    ``cli-no-database``, exit status 2."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


async def open_database(db: "Path | str", *, create: bool = True) -> "Store":
    """:meth:`storage.Store.open` (SQLite or PostgreSQL by ``db``: :func:`storage.is_url`) with
    its failures as the errors :mod:`bot.entry` says in one line: :class:`NoDatabase` (a file
    that does not exist and ``create`` is false: nothing is created), :class:`DatabaseNotWritable`
    or ``sqlite3.Error`` (SQLite), :class:`DatabaseUnreachable` (PostgreSQL: the server, the user,
    the database), ``storage.migrate``'s errors as they are (a newer schema, another program's
    file)."""
    from storage import Store, is_url, sqlite_path
    from storage.migrate import MigrationError

    if not is_url(db) and not create and not Path(sqlite_path(db)).is_file():
        raise NoDatabase(str(db))
    try:
        return await Store.open(db)
    except sqlite3.Error as error:
        raise why_not_opened(Path(sqlite_path(db)), error) from error
    except MigrationError:
        raise
    except Exception as error:  # asyncpg's own, OSError, a timeout: the server is not there
        if not is_url(db):
            raise
        raise DatabaseUnreachable(str(db), error) from error


def why_not_opened(db: Path, error: sqlite3.Error) -> sqlite3.Error:
    """``error`` (SQLite could not open ``db``) as :class:`DatabaseNotWritable` when the file is
    missing or is an SQLite database and the file, its ``-wal``/``-shm`` or its folder is not
    writable (a read-only mount, another owner); else ``error`` itself (not a database: corrupt)."""
    from .health import is_sqlite_file, unwritable

    if db.exists() and not is_sqlite_file(db):
        return error
    place = unwritable(db)
    return error if place is None else DatabaseNotWritable(place, str(error))
