"""Slash commands through the Discord adapter end where the console ends.

No rule lives in the Discord adapter: each script below is played twice — typed into the
console's Session, and as slash commands with Discord's typed options through the real client —
and must end in the same game state with the same log. Each script is also checked against the
rule it is about."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from bot import demo
from bot.console import CHAT, JUDGE, Session
from bot.discord.slash import COMMANDS, line
from bot.i18n import catalog
from bot.service import Service
from rules import Cause, Phase, Team
from fakediscord.forms import slash_options
from storage import Store
from support.discord_table import table

async def through_console(db: Path, lines: list[str]) -> tuple[rules.GameState, list[rules.Event]]:
    store = await Store.open(db)
    try:
        service = Service(store)
        session = Session(service, catalog("ru"))
        for text in lines:
            await session.handle(text)
        current = await service.current(CHAT)
        assert current is not None and current.judge == JUDGE
        return current.state, await service.events(CHAT)
    finally:
        await store.close()


async def through_discord(db: Path, monkeypatch: pytest.MonkeyPatch,
                          lines: list[str]) -> tuple[rules.GameState, list[rules.Event]]:
    async with table(db, monkeypatch) as t:
        for text in lines:
            name, options = slash_options(text)
            await t.slash(name, **options)
        current = await t.service.current(t.home)
        assert current is not None and current.judge == f"dc:{t.judge['id']}"
        return current.state, await t.service.events(t.home)


async def same_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> rules.GameState:
    console_state, console_log = await through_console(tmp_path / "console.sqlite3", lines)
    dc_state, dc_log = await through_discord(tmp_path / "discord.sqlite3", monkeypatch, lines)
    assert dc_log == console_log
    assert dc_state == console_state
    return dc_state


def script(text: str) -> list[str]:
    return [x.strip() for x in text.strip().splitlines() if x.strip() and not x.strip().startswith("#")]


def test_slash_options_become_the_typed_line() -> None:
    """The options are joined back in the typed order, so one parser reads both."""
    assert line("nominate", 3, 7) == "/nominate 3 7"
    assert line("nominate", None, 7) == "/nominate 7"
    assert line("ppk", 5, None, "red") == "/ppk 5 red"
    assert line("new", "fiim2024", " raise_vote=no ") == "/new fiim2024 raise_vote=no"
    for text in demo.commands():  # every demo line has a slash form
        name, _ = slash_options(text)
        assert name in {c.name for c in COMMANDS}


async def test_the_demo_game_by_slash_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = await same_end(tmp_path, monkeypatch, demo.commands())
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED
    assert demo.WINNER == "red"


FIRST_DAY_SINGLE_NOMINEE = script("""
    /new seed
    /roles D8 M9 M10 S5
    /start
    /next
    # day 1: only #3 is nominated, by #1
    /nominate 3
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    # F24 §4.4.10: a single nominee on day 1 is not voted; night 1
    /kill 1
    /don 5
    /sheriff 9
    /bestmove 8 9 10
""")


async def test_a_single_nominee_on_day_one_is_not_voted(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    state = await same_end(tmp_path, monkeypatch, FIRST_DAY_SINGLE_NOMINEE)
    assert state.seat(3).at_table and state.seat(1).departure.cause is Cause.KILL
    assert state.nights[0].best_move == (8, 9, 10)  # F24 §4.5.9: night 1's victim
    assert state.phase is Phase.LAST_WORD and state.day == 2


PENALTIES_AND_UNDO = script("""
    /new fiim2024
    /roles D8 M9 M10 S5
    /start
    /next
    /warn 2
    /foul 3 4.1.1
    /unfoul 3
    /dq 6 4.2.7
    /undo 1
    # refused by the rules in both (no shooting by day): nothing changes
    /kill 3
    /ppk 7 red
""")


async def test_penalties_refusals_and_undo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed IV: a warning, a foul withdrawn, a disqualification taken back, a team loss that
    ends the game (seed 4.3) — and a refused line changes nothing in either."""
    state = await same_end(tmp_path, monkeypatch, PENALTIES_AND_UNDO)
    assert state.seat(6).at_table  # the undo took the disqualification back
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.BLACK  # #7 is red
