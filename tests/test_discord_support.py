"""Helpers of the Discord tests (no tests here): the real discord.py client of judge mode, fed
Discord's own payloads, over a fake of Discord's HTTP API.

dpytest (0.7.0, the newest) drives prefix commands with discord.py 2.7 but has no interactions:
no slash commands, no buttons. So this harness goes one level lower, and keeps everything
above the wire real:

* :class:`FakeDiscord` stands in for Discord's REST API: it replaces the client's
  ``HTTPClient.request`` and the webhook adapter's ``request`` (interaction responses and
  follow-ups), answers with the payloads Discord documents (messages, DM channels, members,
  interaction callbacks), keeps every version of every message, and can refuse what a real
  server refuses (a channel the bot may not post in, closed DMs, a timeout without Moderate
  Members) with the same ``discord.Forbidden``;
* :class:`DiscordTable` feeds the client gateway payloads as the gateway would: GUILD_CREATE
  for the server, INTERACTION_CREATE for each slash command and each button press. discord.py
  itself parses them, resolves the command and its options in its ``CommandTree``, rebuilds the
  pressed button from the message's components (``DynamicItem``), and sends its answers through
  the fake.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, AsyncIterator, Callable

import discord
import discord.interactions
import discord.webhook.async_ as webhook_async
from discord.http import HTTPClient, Route

import rules
from bot.discord.app import DiscordReferee, RefereeClient, build_client
from bot.service import Service
from bot.settings import Settings
from storage import Store

APP_ID = 900_000_000_000_000_001  # the bot user's id is the application's id
GUILD_ID = 900_000_000_000_000_100
TABLE_ID = 900_000_000_000_000_200  # the game's text channel
CLUB_ID = 900_000_000_000_000_201  # the club's results channel
EPHEMERAL_CHANNEL = 1  # where the fake keeps ephemeral answers: seen by their member only
TIMESTAMP = "2024-05-01T18:00:00+00:00"

_EPHEMERAL = 64


def user_payload(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name.lower(), "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot}


@dataclass
class Version:
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[dict[str, Any]]


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: dict[str, Any]
    versions: list[Version]
    deleted: bool = False
    flags: int = 0
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def now(self) -> Version:
        return self.versions[-1]

    @property
    def text(self) -> str:
        """The text as the member reads it: the content and the embeds' titles and descriptions."""
        parts = [self.now.content or ""]
        for embed in self.now.embeds:
            parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
        return "\n".join(p for p in parts if p)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.now.components for c in row.get("components", [])]

    def button(self, label: str) -> dict[str, Any] | None:
        return next((b for b in self.buttons if b.get("label") == label), None)

    def payload(self) -> dict[str, Any]:
        now = self.now
        return {"id": str(self.id), "channel_id": str(self.channel_id), "type": 0,
                "content": now.content, "author": self.author, "attachments": now.attachments,
                "embeds": now.embeds, "components": now.components, "mentions": [],
                "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
                "timestamp": TIMESTAMP, "edited_timestamp": None, "flags": self.flags}


@dataclass
class Reply:
    """An answer to an interaction: its response or a follow-up."""

    interaction: int
    user: int
    content: str
    ephemeral: bool
    kind: str  # "message" | "followup" | "update" | "defer" | "thinking" | "defer_update"


@dataclass
class Call:
    method: str
    path: str
    url: str
    payload: Any


def _forbidden(code: int, message: str) -> discord.Forbidden:
    return discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),  # type: ignore[arg-type]
                             {"code": code, "message": message})


def _not_found(message: str) -> discord.NotFound:
    return discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),  # type: ignore[arg-type]
                            {"code": 10008, "message": message})


