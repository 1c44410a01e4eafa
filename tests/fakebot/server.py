"""``FakeBotAPI``: a Telegram Bot API server on 127.0.0.1 for end-to-end tests.

Point a real python-telegram-bot ``Application`` at it with
``ApplicationBuilder().token(fake.token).base_url(fake.base_url).base_file_url(fake.base_file_url)``
and drive it by acting as users (``user_sends``, ``user_presses``, ``user_leaves``...). The fake
keeps a small world (users, chats, members with statuses and rights, messages) and answers with
Telegram's own error shapes and descriptions, so the bot's error handling is exercised for real:

* 400 ``Bad Request: ...`` (``message is not modified``, ``BUTTON_DATA_INVALID``,
  ``method is available only for supergroups``, ``can't parse entities``...),
* 403 ``Forbidden: bot was blocked by the user`` / ``bot can't initiate conversation with a user``,
* 429 with ``parameters.retry_after`` (``fail_next`` or ``set_flood_limits``),
* 400 with ``parameters.migrate_to_chat_id`` after ``migrate_group``,
* 401 ``Unauthorized`` for a wrong token, 404 ``Not Found`` for a method the Bot API does not have,
  and 400 ``... is not implemented by FakeBotAPI`` for a real method the fake does not model
  (it refuses, never pretends).

Updates are served by real long polling: ``getUpdates`` returns at once when updates are queued
and otherwise waits until one arrives or ``timeout`` passes. Nothing else sleeps.

Deliberate simplifications (all on the pessimistic side): no webhook delivery (a set webhook
only makes getUpdates answer 409, as Telegram does), no inline mode, messages are not copied into
the supergroup on migration, a group's privacy mode lets through commands without a bot suffix.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import itertools
import json
import math
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeVar

from .formatting import (
    MAX_CAPTION_LENGTH,
    MAX_TEXT_LENGTH,
    EntityParseError,
    parse_formatted,
    u16len,
    user_entities,
)
from .http import HttpRequest, HttpResponse, HttpServer, UploadedFile, json_response
from .params import ApiError, Params
from .world import (
    ADMIN_RIGHTS,
    ANONYMOUS_ADMIN_ID,
    CHANNEL_BOT_ID,
    TELEGRAM_ID,
    DEFAULT_BOT_ADMIN_RIGHTS,
    FOREVER,
    JSON,
    MEDIA_PERMISSIONS,
    PERMISSIONS,
    Edit,
    FakeChat,
    FakeMember,
    FakeMessage,
    FakeUser,
    iter_buttons,
)

DEFAULT_TOKEN = "123456789:FAKE-bot-token_for-tests"
DEFAULT_UPDATE_TYPES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages",
    "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
    "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member",
    "chat_join_request", "chat_boost", "removed_chat_boost",
})
"""What Telegram sends when allowed_updates is empty: everything except chat_member and
message reactions, which must be asked for by name (Bot API, getUpdates.allowed_updates)."""

#: Seconds the waits give the bot by default (``wait_for``, ``wait_sent``, ``wait_delivered``).
WAIT = 30.0

FLOOD_METHODS = frozenset({
    "sendmessage", "sendphoto", "senddocument", "editmessagetext", "editmessagecaption",
    "editmessagereplymarkup",
})
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200
BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)
EDIT_WINDOW = 48 * 3600
"""A message older than 48 hours can only be deleted by an admin of a supergroup or channel."""

QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"

T = TypeVar("T")


def _known_bot_api_methods() -> frozenset[str]:
    """Every Bot API method name (lowercased), taken from PTB's camelCase aliases."""
    try:
        import telegram
    except ImportError:  # pragma: no cover - PTB is a project dependency
        return frozenset()
    return frozenset(
        name.lower() for name in dir(telegram.Bot)
        if name[:1].islower() and any(c.isupper() for c in name) and name != "toJSON"
    )


class FakeWorldError(AssertionError):
    """The test asked for something that cannot happen in Telegram (e.g. a user who left the
    group sending to it, or pressing a button that is not on the message)."""


class FakeTimeout(AssertionError):
    """``wait_for`` gave up; the message lists the last calls the bot made."""


@dataclass
class Call:
    """One HTTP call the bot made, in arrival order, with its outcome once answered."""

    method: str
    params: JSON
    files: dict[str, UploadedFile]
    at: float
    ok: bool | None = None
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    injected: bool = False

    def __repr__(self) -> str:
        outcome = "pending" if self.ok is None else ("ok" if self.ok else
                                                     f"{self.error_code} {self.description}")
        shown = {k: v for k, v in self.params.items() if k != "reply_markup"}
        return f"<Call {self.method} {shown} -> {outcome}>"


@dataclass
class Fault:
    """An injected failure, consumed by the next ``times`` matching calls."""

    method: str
    error_code: int | None
    description: str
    parameters: JSON | None
    times: int
    match: Callable[[JSON], bool] | None
    disconnect: bool
    executed: bool
    delay: float
    hits: list[Call] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.times - len(self.hits)


@dataclass(frozen=True)
class CallbackAnswer:
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass
class CallbackQueryRecord:
    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answer: CallbackAnswer | None = None
    expired: bool = False

    @property
    def answered(self) -> bool:
        return self.answer is not None


@dataclass(frozen=True)
class Restriction:
    """A member's current restrictions (``fake.restrictions(chat, user)``)."""

    status: str
    permissions: dict[str, bool]
    until_date: int
    is_member: bool

    @property
    def can_send_messages(self) -> bool:
        return self.permissions.get("can_send_messages", False)

    @property
    def forever(self) -> bool:
        return self.until_date == FOREVER


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    data: bytes | None
    file_name: str | None
    mime_type: str | None
    file_path: str
    url: str | None = None

    def meta(self) -> JSON:
        data: JSON = {"file_id": self.file_id, "file_unique_id": self.file_unique_id}
        if self.data is not None:
            data["file_size"] = len(self.data)
        return data


@dataclass
class FloodLimits:
    """Telegram's documented pacing: ~30 messages/s per bot, ~20/min per group (None = off)."""

    global_per_second: int | None = 30
    per_group_per_minute: int | None = 20
    per_private_chat_per_second: int | None = None


@dataclass
class _Flood:
    limits: FloodLimits
    global_window: deque[float] = field(default_factory=deque)
    chat_windows: dict[int, deque[float]] = field(default_factory=dict)


