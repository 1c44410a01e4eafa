"""Events: what the judge (or the host-mode service on the players' behalf) does.

Every event is a frozen dataclass; :func:`to_dict` / :func:`from_dict` give its JSON form, which the
game log stores. Seats are ints 1–10. Undo is an event too: :func:`effective` drops what it undoes;
so is Fix, the judge's correction of an earlier action: :func:`effective` puts the corrected
action in its place.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""


@dataclass(frozen=True)
class SetName(Event):
    """Give a seat a player's name (setup or later)."""

    type: ClassVar[str] = "set_name"
    seat: int
    name: str


@dataclass(frozen=True)
class SetRoles(Event):
    """Enter the dealt cards: ``roles[i]`` is seat i+1's role (``"civilian"``, ``"sheriff"``,
    ``"mafia"``, ``"don"``), or all ``None`` to play with roles unknown. Setup and night 0 only."""

    type: ClassVar[str] = "set_roles"
    roles: tuple[str | None, ...]


@dataclass(frozen=True)
class StartGame(Event):
    """Close the setup: night 0 (the договорка) begins (F24 §4.2)."""

    type: ClassVar[str] = "start_game"


@dataclass(frozen=True)
class Next(Event):
    """The judge moves on: ends the current speech, last word, night step or night 0."""

    type: ClassVar[str] = "next"


@dataclass(frozen=True)
class Nominate(Event):
    """Seat ``by`` (the speaker) nominates seat ``target`` (F24 §4.4.2–4.4.3)."""

    type: ClassVar[str] = "nominate"
    by: int
    target: int


@dataclass(frozen=True)
class WithdrawNomination(Event):
    """Seat ``by`` (the speaker) takes back his nomination of today, «Я отзываю игрока № …»
    (MafiaRatings 7.5.1–7.5.2; refused unless the ``nomination_withdrawal`` option allows it)."""

    type: ClassVar[str] = "withdraw_nomination"
    by: int


@dataclass(frozen=True)
class Vote(Event):
    """Hands against ``nominee`` in the current (re)vote: a count, or the voters' seats.

    The last nominee of a round is never voted explicitly when unvoted hands go to him
    (F24 §4.4.8): the round closes after the last but one."""

    type: ClassVar[str] = "vote"
    nominee: int
    count: int | None = None
    voters: tuple[int, ...] = ()


@dataclass(frozen=True)
class RaiseVote(Event):
    """Hands for raising all tied players (F24 §4.4.12.3): a count, or the voters' seats."""

    type: ClassVar[str] = "raise_vote"
    count: int | None = None
    voters: tuple[int, ...] = ()


@dataclass(frozen=True)
class NightKill(Event):
    """The judge records the shooting's outcome: the seat killed, or ``None`` for a miss."""

    type: ClassVar[str] = "night_kill"
    target: int | None


@dataclass(frozen=True)
class Shots(Event):
    """Each black's shot: ``(shooter, target or None)``. All on one seat at the table → kill,
    anything else → miss (F24 §4.5.3–4.5.5)."""

    type: ClassVar[str] = "shots"
    shots: tuple[tuple[int, int | None], ...]


@dataclass(frozen=True)
class DonCheck(Event):
    """The Don checks a seat for the Sheriff (F24 §4.5.6)."""

    type: ClassVar[str] = "don_check"
    target: int


@dataclass(frozen=True)
class SheriffCheck(Event):
    """The Sheriff checks a seat for black (F24 §4.5.7)."""

    type: ClassVar[str] = "sheriff_check"
    target: int


@dataclass(frozen=True)
class BestMove(Event):
    """Night 1's victim names up to three seats as black (F24 §4.5.9, §8.3)."""

    type: ClassVar[str] = "best_move"
    guesses: tuple[int, ...]


@dataclass(frozen=True)
class Penalty(Event):
    """A penalty by the judge, with a reason code from the preset's catalog (seed IV).

    ``reason`` is an item number (``"4.1.3"``, ``"4.2.7"``, ``"4.3.1"``) or a generic code
    (``"warning"``, ``"foul"``, ``"dq"``, ``"ppk"``). ``team`` names the offender's team for a team
    loss when roles are unknown."""

    type: ClassVar[str] = "penalty"
    seat: int
    reason: str = "foul"
    team: str | None = None


@dataclass(frozen=True)
class WithdrawFoul(Event):
    """The judge takes back a seat's last foul (refused if later events depend on it)."""

    type: ClassVar[str] = "withdraw_foul"
    seat: int


@dataclass(frozen=True)
class DeclareResult(Event):
    """With roles unknown the judge declares the end: ``"red"``, ``"black"`` or ``"draw"``."""

    type: ClassVar[str] = "declare_result"
    winner: str


