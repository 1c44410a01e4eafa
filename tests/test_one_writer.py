"""One writing process per database (:mod:`bot.writer`, ARCHITECTURE.md "One writer").

Two bot processes on one SQLite file corrupted the games' course (an action landed in an abandoned
game, ``/new`` left live games orphaned): the second ``telegram``/``discord``/``both`` now stops at
once with one line and exit status 2, while ``health``, ``backup`` and ``replay`` still work beside
the running bot, and a bot killed outright leaves no stale lock behind."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import writer
from bot.i18n import catalog

PREFIX = "MAFIA_REFEREE_"
TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def _run(monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    from bot.entry import run

    monkeypatch.setattr(sys, "argv", ["mafia-referee", *argv])
    return run()


@pytest.mark.parametrize("command", ["telegram", "discord", "both"])
def test_a_second_writer_stops_at_once_with_one_line(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: str) -> None:
    """The lock is held (a bot runs on the database): the second long-running mode says so in one
    line and exits with status 2, before it reaches any network (nothing here answers)."""
    db = env_with_tokens / "referee.sqlite3"
    called: list[str] = []
    monkeypatch.setattr("bot.telegram.app.run", lambda settings: called.append("telegram") or 0)
    monkeypatch.setattr("bot.discord.app.run", lambda settings, **kw: called.append("discord") or 0)
    monkeypatch.setattr("bot.discord.both.run_both", lambda settings: called.append("both") or 0)
    assert _run(monkeypatch, command, "--db", str(db)) == 0 and called == [command]  # free: it runs
    capsys.readouterr()
    with writer.acquire(db):
        assert _run(monkeypatch, command, "--db", str(db)) == 2
    assert called == [command]
    err = capsys.readouterr().err
    assert err.strip() == catalog("en").text("cli-db-busy", path=str(db), pid=str(os.getpid()))
    assert len(err.strip().splitlines()) == 1
    assert _run(monkeypatch, command, "--db", str(db)) == 0  # released: it runs again
    assert called == [command, command]


@pytest.mark.parametrize("command", ["telegram", "discord", "both"])
def test_a_second_writer_neither_creates_nor_migrates_the_database(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: str) -> None:
    """The lock is taken before the store is opened: a second process (a newer version started by
    mistake, say) must not create the database, nor migrate the schema under the running one."""
    db = env_with_tokens / "data" / "referee.sqlite3"
    opened: list[Path] = []
    monkeypatch.setattr("bot.cli._probe_database", opened.append)
    monkeypatch.setattr("bot.telegram.app.run", lambda settings: 0)
    monkeypatch.setattr("bot.discord.app.run", lambda settings, **kw: 0)
    monkeypatch.setattr("bot.discord.both.run_both", lambda settings: 0)
    with writer.acquire(db):  # the folder is made for the lock; the database is not
        assert _run(monkeypatch, command, "--db", str(db)) == 2
    assert opened == [] and not db.exists()
    assert "pid" in capsys.readouterr().err
    assert _run(monkeypatch, command, "--db", str(db)) == 0 and opened == [db]


def test_every_name_of_one_database_takes_one_lock(tmp_path: Path) -> None:
    """A relative path, a symbolic link (a volume mounted through one, an alias in a service file)
    and the file's own path are one database: one lock."""
    db = tmp_path / "data" / "referee.sqlite3"
    (tmp_path / "alias").mkdir()
    link = tmp_path / "alias" / "bot.sqlite3"
    link.symlink_to(db)
    (tmp_path / "linked").symlink_to(tmp_path / "data", target_is_directory=True)
    with writer.acquire(db):
        for name in (link, tmp_path / "linked" / "referee.sqlite3",
                     Path(os.path.relpath(db)), tmp_path / "alias" / ".." / "data" / "referee.sqlite3"):
            with pytest.raises(writer.DatabaseBusy):
                writer.acquire(name)
    with writer.acquire(link) as lock:
        assert lock.path == writer.lock_path(db) == db.with_name("referee.sqlite3.lock")


def test_the_read_only_commands_work_beside_a_running_bot(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = env_with_tokens / "referee.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("/name 3 Вася\n"))
    assert _run(monkeypatch, "console", "--db", str(db), "--new") == 0  # a database with a game
    record = env_with_tokens / "game.json"
    record.write_text(json.dumps({"nothing": "here"}), "utf-8")
    with writer.acquire(db):
        assert _run(monkeypatch, "health", "--db", str(db)) == 0
        assert _run(monkeypatch, "backup", str(env_with_tokens / "copy.sqlite3"), "--db", str(db)) == 0
        assert _run(monkeypatch, "replay", str(record)) == 2  # read (and refused) as usual
        capsys.readouterr()
    assert (env_with_tokens / "copy.sqlite3").exists()


def test_a_killed_writer_leaves_no_lock_behind(tmp_path: Path) -> None:
    """The lock is the kernel's: a process killed outright (SIGKILL) drops it."""
    db = tmp_path / "referee.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from bot import writer; "
         "writer.acquire(Path(sys.argv[1])); print('held', flush=True); time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(writer.DatabaseBusy) as busy:
            writer.acquire(db)
        assert busy.value.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with writer.acquire(db) as lock:
        assert lock.path == writer.lock_path(db)


async def test_a_second_telegram_process_on_one_database_is_refused(tmp_path: Path) -> None:
    """For real: one ``mafia-referee telegram`` polls the fake Bot API; a second one on the same
    database stops at once (exit 2, one line naming the first one's pid) and never polls; the
    first goes on, and ``health`` answers beside it."""
    from fakebot import FakeBotAPI

    async with FakeBotAPI() as fake:
        db = tmp_path / "referee.sqlite3"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(db), "MAFIA_REFEREE_LANG": "en"})
        first = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for(lambda: fake.calls_to("getUpdates"), timeout=20, what="polling")
            polls = len(fake.calls_to("getMe"))
            second = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(second.communicate(), 30)
            assert second.returncode == 2, err.decode()
            assert err.decode().strip() == catalog("en").text("cli-db-busy", path=str(db), pid=str(first.pid))
            assert len(fake.calls_to("getMe")) == polls  # it never reached Telegram
            checked = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "health", cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(checked.communicate(), 20)
            assert checked.returncode == 0, err.decode()
            assert first.returncode is None
        finally:
            if first.returncode is None:
                first.send_signal(signal.SIGINT)
            await asyncio.wait_for(first.communicate(), 20)
        assert first.returncode == 0
