"""``mafia-referee both``: the Telegram bot and the Discord bot in one process, over ONE service
and one SQLite game log.

One process, because the service assumes it is the only writer of its store
(:mod:`bot.service`; :mod:`bot.writer` refuses a second one): two processes on one database could
both append to a game's log. Telegram long-polls — or, with ``MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL``
set, serves its webhook as ``mafia-referee telegram`` does (:mod:`bot.telegram.webhook`) — and
Discord keeps its gateway in the same event loop; Ctrl+C or SIGTERM stops both.

Each adapter sees the other's games in the store, and each re-arms only its own timers after a
restart (the Telegram adapter asks :meth:`Service.open_timers` with ``prefix="tg:"``; the Discord
adapter skips all but ``"dc:"`` chats), so both are given the same :class:`Service`.
:class:`ScopedService` (a view whose :meth:`~ScopedService.open_timers` is scoped to one prefix)
is kept for callers that still use it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from storage import Store

from .. import lifecycle
from ..service import Service
from ..settings import Settings

log = logging.getLogger(__name__)


class ScopedService:
    """The same :class:`Service` (same locks, same cached games), except that
    :meth:`open_timers` lists only the games whose chat starts with ``prefix``."""

    def __init__(self, service: Service, prefix: str) -> None:
        self._service = service
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def open_timers(self, prefix: str | None = None) -> dict[int, dict[str, Any]]:
        return await self._service.open_timers(prefix=self._prefix if prefix is None else prefix)


async def serve_both(settings: Settings, webhook_secret: str = "") -> None:
    """Run both bots until cancelled (Ctrl+C), then stop both and close the store. Telegram's
    updates come by its webhook (``webhook_secret``: :func:`bot.telegram.webhook.webhook_secret`)
    when the settings have a webhook URL, else by long polling."""
    from ..telegram.app import ALLOWED_UPDATES, build_application
    from ..telegram.webhook import webhook_options
    from .app import build_client

    assert settings.telegram_token is not None and settings.discord_token is not None
    lifecycle.stop_on_sigterm()  # systemctl stop, docker stop: as Ctrl+C
    store = await Store.open(settings.db)
    service = Service(store, cached=settings.cache_chats, club_rules=settings.rules)
    web = None
    if settings.web:  # one web layer for both: one server, both front doors (bot.web)
        from ..web.server import WebLayer

        web = WebLayer(settings)
    telegram = build_application(settings, service, web=web)  # it re-arms only "tg:" timers itself
    discord_client = build_client(settings, service, web=web)
    started = False
    try:
        await telegram.initialize()
        if telegram.post_init is not None:
            await telegram.post_init(telegram)
        assert telegram.updater is not None
        if settings.telegram_webhook_url:  # setWebhook, then PTB's server on LISTEN:PORT
            await telegram.updater.start_webhook(
                **webhook_options(settings, list(ALLOWED_UPDATES), webhook_secret))
        else:  # long polling deletes a webhook left from an earlier run
            await telegram.updater.start_polling(allowed_updates=list(ALLOWED_UPDATES))
        await telegram.start()
        started = True
        async with discord_client:
            await discord_client.start(settings.discord_token.get_secret_value().strip())
    finally:
        if started:
            if telegram.updater is not None and telegram.updater.running:
                await telegram.updater.stop()
            if telegram.running:
                await telegram.stop()
        if telegram.post_shutdown is not None:
            await telegram.post_shutdown(telegram)
        await telegram.shutdown()
        await store.close()


def run_both(settings: Settings) -> int:
    """``mafia-referee both``: returns the exit status (2: a token is refused)."""
    import discord
    from telegram.error import InvalidToken

    from ..telegram.webhook import webhook_ready, webhook_secret
    from .app import configure_logging

    assert settings.telegram_token is not None and settings.discord_token is not None
    secret, generated = webhook_secret(settings) if settings.telegram_webhook_url else ("", False)
    configure_logging(settings.telegram_token.get_secret_value(),
                      settings.discord_token.get_secret_value().strip(), secret, fmt=settings.log_format)
    if not webhook_ready(settings, generated):
        return 2
    try:
        asyncio.run(serve_both(settings, secret))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return 0
    except InvalidToken:  # a setting: restarting will not help (exit 2, as bad settings)
        log.error("Telegram refused the token")
        return 2
    except discord.LoginFailure:
        log.error("Discord refused the token")
        return 2
    return 0
