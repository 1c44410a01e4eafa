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
