"""The SQLite game store (aiosqlite): chats, games and each game's append-only event log."""

from .migrate import Migration, MigrationError, bundled, migrate, user_version
from .store import (
    RESULTS, EventRow, GameRow, NoSuchGame, StaleRevision, StorageError, Store,
)

__all__ = [
    "RESULTS", "EventRow", "GameRow", "Migration", "MigrationError", "NoSuchGame", "StaleRevision",
    "StorageError", "Store", "bundled", "migrate", "user_version",
]
