"""Issue 31, items 3 and 5: the READMEs' "first five minutes" (English and Russian) re-read as a
club admin reads them — every command in their code blocks is recognised and run here as far as
this machine can (no Docker engine, no systemd here: what needs one is checked against the files
it reads in ``deploy/`` instead), the health check of each install included: under systemd the
unit's binary, user and database; under Docker ``docker compose exec`` on the compose file's
service with the image's environment. And the installs' backups: Docker's nightly service on a
volume of its own, systemd's install from the lock file."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import _parser, main

from test_deploy import DEPLOY, unit_entries

ROOT = Path(__file__).resolve().parents[1]
READMES = ("README.md", "README.ru.md")
SCRIPT = Path(sys.executable).with_name("mafia-referee")


def _five_minutes(readme: str) -> str:
    text = (ROOT / readme).read_text("utf-8")
    heading = re.search(r"^## (A club admin's first five minutes|Первые пять минут.*)$", text, re.M)
    assert heading is not None, readme
    rest = text[heading.end():]
    return rest[:rest.index("\n## ")]


def _commands(section: str) -> list[tuple[str, list[str]]]:
    """The shell commands of the section's indented code blocks (continuation lines joined,
    comments dropped): each as written and as words."""
    blocks = re.findall(r"(?:^ {7,}\S.*\n?)+", section, re.M)
    commands = []
    for block in blocks:
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            argv = shlex.split(line, comments=True)
            if argv:
                commands.append((re.sub(r"\s+#[^\"']*$", "", line.strip()), argv))
    return commands


def _compose_services(path: Path) -> dict[str, str]:
    """compose file's services: each name and its block of text."""
    text = path.read_text("utf-8")
    body = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    parts = re.split(r"^  ([a-z0-9_-]+):\s*$", body, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _dockerfile_env() -> dict[str, str]:
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text("utf-8"))
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            env |= dict(pair.split("=", 1) for pair in shlex.split(line[4:]))
    return env


def _unit() -> tuple[dict[str, list[str]], dict[str, str], str]:
    unit = unit_entries(DEPLOY / "mafia-referee.service")
    env = dict(value.split("=", 1) for value in unit["Environment"])
    (exec_start,) = unit["ExecStart"]
    return unit, env, shlex.split(exec_start)[0]


@pytest.fixture
def bots_database(tmp_path: Path) -> Path:
    """A database as the bot leaves it (the demo game played into it)."""
    db = tmp_path / "referee.sqlite3"
    assert main(["demo", "--db", str(db), "--lang", "en"]) == 0
    return db


def _health_here(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mafia-referee …`` as the README writes it, the program being this install's."""
    assert Path(argv[0]).name == "mafia-referee", argv
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    return subprocess.run([str(SCRIPT), *argv[1:]], env=clean | env, capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def _checkout_runs_with_and_without_a_release(command: str, folder: Path) -> None:
    """The README's checkout of the latest release, run in a repository with no tag yet (it
    stays where it is) and then with two (it takes the higher version)."""
    folder.mkdir(exist_ok=True)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]

    def run(*argv: str) -> str:
        done = subprocess.run([*git, *argv], cwd=folder, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, (argv, done.stderr)
        return done.stdout.strip()

    run("init", "-q")
    for n in (1, 2, 3):
        run("commit", "-q", "--allow-empty", "-m", f"c{n}")
    head = run("rev-parse", "HEAD")
    shell = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True, timeout=30)
    assert shell.returncode == 0 and run("rev-parse", "HEAD") == head, shell.stderr  # no tag yet
    run("tag", "v0.9.0", "HEAD~2")
    run("tag", "v0.10.0", "HEAD~1")  # the higher version, not the later name in the alphabet
    shell = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True, timeout=30)
    assert shell.returncode == 0 and run("rev-parse", "HEAD") == run("rev-parse", "v0.10.0"), shell.stderr


