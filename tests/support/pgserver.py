"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl start``
on a free local port (a Unix socket in the same folder), ``pg_ctl stop`` at the end.

As root (CI) the server runs as an unprivileged user (``nobody``): PostgreSQL refuses root.
:func:`find_bin` looks in ``$PATH`` and ``/usr/lib/postgresql/*/bin`` (Debian's layout).

``cd tests && python -m support.pgserver`` starts one and prints its URL and its folder, for
``.ci/run`` (``python -m support.pgserver --stop FOLDER`` stops it); the tests use :func:`start`
once per session unless given a server (``tests/conftest.py``: ``pg_server``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or ``None``."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    folder: Path
    port: int
    bin: Path
    user: str | None  # the OS user it runs as (None: ours)
    options: str = ""  # the server's options (``pg_ctl -o``), for :meth:`resume`

    @property
    def url(self) -> str:
        return f"postgresql://mafia@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def halt(self) -> None:
        """Stop the server as a restart does (a fast shutdown: every connection cut, every
        transaction under way rolled back), its data kept for :meth:`resume`."""
        done = self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")
        if done.returncode:
            raise Unavailable(f"pg_ctl stop failed: {done.stderr.strip()}")

    def resume(self) -> None:
        """Start the server :meth:`halt` stopped again, on the same port and data."""
        done = self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"),
                         "-o", self.options, "-w", "start")
        if done.returncode:
            raise Unavailable(f"pg_ctl start failed: {done.stderr.strip()}")


class Unavailable(Exception):
    """No PostgreSQL server can be started here (the reason is the message)."""


def start(*, durable: bool = False) -> Server:
    """Start a fresh server; raises :class:`Unavailable` with the reason if it cannot.
    ``durable``: fsync on (the bench), else off (the tests: a test server's crash safety is not
    what they test — the SIGKILLs hit the workers, not the server)."""
    binary = find_bin()
    if binary is None:
        raise Unavailable("PostgreSQL is not installed (no initdb; apt-get install postgresql)")
    user = None
    folder = Path(tempfile.mkdtemp(prefix="mafia-pg-"))
    if os.geteuid() == 0:
        user = "nobody"
        entry = pwd.getpwnam(user)
        os.chmod(folder, 0o700)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    server = Server(folder, _free_port(), binary, user)
    init = server._run("initdb", "-D", str(folder / "data"), "-U", "mafia", "-A", "trust",
                       "-E", "UTF8", "--no-locale", "--no-sync")
    if init.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
    options = (f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
               + ("" if durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"))
    server.options = options
    started = server._run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "log"),
                          "-o", options, "-w", "start")
    if started.returncode:
        log = (folder / "log").read_text(errors="replace")[-500:] if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"the PostgreSQL server did not start: {started.stderr.strip()} {log}")
    return server


def stop(folder: Path) -> None:
    """Stop the server :func:`start` left in ``folder`` (and remove the folder)."""
    binary = find_bin()
    if binary is None or not folder.exists():
        return
    owner = folder.stat().st_uid
    user = pwd.getpwuid(owner).pw_name if os.geteuid() == 0 and owner != 0 else None
    Server(folder, 0, binary, user).stop()


if __name__ == "__main__":  # pragma: no cover - .ci/run
    if sys.argv[1:2] == ["--stop"]:
        stop(Path(sys.argv[2]))
        sys.exit(0)
    try:
        running = start()
    except Unavailable as why:
        print(f"no PostgreSQL: {why}", file=sys.stderr)
        sys.exit(1)
    print(running.url, running.folder)
