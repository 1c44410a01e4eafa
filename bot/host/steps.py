"""The host controller's pure half: which step the rules expect now, how long it lasts, who may
write, who is asked what in private, and which engine event a closing step turns into.

No rule is decided here. The rules engine says what comes next (:func:`rules.expected`), who
speaks (:func:`rules.current_turn`), whom a speaker may nominate (:func:`rules.nominable`), who
may raise a hand (:func:`rules.can_vote`), who shoots and who checks (:func:`rules.shooters`,
:func:`rules.checker`), what speaking out of turn costs (:func:`rules.out_of_turn_reason`); this
module only turns the players' inputs into the engine's events:

* a speech, a last word, a tie speech, night 0: its time runs out, or the speaker passes →
  :class:`rules.Next`;
* a nominee's voting window closes → ``rules.Vote(nominee, voters=…)`` with the hands raised in
  it (the last nominee is never voted: the engine gives him the hands left, F24 §4.4.8);
* the raise vote's window closes → ``rules.RaiseVote(voters=…)`` (F24 §4.4.12.3);
* the shooting step closes → ``rules.Shots`` with every black at the table, ``None`` for one who
  did not shoot (all on one seat → kill, else miss: F24 §4.5.3–4.5.5);
* the Don's, the Sheriff's step closes → ``DonCheck``/``SheriffCheck`` of the seat picked, else
  ``Next``; the best move → ``BestMove`` of the seats picked, else ``Next``.

Every night step lasts its full length whether or not its role is still at the table, and its
event is applied only when it closes (F24 §4.5: nothing in the group may reveal a role).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import rules
from rules import Role

from ..judge.routing import turn_key
from .options import HostOptions
from .plain import plain

class StepKind(enum.StrEnum):
    """A step of a hosted table (:class:`Plan`): night 0 (the договорка, F24 §4.2.1), a speech
    (§4.3.1), a last word (§4.4.13), a tie speech (§4.4.12), a silenced minute (seed 4.4: nominate
    only), a nominee's voting window (§4.4.5), the raise vote (§4.4.12.3), the night's shooting,
    the Don's and the Sheriff's checks and the best move (§4.5), and the game's end."""

    NIGHT_ZERO = "night_zero"
    SPEECH = "speech"
    LAST_WORD = "last_word"
    TIE_SPEECH = "tie_speech"
    LEADER_SPEECH = "leader_speech"  # day 1's single leader stays and speaks (MafiaRatings 7.16.2)
    SILENCED = "silenced"
    VOTE = "vote"
    RAISE = "raise"
    SHOOTING = "shooting"
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    BEST_MOVE = "best_move"
    OVER = "over"


class Stage(enum.StrEnum):
    """Where a running step's countdown is: running, or past its 10-second warning."""

    RUNNING = "running"
    WARNED = "warned"


SPEAKING = (StepKind.SPEECH, StepKind.LAST_WORD, StepKind.TIE_SPEECH,
            StepKind.LEADER_SPEECH)  # a player has the floor
FLOOR = (*SPEAKING, StepKind.SILENCED)  # a seat's own minute, silenced or not
NIGHT_STEPS = (StepKind.SHOOTING, StepKind.DON_CHECK, StepKind.SHERIFF_CHECK, StepKind.BEST_MOVE)
WINDOWS = (StepKind.VOTE, StepKind.RAISE)
WARNED_STEPS = (*SPEAKING, StepKind.NIGHT_ZERO)  # steps that warn 10 seconds before the end
WARN_LEFT = 10  # seconds left at the speech's warning (the issue: a 10-second warning)

# «Пас» / «Спасибо»: the speaker ends his minute early.
PASS_WORDS = frozenset({"пас", "спасибо", "pass", "thanks", "thank you", "спасибо всем"})


@dataclass(frozen=True)
class Plan:
    """The step the rules expect now (its :class:`StepKind`). ``key`` identifies it: a foul
    inside a speech keeps the key, the next speech changes it."""

    kind: StepKind
    key: str
    seconds: int
    seat: int | None = None  # the speaker, the nominee, the best-move seat
    night: int | None = None


