"""Discord's primitives for host mode (:class:`bot.host.port.HostPort`): REST calls through
discord.py and asyncio timers, nothing of the table flow (:mod:`bot.host.controller`).

* messages carry persistent views of :class:`HostButton` (rebuilt by discord.py from any matching
  custom_id, after a restart too); a press is answered ephemerally, or just acknowledged;
* the turn's mute: with **Manage Permissions** in the channel, Send Messages is denied to the
  member for the whole game (a member overwrite: ``overwrite``); else, with **Moderate Members**,
  a speech-long timeout (``timeout``: between speeches nobody is timed out, so every hand can be
  raised); a player the rules removed is timed out until the end (lifted then);
* a voice table (``/newgame voice:#table``): everyone seated but the speaker is server-muted in
  its voice channel (``voice``, :mod:`bot.discord.voice`; Mute Members);
* the rights come with each slash command (``app_permissions``); a member with Manage Channels
  directs a table;
* a step's message shows Discord's live countdown (``<t:…:R>``, redrawn by every client).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import Any, Mapping

import discord

from ...host import views as vw
from ...host.port import Mute, MuteMode, Rights
from ...i18n import Catalog
from ...render import seat_label
from ..base import DiscordPortBase
from ..countdown import countdown
from ..keys import id_of, mention_channel, mention_user, user_key
from ..rights import rights_text
from ..text import discord_catalog
from ..voice import bound_voice


log = logging.getLogger(__name__)

REMOVAL_TIMEOUT = dt.timedelta(hours=6)  # longer than any game; lifted at its end
SPEECH_TIMEOUT = dt.timedelta(minutes=10)  # a speech-long mute; renewed or lifted each step
SEND_MESSAGES = discord.Permissions(send_messages=True).value
MEMBER_OVERWRITE = 1  # the overwrite's target type: a member
# The rights "only the speaker writes" and the removal need, by mode (the lobby names the missing).
HOST_RIGHTS = ("view_channel", "send_messages", "attach_files")
#: host mode's buttons, and an evening's sign-up (``e:<evening>:<action>``, :mod:`bot.club.evening`)
TEMPLATE = r"h:[0-9]{1,12}:[0-9]{1,12}:[A-Za-z0-9-]+(?::[A-Za-z0-9-]+)?|e:[0-9]{1,12}:[gnr]"
_PATTERN = re.compile(TEMPLATE)
MAX_CONTENT = 2000


def is_ours(custom_id: str) -> bool:
    return _PATTERN.fullmatch(custom_id) is not None


def rows_view(rows: vw.Rows | None) -> discord.ui.View | None:
    """The shared layout's rows as a persistent view (at most 5 rows of 5 buttons)."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:5]):
        for btn in row[:5]:
            if btn.url:
                view.add_item(discord.ui.Button(label=btn.label[:80], url=btn.url, row=index))
            elif btn.data:
                view.add_item(HostButton(discord.ui.Button(
                    label=btn.label[:80], custom_id=btn.data, row=index,
                    style=discord.ButtonStyle.primary if btn.label.startswith("✓")
                    else discord.ButtonStyle.secondary)))
    return view


class HostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A host-mode button (``h:<table>:<step>:<action>[:<arg>]``, :mod:`bot.host.views`), or an
    evening's sign-up's (``e:…``): rebuilt by discord.py from any matching custom_id, after a
    restart too."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "HostButton":
        assert isinstance(item, discord.ui.Button)
        return cls(discord.ui.Button(label=item.label, custom_id=item.custom_id, style=item.style))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # type: ignore[override]
        referee = getattr(interaction.client, "referee", None)
        host = getattr(referee, "host", None)
        if host is not None and self.item.custom_id is not None:
            await referee.guarded(interaction, referee.on_press(interaction, self.item.custom_id))


def rights_of(perms: discord.Permissions) -> Rights:
    """What the bot may do in the channel: set member overwrites (Manage Permissions, shown by
    discord.py as ``manage_roles``), time members out, delete messages; see, post and attach."""
    admin = perms.administrator
    return Rights(mute=admin or perms.manage_roles, timeout=admin or perms.moderate_members,
                  delete=admin or perms.manage_messages,
                  basic=admin or all(getattr(perms, n) for n in HOST_RIGHTS),
                  voice=admin or perms.mute_members)


