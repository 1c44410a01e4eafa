"""The format-neutral facts a real game record holds, and what it says happened.

Both importers (:mod:`.polemica`, :mod:`.mafiaratings`) turn a record into a :class:`GameFacts`
(what the players and the judge did: nominations, ballots, shots, checks, penalties with the
moment each was given) plus an :class:`Outcome` (what the record says came of it: the winner, who
left when and why, which votes a removal cancelled). :mod:`.driver` feeds the facts to the
engine; :mod:`.replay` compares the engine's outcome with the recorded one.

Numbering is the project's (docs/rules.md §2.2): day k is followed by night k; night 0 is the
договорка. Ballot rounds are the engine's: 0 is the main vote, 1 the first revote (F24 §4.4.12).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import FirstDayVote, RulesConfig
from ..events import Event
from ..state import departure_rank

#: Night steps in the order the engine runs them (F24 §4.5.3–4.5.9).
NIGHT_STEPS = ("shooting", "don_check", "sheriff_check", "best_move")

#: Departure causes of the report (rules.Cause values).
CAUSES = ("vote", "raise", "kill", "fouls", "disqualification", "team_loss")


class RecordError(ValueError):
    """A record the importer cannot replay faithfully: an unknown option or field value, or a
    missing field it needs. ``field`` names the record's field (a JSON path such as
    ``players[4].death.type``); nothing is ever guessed in its place."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Moment:
    """When something was done, in the engine's terms.

    ``kind`` is one of ``night_zero``, ``day_start``, ``morning`` (the night victim's last word),
    ``speech``, ``voting_start``, ``voting``, ``tie_speech``, ``raise``, ``last_word`` (of a
    player voted out), ``night`` or ``end`` (after the game). ``day`` is the day, or for
    ``night`` the night's number. ``seat`` is the speaker (speech, tie speech, last word, morning)
    or the nominee being voted; ``None`` when the record does not say. ``round`` is the ballot
    round (0 = main vote); ``None`` matches any round. ``step`` is a night step (NIGHT_STEPS).
    """

    kind: str
    day: int
    seat: int | None = None
    round: int | None = None
    step: str | None = None

    def describe(self) -> str:
        if self.kind == "night_zero":
            return "night 0"
        if self.kind == "night":
            return f"night {self.day} ({self.step or 'shooting'})"
        if self.kind == "end":
            return "after the game"
        where = {
            "day_start": "start of the day", "morning": "the night victim's last word",
            "speech": "speech", "voting_start": "before the vote", "voting": "vote",
            "tie_speech": "tie speech", "raise": "raise vote", "last_word": "last word",
        }.get(self.kind, self.kind)
        parts = [f"day {self.day} {where}"]
        if self.seat is not None:
            parts.append(f"of seat {self.seat}" if self.kind != "voting" else f"on seat {self.seat}")
        if self.round is not None and self.kind in ("voting", "tie_speech"):
            parts.append(f"(round {self.round})")
        return " ".join(parts)


@dataclass(frozen=True)
class PenaltyFact:
    """A penalty the judge gave: ``reason`` is a rules penalty code (``foul``, ``dq``,
    ``4.2.1``, ``ppk``), ``order`` sorts penalties given at the same moment, ``source`` names
    the record's field for messages."""

    seat: int
    reason: str
    moment: Moment
    order: tuple[Any, ...]
    source: str


@dataclass
class DayFacts:
    """What the record holds of day k's vote.

    ``nominations`` maps nominator → nominee (the speech order decides the voting order, F24
    §4.4.4); ``rounds[r]`` maps voter → the nominee he voted against in round r. ``raise_yes``
    is the number of hands for raising all tied players (F24 §4.4.12.3), ``raise_voters`` whose
    hands they were where the record names them; when the record has no
    such ballot, ``raise_passed`` may carry its outcome as the record shows it (``raise_inferred``).
    """

    nominations: dict[int, int] = field(default_factory=dict)
    rounds: list[dict[int, int]] = field(default_factory=list)
    raise_yes: int | None = None
    raise_voters: tuple[int, ...] | None = None  # who raised a hand for it, where the record says
    raise_passed: bool | None = None


@dataclass
class NightFacts:
    """What the record holds of night k: the blacks' shots (``shots``, Polemica), or the
    outcome only (``kill`` with ``kill_known``, MafiaRatings: trust the recorded death), the
    Don's and the Sheriff's checks."""

    shots: tuple[tuple[int, int | None], ...] | None = None
    kill: int | None = None
    kill_known: bool = False
    don_check: int | None = None
    sheriff_check: int | None = None


