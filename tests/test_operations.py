"""A club admin's day with the database: every command on a database of a newer schema (after a
downgrade) or another program's SQLite file says so in one line and exits 2, changing nothing;
``health`` tells a damaged file (restore a backup) from a busy one (wait) from another program's;
a console session survives a locked database or a full disk in the middle of a game."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
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

from test_deploy import DEPLOY, unit_entries

PREFIX = "MAFIA_REFEREE_"
TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
ROOT = Path(__file__).resolve().parents[1]


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
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str]) -> None:
    db = env_with_tokens / "referee.sqlite3"
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
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str]) -> None:
    db = env_with_tokens / "contacts.sqlite3"
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
        env_with_tokens: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The console refuses such a file; ``health`` must not answer "ok": SQLite's quick_check finds
    the damage, and the verdict says to restore a backup."""
    db = env_with_tokens / "referee.sqlite3"
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


async def test_health_says_busy_for_a_locked_database(env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = env_with_tokens / "referee.sqlite3"
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


# --- SIGTERM: systemctl stop, docker stop -----------------------------------------------------------

#: Run a mode with Discord's gateway faked: login runs the bot's setup (the store opened, timers
#: re-armed, the outbox drained), the connection then waits as a connected client does.
OFFLINE_DISCORD = """
import asyncio, sys
import discord
from discord import app_commands

async def login(self, token):
    await self._async_setup_hook()
    await self.setup_hook()
    print("connected", flush=True)

async def connect(self, *, reconnect=True):
    await asyncio.Event().wait()

async def sync(self, *, guild=None):
    return []

discord.Client.login = login
discord.Client.connect = connect
app_commands.CommandTree.sync = sync
from bot.entry import run
sys.argv = ["mafia-referee", *sys.argv[1:]]
sys.exit(run())
"""


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


@pytest.mark.parametrize("pid1", [False, True], ids=["process", "pid1"])
@pytest.mark.parametrize("mode", ["discord", "both"])
async def test_sigterm_stops_discord_and_both_cleanly(tmp_path: Path, mode: str, pid1: bool) -> None:
    """``systemctl stop`` and ``docker stop`` send SIGTERM: the mode shuts down as on Ctrl+C —
    exit 0 within seconds, the store closed (SQLite removes its ``-wal`` file only then) — also
    as PID 1 of its own PID namespace (a container), where a signal without a handler is
    ignored and Docker would kill the process 10 s later."""
    import shutil

    from fakebot import FakeBotAPI

    prefix: list[str] = []
    if pid1:
        if shutil.which("unshare") is None:
            pytest.skip("unshare is not installed")
        probe = subprocess.run(["unshare", "-r", "-p", "-f", "true"], capture_output=True, timeout=30)
        if probe.returncode != 0:
            pytest.skip("cannot make a PID namespace here (unshare -rpf)")
        prefix = ["unshare", "-r", "-p", "-f", "--kill-child"]
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(tmp_path / "notify"))
    systemd.setblocking(False)
    async with FakeBotAPI() as fake:
        db = tmp_path / "referee.sqlite3"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DISCORD_TOKEN": "discord-token", "MAFIA_REFEREE_DB": str(db),
                    "MAFIA_REFEREE_LANG": "en", "PYTHONPATH": str(ROOT),
                    # systemd's Type=notify with WatchdogSec=0.6s (pings every 0.2 s)
                    "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "600000"})
        env.pop("WATCHDOG_PID", None)
        process = await asyncio.create_subprocess_exec(
            *prefix, sys.executable, "-c", OFFLINE_DISCORD, mode, cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        target = process.pid
        try:
            assert process.stdout is not None
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            assert line.strip() == b"connected", (await process.stderr.read()).decode()  # type: ignore[union-attr]
            if mode == "both":
                await fake.wait_for(lambda: fake.calls_to("getUpdates"), timeout=30, what="polling")
            told: list[bytes] = []

            def heard(what: bytes) -> bool:
                with contextlib.suppress(BlockingIOError):
                    while True:
                        told.extend(systemd.recv(4096).splitlines())
                return what in told

            await fake.wait_for(lambda: heard(b"READY=1"), timeout=30, what="READY=1")
            await fake.wait_for(lambda: heard(b"") or told.count(b"WATCHDOG=1") >= 2, timeout=30,
                                what="the watchdog's pings")
            assert Path(f"{db}-wal").exists()  # the store is open
            if pid1:
                (target,) = _children(process.pid)
            started = asyncio.get_running_loop().time()
            os.kill(target, signal.SIGTERM)
            out, err = await asyncio.wait_for(process.communicate(), 30)
            elapsed = asyncio.get_running_loop().time() - started
        finally:
            if process.returncode is None:
                for pid in {target, process.pid}:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                await process.wait()
    assert process.returncode == 0, err.decode()
    assert heard(b"STOPPING=1")
    systemd.close()
    assert elapsed < 10, elapsed  # docker stop waits 10 s before SIGKILL
    assert b"Traceback" not in err, err.decode()
    assert not Path(f"{db}-wal").exists()  # closed, not killed


async def test_the_heartbeat_is_written_at_once_on_start(tmp_path: Path) -> None:
    """``health --max-age`` right after a start finds a fresh heartbeat: the first is written when
    the bot starts, not one interval later; systemd hears READY=1 once Telegram answered."""
    from fakebot import FakeBotAPI

    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(tmp_path / "notify"))
    systemd.settimeout(30)
    async with FakeBotAPI() as fake:
        db, beat = tmp_path / "referee.sqlite3", tmp_path / "run" / "heartbeat"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(db), "MAFIA_REFEREE_HEARTBEAT": str(beat),
                    "MAFIA_REFEREE_HEARTBEAT_INTERVAL": "3600", "MAFIA_REFEREE_LANG": "en",
                    "NOTIFY_SOCKET": str(tmp_path / "notify")})
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for(lambda: fake.calls_to("getUpdates"), timeout=30, what="polling")
            assert beat.is_file()
            ready = await asyncio.get_running_loop().run_in_executor(None, systemd.recv, 4096)
            assert b"READY=1" in ready.splitlines()
            checked = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "health", "--max-age", "120", cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            _out, err = await asyncio.wait_for(checked.communicate(), 30)
            assert checked.returncode == 0, err.decode()
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.communicate(), 30)
            systemd.close()
    assert process.returncode == 0


