"""The SQLite game store (aiosqlite): chats, games and each game's append-only event log."""

from .club import ROLES, TOP_ORDERS, ClubError, ClubGame, PlayerRow, Totals
from .migrate import Migration, MigrationError, bundled, migrate, user_version
from .store import (
    RESULTS, EventRow, GameRow, HostStepRow, NoSuchGame, OutboxItem, OutboxRow, Snapshot,
    StaleRevision, StorageError, Store,
)

__all__ = [
    "ROLES", "TOP_ORDERS", "ClubError", "ClubGame", "PlayerRow", "Totals",
    "RESULTS", "EventRow", "GameRow", "HostStepRow", "Migration", "MigrationError", "NoSuchGame", "OutboxItem",
    "OutboxRow", "Snapshot", "StaleRevision",
    "StorageError", "Store", "bundled", "migrate", "user_version",
]