@dataclass
class Step:
    """The step running now, as stored with the table (JSON): its deadline, the group message
    that shows it, the private prompts queued for it and the inputs collected so far.

    Its window opens when the players can see it (FIIM 2024 §4.3.1: a speaker's full minute;
    seed 4.1.8: every player's vote): until its group message is delivered with its buttons,
    ``started`` is false, ``opened`` is when the step was stored and no deadline runs; once it
    is shown, ``opened`` is that moment and ``deadline`` is ``seconds`` of the timer after it.
    ``late`` is how many timer seconds it waited to be shown, when the group was told."""

    no: int
    key: str
    kind: StepKind
    seconds: int
    seat: int | None
    night: int | None
    opened: float
    deadline: float
    stage: Stage = Stage.RUNNING
    message: int | None = None  # the group message of the step
    base: str = ""  # that message's text above the step line
    view: str = ""  # "nominate": the speaker opened the nomination picker
    prompted: list[str] = field(default_factory=list)  # the users whose private prompt is queued
    hands: list[int] = field(default_factory=list)  # vote / raise: the seats with a hand up
    shots: dict[str, int | None] = field(default_factory=dict)  # shooter seat -> target
    target: int | None = None  # the check picked
    picked: list[int] = field(default_factory=list)  # the best move so far
    revision: int = 0  # the game's log length when the step last changed (bookkeeping only)
    slot: str = ""  # the outbox slot of the message's first post, while it is the outbox's
    active: bool = False  # the speaker wrote or pressed something in this step (``absent_after``)
    previous: dict[str, Any] | None = None  # the step before, until its message and prompts are closed
    started: bool = False  # its message is shown with its buttons: the window runs
    late: int = 0  # timer seconds it waited to be shown (0: on time)

    def to_dict(self, *, copied: bool = True) -> dict[str, Any]:
        """The step as stored (``copied=False``: to be serialised at once, :func:`.plain.plain`)."""
        return plain(self, copied=copied)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Step":
        names = {f.name for f in dataclasses.fields(cls)}
        data = dict(data)
        if "started" not in data:  # stored before windows waited to be seen: it runs
            data["started"] = True
        if "prompts" in data and "prompted" not in data:  # prompts once sent directly
            data["prompted"] = list(data["prompts"])
        step = cls(**{k: v for k, v in data.items() if k in names})
        step.kind, step.stage = StepKind(step.kind), Stage(step.stage)
        return step

    @property
    def speaking(self) -> bool:
        return self.kind in SPEAKING

    @property
    def at_night(self) -> bool:
        return self.kind in NIGHT_STEPS


def plan(state: rules.GameState, options: HostOptions) -> Plan:
    """The step for ``state``. Lengths are the rules' timers (F24 §4.2.1 night 0 60 s, §4.3.1
    speech 60 s, §4.4.12 tie speech 30 s, §4.4.13 last word 60 s, §4.5.6–4.5.9 the checks and
    the best move), the config's ``vote_window`` per nominee, and the host's own ``shooting`` and
    ``silenced`` lengths where the rules give none."""
    timers = state.config.timers
    step = rules.expected(state)
    match step:
        case rules.Over() | rules.Setup():
            return Plan(StepKind.OVER, "over", 0)
        case rules.NightZero():
            return Plan(StepKind.NIGHT_ZERO, "night_zero", timers.mafia_meeting)
        case rules.Speech(seat=seat) if step.silenced:  # seed 4.4: silenced, may still nominate
            return Plan(StepKind.SILENCED, turn_key(state) or step.kind, options.silenced, seat)
        case rules.Speech(seat=seat, seconds=seconds) | rules.LastWord(seat=seat, seconds=seconds) \
                | rules.TieSpeech(seat=seat, seconds=seconds) | rules.LeaderSpeech(seat=seat, seconds=seconds):
            return Plan(StepKind(step.kind), turn_key(state) or step.kind, seconds, seat)
        case rules.Voting(nominee=nominee, round=round_):
            ballot = state.ballot
            assert ballot is not None
            return Plan(StepKind.VOTE, f"vote:{state.day}:{round_}:{ballot.index}:{nominee}",
                        timers.vote_window, nominee)
        case rules.RaiseVoting():
            return Plan(StepKind.RAISE, f"raise:{state.day}", timers.vote_window)
        case rules.BestMoveStep(night=night, seat=seat):
            return Plan(StepKind.BEST_MOVE, f"night:{night}:best_move", timers.best_move, seat, night)
        case rules.Shooting(night=night):
            return Plan(StepKind.SHOOTING, f"night:{night}:shooting", options.shooting, None, night)
        case rules.DonCheckStep(night=night) | rules.SheriffCheckStep(night=night):
            seconds = timers.don_check if step.kind == "don_check" else timers.sheriff_check
            return Plan(StepKind(step.kind), f"night:{night}:{step.kind}", seconds, None, night)
    raise AssertionError(step)


