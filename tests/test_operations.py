"""A club admin's day with the database: every command on a database of a newer schema (after a
downgrade) or another program's SQLite file says so in one line and exits 2, changing nothing;
``health`` tells a damaged file (restore a backup) from a busy one (wait) from another program's;
a console session survives a locked database or a full disk in the middle of a game."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot import entry, health
from bot.cli import main
from bot.console import Session
from bot.i18n import catalog
from bot.service import Service
from storage import Store
from storage.migrate import bundled

PREFIX = "MAFIA_REFEREE_"
TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith(PREFIX) or name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("MAFIA_REFEREE_DISCORD_TOKEN", "discord-token")
    return tmp_path


def _en(key: str, **params: Any) -> str:
    return catalog("en").text(key, **params)


def _newer(db: Path) -> bytes:
    """A database of ours, then written by a newer version: its schema is one ahead."""
    async def ours() -> None:
        store = await Store.open(db)
        await store.create_game("console:local", "console:judge", {"preset": "seed"}, {1: "Ann"})
        await store.close()

    asyncio.run(ours())
    with closing(sqlite3.connect(db)) as conn:
        conn.execute(f"PRAGMA user_version = {len(bundled()) + 1}")
    return db.read_bytes()


def _foreign(db: Path) -> bytes:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ann', '555')")
        conn.commit()
    return db.read_bytes()


#: Every command that opens the database for its work; ``health`` judges it instead (exit 1).
OPENERS = [["demo"], ["console"], ["telegram"], ["discord"], ["both"]]


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", ["mafia-referee", *argv])
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115 - closed with the test
    return entry.run()


@pytest.mark.parametrize("argv", OPENERS, ids=lambda a: a[0])
def test_every_command_refuses_a_newer_schema_in_one_line(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str]) -> None:
    db = clean_env / "referee.sqlite3"
    before = _newer(db)
    version, expected = len(bundled()) + 1, len(bundled())
    assert _run([*argv, "--db", str(db)], monkeypatch) == 2  # 2: systemd does not restart it
    out, err = capsys.readouterr()
    assert err.strip() == _en("cli-new-schema", path=str(db), version=version, expected=expected)
    assert "Traceback" not in out + err
    assert db.read_bytes() == before
    # health says the same thing (one check, one wording), as a verdict
    assert main(["health", "--db", str(db)]) == 1
    assert capsys.readouterr().err.strip() == _en("health-new_schema", path=str(db), version=version,
                                                  expected=expected)


@pytest.mark.parametrize("argv", OPENERS, ids=lambda a: a[0])
def test_another_programs_sqlite_file_is_refused_not_extended(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str]) -> None:
    db = clean_env / "contacts.sqlite3"
    before = _foreign(db)
    assert _run([*argv, "--db", str(db)], monkeypatch) == 2
    err = capsys.readouterr().err.strip()
    assert err == _en("cli-foreign-database", path=str(db), tables="contacts")
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("contacts",)]
    assert db.read_bytes() == before
    assert health.check(db).code == "foreign_database"


def test_a_newer_schema_as_a_process_is_one_russian_line_and_exit_2(tmp_path: Path) -> None:
    """As systemd runs it: the real console script, no traceback; the line follows ``--lang``
    when the command has it and ``MAFIA_REFEREE_LANG`` otherwise."""
    db = tmp_path / "referee.sqlite3"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA user_version = 99")
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)} | {"MAFIA_REFEREE_LANG": "ru"}
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db)], input="",
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == catalog("ru").text("cli-new-schema", path=str(db), version=99,
                                                     expected=len(bundled()))
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db), "--lang", "en"],
                          input="", capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == _en("cli-new-schema", path=str(db), version=99, expected=len(bundled()))


# --- health on a damaged or busy file ------------------------------------------------------------

async def _club_db(db: Path, games: int = 40) -> None:
    store = await Store.open(db)
    for n in range(games):
        await store.create_game(f"tg:{n}", "tg:1", {"preset": "seed"}, {i: f"Player {i} " * 20 for i in range(1, 11)})
    await store.close()


async def test_health_says_corrupt_for_damaged_pages_behind_a_good_header(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The console refuses such a file; ``health`` must not answer "ok": SQLite's quick_check finds
    the damage, and the verdict says to restore a backup."""
    db = clean_env / "referee.sqlite3"
    await _club_db(db)
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 6 * page
    for n in range(2, len(data) // page):  # every page but the first (the header, the schema)
        data[n * page:n * page + 40] = b"\xff" * 40
    db.write_bytes(bytes(data))
    assert main(["health", "--db", str(db)]) == 1
    err = capsys.readouterr().err.strip()
    verdict = health.check(db)
    assert verdict.code == "corrupt", verdict
    assert err == _en("health-corrupt", **verdict.params)
    assert "backup" in err


def test_health_runs_quick_check_within_its_bound(tmp_path: Path) -> None:
    """A check that outlasts its bound is cut short and found nothing: not a failure."""
    db = tmp_path / "x.sqlite3"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.executemany("INSERT INTO t VALUES (?)", [(str(i) * 50,) for i in range(20_000)])
        conn.commit()
        ticks = iter(range(10**9))
        assert health.quick_check(conn, limit=0.5, clock=lambda: float(next(ticks))) is None
        assert health.quick_check(conn) is None


async def test_health_says_busy_for_a_locked_database(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = clean_env / "referee.sqlite3"
    await _club_db(db, games=2)
    monkeypatch.setattr(health, "BUSY_TIMEOUT_S", 0.05)
    with closing(sqlite3.connect(db, isolation_level=None)) as holder:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("DELETE FROM games WHERE 0")
        verdict = health.check(db)
        holder.execute("ROLLBACK")
    assert verdict.code == "busy", verdict
    assert "backup" not in _en("health-busy", **verdict.params)
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("PRAGMA locking_mode=NORMAL")
        conn.execute("SELECT 1").fetchall()


# --- a console session through a database fault -----------------------------------------------------

@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    import storage.store

    monkeypatch.setattr(storage.store, "BUSY_TIMEOUT_MS", 50)
    store = await Store.open(tmp_path / "referee.sqlite3")
    try:
        yield Session(Service(store), catalog("en")), store, tmp_path / "referee.sqlite3"
    finally:
        await store.close()


async def test_a_locked_database_is_said_and_the_session_goes_on(session: Any) -> None:
    console, _store, db = session
    assert (await console.handle("/new")).accepted
    with closing(sqlite3.connect(db, isolation_level=None, timeout=0.05)) as other:
        other.execute("BEGIN IMMEDIATE")  # another process writing: our write waits, then gives up
        reply = await console.handle("/name 3 Anna")
        other.execute("ROLLBACK")
    assert not reply.accepted
    assert reply.lines[0].startswith(_en("db-fault", code="busy", problem="").split("(")[0])
    assert (await console.handle("/name 3 Anna")).accepted
    status = await console.handle("/status")
    assert "Anna" in "\n".join(status.lines)


async def test_a_full_disk_is_said_and_the_session_goes_on(session: Any) -> None:
    console, store, _db = session
    assert (await console.handle("/new")).accepted
    pages = (await store.conn.execute_fetchall("PRAGMA page_count"))[0][0]
    await store.conn.execute_fetchall(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL from now on
    reply = None
    for n in range(500):  # a few commands fit in the pages there are: then the file must grow
        reply = await console.handle(f"/name {n % 10 + 1} {'Anna' * 14}{n}")
        if not reply.accepted:
            break
    assert reply is not None and not reply.accepted
    assert reply.lines[0].startswith(_en("db-fault", code="full", problem="").split("(")[0])
    await store.conn.execute_fetchall("PRAGMA max_page_count = 1073741823")
    assert (await console.handle("/name 3 Anna")).accepted
