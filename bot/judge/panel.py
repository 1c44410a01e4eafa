"""The judge's control panel: pure text and keyboard builders (no Telegram objects, no I/O).

The panel is one message in the judge's private chat, edited in place as the game moves: what the
last action said (every notice of it, private ones included: the judge's only account of it), the
judge's status (:func:`bot.render.status_text`, roles and nominees included), the running timer,
and a keyboard for what the rules expect now (:func:`rules.expected`). Buttons either change
the game (an *event* action: :func:`event_for` turns the press into a :class:`rules.Event`), or
only show another view of the panel (a *view* action: picking a seat, a foul's reason, the roles…);
a view's choices so far travel in the callback data, never in memory.

No rule is decided here: which seats are offered is asked of the engine (:func:`rules.nominable`,
:func:`rules.can_penalize`), and whatever is pressed is applied by the service, which may refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import rules
from rules import Phase, Severity

from ..i18n import Catalog
from ..render import GENERIC_REASONS, player_label, reason_text, result_text, seat_label, status_text
from .callbacks import Press, encode

# --- actions that change the game (the service applies them) -----------------------------------
NEXT = "n"  # rules.Next
UNDO = "u"  # one step back (Service.undo)
START = "st"  # rules.StartGame
NOMINATE = "nm"  # :<target>  the speaker nominates (F24 §4.4.2)
PENALTY = "p"  # :<seat>:<code>[:<team>]  (seed IV)
WITHDRAW = "wf"  # :<seat>  rules.WithdrawFoul
VOTE = "v"  # :<nominee>:<count>  (F24 §4.4.5)
RAISE = "r"  # :<count>  (F24 §4.4.12.3)
VOTE_BY = "vb"  # :<nominee>:<s.s.s>|-  the hands against the nominee, by seat (record_voters)
RAISE_BY = "rb"  # :<s.s.s>|-  the hands for the raise, by seat (record_voters)
KILL = "k"  # :<seat>|-  (F24 §4.5.3–4.5.5)
DON = "dc"  # :<seat>  (F24 §4.5.6)
SHERIFF = "sc"  # :<seat>  (F24 §4.5.7)
BEST_MOVE = "bmok"  # :<s.s.s>  (F24 §4.5.9)
ROLES = "rs"  # :<don.m.m.sheriff>|-  (F24 §1.1)
RESULT = "dr"  # :red|black|draw  (roles unknown)
EVENT_ACTIONS = frozenset({NEXT, START, NOMINATE, PENALTY, WITHDRAW, VOTE, RAISE, VOTE_BY,
                           RAISE_BY, KILL, DON, SHERIFF, BEST_MOVE, ROLES, RESULT})

# --- actions the adapter carries out itself ------------------------------------------------------
PRESET = "pr"  # :<preset>  in setup: the game is recreated under another preset
NEW = "new"  # after the end: a new game under the same rules
PAUSE = "tp"  # the step's timer
RESUME = "tr"
NEXT_PART = "tn"  # the step's next timed part (night 0: the Sheriff's look, F24 §4.2.3)
LOG = "lg"  # the audit trail (/log all), posted to the judge
HANDS_MODE = "hm"  # in setup: the game is recreated with the hands by seat, or as counts
WHY = "why"  # the last ruling's reason (/why), posted to the judge
INERT = "i"  # a departed seat's "·": does nothing
ADAPTER_ACTIONS = frozenset({UNDO, PRESET, NEW, PAUSE, RESUME, NEXT_PART, LOG, INERT, HANDS_MODE,
                             WHY})

# --- views: no change, another face of the panel ---------------------------------------------------
MAIN = "x"
V_NOMINATE = "nom"
V_FOUL = "f"  # whom?
V_FOUL_SEAT = "fs"  # :<seat>  warnings and fouls (seed 4.1)
V_DQ = "fd"  # :<seat>  disqualifying fouls (seed 4.2)
V_TEAM = "ft"  # :<seat>  team loss (seed 4.3)
V_TEAM_SIDE = "fT"  # :<seat>:<code>  whose team (roles unknown)
V_ROLES = "ro"  # :<picked seats>  the roles picker
V_BEST = "bm"  # :<picked seats>  the best move picker
V_RESULT = "res"  # the judge declares the result (roles unknown)
V_HANDS = "hv"  # :<picked seats>  who raised a hand (record_voters)
VIEW_ACTIONS = frozenset({MAIN, V_NOMINATE, V_FOUL, V_FOUL_SEAT, V_DQ, V_TEAM, V_TEAM_SIDE,
                          V_ROLES, V_BEST, V_RESULT, V_HANDS})

SAID_MAX = 1500  # characters of an action's notices on the panel (a message holds 4,096)
ROW = 5  # seats 1–10 in two rows of five
COUNT_ROW = 6  # hand counts per row
CODE_ROW = 4  # reason codes per row
BEST_MOVE_MAX = rules.BEST_MOVE_MAX  # F24 §4.5.9: up to three seats
ROLE_ORDER = ("don", "mafia", "mafia", "sheriff")  # the picker's order; the rest are civilians


@dataclass(frozen=True)
class Button:
    label: str
    data: str


@dataclass(frozen=True)
class Panel:
    text: str
    rows: tuple[tuple[Button, ...], ...]

    @property
    def buttons(self) -> list[Button]:
        return [b for row in self.rows for b in row]


@dataclass(frozen=True)
class TimerView:
    """What the panel shows of the step's timer: its line, and whether it runs (a "Pause"
    button), is paused (a "Resume" button) or is over (``None``: no button); ``next_part``: the
    kind of the step's next timed part, which the judge starts with a button (night 0's
    Sheriff's look or free seating), if any."""

    line: str
    running: bool | None
    next_part: str | None = None


