"""Our own JSON protocol (``bot.protocol.to_json``) read back as a record to replay.

The protocol holds the rules a game was played by (``config``, as ``rules.config_to_dict``),
the seat names and roles, the whole event log (Undo events included, as ``rules.to_dict``) and
the outcome the game had, in the replay report's shape. Replaying it folds the log under its own
config with today's engine: an event the engine now refuses, or an outcome it no longer reaches,
is a difference (a log that no longer replays, or a changed rule); a field that cannot be read
is a :class:`~.model.RecordError` naming it.
"""

from __future__ import annotations

from typing import Any

from ..config import config_from_dict
from ..engine import apply
from ..errors import RuleError
from ..events import effective, from_dict
from ..state import new_game
from .model import CAUSES, Imported, Outcome, RecordedDeparture, RecordError

FORMAT = "mafia-referee/protocol"
FORMAT_VERSION = 1
ROLES = ("civilian", "sheriff", "mafia", "don")


def _outcome(data: Any) -> Outcome:
    if not isinstance(data, dict):
        raise RecordError("outcome", "expected {winner, departures, cancelled_votes}")
    winner = data.get("winner")
    if winner not in ("red", "black", "draw", None):
        raise RecordError("outcome.winner", f"unknown winner {winner!r}")
    departures = []
    raw = data.get("departures")
    if not isinstance(raw, list):
        raise RecordError("outcome.departures", "expected a list")
    for i, d in enumerate(raw):
        field = f"outcome.departures[{i}]"
        if not isinstance(d, dict):
            raise RecordError(field, "expected {seat, day, phase, cause}")
        seat, day, phase, cause = d.get("seat"), d.get("day"), d.get("phase"), d.get("cause")
        if not isinstance(seat, int) or not 1 <= seat <= 10:
            raise RecordError(f"{field}.seat", f"expected a seat 1–10, got {seat!r}")
        if not isinstance(day, int) or day < 0:
            raise RecordError(f"{field}.day", f"expected a day, got {day!r}")
        if phase not in ("day", "night"):
            raise RecordError(f"{field}.phase", f"expected day or night, got {phase!r}")
        if cause not in CAUSES:
            raise RecordError(f"{field}.cause", f"unknown cause {cause!r}")
        departures.append(RecordedDeparture(seat, day, phase, cause))
    cancelled = data.get("cancelled_votes")
    if not isinstance(cancelled, list) or not all(isinstance(d, int) for d in cancelled):
        raise RecordError("outcome.cancelled_votes", "expected a list of days")
    # our own log shows every day's vote, held or not
    return Outcome(winner, departures, list(cancelled), complete=winner is not None,
                   shown_days=list(range(0, 100)))


def read(record: dict[str, Any]) -> Imported:
    """The protocol as an :class:`Imported` record: its events are the effective log (Undo
    folded), minus any event today's engine refuses (each one a problem)."""
    version = record.get("version")
    if version != FORMAT_VERSION:
        raise RecordError("version", f"only version {FORMAT_VERSION} of our protocol is known, "
                                     f"got {version!r}")
    try:
        config = config_from_dict(record.get("config") or {})
    except (ValueError, TypeError) as error:
        raise RecordError("config", str(error)) from None
    names_raw = record.get("names") or {}
    if not isinstance(names_raw, dict):
        raise RecordError("names", "expected an object of seat → name")
    names = {}
    for key, name in names_raw.items():
        if not str(key).isdigit() or not 1 <= int(key) <= 10 or not isinstance(name, str):
            raise RecordError(f"names.{key}", "expected a seat 1–10 and its name")
        names[int(key)] = name
    roles_raw = record.get("roles") or {}
    if not isinstance(roles_raw, dict):
        raise RecordError("roles", "expected an object of seat → role")
    roles = tuple(roles_raw.get(str(seat)) for seat in range(1, 11))
    for seat, role in enumerate(roles, 1):
        if role is not None and role not in ROLES:
            raise RecordError(f"roles.{seat}", f"unknown role {role!r}")
    raw_events = record.get("events")
    if not isinstance(raw_events, list):
        raise RecordError("events", "expected the list of the game's events")
    events = []
    for i, data in enumerate(raw_events):
        if not isinstance(data, dict):
            raise RecordError(f"events[{i}]", "expected an event object")
        try:
            events.append(from_dict(data))
        except ValueError as error:
            raise RecordError(f"events[{i}]", str(error)) from None
    state = new_game(config)
    kept, problems = [], []
    for event in effective(events):
        try:
            state, _ = apply(state, event)
        except RuleError as error:
            problems.append(f"the engine refuses the logged event {event.type} "
                            f"({error.code.value})")
            continue
        kept.append(event)
    return Imported(source="protocol", game_id=record.get("id"), config=config, names=names,
                    roles=roles, events=kept, outcome=_outcome(record.get("outcome")),
                    problems=problems)  # type: ignore[arg-type]
