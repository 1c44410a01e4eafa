"""The console across restarts and beside another writer (newcomer's report №11, №13, №14):
a finished game behaves after a restart exactly as it did before it; a second console on the same
database makes a command stale, which is said in the console's words with the position; an undo
says what it took back. Outcomes are asserted from the store and the catalogs' texts."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest

import rules
from bot import console
from bot.console import Session, run_console
from bot.i18n import catalog
from bot.render import error_text, notice_text, status_text
from bot.service import Service
from rules import notices as nt
from storage import Store

EN = catalog("en")

# Day 1, seat 1 speaking; then seat 7 (black: D2 M5 M7 S8) gets a team-loss penalty: the game
# ends at once with the win of the other team (seed 4.3, F24 §4.3.1 «ППК»).
TO_THE_END = "/roles D2 M5 M7 S8\n/start\n/next\n/ppk 7\n"


def play(db: Path, script: str, **options: object) -> tuple[int, list[str]]:
    """One console run (a process: its own store and service) with ``script`` on stdin."""
    out = io.StringIO()
    status = asyncio.run(run_console(db, stdin=io.StringIO(script), out=out, lang="en",
                                     **options))  # type: ignore[arg-type]
    return status, out.getvalue().splitlines()


def replies(lines: list[str]) -> dict[str, list[str]]:
    """The printed lines after each echoed command (the last reply of a command wins)."""
    out: dict[str, list[str]] = {}
    current: list[str] = []
    for line in lines:
        if line.startswith(console.PROMPT):
            current = out[line[len(console.PROMPT):]] = []
        else:
            current.append(line)
    return out


def stored(db: Path) -> tuple[int, rules.GameState, bool]:
    async def read() -> tuple[int, rules.GameState, bool]:
        store = await Store.open(db)
        try:
            row = await store.current_game(console.CHAT)
            assert row is not None
            logged = [rules.from_dict(e.event) for e in await store.events(row.id)]
            state, _ = rules.fold(rules.config_from_dict(row.config), logged, row.names)
            return row.id, state, row.finished
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_finished_game_after_a_restart_is_as_before(db_path: Path) -> None:
    """№11: the same commands get the same answers before and after a restart: /status shows
    the end, /next says the game is over (not «setup»), and /undo takes back the ending penalty.
    (A /foul after the end is taken: it is recorded for the protocol, F24 §7.9.)"""
    probe = "/status\n/next\n"
    status, before = play(db_path, TO_THE_END + probe)
    assert status == 0
    game_id, state, finished = stored(db_path)
    assert state.phase is rules.Phase.GAME_OVER and finished
    status, after = play(db_path, probe)
    assert status == 0
    assert replies(after)["/status"] == replies(before)["/status"]
    assert replies(after)["/next"] == replies(before)["/next"] == [
        error_text(rules.RuleError(rules.Code.GAME_OVER), EN)]
    assert EN.text("console-finished", game=game_id) in after  # what the restart says first
    # the ending penalty is taken back after the restart: the game goes on, and is unfinished
    status, lines = play(db_path, "/undo\n", strict=True)
    assert status == 0
    same_id, state, finished = stored(db_path)
    assert same_id == game_id
    assert state.phase is rules.Phase.SPEECH and not finished
    assert EN.text("console-undone", count=1) in lines
    # and the next run resumes it as an unfinished game
    status, lines = play(db_path, "/foul 5\n", strict=True)
    assert status == 0
    assert len(stored(db_path)[1].seat(5).fouls) == 1


def test_undo_says_what_it_took_back(db_path: Path) -> None:
    """№14: the console's /undo names the undone announcements, as Telegram's correction does."""
    status, lines = play(db_path, "/roles D2 M5 M7 S8\n/start\n/next\n/foul 4\n/undo\n", strict=True)
    assert status == 0
    foul = nt.Foul(seat=4, count=1, reason="foul")
    said = notice_text(foul, EN)
    assert said is not None and said in lines  # announced by /foul …
    assert EN.text("console-undone-what", what=said) in replies(lines)["/undo"]  # … and taken back
    assert stored(db_path)[1].seat(4).fouls == []


async def _two_consoles(db: Path) -> tuple[list[str], rules.GameState]:
    first, second = await Store.open(db), await Store.open(db)
    try:
        one = Session(Service(first), EN)
        two = Session(Service(second), EN)
        await one.open()
        assert (await one.handle("/roles D2 M5 M7 S8")).accepted
        assert (await one.handle("/start")).accepted
        await two.open()  # the second console resumes the same game
        assert (await two.handle("/next")).accepted
        reply = await one.handle("/next")  # the first one's cached game is out of date
        assert not reply.accepted
        current = await one.service.current(one.chat)
        assert current is not None
        return reply.lines, current.state
    finally:
        await first.close()
        await second.close()


def test_a_stale_command_in_the_console(db_path: Path) -> None:
    """№13: a command made stale by another console is refused in the console's words (no
    buttons) and followed by the position as it is now."""
    lines, state = asyncio.run(_two_consoles(db_path))
    assert lines == [EN.text("console-stale"), status_text(state, EN, for_judge=True)]
    assert state.phase is rules.Phase.SPEECH and state.speaker == 1  # one /next only


def test_the_service_warnings_stay_off_the_console(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """№13: with no logging set up, the service's warning (the log moved under the cache) is not
    printed to the console's user; an error still is."""
    monkeypatch.setattr(logging.getLogger(), "handlers", [])
    with console._logs_off_the_console():
        logging.getLogger("bot.service").warning("game 1: the log moved under the cache (x)")
        logging.getLogger("bot.service").error("a real failure")
    err = capsys.readouterr().err
    assert "moved under the cache" not in err
    assert "a real failure" in err