class _Builder:
    """Buttons of one panel: the game and revision go into every callback."""

    def __init__(self, state: rules.GameState, game_id: int, revision: int, cat: Catalog,
                 timer: TimerView | None) -> None:
        self.state = state
        self.game_id = game_id
        self.revision = revision
        self.cat = cat
        self.timer = timer

    def button(self, label: str, action: str, *args: object) -> Button:
        return Button(label, encode(self.game_id, self.revision, action, *args))

    def inert(self, label: str | None = None) -> Button:
        return self.button(label or self.cat.text("judge-seat-gone"), INERT)

    def seats(self, ok: Callable[[int], bool], action: str, *prefix: object,
              label: Callable[[int], str] | None = None) -> list[tuple[Button, ...]]:
        """Seats 1–10 in two rows of five; a seat ``ok`` refuses is an inert "·"."""
        out: list[Button] = []
        for seat in rules.SEATS:
            if ok(seat):
                out.append(self.button(label(seat) if label else str(seat), action, *prefix, seat))
            else:
                out.append(self.inert())
        return [tuple(out[i:i + ROW]) for i in range(0, len(out), ROW)]

    def counts(self, top: int, action: str, *prefix: object) -> list[tuple[Button, ...]]:
        """Hand counts 0…``top``."""
        out = [self.button(str(n), action, *prefix, n) for n in range(top + 1)]
        return [tuple(out[i:i + COUNT_ROW]) for i in range(0, len(out), COUNT_ROW)]

    # rows every main view shares
    def foul_undo(self) -> tuple[Button, ...]:
        row = [self.button(self.cat.text("judge-btn-foul"), V_FOUL)]
        if self.revision > 0:
            row.append(self.button(self.cat.text("judge-btn-undo"), UNDO))
            row.append(self.log())
            row.append(self.button(self.cat.text("judge-btn-why"), WHY))
        return tuple(row)

    def log(self) -> Button:
        return self.button(self.cat.text("judge-btn-log"), LOG)

    def timer_row(self) -> list[tuple[Button, ...]]:
        """Pause or resume the step's timer; start its next part."""
        timer = self.timer
        if timer is None:
            return []
        row: list[Button] = []
        if timer.running is not None:
            row.append(self.button(self.cat.text("judge-btn-pause" if timer.running
                                                 else "judge-btn-resume"),
                                   PAUSE if timer.running else RESUME))
        if timer.next_part is not None:
            row.append(self.button(self.cat.text("judge-btn-next-part", kind=timer.next_part),
                                   NEXT_PART))
        return [tuple(row)] if row else []

    def result_row(self) -> list[tuple[Button, ...]]:
        """Roles unknown: once three have left, the judge may declare the end (F24 §1.4)."""
        state = self.state
        if state.roles_known or len(state.departures()) < 3:
            return []
        return [(self.button(self.cat.text("judge-btn-result"), V_RESULT),)]

    def back(self, action: str = MAIN, *args: object) -> tuple[Button, ...]:
        return (self.button(self.cat.text("judge-btn-back"), action, *args),)


