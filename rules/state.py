"""The game state: plain dataclasses that :func:`rules.apply` copies and never shares.

Numbering (docs/rules.md §2.2): night 0 is the договорка; day k is followed by night k.
``GameState.day`` is the current day, or during night k the number k.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from .config import RulesConfig

_T = TypeVar("_T")

SEATS = tuple(range(1, 11))  # F24 §1.1: exactly ten seats


def _shallow(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance: ``copy.copy`` without its generic
    machinery (``__reduce_ex__``, ``copyreg``), which was most of the cost of a state's copy."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


class Team(str, enum.Enum):
    RED = "red"
    BLACK = "black"


class Role(str, enum.Enum):
    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"

    @property
    def team(self) -> Team:
        return Team.BLACK if self in (Role.MAFIA, Role.DON) else Team.RED


class Phase(str, enum.Enum):
    SETUP = "setup"
    NIGHT_ZERO = "night_zero"  # the договорка (F24 §4.2)
    LAST_WORD = "last_word"  # a departing player's minute (F24 §4.4.13, §4.5.9)
    SPEECH = "speech"  # the day's discussion (F24 §4.3)
    VOTING = "voting"  # a vote or revote (F24 §4.4)
    TIE_SPEECH = "tie_speech"  # 30 s speeches before a revote (F24 §4.4.12)
    RAISE_VOTE = "raise_vote"  # «поднимаем всех?» (F24 §4.4.12.3)
    LEADER_SPEECH = "leader_speech"  # day 1's single leader stays and speaks 30 s (MafiaRatings 7.16.2)
    NIGHT = "night"  # shooting, checks, best move (F24 §4.5)
    GAME_OVER = "game_over"


class NightStep(str, enum.Enum):
    SHOOTING = "shooting"  # F24 §4.5.3
    DON_CHECK = "don_check"  # F24 §4.5.6
    SHERIFF_CHECK = "sheriff_check"  # F24 §4.5.7
    BEST_MOVE = "best_move"  # F24 §4.5.9


class Cause(str, enum.Enum):
    """Why a seat left the table (F24 §1.4, seed 4.5, 4.3)."""

    VOTE = "vote"
    RAISE = "raise"
    KILL = "kill"
    FOULS = "fouls"
    DISQUALIFICATION = "disqualification"
    TEAM_LOSS = "team_loss"


@dataclass(frozen=True)
class Departure:
    cause: Cause
    day: int  # the day, or for phase "night" the night's number
    phase: str  # "day" | "night"
    reason: str | None = None  # the penalty reason code, for removals
    order: int = 0  # 1 for the first seat to leave, 2 for the next, …


@dataclass
class Seat:
    number: int
    name: str | None = None
    role: Role | None = None
    fouls: list[str] = field(default_factory=list)  # reason codes, in order
    warnings: list[str] = field(default_factory=list)
    tech_fouls: list[str] = field(default_factory=list)  # MafiaRatings 9.6.2, apart from fouls
    silence_pending: bool = False  # seed 4.4: the 3rd foul's silence, not yet served
    departure: Departure | None = None
    disqualified: bool = False  # set also for a night victim disqualified the same night
    tournament_removal: bool = False  # seed 5.3

    @property
    def at_table(self) -> bool:
        return self.departure is None

    def clone(self) -> "Seat":
        new = _shallow(self)  # a Departure is never changed in place: shared
        new.fouls = list(self.fouls)
        new.warnings = list(self.warnings)
        new.tech_fouls = list(self.tech_fouls)
        return new


@dataclass
class Ballot:
    """One round of a day vote: the main vote (round 0) or a revote among tied players."""

    candidates: list[int]  # in voting order
    round: int = 0
    counts: dict[int, int] = field(default_factory=dict)
    voters: list[int] = field(default_factory=list)  # seats known to have voted this round
    index: int = 0  # the nominee being voted now
    decided: int | None = None  # the nominee who can no longer be caught (SC-determined)
    choices: dict[int, int] = field(default_factory=dict)  # voter -> nominee, where the voters are named

    def clone(self) -> "Ballot":
        new = _shallow(self)
        new.candidates = list(self.candidates)
        new.counts = dict(self.counts)
        new.voters = list(self.voters)
        new.choices = dict(self.choices)
        return new


@dataclass
class Night:
    """What happened in night k (k ≥ 1)."""

    number: int
    step: NightStep = NightStep.SHOOTING
    shot: bool = False  # the shooting is recorded
    killed: int | None = None
    shots: list[tuple[int, int | None]] = field(default_factory=list)
    don_check: int | None = None
    sheriff_check: int | None = None
    best_move: tuple[int, ...] | None = None
    departures: int = 0  # departures of any kind during this night

    def clone(self) -> "Night":
        new = _shallow(self)
        new.shots = list(self.shots)
        return new


class EndReason(enum.StrEnum):
    """Why a game ended (F24 §1.4; seed 4.3, 5.8): the last black left (``all_black_out``),
    the blacks as many as the reds (``parity``), the draw window (``draw``, seed 5.8, F24 §7.7),
    a team loss (``team_loss``, seed 4.3), the judge's declaration with roles unknown
    (``declared``), the whole table raised (``table_raised``, MafiaRatings 7.21.2: a draw)."""

    ALL_BLACK_OUT = "all_black_out"
    PARITY = "parity"
    DRAW = "draw"
    TEAM_LOSS = "team_loss"
    DECLARED = "declared"
    TABLE_RAISED = "table_raised"


@dataclass(frozen=True)
class Result:
    winner: Team | None  # None: a draw
    why: EndReason

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", EndReason(self.why))


@dataclass
class GameState:
    config: RulesConfig
    seats: list[Seat]
    phase: Phase = Phase.SETUP
    day: int = 0
    revision: int = 0  # number of events applied
    opener: int | None = None  # the seat who opened today's speeches (F24 §4.3.2)
    speech_order: list[int] = field(default_factory=list)
    speech_index: int = 0
    seconds: int = 0  # the length of the speech, last word or night step running now
    nominations: list[tuple[int, int]] = field(default_factory=list)  # today's (by, target)
    ballot: Ballot | None = None
    tie_queue: list[int] = field(default_factory=list)  # tie speeches to come; the leader's speech
    raise_candidates: list[int] = field(default_factory=list)
    last_words: list[int] = field(default_factory=list)  # queue; head speaks now
    last_word_why: str = ""
    vote_bans: dict[int, tuple[str, int]] = field(default_factory=dict)  # day -> (rule, seat)
    result_determined: bool = False  # today's vote result is known (SC-determined; seed 5.2)
    vote_over: bool = False  # today's vote is over (or not held)
    day_departures: int = 0  # departures of any kind today
    nights: list[Night] = field(default_factory=list)
    quiet_nights: int = 0  # seed 5.8 / F24 §7.7 counters
    quiet_days: int = 0
    result: Result | None = None  # fixed by a decisive event, announced at the end (F24 §7.9)
    team_loss_by: int | None = None  # the seat whose offence lost the game (seed 4.3; F24 §8.2.5)
    extras: dict[int, Decimal] = field(default_factory=dict)  # the judge's extra points (F24 §8.4)
    bad_plays: dict[int, tuple[str, ...]] = field(default_factory=dict)  # penalty points (F24 §8.5)

    def clone(self) -> "GameState":
        """A deep copy of everything :func:`rules.apply` may change (the config and the
        immutable values are shared). Equivalent to ``copy.deepcopy``, several times faster."""
        new = _shallow(self)
        new.seats = [seat.clone() for seat in self.seats]
        new.speech_order = list(self.speech_order)
        new.nominations = list(self.nominations)
        new.ballot = self.ballot.clone() if self.ballot is not None else None
        new.tie_queue = list(self.tie_queue)
        new.raise_candidates = list(self.raise_candidates)
        new.last_words = list(self.last_words)
        new.vote_bans = dict(self.vote_bans)
        new.nights = [night.clone() for night in self.nights]
        new.extras = dict(self.extras)
        new.bad_plays = dict(self.bad_plays)
        return new

    def __deepcopy__(self, memo: dict) -> "GameState":
        return self.clone()

    # --- simple views -------------------------------------------------------------------------
    def seat(self, number: int) -> Seat:
        return self.seats[number - 1]

    @property
    def at_table(self) -> list[int]:
        return [s.number for s in self.seats if s.at_table]

    @property
    def roles_known(self) -> bool:
        return all(s.role is not None for s in self.seats)

    @property
    def night(self) -> Night | None:
        """The current night (during a night phase), else ``None``."""
        if self.phase is Phase.NIGHT and self.nights:
            return self.nights[-1]
        return None

    @property
    def speaker(self) -> int | None:
        """The seat whose speech (or last word, or tie speech) runs now."""
        if self.phase is Phase.SPEECH and self.speech_index < len(self.speech_order):
            return self.speech_order[self.speech_index]
        if self.phase is Phase.LAST_WORD and self.last_words:
            return self.last_words[0]
        if self.phase in (Phase.TIE_SPEECH, Phase.LEADER_SPEECH) and self.tie_queue:
            return self.tie_queue[0]
        return None

    @property
    def nominees(self) -> list[int]:
        return [target for _, target in self.nominations]

    def team_of(self, number: int) -> Team | None:
        role = self.seat(number).role
        return role.team if role else None

    def departures(self) -> list[tuple[int, Departure]]:
        return [(s.number, s.departure) for s in self.seats if s.departure is not None]

    def departures_in_order(self) -> list[tuple[int, Departure]]:
        """The departures in the order the rules have the seats leave (:func:`departure_rank`):
        day k's, then night k's; within a phase as they happened, players raised together by
        seat."""
        return sorted(self.departures(), key=lambda item: (
            item[1].day, *departure_rank(item[1].cause, item[1].phase),
            item[0] if item[1].cause is Cause.RAISE else item[1].order))


def departure_rank(cause: Cause | str, phase: str) -> tuple[int, int]:
    """Where a departure of ``cause`` stands in its day or night: ``(0, …)`` a day's, ``(1, …)``
    a night's. By day whoever leaves by the vote leaves first (F24 §1.4: at the moment of the
    vote; a removal before the vote would have cancelled it, seed 5.1, so any removal of a day
    with a vote leaver comes after its result, seed 5.2); then removals; a team loss ends the
    game last (seed 4.3). By night removals leave at once (seed 4.5) and the victim at the end
    of the night (F24 §4.5.4: «по истечении ночи»)."""
    cause = Cause(cause)
    if phase == "night":
        return 1, {Cause.KILL: 1, Cause.TEAM_LOSS: 2}.get(cause, 0)
    return 0, {Cause.VOTE: 0, Cause.RAISE: 0, Cause.TEAM_LOSS: 2}.get(cause, 1)


def new_game(config: RulesConfig | None = None, names: dict[int, str] | None = None) -> GameState:
    """A game in setup with ten empty seats under ``config`` (default: the seed preset)."""
    names = names or {}
    return GameState(
        config=config or RulesConfig(),
        seats=[Seat(number=n, name=names.get(n)) for n in SEATS],
    )
