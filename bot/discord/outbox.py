"""Discord's transport of the persistent outbox (:mod:`bot.outbox`): a row becomes a REST call.

* a text row → a message in the channel, or in the user's direct messages (``private``), split at
  line ends into Discord's 2000 characters; an edit → the stored message's content (its
  buttons the row's, or none: taken off); a protocol row → one
  message with the score sheet and the JSON files attached (:mod:`bot.protocol.files`);
* discord.py's errors in the outbox's words: a 429 it did not wait out itself → wait; Forbidden,
  NotFound or another 4xx → given up; a 5xx, a dropped connection or a timeout → tried again;
* every part of a row is sent with a nonce of its own, the same at every try (:func:`nonce`), and
  Discord enforces it (``enforce_nonce``, which discord.py sets with a nonce): a send Discord
  carried out but whose answer was lost — a dropped connection, a timeout, the process killed
  mid-send — and that is tried again within a few minutes returns the first message instead of
  posting a second one;
* a row of several parts records each part as it is delivered (:func:`bot.outbox.calls`): a try
  after a failure on a later part — minutes later too, past the nonce's window (a long flood
  wait, a restart) — sends that part and the rest, never the parts delivered.
"""

from __future__ import annotations

import asyncio
import functools
import io
from typing import TYPE_CHECKING, Any, Callable

import aiohttp
import discord

from storage import OutboxRow

from .. import outbox as ob
from ..i18n import catalog
from ..render import chunks
from .host.port import rows_view
from .keys import PREFIX, id_of

if TYPE_CHECKING:
    from ..service import Service

MAX_CONTENT = 2000  # characters of a message's text


def nonce(row: OutboxRow, part: int) -> str:
    """The nonce of part ``part`` of outbox row ``row``: the same at every try of the row, and
    another row's never (its id, and the millisecond it was queued, which tells apart a row id
    used again after a database was restored from a backup); at most 25 characters."""
    return f"{row.id}.{part}.{int(row.created_at * 1000) % 10 ** 8}"[:25]


def _view(payload: dict[str, Any]) -> discord.ui.View | None:
    """The row's buttons as a persistent view (``None``: none; an edit takes them off)."""
    return rows_view(ob.rows_of(payload))


class DiscordTransport:
    """Sends outbox rows through the adapter (``referee()``: its client, its DM channels);
    ``protocol``: attach the protocol's files (tests may leave them out: the picture takes a
    second to draw)."""

    prefix = PREFIX

    def __init__(self, service: Callable[[], Service], referee: Callable[[], Any], *,
                 protocol: bool = True, sheet: Callable[[], Any] | None = None) -> None:
        self._service = service
        self._referee = referee
        self.protocol = protocol
        self._sheet = sheet  # the club's name and time zone (bot.protocol.files.SheetDefaults)

    async def deliver(self, row: OutboxRow, made: ob.Made) -> int | None:
        try:
            return await self._call(row, made)
        except discord.HTTPException as error:
            if error.status == 429:
                raise ob.RetryAfter(float(getattr(error, "retry_after", 1.0) or 1.0)) from error
            if error.status >= 500:
                raise ob.Unreachable(f"{error.status}: {error.text}") from error
            raise ob.Refused(f"{error.status}: {error.text}") from error
        except discord.RateLimited as error:
            raise ob.RetryAfter(error.retry_after) from error
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as error:
            raise ob.Unreachable(f"{type(error).__name__}: {error}") from error

    async def _channel(self, row: OutboxRow) -> discord.PartialMessageable:
        referee = self._referee()
        if row.payload.get("private"):
            channel = await referee._dm_channel(row.chat)
            if channel is None:
                raise ob.Refused(f"no direct messages with {row.chat}")
            return channel  # type: ignore[no-any-return]
        return referee._messageable(id_of(row.chat))  # type: ignore[no-any-return]

    async def _call(self, row: OutboxRow, made: ob.Made) -> int | None:
        channel = await self._channel(row)
        payload = row.payload
        text = str(payload.get("text", ""))
        if row.kind == "edit":
            message_id = payload.get("message_id")
            if message_id is None and row.slot and row.game_id is not None:
                message_id = await self._service().message(row.game_id, row.chat, row.slot)
            if message_id is None:
                raise ob.Refused("message to edit not found")
            await channel.get_partial_message(int(message_id)).edit(
                content=text[:MAX_CONTENT], view=_view(payload))
            return int(message_id)
        files: list[discord.File] = []
        if payload.get("protocol") is not None:
            files, problems = await self._protocol(int(payload["protocol"]),
                                                   str(payload.get("lang", "ru")), payload)
            text = "\n".join([text, *problems]).strip()
            if not files and not problems:
                return None
        parts = chunks(text, MAX_CONTENT) or [""]

        async def send(index: int) -> int:
            last = index == len(parts) - 1
            sent = await channel.send(parts[index] or None,
                                      files=files if last and files else discord.utils.MISSING,
                                      view=_view(payload) if last else discord.utils.MISSING,
                                      nonce=nonce(row, index))
            return int(sent.id)

        ids = await ob.calls(row, [functools.partial(send, i) for i in range(len(parts))], made)
        return ids[-1]

    async def _protocol(self, game_id: int, lang: str,
                        payload: dict[str, Any]) -> tuple[list[discord.File], list[str]]:
        if not self.protocol:
            return [], []
        made = await self._service().game_files(
            game_id, catalog(lang), defaults=self._sheet() if self._sheet else None,
            judge=payload.get("judge"), table=payload.get("table"))
        if not made.over:  # its end undone before it left: the protocol goes at the real end
            return [], []
        return [discord.File(io.BytesIO(data), name) for name, data in made.files], made.problems
