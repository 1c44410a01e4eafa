"""Host mode's PTB handlers: the Telegram updates that are neither typed lines nor presses,
handed to the one table flow (:class:`bot.host.controller.HostController`) — a group's service
messages (a member left, the group migrated), a player blocking the bot — and ``/channel``'s
work, Telegram's own. What members type (commands and speech) and press goes through the
front door (:mod:`bot.front`, from :class:`bot.telegram.app.TelegramReferee`).

Handlers are registered in group :data:`HOST_GROUP`, ahead of the judge mode's.
"""

from __future__ import annotations

from typing import Any

from telegram import ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import CallbackContext, ChatMemberHandler, MessageHandler, filters

import rules

from ...club.evening import EveningDesk
from ...host import steps as st
from ...host import views as vw
from ...host.controller import Defaults, HostController
from ...host.port import Player
from ...host.table import Table
from ...locks import ChatLocks
from ...outbox import post
from .port import PREFIX, TelegramHostPort, chat_id_of

HOST_GROUP = -1  # PTB handler group: before the judge mode's handlers (group 0)

Context = CallbackContext[Any, Any, Any, Any]


def key(chat_id: int) -> str:
    return f"{PREFIX}{chat_id}"


def display_name(user: Any) -> str:
    """A player's name for the table, as :class:`rules.SetName` accepts it: his Telegram name
    cleaned (:func:`rules.clean_name`), else his username, else his id; at most 64 characters."""
    return st.seat_name(getattr(user, "full_name", None), getattr(user, "username", None),
                        fallback=str(getattr(user, "id", "?")))


def player(user: Any) -> Player:
    return Player(key(user.id), display_name(user))


