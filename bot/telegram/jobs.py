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
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import Job, JobQueue


def _release(job: Any) -> None:
    """Cut a finished or cancelled PTB job's reference to its APScheduler job (the cycle the two
    make; PTB reads it no more once the job has run or is removed)."""
    job._job = None


class StoppingJobQueue(JobQueue):  # type: ignore[type-arg]
    """PTB's JobQueue that starts no job once its stop has begun (see the module's note)."""

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
