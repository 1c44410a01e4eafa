"""Deadlines on Telegram: PTB's JobQueue, grouped by name (what the controllers' ports schedule).

Jobs run with ``misfire_grace_time=None`` (by default a job that starts more than 1 s late is
skipped with only a warning). The groups are kept in a map: PTB's ``get_jobs_by_name`` scans every
job, which made re-arming thousands of timers at start-up quadratic.

A job that has fallen due is taken out of APScheduler's store before its callback runs; a
``cancel`` in between (an action's commit re-arming the timer, under load) found it gone and
raised ``JobLookupError`` out of the action's handler. A cancelled job is now dropped from the
map first, and its callback, if it still comes, does nothing.

A PTB job and its APScheduler job refer to each other (a reference cycle): only the cyclic
collector would free them, and :mod:`bot.gcpolicy` freezes what is alive every few hundred
actions — a job pending at a freeze was then kept for good after it ran (36,000 objects in a
three-minute bench). Each job's side of the cycle is cut once it has run or been cancelled
(:func:`_release`), so reference counting frees it.

At a stop PTB waits for the jobs running then, but APScheduler goes on starting due ones until
its shutdown cancels them — each logged as an ERROR (about a hundred per stop with 1,000 live
games). :class:`StoppingJobQueue` pauses the scheduler first: the jobs under way finish, the rest
stay due, and their stored deadlines are re-armed at the next start.

APScheduler checks a job's callable against its arguments at every ``add_job``
(``check_callable_args``, an :func:`inspect.signature` each time: about a seventh of a timer
tick's event-loop time). PTB hands it :meth:`JobQueue.job_callback` always; our queue's
:func:`_job_callback` is the same wrapper with its signature computed once (``__signature__``,
which :func:`inspect.signature` returns as it is).

APScheduler wakes its loop at every ``add_job`` (a ``call_soon_threadsafe``: a write to the
loop's self-pipe, its read, and a pass over the job store), though a timer's next edit almost
always falls after the scheduler's own next wake-up, which will see it anyway: with a thousand
timers running the scheduler wakes every fraction of a second. :class:`LazyWakeScheduler` skips
that wake-up: a re-arm (cancel, add, the loop's pass) with 1,000 timers armed took 95 µs of CPU,
64 µs without it; every action that starts a timed step and every timer tick adds a job.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any, Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from telegram.ext import Job, JobQueue


def _release(job: Any) -> None:
    """Cut a finished or cancelled PTB job's reference to its APScheduler job (the cycle the two
    make; PTB reads it no more once the job has run or is removed)."""
    job._job = None


async def _job_callback(job_queue: Any, job: Any) -> None:
    """PTB's :meth:`JobQueue.job_callback` (runs ``job``), with a precomputed signature."""
    await JobQueue.job_callback(job_queue, job)


_job_callback.__signature__ = inspect.signature(_job_callback)  # type: ignore[attr-defined]


class LazyWakeScheduler(AsyncIOScheduler):
    """APScheduler's asyncio scheduler that is not woken for a job added in its own event loop
    to run no sooner than its pending wake-up (:attr:`_wake_at`, wall-clock seconds): that
    wake-up processes the job store, the new job in it, and sets the next one. Every other
    wake-up (an earlier job, a resume, a modified job, a call from another thread, no wake-up
    pending) is APScheduler's own."""

    _wake_at: float | None = None  # when the pending wake-up fires (time.time())
    _added: Any = None  # the job being added (its next run time decides)

    def _start_timer(self, wait_seconds: float | None) -> None:
        super()._start_timer(wait_seconds)
        self._wake_at = None if wait_seconds is None else time.time() + wait_seconds

    def _stop_timer(self) -> None:
        super()._stop_timer()
        self._wake_at = None

    def _real_add_job(self, job: Any, jobstore_alias: str, replace_existing: bool) -> None:
        self._added = job
        try:
            super()._real_add_job(job, jobstore_alias, replace_existing)
        finally:
            self._added = None

    def wakeup(self) -> None:
        job, wake_at = self._added, self._wake_at
        if job is not None and wake_at is not None and self._timeout is not None \
                and job.next_run_time is not None and job.next_run_time.timestamp() >= wake_at:
            try:
                here = asyncio.get_running_loop() is self._eventloop
            except RuntimeError:  # another thread
                here = False
            if here:
                return  # the pending wake-up will see it
        super().wakeup()


class StoppingJobQueue(JobQueue):  # type: ignore[type-arg]
    """PTB's JobQueue that starts no job once its stop has begun, whose jobs' callable
    APScheduler checks cheaply, and whose scheduler is not woken for a job that falls after its
    next wake-up (see the module's note)."""

    job_callback = staticmethod(_job_callback)

    def __init__(self) -> None:
        super().__init__()
        self.scheduler = LazyWakeScheduler(**self.scheduler_configuration)

    async def stop(self, wait: bool = True) -> None:
        if wait and self.scheduler.running:
            self.scheduler.pause()
        await super().stop(wait)


class JobScheduler:
    """``schedule(group, delay, callback)`` / ``cancel(group)`` over ``app()``'s JobQueue."""

    def __init__(self, app: Callable[[], Any]) -> None:
        self._app = app
        self._jobs: dict[str, list[Job[Any]]] = {}

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        """Call ``callback`` after ``delay`` real seconds (a late job still runs)."""
        app = self._app()
        if app is None or app.job_queue is None:
            return

        async def run(context: Any) -> None:
            jobs = self._jobs.get(group)
            if jobs is None or context.job not in jobs:
                _release(context.job)
                return  # cancelled after APScheduler had taken it up to run
            jobs.remove(context.job)
            if not jobs:
                del self._jobs[group]
            await callback()
            _release(context.job)  # a callback that raised keeps it, for PTB's error handler

        job = app.job_queue.run_once(run, max(0.0, delay), name=group,
                                     job_kwargs={"misfire_grace_time": None})
        self._jobs.setdefault(group, []).append(job)

    def cancel(self, group: str) -> None:
        """Cancel the group's jobs that have not run (one whose callback has begun finishes; one
        due whose callback has not begun is skipped)."""
        for job in self._jobs.pop(group, []):
            try:
                job.schedule_removal()
            except JobLookupError:  # due: APScheduler has taken it out to run it (run() skips it)
                continue
            _release(job)
