"""The games, their logs, the chats and the outbox: the store's methods written once for both
backends over the connection bridge (:mod:`storage.bridge`)."""

from __future__ import annotations

from .bridge import Unit, count, one
from .rows import NoSuchGame, OutboxItem


def update_game(game_id: int, assignments: str, *params: object) -> Unit[None]:
    """``UPDATE games SET <assignments>`` of game ``game_id``; :class:`NoSuchGame` if none."""
    if not (yield count(f"UPDATE games SET {assignments} WHERE id = ?", *params, game_id)):
        raise NoSuchGame(game_id)


def enqueue(item: OutboxItem, payload: str, game_id: int | None, at: float) -> Unit[int]:
    """Queue one outbox row (``payload``: its JSON text); its id."""
    (row_id,) = yield one("INSERT INTO outbox(chat, game_id, kind, payload, slot, created_at)"
                          " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                          item.chat, game_id, item.kind, payload, item.slot, at)
    return int(row_id)