@dataclass(frozen=True)
class Undo(Event):
    """Cancels the latest event not yet undone. Never applied to a state: see :func:`effective`."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Fix(Event):
    """The judge corrects an earlier action: the event logged at ``seq`` (1 for the first) counts
    as ``event`` from now on, and the rest of the log is replayed over it (:func:`rules.correct`
    checks that every later action still stands). Nothing is deleted; an :class:`Undo` takes the
    correction back like any action. Never applied to a state: see :func:`effective`."""

    type: ClassVar[str] = "fix"
    seq: int
    event: Event


#: Corrections that keep an action's kind: the same type, or the shooting recorded the other way
#: (the outcome, or each black's shot).
_SAME_KIND = {"shots": "night_kill"}


def fixable(original: Event, replacement: Event) -> bool:
    """May ``original`` be corrected into ``replacement``? The same kind of action (a penalty
    into another penalty, a nomination into another, a shooting's outcome into each shot …);
    never an undo or a correction."""
    if isinstance(original, (Undo, Fix)) or isinstance(replacement, (Undo, Fix)):
        return False
    kind = lambda e: _SAME_KIND.get(e.type, e.type)  # noqa: E731
    return kind(original) == kind(replacement)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        SetName, SetRoles, StartGame, Next, Nominate, Vote, RaiseVote, NightKill, Shots,
        DonCheck, SheriffCheck, BestMove, Penalty, WithdrawFoul, DeclareResult, Undo,
        WithdrawNomination, Fix,
    )
}


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON form of ``event``: its fields plus ``"type"`` (a :class:`Fix` holds its
    corrected event's own form)."""
    if isinstance(event, Fix):
        return {"type": event.type, "seq": event.seq, "event": to_dict(event.event)}
    return {"type": event.type, **dataclasses.asdict(event)}


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def from_dict(data: Mapping[str, Any]) -> Event:
    """Inverse of :func:`to_dict`. Raises ``ValueError`` for an unknown type or field."""
    data = dict(data)
    kind = data.pop("type", None)
    cls = EVENT_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown event type: {kind!r}")
    if cls is Fix:
        inner = data.get("event")
        if set(data) != {"seq", "event"} or not isinstance(inner, Mapping) \
                or inner.get("type") in ("fix", "undo") or type(data["seq"]) is not int:
            raise ValueError(f"bad fix event: {data!r}")
        return Fix(seq=data["seq"], event=from_dict(inner))
    try:
        return cls(**{k: _tupled(v) for k, v in data.items()})
    except TypeError as exc:
        raise ValueError(f"bad {kind} event: {exc}") from None


def effective(events: Iterable[Event]) -> list[Event]:
    """The events that count: each :class:`Undo` removes the latest action still standing, each
    :class:`Fix` still standing puts its event in the place of the action it corrects.

    An undo with nothing left to undo is ignored here (the service refuses it before logging), and
    so is a fix of an action that does not stand (the service refuses that too)."""
    return [event for _, event in counted(events)]


def standing(events: Iterable[Event]) -> list[tuple[int, Event]]:
    """The actions still standing with their place in the log (``seq``: 1 for the first
    event), corrections (:class:`Fix`) included as they were logged: each :class:`Undo` takes
    back the latest one."""
    return _walk(events)[0]


def undone(events: Iterable[Event]) -> dict[int, int]:
    """Which logged action each :class:`Undo` took back: ``{seq of the action: seq of the
    undo}`` (the audit trail)."""
    return _walk(events)[1]


def _walk(events: Iterable[Event]) -> tuple[list[tuple[int, Event]], dict[int, int]]:
    """The log read once: the actions standing at its end, and what each undo took back."""
    actions: list[tuple[int, Event]] = []
    taken: dict[int, int] = {}
    for seq, event in enumerate(events, 1):
        if isinstance(event, Undo):
            if actions:
                taken[actions.pop()[0]] = seq
        else:
            actions.append((seq, event))
    return actions, taken


def counted(events: Iterable[Event]) -> list[tuple[int, Event]]:
    """:func:`effective` with each event's place in the log: the standing actions, each
    corrected one as its standing :class:`Fix` says (the latest, if several), the fixes
    themselves dropped."""
    actions = standing(events)
    place = {seq: i for i, (seq, _) in enumerate(actions)}
    out = list(actions)
    for seq, event in actions:
        target = place.get(event.seq) if isinstance(event, Fix) and event.seq < seq else None
        if target is not None and not isinstance(actions[target][1], Fix):
            out[target] = (event.seq, event.event)
    return [(seq, event) for seq, event in out if not isinstance(event, Fix)]
