"""One lock per chat, owned by a platform's controllers (:mod:`bot.host.controller`,
:mod:`bot.judge.controller`): everything a game or a table in that chat does — its handlers, its
presses, its deadlines — runs one at a time. The service keeps its own lock per game's home
(:class:`bot.service.Service`), taken inside this one. At most ``limit`` chats' locks are kept
(:mod:`bot.lru`: a lock no one holds or awaits is dropped, and made afresh when needed); the
controllers keep their own per-chat memory within the same bound."""

from __future__ import annotations

import asyncio

from .lru import CACHED_CHATS, locks


class ChatLocks:
    """``lock(chat)``: the chat's :class:`asyncio.Lock` (not reentrant: a holder must not ask
    for the same chat's lock again)."""

    def __init__(self, limit: int = CACHED_CHATS) -> None:
        self.limit = limit
        self._locks = locks(limit)

    def lock(self, chat: str) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock
