"""The fake Discord's world: one server (guild) with its text channels, members, direct messages
and every version of every message the bot posted, and Discord's REST API over it as the bot
uses it (:meth:`FakeDiscord.rest`), answered with the payloads Discord documents.

Nothing here knows HTTP: :mod:`.server` serves it on 127.0.0.1 (REST and the gateway). A refusal
is a :class:`FakeError` (the HTTP status and Discord's JSON error code), which the server turns
into the response Discord gives (403 Missing Permissions, 404 Unknown Message, …)."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

import discord

APP_ID = 900_000_000_000_000_001  # the bot user's id is the application's id
GUILD_ID = 900_000_000_000_000_100
BOT_ROLE = 900_000_000_000_000_101  # the bot's role (its rights: FakeDiscord.bot_role_permissions)
HIGH_ROLE = 900_000_000_000_000_102  # a role above the bot's (FakeDiscord.above_bot)
EPHEMERAL_CHANNEL = 1  # where the fake keeps ephemeral answers: seen by their member only
TIMESTAMP = "2024-05-01T18:00:00+00:00"
NONCE_WINDOW = 300.0  # seconds a message's nonce is remembered (Discord: "a few minutes")
DEFAULT_TOKEN = "fake-discord-token"

EPHEMERAL = 64  # the message flag
STRING_OPTION, INTEGER_OPTION, USER_OPTION, CHANNEL_OPTION = 3, 4, 6, 7  # ApplicationCommandOptionType


def user_payload(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name.lower(), "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot}


class FakeError(Exception):
    """Discord's refusal of a request: HTTP ``status``, JSON error ``code`` and ``message``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message


def forbidden(code: int, message: str) -> FakeError:
    return FakeError(403, code, message)


def not_found(message: str, code: int = 10008) -> FakeError:
    return FakeError(404, code, message)


@dataclass
class Version:
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[dict[str, Any]]

    @property
    def text(self) -> str:
        """The text as the member reads it: the content and the embeds' titles and descriptions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
        return "\n".join(p for p in parts if p)


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: dict[str, Any]
    versions: list[Version]
    deleted: bool = False
    flags: int = 0
    files: dict[str, bytes] = field(default_factory=dict)
    nonce: str | None = None  # the nonce it was created with, and when (``FakeDiscord.clock``)
    created: float = 0.0

    @property
    def now(self) -> Version:
        return self.versions[-1]

    @property
    def text(self) -> str:
        return self.now.text

    @property
    def texts(self) -> list[str]:
        """Every version's text, oldest first."""
        return [v.text for v in self.versions]

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
    at: float = 0.0  # when it arrived (time.time)


@dataclass
class Call:
    """A request the bot made: its method, route (discord.py's template, e.g.
    ``/channels/{channel_id}/messages``), full URL and JSON body."""

    method: str
    path: str
    url: str
    payload: Any
    at: float = 0.0
    status: int = 0  # the HTTP status it was answered with (0: not yet)


@dataclass
class Interaction:
    """An interaction the fake dispatched: who, where, on which message; answered or not."""

    id: int
    token: str
    user: int
    channel: int
    message: int | None
    answered: bool = False


