"""Reaching under either store backend in a test (issue 18): :func:`rows` runs one SQL statement
(SQLite's ``?`` placeholders) on the store's own database, SQLite's or PostgreSQL's."""

from __future__ import annotations

from typing import Any

from storage import PgStore, Store
from storage.bridge import pg_sql


async def rows(store: Store | PgStore, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` gives (none for a statement without rows), as tuples."""
    if isinstance(store, PgStore):
        return [tuple(r) for r in await store.pool.fetch(pg_sql(sql), *params)]
    return [tuple(r) for r in await store.conn.execute_fetchall(sql, params)]
