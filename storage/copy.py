"""Copy a SQLite database into PostgreSQL and check the copy (``mafia-referee migrate --to``,
issue 18); and back, a PostgreSQL database into a new SQLite file (``mafia-referee backup`` of a
PostgreSQL database: :func:`copy_to_sqlite`, issue 31).

Both databases are first brought to the code's schema (their migrations), so they hold the same
tables and columns. Every table of the SQLite file (whatever the migrations made: new tables come
along without a change here) is copied row for row, ids included, in ONE PostgreSQL transaction
whose foreign keys are checked at its ``COMMIT`` (they are ``DEFERRABLE``: chats and games refer
to each other); the identity sequences then continue after the copied ids. A target that already
holds any row is refused: nothing is merged. The check reads both databases again, table by
table in primary-key order, and compares every row (values as the PostgreSQL column's type:
SQLite's REAL may hold an integer) — counts and a SHA-256 per table are reported.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable

from .migrate import TABLES_SQL
from .pg import PgStore, redacted
from .store import StorageError, Store

BATCH = 5000


class CopyError(StorageError):
    """The copy cannot be made (``code``: ``not_empty``) or differs from its source (``differs``)."""

    def __init__(self, code: str, table: str, message: str) -> None:
        super().__init__(message)
        self.code, self.table = code, table


@dataclass(frozen=True)
class TableCopy:
    """One table copied and checked: its rows and the SHA-256 of their values, in key order."""

    table: str
    rows: int
    digest: str


def _cast(kind: str) -> Callable[[Any], Any]:
    if kind in ("bigint", "integer", "smallint"):
        return lambda v: None if v is None else int(v)
    if kind in ("double precision", "real", "numeric"):
        return lambda v: None if v is None else float(v)
    return lambda v: None if v is None else str(v)


async def copy_to_postgresql(source: str | os.PathLike[str], url: str) -> list[TableCopy]:
    """Copy the SQLite database at ``source`` into the PostgreSQL database at ``url`` (migrating
    both first) and check it. Returns each table's rows and digest. Raises :class:`CopyError`
    (``not_empty``: the target holds rows; ``differs``: the check found a difference — the
    copy is then left for inspection), ``sqlite3.Error`` / ``asyncpg`` errors as they come."""
    lite = await Store.open(source)
    try:
        pg = await PgStore.open(url)
        try:
            tables = [str(r[0]) for r in await lite.conn.execute_fetchall(TABLES_SQL)]
            plans = {table: await _plan(lite, pg, table) for table in tables}
            async with pg.pool.acquire() as conn:
                for table in tables:
                    if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                        raise CopyError("not_empty", table,
                                        f"{redacted(url)}: table {table} already holds rows")
                async with conn.transaction():
                    await conn.execute("SET CONSTRAINTS ALL DEFERRED")
                    for table in tables:
                        columns, casts, _ = plans[table]
                        async for batch in _batches(lite, table, columns, plans[table][2]):
                            await conn.copy_records_to_table(
                                table, columns=columns, records=_records(casts, batch))
                    for table, column in await conn.fetch(
                            "SELECT table_name, column_name FROM information_schema.columns"
                            " WHERE table_schema = current_schema() AND is_identity = 'YES'"):
                        await conn.execute(
                            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                            f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
            return [await _check(lite, pg, table, *plans[table]) for table in tables]
        finally:
            await pg.close()
    finally:
        await lite.close()


def _records(casts: list[Callable[[Any], Any]], batch: list[tuple[Any, ...]]
             ) -> list[tuple[Any, ...]]:
    """The rows to write, each value as its PostgreSQL column's type."""
    return [tuple(c(v) for c, v in zip(casts, row)) for row in batch]


async def _plan(lite: Store, pg: PgStore, table: str
                ) -> tuple[list[str], list[Callable[[Any], Any]], list[str]]:
    """The table's columns (SQLite's order), each one's cast to PostgreSQL's type, and its key."""
    info = await lite.conn.execute_fetchall(f"PRAGMA table_info({table})")
    columns = [str(r[1]) for r in info]
    key = [str(r[1]) for r in sorted(info, key=lambda r: r[5]) if r[5]] or columns
    types = {r[0]: r[1] for r in await pg.pool.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1", table)}
    missing = [c for c in columns if c not in types]
    if missing:
        raise CopyError("differs", table, f"PostgreSQL's {table} has no column {missing[0]}")
    return columns, [_cast(types[c]) for c in columns], key


async def _batches(lite: Store, table: str, columns: list[str], key: list[str]
                   ) -> AsyncIterator[list[tuple[Any, ...]]]:
    cursor = await lite.conn.execute(
        f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key)}")
    try:
        while batch := await cursor.fetchmany(BATCH):
            yield [tuple(r) for r in batch]
    finally:
        await cursor.close()


async def _check(lite: Store, pg: PgStore, table: str, columns: list[str],
                 casts: list[Callable[[Any], Any]], key: list[str]) -> TableCopy:
    """Read the table from both databases in key order and compare every row."""
    order = ", ".join(key)
    digest = hashlib.sha256()
    count = 0
    async with pg.pool.acquire() as conn:
        async with conn.transaction(readonly=True):
            copied = conn.cursor(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}",
                                 prefetch=BATCH)
            rows = copied.__aiter__()
            async for batch in _batches(lite, table, columns, key):
                for row in batch:
                    original = tuple(c(v) for c, v in zip(casts, row))
                    try:
                        other = tuple(await rows.__anext__())
                    except StopAsyncIteration:
                        raise CopyError("differs", table, f"{table}: row {count + 1} is missing"
                                        " from the copy") from None
                    if original != other:
                        raise CopyError("differs", table, f"{table}: row {count + 1} differs"
                                        f" ({original!r} vs {other!r})")
                    digest.update(repr(original).encode())
                    count += 1
            async for _ in rows:
                raise CopyError("differs", table, f"{table}: the copy has more rows than {count}")
    return TableCopy(table, count, digest.hexdigest())


