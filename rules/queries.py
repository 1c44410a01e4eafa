"""Queries a UI asks the rules: typed answers from the state alone, with a ``can_…`` twin that
says why not (in the spirit of python-chess's ``legal_moves`` and pokerkit's ``can_…``).

* :func:`expected` — what the rules expect now, as one of the :data:`Expected` steps (a speech
  and its length, a nominee's vote and the hands left, the shooting …).
* :func:`current_turn` — who speaks now, for how long, and why (F24 §4.3.1, §4.4.12, §4.4.13).
* :func:`timing` — the timed parts of the step running now (:class:`Timed`: a speech, night 0's
  meeting and the Sheriff's look, a night step), for the judge's timer (docs/rules.md §2.4).
* :func:`rules.engine.vote_plan` — is today's vote held, and if not, why (a :class:`VotePlan`, docs/rules.md §4.1).
* :func:`nominable`, :func:`can_nominate`, :func:`may_nominate` — whom a speaker may nominate
  (F24 §4.4.2–4.4.3).
* :func:`can_vote` — may a seat raise a hand in the running round or the raise vote (seed 4.1.8).
* :func:`checker` — the seat that checks in the night's Don or Sheriff step (docs/rules.md §5.2).
* :func:`can_penalize` — may a seat be given a penalty now; :func:`seen_at_table` — is a seat at
  the table as the table knows it (tonight's victim is, until the morning).
* :func:`result_required` — with roles unknown, must the judge declare the result (F24 §1.4)?
* :func:`out_of_turn_reason` — the penalty for speaking out of one's minute now (seed 4.1.1 by
  day, seed 4.2.6 at night); :data:`LEFT_TABLE` — leaving the table (seed 4.2.1).
* :func:`deal` — ten cards at random (F24 §1.1); :data:`BEST_MOVE_MAX` — the best move's seats.

:func:`next_action` is the same as :func:`expected`, flattened into a kind and a dict, for code
that only needs a name (a generic test loop, a catalog key).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Union

import rules.events as ev  # the module, not the package (rules/__init__ imports this one)

from .engine import (
    BEST_MOVE_MAX, ROLE_COUNTS, VotePlan, check, hands_left, nomination_refusal, result_required,
    vote_plan,
)
from .errors import Code, RuleError
from .state import GameState, NightStep, Phase, Result, Role, Team

__all__ = [
    "BEST_MOVE_MAX", "LEFT_TABLE", "NIGHT_TALK", "OUT_OF_TURN", "Action", "BestMoveStep",
    "ChecksStep", "DonCheckStep", "Expected", "LastWord", "LeaderSpeech", "NightZero", "Over", "RaiseVoting",
    "Setup", "SheriffCheckStep", "Shooting", "Speech", "TieSpeech", "Timed", "Turn", "VotePlan", "Voting",
    "can_nominate", "can_penalize", "can_vote", "checker", "current_turn", "deal", "expected",
    "may_nominate",
    "next_action", "nominable", "out_of_turn_reason", "result_required", "seen_at_table", "shooters",
    "timing", "vote_plan",
]

OUT_OF_TURN = "4.1.1"  # seed 4.1.1: speech outside one's minute, interjections and whispers too
NIGHT_TALK = "4.2.6"  # seed 4.2.6: «ночные» разговоры или выкрики — a disqualifying foul
LEFT_TABLE = "4.2.1"  # seed 4.2.1: leaving the table — a disqualifying foul


@dataclass(frozen=True)
class Turn:
    """A running speech: ``kind`` is ``"speech"``, ``"last_word"``, ``"tie_speech"`` or
    ``"leader_speech"``;
    ``seconds`` is its length (0 for a seed-4.4 silence)."""

    seat: int
    seconds: int
    kind: str


# --- what the rules expect now ----------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """The judge enters the names and the cards, then starts the game (F24 §1.1)."""

    kind: ClassVar[str] = "start"


@dataclass(frozen=True)
class NightZero:
    """Night 0, the договорка: ``seconds`` of the blacks' meeting (F24 §4.2.1); ``Next`` ends it."""

    kind: ClassVar[str] = "next"
    seconds: int


