"""Issue 35, item 1, where the table reads it: one departure told once, in the console's group view
and in judge mode on Telegram and Discord (the real clients over their fakes, ``support.judging``).

RULES.md §12.9 / R6.12 (SC): a player shot and disqualified the same night counts as killed and
removed — the kill counts, the next day's vote is held, no last word and no best move (seed
4.5). The table hears the removal when it happens, in the line every night removal reads (it
does not tell that he was the one shot), and the morning tells the night's result without a
second «покидает игру», a last word or a best move for him. A seat removed in his own last word:
one line says it ends, no line about his last word follows it. The tests state exactly which
lines the table reads about that seat.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import pytest

import rules

from bot.console import Session
from bot.i18n import catalog
from bot.service import Service
from storage import Store
from support import RU_SECRETS
from support.fakeport import FakeClock
from support.judging import PLATFORMS, Judging, judging, nexts, setup_club_game

pytestmark = pytest.mark.usefixtures("ptb_timedelta")

#: what the table reads of seat 3, shot and disqualified in night 1 (the roles: Don 2, mafia 5
#: and 7, Sheriff 8), from the shooting on — each line once, in this order
KILLED_AND_REMOVED = [
    "Игрок №3 удаляется и покидает игру без последнего слова (4.5).",
    "Наступает утро. Этой ночью убийство: игрок №3 — это место уже удалено из игры этой ночью, "
    "поэтому последнего слова и лучшего хода нет (4.5); голосование дня проводится (5.1).",
]


def about(lines: list[str], seat: int) -> list[str]:
    """The lines that name ``seat`` (its label «№3», not «№30»)."""
    return [line for line in lines if f"№{seat} " in line or f"№{seat}." in line
            or f"№{seat}:" in line or f"№{seat}," in line or line.endswith(f"№{seat}")]


@pytest.fixture(params=PLATFORMS)
async def t(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Judging]:
    async with judging(request.param, tmp_path / "referee.sqlite3") as table:
        yield table


async def test_judge_mode_killed_and_disqualified_the_same_night_is_told_once(t: Judging) -> None:
    await setup_club_game(t, preset="seed")
    await nexts(t, 10)  # day 1: nobody nominated, no vote: night 1
    before = len(t.table_lines())
    await t.command("shots", shots="2:3 5:3 7:3")  # every black on #3: the kill (F24 §4.5.4)
    await t.command("dq", seat=3, reason="4.2.6")  # night talk (seed 4.2.6)
    for _ in range(2):  # the Don's and the Sheriff's checks not made: the morning
        await t.press("Пропустить ▶")
    lines = t.table_lines()[before:]
    assert about(lines, 3) == KILLED_AND_REMOVED, about(lines, 3)
    assert not [x for x in lines if any(word in x for word in RU_SECRETS)]
    state = await t.state()
    assert state.speaker == 2 and state.phase.value == "speech"  # no last word: #2 opens day 2


async def test_judge_mode_a_removal_in_ones_own_last_word_is_told_once(t: Judging) -> None:
    await setup_club_game(t, preset="seed")
    await t.command("nominate", target=3)  # #1 nominates #3, #2 nominates #4 (F24 §4.4.10)
    await t.press("Далее ▶")
    await t.command("nominate", target=4)
    await nexts(t, 9)
    await t.press("7")  # 7 hands against #3; the 3 left go to #4: #3 leaves, his last word
    assert (await t.state()).speaker == 3
    before = len(t.table_lines())
    await t.command("dq", seat=3, reason="4.2.1")  # he leaves the table in his last word
    lines = t.table_lines()
    said = about(lines[before:], 3)
    assert said == ["Игрок №3: дисквалификация — покидание игрового стола (4.2.1) — "
                    "последнее слово окончено (4.5)."], said
    ended = lines.index(said[0])
    assert not about(lines[ended + 1:], 3), lines[ended + 1:]  # nothing more of his last word


async def test_the_consoles_group_view_tells_the_killed_and_removed_seat_once(tmp_path: Path) -> None:
    """The console's group view (``judge_view=False``, the demo's): the same two lines."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        session = Session(Service(store), catalog("ru"), judge_view=False, clock=FakeClock())
        await session.open()
        for line in ("/new seed", "/roles D2 M5 M7 S8", "/start", "/next", *["/next"] * 10):
            assert (await session.handle(line)).accepted, line
        lines: list[str] = []
        for line in ("/shots 2:3 5:3 7:3", "/dq 3 4.2.6", "/next", "/next"):
            reply = await session.handle(line)
            assert reply.accepted, (line, reply.lines)
            lines.extend(x for text in reply.lines for x in text.splitlines())
        assert about(lines, 3) == KILLED_AND_REMOVED, about(lines, 3)
    finally:
        await store.close()