class DiscordHostPort(DiscordPortBase):
    """Host mode's port on Discord, over the judge mode's adapter (``referee``: its client,
    catalogs, clock, timer scale, DM channels and outbox)."""

    voice_tables = True  # /newgame voice:#table (bot.discord.voice)
    max_text = MAX_CONTENT

    @property
    def judge(self) -> str:
        """The judge of every hosted game: the bot's own user (mentionable, like a judge)."""
        user = self.referee.bot.user
        return user_key(user.id) if user is not None else user_key(0)

    async def private_cat(self, table_chat: str, user: str) -> Catalog:
        """A player's direct messages are in his server's language (the table's)."""
        if not table_chat:
            return discord_catalog(self.referee.settings.lang)
        return await self.referee.cat(table_chat)

    # --- messages ---------------------------------------------------------------------------------
    async def _target(self, chat: str, private: bool) -> discord.PartialMessageable | None:
        if private:
            return await self.referee._dm_channel(chat)
        return self.referee._messageable(id_of(chat))

    async def post(self, chat: str, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> int | None:
        channel = await self._target(chat, private)
        if channel is None:
            return None
        sent = await self.referee._send(channel, text[:MAX_CONTENT], view=rows_view(rows))
        return sent.id if sent is not None else None

    async def edit(self, chat: str, message_id: int, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> bool:
        channel = await self._target(chat, private)
        if channel is None:
            return False
        return await self.referee._edit(channel, message_id, text=text[:MAX_CONTENT],
                                        view=rows_view(rows))

    async def delete(self, handle: Any) -> None:
        try:
            await handle.delete()
        except discord.HTTPException as error:
            log.info("host: cannot delete %s: %s", getattr(handle, "id", "?"), error)

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None:
        if text:
            await self.referee.reply(handle, text)
        else:
            await self.referee._ack(handle)

    # --- the table --------------------------------------------------------------------------------
    async def rights(self, chat: str, handle: Any = None, *, chat_type: str = "") -> Rights | None:
        perms = getattr(handle, "app_permissions", None)
        return rights_of(perms) if perms is not None else None

    async def may_direct(self, chat: str, user: str, handle: Any = None) -> bool:
        perms = getattr(handle, "permissions", None)
        return bool(perms is not None and perms.manage_channels)

    def mute_mode(self, rights: Rights) -> MuteMode:
        return MuteMode.OVERWRITE

    async def _overwrite(self, chat: str, user: str, on: bool) -> bool:
        """Deny (or give back) Send Messages to one member in the table's channel."""
        http = self.referee.bot.http
        channel_id, member_id = id_of(chat), id_of(user)
        try:
            if on:
                await http.edit_channel_permissions(channel_id, member_id, "0", str(SEND_MESSAGES),
                                                    MEMBER_OVERWRITE, reason="mafia host: not his minute")
            else:
                await http.delete_channel_permissions(channel_id, member_id, reason="mafia host: his minute")
        except discord.NotFound:
            return not on
        except discord.HTTPException as error:
            log.info("host: cannot overwrite %s in %s: %s", user, chat, error)
            return False
        return True

    async def mute(self, table_chat: str, user: str, mode: MuteMode, on: bool, *,
                   table_id: int = 0) -> Mute:
        if mode is MuteMode.VOICE:
            return await self._voice_mute(table_chat, user, on, table_id)
        if mode is MuteMode.OVERWRITE:
            return Mute.DONE if await self._overwrite(table_chat, user, on) else Mute.NO_RIGHT
        cat = await self.cat(table_chat)
        reason = cat.text("dc-host-mute-reason", table=table_id)
        done = await self.referee._timeout(table_chat, id_of(user), SPEECH_TIMEOUT if on else None,
                                           reason)
        return Mute.DONE if done else Mute.LATER

    async def _voice_mute(self, table_chat: str, user: str, on: bool, table_id: int) -> Mute:
        """A server mute in the table's voice channel (:mod:`bot.discord.voice`)."""
        host = self.referee.host
        table = host.table(table_id) if host is not None else None
        voice = bound_voice(table.spec.options) if table is not None else None
        if table is None or voice is None or table.game_id is None:
            return Mute.LATER
        cat = await self.cat(table_chat)
        return await self.referee.voice.set(table.game_id, voice, id_of(user), on,
                                            cat.text("dc-host-mute-reason", table=table_id))

    async def remove(self, table_chat: str, user: str, on: bool, reason: str) -> bool | None:
        return await self.referee._timeout(table_chat, id_of(user),
                                           REMOVAL_TIMEOUT if on else None, reason)

    def countdown(self, deadline: float, cat: Catalog) -> str:
        return cat.text("dc-timer-ends", until=countdown(deadline))

    def where(self, table_chat: str, title: str) -> str:
        return mention_channel(table_chat)

    def seat_lines(self, seats: Mapping[int, str], state: Any, cat: Catalog) -> str:
        return "\n".join(f"{seat_label(s.number, cat)} {mention_user(seats[s.number])}"
                         if s.number in seats else seat_label(s.number, cat)
                         for s in state.seats)

    def lobby_notes(self, rights: Rights, mode_option: str, unreachable: bool, table_id: int,
                    cat: Catalog) -> tuple[list[str], vw.Rows]:
        lines: list[str] = []
        if unreachable:
            lines.append(cat.text("dc-host-dm-closed"))
        if not rights.basic:
            lines.append(cat.text("dc-missing-rights", rights=rights_text(list(HOST_RIGHTS), cat)))
        if mode_option == "voice":  # a voice table: Mute Members; who cannot be muted is fouled
            lines.append(cat.text("dc-voice-lobby", right="yes" if rights.voice else "no"))
        elif mode_option != "foul" and not rights.mute:
            mode = "timeout" if rights.timeout else "foul"
            lines.append(cat.text("dc-host-right-overwrite", mode=mode))
        if not rights.timeout:
            lines.append(cat.text("dc-host-right-timeout"))
        if not rights.delete:
            lines.append(cat.text("dc-host-right-delete"))
        return lines, []

    def unreachable(self, table_id: int, cat: Catalog) -> tuple[str, str | None]:
        return cat.text("dc-host-join-dm-closed"), None
