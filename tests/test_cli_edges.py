"""Issue 31, items 1, 2, 5 and 7: every command of the command line, walked from its parser (not
from a list kept here), meets a file it cannot write and a PostgreSQL server that is not there
with one line on standard error, no traceback and exit status 2 (README "Commands": 2 bad input
or settings) — ``health`` with 1, the README's "`health` finding something wrong" and Docker's
HEALTHCHECK convention (its 2 is reserved); a URL's password is never shown. The commands that
read a database read PostgreSQL as they read SQLite; ``clubs`` lists a database's clubs and
``club-export`` / ``club-stats`` refuse one it does not know; ``backup`` never creates its folder."""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from bot import entry
from bot.cli import BackupTarget, Database, OutputFile, PostgresUrl, _parser, main
from bot.console import CHAT
from bot.i18n import catalog

PASSWORD = "s3cr3t-Pw"
ROOT = Path(__file__).resolve().parents[1]


def _en(key: str, **params: Any) -> str:
    return catalog("en").text(key, **params)


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand of the parser ``mafia-referee`` runs."""
    parser = _parser("en")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _closed_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def unreachable() -> str:
    return f"postgresql://referee:{PASSWORD}@127.0.0.1:{_closed_port()}/referee"


@pytest.fixture
def demo_db(env_with_tokens: Path) -> Path:
    """A real SQLite database with one finished game (the demo's)."""
    db = env_with_tokens / "club.sqlite3"
    assert main(["demo", "--db", str(db), "--lang", "en"]) == 0
    (env_with_tokens / "backups").mkdir()  # the good place for a backup: a folder that exists
    return db


def _record(folder: Path) -> Path:
    from test_operations import _record as record

    return record(folder)


def _argv(name: str, command: argparse.ArgumentParser, *, db: str, output: str | None,
          bad: str | None, record: Path, good_output: Path) -> list[str]:
    """The command line of ``name`` with each of its arguments filled by its kind: a database
    (``Database``: ``db``, unless the command also has a PostgreSQL target, which gets ``db``
    then while the database is a good file), a file it writes (``OutputFile``, ``BackupTarget``:
    ``bad`` for the one named ``output``, else a good place), the record to read, a name."""
    actions = [a for a in command._actions if a.dest not in ("help",)]
    target = any(isinstance(a.type, PostgresUrl) for a in actions)
    argv = [name]
    for action in actions:
        value: str | None = None
        if isinstance(action.type, PostgresUrl):
            value = db
        elif isinstance(action.type, Database):
            value = str(good_output.parent / "club.sqlite3") if target else db
        elif isinstance(action.type, OutputFile):
            value = bad if action.dest == output else (
                str(good_output.parent / "backups") + "/" if isinstance(action.type, BackupTarget)
                else str(good_output.parent / f"out-{action.dest}"))
        elif not action.option_strings and action.dest == "file":
            value = str(record)
        elif not action.option_strings and action.nargs == "*":
            value = "Anna"
        elif action.required or not action.option_strings:
            raise AssertionError(f"{name}: no value known for {action.dest} ({action.type!r})")
        if value is None:
            continue
        argv += [value] if not action.option_strings else [action.option_strings[-1], value]
    return argv


def _outputs() -> Iterator[tuple[str, str]]:
    for name, command in _commands().items():
        for action in command._actions:
            if isinstance(action.type, OutputFile):
                yield name, action.dest


def _databases() -> list[str]:
    return [name for name, command in _commands().items()
            if any(isinstance(a.type, Database) for a in command._actions)]


def test_the_walk_reaches_every_command() -> None:
    """Each command is walked by one pass or both: it writes a file, or opens a database."""
    walked = {name for name, _ in _outputs()} | set(_databases())
    assert walked == set(_commands()), set(_commands()) - walked
    assert {"protocol", "club-export", "club-stats", "backup", "replay"} <= {n for n, _ in _outputs()}
    assert {"console", "protocol", "migrate", "clubs", "telegram", "health"} <= set(_databases())


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
         ) -> tuple[int, str, str]:
    """The console script as a shell runs it (:func:`bot.entry.run`): an exception that escaped
    it (a traceback) fails the test here."""
    monkeypatch.setattr(sys, "argv", ["mafia-referee", *argv])
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115 - closed with the test
    status = entry.run()
    out, err = capsys.readouterr()
    return status, out, err


