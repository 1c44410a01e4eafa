"""``deploy/`` as the program sees it: the example env file is exactly the settings, the systemd unit,
the Dockerfile and compose run real subcommands of the installed console script; ``health`` and
``backup`` (:mod:`bot.health`); the logs never print a token, as text or JSON (:mod:`bot.logs`);
webhook mode picks PTB's ``run_webhook`` with the settings; and the real bot process, run as the
Dockerfile runs it, touches its heartbeat and logs JSON lines without the token.

No Docker engine runs here: the Dockerfile is checked as text, never built."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import os
import re
import shlex
import signal
import sqlite3
import stat
import sys
import time
import tomllib
from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import SecretStr

from bot import health, logs
from bot.cli import COMMANDS, _parser, main, max_age_seconds
from bot.i18n import LANGS, catalog
from bot.telegram.webhook import START_RETRIES
from bot.settings import Settings
from storage import Store
from storage.migrate import bundled

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
EXAMPLE = DEPLOY / ".env.example"
PREFIX = "MAFIA_REFEREE_"
TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
KEY_LINE = re.compile(r"^#?\s*(MAFIA_REFEREE_[A-Z0-9_]+)=(.*)$")


def _script_name() -> str:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts == {"mafia-referee": "bot.entry:run"}
    return next(iter(scripts))


def _assert_runs_a_subcommand(argv: list[str]) -> None:
    """``argv`` starts with the installed console script and parses as a real subcommand."""
    assert Path(argv[0]).name == _script_name(), argv
    assert argv[1] in COMMANDS, argv
    assert _parser().parse_args(argv[1:]).command == argv[1]


# --- the example env file ------------------------------------------------------------------------

def _example_keys() -> dict[str, tuple[str, bool]]:
    """Each key of the example: its value and whether the line is commented out."""
    keys: dict[str, tuple[str, bool]] = {}
    for line in EXAMPLE.read_text("utf-8").splitlines():
        match = KEY_LINE.match(line.strip())
        if match:
            assert match[1] not in keys, f"{match[1]} twice"
            keys[match[1]] = (match[2].strip(), line.lstrip().startswith("#"))
    return keys


def _setting_names() -> set[str]:
    return {PREFIX + name.upper() for name in Settings.model_fields}


def test_the_example_names_every_setting_and_nothing_else() -> None:
    """Settings ignore unknown variables (``extra="ignore"``): a typo in the example would be a
    setting silently not set. So each key is a real one, and each setting is documented."""
    keys = set(_example_keys())
    assert keys - _setting_names() == set(), "not a setting"
    assert _setting_names() - keys == set(), "missing from deploy/.env.example"


def test_the_example_loads_and_states_the_defaults(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAFIA_REFEREE_LANG")  # the environment would win over the file
    loaded = Settings(_env_file=EXAMPLE)  # type: ignore[call-arg]
    # No real token ships: the example's is empty, which `mafia-referee telegram` refuses (exit 2).
    assert loaded.telegram_token is not None and loaded.telegram_token.get_secret_value() == ""
    assert loaded.lang == "ru"
    for key, (value, commented) in _example_keys().items():
        field = key.removeprefix(PREFIX).lower()
        if commented or field == "telegram_token":
            continue
        default = Settings.model_fields[field].get_default(call_default_factory=True)
        assert getattr(loaded, field) == default, f"{key}={value} is not the default {default!r}"


def test_the_examples_commented_values_are_valid(clean_env: Path, tmp_path: Path) -> None:
    """Uncommenting a line (with a value filled in where the example leaves it empty) gives a valid
    setting."""
    filled = {"MAFIA_REFEREE_DISCORD_TOKEN": "discord-token", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET": "s3cr3t_-xK9q2Lw7"}
    lines = []
    for key, (value, _commented) in _example_keys().items():
        lines.append(f"{key}={value or filled.get(key, '')}")
    env = tmp_path / "uncommented.env"
    env.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = Settings(_env_file=env)  # type: ignore[call-arg]
    assert loaded.telegram_webhook_url == "https://referee.example.org/telegram/hook"
    assert loaded.heartbeat is not None and loaded.db.is_absolute()
    assert loaded.telegram_webhook_secret == SecretStr("s3cr3t_-xK9q2Lw7")


# --- systemd, Docker, compose --------------------------------------------------------------------

def unit_entries(path: Path) -> dict[str, list[str]]:
    """A systemd unit's ``key=value`` lines, each key's values in order (comments and sections
    left out)."""
    entries: dict[str, list[str]] = {}
    for line in path.read_text("utf-8").splitlines():
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, _, value = line.partition("=")
            entries.setdefault(key.strip(), []).append(value.strip())
    return entries


def test_the_systemd_unit_runs_the_installed_command() -> None:
    unit = unit_entries(DEPLOY / "mafia-referee.service")
    (exec_start,) = unit["ExecStart"]
    argv = shlex.split(exec_start)
    assert Path(argv[0]).is_absolute()  # systemd wants an absolute path
    _assert_runs_a_subcommand(argv)
    assert unit["Restart"] == ["on-failure"]
    assert unit["User"] == ["mafia-referee"] and unit["EnvironmentFile"]
    assert unit["NoNewPrivileges"] == ["yes"] and unit["ProtectSystem"] == ["strict"]
    # The unit writes only its StateDirectory: the database must be in it.
    env = dict(value.split("=", 1) for value in unit["Environment"])
    (state,) = unit["StateDirectory"]
    assert Path(env["MAFIA_REFEREE_DB"]).parent == Path("/var/lib") / state
    (runtime,) = unit["RuntimeDirectory"]
    assert Path(env["MAFIA_REFEREE_HEARTBEAT"]).parent == Path("/run") / runtime
    assert set(env) <= _setting_names()


def test_the_backup_timer_runs_the_backup_script() -> None:
    unit = unit_entries(DEPLOY / "mafia-referee-backup.service")
    (exec_start,) = unit["ExecStart"]
    assert Path(shlex.split(exec_start)[0]).name == "backup.sh"
    script = (DEPLOY / "backup.sh").read_text("utf-8")
    assert os.access(DEPLOY / "backup.sh", os.X_OK)
    assert '"$command" backup "$dir/"' in script
    assert _parser().parse_args(["backup", "/tmp/x/"]).command == "backup"
    assert "OnCalendar" in unit_entries(DEPLOY / "mafia-referee-backup.timer")


def _dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text("utf-8"))
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _instruction(name: str) -> list[str]:
    return [line[len(name):].strip() for line in _dockerfile() if line.split()[0] == name]


def test_the_dockerfiles_cmd_and_healthcheck_run_real_subcommands() -> None:
    (cmd,) = _instruction("CMD")
    _assert_runs_a_subcommand(json.loads(cmd))
    assert json.loads(cmd)[1] == "telegram"
    (check,) = _instruction("HEALTHCHECK")
    argv = json.loads(check[check.index("CMD") + len("CMD"):].strip())
    _assert_runs_a_subcommand(argv)
    args = _parser().parse_args(argv[1:])
    assert args.command == "health" and max_age_seconds(args.max_age) == 120


def test_the_image_runs_as_a_user_with_the_database_on_the_volume() -> None:
    (base,) = _instruction("FROM")
    (arg,) = _instruction("ARG")
    assert base == "${PYTHON_IMAGE}" and arg.startswith("PYTHON_IMAGE=python:3.11-slim@sha256:")
    (user,) = _instruction("USER")
    assert user not in ("root", "0")
    (volume,) = _instruction("VOLUME")
    env = " ".join(_instruction("ENV"))
    db = re.search(r"MAFIA_REFEREE_DB=(\S+)", env)
    assert db and json.loads(volume) == ["/data"] and Path(db[1]).parent == Path("/data")
    assert re.search(r"MAFIA_REFEREE_HEARTBEAT=(\S+)", env)
    assert any(line.startswith("RUN pip install --no-cache-dir --no-deps .") for line in _dockerfile())


def test_compose_runs_the_image_with_the_env_file_and_the_volume() -> None:
    text = (DEPLOY / "compose.yaml").read_text("utf-8")
    command = re.search(r"^\s*command:\s*(\[.*\])\s*$", text, re.M)
    assert command is not None
    _assert_runs_a_subcommand(json.loads(command[1]))
    assert re.search(r"^\s*dockerfile:\s*deploy/Dockerfile\s*$", text, re.M)
    assert re.search(r"^\s*env_file:\s*\n\s*-\s*\.env\s*$", text, re.M)
    assert re.search(r"^\s*restart:\s*unless-stopped\s*$", text, re.M)
    # Docker does not restart an unhealthy container: the label is what an autoheal container uses.
    assert re.search(r"^\s*labels:\s*\n\s*autoheal:\s*\"true\"\s*$", text, re.M)
    assert re.search(r"^\s*-\s*referee-data:/data\s*$", text, re.M)


def test_the_postgresql_compose_file_runs_the_bot_on_postgresql_behind_a_proxy() -> None:
    """deploy/compose.postgresql.yaml (issue 18): PostgreSQL with its health check, two workers
    sharing the chats on it in webhook mode (one secret for both) once PostgreSQL is healthy, a
    proxy in front spreading the requests over both; each with a health check (the bot's is the
    image's own: ``health`` on the PostgreSQL URL)."""
    from storage import is_url

    text = (DEPLOY / "compose.postgresql.yaml").read_text("utf-8")
    command = re.search(r"^\s*command:\s*(\[\"mafia-referee\".*\])\s*$", text, re.M)
    assert command is not None
    _assert_runs_a_subcommand(json.loads(command[1]))
    db = re.search(r"^\s*MAFIA_REFEREE_DB:\s*(\S+)\s*$", text, re.M)
    assert db is not None and is_url(db[1]) and "@postgres:5432/" in db[1]
    assert re.search(r"^\s*MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL:", text, re.M)
    assert re.search(r"^\s*MAFIA_REFEREE_WORKERS:\s*shared\s*$", text, re.M)
    assert re.search(r"^\s*MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET:\s*\$\{MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET:\?",
                     text, re.M)
    workers = re.findall(r"^  (referee-\d+): \*referee\s*$", text, re.M)
    assert workers == ["referee-1", "referee-2"]
    proxy = re.search(r"^\s*command:\s*(\[\"caddy\".*\])\s*$", text, re.M)
    assert proxy is not None
    upstreams = [arg for flag, arg in zip(json.loads(proxy[1]), json.loads(proxy[1])[1:]) if flag == "--to"]
    assert upstreams == [f"{worker}:8443" for worker in workers]
    assert re.search(r"condition:\s*service_healthy", text)
    assert text.count("healthcheck:") == 2  # postgres and the proxy; the bot: the image's HEALTHCHECK
    assert any(line.startswith("HEALTHCHECK") for line in _dockerfile())


# --- health ----------------------------------------------------------------------------------------

def _en(key: str, **params: Any) -> str:
    return catalog("en").text(key, **params)


def test_every_verdict_has_a_message() -> None:
    for lang in LANGS:
        for code in health.HEALTH_CODES:
            assert catalog(lang).has(f"health-{code}"), (lang, code)
        for code in (*health.BACKUP_CODES, "done"):
            assert catalog(lang).has(f"backup-{code}"), (lang, code)


async def test_health_passes_on_a_fresh_database(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = clean_env / "referee.sqlite3"
    await (await Store.open(db)).close()
    assert main(["health", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == _en("health-ok", path=str(db), version=len(bundled()), count=0)


def test_health_fails_without_a_database_and_does_not_create_one(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = clean_env / "nowhere" / "referee.sqlite3"
    assert main(["health", "--db", str(db)]) == 1
    assert capsys.readouterr().err.strip() == _en("health-no_database", path=str(db))
    assert not db.parent.exists()


def test_health_fails_on_a_corrupt_database(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = clean_env / "referee.sqlite3"
    db.write_bytes(b"this is not SQLite\n" * 300)
    assert main(["health", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(_en("health-bad_database", path=str(db), problem="")[:30])
    assert "file is not a database" in err


def test_health_fails_on_an_old_schema(clean_env: Path) -> None:
    db = clean_env / "old.sqlite3"
    with sqlite3.connect(db, isolation_level=None) as conn:
        conn.executescript(bundled()[0].sql)
    conn.close()
    verdict = health.check(db)
    assert verdict.code == "old_schema" and verdict.params["version"] == 1


@pytest.mark.parametrize(("age", "status"), [(5, 0), (119, 0), (121, 1), (3600, 1)])
async def test_health_checks_the_heartbeat_is_fresh(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                    age: int, status: int) -> None:
    db = clean_env / "referee.sqlite3"
    await (await Store.open(db)).close()
    beat = clean_env / "heartbeat"
    health.touch_heartbeat(beat)
    os.utime(beat, (time.time() - age, time.time() - age))
    monkeypatch.setenv("MAFIA_REFEREE_HEARTBEAT", str(beat))
    assert main(["health", "--db", str(db), "--max-age", "120"]) == status


async def test_health_max_age_needs_a_heartbeat(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = clean_env / "referee.sqlite3"
    await (await Store.open(db)).close()
    assert main(["health", "--db", str(db), "--max-age", "120"]) == 1
    assert capsys.readouterr().err.strip() == _en("health-no_heartbeat_setting")
    beat = clean_env / "missing"
    assert main(["health", "--db", str(db), "--max-age", "120", "--heartbeat", str(beat)]) == 1
    assert capsys.readouterr().err.strip() == _en("health-no_heartbeat", path=str(beat))


# --- backup ----------------------------------------------------------------------------------------

async def test_backup_while_another_connection_writes(clean_env: Path) -> None:
    """SQLite's online backup is one consistent snapshot: every game that existed when it began is in
    the copy, with the same rows, and no game is half there, while the bot keeps writing."""
    db = clean_env / "referee.sqlite3"
    store = await Store.open(db)
    try:
        before = [await store.create_game(f"tg:{n}", "tg:1", {"preset": "seed"}, {1: f"P{n}"}) for n in range(20)]
        writing = True

        async def writer() -> int:
            n = 0
            while writing:
                await store.create_game(f"tg:w{n}", "tg:1", {"preset": "seed"}, {2: "W"})
                n += 1
                await asyncio.sleep(0)
            return n

        task = asyncio.create_task(writer())
        await asyncio.sleep(0.05)
        (clean_env / "backups").mkdir()  # a backup never creates its folder (issue 31)
        written, games = await asyncio.to_thread(health.backup, db, f"{clean_env}/backups/")
        writing = False
        assert await task > 0
        assert written.parent == clean_env / "backups" and written.name.startswith("referee-")
        copy = await Store.open(written)  # opens, migrations current
        try:
            for game_id in before:
                assert await copy.game(game_id) == await store.game(game_id)
            rows = await copy.conn.execute_fetchall("SELECT id FROM games ORDER BY id")
            ids = [row[0] for row in rows]
            assert len(ids) == games and ids == list(range(1, games + 1))
        finally:
            await copy.close()
    finally:
        await store.close()
    assert not list((clean_env / "backups").glob(".*partial"))
    assert health.check(written).ok


def test_backup_command(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = clean_env / "none.sqlite3"
    # README "Commands": bad input (no database to copy) is exit status 2
    assert main(["backup", str(clean_env / "copy.sqlite3"), "--db", str(missing)]) == 2
    assert capsys.readouterr().err.strip() == _en("backup-no_database", path=str(missing))
    assert main(["demo", "--db", str(clean_env / "club.sqlite3"), "--lang", "en"]) == 0
    capsys.readouterr()
    dest = clean_env / "copy.sqlite3"
    assert main(["backup", str(dest), "--db", str(clean_env / "club.sqlite3")]) == 0
    assert capsys.readouterr().out.strip() == _en("backup-done", path=str(dest), count=1)
    assert health.check(dest).ok and not Path(f"{dest}-wal").exists()


def test_backup_refuses_to_write_over_the_live_database(clean_env: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``backup live --db live`` would replace the database by a copy of itself mid-write: refused,
    exit 2, one line; the same file by another name (``x/../live``) too."""
    db = clean_env / "live.sqlite3"
    assert main(["demo", "--db", str(db), "--lang", "en"]) == 0
    capsys.readouterr()
    before = db.read_bytes()
    for dest in (str(db), "live.sqlite3", f"{clean_env}/sub/../live.sqlite3"):
        assert main(["backup", dest, "--db", "live.sqlite3"]) == 2
        err = capsys.readouterr().err
        assert err.strip() == _en("backup-same_file", path=dest) and "Traceback" not in err
    assert db.read_bytes() == before and health.check(db).ok


def test_backup_to_a_place_that_cannot_be_written(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A destination whose folder cannot be created (a file stands in the way; as root, whom
    permissions do not stop, this is the failure that can be staged): one line, exit 2, no
    partial file and no traceback, for a file name and for a folder."""
    db = clean_env / "club.sqlite3"
    assert main(["demo", "--db", str(db), "--lang", "en"]) == 0
    (clean_env / "blocker").write_text("a file, not a folder")
    capsys.readouterr()
    for dest in (f"{clean_env}/blocker/b.sqlite3", f"{clean_env}/blocker/sub/"):
        assert main(["backup", dest, "--db", str(db)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and "Traceback" not in captured.err
        assert len(captured.err.strip().splitlines()) == 1
        assert captured.err.startswith(_en("backup-failed", path="", problem="").split(":")[0])
    assert sorted(p.name for p in clean_env.iterdir()) == ["blocker", "club.sqlite3"]


def test_backup_of_a_source_that_is_not_a_database_blames_the_source(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = clean_env / "bad.json"
    bad.write_text('{"not": "a database"}\n' * 100, encoding="utf-8")
    dest = clean_env / "copy.sqlite3"
    assert main(["backup", str(dest), "--db", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(_en("backup-bad_source", path=str(bad), problem="").split(":")[0] + ":")
    assert str(bad) in err and str(dest) not in err
    assert not dest.exists()


def _club(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A real database with one game (the demo's), output cleared."""
    db = clean_env / "club.sqlite3"
    assert main(["demo", "--db", str(db), "--lang", "en"]) == 0
    capsys.readouterr()
    return db


def _refused(capsys: pytest.CaptureFixture[str], key: str, **params: Any) -> None:
    """One line on stderr, exactly the catalog's ``key``; nothing on stdout; no traceback."""
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.strip() == _en(key, **params)


def test_backup_refuses_an_empty_destination(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``backup ''`` wrote a dated file into the current folder: an empty DEST is no DEST."""
    db = _club(clean_env, capsys)
    for dest in ("", "  "):
        assert main(["backup", dest, "--db", str(db)]) == 2
        _refused(capsys, "backup-empty_dest")
    assert sorted(p.name for p in clean_env.iterdir()) == ["club.sqlite3"]


def test_backup_never_replaces_what_is_not_a_regular_file(clean_env: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``backup /dev/null`` replaced the device by a file (as root): a DEST that exists and is not a
    regular file — a FIFO, a symbolic link, a character device — is refused and left as it was.
    (Staged in the test's folder, never on /dev itself.)"""
    db = _club(clean_env, capsys)
    fifo = clean_env / "pipe"
    os.mkfifo(fifo)
    target = clean_env / "elsewhere.txt"
    target.write_text("keep me\n", encoding="utf-8")
    link = clean_env / "link.sqlite3"
    link.symlink_to(target)
    dests = [fifo, link]
    device = clean_env / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        dests.append(device)
    except (PermissionError, OSError):  # not root: the FIFO and the link stand for it
        pass
    for dest in dests:
        before = os.lstat(dest)
        assert main(["backup", str(dest), "--db", str(db), "--force"]) == 2
        _refused(capsys, "backup-not_a_file", path=str(dest))
        after = os.lstat(dest)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert not list(clean_env.glob(".*partial"))


def test_backup_keeps_a_file_that_is_not_a_database_unless_forced(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing text file is not overwritten by a backup (it would be lost) unless the admin
    says ``--force``; an earlier backup (an SQLite file) and an empty file are replaced as before."""
    db = _club(clean_env, capsys)
    text = clean_env / "mixed.txt"
    text.write_text("notes of the club\n", encoding="utf-8")
    assert main(["backup", str(text), "--db", str(db)]) == 2
    _refused(capsys, "backup-not_sqlite", path=str(text))
    assert text.read_text(encoding="utf-8") == "notes of the club\n"
    assert main(["backup", str(text), "--db", str(db), "--force"]) == 0
    assert health.check(text).ok
    capsys.readouterr()
    assert main(["backup", str(text), "--db", str(db)]) == 0  # now an SQLite file: a backup again
    empty = clean_env / "empty.sqlite3"
    empty.touch()
    assert main(["backup", str(empty), "--db", str(db)]) == 0
    assert health.check(empty).ok


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
async def test_backup_refuses_the_live_databases_own_files(
        clean_env: Path, capsys: pytest.CaptureFixture[str], suffix: str) -> None:
    """The live database's ``-wal``/``-shm``/``-journal`` are part of it: a copy over them would
    corrupt it. Refused, also under another spelling of the path, and the file is left alone."""
    db = await asyncio.to_thread(_club, clean_env, capsys)
    store = await Store.open(db)  # an open connection in WAL mode: -wal and -shm exist
    try:
        companion = Path(f"{db}{suffix}")
        existed = companion.exists()
        before = companion.read_bytes() if existed else None
        for dest in (str(companion), f"{clean_env}/sub/../{companion.name}"):
            assert await asyncio.to_thread(main, ["backup", dest, "--db", str(db), "--force"]) == 2
            _refused(capsys, "backup-same_file", path=dest)
        assert companion.exists() == existed
        if existed:
            assert companion.read_bytes() == before
    finally:
        await store.close()
    assert health.check(db).ok


# --- health: its arguments and a read-only database ----------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "0", "-5", "abc", ""])
async def test_health_max_age_must_be_a_positive_finite_number(
        clean_env: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    """``--max-age nan`` passed a two-day-old heartbeat (every comparison with NaN is false), ``inf``
    and ``1e400`` too, and ``0``/``-5`` always failed: refused, one line, exit 2."""
    db = clean_env / "referee.sqlite3"
    await (await Store.open(db)).close()
    beat = clean_env / "heartbeat"
    health.touch_heartbeat(beat)
    old = time.time() - 2 * 86400
    os.utime(beat, (old, old))
    assert main(["health", "--db", str(db), "--heartbeat", str(beat), f"--max-age={value}"]) == 2
    _refused(capsys, "health-bad_max_age", value=value)


def test_health_and_backup_speak_the_language_asked_for(clean_env: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang`` wins over ``MAFIA_REFEREE_LANG`` (en here) for ``health`` and ``backup`` too."""
    db = _club(clean_env, capsys)
    assert main(["health", "--db", str(db), "--max-age=0", "--lang", "ru"]) == 2
    assert capsys.readouterr().err.strip() == catalog("ru").text("health-bad_max_age", value="0")
    assert main(["backup", "", "--db", str(db), "--lang", "ru"]) == 2
    assert capsys.readouterr().err.strip() == catalog("ru").text("backup-empty_dest")


def test_health_max_age_reads_seconds() -> None:
    assert max_age_seconds("120") == 120 and max_age_seconds("0.5") == 0.5
    assert max_age_seconds("1e400") is None and max_age_seconds("nan") is None


def _read_only_mount(folder: Path) -> list[str] | None:
    """A command prefix that runs a command with ``folder`` bind-mounted read-only (a user and
    mount namespace: ``unshare -rm``), as a read-only volume is; ``None`` where that cannot be
    done. Root ignores permission bits, a read-only mount stops it too."""
    import shutil
    import subprocess

    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return None
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'
    prefix = ["unshare", "-rm", "sh", "-c", script, str(folder)]
    probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=30)
    return prefix if probe.returncode == 0 else None


@pytest.mark.parametrize("command", ["health", "console", "telegram"])
async def test_a_database_in_a_read_only_folder_is_said_so(clean_env: Path, command: str) -> None:
    """A good database in a folder that cannot be written (SQLite's WAL needs ``-shm``/``-wal``
    beside it): ``health``, ``console`` and the bot (whose writer's lock cannot be made there
    either) say the folder is not writable — never "restore it from a backup", which could lose
    data — and the file is left as it was."""
    import subprocess

    folder = clean_env / "ro"
    folder.mkdir()
    db = folder / "ro.sqlite3"
    store = await Store.open(db)
    await store.create_game("console:local", "console:judge", {"preset": "seed"}, {1: "Ann"})
    await store.close()
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    before = db.read_bytes()
    prefix = _read_only_mount(folder)
    if prefix is None:
        if os.geteuid() == 0:
            pytest.skip("cannot make a read-only folder here: root ignores modes and unshare is unavailable")
        folder.chmod(0o555)
        prefix = []
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)} | {
        "MAFIA_REFEREE_LANG": "en", "MAFIA_REFEREE_TELEGRAM_TOKEN": TOKEN,
        "MAFIA_REFEREE_TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot"}  # never reached
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "bot", command, "--db", str(db)],
                              input="/status\n", capture_output=True, text=True, timeout=60,
                              cwd=clean_env, env=env)
    finally:
        folder.chmod(0o755)
    assert "Traceback" not in done.stderr and "backup" not in done.stderr.lower()
    (line,) = done.stderr.strip().splitlines()
    if command == "health":
        assert done.returncode == 1
        assert line.startswith(_en("health-read_only", path=str(folder), problem="").split(":")[0] + ":")
    else:
        assert done.returncode == 2
        assert line.startswith(_en("cli-db-not-writable", path=str(folder), problem="").split("(")[0])
    assert str(folder) in line
    assert db.read_bytes() == before


def test_health_still_advises_a_restore_for_a_file_that_is_not_a_database(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a good SQLite file gets the "not writable" verdict: a corrupt one in a read-only folder
    is still ``bad_database`` (restore it)."""
    db = clean_env / "referee.sqlite3"
    db.write_bytes(b"this is not SQLite\n" * 300)
    monkeypatch.setattr(health.os, "access", lambda *_args, **_kw: False)
    assert health.check(db).code == "bad_database"


# --- the heartbeat in every long-running mode -------------------------------------------------------

@pytest.mark.parametrize("mode", ["discord", "both"])
def test_the_image_health_check_fits_discord_and_both(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                            mode: str) -> None:
    """The image runs ``health --max-age 120`` whatever the mode. ``discord`` and ``both`` touch
    no heartbeat: they say so in the file at start, and the check then judges the database alone
    (healthy), while a missing or stale Telegram heartbeat still fails."""
    from bot.discord import app as discord_app
    from bot.discord import both as discord_both

    db, beat = clean_env / "referee.sqlite3", clean_env / "run" / "heartbeat"
    monkeypatch.setenv("MAFIA_REFEREE_DB", str(db))
    monkeypatch.setenv("MAFIA_REFEREE_HEARTBEAT", str(beat))
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("MAFIA_REFEREE_DISCORD_TOKEN", "discord-token")
    monkeypatch.setattr(discord_app, "run", lambda settings, **kw: 0)
    monkeypatch.setattr(discord_both, "run_both", lambda settings: 0)
    (check,) = _instruction("HEALTHCHECK")
    argv = json.loads(check[check.index("CMD") + len("CMD"):].strip())
    assert main([mode]) == 0
    assert beat.read_text("utf-8").startswith(health.NO_HEARTBEAT)
    os.utime(beat, (time.time() - 3600, time.time() - 3600))  # the mark is not a beat: age does not matter
    assert main(argv[1:]) == 0
    health.touch_heartbeat(beat)  # then telegram runs on the same file: its beats count again
    os.utime(beat, (time.time() - 3600, time.time() - 3600))
    assert main(argv[1:]) == 1


async def test_an_unwritable_heartbeat_is_one_warning_not_a_traceback_each_time(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    beat = health.heartbeat_job(blocker / "heartbeat")
    with caplog.at_level(logging.INFO, logger="bot.health"):
        for _ in range(5):
            await beat(None)  # never raises: the JobQueue would log a traceback each interval
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and warnings[0].exc_info is None
        assert "heartbeat" in warnings[0].getMessage()
        blocker.unlink()
        await beat(None)
        await beat(None)
    assert (blocker / "heartbeat").is_file()
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.INFO]


# --- logs ------------------------------------------------------------------------------------------

@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    noisy = {name: logging.getLogger(name).level for name in logs.NOISY}
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, lvl in noisy.items():
            logging.getLogger(name).setLevel(lvl)


class _Leaky(Exception):
    pass


def _log_everything(log: logging.Logger) -> None:
    log.info("connecting with %s", TOKEN)  # in the args
    log.warning(f"url https://api.telegram.org/bot{TOKEN}/getMe", extra={"game": 7, "chat": "tg:42"})
    log.error("the secret half alone: %s", TOKEN.split(":")[1])
    try:
        raise _Leaky(f"bad token {TOKEN}")
    except _Leaky:
        log.exception("failed")  # in the traceback
    log.info("%r", {"token": TOKEN}, stack_info=True)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_log_line_prints_the_token(fmt: logs.LogFormat, restore_logging: None) -> None:
    stream = io.StringIO()
    logs.configure_logging(TOKEN, "", fmt=fmt, stream=stream)
    _log_everything(logging.getLogger("bot.test"))
    out = stream.getvalue()
    assert TOKEN not in out and TOKEN.split(":")[1] not in out
    assert out.count(logs.MASK) >= 5
    assert "_Leaky" in out and "connecting with" in out
    if fmt == "json":
        lines = [json.loads(line) for line in out.splitlines()]
        assert len(lines) == 5
        assert {"time", "level", "logger", "message"} <= set(lines[0])
        assert lines[0]["logger"] == "bot.test" and lines[0]["level"] == "INFO"
        assert lines[1]["game"] == 7 and lines[1]["chat"] == "tg:42" and "game" not in lines[0]
        assert "_Leaky" in lines[3]["exception"] and "stack" in lines[4]


def test_the_noisy_libraries_stay_quiet(restore_logging: None) -> None:
    stream = io.StringIO()
    logs.configure_logging(TOKEN, fmt="json", stream=stream)
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot%s/getUpdates", TOKEN)
    assert stream.getvalue() == ""


def test_the_telegram_app_logs_through_bot_logs() -> None:
    from bot.telegram import app

    assert app.configure_logging is logs.configure_logging


# --- webhook mode ------------------------------------------------------------------------------------

def _run_telegram(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **settings: Any) -> tuple[int, dict[str, Any]]:
    """``bot.telegram.app.run`` with PTB's run_polling/run_webhook replaced by recorders."""
    from telegram.ext import Application

    from bot.telegram import app

    called: dict[str, Any] = {}
    monkeypatch.setattr(Application, "run_polling", lambda self, **kw: called.update(polling=kw))
    monkeypatch.setattr(Application, "run_webhook", lambda self, **kw: called.update(webhook=kw))
    monkeypatch.setattr(app, "configure_logging", lambda *secrets, **kw: called.update(logging=(secrets, kw)))
    status = app.run(Settings(telegram_token=TOKEN, db=tmp_path / "r.sqlite3", **settings))
    return status, called


def test_polling_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    status, called = _run_telegram(monkeypatch, tmp_path)
    assert status == 0 and "webhook" not in called
    assert called["polling"]["allowed_updates"]
    assert called["logging"] == ((TOKEN, ""), {"fmt": "text"})


def test_webhook_mode_when_the_url_is_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.telegram import app

    monkeypatch.setattr("bot.telegram.webhook.webhook_available", lambda: True)
    status, called = _run_telegram(
        monkeypatch, tmp_path, telegram_webhook_url="https://referee.example.org/tg/hook",
        telegram_webhook_listen="0.0.0.0", telegram_webhook_port=8443,
        telegram_webhook_secret="s3cret-Token_1xyz", log_format="json")
    assert status == 0 and "polling" not in called
    assert called["webhook"] == {
        "listen": "0.0.0.0", "port": 8443, "url_path": "tg/hook",
        "webhook_url": "https://referee.example.org/tg/hook", "secret_token": "s3cret-Token_1xyz",
        "allowed_updates": list(app.ALLOWED_UPDATES), "bootstrap_retries": START_RETRIES,
        "close_loop": False}  # run() closes the Bot API clients, then the loop
    # The webhook secret is redacted in the logs like the token.
    assert called["logging"] == ((TOKEN, "s3cret-Token_1xyz"), {"fmt": "json"})


def test_webhook_mode_without_a_secret_makes_a_random_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """Without ``…_WEBHOOK_SECRET`` (as ``.env.example`` ships it) a forged POST to the webhook
    was acted on: webhook mode always gives Telegram a secret — a random one for each run, said
    in the log and never shown, redacted like the token."""
    monkeypatch.setattr("bot.telegram.webhook.webhook_available", lambda: True)
    seen = []
    for _run in range(2):
        with caplog.at_level("INFO", logger="bot.telegram.webhook"):
            status, called = _run_telegram(monkeypatch, tmp_path,
                                           telegram_webhook_url="https://referee.example.org/tg/hook")
        assert status == 0
        secret = called["webhook"]["secret_token"]
        assert isinstance(secret, str) and len(secret) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", secret)
        assert called["logging"] == ((TOKEN, secret), {"fmt": "text"})
        seen.append(secret)
    assert seen[0] != seen[1]
    assert "a random webhook secret was generated" in caplog.text
    assert not any(secret in caplog.text for secret in seen)


def test_webhook_mode_without_tornado_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("bot.telegram.webhook.webhook_available", lambda: False)
    status, called = _run_telegram(monkeypatch, tmp_path, telegram_webhook_url="https://x.example/hook")
    assert status == 2 and "webhook" not in called and "polling" not in called


@pytest.mark.parametrize("secret", ["has spaces but is long enough", "", "short_Secret1", "abababababababababab",
                                    "x" * 257])
@pytest.mark.parametrize("command", [["health"], ["telegram"]])
def test_an_empty_or_weak_webhook_secret_is_a_bad_setting(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        secret: str, command: list[str]) -> None:
    """Bot API setWebhook: secret_token is 1-256 characters of A-Z a-z 0-9 _ -; ours must also
    not be guessable (an empty one, a short one, a repeated pattern): one line, exit 2 — the
    secret itself never shown."""
    from bot.entry import run

    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "https://referee.example.org/tg/hook")
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET", secret)
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    monkeypatch.setattr(sys, "argv", ["mafia-referee", *command, "--db", str(clean_env / "x.sqlite3")])
    assert run() == 2
    err = capsys.readouterr().err.strip()
    problem = catalog("en").text("setting-problem-webhook_secret", min="16", distinct="8")
    assert err == catalog("en").text("cli-bad-setting", name="MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET",
                                     problem=problem)
    assert not secret or secret not in err
    assert not (clean_env / "x.sqlite3").exists()


@pytest.mark.parametrize("hours", ["1e9", "25", "0"])
def test_a_mute_longer_than_a_day_is_a_bad_setting(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], hours: str) -> None:
    """Bot API restrictChatMember: an until_date more than 366 days ahead restricts for ever; the
    mute is a backstop for one game (the bot lifts it), so at most 24 hours, more than 0."""
    from bot.entry import run

    monkeypatch.setenv("MAFIA_REFEREE_HOST_MUTE_HOURS", hours)
    monkeypatch.setattr(sys, "argv", ["mafia-referee", "health"])
    assert run() == 2
    assert "MAFIA_REFEREE_HOST_MUTE_HOURS" in capsys.readouterr().err


def test_a_host_setting_under_its_old_name_still_works_with_a_warning(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The host settings began as Telegram's (``MAFIA_REFEREE_TELEGRAM_HOST_…``); host mode runs
    on Discord too, so they are ``MAFIA_REFEREE_HOST_…`` now. The old name is still read, and the
    log names the new one; with both given, the new one wins."""
    from bot import settings

    monkeypatch.setattr(settings, "_warned", set())
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_HOST_SHOOTING", "33")
    with caplog.at_level("WARNING", logger="bot.settings"):
        assert settings.Settings(_env_file=None).host_shooting == 33
    assert "MAFIA_REFEREE_HOST_SHOOTING" in caplog.text
    assert "MAFIA_REFEREE_TELEGRAM_HOST_SHOOTING" in caplog.text
    monkeypatch.setenv("MAFIA_REFEREE_HOST_SHOOTING", "44")
    assert settings.Settings(_env_file=None).host_shooting == 44


def test_one_time_zone_for_the_sheet_the_panel_and_the_audit(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """MAFIA_REFEREE_TIMEZONE is the club's time zone for all three (issue 14); the sheet's old
    setting, MAFIA_REFEREE_CLUB_TZ, still works under its old name with a warning; the new one
    wins when both are given; unset, the club is in Moscow."""
    import zoneinfo

    from bot import settings

    monkeypatch.setattr(settings, "_warned", set())
    default = settings.Settings(_env_file=None)
    assert default.timezone == "Europe/Moscow" and default.sheet().tz == "Europe/Moscow"
    monkeypatch.setenv("MAFIA_REFEREE_CLUB_TZ", "Asia/Almaty")
    with caplog.at_level("WARNING", logger="bot.settings"):
        old = settings.Settings(_env_file=None)
    assert old.sheet().tz == "Asia/Almaty" and old.zone == zoneinfo.ZoneInfo("Asia/Almaty")
    assert "MAFIA_REFEREE_CLUB_TZ is the old name of MAFIA_REFEREE_TIMEZONE" in caplog.text
    monkeypatch.setenv("MAFIA_REFEREE_TIMEZONE", "Asia/Yekaterinburg")
    both = settings.Settings(_env_file=None)
    assert both.sheet().tz == both.timezone == "Asia/Yekaterinburg"


# --- the real process, as the Dockerfile runs it ----------------------------------------------------

async def test_the_bot_touches_its_heartbeat_and_logs_json_without_the_token(tmp_path: Path) -> None:
    from fakebot import FakeBotAPI

    async with FakeBotAPI() as fake:
        db, beat = tmp_path / "referee.sqlite3", tmp_path / "run" / "heartbeat"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(db), "MAFIA_REFEREE_HEARTBEAT": str(beat),
                    "MAFIA_REFEREE_HEARTBEAT_INTERVAL": "0.2", "MAFIA_REFEREE_LOG_FORMAT": "json",
                    "MAFIA_REFEREE_LANG": "en"})
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for(lambda: fake.calls_to("getUpdates"), timeout=20, what="polling")
            await fake.wait_for(lambda: beat.exists(), timeout=10, what="the heartbeat")
            first = beat.stat().st_mtime
            await fake.wait_for(lambda: beat.stat().st_mtime > first, timeout=10, what="a second beat")
            checked = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "health", "--max-age", "5", cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(checked.communicate(), 20)
            assert checked.returncode == 0, err.decode()
            assert out.decode().startswith("ok: ")
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
            out, err = await asyncio.wait_for(process.communicate(), 20)
        assert process.returncode == 0, err.decode()
        log = out.decode() + err.decode()
        assert fake.token not in log and fake.token.split(":")[1] not in log
        lines = [json.loads(line) for line in err.decode().splitlines() if line.strip()]
        assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("configured", [True, False], ids=["secret-set", "secret-unset"])
async def test_the_bot_in_webhook_mode_as_a_process(tmp_path: Path, configured: bool) -> None:
    """Webhook mode for real: the bot registers the URL and the secret with (the fake) Telegram,
    serves the URL's path on LISTEN:PORT, refuses a forged request — without the secret, or with
    a wrong one — (403) and answers a judge's /new delivered by POST, as a TLS proxy in front of
    it would forward it. Without ``…_WEBHOOK_SECRET`` a random one is made (a forged POST was
    acted on: 200), said in the log and never shown."""
    pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks] (tornado)")
    import aiohttp

    from fakebot import FakeBotAPI
    from support.webhook import post_update

    async with FakeBotAPI() as fake:
        judge = fake.add_user("Judge", "judge", started=True)
        port = _free_port()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(tmp_path / "referee.sqlite3"), "MAFIA_REFEREE_LANG": "en",
                    "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL": "https://referee.example.org/tg/hook",
                    "MAFIA_REFEREE_TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
                    "MAFIA_REFEREE_TELEGRAM_WEBHOOK_PORT": str(port), "MAFIA_REFEREE_LOG_FORMAT": "json"})
        if configured:
            env["MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET"] = "webhook-Secret_42"
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for(lambda: fake.webhook, timeout=20, what="setWebhook")
            secret = str(fake.webhook.get("secret_token") or "")
            assert fake.webhook == {"url": "https://referee.example.org/tg/hook",
                                    "allowed_updates": ["message", "edited_message", "callback_query",
                                                        "my_chat_member"],
                                    "secret_token": secret}
            if configured:
                assert secret == "webhook-Secret_42"
            else:
                assert len(secret) >= 43
            assert not fake.calls_to("getUpdates")
            fake.user_sends(judge, None, "/new")
            update = fake._updates.pop()  # what Telegram would POST to the webhook
            hook = f"http://127.0.0.1:{port}/tg/hook"
            async with aiohttp.ClientSession() as http:
                assert await post_update(http, hook, update) == 403  # no secret: not Telegram
                assert await post_update(http, hook, update, "forged-Secret_42") == 403
                assert await post_update(http, hook, update, secret) == 200
            reply = await fake.wait_sent(judge, count=2, timeout=20)  # the news, then the panel
            assert reply.buttons
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
            out, err = await asyncio.wait_for(process.communicate(), 20)
        assert process.returncode == 0, err.decode()
        log = out.decode() + err.decode()
        assert fake.token not in log and fake.token.split(":")[1] not in log and secret not in log
        if not configured:
            assert "a random webhook secret was generated" in log


# --- one clear line for what the user got wrong ------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_refused_token_is_no_traceback_in_the_log(fmt: logs.LogFormat, restore_logging: None) -> None:
    """PTB logs its start-up loop's InvalidToken with a traceback: that record is dropped (the
    bot says it in one line of its own); the exception elsewhere loses its traceback."""
    from telegram.error import InvalidToken

    stream = io.StringIO()
    logs.configure_logging(TOKEN, fmt=fmt, stream=stream)
    try:
        raise InvalidToken(f"The token `{TOKEN}` was rejected by the server.")
    except InvalidToken:
        logging.getLogger("telegram.ext").exception("Network Retry Loop: Invalid token. Aborting.")
        logging.getLogger("bot.elsewhere").exception("refused")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and "Traceback" not in stream.getvalue()
    assert "refused" in lines[0] and TOKEN not in lines[0] and TOKEN.split(":")[1] not in lines[0]
    if fmt == "json":
        assert "exception" not in json.loads(lines[0])


def test_discord_voice_warnings_are_silenced(restore_logging: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The bot never joins a voice channel: discord.py's "PyNaCl/davey is not installed, voice
    will NOT be supported" warnings at start are noise; its other warnings stay."""
    from bot.discord.app import configure_logging

    configure_logging("discord-token")
    client_log = logging.getLogger("discord.client")
    client_log.warning("PyNaCl is not installed, voice will NOT be supported")
    client_log.warning("davey is not installed, voice will NOT be supported")
    client_log.warning("something else")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].endswith("WARNING discord.client: something else")


@pytest.mark.parametrize(("lang", "variable", "value", "key", "params"), [
    ("ru", "MAFIA_REFEREE_LANG", "de", "setting-problem-literal_error", {"expected": "ru, en"}),
    ("en", "MAFIA_REFEREE_LOG_FORMAT", "xml", "setting-problem-literal_error", {"expected": "text, json"}),
    ("ru", "MAFIA_REFEREE_TELEGRAM_PANEL_LAG", "-1", "setting-problem-greater_than_equal", {"limit": "0"}),
    ("ru", "MAFIA_REFEREE_TELEGRAM_TIMER_SCALE", "0", "setting-problem-greater_than", {"limit": "0"}),
    ("en", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_PORT", "70000", "setting-problem-less_than_equal", {"limit": "65535"}),
    ("ru", "MAFIA_REFEREE_TELEGRAM_PANEL_LAG", "abc", "setting-problem-int_parsing", {"value": "abc"}),
    ("en", "MAFIA_REFEREE_HEARTBEAT_INTERVAL", "soon", "setting-problem-float_parsing", {"value": "soon"}),
    # Bot API setWebhook and the base URL are HTTP(S): anything else was accepted (the webhook)
    # or ended in exit 1 — restarted every 5 s by systemd — instead of exit 2.
    ("ru", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "ftp://x", "setting-problem-http_url", {"value": "ftp://x"}),
    ("en", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "notaurl", "setting-problem-http_url", {"value": "notaurl"}),
    ("en", "MAFIA_REFEREE_TELEGRAM_BASE_URL", "notaurl", "setting-problem-http_url", {"value": "notaurl"}),
    # Telegram posts webhooks over HTTPS only: an http:// one failed at start as "cannot reach
    # Telegram" (exit 1, restarted for ever) instead of a bad setting
    ("ru", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "http://x.example/hook", "setting-problem-https_url",
     {"value": "http://x.example/hook"}),
    ("en", "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "HTTP://x.example/hook", "setting-problem-https_url",
     {"value": "HTTP://x.example/hook"}),
    ("ru", "MAFIA_REFEREE_TELEGRAM_BASE_FILE_URL", "https://", "setting-problem-http_url", {"value": "https://"}),
    ("en", "MAFIA_REFEREE_DISCORD_BASE_URL", "ws://127.0.0.1:8090", "setting-problem-http_url",
     {"value": "ws://127.0.0.1:8090"}),
    ("ru", "MAFIA_REFEREE_TIMEZONE", "Moscow", "setting-problem-time_zone", {"value": "Moscow"}),
    ("en", "MAFIA_REFEREE_TIMEZONE", "../etc/passwd", "setting-problem-time_zone", {"value": "../etc/passwd"}),
])
def test_a_bad_setting_is_said_in_the_users_language(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        lang: str, variable: str, value: str, key: str, params: dict[str, str]) -> None:
    from bot.entry import run

    if variable != "MAFIA_REFEREE_LANG":
        monkeypatch.setenv("MAFIA_REFEREE_LANG", lang)
    monkeypatch.setenv(variable, value)
    monkeypatch.setattr(sys, "argv", ["mafia-referee", "health"])
    assert run() == 2
    problem = catalog(lang).text(key, **{"limit": "", "value": "", "expected": "", **params})
    assert capsys.readouterr().err.strip() == catalog(lang).text("cli-bad-setting", name=variable, problem=problem)
    assert "Input should" not in problem


def test_http_urls_are_accepted_and_an_empty_one_is_unset(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "https://referee.example.org/telegram/hook")
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_BASE_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_BASE_FILE_URL", "")
    monkeypatch.setenv("MAFIA_REFEREE_DISCORD_BASE_URL", "http://127.0.0.1:8090/api/v10")
    loaded = Settings()
    assert loaded.discord_base_url == "http://127.0.0.1:8090/api/v10"
    assert loaded.telegram_webhook_url == "https://referee.example.org/telegram/hook"
    assert loaded.telegram_base_url == "http://127.0.0.1:8081/bot"
    assert loaded.telegram_base_file_url is None


def test_an_http_webhook_only_through_a_local_bot_api_server(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """telegram-bot-api in its ``--local`` mode posts to an HTTP webhook URL (its README, "Use an
    HTTP URL for the webhook"): with ``…_TELEGRAM_BASE_URL`` naming such a server the URL is taken;
    Telegram's own API posts to HTTPS only, so without it the same URL is a bad setting."""
    from pydantic import ValidationError

    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL", "http://bot.internal:8443/hook")
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert [e["type"] for e in refused.value.errors()] == ["https_url"]
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_BASE_URL", "http://127.0.0.1:8081/bot")
    assert Settings().telegram_webhook_url == "http://bot.internal:8443/hook"
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_BASE_URL", "not a url")  # its own problem only
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert [e["type"] for e in refused.value.errors()] == ["http_url"]


@pytest.mark.parametrize("command", [["console"], ["health"], ["backup", "copy.sqlite3"], ["telegram"],
                                     ["discord"], ["both"]])
@pytest.mark.parametrize("lang", LANGS)
def test_an_env_file_that_is_not_utf8_is_one_line_and_exit_2(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str], lang: str) -> None:
    """A ``.env`` saved by Notepad in cp1251 (a Russian comment) was a 30-line UnicodeDecodeError
    traceback with exit 1: now one line naming the file and the problem, exit 2 (README)."""
    from bot.entry import run

    monkeypatch.setenv("MAFIA_REFEREE_LANG", lang)
    (clean_env / ".env").write_bytes("# токен клуба\nMAFIA_REFEREE_TELEGRAM_TOKEN=x\n".encode("cp1251"))
    monkeypatch.setattr("sys.stdin", io.StringIO("/status\n"))
    monkeypatch.setattr(sys, "argv", ["mafia-referee", *command, "--db", str(clean_env / "x.sqlite3")])
    assert run() == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    assert captured.err.strip() == catalog(lang).text("cli-bad-env-file", path=".env", problem="encoding",
                                                      detail="0xf2", offset="2")
    assert not (clean_env / "x.sqlite3").exists() and not (clean_env / "copy.sqlite3").exists()


def test_an_env_file_that_cannot_be_read_is_one_line_and_exit_2(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable ``.env`` (mode 000 for another user; staged by refusing the read, since root
    reads anything): one line naming it and the OS's reason, exit 2."""
    from bot.entry import run

    env = clean_env / ".env"
    env.write_text("MAFIA_REFEREE_LANG=en\n", encoding="utf-8")
    real = Path.read_bytes

    def refuse(path: Path) -> bytes:
        if path.name == ".env":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setattr(sys, "argv", ["mafia-referee", "health"])
    assert run() == 2
    assert capsys.readouterr().err.strip() == _en("cli-bad-env-file", path=".env", problem="unreadable",
                                                  detail="Permission denied", offset="0")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``mafia-referee --version``: the installed distribution's version, exit 0."""
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"mafia-referee {version('mafia-referee')}"


@pytest.mark.parametrize("value", ["-1", "0", "99999999999999999999999999999", "123456789012345678901"])
def test_discord_invite_needs_an_application_id(clean_env: Path, capsys: pytest.CaptureFixture[str],
                                                value: str) -> None:
    """A Discord application id is a snowflake (a positive integer, at most 20 digits): anything
    else printed a link that cannot work, with exit 0."""
    assert main(["discord", f"--invite={value}"]) == 2
    _refused(capsys, "cli-bad-invite", value=value)
    assert main(["discord", "--invite", "18446744073709551615"]) == 0
    assert "client_id=18446744073709551615" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "lang"), [
    (["health", "--max-age"], "ru"), (["discord", "--guild", "abc", "--lang", "en"], "en"),
    (["nosuch"], "ru"), (["replay", "x.json", "--lang", "en", "--bogus"], "en"),
])
def test_a_bad_command_line_is_one_line_in_the_chosen_language(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], lang: str) -> None:
    """argparse's usage and English error were two lines whatever ``--lang`` said: one line, in
    the chosen language (``--lang``, else ``MAFIA_REFEREE_LANG``), argparse's reason inside it."""
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "ru")
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    head = catalog(lang).text("cli-usage", problem="", prog="").split(":")[0]
    assert line.startswith(head) and "usage:" not in captured.err


@pytest.mark.parametrize("command", ["console", "demo", "telegram", "discord", "both"])
def test_a_database_folder_that_cannot_be_created_is_one_line_and_exit_2(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: str) -> None:
    """``--db /read-only/sub/x.sqlite3``: the folder cannot be created (here a file stands in the
    way) — the same clean ``cli-bad-database`` line as an unopenable file, exit 2 (README), before
    any bot connects anywhere."""
    from bot.entry import run

    (clean_env / "blocker").write_text("a file, not a folder")
    db = clean_env / "blocker" / "sub" / "x.sqlite3"
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("MAFIA_REFEREE_DISCORD_TOKEN", "discord-token")
    monkeypatch.setattr("sys.stdin", io.StringIO("/status\n"))
    monkeypatch.setattr(sys, "argv", ["mafia-referee", command, "--db", str(db)])
    assert run() == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in captured.err
    head = _en("cli-bad-database", problem="").split(":")[0]
    assert err.startswith(head) and "blocker" in err


def test_every_subcommand_and_option_has_help() -> None:
    """``mafia-referee --help`` and ``mafia-referee COMMAND --help`` describe everything."""
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helped = {choice.dest for choice in sub._choices_actions if choice.help}
    assert helped == set(COMMANDS)
    for name, command in sub.choices.items():
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, f"{name} {action.option_strings or action.dest}"


def test_gitignore_keeps_tokens_and_databases_out() -> None:
    """The README puts the token in ``deploy/.env`` (or ``.env``): git must not pick it up."""
    ignored = {line.strip() for line in (ROOT / ".gitignore").read_text("utf-8").splitlines()}
    assert {".env", "deploy/.env", "*.sqlite3"} <= ignored
