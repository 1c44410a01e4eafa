"""``mafia-referee console < script``: standard input in whatever encoding the judge's editor
saved it. A UTF-8 script reads as it is; a cp1251 one (Windows) is read as cp1251; bytes neither
knows become U+FFFD — never a ``UnicodeError`` traceback. Outcomes are asserted from the game in
the store (the names the judge typed), not from the printed words."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rules

from bot.cli import decode_line, main
from bot.console import CHAT
from storage import Store

SCRIPT = "/name 1 Иван\n/name 2 Пётр\n/status\n"


def _names(db: Path) -> dict[int, str]:
    """The names of the chat's current game, from its log folded by the engine."""

    async def read() -> dict[int, str]:
        store = await Store.open(db)
        try:
            row = await store.current_game(CHAT)
            assert row is not None
            logged = [rules.from_dict(e.event) for e in await store.events(row.id)]
            state, _ = rules.fold(rules.config_from_dict(row.config), logged, row.names)
            return {seat: state.seat(seat).name for seat in range(1, 11) if state.seat(seat).name}
        finally:
            await store.close()

    return asyncio.run(read())


class _Stdin(io.TextIOWrapper):
    """A pipe's stdin: bytes underneath, strict UTF-8 text on top (as Python sets it up)."""

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251"])
def test_a_script_in_utf8_or_cp1251_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], encoding: str) -> None:
    db = tmp_path / "referee.sqlite3"
    monkeypatch.setattr("sys.stdin", _Stdin(io.BytesIO(SCRIPT.encode(encoding)), encoding="utf-8"))
    assert main(["console", "--db", str(db), "--lang", "ru", "--strict"]) == 0
    assert "Иван" in capsys.readouterr().out
    assert _names(db) == {1: "Иван", 2: "Пётр"}


def test_bytes_no_encoding_knows_never_fail() -> None:
    assert decode_line("Иван".encode("utf-8")) == "Иван"
    assert decode_line("Иван".encode("cp1251")) == "Иван"
    assert decode_line(b"/name 1 \x98") == "/name 1 \ufffd"  # 0x98 is unassigned in cp1251


def test_the_installed_command_reads_cp1251_in_a_c_locale(tmp_path: Path) -> None:
    """As the newcomer ran it (``console < cp1251.txt``, stdin decoded with surrogateescape in a C
    locale): exit 0, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    env.pop("LC_ALL", None)
    env.pop("LC_CTYPE", None)
    env.update({"LANG": "C", "PYTHONUTF8": "0"})  # C locale: coerced to C.UTF-8, stdin surrogateescape
    db = tmp_path / "referee.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db), "--strict"],
                          input=SCRIPT.encode("cp1251"), capture_output=True, cwd=tmp_path, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    assert _names(db) == {1: "Иван", 2: "Пётр"}


# --- replay: a file whose size says nothing ---------------------------------------------------------

def test_replay_reads_no_further_than_its_limit_from_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay /dev/zero`` read without end (its ``st_size`` is 0, like a FIFO's or /dev/stdin's):
    at most the limit + 1 byte is read, then refused in one line, exit 2."""
    from bot import replay_cli
    from bot.i18n import catalog

    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    monkeypatch.setattr(replay_cli, "MAX_BYTES", 64 * 1024)
    out = io.StringIO()
    assert replay_cli.run_replay_cli("/dev/zero", False, out, lang="en") == 2
    cat = catalog("en")
    reason = cat.text("replay-too-large-stream", limit="0")
    assert out.getvalue().strip() == cat.text("replay-error", kind="unreadable", file="/dev/zero",
                                              field="", message=reason)


def test_replay_of_a_fifo_over_the_limit_stops_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIFO (``replay <(…)``) that would feed 1 MB against a 64 KB limit: refused after the limit
    + 1 byte, the writer is cut off (EPIPE), exit 2, well within the timeout."""
    import threading

    from bot import replay_cli

    monkeypatch.setattr(replay_cli, "MAX_BYTES", 64 * 1024)
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    fed: list[int] = []

    def feed() -> None:
        written = 0
        try:
            with open(fifo, "wb") as pipe:
                while written < 1024 * 1024:
                    written += pipe.write(b" " * 4096)
        except BrokenPipeError:
            pass
        fed.append(written)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out = io.StringIO()
    assert replay_cli.run_replay_cli(fifo, True, out, lang="en") == 2
    writer.join(timeout=10)
    assert fed and fed[0] < 1024 * 1024
    assert '"error": "unreadable"' in out.getvalue()


def test_replay_of_a_small_record_from_a_fifo_still_works(tmp_path: Path) -> None:
    """Under the limit a FIFO reads as a file does: ``{}`` is not a record (exit 2, the importer's
    reason), not "too large"."""
    import threading

    from bot import replay_cli

    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    threading.Thread(target=lambda: fifo.write_bytes(b"{}"), daemon=True).start()
    out = io.StringIO()
    assert replay_cli.run_replay_cli(fifo, True, out, lang="en") == 2
    assert '"error": "record"' in out.getvalue()
