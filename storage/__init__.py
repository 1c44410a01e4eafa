"""The game store: chats, games and each game's append-only event log, on SQLite (aiosqlite,
the default: :mod:`storage.store`) or PostgreSQL (asyncpg, :mod:`storage.pg`);
:meth:`Store.open` picks by its target. The methods are written once for both
(:mod:`storage.games`, :mod:`storage.host`, :mod:`storage.club`) over the connection bridge
(:mod:`storage.bridge`); their rows are :mod:`storage.rows`'."""

from .club import ROLES, TOP_ORDERS, ClubError, ClubGame, PlayerRow, Totals, Tournament
from .evening import Evening, Signed, SignUp
from .migrate import Migration, MigrationError, bundled, migrate, user_version
from .pg import PgStore, is_url
from .rows import (
    RESULTS, EventRow, GameRow, HostStepRow, NoSuchGame, OutboxItem, OutboxRow, Snapshot,
    StaleRevision, StorageError,
)
from .store import Store, sqlite_path
from .web import WebTable

__all__ = [
    "ROLES", "TOP_ORDERS", "ClubError", "ClubGame", "PlayerRow", "Totals", "Tournament",
    "RESULTS", "EventRow", "GameRow", "HostStepRow", "Migration", "MigrationError", "NoSuchGame", "OutboxItem",
    "OutboxRow", "Snapshot", "StaleRevision",
    "StorageError", "Store", "PgStore", "WebTable", "bundled", "is_url", "migrate", "sqlite_path", "user_version",
    "Evening", "Signed", "SignUp",
]
