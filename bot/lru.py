"""Bounded caches: what a long-running bot keeps in memory per chat stays within a bound.

The service and the adapters remember things per chat — a game's folded state, a chat's home, its
language, its lock. With no bound, every chat ever touched stayed in memory (5,000 chats added
26 MB). :class:`Recent` keeps the ``limit`` most recently used entries and drops the oldest:
each of these is a cache of what the store holds (or, for a lock, of nothing at all), so an entry
dropped is read again on its next use. An entry that ``keep(value)`` says is in use (a lock held
or awaited) is never dropped. The bound is the ``MAFIA_REFEREE_CACHE_CHATS`` setting
(:data:`CACHED_CHATS` by default).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Callable, Generic, Iterator, MutableMapping, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: chats whose games, homes, languages and locks are kept in memory (the setting's default)
CACHED_CHATS = 2000


class Recent(MutableMapping[K, V], Generic[K, V]):
    """A mapping of at most ``limit`` entries, the least recently used dropped first (reading an
    entry or writing it uses it); ``keep(value)``: an entry that must not be dropped now."""

    def __init__(self, limit: int = CACHED_CHATS, keep: Callable[[V], bool] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        self.limit = limit
        self._keep = keep
        self._data: OrderedDict[K, V] = OrderedDict()

    def __getitem__(self, key: K) -> V:
        value = self._data[key]
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        if len(self._data) > self.limit:
            self._trim()

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._data))  # a snapshot: reading an entry reorders them

    def clear(self) -> None:
        self._data.clear()

    def values(self) -> list[V]:  # type: ignore[override]
        """The values, oldest first (a snapshot; reading them does not count as a use)."""
        return list(self._data.values())

    def items(self) -> list[tuple[K, V]]:  # type: ignore[override]
        """The entries, oldest first (a snapshot; reading them does not count as a use)."""
        return list(self._data.items())

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def _trim(self) -> None:
        """Drop the oldest entries not in use until the bound holds (or only entries in use are
        left over it)."""
        excess = len(self._data) - self.limit
        if self._keep is None:
            for _ in range(excess):
                self._data.popitem(last=False)
            return
        # only as far as the oldest droppable entries (not a copy of every key: that cost
        # ~20 µs per insert in each of the bot's dozen maps of 2,000 chats)
        drop = []
        for key, value in self._data.items():
            if len(drop) >= excess:
                break
            if not self._keep(value):
                drop.append(key)
        for key in drop:
            del self._data[key]


def lock_in_use(lock: asyncio.Lock) -> bool:
    """A lock held, or awaited: dropping it would let a newcomer take a second lock for the same
    chat. (A released lock with a waiter about to wake is not ``locked()`` yet.)"""
    return lock.locked() or bool(getattr(lock, "_waiters", None))


def locks(limit: int = CACHED_CHATS) -> Recent[str, asyncio.Lock]:
    """A bounded map of per-chat locks: only locks no one holds or awaits are dropped."""
    return Recent(limit, keep=lock_in_use)
