"""Shared fixtures: a store on a temporary file, always closed (aiosqlite 0.22 warns, and
pytest errors, on a connection left open)."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

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