class FakeBotAPI:
    """A fake Telegram Bot API server; see the module docstring.

    Use as ``async with FakeBotAPI() as fake: ...`` or ``await fake.start()`` /
    ``await fake.stop()``. ``clock`` (seconds, like ``time.time``) stamps messages, expires
    restrictions and paces flood limits, so a test can compress time.
    """

    RECHECK = 0.02
    """Seconds between re-checks of a ``wait_for`` predicate when nothing happens at the fake."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "FakeRefereeBot",
        bot_first_name: str = "Referee",
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.token = token
        self.clock = clock
        self.privacy_mode = privacy_mode
        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 123456789
        self.bot_user = FakeUser(id=bot_id, first_name=bot_first_name, username=bot_username,
                                 is_bot=True, language_code=None)
        self.users: dict[int, FakeUser] = {bot_id: self.bot_user}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], FakeMessage] = {}
        self.calls: list[Call] = []
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.files: dict[str, StoredFile] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.menu_button: JSON | None = None  # setChatMenuButton's (the Mini App's, issue 30)
        self.faults: list[Fault] = []
        self.latencies: list[tuple[Callable[[str, JSON], bool], float]] = []  # slow()
        self.unimplemented: list[Call] = []
        self.internal_errors: list[BaseException] = []
        self.dropped_updates: list[JSON] = []
        self.webhook: JSON | None = None
        self._bot_messages: list[FakeMessage] = []
        self._updates: list[JSON] = []
        self._delivered_up_to = 0
        self._update_ids = itertools.count(1)
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._user_ids = itertools.count(1001)
        self._group_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._poll_generation = 0
        self._updates_event = asyncio.Event()
        self._changed_event = asyncio.Event()
        self._flood: _Flood | None = None
        self._stopping = False
        self._http = HttpServer(self._handle_http)
        self._known_methods = _known_bot_api_methods()
        self._handlers: dict[str, Callable[[Params], Any]] = {
            name[len("_api_"):].lower(): getattr(self, name)
            for name in dir(self) if name.startswith("_api_")
        }

    # ------------------------------------------------------------------ lifecycle and URLs

    async def start(self, port: int = 0) -> FakeBotAPI:
        self._stopping = False
        await self._http.start(port)
        return self

    async def stop(self, *, check: bool = True) -> None:
        """Wake every long poll, close the listening socket and every open connection.

        With ``check``, a bug inside the fake (answered as a 500 during the test) fails here,
        so it cannot pass for Telegram behaviour."""
        self._stopping = True
        self._wake_pollers()
        await self._http.close()
        if check and self.internal_errors:
            raise AssertionError(f"FakeBotAPI failed internally: {self.internal_errors!r}")

    async def __aenter__(self) -> FakeBotAPI:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        return self._http.port

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder.base_url``: PTB appends ``{token}/{method}``."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    def now(self) -> int:
        return int(self.clock())

    # -------------------------------------------------------------------- building a world

    def add_user(self, first_name: str, username: str | None = None, *, id: int | None = None,
                 last_name: str | None = None, language_code: str | None = "ru",
                 is_bot: bool = False, started: bool = False) -> FakeUser:
        """A Telegram account; ``started=True`` means it has already pressed Start."""
        if id is not None and id in self.users:
            raise FakeWorldError(f"user id {id} already exists")
        user_id = id if id is not None else next(self._user_ids)
        while user_id in self.users:
            user_id = next(self._user_ids)
        user = FakeUser(id=user_id, first_name=first_name, username=username,
                        last_name=last_name, language_code=language_code, is_bot=is_bot,
                        started=started)
        self.users[user_id] = user
        chat = FakeChat(id=user_id, type="private", private_user=user)
        chat.members[user_id] = FakeMember(user=user, status="member")
        chat.members[self.bot_user.id] = FakeMember(user=self.bot_user, status="member")
        self.chats[user_id] = chat
        return user

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser | tuple[FakeUser, dict[str, bool]]] = (),
        creator: FakeUser | None = None,
        supergroup: bool = True,
        bot_status: str | None = "administrator",
        bot_rights: dict[str, bool] | None = None,
        username: str | None = None,
        permissions: dict[str, bool] | None = None,
    ) -> FakeChat:
        """A group (``supergroup=False``: a basic group) with the bot in it.

        ``bot_status`` "administrator" uses ``DEFAULT_BOT_ADMIN_RIGHTS`` updated by
        ``bot_rights``; "member", "restricted", "left", "kicked" or None (never joined) model
        a bot that was not given rights.
        """
        number = next(self._group_ids)
        chat_id = -(1_002_000_000_000 + number) if supergroup else -(4_000_000_000 + number)
        chat = FakeChat(id=chat_id, type="supergroup" if supergroup else "group", title=title,
                        username=username)
        if permissions:
            chat.permissions.update(permissions)
        self.chats[chat_id] = chat
        if creator is not None:
            chat.members[creator.id] = FakeMember(user=creator, status="creator")
        for entry in admins:
            user, rights = entry if isinstance(entry, tuple) else (entry, None)
            chat.members[user.id] = FakeMember(
                user=user, status="administrator",
                rights={**DEFAULT_BOT_ADMIN_RIGHTS, **(rights or {})},
            )
        for user in members:
            chat.members.setdefault(user.id, FakeMember(user=user, status="member"))
        if bot_status is not None:
            self.set_bot_status(chat, bot_status, rights=bot_rights, notify=False)
        return chat

    def add_channel(self, title: str, *, username: str | None = None,
                    bot_status: str | None = "administrator",
                    bot_rights: dict[str, bool] | None = None) -> FakeChat:
        number = next(self._group_ids)
        chat = FakeChat(id=-(1_003_000_000_000 + number), type="channel", title=title,
                        username=username)
        self.chats[chat.id] = chat
        if bot_status is not None:
            rights = {"can_post_messages": True, "can_edit_messages": True, **(bot_rights or {})}
            self.set_bot_status(chat, bot_status, rights=rights, notify=False)
        return chat

    def set_member(self, chat: FakeChat | int, user: FakeUser | int, status: str = "member", *,
                   rights: dict[str, bool] | None = None,
                   permissions: dict[str, bool] | None = None, until_date: int = FOREVER,
                   is_member: bool = True, anonymous: bool = False,
                   title: str | None = None) -> FakeMember:
        """Set a member's standing directly (test setup; no update is sent). ``anonymous``: an
        administrator who remains anonymous (his messages are the group's); ``title``: an
        administrator's custom title (an anonymous one's messages are signed with it)."""
        chat_obj, user_obj = self.chat(chat), self.user(user)
        member = FakeMember(user=user_obj, status=status, until_date=until_date,
                            is_member=is_member, is_anonymous=anonymous, custom_title=title)
        if status == "administrator":
            member.rights = {**DEFAULT_BOT_ADMIN_RIGHTS, **(rights or {})}
        if status == "restricted":
            member.permissions = {p: False for p in PERMISSIONS} | dict(permissions or {})
        chat_obj.members[user_obj.id] = member
        self._notify()
        return member

    def set_bot_status(self, chat: FakeChat | int, status: str, *,
                       rights: dict[str, bool] | None = None, by: FakeUser | None = None,
                       notify: bool = True) -> FakeMember:
        """Change the bot's own standing in a chat; sends ``my_chat_member`` unless told not to."""
        chat_obj = self.chat(chat)
        old = chat_obj.members.get(self.bot_user.id)
        old_api = old.to_api(chat_obj.type) if old else {"status": "left",
                                                          "user": self.bot_user.to_api()}
        member = FakeMember(user=self.bot_user, status=status)
        if status == "administrator":
            member.rights = {**DEFAULT_BOT_ADMIN_RIGHTS, **(rights or {})}
            member.can_be_edited = False
        elif status == "restricted":
            member.permissions = {p: True for p in PERMISSIONS} | dict(rights or {})
        chat_obj.members[self.bot_user.id] = member
        if notify:
            actor = by or self._someone_in_charge(chat_obj)
            self._emit("my_chat_member", {
                "chat": chat_obj.to_api(), "from": actor.to_api(), "date": self.now(),
                "old_chat_member": old_api, "new_chat_member": member.to_api(chat_obj.type),
            })
        self._notify()
        return member

    def chat(self, chat: FakeChat | FakeUser | int) -> FakeChat:
        """A chat by object or id; a user stands for their private chat with the bot."""
        if isinstance(chat, FakeChat):
            return chat
        if isinstance(chat, FakeUser):
            return self.private_chat(chat)
        try:
            return self.chats[chat]
        except KeyError:
            raise FakeWorldError(f"no chat {chat}") from None

    def user(self, user: FakeUser | int) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        try:
            return self.users[user]
        except KeyError:
            raise FakeWorldError(f"no user {user}") from None

    def rename_user(self, user: FakeUser | int, first_name: str,
                    last_name: str | None = None) -> FakeUser:
        """The user changes his name in Telegram (same id). Telegram sends no update for it:
        the new name shows in the ``from`` of his next message or press."""
        user_obj = self.user(user)
        user_obj.first_name = first_name
        user_obj.last_name = last_name
        return user_obj

    def private_chat(self, user: FakeUser | int) -> FakeChat:
        user_obj = self.user(user)
        if user_obj.id not in self.chats:
            raise FakeWorldError(f"{user_obj.first_name} has no private chat with the bot")
        return self.chats[user_obj.id]

    # ------------------------------------------------------------------ acting as users

    def user_starts_bot(self, user: FakeUser | int, payload: str | None = None) -> FakeMessage:
        """The user opens the bot and presses Start (unblocking it if it was blocked)."""
        user_obj = self.user(user)
        self._ensure_started(user_obj)
        return self.user_sends(user_obj, None, "/start" + (f" {payload}" if payload else ""))

    def user_blocks_bot(self, user: FakeUser | int) -> None:
        """The user blocks the bot: sends to the private chat now fail with 403."""
        user_obj = self.user(user)
        if user_obj.blocked:
            return
        user_obj.blocked = True
        chat = self.private_chat(user_obj)
        self._emit("my_chat_member", {
            "chat": chat.to_api(), "from": user_obj.to_api(), "date": self.now(),
            "old_chat_member": {"status": "member", "user": self.bot_user.to_api()},
            "new_chat_member": {"status": "kicked", "user": self.bot_user.to_api(),
                                "until_date": 0},
        })
        self._notify()

    def user_sends(self, user: FakeUser | int, chat: FakeChat | FakeUser | int | None,
                   text: str, *, reply_to: FakeMessage | int | None = None,
                   date: int | None = None, as_chat: FakeChat | int | None = None) -> FakeMessage:
        """A user writes ``text`` in ``chat`` (None: the private chat with the bot).

        Commands get ``bot_command`` entities (``/vote@BotName`` too), mentions ``mention``.
        ``date``: when Telegram received it (default now): an earlier one is a message the bot
        reads late. Returns the stored message; ``.delivered`` tells whether the bot received
        an update (privacy mode hides plain group messages from a bot that is not an admin).

        In a group an anonymous administrator writes in the group's name (``sender_chat`` the
        group, ``from`` @GroupAnonymousBot, signed with his custom title); ``as_chat``: a
        channel he owns or administers, written in its name (``from`` @Channel_Bot).
        """
        user_obj = self.user(user)
        if not text.strip():
            raise FakeWorldError("Telegram clients do not send empty messages")
        chat_obj = self.private_chat(user_obj) if chat is None else self.chat(chat)
        sender, signature, shown = None, None, user_obj
        if chat_obj.type == "private":
            if chat_obj.id != user_obj.id:
                raise FakeWorldError(f"{user_obj.first_name} cannot write in another user's "
                                     "private chat with the bot")
            if as_chat is not None:
                raise FakeWorldError("nobody writes to a bot in a channel's name")
            self._ensure_started(user_obj)
        else:
            self._check_user_can_write(user_obj, chat_obj)
            member = self._member(chat_obj, user_obj)
            if as_chat is not None:
                sender = self.chat(as_chat)
                if sender.type != "channel" or not self._member(sender, user_obj).is_admin:
                    raise FakeWorldError(f"{user_obj.first_name} cannot write as {sender.title!r}")
                shown = self._placeholder(CHANNEL_BOT_ID, "Channel", "Channel_Bot", is_bot=True)
            elif member.is_admin and member.is_anonymous:
                sender, signature = chat_obj, member.custom_title
                shown = self._placeholder(ANONYMOUS_ADMIN_ID, "Group", "GroupAnonymousBot", is_bot=True)
        reply = self._resolve_reply(chat_obj, reply_to)
        message = FakeMessage(chat=chat_obj, message_id=chat_obj.take_message_id(),
                              date=self.now() if date is None else date, from_user=shown,
                              text=text, entities=user_entities(text), reply_to=reply,
                              sender_chat=sender, author=user_obj, author_signature=signature)
        self.messages[(chat_obj.id, message.message_id)] = message
        message.delivered = self._bot_receives(chat_obj, message)
        if message.delivered:
            message.update_id = self._emit("message", message.to_api())
            message.delivered = message.update_id is not None
        self._notify()
        return message

    def user_edits(self, user: FakeUser | int, message: FakeMessage, text: str) -> FakeMessage:
        """The author edits their message: an ``edited_message`` update."""
        user_obj = self.user(user)
        author = message.author or message.from_user
        if author is None or author.id != user_obj.id:
            raise FakeWorldError("only the author can edit a message")
        message.history.append(Edit(message.text, message.reply_markup, message.entities,
                                    message.edit_date or message.date))
        message.text, message.entities = text, user_entities(text)
        message.edit_date = self.now()
        if self._bot_receives(message.chat, message):
            self._emit("edited_message", message.to_api())
        self._notify()
        return message

    def user_forwards(self, user: FakeUser | int, message: FakeMessage,
                      to: FakeChat | FakeUser | int) -> FakeMessage:
        """The user forwards ``message`` to chat ``to`` (a Telegram client's Forward). A message
        sent with ``protect_content`` cannot be forwarded: Telegram's clients offer no Forward
        for it (and ``forwardMessage`` answers "message has protected content")."""
        user_obj, target = self.user(user), self.chat(to)
        if message.deleted:
            raise FakeWorldError("a deleted message cannot be forwarded")
        if message.protected:
            raise FakeWorldError("Bad Request: message has protected content and can't be forwarded")
        if target.type != "private":
            self._check_user_can_write(user_obj, target)
        origin: JSON = {"type": "user", "sender_user": (message.from_user or user_obj).to_api(),
                        "date": message.date}
        forwarded = FakeMessage(chat=target, message_id=target.take_message_id(), date=self.now(),
                                from_user=user_obj, text=message.text,
                                entities=list(message.entities), author=user_obj)
        forwarded.service = {"forward_origin": origin}
        self.messages[(target.id, forwarded.message_id)] = forwarded
        self._notify()
        return forwarded

    def link_channel(self, channel: FakeChat | int, group: FakeChat | int) -> None:
        """The channel's discussion group is ``group``: each of its posts is forwarded there."""
        channel_obj, group_obj = self.chat(channel), self.chat(group)
        channel_obj.linked_chat, group_obj.linked_chat = group_obj.id, channel_obj.id

    def channel_posts(self, channel: FakeChat | int, text: str) -> FakeMessage | None:
        """The channel posts ``text`` (by one of its admins); its linked group gets the
        automatic forward (``from`` Telegram, ``sender_chat`` the channel,
        ``is_automatic_forward``), returned (``None``: no linked group)."""
        channel_obj = self.chat(channel)
        post = FakeMessage(chat=channel_obj, message_id=channel_obj.take_message_id(),
                           date=self.now(), from_user=None, text=text, entities=user_entities(text))
        post.service = {"sender_chat": channel_obj.to_api()}
        self.messages[(channel_obj.id, post.message_id)] = post
        if channel_obj.linked_chat is None:
            return None
        group = self.chat(channel_obj.linked_chat)
        forwarded = FakeMessage(
            chat=group, message_id=group.take_message_id(), date=self.now(),
            from_user=self._placeholder(TELEGRAM_ID, "Telegram"), text=text,
            entities=user_entities(text), sender_chat=channel_obj,
            forward_origin={"type": "channel", "chat": channel_obj.to_api(),
                            "message_id": post.message_id, "date": post.date})
        self.messages[(group.id, forwarded.message_id)] = forwarded
        forwarded.delivered = self._bot_receives(group, forwarded)
        if forwarded.delivered:
            forwarded.update_id = self._emit("message", forwarded.to_api())
        self._notify()
        return forwarded

    def set_personal_channel(self, user: FakeUser | int, channel: FakeChat | int | None) -> None:
        """The channel ``user`` shows on his profile (``getChat``'s ``personal_chat``)."""
        self.user(user).personal_chat = None if channel is None else self.chat(channel).id

    def _placeholder(self, user_id: int, first_name: str, username: str | None = None, *,
                     is_bot: bool = False) -> FakeUser:
        """One of Telegram's placeholder senders (@GroupAnonymousBot, @Channel_Bot, Telegram)."""
        found = self.users.get(user_id)
        if found is None:
            found = FakeUser(id=user_id, first_name=first_name, username=username, is_bot=is_bot,
                             language_code=None)
            self.users[user_id] = found
        return found

    def user_presses(self, user: FakeUser | int, message: FakeMessage | tuple[int, int],
                     data: str | None = None, *, button: str | None = None,
                     strict: bool = True) -> str:
        """A user presses an inline button; returns the callback query id.

        Give ``data`` (the callback_data) or ``button`` (its label). With ``strict`` the button
        must be on the message as it is now; ``strict=False`` replays any data, as a stale
        client or a forged query would.
        """
        user_obj = self.user(user)
        msg = self._resolve_message(message)
        if button is not None:
            data = msg.callback_data(button)
        if data is None:
            raise FakeWorldError("user_presses needs data= or button=")
        if strict:
            if msg.deleted:
                raise FakeWorldError(f"message {msg.message_id} was deleted; nothing to press")
            if not msg.by_bot or data not in {b.get("callback_data") for b in msg.buttons}:
                labels = [(b.get("text"), b.get("callback_data")) for b in msg.buttons]
                raise FakeWorldError(f"no button with data {data!r} on {msg!r}; buttons: {labels}")
            member = self._member(msg.chat, user_obj)
            if msg.chat.type != "private" and not member.in_chat:
                raise FakeWorldError(f"{user_obj.first_name} is not in {msg.chat.title!r}")
        query_id = str(4_000_000_000_000_000_000 + next(self._query_ids))
        record = CallbackQueryRecord(id=query_id, user=user_obj, message=msg, data=data)
        self.callback_queries[query_id] = record
        self._emit("callback_query", {
            "id": query_id, "from": user_obj.to_api(), "message": msg.to_api(),
            "chat_instance": str(abs(msg.chat.id) * 7 + 13), "data": data,
        })
        self._notify()
        return query_id

    def expire_callback(self, query_id: str) -> None:
        """Make a callback query too old to answer (Telegram allows about 15 seconds)."""
        self.callback_queries[query_id].expired = True

    def user_joins(self, user: FakeUser | int, chat: FakeChat | int, *,
                   by: FakeUser | None = None) -> FakeMessage:
        """The user joins (or ``by`` adds them): a new_chat_members message + chat_member."""
        user_obj, chat_obj = self.user(user), self.chat(chat)
        old = self._member(chat_obj, user_obj)
        old_api = old.to_api(chat_obj.type)
        if old.status == "kicked":
            raise FakeWorldError(f"{user_obj.first_name} is banned from {chat_obj.title!r}")
        if old.status == "restricted":
            old.is_member = True
            new = old
        else:
            new = FakeMember(user=user_obj, status="member")
            chat_obj.members[user_obj.id] = new
        actor = by or user_obj
        message = self._service_message(chat_obj, actor, {"new_chat_members": [user_obj.to_api()]})
        self._emit_chat_member(chat_obj, {
            "chat": chat_obj.to_api(), "from": actor.to_api(), "date": self.now(),
            "old_chat_member": old_api, "new_chat_member": new.to_api(chat_obj.type),
        })
        self._notify()
        return message

    def user_leaves(self, user: FakeUser | int, chat: FakeChat | int) -> FakeMessage:
        """The user leaves the group: a left_chat_member message and a chat_member update
        (the latter only reaches a bot that is an admin there and asked for "chat_member" in
        allowed_updates)."""
        user_obj, chat_obj = self.user(user), self.chat(chat)
        old = self._member(chat_obj, user_obj)
        if not old.in_chat:
            raise FakeWorldError(f"{user_obj.first_name} is not in {chat_obj.title!r}")
        old_api = old.to_api(chat_obj.type)
        if old.status == "restricted":
            old.is_member = False
            new = old
        else:
            new = FakeMember(user=user_obj, status="left")
            chat_obj.members[user_obj.id] = new
        message = self._service_message(chat_obj, user_obj,
                                        {"left_chat_member": user_obj.to_api()})
        self._emit_chat_member(chat_obj, {
            "chat": chat_obj.to_api(), "from": user_obj.to_api(), "date": self.now(),
            "old_chat_member": old_api, "new_chat_member": new.to_api(chat_obj.type),
        })
        self._notify()
        return message

    def migrate_group(self, chat: FakeChat | int) -> FakeChat:
        """Upgrade a basic group to a supergroup (new id). The old group gets a message with
        ``migrate_to_chat_id``, the new one a message with ``migrate_from_chat_id``; from then
        on every call naming the old id fails with 400 + ``migrate_to_chat_id``."""
        old = self.chat(chat)
        if old.type != "group" or old.migrated_to is not None:
            raise FakeWorldError(f"chat {old.id} is not a basic group that can be migrated")
        new = self.add_group(old.title or "", supergroup=True, bot_status=None,
                             username=old.username, permissions=dict(old.permissions))
        for user_id, member in old.members.items():
            copied = FakeMember(user=member.user, status=member.status, rights=dict(member.rights),
                                permissions=dict(member.permissions) if member.permissions else None,
                                until_date=member.until_date, is_member=member.is_member,
                                custom_title=member.custom_title)
            new.members[user_id] = copied
        old.migrated_to, new.migrated_from = new.id, old.id
        actor = self._someone_in_charge(old)
        self._service_message(old, actor, {"migrate_to_chat_id": new.id}, force=True)
        self._service_message(new, actor, {"migrate_from_chat_id": old.id}, force=True)
        self._notify()
        return new

    # ------------------------------------------------------------------- fault injection

    def slow(self, seconds: float, match: Callable[[str, JSON], bool]) -> None:
        """Every later call for which ``match(method, params)`` holds is answered ``seconds``
        late (a slow chat: its calls succeed, later). ``method`` is lower-case."""
        self.latencies.append((match, seconds))

    def fail_next(
        self,
        method: str,
        error_code: int | None = 429,
        *,
        retry_after: int = 1,
        times: int = 1,
        match: Callable[[JSON], bool] | None = None,
        description: str | None = None,
        migrate_to_chat_id: int | None = None,
        disconnect: bool = False,
        executed: bool = False,
        delay: float = 0.0,
    ) -> Fault:
        """Make the next ``times`` calls of ``method`` (matching ``match(params)``) fail.

        ``error_code`` 429 answers "Too Many Requests: retry after N" with
        ``parameters.retry_after``; other codes get Telegram-like default descriptions.
        ``disconnect=True`` drops the connection without an answer (the client sees a network
        error); ``executed=True`` performs the call first and then fails, as when Telegram did
        the work but the answer was lost; ``delay`` holds the answer back (for client timeouts).
        """
        parameters: JSON | None = None
        if error_code == 429:
            parameters = {"retry_after": retry_after}
        if migrate_to_chat_id is not None:
            parameters = {"migrate_to_chat_id": migrate_to_chat_id}
        if description is None:
            description = {
                400: "Bad Request: injected failure",
                401: "Unauthorized",
                403: "Forbidden: bot was blocked by the user",
                409: "Conflict: terminated by other getUpdates request; "
                     "make sure that only one bot instance is running",
                429: f"Too Many Requests: retry after {retry_after}",
                500: "Internal Server Error",
                502: "Bad Gateway",
            }.get(error_code or 0, "Injected failure")
        fault = Fault(method=method.lower(), error_code=error_code, description=description,
                      parameters=parameters, times=times, match=match,
                      disconnect=disconnect or error_code is None, executed=executed,
                      delay=delay)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def set_flood_limits(self, limits: FloodLimits | None = FloodLimits()) -> None:
        """Enforce flood limits with 429 + retry_after on send/edit methods (None: off)."""
        self._flood = _Flood(limits) if limits is not None else None

    # ------------------------------------------------------------------------ inspection

    def sent(self, chat_id: FakeChat | FakeUser | int | None = None, *,
             include_deleted: bool = True) -> list[FakeMessage]:
        """Messages the bot sent, oldest first, as they are now (edits applied, ``history``
        holding the earlier versions, ``deleted`` set when the bot deleted them)."""
        wanted = None if chat_id is None else self.chat(chat_id).id
        return [m for m in self._bot_messages
                if (wanted is None or m.chat.id == wanted) and (include_deleted or not m.deleted)]

    def last_sent(self, chat_id: FakeChat | FakeUser | int | None = None) -> FakeMessage:
        messages = self.sent(chat_id)
        if not messages:
            raise FakeWorldError(f"the bot has sent nothing to {chat_id}")
        return messages[-1]

    def message(self, chat: FakeChat | FakeUser | int, message_id: int) -> FakeMessage:
        return self.messages[(self.chat(chat).id, message_id)]

    def calls_to(self, method: str) -> list[Call]:
        lowered = method.lower()
        return [c for c in self.calls if c.method.lower() == lowered]

    def restrictions(self, chat: FakeChat | int, user: FakeUser | int) -> Restriction | None:
        """The member's restrictions now, or None when they are not restricted."""
        member = self._member(self.chat(chat), self.user(user))
        if member.status != "restricted":
            return None
        return Restriction(status=member.status, permissions=dict(member.permissions or {}),
                           until_date=member.until_date, is_member=member.is_member)

    def member(self, chat: FakeChat | int, user: FakeUser | int) -> FakeMember:
        return self._member(self.chat(chat), self.user(user))

    @property
    def pending_updates(self) -> int:
        """Updates queued and not yet acknowledged by a later getUpdates offset."""
        return len(self._updates)

    @property
    def undelivered_updates(self) -> int:
        """Updates no getUpdates call has returned yet."""
        return sum(1 for u in self._updates if u["update_id"] > self._delivered_up_to)

    async def wait_for(self, predicate: Callable[[], T], timeout: float = WAIT,
                       what: str | None = None) -> T:
        """Wait until ``predicate()`` is truthy and return its value; raise ``FakeTimeout``
        with the recent calls otherwise. The default bound (:data:`WAIT`) is generous: a wait
        ends as soon as the condition holds, and a machine loaded by other work (CI, two test
        runs at once) must not turn a slow answer into a failure.

        The predicate is re-checked after every call the bot makes and every simulated action,
        and every ``RECHECK`` seconds for conditions on the bot's own state (an error handler,
        a database row) that no call announces."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(repr(c) for c in self.calls[-12:]
                                     if c.method.lower() != "getupdates") or "(none)"
                errors = f"\ninternal errors: {self.internal_errors}" if self.internal_errors else ""
                raise FakeTimeout(f"timed out after {timeout}s waiting for "
                                  f"{what or getattr(predicate, '__name__', 'condition')}; "
                                  f"recent calls:\n  {recent}{errors}")
            event = self._changed_event
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, self.RECHECK))

    async def wait_sent(self, chat: FakeChat | FakeUser | int | None = None, *, count: int = 1,
                        timeout: float = WAIT) -> FakeMessage:
        """Wait until the bot has sent ``count`` messages to ``chat`` (any chat if None) and
        return the latest one."""
        await self.wait_for(lambda: len(self.sent(chat)) >= count, timeout,
                            f"{count} message(s) from the bot to {chat}")
        return self.sent(chat)[-1]

    async def wait_delivered(self, timeout: float = WAIT) -> None:
        """Wait until every queued update has been handed to a getUpdates call."""
        await self.wait_for(lambda: self.undelivered_updates == 0, timeout, "updates delivered")

    # ------------------------------------------------------------------ HTTP dispatching

    async def _handle_http(self, request: HttpRequest) -> HttpResponse | None:
        if request.path.startswith("/file/bot"):
            return self._serve_file(request.path[len("/file/bot"):])
        match = re.fullmatch(r"/bot([^/]*)/([A-Za-z0-9_]+)/?", request.path)
        if match is None:
            return json_response(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        token, method = match.groups()
        try:
            params = Params(request.fields, request.files)
            decoded = params.decoded()
        except ApiError as exc:
            params, decoded = None, dict(request.fields)
            parse_error: ApiError | None = exc
        else:
            parse_error = None
        call = Call(method=method, params=decoded, files=dict(request.files), at=self.clock())
        self.calls.append(call)
        self._notify()  # a long poll answers late; waiters may care that it arrived
        try:
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if parse_error is not None:
                raise parse_error
            assert params is not None
            return await self._run_call(call, method, params)
        except ApiError as exc:
            return self._answer_error(call, exc)
        except Exception as exc:  # a bug in the fake: answer 500 and keep it for the test
            self.internal_errors.append(exc)
            return self._answer_error(call, ApiError(500, f"Internal Server Error: {exc!r}"))
        finally:
            self._notify()

    async def _run_call(self, call: Call, method: str, params: Params) -> HttpResponse | None:
        key = method.lower()
        for match, seconds in self.latencies:
            if match(key, call.params):
                await asyncio.sleep(seconds)
        fault = self._take_fault(key, call)
        if fault is not None:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.executed and key in self._handlers:
                with contextlib.suppress(ApiError):
                    await self._invoke(key, params)
            call.injected = True
            if fault.disconnect:
                call.ok, call.description = False, "connection dropped (injected)"
                return None
            raise ApiError(fault.error_code or 500, fault.description, fault.parameters)
        handler = self._handlers.get(key)
        if handler is None:
            if key in self._known_methods:
                self.unimplemented.append(call)
                raise ApiError(400, f"Bad Request: method {method} is not implemented by "
                                    "FakeBotAPI")
            raise ApiError(404, "Not Found")
        self._check_flood(key, params)
        result = await self._invoke(key, params)
        call.ok, call.result = True, result
        return json_response(200, {"ok": True, "result": result})

    async def _invoke(self, key: str, params: Params) -> Any:
        result = self._handlers[key](params)
        if asyncio.iscoroutine(result):
            result = await result
        return result

    def _answer_error(self, call: Call, exc: ApiError) -> HttpResponse:
        call.ok, call.error_code, call.description = False, exc.error_code, exc.description
        return json_response(exc.error_code, exc.payload())

    def _take_fault(self, key: str, call: Call) -> Fault | None:
        for fault in self.faults:
            if fault.method == key and fault.remaining > 0 and (
                fault.match is None or fault.match(call.params)
            ):
                fault.hits.append(call)
                if fault.remaining == 0:
                    self.faults.remove(fault)
                return fault
        return None

    def _check_flood(self, key: str, params: Params) -> None:
        if self._flood is None or key not in FLOOD_METHODS:
            return
        chat = self._find_chat(params.get("chat_id"))
        now = self.clock()
        limits = self._flood.limits
        checks: list[tuple[deque[float], int, float]] = []
        if limits.global_per_second:
            checks.append((self._flood.global_window, limits.global_per_second, 1.0))
        if chat is not None:
            window = self._flood.chat_windows.setdefault(chat.id, deque())
            if chat.type != "private" and limits.per_group_per_minute:
                checks.append((window, limits.per_group_per_minute, 60.0))
            elif chat.type == "private" and limits.per_private_chat_per_second:
                checks.append((window, limits.per_private_chat_per_second, 1.0))
        for window, limit, span in checks:
            while window and window[0] <= now - span:
                window.popleft()
            if len(window) >= limit:
                retry_after = max(1, math.ceil(window[0] + span - now))
                raise ApiError(429, f"Too Many Requests: retry after {retry_after}",
                               {"retry_after": retry_after})
        for window, _, _ in checks:
            window.append(now)

    def _serve_file(self, rest: str) -> HttpResponse:
        token, _, path = rest.partition("/")
        if token != self.token:
            return json_response(401, {"ok": False, "error_code": 401,
                                       "description": "Unauthorized"})
        for stored in self.files.values():
            if stored.file_path == path and stored.data is not None:
                return HttpResponse(200, stored.data, stored.mime_type or "application/octet-stream")
        return json_response(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    # ------------------------------------------------------------------ update plumbing

    def _emit(self, kind: str, payload: JSON) -> int | None:
        if kind not in self._allowed_updates:
            self.dropped_updates.append({kind: payload})
            return None
        update_id = next(self._update_ids)
        self._updates.append({"update_id": update_id, kind: payload})
        self._wake_pollers()
        return update_id

    def _emit_chat_member(self, chat: FakeChat, payload: JSON) -> int | None:
        """chat_member updates reach only a bot that is an administrator of the chat (and asked
        for them in allowed_updates) - Bot API, Update.chat_member."""
        if not self._bot_member(chat).is_admin:
            self.dropped_updates.append({"chat_member": payload})
            return None
        return self._emit("chat_member", payload)

    def _wake_pollers(self) -> None:
        self._updates_event.set()
        self._updates_event = asyncio.Event()

    def _notify(self) -> None:
        self._changed_event.set()
        self._changed_event = asyncio.Event()

    def _bot_receives(self, chat: FakeChat, message: FakeMessage) -> bool:
        """Would the bot get this user message? (Bot API: privacy mode.)"""
        bot = chat.members.get(self.bot_user.id)
        if chat.type == "private":
            return True
        if bot is None or not bot.in_chat:
            return False
        if not self.privacy_mode or bot.is_admin:
            return True
        if message.reply_to is not None and message.reply_to.by_bot:
            return True
        text = message.text or ""
        command = re.match(r"/[A-Za-z0-9_]+(?:@([A-Za-z0-9_]+))?", text)
        if command:
            suffix = command.group(1)
            return suffix is None or suffix.lower() == (self.bot_user.username or "").lower()
        return False

    def _service_message(self, chat: FakeChat, actor: FakeUser, fields: JSON, *,
                         force: bool = False) -> FakeMessage:
        """A service message; bots receive all of them (even in privacy mode)."""
        message = FakeMessage(chat=chat, message_id=chat.take_message_id(), date=self.now(),
                              from_user=actor, service=fields)
        self.messages[(chat.id, message.message_id)] = message
        bot = chat.members.get(self.bot_user.id)
        if force or (bot is not None and bot.in_chat):
            message.update_id = self._emit("message", message.to_api())
            message.delivered = message.update_id is not None
        return message

    def _ensure_started(self, user: FakeUser) -> None:
        if user.blocked:
            chat = self.private_chat(user)
            self._emit("my_chat_member", {
                "chat": chat.to_api(), "from": user.to_api(), "date": self.now(),
                "old_chat_member": {"status": "kicked", "user": self.bot_user.to_api(),
                                    "until_date": 0},
                "new_chat_member": {"status": "member", "user": self.bot_user.to_api()},
            })
        user.started, user.blocked = True, False

    def _check_user_can_write(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise FakeWorldError(f"group {chat.id} was migrated to {chat.migrated_to}")
        if chat.type == "channel":
            raise FakeWorldError("users do not write in channels")
        member = self._member(chat, user)
        if not member.in_chat:
            raise FakeWorldError(f"{user.first_name} is not in {chat.title!r} ({member.status})")
        if member.status == "restricted" and not (member.permissions or {}).get(
                "can_send_messages"):
            raise FakeWorldError(f"{user.first_name} is muted in {chat.title!r}")
        if member.status == "member" and not chat.permissions.get("can_send_messages", True):
            raise FakeWorldError(f"members cannot write in {chat.title!r}")

    def _someone_in_charge(self, chat: FakeChat) -> FakeUser:
        for member in chat.members.values():
            if member.status == "creator":
                return member.user
        for member in chat.members.values():
            if member.status == "administrator" and not member.user.is_bot:
                return member.user
        return self.bot_user

    def _resolve_reply(self, chat: FakeChat, reply_to: FakeMessage | int | None
                       ) -> FakeMessage | None:
        if reply_to is None:
            return None
        message_id = reply_to if isinstance(reply_to, int) else reply_to.message_id
        found = self.messages.get((chat.id, message_id))
        if found is None or found.deleted:
            raise FakeWorldError(f"no message {message_id} in chat {chat.id} to reply to")
        return found

    def _resolve_message(self, message: FakeMessage | tuple[int, int]) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        chat_id, message_id = message
        try:
            return self.messages[(chat_id, message_id)]
        except KeyError:
            raise FakeWorldError(f"no message {message_id} in chat {chat_id}") from None

    # ---------------------------------------------------------------- world lookups (API)

    def _find_chat(self, raw: Any) -> FakeChat | None:
        if isinstance(raw, bool):
            return None
        if isinstance(raw, int):
            return self.chats.get(raw)
        if isinstance(raw, str) and raw.startswith("@"):
            name = raw[1:].lower()
            for chat in self.chats.values():
                if chat.type != "private" and (chat.username or "").lower() == name:
                    return chat
        return None

    def _chat_for(self, p: Params, name: str = "chat_id") -> FakeChat:
        chat = self._find_chat(p.chat_id(name))
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": chat.migrated_to})
        return chat

    def _user_for(self, p: Params) -> FakeUser:
        user_id = p.integer("user_id", required=True)
        user = self.users.get(user_id) if user_id is not None else None
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        return user

    def _member(self, chat: FakeChat, user: FakeUser) -> FakeMember:
        """The member record, with an expired restriction or ban lifted (until_date passed)."""
        member = chat.members.get(user.id)
        if member is None:
            return FakeMember(user=user, status="left")
        if member.status in ("restricted", "kicked") and member.until_date and \
                self.now() >= member.until_date:
            if member.status == "restricted":
                member.status = "member" if member.is_member else "left"
            else:
                member.status = "left"
            member.permissions, member.until_date = None, FOREVER
        return member

    def _bot_member(self, chat: FakeChat) -> FakeMember:
        return self._member(chat, self.bot_user)

    def _check_can_send(self, chat: FakeChat, what: str = "text messages",
                        permission: str = "can_send_messages") -> None:
        """Telegram's refusals for a bot writing where it may not."""
        if chat.type == "private":
            user = chat.private_user
            assert user is not None
            if user.is_bot:
                raise ApiError(403, "Forbidden: bot can't send messages to bots")
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            return
        bot = self._bot_member(chat)
        if bot.status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.kind_name}")
        if not bot.in_chat:
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.kind_name}")
        if chat.type == "channel":
            if not bot.has_right("can_post_messages"):
                raise ApiError(400, "Bad Request: need administrator rights in the channel chat")
            return
        if bot.is_admin:
            return
        allowed = (bot.permissions or {}) if bot.status == "restricted" else chat.permissions
        if not allowed.get(permission, False):
            raise ApiError(400, f"Bad Request: not enough rights to send {what} to the chat")

    # ------------------------------------------------------------------ message building

    def _format(self, text: str, parse_mode: str | None, entities: Any,
                *, caption: bool = False) -> tuple[str, list[JSON]]:
        try:
            plain, found = parse_formatted(text, parse_mode, entities)
        except EntityParseError as exc:
            raise ApiError(400, f"Bad Request: can't parse entities: {exc}") from None
        limit = MAX_CAPTION_LENGTH if caption else MAX_TEXT_LENGTH
        if u16len(plain) > limit:
            raise ApiError(400, "Bad Request: message caption is too long" if caption
                           else "Bad Request: message is too long")
        return plain, found

    def _reply_markup(self, p: Params) -> JSON | None:
        markup = p.json("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            rows = markup["inline_keyboard"]
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise ApiError(400, "Bad Request: field \"inline_keyboard\" must be an Array of "
                                    "Arrays")
            for button in iter_buttons(markup):
                self._check_button(button)
            if not any(rows):
                return None  # an empty inline keyboard is no keyboard
        return markup

    @staticmethod
    def _check_button(button: Any) -> None:
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text must be "
                                "a String")
        if not button["text"].strip():
            raise ApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
        actions = [name for name in BUTTON_ACTIONS if name in button]
        if not actions:
            raise ApiError(400, "Bad Request: can't parse inline keyboard button: "
                                "Text buttons are unallowed in the inline keyboard")
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        if "url" in button:
            url = str(button["url"])
            if not re.match(r"(https?|tg)://\S+$", url):
                raise ApiError(400, f'Bad Request: inline keyboard button URL "{url}" is invalid: '
                                    "Wrong HTTP URL")

    def _reply_target(self, p: Params, chat: FakeChat) -> FakeMessage | None:
        reply = p.json("reply_parameters")
        if isinstance(reply, dict):
            message_id, allow = reply.get("message_id"), bool(reply.get("allow_sending_without_reply"))
            if reply.get("chat_id") not in (None, chat.id):
                other = self._find_chat(reply.get("chat_id"))
                chat = other if other is not None else chat
        else:
            message_id = p.integer("reply_to_message_id")
            allow = p.flag("allow_sending_without_reply")
        if message_id is None:
            return None
        target = self.messages.get((chat.id, int(message_id)))
        if target is None or target.deleted:
            if allow:
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return target

    def _new_bot_message(self, chat: FakeChat, p: Params, **fields: Any) -> FakeMessage:
        message = FakeMessage(chat=chat, message_id=chat.take_message_id(), date=self.now(),
                              from_user=None if chat.type == "channel" else self.bot_user,
                              by_bot=True, params=p.decoded(), **fields)
        if chat.type == "channel":
            message.service = {"sender_chat": chat.to_api()}
        self.messages[(chat.id, message.message_id)] = message
        self._bot_messages.append(message)
        return message

    def _message_for(self, p: Params, chat: FakeChat, missing: str) -> FakeMessage:
        if p.has("inline_message_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")  # the fake has no inline mode
        message_id = p.integer("message_id")
        if message_id is None:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self.messages.get((chat.id, message_id))
        if message is None or message.deleted:
            raise ApiError(400, f"Bad Request: {missing}")
        return message

    def _record_edit(self, message: FakeMessage) -> None:
        message.history.append(Edit(message.content, message.reply_markup,
                                    list(message.entities or message.caption_entities),
                                    message.edit_date or message.date))
        message.edit_date = self.now()

    @staticmethod
    def _inline(markup: JSON | None) -> JSON | None:
        return markup if markup and "inline_keyboard" in markup else None

    def _store_upload(self, p: Params, name: str, kind: str) -> StoredFile:
        upload = p.files.get(name)
        raw = p.get(name)
        if upload is None and isinstance(raw, str) and raw.startswith("attach://"):
            upload = p.files.get(raw[len("attach://"):])
        if upload is not None:
            if not upload.data:
                raise ApiError(400, "Bad Request: file must be non-empty")
            return self._new_file(upload.data, upload.filename, upload.content_type, kind)
        if isinstance(raw, str) and raw:
            if raw in self.files:
                return self.files[raw]
            if re.match(r"https?://", raw):
                stored = self._new_file(None, raw.rsplit("/", 1)[-1], None, kind)
                stored.url = raw
                return stored
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        raise ApiError(400, f"Bad Request: there is no {name} in the request")

    def _new_file(self, data: bytes | None, filename: str | None, mime: str | None,
                  kind: str) -> StoredFile:
        number = next(self._file_ids)
        digest = hashlib.sha256(data or f"url{number}".encode()).digest()
        unique = base64.urlsafe_b64encode(digest[:9]).decode()
        file_id = f"{kind[:2].upper()}{number:06d}{unique}"
        suffix = (filename or "").rsplit(".", 1)[-1] if filename and "." in filename else "bin"
        stored = StoredFile(file_id=file_id, file_unique_id=unique, data=data, file_name=filename,
                            mime_type=mime, file_path=f"{kind}s/file_{number}.{suffix}")
        self.files[file_id] = stored
        return stored

    # ------------------------------------------------------------------------ Bot API

    def _api_getMe(self, p: Params) -> JSON:
        return {**self.bot_user.to_api(), "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": False, "can_connect_to_business": False,
                "has_main_web_app": False}

    async def _api_getUpdates(self, p: Params) -> list[JSON]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        offset = p.integer("offset", 0) or 0
        limit = min(max(p.integer("limit", 100) or 100, 1), 100)
        timeout = max(p.integer("timeout", 0) or 0, 0)
        allowed = p.json("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATE_TYPES
        self._acknowledge(offset)
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_pollers()  # an older poll still waiting is terminated (409), as in Telegram
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            batch = self._updates[:limit]
            if batch or self._stopping:
                self._delivered_up_to = max([self._delivered_up_to] +
                                            [u["update_id"] for u in batch])
                return batch
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._updates_event
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)
            if generation != self._poll_generation:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure "
                                    "that only one bot instance is running")

    def _acknowledge(self, offset: int) -> None:
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]

    def _api_setWebhook(self, p: Params) -> bool:
        url = p.text("url", "") or ""
        if not url:
            self.webhook = None
            return True
        if not url.startswith("https://"):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for "
                                "webhook")
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        self.webhook = {"url": url, "allowed_updates": p.json("allowed_updates"),
                        "secret_token": p.text("secret_token")}
        return True

    def _api_deleteWebhook(self, p: Params) -> bool:
        self.webhook = None
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        return True

    def _api_getWebhookInfo(self, p: Params) -> JSON:
        info: JSON = {"url": (self.webhook or {}).get("url", ""), "has_custom_certificate": False,
                      "pending_update_count": len(self._updates)}
        if self.webhook and self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    #: BotCommandScope types (Bot API); those naming a chat carry ``chat_id`` (and ``user_id``).
    COMMAND_SCOPES = frozenset({"default", "all_private_chats", "all_group_chats",
                                "all_chat_administrators", "chat", "chat_administrators",
                                "chat_member"})

    def _commands_key(self, p: Params) -> tuple[str, str]:
        """The key of a command list: its scope (checked as the Bot API does) and language."""
        scope = p.json("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in self.COMMAND_SCOPES:
            raise ApiError(400, "Bad Request: can't parse BotCommandScope")
        if scope["type"] in ("chat", "chat_administrators", "chat_member") and "chat_id" not in scope:
            raise ApiError(400, "Bad Request: chat_id is empty")
        if scope["type"] == "chat_member" and "user_id" not in scope:
            raise ApiError(400, "Bad Request: user_id is empty")
        language = p.text("language_code", "") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise ApiError(400, "Bad Request: invalid language code specified")
        return json.dumps(scope, sort_keys=True), language

    def visible_commands(self, chat: FakeChat | FakeUser | int, user: FakeUser | int | None = None,
                         language_code: str | None = None) -> list[JSON]:
        """The menu a client shows ``user`` in ``chat``, resolved as the Bot API documents it
        ("Determining list of commands"): the first scope that has a list, narrowest first —
        chat_member, chat_administrators (for an admin), chat, all_chat_administrators (for an
        admin), all_group_chats for a group; chat, all_private_chats for a private chat; then
        default — each with the user's language before the list without one."""
        chat_id = chat if isinstance(chat, int) else chat.id
        user_id = (user if isinstance(user, int) else user.id) if user is not None else chat_id
        language = language_code if language_code is not None else (
            self.users[user_id].language_code if user_id in self.users else None) or ""
        private = chat_id > 0
        scopes: list[JSON] = []
        if private:
            scopes += [{"type": "chat", "chat_id": chat_id}, {"type": "all_private_chats"}]
        else:
            group = self.chats[chat_id]
            member = group.members.get(user_id)
            admin = member is not None and member.status in ("creator", "administrator")
            scopes.append({"type": "chat_member", "chat_id": chat_id, "user_id": user_id})
            if admin:
                scopes.append({"type": "chat_administrators", "chat_id": chat_id})
            scopes.append({"type": "chat", "chat_id": chat_id})
            if admin:
                scopes.append({"type": "all_chat_administrators"})
            scopes.append({"type": "all_group_chats"})
        scopes.append({"type": "default"})
        for scope in scopes:
            key = json.dumps(scope, sort_keys=True)
            for lang in ([language] if language else []) + [""]:
                if (key, lang) in self.commands:
                    return list(self.commands[(key, lang)])
        return []

    def _api_setChatMenuButton(self, p: Params) -> bool:
        """The private chats' menu button (``chat_id`` left out: every chat's default)."""
        button = p.json("menu_button")
        if button is not None and (not isinstance(button, dict) or button.get("type") not in (
                "commands", "web_app", "default")):
            raise ApiError(400, "Bad Request: can't parse menu button")
        if isinstance(button, dict) and button.get("type") == "web_app" and not re.match(
                r"https?://\S+$", str((button.get("web_app") or {}).get("url", ""))):
            raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
        self.menu_button = button
        return True

    def _api_setMyCommands(self, p: Params) -> bool:
        commands = p.json("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise ApiError(400, "Bad Request: commands must be an Array of at most 100 "
                                "BotCommand")
        for command in commands:
            name = command.get("command", "") if isinstance(command, dict) else ""
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(name)):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(p)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def _api_getMyCommands(self, p: Params) -> list[JSON]:
        return list(self.commands.get(self._commands_key(p), []))

    def _api_deleteMyCommands(self, p: Params) -> bool:
        self.commands.pop(self._commands_key(p), None)
        return True

    def _api_sendMessage(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        self._check_can_send(chat)
        text = p.text("text", "") or ""
        plain, entities = self._format(text, p.text("parse_mode"), p.json("entities"))
        if not plain:
            raise ApiError(400, "Bad Request: message text is empty")
        markup = self._reply_markup(p)
        reply = self._reply_target(p, chat)
        message = self._new_bot_message(chat, p, text=plain, entities=entities,
                                        reply_markup=markup, reply_to=reply,
                                        parse_mode=p.text("parse_mode"), source_text=text)
        return message.to_api()

    def _send_media(self, p: Params, kind: str, permission: str, what: str) -> JSON:
        chat = self._chat_for(p)
        self._check_can_send(chat, what, permission)
        stored = self._store_upload(p, kind, kind)
        caption_src = p.text("caption")
        caption: str | None = None
        caption_entities: list[JSON] = []
        if caption_src:
            caption, caption_entities = self._format(caption_src, p.text("parse_mode"),
                                                     p.json("caption_entities"), caption=True)
        fields: dict[str, Any] = {}
        if kind == "photo":
            fields["photo"] = [{**stored.meta(), "width": 90, "height": 90},
                               {**stored.meta(), "width": 800, "height": 800}]
        else:
            document = stored.meta()
            if stored.file_name:
                document["file_name"] = stored.file_name
            if stored.mime_type:
                document["mime_type"] = stored.mime_type
            fields["document"] = document
        message = self._new_bot_message(chat, p, caption=caption or None,
                                        caption_entities=caption_entities,
                                        reply_markup=self._reply_markup(p),
                                        reply_to=self._reply_target(p, chat),
                                        parse_mode=p.text("parse_mode"), **fields)
        return message.to_api()

    def _api_sendPhoto(self, p: Params) -> JSON:
        return self._send_media(p, "photo", "can_send_photos", "photos")

    def _api_sendDocument(self, p: Params) -> JSON:
        return self._send_media(p, "document", "can_send_documents", "documents")

    def _api_sendChatAction(self, p: Params) -> bool:
        chat = self._chat_for(p)
        self._check_can_send(chat)
        if not p.text("action"):
            raise ApiError(400, "Bad Request: action is empty")
        return True

    def _api_getFile(self, p: Params) -> JSON:
        stored = self.files.get(p.text("file_id", "") or "")
        if stored is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        return {**stored.meta(), "file_path": stored.file_path}

    def _api_editMessageText(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        message = self._message_for(p, chat, "message to edit not found")
        if not message.by_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = p.text("text", "") or ""
        plain, entities = self._format(text, p.text("parse_mode"), p.json("entities"))
        if not plain:
            raise ApiError(400, "Bad Request: message text is empty")
        markup = self._reply_markup(p)  # omitted: the inline keyboard is removed, as Telegram does
        if plain == message.text and entities == message.entities and \
                markup == self._inline(message.reply_markup):
            raise self._not_modified()
        self._record_edit(message)
        message.text, message.entities, message.reply_markup = plain, entities, markup
        message.source_text, message.parse_mode = text, p.text("parse_mode")
        return message.to_api()

    def _api_editMessageCaption(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        message = self._message_for(p, chat, "message to edit not found")
        if not message.by_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.photo is None and message.document is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        source = p.text("caption", "") or ""
        caption, entities = self._format(source, p.text("parse_mode"),
                                         p.json("caption_entities"), caption=True)
        markup = self._reply_markup(p)
        if (caption or None) == message.caption and entities == message.caption_entities and \
                markup == self._inline(message.reply_markup):
            raise self._not_modified()
        self._record_edit(message)
        message.caption, message.caption_entities = caption or None, entities
        message.reply_markup = markup
        return message.to_api()

    def _api_editMessageReplyMarkup(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        message = self._message_for(p, chat, "message to edit not found")
        if not message.by_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._reply_markup(p)
        if markup is not None and "inline_keyboard" not in markup:
            raise ApiError(400, "Bad Request: inline keyboard expected")
        if markup == self._inline(message.reply_markup):
            raise self._not_modified()
        self._record_edit(message)
        message.reply_markup = markup
        return message.to_api()

    @staticmethod
    def _not_modified() -> ApiError:
        return ApiError(400, "Bad Request: message is not modified: specified new message content "
                             "and reply markup are exactly the same as a current content and "
                             "reply markup of the message")

    def _can_delete(self, chat: FakeChat, message: FakeMessage) -> bool:
        if chat.type == "private":
            return self.now() - message.date < EDIT_WINDOW
        bot = self._bot_member(chat)
        admin_delete = bot.has_right("can_delete_messages")
        if chat.type in ("supergroup", "channel") and admin_delete:
            return True
        if self.now() - message.date >= EDIT_WINDOW:
            return False
        if chat.type == "channel":
            return message.by_bot and bot.has_right("can_post_messages")
        return message.by_bot or admin_delete

    def _api_deleteMessage(self, p: Params) -> bool:
        chat = self._chat_for(p)
        message = self._message_for(p, chat, "message to delete not found")
        if not self._can_delete(chat, message):
            raise ApiError(400, "Bad Request: message can't be deleted")
        message.deleted = True
        return True

    def _api_deleteMessages(self, p: Params) -> bool:
        chat = self._chat_for(p)
        ids = p.json("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise ApiError(400, "Bad Request: message_ids must be an Array of 1-100 Integers")
        for message_id in ids:
            message = self.messages.get((chat.id, int(message_id)))
            if message is not None and not message.deleted and self._can_delete(chat, message):
                message.deleted = True
        return True

    def _api_answerCallbackQuery(self, p: Params) -> bool:
        query_id = p.text("callback_query_id", required=True) or ""
        record = self.callback_queries.get(query_id)
        if record is None or record.answered or record.expired:
            raise ApiError(400, QUERY_INVALID)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        answer = CallbackAnswer(text=text, show_alert=p.flag("show_alert"), url=p.text("url"),
                                cache_time=p.integer("cache_time", 0) or 0)
        record.answer = answer
        self.callback_answers[query_id] = answer
        return True

    def _supergroup_for(self, p: Params, *, channels: bool = False) -> FakeChat:
        chat = self._chat_for(p)
        if chat.type == "supergroup" or (channels and chat.type == "channel"):
            return chat
        if channels:
            raise ApiError(400, "Bad Request: method is available for supergroup and channel "
                                "chats only")
        raise ApiError(400, "Bad Request: method is available only for supergroups")

    def _api_restrictChatMember(self, p: Params) -> bool:
        chat = self._supergroup_for(p)
        user = self._user_for(p)
        raw = p.json("permissions")
        if not isinstance(raw, dict):
            raise ApiError(400, "Bad Request: permissions must be a ChatPermissions object")
        if user.id == self.bot_user.id:
            raise ApiError(400, "Bad Request: can't restrict self")
        if not self._bot_member(chat).has_right("can_restrict_members"):
            raise ApiError(400, "Bad Request: not enough rights to restrict/unrestrict chat member")
        target = self._member(chat, user)
        if target.status == "creator":
            raise ApiError(400, "Bad Request: can't remove chat owner")
        if target.status == "administrator":
            raise ApiError(400, "Bad Request: user is an administrator of the chat")
        old_api = target.to_api(chat.type)
        permissions = self._permissions_from(raw, p.flag("use_independent_chat_permissions"))
        in_chat = target.in_chat
        if any(chat.permissions.get(name, False) and not permissions[name] for name in PERMISSIONS):
            new = FakeMember(user=user, status="restricted", permissions=permissions,
                             until_date=self._effective_until(p.integer("until_date", 0) or 0),
                             is_member=in_chat)
        else:
            new = FakeMember(user=user, status="member" if in_chat else "left")
        chat.members[user.id] = new
        self._emit_chat_member(chat, {
            "chat": chat.to_api(), "from": self.bot_user.to_api(), "date": self.now(),
            "old_chat_member": old_api, "new_chat_member": new.to_api(chat.type),
        })
        return True

    @staticmethod
    def _permissions_from(raw: JSON, independent: bool) -> dict[str, bool]:
        """Omitted fields are False; without independent permissions the legacy implications
        apply (can_send_other_messages / previews imply all media and messages; polls imply
        messages) - Bot API, restrictChatMember.use_independent_chat_permissions. An omitted
        ``can_edit_tag`` follows ``can_pin_messages`` (documented); an omitted
        ``can_react_to_messages`` stays allowed (undocumented; older clients do not send it)."""
        permissions = {name: bool(raw.get(name, False)) for name in PERMISSIONS}
        if "can_edit_tag" not in raw:  # documented default
            permissions["can_edit_tag"] = permissions["can_pin_messages"]
        if "can_react_to_messages" not in raw:  # Bot API 10.0 field; older clients omit it
            permissions["can_react_to_messages"] = True
        if not independent:
            if permissions["can_send_other_messages"] or permissions["can_add_web_page_previews"]:
                for name in (*MEDIA_PERMISSIONS, "can_send_messages"):
                    permissions[name] = True
            if permissions["can_send_polls"]:
                permissions["can_send_messages"] = True
        return permissions

    def _effective_until(self, until: int) -> int:
        """Less than 30 seconds or more than 366 days from now means forever (Bot API)."""
        delta = until - self.now()
        return FOREVER if until == 0 or delta < 30 or delta > 366 * 86400 else until

    def _api_promoteChatMember(self, p: Params) -> bool:
        chat = self._supergroup_for(p, channels=True)
        user = self._user_for(p)
        if user.id == self.bot_user.id:
            raise ApiError(400, "Bad Request: can't promote self")
        if not self._bot_member(chat).has_right("can_promote_members"):
            raise ApiError(400, "Bad Request: not enough rights")
        target = self._member(chat, user)
        if target.status == "creator":
            raise ApiError(400, "Bad Request: can't demote chat creator")
        if not target.in_chat:
            raise ApiError(400, "Bad Request: USER_NOT_PARTICIPANT")
        old_api = target.to_api(chat.type)
        rights = {name: p.flag(name) for name in ADMIN_RIGHTS}
        if any(rights.values()):
            new = FakeMember(user=user, status="administrator", rights=rights, can_be_edited=True,
                             is_anonymous=p.flag("is_anonymous"))
        else:
            new = FakeMember(user=user, status="member")
        chat.members[user.id] = new
        self._emit_chat_member(chat, {
            "chat": chat.to_api(), "from": self.bot_user.to_api(), "date": self.now(),
            "old_chat_member": old_api, "new_chat_member": new.to_api(chat.type),
        })
        return True

    def _api_getChatMember(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        user = self._user_for(p)
        if chat.type == "channel" and not self._bot_member(chat).is_admin:
            raise ApiError(400, "Bad Request: member list is inaccessible")
        return self._member(chat, user).to_api(chat.type)

    def _api_getChat(self, p: Params) -> JSON:
        chat = self._chat_for(p)
        pinned = None
        if chat.pinned:
            message = self.messages.get((chat.id, chat.pinned[-1]))
            pinned = message.to_api(with_reply=False) if message else None
        user = chat.private_user
        personal = self.chats.get(user.personal_chat) if user is not None and user.personal_chat else None
        return chat.to_full_api(pinned, personal.to_api() if personal is not None else None)

    def _api_getChatAdministrators(self, p: Params) -> list[JSON]:
        chat = self._chat_for(p)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        return [self._member(chat, m.user).to_api(chat.type) for m in list(chat.members.values())
                if self._member(chat, m.user).is_admin]

    def _api_getChatMemberCount(self, p: Params) -> int:
        chat = self._chat_for(p)
        return sum(1 for m in list(chat.members.values()) if self._member(chat, m.user).in_chat)

    def _api_leaveChat(self, p: Params) -> bool:
        chat = self._chat_for(p)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: chat member status can't be changed in private "
                                "chats")
        if not self._bot_member(chat).in_chat:
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.kind_name}")
        self.set_bot_status(chat, "left", by=self.bot_user)
        return True

    def _pin_rights(self, chat: FakeChat) -> None:
        """Pinning needs can_pin_messages in groups (an admin's right, or a member's when the
        chat lets everyone pin) and can_edit_messages in channels."""
        if chat.type == "private":
            return
        bot = self._bot_member(chat)
        if chat.type == "channel":
            allowed = bot.has_right("can_edit_messages")
        elif bot.is_admin:
            allowed = bot.has_right("can_pin_messages")
        else:
            allowed = bot.in_chat and bool(chat.permissions.get("can_pin_messages"))
        if not allowed:
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in the "
                                "chat")

    def _api_pinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for(p)
        self._pin_rights(chat)
        message = self._message_for(p, chat, "message to pin not found")
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        return True

    def _api_unpinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for(p)
        self._pin_rights(chat)
        message_id = p.integer("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
            return True
        if message_id not in chat.pinned:
            raise ApiError(400, "Bad Request: message to unpin not found")
        chat.pinned.remove(message_id)
        return True

    def _api_unpinAllChatMessages(self, p: Params) -> bool:
        chat = self._chat_for(p)
        self._pin_rights(chat)
        chat.pinned.clear()
        return True

