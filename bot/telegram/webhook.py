"""How ``mafia-referee telegram`` receives updates: long polling (default) or a webhook.

With ``MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL`` set, PTB's ``Application.run_webhook`` starts a small
HTTP server (tornado: ``python-telegram-bot[webhooks]``) on ``…_WEBHOOK_LISTEN:…_WEBHOOK_PORT``
that serves the URL's path, and calls ``setWebhook`` with the public URL and the secret token
(Bot API: Telegram puts it in the ``X-Telegram-Bot-Api-Secret-Token`` header; PTB answers 403 to a
request without it). There is always a secret: ``…_TELEGRAM_WEBHOOK_SECRET``, or one made at random
at each start (:func:`webhook_secret`) — without one, anyone who knows the URL could post forged
updates and act as any user. TLS is the proxy's job (nginx, Caddy, a cloud balancer) in front of it.
Going back to polling deletes the webhook (PTB's ``run_polling`` does it when it starts).

Also the heartbeat (:func:`bot.health.heartbeat_job`): a repeating job on the JobQueue.
"""

from __future__ import annotations

import importlib.util
import logging
import secrets
from typing import Any
from urllib.parse import urlsplit

from ..health import heartbeat_job
from ..settings import Settings

HEARTBEAT_JOB = "heartbeat"
#: bytes of randomness in a generated webhook secret (43 URL-safe characters)
SECRET_BYTES = 32

log = logging.getLogger(__name__)


def webhook_available() -> bool:
    """PTB's webhook server needs tornado (the ``webhooks`` extra)."""
    return importlib.util.find_spec("tornado") is not None


#: Tries to reach the Bot API at start-up before ``mafia-referee telegram`` exits with 1.
START_RETRIES = 3


def webhook_secret(settings: Settings) -> tuple[str, bool]:
    """The webhook's secret token and whether it was generated: ``…_TELEGRAM_WEBHOOK_SECRET``
    (:class:`bot.settings.Settings` has refused an empty or weak one), else a random one
    (:func:`secrets.token_urlsafe`, :data:`SECRET_BYTES` bytes) for this run; ``setWebhook`` gives
    it to Telegram at every start, so it need not be kept."""
    if settings.telegram_webhook_secret is not None:
        return settings.telegram_webhook_secret.get_secret_value(), False
    return secrets.token_urlsafe(SECRET_BYTES), True


def webhook_ready(settings: Settings, generated: bool) -> bool:
    """Once logging is configured (the secret redacted): whether the settings' updates can come
    — by long polling, or by the webhook when its URL is set and tornado is installed (else one
    line says so: the caller exits 2). A secret made for this run (``generated``) is said, never
    shown: Telegram gets it with ``setWebhook``."""
    if settings.telegram_webhook_url and not webhook_available():
        log.error("webhook mode needs tornado: pip install 'python-telegram-bot[webhooks]'")
        return False
    if generated:
        log.info("MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET is not set: a random webhook secret was "
                 "generated for this run")
    return True


def webhook_options(settings: Settings, allowed_updates: list[str], secret: str) -> dict[str, Any]:
    """The keyword arguments of ``Application.run_webhook`` for the settings (URL set) and the
    secret token (:func:`webhook_secret`): a request without it is answered 403."""
    assert settings.telegram_webhook_url and secret
    return {
        "listen": settings.telegram_webhook_listen,
        "port": settings.telegram_webhook_port,
        "url_path": urlsplit(settings.telegram_webhook_url).path.strip("/"),
        "webhook_url": settings.telegram_webhook_url,
        "secret_token": secret,
        "allowed_updates": allowed_updates,
        "bootstrap_retries": START_RETRIES,  # like polling: a few tries, then exit 1
    }


def start_heartbeat(app: Any, settings: Settings) -> bool:
    """Touch ``settings.heartbeat`` at once and every ``heartbeat_interval`` seconds while the
    Application runs. Returns whether a heartbeat was scheduled. (A first run at 0 would not
    do: the JobQueue starts after the connection, and APScheduler then puts a start in the past
    on its interval's grid, one interval later.)"""
    if settings.heartbeat is None or app.job_queue is None:
        return False
    beat = heartbeat_job(settings.heartbeat)
    beat.beat()
    app.job_queue.run_repeating(beat, interval=settings.heartbeat_interval,
                                first=settings.heartbeat_interval, name=HEARTBEAT_JOB)
    return True
