"""Shared fixtures: a store on a temporary file, always closed (aiosqlite 0.22 warns, and
pytest errors, on a connection left open); the fake Bot API on 127.0.0.1 (``tests/fakebot``);
PTB's timedelta mode (``usefixtures("ptb_timedelta")``).

PostgreSQL (issue 18): ``pg_server`` is one server for the whole session — the one at
``$MAFIA_REFEREE_TEST_POSTGRESQL`` (``.ci/run`` starts it), else one started here from the
installed binaries (``tests/support/pgserver.py``); a test that needs it is skipped with the
reason where neither can be had. ``pg_url`` is a fresh database on it for one test;
``any_store`` is a store on each backend in turn (a test marked ``sqlite_only`` reaches into
SQLite itself and runs on SQLite alone)."""

from __future__ import annotations

import itertools
import os
import signal
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Iterator

import pytest

from fakebot import FakeBotAPI
from storage import Store

# A shell's background job (`pytest … &` without job control) starts with SIGINT ignored, and a
# process inherits that: the bots the tests start would ignore the Ctrl+C they are stopped with.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of the session's PostgreSQL server (its ``postgres`` database, for admin work)."""
    given = os.environ.get("MAFIA_REFEREE_TEST_POSTGRESQL")
    if given:
        yield given
        return
    from support import pgserver

    try:
        server = pgserver.start()
    except pgserver.Unavailable as why:
        pytest.skip(f"no PostgreSQL server for the tests: {why}")
    try:
        yield server.url
    finally:
        server.stop()


_databases = itertools.count(1)


async def _database(pg_server: str, create: bool, name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(pg_server)
    try:
        await admin.execute(f"CREATE DATABASE {name}" if create
                            else f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@asynccontextmanager
async def fresh_database(pg_server: str) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server (its URL), dropped after."""
    name = f"t{os.getpid()}_{next(_databases)}"
    await _database(pg_server, True, name)
    url = pg_server.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        await _database(pg_server, False, name)
        from bot.published import state_file

        for kind in ("menus", "commands"):  # what a bot published, kept in the temp folder
            state_file(Path(url), kind).unlink(missing_ok=True)


@pytest.fixture
async def pg_url(pg_server: str) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server for one test."""
    async with fresh_database(pg_server) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_target(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[str]:
    """What ``Store.open`` takes, on each backend in turn: a file path, a fresh database's URL."""
    if request.param == "postgresql":
        if request.node.get_closest_marker("sqlite_only"):
            pytest.skip("reaches into SQLite itself (its file, its pragmas, its connection)")
        async with fresh_database(request.getfixturevalue("pg_server")) as url:
            yield url
        return
    yield str(db_path)


@pytest.fixture
async def any_store(any_target: str) -> AsyncIterator[Store]:
    """A store on each backend in turn: the same test, the same interface."""
    async with await Store.open(any_target) as opened:
        yield opened


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