_View = Callable[[_Builder, Press | None], tuple[str | None, list[tuple[Button, ...]]]]


# --- the main view of each phase ------------------------------------------------------------------

def _main(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """The phase's own view: the buttons for what the rules expect now (:func:`rules.expected`)."""
    state, cat = b.state, b.cat
    if rules.result_required(state):
        return _result_picker(b, press)
    step = rules.expected(state)
    rows: list[tuple[Button, ...]] = []
    match step:
        case rules.Setup():
            rows.append((b.button(cat.text("judge-btn-roles"), V_ROLES),))
            rows.append(tuple(
                b.button((cat.text("judge-picked", label=cat.text(f"judge-preset-{name}"))
                          if name == state.config.preset else cat.text(f"judge-preset-{name}")),
                         PRESET, name)
                for name in rules.PRESETS))
            rows.append((b.button(cat.text("judge-btn-record-voters",
                                           on="yes" if state.config.record_voters else "no"), HANDS_MODE),))
            rows.append((b.button(cat.text("judge-btn-start"), START),))
            if b.revision > 0:
                rows.append((b.button(cat.text("judge-btn-undo"), UNDO),))
            return cat.text("judge-setup-hint"), rows
        case rules.NightZero():  # the roles may still be entered (F24 §1.1)
            rows.append((b.button(cat.text("judge-btn-morning"), NEXT),))
            rows.extend(b.timer_row())
            if not state.roles_known:
                rows.append((b.button(cat.text("judge-btn-roles"), V_ROLES),))
            rows.append(b.foul_undo())
            return None, rows
        case rules.Speech() | rules.LastWord() | rules.TieSpeech() | rules.LeaderSpeech():
            rows.append((b.button(cat.text("judge-btn-next"), NEXT),))
            if isinstance(step, rules.Speech):
                rows.append((b.button(cat.text("judge-btn-nominate"), V_NOMINATE),))
            rows.extend(b.timer_row())
            rows.append(b.foul_undo())
            return None, rows + b.result_row()
        case rules.Voting() | rules.RaiseVoting() if state.config.record_voters:
            return _hands(b, None)
        case rules.Voting(nominee=nominee, hands_left=left):
            rows.extend(b.counts(left, VOTE, nominee))
            rows.append(b.foul_undo())
            return cat.text("judge-pick-hands", seat=seat_label(nominee, cat)), rows + b.result_row()
        case rules.RaiseVoting(at_table=at_table):
            rows.extend(b.counts(at_table, RAISE))
            rows.append(b.foul_undo())
            return cat.text("judge-pick-raise"), rows + b.result_row()
        case rules.Shooting():
            at_table = set(state.at_table)
            rows.extend(b.seats(lambda s: s in at_table, KILL))
            rows.append((b.button(cat.text("judge-btn-miss"), KILL, "-"),))
            rows.extend(b.timer_row())
            rows.append(b.foul_undo())
            return cat.text("judge-pick-kill"), rows + b.result_row()
        case rules.DonCheckStep() | rules.SheriffCheckStep():
            # F24 §4.5.6–4.5.7: the checker checks another seat, never his own
            checks = set(state.at_table) - {rules.checker(state)}
            act = DON if isinstance(step, rules.DonCheckStep) else SHERIFF
            rows.extend(b.seats(lambda s: s in checks, act))
            rows.append((b.button(cat.text("judge-btn-skip"), NEXT),))
            rows.extend(b.timer_row())
            rows.append(b.foul_undo())
            return cat.text(f"judge-pick-{step.kind}"), rows + b.result_row()
        case rules.BestMoveStep():
            return _best_move(b, press)
    # the game is over
    rows.append((b.button(cat.text("judge-btn-new"), NEW),))
    if b.revision > 0:
        rows.append((b.button(cat.text("judge-btn-undo"), UNDO), b.log()))
    return None, rows


# --- pickers ------------------------------------------------------------------------------------------

def _nominate(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    state, cat = b.state, b.cat
    speaker = state.speaker
    if state.phase is not Phase.SPEECH or speaker is None:
        return _main(b, None)
    allowed = set(rules.nominable(state, speaker))
    rows = b.seats(lambda s: s in allowed, NOMINATE)
    rows.append(b.back())
    return cat.text("judge-pick-nominee", seat=seat_label(speaker, cat)), rows


def _foul(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    state, cat = b.state, b.cat
    rows = b.seats(lambda s: rules.can_penalize(state, s) is None, V_FOUL_SEAT)
    rows.append(b.back())
    return cat.text("judge-pick-foul-seat"), rows


def _reasons(state: rules.GameState, severity: Severity) -> list[str]:
    """The preset's reason codes of one severity, generic code first (seed IV; F24 §6)."""
    codes = [code for code, reason in state.config.reasons.items() if reason.severity is severity]
    return sorted(codes, key=lambda c: (c not in GENERIC_REASONS, [int(x) for x in c.split(".")]
                                        if c not in GENERIC_REASONS else []))


def _code_rows(b: _Builder, codes: Iterable[str], action: str, *prefix: object) -> list[tuple[Button, ...]]:
    items = [b.button(code, action, *prefix, code) for code in codes]
    return [tuple(items[i:i + CODE_ROW]) for i in range(0, len(items), CODE_ROW)]


def _legend(cat: Catalog, codes: Iterable[str], preset: str) -> str:
    return "\n".join(cat.text("judge-legend-line", code=code, reason=reason_text(code, cat, preset))
                     for code in codes if code not in GENERIC_REASONS)


def _penalty_seat(b: _Builder, press: Press | None) -> int | None:
    try:
        seat = press.int_arg(0) if press else None
    except ValueError:
        return None
    return seat if seat in rules.SEATS else None


def _foul_seat(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """Seed 4.1 (fouls) and 4.3 (warnings); the heavier ladders one tap away."""
    state, cat = b.state, b.cat
    seat = _penalty_seat(b, press)
    if seat is None:
        return _foul(b, None)
    fouls = _reasons(state, Severity.FOUL)
    generic = [c for c in fouls if c in GENERIC_REASONS]
    items = [c for c in fouls if c not in GENERIC_REASONS]
    rows: list[tuple[Button, ...]] = [(
        *(b.button(cat.text("judge-btn-foul-generic"), PENALTY, seat, c) for c in generic),
        b.button(cat.text("judge-btn-warning"), PENALTY, seat, "warning"),
    )]
    rows.extend(_code_rows(b, items, PENALTY, seat))
    rows.append((b.button(cat.text("judge-btn-dq"), V_DQ, seat),
                 b.button(cat.text("judge-btn-team-loss"), V_TEAM, seat)))
    if state.seat(seat).fouls:
        rows.append((b.button(cat.text("judge-btn-withdraw"), WITHDRAW, seat),))
    rows.append(b.back(V_FOUL))
    prompt = cat.text("judge-pick-reason", seat=player_label(state, seat, cat),
                      fouls=cat.text("fouls", count=len(state.seat(seat).fouls)))
    return prompt + "\n" + _legend(cat, items, state.config.preset), rows


def _heavy(b: _Builder, press: Press | None, severity: Severity) -> tuple[str | None, list[tuple[Button, ...]]]:
    """Seed 4.2 (disqualifying fouls) or 4.3 (team loss; with roles unknown the team is asked)."""
    state, cat = b.state, b.cat
    seat = _penalty_seat(b, press)
    if seat is None:
        return _foul(b, None)
    codes = _reasons(state, severity)
    generic = [c for c in codes if c in GENERIC_REASONS]
    items = [c for c in codes if c not in GENERIC_REASONS]
    ask_team = severity is Severity.TEAM_LOSS and state.team_of(seat) is None
    action, label_key = (V_TEAM_SIDE, "judge-btn-team-loss-generic") if ask_team else (
        PENALTY, "judge-btn-team-loss-generic" if severity is Severity.TEAM_LOSS else "judge-btn-dq-generic")
    rows: list[tuple[Button, ...]] = [tuple(b.button(cat.text(label_key), action, seat, c) for c in generic)]
    rows.extend(_code_rows(b, items, action, seat))
    rows.append(b.back(V_FOUL_SEAT, seat))
    key = "judge-pick-dq" if severity is Severity.DISQUALIFYING else "judge-pick-team-loss"
    prompt = cat.text(key, seat=player_label(state, seat, cat))
    return prompt + "\n" + _legend(cat, items, state.config.preset), rows


def _dq(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    return _heavy(b, press, Severity.DISQUALIFYING)


def _team(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    return _heavy(b, press, Severity.TEAM_LOSS)


def _team_side(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """Roles unknown: whose team loses (seed 4.3 needs the offender's team)."""
    cat = b.cat
    seat = _penalty_seat(b, press)
    code = press.arg(1) if press else ""
    if seat is None or code not in b.state.config.reasons:
        return _foul(b, None)
    rows = [(b.button(cat.text("judge-btn-team-red"), PENALTY, seat, code, "red"),
             b.button(cat.text("judge-btn-team-black"), PENALTY, seat, code, "black")),
            b.back(V_TEAM, seat)]
    return cat.text("judge-pick-team", seat=seat_label(seat, cat)), rows


def picked_seats(arg: str) -> list[int]:
    """``"2.5.7"`` → ``[2, 5, 7]``; ``ValueError`` for anything else ("" → ``[]``)."""
    if not arg:
        return []
    seats = [int(x) for x in arg.split(".")]
    if any(s not in rules.SEATS for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"bad seats {arg!r}")
    return seats


def _joined(seats: Sequence[int]) -> str:
    return ".".join(str(s) for s in seats)


def _roles(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """F24 §1.1: the Don, two mafia, the Sheriff (the rest civilians), picked seat by seat; the
    choices so far ride in the callback data. Entered here, in private, and never shown in a
    group before the end."""
    cat = b.cat
    try:
        picked = picked_seats(press.arg(0) if press else "")[:len(ROLE_ORDER)]
    except ValueError:
        picked = []
    rows: list[tuple[Button, ...]] = []
    if len(picked) < len(ROLE_ORDER):
        rows.extend(_role_seat_rows(b, picked))
        prompt = cat.text("judge-pick-role", role=cat.text(f"role-{ROLE_ORDER[len(picked)]}"),
                          so_far=_roles_so_far(cat, picked))
    else:
        rows.append((b.button(cat.text("judge-btn-accept"), ROLES, _joined(picked)),))
        prompt = cat.text("judge-roles-confirm", so_far=_roles_so_far(cat, picked))
    if picked:
        rows.append((b.button(cat.text("judge-btn-again"), V_ROLES),))
    rows.append(b.back())
    return prompt, rows


def _role_seat_rows(b: _Builder, picked: list[int]) -> list[tuple[Button, ...]]:
    out: list[Button] = []
    for seat in rules.SEATS:
        if seat in picked:
            out.append(b.inert(b.cat.text("judge-seat-picked", n=seat)))
        else:
            out.append(b.button(str(seat), V_ROLES, _joined([*picked, seat])))
    return [tuple(out[i:i + ROW]) for i in range(0, len(out), ROW)]


def _roles_so_far(cat: Catalog, picked: Sequence[int]) -> str:
    if not picked:
        return cat.text("judge-roles-none-yet")
    return ", ".join(cat.text("judge-role-seat", role=cat.text(f"role-{ROLE_ORDER[i]}"),
                              seat=seat_label(seat, cat)) for i, seat in enumerate(picked))


def roles_event(seats: Sequence[int]) -> rules.SetRoles:
    """The picker's seats (Don, mafia, mafia, Sheriff) as :class:`rules.SetRoles`."""
    roles = ["civilian"] * len(rules.SEATS)
    for role, seat in zip(ROLE_ORDER, seats):
        roles[seat - 1] = role
    return rules.SetRoles(roles=tuple(roles))


def _best_move(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """F24 §4.5.9: night 1's victim names up to three seats: toggled, then accepted."""
    state, cat = b.state, b.cat
    night = state.night
    if night is None or not isinstance(rules.expected(state), rules.BestMoveStep):
        return _main(b, None)
    try:
        picked = picked_seats(press.arg(0) if press and press.action == V_BEST else "")
    except ValueError:
        picked = []
    picked = [s for s in picked if s != night.killed][:BEST_MOVE_MAX]
    out: list[Button] = []
    for seat in rules.SEATS:
        if seat == night.killed:
            out.append(b.inert())
        elif seat in picked:
            out.append(b.button(cat.text("judge-seat-picked", n=seat), V_BEST,
                                _joined([s for s in picked if s != seat])))
        elif len(picked) < BEST_MOVE_MAX:
            out.append(b.button(str(seat), V_BEST, _joined([*picked, seat])))
        else:
            out.append(b.inert(str(seat)))
    rows = [tuple(out[i:i + ROW]) for i in range(0, len(out), ROW)]
    if picked:
        rows.append((b.button(cat.text("judge-btn-accept"), BEST_MOVE, _joined(picked)),))
    rows.append((b.button(cat.text("judge-btn-skip"), NEXT),))
    rows.extend(b.timer_row())
    rows.append(b.foul_undo())
    prompt = cat.text("judge-pick-best-move", seat=seat_label(night.killed, cat),
                      picked=", ".join(seat_label(s, cat) for s in picked) or "none")
    return prompt, rows


def _hands(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """The game's ``record_voters`` option: who raises a hand — against the nominee voted on
    (F24 §4.4.5; the last nominee's hands are still derived, §4.4.8) or for the raise
    (§4.4.12.3) — each seat toggled, the count shown, then accepted. A seat the rules do not let
    vote now (:func:`rules.can_vote`: not at the table, or its hand already raised this round) is
    inert."""
    state, cat = b.state, b.cat
    step = rules.expected(state)
    if not isinstance(step, (rules.Voting, rules.RaiseVoting)):
        return _main(b, None)
    try:
        picked = picked_seats(press.arg(0) if press and press.action == V_HANDS else "")
    except ValueError:
        picked = []
    picked = [s for s in picked if rules.can_vote(state, s) is None]
    out: list[Button] = []
    for seat in rules.SEATS:
        if rules.can_vote(state, seat) is not None:
            out.append(b.inert())
        elif seat in picked:
            out.append(b.button(cat.text("judge-seat-picked", n=seat), V_HANDS,
                                _joined([s for s in picked if s != seat])))
        else:
            out.append(b.button(str(seat), V_HANDS, _joined(sorted([*picked, seat]))))
    rows = [tuple(out[i:i + ROW]) for i in range(0, len(out), ROW)]
    accept = cat.text("judge-btn-hands", count=len(picked))
    chosen = _joined(picked) or "-"
    if isinstance(step, rules.Voting):
        rows.append((b.button(accept, VOTE_BY, step.nominee, chosen),))
        prompt = cat.text("judge-pick-voters", seat=seat_label(step.nominee, cat), count=len(picked))
    else:
        rows.append((b.button(accept, RAISE_BY, chosen),))
        prompt = cat.text("judge-pick-raise-voters", count=len(picked),
                          need=step.at_table // 2 + 1)  # F24 §4.4.12.3: more than half
    rows.append(b.foul_undo())
    return prompt, rows + b.result_row()


def _result_picker(b: _Builder, press: Press | None) -> tuple[str | None, list[tuple[Button, ...]]]:
    """Roles unknown: the judge declares the end (F24 §1.4: he sees the cards)."""
    cat = b.cat
    if b.state.roles_known or b.state.phase is Phase.GAME_OVER:
        return _main(b, None)
    rows: list[tuple[Button, ...]] = [
        (b.button(cat.text("judge-btn-red-wins"), RESULT, "red"),
         b.button(cat.text("judge-btn-black-wins"), RESULT, "black")),
        (b.button(cat.text("judge-btn-draw"), RESULT, "draw"),),
    ]
    if not rules.result_required(b.state):
        rows.append(b.back())
    elif b.revision > 0:
        rows.append((b.button(cat.text("judge-btn-undo"), UNDO),))
    return cat.text("judge-pick-result"), rows


_VIEWS: dict[str, _View] = {
    MAIN: _main, V_NOMINATE: _nominate, V_FOUL: _foul, V_FOUL_SEAT: _foul_seat, V_DQ: _dq,
    V_TEAM: _team, V_TEAM_SIDE: _team_side, V_ROLES: _roles, V_BEST: _best_move,
    V_RESULT: _result_picker, V_HANDS: _hands,
}


# --- the public API ---------------------------------------------------------------------------------

def render_panel(state: rules.GameState, game_id: int, revision: int, cat: Catalog,
                 view: Press | None = None, *, timer: TimerView | None = None,
                 notes: Sequence[str] = (), said: str | None = None) -> Panel:
    """The panel for ``state`` at ``revision``: what the action that made ``revision`` said
    (``said``: its notices, at most :data:`SAID_MAX` characters), the judge's status (or the result
    at the end), the timer line, ``notes`` from the adapter, and the keyboard of ``view`` (a view
    press; the phase's main view by default)."""
    b = _Builder(state, game_id, revision, cat, timer)
    chosen = _VIEWS.get(view.action, _main) if view is not None else _main
    prompt, rows = chosen(b, view)
    parts = [said if len(said) <= SAID_MAX else said[:SAID_MAX - 1] + "…"] if said else []
    if state.phase is Phase.GAME_OVER:
        parts.append(result_text(state, cat))
    else:
        parts.append(status_text(state, cat, for_judge=True))
    if timer is not None:
        parts.append(timer.line)
    parts.extend(n for n in notes if n)
    if prompt:
        parts.append(prompt)
    return Panel("\n\n".join(parts), tuple(tuple(r) for r in rows if r))


def is_view(press: Press) -> bool:
    return press.action in VIEW_ACTIONS


def event_for(state: rules.GameState, press: Press) -> rules.Event:
    """The game event a press stands for; ``ValueError`` for malformed arguments. Whether the
    rules allow it now is the engine's answer, not this function's."""
    action = press.action
    if action == NEXT:
        return rules.Next()
    if action == START:
        return rules.StartGame()
    if action == NOMINATE:
        if state.speaker is None:
            raise ValueError("nobody speaks")
        return rules.Nominate(by=state.speaker, target=press.int_arg(0))
    if action == PENALTY:
        team = press.arg(2) or None
        if team not in (None, "red", "black"):
            raise ValueError(f"bad team {team!r}")
        return rules.Penalty(seat=press.int_arg(0), reason=press.arg(1), team=team)
    if action == WITHDRAW:
        return rules.WithdrawFoul(seat=press.int_arg(0))
    if action == VOTE:
        return rules.Vote(nominee=press.int_arg(0), count=press.int_arg(1))
    if action == RAISE:
        return rules.RaiseVote(count=press.int_arg(0))
    if action in (VOTE_BY, RAISE_BY):
        chosen = press.arg(1 if action == VOTE_BY else 0)
        voters = tuple(picked_seats("" if chosen == "-" else chosen))
        hands = dict(voters=voters) if voters else dict(count=0)
        if action == VOTE_BY:
            return rules.Vote(nominee=press.int_arg(0), **hands)
        return rules.RaiseVote(**hands)
    if action == KILL:
        return rules.NightKill(target=None if press.arg(0) == "-" else press.int_arg(0))
    if action == DON:
        return rules.DonCheck(target=press.int_arg(0))
    if action == SHERIFF:
        return rules.SheriffCheck(target=press.int_arg(0))
    if action == BEST_MOVE:
        return rules.BestMove(guesses=tuple(picked_seats(press.arg(0))))
    if action == ROLES:
        if press.arg(0) == "-":
            return rules.SetRoles(roles=(None,) * len(rules.SEATS))
        seats = picked_seats(press.arg(0))
        if len(seats) != len(ROLE_ORDER):
            raise ValueError("the roles need four seats")
        return roles_event(seats)
    if action == RESULT:
        if press.arg(0) not in ("red", "black", "draw"):
            raise ValueError("bad result")
        return rules.DeclareResult(winner=press.arg(0))
    raise ValueError(f"{action!r} is not a game event")
