"""The game store: chats, games and each game's append-only event log, on SQLite (aiosqlite,
the default) or PostgreSQL (asyncpg, :mod:`storage.pg`); :meth:`Store.open` picks by its target."""

from .club import ROLES, TOP_ORDERS, ClubError, ClubGame, PlayerRow, Totals, Tournament
from .migrate import Migration, MigrationError, bundled, migrate, user_version
from .store import (
    RESULTS, EventRow, GameRow, HostStepRow, NoSuchGame, OutboxItem, OutboxRow, Snapshot,
    StaleRevision, StorageError, Store, sqlite_path,
)
from .pg import PgStore, is_url
from .web import WebTable

__all__ = [
    "ROLES", "TOP_ORDERS", "ClubError", "ClubGame", "PlayerRow", "Totals", "Tournament",
    "RESULTS", "EventRow", "GameRow", "HostStepRow", "Migration", "MigrationError", "NoSuchGame", "OutboxItem",
    "OutboxRow", "Snapshot", "StaleRevision",
    "StorageError", "Store", "PgStore", "WebTable", "bundled", "is_url", "migrate", "sqlite_path", "user_version",
]