@dataclass
class GameFacts:
    """Everything the driver feeds to the engine. ``end`` is the last point of the game the
    record covers, as a clock ``(day, part)``: part 1 = day ``day``, part 2 = night ``day``; a
    partial record stops at ``stop_at``, a moment it has not played."""

    days: dict[int, DayFacts] = field(default_factory=dict)
    nights: dict[int, NightFacts] = field(default_factory=dict)
    penalties: list[PenaltyFact] = field(default_factory=list)
    best_move: tuple[int, ...] | None = None
    #: the judge's extra points by seat (F24/S24 §8.4), decimal strings, given after the result
    extras: dict[int, str] = field(default_factory=dict)
    end: tuple[int, int] = (99, 2)
    stop_at: Moment | None = None
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the record disagreeing with itself


@dataclass(frozen=True)
class RecordedDeparture:
    seat: int
    day: int  # the day, or the night's number for phase "night"
    phase: str  # "day" | "night"
    cause: str  # one of CAUSES

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "day": self.day, "phase": self.phase, "cause": self.cause}


def departure_key(d: RecordedDeparture) -> tuple[int, int, int]:
    """The rules' order (:func:`rules.state.departure_rank`): day k's departures, then night
    k's; by day the vote's leavers first, by night the victim last. A stable sort keeps the
    order given within that (the engine's: :meth:`rules.GameState.departures_in_order`)."""
    return (d.day, *departure_rank(d.cause, d.phase))


@dataclass
class Outcome:
    """What a record (or a replay) says came of the game, in the report's shape.

    ``winner`` is ``"red"``, ``"black"``, ``"draw"`` or ``None`` (a partial record);
    ``cancelled_votes`` lists the days whose vote a removal cancelled (seed 5.1, 5.2), or is
    ``None`` when the record cannot show it; ``complete`` is False for a record that stops
    before the end; ``shown_days`` are the days whose nominations would have been voted, so
    that whether their vote was held shows in the record (:func:`vote_expected`);
    ``leaving_order`` the seats in the order they left the table, where the record says it
    (Polemica's envelope, ``quit_index``)."""

    winner: str | None
    departures: list[RecordedDeparture]
    cancelled_votes: list[int] | None
    complete: bool = True
    shown_days: list[int] = field(default_factory=list)  # days whose nominations it shows
    leaving_order: list[int] | None = None

    def as_report(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "departures": [d.as_dict() for d in sorted(self.departures, key=departure_key)],
            "cancelled_votes": sorted(self.cancelled_votes or []),
        }


@dataclass
class Imported:
    """A record made ready for the engine.

    ``config`` is the rules the game was played by, ``names`` the seat labels, ``roles`` the
    dealt cards (``roles[i]`` is seat i+1's), ``events`` the ``rules`` events that reproduce the
    game (setup included; departures are never fed, the engine produces them), ``outcome`` what
    the record says came of it. ``notes`` explain liberties the import had to take (a penalty
    fed at the nearest moment the replay has, an outcome inferred from deaths); ``problems`` are
    record facts the engine refused or could not be given — each one a disagreement."""

    source: str
    game_id: Any
    config: RulesConfig
    names: dict[int, str]
    roles: tuple[str, ...]
    events: list[Event]
    outcome: Outcome
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def vote_expected(day: int, facts: DayFacts, first_day_vote: FirstDayVote) -> bool:
    """Would day ``day``'s vote be held with the nominations the record shows, no removal
    aside? Not without nominees, nor on day 1 under the first-day rule (F24 §4.4.10: a single
    nominee; the ``first_day_vote`` option). Only such a day can show a vote cancelled."""
    nominees = set(facts.nominations.values())
    if not nominees:
        return False
    return day != 1 or (first_day_vote is not FirstDayVote.NO_VOTE
                        and (len(nominees) > 1 or first_day_vote is FirstDayVote.NORMAL))


def recorded_cancelled_votes(
    days: dict[int, DayFacts],
    first_day_vote: FirstDayVote,
    skip_days: set[int],
) -> list[int]:
    """Days whose vote the record shows as cancelled: nominees were named but no ballot was
    cast, and neither the first-day rule (F24 §4.4.10; the ``first_day_vote`` option) nor the
    end of the record explains it (``skip_days``: a team loss that day, a partial record's last
    day)."""
    return [day for day, facts in sorted(days.items())
            if day not in skip_days and not facts.rounds and vote_expected(day, facts, first_day_vote)]


def check_roles(roles: tuple[str, ...], field: str) -> None:
    """F24 §1.1: seven red (one Sheriff) and three black (one Don). A record dealing other cards
    cannot be replayed."""
    counts = {role: roles.count(role) for role in ("don", "mafia", "sheriff", "civilian")}
    if len(roles) != 10 or counts != {"don": 1, "mafia": 2, "sheriff": 1, "civilian": 6}:
        raise RecordError(field, f"the cards dealt are not 1 don, 2 mafia, 1 sheriff, 6 "
                                 f"civilians: {counts}")
