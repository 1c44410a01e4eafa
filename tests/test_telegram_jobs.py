"""Deadlines on Telegram (:mod:`bot.telegram.jobs`): a timer cancelled just as it falls due.

APScheduler takes a due job out of its store before the job's callback runs; an action whose
commit re-arms the timer in between (a judge's press, under load) cancelled it and got
``JobLookupError`` out of its handler — the judge was told «saved, but not sent» (found by the
kill rig in the full suite). The cancel now succeeds and the old deadline's callback does
nothing; the timer armed after it still runs."""

from __future__ import annotations

import asyncio
import logging
import gc
import weakref
from typing import Any, Awaitable, Callable

import pytest

from apscheduler.jobstores.base import JobLookupError

from bot.telegram.jobs import JobScheduler, StoppingJobQueue


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


class Marker:
    """Something a timer's callback holds: alive as long as its job is."""


async def test_a_job_run_or_cancelled_is_freed_without_the_cyclic_collector() -> None:
    """A PTB job and its APScheduler job refer to each other: once a job has run or been
    cancelled the scheduler cuts that cycle, so reference counting frees it (bot.gcpolicy
    freezes what is alive: a cycle frozen while pending was kept for good). The cyclic collector
    is off here, so only reference counting can free anything."""
    from telegram.ext import ApplicationBuilder

    app = ApplicationBuilder().token("1:x").updater(None).build()
    await app.job_queue.start()
    scheduler = JobScheduler(lambda: app)
    ran = asyncio.Event()
    freed: list[Any] = []

    def callback() -> Callable[[], Awaitable[None]]:
        marker = Marker()
        freed.append(weakref.ref(marker))

        async def call() -> None:
            assert marker is not None
            ran.set()
        return call

    enabled = gc.isenabled()
    gc.disable()
    try:
        scheduler.schedule("timer:1", 0.01, callback())
        scheduler.schedule("timer:2", 60, callback())
        await asyncio.wait_for(ran.wait(), 10)
        scheduler.cancel("timer:2")
        for _ in range(50):  # APScheduler finishes the run and the removal on the loop
            await asyncio.sleep(0.01)
            if all(ref() is None for ref in freed):
                break
        assert [ref() is None for ref in freed] == [True, True]
    finally:
        if enabled:
            gc.enable()
        await app.job_queue.stop()


async def test_a_stop_lets_the_running_jobs_finish_and_starts_no_other(
        caplog: pytest.LogCaptureFixture) -> None:
    """At a stop (SIGINT, a deploy) a timer's job under way finishes; one falling due meanwhile
    is not started (its stored deadline is re-armed at the next start) — PTB's own queue started
    it and then cancelled it at the scheduler's shutdown, an ERROR in the log for each."""
    from telegram.ext import ApplicationBuilder

    app = ApplicationBuilder().token("1:x").updater(None).job_queue(StoppingJobQueue()).build()
    await app.job_queue.start()
    started: list[str] = []
    finished: list[str] = []
    release = asyncio.Event()

    def job(name: str) -> Callable[[Any], Awaitable[None]]:
        async def run(_: Any) -> None:
            started.append(name)
            await release.wait()
            finished.append(name)
        return run

    app.job_queue.run_once(job("running"), 0)
    for _ in range(500):
        await asyncio.sleep(0.01)
        if started:
            break
    assert started == ["running"]
    app.job_queue.run_once(job("due"), 0.01)
    with caplog.at_level(logging.INFO, logger="apscheduler"):
        stopping = asyncio.create_task(app.job_queue.stop())
        await asyncio.sleep(0.3)  # "due" falls due while the stop waits for "running"
        release.set()
        await asyncio.wait_for(stopping, 30)
    assert started == ["running"] and finished == ["running"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_the_queue_s_jobs_run_once_and_their_callable_is_checked_without_recomputing(
        ) -> None:
    """APScheduler checks the callable of every job added (``check_callable_args``, with
    :func:`inspect.signature`): on PTB's own ``job_callback`` that computed a new signature at
    every timer tick. Our queue's is computed once (the same object each time); a job still
    runs once, and a cancelled one not."""
    import inspect

    from telegram.ext import ApplicationBuilder, JobQueue

    assert inspect.signature(JobQueue.job_callback) is not inspect.signature(JobQueue.job_callback)
    app = ApplicationBuilder().token("1:x").updater(None).job_queue(StoppingJobQueue()).build()
    assert inspect.signature(app.job_queue.job_callback) is \
        inspect.signature(app.job_queue.job_callback)
    await app.job_queue.start()
    scheduler = JobScheduler(lambda: app)
    fired: list[str] = []
    done = asyncio.Event()

    def job(name: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            fired.append(name)
            done.set()
        return run

    try:
        scheduler.schedule("timer:2", 0.02, job("cancelled"))
        scheduler.cancel("timer:2")
        scheduler.schedule("timer:1", 0.01, job("due"))
        await asyncio.wait_for(done.wait(), 10)
        for _ in range(5):
            await asyncio.sleep(0.02)
        assert [j.callback.__name__ for j in app.job_queue.jobs()] == []
    finally:
        await app.job_queue.stop()
    assert fired == ["due"]


async def test_a_job_after_the_scheduler_s_next_wake_up_does_not_wake_it_and_still_runs() -> None:
    """APScheduler woke its loop at every job added (a self-pipe write and a pass over the
    store); our scheduler is not woken for a job falling after its pending wake-up, which
    sees the job anyway. Each job still runs, in deadline order and never early; one falling
    before the pending wake-up wakes it (it would otherwise run late)."""
    import time

    from telegram.ext import ApplicationBuilder

    app = ApplicationBuilder().token("1:x").updater(None).job_queue(StoppingJobQueue()).build()
    await app.job_queue.start()
    scheduler = app.job_queue.scheduler
    passes = [0]
    process = scheduler._process_jobs

    def counted() -> Any:
        passes[0] += 1
        return process()

    scheduler._process_jobs = counted
    ran: list[tuple[str, float, float]] = []
    done = asyncio.Event()

    def job(name: str, delay: float) -> None:
        due = time.time() + delay

        async def run(_: Any) -> None:
            ran.append((name, due, time.time()))
            if len(ran) == 3:
                done.set()
        app.job_queue.run_once(run, delay)

    async def settle() -> int:
        for _ in range(5):
            await asyncio.sleep(0)
        return passes[0]

    try:
        job("first", 1.5)
        before = await settle()
        job("later", 1.7)  # after the pending wake-up (the first job's)
        assert await settle() == before
        job("sooner", 0.05)  # before it: the scheduler is woken to wait less
        assert await settle() == before + 1
        await asyncio.wait_for(done.wait(), 30)
    finally:
        await app.job_queue.stop()
    assert [name for name, _, _ in ran] == ["sooner", "first", "later"]
    assert all(at >= due - 0.01 for _, due, at in ran)  # none early (APScheduler's own slack)
