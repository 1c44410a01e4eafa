"""Telegram's primitives for host mode (:class:`bot.host.port.HostPort`): Bot API calls and the
deadlines, nothing of the table flow (:mod:`bot.host.controller`).

* messages are sent and edited with inline keyboards; a press is answered with
  ``answerCallbackQuery`` (a toast, an alert, or the bot's link to open);
* the turn's mute is ``restrictChatMember`` with ``until_date`` (a supergroup and the bot's right
  to restrict members; Telegram refuses it for admins and the owner: fouls cover them); a
  passing failure (the network, a flood wait) is tried again shortly, then left to the next step;
* the bot's rights come from ``getChatMember`` of itself; a chat admin directs a table;
* deadlines are :class:`bot.telegram.jobs.JobScheduler` calls on the event loop's monotonic clock
  (a late one still runs; a step of the wall clock moves none).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Mapping

from telegram import ChatPermissions
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from ...host import views as vw
from ...host.port import Mute, MuteMode, Rights
from ...i18n import Catalog
from ...render import fit
from ..base import PREFIX, TelegramPortBase
from ..outbox import MAX_TEXT, markup, protected, retry_seconds

log = logging.getLogger(__name__)

BOT = "tg:bot"  # the judge of every hosted game
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
#: A mute that failed for a passing reason (the network, a flood wait) is tried again after
#: these seconds, then left to the next step; waits are capped (the step's clock runs meanwhile).
RESTRICT_BACKOFF = (0.3, 1.0)
MAX_RESTRICT_WAIT = 3.0


def chat_id_of(chat: str) -> int:
    return int(chat.removeprefix(PREFIX))


class TelegramHostPort(TelegramPortBase):
    """Host mode's port on Telegram, over the judge mode's adapter (``referee``: its bot, catalogs,
    clock and outbox) and the settings (the timer scale, the mute's backstop)."""

    voice_tables = False  # Telegram has no voice channels to mute in
    max_text = MAX_TEXT

    judge = BOT

    def __init__(self, settings: Any, referee: Any) -> None:
        super().__init__(referee)
        self.settings = settings

    @property
    def _bot(self) -> Any:
        return self.referee._bot

    async def private_cat(self, table_chat: str, user: str) -> Catalog:
        return await self.referee.cat(user)  # type: ignore[no-any-return]

    # --- messages ---------------------------------------------------------------------------------
    async def post(self, chat: str, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> int | None:
        try:  # a player's private message cannot be forwarded (issue 36: .outbox.protected)
            sent = await self._bot.send_message(chat_id_of(chat), fit(text, MAX_TEXT),
                                                reply_markup=markup(rows),
                                                **protected({"private": private}))
        except TelegramError as error:
            log.warning("host: cannot send to %s: %s", chat, error)
            return None
        return int(sent.message_id)

    async def edit(self, chat: str, message_id: int, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> bool:
        try:
            await self._bot.edit_message_text(fit(text, MAX_TEXT), chat_id=chat_id_of(chat),
                                              message_id=message_id, reply_markup=markup(rows))
        except BadRequest as error:
            if "not modified" in str(error).lower():
                return True
            log.info("host: cannot edit %s/%s: %s", chat, message_id, error)
            return False
        except TelegramError as error:
            log.warning("host: editing %s/%s failed: %s", chat, message_id, error)
            return False
        return True

    async def delete(self, handle: Any) -> None:
        try:
            await handle.delete()
        except TelegramError as error:
            log.info("host: cannot delete %s: %s", getattr(handle, "message_id", "?"), error)

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None:
        try:
            await handle.answer(text=text[:200] if text else text, show_alert=alert, url=url)
        except TelegramError as error:
            log.info("host: cannot answer a callback query: %s", error)

    # --- the table --------------------------------------------------------------------------------
    async def rights(self, chat: str, handle: Any = None, *, chat_type: str = "") -> Rights | None:
        """Restricting members needs a supergroup and the right (or the owner); reading every
        message needs an admin or privacy mode off."""
        try:
            member = await self._bot.get_chat_member(chat_id_of(chat), self._bot.id)
        except TelegramError:
            return Rights(mute=False, delete=False, read=False)
        owner = member.status == ChatMemberStatus.OWNER
        admin = member.status in ADMIN_STATUSES
        return Rights(
            mute=(chat_type or "supergroup") == "supergroup" and (owner or (admin and bool(
                getattr(member, "can_restrict_members", False)))),
            delete=owner or (admin and bool(getattr(member, "can_delete_messages", False))),
            read=admin or bool(getattr(self._bot, "can_read_all_group_messages", False)))

    async def may_direct(self, chat: str, user: str, handle: Any = None) -> bool:
        try:
            member = await self._bot.get_chat_member(chat_id_of(chat), chat_id_of(user))
        except TelegramError:
            return False
        return member.status in ADMIN_STATUSES

    def mute_mode(self, rights: Rights) -> MuteMode:
        return MuteMode.RESTRICT

    async def mute(self, table_chat: str, user: str, mode: MuteMode, on: bool, *,
                   table_id: int = 0) -> Mute:
        """``restrictChatMember``: no permissions with a backstop ``until_date`` (the settings'
        hours: lifted by Telegram even if the bot never comes back), or all of them again."""
        permissions = ChatPermissions.no_permissions() if on else ChatPermissions.all_permissions()
        until = int(time.time() + self.settings.host_mute_hours * 3600) if on else None
        for wait in (*RESTRICT_BACKOFF, None):
            try:
                await self._bot.restrict_chat_member(chat_id_of(table_chat), chat_id_of(user),
                                                     permissions=permissions, until_date=until)
                return Mute.DONE
            except BadRequest as error:  # (a NetworkError subclass: first)
                text = str(error).lower()
                if "administrator" in text or "owner" in text or "creator" in text:
                    return Mute.UNMUTABLE
                log.warning("host: cannot restrict %s in %s: %s", user, table_chat, error)
                return Mute.NO_RIGHT
            except (NetworkError, RetryAfter) as error:  # passing: try again shortly
                log.info("host: restricting %s in %s failed, %s: %s", user, table_chat,
                         "giving up for this step" if wait is None else "retrying", error)
                if wait is None:
                    return Mute.LATER
                delay = retry_seconds(error) if isinstance(error, RetryAfter) else wait
                await asyncio.sleep(min(delay, MAX_RESTRICT_WAIT))
            except TelegramError as error:  # Forbidden: the bot is no longer an admin there
                log.warning("host: restricting %s in %s failed: %s", user, table_chat, error)
                return Mute.NO_RIGHT
        return Mute.LATER

    async def remove(self, table_chat: str, user: str, on: bool, reason: str) -> bool | None:
        return None  # a removed player is muted by the turn's restriction like everyone else

    def countdown(self, deadline: float, cat: Catalog) -> str:
        return ""  # Telegram has no live countdown: the step's line says its length

    def where(self, table_chat: str, title: str) -> str:
        return title

    def seat_lines(self, seats: Mapping[int, str], state: Any, cat: Catalog) -> str:
        return vw.seats_text(state, cat)

    def _link(self, table_id: int) -> str:
        return vw.deep_link(self._bot.username or "bot", table_id)

    def lobby_notes(self, rights: Rights, mode_option: str, unreachable: bool, table_id: int,
                    cat: Catalog) -> tuple[list[str], vw.Rows]:
        lines: list[str] = []
        if unreachable:
            lines.append(cat.text("host-lobby-open-bot", link=self._link(table_id)))
        if not rights.read:
            lines.append(cat.text("host-rights-read"))
        if mode_option != "foul" and not rights.mute:
            lines.append(cat.text("host-rights-restrict"))
        if not rights.delete:
            lines.append(cat.text("host-rights-delete"))
        return lines, [[vw.Btn(cat.text("host-btn-open-bot"), url=self._link(table_id))]]

    def unreachable(self, table_id: int, cat: Catalog) -> tuple[str, str | None]:
        return cat.text("host-join-open-bot"), self._link(table_id)
