"""Deadlines on Discord: asyncio tasks, grouped by name (what the controllers' ports schedule).

A task sleeps its delay on the event loop's clock, which is monotonic: a step of the wall clock
moves no deadline (issue 32; the delay itself is computed once from the stored deadline, by the
controllers: :mod:`bot.steady`)."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

log = logging.getLogger(__name__)


class TaskScheduler:
    """``schedule(group, delay, callback)`` / ``cancel(group)``: a task per call that sleeps, then
    runs the callback (a failure is logged, never lost silently)."""

    def __init__(self) -> None:
        self._tasks: dict[str, list[asyncio.Task[None]]] = {}

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        async def run() -> None:
            await asyncio.sleep(max(0.0, delay))
            task = asyncio.current_task()  # not the closure's: a cancelled task's traceback
            # holds this frame, and a frame holding its task is a cycle only a collection frees
            tasks = self._tasks.get(group)
            if tasks is not None and task in tasks:
                tasks.remove(task)
                if not tasks:
                    del self._tasks[group]
            try:
                await callback()
            except Exception:
                log.exception("%s: a timer failed", group)

        self._tasks.setdefault(group, []).append(
            asyncio.get_running_loop().create_task(run(), name=group))

    def cancel(self, group: str) -> None:
        """Cancel the group's calls (but the one running now: it finishes)."""
        for task in self._tasks.pop(group, []):
            if task is not asyncio.current_task():
                task.cancel()

    def cancel_all(self) -> None:
        for group in list(self._tasks):
            self.cancel(group)
