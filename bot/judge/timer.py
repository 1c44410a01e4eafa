"""The step timer of judge mode: a deadline stored with the game, shown as a line the bot edits.

Every timed step runs for the length the rules give it (:func:`rules.timing`, docs/rules.md
§2.4): a speech (F24 §4.3.1: 60 s), a tie speech (§4.4.12: 30 s), a last word — none for the
3rd-foul silence (seed 4.4: 0 s) —, night 0's meeting (F24 §4.2.1) and then, when the judge
starts it, the Sheriff's look (F24 §4.2.3) or the free seating (S24 §4.2.3), the shooting, each
check and the best move (F24 §4.5.3–4.5.9). The bot edits the table's timer line at the start, at
:data:`WARN_LEFT` seconds left and at the end — not every second (flood limits). A platform whose
line does not count down by itself (Telegram) also shows the judge, on his panel, the step's end as
a clock time and the seconds left rounded up to :data:`COUNTDOWN_STEP`, edited that often
(:meth:`Timer.next_edit`, :meth:`Timer.countdown_line`). In judge mode the timer never moves the
game on: the judge does.

``scale`` is the real seconds per timer second (1.0 in play; tests run it fast). The stored form
(:meth:`Timer.to_dict`) lets a restart re-arm the timer (ARCHITECTURE.md, "Deadlines are stored").
Its ``deadline`` is the wall clock's, as stored; a running timer is counted on the monotonic clock
(:mod:`bot.steady`): the ``now`` its methods take is the moment in its deadline's frame that the
judge's controller gives (:meth:`bot.judge.controller.JudgeController._now`), so a step of the
wall clock moves none of its edits.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import rules

from ..i18n import Catalog
from ..render import duration, seat_label
from .routing import step_key

WARN_LEFT = 10  # seconds left at the warning edit
#: Timer seconds between two countdown edits of the judge's panel (Telegram): 0.2 edits a second
#: at play speed, well inside Telegram's documented ~1 message a second in one chat (edits count),
#: which leaves the rest to the judge's own actions; COUNTDOWN_GAP keeps one from landing right
#: after another edit of the panel.
COUNTDOWN_STEP = 5
COUNTDOWN_GAP = 1.0  # timer seconds: a countdown edit waits this long after any panel edit
#: The share of the bot's overall sending budget (Telegram: about 30 messages a second per bot)
#: the countdown edits may fill: an edit that would go beyond it is skipped (the next comes a
#: step later), so the countdowns of many tables at once never hold up what the games say; the
#: end the panel shows as a clock time stays right meanwhile.
COUNTDOWN_SHARE = 0.5
#: Real seconds at least between two countdown edits however fast timer seconds run (tests run
#: them 30–50 times faster: every 5 timer seconds would be several edits a real second).
COUNTDOWN_MIN_GAP = 1.0

RUNNING, WARNED, PAUSED, OVER, STOPPED = "running", "warned", "paused", "over", "stopped"
LIVE = (RUNNING, WARNED)


@dataclass
class Timer:
    key: str  # routing.step_key of the step it times
    kind: str  # rules.Timed.kind: "speech", "last_word", "mafia_meeting", "shooting" …
    seat: int | None
    seconds: int  # the rules' length
    scale: float  # real seconds per timer second
    stage: str = RUNNING
    deadline: float | None = None  # wall-clock end while it runs (as stored; see the module)
    left: float | None = None  # timer seconds left while paused
    run_from: float | None = None  # timer seconds left when the current run began (a resume)
    group_chat: str | None = None  # the group message carrying the timer line
    group_message: int | None = None
    group_base: str | None = None  # that message's text above the timer line
    group_outbox: int | None = None  # the outbox row of that message (its id once it is sent)
    part: int = 0  # which of the step's timed parts (rules.timing) it times

    @classmethod
    def start(cls, key: str, timed: rules.Timed, scale: float, now: float, part: int = 0) -> "Timer":
        return cls(key=key, kind=timed.kind, seat=timed.seat, seconds=timed.seconds, scale=scale,
                   deadline=now + timed.seconds * scale, part=part)

    def next_part(self, state: rules.GameState, now: float) -> "Timer | None":
        """The running step's next timed part (:func:`rules.timing` of ``state``: night 0's
        Sheriff's look after the meeting, F24 §4.2.3; the free seating, S24 §4.2.3) as a timer
        starting at ``now`` (:meth:`following`); ``None`` when this timer is not ``state``'s
        step's, or the step has no part left."""
        parts = rules.timing(state)
        if self.key != step_key(state) or self.part + 1 >= len(parts):
            return None
        return self.following(parts[self.part + 1], now)

    def following(self, timed: rules.Timed, now: float) -> "Timer":
        """The step's next part (night 0's Sheriff's look after the meeting), starting now and
        shown in the same table message as this one."""
        after = Timer.start(self.key, timed, self.scale, now, self.part + 1)
        after.group_chat, after.group_message = self.group_chat, self.group_message
        after.group_base, after.group_outbox = self.group_base, self.group_outbox
        return after

    def to_dict(self) -> dict[str, Any]:
        """Its fields, JSON-ready (all are plain values: a shallow copy, not
        :func:`dataclasses.asdict`'s recursive one — 27 µs at each timer tick)."""
        return {f.name: getattr(self, f.name) for f in _FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Timer":
        return cls(**{k: v for k, v in data.items() if k in _NAMES})

    @property
    def live(self) -> bool:
        return self.stage in LIVE

    def remaining(self, now: float) -> float:
        """Timer seconds left."""
        if self.stage == PAUSED:
            return max(0.0, self.left or 0.0)
        if self.stage in (OVER, STOPPED) or self.deadline is None:
            return 0.0
        return max(0.0, (self.deadline - now) / self.scale)

    def next_stage(self) -> tuple[str, float] | None:
        """The next edit: the stage and its wall-clock time, or ``None``."""
        if self.deadline is None:
            return None
        if self.stage == RUNNING and self.seconds > WARN_LEFT:
            warn_at = self.deadline - WARN_LEFT * self.scale
            return WARNED, warn_at
        if self.stage in LIVE:
            return OVER, self.deadline
        return None

    def next_edit(self, now: float, step: int | None) -> tuple[str, float] | None:
        """The next edit after ``now`` (its stage and wall-clock time): :meth:`next_stage`, or
        before it, with a countdown ``step`` (timer seconds), the moment the seconds left reach
        the next lower multiple of ``step`` (the stage stays: only the panel changes). A late
        edit skips the multiples already passed. ``None``: nothing more."""
        stage = self.next_stage()
        if not step or not self.live or self.deadline is None:
            return stage
        left = round(self.remaining(now), 3)
        boundary = step * math.floor((left - 0.001) / step)
        if boundary <= 0:
            return stage
        at = self.deadline - boundary * self.scale
        if stage is not None and stage[1] <= at + 1e-6:
            return stage
        return self.stage, at

    def pause(self, now: float) -> None:
        if self.live:
            self.left = self.remaining(now)
            self.deadline = None
            self.stage = PAUSED

    def resume(self, now: float) -> None:
        if self.stage == PAUSED:
            left = self.left or 0.0
            self.deadline = now + left * self.scale
            self.left = None
            self.run_from = left
            self.stage = RUNNING if left > WARN_LEFT else WARNED

    def shown_left(self, now: float, step: int) -> int:
        """The seconds left as the countdown shows them: rounded up to ``step``, at most the
        step's length."""
        left = round(self.remaining(now), 3)
        return min(self.seconds, step * max(1, math.ceil(left / step)))

    def countdown_line(self, cat: Catalog, now: float, step: int, zone: dt.tzinfo | None) -> str:
        """The judge's countdown while the timer runs: the seconds left (:meth:`shown_left`)
        and the end as a clock time in ``zone`` («до 20:31:15»; ``None``: the machine's local
        time); paused or over, :meth:`line`; past its end before its alarm rang (a console
        started again after it), over."""
        if not self.live or self.deadline is None:
            return self.line(cat, now)
        title = self._title(cat)
        if self.remaining(now) <= 0:
            return cat.text("judge-timer-over", title=title)
        return cat.text("judge-timer-countdown", title=title,
                        left=duration(self.shown_left(now, step), cat),
                        until=clock_time(self.deadline, zone))

    def _title(self, cat: Catalog) -> str:
        return cat.text("judge-timer-title", kind=self.kind,
                        seat=seat_label(self.seat, cat) if self.seat is not None else "")

    def line(self, cat: Catalog, now: float) -> str:
        """The timer line: running (the full length), the warning, paused, over, stopped."""
        title = self._title(cat)
        if self.stage == RUNNING and self.run_from is not None:
            return cat.text("judge-timer-resumed", title=title,
                            left=duration(math.ceil(self.run_from), cat))
        if self.stage == RUNNING:
            return cat.text("judge-timer-running", title=title, seconds=duration(self.seconds, cat))
        if self.stage == WARNED:  # the warning says 10 s even if its job ran a little late;
            left = WARN_LEFT        # after a resume below 10 s: what was left then
            if self.run_from is not None and self.run_from < WARN_LEFT:
                left = max(1, math.ceil(self.run_from))
            return cat.text("judge-timer-warned", title=title, left=duration(left, cat))
        if self.stage == PAUSED:
            return cat.text("judge-timer-paused", title=title,
                            left=duration(math.ceil(self.remaining(now)), cat))
        if self.stage == OVER:
            return cat.text("judge-timer-over", title=title)
        return cat.text("judge-timer-stopped", title=title)

    def group_text(self, cat: Catalog, now: float) -> str:
        base = self.group_base or ""
        return f"{base}\n\n{self.line(cat, now)}" if base else self.line(cat, now)


_FIELDS = dataclasses.fields(Timer)
_NAMES = frozenset(f.name for f in _FIELDS)


def countdown_step(scale: float) -> int:
    """Timer seconds between two countdown edits at ``scale`` real seconds per timer second:
    :data:`COUNTDOWN_STEP`, or a multiple of it :data:`COUNTDOWN_MIN_GAP` real seconds long
    (only a sped-up timer needs one: 1.0 gives 5, 0.03 gives 35)."""
    return COUNTDOWN_STEP * max(1, math.ceil(COUNTDOWN_MIN_GAP / (COUNTDOWN_STEP * scale) - 1e-9))


def clock_time(at: float, zone: dt.tzinfo | None) -> str:
    """A wall-clock moment as the table's clock shows it, ``HH:MM:SS`` in ``zone`` (``None``: the
    machine's local time)."""
    moment = dt.datetime.fromtimestamp(at, zone) if zone is not None else dt.datetime.fromtimestamp(at)
    return moment.strftime("%H:%M:%S")


async def pause_or_resume(service: Any, current: Any, resume: bool,
                          now: Callable[[Timer], float]) -> Timer | None:
    """Pause or resume the stored timer of ``current``'s running step (the judge's panel
    button) and store it again; ``now(timer)``: the moment the stored timer is at (a running
    one's on the monotonic clock: :meth:`bot.judge.controller.JudgeController._now`). Returns
    the changed timer, or ``None`` when no timer runs for the step on now (an outdated button).
    The judge's controller then arms or cancels its job and edits the messages that show it."""
    data = await service.timer(current.game_id)
    if data is None:
        return None
    timer = Timer.from_dict(data)
    if timer.key != step_key(current.state):
        return None
    if resume:
        timer.resume(now(timer))
    else:
        timer.pause(now(timer))
    await service.set_timer(current.game_id, timer.to_dict())
    return timer
