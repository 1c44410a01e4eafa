"""Deadlines on Telegram: the controllers' timers on the event loop's monotonic clock, grouped by
name (what the controllers' ports schedule), and PTB's JobQueue for the Application's own jobs.

**The timers** (:class:`JobScheduler`: every judge's step timer, every hosted table's step) are
``loop.call_later`` handles: asyncio's clock is monotonic, so a step of the wall clock (NTP
correcting a board without a real-time clock, a resumed VM) moves no timer — PTB's JobQueue,
over APScheduler, set each job at a wall-clock moment: a step back froze a speech for the length
of the step, a step forward ended it at once (issue 32). A due timer's callback runs as a task of
the Application (:meth:`telegram.ext.Application.create_task`): a failure goes to the error
handler, and a stop waits for the callbacks under way; one falling due once the stop has begun
is not started (its stored deadline is re-armed at the next start). A cancel takes the handle
out before it runs; a callback that has begun finishes. Nothing holds a handle but the group's
list: a handle that has run or been cancelled is freed by reference counting (no cycle for the
collector, which :mod:`bot.gcpolicy` freezes). Arming costs a heap push: the APScheduler job
store's add, its callable check and the wake-up it posted to the loop are gone from every
action and every timer tick.

**The JobQueue** keeps the start-up jobs (``rearm``, ``host-resume``) and the heartbeat. At a
stop PTB waits for the jobs running then, but APScheduler goes on starting due ones until its
shutdown cancels them — each logged as an ERROR. :class:`StoppingJobQueue` pauses the scheduler
first: the jobs under way finish, the rest stay due.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from telegram.ext import JobQueue


class StoppingJobQueue(JobQueue):  # type: ignore[type-arg]
    """PTB's JobQueue that starts no job once its stop has begun (see the module's note)."""

    async def stop(self, wait: bool = True) -> None:
        if wait and self.scheduler.running:
            self.scheduler.pause()
        await super().stop(wait)


class JobScheduler:
    """``schedule(group, delay, callback)`` / ``cancel(group)`` on the event loop's monotonic
    clock, each callback run as a task of ``app()`` (the Application: it may be built after the
    scheduler)."""

    def __init__(self, app: Callable[[], Any]) -> None:
        self._app = app
        # group -> its pending calls: (a token the call knows itself by, its loop handle)
        self._pending: dict[str, list[tuple[object, asyncio.TimerHandle]]] = {}

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        """Call ``callback`` after ``delay`` real seconds of the monotonic clock (a late call
        still runs; nothing before the Application runs, or once its stop has begun)."""
        app = self._app()
        if app is None:
            return
        token = object()  # the handle is not in its own callback: no reference cycle

        def due() -> None:
            calls = self._pending.get(group)
            if calls is None:
                return
            for index, (mine, _) in enumerate(calls):
                if mine is token:
                    del calls[index]
                    break
            else:
                return  # cancelled
            if not calls:
                del self._pending[group]
            if app.running:  # a stop has begun: the stored deadline is re-armed at the next start
                app.create_task(callback(), name=group)

        handle = asyncio.get_running_loop().call_later(max(0.0, delay), due)
        self._pending.setdefault(group, []).append((token, handle))

    def cancel(self, group: str) -> None:
        """Cancel the group's calls that have not begun (one whose callback has begun
        finishes)."""
        for _, handle in self._pending.pop(group, []):
            handle.cancel()

    def armed(self, prefix: str = "") -> int:
        """How many calls are pending in the groups that begin with ``prefix`` (the bench)."""
        return sum(len(calls) for group, calls in self._pending.items() if group.startswith(prefix))
