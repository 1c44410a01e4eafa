"""The simulated Telegram world: users, chats, members with statuses and rights, messages.

Objects here are plain mutable records owned by one ``FakeBotAPI``; ``to_api`` renders the
Bot API JSON shapes (https://core.telegram.org/bots/api#available-types) that python-telegram-bot
deserialises, including every field PTB 22 requires (e.g. ``ChatFullInfo.accepted_gift_types``,
``ChatMemberRestricted.can_edit_tag``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterator

JSON = dict[str, Any]

ADMIN_RIGHTS: tuple[str, ...] = (
    "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
    "can_promote_members", "can_change_info", "can_invite_users", "can_post_stories",
    "can_edit_stories", "can_delete_stories", "can_post_messages", "can_edit_messages",
    "can_pin_messages", "can_manage_topics",
)
"""ChatAdministratorRights fields (ChatMemberAdministrator without user/can_be_edited/anonymous)."""

GROUP_ADMIN_RIGHTS: tuple[str, ...] = tuple(
    r for r in ADMIN_RIGHTS if r not in ("can_post_messages", "can_edit_messages")
)

PERMISSIONS: tuple[str, ...] = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
    "can_invite_users", "can_pin_messages", "can_manage_topics", "can_edit_tag",
    "can_react_to_messages",
)
"""ChatPermissions fields that ChatMemberRestricted must carry (PTB 22.8 requires them all)."""

MEDIA_PERMISSIONS: tuple[str, ...] = (
    "can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos",
    "can_send_video_notes", "can_send_voice_notes",
)

DEFAULT_CHAT_PERMISSIONS: dict[str, bool] = {
    **{p: True for p in PERMISSIONS},
    "can_change_info": False, "can_pin_messages": False, "can_manage_topics": False,
    "can_edit_tag": False,
}
"""What a fresh group lets ordinary members do."""

DEFAULT_BOT_ADMIN_RIGHTS: dict[str, bool] = {
    **{r: False for r in ADMIN_RIGHTS},
    "can_manage_chat": True, "can_delete_messages": True, "can_restrict_members": True,
    "can_invite_users": True, "can_pin_messages": True,
}
"""The rights a referee bot is usually given: delete, restrict (mute), pin, invite."""

FOREVER = 0

# The placeholder senders Telegram puts in ``from`` when a message is written in a chat's name
# (Bot API, Message.sender_chat): a group's anonymous admin, a post as a channel, and a linked
# channel's post forwarded into its discussion group.
ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID, TELEGRAM_ID = 1087968824, 136817688, 777000

STATUSES = ("creator", "administrator", "member", "restricted", "left", "kicked")


@dataclass
class FakeUser:
    """A Telegram account. ``started`` / ``blocked`` describe its private chat with the bot."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False
    started: bool = False
    blocked: bool = False
    personal_chat: int | None = None  # the channel his profile shows (getChat's personal_chat)

    def to_api(self) -> JSON:
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data

    @property
    def mention(self) -> str:
        return f"@{self.username}" if self.username else self.first_name


@dataclass
class FakeMember:
    """A user's standing in one chat (ChatMember): status, admin rights or restrictions."""

    user: FakeUser
    status: str = "member"
    rights: dict[str, bool] = field(default_factory=dict)
    permissions: dict[str, bool] | None = None
    until_date: int = FOREVER
    is_member: bool = True  # for "restricted": is the user in the chat
    custom_title: str | None = None
    can_be_edited: bool = False
    is_anonymous: bool = False

    def to_api(self, chat_type: str) -> JSON:
        data: JSON = {"status": self.status, "user": self.user.to_api()}
        if self.status == "creator":
            data["is_anonymous"] = self.is_anonymous
            if self.custom_title:
                data["custom_title"] = self.custom_title
        elif self.status == "administrator":
            names = ADMIN_RIGHTS if chat_type == "channel" else GROUP_ADMIN_RIGHTS
            data.update(can_be_edited=self.can_be_edited, is_anonymous=self.is_anonymous)
            data.update({r: bool(self.rights.get(r, False)) for r in names})
            if self.custom_title:
                data["custom_title"] = self.custom_title
        elif self.status == "restricted":
            perms = self.permissions or {}
            data["is_member"] = self.is_member
            data.update({p: bool(perms.get(p, False)) for p in PERMISSIONS})
            data["until_date"] = self.until_date
        elif self.status == "kicked":
            data["until_date"] = self.until_date
        elif self.status == "member" and self.until_date:
            data["until_date"] = self.until_date
        return data

    @property
    def in_chat(self) -> bool:
        """Is the user present in the chat (can read it)?"""
        if self.status == "restricted":
            return self.is_member
        return self.status in ("creator", "administrator", "member")

    @property
    def is_admin(self) -> bool:
        return self.status in ("creator", "administrator")

    def has_right(self, right: str) -> bool:
        """Creator has every right; administrators only those granted."""
        return self.status == "creator" or (
            self.status == "administrator" and bool(self.rights.get(right))
        )


