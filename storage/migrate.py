"""Schema migrations: numbered ``migrations/NNNN_name.sql`` files, tracked by ``PRAGMA user_version``.

Each script carries its own ``BEGIN IMMEDIATE`` … ``PRAGMA user_version = N;`` … ``COMMIT`` (aiosqlite's
``executescript()`` commits any open transaction first, so the runner cannot wrap it). A script
that fails is rolled back as a whole and the version stays where it was. Applying is idempotent:
only scripts numbered above the current ``user_version`` run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Iterable

import aiosqlite

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class MigrationError(Exception):
    """The migrations or the database's version are inconsistent."""


class NewerSchema(MigrationError):
    """The database at ``path`` has schema ``version``, newer than this code's ``expected`` (the
    number of bundled migrations): a newer mafia-referee wrote it (a downgrade). Nothing is
    changed; every entry point says it in one line (``bot.entry``), as ``health`` does."""

    def __init__(self, path: str, version: int, expected: int) -> None:
        super().__init__(f"database {path or ':memory:'} has schema {version}, newer than this "
                         f"code ({expected})")
        self.path, self.version, self.expected = path, version, expected


class ForeignDatabase(MigrationError):
    """The SQLite database at ``path`` is not ours: schema 0 (never migrated by us) but it holds
    ``tables`` — another program's file. Refused, so that our tables are never added to it."""

    def __init__(self, path: str, tables: list[str]) -> None:
        super().__init__(f"database {path} is not a mafia-referee database (it holds "
                         f"{', '.join(tables[:5])})")
        self.path, self.tables = path, tables


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


#: The backends with migrations of their own: SQLite's in ``storage/migrations``, PostgreSQL's in
#: ``storage/migrations/postgresql`` (the same numbers and names: :func:`bundled` refuses a list
#: that differs from SQLite's, so a table added to one backend is added to both).
BACKENDS = ("sqlite", "postgresql")


def bundled(backend: str = "sqlite") -> list[Migration]:
    """The migrations shipped for ``backend`` (:data:`BACKENDS`), in order, numbered 1, 2, 3, …
    without gaps. Raises :class:`MigrationError` if PostgreSQL's are not SQLite's numbers and
    names."""
    if backend not in BACKENDS:
        raise MigrationError(f"no backend {backend!r}")
    folder = resources.files("storage") / "migrations"
    if backend != "sqlite":
        folder = folder / backend
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    ordered = _checked(found)
    if backend != "sqlite":
        mine = [(m.number, m.name) for m in ordered]
        sqlite = [(m.number, m.name) for m in bundled()]
        if mine != sqlite:
            raise MigrationError(f"the {backend} migrations {mine} are not SQLite's {sqlite}: "
                                 f"each storage/migrations/NNNN_name.sql needs its twin in "
                                 f"storage/migrations/{backend}/")
    return ordered


def _checked(migrations: Iterable[Migration]) -> list[Migration]:
    ordered = sorted(migrations, key=lambda m: m.number)
    numbers = [m.number for m in ordered]
    if numbers != list(range(1, len(ordered) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, got {numbers}")
    return ordered


async def user_version(conn: aiosqlite.Connection) -> int:
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(rows[0][0])


#: The tables and views of a database, SQLite's own (``sqlite_*``) aside, sorted.
TABLES_SQL = ("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
              "AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY name")


async def foreign_tables(conn: aiosqlite.Connection) -> list[str]:
    """:data:`TABLES_SQL`'s names."""
    return [str(row[0]) for row in await conn.execute_fetchall(TABLES_SQL)]


async def _path(conn: aiosqlite.Connection) -> str:
    rows = await conn.execute_fetchall("PRAGMA database_list")
    return next((str(row[2]) for row in rows if row[1] == "main"), "")


async def refuse_unknown(conn: aiosqlite.Connection, expected: int | None = None) -> int:
    """The database's ``user_version``, after refusing one newer than the code's ``expected``
    migrations (:class:`NewerSchema`) and one at schema 0 that already holds tables
    (:class:`ForeignDatabase`: our first migration sets the version in its own transaction, so
    such a file is another program's). Reads only: run it before anything writes (even
    ``PRAGMA journal_mode=WAL`` changes the file)."""
    expected = len(bundled()) if expected is None else expected
    version = await user_version(conn)
    if version > expected:
        raise NewerSchema(await _path(conn), version, expected)
    if version == 0 and (tables := await foreign_tables(conn)):
        raise ForeignDatabase(await _path(conn), tables)
    return version


async def migrate(conn: aiosqlite.Connection, migrations: Iterable[Migration] | None = None) -> list[int]:
    """Apply the migrations above the database's ``user_version``. Returns the numbers applied
    (empty when up to date). Refuses, changing nothing, what :func:`refuse_unknown` refuses."""
    ordered = bundled() if migrations is None else _checked(migrations)
    version = await refuse_unknown(conn, len(ordered))
    applied = []
    for migration in ordered[version:]:
        try:
            await conn.executescript(migration.sql)
        except BaseException:
            if conn.in_transaction:
                await conn.rollback()
            raise
        now = await user_version(conn)
        if now != migration.number:
            raise MigrationError(
                f"migration {migration.number:04d}_{migration.name} left user_version at {now}")
        applied.append(migration.number)
    return applied