def writers(state: rules.GameState, plan_: Plan) -> set[int]:
    """The seats that may write in the group now: the speaker during his speech, last word or
    tie speech (F24 §4.3.1; seed 4.1.1: nobody else); nobody in a silenced minute (seed 4.4),
    a vote, or the night."""
    if plan_.kind in SPEAKING and plan_.seat is not None:
        return {plan_.seat}
    return set()


def speaks_out_of_turn(state: rules.GameState, plan_: Plan, seat: int) -> bool:
    """Is a message from ``seat`` speech outside his minute (seed 4.1.1)? Only a player at the
    table as the table knows it can be fouled (tonight's victim is, until the morning:
    :func:`rules.seen_at_table`); a departed one's message is merely out of place."""
    return rules.seen_at_table(state, seat) and seat not in writers(state, plan_)


def seat_name(*candidates: str | None, fallback: str) -> str:
    """A player's name for the table, as :class:`rules.SetName` accepts it: the first candidate
    (his platform's display name, then his username …) that :func:`rules.clean_name` keeps; else
    the first one cut to :data:`rules.MAX_NAME` that it keeps (a long name is cut, not lost);
    else ``fallback`` (his id)."""
    for raw in candidates:
        name = rules.clean_name((raw or "")[:rules.MAX_NAME * 2])
        if isinstance(name, str):
            return name[:rules.MAX_NAME]
    for raw in candidates:
        name = rules.clean_name(rules.clean_text((raw or "")[:rules.MAX_NAME * 4]).strip()[:rules.MAX_NAME])
        if isinstance(name, str):
            return name
    return fallback


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or with a number added («Вася (2)») when another player of the table already
    has it as the roster tells names apart (:func:`rules.name_key`): :class:`rules.SetName`
    refuses two seats of one game the same name, and the table's players are distinct people."""
    keys = {rules.name_key(other) for other in taken}
    candidate, number = name, 2
    while rules.name_key(candidate) in keys:
        suffix = f" ({number})"
        candidate, number = name[:rules.MAX_NAME - len(suffix)] + suffix, number + 1
    return candidate


def out_of_turn_reason(state: rules.GameState, plan_: Plan, seat: int) -> str | None:
    """The penalty for a group message from ``seat`` now (:func:`rules.out_of_turn_reason`:
    seed 4.1.1 by day — another's speech, a vote, a silenced minute; seed 4.2.6 at night, night 0
    included), or ``None``: his minute, or he has left the table."""
    if not speaks_out_of_turn(state, plan_, seat):
        return None
    return rules.out_of_turn_reason(state)


WRITTEN_GRACE = 2.0  # real seconds: Telegram stamps a message to the second, and clocks differ
PASS_ECHO = 5.0  # real seconds after a floor: its speaker's «Пас» sent late or twice ends nothing
#: The steps before the running one whose times are kept (a message read late): a day's
#: speeches and votes, so that a message written in one's own minute is his however late it is
#: read (issue 35); one older than all of them is judged as read.
RECENT_KEPT = 32
#: Timer seconds a window whose inputs are presses (a hand, a shot, a check, the best move, a
#: silenced speaker's nomination) still takes them after its time is up: a press sent as it
#: closed — the button still on the player's screen — counts (what the player saw open).
PRESS_GRACE = 1
PRESS_WINDOWS = (StepKind.VOTE, StepKind.RAISE, StepKind.SILENCED, *NIGHT_STEPS)


def press_grace(step: "Step") -> int:
    """The timer seconds ``step`` waits after its deadline before it closes (:data:`PRESS_GRACE`
    for a window of presses, else 0): the doubt goes to the player who pressed at the edge."""
    return PRESS_GRACE if step.kind in PRESS_WINDOWS else 0


def recent_record(step: Step, closed: float) -> dict[str, Any]:
    """What is kept of a step that closed at ``closed`` (real seconds) to judge, by when it was
    written, a message read after it (:func:`judge_written`)."""
    return {"seat": step.seat, "kind": step.kind.value, "night": step.at_night or
            step.kind is StepKind.NIGHT_ZERO, "opened": step.opened, "closed": closed}


@dataclass(frozen=True)
class Written:
    """How a group message is judged by when it was written (:func:`judge_written`):
    ``current`` — in the running step (judge it by that step); ``own`` — in one of the
    writer's own minutes, or the echo of his «Пас» (nothing: neither speech out of turn nor a
    pass of the running step); otherwise ``reason`` — the penalty for
    the earlier step it was written in (seed 4.1.1 by day, seed 4.2.6 at night)."""

    current: bool = False
    own: bool = False
    reason: str | None = None