class FakeDiscord:
    """Discord's REST API as far as judge mode uses it, in memory."""

    def __init__(self) -> None:
        self._ids = itertools.count(950_000_000_000_000_000)
        self.bot = user_payload(APP_ID, "Referee", bot=True)
        self.users: dict[int, dict[str, Any]] = {APP_ID: self.bot}
        self.channels: dict[int, dict[str, Any]] = {}
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, FakeMessage] = {}
        self.calls: list[Call] = []
        self.replies: list[Reply] = []
        self.timeouts: dict[int, str | None] = {}  # member id -> communication_disabled_until
        self.no_post: set[int] = set()  # channels the bot may not post in
        self.closed_dms: set[int] = set()  # users who accept no DMs from the server's members
        self.can_timeout = True  # Moderate Members
        self.published: list[dict[str, Any]] = []
        self.overwrites: dict[tuple[int, int], dict[str, Any]] = {}  # (channel, member) -> overwrite
        self.can_overwrite = True  # Manage Permissions in the channel
        self._interactions: dict[str, tuple[int, int, int | None]] = {}  # token -> (id, user, message)

    def snowflake(self) -> int:
        return next(self._ids)

    # --- the world ------------------------------------------------------------------------------
    def add_user(self, name: str) -> dict[str, Any]:
        user = user_payload(self.snowflake(), name)
        self.users[int(user["id"])] = user
        return user

    def add_channel(self, channel_id: int, name: str) -> dict[str, Any]:
        channel = {"id": str(channel_id), "type": 0, "name": name, "position": len(self.channels),
                   "guild_id": str(GUILD_ID), "permission_overwrites": [], "nsfw": False,
                   "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None}
        self.channels[channel_id] = channel
        return channel

    def guild_payload(self) -> dict[str, Any]:
        everyone = {"id": str(GUILD_ID), "name": "@everyone", "permissions": str(discord.Permissions.general().value),
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False}
        me = {"user": self.bot, "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0}
        return {"id": str(GUILD_ID), "name": "Mafia club", "owner_id": str(APP_ID + 1), "roles": [everyone],
                "channels": list(self.channels.values()), "members": [me], "emojis": [], "stickers": [],
                "features": [], "member_count": 2, "unavailable": False, "preferred_locale": "ru",
                "large": False, "threads": [], "voice_states": [], "presences": []}

    def member_payload(self, uid: int, permissions: discord.Permissions | None = None) -> dict[str, Any]:
        member = {"user": self.users[uid], "roles": [], "joined_at": TIMESTAMP, "deaf": False,
                  "mute": False, "flags": 0,
                  "communication_disabled_until": self.timeouts.get(uid)}
        if permissions is not None:
            member["permissions"] = str(permissions.value)
        return member

    def dm_of(self, uid: int) -> int:
        if uid not in self.dms:
            self.dms[uid] = self.snowflake()
        return self.dms[uid]

    # --- what happened ---------------------------------------------------------------------------
    def in_channel(self, channel_id: int, *, deleted: bool = True) -> list[FakeMessage]:
        return [m for m in self.messages.values()
                if m.channel_id == channel_id and (deleted or not m.deleted)]

    def texts(self, channel_id: int) -> list[str]:
        """Every version of every message posted in a channel, oldest first."""
        out: list[str] = []
        for message in self.in_channel(channel_id):
            for version in message.versions:
                parts = [version.content or ""]
                for embed in version.embeds:
                    parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
                out.append("\n".join(p for p in parts if p))
        return out

    def replies_to(self, user: int) -> list[Reply]:
        return [r for r in self.replies if r.user == user]

    # --- the REST API -----------------------------------------------------------------------------
    def _message(self, channel_id: int, body: dict[str, Any], files: dict[str, bytes],
                 flags: int = 0) -> FakeMessage:
        attachments = [{"id": str(self.snowflake()), "filename": name, "size": len(data),
                        "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}"}
                       for name, data in files.items()]
        message = FakeMessage(self.snowflake(), channel_id, self.bot, [Version(
            body.get("content") or "", list(body.get("embeds") or []),
            list(body.get("components") or []), attachments)], flags=flags, files=dict(files))
        self.messages[message.id] = message
        return message

    @staticmethod
    def _body(payload: Any, form: Any) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The JSON body and the files of a request (a multipart form when files are sent)."""
        if not form:
            return dict(payload or {}), {}
        body: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for part in form:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            else:
                value = part["value"]
                files[part.get("filename") or part["name"]] = value.read() if hasattr(value, "read") else value
        return body, files

    async def rest(self, route: Route, payload: Any, form: Any) -> Any:
        method, path = route.method, route.path
        self.calls.append(Call(method, path, route.url, payload))
        ids = [int(x) for x in re.findall(r"/([0-9]{5,})", route.url)]
        if method == "POST" and path == "/channels/{channel_id}/messages":
            channel_id = ids[0]
            if channel_id in self.no_post:
                raise _forbidden(50013, "Missing Permissions")
            dm_user = next((u for u, c in self.dms.items() if c == channel_id), None)
            if dm_user is not None and dm_user in self.closed_dms:
                raise _forbidden(50007, "Cannot send messages to this user")
            body, files = self._body(payload, form)
            return self._message(channel_id, body, files).payload()
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(ids[1])
            if message is None or message.deleted:
                raise _not_found("Unknown Message")
            body, _ = self._body(payload, form)
            now = message.now
            message.versions.append(Version(
                body.get("content", now.content) or "", list(body.get("embeds", now.embeds) or []),
                list(body.get("components", now.components) or []), now.attachments))
            return message.payload()
        if method == "DELETE" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(ids[1])
            if message is None or message.deleted:
                raise _not_found("Unknown Message")
            message.deleted = True
            return None
        if method == "POST" and path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            return {"id": str(self.dm_of(uid)), "type": 1, "recipients": [self.users[uid]],
                    "last_message_id": None}
        member_path = path in ("/guilds/{guild_id}/members/{user_id}", "/guilds/{guild_id}/members/{member_id}")
        if method == "GET" and member_path:
            return self.member_payload(ids[1])
        if method == "PATCH" and member_path:
            if not self.can_timeout:
                raise _forbidden(50013, "Missing Permissions")
            uid = ids[1]
            self.timeouts[uid] = payload.get("communication_disabled_until")
            return self.member_payload(uid)
        if method == "PUT" and path in ("/applications/{application_id}/commands",
                                        "/applications/{application_id}/guilds/{guild_id}/commands"):
            self.published = list(payload)  # the slash commands, as the bot publishes them
            return [{**c, "id": str(self.snowflake()), "application_id": str(APP_ID), "version": "1"}
                    for c in payload]
        if path == "/channels/{channel_id}/permissions/{target}" and method in ("PUT", "DELETE"):
            if not self.can_overwrite:
                raise _forbidden(50013, "Missing Permissions")
            if method == "PUT":
                self.overwrites[(ids[0], ids[1])] = dict(payload)
            else:
                self.overwrites.pop((ids[0], ids[1]), None)
            return None
        if method == "GET" and path == "/channels/{channel_id}":
            return self.channels[ids[0]]
        if method == "GET" and path == "/guilds/{guild_id}":
            return self.guild_payload()
        raise AssertionError(f"the fake has no {method} {path}")

    async def webhook(self, route: Route, payload: Any, multipart: Any) -> Any:
        method, path = route.method, route.path
        self.calls.append(Call(method, path, route.url, payload))
        body, files = self._body(payload, multipart)
        token = str(route.webhook_token)
        interaction, user, pressed = self._interactions[token]
        data = body.get("data") or {}
        if method == "POST" and path == "/interactions/{webhook_id}/{webhook_token}/callback":
            kind = int(body["type"])
            flags = int(data.get("flags") or 0)
            names = {4: "message", 5: "thinking", 6: "defer_update", 7: "update"}
            self.replies.append(Reply(interaction, user, data.get("content") or "",
                                      bool(flags & _EPHEMERAL), names.get(kind, str(kind))))
            result: dict[str, Any] = {"interaction": {
                "id": str(interaction), "type": 2, "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & _EPHEMERAL)}, "resource": {"type": kind}}
            if kind == 7 and pressed is not None:  # the pressed message is edited
                message = self.messages[pressed]
                now = message.now
                message.versions.append(Version(
                    data.get("content", now.content) or "", list(data.get("embeds", now.embeds) or []),
                    list(data.get("components", now.components) or []), now.attachments))
                result["interaction"]["response_message_id"] = str(message.id)
                result["resource"]["message"] = message.payload()
            elif kind == 4:
                channel = EPHEMERAL_CHANNEL if flags & _EPHEMERAL else self.dms.get(user, TABLE_ID)
                message = self._message(channel, data, files, flags=flags)
                result["interaction"]["response_message_id"] = str(message.id)
                result["resource"]["message"] = message.payload()
            return result
        if method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            flags = int(body.get("flags") or 0)
            self.replies.append(Reply(interaction, user, body.get("content") or "",
                                      bool(flags & _EPHEMERAL), "followup"))
            channel = EPHEMERAL_CHANNEL if flags & _EPHEMERAL else TABLE_ID
            return self._message(channel, body, files, flags=flags).payload()
        raise AssertionError(f"the fake has no webhook {method} {path}")

    def remember(self, token: str, interaction: int, user: int, message: int | None) -> None:
        self._interactions[token] = (interaction, user, message)


class FakeHTTP(HTTPClient):
    """discord.py's HTTP client with its wire replaced by :class:`FakeDiscord`."""

    def __init__(self, fake: FakeDiscord, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self.fake = fake
        self.token = "fake-token"

    async def request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        return await self.fake.rest(route, kwargs.get("json"), form)


class FakeWebhookAdapter(webhook_async.AsyncWebhookAdapter):
    """Interaction responses and follow-ups (discord.py sends them through its webhook adapter)."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route: Route, session: Any, *, payload: Any = None, multipart: Any = None,
                      **kwargs: Any) -> Any:
        return await self.fake.webhook(route, payload, multipart)


def settings_for(db: Path, *, lang: str = "ru") -> Settings:
    return Settings(db=db, lang=lang, discord_token="fake-token")


MANAGE_CHANNELS = discord.Permissions(manage_channels=True)
BOT_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                 moderate_members=True)

# Option types of the Discord API (ApplicationCommandOptionType).
_USER, _CHANNEL = 6, 7
_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_interaction", "discord.py: on_message")


@dataclass
class DiscordTable:
    """One judge at one table: the server, the game's channel, the club channel, the members."""

    fake: FakeDiscord
    client: RefereeClient
    service: Service
    judge: dict[str, Any]
    players: list[dict[str, Any]]
    admin: dict[str, Any]
    app_permissions: discord.Permissions = field(default_factory=lambda: BOT_RIGHTS)
    _ids: Any = field(default_factory=lambda: itertools.count(960_000_000_000_000_000))

    @property
    def referee(self) -> DiscordReferee:
        return self.client.referee

    @property
    def home(self) -> str:
        return f"dc:{TABLE_ID}"

    async def settle(self) -> None:
        """Until every command and press dispatched so far has been handled."""
        while True:
            pending = [t for t in asyncio.all_tasks()
                       if not t.done() and t.get_name().startswith(_TASKS) and t is not asyncio.current_task()]
            if not pending:
                return
            done, _ = await asyncio.wait(pending, timeout=30)
            assert done, "a handler did not finish"

    def _interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any], *,
                     channel: dict[str, Any], member: dict[str, Any] | None,
                     message: FakeMessage | None = None) -> dict[str, Any]:
        interaction = next(self._ids)
        token = f"token-{interaction}"
        self.fake.remember(token, interaction, int(user["id"]), message.id if message else None)
        payload: dict[str, Any] = {
            "id": str(interaction), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "channel": channel, "channel_id": channel["id"], "data": data,
            "app_permissions": str(self.app_permissions.value), "locale": "ru",
            "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
        }
        if member is not None:
            payload.update(guild_id=str(GUILD_ID), member=member, guild_locale="ru", context=0)
        else:
            payload.update(user=user, context=1)
        if message is not None:
            payload["message"] = message.payload()
        return payload

    async def slash(self, name: str, /, *, actor: dict[str, Any] | None = None,
                    perms: discord.Permissions | None = None, where: int = TABLE_ID,
                    **options: Any) -> str:
        """``actor`` (the judge by default, with ``perms`` in the channel) runs
        ``/name option:value …`` in channel ``where``; the answers he sees, joined."""
        user = actor or self.judge
        command = self.client.tree.get_command(name)
        assert command is not None, name
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for key, value in options.items():
            if value is None:
                continue
            param = command.get_parameter(key)  # type: ignore[union-attr]
            assert param is not None, (name, key)
            kind = param.type.value
            if kind == _USER:
                uid = int(value["id"])
                resolved.setdefault("users", {})[str(uid)] = self.fake.users[uid]
                member = self.fake.member_payload(uid, discord.Permissions.none())
                member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = member
                value = str(uid)
            elif kind == _CHANNEL:
                channel_data = self.fake.channels[int(value)]
                resolved.setdefault("channels", {})[str(value)] = {
                    "id": channel_data["id"], "name": channel_data["name"], "type": 0,
                    "permissions": str(discord.Permissions.all().value), "guild_id": str(GUILD_ID)}
                value = str(value)
            opts.append({"name": key, "type": kind, "value": value})
        data = {"id": str(APP_ID + 7), "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        member = self.fake.member_payload(int(user["id"]), perms or discord.Permissions.none())
        payload = self._interaction(2, user, data, channel=self.fake.channels[where], member=member)
        before = len(self.fake.replies)
        self.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return "\n".join(r.content for r in self.fake.replies[before:] if r.content)

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
        channel = {"id": str(message.channel_id), "type": 1, "recipients": [presser]}
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction(3, presser, data, channel=channel, member=None, message=message)
        before = len(self.fake.replies)
        self.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return "\n".join(r.content for r in self.fake.replies[before:] if r.content and r.user == uid)

    async def write(self, author: dict[str, Any], content: str, *, channel: int = TABLE_ID) -> None:
        """``author`` writes ``content`` in a server channel (``channel``), or in his direct
        messages with the bot (``channel=0``), delivered as the gateway's MESSAGE_CREATE."""
        uid = int(author["id"])
        payload: dict[str, Any] = {
            "id": str(self.fake.snowflake()), "type": 0, "content": content, "author": author,
            "attachments": [], "embeds": [], "components": [], "mentions": [], "mention_roles": [],
            "pinned": False, "mention_everyone": False, "tts": False, "timestamp": TIMESTAMP,
            "edited_timestamp": None, "flags": 0}
        if channel:
            payload.update(channel_id=str(channel), guild_id=str(GUILD_ID),
                           member={k: v for k, v in self.fake.member_payload(uid).items() if k != "user"})
        else:
            payload["channel_id"] = str(self.fake.dm_of(uid))
        self.client._connection.parse_message_create(payload)  # type: ignore[arg-type]
        await self.settle()

    def dm(self, user: dict[str, Any] | None = None) -> list[str]:
        uid = int((user or self.judge)["id"])
        return [m.now.content for m in self.fake.in_channel(self.fake.dms.get(uid, -1)) if m.now.content]

    def public(self, channel: int = TABLE_ID) -> list[str]:
        return self.fake.texts(channel)

    async def state(self) -> rules.GameState:
        current = await self.service.current(self.home)
        assert current is not None
        return current.state


def install_fake(fake: FakeDiscord, client: RefereeClient, loop: asyncio.AbstractEventLoop) -> None:
    http = FakeHTTP(fake, loop)
    client.http = http
    client._connection.http = http
    client.tree._http = http  # the command tree keeps its own reference (for sync)


@asynccontextmanager
async def table(db: Path, monkeypatch: Any, *, lang: str = "ru", service: Service | None = None,
                fake: FakeDiscord | None = None, **options: Any) -> AsyncIterator[DiscordTable]:
    """A server with the game's channel and a club channel, a judge, ten players and an admin
    (Manage Channels), the bot logged in over the fake."""
    fake = fake or FakeDiscord()
    adapter = FakeWebhookAdapter(fake)
    context: contextvars.ContextVar[webhook_async.AsyncWebhookAdapter] = contextvars.ContextVar(
        "fake_webhook_context", default=adapter)
    monkeypatch.setattr(webhook_async, "async_context", context)
    monkeypatch.setattr(discord.interactions, "async_context", context)
    store = None
    if service is None:
        store = await Store.open(db)
        service = Service(store)
    options.setdefault("sync", False)
    options.setdefault("protocol", False)
    client = build_client(settings_for(db, lang=lang), service, **options)
    install_fake(fake, client, asyncio.get_running_loop())
    try:
        await client._async_setup_hook()
        client._connection.user = discord.ClientUser(state=client._connection, data=fake.bot)  # type: ignore[arg-type]
        client._connection.application_id = APP_ID
        await client.setup_hook()
        for channel_id, name in ((TABLE_ID, "table-1"), (CLUB_ID, "club-results")):
            if channel_id not in fake.channels:
                fake.add_channel(channel_id, name)
        client._connection.parse_guild_create(fake.guild_payload())  # type: ignore[arg-type]
        judge = next((u for u in fake.users.values() if u["global_name"] == "Judge"), None) or fake.add_user("Judge")
        players = [next((u for u in fake.users.values() if u["global_name"] == f"Player{n}"), None)
                   or fake.add_user(f"Player{n}") for n in range(1, 11)]
        admin = next((u for u in fake.users.values() if u["global_name"] == "Admin"), None) or fake.add_user("Admin")
        yield DiscordTable(fake, client, service, judge, players, admin)
    finally:
        await client.referee.shutdown()
        await client.close()
        if store is not None:
            await store.close()


async def wait_for(condition: Callable[[], bool], *, timeout: float = 10.0, what: str = "") -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.01)
