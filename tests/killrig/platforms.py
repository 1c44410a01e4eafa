"""The platforms the kill rig drives, as its simulated users see them.

* :class:`KillDiscord` — the fake Discord over the wire (``tests/fakediscord``) as a
  :class:`~killrig.rig.Platform`: ``python -m bot discord`` against it, every message the bot
  posts or edits noted with its life (:attr:`KillDiscord.seen`), a life ready once it has
  identified on the gateway (its setup — the store, host mode's resume, the outbox's drain — ran
  before);
* :class:`TelegramClient`, :class:`DiscordClient` — one platform as its users' client shows it,
  in the words of the host-mode players (:mod:`killrig.host`: a table's people, the group's
  messages and their buttons, a press and a press again, a command) and of the judges
  (:mod:`killrig.judge`: his panel, a typed line). A press on Telegram waits at Telegram while the
  bot is down and is delivered after the restart; on Discord an interaction sent to a session
  that dies is lost (:meth:`DiscordClient.lost`), as a real one is, and the user sends it again.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Iterator

import discord

from fakebot import FakeChat, FakeMessage, FakeUser
from fakediscord import FakeDiscord, FakeDiscordServer
from fakediscord import FakeMessage as DiscordMessage
from fakediscord.forms import slash_options

from .rig import KillFake, Seen

# What the host needs in a table's channel: post, attach, time out, mute by overwrite, delete.
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)
_COUNTDOWN = re.compile(r"<t:\d+:([A-Za-z])>")


class RecordingDiscord(FakeDiscord):
    """The fake Discord's world, noting each message the bot posts or edits as :class:`Seen`
    (method ``send`` or ``edit``), tagged with the life of the bot that made it."""

    def __init__(self) -> None:
        super().__init__()
        self.life = 0
        self.seen: list[Seen] = []

    def posted(self, message: DiscordMessage, how: str) -> None:
        self.seen.append(Seen(how, message.channel_id, time.time(), message.id, message.text,
                              list(message.buttons), {}, self.life))


class KillDiscord(FakeDiscordServer):
    """The fake Discord served on 127.0.0.1, as the rig drives it."""

    command = "discord"
    fake: RecordingDiscord

    def __init__(self) -> None:
        super().__init__(RecordingDiscord())

    @property
    def life(self) -> int:
        return self.fake.life

    @life.setter
    def life(self, value: int) -> None:
        self.fake.life = value

    @property
    def seen(self) -> list[Seen]:
        return self.fake.seen

    def platform_env(self) -> dict[str, str]:
        return {"MAFIA_REFEREE_DISCORD_TOKEN": self.fake.token,
                "MAFIA_REFEREE_DISCORD_BASE_URL": self.base_url}

    def ready_mark(self) -> int:
        return self.identified

    def ready_since(self, mark: int) -> bool:
        return self.identified > mark and self.connected

    def activity(self) -> int:
        return len(self.fake.calls)

    def seen_in(self, chat: int, *methods: str) -> Iterator[Seen]:
        for item in self.fake.seen:
            if item.chat == chat and (not methods or item.method in methods):
                yield item


# --- the users' view of a platform ---------------------------------------------------------------------

@dataclass
class Query:
    """A button pressed on Telegram: the callback query's id, and what to press it again."""

    id: str
    user: FakeUser
    message: FakeMessage | tuple[int, int]
    data: str


