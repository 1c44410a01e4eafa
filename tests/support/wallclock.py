"""A wall clock a test steps (issue 32: NTP correcting a board without a real-time clock, a VM
resumed), installed wherever the bot's process reads the wall clock for its deadlines: the
adapters' ``clock=`` (the deadlines they store) and, for Telegram, PTB's JobQueue and the
APScheduler under it (the Telegram timers once ran on them: a job set at a wall-clock moment).
The test's own measures use the real clock (``time.time``, never patched here)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest


class SteppedWall:
    """``time.time()`` plus the steps made so far (:meth:`step`)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def step(self, seconds: float) -> None:
        """The wall clock jumps ``seconds`` (forward, or back when negative)."""
        self.offset += seconds


def install(monkeypatch: pytest.MonkeyPatch) -> SteppedWall:
    """A :class:`SteppedWall`, also the clock PTB's JobQueue and APScheduler read."""
    from apscheduler.schedulers import base
    from telegram.ext import JobQueue

    wall = SteppedWall()

    class Stepped(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> dt.datetime:  # type: ignore[override]
            return dt.datetime.fromtimestamp(wall(), tz)

    monkeypatch.setattr(base, "datetime", Stepped)
    monkeypatch.setattr(JobQueue, "_tz_now",
                        lambda queue: dt.datetime.fromtimestamp(wall(), queue.scheduler.timezone))
    return wall
