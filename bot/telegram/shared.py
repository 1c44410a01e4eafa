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

A worker arms the timers, runs the hosted tables and sends the outbox of the chats it owns only:
when it claims a chat (for an update, or because the chat has a running timer, an open hosted
table or unsent messages and nobody owns it — its owner died: :meth:`SharedWorker.adopt`, every
``ADOPT_EVERY`` seconds) it arms the chat's timer, reads the chat's open tables afresh and resumes
them (each step re-armed from its stored deadline: :meth:`bot.host.controller.HostController.claimed`)
and sends what its outbox holds; when it lets a chat go it stops the chat's timer and its
tables' deadlines and forgets its cached game and tables. A chat with a live table is not let go
for room (``ChatClaims``' ``busy``).

Host mode's updates in a player's private chat belong to his table: a night prompt's button, the
lobby's link, a seated player's message go to the inbox under the table's chat
(:meth:`bot.telegram.host.TelegramHost.home_of`). What a table queues for a chat it does not own
(a player's private chat, the club channel) is sent by this worker if it can claim that chat,
else by the chat's owner, which looks every ``SWEEP_EVERY`` seconds for unsent messages of its
chats (:meth:`SharedWorker.sweep`): one sender per chat, always the chat's owner.

An update the database could not take (PostgreSQL restarting, its connection cut: issue 32)
stays in the inbox (:func:`storage.shared.kept`): the handlers say nothing of it, the worker
tells the user once that it is kept and will be carried out when the database is back
(``error-kept``: a press's alert, a line in the chat of a command or a private message; a
group's plain message gets nothing), lets the chat go and applies the update once the database
answers — once, whichever worker claims the chat. One the database kept refusing while it
answered the inbox is dropped, and the user is told what to do again (``error-kept-dropped``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from telegram import Update

from storage.pg import applying
from storage.shared import ChatClaims

from ..i18n import Catalog, catalog
from ..lru import Recent
from .base import PREFIX, chat_key

if TYPE_CHECKING:
    from ..host.controller import HostController
    from .app import AnyApp, TelegramReferee

log = logging.getLogger(__name__)

#: seconds between two looks for chats with a running timer, an open hosted table or unsent
#: messages and no owner
ADOPT_EVERY = 5.0
#: seconds between two looks for unsent messages of owned chats that another worker queued
SWEEP_EVERY = 1.0


class InboxQueue(asyncio.Queue):  # type: ignore[type-arg]
    """The Application's update queue in shared mode: an update of a chat goes to the inbox
    (stored before the webhook answers), anything else (PTB's own signals, an update without a
    chat) to the queue as usual."""

    def __init__(self, referee: "TelegramReferee",
                 route: Callable[[Update], Awaitable[str | None]] | None = None) -> None:
        super().__init__()
        self._referee = referee
        self._route = route

    async def put(self, item: Any) -> None:
        if isinstance(item, Update) and item.effective_chat is not None:
            service = self._referee.service
            chat = chat_key(item.effective_chat.id)
            routed = await self._route(item) if self._route is not None else None
            home = routed or await service.home(chat, fresh=True)
            if not await service.inbox_put(item.update_id, home, item.to_dict()):
                log.info("update %s delivered again: stored once", item.update_id)
            return
        await super().put(item)


class SharedWorker:
    """One worker's share of the chats: its claims, its drainer loop and its adoption of chats
    left without an owner. :meth:`start` once the Application runs; :meth:`stop` at shutdown."""

    def __init__(self, app: "AnyApp", referee: "TelegramReferee") -> None:
        self.app = app
        self.referee = referee
        #: host mode's table flow (``None``: a worker without host mode, as in unit tests)
        host = getattr(app, "bot_data", {}).get("host")
        self.host: "HostController | None" = host.controller if host is not None else None
        self.claims = ChatClaims(str(referee.settings.db), on_release=self._released,
                                 on_claim=self._claimed,
                                 busy=self.host.live_chats if self.host is not None else None)
        # Telegram's chats only: Discord's shards may share the database and its inbox
        self.drainer = referee.service.drainer(self.claims, self._apply, prefix=PREFIX,
                                               keep=True, on_dropped=self._dropped)
        self._told: Recent[int, None] = Recent(1000)  # the kept updates whose user was told
        self._tasks: list[asyncio.Task[None]] = []
        if self.host is not None:
            self.host.runs = self.claims.owns  # a deadline of a chat let go does nothing
        #: the clubs' evening sign-up: its reminders are the owner's of the club's chat
        self.evenings = getattr(host, "evenings", None)  # (a unit test's host mode may have none)
        if self.evenings is not None:
            self.evenings.runs = self.claims.owns
        referee.outbox.may_send = self.may_send

    async def _apply(self, chat: str, update_id: int, payload: dict[str, Any]) -> None:
        update = Update.de_json(payload, self.app.bot)
        await self.app.process_update(update)
        current = applying.get()
        if current is not None and current.kept and not current.consumed \
                and update_id not in self._told:
            self._told[update_id] = None
            await self._tell(update, "error-kept")

    async def _dropped(self, chat: str, update_id: int, payload: dict[str, Any]) -> None:
        """A kept update dropped (the database kept refusing it): the user is told what to do
        again."""
        self._told.pop(update_id, None)
        await self._tell(Update.de_json(payload, self.app.bot), "error-kept-dropped")

    async def _cat(self, chat_id: int) -> Catalog:
        """The chat's catalog, or the configured language's when the store cannot tell."""
        try:
            return await asyncio.wait_for(self.referee.cat(chat_key(chat_id)), 5)
        except Exception:  # noqa: BLE001 - the database is away
            return catalog(self.referee.settings.lang)

    async def _tell(self, update: Update, key: str) -> None:
        """Say ``key`` about ``update`` where its user reads it (a press: its alert; a command
        or a private message: a line in its chat; a group's plain message: nothing), without
        the database: best effort, logged."""
        chat, message = update.effective_chat, update.effective_message
        if chat is None:
            return
        try:
            cat = await self._cat(chat.id)
            if update.callback_query is not None:
                text = cat.text(key, press="yes", command="")
                await update.callback_query.answer(text[:200], show_alert=True)
            elif message is not None and message.text is not None and (
                    chat.type == "private" or message.text.startswith("/")):
                await self.app.bot.send_message(chat.id, cat.text(key, press="no",
                                                                  command=message.text[:100]))
        except Exception:  # noqa: BLE001 - nothing more can be said
            log.exception("update %s: the user could not be told", update.update_id)

    async def _claimed(self, home: str) -> None:
        """Take the chat over: its running timer armed, its hosted tables resumed (their steps
        re-armed from the stored deadlines), its evening's next reminder armed, its unsent
        messages sent."""
        referee = self.referee
        await referee.judge.rearm(home)
        if self.host is not None:
            await self.host.claimed(home)
        if self.evenings is not None:
            await self.evenings.claimed(home)
        for chat in (home, *await referee.service.aliases(home)):
            referee.outbox.kick(chat, reread=True)

    def _released(self, home: str) -> None:
        game_id = self.referee.service.forget(home)
        if game_id is not None:
            self.referee.judge.disarm(game_id)
        if self.host is not None:
            self.host.released(home)
        if self.evenings is not None:
            self.evenings.released(home)

    async def may_send(self, chat: str) -> bool:
        """Whether this worker sends ``chat``'s outbox now: it owns the chat's home, or claims it
        now (a hosted table's player's private chat, its club channel: chats of no table of
        their own). Another worker owning it sends them (:meth:`sweep`): one sender per chat."""
        if self.claims.owns(chat):
            return True
        home = await self.referee.service.home(chat, fresh=True)
        return self.claims.owns(home) or await self.claims.claim(home)

    async def sweep(self) -> list[str]:
        """Send the unsent messages of the chats this worker owns, whoever queued them (another
        worker's hosted table writes to a player whose private chat is owned here). Returns the
        chats sent to."""
        service = self.referee.service
        kicked = []
        for chat in await service.pending_chats():
            if chat.startswith(PREFIX) and self.claims.owns(await service.home(chat, fresh=True)):
                self.referee.outbox.kick(chat, reread=True)
                kicked.append(chat)
        return kicked

    async def adopt(self) -> list[str]:
        """Claim the chats that have a running timer, an open hosted table or unsent messages
        and no owner. Returns the chats claimed now."""
        service = self.referee.service
        homes: list[str] = []
        for game_id in await service.open_timers(prefix=PREFIX):
            game = await service.game_row(game_id)
            if game is not None:
                homes.append(game.chat)
        if self.host is not None:
            homes.extend(await service.open_host_chats(PREFIX))
        if self.evenings is not None:
            homes.extend(await self.evenings.clubs(PREFIX))
        for chat in await service.pending_chats():
            if chat.startswith(PREFIX):  # a Discord process sends its own
                homes.append(await service.home(chat, fresh=True))
        taken = []
        for home in dict.fromkeys(homes):
            if home not in self.claims.owned and await self.claims.claim(home):
                taken.append(home)
        return taken

    async def _adopting(self) -> None:
        rounds = 0
        while True:
            try:
                if rounds % round(ADOPT_EVERY / SWEEP_EVERY) == 0:
                    await self.claims.check()  # cut off: every chat let go first
                    await self.adopt()
                await self.sweep()
            except Exception:  # noqa: BLE001 - tried again at the next look
                log.exception("looking for chats without an owner")
            rounds += 1
            await asyncio.sleep(SWEEP_EVERY)

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
