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


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def bundled() -> list[Migration]:
    """The migrations shipped in ``storage/migrations``, in order, numbered 1, 2, 3, … without gaps."""
    folder = resources.files("storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    return _checked(found)


def _checked(migrations: Iterable[Migration]) -> list[Migration]:
    ordered = sorted(migrations, key=lambda m: m.number)
    numbers = [m.number for m in ordered]
    if numbers != list(range(1, len(ordered) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, got {numbers}")
    return ordered


async def user_version(conn: aiosqlite.Connection) -> int:
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, migrations: Iterable[Migration] | None = None) -> list[int]:
    """Apply the migrations above the database's ``user_version``. Returns the numbers applied
    (empty when up to date). Refuses a database newer than the code."""
    ordered = bundled() if migrations is None else _checked(migrations)
    version = await user_version(conn)
    if version > len(ordered):
        raise MigrationError(f"database version {version} is newer than this code ({len(ordered)})")
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
