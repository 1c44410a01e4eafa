"""Process settings from the environment (prefix ``MAFIA_REFEREE_``) and an optional ``.env``.

* ``MAFIA_REFEREE_DB`` — the SQLite file (default: ``$XDG_DATA_HOME/mafia-referee/referee.sqlite3``,
  else ``~/.local/share/mafia-referee/referee.sqlite3``);
* ``MAFIA_REFEREE_LANG`` — ``ru`` (default) or ``en``;
* ``MAFIA_REFEREE_TELEGRAM_TOKEN`` or ``TELEGRAM_BOT_TOKEN``;
* ``MAFIA_REFEREE_DISCORD_TOKEN`` or ``DISCORD_BOT_TOKEN``;
* ``MAFIA_REFEREE_DISCORD_BASE_URL`` — another server speaking Discord's API (the tests' fake), the
  counterpart of ``https://discord.com/api/v10``, e.g. ``http://127.0.0.1:8090/api/v10``; the
  gateway is the one its ``GET /gateway/bot`` names (:mod:`bot.discord.endpoint`).

Telegram (judge mode), all optional:

* ``MAFIA_REFEREE_TELEGRAM_BASE_URL`` — another Bot API server (a local ``telegram-bot-api``, or
  the tests' fake), e.g. ``http://127.0.0.1:8081/bot``; ``…_TELEGRAM_BASE_FILE_URL`` likewise;
* ``MAFIA_REFEREE_TELEGRAM_TIMER_SCALE`` — real seconds per timer second (1.0; tests run faster;
  Discord's timers too);
* ``MAFIA_REFEREE_TELEGRAM_RATE_OVERALL`` (30 requests/s), ``…_RATE_GROUP`` (20 per
  ``…_RATE_GROUP_PERIOD`` = 60 s per group), ``…_MAX_RETRIES`` (3): PTB's ``AIORateLimiter``;
  0 turns a limit off;
* ``MAFIA_REFEREE_TELEGRAM_PANEL_LAG`` — how many newer messages may stand below the judge's panel
  before it is posted afresh at the bottom (3).
* ``MAFIA_REFEREE_TIMEZONE`` — the club's time zone, an IANA name (``Europe/Moscow``, the default):
  the clock times the judge reads on his panel («до 20:31:15») and in the audit trail, and the
  score sheet's date and times — the club's, never the process's. Its old name
  ``MAFIA_REFEREE_CLUB_TZ`` (the sheet's alone, once) still works; a warning names the new one.

Host mode (the bot runs the table, on Telegram and Discord), all optional; Telegram's timers run
at ``…_TELEGRAM_TIMER_SCALE`` too:

* ``MAFIA_REFEREE_HOST_VOTE_WINDOW`` — seconds per nominee's voting window (10) unless the game
  sets ``timers.vote_window``; ``…_HOST_SHOOTING`` — the blacks' shooting step (20);
  ``…_HOST_SILENCED`` — a silenced speaker's window to nominate (seed 4.4; 10);
* ``MAFIA_REFEREE_HOST_SEED`` — seeds the seating and the deal (tests; unset: random);
* ``MAFIA_REFEREE_HOST_MUTE_HOURS`` — how long a Telegram restriction is set for (4 h); the bot
  lifts it at the end of the game, the bound only matters if the bot is gone for good.

Their old names, ``MAFIA_REFEREE_TELEGRAM_HOST_…``, still work; a warning names the new one.

The club (the protocol's header), optional:

* ``MAFIA_REFEREE_CLUB_NAME`` — the club's name on every score sheet (its time zone:
  ``MAFIA_REFEREE_TIMEZONE``, above).

Deployment (``deploy/``, the README's Deployment section), all optional:

* ``MAFIA_REFEREE_LOG_FORMAT`` — ``text`` (default) or ``json`` (one JSON object a line;
  :mod:`bot.logs`); tokens are redacted in both;
* ``MAFIA_REFEREE_HEARTBEAT`` — a file the running Telegram bot touches every
  ``…_HEARTBEAT_INTERVAL`` seconds (30); ``mafia-referee health --max-age S`` checks it;
* ``MAFIA_REFEREE_CACHE_CHATS`` — how many chats' games, homes, languages and locks a bot keeps
  in memory (:data:`bot.lru.CACHED_CHATS`); a chat not used for a while is dropped and read again
  from the database when it comes back;
* ``MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL`` — the public HTTPS URL Telegram posts updates to: set,
  the bot runs a webhook server instead of long polling; it listens on
  ``…_TELEGRAM_WEBHOOK_LISTEN`` (``127.0.0.1``) : ``…_TELEGRAM_WEBHOOK_PORT`` (8443) at the URL's
  path, behind a TLS-terminating proxy; ``…_TELEGRAM_WEBHOOK_SECRET`` — Telegram sends it in every
  request's ``X-Telegram-Bot-Api-Secret-Token`` header, other requests are refused (403):
  :data:`WEBHOOK_SECRET_MIN`–256 characters of ``A-Z a-z 0-9 _ -``, at least
  :data:`WEBHOOK_SECRET_DISTINCT` of them different (an empty or weak one is a bad setting); unset,
  webhook mode makes a random one at each start (:func:`bot.telegram.webhook.webhook_secret`).

The table on a screen (issue 30, :mod:`bot.web`), off unless ``MAFIA_REFEREE_WEB_URL`` is set:

* ``MAFIA_REFEREE_WEB_URL`` — the public address of the bot's web pages (``https://…``, behind a
  TLS-terminating proxy): the judge's Mini App, the live table page, the stream overlay, the
  tournament page; the server listens on ``…_WEB_LISTEN`` (``127.0.0.1``) : ``…_WEB_PORT``
  (8080) and answers ``/healthz`` there too;
* ``…_WEB_AUTH_MAX_AGE`` — seconds a Telegram Mini App's ``initData`` is accepted after Telegram
  signed it (86400); ``…_WEB_LINK_TTL`` — seconds a Discord judge's one-time link lasts (600);
  ``…_WEB_SESSION_HOURS`` — how long a judge's page stays signed in (12);
* ``…_WEB_MAX_PER_IP`` (20), ``…_WEB_MAX_PER_TABLE`` (1000) — open live streams per address and
  per table; ``…_WEB_FORWARDED`` — the address is the proxy's ``X-Forwarded-For`` (behind a
  proxy every client comes from its address); ``…_WEB_LOGO`` — a PNG, JPEG or SVG file, the club's
  logo on the overlay.

Who may use the bot (optional): ``MAFIA_REFEREE_ALLOWED_CHATS`` — Telegram groups (``tg:-100…``)
and users (``tg:<user id>``), Discord servers (``dc:<server id>``), separated by commas or spaces
(:mod:`bot.access`); unset, everyone.

The URLs (``…_TELEGRAM_BASE_URL``, ``…_BASE_FILE_URL``, ``…_WEBHOOK_URL``, ``…_DISCORD_BASE_URL``)
must be ``http://`` or ``https://`` URLs with a host (an empty value is "unset"); the webhook's
must be ``https://`` (Telegram posts to HTTPS only: an ``http://`` one is a bad setting, not a
network failure) unless ``…_TELEGRAM_BASE_URL`` names another Bot API server (in its ``--local``
mode ``telegram-bot-api`` posts to HTTP URLs). Tokens are :class:`pydantic.SecretStr`:
they never show in a repr or a log line. An env file that cannot be read or is not UTF-8 raises
:class:`EnvFileError` (one line and exit status 2 in :mod:`bot.entry`), never a traceback.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import zoneinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from .lru import CACHED_CHATS

if TYPE_CHECKING:
    from .protocol.files import SheetDefaults

log = logging.getLogger(__name__)


class _OncePerProcess(logging.Filter):
    """python-dotenv warns of an ``.env`` line it cannot parse at every read of the file, and a
    command reads its settings several times: each such warning is said once a process."""

    def __init__(self) -> None:
        super().__init__()
        self._said: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in self._said:
            return False
        self._said.add(message)
        return True


logging.getLogger("dotenv.main").addFilter(_OncePerProcess())

APP_DIR = "mafia-referee"
DB_FILE = "referee.sqlite3"
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
#: A webhook secret shorter than this, or with fewer different characters, is guessable: refused.
WEBHOOK_SECRET_MIN = 16
WEBHOOK_SECRET_DISTINCT = 8

ALLOWED_SPLIT = re.compile(r"[\s,;]+")
ALLOWED_ENTRY = re.compile(r"(?:tg:-?[0-9]{1,20}|dc:[0-9]{1,20})")


class EnvFileError(Exception):
    """The env file at ``path`` cannot be used: ``problem`` is ``"encoding"`` (not UTF-8: the
    first offending byte as ``0xNN`` in ``detail``, its offset in bytes in ``offset``) or
    ``"unreadable"`` (the OS error in ``detail``)."""

    def __init__(self, path: str, problem: str, detail: str, offset: int = 0) -> None:
        super().__init__(f"{path}: {problem}: {detail}")
        self.path = path
        self.problem = problem
        self.detail = detail
        self.offset = offset  # of the first byte that is not UTF-8 (``encoding``)


def _env_files(env_file: Any) -> list[Path]:
    """``env_file`` (pydantic-settings: one path, a sequence of them, or ``None``) as paths."""
    if env_file is None:
        return []
    if isinstance(env_file, (str, os.PathLike)):
        return [Path(env_file)]
    return [Path(item) for item in env_file]


def check_env_files(env_file: Any, encoding: str = "utf-8") -> None:
    """Raise :class:`EnvFileError` for the first existing env file that cannot be read or decoded
    with ``encoding``; pydantic-settings would raise a bare ``UnicodeDecodeError``/``OSError``."""
    for path in _env_files(env_file):
        if not path.is_file():  # pydantic-settings skips a missing one (and a folder) too
            continue
        try:
            path.read_bytes().decode(encoding)
        except UnicodeDecodeError as error:
            byte = error.object[error.start:error.start + 1].hex()
            raise EnvFileError(str(path), "encoding", f"0x{byte}", error.start) from None
        except OSError as error:
            raise EnvFileError(str(path), "unreadable", error.strerror or str(error)) from None


def http_url(value: str | None) -> str | None:
    """An ``http://`` or ``https://`` URL with a host; ``None`` or an empty value is "unset"."""
    if value is None or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise PydanticCustomError("http_url", "must be an http:// or https:// URL")
    return value.strip()


