"""Host mode's Discord handlers: slash commands, presses and messages handed to the one table flow
(:class:`bot.host.controller.HostController`), and ``/channel``, Discord's own."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import discord

from ...club.evening import EveningDesk
from ...host import steps as st
from ...commands import NewTable, Place
from ...front import Call, Entry
from ...host.controller import Defaults, HostController
from ...judge.port import Reply
from ...lru import Recent
from ...host.port import Player
from ...host.table import Table
from ...outbox import post
from ..keys import chat_key, is_discord, mention_channel, user_key
from ..rights import rights_text
from ..voice import bound_voice
from .port import DiscordHostPort

if TYPE_CHECKING:  # pragma: no cover
    from ..app import DiscordReferee

log = logging.getLogger(__name__)


def player(user: Any) -> Player:
    return Player(user_key(user.id), st.seat_name(getattr(user, "display_name", None),
                                                  fallback=str(user.id)))


class DiscordHost:
    """Host mode on Discord over the judge mode's :class:`~bot.discord.app.DiscordReferee` (its
    service, catalogs, clock, timer scale, sending helpers, outbox and chat locks)."""

    def __init__(self, referee: "DiscordReferee") -> None:
        self.referee = referee
        self.port = DiscordHostPort(referee)
        settings = referee.settings
        self.controller = HostController(
            lambda: referee.service, self.port, referee.locks,
            Defaults(vote_window=settings.host_vote_window,
                     shooting=settings.host_shooting,
                     silenced=settings.host_silenced, seed=settings.host_seed))
        self._edits: Recent[tuple[int, float], bool] = Recent(1024)  # the edits judged
        #: the clubs' evening sign-up (issue 33): posted, edited and reminded through this port
        self.evenings = EveningDesk(lambda: referee.service, self.port, zone=settings.timezone)

    def table(self, table_id: int) -> Table | None:
        return self.controller.table(table_id)

    async def resume(self, owns: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """After a restart, before the gateway connects (no press can come first): every open
        table of Discord's is loaded and resumed (``owns``: those of the channels it accepts,
        :meth:`bot.host.controller.HostController.load_open`); and every open evening's
        sign-up of those channels its next reminder (stored deadlines)."""
        await self.controller.load_open(owns)
        await self.controller.resume_all()
        await self.evenings.resume_all("dc:", owns)

    # --- slash commands: the front door's host part (bot.front) ----------------------------------
    def held(self, home: str) -> Any:
        return self.controller.held(home)

    def state(self, current: Any, place: Place) -> Any:
        return self.controller.state(current, place)

    async def run(self, call: Call) -> list[Reply]:
        """A command routed to host mode in ``home``: the controller's answers, and when it has
        none (the lobby opened, a step closed) a line that says it was done — a slash command
        is always answered."""
        replies = await self.controller.run(call)
        if replies:
            return replies
        opened = isinstance(call.command, NewTable)
        return [Reply(call.cat.text("dc-host-opened" if opened else "dc-done-host"))]

    async def set_channel(self, home: str, target: str | None) -> list[str]:
        """``/channel channel:#club`` (Manage Channels: the router has checked; under the
        channel's lock, which the router holds): the club channel that gets the start and the
        result of every table here, with the protocol; ``off`` unlinks it."""
        cat = await self.referee.cat(home)
        service = self.referee.service
        if target is None:
            linked = await service.club_channel(home)
            return [cat.text("dc-host-channel-usage") if linked is None
                    else cat.text("dc-host-channel-is", channel=mention_channel(linked[0]))]
        if target == "off":
            await service.set_club_channel(home, None)
            return [cat.text("host-channel-unlinked")]
        club = chat_key(int(target))
        if club == home:
            await service.set_club_channel(home, None)
            return [cat.text("dc-link-self")]
        sent = await self.port.post(club, cat.text("dc-host-club-linked", channel=mention_channel(home)))
        if sent is None:
            return [cat.text("dc-link-cannot-post", channel=mention_channel(club),
                             rights=rights_text(["view_channel", "send_messages", "attach_files"], cat))]
        await service.set_club_channel(home, club, mention_channel(club))
        return [cat.text("dc-linked", channel=mention_channel(club))]

    # --- voice tables --------------------------------------------------------------------------------
    def voice_chats(self, voice_id: int) -> list[str]:
        """The channels whose running table is bound to voice channel ``voice_id``."""
        return sorted({t.chat for t in self.controller.tables()
                       if t.status == "running" and bound_voice(t.spec.options) == voice_id})

    def voice_channels(self) -> set[int]:
        """The voice channels of the running voice tables."""
        return {v for t in self.controller.tables() if t.status == "running"
                and (v := bound_voice(t.spec.options)) is not None}

    async def voice_joined(self, voice_id: int, member_id: int, muted: bool) -> None:
        """A member is in voice channel ``voice_id`` (``muted``: server-muted now): a running
        table bound to it gives him the mute of the moment."""
        for chat in self.voice_chats(voice_id):
            await self.controller.voice_joined(chat, user_key(member_id), muted)

    async def voice_left(self, voice_id: int, member_id: int) -> None:
        """A member leaves voice channel ``voice_id``: a seated player's grace runs."""
        for chat in self.voice_chats(voice_id):
            await self.controller.voice_left(chat, user_key(member_id))

    # --- messages ----------------------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        """A member writes (never a command on Discord: those are slash commands), handed to the
        router as a line (:meth:`bot.front.Front.line`): in direct messages during night 0 a
        black's words go to the other blacks (F24 §4.2); in a hosted channel a seated player
        out of his minute is fouled (seed 4.1.1) and his message deleted where allowed."""
        await self._line(message, message.created_at.timestamp())

    async def on_edit(self, message: discord.Message) -> None:
        """A member edited a message (issue 36): in a hosted channel it is judged as a message
        written at the time of the edit (Discord's ``edited_timestamp``). An update without a
        new edit time (a link's preview filled in) or one seen before is no edit."""
        edited = message.edited_at
        if edited is None or message.guild is None:
            return
        seen = (message.id, edited.timestamp())
        if seen in self._edits:
            return
        self._edits[seen] = True
        await self._line(message, edited.timestamp(), edit=True)

    async def _line(self, message: discord.Message, stamp: float, *, edit: bool = False) -> None:
        author = message.author
        if author.bot:
            return
        who = user_key(author.id)
        chat = who if message.guild is None else chat_key(message.channel.id)
        if message.guild is not None and not is_discord(chat):
            return
        entry = Entry("dc", Place.DM if message.guild is None else Place.CHANNEL, chat, who,
                      message.content or "", handle=message, stamp=stamp, edit=edit)
        replies = await self.referee.front.line(entry) or []
        if replies:  # his words go nowhere: told in his direct messages, through the outbox
            await self.referee.service.enqueue([post(who, r.text, private=True) for r in replies])
            await self.port.outbox.flush(who)


__all__ = ["DiscordHost"]