def _bad_places(tmp_path: Path, backup: bool) -> dict[str, tuple[str, str]]:
    """Places a file cannot be written, and the OS error each one meets."""
    missing = tmp_path / "no-such-folder"
    places = {"missing folder": (f"{missing}/" if backup else str(missing / "x.out"), "ENOENT")}
    if not backup:
        places["a folder"] = (str(tmp_path), "EISDIR")
    if Path("/sys").is_dir():  # read-only for root too (sysfs)
        places["read-only place"] = ("/sys/" if backup else "/sys/mafia-referee.out", "EACCES")
    return places


@pytest.mark.parametrize(("name", "output"), list(_outputs()), ids=lambda v: v)
def test_a_file_that_cannot_be_written_is_one_line_and_exit_2(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        name: str, output: str) -> None:
    command = _commands()[name]
    backup = isinstance(next(a for a in command._actions if a.dest == output).type, BackupTarget)
    record = _record(demo_db.parent)
    capsys.readouterr()
    for kind, (bad, error) in _bad_places(demo_db.parent, backup).items():
        argv = _argv(name, command, db=str(demo_db), output=output, bad=bad, record=record,
                     good_output=demo_db)
        status, out, err = _run(argv, monkeypatch, capsys)
        assert status == 2, (kind, argv, out, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (kind, err)
        problem = _en(f"os-error-{error}")
        if not backup:
            expected = _en("cli-bad-output", path=bad, problem=problem)
        elif error == "ENOENT":  # the folder a backup goes into is never created
            expected = _en("backup-no_folder", path=bad.rstrip("/"))
        else:
            expected = _en("backup-read_only", path=bad.rstrip("/"), problem=problem)
        assert err.strip() == expected, (kind, err)
        assert not (Path(bad).exists() and Path(bad).is_file()), kind  # nothing written there
        assert not list(demo_db.parent.glob("out-*")), kind  # nor any other file of the command


@pytest.mark.parametrize("name", _databases())
def test_a_postgresql_server_that_is_not_there_is_one_line_and_exit_2(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        unreachable: str, name: str) -> None:
    """The database of every command that opens one (``--db``, ``migrate --to``) on a closed
    port of 127.0.0.1: one line naming it without its password; exit 2, ``health`` 1 (unwell).
    The bots' tokens are set: they never reach the network before the database."""
    argv = _argv(name, _commands()[name], db=unreachable, output=None, bad=None,
                 record=_record(demo_db.parent), good_output=demo_db)
    status, out, err = _run(argv, monkeypatch, capsys)
    assert status == (1 if name == "health" else 2), (argv, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err, err
    shown = unreachable.replace(PASSWORD, "***")
    assert shown in err and PASSWORD not in out + err
    assert _en("os-error-ECONNREFUSED") in err  # said in the chosen language, not the OS's


def test_the_line_follows_the_language_as_a_process(tmp_path: Path, unreachable: str) -> None:
    """As a shell runs it (the installed entry point, a real process): Russian by default, one
    line, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    done = subprocess.run([sys.executable, "-m", "bot", "protocol", "--db", unreachable],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == catalog("ru").text(
        "cli-db-unreachable", url=unreachable.replace(PASSWORD, "***"),
        problem=catalog("ru").text("os-error-ECONNREFUSED"))


# --- PostgreSQL in every command, the password never shown ---------------------------------------

def _with_password(url: str) -> str:
    """``url`` with a password in it (the test server trusts its user: it is not checked)."""
    scheme, _, rest = url.partition("://")
    user, _, host = rest.partition("@")
    return f"{scheme}://{user.split(':')[0]}:{PASSWORD}@{host}"


def _process(argv: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    env |= {"MAFIA_REFEREE_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "bot", *argv], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=cwd, env=env)


def test_every_command_reads_postgresql_and_never_shows_the_password(
        pg_server: str, pg_url: str, tmp_path: Path) -> None:
    """The same club's database on PostgreSQL, through every command that reads one: the demo
    played into it, the console, ``clubs``, ``club-export``, ``club-stats``, ``protocol``,
    ``health``, ``backup`` (an SQLite copy), ``migrate`` of that copy into another empty
    database — each exit 0 with its work done, and the password in none of their words or logs."""
    url = _with_password(pg_url)
    runs = {"demo": _process(["demo", "--db", url], tmp_path),
            "console": _process(["console", "--db", url], tmp_path, stdin="/status\n")}
    runs["clubs"] = _process(["clubs", "--db", url], tmp_path)
    assert "console:demo" in runs["clubs"].stdout
    runs["club-export"] = _process(["club-export", "--db", url, "--club", "console:demo",
                                    "--out", str(tmp_path / "club.json")], tmp_path)
    assert len(json.loads((tmp_path / "club.json").read_text("utf-8"))["games"]) == 10
    runs["club-stats"] = _process(["club-stats", "Анна", "--db", url, "--club", "console:demo",
                                   "--png", str(tmp_path / "card.png")], tmp_path)
    runs["protocol"] = _process(["protocol", "--db", url, "--game", "1", "--json",
                                 str(tmp_path / "game.json")], tmp_path)
    assert json.loads((tmp_path / "game.json").read_text("utf-8"))["outcome"]["winner"] == "red"
    runs["health"] = _process(["health", "--db", url], tmp_path)
    (tmp_path / "backups").mkdir()
    runs["backup"] = _process(["backup", str(tmp_path / "backups") + "/", "--db", url], tmp_path)
    (copy,) = (tmp_path / "backups").glob("referee-*.sqlite3")
    import asyncio

    from conftest import fresh_database

    async def migrate_back() -> subprocess.CompletedProcess[str]:
        async with fresh_database(pg_server) as other:
            return await asyncio.to_thread(
                _process, ["migrate", "--db", str(copy), "--to", _with_password(other)], tmp_path)

    runs["migrate"] = asyncio.run(migrate_back())
    for name, done in runs.items():
        assert done.returncode == 0, (name, done.stdout, done.stderr)
        assert PASSWORD not in done.stdout + done.stderr, name
        assert "Traceback" not in done.stderr, name
    assert url.replace(PASSWORD, "***") in runs["health"].stdout


def test_a_postgresql_backup_is_a_checked_sqlite_copy_of_the_database(
        pg_url: str, tmp_path: Path) -> None:
    """``backup`` of a PostgreSQL database: an SQLite file holding every row (the games, their
    logs, the club), which ``health`` finds well and the protocol reads as from the original."""
    import asyncio

    from storage import Store

    assert main(["demo", "--db", pg_url, "--lang", "en"]) == 0
    from bot import health

    (tmp_path / "b").mkdir()
    written, games = health.backup(Path(pg_url), f"{tmp_path}/b/")
    assert games == 1 and health.check(written).ok

    async def both() -> tuple[Any, Any]:
        pg, lite = await Store.open(pg_url), await Store.open(written)
        try:
            return ([(e.seq, e.event) for e in await pg.events(1)], await pg.export_club("console:demo"),
                    [(e.seq, e.event) for e in await lite.events(1)], await lite.export_club("console:demo"))
        finally:
            await pg.close()
            await lite.close()

    pg_events, pg_club, lite_events, lite_club = asyncio.run(both())
    assert lite_events == pg_events and len(pg_events) > 50
    assert lite_club == pg_club


# --- backups fail loudly --------------------------------------------------------------------------

def test_backup_never_creates_its_folder(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A backup disk that is not mounted (its folder missing) is refused in one line, exit 2, and
    nothing is created under the mount point."""
    capsys.readouterr()
    for dest in (f"{demo_db.parent}/mnt/backups/", f"{demo_db.parent}/mnt/backups/b.sqlite3"):
        assert main(["backup", dest, "--db", str(demo_db)]) == 2
        assert capsys.readouterr().err.strip() == _en(
            "backup-no_folder", path=f"{demo_db.parent}/mnt/backups")
    assert not (demo_db.parent / "mnt").exists()


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="no /sys: no read-only place for root too")
def test_backup_refuses_a_read_only_folder(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["backup", "/sys/", "--db", str(demo_db)]) == 2
    assert capsys.readouterr().err.strip() == _en("backup-read_only", path="/sys",
                                                  problem=_en("os-error-EACCES"))


def test_the_backup_script_creates_no_folder_and_the_units_give_one() -> None:
    """``deploy/backup.sh`` runs ``backup`` into its folder as it is (no ``mkdir -p``: the unit's
    ``StateDirectory`` makes ``backups`` beside the database, a mount is the admin's)."""
    from test_deploy import unit_entries

    script = (ROOT / "deploy" / "backup.sh").read_text("utf-8")
    assert "mkdir" not in script
    unit = unit_entries(ROOT / "deploy" / "mafia-referee-backup.service")
    (states,) = unit["StateDirectory"]
    (exec_start,) = unit["ExecStart"]
    folder = exec_start.split()[-1]
    assert folder.startswith("/var/lib/")
    assert folder.removeprefix("/var/lib/") in states.split()


# --- a club's data ------------------------------------------------------------------------------

def test_clubs_lists_the_clubs_of_a_database_with_their_keys(
        demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    capsys.readouterr()
    assert main(["clubs", "--db", str(demo_db), "--lang", "en"]) == 0
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert line.startswith("console:demo: 10 players, 1 game, the last on ")
    empty = demo_db.parent / "empty.sqlite3"
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115 - closed with the test
    assert main(["console", "--db", str(empty)]) == 0
    capsys.readouterr()
    assert main(["clubs", "--db", str(empty), "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip() == _en("cli-clubs-none")


def test_an_unknown_club_and_bad_input_are_exit_2(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["club-export", "--db", str(demo_db), "--club", "tg:-100999"]) == 2
    assert capsys.readouterr().err.strip() == _en("cli-no-club", club="tg:-100999")
    assert main(["club-stats", "Anna", "--db", str(demo_db), "--club", CHAT, "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == _en("cli-no-club", club=CHAT)
    assert main(["club-stats", "Anna", "2026-13", "--db", str(demo_db), "--club", "console:demo",
                 "--lang", "en"]) == 2
    assert "2026-13" in capsys.readouterr().err
    assert main(["club-stats", "--db", str(demo_db), "--club", "console:demo", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == _en("club-stats-whom")
    missing = demo_db.parent / "none.sqlite3"
    assert main(["club-stats", "Anna", "--db", str(missing), "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == _en("cli-no-database", path=str(missing))
    assert not missing.exists()
    # the known club, a known player: shown, exit 0; English counts in the right plural
    out = demo_db.parent / "club.csv"
    assert main(["club-export", "--db", str(demo_db), "--club", "console:demo", "--format", "csv",
                 "--out", str(out), "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip() == f"{out}: 10 players, 10 rows"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_database_urls_password_never_reaches_a_log_line(fmt: str) -> None:
    """Whoever logs a database URL (an error's text, a traceback, a library): the bots' log
    handler masks its password as the messages do."""
    import io
    import logging

    from bot.logs import configure_logging

    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", fmt=fmt, stream=stream)
        log = logging.getLogger("storage.pg")
        log.warning("cannot reach %s", f"postgresql://referee:{PASSWORD}@db.host:5432/referee")
        try:
            raise OSError(f"postgres://referee:{PASSWORD}@db.host/referee: refused")
        except OSError:
            log.exception("the writer's lock")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    text = stream.getvalue()
    assert PASSWORD not in text
    # the warning, the exception's message and its traceback's last line
    assert text.count("referee:***@db.host") == 3


# --- a database setting that names no database: refused before anything is made of it -----------

NOT_DATABASES = {  # the value -> what the line shows of it (its password masked)
    f"postgresql+psycopg://referee:{PASSWORD}@db.host/referee": "postgresql+psycopg://referee:***@db.host/referee",
    f"mysql://referee:{PASSWORD}@db.host/referee": "mysql://referee:***@db.host/referee",
    f"postgresql://referee:{PASSWORD}@[::1/referee": "postgresql://referee:***@[::1/referee",
    f"postgresql://referee:{PASSWORD}@db.host:abc/referee": "postgresql://referee:***@db.host:abc/referee",
}


@pytest.mark.parametrize("value", list(NOT_DATABASES))
@pytest.mark.parametrize("name", ["health", "console", "protocol", "telegram"])
def test_a_database_setting_that_names_no_database_is_one_line_and_exit_2(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        value: str, name: str) -> None:
    """Another scheme than PostgreSQL's (``mysql://``, a driver's ``postgresql+psycopg://``), a
    host or a port that does not parse: in MAFIA_REFEREE_DB or ``--db``, one line that names the
    setting, the password masked, exit 2 (``health`` too: a setting to fix) — and no file or
    folder made of the value (it once became an SQLite file whose name carried the password)."""
    shown = NOT_DATABASES[value]
    monkeypatch.setenv("MAFIA_REFEREE_DB", value)
    status, out, err = _run([name], monkeypatch, capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in out + err, err
    assert err.strip() == _en("cli-bad-setting", name="MAFIA_REFEREE_DB",
                              problem=_en("setting-problem-database", shown=shown))
    monkeypatch.delenv("MAFIA_REFEREE_DB")
    with pytest.raises(SystemExit) as exited:  # argparse's error, as for any bad option
        _run([name, "--db", value], monkeypatch, capsys)
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert _en("setting-problem-database", shown=shown) in err
    assert PASSWORD not in out + err
    assert [p.name for p in env_with_tokens.iterdir()] == [], "something was made of the value"


def test_an_empty_database_setting_is_the_default_path(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.settings import Settings, default_db_path

    monkeypatch.setenv("MAFIA_REFEREE_DB", "")
    assert Settings(_env_file=None).db == default_db_path()  # type: ignore[call-arg]
    monkeypatch.setenv("MAFIA_REFEREE_DB", "  ")
    assert Settings(_env_file=None).db == default_db_path()  # type: ignore[call-arg]


def test_any_urls_password_is_masked_in_a_log_line() -> None:
    """A Bot API server's address with a password (MAFIA_REFEREE_TELEGRAM_BASE_URL), logged when
    it cannot be reached: masked as a database URL's is."""
    import io
    import logging

    from bot.logs import configure_logging

    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", stream=stream)
        logging.getLogger("bot.telegram.app").error(
            "cannot reach the Telegram Bot API at %s: refused", f"http://proxy:{PASSWORD}@127.0.0.1:1/bot")
        logging.getLogger("storage.pg").error(  # an @ typed in the password, not percent-encoded
            "cannot reach %s", f"postgresql://referee:{PASSWORD}@x@db.host/referee")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    text = stream.getvalue()
    assert PASSWORD not in text and "http://proxy:***@127.0.0.1:1/bot" in text
    assert "postgresql://referee:***@db.host/referee" in text and "@x@" not in text


async def test_a_web_address_that_cannot_be_listened_on_is_one_line_and_exit_2(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The web pages' port taken by another program: :class:`bot.settings.WebUnavailable` from
    the layer's start, said in one line by the command line (exit 2), never a traceback."""
    from bot.service import Service
    from bot.settings import Settings, WebUnavailable
    from bot.web.server import WebLayer
    from storage import Store

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        settings = Settings(_env_file=None, web_url="http://127.0.0.1", web_port=port)  # type: ignore[call-arg]
        async with await Store.open(env_with_tokens / "web.sqlite3") as store:
            with pytest.raises(WebUnavailable) as raised:
                await WebLayer(settings).start(Service(store))
    (env_with_tokens / "web.sqlite3").unlink()

    def taken_port(argv: object = None) -> int:
        raise raised.value

    monkeypatch.setattr("bot.cli.main", taken_port)
    status, out, err = _run(["telegram"], monkeypatch, capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert f"127.0.0.1:{port}" in err and "MAFIA_REFEREE_WEB_PORT" in err


def test_a_logo_that_is_not_a_picture_is_a_bad_setting(
        env_with_tokens: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """MAFIA_REFEREE_WEB_LOGO of a kind the overlay cannot show: one line and exit 2."""
    bad = str(env_with_tokens / "notes.txt")
    monkeypatch.setenv("MAFIA_REFEREE_WEB_LOGO", bad)
    status, out, err = _run(["health"], monkeypatch, capsys)
    assert status == 2 and err.strip() == _en(
        "cli-bad-setting", name="MAFIA_REFEREE_WEB_LOGO",
        problem=_en("setting-problem-picture_file", value=bad[:40])), err


async def test_a_logo_that_is_not_there_is_warned_of_when_the_pages_start(
        env_with_tokens: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The overlay went without a logo that is not there, unsaid: the log says it at the start
    (it may be put there later, so the bot still runs); a logo that is there is not warned of."""
    from bot.service import Service
    from bot.settings import Settings
    from bot.web.server import WebLayer
    from storage import Store

    logo = env_with_tokens / "logo.png"
    async with await Store.open(env_with_tokens / "web.sqlite3") as store:
        for there in (False, True):
            if there:
                logo.write_bytes(b"\x89PNG\r\n\x1a\n")
            settings = Settings(_env_file=None, web_url="http://127.0.0.1", web_port=0,  # type: ignore[call-arg]
                                web_logo=logo)
            layer = WebLayer(settings)
            caplog.clear()
            await layer.start(Service(store))
            await layer.stop()
            warned = [r for r in caplog.records if "logo" in r.getMessage() and r.levelname == "WARNING"]
            assert bool(warned) is not there, caplog.text
            assert there or str(logo) in warned[0].getMessage()


def test_an_env_file_line_that_cannot_be_read_is_said_once(tmp_path: Path) -> None:
    """python-dotenv warns of such a line at every read of the file; a command reads its
    settings several times: the warning is one line."""
    (tmp_path / ".env").write_text("MAFIA_REFEREE_LANG=en\nGARBAGE LINE\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    env["MAFIA_REFEREE_DB"] = str(tmp_path / "none.sqlite3")
    done = subprocess.run([sys.executable, "-m", "bot", "health"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=env)
    warnings = [line for line in done.stderr.splitlines() if "could not parse" in line]
    assert warnings == ["python-dotenv could not parse statement starting at line 2"], done.stderr