# --- the systemd units -------------------------------------------------------------------------------

def test_the_bot_unit_is_type_notify_with_a_watchdog() -> None:
    """The bot says when it is up (READY=1) and pings the watchdog from its event loop
    (:mod:`bot.lifecycle`): a stuck loop is restarted by systemd itself, no timer needed."""
    import shlex

    from bot.lifecycle import PINGS_PER_WATCHDOG

    bot = unit_entries(DEPLOY / "mafia-referee.service")
    assert bot["Type"] == ["notify"] and bot["NotifyAccess"] == ["main"]
    (watchdog,) = bot["WatchdogSec"]
    assert watchdog.endswith("s") and int(watchdog[:-1]) / PINGS_PER_WATCHDOG >= 10
    assert bot["Restart"] == ["on-failure"] and bot["RestartPreventExitStatus"] == ["2"]
    health_unit = unit_entries(DEPLOY / "mafia-referee-health.service")
    (exec_start,) = health_unit["ExecStart"]
    argv = shlex.split(exec_start)
    assert argv[0] == shlex.split(bot["ExecStart"][0])[0] and argv[1] == "health"
    assert "ExecStopPost" not in health_unit  # the watchdog restarts a stuck bot, not this check
    assert unit_entries(DEPLOY / "mafia-referee-health.timer")["OnUnitActiveSec"] == ["1h"]


@pytest.mark.parametrize("unit", ["mafia-referee-health.service", "mafia-referee-backup.service"])
def test_the_health_and_backup_units_are_hardened_as_the_bot_is(unit: str) -> None:
    bot = unit_entries(DEPLOY / "mafia-referee.service")
    other = unit_entries(DEPLOY / unit)
    hardening = {key: value for key, value in bot.items()
                 if key.startswith(("Protect", "Private", "Restrict", "NoNew", "Lock", "SystemCall",
                                    "Capability", "Ambient", "UMask"))}
    assert len(hardening) >= 15
    for key, value in hardening.items():
        if key == "RestrictAddressFamilies":  # no network: local sockets only
            assert other[key] == ["AF_UNIX"], key
        else:
            assert other.get(key) == value, key
    assert other["PrivateNetwork"] == ["yes"]
    assert other["User"] == bot["User"]
    # the bot's state directory (the database's folder), and for the backups their own folder
    # beside it (issue 31: the backup script never creates one)
    (state,) = bot["StateDirectory"]
    (states,) = other["StateDirectory"]
    assert states.split()[0] == state and set(states.split()[1:]) <= {f"{state}/backups"}


# --- the image: a pinned base, a lock, layers, the build context ------------------------------------

def _dockerfile() -> list[str]:
    import re

    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text("utf-8"))
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _lock() -> dict[str, str]:
    """``deploy/requirements.lock``: each pinned package (normalised name) and its version; every
    pin carries at least one hash."""
    import re

    pins: dict[str, str] = {}
    text = (DEPLOY / "requirements.lock").read_text("utf-8")
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = re.match(r"([A-Za-z0-9._-]+)==(\S+)", block)
        if match:
            assert "--hash=sha256:" in block, match[1]
            pins[re.sub(r"[-_.]+", "-", match[1]).lower()] = match[2]
    return pins


def test_the_base_image_is_pinned_by_digest() -> None:
    import re

    lines = _dockerfile()
    (arg,) = [line for line in lines if line.startswith("ARG ")]
    assert re.fullmatch(r"ARG PYTHON_IMAGE=python:3\.11-slim@sha256:[0-9a-f]{64}", arg)
    assert [line for line in lines if line.startswith("FROM ")] == ["FROM ${PYTHON_IMAGE}"]


