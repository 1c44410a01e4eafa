"""The console's group view (``judge_view=False``: the demo's) prints what a table's chat is told.

The same judge's script is played at the console's group view and on Telegram with the game
linked to a group (the real PTB Application against the fake Bot API); the lines the group reads
must be the console's, line for line, for every preset — the step's timer line under each
announcement (the console's group view has no clock) and the group's link notice aside. A line
the console shows and the group is not told would reveal what is hidden from it (F24 §4.4.13); a
line the group is told and the console leaves out would make the demo lie about what a table
sees."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from bot.console import Session
from bot.demo import commands
from bot.i18n import catalog
from bot.render import result_text
from bot.service import Service
from fakebot import FakeBotAPI
from storage import Store
from support.fakeport import FakeClock
from support.telegram_table import table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta

RU = catalog("ru")
LAST = "{last}"  # the number of the last logged action (for /fix), read at each desk

DAY_ONE = ["/start", "/next", *["/next"] * 9, "/next"]  # night 0, ten speeches, no vote: night 1
#: corrections a judge makes, heard by the group or hidden from it
CORRECTIONS = [
    "/start", "/roles D2 M5 M7 S8", "/undo",  # the roles entered at night 0 and taken back
    "/roles D2 M5 M7 S8", "/next", "/foul 4", f"/fix {LAST} /foul 6",  # a foul moved: told
    "/nominate 3", "/next", "/nominate 5", "/undo", "/undo",  # a nomination taken back
    "/next", "/undo 2", "/next", "/next",  # an undo across a speech's end
]
NIGHT = [
    *DAY_ONE, "/kill 3", "/don 8", "/undo 2", "/kill 4", "/don 8", f"/fix {LAST} /don 9",
    "/sheriff 2", "/undo", "/sheriff 5",
]
SCRIPTS = {"corrections": CORRECTIONS, "night": NIGHT}


def _fill(line: str, last: int) -> str:
    return line.replace(LAST, str(last))


async def _console(tmp_path: Path, preset: str, script: list[str]) -> list[str]:
    store = await Store.open(tmp_path / "console.sqlite3")
    try:
        service = Service(store)
        session = Session(service, RU, judge_view=False, clock=FakeClock())
        await session.open()
        assert (await session.handle(f"/new {preset}")).accepted
        if script is not CORRECTIONS:  # that one enters the roles at night 0
            assert (await session.handle("/roles D2 M5 M7 S8")).accepted
        lines: list[str] = []
        for line in script:
            typed = _fill(line, len(await service.events(session.chat)))
            reply = await session.handle(typed)
            assert reply.accepted, (typed, reply.lines)
            lines.extend(x for text in reply.lines for x in text.splitlines())
        return lines
    finally:
        await store.close()


async def _telegram(fake: FakeBotAPI, tmp_path: Path, preset: str, script: list[str]) -> list[str]:
    async with table(fake, tmp_path / "telegram.sqlite3") as t:
        await t.say(f"/new {preset}")
        if script is not CORRECTIONS:
            await t.say("/roles D2 M5 M7 S8")
        await t.say("/link", chat=t.group)
        linked = len(t.public())
        for line in script:
            await t.say(_fill(line, await t.log_length()))
        return [x for text in t.public()[linked:] for x in text.splitlines()]


def _read(lines: list[str]) -> list[str]:
    """What a reader takes from a chat's lines: the blank ones and the timer's lines left out."""
    return [x for x in lines if x.strip() and not x.startswith("⏱")]


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("name", sorted(SCRIPTS))
async def test_the_consoles_group_view_prints_what_the_group_is_told(
        fake: FakeBotAPI, tmp_path: Path, name: str, preset: str) -> None:
    """The judge's corrections (undo, /fix) heard by the group or hidden from it, and a night
    with its checks taken back and corrected: the console's group view reads as the group."""
    script = SCRIPTS[name]
    console = await _console(tmp_path, preset, script)
    group = await _telegram(fake, tmp_path, preset, script)
    assert _read(console) == _read(group)


async def test_the_demo_prints_what_the_group_is_told(fake: FakeBotAPI, tmp_path: Path) -> None:
    """The shipped demo (bot/demo/club_game.txt) as a table's group reads it, then the result
    with the roles (F24 §1.4, §4.4.13: revealed at the end), which the group gets at the end."""
    script = commands()
    store = await Store.open(tmp_path / "demo.sqlite3")
    try:
        service = Service(store)
        session = Session(service, RU, judge_view=False, clock=FakeClock())
        printed: list[str] = []
        for line in script:
            reply = await session.handle(line)
            assert reply.accepted, (line, reply.lines)
            printed.extend(x for text in reply.lines for x in text.splitlines())
        current = await service.current(session.chat)
        assert current is not None and current.state.phase is rules.Phase.GAME_OVER
        printed.extend(result_text(current.state, RU).splitlines())
    finally:
        await store.close()
    async with table(fake, tmp_path / "telegram.sqlite3") as t:
        await t.say(script[0])
        await t.say("/link", chat=t.group)
        linked = len(t.public())
        for line in script[1:]:
            await t.say(line)
        group = [x for text in t.public()[linked:] for x in text.splitlines()]
    assert _read(printed[1:]) == _read(group)  # the console's first line: the new game's number
