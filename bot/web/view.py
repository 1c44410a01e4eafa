"""What a page shows, as plain JSON-ready data: pure functions of a game's state (no I/O, no
clock of their own), built from the engine's queries and :mod:`bot.render`'s words — the same
ones ``/status``, the group's announcements and the judge's panel use. No rule lives here.

Three faces of one table:

* :func:`public_view` — the live page and the stream overlay: what the table's group may see
  (:func:`bot.render.status_text` with ``for_judge=False``: the seats with their fouls and
  departures *as the table has been told them* — :func:`bot.render.told_departure` —, who
  speaks, the cancelled votes; the public announcements; the ballot and its counts once the vote
  is announced; the roles, the result and the points only once the game is over). A public
  view is a function of public information only: two games that differ only in what is hidden
  (the roles, the checks, who the blacks shot before the morning) give byte-identical views,
  step for step (``tests/test_web_secrecy.py``).
* :func:`broadcast_view` — the broadcast page (a stream's own, shown behind the table by the
  club's delay): the public view with the roles and every announcement, private ones included.
* :func:`judge_view` — the judge's Mini App: his panel (:func:`bot.judge.panel.render_panel`'s
  text and buttons, pressed as the chat's buttons are) over the seat grid with the roles and
  the nominees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import rules
from rules import Phase

from ..i18n import Catalog
from ..judge import panel as pn
from ..judge.routing import step_key
from ..render import (
    notice_text, result_text, seat_facts, status_header, status_text, told_departure,
    turn_line, vote_ban_lines,
)

#: the announcements a page shows (the newest last)
FEED = 12
#: the words of a page that are not the game's (the catalogs' ``web-*`` keys, web.ftl)
LABELS = ("web-title", "web-fouls", "web-warnings", "web-out", "web-speaking", "web-ballot",
          "web-votes", "web-result", "web-points", "web-stopped", "web-no-game", "web-feed",
          "web-waiting", "web-offline", "web-game", "web-seat", "web-timer-paused",
          "web-nominated", "web-command", "web-send", "web-refused", "web-outdated", "web-roles",
          "web-standings", "web-tables", "web-signed-out", "web-foul")


@dataclass(frozen=True)
class Clock:
    """A step's countdown as a page shows it: the step's ``kind`` and ``seat``, its length
    (``seconds``), the timer seconds ``left`` when it was read, whether it ``running`` (a
    paused or ended one stands still) and ``scale`` (real seconds per timer second: a page
    counts down by itself between updates)."""

    kind: str
    seat: int | None
    seconds: int
    left: float
    running: bool
    scale: float

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "seconds": self.seconds,
                "left": round(self.left, 1), "running": self.running, "scale": self.scale}


def judge_clock(timer: Mapping[str, Any] | None, state: rules.GameState, now: float) -> Clock | None:
    """The stored timer of a judge's game (:class:`bot.judge.timer.Timer`'s dict) while it times
    the step on now (its :func:`~bot.judge.routing.step_key`), else ``None``."""
    from ..judge.timer import Timer

    if timer is None:
        return None
    found = Timer.from_dict(timer)
    if found.key != step_key(state):
        return None
    return Clock(found.kind, found.seat, found.seconds, found.remaining(now), found.live, found.scale)


def host_clock(step: Mapping[str, Any] | None, state: rules.GameState, now: float,
               scale: float) -> Clock | None:
    """A hosted table's running step (:class:`bot.host.steps.Step`'s dict: its kind, seat,
    length and deadline — never the inputs it collects) while it is the step on now; before its
    message is shown its window has not opened: its full length, standing still."""
    if not step or step.get("kind") in (None, "over") or not step.get("seconds"):
        return None
    seconds = int(step["seconds"])
    started = bool(step.get("started", True))
    left = max(0.0, (float(step["deadline"]) - now) / scale) if started else float(seconds)
    if state.phase is Phase.GAME_OVER:
        return None
    return Clock(str(step["kind"]), step.get("seat"), seconds, min(left, float(seconds)),
                 started and left > 0, scale)


def labels(cat: Catalog, *, roles: bool = False) -> dict[str, Any]:
    """The page's own words in the table's language; with ``roles`` the roles' names too (a
    page that shows roles: the end, the broadcast, the judge's)."""
    words: dict[str, Any] = {key.removeprefix("web-").replace("-", "_"): cat.text(key) for key in LABELS}
    if roles:
        words["role"] = {role.value: cat.text(f"role-{role.value}") for role in rules.Role}
        words["role_short"] = {role.value: cat.text(f"web-role-short-{role.value}") for role in rules.Role}
    return words


def _feed(notices: Iterable[rules.Notice], cat: Catalog, *, private: bool) -> list[str]:
    lines = [t for t in (notice_text(n, cat) for n in notices if private or not n.private) if t]
    return lines[-FEED:]


def _ballot(state: rules.GameState) -> dict[str, Any] | None:
    """The vote as announced (F24 §4.4.5): the nominees in their order and the hands counted
    so far, while the vote is on; the raise's seats (§4.4.12.3)."""
    ballot = state.ballot
    if state.phase is Phase.VOTING and ballot is not None:
        counted = ballot.candidates[:ballot.index]
        return {"round": ballot.round, "candidates": list(ballot.candidates),
                "counts": {str(c): ballot.counts.get(c, 0) for c in counted},
                "current": ballot.candidates[ballot.index] if ballot.index < len(ballot.candidates)
                else None}
    if state.phase is Phase.RAISE_VOTE:
        return {"round": ballot.round if ballot is not None else 0,
                "candidates": list(state.raise_candidates), "counts": {}, "current": None,
                "raise": True}
    return None