@dataclass(frozen=True)
class Speech:
    """A day speech of ``seat`` (F24 §4.3.1), ``seconds`` long: 0 for the 3rd foul's silence
    (``silenced``, seed 4.4: he may still nominate), the short speech at 3–4 players (seed 5.7)."""

    kind: ClassVar[str] = "speech"
    seat: int
    seconds: int

    @property
    def silenced(self) -> bool:
        return self.seconds == 0


@dataclass(frozen=True)
class LastWord:
    """A departing player's last word (F24 §4.4.13, §4.5.9)."""

    kind: ClassVar[str] = "last_word"
    seat: int
    seconds: int


@dataclass(frozen=True)
class TieSpeech:
    """A tied nominee's speech before the revote (F24 §4.4.12; seed 5.5)."""

    kind: ClassVar[str] = "tie_speech"
    seat: int
    seconds: int


@dataclass(frozen=True)
class LeaderSpeech:
    """Day 1's single leader, who stays under ``first_day_vote=raise_only`` or ``self_break``,
    speaks ``seconds`` more (MafiaRatings 7.16.2, 7.16.4; docs/rules.md §4.8); then night."""

    kind: ClassVar[str] = "leader_speech"
    seat: int
    seconds: int


@dataclass(frozen=True)
class Voting:
    """The hands against ``nominee`` in round ``round`` of today's vote (F24 §4.4.5):
    ``hands_left`` may still be raised; the last nominee gets those left (§4.4.8)."""

    kind: ClassVar[str] = "vote"
    nominee: int
    hands_left: int
    nominees: tuple[int, ...]
    round: int


@dataclass(frozen=True)
class RaiseVoting:
    """«Поднимаем всех?» for ``seats`` (F24 §4.4.12.3): more than half of ``at_table`` for."""

    kind: ClassVar[str] = "raise_vote"
    seats: tuple[int, ...]
    at_table: int

    @property
    def needed(self) -> int:
        """The hands that pass it: more than half of the players at the table."""
        return self.at_table // 2 + 1


@dataclass(frozen=True)
class Shooting:
    """The night's shooting (F24 §4.5.3)."""

    kind: ClassVar[str] = "shooting"
    night: int
    seconds: int


@dataclass(frozen=True)
class ChecksStep:
    """A night check: the Don looks for the Sheriff (F24 §4.5.6), the Sheriff for a black
    (§4.5.7)."""

    kind: ClassVar[str] = ""
    night: int
    seconds: int


@dataclass(frozen=True)
class DonCheckStep(ChecksStep):
    kind: ClassVar[str] = "don_check"


@dataclass(frozen=True)
class SheriffCheckStep(ChecksStep):
    kind: ClassVar[str] = "sheriff_check"


@dataclass(frozen=True)
class BestMoveStep:
    """Night 1's victim ``seat`` names up to three seats (F24 §4.5.9)."""

    kind: ClassVar[str] = "best_move"
    night: int
    seconds: int
    seat: int


@dataclass(frozen=True)
class Over:
    """The game is over: ``result`` (F24 §1.4)."""

    kind: ClassVar[str] = "none"
    result: Result | None


Expected = Union[Setup, NightZero, Speech, LastWord, TieSpeech, LeaderSpeech, Voting, RaiseVoting,
                 Shooting, DonCheckStep, SheriffCheckStep, BestMoveStep, Over]


def current_turn(state: GameState) -> Turn | None:
    """Who speaks now and for how long, or ``None`` when nobody does."""
    seat = state.speaker
    if seat is None:
        return None
    kind = {Phase.SPEECH: "speech", Phase.LAST_WORD: "last_word", Phase.TIE_SPEECH: "tie_speech",
            Phase.LEADER_SPEECH: "leader_speech"}[state.phase]
    return Turn(seat=seat, seconds=state.seconds, kind=kind)


@dataclass(frozen=True)
class Timed:
    """A timed part of a step: ``kind`` names it — a turn's kind (``speech``, ``last_word``,
    ``tie_speech``, ``leader_speech``), night 0's ``mafia_meeting``, ``sheriff_look`` or ``free_seating``, or a night
    step (``shooting``, ``don_check``, ``sheriff_check``, ``best_move``) — ``seconds`` its length,
    ``seat`` the speaker or the best move's victim."""

    kind: str
    seconds: int
    seat: int | None = None