@dataclass
class FakeChat:
    """A chat: "private" (id == user id), "group", "supergroup" or "channel"."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    members: dict[int, FakeMember] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=lambda: dict(DEFAULT_CHAT_PERMISSIONS))
    migrated_to: int | None = None
    migrated_from: int | None = None
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)
    private_user: FakeUser | None = None  # for private chats
    linked_chat: int | None = None  # a channel's discussion group, a group's channel

    def to_api(self) -> JSON:
        """The short ``Chat`` object carried inside messages and updates."""
        data: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.private_user is not None:
            user = self.private_user
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        else:
            data["title"] = self.title or ""
            if self.username:
                data["username"] = self.username
        return data

    def to_full_api(self, pinned_message: JSON | None = None, personal_chat: JSON | None = None) -> JSON:
        """``ChatFullInfo`` for getChat (``personal_chat``: a user's channel on his profile)."""
        data = self.to_api()
        if personal_chat is not None:
            data["personal_chat"] = personal_chat
        if self.linked_chat is not None:
            data["linked_chat_id"] = self.linked_chat
        data.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False,
                "premium_subscription": False, "gifts_from_channels": False,
            },
        )
        if self.type in ("group", "supergroup"):
            data["permissions"] = dict(self.permissions)
        if pinned_message is not None:
            data["pinned_message"] = pinned_message
        return data

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    @property
    def kind_name(self) -> str:
        """How Telegram names the chat in errors: "group chat", "supergroup chat", "channel chat"."""
        return {"group": "group chat", "supergroup": "supergroup chat",
                "channel": "channel chat"}.get(self.type, "chat")

    def take_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id


@dataclass
class Edit:
    """One earlier version of a message, kept when the bot edits it."""

    text: str | None
    reply_markup: JSON | None
    entities: list[JSON]
    date: int


@dataclass
class FakeMessage:
    """A message in a chat, sent by the bot or by a (simulated) user."""

    chat: FakeChat
    message_id: int
    date: int
    from_user: FakeUser | None
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    reply_markup: JSON | None = None
    reply_to: FakeMessage | None = None
    photo: list[JSON] | None = None
    document: JSON | None = None
    service: JSON = field(default_factory=dict)  # new_chat_members, migrate_to_chat_id, ...
    edit_date: int | None = None
    history: list[Edit] = field(default_factory=list)
    deleted: bool = False
    by_bot: bool = False
    parse_mode: str | None = None
    source_text: str | None = None  # the text as the bot sent it, before parse_mode
    params: JSON = field(default_factory=dict)  # every parameter of the sending call
    delivered: bool | None = None  # user messages: did the bot receive an update for it
    update_id: int | None = None
    sender_chat: FakeChat | None = None  # written in a chat's name (anonymous admin, channel)
    author: FakeUser | None = None  # who wrote it when ``from`` is a placeholder (sender_chat)
    author_signature: str | None = None  # an anonymous admin's custom title
    forward_origin: JSON | None = None  # a linked channel's post, forwarded automatically

    @property
    def protected(self) -> bool:
        """Sent with ``protect_content``: nobody can forward or save it."""
        return bool(self.params.get("protect_content"))

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def content(self) -> str | None:
        """The text, or the caption of a media message."""
        return self.text if self.text is not None else self.caption

    @property
    def keyboard(self) -> list[list[JSON]]:
        """Rows of inline buttons (empty when the message has no inline keyboard)."""
        if not self.reply_markup:
            return []
        return [list(row) for row in self.reply_markup.get("inline_keyboard", [])]

    @property
    def buttons(self) -> list[JSON]:
        return [button for row in self.keyboard for button in row]

    def button(self, text: str) -> JSON:
        """The inline button whose label equals or contains ``text``."""
        exact = [b for b in self.buttons if b.get("text") == text]
        found = exact or [b for b in self.buttons if text in str(b.get("text", ""))]
        if not found:
            labels = [b.get("text") for b in self.buttons]
            raise KeyError(f"no button {text!r} on message {self.message_id}; buttons: {labels}")
        return found[0]

    def callback_data(self, text: str) -> str:
        """The callback_data of the button labelled ``text``."""
        return str(self.button(text)["callback_data"])

    @property
    def texts(self) -> list[str | None]:
        """Every version of the text, oldest first, the current one last."""
        return [edit.text for edit in self.history] + [self.content]

    def to_api(self, *, with_reply: bool = True) -> JSON:
        data: JSON = {"message_id": self.message_id, "date": self.date, "chat": self.chat.to_api()}
        if self.from_user is not None:
            data["from"] = self.from_user.to_api()
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_api()
        if self.author_signature:
            data["author_signature"] = self.author_signature
        if self.forward_origin is not None:
            data["forward_origin"] = copy.deepcopy(self.forward_origin)
            data["is_automatic_forward"] = True
        if self.protected:
            data["has_protected_content"] = True
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.reply_to is not None and with_reply:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = copy.deepcopy(self.entities)
        if self.photo is not None:
            data["photo"] = copy.deepcopy(self.photo)
        if self.document is not None:
            data["document"] = dict(self.document)
        if self.caption is not None:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = copy.deepcopy(self.caption_entities)
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = copy.deepcopy(self.reply_markup)
        data.update(copy.deepcopy(self.service))
        return data

    def __repr__(self) -> str:
        who = "bot" if self.by_bot else (self.from_user.first_name if self.from_user else "?")
        flags = " deleted" if self.deleted else ""
        return (f"<FakeMessage {self.chat.id}/{self.message_id} from {who}{flags}: "
                f"{self.content!r} buttons={[b.get('text') for b in self.buttons]}>")


def iter_buttons(markup: JSON | None) -> Iterator[JSON]:
    if markup:
        for row in markup.get("inline_keyboard", []) or []:
            yield from row