@asynccontextmanager
async def group_view_at_night(preset: str, tmp_path: Path) -> AsyncIterator[Session]:
    """The console's group view of a game of ``preset`` at night 1: #3 shot, the Don's check of
    #8 recorded."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        session = Session(Service(store), catalog("ru"), judge_view=False, clock=FakeClock())
        await session.open()
        for line in (f"/new {preset}", "/roles D2 M5 M7 S8", "/start", *["/next"] * 11, "/kill 3",
                     "/don 8"):
            assert (await session.handle(line)).accepted, line
        yield session
    finally:
        await store.close()


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
async def test_the_consoles_group_view_of_a_night_undone_shows_no_command(preset: str,
                                                                         tmp_path: Path) -> None:
    """The console's group view of /undo at night prints what the table's chat is told — the
    announcements taken back and where the game stands — never the commands undone: "/don 8"
    would tell the table whom the Don checked, "/kill 3" the night's victim before the morning
    (F24 §4.4.13, seed 5.4)."""
    async with group_view_at_night(preset, tmp_path) as session:
        undone = await session.handle("/undo 2")
        assert undone.accepted
        said = "\n".join(undone.lines)
        assert "/" not in said and "№8" not in said and "№3" not in said, said
        assert "отменено 2 действия" in said, said  # both steps were announced (Дон, Шериф)
        assert not [x for x in undone.lines if any(word in x for word in RU_SECRETS)]


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
async def test_the_consoles_group_view_asked_at_night_tells_nothing_the_table_is_not_told(
        preset: str, tmp_path: Path) -> None:
    """Night 1, #3 shot and the Don's check recorded: whatever the group's view is asked — the
    result, the status, the log, the audit trail, the last ruling — it does not learn of the
    kill before the morning (F24 §4.5.9), nor any role or check (F24 §4.4.13), as the table's
    chat is answered on the platforms (only "the game is not over" for /result)."""
    async with group_view_at_night(preset, tmp_path) as session:
        asked = {line: "\n".join((await session.handle(line)).lines)
                 for line in ("/result", "/status", "/log", "/log all", "/why", "/points")}
        assert asked["/result"] == catalog("ru").text("result-not-over")
        for line, said in asked.items():
            assert "убийство" not in said and "убит" not in said, (line, said)
            assert not any(word in said for word in RU_SECRETS), (line, said)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
async def test_the_consoles_group_view_prints_no_refusal(preset: str, tmp_path: Path) -> None:
    """A refused command is the judge's business: the table's chat is not told of it, and a
    refusal may name a role — /ppk 2 red refused because by the roles entered #2 is black
    (seed 4.3). The group's view prints nothing for it; the judge's words are kept aside."""
    async with group_view_at_night(preset, tmp_path) as session:
        refused = await session.handle("/ppk 2 red")
        assert not refused.accepted and refused.lines == []
        assert refused.refusal and "№2" in "\n".join(refused.refusal)
        unknown = await session.handle("/frobnicate")
        assert not unknown.accepted and unknown.lines == [] and unknown.refusal
