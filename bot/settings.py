"""Process settings from the environment (prefix ``MAFIA_REFEREE_``) and an optional ``.env``.

* ``MAFIA_REFEREE_DB`` — the SQLite file (default: ``$XDG_DATA_HOME/mafia-referee/referee.sqlite3``,
  else ``~/.local/share/mafia-referee/referee.sqlite3``);
* ``MAFIA_REFEREE_LANG`` — ``ru`` (default) or ``en``;
* ``MAFIA_REFEREE_TELEGRAM_TOKEN`` or ``TELEGRAM_BOT_TOKEN``;
* ``MAFIA_REFEREE_DISCORD_TOKEN`` or ``DISCORD_BOT_TOKEN``.

Tokens are :class:`pydantic.SecretStr`: they never show in a repr or a log line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

APP_DIR = "mafia-referee"
DB_FILE = "referee.sqlite3"


def default_db_path() -> Path:
    """The XDG data directory's ``mafia-referee/referee.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.strip() and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / APP_DIR / DB_FILE


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
