"""Who a page's request comes from: Telegram's Mini App ``initData``, a Discord judge's one-time
link, the session both are exchanged for, and a table page's secret. Every comparison of a
secret is :func:`hmac.compare_digest` (constant time); no secret is ever logged
(:class:`bot.logs.RedactingFormatter` masks a session, a link and a page's key in any line).

* **Telegram** (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
  the ``initData`` query string's fields but ``hash``, sorted by key and joined ``key=value``
  with newlines, HMAC-SHA-256'd with the secret key HMAC-SHA-256(key ``"WebAppData"``, the bot's
  token), give the ``hash``; ``auth_date`` must be at most ``max_age`` seconds old.
* **Discord**: the bot sends the judge a link with a one-time ticket, signed by this process
  (HMAC-SHA-256 of ``dc|judge|home|game|expiry|nonce`` with :attr:`Signer.key`), expiring; it is
  used once (its nonce remembered until it expires).
* **A session**: a signed ``platform|judge|home|expiry`` token a page keeps in memory and sends as
  ``Authorization: Bearer …`` (never in an address).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Callable
from urllib.parse import parse_qsl

#: a session's and a link's parts are separated by this (never inside a chat key or a number)
SEP = "|"


class AuthError(Exception):
    """A request that proves nobody: ``why`` is ``"missing"``, ``"forged"``, ``"expired"``,
    ``"used"`` or ``"malformed"`` (said to the log as the reason, never with the data)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class WebUser:
    """Telegram's user of a valid ``initData``: ``"tg:<id>"`` and the name it gives."""

    user: str
    name: str
    auth_date: int


def telegram_secret(token: str) -> bytes:
    """The key ``initData`` is signed with: HMAC-SHA-256 of the bot's token under ``WebAppData``."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def sign_init_data(fields: dict[str, str], token: str) -> str:
    """``fields`` as Telegram signs them (the tests' Telegram; the bench): the query string with
    its ``hash``."""
    from urllib.parse import urlencode

    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    digest = hmac.new(telegram_secret(token), check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def check_init_data(init_data: str, token: str, *, max_age: float,
                    now: float | None = None) -> WebUser:
    """The user of a Mini App's ``initData``, checked (see the module docstring); else
    :class:`AuthError`."""
    if not init_data:
        raise AuthError("missing")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError("malformed") from None
    fields = dict(pairs)
    given = fields.pop("hash", "")
    if not given or len(fields) + 1 != len(pairs):
        raise AuthError("malformed")
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    digest = hmac.new(telegram_secret(token), check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(digest, given.lower()):
        raise AuthError("forged")
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, TypeError, KeyError):
        raise AuthError("malformed") from None
    moment = time.time() if now is None else now
    if moment - auth_date > max_age or auth_date - moment > 60:
        raise AuthError("expired")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    return WebUser(f"tg:{user_id}", name or str(user.get("username") or user_id), auth_date)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Session:
    """A signed-in judge's page: the platform (``"tg"``, ``"dc"``), the judge, the home chat
    whose game the page acts on, and when it expires (unix seconds)."""

    platform: str
    judge: str
    home: str
    expires: float


@dataclass(frozen=True)
class Ticket:
    """A Discord judge's one-time link: the judge, the game's home channel, the game, when it
    expires, and its nonce (used once)."""

    judge: str
    home: str
    game_id: int
    expires: float
    nonce: str


class Signer:
    """Signs and checks sessions and tickets with ``key`` (random per process unless given: a
    restart signs everyone out; the Mini App signs in again by itself, a Discord judge asks for
    a new link). ``clock``: unix seconds."""

    def __init__(self, key: bytes | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.key = key or secrets.token_bytes(32)
        self.clock = clock
        self._used: dict[str, float] = {}  # a ticket's nonce -> when it expires

    def _mac(self, kind: str, body: str) -> str:
        return _b64(hmac.new(self.key, f"{kind}{SEP}{body}".encode(), hashlib.sha256).digest())

    def _signed(self, kind: str, parts: list[str]) -> str:
        body = SEP.join(parts)
        return f"{_b64(body.encode())}.{self._mac(kind, body)}"

    def _opened(self, kind: str, token: str) -> list[str]:
        if not token or token.count(".") != 1:
            raise AuthError("malformed")
        body_b64, mac = token.split(".")
        try:
            body = _unb64(body_b64).decode()
        except (ValueError, UnicodeDecodeError):
            raise AuthError("malformed") from None
        if not hmac.compare_digest(self._mac(kind, body), mac):
            raise AuthError("forged")
        return body.split(SEP)

    def session(self, platform: str, judge: str, home: str, seconds: float) -> str:
        return self._signed("session", [platform, judge, home, f"{self.clock() + seconds:.0f}"])

    def check_session(self, token: str) -> Session:
        parts = self._opened("session", token)
        if len(parts) != 4:
            raise AuthError("malformed")
        platform, judge, home, expires = parts
        if float(expires) < self.clock():
            raise AuthError("expired")
        return Session(platform, judge, home, float(expires))

    def ticket(self, judge: str, home: str, game_id: int, seconds: float) -> str:
        nonce = secrets.token_urlsafe(12)
        return self._signed("ticket", [judge, home, str(game_id), f"{self.clock() + seconds:.0f}", nonce])

    def use_ticket(self, token: str) -> Ticket:
        """The ticket of a one-time link, used now: a second use is ``"used"``."""
        parts = self._opened("ticket", token)
        if len(parts) != 5:
            raise AuthError("malformed")
        judge, home, game, expires, nonce = parts
        now = self.clock()
        if float(expires) < now:
            raise AuthError("expired")
        self._used = {n: at for n, at in self._used.items() if at >= now}
        if nonce in self._used:
            raise AuthError("used")
        self._used[nonce] = float(expires)
        return Ticket(judge, home, int(game), float(expires), nonce)


def same_secret(given: str, stored: str) -> bool:
    """A page's secret as given, compared in constant time with the stored one."""
    return hmac.compare_digest(given.encode(), stored.encode())
