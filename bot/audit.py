"""The game's audit trail: every action in its log, who recorded it and when, and what was undone
or corrected and by whom — the judge's ``/log all`` (and his panel's button) and the JSON
protocol's ``audit``.

The log keeps all of it already (ARCHITECTURE.md, "The log is the game": each row is an event,
its actor and its time; an undo is a row of its own, nothing is deleted): this module only reads
it back. Entries name each action by the command that records it (:func:`bot.commands.command_text`,
``/foul 5 4.1.1``): the judge's own words, the same in every language.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

import rules
from storage import EventRow

from .commands import command_text
from .i18n import Catalog


@dataclass(frozen=True)
class Entry:
    """One row of the log: ``seq`` (1 for the first), the event, who recorded it (``actor``,
    a chat user key) and when (``at``, unix seconds). ``undone_by``: the undo that took this
    action back; ``undoes``: for an undo, the action it took back; ``fixed_by``: the latest
    correction of this action still standing (:class:`rules.Fix`, whose ``seq`` names the
    action it corrects; an undone correction corrects nothing)."""

    seq: int
    event: rules.Event
    actor: str
    at: float
    undone_by: "Entry | None" = None
    undoes: int | None = None
    fixed_by: "Entry | None" = None


def trail(rows: Sequence[EventRow]) -> list[Entry]:
    """The audit trail of a game's log rows (:meth:`storage.Store.events`, seq 1, 2, …),
    oldest first."""
    events = [rules.from_dict(row.event) for row in rows]
    taken = rules.undone(events)  # action -> its undo
    undoes = {undo: action for action, undo in taken.items()}
    plain = {row.seq: Entry(row.seq, event, row.actor, row.at, undoes=undoes.get(row.seq))
             for row, event in zip(rows, events)}
    # a correction counts while it stands: one an undo took back corrects nothing any more
    fixes = {event.seq: seq for seq, event in rules.standing(events) if isinstance(event, rules.Fix)}
    return [replace(entry, undone_by=plain.get(taken.get(seq, 0)),
                    fixed_by=plain.get(fixes.get(seq, 0)))
            for seq, entry in plain.items()]


def to_json(entries: Sequence[Entry], config: rules.RulesConfig) -> list[dict[str, Any]]:
    """The trail for the JSON protocol: per log row ``seq``, ``at`` (unix seconds), ``by`` (who
    recorded it), ``event`` (:func:`rules.to_dict`), ``command`` (as typed; a correction's: the
    corrected action), and ``undone`` (``{"seq", "by", "at"}`` of the undo that took it back, or
    ``None``) and ``fixed`` (the same of its latest correction, or ``None``); for an undo
    ``undoes``, for a correction ``fixes`` instead: the ``seq`` it took back or corrected."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        event = entry.event
        item: dict[str, Any] = {"seq": entry.seq, "at": entry.at, "by": entry.actor,
                                "event": rules.to_dict(event),
                                "command": command_text(event.event if isinstance(event, rules.Fix)
                                                        else event, config)}
        if entry.undoes is not None:
            item["undoes"] = entry.undoes
        else:
            item["undone"] = _who(entry.undone_by)
            if isinstance(event, rules.Fix):
                item["fixes"] = event.seq
            else:
                item["fixed"] = _who(entry.fixed_by)
        out.append(item)
    return out


def _who(entry: Entry | None) -> dict[str, Any] | None:
    return None if entry is None else {"seq": entry.seq, "by": entry.actor, "at": entry.at}


def lines(entries: Sequence[Entry], config: rules.RulesConfig, cat: Catalog, *,
          who: Callable[[str], str], when: Callable[[float], str]) -> list[str]:
    """The trail as the judge reads it, one line a row: ``12. 20:31:15 · <who> · /foul 5 4.1.1``,
    an undone action marked with the undo's number, author and time. ``who`` renders an actor,
    ``when`` a moment (the platform's)."""
    out: list[str] = []
    for entry in entries:
        event = entry.event
        if entry.undoes is not None:
            what = cat.text("judge-log-undo", seq=entry.undoes)
        elif isinstance(event, rules.Fix):
            what = cat.text("judge-log-fix", seq=event.seq,
                            now=cat.name(command_text(event.event, config)))
        else:  # as typed, a name in it (/name) as the platform shows it literally
            what = cat.name(command_text(event, config))
        line = cat.text("judge-log-line", seq=entry.seq, when=when(entry.at), who=who(entry.actor),
                        what=what)
        for key, by in (("judge-log-fixed", entry.fixed_by), ("judge-log-undone", entry.undone_by)):
            if by is not None:
                line += " " + cat.text(key, seq=by.seq, who=who(by.actor), when=when(by.at))
        out.append(line)
    return out


def with_audit(protocol: dict[str, Any], rows: Sequence[EventRow],
               config: rules.RulesConfig) -> dict[str, Any]:
    """Our JSON protocol (:func:`bot.protocol.to_json`) with the game's audit trail as
    ``audit`` (:func:`to_json`: who recorded each action and when, what was undone and by
    whom). The protocol's own ``events`` stay as they are: ``mafia-referee replay`` reads them."""
    return {**protocol, "audit": to_json(trail(rows), config)}


def undone_actions(config: rules.RulesConfig, undone: Sequence[rules.Event], cat: Catalog) -> list[str]:
    """The line that names what an undo took back (``undone``: the last action first), each as
    the judge typed it (``/vote 3 3``, :func:`bot.commands.command_text`, the trail's words);
    none for an undo of nothing. For the judge's eyes only: a check's or a role's command is in it."""
    typed = [command_text(event, config) for event in undone]
    return [cat.text("console-undone-actions", count=len(typed), actions="; ".join(typed))] if typed else []
