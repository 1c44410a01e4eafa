"""Telegram's transport of the persistent outbox (:mod:`bot.outbox`): a row becomes a Bot API call.

* a text row → ``sendMessage`` (cut to :data:`MAX_TEXT`), its buttons an inline keyboard; an
  edit → ``editMessageText`` of the stored message (its keyboard the row's buttons, or none); a protocol row → ``sendPhoto`` (the score sheet, with the row's text as its
  caption) and a ``sendDocument`` per JSON file (:mod:`bot.protocol.files`), each call recorded as
  it is delivered (:func:`bot.outbox.calls`): a retry after a failure on a JSON file sends that
  file and the rest, never the sheet again;
* PTB's errors in the outbox's words: ``RetryAfter`` (429), ``ChatMigrated`` (the group became a
  supergroup), "message is not modified", ``Forbidden``/``BadRequest`` (given up), any other
  ``TelegramError`` (the network, a timeout: tried again later).

A private text row is sent protected from forwarding (:func:`protected`).
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from storage import OutboxRow

from .. import outbox as ob
from ..i18n import catalog
from ..render import fit
from .base import PREFIX

if TYPE_CHECKING:
    from ..service import Service

MAX_TEXT = 4096  # Bot API: a message's text, in UTF-16 code units
MAX_CAPTION = 1024  # Bot API: a photo's caption


def markup(rows: ob.Rows | None) -> InlineKeyboardMarkup | None:
    """Our buttons as Telegram's inline keyboard (``None``: no keyboard, or an edit's removal)."""
    if not rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=b.data, url=b.url)
                                  for b in row] for row in rows if row])


def _keyboard(payload: dict[str, Any]) -> dict[str, Any]:
    """A row's buttons as the call's ``reply_markup`` (none given: an edit takes them off), as
    the Bot API's JSON: the request is made from plain data (``Bot._post``, under the rate
    limiter as every call), as the judge's panel edit is (issue 34: ``send_message`` builds PTB
    objects and parses the sent ``Message`` back, about 470 µs of CPU a call against 250)."""
    rows = inline_keyboard([row for row in ob.rows_of(payload) or [] if row])
    return {"reply_markup": {"inline_keyboard": rows}} if rows else {}


def inline_keyboard(rows: Sequence[Sequence[Any]]) -> list[list[dict[str, Any]]]:
    """Buttons — ours (:class:`bot.outbox.Button`) or a judge's panel's — as the rows of the Bot
    API's ``InlineKeyboardMarkup`` in JSON: a button with a URL opens it, any other sends its
    data back when pressed."""
    return [[{"text": b.label, **({"url": url} if (url := getattr(b, "url", None))
                                  else {"callback_data": b.data})} for b in row] for row in rows]


async def _sent(bot: Any, chat: int, text: str, **data: Any) -> int:
    """``sendMessage`` from plain data (:func:`_keyboard`): the id of the message it made."""
    result = await bot._post("sendMessage", {"chat_id": chat, "text": text, **data})
    return int(result["message_id"])


def protected(payload: dict[str, Any]) -> dict[str, Any]:
    """A private row (host mode's message to one player: his role card, a check's answer, a
    night prompt, the blacks' words at night 0) is sent with ``protect_content``: Telegram lets
    nobody forward or save it, so nobody can prove a role with the bot's own message (issue 36).
    The judge's messages in judge mode are not private rows: he knows the roles, and his panel
    may be forwarded to a fellow judge."""
    return {"protect_content": True} if payload.get("private") else {}


async def _send_protected(bot: Any, row: OutboxRow, text: str) -> int:
    """A private text row sent: protected from forwarding (:func:`protected`)."""
    return await _sent(bot, _chat_id(row.chat), text, **_keyboard(row.payload),
                       **protected(row.payload))


def _chat_id(chat: str) -> int:
    return int(chat.removeprefix(PREFIX))


async def _message(bot: Any, chat: int, text: str) -> int:
    """A protocol's calls, each the id of the message it made: its text, when too long for the
    score sheet's caption, ..."""
    return int((await bot.send_message(chat, text)).message_id)


async def _photo(bot: Any, chat: int, name: str, data: bytes, caption: str | None) -> int:
    """... the score sheet, ..."""
    sent = await bot.send_photo(chat, InputFile(io.BytesIO(data), filename=name), caption=caption)
    return int(sent.message_id)


async def _document(bot: Any, chat: int, name: str, data: bytes) -> int:
    """... and each JSON file."""
    return int((await bot.send_document(chat, InputFile(io.BytesIO(data), filename=name))).message_id)


def retry_seconds(error: RetryAfter) -> float:
    """The wait a 429 asks for, in seconds (PTB gives an int, or a timedelta with PTB_TIMEDELTA)."""
    value = error.retry_after
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


class TelegramTransport:
    """Sends outbox rows through ``bot()`` (PTB's ``Bot``: it may be built after the transport);
    ``service()`` gives the service (a slot's message id, a protocol's files)."""

    prefix = PREFIX

    def __init__(self, service: Callable[[], Service], bot: Callable[[], Any], *,
                 sheet: Callable[[], Any] | None = None) -> None:
        self._service = service
        self._bot = bot
        self._sheet = sheet  # the club's name and time zone (bot.protocol.files.SheetDefaults)

    async def deliver(self, row: OutboxRow, made: ob.Made) -> int | None:
        try:
            return await self._call(row, made)
        except RetryAfter as error:
            raise ob.RetryAfter(retry_seconds(error)) from error
        except ChatMigrated as moved:
            raise ob.ChatMoved(f"{PREFIX}{moved.new_chat_id}") from moved
        except (Forbidden, BadRequest) as error:
            if row.kind == "edit" and "not modified" in str(error).lower():
                raise ob.NotModified(str(error)) from error
            raise ob.Refused(f"{type(error).__name__}: {error}") from error
        except TelegramError as error:  # network, timeout, server error: try again later
            raise ob.Unreachable(f"{type(error).__name__}: {error}") from error

    async def _call(self, row: OutboxRow, made: ob.Made) -> int | None:
        bot = self._bot()
        payload = row.payload
        text = fit(str(payload.get("text", "")), MAX_TEXT)
        if row.kind == "edit":
            message_id = payload.get("message_id")
            if message_id is None and row.slot and row.game_id is not None:
                message_id = await self._service().message(row.game_id, row.chat, row.slot)
            if message_id is None:
                raise BadRequest("message to edit not found")
            await bot._post("editMessageText", {"chat_id": _chat_id(row.chat),
                                                "message_id": message_id, "text": text,
                                                **_keyboard(payload)})
            return int(message_id)
        if payload.get("private") and payload.get("protocol") is None:
            return await _send_protected(bot, row, text)
        if payload.get("protocol") is not None:
            return await self._protocol(row, text, made)
        return await _sent(bot, _chat_id(row.chat), text, **_keyboard(payload))

    async def _protocol(self, row: OutboxRow, caption: str, made: ob.Made) -> int | None:
        bot = self._bot()
        cat = catalog(str(row.payload.get("lang", "ru")))
        files = await self._service().game_files(
            int(row.payload["protocol"]), cat, defaults=self._sheet() if self._sheet else None,
            judge=row.payload.get("judge"), table=row.payload.get("table"))
        if not files.over:  # its end undone before it left: the protocol goes at the real end
            return None
        chat = _chat_id(row.chat)
        text = "\n".join([caption, *files.problems]).strip()
        steps: list[Callable[[], Awaitable[int | None]]] = []
        picture = files.picture
        if text and (picture is None or len(text) > MAX_CAPTION):  # too long for a caption
            steps.append(functools.partial(_message, bot, chat, fit(text, MAX_TEXT)))
            text = ""
        if picture is not None:
            steps.append(functools.partial(_photo, bot, chat, picture[0], picture[1], text or None))
        for name, data in files.documents:
            steps.append(functools.partial(_document, bot, chat, name, data))
        ids = await ob.calls(row, steps, made)
        return next((i for i in ids if i is not None), None)
