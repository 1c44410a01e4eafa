"""POSTing an update to the bot's webhook server as Telegram (or a TLS proxy in front of the bot)
would: the tests of webhook mode (tests/test_deploy.py, tests/test_discord_parts.py,
tests/test_telegram_shared.py)."""

from __future__ import annotations

import asyncio
from typing import Any, Mapping

import aiohttp

#: s: how long a webhook server may take to listen after ``setWebhook`` (generous: a busy machine)
LISTEN_TIMEOUT = 30.0
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


async def post_update(http: aiohttp.ClientSession, hook: str, update: Mapping[str, Any],
                      secret: str | None = None) -> int:
    """POST ``update`` (JSON) to ``hook`` with ``secret`` in Telegram's header (none: no header),
    retrying while nothing listens there yet (up to :data:`LISTEN_TIMEOUT` seconds); the HTTP
    status. ``AssertionError`` if nothing ever listens."""
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    deadline = asyncio.get_running_loop().time() + LISTEN_TIMEOUT
    while True:
        try:
            async with http.post(hook, json=dict(update), headers=headers) as response:
                return response.status
        except aiohttp.ClientConnectorError:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"nothing listens on {hook}") from None
            await asyncio.sleep(0.1)
