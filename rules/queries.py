"""Queries a UI needs. Each answers from the state alone and explains a refusal.

* :func:`current_turn` — who speaks now, for how long, and why (F24 §4.3.1, §4.4.12, §4.4.13).
* :func:`can_nominate` — may ``by`` nominate ``target`` now (F24 §4.4.2–4.4.3)?
* :func:`rules.engine.vote_plan` — is today's vote held, and if not, why (docs/rules.md §4.1)?
* :func:`next_action` — what the judge must do next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import events as ev
from .engine import check, hands_left
from .errors import RuleError
from .state import GameState, NightStep, Phase


@dataclass(frozen=True)
class Turn:
    """A running speech: ``kind`` is ``"speech"``, ``"last_word"`` or ``"tie_speech"``;
    ``seconds`` is its length (0 for a seed-4.4 silence)."""

    seat: int
    seconds: int
    kind: str


@dataclass(frozen=True)
class Action:
    """What the judge must do next: ``kind`` names the action, ``params`` its details.

    Kinds: ``start`` (setup), ``next`` (night 0), ``speech``, ``last_word``, ``tie_speech``
    (``seat``, ``seconds``; ``Next`` ends it), ``vote`` (``nominee``, ``hands_left``),
    ``raise_vote`` (``seats``, ``at_table``), ``shooting``, ``don_check``, ``sheriff_check``,
    ``best_move`` (``seat``), ``none`` (the game is over)."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


def current_turn(state: GameState) -> Turn | None:
    """Who speaks now and for how long, or ``None`` when nobody does."""
    seat = state.speaker
    if seat is None:
        return None
    kind = {Phase.SPEECH: "speech", Phase.LAST_WORD: "last_word", Phase.TIE_SPEECH: "tie_speech"}[state.phase]
    return Turn(seat=seat, seconds=state.seconds, kind=kind)


def can_nominate(state: GameState, by: int, target: int) -> RuleError | None:
    """``None`` if ``by`` may nominate ``target`` now, else the :class:`RuleError` saying why."""
    return check(state, ev.Nominate(by=by, target=target))


def next_action(state: GameState) -> Action:
    """What the rules expect next (see :class:`Action`)."""
    phase = state.phase
    if phase is Phase.SETUP:
        return Action("start")
    if phase is Phase.NIGHT_ZERO:
        return Action("next", {"seconds": state.seconds})
    if phase is Phase.GAME_OVER:
        return Action("none")
    turn = current_turn(state)
    if turn is not None:
        return Action(turn.kind, {"seat": turn.seat, "seconds": turn.seconds})
    if phase is Phase.VOTING and state.ballot is not None:
        ballot = state.ballot
        left = hands_left(state)
        return Action("vote", {"nominee": ballot.candidates[ballot.index], "hands_left": left,
                               "nominees": list(ballot.candidates), "round": ballot.round})
    if phase is Phase.RAISE_VOTE:
        return Action("raise_vote", {"seats": list(state.raise_candidates), "at_table": len(state.at_table)})
    night = state.night
    assert night is not None
    params: dict[str, Any] = {"night": night.number, "seconds": state.seconds}
    if night.step is NightStep.BEST_MOVE:
        params["seat"] = night.killed
    return Action(night.step.value, params)
