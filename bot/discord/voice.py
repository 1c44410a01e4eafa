"""Voice tables on Discord: the floor given by server-muting everyone but the speaker.

Most online sports mafia is played by voice. A game of either mode may be bound to a voice channel
(``/newgame voice:#table``, ``/new voice:#table``); the bot then server-mutes the seated members in
that channel who may not speak now and lifts it for the one who may — a member update with
``mute`` (Discord's Modify Guild Member; the bot needs **Mute Members**, no audio connection).
*Who* may speak is the table flow's (:func:`bot.host.steps.writers`: the speaker in his speech,
last word or tie speech, F24 §4.3.1, §4.4.12–4.4.13; nobody in a silenced minute, seed 4.4, in a
vote or at night); here is only how Discord does it:

* Discord keeps a server mute on the member, in every voice channel of the server, until it is
  lifted, and refuses to set or lift it while he is not connected to voice (400, code 40032).
  So every mute the bot sets is written down (the game's slot ``vmute:<member>`` under the voice
  channel's key, :data:`MUTED_SLOT`) and crossed out only once lifted: a member who left the
  channel muted is unmuted the moment he connects anywhere again, unless he is back at his live
  table — after the game's end, a ``/stop`` or a restart too (:meth:`VoiceTables.moved`,
  :meth:`VoiceTables.sweep`).
* A member the bot may not mute (the server's owner, a role above the bot's) comes back as
  :attr:`Mute.UNMUTABLE` when the bot has Mute Members; without the right, :attr:`Mute.NO_RIGHT`.
* A mute is set only on a member connected to the table's channel; one who joins it later gets
  the mute of the moment (the modes are told: :meth:`VoiceTables.moved`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from ..host.port import Mute
from .keys import chat_key, id_of

if TYPE_CHECKING:  # pragma: no cover
    from .app import DiscordReferee

log = logging.getLogger(__name__)

VOICE_SLOT = "voice"  # judge mode: in the game's home, the voice channel id the game is bound to
MUTED_SLOT = "vmute:"  # "vmute:<member id>" under the voice channel's key: muted by the bot
NOT_CONNECTED = 40032  # Discord's code: "Target user is not connected to voice."


def voice_option(text: str) -> tuple[str, int | None]:
    """``voice=<channel id>`` taken out of a typed command line: the rest, and the id.

    >>> voice_option("/new seed voice=42 timers.speech=45")
    ('/new seed timers.speech=45', 42)
    """
    rest: list[str] = []
    voice: int | None = None
    for word in text.split():
        key, sep, value = word.partition("=")
        if sep and key.lower() == "voice" and value.isdigit():
            voice = int(value)
        else:
            rest.append(word)
    return " ".join(rest), voice


class VoiceTables:
    """The server mutes the bot has set, over the adapter ``referee`` (its client and store)."""

    def __init__(self, referee: "DiscordReferee") -> None:
        self.referee = referee
        self._muted: dict[int, tuple[int, int]] = {}  # member id -> (game id, voice channel id)

    async def load(self) -> None:
        """At start-up: every mute written down and not yet lifted (any game, over or not)."""
        self._muted.clear()
        for game_id, slots in (await self.referee.service.slots_named(MUTED_SLOT)).items():
            for (chat, _slot), member in slots.items():
                self._muted[member] = (game_id, id_of(chat))

    def muted_by(self, game_id: int) -> set[int]:
        """The members the bot has muted for game ``game_id`` and not yet let speak."""
        return {m for m, (g, _) in self._muted.items() if g == game_id}

    # --- the cache of who is where ---------------------------------------------------------------
    def _guilds(self) -> list[discord.Guild]:
        client = self.referee.client
        return list(client.guilds) if client is not None else []

    def channel(self, voice_id: int) -> discord.VoiceChannel | discord.StageChannel | None:
        for guild in self._guilds():
            found = guild.get_channel(voice_id)
            if isinstance(found, (discord.VoiceChannel, discord.StageChannel)):
                return found
        return None

    def where(self, member_id: int) -> tuple[discord.Guild, int] | None:
        """The server and voice channel ``member_id`` is connected to, if any."""
        for guild in self._guilds():
            for channel in (*guild.voice_channels, *guild.stage_channels):
                if member_id in channel.voice_states:
                    return guild, channel.id
        return None

    def present(self, voice_id: int) -> dict[int, bool]:
        """Who is connected to the voice channel now, and whether he is server-muted."""
        channel = self.channel(voice_id)
        if channel is None:
            return {}
        return {uid: state.mute for uid, state in channel.voice_states.items()}

    def may_mute(self, voice_id: int) -> bool:
        """Has the bot Mute Members in the voice channel (by the server's roles and overwrites)?"""
        channel = self.channel(voice_id)
        if channel is None:
            return False
        perms = channel.permissions_for(channel.guild.me)
        return perms.administrator or perms.mute_members

    # --- setting and lifting -----------------------------------------------------------------------
    async def set(self, game_id: int, voice_id: int, member_id: int, on: bool, reason: str) -> Mute:
        """Mute ``member_id`` for game ``game_id`` in voice channel ``voice_id`` (``on``), or let
        him speak. A mute is set only on a member connected to that channel (else
        :attr:`Mute.LATER`: he gets it when he joins); a lift of a member who is away is
        :attr:`Mute.DONE` for the table and stays written down until he connects again."""
        found = self.where(member_id)
        if on and (found is None or found[1] != voice_id):
            return Mute.LATER
        if not on and member_id not in self._muted:
            return Mute.DONE  # never muted by the bot: nothing to lift
        if not on and found is None:
            return Mute.DONE  # lifted when he connects again (:meth:`moved`)
        assert found is not None
        done = await self._edit(found[0], member_id, on, reason, voice_id)
        if done is Mute.DONE:
            await self._note(game_id, voice_id, member_id, on)
        return done

    async def _edit(self, guild: discord.Guild, member_id: int, on: bool, reason: str,
                    voice_id: int) -> Mute:
        try:
            await self.referee.bot.http.edit_member(guild.id, member_id, mute=on, reason=reason)
        except discord.Forbidden:  # no right, or the owner / a role above the bot's
            return Mute.UNMUTABLE if self.may_mute(voice_id) else Mute.NO_RIGHT
        except discord.HTTPException as error:
            if error.code == NOT_CONNECTED:  # gone meanwhile: he gets it when he is back
                return Mute.LATER
            log.info("voice: cannot %s %s: %s", "mute" if on else "unmute", member_id, error)
            return Mute.LATER
        return Mute.DONE

    async def _note(self, game_id: int, voice_id: int, member_id: int, on: bool) -> None:
        service = self.referee.service
        if on:
            old = self._muted.get(member_id)
            if old is not None and old != (game_id, voice_id):  # muted before for another game
                await service.set_message(old[0], chat_key(old[1]), f"{MUTED_SLOT}{member_id}", None)
            self._muted[member_id] = (game_id, voice_id)
            await service.set_message(game_id, chat_key(voice_id), f"{MUTED_SLOT}{member_id}", member_id)
        else:
            old = self._muted.pop(member_id, None)
            if old is not None:
                await service.set_message(old[0], chat_key(old[1]), f"{MUTED_SLOT}{member_id}", None)

    async def _live(self, game_id: int) -> bool:
        row = await self.referee.service.game_row(game_id)
        return row is not None and not row.finished

    async def lift_stale(self, member_id: int, now_in: int | None, muted: bool) -> bool:
        """A mute written down for ``member_id`` whose game is over, or whose table's channel he
        is no longer in, is lifted if he is connected (``now_in``: his voice channel). Returns
        whether he is server-muted afterwards (``muted``: as Discord said)."""
        owed = self._muted.get(member_id)
        if owed is None or now_in is None:
            return muted
        game_id, voice_id = owed
        if now_in == voice_id and await self._live(game_id):
            return muted  # back at his live table: its flow decides
        found = self.where(member_id)
        if found is None:
            return muted
        done = await self._edit(found[0], member_id, False, "mafia: the table is over", voice_id)
        if done is Mute.DONE:
            await self._note(game_id, voice_id, member_id, False)
            return False
        return muted

    async def moved(self, member: discord.Member, before: discord.VoiceState,
                    after: discord.VoiceState) -> None:
        """VOICE_STATE_UPDATE: a member connects, moves or leaves (a self-mute, a self-deafen or
        a server mute changes no channel: nothing to follow). A mute left from a game over or a
        table he left is lifted; the table bound to the channel he joins gives him the mute of
        the moment (host mode: :meth:`bot.host.controller.HostController.voice_joined`; judge
        mode: the game's floor synced again); a seated player who leaves it is given his grace
        (host mode), or the judge is told (judge mode)."""
        old = before.channel.id if before.channel is not None else None
        new = after.channel.id if after.channel is not None else None
        if old == new:
            return
        muted = await self.lift_stale(member.id, new, after.mute)
        if old is not None:
            await self.referee.voice_left(old, member.id)
        if new is not None:
            await self.referee.voice_joined(new, member.id, muted)

    async def sweep(self) -> None:
        """Once the server's voice states are known (at start-up, after a restart): every mute
        written down whose game is over, or whose member is elsewhere, is lifted where he is
        connected; the live tables give everyone in their channel the mute of the moment."""
        for member_id in list(self._muted):
            found = self.where(member_id)
            if found is not None:
                await self.lift_stale(member_id, found[1], True)
        await self.referee.voice_refresh()


def bound_voice(options: Any) -> int | None:
    """The voice channel id a host table's options name (``voice=<id>``), if any."""
    raw = str(getattr(options, "voice", "") or "")
    return int(raw) if raw.isdigit() else None
