"""The Discord adapter: a ``discord.Client`` over :class:`bot.service.Service`, for judge mode
(:class:`bot.judge.controller.JudgeController`) and host mode (:mod:`.host`).

Judge mode on Discord: the judge creates a game with ``/new`` in a server's text channel; that
channel is the game's *home* (service chat ``"dc:<channel_id>"``, judge ``"dc:<user_id>"``) and
gets its public announcements; the judge reads every notice on his panel in his direct messages.
The flow — what goes where, the panel, its presses, the timer, undo, a new game, a take over — is
the controller's, through the persistent outbox like Telegram's; here is Discord's part only:

* :class:`DiscordJudgePort`: the panel as an embed with a view (:mod:`.layout`; posted afresh
  below any newer message, the old one deleted), a press answered ephemerally or by editing the
  pressed panel, the timer line with Discord's live countdown (:mod:`.countdown`), asyncio timers;
* slash commands (:mod:`.slash`), each acknowledged at once and answered ephemerally (what is for
  the judge's eyes only goes to his direct messages);
* Discord's own commands: ``/seat 5 @member`` maps a seat to a member, who is timed out while the
  rules keep the seat removed (the 4th foul, seed 4.5; a disqualification, seed 4.2; the bot needs
  Moderate Members; the judge is told when it cannot); ``/link #channel`` names a club channel
  that gets each finished game's result with the protocol; ``/takeover`` (Manage Channels);
  ``/new voice:#table`` binds the game to a voice channel, where the members mapped with ``/seat``
  are server-muted but the one who has the floor (:mod:`.voice`; the judge never);
  ``/panel``; ``/lang`` per server (stored under ``"dc:guild:<id>"``).

One lock per channel (:class:`bot.locks.ChatLocks`, shared with host mode) orders everything a game
does. No rule lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
import time
from typing import Any, Awaitable, Callable, Sequence

import aiohttp
import discord
from discord import app_commands

import rules
from rules import Cause, Phase
from storage import Store
from storage.club import SEAT_SLOT  # "seat:<n>" in the game's channel: the member mapped to seat n

from .. import gcpolicy, lifecycle
from ..access import Access
from ..commands import CommandError, Link, MapSeat, Part, Place, SetChannel, SetLang, ShowPanel, Unlink
from ..front import Call, Entry, Front, Via
from ..host import steps as host_steps
from ..host import views as host_views
from ..host.options import HostOptions
from ..host.port import Mute
from ..i18n import DEFAULT_LANG, LANGS, Catalog
from ..judge import panel as pn
from ..judge.callbacks import decode
from ..judge.controller import JudgeController
from ..judge.port import Reply, Target
from ..judge.timer import Timer
from ..locks import ChatLocks
from ..lru import Recent
from ..logs import NOISY, LogFormat
from ..logs import configure_logging as shared_configure_logging
from ..outbox import Outbox
from ..render import chunks
from ..service import Outcome, Service
from ..settings import Settings
from ..web.desk import StreamDesk
from . import layout, slash
from .base import DiscordPortBase
from .countdown import timer_line
from .endpoint import reroute, routed_context
from .host import DiscordHost, HostButton
from .host.handlers import player as host_player
from .host import is_ours as is_host_button
from .keys import chat_key, guild_key, id_of, is_discord, mention_channel, mention_user, user_key
from .outbox import DiscordTransport
from .rights import TIMEOUT_RIGHT, missing, rights_text
from .shards import Shards, ShardClaims
from .sync import state_file, sync_commands
from .tasks import TaskScheduler
from .text import discord_catalog
from .voice import VOICE_SLOT, VoiceTables

log = logging.getLogger(__name__)
#: What a call to Discord may fail with: a refusal or a server error (discord.py's), or the network
#: (a dropped connection, a timeout) — a direct send or edit that fails is logged and skipped, as
#: a refusal is; the game goes on (what an action announces goes through the outbox, retried)
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, OSError)

MUTED_SLOT = "muted:"  # "muted:<n>": the member id the bot has timed out for seat n
MAX_CONTENT = 2000  # characters of a message's text
REMOVAL_TIMEOUT = dt.timedelta(hours=6)  # longer than any game; lifted at its end
REMOVED_CAUSES = (Cause.FOULS, Cause.DISQUALIFICATION)  # seed 4.5, 4.2: out of the game, alive
MAX_EPHEMERAL_PARTS = 3
REMEMBERED_INTERACTIONS = 10_000  # the interaction ids remembered to drop one delivered again



def removed_seats(state: rules.GameState) -> set[int]:
    """The seats the rules have removed (seed 4.5: the 4th foul; seed 4.2: a disqualification),
    while the game goes on."""
    if state.phase is Phase.GAME_OVER:
        return set()
    return {n for n, d in state.departures() if d.cause in REMOVED_CAUSES}


class RefereeClient(discord.Client):
    """The bot: a client with the slash-command tree; the adapter is :attr:`referee`.
    ``sharding``: :class:`ShardedRefereeClient`'s (``shard_count``, ``shard_ids``)."""

    def __init__(self, referee: "DiscordReferee", *, base_url: str | None = None,
                 **sharding: Any) -> None:
        super().__init__(intents=discord.Intents(guilds=True, guild_messages=True, dm_messages=True,
                                                 voice_states=True),
                         allowed_mentions=discord.AllowedMentions.none(), **sharding)
        self.referee = referee
        self.base_url = base_url  # another server than Discord (:mod:`.endpoint`)
        if base_url is not None:
            reroute(self, base_url)  # before the tree, which keeps the HTTP client
        self._handing: set[asyncio.Task[None]] = set()
        #: the interactions parsed lately: one delivered again is dropped (:meth:`_interaction_arrived`)
        self._interactions: Recent[int, bool] = Recent(REMEMBERED_INTERACTIONS)
        self.repeated = 0  # interactions dropped as delivered again (tests wait on it)
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._interaction_arrived
        self.tree: app_commands.CommandTree[RefereeClient] = app_commands.CommandTree(self)
        self.tree.error(self._command_error)
        self.tree.interaction_check = self._allowed  # type: ignore[method-assign]
        slash.install(self.tree)

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

    async def _allowed(self, interaction: discord.Interaction[Any]) -> bool:
        """The allow-list (:mod:`bot.access`): a command in a server that is not listed is
        answered with the server's id and goes no further; direct messages pass (the judge's
        panel of a game in a listed server)."""
        access = self.referee.access
        server = f"dc:{interaction.guild_id}"
        if interaction.guild_id is None or access.chat(server):
            return True
        cat = await self.referee.guild_cat(interaction.guild_id)
        await self.referee.reply(interaction, cat.text("access-server", server=server))
        return False

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        with routed_context(self.base_url):  # the interaction answers too, this client's only
            await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        await self.referee.setup(self)

    def _interaction_arrived(self, data: Any) -> None:
        """INTERACTION_CREATE. One interaction, one effect (issue 36, as Telegram's
        :class:`bot.telegram.app.PerChatUpdateProcessor` drops an update delivered again): an
        interaction id seen lately — the gateway's replay after a resume, a repeat — is
        dropped, so a hand press is never toggled back nor a command carried out twice. In a
        process of several (:mod:`.shards`) a press in direct messages (Discord sends them all
        to shard 0) goes to :meth:`DiscordReferee.route_dm`, which parses it here if this
        process owns its game, else hands it to the owner; anything else is parsed as usual."""
        key = int(data.get("id") or 0)
        if key in self._interactions:
            log.info("interaction %s delivered again: dropped", key)
            self.repeated += 1
            return
        self._interactions[key] = True
        if self.referee.shards.multi and data.get("guild_id") is None \
                and data.get("type") == discord.InteractionType.component.value:
            task = asyncio.create_task(self.referee.route_dm(data, self._parse_interaction))
            self._handing.add(task)
            task.add_done_callback(self._handing.discard)
            return
        self._parse_interaction(data)

    async def on_ready(self) -> None:
        """Every shard of this process is connected and has its servers."""
        await self.referee.ready()

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
                await self.referee.guarded(interaction, self.referee.on_press(interaction, custom_id))
            return
        await self.referee.guarded(interaction, self.referee.on_press(interaction, custom_id))

    async def on_message(self, message: discord.Message) -> None:
        """Host mode: night 0's relay in direct messages, speech out of turn in a table's channel."""
        if self.referee.host is not None:
            try:
                await self.referee.host.on_message(message)
            except Exception:
                log.exception("host: a message failed")

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """Host mode: a message edited in a table's channel is judged as written then (whether
        or not discord.py still has it in its cache)."""
        if self.referee.host is not None:
            try:
                await self.referee.host.on_edit(payload.message)
            except Exception:
                log.exception("host: an edited message failed")

    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        """A member joins, moves or leaves voice: the voice tables follow (:mod:`.voice`)."""
        try:
            await self.referee.voice.moved(member, before, after)
        except Exception:
            log.exception("voice: a voice state update failed")

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """The server's voice states are known (at start-up, after a restart): mutes left from
        games over are lifted, the voice tables give everyone the mute of the moment. A process
        of several shards takes up a server that became available after its start."""
        try:
            if self.referee._drainer is not None:  # after on_ready (bot.discord.shards)
                await self.referee.take_up([guild])
        except Exception:
            log.exception("shards: taking up server %s failed", guild.id)
        try:
            await self.referee.voice.sweep()
        except Exception:
            log.exception("voice: the sweep failed")

    async def close(self) -> None:
        await self.referee.shutdown()
        await super().close()