class TelegramHost:
    """Host mode on Telegram over the judge mode's :class:`~bot.telegram.app.TelegramReferee`
    (its service, catalogs, clock and outbox) and its :class:`~bot.locks.ChatLocks`."""

    def __init__(self, settings: Any, referee: Any, locks: ChatLocks | None = None) -> None:
        self.settings = settings
        self.referee = referee
        self.port = TelegramHostPort(settings, referee)
        self.controller = HostController(
            lambda: referee.service, self.port, locks or ChatLocks(),
            Defaults(vote_window=settings.host_vote_window,
                     shooting=settings.host_shooting,
                     silenced=settings.host_silenced, seed=settings.host_seed))
        #: the clubs' evening sign-up (issue 33): posted, edited and reminded through host mode's port
        self.evenings = EveningDesk(lambda: referee.service, self.port, zone=settings.timezone)
        self.app: Any = None

    def register(self, app: Any) -> None:
        self.app = app
        # a group's service messages; what its members write goes through the front door
        # (bot.front: the judge mode's TelegramReferee.on_text), commands and speech alike
        app.add_handler(MessageHandler(filters.ChatType.GROUPS & filters.UpdateType.MESSAGE
                                       & filters.StatusUpdate.ALL, self.on_group), group=HOST_GROUP)
        app.add_handler(ChatMemberHandler(self.on_my_member, ChatMemberHandler.MY_CHAT_MEMBER),
                        group=HOST_GROUP)

    async def post_init(self, app: Any) -> None:
        """Load every open table once the service is open, and resume them (a job: the JobQueue
        runs it as soon as the Application has started). An update for a group that comes
        first resumes that group's tables itself (:meth:`HostController.held`). A shared worker
        loads none here: it runs the tables of the chats it owns, read and resumed when it
        claims the chat (:meth:`HostController.claimed`, :mod:`bot.telegram.shared`)."""
        if self.referee.settings.workers == "shared":
            return
        await self.controller.load_open()
        if app.job_queue is not None:
            app.job_queue.run_once(self._resume, 0, name="host-resume",
                                   job_kwargs={"misfire_grace_time": None})

    async def _resume(self, context: Context) -> None:
        """The start-up job: every open table that no update of its group has resumed yet, and
        every open evening's sign-up its next reminder (stored deadlines)."""
        await self.controller.resume_all()
        await self.evenings.resume_all(PREFIX)

    async def home_of(self, update: Update) -> str | None:
        """Shared workers: the chat of the hosted table ``update`` belongs to, when that is not
        the chat it comes from, so that the worker running the table applies it
        (:class:`bot.telegram.shared.InboxQueue`); ``None``: not a table's business, or the
        table's own chat. A host button (its data names the table: a night prompt is pressed in
        the player's private chat) goes to its table's chat; in a private chat, the lobby's link
        (``/start h<id>``) to its table's, a plain message of a player seated at a running table
        and his blocking the bot to that table's, his ``/start`` to a lobby listing him. A
        player at two open tables at once reaches one of them this way (the running one, else
        the newest lobby)."""
        query = update.callback_query
        if query is not None:
            press = vw.decode(query.data)
            row = await self.referee.service.host_table(press.table) if press else None
            return row.chat if row is not None and row.chat.startswith(PREFIX) else None
        chat = update.effective_chat
        user = update.effective_user
        if chat is None or chat.type != "private" or user is None:
            return None
        message = update.message
        text = (message.text or "") if message is not None else ""
        if message is not None:
            table_id = vw.start_payload(text)
            if table_id is not None:
                row = await self.referee.service.host_table(table_id)
                return row.chat if row is not None and row.chat.startswith(PREFIX) else None
            start = text.split(None, 1)[0].split("@")[0] == "/start" if text else False
            if not text or (text.startswith("/") and not start):
                return None  # a command: the judge mode's (or nobody's)
            wanted = ("lobby",) if start else ("running",)
        elif update.my_chat_member is not None:
            wanted = ("running", "lobby")
        else:
            return None
        rows = await self.referee.service.open_host_tables(player=key(user.id))
        for status in wanted:
            found = [r for r in rows if r.status == status and r.chat.startswith(PREFIX)
                     and (status == "lobby" or key(user.id) in r.seats.values())]
            if found:
                return found[-1].chat
        return None

    def table(self, table_id: int) -> Table | None:
        """The table as held in memory (tests and the status of a running game)."""
        return self.controller.table(table_id)

    def tables_in(self, chat_id: int) -> list[Table]:
        return self.controller.tables_in(key(chat_id))

    # --- the group --------------------------------------------------------------------------------
    async def on_group(self, update: Update, context: Context) -> None:
        """A group's service message: a member left (a seated player has left the table, seed
        4.2.1), or the group became a supergroup (its tables follow the new id)."""
        message = update.message
        if message is None:
            return
        chat = key(message.chat.id)
        if message.left_chat_member is not None:
            await self.controller.left_chat(chat, key(message.left_chat_member.id))
        elif message.migrate_to_chat_id:
            await self.controller.migrated(chat, key(message.migrate_to_chat_id))
            # judge mode's handler moves the chat's link, language and outbox

    async def set_channel(self, chat: str, target: str | None) -> None:
        """``/channel @name`` (a chat admin: the router has checked; under the group's lock,
        which the router holds): the club channel that gets the start and the result of every
        table of this group, with the protocol; ``/channel off`` unlinks it; ``/channel``
        alone says which it is."""
        cat = await self.port.cat(chat)
        bot = self.app.bot
        if target is None:
            linked = await self.referee.service.club_channel(chat)
            await self._queued(chat, cat.text("host-channel-usage") if linked is None
                               else cat.text("host-channel-is", title=linked[1] or linked[0]))
            return
        if target == "off":
            await self.referee.service.set_club_channel(chat, None)
            await self._queued(chat, cat.text("host-channel-unlinked"))
            return
        target = target if target.startswith("@") or target.lstrip("-").isdigit() else f"@{target}"
        try:
            found = await bot.get_chat(int(target) if target.lstrip("-").isdigit() else target)
            member = await bot.get_chat_member(found.id, bot.id)
        except TelegramError:
            await self._queued(chat, cat.text("host-channel-not-found", name=cat.said(target)))
            return
        can_post = found.type == "channel" and (
            member.status == ChatMemberStatus.OWNER
            or (member.status == ChatMemberStatus.ADMINISTRATOR
                and bool(getattr(member, "can_post_messages", False))))
        if not can_post:
            await self._queued(chat, cat.text("host-channel-cannot-post", name=cat.said(target)))
            return
        title = rules.clean_text(found.title or "") or target
        await self.referee.service.set_club_channel(chat, key(found.id), title)
        await self._queued(chat, cat.text("host-channel-linked", title=title))

    async def _queued(self, chat: str, text: str) -> None:
        """A confirmation the group must get: queued in the outbox, then sent."""
        await self.referee.service.enqueue([post(chat, text)])
        await self.port.outbox.flush(chat)

    # --- private chats ----------------------------------------------------------------------------
    async def on_my_member(self, update: Update, context: Context) -> None:
        """A player blocked the bot: his night prompts cannot reach him. In the lobby he is not
        reachable any more; at the table he has left it (seed 4.2.1)."""
        changed: ChatMemberUpdated | None = update.my_chat_member
        if changed is None or changed.chat.type != "private":
            return
        if changed.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
            await self.controller.unreachable(key(changed.chat.id))


__all__ = ["HOST_GROUP", "TelegramHost", "chat_id_of", "display_name"]
