"""Deadlines on Telegram: PTB's JobQueue, grouped by name (what the controllers' ports schedule).

Jobs run with ``misfire_grace_time=None`` (by default a job that starts more than 1 s late is
skipped with only a warning). The groups are kept in a map: PTB's ``get_jobs_by_name`` scans every
job, which made re-arming thousands of timers at start-up quadratic.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import Job


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
            if jobs is not None and context.job in jobs:
                jobs.remove(context.job)
                if not jobs:
                    del self._jobs[group]
            await callback()

        job = app.job_queue.run_once(run, max(0.0, delay), name=group,
                                     job_kwargs={"misfire_grace_time": None})
        self._jobs.setdefault(group, []).append(job)

    def cancel(self, group: str) -> None:
        """Cancel the group's jobs that have not run (one running now finishes). A job the
        scheduler has already taken to run — its callback waits for the event loop — is gone
        from the scheduler: nothing to remove (its callback checks that it is still due)."""
        for job in self._jobs.pop(group, []):
            try:
                job.schedule_removal()
            except JobLookupError:
                pass
