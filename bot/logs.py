"""Process logs: one stderr handler whose formatter never lets a token through.

``MAFIA_REFEREE_LOG_FORMAT`` picks the shape of a line:

* ``text`` (default): ``2026-11-29 18:00:00,000 INFO bot.service: game 7: …``;
* ``json``: one JSON object a line — ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``,
  ``game`` and ``chat`` when the record carries them (``log.info(…, extra={"game": 7})``), and
  ``exception`` / ``stack`` when there is one — for a log shipper (journald, Docker, Loki …).

Both go through :class:`RedactingFormatter`: every secret (a bot token, and the part of a Telegram
token after its ``:``, which alone is enough to use the bot) is replaced by ``<token>`` in the whole
formatted text: the message, its arguments, the traceback; so is a database URL's password
(``postgresql://user:***@host/db``). httpx's INFO lines carry the request URL,
token included, so httpx is kept at WARNING as well. The web pages' secrets (issue 30,
:mod:`bot.web`) are masked by their form, wherever a line quotes them (:data:`WEB_SECRETS`): a
table page's key (``<id>.<secret>``), a judge's session or one-time link (``Bearer …``,
``#dc=…``), a Mini App's signed ``initData`` (its ``hash``).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import datetime, timezone
from typing import Any, Iterable, Literal, TextIO

from storage.pg import masked

LogFormat = Literal["text", "json"]

MASK = "<token>"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: Record attributes copied into a JSON line when present (``extra={...}``).
CONTEXT_FIELDS = ("game", "chat")
#: Libraries whose INFO lines are noise (apscheduler: three lines per timer edit) or carry the token
#: in a URL (httpx, httpcore).
NOISY = ("httpx", "httpcore", "apscheduler")


#: The web pages' secrets by their form (:mod:`bot.web.auth`, :mod:`storage.web`): what each
#: pattern's match becomes.
WEB_SECRETS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9_.=-]+"), rf"\1{MASK}"),
    (re.compile(r"\b(dc=|tgWebAppData=|hash(?:=|%3D))[^\s&#\"']+"), rf"\1{MASK}"),
    (re.compile(r"\b(\d{1,12}\.)[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])"), rf"\1{MASK}"),
    (re.compile(r"\b[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"), MASK),
)


def _secret_parts(secrets: Iterable[str]) -> list[str]:
    """The strings to mask: each secret, and a Telegram token's secret half (``id:secret``);
    longest first, so a whole token becomes one ``<token>``."""
    parts: set[str] = set()
    for secret in secrets:
        secret = (secret or "").strip()
        if not secret:
            continue
        parts.add(secret)
        _, colon, tail = secret.partition(":")
        if colon and len(tail) >= 8:
            parts.add(tail)
    return sorted(parts, key=len, reverse=True)


class RedactingFormatter(logging.Formatter):
    """A :class:`logging.Formatter` that replaces every secret by ``<token>`` in the formatted
    line, whatever logged it and wherever the secret is (message, ``%`` arguments, traceback)."""

    def __init__(self, secrets: Iterable[str] = (), fmt: str = TEXT_FORMAT) -> None:
        super().__init__(fmt)
        self._secrets = _secret_parts(secrets)

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        for pattern, mask in WEB_SECRETS:
            text = pattern.sub(mask, text)
        return masked(text)  # a URL's password, whoever logged the URL (user:***@)

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


class JsonFormatter(RedactingFormatter):
    """One JSON object a line (see the module's docstring), secrets redacted in every field."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in CONTEXT_FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                line[field] = value if isinstance(value, (int, float, bool)) else str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        redacted = {key: self.redact(value) if isinstance(value, str) else value
                    for key, value in line.items()}
        # The dump is redacted too: a secret's characters are never escaped by json (a token is
        # [0-9A-Za-z:_-]), so what was not caught field by field is caught here.
        return self.redact(json.dumps(redacted, ensure_ascii=False, default=str))


class NetworkNoise(logging.Filter):
    """A network failure (no route to the Bot API, a timeout) is one line, not a traceback:
    the exception's text joins the message and its traceback is dropped. PTB logs each failed
    try of its start-up retry loop this way; every other exception keeps its traceback.

    A token Telegram refuses (``InvalidToken``, HTTP 401) is not logged by PTB at all: its
    start-up loop's record is dropped, and ``mafia-referee telegram`` says it in one line of its
    own (catalog ``cli-telegram-bad-token``) before it exits with status 2."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and _is_invalid_token(error):
            if record.name.startswith("telegram"):
                return False
            record.msg = f"{record.getMessage()}: {type(error).__name__}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        elif error is not None and _is_network(error):
            record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def _is_network(error: BaseException) -> bool:
    try:
        from telegram.error import NetworkError
    except ImportError:  # pragma: no cover - python-telegram-bot is a dependency
        return False
    return isinstance(error, NetworkError)


def _is_invalid_token(error: BaseException) -> bool:
    try:
        from telegram.error import InvalidToken
    except ImportError:  # pragma: no cover - python-telegram-bot is a dependency
        return False
    return isinstance(error, InvalidToken)


def formatter(secrets: Iterable[str], fmt: LogFormat = "text") -> RedactingFormatter:
    """The formatter of ``MAFIA_REFEREE_LOG_FORMAT`` with ``secrets`` redacted."""
    return JsonFormatter(secrets) if fmt == "json" else RedactingFormatter(secrets)


def configure_logging(*secrets: str, level: int = logging.INFO, fmt: LogFormat = "text",
                      noisy: Iterable[str] = NOISY, stream: TextIO | None = None) -> logging.Handler:
    """Replace the root logger's handlers by one stderr handler (``fmt``: text or JSON lines)
    with every secret redacted; ``noisy`` loggers at WARNING. Returns the handler."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(formatter(secrets, fmt))
    handler.addFilter(NetworkNoise())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in noisy:
        logging.getLogger(name).setLevel(logging.WARNING)
    return handler
