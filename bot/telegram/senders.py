"""Who wrote a group's message on Telegram, when it was written in the name of a chat.

A member may write in a group as someone else than himself: an anonymous admin writes as the
group (the Bot API's ``sender_chat`` is the group itself, ``from`` the placeholder
@GroupAnonymousBot, ``author_signature`` his custom title), a member who runs a channel may write
as that channel (``sender_chat`` the channel, ``from`` @Channel_Bot), and a channel linked to the
group has each of its posts forwarded there automatically (``is_automatic_forward``). At a
running hosted table (issue 36) such a message is judged as its author's when the Bot API lets
the bot name him, else it is nobody's: host mode deletes it and tells the host
(:meth:`bot.host.controller.HostController.message`). :func:`sender_of` names him:

* the group's anonymous admin: the one anonymous administrator (``getChatAdministrators``) whose
  custom title is the message's signature (none: the one without a title);
* a channel: the one player seated at the table whose personal channel it is (``getChat`` of
  each: ``personal_chat``, which a user shows on his profile).

Nothing is looked up elsewhere (a lobby, a group without a table): there it changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Collection

from telegram.error import TelegramError

from .base import chat_id_of, chat_key
from .host.handlers import display_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Sender:
    """Who wrote a message: ``user`` (a store key) and his ``name`` for the table (``""``: his
    own); ``anonymous``: written in the name of a chat whose author is not known (``user`` is
    that chat); ``free``: a linked channel's post forwarded to the group, nobody's speech."""

    user: str
    name: str = ""
    anonymous: bool = False
    free: bool = False


async def sender_of(bot: Any, message: Any,
                    seated: Callable[[], Awaitable[Collection[str] | None]]) -> Sender | None:
    """The author of ``message`` when it was written in the name of a chat (``None``: it was
    not, its ``from`` is its author). ``seated()``: the store keys of the players at the
    group's running table (``None``: no running table — nobody is looked up), asked only for a
    message in the name of a chat."""
    if getattr(message, "is_automatic_forward", False):
        return Sender(chat_key(message.chat.id), free=True)
    chat = getattr(message, "sender_chat", None)
    if chat is None:
        return None
    unknown = Sender(chat_key(chat.id), anonymous=True)
    players = await seated()
    if players is None:
        return unknown
    try:
        if chat.id == message.chat.id:
            found = await _anonymous_admin(bot, message)
        else:
            found = await _channel_owner(bot, chat.id, players)
    except TelegramError as error:  # cannot look: nobody named
        log.info("cannot name the author of %s/%s: %s", message.chat.id, message.message_id, error)
        return unknown
    return found or unknown


async def _anonymous_admin(bot: Any, message: Any) -> Sender | None:
    """The group's one anonymous administrator whose custom title signs the message."""
    signature = message.author_signature or ""
    admins = await bot.get_chat_administrators(message.chat.id)
    found = [a.user for a in admins if getattr(a, "is_anonymous", False)
             and (getattr(a, "custom_title", None) or "") == signature]
    if len(found) != 1:
        return None
    return Sender(chat_key(found[0].id), display_name(found[0]))


async def _channel_owner(bot: Any, channel: int, seated: Collection[str]) -> Sender | None:
    """The one seated player whose personal channel (his profile's) is ``channel``."""
    found = []
    for user in seated:
        info = await bot.get_chat(chat_id_of(user))
        personal = getattr(info, "personal_chat", None)
        if personal is not None and personal.id == channel:
            found.append((user, info))
    if len(found) != 1:
        return None
    user, info = found[0]
    return Sender(user, display_name(info))
