"""Helpers of the Discord tests (no tests here): the real discord.py client of judge and host
mode, unpatched, against the fake Discord over the wire (``tests/fakediscord``).

dpytest (0.7.0, the newest) drives prefix commands with discord.py 2.7 but has no interactions:
no slash commands, no buttons. So this harness goes one level lower, and keeps everything
above the wire real:

* :class:`fakediscord.FakeDiscordServer` serves Discord's REST API and gateway on 127.0.0.1 over
  :class:`fakediscord.FakeDiscord` (every version of every message, DM channels, members,
  interaction callbacks; it refuses what a real server refuses: a channel the bot may not post
  in, closed DMs, a timeout without Moderate Members); the client reaches it through
  ``MAFIA_REFEREE_DISCORD_BASE_URL`` (:mod:`bot.discord.endpoint`), logs in, identifies on the
  gateway and gets the server's GUILD_CREATE;
* :class:`DiscordTable` dispatches gateway events as Discord would: INTERACTION_CREATE for each
  slash command and each button press, MESSAGE_CREATE for what a member writes. discord.py
  itself parses them, resolves the command and its options in its ``CommandTree``, rebuilds the
  pressed button from the message's components (``DynamicItem``), and sends its answers over
  HTTP to the fake.
"""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import discord

import rules
from bot.discord.app import DiscordReferee, RefereeClient, build_client
from bot.service import Service
from bot.settings import Settings
from fakediscord import EPHEMERAL_CHANNEL, FakeDiscord, FakeDiscordServer, FakeMessage
from storage import Store

TABLE_ID = 900_000_000_000_000_200  # the game's text channel
CLUB_ID = 900_000_000_000_000_201  # the club's results channel
VOICE_ID = 900_000_000_000_000_202  # the table's voice channel
LOUNGE_ID = 900_000_000_000_000_203  # another voice channel of the server

__all__ = ["BOT_RIGHTS", "CLUB_ID", "EPHEMERAL_CHANNEL", "LOUNGE_ID", "MANAGE_CHANNELS", "TABLE_ID",
           "VOICE_ID", "DiscordTable",
           "FakeDiscord", "FakeMessage", "settings_for", "table", "wait_for"]


def settings_for(db: Path | str, server: FakeDiscordServer, *, lang: str = "ru", **extra: Any) -> Settings:
    """The bot's settings against ``server`` (``extra``: other settings, e.g. the shards)."""
    return Settings(db=db, lang=lang, discord_token=server.fake.token, discord_base_url=server.base_url,
                    **extra)


MANAGE_CHANNELS = discord.Permissions(manage_channels=True)
BOT_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                 moderate_members=True)

_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_interaction", "discord.py: on_message",
          "discord.py: on_raw_message_edit",
          "discord.py: on_voice_state_update", "discord.py: on_guild_available")
HANDLED = 10.0  # s: how long the client may take to read a dispatched event (generous)


