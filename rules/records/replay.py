"""Replay a real game record through the engine and compare the outcomes.

The engine's outcome is read from the final state: the winner (F24 §1.4, §7.7), every
departure with its day, phase and cause (``state.departures()``; a team loss, seed 4.3, from its
notice), and the days whose vote a removal cancelled (seed 5.1, 5.2: ``state.vote_bans``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import fold
from .. import notices as nt
from ..notices import Notice
from ..state import GameState, Phase
from .model import Imported, Outcome, RecordedDeparture, departure_key
from .reading import import_record


@dataclass
class ReplayReport:
    """The result of :func:`replay`.

    ``report`` is the engine's outcome in exactly the shape ``{"winner": "red"|"black"|"draw"|
    None, "departures": [{"seat", "day", "phase", "cause"}], "cancelled_votes": [day, ...]}``;
    ``recorded`` is the record's, in the same shape. ``agrees`` is True when they match and the
    engine accepted every fact of the record; ``differences`` says where they do not. ``notices``
    are every notice of the replay (for printing); ``notes`` the liberties the import took."""

    source: str
    game_id: Any
    report: dict[str, Any]
    recorded: dict[str, Any]
    agrees: bool
    differences: list[str]
    notices: list[Notice]
    notes: list[str] = field(default_factory=list)
    complete: bool = True

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready summary (without the notices)."""
        return {
            "source": self.source,
            "id": self.game_id,
            "complete": self.complete,
            "agrees": self.agrees,
            "replay": self.report,
            "record": self.recorded,
            "differences": list(self.differences),
            "notes": list(self.notes),
        }


def replay_state(imported: Imported) -> tuple[GameState, list[Notice]]:
    """Fold the imported events under the record's rules: the final state and every notice."""
    return fold(imported.config, imported.events)


def engine_outcome(state: GameState, notices: list[Notice]) -> Outcome:
    """What the engine says came of the game."""
    winner: str | None = None
    if state.phase is Phase.GAME_OVER and state.result is not None:
        winner = state.result.winner.value if state.result.winner else "draw"
    departures = [
        RecordedDeparture(seat, d.day, d.phase, d.cause.value)
        for seat, d in state.departures_in_order()
    ]
    departures += team_losses(notices)
    cancelled = sorted(day for day in state.vote_bans if day <= state.day)
    return Outcome(winner, departures, cancelled, complete=state.phase is Phase.GAME_OVER)


def team_losses(notices: list[Notice]) -> list[RecordedDeparture]:
    """A team loss (seed 4.3) ends the game without a departure in the state; its notice says
    who, and the notices before it say when."""
    day, phase = 0, "night"
    out: list[RecordedDeparture] = []
    for notice in notices:
        if isinstance(notice, nt.DayStarts):
            day, phase = notice.day, "day"
        elif isinstance(notice, nt.NightFalls):
            day, phase = notice.night, "night"
        elif isinstance(notice, nt.TeamLoss):
            out.append(RecordedDeparture(notice.seat, day, phase, "team_loss"))
    return out


def _describe(d: RecordedDeparture | None) -> str:
    if d is None:
        return "stays at the table"
    when = f"night {d.day}" if d.phase == "night" else f"day {d.day}"
    return f"leaves on {when} by {d.cause}"


def compare(replayed: Outcome, recorded: Outcome, shown_days: set[int]) -> list[str]:
    """Where the replay and the record disagree. Cancelled votes are compared on the days whose
    vote the record can show (``shown_days``: days whose nominations would have been voted)."""
    out: list[str] = []
    if replayed.winner != recorded.winner:
        out.append(f"winner: the record has {recorded.winner or 'no result'}, the replay "
                   f"{replayed.winner or 'no result (the game goes on)'}")
    mine = {d.seat: d for d in replayed.departures}
    theirs = {d.seat: d for d in recorded.departures}
    for seat in sorted(set(mine) | set(theirs), key=lambda s: (*departure_key(
            theirs.get(s) or mine[s]), s)):
        a, b = theirs.get(seat), mine.get(seat)
        if a != b:
            out.append(f"seat {seat}: the record {_describe(a)}, the replay {_describe(b)}")
    if recorded.leaving_order is not None:
        out.extend(_order_differences(replayed, recorded.leaving_order))
    if recorded.cancelled_votes is not None:
        replay_days = {d for d in replayed.cancelled_votes or [] if d in shown_days}
        record_days = set(recorded.cancelled_votes)
        for day in sorted(record_days - replay_days):
            out.append(f"day {day}: the record holds no vote although nominees were named "
                       f"(cancelled), the replay does not cancel it")
        for day in sorted(replay_days - record_days):
            out.append(f"day {day}: the replay cancels the vote (seed 5.1/5.2), the record has it")
    return out


def _order_differences(replayed: Outcome, order: list[int]) -> list[str]:
    """The record's order of leaving the table (``order``, first to leave first) against the
    replay's. A team loss leaves nobody in the order; players raised together may be in any
    order among themselves."""
    left = [d for d in replayed.departures if d.cause != "team_loss"]
    mine = [d.seat for d in left]
    if sorted(mine) != sorted(order):
        return [f"leaving order: the record has seats {order} leaving, the replay {mine}"]
    when = {d.seat: (i, (d.day, d.phase) if d.cause == "raise" else None) for i, d in enumerate(left)}
    for a, b in zip(order, order[1:]):
        (i, group_a), (j, group_b) = when[a], when[b]
        if i > j and not (group_a is not None and group_a == group_b):
            return [f"leaving order: the record has seat {a} leave before seat {b}, the replay "
                    f"after"]
    return []


def replay_imported(imported: Imported, shown_days: set[int] | None = None) -> ReplayReport:
    """Replay an :class:`Imported` record and compare (see :func:`replay`)."""
    state, notices = replay_state(imported)
    replayed = engine_outcome(state, notices)
    recorded = imported.outcome
    shown = shown_days if shown_days is not None else set(recorded.shown_days)
    differences = list(imported.problems) + compare(replayed, recorded, shown)
    return ReplayReport(
        source=imported.source,
        game_id=imported.game_id,
        report=replayed.as_report(),
        recorded=recorded.as_report(),
        agrees=not differences,
        differences=differences,
        notices=notices,
        notes=list(imported.notes),
        complete=recorded.complete,
    )


def replay(record: Any) -> ReplayReport:
    """Import ``record`` (a parsed Polemica v4 or MafiaRatings JSON), replay it under the rules
    it was played by and compare the engine's outcome with the record's. Raises
    :class:`~.model.RecordError` for a record the importer cannot read faithfully."""
    return replay_imported(import_record(record))