class FakeDiscord:
    """Discord's REST API as far as the bot uses it, in memory. ``token``: the bot's token
    (requests without ``Authorization: Bot <token>`` are refused 401 by the server)."""

    def __init__(self, token: str = DEFAULT_TOKEN, *, guild_id: int = GUILD_ID) -> None:
        self.token = token
        self.guild_id = guild_id  # the one server (another one per world: tests of shards)
        # another server's world numbers its members, channels and messages apart
        self._ids = itertools.count(950_000_000_000_000_000 + (guild_id - GUILD_ID) * 1_000)
        self.bot = user_payload(APP_ID, "Referee", bot=True)
        self.users: dict[int, dict[str, Any]] = {APP_ID: self.bot}
        self.channels: dict[int, dict[str, Any]] = {}
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, FakeMessage] = {}  # what the bot posted
        self.posts: dict[int, FakeMessage] = {}  # what members wrote
        self.calls: list[Call] = []
        self.replies: list[Reply] = []
        self.timeouts: dict[int, str | None] = {}  # member id -> communication_disabled_until
        self.no_post: set[int] = set()  # channels the bot may not post in
        self.closed_dms: set[int] = set()  # users who accept no DMs from the server's members
        self.can_timeout = True  # Moderate Members
        self.published: list[dict[str, Any]] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" | "guild:<id>" -> its commands
        self.overwrites: dict[tuple[int, int], dict[str, Any]] = {}  # (channel, member) -> overwrite
        self.can_overwrite = True  # Manage Permissions in the channel
        self.interactions: dict[str, Interaction] = {}  # token -> the interaction
        self.answered: dict[int, Reply] = {}  # interaction id -> its response (the callback)
        self.errors: list[str] = []  # requests the fake could not serve (a test should fail)
        self.clock: Callable[[], float] = time.time
        # voice: who is connected where, with the server mute the bot sets (PATCH member ``mute``)
        self.voice: dict[int, dict[str, Any]] = {}  # member id -> his voice state (connected only)
        self.can_mute = True  # Mute Members (the bot's role)
        self.owner_id = APP_ID + 1  # the server's owner: nobody may mute him
        self.above_bot: set[int] = set()  # members with a role above the bot's
        self.events: list[tuple[str, dict[str, Any]]] = []  # gateway events a REST call caused
        self.server_muted: dict[int, bool] = {}  # member id -> server-muted (kept while he is away)

    def snowflake(self) -> int:
        return next(self._ids)

    # --- the world ------------------------------------------------------------------------------
    def add_user(self, name: str) -> dict[str, Any]:
        user = user_payload(self.snowflake(), name)
        self.users[int(user["id"])] = user
        return user

    def add_channel(self, channel_id: int, name: str) -> dict[str, Any]:
        channel = {"id": str(channel_id), "type": 0, "name": name, "position": len(self.channels),
                   "guild_id": str(self.guild_id), "permission_overwrites": [], "nsfw": False,
                   "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None}
        self.channels[channel_id] = channel
        return channel

    def add_voice_channel(self, channel_id: int, name: str) -> dict[str, Any]:
        """A voice channel (type 2) of the server."""
        channel = {"id": str(channel_id), "type": 2, "name": name, "position": len(self.channels),
                   "guild_id": str(self.guild_id), "permission_overwrites": [], "nsfw": False,
                   "bitrate": 64000, "user_limit": 0, "rtc_region": None, "parent_id": None,
                   "last_message_id": None, "rate_limit_per_user": 0}
        self.channels[channel_id] = channel
        return channel

    def _role(self, role_id: int, name: str, perms: discord.Permissions, position: int) -> dict[str, Any]:
        return {"id": str(role_id), "name": name, "permissions": str(perms.value), "position": position,
                "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}

    def bot_role_permissions(self) -> discord.Permissions:
        """The bot's role: what it may do in every channel (no overwrites in this server)."""
        return discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                   moderate_members=self.can_timeout, mute_members=self.can_mute,
                                   connect=True)

    def member_roles(self, uid: int) -> list[str]:
        if uid == APP_ID:
            return [str(BOT_ROLE)]
        return [str(HIGH_ROLE)] if uid in self.above_bot else []

    def guild_payload(self) -> dict[str, Any]:
        everyone = self._role(self.guild_id, "@everyone", discord.Permissions(view_channel=True), 0)
        roles = [everyone, self._role(BOT_ROLE, "Referee", self.bot_role_permissions(), 1),
                 self._role(HIGH_ROLE, "Moderators", discord.Permissions.none(), 2)]
        me = {"user": self.bot, "roles": self.member_roles(APP_ID), "joined_at": TIMESTAMP,
              "deaf": False, "mute": False, "flags": 0}
        in_voice = [self.member_payload(uid) for uid in self.voice]
        return {"id": str(self.guild_id), "name": "Mafia club", "owner_id": str(self.owner_id), "roles": roles,
                "channels": list(self.channels.values()), "members": [me, *in_voice], "emojis": [],
                "stickers": [], "features": [], "member_count": 2 + len(in_voice), "unavailable": False,
                "preferred_locale": "ru", "large": False, "threads": [],
                "voice_states": [{k: v for k, v in state.items() if k not in ("guild_id", "member")}
                                 for state in self.voice.values()], "presences": []}

    def member_payload(self, uid: int, permissions: discord.Permissions | None = None) -> dict[str, Any]:
        voice = self.voice.get(uid) or {}
        member = {"user": self.users[uid], "roles": self.member_roles(uid), "joined_at": TIMESTAMP,
                  "deaf": bool(voice.get("deaf")), "mute": bool(voice.get("mute")), "flags": 0,
                  "communication_disabled_until": self.timeouts.get(uid)}
        if permissions is not None:
            member["permissions"] = str(permissions.value)
        return member

    def dm_of(self, uid: int) -> int:
        if uid not in self.dms:
            self.dms[uid] = self.snowflake()
        return self.dms[uid]

    # --- what members do (the payloads the gateway dispatches) ---------------------------------------
    def interaction_payload(self, kind: int, user: dict[str, Any], data: dict[str, Any], *,
                            channel: dict[str, Any], member: dict[str, Any] | None,
                            app_permissions: discord.Permissions,
                            message: FakeMessage | None = None,
                            written_at: float | None = None) -> dict[str, Any]:
        """INTERACTION_CREATE's payload (``kind`` 2: a slash command, 3: a button press), and
        the interaction remembered for its answers. ``member``: in a server channel (with the
        member's permissions there), else in direct messages. ``written_at`` (Unix seconds):
        the interaction's id is a snowflake of that time, as Discord stamps it (else a counter)."""
        interaction = self.snowflake()
        if written_at is not None:
            stamp = datetime.fromtimestamp(written_at, timezone.utc)
            interaction = discord.utils.time_snowflake(stamp) + interaction % (1 << 22)
        token = f"token-{interaction}"
        self.interactions[token] = Interaction(interaction, token, int(user["id"]), int(channel["id"]),
                                               message.id if message else None)
        payload: dict[str, Any] = {
            "id": str(interaction), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "channel": channel, "channel_id": channel["id"], "data": data,
            "app_permissions": str(app_permissions.value), "locale": "ru",
            "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        if member is not None:
            payload.update(guild_id=str(self.guild_id), member=member, guild_locale="ru", context=0)
        else:
            payload.update(user=user, context=1)
        if message is not None:
            payload["message"] = message.payload()
        return payload

    def slash_payload(self, user: dict[str, Any], name: str, options: list[tuple[str, int, Any]], *,
                      channel: int, perms: discord.Permissions,
                      app_permissions: discord.Permissions,
                      written_at: float | None = None) -> dict[str, Any]:
        """``user`` (with ``perms`` in the channel) runs ``/name`` in server channel
        ``channel``; ``options``: (name, Discord's option type, value), a member (type 6) given
        as his user payload, a channel (type 7) by its id; both resolved as Discord does."""
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for key, kind, value in options:
            if kind == USER_OPTION:
                uid = int(value["id"])
                resolved.setdefault("users", {})[str(uid)] = self.users[uid]
                member = self.member_payload(uid, discord.Permissions.none())
                member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = member
                value = str(uid)
            elif kind == CHANNEL_OPTION:
                channel_data = self.channels[int(value)]
                resolved.setdefault("channels", {})[str(value)] = {
                    "id": channel_data["id"], "name": channel_data["name"], "type": channel_data["type"],
                    "permissions": str(discord.Permissions.all().value), "guild_id": str(self.guild_id)}
                value = str(value)
            opts.append({"name": key, "type": kind, "value": value})
        data: dict[str, Any] = {"id": str(APP_ID + 7), "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        member = self.member_payload(int(user["id"]), perms)
        return self.interaction_payload(2, user, data, channel=self.channels[channel], member=member,
                                        app_permissions=app_permissions, written_at=written_at)

    def option_types(self, name: str) -> dict[str, int]:
        """The option types of slash command ``name`` as the bot published it (empty if it did
        not, or the command has no options)."""
        command = next((c for c in self.published if c.get("name") == name), None)
        return {o["name"]: int(o["type"]) for o in (command or {}).get("options", [])}

    def press_payload(self, presser: dict[str, Any], message: FakeMessage, custom_id: str,
                      app_permissions: discord.Permissions) -> dict[str, Any]:
        """A button press on ``message`` as Discord delivers it: the message as it is now."""
        if message.channel_id in self.channels:
            channel = self.channels[message.channel_id]
            member = self.member_payload(int(presser["id"]), discord.Permissions.none())
        else:
            channel = {"id": str(message.channel_id), "type": 1, "recipients": [presser]}
            member = None
        data = {"custom_id": custom_id, "component_type": 2}
        return self.interaction_payload(3, presser, data, channel=channel, member=member,
                                        app_permissions=app_permissions, message=message)

    def message_payload(self, author: dict[str, Any], content: str, channel: int, *,
                        written_at: float | None = None) -> dict[str, Any]:
        """MESSAGE_CREATE's payload: ``author`` writes ``content`` in server channel
        ``channel``, or in his direct messages with the bot (``channel=0``); kept in
        :attr:`posts` (the bot may delete it). ``written_at`` (Unix seconds): the message's id
        is a snowflake of that time, as Discord stamps a message (else a plain counter)."""
        uid = int(author["id"])
        message_id = self.snowflake()
        if written_at is not None:
            stamp = datetime.fromtimestamp(written_at, timezone.utc)
            message_id = discord.utils.time_snowflake(stamp) + message_id % (1 << 22)
        channel_id = channel or self.dm_of(uid)
        self.posts[message_id] = FakeMessage(message_id, channel_id, author,
                                             [Version(content, [], [], [])])
        return self._member_message(self.posts[message_id], None)

    def edit_payload(self, message_id: int, content: str, *, edited_at: float) -> dict[str, Any]:
        """MESSAGE_UPDATE's payload: the member edits his message ``message_id`` (one of
        :attr:`posts`) to ``content`` at ``edited_at`` (Unix seconds) — the whole message, as
        Discord sends it, its ``edited_timestamp`` that time."""
        message = self.posts[message_id]
        message.versions.append(Version(content, [], [], []))
        return self._member_message(message, datetime.fromtimestamp(edited_at, timezone.utc).isoformat())

    def _member_message(self, message: FakeMessage, edited: str | None) -> dict[str, Any]:
        """A member's message as the gateway carries it (``edited``: its ``edited_timestamp``)."""
        uid = int(message.author["id"])
        payload: dict[str, Any] = {
            "id": str(message.id), "type": 0, "content": message.now.content,
            "author": message.author, "attachments": [], "embeds": [], "components": [],
            "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
            "tts": False, "timestamp": TIMESTAMP, "edited_timestamp": edited, "flags": 0,
            "channel_id": str(message.channel_id)}
        if message.channel_id in self.channels:
            payload.update(guild_id=str(self.guild_id),
                           member={k: v for k, v in self.member_payload(uid).items() if k != "user"})
        return payload

    def voice_state_payload(self, uid: int, channel: int | None, *, mute: bool = False,
                            self_mute: bool = False, self_deaf: bool = False) -> dict[str, Any]:
        """VOICE_STATE_UPDATE's payload (Discord's voice state object, with the member): ``uid``
        connects to (or moves to) voice channel ``channel``, or leaves voice (``None``); the
        server mute (``mute``) stays with the member (Discord keeps it until it is lifted)."""
        return {"guild_id": str(self.guild_id), "channel_id": str(channel) if channel else None,
                "user_id": str(uid), "member": self.member_payload(uid), "session_id": f"voice-{uid}",
                "deaf": False, "mute": mute, "self_deaf": self_deaf, "self_mute": self_mute,
                "self_stream": False, "self_video": False, "suppress": False,
                "request_to_speak_timestamp": None}

    def voice_update(self, uid: int, channel: int | None, *, self_mute: bool | None = None,
                     self_deaf: bool | None = None) -> dict[str, Any]:
        """What a member does in voice (join, move, leave, mute or deafen himself): the world
        updated and the payload the gateway sends. His server mute is kept across all of it
        (Discord lifts it only when asked to: PATCH member ``mute: false``)."""
        old = self.voice.get(uid)
        muted = self.server_muted.get(uid, False)
        state = self.voice_state_payload(
            uid, channel, mute=muted,
            self_mute=bool(self_mute if self_mute is not None else (old or {}).get("self_mute")),
            self_deaf=bool(self_deaf if self_deaf is not None else (old or {}).get("self_deaf")))
        if channel is None:
            self.voice.pop(uid, None)
        else:
            self.voice[uid] = {k: v for k, v in state.items() if k != "member"}
        state["member"] = self.member_payload(uid)
        return state

    def muted_now(self) -> set[int]:
        """The members the server has muted (whether connected or not)."""
        return {uid for uid, on in self.server_muted.items() if on}

    # --- what happened ---------------------------------------------------------------------------
    def in_channel(self, channel_id: int, *, deleted: bool = True) -> list[FakeMessage]:
        return [m for m in self.messages.values()
                if m.channel_id == channel_id and (deleted or not m.deleted)]

    def texts(self, channel_id: int) -> list[str]:
        """Every version of every message posted in a channel, oldest first."""
        return [text for message in self.in_channel(channel_id) for text in message.texts]

    def replies_to(self, user: int) -> list[Reply]:
        return [r for r in self.replies if r.user == user]

    # --- hooks -------------------------------------------------------------------------------------
    def posted(self, message: FakeMessage, how: str) -> None:
        """Called after each message the bot posted or edited (``how``: ``send`` or ``edit``),
        once the request is accepted. A subclass may note it (the kill rig does)."""

    def nonced(self, channel_id: int, nonce: str) -> FakeMessage | None:
        """The bot's message created in the channel with ``nonce`` in the last
        :data:`NONCE_WINDOW` seconds (Discord's ``enforce_nonce``: "checked for uniqueness in the
        past few minutes")."""
        now = self.clock()
        return next((m for m in reversed(list(self.messages.values()))
                     if m.channel_id == channel_id and m.nonce == nonce
                     and now - m.created <= NONCE_WINDOW), None)

    # --- the REST API -----------------------------------------------------------------------------
    def _message(self, channel_id: int, body: dict[str, Any], files: dict[str, bytes],
                 flags: int = 0) -> FakeMessage:
        attachments = [{"id": str(self.snowflake()), "filename": name, "size": len(data),
                        "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}"}
                       for name, data in files.items()]
        nonce = body.get("nonce")
        message = FakeMessage(self.snowflake(), channel_id, self.bot, [Version(
            body.get("content") or "", list(body.get("embeds") or []),
            list(body.get("components") or []), attachments)], flags=flags, files=dict(files),
            nonce=str(nonce) if nonce is not None else None, created=self.clock())
        self.messages[message.id] = message
        self.posted(message, "send")
        return message

    def _edit(self, message: FakeMessage, body: dict[str, Any]) -> None:
        now = message.now
        message.versions.append(Version(
            body.get("content", now.content) or "", list(body.get("embeds", now.embeds) or []),
            list(body.get("components", now.components) or []), now.attachments))
        self.posted(message, "edit")

    def rest(self, method: str, path: str, ids: list[int], body: Any,
             files: dict[str, bytes]) -> Any:
        """One REST call: ``path`` is discord.py's route template, ``ids`` the numbers in the
        URL in order, ``body`` the JSON body (a multipart request's ``payload_json``), ``files``
        its files by name. Returns the JSON answer (``None``: 204); raises :class:`FakeError`."""
        if method == "GET" and path == "/users/@me":
            return self.bot
        if method == "GET" and path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Referee", "icon": None, "description": "",
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                    "owner": self.users.get(APP_ID + 1) or user_payload(APP_ID + 1, "Owner"),
                    "flags": 0, "team": None, "summary": ""}
        if method == "POST" and path == "/channels/{channel_id}/messages":
            channel_id = ids[0]
            if channel_id in self.no_post:
                raise forbidden(50013, "Missing Permissions")
            dm_user = next((u for u, c in self.dms.items() if c == channel_id), None)
            if dm_user is not None and dm_user in self.closed_dms:
                raise forbidden(50007, "Cannot send messages to this user")
            body = dict(body or {})
            if body.get("enforce_nonce") and body.get("nonce") is not None:
                same = self.nonced(channel_id, str(body["nonce"]))
                if same is not None:  # Discord: that message is returned, no new one is created
                    return same.payload()
            return self._message(channel_id, body, files).payload()
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(ids[1])
            if message is None or message.deleted:
                raise not_found("Unknown Message")
            self._edit(message, dict(body or {}))
            return message.payload()
        if method == "DELETE" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(ids[1]) or self.posts.get(ids[1])
            if message is None or message.deleted:
                raise not_found("Unknown Message")
            message.deleted = True
            return None
        if method == "POST" and path == "/users/@me/channels":
            uid = int(body["recipient_id"])
            return {"id": str(self.dm_of(uid)), "type": 1, "recipients": [self.users[uid]],
                    "last_message_id": None}
        if method == "GET" and path == "/guilds/{guild_id}/members/{user_id}":
            return self.member_payload(ids[1])
        if method == "PATCH" and path == "/guilds/{guild_id}/members/{user_id}":
            uid = ids[1]
            body = dict(body or {})
            if "mute" in body:  # a server mute: Mute Members, the role hierarchy, a connected member
                if not self.can_mute or uid == self.owner_id or uid in self.above_bot:
                    raise forbidden(50013, "Missing Permissions")
                if uid not in self.voice:
                    raise FakeError(400, 40032, "Target user is not connected to voice.")
                self.server_muted[uid] = bool(body["mute"])
                self.voice[uid]["mute"] = bool(body["mute"])
                update = {**self.voice[uid], "member": self.member_payload(uid)}
                self.events.append(("VOICE_STATE_UPDATE", update))
            if "communication_disabled_until" in body:
                if not self.can_timeout:
                    raise forbidden(50013, "Missing Permissions")
                self.timeouts[uid] = body.get("communication_disabled_until")
            return self.member_payload(uid)
        if method == "PUT" and path in ("/applications/{application_id}/commands",
                                        "/applications/{application_id}/guilds/{guild_id}/commands"):
            self.published = list(body)  # the slash commands, as the bot last published them
            scope = "global" if "guild_id" not in path else f"guild:{ids[1]}"
            self.commands[scope] = list(body)  # Discord keeps each scope's list until overwritten
            return [{**c, "id": str(self.snowflake()), "application_id": str(APP_ID), "version": "1"}
                    for c in body]
        if path == "/channels/{channel_id}/permissions/{target}" and method in ("PUT", "DELETE"):
            if not self.can_overwrite:
                raise forbidden(50013, "Missing Permissions")
            if method == "PUT":
                self.overwrites[(ids[0], ids[1])] = dict(body)
            else:
                self.overwrites.pop((ids[0], ids[1]), None)
            return None
        if method == "GET" and path == "/channels/{channel_id}":
            if ids[0] not in self.channels:
                raise not_found("Unknown Channel", 10003)
            return self.channels[ids[0]]
        if method == "GET" and path == "/guilds/{guild_id}":
            return self.guild_payload()
        raise LookupError(f"the fake has no {method} {path}")

    def webhook(self, method: str, path: str, token: str, body: dict[str, Any],
                files: dict[str, bytes]) -> Any:
        """An interaction's callback (its one response) or a follow-up."""
        found = self.interactions.get(token)
        if found is None:
            raise not_found("Unknown interaction", 10062)
        data = body.get("data") or {}
        if method == "POST" and path == "/interactions/{webhook_id}/{webhook_token}/callback":
            if found.answered:
                raise FakeError(400, 40060, "Interaction has already been acknowledged.")
            found.answered = True
            kind = int(body["type"])
            flags = int(data.get("flags") or 0)
            names = {4: "message", 5: "thinking", 6: "defer_update", 7: "update"}
            reply = Reply(found.id, found.user, data.get("content") or "", bool(flags & EPHEMERAL),
                          names.get(kind, str(kind)), self.clock())
            self.replies.append(reply)
            self.answered[found.id] = reply
            result: dict[str, Any] = {"interaction": {
                "id": str(found.id), "type": 2, "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL)}, "resource": {"type": kind}}
            if kind == 7 and found.message is not None:  # the pressed message is edited
                message = self.messages[found.message]
                self._edit(message, data)
                result["interaction"]["response_message_id"] = str(message.id)
                result["resource"]["message"] = message.payload()
            elif kind == 4:
                channel = EPHEMERAL_CHANNEL if flags & EPHEMERAL else found.channel
                message = self._message(channel, data, files, flags=flags)
                result["interaction"]["response_message_id"] = str(message.id)
                result["resource"]["message"] = message.payload()
            return result
        if method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            flags = int(body.get("flags") or 0)
            self.replies.append(Reply(found.id, found.user, body.get("content") or "",
                                      bool(flags & EPHEMERAL), "followup", self.clock()))
            channel = EPHEMERAL_CHANNEL if flags & EPHEMERAL else found.channel
            return self._message(channel, body, files, flags=flags).payload()
        raise LookupError(f"the fake has no webhook {method} {path}")
