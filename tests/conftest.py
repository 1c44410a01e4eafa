"""Shared fixtures: a store on a temporary file, always closed (aiosqlite 0.22 warns, and
pytest errors, on a connection left open); the fake Bot API on 127.0.0.1 (``tests/fakebot``);
PTB's timedelta mode (``usefixtures("ptb_timedelta")``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from storage import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "db" / "mafia.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    """ENGINEERING.md §2: PTB_TIMEDELTA=1 — python-telegram-bot 22 gives durations such as
    ``retry_after`` as ``timedelta`` objects."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    """The fake Bot API, serving on 127.0.0.1 for the test."""
    async with FakeBotAPI() as server:
        yield server


#: The settings' environment prefix (bot.settings) and a token of the right shape for its checks.
ENV_PREFIX = "MAFIA_REFEREE_"
ENV_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No MAFIA_REFEREE_* nor token variable from the machine, no ``.env`` in the working directory
    (``tmp_path``, returned), English messages."""
    for name in list(os.environ):
        if name.startswith(ENV_PREFIX) or name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    return tmp_path


@pytest.fixture
def env_with_tokens(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """:func:`clean_env` with a Telegram and a Discord token set."""
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", ENV_TOKEN)
    monkeypatch.setenv("MAFIA_REFEREE_DISCORD_TOKEN", "discord-token")
    return clean_env