def test_the_lock_pins_every_dependency_within_pyproject() -> None:
    """The image installs ``deploy/requirements.lock`` (``.ci/run`` checks it is what
    ``deploy/lock.sh`` resolves today); here, without the network: every dependency of
    pyproject.toml, extras included, is pinned at a version its range allows."""
    import tomllib

    from packaging.requirements import Requirement

    pins = _lock()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        name = requirement.name.lower().replace("_", "-").replace(".", "-")
        assert name in pins, name
        assert requirement.specifier.contains(pins[name]), (name, pins[name])
    assert {"tornado", "apscheduler", "aiolimiter"} <= set(pins)  # python-telegram-bot's extras
    assert "matplotlib" not in pins and "numpy" not in pins  # the sheet is drawn with Pillow


def test_a_code_change_does_not_reinstall_the_dependencies() -> None:
    """Docker reuses a layer until something it copies changes: the lock is copied and installed
    (hash-checked, no resolution) before any code is copied."""
    lines = _dockerfile()
    copy_lock = lines.index("COPY deploy/requirements.lock ./")
    install = next(i for i, line in enumerate(lines) if "-r requirements.lock" in line)
    assert "--require-hashes" in lines[install] and "--no-deps" in lines[install]
    first_code = min(i for i, line in enumerate(lines) if line.startswith("COPY ") and i != copy_lock)
    assert copy_lock < install < first_code
    assert lines[-1].startswith("CMD ") and any(
        line.startswith("RUN pip install --no-cache-dir --no-deps .") for line in lines[first_code:])


def test_the_build_context_is_filtered_with_or_without_buildkit() -> None:
    """The classic builder reads only ``.dockerignore`` at the context's root (BuildKit prefers a
    ``<Dockerfile>.dockerignore`` beside the Dockerfile: there is none, so both read the same).
    Everything the Dockerfile copies is let in; nothing else is."""
    assert not (DEPLOY / "Dockerfile.dockerignore").exists()
    rules_ = [line for line in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
              if line and not line.startswith("#")]
    assert rules_[0] == "**"
    admitted = {line[1:] for line in rules_ if line.startswith("!")}
    copied = set()
    for line in _dockerfile():
        if line.startswith("COPY "):
            copied.update(line.split()[1:-1])
    assert copied == admitted, (copied, admitted)
    for path in copied:
        assert (ROOT / path).exists(), path


def test_compose_stops_on_a_missing_token_instead_of_restarting() -> None:
    """A missing token makes the bot exit 2, and ``restart:`` would start it again every few
    seconds: compose's own check (``${VAR:?message}``) refuses to start, naming the variable."""
    import re

    text = (DEPLOY / "compose.yaml").read_text("utf-8")
    match = re.search(r"^\s+MAFIA_REFEREE_TELEGRAM_TOKEN:\s*\$\{MAFIA_REFEREE_TELEGRAM_TOKEN:\?([^}]+)\}\s*$",
                      text, re.M)
    assert match is not None and "deploy/.env" in match[1]


def test_the_licence_is_mit() -> None:
    import tomllib

    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    assert (ROOT / "bot" / "protocol" / "fonts" / "LICENSE-DejaVu.txt").is_file()


# --- replay: standard input, errors on stderr -----------------------------------------------------

def _record(tmp_path: Path) -> Path:
    import json

    from bot.protocol import to_json
    from test_protocol import GAMES, play

    config, names, events = play(GAMES["red_win"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(config, names, events, game_id=3)), "utf-8")
    return path


def _replay(args: list[str], tmp_path: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)} | {"MAFIA_REFEREE_LANG": "ru"}
    return subprocess.run([sys.executable, "-m", "bot", "replay", *args], input=stdin, capture_output=True,
                          timeout=60, cwd=tmp_path, env=env)


def test_replay_reads_standard_input(tmp_path: Path) -> None:
    path = _record(tmp_path)
    from_file = _replay([str(path)], tmp_path)
    from_stdin = _replay(["-"], tmp_path, stdin=path.read_bytes())
    assert from_file.returncode == from_stdin.returncode == 0, from_stdin.stderr.decode()
    assert from_stdin.stdout == from_file.stdout and from_stdin.stderr == b""
    assert catalog("ru").text("replay-agrees") in from_stdin.stdout.decode()


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_an_unreadable_record_is_an_error_on_stderr(tmp_path: Path, as_json: bool) -> None:
    """The text error is one line on stderr (stdout stays the replay's); ``--json`` keeps its
    error object on stdout, for the program that reads it."""
    import json

    done = _replay(["-", *(["--json"] if as_json else [])], tmp_path, stdin=b"{not json")
    assert done.returncode == 2
    if as_json:
        assert json.loads(done.stdout)["error"] == "unreadable" and done.stderr == b""
    else:
        assert done.stdout == b"" and len(done.stderr.decode().strip().splitlines()) == 1
        assert done.stderr.decode().startswith("Не удаётся прочитать -")
