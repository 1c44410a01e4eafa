"""What a finished game leaves for a club's statistics: one :class:`SeatFacts` per seat.

Pure: :func:`seat_facts` reads a game's final state (and its points, :func:`rules.game_points`,
F24/S24 §8) and nothing else. The service hands the facts to the store in the transaction of the
action that ended or changed the finished game (:meth:`storage.Store.append_many`), so that
``/stats`` and ``/top`` add up stored rows instead of replaying logs.
"""

from __future__ import annotations

from dataclasses import dataclass

import rules
from rules import Cause, Phase, Team

#: Departures that are removals by a penalty (seed 4.2.4, 4.3; F24 §8.2.4–8.2.5).
REMOVALS = (Cause.FOULS, Cause.DISQUALIFICATION, Cause.TEAM_LOSS)


@dataclass(frozen=True)
class SeatFacts:
    """One seat of a finished game. ``points`` and ``additional`` are hundredths of a point
    (F24/S24 §8; §8.7.1 for the additional ones); ``best_move`` the first night victim's hits
    (0–3, F24 §4.5.9, §8.3.4), ``None`` when the seat made none; ``first_killed``: killed on
    the first night (the victim of §8.6's compensation)."""

    seat: int
    name: str | None
    role: str
    result: str  # "red" | "black" | "draw"
    won: bool
    points: int
    additional: int
    best_move: int | None
    first_killed: bool
    fouls: int
    removed: bool

    def as_row(self) -> dict[str, object]:
        return {"seat": self.seat, "name": self.name, "role": self.role, "result": self.result,
                "won": int(self.won), "points": self.points, "additional": self.additional,
                "best_move": self.best_move, "first_killed": int(self.first_killed),
                "fouls": self.fouls, "removed": int(self.removed)}


def hundredths(value: object) -> int:
    """A :class:`~decimal.Decimal` of points as whole hundredths (points have two decimals at
    most, ``rules.points``)."""
    return int(round(value * 100))  # type: ignore[operator]


def seat_facts(state: rules.GameState) -> list[SeatFacts]:
    """Every seat's facts once the game is over with its roles known; ``[]`` otherwise (a game
    with the roles unknown has no teams to count, ``rules.game_points``)."""
    if state.phase is not Phase.GAME_OVER or state.result is None or not state.roles_known:
        return []
    points = rules.game_points(state) or {}
    winner = state.result.winner
    result = winner.value if winner is not None else "draw"
    first = next((n for n in state.nights if n.number == 1), None)
    victim = first.killed if first is not None else None
    out = []
    for seat in state.seats:
        if seat.role is None:
            return []
        n = seat.number
        best = None
        if victim == n and first is not None and first.best_move:
            best = sum(1 for g in first.best_move if state.team_of(g) is Team.BLACK)
        p = points.get(n)
        departure = seat.departure
        out.append(SeatFacts(
            seat=n, name=seat.name, role=seat.role.value, result=result,
            won=winner is not None and seat.role.team is winner,
            points=hundredths(p.total) if p else 0,
            additional=hundredths(p.additional) if p else 0,
            best_move=best, first_killed=victim == n, fouls=len(seat.fouls),
            removed=(seat.disqualified or state.team_loss_by == n
                     or (departure is not None and departure.cause in REMOVALS))))
    return out
