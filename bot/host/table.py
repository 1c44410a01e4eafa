"""A host-mode table as the controller holds it (the ``host_tables`` row, decoded): its players,
seats, game, running step and bookkeeping (:class:`.port.TableFlags`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import rules

from .options import TableSpec
from .port import TableFlags
from .steps import NIGHT_STEPS, Plan, Step

TABLE_SIZE = len(rules.SEATS)  # F24 §1.1: exactly ten players
LEFT_TABLE = rules.LEFT_TABLE  # seed 4.2.1: leaving the table (a disqualifying foul)


class TableStatus(enum.StrEnum):
    """A table's life: gathering its players, playing, over by the rules, or stopped."""

    LOBBY = "lobby"
    RUNNING = "running"
    OVER = "over"
    STOPPED = "stopped"


def same_night(old: Step | None, plan: Plan) -> bool:
    """The next step of the same night: the night keeps one group message, edited (F24 §4.5)."""
    return (old is not None and old.at_night and plan.kind in NIGHT_STEPS
            and plan.night == old.night)


@dataclass
class Table:
    """A table as the controller holds it (the ``host_tables`` row, decoded; ``flags`` is its
    ``data`` column)."""

    id: int
    chat: str
    host: str
    spec: TableSpec
    players: list[dict[str, Any]] = field(default_factory=list)  # {"user", "name", "reachable"}
    seats: dict[int, str] = field(default_factory=dict)
    game_id: int | None = None
    lobby_message: int | None = None
    step: Step | None = None
    flags: TableFlags = field(default_factory=TableFlags)
    status: TableStatus = TableStatus.LOBBY
    #: fields changed in memory whose write is put off to the handler's next one (issue 34:
    #: what a restart does again harmlessly — a step forgotten once closed, the mutes' record,
    #: a step message's id —, so that a step costs one write): :meth:`stored` adds them
    unsaved: set[str] = field(default_factory=set, compare=False, repr=False)

    @classmethod
    def from_row(cls, row: Any) -> "Table":
        return cls(id=row.id, chat=row.chat, host=row.host, spec=TableSpec.from_dict(row.options),
                   players=list(row.players), seats=dict(row.seats), game_id=row.game_id,
                   lobby_message=row.lobby_message,
                   step=Step.from_dict(row.step) if row.step else None,
                   flags=TableFlags.from_dict(row.data), status=TableStatus(row.status))

    def stored(self, *fields: str) -> dict[str, Any]:
        """The named fields as :meth:`storage.Store.update_host_table` takes them (``flags`` is
        the ``data`` column; the step as JSON): not copied — the store serialises them before
        it returns —, so to be passed to it at once, never kept."""
        values: dict[str, Any] = {}
        for name in fields:
            if name == "flags":
                values["data"] = self.flags.to_dict(copied=False)
            elif name == "step":
                values["step"] = self.step.to_dict(copied=False) if self.step is not None else None
            else:
                values[name] = getattr(self, name)
        return values

    def seat_of(self, user: str) -> int | None:
        return next((s for s, u in self.seats.items() if u == user), None)

    def player(self, user: str) -> dict[str, Any] | None:
        return next((p for p in self.players if p["user"] == user), None)

    @property
    def full(self) -> bool:
        return len(self.players) >= TABLE_SIZE
