"""The Discord adapter of judge mode: a ``discord.Client`` over :class:`bot.service.Service`.

The judge creates a game with ``/new`` in a server's text channel: that channel is the game's
*home* (service chat ``"dc:<channel_id>"``, judge ``"dc:<user_id>"``) and gets its public
announcements. Then:

* every notice of an action goes to the judge's direct messages as ONE message (private ones
  included); the public ones go to the channel as one message; private notices never reach a
  channel (:mod:`bot.judge.routing`, shared): roles, shots, check answers, best-move hits;
* the panel (:mod:`bot.judge.panel`, shared; :mod:`.layout`) is one message in the judge's
  direct messages, edited in place; when a notice was posted below it, it is posted afresh at the
  bottom and the old one deleted; its id is stored with the game, so a restart edits the same one;
* a button's custom_id carries ``game:revision:action``: a press by anyone but the game's judge is
  refused ephemerally, a press from an older revision is answered "outdated" (ephemerally) and the
  panel is refreshed; neither changes anything;
* slash commands (:mod:`.slash`) do what the typed commands do on Telegram and in the console; each
  is acknowledged at once (an ephemeral "thinking…") and answered ephemerally;
* the speech timer (:class:`bot.judge.timer.Timer`, shared) is a deadline stored with the game,
  shown under the channel's announcement and on the panel with Discord's live countdown, edited at
  10 s left and at the end by an asyncio task; it never moves the game on;
* ``/seat 5 @member`` maps a seat to a member: when the rules remove that seat (the 4th foul, seed
  4.5; a disqualification, seed 4.2) the member is timed out until the game ends (the bot needs
  Moderate Members; the judge is told when it cannot), and the timeout is lifted by an undo or the
  end of the game;
* ``/link #channel`` names a club channel that gets each finished game's result with the protocol
  (the score-sheet PNG and our JSON, :mod:`bot.protocol`); the game's channel gets them too;
* ``/takeover``: a member with Manage Channels becomes the judge (the old judge is told, his panel
  stops working);
* the language is per server (``/lang``; stored under ``"dc:guild:<id>"``).

One :class:`asyncio.Lock` per game channel orders everything a game sends (commands, presses and
timer edits). No rule lives here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import logging
import time
from typing import Any, Callable, Sequence

import aiohttp
import discord
from discord import app_commands

import rules
from rules import Cause, Phase
from storage import Store

from .. import commands as cmds
from ..commands import Act, CommandError, NewGame, Quit, SetLang, Show, UndoCmd
from ..i18n import DEFAULT_LANG, LANGS, Catalog, catalog
from ..judge import panel as pn
from ..judge.callbacks import Press, decode
from ..judge.routing import judge_text, public_text, turn_key, undo_texts
from ..judge.timer import PAUSED, WARNED, Timer, pause_or_resume
from ..locks import ChatLocks
from ..logs import NOISY, LogFormat
from ..logs import configure_logging as shared_configure_logging
from ..protocol import ExportError, render_sheet, to_json
from ..protocol import error_text as protocol_error_text
from ..outbox import Outbox
from ..render import chunks, error_text, notice_text, result_text, status_text
from ..service import Outcome, Service, ServiceError
from ..settings import Settings
from . import layout, slash
from .countdown import channel_text, timer_line
from .endpoint import reroute, routed_context
from .outbox import DiscordTransport
from .host import DiscordHost, HostButton
from .host import commands as host_commands
from .host import is_ours as is_host_button
from .keys import PREFIX, chat_key, guild_key, id_of, is_discord, mention_channel, mention_user, user_key
from .rights import TIMEOUT_RIGHT, missing, rights_text

log = logging.getLogger(__name__)

PANEL = "panel"  # the message slot of the judge's panel (chat: the judge's key)
SEAT_SLOT = "seat:"  # "seat:<n>" in the game's channel: the member id mapped to seat n
MUTED_SLOT = "muted:"  # "muted:<n>": the member id the bot has timed out for seat n
MAX_CONTENT = 2000  # characters of a message's text
REMOVAL_TIMEOUT = dt.timedelta(hours=6)  # longer than any game; lifted at its end
REMOVED_CAUSES = (Cause.FOULS, Cause.DISQUALIFICATION)  # seed 4.5, 4.2: out of the game, alive
MAX_EPHEMERAL_PARTS = 3

_Refusal = (CommandError, ServiceError, rules.RuleError)


def _command_name(text: str) -> str:
    head = text.strip().split(None, 1)[0] if text.strip() else ""
    return head.lstrip("/").lower()


class RefereeClient(discord.Client):
    """The bot: a client with the slash-command tree; the adapter is :attr:`referee`."""

    def __init__(self, referee: "DiscordReferee", *, base_url: str | None = None) -> None:
        super().__init__(intents=discord.Intents(guilds=True, guild_messages=True, dm_messages=True),
                         allowed_mentions=discord.AllowedMentions.none())
        self.referee = referee
        self.base_url = base_url  # another server than Discord (:mod:`.endpoint`)
        if base_url is not None:
            reroute(self, base_url)  # before the tree, which keeps the HTTP client
        self.tree: app_commands.CommandTree[RefereeClient] = app_commands.CommandTree(self)
        self.tree.error(self._command_error)
        slash.install(self.tree)
        host_commands.install(self.tree)

    async def _command_error(self, interaction: discord.Interaction[Any],
                             error: app_commands.AppCommandError) -> None:
        """What discord.py refused before the adapter saw the command (a DM, an option it could
        not resolve), or what escaped it: an ephemeral answer, never silence."""
        cat = await self.referee.guild_cat(interaction.guild_id)
        if isinstance(error, app_commands.NoPrivateMessage):
            await self.referee.reply(interaction, cat.text("dc-guild-only"))
            return
        log.error("command %s failed", getattr(interaction.command, "name", "?"), exc_info=error)
        await self.referee.reply(interaction, cat.text("error-internal"))

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        with routed_context(self.base_url):  # the interaction answers too, this client's only
            await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        await self.referee.setup(self)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press of one of our buttons that is no longer on its message (a double tap that
        arrived after the panel changed): :class:`.layout.PanelButton` never sees it, so it is
        answered here ("outdated") instead of failing silently."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        host = is_host_button(custom_id)
        if not layout.is_ours(custom_id) and not host:
            return
        message = interaction.message
        if message is not None and custom_id in layout.custom_ids_of(message):
            return  # PanelButton / HostButton handles it
        if host:
            if self.referee.host is not None:
                await self.referee.host.on_press(interaction, custom_id)
            return
        await self.referee.on_press(interaction, custom_id)

    async def on_message(self, message: discord.Message) -> None:
        """Host mode: night 0's relay in direct messages, speech out of turn in a table's channel."""
        if self.referee.host is not None:
            try:
                await self.referee.host.on_message(message)
            except Exception:
                log.exception("host: a message failed")

    async def close(self) -> None:
        await self.referee.shutdown()
        await super().close()


class DiscordReferee:
    """The adapter over one :class:`Service`. With ``service=None`` the store at
    ``settings.db`` is opened in :meth:`setup` and closed in :meth:`shutdown`.

    ``sync``: publish the slash commands when the client starts (globally; also copied to
    ``sync_guild`` when given, where they appear at once). ``timer_scale``: real seconds per timer
    second (tests run it fast). ``protocol``: post the score sheet at the end of a game."""

    def __init__(self, settings: Settings, service: Service | None = None, *,
                 clock: Callable[[], float] = time.time, timer_scale: float = 1.0,
                 sync: bool = True, sync_guild: int | None = None, protocol: bool = True) -> None:
        self.settings = settings
        self._service = service
        self._own_store: Store | None = None
        self.clock = clock
        self.timer_scale = timer_scale
        self.sync = sync
        self.sync_guild = sync_guild
        self.protocol = protocol
        self.client: RefereeClient | None = None
        self.locks = ChatLocks()  # one lock per channel, shared with host mode
        #: the persistent outbox's sender: what host mode announces (bot.outbox)
        self.outbox = Outbox(lambda: self.service.store,
                             DiscordTransport(lambda: self.service.store, lambda: self,
                                              protocol=protocol))
        self._langs: dict[str, str] = {}  # guild key -> language
        self._guilds: dict[str, int] = {}  # game channel -> its server
        self._dms: dict[int, int] = {}  # user id -> his DM channel id
        self._dm_latest: dict[str, int] = {}  # judge -> the newest message id the bot sent him
        self._views: dict[int, Press] = {}  # game id -> the panel's view (reset by any change)
        self._timers: dict[int, asyncio.Task[None]] = {}  # game id -> its next timer edit
        self._confirm_new: dict[str, str] = {}  # channel -> the judge whose /new awaits a second
        self.host: DiscordHost | None = None  # host mode (bot.discord.host), set up in setup

    # --- life cycle -----------------------------------------------------------------------------
    @property
    def service(self) -> Service:
        if self._service is None:
            raise RuntimeError("the service is not open yet (setup has not run)")
        return self._service

    @property
    def bot(self) -> RefereeClient:
        if self.client is None:
            raise RuntimeError("no client")
        return self.client

    async def setup(self, client: RefereeClient) -> None:
        """After login, before the gateway: the store, the panel's buttons, timers, commands."""
        self.client = client
        if self._service is None:
            self._own_store = await Store.open(self.settings.db)
            self._service = Service(self._own_store)
        client.add_dynamic_items(layout.PanelButton, HostButton)
        await client.tree.set_translator(slash.CatalogTranslator())
        await self._rearm()
        self.host = DiscordHost(self)
        await self.host.resume()
        await self.outbox.drain_all()
        if self.sync:
            try:
                if self.sync_guild is not None:
                    guild = discord.Object(self.sync_guild)
                    client.tree.copy_global_to(guild=guild)
                    await client.tree.sync(guild=guild)
                await client.tree.sync()
            except discord.HTTPException as error:
                log.warning("could not publish the slash commands: %s", error)

    async def shutdown(self) -> None:
        if self.host is not None:
            await self.host.shutdown()
        await self.outbox.close()
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()
        if self._own_store is not None:
            await self._own_store.close()
            self._own_store = None
            self._service = None

    # --- small helpers --------------------------------------------------------------------------
    def _lock(self, home: str) -> asyncio.Lock:
        return self.locks.lock(home)

    async def _guild_of(self, home: str) -> int | None:
        """The server of a game's channel: remembered from its commands, else the client's
        cache, else fetched."""
        known = self._guilds.get(home)
        if known is not None:
            return known
        channel_id = id_of(home)
        channel: Any = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as error:
                log.info("cannot fetch channel %s: %s", channel_id, error)
                return None
        guild = getattr(channel, "guild", None)
        if guild is None:
            return None
        self._guilds[home] = guild.id
        return int(guild.id)

    async def guild_cat(self, guild_id: int | None) -> Catalog:
        """The server's catalog (``/lang``), else the configured language."""
        if guild_id is None:
            return catalog(self.settings.lang)
        key = guild_key(guild_id)
        lang = self._langs.get(key)
        if lang is None:
            lang = await self.service.store.lang(key) or self.settings.lang
            self._langs[key] = lang
        return catalog(lang if lang in LANGS else DEFAULT_LANG)

    async def cat(self, home: str) -> Catalog:
        return await self.guild_cat(await self._guild_of(home))

    def _messageable(self, channel_id: int, *, private: bool = False) -> discord.PartialMessageable:
        kind = discord.ChannelType.private if private else discord.ChannelType.text
        return self.bot.get_partial_messageable(channel_id, type=kind)

    async def _dm_channel(self, user: str) -> discord.PartialMessageable | None:
        uid = id_of(user)
        channel_id = self._dms.get(uid)
        if channel_id is None:
            try:
                channel = await self.bot.create_dm(discord.Object(uid))
            except discord.HTTPException as error:
                log.warning("cannot open a DM with %s: %s", user, error)
                return None
            channel_id = self._dms[uid] = channel.id
        return self._messageable(channel_id, private=True)

    async def _send(self, target: discord.abc.Messageable, text: str | None = None, *,
                    embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                    files: Sequence[discord.File] = ()) -> discord.Message | None:
        """Send; a channel the bot may not write to is logged and skipped (the game goes on)."""
        kwargs: dict[str, Any] = {}
        if embed is not None:
            kwargs["embed"] = embed
        if view is not None:
            kwargs["view"] = view
        if files:
            kwargs["files"] = list(files)
        try:
            return await target.send(text, **kwargs)
        except discord.HTTPException as error:
            log.warning("cannot send to %s: %s", getattr(target, "id", target), error)
            return None

    async def _post(self, chat: str, text: str, files: Sequence[discord.File] = ()) -> discord.Message | None:
        """Post in a server channel, split at line ends into Discord's 2000 characters (files
        ride on the last part)."""
        parts = chunks(text, MAX_CONTENT) or [""]
        sent: discord.Message | None = None
        channel = self._messageable(id_of(chat))
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            sent = await self._send(channel, part or None, files=files if last else ())
        return sent

    async def _dm(self, user: str, text: str) -> bool:
        """A private message to a judge, split like :meth:`_post`; ``False`` if he cannot get it
        (direct messages closed)."""
        channel = await self._dm_channel(user)
        if channel is None:
            return False
        for part in chunks(text, MAX_CONTENT):
            sent = await self._send(channel, part)
            if sent is None:
                return False
            self._dm_latest[user] = max(self._dm_latest.get(user, 0), sent.id)
        return True

    async def _edit(self, channel: discord.PartialMessageable, message_id: int, *,
                    text: str | None = None, embed: discord.Embed | None = None,
                    view: discord.ui.View | None = None, keep_view: bool = False) -> bool:
        kwargs: dict[str, Any] = {}
        if text is not None:
            kwargs["content"] = text
        if embed is not None:
            kwargs["embed"] = embed
        if not keep_view:
            kwargs["view"] = view
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as error:
            log.info("cannot edit %s/%s: %s", channel.id, message_id, error)
            return False
        return True

    async def _delete(self, channel: discord.PartialMessageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as error:  # gone already, or too old: strip its buttons
            log.info("cannot delete %s/%s: %s", channel.id, message_id, error)
            await self._edit(channel, message_id, view=None)

    @staticmethod
    async def reply(interaction: discord.Interaction[Any], text: str) -> None:
        """An ephemeral answer: the interaction's response, else a follow-up."""
        parts = chunks(text, MAX_CONTENT)[:MAX_EPHEMERAL_PARTS] or ["…"]
        try:
            for part in parts:
                if interaction.response.is_done():
                    await interaction.followup.send(part, ephemeral=True)
                else:
                    await interaction.response.send_message(part, ephemeral=True)
        except discord.HTTPException as error:
            log.info("cannot answer interaction %s: %s", interaction.id, error)

    @staticmethod
    async def _ack(interaction: discord.Interaction[Any]) -> None:
        """Acknowledge a press with no visible answer (the panel changes instead)."""
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer()
        except discord.HTTPException as error:
            log.info("cannot defer interaction %s: %s", interaction.id, error)

    async def _club(self, game_id: int, home: str) -> str | None:
        """The game's linked club channel (its announce chat), if it is not the home."""
        club = await self.service.announce(game_id)
        return club if club is not None and club != home and is_discord(club) else None

    # --- the panel ------------------------------------------------------------------------------
    async def _timer_view(self, game_id: int, state: rules.GameState, cat: Catalog) -> pn.TimerView | None:
        data = await self.service.timer(game_id)
        if data is None:
            return None
        timer = Timer.from_dict(data)
        if timer.key != turn_key(state):
            return None
        control = True if timer.live else (False if timer.stage == PAUSED else None)
        return pn.TimerView(timer_line(timer, cat, self.clock()), control)

    async def _render(self, home: str, outcome: Outcome) -> tuple[discord.Embed, discord.ui.View | None]:
        cat = await self.cat(home)
        view = self._views.get(outcome.game_id)
        if view is not None and view.revision != outcome.revision:
            view = None
        timer = await self._timer_view(outcome.game_id, outcome.state, cat)
        notes = [cat.text("dc-panel-channel", channel=mention_channel(home))]
        if outcome.state.phase is Phase.SETUP:
            club = await self._club(outcome.game_id, home)
            notes.append(cat.text("dc-panel-setup", club=mention_channel(club) if club else "none"))
        panel = pn.render_panel(outcome.state, outcome.game_id, outcome.revision, cat, view,
                                timer=timer, notes=notes)
        embed = layout.panel_embed(panel, cat.text("dc-panel-title", game=outcome.game_id))
        return embed, layout.panel_view(panel) if panel.rows else None

    async def _show_panel(self, home: str, outcome: Outcome, *, fresh: bool = False,
                          repost: bool = True,
                          interaction: discord.Interaction[Any] | None = None) -> bool:
        """The judge's panel: the pressed message edited by the press's own response, else the
        stored one edited, else (``fresh``; or a notice was posted below it; or it is gone) sent
        afresh, the old one deleted. ``repost=False``: edit only. ``False`` when the judge cannot
        get direct messages."""
        judge = outcome.judge
        embed, view = await self._render(home, outcome)
        stored = await self.service.message(outcome.game_id, judge, PANEL)
        if (interaction is not None and not fresh and stored is not None
                and not interaction.response.is_done() and interaction.message is not None
                and interaction.message.id == stored):
            try:
                await interaction.response.edit_message(embed=embed, view=view)
                return True
            except discord.HTTPException as error:
                log.info("cannot update the pressed panel: %s", error)
        channel = await self._dm_channel(judge)
        if channel is None:
            return False
        if stored is not None and not fresh:
            below = self._dm_latest.get(judge, stored) > stored
            if not below or not repost:
                if await self._edit(channel, stored, embed=embed, view=view) or not repost:
                    return True
        if not repost:
            return True
        if stored is not None:
            await self._delete(channel, stored)
        sent = await self._send(channel, embed=embed, view=view)
        if sent is None:
            await self.service.set_message(outcome.game_id, judge, PANEL, None)
            return False
        self._dm_latest[judge] = max(self._dm_latest.get(judge, 0), sent.id)
        await self.service.set_message(outcome.game_id, judge, PANEL, sent.id)
        return True

    async def _retire_panel(self, game_id: int, judge: str, text: str | None = None) -> None:
        """A judge's panel of this game stops: its buttons go (and it says ``text``)."""
        stored = await self.service.message(game_id, judge, PANEL)
        if stored is None:
            return
        channel = await self._dm_channel(judge)
        if channel is not None:
            embed = discord.Embed(description=text, colour=layout.PANEL_COLOUR) if text else None
            await self._edit(channel, stored, embed=embed, view=None)
        await self.service.set_message(game_id, judge, PANEL, None)

    # --- after an action ------------------------------------------------------------------------
    async def _after_action(self, home: str, before: rules.GameState, outcome: Outcome, *,
                            undone: Sequence[rules.Event] | None = None) -> bool:
        """Post what happened (judge: everything, by DM; channel: public), move the timer along,
        time out or release removed members, publish the protocol at the end, refresh the panel.
        Runs under the channel's lock, after the service has committed. ``False`` when the judge
        could not be written to."""
        game_id, state = outcome.game_id, outcome.state
        cat = await self.cat(home)
        if undone is not None:
            judge, public = undo_texts(state, undone, cat, cat)
            public_msg: str | None = public
        else:
            judge = judge_text(outcome.notices, cat) or ""
            public_msg = public_text(outcome.notices, state, cat)
        reached = await self._dm(outcome.judge, judge) if judge else True
        timer = await self._turn_over(game_id, before, state)
        if public_msg:
            now = self.clock()
            text = public_msg if timer is None else f"{public_msg}\n\n{timer_line(timer, cat, now)}"
            sent = await self._post(home, text)
            if sent is not None and timer is not None:
                timer.group_chat, timer.group_message, timer.group_base = home, sent.id, public_msg
        if timer is not None:
            await self.service.set_timer(game_id, timer.to_dict())
            self._arm(game_id, timer)
        ended = before.phase is not Phase.GAME_OVER and state.phase is Phase.GAME_OVER
        reopened = before.phase is Phase.GAME_OVER and state.phase is not Phase.GAME_OVER
        club = await self._club(game_id, home)
        if club is not None and reopened and public_msg:
            await self._post(club, public_msg)
        await self._sync_timeouts(home, outcome)
        if ended:
            await self._publish(home, outcome, club)
        self._views.pop(game_id, None)
        shown = await self._show_panel(home, outcome)
        return reached and shown

    # --- removals: member timeouts ----------------------------------------------------------------
    async def _slots(self, game_id: int, home: str, prefix: str) -> dict[int, int]:
        """Seat → member id of the game's ``seat:``/``muted:`` slots."""
        out: dict[int, int] = {}
        for (chat, slot), value in (await self.service.messages(game_id)).items():
            if chat == home and slot.startswith(prefix) and slot[len(prefix):].isdigit():
                out[int(slot[len(prefix):])] = value
        return out

    async def _member(self, home: str, member_id: int) -> discord.Member | None:
        guild_id = await self._guild_of(home)
        if guild_id is None:
            return None
        guild = self.bot.get_guild(guild_id)
        try:
            if guild is None:
                guild = await self.bot.fetch_guild(guild_id, with_counts=False)
            return guild.get_member(member_id) or await guild.fetch_member(member_id)
        except discord.HTTPException as error:
            log.info("cannot fetch member %s: %s", member_id, error)
            return None

    async def _timeout(self, home: str, member_id: int, until: dt.timedelta | None, reason: str) -> bool:
        member = await self._member(home, member_id)
        if member is None:
            return False
        try:
            await member.timeout(until, reason=reason)
        except discord.HTTPException as error:  # Forbidden: no right, or his role is above ours
            log.info("cannot time out %s: %s", member_id, error)
            return False
        return True

    async def _sync_timeouts(self, home: str, outcome: Outcome) -> None:
        """The members of seats the rules have removed (seed 4.5: the 4th foul; seed 4.2: a
        disqualification) are timed out until the game ends; an undo or the end releases them."""
        state = outcome.state
        removed: set[int] = set()
        if state.phase is not Phase.GAME_OVER:
            removed = {n for n, d in state.departures() if d.cause in REMOVED_CAUSES}
        await self._apply_timeouts(home, outcome.game_id, outcome.judge, removed)

    async def _apply_timeouts(self, home: str, game_id: int, judge: str, removed: set[int]) -> None:
        """Time out the mapped members of ``removed`` seats not timed out yet, release the others;
        the judge is told which seats could not be timed out and which right is missing."""
        seats = await self._slots(game_id, home, SEAT_SLOT)
        muted = await self._slots(game_id, home, MUTED_SLOT)
        cat = await self.cat(home)
        failed: list[int] = []
        for seat in sorted(removed - muted.keys()):
            member = seats.get(seat)
            if member is None:
                continue
            reason = cat.text("dc-timeout-reason", game=game_id, seat=seat)
            if await self._timeout(home, member, REMOVAL_TIMEOUT, reason):
                await self.service.set_message(game_id, home, f"{MUTED_SLOT}{seat}", member)
            else:
                failed.append(seat)
        for seat in sorted(muted.keys() - removed):
            await self._release(home, game_id, seat, muted[seat], cat)
        if failed:
            await self._dm(judge, cat.text("dc-timeout-failed", seats=", ".join(map(str, failed)),
                                           rights=rights_text([TIMEOUT_RIGHT], cat)))

    async def _release(self, home: str, game_id: int, seat: int, member: int, cat: Catalog) -> None:
        reason = cat.text("dc-timeout-lifted", game=game_id, seat=seat)
        if not await self._timeout(home, member, None, reason):
            log.warning("game %s: could not lift the timeout of seat %s", game_id, seat)
        await self.service.set_message(game_id, home, f"{MUTED_SLOT}{seat}", None)

    # --- the protocol ---------------------------------------------------------------------------
    async def _publish(self, home: str, outcome: Outcome, club: str | None) -> None:
        """The end: the protocol (score sheet PNG and JSON) in the game's channel, and the result
        with the protocol in the linked club channel."""
        cat = await self.cat(home)
        files, problems = await self._protocol_files(home, outcome, cat)
        lines = [cat.text("dc-protocol", game=outcome.game_id), *problems]
        if files or problems:
            await self._post(home, "\n".join(lines), [discord.File(io.BytesIO(d), n) for n, d in files])
        if club is not None:
            text = "\n".join([cat.text("dc-club-result", game=outcome.game_id, channel=mention_channel(home)),
                              result_text(outcome.state, cat), *problems])
            await self._post(club, text, [discord.File(io.BytesIO(d), n) for n, d in files])

    async def _protocol_files(self, home: str, outcome: Outcome,
                              cat: Catalog) -> tuple[list[tuple[str, bytes]], list[str]]:
        if not self.protocol:
            return [], []
        row = await self.service.store.game(outcome.game_id)
        if row is None:
            return [], []
        config = outcome.state.config
        events = await self.service.events(home)
        files: list[tuple[str, bytes]] = []
        problems: list[str] = []
        try:
            data = to_json(config, row.names, events, game_id=outcome.game_id,
                           started_at=row.created_at, ended_at=self.clock())
        except ExportError as error:
            problems.append(protocol_error_text(error, cat))
        else:
            text = json.dumps(data, ensure_ascii=False, indent=1)
            files.append((f"game-{outcome.game_id}.json", text.encode("utf-8")))
        try:
            png = await asyncio.to_thread(render_sheet, config, row.names, events, cat.lang,
                                          game_id=outcome.game_id, played_at=row.created_at)
        except ExportError as error:
            text = protocol_error_text(error, cat)
            if text not in problems:
                problems.append(text)
        except Exception:  # the picture is a courtesy: never let it stop the game
            log.exception("game %s: the score sheet failed", outcome.game_id)
        else:
            files.insert(0, (f"game-{outcome.game_id}.png", png))
        return files, problems

    # --- the timer ------------------------------------------------------------------------------
    def _cancel_timer(self, game_id: int) -> None:
        task = self._timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _arm(self, game_id: int, timer: Timer) -> None:
        """Schedule the timer's next edit (a late one still runs)."""
        self._cancel_timer(game_id)
        following = timer.next_stage()
        if following is None:
            return
        stage, at = following
        delay = max(0.0, at - self.clock())
        self._timers[game_id] = asyncio.create_task(self._tick_after(delay, game_id, timer.key, stage),
                                                    name=f"referee-timer-{game_id}")

    async def _tick_after(self, delay: float, game_id: int, key: str, stage: str) -> None:
        await asyncio.sleep(delay)
        try:
            await self._tick(game_id, key, stage)
        except Exception:
            log.exception("game %s: a timer edit failed", game_id)

    async def _turn_over(self, game_id: int, before: rules.GameState,
                         after: rules.GameState) -> Timer | None:
        """When another speech begins: stop the old timer; return the new one (not yet stored),
        or ``None`` when nothing changed or nobody speaks (a 0 s silence needs no timer)."""
        old, new = turn_key(before), turn_key(after)
        if old == new:
            return None
        await self._stop_timer(game_id)
        turn = rules.current_turn(after)
        if new is None or turn is None or turn.seconds <= 0:
            return None
        return Timer.start(new, turn, self.timer_scale, self.clock())

    async def _stop_timer(self, game_id: int) -> None:
        self._cancel_timer(game_id)
        data = await self.service.timer(game_id)
        if data is None:
            return
        timer = Timer.from_dict(data)
        await self.service.set_timer(game_id, None)
        if timer.stage in ("running", WARNED, PAUSED):  # a countdown left standing would mislead
            timer.stage = "stopped"
            await self._edit_channel_timer(timer)

    async def _edit_channel_timer(self, timer: Timer) -> None:
        if timer.group_chat is None or timer.group_message is None or not is_discord(timer.group_chat):
            return
        cat = await self.cat(timer.group_chat)
        await self._edit(self._messageable(id_of(timer.group_chat)), timer.group_message,
                         text=channel_text(timer, cat, self.clock())[:MAX_CONTENT], keep_view=True)

    async def _tick(self, game_id: int, key: str, stage: str) -> None:
        """A timer edit is due (10 s left, or the end)."""
        row = await self.service.store.game(game_id)
        if row is None or not is_discord(row.chat):
            return
        async with self._lock(row.chat):
            data = await self.service.timer(game_id)
            if data is None:
                return
            timer = Timer.from_dict(data)
            if timer.key != key or timer.stage in (PAUSED, "over", "stopped"):
                return
            current = await self.service.current(row.chat)
            if current is None or current.game_id != game_id or turn_key(current.state) != key:
                await self.service.set_timer(game_id, None)
                return
            timer.stage = stage
            # The edit before the store: a process killed between the two edits again after the
            # restart (the same text: harmless); stored first, the edit would be lost for good.
            await self._edit_channel_timer(timer)
            await self.service.set_timer(game_id, timer.to_dict())
            await self._show_panel(row.chat, current, repost=False)
            self._arm(game_id, timer)

    async def _rearm(self) -> None:
        """After a restart: every running timer of an open Discord game is armed again (a
        deadline that passed meanwhile fires at once). Other adapters' games are left alone."""
        for game_id, data in (await self.service.open_timers(prefix=PREFIX)).items():
            timer = Timer.from_dict(data)
            if timer.live:
                self._arm(game_id, timer)

    async def _timer_control(self, home: str, current: Outcome, resume: bool) -> None:
        timer = await pause_or_resume(self.service, current, resume, self.clock())
        if timer is None:
            return
        if timer.live:
            self._arm(current.game_id, timer)
        else:
            self._cancel_timer(current.game_id)
        await self._edit_channel_timer(timer)

    # --- games ----------------------------------------------------------------------------------
    async def _create(self, home: str, user: str, config: rules.RulesConfig, *,
                      previous: Outcome | None, names: dict[int, str] | None = None,
                      roles: tuple[str | None, ...] | None = None, quiet: bool = False) -> Outcome:
        """A new game in the channel. An unfinished game is replaced only by its own judge (it
        is recorded as abandoned); the linked club channel stays linked; ``roles`` (R1.1), if
        given, are entered at once. Posts the news in the channel; the caller shows the panel."""
        cat = await self.cat(home)
        club: str | None = None
        replaced = False
        if previous is not None:
            if previous.state.phase is not Phase.GAME_OVER:
                if previous.judge != user:
                    raise ServiceError("not_judge", judge=previous.judge)
                replaced = True
            club = await self._club(previous.game_id, home)
            await self._retire(home, previous)
        outcome = await self.service.new_game(home, user, config, names, replace=True, announce=club)
        if roles is not None:
            outcome = await self.service.act(home, user, rules.SetRoles(roles=roles))
        if not quiet:
            lines = [cat.text("console-replaced", game=previous.game_id)] if replaced and previous else []
            lines.append(cat.text("dc-new-game", game=outcome.game_id, judge=mention_user(user),
                                  preset=cat.text(f"preset-{config.preset}")))
            await self._post(home, "\n".join(lines))
        self._views.pop(outcome.game_id, None)
        return outcome

    async def _retire(self, home: str, previous: Outcome) -> None:
        """A game leaves the channel: its timer stops, its removed members are released, its
        panel loses its buttons."""
        await self._stop_timer(previous.game_id)
        await self._apply_timeouts(home, previous.game_id, previous.judge, set())
        await self._retire_panel(previous.game_id, previous.judge)

    # --- slash commands -------------------------------------------------------------------------
    async def slash(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A slash command, as its typed line (:func:`.slash.line`). Acknowledged at once; the
        answers are ephemeral."""
        cat = await self.guild_cat(interaction.guild_id)
        if interaction.guild_id is None or interaction.channel_id is None:
            await self.reply(interaction, cat.text("dc-guild-only"))
            return
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as error:  # too late: nothing can be answered
            log.warning("cannot acknowledge a command: %s", error)
            return
        home = chat_key(interaction.channel_id)
        self._guilds[home] = interaction.guild_id
        user = user_key(interaction.user.id)
        try:
            if self.host is not None and await self.host.claims(home, _command_name(text)):
                replies = await self.host.command(interaction, home, user, text)  # it locks
            else:
                async with self._lock(home):
                    replies = await self._command(interaction, home, user, text)
        except _Refusal as error:
            replies = [error_text(error, await self.cat(home))]
        except Exception:
            log.exception("command %r failed", text)
            replies = [cat.text("error-internal")]
        await self.reply(interaction, "\n".join(r for r in replies if r) or cat.text("dc-done"))

    async def _command(self, interaction: discord.Interaction[Any], home: str, user: str,
                       text: str) -> list[str]:
        name = _command_name(text)
        cat = await self.cat(home)
        current = await self.service.current(home)
        live = current if current is not None and current.state.phase is not Phase.GAME_OVER else None
        confirmed = self._confirm_new.pop(home, None) == user
        if name in slash.DISCORD_ONLY:
            return await self._discord_command(interaction, home, user, name, text, current, live)
        command = cmds.parse(text, live.state if live is not None else None)
        if isinstance(command, (Act, UndoCmd)):
            game = live or current
            if game is not None and game.judge != user and (live is not None or isinstance(command, UndoCmd)):
                return [self._not_judge(game, cat)]
        if isinstance(command, Act):
            if live is None:  # the first game command starts a game (as the console does)
                config = NewGame().config()
                refusal = rules.check(rules.new_game(config), command.event)
                if refusal is not None:
                    raise refusal
                live = await self._create(home, user, config, previous=current)
            outcome = await self.service.act(home, user, command.event)
            reached = await self._after_action(home, live.state, outcome)
            return [cat.text("dc-done") if reached else cat.text("dc-no-dm")]
        if isinstance(command, UndoCmd):
            game = live or current
            if game is None:
                raise ServiceError("nothing_to_undo", steps=command.steps, available=0)
            outcome = await self.service.undo(home, user, steps=command.steps)
            reached = await self._after_action(home, game.state, outcome, undone=outcome.undone)
            return [cat.text("tg-undone", count=command.steps) if reached else cat.text("dc-no-dm")]
        if isinstance(command, NewGame):
            if live is not None and live.judge != user:
                return [cat.text("dc-busy", game=live.game_id, judge=mention_user(live.judge))]
            if live is not None and not confirmed:  # a second /new shelves the unfinished game
                self._confirm_new[home] = user
                return [cat.text("console-new-confirm", game=live.game_id)]
            outcome = await self._create(home, user, command.config(), previous=current)
            replies = [cat.text("dc-created", game=outcome.game_id)]
            lacking = missing(interaction.app_permissions)
            if lacking:
                replies.append(cat.text("dc-missing-rights", rights=rights_text(lacking, cat)))
            if not await self._show_panel(home, outcome, fresh=True):
                replies.append(cat.text("dc-no-dm"))
            return replies
        if isinstance(command, SetLang):
            return await self._lang(interaction, home, user, command.lang, current)
        if isinstance(command, Show):
            return await self._show(home, user, command.what, current)
        assert isinstance(command, Quit)
        return [cat.text("tg-no-quit")]

    def _not_judge(self, game: Outcome, cat: Catalog) -> str:
        return cat.text("dc-not-judge", judge=mention_user(game.judge))

    async def _lang(self, interaction: discord.Interaction[Any], home: str, user: str, lang: str,
                    current: Outcome | None) -> list[str]:
        """The server's language: its games' judges or a member with Manage Server."""
        judge = current is not None and current.judge == user
        if not judge and not interaction.permissions.manage_guild:
            return [(await self.cat(home)).text("dc-lang-not-allowed")]
        guild_id = interaction.guild_id
        assert guild_id is not None
        key = guild_key(guild_id)
        await self.service.store.set_lang(key, lang)
        self._langs[key] = lang
        if current is not None and current.state.phase is not Phase.GAME_OVER:
            await self._show_panel(home, current, repost=False)
        return [catalog(lang).text("console-lang")]

    async def _show(self, home: str, user: str, what: str, current: Outcome | None) -> list[str]:
        cat = await self.cat(home)
        if what == "help":
            return [f"{cat.text('commands-help')}\n\n{cat.text('dc-help')}"]
        if current is None:
            raise ServiceError("no_game")
        judge = current.judge == user
        if what == "status":
            if judge:
                shown = await self._show_panel(home, current, fresh=True)
                return [cat.text("dc-panel-sent") if shown else cat.text("dc-no-dm")]
            return [status_text(current.state, cat, for_judge=False)]
        if what == "result":
            if current.state.phase is not Phase.GAME_OVER:
                if not judge:
                    return [cat.text("result-not-over")]
                await self._dm(user, result_text(current.state, cat))
                return [cat.text("dc-sent-dm")]
            return [result_text(current.state, cat)]
        row = await self.service.store.game(current.game_id)
        names = row.names if row is not None else {}
        _, notices = rules.fold(current.state.config, await self.service.events(home), names)
        if judge:
            lines = [t for t in (notice_text(n, cat) for n in notices) if t]
            text = "\n".join(lines) or status_text(current.state, cat, for_judge=True)
            return [cat.text("dc-sent-dm") if await self._dm(user, text) else cat.text("dc-no-dm")]
        over = current.state.phase is Phase.GAME_OVER
        lines = [t for t in (notice_text(n, cat) for n in notices if over or not n.private) if t]
        text = "\n".join(lines) or status_text(current.state, cat, for_judge=False)
        return [text[-(MAX_CONTENT * MAX_EPHEMERAL_PARTS - 10):]]

    async def _discord_command(self, interaction: discord.Interaction[Any], home: str, user: str,
                               name: str, text: str, current: Outcome | None,
                               live: Outcome | None) -> list[str]:
        cat = await self.cat(home)
        args = text.split()[1:]
        if name == "takeover":
            return await self._take_over(interaction, home, user, live)
        game = live or current
        if game is None:
            raise ServiceError("no_game")
        if game.judge != user:
            return [self._not_judge(game, cat)]
        if name == "panel":
            shown = await self._show_panel(home, game, fresh=True)
            return [cat.text("dc-panel-sent") if shown else cat.text("dc-no-dm")]
        if name == "link":
            return await self._link(home, game, chat_key(int(args[0])))
        if name == "unlink":
            await self.service.set_announce(game.game_id, None)
            return [cat.text("dc-unlinked")]
        assert name == "seat"
        return await self._seat(home, game, int(args[0]), int(args[1]) if len(args) > 1 else None)

    async def _link(self, home: str, game: Outcome, club: str) -> list[str]:
        """The judge names a club channel for the results; the bot must be able to post there."""
        cat = await self.cat(home)
        if club == home:
            await self.service.set_announce(game.game_id, None)
            return [cat.text("dc-link-self")]
        sent = await self._post(club, cat.text("dc-linked-club", game=game.game_id,
                                               channel=mention_channel(home)))
        if sent is None:
            return [cat.text("dc-link-cannot-post", channel=mention_channel(club),
                             rights=rights_text(["view_channel", "send_messages", "attach_files"], cat))]
        await self.service.set_announce(game.game_id, club)
        if game.state.phase is Phase.SETUP:
            await self._show_panel(home, game, repost=False)
        return [cat.text("dc-linked", channel=mention_channel(club))]

    async def _seat(self, home: str, game: Outcome, seat: int, member: int | None) -> list[str]:
        """``/seat 5 @member``: whose seat it is (one seat per member), for removal timeouts;
        without a member the seat is unmapped."""
        cat = await self.cat(home)
        seats = await self._slots(game.game_id, home, SEAT_SLOT)
        for other, mapped in seats.items():
            if member is not None and mapped == member and other != seat:
                await self.service.set_message(game.game_id, home, f"{SEAT_SLOT}{other}", None)
        await self.service.set_message(game.game_id, home, f"{SEAT_SLOT}{seat}", member)
        replies = [cat.text("dc-seat-set", seat=seat, member=mention_user(user_key(member)))
                   if member is not None else cat.text("dc-seat-cleared", seat=seat)]
        muted = await self._slots(game.game_id, home, MUTED_SLOT)
        for other, mapped in muted.items():  # a member timed out for a seat no longer his
            if (other == seat and mapped != member) or (other != seat and mapped == member):
                await self._release(home, game.game_id, other, mapped, cat)
        await self._sync_timeouts(home, game)
        return replies

    async def _take_over(self, interaction: discord.Interaction[Any], home: str, user: str,
                         live: Outcome | None) -> list[str]:
        """A member with Manage Channels takes the channel's game over, explicitly."""
        cat = await self.cat(home)
        if live is None:
            raise ServiceError("no_game")
        if live.judge == user:
            return [cat.text("tg-takeover-already")]
        if not interaction.permissions.manage_channels:
            return [cat.text("dc-takeover-not-allowed")]
        old = live.judge
        outcome = await self.service.take_over(home, user)
        who = mention_user(user)
        await self._retire_panel(live.game_id, old, cat.text("tg-panel-taken", game=live.game_id, judge=who))
        await self._dm(old, cat.text("dc-taken-over-old", game=live.game_id, judge=who,
                                     channel=mention_channel(home)))
        await self._post(home, cat.text("tg-taken-over-group", game=live.game_id, judge=who))
        self._views.pop(outcome.game_id, None)
        shown = await self._show_panel(home, outcome, fresh=True)
        return [cat.text("dc-takeover-done", game=live.game_id) if shown else cat.text("dc-no-dm")]

    # --- button presses -------------------------------------------------------------------------
    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A panel button (:class:`.layout.PanelButton`)."""
        press = decode(custom_id)
        user = user_key(interaction.user.id)
        row = await self.service.store.game(press.game_id) if press is not None else None
        if press is None or row is None or not is_discord(row.chat):
            await self.reply(interaction, catalog(self.settings.lang).text("tg-press-outdated"))
            return
        home = row.chat
        async with self._lock(home):
            await self._press(interaction, home, user, press, row.judge)

    async def _press(self, interaction: discord.Interaction[Any], home: str, user: str, press: Press,
                     pressed_judge: str) -> None:
        cat = await self.cat(home)
        current = await self.service.current(home)
        if current is None or current.game_id != press.game_id:
            if pressed_judge != user:  # e.g. the judge before a take over
                await self.reply(interaction, cat.text("tg-not-judge"))
                return
            await self.reply(interaction, cat.text("tg-press-outdated"))
            return
        if user != current.judge:  # only the game's judge changes it
            await self.reply(interaction, cat.text("tg-not-judge"))
            return
        if press.action == pn.INERT:
            await self._ack(interaction)
            return
        if press.revision != current.revision:  # stale or repeated: nothing changes
            await self.reply(interaction, cat.text("tg-press-outdated"))
            self._views.pop(current.game_id, None)
            await self._show_panel(home, current)
            return
        try:
            await self._pressed(interaction, home, user, press, current)
        except _Refusal as error:
            await self.reply(interaction, error_text(error, cat))
            if isinstance(error, ServiceError) and error.code == "stale":
                self._views.pop(current.game_id, None)
                fresh = await self.service.current(home)
                if fresh is not None:
                    await self._show_panel(home, fresh)
        except ValueError:
            await self.reply(interaction, cat.text("tg-press-outdated"))

    async def _pressed(self, interaction: discord.Interaction[Any], home: str, user: str,
                       press: Press, current: Outcome) -> None:
        action = press.action
        if pn.is_view(press):
            self._views[current.game_id] = press
            await self._show_panel(home, current, interaction=interaction)
            await self._ack(interaction)
        elif action in (pn.PAUSE, pn.RESUME):
            await self._timer_control(home, current, resume=action == pn.RESUME)
            await self._show_panel(home, current, interaction=interaction)
            await self._ack(interaction)
        elif action == pn.UNDO:
            await self._ack(interaction)
            outcome = await self.service.undo(home, user, steps=1, revision=press.revision)
            await self._after_action(home, current.state, outcome, undone=outcome.undone)
        elif action == pn.PRESET:
            await self._change_preset(interaction, home, user, press, current)
        elif action == pn.NEW:
            await self._ack(interaction)
            outcome = await self._create(home, user, current.state.config, previous=current)
            await self._show_panel(home, outcome, fresh=True)
        elif action in pn.EVENT_ACTIONS:
            event = pn.event_for(current.state, press)
            await self._ack(interaction)
            outcome = await self.service.act(home, user, event, revision=press.revision)
            await self._after_action(home, current.state, outcome)
        else:
            raise ValueError(action)

    async def _change_preset(self, interaction: discord.Interaction[Any], home: str, user: str,
                             press: Press, current: Outcome) -> None:
        """Setup only: the game is created again under another preset (the rules are fixed at
        creation), keeping the names and the roles entered so far."""
        name = press.arg(0)
        state = current.state
        if name not in rules.PRESETS or state.phase is not Phase.SETUP:
            raise ValueError(name)
        await self._ack(interaction)
        if name == state.config.preset:
            return
        names = {s.number: s.name for s in state.seats if s.name}
        seats = await self._slots(current.game_id, home, SEAT_SLOT)
        roles = tuple(s.role.value if s.role else None for s in state.seats) \
            if state.roles_known else None
        outcome = await self._create(home, user, rules.PRESETS[name], previous=current, names=names,
                                     roles=roles, quiet=True)
        for seat, member in seats.items():  # the seating stays with the table
            await self.service.set_message(outcome.game_id, home, f"{SEAT_SLOT}{seat}", member)
        cat = await self.cat(home)
        await self._post(home, cat.text("dc-preset", game=outcome.game_id,
                                        preset=cat.text(f"preset-{name}")))
        await self._show_panel(home, outcome, fresh=True)


# --- building and running ---------------------------------------------------------------------------

def build_client(settings: Settings, service: Service | None = None, **options: Any) -> RefereeClient:
    """The client of judge mode (``options``: :class:`DiscordReferee`'s; ``timer_scale`` is
    ``settings.telegram_timer_scale`` unless given). ``service=None``: the store at
    ``settings.db`` is opened when the client logs in and closed when it closes. With
    ``settings.discord_base_url`` it talks to that server instead of Discord."""
    options.setdefault("timer_scale", settings.telegram_timer_scale)
    return RefereeClient(DiscordReferee(settings, service, **options), base_url=settings.discord_base_url)


class _NoVoice(logging.Filter):
    """discord.py warns at start-up that PyNaCl and davey (voice) are not installed: the bot
    never joins a voice channel, so the warning is noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


_NO_VOICE = _NoVoice()


def configure_logging(*secrets: str, level: int = logging.INFO, fmt: LogFormat = "text") -> None:
    """:func:`bot.logs.configure_logging` (every secret redacted, text or JSON lines, network
    failures in one line) with discord.py's chatty loggers at WARNING too, and its "voice will
    NOT be supported" warnings dropped (:class:`_NoVoice`)."""
    shared_configure_logging(*secrets, level=level, fmt=fmt,
                             noisy=(*NOISY, "discord.gateway", "discord.http"))
    client_log = logging.getLogger("discord.client")
    if _NO_VOICE not in client_log.filters:
        client_log.addFilter(_NO_VOICE)


def run(settings: Settings, *, sync_guild: int | None = None) -> int:
    """``mafia-referee discord``: the gateway until interrupted. Returns the exit status: 0
    interrupted, 1 Discord cannot be reached, 2 the token or the intents are refused."""
    assert settings.discord_token is not None
    token = settings.discord_token.get_secret_value().strip()
    configure_logging(token, fmt=settings.log_format)
    client = build_client(settings, sync_guild=sync_guild)
    try:
        client.run(token, log_handler=None)
    except discord.LoginFailure:  # a setting: restarting will not help (exit 2, as bad settings)
        log.error("Discord refused the token")
        return 2
    except discord.PrivilegedIntentsRequired:  # the bot's page on Discord must change first
        log.error("Discord refused the gateway intents")
        return 2
    except (OSError, aiohttp.ClientError) as error:
        log.error("cannot reach Discord: %s", error)
        return 1
    return 0
