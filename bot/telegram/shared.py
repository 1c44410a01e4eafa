"""Telegram with several workers on one PostgreSQL database (``MAFIA_REFEREE_WORKERS=shared``,
issue 18; the store's half is :mod:`storage.shared`).

Every worker serves the webhook behind one endpoint. An update it receives is not handled there:
:class:`InboxQueue` (the Application's ``update_queue``, which PTB's webhook handler awaits before
it answers 200) stores it in the inbox under its home chat (an alias — a linked group — resolved
to the home its commands act on); a failure to store it answers 500, and Telegram delivers it
again. The worker that owns the home chat (:class:`storage.shared.ChatClaims`) takes it from the
inbox (:class:`storage.shared.Drainer`) and hands it to the Application
(``Application.process_update``): the same handlers as one process, one chat's updates in update
order, each applied once. An update without a chat is handled where it arrives.

A worker arms the timers and sends the outbox of the chats it owns only: when it claims a chat
(for an update, or because the chat has a running timer or unsent messages and nobody owns it —
its owner died: :meth:`SharedWorker.adopt`, every ``ADOPT_EVERY`` seconds) it arms the chat's
timer and sends what its outbox holds; when it lets a chat go it stops the chat's timer and
forgets its cached game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from telegram import Update

from storage.shared import ChatClaims, Drainer

if TYPE_CHECKING:
    from .app import AnyApp, TelegramReferee

log = logging.getLogger(__name__)

#: seconds between two looks for chats with a running timer or unsent messages and no owner
ADOPT_EVERY = 5.0


class InboxQueue(asyncio.Queue):  # type: ignore[type-arg]
    """The Application's update queue in shared mode: an update of a chat goes to the inbox
    (stored before the webhook answers), anything else (PTB's own signals, an update without a
    chat) to the queue as usual."""

    def __init__(self, referee: "TelegramReferee") -> None:
        super().__init__()
        self._referee = referee

    async def put(self, item: Any) -> None:
        if isinstance(item, Update) and item.effective_chat is not None:
            from .app import chat_key

            store = self._referee.service.store
            chat = chat_key(item.effective_chat.id)
            home = await store.alias(chat) or chat
            if not await store.inbox_put(item.update_id, home, item.to_dict()):
                log.info("update %s delivered again: stored once", item.update_id)
            return
        await super().put(item)


class SharedWorker:
    """One worker's share of the chats: its claims, its drainer loop and its adoption of chats
    left without an owner. :meth:`start` once the Application runs; :meth:`stop` at shutdown."""

    def __init__(self, app: "AnyApp", referee: "TelegramReferee") -> None:
        self.app = app
        self.referee = referee
        self.claims = ChatClaims(str(referee.settings.db), on_release=self._released,
                                 on_claim=self._claimed)
        self.drainer = Drainer(referee.service.store, self.claims, self._apply)
        self._tasks: list[asyncio.Task[None]] = []

    async def _apply(self, chat: str, update_id: int, payload: dict[str, Any]) -> None:
        await self.app.process_update(Update.de_json(payload, self.app.bot))

    async def _claimed(self, home: str) -> None:
        """Take the chat over: its running timer armed, its unsent messages sent."""
        referee = self.referee
        await referee.judge.rearm(home)
        for chat in (home, *await referee.service.aliases(home)):
            referee.outbox.kick(chat)

    def _released(self, home: str) -> None:
        game_id = self.referee.service.forget(home)
        if game_id is not None:
            self.referee.judge.disarm(game_id)

    async def adopt(self) -> list[str]:
        """Claim the chats that have a running timer or unsent messages and no owner. Returns
        the chats claimed now."""
        store = self.referee.service.store
        homes: list[str] = []
        for game_id in await store.open_timers(prefix="tg:"):
            game = await store.game(game_id)
            if game is not None:
                homes.append(game.chat)
        for chat in await store.pending_chats():
            homes.append(await store.alias(chat) or chat)
        taken = []
        for home in dict.fromkeys(homes):
            if home not in self.claims.owned and await self.claims.claim(home):
                taken.append(home)
        return taken

    async def _adopting(self) -> None:
        while True:
            try:
                await self.adopt()
            except Exception:  # noqa: BLE001 - tried again at the next look
                log.exception("looking for chats without an owner")
            await asyncio.sleep(ADOPT_EVERY)

    async def _draining(self) -> None:
        while True:
            try:
                await self.drainer.run()
            except Exception:  # noqa: BLE001 - the database went away: try again shortly
                log.exception("the inbox could not be read")
                await asyncio.sleep(1.0)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._adopting(), name="shared-adopt"),
                       asyncio.create_task(self._draining(), name="shared-drain")]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self.claims.close()
