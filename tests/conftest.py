"""Shared fixtures: a store on a temporary file, always closed (aiosqlite 0.22 warns, and
pytest errors, on a connection left open); the fake Bot API on 127.0.0.1 (``tests/fakebot``);
PTB's timedelta mode (``usefixtures("ptb_timedelta")``)."""

from __future__ import annotations

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
