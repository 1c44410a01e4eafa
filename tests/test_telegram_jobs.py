"""Deadlines on Telegram (:mod:`bot.telegram.jobs`): the controllers' timers on the event loop's
monotonic clock, each run as a task of the Application; PTB's JobQueue for its own jobs, which
starts none once its stop has begun."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref
from typing import Any, Awaitable, Callable, Coroutine

import pytest

from bot.telegram.jobs import JobScheduler, StoppingJobQueue
from support import wallclock


class App:
    """What the scheduler needs of the Application: whether it runs, and its tasks (their
    failures go to its error handler)."""

    def __init__(self) -> None:
        self.running = True
        self.tasks: list[asyncio.Task[Any]] = []
        self.errors: list[BaseException] = []

    def create_task(self, coroutine: Coroutine[Any, Any, Any], *, name: str | None = None) -> Any:
        async def handled() -> None:
            try:
                await coroutine
            except Exception as error:  # noqa: BLE001 - PTB's process_error
                self.errors.append(error)
        task = asyncio.create_task(handled(), name=name)
        self.tasks.append(task)
        return task


def recorder(fired: list[str], name: str, done: asyncio.Event | None = None
             ) -> Callable[[], Awaitable[None]]:
    async def call() -> None:
        fired.append(name)
        if done is not None:
            done.set()
    return call


async def test_a_timer_runs_after_its_delay_and_a_cancelled_one_never() -> None:
    """A cancel takes the pending call out (an action re-arming its game's timer); the timer
    armed after it runs, once, as a task of the Application."""
    app, fired, done = App(), [], asyncio.Event()
    jobs = JobScheduler(lambda: app)
    jobs.schedule("timer:1", 0.05, recorder(fired, "old"))
    jobs.cancel("timer:1")
    jobs.schedule("timer:1", 0.05, recorder(fired, "new", done))
    jobs.schedule("timer:2", 0.01, recorder(fired, "other"))
    assert jobs.armed("timer:") == 2
    await asyncio.wait_for(done.wait(), 10)
    await asyncio.gather(*app.tasks)
    assert fired == ["other", "new"] and jobs.armed() == 0


async def test_a_timer_waits_its_delay_whatever_the_wall_clock_does(
        fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: the wall clock the process reads (PTB's JobQueue and APScheduler included)
    jumps an hour back right after two timers of a running Application are armed, then two
    hours forward: each still runs after its delay on the monotonic clock — none an hour late,
    none at once. (On the JobQueue a job was set at a wall-clock moment: the step back froze
    it.)"""
    from fakebot import build_application, running

    wall = wallclock.install(monkeypatch)
    app = build_application(fake)
    jobs = JobScheduler(lambda: app)
    done = asyncio.Event()
    ran: dict[str, float] = {}
    async with running(app, fake):
        loop = asyncio.get_running_loop()
        start = loop.time()

        def timed(name: str, last: bool = False) -> Callable[[], Awaitable[None]]:
            async def call() -> None:
                ran[name] = loop.time() - start
                if last:
                    done.set()
            return call

        jobs.schedule("timer:1", 0.3, timed("back"))
        jobs.schedule("timer:2", 0.6, timed("forward", last=True))
        wall.step(-3600)
        await asyncio.sleep(0.3)
        wall.step(7200)
        await asyncio.wait_for(done.wait(), 30)
    assert ran["back"] >= 0.3 and ran["forward"] >= 0.6, ran


async def test_a_timer_falling_due_once_the_stop_has_begun_is_not_started() -> None:
    """Its stored deadline is re-armed at the next start; nothing runs in a stopping
    Application."""
    app, fired = App(), []
    jobs = JobScheduler(lambda: app)
    jobs.schedule("timer:1", 0.01, recorder(fired, "due"))
    app.running = False  # the stop has begun
    await asyncio.sleep(0.1)
    assert fired == [] and app.tasks == [] and jobs.armed() == 0


async def test_a_failing_timer_goes_to_the_applications_error_handler() -> None:
    app, done = App(), asyncio.Event()
    jobs = JobScheduler(lambda: app)

    async def failing() -> None:
        done.set()
        raise RuntimeError("a timer's edit failed")

    jobs.schedule("timer:1", 0.01, failing)
    await asyncio.wait_for(done.wait(), 10)
    await asyncio.gather(*app.tasks)
    assert [str(e) for e in app.errors] == ["a timer's edit failed"]


class Marker:
    """Something a timer's callback holds: alive as long as its call is."""


async def test_a_timer_run_or_cancelled_is_freed_without_the_cyclic_collector() -> None:
    """:mod:`bot.gcpolicy` freezes what is alive: a call pending at a freeze must not be kept
    by a reference cycle once it has run or been cancelled. The cyclic collector is off here,
    so only reference counting can free anything."""
    app, done = App(), asyncio.Event()
    jobs = JobScheduler(lambda: app)
    freed: list[Any] = []

    def callback() -> Callable[[], Awaitable[None]]:
        marker = Marker()
        freed.append(weakref.ref(marker))

        async def call() -> None:
            assert marker is not None
            done.set()
        return call

    enabled = gc.isenabled()
    gc.disable()
    try:
        jobs.schedule("timer:1", 0.01, callback())
        jobs.schedule("timer:2", 60, callback())
        await asyncio.wait_for(done.wait(), 10)
        jobs.cancel("timer:2")
        await asyncio.gather(*app.tasks)
        app.tasks.clear()
        await asyncio.sleep(0)
        assert [ref() is None for ref in freed] == [True, True]
    finally:
        if enabled:
            gc.enable()


async def test_a_stop_lets_the_running_jobs_finish_and_starts_no_other(
        caplog: pytest.LogCaptureFixture) -> None:
    """At a stop (SIGINT, a deploy) a job of the JobQueue under way finishes; one falling due
    meanwhile is not started — PTB's own queue started it and then cancelled it at the
    scheduler's shutdown, an ERROR in the log for each."""
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
