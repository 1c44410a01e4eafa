"""Reaching under either store backend in a test (issue 18): :func:`rows` runs one SQL statement
(SQLite's ``?`` placeholders) on the store's own database, SQLite's or PostgreSQL's."""

from __future__ import annotations

import sqlite3
from typing import Any, Callable

from storage import PgStore, Store
from storage.bridge import pg_sql


async def rows(store: Store | PgStore, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` gives (none for a statement without rows), as tuples."""
    if isinstance(store, PgStore):
        return [tuple(r) for r in await store.pool.fetch(pg_sql(sql), *params)]
    return [tuple(r) for r in await store.conn.execute_fetchall(sql, params)]


def disk_full(store: Store | PgStore,
              writes: tuple[str, ...] = ("append_many", "update_host_table", "enqueue")
              ) -> Callable[[], None]:
    """Every write of ``store`` named in ``writes`` fails as on a full disk (SQLite's
    SQLITE_FULL) until the function returned is called."""
    saved = {name: getattr(store, name) for name in writes}

    async def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    for name in saved:
        setattr(store, name, full)
    return lambda: [setattr(store, name, method) for name, method in saved.items()] and None