class WebUnavailable(RuntimeError):
    """The pages cannot listen on ``MAFIA_REFEREE_WEB_LISTEN``:``MAFIA_REFEREE_WEB_PORT`` (the
    port taken, an address that is not this machine's): a setting to fix (exit 2)."""

    def __init__(self, listen: str, port: int, cause: OSError) -> None:
        super().__init__(f"cannot listen on {listen}:{port}: {cause}")
        self.listen, self.port, self.cause = listen, port, cause


def default_db_path() -> Path:
    """The XDG data directory's ``mafia-referee/referee.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.strip() and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / APP_DIR / DB_FILE


#: The host settings' old names (they began as Telegram's only): still read, with a warning.
RENAMED = {f"MAFIA_REFEREE_TELEGRAM_HOST_{n}": f"MAFIA_REFEREE_HOST_{n}"
           for n in ("VOTE_WINDOW", "SHOOTING", "SILENCED", "SEED", "MUTE_HOURS")}
# one time zone for the sheet, the panel and the audit trail (issue 14): the sheet's old name
RENAMED["MAFIA_REFEREE_CLUB_TZ"] = "MAFIA_REFEREE_TIMEZONE"
DEFAULT_TIMEZONE = "Europe/Moscow"
_warned: set[str] = set()


def _host(name: str) -> AliasChoices:
    """A host setting's names: ``MAFIA_REFEREE_HOST_<name>``, its old name
    ``MAFIA_REFEREE_TELEGRAM_HOST_<name>``, and the field's names for keyword arguments."""
    lower = name.lower()
    return AliasChoices(f"MAFIA_REFEREE_HOST_{name}", f"MAFIA_REFEREE_TELEGRAM_HOST_{name}",
                        f"host_{lower}", f"telegram_host_{lower}")