def timing(state: GameState) -> tuple[Timed, ...]:
    """The timed parts of the step the rules expect now, in order, from the game's
    :class:`~rules.config.Timers` (docs/rules.md §2.4): one for a speech, a last word or a tie
    speech (none for the 3rd foul's 0 s silence, seed 4.4); night 0's meeting (F24 §4.2.1), then
    the Sheriff's look (F24 §4.2.3) or the free seating (S24 §4.2.3) where the game has one;
    one for each night step (the shooting, the checks, the best move: F24 §4.5.3–4.5.9). A part
    of 0 s is left out; nothing for a vote, the setup or the end."""
    step = expected(state)
    timers = state.config.timers
    if isinstance(step, NightZero):
        parts = [Timed("mafia_meeting", step.seconds), Timed("sheriff_look", timers.sheriff_look),
                 Timed("free_seating", timers.free_seating)]
    elif isinstance(step, (Speech, LastWord, TieSpeech, LeaderSpeech)):
        parts = [Timed(step.kind, step.seconds, step.seat)]
    elif isinstance(step, BestMoveStep):
        parts = [Timed(step.kind, step.seconds, step.seat)]
    elif isinstance(step, (Shooting, ChecksStep)):
        parts = [Timed(step.kind, step.seconds)]
    else:
        parts = []
    return tuple(part for part in parts if part.seconds > 0)


_TURNS = {"speech": Speech, "last_word": LastWord, "tie_speech": TieSpeech,
          "leader_speech": LeaderSpeech}
_NIGHT_STEPS = {NightStep.SHOOTING: Shooting, NightStep.DON_CHECK: DonCheckStep,
                NightStep.SHERIFF_CHECK: SheriffCheckStep}