@pytest.mark.parametrize("readme", READMES)
def test_every_command_of_the_first_five_minutes_runs(
        readme: str, tmp_path: Path, bots_database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commands = _commands(_five_minutes(readme))
    assert commands, readme
    unit, unit_env, unit_binary = _unit()
    services = _compose_services(DEPLOY / "compose.yaml")
    image_env = _dockerfile_env()
    healths = set()
    for command, argv in commands:
        if argv[:2] == ["git", "clone"]:
            assert argv[-1] in ("mafia-referee",) or "cd" in argv  # cloned into a folder, entered
        elif argv[:2] == ["git", "checkout"]:
            _checkout_runs_with_and_without_a_release(command, tmp_path / "tags")
        elif argv[0] == "cp" and "deploy/.env.example" in argv:
            work = tmp_path / "clone"
            shutil.copytree(DEPLOY, work / "deploy")
            assert subprocess.run(["sh", "-c", command], cwd=work, timeout=30).returncode == 0
            assert stat.S_IMODE((work / "deploy" / ".env").stat().st_mode) == 0o600
        elif argv[:2] == ["docker", "compose"]:
            assert argv[2:4] == ["-f", "deploy/compose.yaml"] and (ROOT / argv[3]).is_file()
            if argv[4] == "up":
                assert "build:" in services["referee"]
            else:
                assert argv[4] == "exec", command
                service, inner = argv[5], argv[6:]
                assert service in services, (service, sorted(services))
                assert inner[:2] == ["mafia-referee", "health"], command
                # inside the container: the image's environment; its database is the volume's
                assert Path(image_env["MAFIA_REFEREE_DB"]).parent == Path("/data")
                assert "referee-data:/data" in services[service]
                env = {"MAFIA_REFEREE_DB": str(bots_database), "MAFIA_REFEREE_LANG": "en"}
                done = _health_here(inner, env, tmp_path)
                assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stderr
                healths.add("docker")
        elif argv[:2] == ["sudo", "-u"]:
            user, rest = argv[2], argv[3:]
            assert [user] == unit["User"]
            env = dict(word.split("=", 1) for word in rest if "=" in word and not word.startswith("/"))
            binary, *args = [word for word in rest if not ("=" in word and not word.startswith("/"))]
            assert binary == unit_binary and env["MAFIA_REFEREE_DB"] == unit_env["MAFIA_REFEREE_DB"]
            assert args == ["health"], command
            assert _parser().parse_args(args).command == "health"
            done = _health_here(["mafia-referee", *args],
                                {"MAFIA_REFEREE_DB": str(bots_database), "MAFIA_REFEREE_LANG": "en"},
                                tmp_path)
            assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stderr
            healths.add("systemd")
        else:
            raise AssertionError(f"{readme}: a command this test does not know how to run: {command}")
    assert healths == {"docker", "systemd"}, readme


@pytest.mark.parametrize("readme", READMES)
def test_the_bare_health_command_is_not_offered_as_the_check(readme: str) -> None:
    """A plain ``mafia-referee health`` checks the database of whoever runs it (the default in
    ``~/.local/share``), not the bot's: the check is never given that way."""
    section = _five_minutes(readme)
    assert not re.search(r"`mafia-referee health` (says|отвечает)", section)


def test_the_backup_unit_and_the_compose_backup_keep_the_copies_apart() -> None:
    """Docker: the nightly backup service runs the image's backup script into ``/backups`` on a
    volume that is not the database's; its health check fails without a copy younger than a day
    and a bit. The image makes ``/backups`` the user's (a new volume takes that owner)."""
    services = _compose_services(DEPLOY / "compose.yaml")
    backup = services["backup"]
    command = json.loads(re.search(r"^\s*command:\s*(\[.*\])\s*$", backup, re.M)[1])
    assert command[:2] == ["sh", "-c"] and "mafia-referee-backup /backups" in command[2]
    assert "sleep 86400" in command[2]
    volumes = re.findall(r"^\s*-\s*([a-z-]+):(/\S+)\s*$", backup, re.M)
    assert ("referee-backups", "/backups") in volumes and ("referee-data", "/data") in volumes
    bots = re.findall(r"^\s*-\s*([a-z-]+):(/\S+)\s*$", services["referee"], re.M)
    assert bots == [("referee-data", "/data")]  # the copies are never on the database's volume
    assert re.search(r"^  referee-backups:\s*$", (DEPLOY / "compose.yaml").read_text("utf-8"), re.M)
    assert "-mmin -1560" in backup  # 26 hours
    dockerfile = (DEPLOY / "Dockerfile").read_text("utf-8")
    assert "COPY deploy/backup.sh /usr/local/bin/mafia-referee-backup" in dockerfile
    assert re.search(r"mkdir /data /backups && chown referee:referee /data /backups", dockerfile)
    assert os.access(DEPLOY / "backup.sh", os.X_OK)  # COPY keeps the mode


def test_the_backup_script_runs_into_a_folder_and_refuses_a_missing_one(
        tmp_path: Path, bots_database: Path) -> None:
    """``backup.sh DIR`` as the units and the image run it: a dated copy in ``DIR``; ``DIR``
    missing: exit 2, one line, nothing created."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    env |= {"MAFIA_REFEREE_DB": str(bots_database), "MAFIA_REFEREE": str(SCRIPT),
            "MAFIA_REFEREE_LANG": "en"}
    (tmp_path / "backups").mkdir()
    done = subprocess.run([str(DEPLOY / "backup.sh"), str(tmp_path / "backups")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "backups").glob("referee-*.sqlite3"))) == 1
    done = subprocess.run([str(DEPLOY / "backup.sh"), str(tmp_path / "mnt" / "backups")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "mnt").exists()


@pytest.mark.parametrize("readme", READMES)
def test_the_systemd_install_uses_the_lock_file(readme: str) -> None:
    """The systemd install installs the image's pinned dependencies (with their hashes) before
    mafia-referee itself, which then resolves nothing anew."""
    text = (ROOT / readme).read_text("utf-8")
    lock = "pip install --require-hashes --no-deps -r deploy/requirements.lock"
    assert lock in text
    first = text.index(lock)
    assert text.index("pip install --no-deps .", first) > first
    assert "/opt/mafia-referee/bin/pip install .\n" not in text.split(lock)[0]
