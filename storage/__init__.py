"""The SQLite game store (aiosqlite): chats, games and each game's append-only event log."""

from .migrate import Migration, MigrationError, bundled, migrate, user_version
from .store import (
    RESULTS, EventRow, GameRow, HostStepRow, NoSuchGame, OutboxItem, OutboxRow, Snapshot,
    StaleRevision, StorageError, Store,
)

__all__ = [
    "RESULTS", "EventRow", "GameRow", "HostStepRow", "Migration", "MigrationError", "NoSuchGame", "OutboxItem",
    "OutboxRow", "Snapshot", "StaleRevision",
    "StorageError", "Store", "bundled", "migrate", "user_version",
]