class TelegramClient:
    """Telegram's fake Bot API in the players' words: a table is a group, a press a callback
    query (it waits at Telegram while the bot is down)."""

    name = "telegram"
    send = "sendmessage"

    def __init__(self, fake: KillFake) -> None:
        self.fake = fake

    def add_table(self, n: int, names: tuple[str, ...]) -> tuple[FakeUser, list[FakeUser], FakeChat]:
        host = self.fake.add_user(f"Ведущий{n}", f"host{n}", started=True)
        players = [self.fake.add_user(name, f"t{n}p{i}", started=True) for i, name in enumerate(names, 1)]
        return host, players, self.fake.add_group(f"Клуб {n}", creator=host, members=players)

    def chat_key(self, group: FakeChat) -> str:
        return f"tg:{group.id}"

    def user_key(self, user: FakeUser) -> str:
        return f"tg:{user.id}"

    def chat_id(self, group: FakeChat) -> int:
        return int(group.id)

    def messages(self, group: FakeChat) -> list[FakeMessage]:
        return self.fake.sent(group)

    def message(self, group: FakeChat, message_id: int) -> FakeMessage:
        return self.fake.message(group, message_id)

    @staticmethod
    def message_id(message: FakeMessage) -> int:
        return int(message.message_id)

    @staticmethod
    def texts(message: FakeMessage) -> list[str]:
        return [t or "" for t in message.texts]

    @staticmethod
    def labels(message: FakeMessage) -> list[str]:
        return [str(b.get("text", "")) for b in message.buttons]

    @staticmethod
    def deleted(message: FakeMessage) -> bool:
        return bool(message.deleted)

    async def press(self, user: FakeUser, group: FakeChat, message: FakeMessage, label: str) -> Query:
        data = message.callback_data(label)
        return Query(self.fake.user_presses(user, message, data), user, message, data)

    async def again(self, press: Query) -> Query:
        """The same button pressed again (its data replayed: a stale client may)."""
        return Query(self.fake.user_presses(press.user, press.message, press.data, strict=False),
                     press.user, press.message, press.data)

    def answer(self, press: Query) -> str | None:
        found = self.fake.answers.get(press.id)
        return None if found is None else (found[1] or "")

    def lost(self, sent: Query | None) -> bool:
        return False  # an update waits at Telegram until the bot polls again

    async def type(self, user: FakeUser, chat: FakeChat | None, line: str) -> None:
        """``user`` types ``line`` in ``chat`` (``None``: his private chat with the bot); it
        waits at Telegram if the bot is down (never :meth:`lost`)."""
        self.fake.user_sends(user, chat, line)

    @staticmethod
    def normal(text: str | None) -> str:
        return text or ""

    # --- judge mode: the game lives in the judge's private chat, announced in a linked group ---------
    edit = "editmessagetext"

    def add_judge(self, n: int) -> tuple[FakeUser, FakeChat]:
        user = self.fake.add_user(f"Судья{n}", f"judge{n}", started=True)
        return user, self.fake.add_group(f"Клуб {n}", creator=user)

    def private_chat(self, user: FakeUser) -> int | None:
        """The user's private chat with the bot (a judge's panel and notices, a player's card)."""
        return int(user.id)

    @staticmethod
    def data(button: dict[str, Any]) -> str:
        return str(button.get("callback_data") or "")

    def panel(self, judge: FakeUser, message_id: int) -> FakeMessage:
        return self.fake.message(judge, message_id)

    def home(self, judge: FakeUser, group: FakeChat) -> None:
        """Where the judge types his game's lines: his private chat."""
        return None

    async def link(self, judge: FakeUser, group: FakeChat) -> bool:
        """``/link`` in the group (its announcements go there); True: sent."""
        self.fake.user_sends(judge, group, "/link")
        return True

    async def press_data(self, judge: FakeUser, message_id: int, data: str, *, again: bool = False) -> Query:
        """A panel button pressed by its data; ``again``: on the panel as it was (a stale
        client), the button may be gone."""
        panel = (int(judge.id), message_id)
        return Query(self.fake.user_presses(judge, panel, data, strict=not again), judge, panel, data)

    def judge_normal(self, text: str | None, judge: FakeUser, group: FakeChat) -> str:
        """What differs between the games of one run left out: the group's title."""
        return (text or "").replace(f"«{group.title}»", "«Клуб»")


@dataclass
class Sent:
    """An interaction sent over Discord's gateway: a button press (``message``, ``custom_id``)
    or a slash command."""

    user: dict[str, Any]
    interaction: int
    session: str | None  # the gateway session it went to (None: no session, lost)
    message: int | None = None
    custom_id: str = ""