def judge_written(recent: list[dict[str, Any]], step: Step, seat: int, written_at: float | None,
                  text: str) -> Written:
    """Judge a message from ``seat`` stamped ``written_at`` (real seconds; ``None``: no stamp,
    as read) by the step it was written in — the running ``step``, or one of the ``recent``
    ones (:func:`recent_record`) — not the one it is read in: a message written in the writer's
    own minute is his however late it is read (seed 4.1.1; F24 §4.3.1: the minute is his), and
    his «Пас» a few seconds after it (``PASS_ECHO``: sent at the boundary or twice) passes
    nothing; one written in another's minute, or at night, is judged by that step (seed 4.1.1,
    4.2.6). Every step counts ``WRITTEN_GRACE`` wider on both sides, for the stamp's rounding
    and clocks that differ, and the doubt goes to the player: a stamp within the grace of one
    of his own minutes is his; between a day step and a night step, the day's foul (4.1.1), not
    the night's disqualification (4.2.6). A stamp in a gap between steps (a step's message
    waiting to be shown) is judged by the step that followed it; one older than every step kept
    (``RECENT_KEPT``) is judged as read."""
    if written_at is None:
        return Written(current=True)
    if is_pass(text) and _echo(recent, seat, written_at):
        return Written(own=True)
    grace = WRITTEN_GRACE
    in_current = written_at >= step.opened - grace
    if in_current and step.seat == seat and step.kind in SPEAKING:
        return Written(current=True)  # his own minute, running: a «Пас» passes it
    found = [r for r in recent if r["opened"] - grace <= written_at <= r["closed"] + grace]
    if any(_own(r, seat) for r in found):
        return Written(own=True)
    if in_current and (not step_at_night(step) or all(r["night"] for r in found)):
        return Written(current=True)
    if found:
        day = any(not r["night"] for r in found)
        return Written(reason=rules.OUT_OF_TURN if day else rules.NIGHT_TALK)
    if written_at < (recent[0]["opened"] if recent else step.opened) - grace:
        return Written(current=True)  # older than every step kept: judged as read
    following = next((r for r in recent if r["opened"] > written_at), None)
    if following is None:  # in the gap before the running step: judged by it
        return Written(current=True)
    if _own(following, seat):
        return Written(own=True)
    return Written(reason=rules.NIGHT_TALK if following["night"] else rules.OUT_OF_TURN)


def written_in_own(recent: list[dict[str, Any]], seat: int, written_at: float | None,
                   kinds: tuple[StepKind, ...] = SPEAKING) -> bool:
    """Whether a message stamped ``written_at`` (real seconds) was written in one of ``seat``'s
    own minutes of ``kinds`` kept in ``recent`` (:func:`recent_record`), ``WRITTEN_GRACE`` wider
    on both sides — the doubt goes to the writer (seed 4.1.1; F24 §4.3.1: the minute is his)."""
    return written_at is not None and any(
        r["seat"] == seat and r["kind"] in kinds
        and r["opened"] - WRITTEN_GRACE <= written_at <= r["closed"] + WRITTEN_GRACE for r in recent)


def step_at_night(step: Step) -> bool:
    """A night step, night 0's included: speaking there is night talk (seed 4.2.6)."""
    return step.at_night or step.kind is StepKind.NIGHT_ZERO


def _own(record: dict[str, Any], seat: int) -> bool:
    """A kept step that was ``seat``'s own minute (a speech, a last word, a tie speech)."""
    return record["seat"] == seat and record["kind"] in SPEAKING


def _echo(recent: list[dict[str, Any]], seat: int, written_at: float) -> bool:
    """A «Пас» written within ``PASS_ECHO`` after one of ``seat``'s own minutes closed."""
    return any(_own(r, seat) and r["opened"] - WRITTEN_GRACE <= written_at <= r["closed"] + PASS_ECHO
               for r in recent)


def is_pass(text: str) -> bool:
    """«Пас», «Спасибо» (and "pass", "thanks"): the speaker ends his minute."""
    words = re.sub(r"[^\w\s]", " ", text.lower()).split()
    return " ".join(words) in PASS_WORDS


def role_seat(state: rules.GameState, role: Role) -> int | None:
    return next((s.number for s in state.seats if s.role is role), None)


