"""Host mode's words and keyboards: pure builders over the catalogs (no Telegram objects, no I/O).

Callback data: ``"h:<table>:<step>:<action>[:<arg>]"`` — the table, the number of the step the
button belongs to (a press from an earlier step is refused as outdated; lobby buttons carry 0)
and the action. At most 64 bytes (Bot API).

Secrecy: nothing built for the group names a role or a check before the end (F24 §4.4.13,
§4.5.4; seed 5.4); the night's group line is the same whether or not the role of the step is
still at the table. Roles, shots and check answers are built only for private chats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

import rules
from rules import Kind, Role

from ..i18n import Catalog
from ..outbox import Button, Rows
from ..render import duration, notice_text, player_label, seat_label, seat_list
from .steps import BEST, CHECK, SHOOT, WARNED_STEPS, Step, StepKind

PREFIX = "h"
MAX_BYTES = 64
ROW = 5

JOIN, LEAVE = "J", "L"
OPEN = "O"  # the lobby of an evening's list opened to everyone by its host
PASS, NOM_VIEW, BACK, NOMINATE = "P", "N", "B", "M"
HAND = "V"
NO_SHOT = "-"

_TOKEN = re.compile(r"[A-Za-z0-9-]+")
_NUMBER = re.compile(r"[0-9]{1,12}")

# Kinds the group is told otherwise: the night's steps by the step line, the best move's prompt
# in private, the end by the full result (render.result_text: the winner, departures, fouls, the
# best move, the roles).
_FOLDED = frozenset({Kind.NIGHT_STEP, Kind.BEST_MOVE_DUE, Kind.GAME_OVER})


Btn = Button  # a button of a host-mode message (:class:`bot.outbox.Button`)


@dataclass(frozen=True)
class HostPress:
    table: int
    step: int
    action: str
    arg: str = ""

    def seat(self) -> int | None:
        """The argument as a seat 1–10, ``None`` for "no shot"; ``ValueError`` otherwise."""
        if self.arg == NO_SHOT:
            return None
        if not _NUMBER.fullmatch(self.arg) or int(self.arg) not in rules.SEATS:
            raise ValueError(f"bad seat {self.arg!r}")
        return int(self.arg)


def encode(table: int, step: int, action: str, arg: object = "") -> str:
    parts = [PREFIX, str(table), str(step), action] + ([str(arg)] if str(arg) else [])
    assert all(_TOKEN.fullmatch(p) for p in parts[3:]), parts
    data = ":".join(parts)
    assert len(data.encode("utf-8")) <= MAX_BYTES, data
    return data


def decode(data: str | None) -> HostPress | None:
    if not data or len(data.encode("utf-8")) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) not in (4, 5) or parts[0] != PREFIX:
        return None
    if not _NUMBER.fullmatch(parts[1]) or not _NUMBER.fullmatch(parts[2]):
        return None
    if not all(_TOKEN.fullmatch(p) for p in parts[3:]):
        return None
    return HostPress(int(parts[1]), int(parts[2]), parts[3], parts[4] if len(parts) == 5 else "")


def deep_link(bot_username: str, table: int) -> str:
    """``https://t.me/<bot>?start=h<table>``: opens the private chat with the bot (a player must
    have started it so that his role can reach him)."""
    return f"https://t.me/{bot_username}?start={PREFIX}{table}"


def start_payload(text: str) -> int | None:
    """The table of a ``/start h<table>`` deep link, else ``None``."""
    parts = text.strip().split()
    if len(parts) == 2 and parts[0].split("@")[0] == "/start" and parts[1].startswith(PREFIX) \
            and _NUMBER.fullmatch(parts[1][len(PREFIX):]):
        return int(parts[1][len(PREFIX):])
    return None


# --- the group ---------------------------------------------------------------------------------

def public_lines(notices: Iterable[rules.Notice], cat: Catalog) -> list[str]:
    """The public notices of what happened, one line each; private ones never (F24 §4.5.4)."""
    out: list[str] = []
    for notice in notices:
        if notice.private or notice.kind in _FOLDED:
            continue
        text = notice_text(notice, cat)
        if text:
            out.append(text)
    return out


def hands_line(kind: str, seat: int | None, hands: Sequence[int], cat: Catalog) -> str:
    """Who raised a hand in a closed window (hands are public in a live game too)."""
    who = seat_list(sorted(hands), cat) if hands else cat.text("host-nobody")
    if kind == "raise":
        return cat.text("host-raise-hands", who=who, count=len(hands))
    return cat.text("host-vote-hands", seat=seat_label(seat, cat), who=who, count=len(hands))


def step_line(step: Step, state: rules.GameState, cat: Catalog, *, closed: bool = False) -> str:
    """The step's line under the group message: a countdown (start, 10 s warning, end) or the
    night's step, worded the same whether or not its role is still at the table."""
    kind, seconds = step.kind, duration(step.seconds, cat)
    who = player_label(state, step.seat, cat) if step.seat is not None else ""
    if kind in WARNED_STEPS:
        stage = "closed" if closed else step.stage
        return cat.text("host-turn", kind=kind, stage=stage, seat=who, seconds=seconds,
                        left=duration(10, cat))
    if kind is StepKind.SILENCED:
        return cat.text("host-silenced", seat=who, seconds=seconds, closed="yes" if closed else "no",
                        rules=state.config.preset)
    if kind == "vote":
        if closed:
            return hands_line(kind, step.seat, step.hands, cat)
        # the rules' own formula, by the seat's number: «…чтобы игрок №5 покинул…» agrees with
        # «игрок», which a player's name after it would not (F24 §4.4.5)
        return cat.text("host-vote-open", seat=seat_label(step.seat, cat), seconds=seconds)
    if kind == "raise":
        if closed:
            return hands_line(kind, None, step.hands, cat)
        return cat.text("host-raise-open", seats=seat_list(state.raise_candidates, cat),
                        seconds=seconds)
    if kind in ("shooting", "don_check", "sheriff_check", "best_move"):
        return cat.text("host-night-step", night=step.night or 0, step=kind, seconds=seconds,
                        closed="yes" if closed else "no")
    return ""


