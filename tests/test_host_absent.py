"""Host mode: a player who misses his turns (issue #4: "A player who … misses his turns gets what
the rules and a stated option say (removal counts as leaving the table); the game never hangs
waiting for him").

The stated option is ``absent_after`` (``/newgame absent=N``, default 2, 0 = off): N own day
speeches in a row in which the speaker wrote nothing and pressed nothing are leaving the table —
seed 4.2.1 «покидание игрового стола», a disqualifying foul: he leaves at once without a last
word (seed 4.5). Missed votes and night actions keep the rules' defaults (the hand goes to the
last nominee, F24 §4.4.8; no shot is a miss, §4.5.5; no check is made)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fakebot import FakeBotAPI
from rules import Cause, Phase
from support.host_table import FAST, GROUP_TITLE, NAMES, SCALE, HostTable, World, host_table

SILENT = 5  # the seat that never speaks
SPEECH = 60 * SCALE  # a speech's real length in these tests


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def day_with_a_silent_seat(t: HostTable, order: list[int], day: int) -> None:
    """Every seat of ``order`` passes at once, except :data:`SILENT`, whose minute runs out."""
    for seat in order:
        await t.wait_floor(seat, day=day, timeout=SPEECH + 5)
        if seat != SILENT:
            await t.press(t.user(seat), t.step_message(), "Пас")


async def two_silent_speeches(t: HostTable, options: str) -> None:
    """Day 1 without nominations (no vote), night 1 with no shot (a miss), day 2 until the
    silent seat's second minute has run out and the next speaker has the floor."""
    await t.open_and_fill(f"{FAST} {options}".strip())
    await day_with_a_silent_seat(t, list(range(1, 11)), 1)
    assert (await t.state()).seat(SILENT).at_table  # one silent speech is not enough
    await t.night(1)  # nobody shoots, nobody checks: the rules' defaults (F24 §4.5.5)
    order = (await t.state()).speech_order
    until = order[:order.index(SILENT) + 1]
    await day_with_a_silent_seat(t, until, 2)
    following = order[order.index(SILENT) + 1]
    await t.wait_floor(following, day=2, timeout=SPEECH + 5, consume=False)


async def test_two_silent_speeches_in_a_row_are_leaving_the_table(fake: FakeBotAPI,
                                                                  tmp_path: Path) -> None:
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await two_silent_speeches(t, "")  # the default: absent=2
        await fake.wait_for(lambda: any(x.startswith(f"№{SILENT}: 2 свои речи подряд") and "(4.2.1)" in x
                                        for x in t.group_texts()),
                            timeout=5, what="the removal's announcement")
        state = await t.state()
        departure = state.seat(SILENT).departure
        assert departure is not None and departure.cause is Cause.DISQUALIFICATION
        assert departure.reason == "4.2.1"  # seed 4.2.1: leaving the table
        assert not any(f"Последнее слово, №{SILENT}" in x for x in t.group_texts())  # seed 4.5
        assert state.phase is Phase.SPEECH  # the game goes on without him


async def test_with_absent_0_a_silent_player_stays(fake: FakeBotAPI, tmp_path: Path) -> None:
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await two_silent_speeches(t, "absent=0")
        state = await t.state()
        assert state.seat(SILENT).at_table and state.seat(SILENT).departure is None
        assert not any("(4.2.1)" in x for x in t.group_texts())
        assert any("Пропуск ходов: молчаливая речь просто истекает по времени." in (x or "")
                   for x in t.lobby().texts)  # the option, stated in the lobby


async def test_a_speaker_who_writes_is_not_silent(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Writing in one's minute (and letting it run out) resets the count: only speeches in a
    row with nothing written and nothing pressed count (``absent=1`` here: one is enough)."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill(f"{FAST} absent=1")
        assert any("Пропуск ходов: 1 своя речь подряд" in (x or "") for x in t.lobby().texts)
        for seat in range(1, 4):
            await t.wait_floor(seat, timeout=SPEECH + 5)
            if seat == 2:
                await t.say(t.user(2), "Я мирный, ищите чёрных справа.")  # then his time runs out
            else:
                await t.press(t.user(seat), t.step_message(), "Пас")
        state = await t.state()
        assert state.seat(2).at_table and state.seat(2).fouls == []


async def test_a_bot_that_cannot_read_the_group_counts_no_silence(fake: FakeBotAPI,
                                                                 tmp_path: Path) -> None:
    """A bot that is not an admin (privacy mode on) does not see what the speaker writes, so a
    speech that runs out is not known to be silent: nobody is removed for it (the lobby says the
    bot cannot see the group's messages)."""
    owner = fake.add_user("Ведущий", "host", started=True)
    players = [fake.add_user(name, f"p{i}", started=True) for i, name in enumerate(NAMES, 1)]
    group = fake.add_group(GROUP_TITLE, creator=owner, members=players, bot_status="member")
    async with host_table(fake, tmp_path / "db.sqlite3", World(owner, group, players)) as t:
        await t.open_and_fill(f"{FAST} absent=1")
        assert any("не вижу сообщений группы" in (x or "") for x in t.lobby().texts)
        await t.wait_floor(1, timeout=5)
        await t.wait_floor(2, timeout=SPEECH + 5)  # #1's minute ran out
        await asyncio.sleep(0.3)  # a removal would follow the step's closing at once
        state = await t.state()
        assert state.seat(1).at_table and state.seat(1).departure is None