def prompted(state: rules.GameState, step: Step) -> list[int]:
    """The seats asked something in private in this step: the blacks at the table to shoot
    (:func:`rules.shooters`), the Don or the Sheriff to check if he may (:func:`rules.checker`,
    docs/rules.md §5.2: one shot tonight still checks — the step runs its full length all the same), the
    night's victim for his best move (F24 §4.5.9)."""
    if step.kind is StepKind.SHOOTING:
        return rules.shooters(state)
    if step.kind in (StepKind.DON_CHECK, StepKind.SHERIFF_CHECK):
        seat = rules.checker(state)
        return [] if seat is None else [seat]
    if step.kind is StepKind.BEST_MOVE and step.seat is not None:
        return [step.seat]
    return []


# What a night button in a player's private chat stands for (the press codec is in views.py).
SHOOT, CHECK, BEST = "S", "C", "G"
_NIGHT_STEPS = {SHOOT: ("shooting",), CHECK: ("don_check", "sheriff_check"), BEST: ("best_move",)}


def toggle_hand(state: rules.GameState, step: Step, seat: int) -> bool:
    """A hand up, or down again, in a nominee's or the raise vote's window (F24 §4.4.5;
    §4.4.12.3). Returns whether the hand is now up. Raises the engine's :class:`rules.RuleError`
    when ``seat`` may not vote in this window (seed 4.1.8: one vote a round)."""
    if seat in step.hands:
        step.hands.remove(seat)
        return False
    refusal = rules.can_vote(state, seat)
    if refusal is not None:
        raise refusal
    step.hands.append(seat)
    return True


def take_night_choice(state: rules.GameState, step: Step, seat: int, action: str,
                      target: int | None) -> bool:
    """Record ``seat``'s shot, check or best-move seat in the open night step (changeable until
    the step closes; applied then by :func:`closing_event`). Returns False when the press does
    not belong to this step or this seat (an outdated button)."""
    if seat not in prompted(state, step) or step.kind not in _NIGHT_STEPS.get(action, ()):
        return False
    if action == SHOOT:
        step.shots[str(seat)] = target
    elif action == CHECK:
        step.target = target
    elif target is not None:
        if target in step.picked:
            step.picked.remove(target)
        elif len(step.picked) < rules.BEST_MOVE_MAX:  # F24 §4.5.9: up to three seats
            step.picked.append(target)
    return True


def closing_event(state: rules.GameState, step: Step) -> rules.Event:
    """The event a step turns into when it closes (see the module docstring)."""
    kind = step.kind
    if kind == "vote" and step.seat is not None:
        voters = tuple(sorted(s for s in set(step.hands)
                              if rules.can_vote(state, s) is None))
        return rules.Vote(nominee=step.seat, voters=voters) if voters else \
            rules.Vote(nominee=step.seat, count=0)
    if kind == "raise":
        voters = tuple(sorted(s for s in set(step.hands) if state.seat(s).at_table))
        return rules.RaiseVote(voters=voters) if voters else rules.RaiseVote(count=0)
    if kind == "shooting":
        return rules.Shots(shots=tuple((b, step.shots.get(str(b))) for b in rules.shooters(state)))
    if kind == "don_check" and step.target is not None:
        return rules.DonCheck(target=step.target)
    if kind == "sheriff_check" and step.target is not None:
        return rules.SheriffCheck(target=step.target)
    if kind == "best_move" and step.picked:
        return rules.BestMove(guesses=tuple(step.picked))
    return rules.Next()


def count_silence(step: Step, counts: dict[str, int]) -> bool:
    """``absent_after`` (:class:`.options.HostOptions`, seed 4.2.1): a day speech that is over
    counts in ``counts`` (seat as text -> own silent speeches in a row): silent, one more;
    the speaker wrote or pressed something (:attr:`Step.active`), back to 0. Only a speech
    counts: a silenced minute (seed 4.4) is not his speech and neither counts nor resets.
    Returns whether ``counts`` changed."""
    if step.kind != "speech" or step.seat is None:
        return False
    seat = str(step.seat)
    counts[seat] = 0 if step.active else counts.get(seat, 0) + 1
    return True


def absent_due(counts: Mapping[str, int], limit: int, seat: int) -> int | None:
    """The silent own speeches in a row of ``seat`` when they reach ``limit`` (> 0): he has
    left the table, seed 4.2.1; ``None`` otherwise (``limit`` 0 is the option off)."""
    silent = int(counts.get(str(seat), 0))
    return silent if 0 < limit <= silent else None


