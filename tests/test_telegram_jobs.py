"""Deadlines on Telegram (:mod:`bot.telegram.jobs`): a timer cancelled just as it falls due.

APScheduler takes a due job out of its store before the job's callback runs; an action whose
commit re-arms the timer in between (a judge's press, under load) cancelled it and got
``JobLookupError`` out of its handler — the judge was told «saved, but not sent» (found by the
kill rig in the full suite). The cancel now succeeds and the old deadline's callback does
nothing; the timer armed after it still runs."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError

from bot.telegram.jobs import JobScheduler


class DueJob:
    """A PTB job APScheduler has already taken out of its store to run."""

    def __init__(self, callback: Callable[[Any], Awaitable[None]]) -> None:
        self.callback = callback

    def schedule_removal(self) -> None:
        raise JobLookupError("gone")


class Queue:
    def __init__(self) -> None:
        self.jobs: list[DueJob] = []

    def run_once(self, callback: Callable[[Any], Awaitable[None]], when: float, **kwargs: Any) -> DueJob:
        job = DueJob(callback)
        self.jobs.append(job)
        return job


class App:
    def __init__(self) -> None:
        self.job_queue = Queue()


class Context:
    def __init__(self, job: DueJob) -> None:
        self.job = job


def test_a_timer_cancelled_as_it_falls_due_does_not_fire_and_does_not_raise() -> None:
    app = App()
    scheduler = JobScheduler(lambda: app)
    fired: list[str] = []

    async def old() -> None:
        fired.append("old")

    async def new() -> None:
        fired.append("new")

    async def run() -> None:
        scheduler.schedule("game:1", 60, old)
        due = app.job_queue.jobs[0]
        scheduler.cancel("game:1")  # the action's re-arm: no JobLookupError
        scheduler.schedule("game:1", 60, new)
        await due.callback(Context(due))  # the due job's callback still comes: skipped
        fresh = app.job_queue.jobs[1]
        await fresh.callback(Context(fresh))

    asyncio.run(run())
    assert fired == ["new"]
