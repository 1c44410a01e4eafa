"""A step of the wall clock moves no running timer (issue 32), through the real clients: the PTB
Application against the fake Bot API, the discord.py client against the fake Discord, in judge
mode and in host mode. The wall clock the bot reads (:mod:`support.wallclock`: its ``clock=``,
and on Telegram PTB's JobQueue and APScheduler too) jumps back or forward, 30 s or an hour,
inside a speech, a night step and a voting window; each step still ends when its length has run
— not before (a step forward once ended it at once), and within a generous bound after
(:data:`LATE`: a step back once froze it for the length of the step).

When a step began is read from the bot's own record (a hosted step's ``opened``, a judge's timer
deadline: the stepped wall clock's, less the steps made before it), and its end is watched on
the real clock: no bound here depends on the machine's speed but :data:`LATE`, which is
generous (a step back of 30 s and more is what it catches). The exact edits, with a clock that
moves only when told: ``tests/test_wall_clock.py``."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Callable

import discord
import pytest

import rules
from bot.i18n import catalog
from fakebot import FakeBotAPI, FakeMessage
from rules import Phase
from support import wallclock
from support.discord_table import TABLE_ID, DiscordTable
from support.discord_table import FakeMessage as DiscordMessage
from support.discord_table import table as discord_table
from support.host_table import FAST, HostTable, host_table
from support.telegram_table import Table, table

RU = catalog("ru")
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)
SCALE = 0.2  # real seconds per timer second: a 60 s speech runs 12 s, a 20 s night step 4 s
LATE = 20.0  # s: how late a step's end may be seen on a busy machine (a 30 s step back is more)
EARLY = 0.05  # s: the clocks' granularity (a timestamp rounded, a poll's slack)

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> wallclock.SteppedWall:
    return wallclock.install(monkeypatch)


async def ends_on_time(began: float, seconds: float, ended: Callable[[], bool], what: str) -> None:
    """``ended()`` becomes true no earlier than ``seconds`` timer seconds after ``began`` (real
    unix seconds) and no later than :data:`LATE` after that."""
    due = began + seconds * SCALE
    while not ended():
        assert time.time() < due + LATE, f"{what}: not over {LATE:g} s after its end"
        await asyncio.sleep(0.02)
    assert time.time() >= due - EARLY, f"{what}: over {due - time.time():.2f} s early"


# --- judge mode --------------------------------------------------------------------------------------

async def judge_timer_began(service: Any, home: str, wall: wallclock.SteppedWall) -> tuple[float, int]:
    """When the running timer began (real unix seconds) and its length, from its stored deadline
    (the bot's wall clock, stepped by ``wall.offset`` so far)."""
    current = await service.current(home)
    assert current is not None
    data = await service.timer(current.game_id)
    assert data is not None and data["deadline"] is not None, data
    seconds = int(data["seconds"])
    return data["deadline"] - seconds * data["scale"] - wall.offset, seconds


def telegram_line(t: Table, title: str) -> FakeMessage:
    found = [m for m in t.fake.sent(t.group) if f"⏱ {title} —" in (m.texts[0] or "")]
    assert found, t.public()[-3:]
    return found[-1]


async def test_telegram_judge_timers_end_on_time_when_the_wall_clock_steps(
        fake: FakeBotAPI, tmp_path: Path, wall: wallclock.SteppedWall) -> None:
    """A speech (F24 §4.3.1, 60 s) with the clock 30 s back, the next with it an hour ahead;
    night 1's shooting (F24 §4.5.3, 20 s) an hour back, the Don's check (§4.5.6, 10 s) 30 s
    ahead. The panel's countdown is edited every few seconds: each edit re-arms the timer."""
    async with table(fake, tmp_path / "db.sqlite3", scale=SCALE, clock=wall) as t:
        home = f"tg:{t.judge.id}"
        await t.say("/new")
        await t.say("/link", chat=t.group)
        await t.say("/roles D2 M5 M7 S8")
        await t.say("/start")
        await t.press("Далее ▶ (утро)")
        for step, press, title in ((-30, None, "Речь игрока №1"), (3600, "Далее ▶", "Речь игрока №2"),
                                   (-3600, "night", "Охота мафии"), (30, "/kill 3", "Проверка Дона")):
            if press == "night":
                for _ in range(9):  # the rest of day 1, nobody nominated: night falls
                    await t.press("Далее ▶")
            elif press is not None and press.startswith("/"):
                await t.say(press)
            elif press is not None:
                await t.press(press)
            message = telegram_line(t, title)
            began, seconds = await judge_timer_began(t.service, home, wall)
            wall.step(step)
            await ends_on_time(began, seconds, lambda: (message.text or "").endswith(
                f"⏹ {title}: время вышло."), title)
            # the panel is edited after the group's line (the same tick): wait for it, bounded
            await t.fake.wait_for(lambda: f"⏹ {title}: время вышло." in (t.panel().text or ""),
                                  LATE, what=f"the panel's end of {title}")
        assert rules.expected(await t.state()) == rules.DonCheckStep(night=1, seconds=10)


def discord_line(t: DiscordTable, title: str) -> DiscordMessage:
    found = [m for m in t.fake.in_channel(TABLE_ID) if f"⏱ {title} —" in m.versions[0].content]
    assert found, t.public()[-3:]
    return found[-1]


async def test_discord_judge_timers_end_on_time_when_the_wall_clock_steps(
        tmp_path: Path, wall: wallclock.SteppedWall) -> None:
    """The same steps on Discord (its line counts down by itself: the bot edits it at 10 s left
    and at the end, the end re-armed after the warning)."""
    async with discord_table(tmp_path / "db.sqlite3", timer_scale=SCALE, clock=wall) as t:
        await t.slash("new")
        await t.slash("roles", roles="D2 M5 M7 S8")
        await t.slash("start")
        await t.slash("next")
        for step, act, title in ((-30, None, "Речь игрока №1"), (3600, ("next", {}), "Речь игрока №2"),
                                 (-3600, "night", "Охота мафии"), (30, ("kill", {"seat": 3}), "Проверка Дона")):
            if act == "night":
                for _ in range(9):
                    await t.slash("next")
            elif act is not None:
                await t.slash(act[0], **act[1])
            message = discord_line(t, title)
            began, seconds = await judge_timer_began(t.service, t.home, wall)
            wall.step(step)
            await ends_on_time(began, seconds,
                               lambda: f"⏹ {title}: время вышло." in message.now.content, title)
        assert rules.expected(await t.state()) == rules.DonCheckStep(night=1, seconds=10)


# --- host mode ---------------------------------------------------------------------------------------

def hosted_began(step: Any, wall: wallclock.SteppedWall) -> float:
    """When a hosted step's window opened (real unix seconds): its ``opened`` is the bot's
    wall clock then."""
    assert step.started, step
    return float(step.opened) - wall.offset


async def test_telegram_hosted_steps_end_on_time_when_the_wall_clock_steps(
        fake: FakeBotAPI, tmp_path: Path, wall: wallclock.SteppedWall) -> None:
    """Night 0 (F24 §4.2.1, 20 s here) an hour back, #1's speech (§4.3.1, 60 s) 30 s ahead, the
    window against #7 (§4.4.5, 30 s) 30 s back, night 1's shooting (§4.5.3, 20 s) an hour
    ahead: each closes by its time, on time."""
    async with host_table(fake, tmp_path / "db.sqlite3", scale=SCALE, clock=wall) as t:
        await t.say(t.owner, f"/newgame {FAST}")
        for player in t.players:
            await t.press(player, t.lobby(), "Записаться")

        async def closes(kind: str, step: float, seat: int | None = None) -> Any:
            running = await t.wait_step(kind, seat)
            began = hosted_began(running, wall)
            wall.step(step)
            await ends_on_time(began, running.seconds,
                               lambda: (t.step() or running).no > running.no, kind)
            return running

        await closes("night_zero", -3600)
        speech = await t.wait_step("speech", 1, consume=False)
        await t.nominate(1, 7)
        await closes("speech", 30, 1)
        await t.wait_floor(2, consume=False)
        await t.nominate(2, 8)
        await t.speeches(list(range(2, 11)))
        assert speech.seconds == 60
        await closes("vote", -30, 7)  # nobody raises a hand: #8 gets them all (F24 §4.4.8)
        await t.pass_turn(8)  # his last word
        assert (await t.state()).phase is Phase.NIGHT
        await closes("shooting", 3600)


async def test_discord_hosted_steps_end_on_time_when_the_wall_clock_steps(
        tmp_path: Path, wall: wallclock.SteppedWall) -> None:
    """The same steps at a hosted table on Discord."""
    async with discord_table(tmp_path / "db.sqlite3", timer_scale=SCALE, clock=wall) as t:
        t.app_permissions = HOST_RIGHTS

        def dc_table(t: DiscordTable) -> Any:
            assert t.referee.host is not None
            return t.referee.host.controller.tables_in(t.home)[-1]

        def player_at(t: DiscordTable, seat: int) -> dict[str, Any]:
            user = dc_table(t).seats[seat]
            return next(p for p in t.players if f"dc:{p['id']}" == user)

        assert RU.text("dc-host-opened") in await t.slash("newgame", options=f"seed {FAST}")
        join = RU.text("host-btn-join")
        for player in t.players:
            lobby = [m for m in t.fake.in_channel(TABLE_ID, deleted=False) if m.button(join)][-1]
            await t.press(join, actor=player, message=lobby)

        def step_message() -> DiscordMessage:
            step = dc_table(t).step
            found = [m for m in t.fake.in_channel(TABLE_ID) if m.id == step.message]
            assert found, step
            return found[0]

        async def opened(kind: str, seat: int | None = None) -> Any:
            def ready() -> Any:
                step = dc_table(t).step
                return step is not None and step.kind == kind and (seat is None or step.seat == seat) \
                    and step.started and step.message is not None
            loop = asyncio.get_running_loop()
            until = loop.time() + 60
            while not ready():
                assert loop.time() < until, (kind, seat, dc_table(t).step)
                await asyncio.sleep(0.02)
            return dc_table(t).step

        async def closes(kind: str, step: float, seat: int | None = None) -> None:
            running = await opened(kind, seat)
            began = hosted_began(running, wall)
            wall.step(step)
            await ends_on_time(began, running.seconds,
                               lambda: (dc_table(t).step or running).no > running.no, kind)

        async def press(seat: int, label: str) -> None:
            await t.press(label, actor=player_at(t, seat), message=step_message())

        await closes("night_zero", -3600)
        await opened("speech", 1)
        await press(1, RU.text("host-btn-nominate"))
        await press(1, "7")
        await closes("speech", 30, 1)
        await opened("speech", 2)
        await press(2, RU.text("host-btn-nominate"))
        await press(2, "8")
        for seat in range(2, 11):
            await opened("speech", seat)
            await press(seat, RU.text("host-btn-pass"))
        await closes("vote", -30, 7)
        await opened("last_word", 8)
        await press(8, RU.text("host-btn-pass"))
        assert (await t.state()).phase is Phase.NIGHT
        await closes("shooting", 3600)