def _warn_old_names(env_file: Any, encoding: str) -> None:
    """A setting given under its old name (:data:`RENAMED`, in the environment or an env file)
    still works; the log says which name to use instead, once a process."""
    from dotenv import dotenv_values

    given = {name.upper() for name in os.environ}
    for path in _env_files(env_file):
        if path.is_file():
            given |= {name.upper() for name in dotenv_values(path, encoding=encoding)}
    for old in sorted(given & RENAMED.keys() - _warned):
        _warned.add(old)
        log.warning("%s is the old name of %s: it still works, rename it", old, RENAMED[old])


class Settings(BaseSettings):
    """Settings of one process. ``Settings()`` reads the environment and ``.env``."""

    model_config = SettingsConfigDict(
        env_prefix="MAFIA_REFEREE_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    db: Path = Field(default_factory=default_db_path)
    lang: Literal["ru", "en"] = "ru"
    telegram_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MAFIA_REFEREE_TELEGRAM_TOKEN", "TELEGRAM_BOT_TOKEN", "telegram_token"),
    )
    discord_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MAFIA_REFEREE_DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "discord_token"),
    )
    discord_base_url: str | None = None
    # Discord's gateway by shards (issue 18, bot/discord/shards.py): how many in all, and which
    # of them this process connects (a comma list such as "0,1"; unset: all of them)
    discord_shards: int | None = Field(default=None, ge=1, le=4096)
    discord_shard_ids: str | None = None
    telegram_base_url: str | None = None
    telegram_base_file_url: str | None = None
    telegram_timer_scale: float = Field(default=1.0, gt=0)
    telegram_rate_overall: float = Field(default=30.0, ge=0)
    telegram_rate_group: float = Field(default=20.0, ge=0)
    telegram_rate_group_period: float = Field(default=60.0, ge=0)
    # a private chat's own limit (issue 34: Telegram's ~1 message a second to one chat): a
    # judge's panel edits paced, not refused with 429s; 0 = off
    telegram_rate_private: float = Field(default=1.0, ge=0)
    telegram_rate_private_period: float = Field(default=1.0, ge=0)
    telegram_max_retries: int = Field(default=3, ge=0)
    telegram_panel_lag: int = Field(default=3, ge=0)
    timezone: str = Field(default=DEFAULT_TIMEZONE, validation_alias=AliasChoices(
        "MAFIA_REFEREE_TIMEZONE", "MAFIA_REFEREE_CLUB_TZ", "timezone", "club_tz"))
    # the Bot API client (bench/README.md, "HTTP client"): connections kept open to the Bot API,
    # and updates handled at once (of different chats; one chat's run one after another)
    telegram_connections: int = Field(default=8, ge=1, le=256)
    # aiohttp: bot.telegram.request.AiohttpRequest (C-parsed HTTP, ~5x less CPU per call);
    # httpx: PTB's own HTTPXRequest, the escape hatch
    telegram_http: Literal["aiohttp", "httpx"] = "aiohttp"
    telegram_concurrent_updates: int = Field(default=64, ge=1, le=1024)
    host_vote_window: int = Field(default=10, ge=1, validation_alias=_host("VOTE_WINDOW"))
    host_shooting: int = Field(default=20, ge=1, validation_alias=_host("SHOOTING"))
    host_silenced: int = Field(default=10, ge=1, validation_alias=_host("SILENCED"))
    host_seed: int | None = Field(default=None, validation_alias=_host("SEED"))
    # a backstop only (the bot lifts each mute itself); Telegram takes a restriction of more
    # than 366 days as for ever, so a game's day is the most it may be
    host_mute_hours: float = Field(default=4.0, gt=0, le=24, validation_alias=_host("MUTE_HOURS"))
    # the club: the protocol's header
    club_name: str | None = Field(default=None, max_length=100)
    # the rules a club's new games start with unless it has its own (bot/club/defaults.py): the
    # words typed after /new, e.g. "fiim2024 raise_2_of_4=false"; unset: the seed preset
    rules: str | None = Field(default=None, max_length=500)
    # deployment (deploy/)
    log_format: Literal["text", "json"] = "text"
    heartbeat: Path | None = None
    heartbeat_interval: float = Field(default=30.0, gt=0)
    cache_chats: int = Field(default=CACHED_CHATS, ge=1)
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_webhook_secret: SecretStr | None = None
    # "shared": several workers on one PostgreSQL database split the chats (issue 18,
    # bot/telegram/shared.py); "single": one bot process per database (bot/writer.py)
    workers: Literal["single", "shared"] = "single"
    # who may use the bot: chats and servers (bot/access.py); unset: everyone
    allowed_chats: str | None = None
    # the table on a screen (issue 30, bot/web): on when web_url is set
    web_url: str | None = None
    web_listen: str = "127.0.0.1"
    web_port: int = Field(default=8080, ge=0, le=65535)  # 0: any free port (tests)
    web_auth_max_age: int = Field(default=86400, ge=60)
    web_link_ttl: int = Field(default=600, ge=30, le=86400)
    web_session_hours: float = Field(default=12.0, gt=0, le=72)
    web_max_per_ip: int = Field(default=20, ge=1)
    web_max_per_table: int = Field(default=1000, ge=1)
    web_forwarded: bool = False
    web_logo: Path | None = None

    def __init__(self, **values: Any) -> None:
        """Read the environment and the env file (``_env_file`` overrides ``.env``); an env file
        that is not UTF-8 or cannot be read is :class:`EnvFileError`, not a traceback."""
        env_file = values.get("_env_file", self.model_config.get("env_file"))
        encoding = values.get("_env_file_encoding") or self.model_config.get("env_file_encoding") or "utf-8"
        check_env_files(env_file, encoding)
        super().__init__(**values)
        _warn_old_names(env_file, encoding)

    @field_validator("db", mode="before")
    @classmethod
    def _db(cls, value: object) -> object:
        """A file path, ``sqlite:///path`` or a PostgreSQL URL that parses
        (:func:`storage.pg.check_target`); empty is unset (the default path). Anything else —
        ``mysql://``, ``postgresql+psycopg://``, a port that is not a number — is refused here,
        its password masked, before a file could be made of it."""
        from storage.pg import BadTarget, check_target

        if value is None or not str(value).strip():
            return default_db_path()
        try:
            check_target(value)
        except BadTarget as bad:
            raise PydanticCustomError("database", "must be a file path or a postgresql:// URL",
                                      {"shown": bad.shown}) from None
        return value

    @field_validator("web_logo")
    @classmethod
    def _logo(cls, value: Path | None) -> Path | None:
        """The club's logo on the overlay: a PNG, JPEG or SVG file (another kind would never be
        shown); empty is unset. That it exists is checked when the pages start (it may be put
        there later: :meth:`bot.web.server.WebLayer.start` warns while it is not)."""
        if value is None or not str(value).strip() or str(value) == ".":
            return None
        if value.suffix.lower() not in (".png", ".jpg", ".jpeg", ".svg"):
            raise PydanticCustomError("picture_file", "must be a PNG, JPEG or SVG file")
        return value

    @field_validator("telegram_base_url", "telegram_base_file_url", "telegram_webhook_url",
                     "discord_base_url", "web_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        """The Bot API server, the webhook and Discord's API are reached over HTTP(S): anything
        else is a typo that would otherwise surface later as "cannot reach Telegram" (exit 1,
        restarted)."""
        return http_url(value)

    @property
    def web(self) -> bool:
        """The web layer is on (:attr:`web_url` set)."""
        return bool(self.web_url)

    def sheet(self) -> "SheetDefaults":
        """What every score sheet says of the club (its name and time zone)."""
        from .protocol.files import SheetDefaults

        return SheetDefaults(club=self.club_name or None, tz=self.timezone)

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None, info: ValidationInfo) -> str | None:
        """Shard numbers ``0 … MAFIA_REFEREE_DISCORD_SHARDS-1``, separated by commas or spaces,
        each once; they need ``…_DISCORD_SHARDS``. Empty is "unset" (every shard). (A count
        refused is missing from ``info.data``: its own problem is said, not this one.)"""
        entries = ALLOWED_SPLIT.split(value.strip()) if value and value.strip() else []
        if not entries:
            return None
        if "discord_shards" not in info.data:
            return value
        count = info.data["discord_shards"]
        if count is None:
            raise PydanticCustomError("shard_ids", "needs MAFIA_REFEREE_DISCORD_SHARDS (how many "
                                      "shards in all)")
        if not all(e.isdigit() and int(e) < count for e in entries):
            raise PydanticCustomError("shard_ids", "must be shard numbers from 0 to {last}",
                                      {"last": count - 1})
        ids = [int(e) for e in entries]
        if len(set(ids)) != len(ids):
            raise PydanticCustomError("shard_ids", "names a shard twice")
        return ",".join(map(str, sorted(ids)))

    @property
    def shard_ids(self) -> tuple[int, ...] | None:
        """The Discord shards this process connects (:attr:`discord_shard_ids`), ``None``: all."""
        if self.discord_shard_ids is None:
            return None
        return tuple(int(e) for e in self.discord_shard_ids.split(","))

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str | None) -> str:
        """An IANA time zone name the system knows (tzdata: ``Europe/Moscow``, ``Asia/Almaty``);
        empty is the default, ``Europe/Moscow``."""
        if value is None or not value.strip():
            return DEFAULT_TIMEZONE
        try:
            zoneinfo.ZoneInfo(value.strip())
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise PydanticCustomError("time_zone", "must be an IANA time zone such as "
                                      "Europe/Moscow") from None
        return value.strip()

    @property
    def zone(self) -> dt.tzinfo:
        """:attr:`timezone` as a ``tzinfo``: the club's clock for the panel and the audit trail."""
        return zoneinfo.ZoneInfo(self.timezone)

    @field_validator("telegram_webhook_url")
    @classmethod
    def _https_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        """Bot API ``setWebhook``: Telegram posts updates to an HTTPS URL only; an ``http://`` one
        would fail at start as if Telegram could not be reached (exit 1, restarted for ever). Only
        another Bot API server (``…_TELEGRAM_BASE_URL``: a ``telegram-bot-api --local``, which
        posts to HTTP URLs too) may be given one. (A base URL refused is missing from
        ``info.data``: its own problem is said, not this one.)"""
        if value is not None and urlsplit(value).scheme.lower() != "https" \
                and info.data.get("telegram_base_url", "refused") is None:
            raise PydanticCustomError("https_url", "must be an https:// URL")
        return value

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: str | None) -> str | None:
        """The words of ``/new`` (a preset, options), checked as ``/new`` checks them; empty is
        "unset" (the seed preset)."""
        if value is None or not value.split():
            return None
        from .club.defaults import parse_rules
        from .commands import CommandError

        try:
            parse_rules(value)
        except CommandError as error:
            raise PydanticCustomError("club_rules", "must be the words of /new: a preset (seed, "
                                      "fiim2024, fsm2024) and options name=value ({problem})",
                                      {"problem": error.code}) from None
        return " ".join(value.split())

    @field_validator("allowed_chats")
    @classmethod
    def _allowed_chats(cls, value: str | None) -> str | None:
        """``tg:<chat or user id>`` and ``dc:<server id>``, separated by commas or spaces; an
        empty value is "unset" (everyone)."""
        entries = ALLOWED_SPLIT.split(value.strip()) if value and value.strip() else []
        bad = [entry for entry in entries if not ALLOWED_ENTRY.fullmatch(entry)]
        if bad:
            raise ValueError(f"{bad[0]!r} is not tg:<chat or user id> or dc:<server id>")
        return " ".join(entries) or None

    @property
    def allowed(self) -> frozenset[str]:
        """The chat and server keys of :attr:`allowed_chats` (``tg:-100…``, ``dc:…``); empty:
        everyone may use the bot."""
        return frozenset((self.allowed_chats or "").split())

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        """Bot API ``setWebhook``: ``secret_token`` is 1–256 characters of ``A-Z a-z 0-9 _ -``;
        ours is also long and varied enough not to be guessed (an empty one is refused too: unset
        it to have one generated). The value is never part of the error."""
        if value is None:
            return None
        secret = value.get_secret_value()
        if not _WEBHOOK_SECRET.fullmatch(secret) or len(secret) < WEBHOOK_SECRET_MIN \
                or len(set(secret)) < WEBHOOK_SECRET_DISTINCT:
            raise PydanticCustomError("webhook_secret", "must be {min}-256 characters of A-Z, a-z, "
                                      "0-9, _ and -, at least {distinct} of them different",
                                      {"min": WEBHOOK_SECRET_MIN, "distinct": WEBHOOK_SECRET_DISTINCT})
        return value