@dataclass
class DiscordTable:
    """One judge at one table: the server, the game's channel, the club channel, the members."""

    fake: FakeDiscord
    server: FakeDiscordServer
    client: RefereeClient
    service: Service
    judge: dict[str, Any]
    players: list[dict[str, Any]]
    admin: dict[str, Any]
    app_permissions: discord.Permissions = field(default_factory=lambda: BOT_RIGHTS)
    last_interaction: dict[str, Any] | None = None  # the last INTERACTION_CREATE dispatched

    @property
    def referee(self) -> DiscordReferee:
        return self.client.referee

    @property
    def home(self) -> str:
        return f"dc:{TABLE_ID}"

    async def settle(self) -> None:
        """Until every command and press dispatched so far has been handled, and what it sent
        in the background (private messages, the club channel) has left."""
        while True:
            pending = [t for t in asyncio.all_tasks()
                       if not t.done() and t.get_name().startswith(_TASKS) and t is not asyncio.current_task()]
            if not pending:
                break
            done, _ = await asyncio.wait(pending, timeout=30)
            assert done, "a handler did not finish"
        await asyncio.wait_for(self.referee.outbox.settle(), 30)

    async def _deliver(self, event: str, payload: dict[str, Any], parsed: str) -> None:
        """Send a gateway event and wait until the client has parsed it (``parsed``: the event
        discord.py dispatches for it, after its parser started the handlers), then until they
        are done."""
        wanted = int(payload["id"])
        if event == "INTERACTION_CREATE":
            self.last_interaction = payload
        seen = asyncio.ensure_future(self.client.wait_for(
            parsed, check=lambda item: int(item.id) == wanted, timeout=HANDLED))
        await asyncio.sleep(0)  # the listener is registered before the event can arrive
        sent = await self.server.dispatch(event, payload)
        assert sent is not None, "the bot is not connected to the gateway"
        await seen
        await self.settle()

    async def slash(self, name: str, /, *, actor: dict[str, Any] | None = None,
                    perms: discord.Permissions | None = None, where: int = TABLE_ID,
                    written_at: float | None = None, **options: Any) -> str:
        """``actor`` (the judge by default, with ``perms`` in the channel) runs
        ``/name option:value …`` in channel ``where`` (``written_at``: Discord's stamp of it,
        Unix seconds); the answers he sees, joined."""
        command = self.client.tree.get_command(name)
        assert command is not None, name
        opts: list[tuple[str, int, Any]] = []
        for key, value in options.items():
            param = command.get_parameter(key)  # type: ignore[union-attr]
            assert param is not None, (name, key)
            if value is not None:
                opts.append((key, param.type.value, value))
        payload = self.fake.slash_payload(actor or self.judge, name, opts, channel=where,
                                          perms=perms or discord.Permissions.none(),
                                          app_permissions=self.app_permissions, written_at=written_at)
        before = len(self.fake.replies)
        await self._deliver("INTERACTION_CREATE", payload, "interaction")
        return "\n".join(r.content for r in self.fake.replies[before:] if r.content)

    async def close_steps(self, count: int = 1) -> None:
        """End the hosted table's running step ``count`` times, as its timer does (the step's
        own close, under the channel's lock)."""
        host = self.referee.host
        assert host is not None
        for _ in range(count):
            table = host.controller.tables_in(self.home)[-1]
            async with host.controller.held(table.chat):
                await host.controller.close_step(table)

    def panel(self, user: dict[str, Any] | None = None) -> FakeMessage:
        """The judge's panel: the newest message with buttons in his DMs."""
        uid = int((user or self.judge)["id"])
        dm = self.fake.dms.get(uid)
        live = [m for m in self.fake.in_channel(dm or -1, deleted=False) if m.now.embeds]
        assert live, "no panel in the DMs"
        return live[-1]

    async def press(self, label: str, *, actor: dict[str, Any] | None = None,
                    message: FakeMessage | None = None, custom_id: str | None = None) -> str:
        """``actor`` (the judge by default) presses a button of a message (default: the judge's
        panel), as Discord delivers it: the message as it is now, the button's custom_id."""
        presser = actor or self.judge
        message = message or self.panel()
        if custom_id is None:
            button = message.button(label)
            assert button is not None, (label, [b.get("label") for b in message.buttons])
            custom_id = button["custom_id"]
        uid = int(presser["id"])
        payload = self.fake.press_payload(presser, message, custom_id, self.app_permissions)
        before = len(self.fake.replies)
        await self._deliver("INTERACTION_CREATE", payload, "interaction")
        return "\n".join(r.content for r in self.fake.replies[before:] if r.content and r.user == uid)

    async def write(self, author: dict[str, Any], content: str, *, channel: int = TABLE_ID,
                    written_at: float | None = None) -> int:
        """``author`` writes ``content`` in a server channel (``channel``), or in his direct
        messages with the bot (``channel=0``), delivered as the gateway's MESSAGE_CREATE;
        ``written_at``: Discord's stamp (Unix seconds), if the bot reads it late. Returns the
        message's id (:attr:`FakeDiscord.posts`)."""
        payload = self.fake.message_payload(author, content, channel, written_at=written_at)
        await self._deliver("MESSAGE_CREATE", payload, "message")
        return int(payload["id"])

    async def edit(self, message_id: int, content: str, *, edited_at: float) -> None:
        """Its author edits message ``message_id`` (one :meth:`write` sent) at ``edited_at``
        (Unix seconds): the gateway's MESSAGE_UPDATE, handled."""
        payload = self.fake.edit_payload(message_id, content, edited_at=edited_at)
        seen = asyncio.ensure_future(self.client.wait_for(
            "raw_message_edit", check=lambda event: event.message_id == message_id, timeout=HANDLED))
        await asyncio.sleep(0)
        sent = await self.server.dispatch("MESSAGE_UPDATE", payload)
        assert sent is not None, "the bot is not connected to the gateway"
        await seen
        await self.settle()

    async def again(self) -> None:
        """The last interaction delivered again, as it was (its id and token: the gateway's replay
        after a resume), and handled — or dropped as a repeat."""
        assert self.last_interaction is not None, "no interaction was delivered yet"
        wanted = int(self.last_interaction["id"])
        before = getattr(self.client, "repeated", 0)
        seen = asyncio.ensure_future(self.client.wait_for(
            "interaction", check=lambda item: int(item.id) == wanted, timeout=HANDLED))
        await asyncio.sleep(0)
        sent = await self.server.dispatch("INTERACTION_CREATE", self.last_interaction)
        assert sent is not None, "the bot is not connected to the gateway"
        await wait_for(lambda: seen.done() or getattr(self.client, "repeated", 0) > before, timeout=HANDLED,
                       what="the interaction handled or dropped")
        seen.cancel()
        await self.settle()

    async def voice(self, member: dict[str, Any], channel: int | None, *,
                    self_mute: bool | None = None, self_deaf: bool | None = None) -> None:
        """``member`` connects to (or moves to) voice channel ``channel``, leaves voice
        (``None``), or mutes or deafens himself: the gateway's VOICE_STATE_UPDATE, handled."""
        uid = int(member["id"])
        payload = self.fake.voice_update(uid, channel, self_mute=self_mute, self_deaf=self_deaf)
        seen = asyncio.ensure_future(self.client.wait_for(
            "voice_state_update", check=lambda who, before, after: who.id == uid, timeout=HANDLED))
        await asyncio.sleep(0)
        sent = await self.server.dispatch("VOICE_STATE_UPDATE", payload)
        assert sent is not None, "the bot is not connected to the gateway"
        await seen
        await self.settle()

    def read(self, user: dict[str, Any] | None = None) -> list[str]:
        """Everything the judge has read in his DMs: every version of every message, the
        panel's embed included (an action's notices are on the panel)."""
        return self.fake.texts(self.fake.dms.get(int((user or self.judge)["id"]), -1))

    def dm(self, user: dict[str, Any] | None = None) -> list[str]:
        uid = int((user or self.judge)["id"])
        return [m.now.content for m in self.fake.in_channel(self.fake.dms.get(uid, -1)) if m.now.content]

    def public(self, channel: int = TABLE_ID) -> list[str]:
        return self.fake.texts(channel)

    async def state(self) -> rules.GameState:
        current = await self.service.current(self.home)
        assert current is not None
        return current.state