def expected(state: GameState) -> Expected:
    """What the rules expect now (one of :data:`Expected`)."""
    phase = state.phase
    if phase is Phase.SETUP:
        return Setup()
    if phase is Phase.NIGHT_ZERO:
        return NightZero(state.seconds)
    if phase is Phase.GAME_OVER:
        return Over(state.result)
    turn = current_turn(state)
    if turn is not None:
        return _TURNS[turn.kind](turn.seat, turn.seconds)  # type: ignore[no-any-return]
    if phase is Phase.VOTING and state.ballot is not None:
        ballot = state.ballot
        return Voting(ballot.candidates[ballot.index], hands_left(state), tuple(ballot.candidates),
                      ballot.round)
    if phase is Phase.RAISE_VOTE:
        return RaiseVoting(tuple(state.raise_candidates), len(state.at_table))
    night = state.night
    assert night is not None
    if night.step is NightStep.BEST_MOVE:
        assert night.killed is not None
        return BestMoveStep(night.number, state.seconds, night.killed)
    return _NIGHT_STEPS[night.step](night.number, state.seconds)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Action:
    """:func:`expected` flattened: ``kind`` names the step (``start``, ``next`` for night 0,
    ``speech``, ``last_word``, ``tie_speech``, ``leader_speech``, ``vote``, ``raise_vote``, ``shooting``,
    ``don_check``, ``sheriff_check``, ``best_move``, ``none`` when the game is over), ``params``
    its fields (``seat``, ``seconds``, ``nominee``, ``hands_left``, ``nominees``, ``round``,
    ``seats``, ``at_table``, ``night``)."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


def next_action(state: GameState) -> Action:
    """What the rules expect next, as a kind and a dict (see :class:`Action`)."""
    step = expected(state)
    params = {f.name: getattr(step, f.name) for f in dataclasses.fields(step)
              if f.name != "result"}
    for name in ("nominees", "seats"):
        if name in params:
            params[name] = list(params[name])
    return Action(step.kind, params)


# --- who may do what ------------------------------------------------------------------------------

def can_nominate(state: GameState, by: int, target: int) -> RuleError | None:
    """``None`` if ``by`` may nominate ``target`` now, else the :class:`RuleError` saying why
    (F24 §4.4.2–4.4.4: in his own minute, once a day, a seat at the table not yet nominated):
    :func:`rules.check`'s answer, without its copy of the state
    (:func:`rules.engine.nomination_refusal`)."""
    return nomination_refusal(state, ev.Nominate(by=by, target=target))


def nominable(state: GameState, by: int) -> list[int]:
    """The seats ``by`` may nominate now (:func:`can_nominate`)."""
    return [seat.number for seat in state.seats if can_nominate(state, by, seat.number) is None]


def may_nominate(state: GameState, by: int) -> bool:
    """Whether ``by`` may nominate anyone now (:func:`nominable` is not empty), asked seat by
    seat only until one is allowed (a speaker's button «Выставить»)."""
    return any(can_nominate(state, by, seat.number) is None for seat in state.seats)


def can_vote(state: GameState, seat: int) -> RuleError | None:
    """``None`` if ``seat`` may raise a hand now: against the nominee voted on (one vote a round,
    seed 4.1.8; only players at the table, F24 §4.4.5) or for the raise (§4.4.12.3); else why."""
    step = expected(state)
    if isinstance(step, Voting):
        return check(state, ev.Vote(nominee=step.nominee, voters=(seat,)))
    if isinstance(step, RaiseVoting):
        return check(state, ev.RaiseVote(voters=(seat,)))
    return RuleError(Code.WRONG_PHASE, event="vote", phase=state.phase.value, rules=state.config.preset)


def shooters(state: GameState) -> list[int]:
    """The blacks at the table: they shoot (F24 §4.5.3); empty with roles unknown."""
    return [n for n in state.at_table if state.team_of(n) is Team.BLACK]


def checker(state: GameState) -> int | None:
    """The seat that checks in the night's Don or Sheriff step, if he may (docs/rules.md §5.2: one shot
    tonight still checks; one who has left does not — the step runs all the same); ``None``
    otherwise, or with roles unknown."""
    step = expected(state)
    if not isinstance(step, ChecksStep):
        return None
    role = Role.DON if isinstance(step, DonCheckStep) else Role.SHERIFF
    seat = next((s.number for s in state.seats if s.role is role), None)
    if seat is None:
        return None
    make = ev.DonCheck if role is Role.DON else ev.SheriffCheck
    other = seat % len(state.seats) + 1  # he checks another seat, never his own (F24 §4.5.6–4.5.7)
    return seat if check(state, make(target=other)) is None else None


def seen_at_table(state: GameState, seat: int) -> bool:
    """Is ``seat`` at the table as the table knows it? Tonight's victim leaves at the end of the
    night and is told in the morning (F24 §4.5.4, §4.5.9): until then he is treated as any other
    player (his night talk is night talk, seed 4.2.6) — unless removed tonight too."""
    number = state.seat(seat)
    if number.at_table:
        return True
    night = state.night
    return (night is not None and night.killed == seat and not number.disqualified
            and len(number.fouls) < 4)


def can_penalize(state: GameState, seat: int) -> RuleError | None:
    """``None`` if ``seat`` may be given a penalty now (at the table, in or waiting for his
    last word, tonight's victim, or after the game: seed 4.5, F24 §7.9); else why."""
    return check(state, ev.Penalty(seat=seat, reason="warning"))


def out_of_turn_reason(state: GameState) -> str:
    """The penalty for speaking out of one's minute now: at night — night 0 and every night
    step — seed 4.2.6 («ночные» разговоры или выкрики), a disqualifying foul (seed 4.5: he
    leaves at once); by day seed 4.1.1 (речь не в свою игровую минуту), a foul."""
    return NIGHT_TALK if state.phase in (Phase.NIGHT_ZERO, Phase.NIGHT) else OUT_OF_TURN


def deal(rng: Any) -> tuple[str, ...]:
    """Ten cards dealt at random with ``rng`` (a :class:`random.Random`): 7 red with one
    Sheriff, 3 black with one Don (F24 §1.1), as :class:`rules.SetRoles` takes them."""
    cards = [role.value for role, count in ROLE_COUNTS.items() for _ in range(count)]
    rng.shuffle(cards)
    return tuple(cards)
