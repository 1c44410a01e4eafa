"""The store's rows, for both backends (:mod:`storage.store`, SQLite; :mod:`storage.pg`,
PostgreSQL): what each method takes and returns, the errors it raises, and how a row of a table
becomes its dataclass (JSON columns decoded) — written once, below the backends."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

#: Seconds after its end that a finished game's delivered outbox rows and snapshot are pruned.
PRUNE_AFTER = 3600.0

#: ``games.result`` values written by the service: a team, a draw, or a game replaced unfinished.
RESULTS = ("red", "black", "draw", "abandoned")


def dumps(value: Any) -> str:
    """``value`` as the stored JSON text (compact, keys sorted, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def message_key(chat: str, slot: str) -> str:
    """The key of a stored message id in ``games.messages``: ``"<chat> <slot>"``. Raises
    :class:`StorageError` for an empty slot or one with a space."""
    if " " in slot or not slot:
        raise StorageError(f"bad message slot {slot!r}")
    return f"{chat} {slot}"


class StorageError(Exception):
    """A store operation that cannot be done."""


class NoSuchGame(StorageError):
    """The game id is not in the store."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class StaleRevision(StorageError):
    """``append`` at a ``seq`` that is not the log's next one: someone logged first."""

    def __init__(self, game_id: int, seq: int, current: int) -> None:
        super().__init__(f"game {game_id}: seq {seq} is not next (the log has {current} rows)")
        self.game_id = game_id
        self.seq = seq
        self.current = current


@dataclass(frozen=True)
class GameRow:
    """A row of ``games``; ``config`` and ``names`` decoded from JSON (seats as ints)."""

    id: int
    chat: str
    judge: str
    config: dict[str, Any]
    names: dict[int, str]
    created_at: float
    finished_at: float | None
    result: str | None
    #: Why the stored log no longer folds (0013: set by :meth:`Store.quarantine`), or ``None``.
    quarantine: dict[str, Any] | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class EventRow:
    """A row of a game's log: ``event`` is the JSON form (:func:`rules.to_dict`)."""

    seq: int
    event: dict[str, Any]
    actor: str
    at: float


@dataclass(frozen=True)
class Snapshot:
    """A game's folded state after log row ``seq`` (0005): ``standing`` events counted (undone
    ones not), written by code of ``version``; ``state`` is JSON-ready (a mapping to store, or
    the JSON text as read back)."""

    seq: int
    standing: int
    version: str
    state: Any


@dataclass(frozen=True)
class HostTableRow:
    """A row of ``host_tables`` (0003), JSON decoded: ``seats`` by int seat."""

    id: int
    chat: str
    host: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    seats: dict[int, str]
    game_id: int | None
    lobby_message: int | None
    step: dict[str, Any] | None
    data: dict[str, Any]
    status: str
    created_at: float
    closed_at: float | None


@dataclass(frozen=True)
class HostStepRow:
    """A row of ``host_steps``: a step a host-mode table opened."""

    no: int
    key: str
    kind: str
    seconds: int
    opened_at: float


HOST_COLUMNS = ("id, chat, host, options, players, seats, game_id, lobby_message, step, data,"
                 " status, created_at, closed_at")
HOST_FIELDS = frozenset({"players", "seats", "game_id", "lobby_message", "step", "data", "status"})


def host_row(row: Sequence[Any]) -> HostTableRow:
    return HostTableRow(
        id=row[0], chat=row[1], host=row[2], options=json.loads(row[3]),
        players=json.loads(row[4] or "[]"),
        seats={int(k): v for k, v in json.loads(row[5] or "{}").items()},
        game_id=row[6], lobby_message=row[7], step=json.loads(row[8]) if row[8] else None,
        data=json.loads(row[9] or "{}"), status=row[10], created_at=row[11], closed_at=row[12],
    )


@dataclass(frozen=True)
class OutboxItem:
    """A message to queue (0004): ``kind`` ``"send"`` or ``"edit"``; ``payload`` is what the
    adapter needs (JSON-ready); ``slot``: for a send, store the new message's id under it in the
    game's messages; for an edit, the stored message it edits."""

    chat: str
    payload: Mapping[str, Any]
    kind: str = "send"
    slot: str | None = None


@dataclass(frozen=True)
class OutboxRow:
    """A row of ``outbox``."""

    id: int
    chat: str
    game_id: int | None
    kind: str
    payload: dict[str, Any]
    slot: str | None
    created_at: float
    sent_at: float | None
    message_id: int | None
    attempts: int
    last_error: str | None
    state: str
    #: a row of several calls: the message ids its calls made so far, in order (0014;
    #: :meth:`storage.games.GameMethods.mark_part`), which a retry does not make again
    parts: tuple[int | None, ...] = ()


OUTBOX_COLUMNS = ("id, chat, game_id, kind, payload, slot, created_at, sent_at, message_id,"
                   " attempts, last_error, state, parts")


def outbox_row(row: Sequence[Any]) -> OutboxRow:
    return OutboxRow(id=row[0], chat=row[1], game_id=row[2], kind=row[3],
                     payload=json.loads(row[4]), slot=row[5], created_at=row[6], sent_at=row[7],
                     message_id=row[8], attempts=row[9], last_error=row[10], state=row[11],
                     parts=tuple(json.loads(row[12])) if row[12] else ())


GAME_COLUMNS = ("g.id, g.chat, g.judge, g.config, g.names, g.created_at, g.finished_at, g.result,"
                 " g.quarantine")


def game_row(row: Sequence[Any]) -> GameRow:
    names = json.loads(row[4]) if row[4] else {}
    return GameRow(
        id=row[0], chat=row[1], judge=row[2], config=json.loads(row[3]),
        names={int(seat): name for seat, name in names.items()},
        created_at=row[5], finished_at=row[6], result=row[7],
        quarantine=json.loads(row[8]) if row[8] else None,
    )
