"""The step timer's words on Discord (every timed step: :func:`rules.timing`).

The timer is :class:`bot.judge.timer.Timer` (shared: stages, deadline, pause, the stored
form). Discord adds a live countdown for free: a relative timestamp ``<t:UNIX:R>`` that every
client redraws by itself ("in 42 seconds"), so the line counts down with no edits; the bot still
edits it at :data:`bot.judge.timer.WARN_LEFT` seconds left and at the end, like on Telegram.
The deadline is wall-clock time (``time.time``), which is what the timestamp needs.
"""

from __future__ import annotations

import math

from ..i18n import Catalog
from ..judge.timer import RUNNING, WARNED, Timer


def countdown(deadline: float) -> str:
    """Discord's relative timestamp: shown as "in 42 seconds", then "42 seconds ago"."""
    return f"<t:{math.ceil(deadline)}:R>"


def timer_line(timer: Timer, cat: Catalog, now: float) -> str:
    """The timer's line (:meth:`Timer.line`); while it runs, with the live countdown to its end."""
    line = timer.line(cat, now)
    if timer.stage in (RUNNING, WARNED) and timer.deadline is not None:
        return f"{line} {cat.text('dc-timer-ends', until=countdown(timer.deadline))}"
    return line


def channel_text(timer: Timer, cat: Catalog, now: float) -> str:
    """The channel message that carries the timer: its announcement, then the timer line."""
    base = timer.group_base or ""
    line = timer_line(timer, cat, now)
    return f"{base}\n\n{line}" if base else line