def _points(state: rules.GameState) -> dict[str, Any] | None:
    table = rules.game_points(state)
    if table is None:
        return None
    return {str(n): rules.points.show(p.total) for n, p in table.items()}


def public_view(state: rules.GameState, cat: Catalog, *, game_id: int, clock: Clock | None,
                notices: Sequence[rules.Notice], stopped: bool = False,
                roles: bool = False) -> dict[str, Any]:
    """The live page's and the overlay's data (see the module docstring); ``roles``: the
    broadcast's (every role and announcement; :func:`broadcast_view`)."""
    over = state.phase is Phase.GAME_OVER
    reveal = roles or over  # F24 §4.4.13: the roles are revealed at the end
    turn = rules.current_turn(state) if not over else None
    seats = []
    for seat in state.seats:
        told = seat.departure if roles else told_departure(state, seat)
        seats.append({
            "n": seat.number,
            "name": seat.name or "",
            "fouls": len(seat.fouls),
            "warnings": len(seat.warnings),
            "out": told is not None,
            "facts": "; ".join(seat_facts(state, seat, cat, for_judge=roles)),
            "speaking": turn is not None and turn.seat == seat.number,
            "role": seat.role.value if reveal and seat.role is not None else None,
        })
    view: dict[str, Any] = {
        "kind": "broadcast" if roles else "public",
        "game": game_id,
        "lang": cat.lang,
        "head": status_header(state, cat),
        "turn": turn_line(state, cat) if turn is not None else None,
        "bans": vote_ban_lines(state, cat, for_judge=roles),
        "seats": seats,
        "ballot": _ballot(state),
        "clock": clock.as_dict() if clock is not None and not over else None,
        "feed": _feed(notices, cat, private=roles),
        "status": status_text(state, cat, for_judge=roles) if not over else result_text(state, cat),
        "result": result_text(state, cat) if over else None,
        "points": _points(state) if over else None,
        "stopped": stopped,
        "labels": labels(cat, roles=reveal),
    }
    return view


def broadcast_view(state: rules.GameState, cat: Catalog, *, game_id: int, clock: Clock | None,
                   notices: Sequence[rules.Notice], stopped: bool = False) -> dict[str, Any]:
    """The broadcast page's data: the roles and every announcement (shown behind the table by
    the club's delay)."""
    return public_view(state, cat, game_id=game_id, clock=clock, notices=notices, stopped=stopped,
                       roles=True)


def empty_view(cat: Catalog, kind: str = "public") -> dict[str, Any]:
    """A table with no game (yet): its page waits."""
    return {"kind": kind, "game": None, "lang": cat.lang, "head": cat.text("web-no-game"),
            "turn": None, "bans": [], "seats": [], "ballot": None, "clock": None, "feed": [],
            "status": "", "result": None, "points": None, "stopped": False,
            "labels": labels(cat)}


def seat_actions(state: rules.GameState, game_id: int, revision: int) -> dict[str, dict[str, str]]:
    """The judge's one-tap actions on each seat of the grid, as the panel's press data
    (:mod:`bot.judge.callbacks`): ``foul`` opens the panel's reason sheet of that seat
    (:data:`bot.judge.panel.V_FOUL_SEAT`, where :func:`rules.can_penalize` allows a penalty);
    ``nominate``: the speaker nominates it (:data:`bot.judge.panel.NOMINATE`, where
    :func:`rules.nominable` allows it). The engine decides again when it is pressed."""
    from ..judge.callbacks import encode

    over = state.phase is Phase.GAME_OVER
    speaker = state.speaker
    nominable = set(rules.nominable(state, speaker)) \
        if speaker is not None and state.phase is Phase.SPEECH else set()
    out: dict[str, dict[str, str]] = {}
    for seat in rules.SEATS:
        acts: dict[str, str] = {}
        if not over and state.phase is not Phase.SETUP and rules.can_penalize(state, seat) is None:
            acts["foul"] = encode(game_id, revision, pn.V_FOUL_SEAT, seat)
        if seat in nominable:
            acts["nominate"] = encode(game_id, revision, pn.NOMINATE, seat)
        out[str(seat)] = acts
    return out


def judge_view(state: rules.GameState, cat: Catalog, *, game_id: int, revision: int,
               panel: pn.Panel, clock: Clock | None) -> dict[str, Any]:
    """The judge's Mini App: the seat grid (the roles, the fouls, the nominees, who is out and
    how, who speaks), his panel's text and buttons (their press data as the chat's panel
    carries them: ``game:revision:action``), one-tap seat actions and the step's countdown."""
    over = state.phase is Phase.GAME_OVER
    turn = rules.current_turn(state) if not over else None
    nominees = set(state.nominees) if state.phase in (Phase.SPEECH, Phase.LAST_WORD) else set()
    seats = [{
        "n": seat.number,
        "name": seat.name or "",
        "fouls": len(seat.fouls),
        "warnings": len(seat.warnings),
        "out": seat.departure is not None,
        "facts": "; ".join(seat_facts(state, seat, cat, for_judge=True)),
        "speaking": turn is not None and turn.seat == seat.number,
        "nominated": seat.number in nominees,
        "role": seat.role.value if seat.role is not None else None,
    } for seat in state.seats]
    return {
        "kind": "judge",
        "game": game_id,
        "revision": revision,
        "lang": cat.lang,
        "head": status_header(state, cat),
        "turn": turn_line(state, cat) if turn is not None else None,
        "seats": seats,
        "actions": seat_actions(state, game_id, revision),
        "panel": {"text": panel.text,
                  "rows": [[{"label": b.label, "data": b.data} for b in row] for row in panel.rows]},
        "clock": clock.as_dict() if clock is not None and not over else None,
        "labels": labels(cat, roles=True),
    }