class DiscordClient:
    """The fake Discord in the players' words: a table is a text channel of the one server,
    a press an INTERACTION_CREATE (lost if its session dies before the bot answers it)."""

    name = "discord"
    send = "send"

    def __init__(self, fake: KillDiscord) -> None:
        self.fake = fake
        self.world = fake.fake

    def add_table(self, n: int, names: tuple[str, ...]) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        host = self.world.add_user(f"Ведущий{n}")
        players = [self.world.add_user(name) for name in names]
        channel = self.world.snowflake()
        self.world.add_channel(channel, f"table-{n}")
        return host, players, channel

    def chat_key(self, group: int) -> str:
        return f"dc:{group}"

    def user_key(self, user: dict[str, Any]) -> str:
        return f"dc:{user['id']}"

    def chat_id(self, group: int) -> int:
        return group

    def messages(self, group: int) -> list[DiscordMessage]:
        return self.world.in_channel(group)

    def message(self, group: int, message_id: int) -> DiscordMessage:
        return self.world.messages[message_id]

    @staticmethod
    def message_id(message: DiscordMessage) -> int:
        return message.id

    def texts(self, message: DiscordMessage) -> list[str]:
        return [self.normal(t) for t in message.texts]

    @staticmethod
    def labels(message: DiscordMessage) -> list[str]:
        return [str(b.get("label", "")) for b in message.buttons]

    @staticmethod
    def deleted(message: DiscordMessage) -> bool:
        return message.deleted

    async def _press(self, user: dict[str, Any], message: DiscordMessage, custom_id: str) -> Sent:
        payload = self.world.press_payload(user, message, custom_id, HOST_RIGHTS)
        sent = await self.fake.dispatch("INTERACTION_CREATE", payload)
        return Sent(user, int(payload["id"]), sent[0] if sent else None, message.id, custom_id)

    async def press(self, user: dict[str, Any], group: int, message: DiscordMessage, label: str) -> Sent:
        exact = [b for b in message.buttons if b.get("label") == label]
        found = exact or [b for b in message.buttons if label in str(b.get("label", ""))]
        if not found:
            raise KeyError(f"no button {label!r} on message {message.id}: {self.labels(message)}")
        return await self._press(user, message, str(found[0]["custom_id"]))

    async def again(self, press: Sent) -> Sent:
        """The same button pressed again, on the message as it is now (a client that has not
        redrawn it yet)."""
        assert press.message is not None, press
        return await self._press(press.user, self.world.messages[press.message], press.custom_id)

    def answer(self, press: Sent) -> str | None:
        reply = self.world.answered.get(press.interaction)
        return None if reply is None else reply.content

    def lost(self, press: Sent) -> bool:
        """Unanswered and its gateway session is gone (the bot died with it, or there was none):
        nobody will answer it."""
        if press.interaction in self.world.answered:
            return False
        current = self.fake.session
        return press.session is None or current is None or current.id != press.session

    async def type(self, user: dict[str, Any], channel: int, line: str) -> Sent:
        """``user`` (with Manage Channels) runs ``line`` as the slash command he fills in for
        it (:mod:`fakediscord.forms`) in ``channel`` (sent to a dying bot: :meth:`lost`, as on
        Discord)."""
        name, values = slash_options(line)
        types = self.world.option_types(name)
        options = [(key, types[key], value) for key, value in values.items() if value is not None]
        payload = self.world.slash_payload(user, name, options, channel=channel,
                                           perms=discord.Permissions(manage_channels=True),
                                           app_permissions=HOST_RIGHTS)
        sent = await self.fake.dispatch("INTERACTION_CREATE", payload)
        return Sent(user, int(payload["id"]), sent[0] if sent else None)

    @staticmethod
    def normal(text: str | None) -> str:
        """Discord's live countdown (``<t:1714586400:R>``) is the run's clock: left out."""
        return _COUNTDOWN.sub(r"<t:…:\1>", text or "")

    # --- judge mode: the game lives in a channel, the panel in the judge's direct messages ------------
    edit = "edit"

    def add_judge(self, n: int) -> tuple[dict[str, Any], int]:
        user = self.world.add_user(f"Судья{n}")
        channel = self.world.snowflake()
        self.world.add_channel(channel, f"game-{n}")
        return user, channel

    def private_chat(self, user: dict[str, Any]) -> int | None:
        """The user's direct messages with the bot (a judge's panel and notices, a player's
        card), once the bot has opened them."""
        return self.world.dms.get(int(user["id"]))

    @staticmethod
    def data(button: dict[str, Any]) -> str:
        return str(button.get("custom_id") or "")

    def panel(self, judge: dict[str, Any], message_id: int) -> DiscordMessage:
        return self.world.messages[message_id]

    def home(self, judge: dict[str, Any], group: int) -> int:
        """Where the judge runs his game's commands: its channel."""
        return group

    async def link(self, judge: dict[str, Any], group: int) -> bool:
        return False  # the game's channel gets its announcements itself

    async def press_data(self, judge: dict[str, Any], message_id: int, data: str, *,
                         again: bool = False) -> Sent:
        return await self._press(judge, self.world.messages[message_id], data)

    def judge_normal(self, text: str | None, judge: dict[str, Any], group: int) -> str:
        """What differs between the games of one run left out: the channel and the judge (their
        mentions), the live countdown."""
        out = self.normal(text).replace(f"<#{group}>", "<#channel>")
        return out.replace(f"<@{judge['id']}>", "<@judge>")


PLATFORMS = ("telegram", "discord")
Client = TelegramClient | DiscordClient


def open_platform(name: str) -> tuple[KillFake | KillDiscord, Client]:
    """The fake of platform ``name`` (one of :data:`PLATFORMS`) and its users' client."""
    if name == "telegram":
        fake = KillFake()
        return fake, TelegramClient(fake)
    if name == "discord":
        server = KillDiscord()
        return server, DiscordClient(server)
    raise ValueError(name)