async def copy_to_sqlite(url: str, target: str | os.PathLike[str]) -> list[TableCopy]:
    """Copy the PostgreSQL database at ``url`` into a new SQLite file at ``target`` (made at the
    code's schema by its migrations) and check it: ``mafia-referee backup`` of a PostgreSQL
    database (issue 31), a file that :func:`copy_to_postgresql` copies back into an empty
    database. Every table of the SQLite schema is read in ONE read-only, repeatable-read
    transaction (one snapshot, while the bot keeps writing) and written row for row, ids
    included; the file is then read back and each table's rows compared with what was read
    (counts and a SHA-256 per table, as :func:`copy_to_postgresql` reports them). Nothing is
    written to PostgreSQL: a database of another schema than this code's is refused
    (:class:`storage.migrate.NewerSchema`, :class:`CopyError` ``old_schema``: start the bot once
    to migrate it). Raises :class:`CopyError` ``differs`` (the file is left for inspection),
    ``sqlite3.Error`` / ``asyncpg`` / ``OSError`` errors as they come."""
    import sqlite3

    import asyncpg

    from .migrate import NewerSchema, bundled
    from .pg import normal_url, schema_version

    expected = len(bundled("postgresql"))
    conn = await asyncpg.connect(normal_url(url))
    try:
        version = await schema_version(conn)
        if version > expected:
            raise NewerSchema(redacted(url), version, expected)
        if version < expected:
            raise CopyError("old_schema", "schema_version",
                            f"{redacted(url)} has schema {version}, this version needs {expected}")
        lite = await Store.open(target)  # the code's schema: the same tables and columns
        await lite.close()
        copy = sqlite3.connect(target, isolation_level=None)
        try:
            tables = [str(r[0]) for r in copy.execute(TABLES_SQL).fetchall()]
            read: dict[str, tuple[TableCopy, list[Callable[[Any], Any]]]] = {}
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                copy.execute("BEGIN IMMEDIATE")
                for table in tables:
                    read[table] = await _copy_table(conn, copy, table)
                copy.execute("COMMIT")
            return [_check_sqlite_copy(copy, table, *read[table]) for table in tables]
        finally:
            copy.close()
    finally:
        await conn.close()


def _sqlite_plan(copy: Any, table: str) -> tuple[list[str], list[str]]:
    """The SQLite table's columns (its order) and its key (the primary key, else every column)."""
    info = copy.execute(f"PRAGMA table_info({table})").fetchall()
    columns = [str(r[1]) for r in info]
    key = [str(r[1]) for r in sorted(info, key=lambda r: r[5]) if r[5]] or columns
    return columns, key


async def _pg_types(conn: Any, table: str) -> dict[str, str]:
    return {r[0]: r[1] for r in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1", table)}


async def _copy_table(conn: Any, copy: Any, table: str
                      ) -> tuple[TableCopy, list[Callable[[Any], Any]]]:
    """Read ``table`` from PostgreSQL in key order (inside the caller's snapshot; text keys in
    byte order, SQLite's) and insert it into the SQLite file; the rows read, their digest, and
    each column's cast to PostgreSQL's type (for the check)."""
    columns, key = _sqlite_plan(copy, table)
    types = await _pg_types(conn, table)
    missing = [c for c in columns if c not in types]
    if missing:
        raise CopyError("differs", table, f"PostgreSQL's {table} has no column {missing[0]}")
    casts = [_cast(types[c]) for c in columns]
    order = ", ".join(f'{c} COLLATE "C"' if types[c] == "text" else c for c in key)
    insert = (f"INSERT INTO {table} ({', '.join(columns)})"
              f" VALUES ({', '.join('?' for _ in columns)})")
    digest = hashlib.sha256()
    count = 0
    batch: list[tuple[Any, ...]] = []
    async for record in conn.cursor(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}",
                                    prefetch=BATCH):
        row = tuple(c(v) for c, v in zip(casts, record))
        digest.update(repr(row).encode())
        count += 1
        batch.append(row)
        if len(batch) >= BATCH:
            copy.executemany(insert, batch)
            batch = []
    if batch:
        copy.executemany(insert, batch)
    return TableCopy(table, count, digest.hexdigest()), casts


def _check_sqlite_copy(copy: Any, table: str, read: TableCopy,
                       casts: list[Callable[[Any], Any]]) -> TableCopy:
    """Read ``table`` back from the SQLite file in key order, each value as PostgreSQL's type
    (SQLite's REAL may hold an integer): its rows and digest must be what was read from
    PostgreSQL (:class:`CopyError` ``differs`` otherwise)."""
    columns, key = _sqlite_plan(copy, table)
    digest = hashlib.sha256()
    count = 0
    for row in copy.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key)}"):
        digest.update(repr(tuple(c(v) for c, v in zip(casts, row))).encode())
        count += 1
    if (count, digest.hexdigest()) != (read.rows, read.digest):
        raise CopyError("differs", table, f"{table}: the copy holds {count} rows, not {read.rows},"
                        " or other values")
    return read