def _member(fake: FakeDiscord, name: str) -> dict[str, Any]:
    """The member called ``name`` (added the first time: a second table over the same fake
    finds the same members)."""
    return next((u for u in fake.users.values() if u["global_name"] == name), None) or fake.add_user(name)


@asynccontextmanager
async def running(server: FakeDiscordServer, client: RefereeClient) -> AsyncIterator[None]:
    """``client`` started against ``server`` (logged in, its setup run, identified on the
    gateway, the guild in its cache), closed on the way out."""
    task = asyncio.create_task(client.start(server.fake.token), name="the Discord client")
    try:
        await server.wait_for(lambda: server.connected or task.done(), HANDLED, "the gateway")
        if task.done():
            task.result()  # its error
            raise AssertionError("the client stopped before it connected")
        guild = server.fake.guild_id
        await wait_for(lambda: client.get_guild(guild) is not None, timeout=HANDLED, what="GUILD_CREATE")
        yield
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@asynccontextmanager
async def table(db: Path, monkeypatch: Any = None, *, lang: str = "ru", service: Service | None = None,
                fake: FakeDiscord | None = None, settings: dict[str, Any] | None = None,
                **options: Any) -> AsyncIterator[DiscordTable]:
    """A server with the game's channel and a club channel, a judge, ten players and an admin
    (Manage Channels), the bot logged in over the fake Discord (``monkeypatch``: accepted for the
    callers' sake, nothing is patched); ``settings``: more of the bot's settings by name."""
    fake = fake or FakeDiscord()
    for channel_id, name in ((TABLE_ID, "table-1"), (CLUB_ID, "club-results")):
        if channel_id not in fake.channels:
            fake.add_channel(channel_id, name)
    for channel_id, name in ((VOICE_ID, "table-voice"), (LOUNGE_ID, "lounge")):
        if channel_id not in fake.channels:
            fake.add_voice_channel(channel_id, name)
    judge = _member(fake, "Judge")
    players = [_member(fake, f"Player{n}") for n in range(1, 11)]
    admin = _member(fake, "Admin")
    store = None
    if service is None:
        store = await Store.open(db)
        service = Service(store)
    options.setdefault("sync", False)
    options.setdefault("protocol", False)
    try:
        async with FakeDiscordServer(fake) as server:
            client = build_client(settings_for(db, server, lang=lang, **(settings or {})), service,
                                  **options)
            async with running(server, client):
                yield DiscordTable(fake, server, client, service, judge, players, admin)
    finally:
        if store is not None:
            await store.close()
    assert not fake.errors, fake.errors


async def wait_for(condition: Callable[[], bool], *, timeout: float = 10.0, what: str = "") -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.01)
