"""The live pages' secrets (0016, issue 30; :mod:`bot.web`): one row per home chat, read and
written by :class:`WebMethods` — one text for both backends (:class:`storage.Store`,
:class:`storage.PgStore`) over the connection bridge (:mod:`storage.bridge`).

A page's address carries ``<id>.<secret>``: :meth:`WebMethods.web_table_by_id` finds the row by
its id, and the caller compares the secret in constant time (:func:`hmac.compare_digest`) —
never a lookup by the secret itself."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any, Sequence

from .bridge import Bridged, one

#: bytes of randomness in a page's secret (22 URL-safe characters: 128 bits)
SECRET_BYTES = 16
#: seconds the broadcast page runs behind the table unless the club sets another delay
DEFAULT_DELAY = 300
#: the longest delay a club may set (seconds): a whole evening
MAX_DELAY = 6 * 3600

_COLUMNS = "id, chat, secret, broadcast, delay, made_at"


@dataclass(frozen=True)
class WebTable:
    """A table's pages: ``chat`` (its home chat, or ``tournament:<club>``), the public page's
    ``secret``, the broadcast page's ``broadcast`` secret, the broadcast's ``delay`` (seconds)."""

    id: int
    chat: str
    secret: str
    broadcast: str
    delay: int
    made_at: float

    @property
    def public_key(self) -> str:
        """What the public page's address carries: ``<id>.<secret>``."""
        return f"{self.id}.{self.secret}"

    @property
    def broadcast_key(self) -> str:
        """What the broadcast page's address carries: ``<id>.<broadcast secret>``."""
        return f"{self.id}.{self.broadcast}"


def _row(row: Sequence[Any]) -> WebTable:
    return WebTable(id=int(row[0]), chat=str(row[1]), secret=str(row[2]), broadcast=str(row[3]),
                    delay=int(row[4]), made_at=float(row[5]))


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


class WebMethods(Bridged):
    """The store's methods of the live pages (0016)."""

    async def web_table(self, chat: str, *, create: bool = False) -> WebTable | None:
        """The pages of ``chat`` (``None``: none yet); ``create``: made with fresh secrets
        when there are none."""
        row = await self._one(f"SELECT {_COLUMNS} FROM web_tables WHERE chat = ?", chat)
        if row is not None or not create:
            return _row(row) if row is not None else None
        made = await self._write_step(one(
            "INSERT INTO web_tables(chat, secret, broadcast, delay, made_at) VALUES (?, ?, ?, ?, ?)"
            f" ON CONFLICT(chat) DO UPDATE SET chat = excluded.chat RETURNING {_COLUMNS}",
            chat, new_secret(), new_secret(), DEFAULT_DELAY, time.time()))
        return _row(made)

    async def web_table_by_id(self, table_id: int) -> WebTable | None:
        row = await self._one(f"SELECT {_COLUMNS} FROM web_tables WHERE id = ?", table_id)
        return _row(row) if row is not None else None

    async def rotate_web_table(self, chat: str) -> WebTable:
        """New secrets for ``chat``'s pages (the old addresses stop working); made if none."""
        await self.web_table(chat, create=True)
        row = await self._write_step(one(
            f"UPDATE web_tables SET secret = ?, broadcast = ?, made_at = ? WHERE chat = ?"
            f" RETURNING {_COLUMNS}", new_secret(), new_secret(), time.time(), chat))
        return _row(row)

    async def set_web_delay(self, chat: str, delay: int) -> WebTable:
        """The broadcast page's delay of ``chat`` (seconds, 0 … :data:`MAX_DELAY`)."""
        if not 0 <= delay <= MAX_DELAY:
            raise ValueError(f"delay {delay} out of 0..{MAX_DELAY}")
        await self.web_table(chat, create=True)
        row = await self._write_step(one(
            f"UPDATE web_tables SET delay = ? WHERE chat = ? RETURNING {_COLUMNS}", delay, chat))
        return _row(row)
