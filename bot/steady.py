"""Deadlines stored on the wall clock, run on the monotonic one (issue 32).

A judge's step timer and a hosted table's step keep an absolute wall-clock deadline in the store
(unix seconds: ARCHITECTURE.md, "Deadlines are stored"), so that a restart re-arms them. But the
wall clock can step — NTP correcting a board without a real-time clock, a resumed VM —, and a
timer that asked it how much time was left at every edit froze for the length of a step back and
ended at once after a step forward. :class:`Steady` turns each deadline into a monotonic one
once: when the deadline is set (:meth:`Steady.set`, with the seconds it lies ahead), or,
for a deadline read from the store (a start-up, a shared worker taking a chat over), the first
time it is seen here (from the wall clock then). From then on only the monotonic clock counts:
the seconds left (:meth:`Steady.left`) and the moment the timer is at (:meth:`Steady.now`, in
the deadline's own wall-clock frame) never move with the wall clock. The stored deadline and the
end a timer shows as a clock time stay as they were set.
"""

from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

from .lru import CACHED_CHATS, Recent

K = TypeVar("K", bound=Hashable)


class Steady(Generic[K]):
    """Monotonic anchors of wall-clock deadlines, by key (a game, a table's step): at most
    ``limit`` kept, the least recently used dropped first (one dropped is anchored again from the
    wall clock at its next use). ``wall()``: the wall clock the deadlines are stored in (unix
    seconds); ``steady()``: a clock nobody sets (``time.monotonic``, the event loop's), seconds."""

    def __init__(self, wall: Callable[[], float], steady: Callable[[], float], *,
                 limit: int = CACHED_CHATS) -> None:
        self._wall = wall
        self._steady = steady
        self._anchors: Recent[K, tuple[float, float]] = Recent(limit)  # key -> (deadline, its steady time)

    def set(self, key: K, deadline: float, ahead: float) -> None:
        """``deadline`` (wall clock) was just set ``ahead`` seconds from now: it falls that many
        seconds from this moment of the monotonic clock."""
        self._anchors[key] = (deadline, self._steady() + ahead)

    def left(self, key: K, deadline: float) -> float:
        """Seconds until ``deadline`` (wall clock, as stored), counted on the monotonic clock from
        when it was anchored (negative: passed). A deadline not anchored yet under ``key`` (read
        from the store; another one replaced it) is anchored now, from the wall clock."""
        anchor = self._anchors.get(key)
        steady = self._steady()
        if anchor is None or anchor[0] != deadline:
            anchor = (deadline, steady + (deadline - self._wall()))
            self._anchors[key] = anchor
        return anchor[1] - steady

    def now(self, key: K, deadline: float) -> float:
        """The moment a timer ending at ``deadline`` is at now, in the deadline's wall-clock frame:
        ``deadline`` less :meth:`left` (what :class:`bot.judge.timer.Timer` takes as ``now``)."""
        return deadline - self.left(key, deadline)

    def drop(self, key: K) -> None:
        self._anchors.pop(key, None)