class ShardedRefereeClient(RefereeClient, discord.AutoShardedClient):
    """The bot as discord.py's ``AutoShardedClient``: ``shard_count`` shards in all, this
    process's ``shard_ids`` (all of them when not given) — :mod:`.shards`."""


class DiscordJudgePort(DiscordPortBase):
    """Judge mode's port on Discord (:class:`bot.judge.port.JudgePort`): the game lives in a
    server channel (its home), where the table reads; the judge reads in his direct messages,
    where his panel is an embed with a view (posted afresh below any newer message, the old one
    deleted); a press is answered ephemerally, or by editing the pressed panel; the timer line
    has Discord's live countdown; members mapped to seats with ``/seat`` are timed out while the
    rules keep them removed."""

    panel_lag = 0  # any newer message below the panel: it is posted afresh
    live_countdown = True
    countdown_step = None  # the live countdown needs no edits

    def judge_chat(self, home: str, judge: str) -> Target:
        return Target(judge, private=True)

    async def public_chat(self, game_id: int | None, home: str) -> str | None:
        return home

    async def club_chat(self, game_id: int, home: str) -> str | None:
        return await self.referee._club(game_id, home)

    def mention(self, user: str) -> str:
        return mention_user(user) if is_discord(user) else user

    def name_of(self, user: str) -> str | None:
        return self.referee.names.get(user)

    def place(self, chat: str) -> str | None:
        return self.referee.titles.get(chat)

    def message_link(self, chat: str, message_id: int) -> str | None:
        """A channel's message (its server from the client's cache; none when it is not there)."""
        channel = self.referee.bot.get_channel(id_of(chat)) if is_discord(chat) else None
        guild = getattr(channel, "guild", None)
        return None if guild is None else \
            f"https://discord.com/channels/{guild.id}/{id_of(chat)}/{message_id}"
    def moment(self, at: float) -> str:
        return f"<t:{int(at)}:T>"  # Discord shows it in each reader's own time zone

    async def panel_notes(self, state: rules.GameState, game_id: int, home: str,
                          cat: Catalog) -> list[str]:
        notes = [cat.text("dc-panel-channel", channel=mention_channel(home))]
        if state.phase is Phase.SETUP:
            club = await self.club_chat(game_id, home)
            notes.append(cat.text("dc-panel-setup", club=mention_channel(club) if club else "none"))
        return notes

    async def post_panel(self, target: Target, panel: pn.Panel, title: str) -> int | None:
        channel = await self.referee._dm_channel(target.chat)
        if channel is None:
            return None
        sent = await self.referee._send(channel, embed=layout.panel_embed(panel, title),
                                        view=layout.panel_view(panel) if panel.rows else None)
        return sent.id if sent is not None else None

    async def edit_panel(self, target: Target, message_id: int, panel: pn.Panel, title: str,
                         handle: Any = None) -> bool:
        embed = layout.panel_embed(panel, title)
        view = layout.panel_view(panel) if panel.rows else None
        if (isinstance(handle, discord.Interaction) and not handle.response.is_done()
                and handle.message is not None and handle.message.id == message_id):
            try:  # the press's own answer edits the pressed panel
                await handle.response.edit_message(embed=embed, view=view)
                return True
            except discord.HTTPException as error:
                log.info("cannot update the pressed panel: %s", error)
        channel = await self.referee._dm_channel(target.chat)
        if channel is None:
            return False
        return await self.referee._edit(channel, message_id, embed=embed, view=view)

    async def drop_panel(self, target: Target, message_id: int) -> None:
        channel = await self.referee._dm_channel(target.chat)
        if channel is not None:
            await self.referee._delete(channel, message_id)

    async def close_panel(self, target: Target, message_id: int, text: str | None) -> None:
        channel = await self.referee._dm_channel(target.chat)
        if channel is not None:
            embed = discord.Embed(description=text, colour=layout.PANEL_COLOUR) if text else None
            await self.referee._edit(channel, message_id, embed=embed, view=None)

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False) -> None:
        if not isinstance(handle, discord.Interaction):  # a tap on the web page (bot.web.judge)
            await handle.answer(text=text, show_alert=alert)
            return
        if text:
            await self.referee.reply(handle, text)
        else:
            await self.referee._ack(handle)

    def timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        return timer_line(timer, cat, now)

    def panel_timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        return timer_line(timer, cat, now)  # Discord's <t:…:R> counts down by itself

    def has_room(self) -> bool:
        return True  # no countdown edits to skip (countdown_step is None)

    async def edit(self, chat: str, message_id: int, text: str) -> bool:
        return await self.referee._edit(self.referee._messageable(id_of(chat)), message_id,
                                        text=text[:MAX_CONTENT], keep_view=True)

    voice_tables = True

    def desk_of(self, user: str) -> str | None:
        return None  # the game stays in its channel: the channel is the game's

    def new_game_notes(self, handle: Any, cat: Catalog) -> list[str]:
        """The rights the bot lacks in the channel, for the judge of a new game."""
        lacking = missing(handle.app_permissions) if handle is not None else []
        return [cat.text("dc-missing-rights", rights=rights_text(lacking, cat))] if lacking else []

    async def bind_voice(self, handle: Any, home: str, voice: int, before: int | None) -> list[str]:
        return await self.referee._bind_voice(handle, home, voice, before)

    async def sync_removed(self, game_id: int, home: str, judge: str, removed: set[int]) -> None:
        await self.referee._apply_timeouts(home, game_id, judge, removed)

    async def sync_floor(self, game_id: int, home: str, judge: str,
                         state: rules.GameState | None) -> None:
        await self.referee._sync_voice(game_id, home, judge, state)