def step_text(step: Step, state: rules.GameState, cat: Catalog, *, closed: bool = False) -> str:
    """The step's group message: the lines of the events before it, its line, and while it runs
    the note of a late start (its window opened when it was shown)."""
    line = step_line(step, state, cat, closed=closed)
    if step.late and not closed:
        line = f"{line}\n{cat.text('host-step-late', seconds=duration(step.late, cat))}"
    return f"{step.base}\n\n{line}" if step.base else line


def step_keyboard(step: Step, state: rules.GameState, table: int, cat: Catalog) -> Rows:
    """The group message's buttons: «Пас» and «Выставить ▸» for the speaker (the picker shows
    the seats the engine lets him nominate), a hand for a voting window."""
    kind = step.kind
    if kind in (StepKind.SPEECH, StepKind.SILENCED) and step.seat is not None:
        if step.view == "nominate":
            seats = rules.nominable(state, step.seat)
            buttons = [Btn(str(s), encode(table, step.no, NOMINATE, s)) for s in seats]
            rows = [buttons[i:i + ROW] for i in range(0, len(buttons), ROW)]
            rows.append([Btn(cat.text("host-btn-back"), encode(table, step.no, BACK))])
            return rows
        row = [Btn(cat.text("host-btn-pass"), encode(table, step.no, PASS))]
        if rules.may_nominate(state, step.seat):
            row.append(Btn(cat.text("host-btn-nominate"), encode(table, step.no, NOM_VIEW)))
        return [row]
    if kind in ("last_word", "tie_speech", "leader_speech"):
        return [[Btn(cat.text("host-btn-pass"), encode(table, step.no, PASS))]]
    if kind == "vote" and step.seat is not None:
        return [[Btn(cat.text("host-btn-hand", seat=seat_label(step.seat, cat)),
                     encode(table, step.no, HAND))]]
    if kind == "raise":
        return [[Btn(cat.text("host-btn-raise"), encode(table, step.no, HAND))]]
    return []


# --- private prompts -----------------------------------------------------------------------------

def _seat_rows(table: int, step: int, action: str, seats: Iterable[int],
               marked: Iterable[int] = ()) -> Rows:
    chosen = set(marked)
    buttons = [Btn(f"✓{s}" if s in chosen else str(s), encode(table, step, action, s)) for s in seats]
    return [buttons[i:i + ROW] for i in range(0, len(buttons), ROW)]


def prompt(step: Step, state: rules.GameState, seat: int, table: int, cat: Catalog) -> tuple[str, Rows]:
    """A night prompt in ``seat``'s private chat: the shot, the check or the best move, with
    what he has picked so far (changeable until the step closes)."""
    seconds = duration(step.seconds, cat)
    at_table = state.at_table
    if step.kind == "shooting":
        mine = step.shots.get(str(seat), "unset")
        picked = (cat.text("host-none-yet") if mine == "unset"
                  else cat.text("host-no-shot") if mine is None else seat_label(mine, cat))
        rows = _seat_rows(table, step.no, SHOOT, at_table, [] if mine in ("unset", None) else [mine])
        rows.append([Btn(cat.text("host-btn-no-shot"), encode(table, step.no, SHOOT, NO_SHOT))])
        return cat.text("host-prompt-shoot", night=step.night or 0, seconds=seconds,
                        picked=picked), rows
    if step.kind in ("don_check", "sheriff_check"):
        picked = seat_label(step.target, cat) if step.target else cat.text("host-none-yet")
        seats = [s for s in rules.SEATS if s != seat]
        rows = _seat_rows(table, step.no, CHECK, seats, [step.target] if step.target else [])
        return cat.text("host-prompt-check", step=step.kind, night=step.night or 0,
                        seconds=seconds, picked=picked), rows
    picked = seat_list(step.picked, cat) if step.picked else cat.text("host-none-yet")
    seats = [s for s in rules.SEATS if s != seat]
    rows = _seat_rows(table, step.no, BEST, seats, step.picked)
    return cat.text("host-prompt-best-move", seconds=seconds, picked=picked), rows


def role_card(state: rules.GameState, seat: int, group_title: str, cat: Catalog) -> str:
    """A player's card, in private (F24 §1.1): his seat and role; a black also learns the other
    blacks (F24 §4.2: they meet in night 0)."""
    role = state.seat(seat).role
    assert role is not None
    lines = [cat.text("host-role-card", title=cat.name(group_title), seat=seat_label(seat, cat),
                      role=cat.text(f"role-{role.value}"))]
    if role.team.value == "black":
        mates = [cat.text("host-mate", seat=seat_label(s.number, cat),
                          role=cat.text(f"role-{s.role.value}"))
                 for s in state.seats if s.role in (Role.DON, Role.MAFIA) and s.number != seat]
        lines.append(cat.text("host-role-blacks", mates=", ".join(mates)))
    return "\n".join(lines)


def check_answer(notice: rules.Notice, cat: Catalog) -> str:
    """The Don's or the Sheriff's answer, for his private chat only."""
    return notice_text(notice, cat) or ""


def seats_text(state: rules.GameState, cat: Catalog) -> str:
    """The table: ``№1 Анна``, one a line."""
    return "\n".join(player_label(state, s.number, cat) for s in state.seats)