class DiscordReferee:
    """The adapter over one :class:`Service`. With ``service=None`` the store at
    ``settings.db`` is opened in :meth:`setup` and closed in :meth:`shutdown`.

    ``sync``: publish the slash commands when the client starts, if they changed (globally; or
    to ``sync_guild`` alone, where they appear at once: :mod:`.sync`). ``timer_scale``: real seconds per timer
    second (tests run it fast). ``protocol``: post the score sheet at the end of a game."""

    def __init__(self, settings: Settings, service: Service | None = None, *,
                 clock: Callable[[], float] = time.time, timer_scale: float = 1.0,
                 sync: bool = True, sync_guild: int | None = None, protocol: bool = True) -> None:
        self.settings = settings
        self._service = service
        self._own_store: Store | None = None
        self.clock = clock  # the wall clock: the deadlines as stored (a test may step it)
        self.monotonic: Callable[[], float] = time.monotonic  # what the deadlines wait on
        self.timer_scale = timer_scale
        self.sync = sync
        self.sync_guild = sync_guild
        self.protocol = protocol
        self.client: RefereeClient | None = None
        self.locks = ChatLocks(settings.cache_chats)  # one lock per channel, shared with host mode
        self.access = Access(settings.allowed)  # MAFIA_REFEREE_ALLOWED_CHATS (bot/access.py)
        self.tasks = TaskScheduler()  # the timers of both modes
        #: the persistent outbox's sender: what an action announces (bot.outbox)
        self.outbox = Outbox.of(lambda: self.service,
                                DiscordTransport(lambda: self.service, lambda: self,
                                                 protocol=protocol, sheet=settings.sheet),
                                on_sent=lambda chat, mid: self.judge.seen(chat, mid),
                                cached=settings.cache_chats)
        self.port = DiscordJudgePort(self)
        self.judge = JudgeController(lambda: self.service, self.port, self.locks)
        self.judge.club_tz = settings.timezone  # /stats month, the games' dates (issue 17)
        self._langs: Recent[str, str] = Recent(settings.cache_chats)  # guild key -> language
        self.names: Recent[str, str] = Recent(settings.cache_chats)  # user -> display name (the sheet's judge)
        self.titles: Recent[str, str] = Recent(settings.cache_chats)  # channel -> "#name" (the sheet's table)
        self._guilds: Recent[str, int] = Recent(settings.cache_chats)  # game channel -> its server
        self._dms: Recent[int, int] = Recent(settings.cache_chats)  # user id -> his DM channel id
        self.host: DiscordHost | None = None  # host mode (bot.discord.host), set up in setup
        self.web: Any = None  # the table on a screen (bot.web.WebLayer), when it is on
        self.voice = VoiceTables(self)  # the server mutes of the voice tables (both modes)
        #: this process's Discord shards; with other processes serving the rest, it touches
        #: only its own servers' channels (:mod:`.shards`)
        self.shards = Shards.of(settings.discord_shards, settings.shard_ids)
        self._taken: set[int] = set()  # a process of several: the servers taken up (:meth:`take_up`)
        self._drainer: asyncio.Task[None] | None = None  # the presses handed to it (:meth:`ready`)
        self._voice_games: dict[int, tuple[str, int]] = {}  # judge mode: voice channel -> (home, game)
        self._voice_told: dict[int, set[int]] = {}  # game -> seats the judge was told are unmutable
        self.front = self._front()

    def _front(self) -> Front:
        """The router every slash command and typed line goes through (:mod:`bot.front`):
        judge mode, host mode (once set up), the club's and a tournament's commands, and this
        platform's own."""
        judge = self.judge
        parts: dict[Part, Any] = {Part.JUDGE: judge, Part.CLUB: Via(judge.club_call, judge.held),
                                  Part.TOURNAMENT: Via(judge.tournament_call, judge.held),
                                  Part.PLATFORM: self, Part.WEB: StreamDesk(lambda: self.web)}
        if self.host is not None:
            parts[Part.HOST] = self.host
        # the clubs' evening sign-up goes with host mode (its port posts and edits)
        judge.evenings = self.host.evenings if self.host is not None else None
        return Front(lambda: self.service, parts, self, self.cat,
                     lines=self.host.controller if self.host is not None else None,
                     mention=self.port.mention, evenings=judge.evenings)

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
            self._service = Service(self._own_store, cached=self.settings.cache_chats,
                                    club_rules=self.settings.rules)
        client.add_dynamic_items(layout.PanelButton, HostButton)
        await client.tree.set_translator(slash.CatalogTranslator())
        if self.shards.multi:  # which channels are its own is known once its servers are (:meth:`ready`)
            await self.voice.load()
            self.host = DiscordHost(self)
            self.front = self._front()
        else:
            await self.judge.rearm()
            await self.voice.load()
            await self._load_voice_games()
            self.host = DiscordHost(self)
            self.front = self._front()
            await self.host.resume()
            await self.outbox.drain_all()
        if self.web is not None:  # the table on a screen (bot.web)
            await self.web.start(self.service)
        gcpolicy.freeze()  # what start-up built lives as long as the process
        # the commands are the application's, not a shard's: one process publishes them
        if self.sync and (not self.shards.multi or 0 in (self.shards.ids or ())):
            try:
                published = await sync_commands(client.tree, state_file(self.settings.db), self.sync_guild)
                if published:
                    log.info("published the slash commands: %s", ", ".join(published))
            except discord.HTTPException as error:
                log.warning("could not publish the slash commands: %s", error)
        lifecycle.ready("discord")  # systemd: started (Type=notify), the watchdog's pings

    async def ready(self) -> None:
        """A process of several (:mod:`.shards`), once its shards are connected: its servers
        taken up (:meth:`take_up`), and the presses handed to it by the process of shard 0
        applied from now on."""
        if not self.shards.multi or self._drainer is not None:
            return
        await self.take_up(list(self.bot.guilds))
        drainer = self.service.drainer(ShardClaims(self.owns), self._apply_handed, prefix="dc:")
        self._drainer = asyncio.create_task(drainer.run(), name="discord-shard-inbox")

    async def take_up(self, guilds: Sequence[discord.Guild]) -> None:
        """A process of several: the game channels of ``guilds`` (those of its shards not taken
        up yet: at ``on_ready``, and a server that becomes available later) taken up as one
        process takes up all at its start — their running timers armed, their voice games and
        host tables resumed, what their outbox holds sent."""
        new = {g.id for g in guilds
               if not g.unavailable and g.id not in self._taken and self.shards.owns_guild(g.id)}
        if not new:
            return
        self._taken |= new

        async def mine(chat: str) -> bool:
            return self._guild_cached(chat) in new

        service = self.service
        for game_id in await service.open_timers(prefix="dc:"):
            game = await service.game_row(game_id)
            if game is not None and await mine(game.chat):
                await self.judge.rearm(game.chat)
        await self._load_voice_games(mine)
        if self.host is not None:
            await self.host.resume(mine)
        await service.prune()
        for chat in await service.pending_chats():
            if is_discord(chat) and await mine(await self._outbox_home(chat)):
                await self.outbox.flush(chat)

    def _guild_cached(self, chat: str) -> int | None:
        """The server of channel ``chat`` as the gateway gave it (``None``: not a channel of
        this process's servers, or one not available yet)."""
        if not is_discord(chat):
            return None
        channel = self.bot.get_channel(id_of(chat))
        guild = getattr(channel, "guild", None)
        return int(guild.id) if guild is not None else None

    async def owns(self, chat: str) -> bool:
        """Whether this process serves game channel ``chat``: always, unless other processes
        serve other shards; then, whether the channel is one of its servers' (:mod:`.shards`:
        the gateway gives each process the servers of its shards, their channels with them —
        so no REST call is needed; a channel of a server not available yet is nobody's until
        it is)."""
        if not self.shards.multi:
            return True
        guild = self._guild_cached(chat)
        return guild is not None and self.shards.owns_guild(guild)

    async def _outbox_home(self, chat: str) -> str:
        """The game channel whose process sends the outbox of ``chat`` (a channel, or a judge's
        or player's DMs): that of the game or table its first unsent row belongs to."""
        rows = await self.service.pending(chat)
        if rows and rows[0].game_id is not None:
            game = await self.service.game_row(rows[0].game_id)
            if game is not None:
                return game.chat
        return chat

    async def _home_of_press(self, custom_id: str) -> str | None:
        """The game channel a button belongs to (a judge's panel, a host table's), if any."""
        if is_host_button(custom_id):
            host_press = host_views.decode(custom_id)
            table = await self.service.host_table(host_press.table) if host_press is not None else None
            return table.chat if table is not None else None
        press = decode(custom_id)
        row = await self.service.game_row(press.game_id) if press is not None else None
        return row.chat if row is not None and is_discord(row.chat) else None

    async def route_dm(self, data: dict[str, Any], parse: Callable[[Any], None]) -> None:
        """A press in direct messages reached this process (:meth:`RefereeClient._interaction_arrived`):
        handled here (``parse``: discord.py's own parser) when its game's channel is this
        process's or unknown; else acknowledged at once (Discord allows 3 s) and stored in the
        inbox under that channel, for its owner (:meth:`_apply_handed`)."""
        try:
            custom_id = str((data.get("data") or {}).get("custom_id", ""))
            home = await self._home_of_press(custom_id)
            if home is None or await self.owns(home):
                parse(data)
                return
            interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self.bot._connection)
            await self._ack(interaction)
            try:
                await self.service.inbox_put(int(data["id"]), home, data)
            except Exception:
                log.exception("cannot hand press %s to the process of %s", data.get("id"), home)
                await self.reply(interaction, (await self.guild_cat(None)).text("error-internal"))
        except Exception:  # noqa: BLE001 - a press never takes the client down
            log.exception("a press in direct messages failed")

    async def _apply_handed(self, chat: str, update_id: int, payload: dict[str, Any]) -> None:
        """A press another process acknowledged and handed over (:meth:`route_dm`), applied as
        if it had come here: the same interaction (its answers are follow-ups with its token;
        the panel is edited over REST)."""
        interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=self.bot._connection)
        interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
        custom_id = str((payload.get("data") or {}).get("custom_id", ""))
        if is_host_button(custom_id) and self.host is None:
            return
        await self.guarded(interaction, self.on_press(interaction, custom_id))

    async def shutdown(self) -> None:
        lifecycle.stopping()
        if self.web is not None:
            await self.web.stop()
        if self._drainer is not None:
            self._drainer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._drainer
            self._drainer = None
        self.tasks.cancel_all()
        await self.outbox.close()
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
            return discord_catalog(self.settings.lang)
        key = guild_key(guild_id)
        lang = self._langs.get(key)
        if lang is None:
            lang = await self.service.lang(key) or self.settings.lang
            self._langs[key] = lang
        return discord_catalog(lang if lang in LANGS else DEFAULT_LANG)

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
            except SEND_ERRORS as error:
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
        except SEND_ERRORS as error:
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
            self.judge.seen(user, sent.id)
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
        except SEND_ERRORS as error:
            log.info("cannot edit %s/%s: %s", channel.id, message_id, error)
            return False
        return True

    async def _delete(self, channel: discord.PartialMessageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).delete()
        except SEND_ERRORS as error:  # gone already, or too old: strip its buttons
            log.info("cannot delete %s/%s: %s", channel.id, message_id, error)
            await self._edit(channel, message_id, view=None)

    async def guarded(self, interaction: discord.Interaction[Any], handling: Awaitable[None]) -> None:
        """Await a press's ``handling``. The controllers answer their own failures ("not saved" /
        "saved, but not sent"); what escapes before or around them (a bug, a store that cannot
        be read) is logged and answered ephemerally here — as Telegram's error handler does —
        never left to Discord's "This interaction failed"."""
        try:
            await handling
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            try:
                cat = await self.guild_cat(interaction.guild_id)
            except Exception:  # noqa: BLE001 - the store itself may be what failed
                cat = discord_catalog(self.settings.lang)
            await self.reply(interaction, cat.text("error-internal"))

    @staticmethod
    async def reply(interaction: discord.Interaction[Any], text: str,
                    files: Sequence[discord.File] = ()) -> None:
        """An ephemeral answer: the interaction's response, else a follow-up; ``files`` (a
        picture) go with its last part."""
        parts = chunks(text, MAX_CONTENT)[:MAX_EPHEMERAL_PARTS] or ["…"]
        try:
            for number, part in enumerate(parts, 1):
                attached = {"files": list(files)} if files and number == len(parts) else {}
                if interaction.response.is_done():
                    await interaction.followup.send(part, ephemeral=True, **attached)
                else:
                    await interaction.response.send_message(part, ephemeral=True, **attached)
        except SEND_ERRORS as error:
            log.info("cannot answer interaction %s: %s", interaction.id, error)

    @staticmethod
    async def _ack(interaction: discord.Interaction[Any]) -> None:
        """Acknowledge a press with no visible answer (the panel changes instead)."""
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer()
        except SEND_ERRORS as error:
            log.info("cannot defer interaction %s: %s", interaction.id, error)

    async def _club(self, game_id: int, home: str) -> str | None:
        """The game's linked club channel (its announce chat), if it is not the home."""
        club = await self.service.announce(game_id)
        return club if club is not None and club != home and is_discord(club) else None

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
            reason = cat.text("game-removal-reason", game=game_id, seat=seat)
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
        reason = cat.text("game-removal-lifted", game=game_id, seat=seat)
        if not await self._timeout(home, member, None, reason):
            log.warning("game %s: could not lift the timeout of seat %s", game_id, seat)
        await self.service.set_message(game_id, home, f"{MUTED_SLOT}{seat}", None)

    def _seen(self, interaction: discord.Interaction[Any], home: str | None, user: str) -> None:
        """Remember the names Discord shows (the score sheet's judge and table)."""
        name = getattr(interaction.user, "display_name", None)
        if isinstance(name, str) and name:
            self.names[user] = name
        channel = getattr(getattr(interaction, "channel", None), "name", None)
        if home is not None and isinstance(channel, str) and channel:
            self.titles[home] = f"#{channel}"

    # --- voice tables (judge mode; host mode's are its table's) -----------------------------------
    async def _load_voice_games(self, owns: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """At start-up: the open games of this adapter bound to a voice channel (``owns``: of
        the channels it accepts, added to those known)."""
        if owns is None:
            self._voice_games.clear()
        for row in await self.service.open_games():
            if is_discord(row.chat) and (owns is None or await owns(row.chat)):
                voice = await self.service.message(row.id, row.chat, VOICE_SLOT)
                if voice is not None:
                    self._voice_games[voice] = (row.chat, row.id)

    async def _bind_voice(self, interaction: discord.Interaction[Any], home: str, voice: int,
                          before: int | None) -> list[str]:
        """``/new … voice:#table``: the new game is bound to the voice channel (told to the
        judge: who is muted when, the Mute Members right, a member the bot cannot mute). Under
        the home's lock (the new game's command holds it)."""
        current = await self.service.current(home)
        cat = await self.cat(home)
        if current is None or current.game_id == before:
            return []  # the game was not created: nothing to bind
        await self.service.set_message(current.game_id, home, VOICE_SLOT, voice)
        self._voice_games = {v: g for v, g in self._voice_games.items() if g[0] != home}
        self._voice_games[voice] = (home, current.game_id)
        perms = interaction.app_permissions
        right = perms.administrator or perms.mute_members or self.voice.may_mute(voice)
        await self._sync_voice(current.game_id, home, current.judge, current.state)
        return [cat.text("dc-voice-bound", channel=mention_channel(chat_key(voice)),
                         right="yes" if right else "no")]

    async def _sync_voice(self, game_id: int, home: str, judge: str,
                          state: rules.GameState | None) -> None:
        """Judge mode's voice table after an action: the members mapped with ``/seat`` are
        server-muted but the one who has the floor (:func:`bot.host.steps.writers`: the speaker
        in his speech, last word or tie speech; nobody in a silenced minute, a vote or the
        night), the judge never, nobody before the start; every mute lifted when the game is
        over or gone (``state`` ``None``). The judge is told once which seats cannot be muted
        (he fouls them by 4.1.1) or that the right is missing."""
        voice = await self.service.message(game_id, home, VOICE_SLOT)
        if voice is None:
            return
        wanted: set[int] = set()
        if state is None or state.phase is Phase.GAME_OVER:
            self._voice_games.pop(voice, None)  # the game is over or gone: its table is closed
        elif state.phase is not Phase.SETUP:
            floor = host_steps.writers(state, host_steps.plan(state, HostOptions()))
            seats = await self._slots(game_id, home, SEAT_SLOT)
            wanted = {m for seat, m in seats.items() if seat not in floor} - {id_of(judge)}
        cat = await self.cat(home)
        reason = cat.text("dc-voice-reason", game=game_id)
        muted = self.voice.muted_by(game_id)
        told = self._voice_told.setdefault(game_id, set())
        news: list[str] = []
        seat_of = {m: s for s, m in (await self._slots(game_id, home, SEAT_SLOT)).items()}
        for member in sorted(wanted - muted):
            done = await self.voice.set(game_id, voice, member, True, reason)
            seat = seat_of.get(member, 0)
            if done is Mute.UNMUTABLE and seat not in told:
                told.add(seat)
                news.append(cat.text("dc-voice-unmutable", seat=seat))
            elif done is Mute.NO_RIGHT:
                if 0 not in told:
                    told.add(0)
                    news.append(cat.text("dc-voice-no-right"))
                break
        for member in sorted(muted - wanted):
            await self.voice.set(game_id, voice, member, False, reason)
        if news:
            await self._dm(judge, "\n".join(news))

    async def voice_joined(self, voice_id: int, member_id: int, muted: bool) -> None:
        """A member is in voice channel ``voice_id`` (``muted``: server-muted now): the voice
        table bound to it — a host table, or a judge's game — gives him the mute of the moment."""
        if self.host is not None:
            await self.host.voice_joined(voice_id, member_id, muted)
        bound = self._voice_games.get(voice_id)
        if bound is None:
            return
        home, game_id = bound
        async with self._lock(home):
            current = await self.service.current(home)
            if current is not None and current.game_id == game_id:
                await self._sync_voice(game_id, home, current.judge, current.state)

    async def voice_left(self, voice_id: int, member_id: int) -> None:
        """A member leaves voice channel ``voice_id``: a host table gives a seated player his
        grace; a judge is told that a seat's member has left (leaving the table, seed 4.2.1, is
        his call)."""
        if self.host is not None:
            await self.host.voice_left(voice_id, member_id)
        bound = self._voice_games.get(voice_id)
        if bound is None:
            return
        home, game_id = bound
        current = await self.service.current(home)
        seats = await self._slots(game_id, home, SEAT_SLOT)
        seat = next((s for s, m in seats.items() if m == member_id), None)
        if current is None or current.game_id != game_id or seat is None \
                or current.state.phase in (Phase.SETUP, Phase.GAME_OVER) \
                or not current.state.seat(seat).at_table:
            return
        cat = await self.cat(home)
        await self._dm(current.judge, cat.text("dc-voice-left", seat=seat,
                                               channel=mention_channel(chat_key(voice_id))))

    async def voice_refresh(self) -> None:
        """Every voice table gives everyone in its channel the mute of the moment (once the
        server's voice states are known, after a restart)."""
        if self.host is not None:
            for voice_id in sorted(self.host.voice_channels()):
                for member_id, muted in self.voice.present(voice_id).items():
                    await self.host.voice_joined(voice_id, member_id, muted)
        for voice_id, (home, game_id) in sorted(self._voice_games.items()):
            async with self._lock(home):
                current = await self.service.current(home)
                if current is not None and current.game_id == game_id:
                    await self._sync_voice(game_id, home, current.judge, current.state)

    # --- slash commands: the front door (bot.front) ---------------------------------------------
    async def slash(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A slash command, as its typed line (:func:`.slash.line`), handed to the router as an
        :class:`bot.front.Entry`. Acknowledged at once; the answers are ephemeral (what is for
        the judge's eyes only goes to his direct messages)."""
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
        self._seen(interaction, home, user)
        channel = interaction.channel
        entry = Entry("dc", Place.CHANNEL, home, user, text, handle=interaction,
                      stamp=interaction.created_at.timestamp(),  # Discord's: when it was sent
                      name=mention_user(user), title=f"#{getattr(channel, 'name', '') or ''}")
        try:
            replies = await self._answered(user, await self.front.enter(entry) or [], cat)
        except Exception:
            log.exception("command %r failed", text)
            replies = [cat.text("error-internal")]
        files = [r for r in replies if isinstance(r, discord.File)]  # /stats' card, /top's table
        texts = [r for r in replies if isinstance(r, str) and r]
        await self.reply(interaction, "\n".join(texts) or cat.text("dc-done"), files)

    async def _answered(self, user: str, replies: Sequence[Reply], cat: Catalog) -> list[Any]:
        """The answers as ephemeral lines, a picture as a :class:`discord.File`; one for the
        asker's eyes only goes to his direct messages (an ephemeral answer holds 3 × 2000
        characters); one for another channel (the evening's table) is posted there."""
        out: list[Any] = []
        for reply in replies:
            if reply.chat is not None:
                files = [discord.File(io.BytesIO(reply.picture[1]), filename=reply.picture[0])] \
                    if reply.picture is not None else []
                await self._post(reply.chat, reply.text, files)
            elif not reply.private:
                out.append(reply.text)
                if reply.picture is not None:  # a discord.File, attached to the answer
                    out.append(discord.File(io.BytesIO(reply.picture[1]), filename=reply.picture[0]))
            elif await self._dm(user, reply.text):
                out.append(cat.text("judge-sent-privately"))
            else:
                out.append(cat.text("judge-unreachable", platform="dc"))
        return out

    # --- the platform's own commands (the router's PLATFORM part) --------------------------------
    def held(self, home: str) -> Any:
        return self._lock(home)

    def state(self, current: Any, place: Place) -> rules.GameState | None:
        return None

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool:
        """Manage Channels (``server``: Manage Server) where the command was typed."""
        permissions = getattr(entry.handle, "permissions", None)
        if permissions is None:
            return False
        return bool(permissions.manage_guild if server else permissions.manage_channels)

    async def run(self, call: Call) -> list[Reply]:
        """``/panel``, ``/link``, ``/unlink``, ``/seat`` (the judge's: the router has checked),
        ``/lang`` (the server's) and ``/channel`` (host mode's club channel, Manage Channels)."""
        command = call.command
        home, cat = call.home, call.cat
        if isinstance(command, SetLang):
            return [Reply(text) for text in await self._lang(call, command.lang)]
        if isinstance(command, SetChannel):
            assert self.host is not None
            return [Reply(text) for text in await self.host.set_channel(home, command.target)]
        game = call.current
        assert game is not None  # Who.JUDGE
        if isinstance(command, ShowPanel):
            shown = await self.judge.show_panel(home, game, fresh=True)
            replies = [Reply(cat.text("judge-panel-sent", platform="dc") if shown
                             else cat.text("judge-unreachable", platform="dc"))]
            if self.web is not None and game.judge == call.user:  # the panel on a screen, by DM
                link = self.web.link(call.user, home, game.game_id)
                replies.append(Reply(cat.text("web-app-link", game=game.game_id, url=link,
                                              minutes=max(1, self.settings.web_link_ttl // 60)),
                                     private=True))
            return replies
        if isinstance(command, Link):
            if command.channel is None:
                raise CommandError("missing_argument", command="link", argument="channel")
            return [Reply(text) for text in await self._link(home, game, chat_key(command.channel))]
        if isinstance(command, Unlink):
            await self.service.set_announce(game.game_id, None)
            return [Reply(cat.text("dc-unlinked"))]
        assert isinstance(command, MapSeat), command
        return [Reply(text) for text in await self._seat(home, game, command.seat, command.member)]

    async def _lang(self, call: Call, lang: str) -> list[str]:
        """The server's language (its games' judges or a member with Manage Server: the router
        has checked)."""
        interaction = call.entry.handle
        guild_id = interaction.guild_id
        assert guild_id is not None
        key = guild_key(guild_id)
        await self.service.set_lang(key, lang)
        self._langs[key] = lang
        current = call.current
        if current is not None and current.state.phase is not Phase.GAME_OVER:
            await self.judge.show_panel(call.home, current, repost=False)
        return [discord_catalog(lang).text("console-lang")]

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
            await self.judge.show_panel(home, game, repost=False)
        return [cat.text("dc-linked", channel=mention_channel(club))]

    async def _seat(self, home: str, game: Outcome, seat: int, member: int | None) -> list[str]:
        """``/seat 5 @member``: whose seat it is (one seat per member), for removal timeouts;
        without a member the seat is unmapped."""
        cat = await self.cat(home)
        seats = await self._slots(game.game_id, home, SEAT_SLOT)
        if member is not None:  # one player, one seat: not the club player of another seat
            accounts = {s: user_key(m) for s, m in seats.items() if m != member and s != seat}
            accounts[seat] = user_key(member)
            names = {s.number: s.name for s in game.state.seats if s.name is not None}
            club = await self.service.announce(game.game_id) or home
            clash = await self.judge.same_player(club, seat, names, accounts)
            if clash is not None:
                return [cat.text("club-seat-same-player", seat=seat, other=clash)]
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
        await self._apply_timeouts(home, game.game_id, game.judge, removed_seats(game.state))
        await self._sync_voice(game.game_id, home, game.judge, game.state)
        return replies

    # --- button presses -------------------------------------------------------------------------
    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A button (:class:`.layout.PanelButton`, :class:`.host.HostButton`), for the router
        (:meth:`bot.front.Front.press`): a judge's panel acts on the game its data names, in
        that game's channel (a press of a game Discord does not have is told so)."""
        user = user_key(interaction.user.id)
        entry = Entry("dc", Place.DM, user, user, custom_id, handle=interaction,
                      name=host_player(interaction.user).name)
        if is_host_button(custom_id):
            await self.front.press(entry)
            return
        press = decode(custom_id)
        row = await self.service.game_row(press.game_id) if press is not None else None
        if press is None or row is None or not is_discord(row.chat):
            await self.reply(interaction, discord_catalog(self.settings.lang).text("judge-press-unknown"))
            return
        self._seen(interaction, None, user)
        await self.front.press(entry, home=row.chat)


# --- building and running ---------------------------------------------------------------------------

def build_client(settings: Settings, service: Service | None = None, **options: Any) -> RefereeClient:
    """The client of judge mode (``options``: :class:`DiscordReferee`'s; ``timer_scale`` is
    ``settings.telegram_timer_scale`` unless given). ``service=None``: the store at
    ``settings.db`` is opened when the client logs in and closed when it closes. With
    ``settings.discord_base_url`` it talks to that server instead of Discord."""
    options.setdefault("timer_scale", settings.telegram_timer_scale)
    web = options.pop("web", None)
    referee = DiscordReferee(settings, service, **options)
    if web is None and settings.web:  # the table on a screen (bot.web); `both` shares one
        from ..web.server import WebLayer

        web = WebLayer(settings, clock=referee.clock)
    if web is not None:
        web.attach("dc", referee)
        referee.web = web
    sharding = referee.shards.client_options()
    kind = ShardedRefereeClient if sharding else RefereeClient
    return kind(referee, base_url=settings.discord_base_url, **sharding)


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

    async def runner() -> None:
        lifecycle.stop_on_sigterm()  # systemctl stop, docker stop: as Ctrl+C
        async with client:
            await client.start(token)

    try:
        asyncio.run(runner())
    except (KeyboardInterrupt, asyncio.CancelledError):
        return 0
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
