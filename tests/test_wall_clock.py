"""A step of the wall clock moves no running timer (issue 32): NTP correcting a board without a
real-time clock, a VM resumed — the wall clock jumps 30 s or an hour, either way, while a speech,
a night step or a vote window runs. The deadline stays stored on the wall clock (a restart
re-arms from it), but a running timer counts on the monotonic clock (:mod:`bot.steady`): the step
ends when its length has run, neither frozen by a step back nor ended by a step forward.

Here the controllers run over the in-memory platform (:mod:`support.fakeport`), whose
:class:`~support.fakeport.FakeClock` moves only when a test says so: its monotonic clock and the
wall clock it steps (``step_wall``) part by exactly the steps made, and no test waits on real
time. The same steps through the real Telegram and Discord clients: ``tests/test_wall_clock_e2e.py``."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

import pytest

import rules
from bot.host.steps import press_grace
from bot.i18n import catalog
from bot.judge.controller import JudgeController
from bot.locks import ChatLocks
from bot.service import Service
from bot.steady import Steady
from rules import Phase
from storage import Store
from support import fake_host
from support.fakeport import Chats, FakeClock, FakeJudgePort, Message, Press
from support.stores import disk_full

RU = catalog("ru")
HOME = JUDGE = "fk:1"
GROUP = "fk:-50"
STEPS = [30.0, -30.0, 3600.0, -3600.0]  # seconds the wall clock jumps
STEP_IDS = ["30s-forward", "30s-back", "1h-forward", "1h-back"]


def test_a_deadline_is_counted_on_the_monotonic_clock_once_anchored() -> None:
    """:class:`bot.steady.Steady`: a deadline set ``ahead`` seconds from now falls that many
    seconds later on the monotonic clock, whatever the wall clock does after; one first seen
    from the store (a start-up) is anchored from the wall clock then; a changed deadline is
    anchored afresh."""
    wall, steady = [1000.0], [50.0]
    anchors: Steady[str] = Steady(lambda: wall[0], lambda: steady[0], limit=2)
    anchors.set("a", 1060.0, 60.0)
    wall[0] -= 3600  # a step back
    steady[0] += 20
    assert anchors.left("a", 1060.0) == 40.0 and anchors.now("a", 1060.0) == 1020.0
    wall[0] += 7200  # a step forward
    assert anchors.left("a", 1060.0) == 40.0
    assert anchors.left("b", wall[0] + 30) == 30.0  # read from the store: from the wall clock
    assert anchors.left("a", 1100.0) == 1100.0 - wall[0]  # another deadline: anchored again
    anchors.drop("a")
    anchors.set("c", 5.0, 5.0)
    anchors.set("d", 5.0, 5.0)  # beyond the limit: the least recently used ("b") goes
    wall[0] = 0.0
    assert anchors.left("b", wall[0] + 30) == 30.0


# --- judge mode ------------------------------------------------------------------------------------

class Desk:
    """A judge over the fakes, the panel's countdown on (as on Telegram: its edits re-arm the
    timer every 5 timer seconds)."""

    def __init__(self, store: Store) -> None:
        self.chats = Chats()
        self.clock = FakeClock()
        self.service = Service(store)
        self.port = FakeJudgePort(self.chats, self.clock, lambda: store, group=GROUP)
        self.port.countdown_step = 5
        self.judge = JudgeController(lambda: self.service, self.port, ChatLocks())

    async def say(self, text: str) -> list[str]:
        return [r.text for r in await self.judge.typed(HOME, JUDGE, text)]

    def panel(self) -> Message:
        return [m for m in self.chats.of(HOME) if m.buttons][-1]

    async def press(self, label: str) -> Press:
        handle = Press(JUDGE)
        await self.judge.press(HOME, JUDGE, self.panel().data(label), handle)
        return handle

    def timed(self, title: str) -> Message:
        """The table's announcement whose countdown times ``title``."""
        found = [m for m in self.chats.of(GROUP) if f"⏱ {title}" in m.versions[0]]
        assert found, self.chats.texts(GROUP)[-3:]
        return found[-1]

    async def state(self) -> rules.GameState:
        current = await self.service.current(HOME)
        assert current is not None
        return current.state


@asynccontextmanager
async def desk() -> AsyncIterator[Desk]:
    store = await Store.open(":memory:")
    try:
        yield Desk(store)
    finally:
        await store.close()


async def day_one(d: Desk) -> Message:
    await d.say("/new")
    await d.say("/roles D2 M5 M7 S8")
    await d.say("/start")
    await d.say("/next")
    return d.timed("Речь игрока №1")


async def night_one(d: Desk) -> Message:
    """Day 1 without nominations (every speech ended by the judge), night 1's shooting."""
    await day_one(d)
    for _ in range(10):
        await d.say("/next")
    assert rules.expected(await d.state()) == rules.Shooting(night=1, seconds=20)
    return d.timed("Охота мафии")


async def runs_its_length(d: Desk, message: Message, title: str, seconds: int, step: float,
                          *, at: float = 1.0) -> None:
    """``at`` timer seconds into the step the wall clock jumps ``step``: the warning (a step
    longer than 10 s) comes at 10 s left and the end at its length, on the monotonic clock."""
    await d.clock.advance(at)
    d.clock.step_wall(step)
    if seconds > 10:
        await d.clock.advance(seconds - 10 - at - 0.01)
        assert "осталось 10 секунд" not in message.text, message.text
        await d.clock.advance(0.01)
        assert message.text.endswith(f"⏱ {title}: осталось 10 секунд."), message.text
        await d.clock.advance(10 - 0.01)
    else:
        await d.clock.advance(seconds - at - 0.01)
    assert "время вышло" not in message.text and "время вышло" not in d.panel().text
    await d.clock.advance(0.01)
    assert message.text.endswith(f"⏹ {title}: время вышло."), message.text
    assert f"⏹ {title}: время вышло." in d.panel().text


@pytest.mark.parametrize("step", STEPS, ids=STEP_IDS)
async def test_a_speech_ends_on_time_when_the_wall_clock_steps(step: float) -> None:
    """F24 §4.3.1: the speech's 60 s, the countdown edited every 5 s on the panel (each edit
    re-arms the timer: it once read the wall clock each time)."""
    async with desk() as d:
        message = await day_one(d)
        await runs_its_length(d, message, "Речь игрока №1", 60, step, at=7.0)
        assert (await d.state()).speaker == 1  # the timer moves nothing


@pytest.mark.parametrize("step", STEPS, ids=STEP_IDS)
async def test_a_night_step_ends_on_time_when_the_wall_clock_steps(step: float) -> None:
    """F24 §4.5.3: the shooting's 20 s; then the Don's check (§4.5.6, 10 s: no warning) with
    the wall clock stepping back again."""
    async with desk() as d:
        hunt = await night_one(d)
        await runs_its_length(d, hunt, "Охота мафии", 20, step)
        await d.say("/kill 3")
        don = d.timed("Проверка Дона")
        await runs_its_length(d, don, "Проверка Дона", 10, -step, at=0.5)


@pytest.mark.parametrize("step", STEPS, ids=STEP_IDS)
async def test_a_paused_speech_keeps_what_was_left_across_a_step(step: float) -> None:
    """Paused 20 s in (40 s left), the wall clock steps, resumed: the 40 s run on the monotonic
    clock from the resume, and the panel's end as a clock time is the resume's."""
    async with desk() as d:
        message = await day_one(d)
        await d.clock.advance(20)
        await d.press(RU.text("judge-btn-pause"))
        assert "пауза, осталось 40 секунд" in message.text
        d.clock.step_wall(step)
        await d.clock.advance(300)
        await d.press(RU.text("judge-btn-resume"))
        d.clock.step_wall(-step)
        await d.clock.advance(30 - 0.01)
        assert "осталось 10 секунд" not in message.text
        await d.clock.advance(0.01)
        assert "осталось 10 секунд" in message.text
        await d.clock.advance(10)
        assert message.text.endswith("⏹ Речь игрока №1: время вышло.")


async def test_a_restart_re_arms_from_the_stored_deadline() -> None:
    """Only a start-up reads the deadline against the wall clock: a new controller over the same
    store (a restart) arms the running speech from its stored end, as the wall clock has it."""
    async with desk() as d:
        message = await day_one(d)
        await d.clock.advance(30)
        d.clock.cancel_all()  # the process dies
        d.judge = JudgeController(lambda: d.service, d.port, ChatLocks())
        d.service = Service(d.service.store)
        d.clock.step_wall(-10)  # and its clock was 10 s ahead: corrected while it was down
        await d.judge.rearm()
        await d.clock.advance(40 - 0.01)  # 30 s were left, and the 10 s the clock went back
        assert "время вышло" not in message.text
        await d.clock.advance(0.01)
        assert message.text.endswith("⏹ Речь игрока №1: время вышло.")


# --- host mode -------------------------------------------------------------------------------------

async def closes_after(t: fake_host.Table, seconds: float, step: float, *, at: float = 1.0,
                       press: Callable[[], Any] | None = None) -> None:
    """The running step closes ``seconds`` after it opened on the monotonic clock (a vote's
    window its press grace later, :func:`bot.host.steps.press_grace`), the wall clock
    having jumped ``step`` ``at`` seconds in — and then a press failing inside (a full disk)
    having made the controller re-read the table from the store and re-arm it."""
    running = t.table().step
    # a window of presses waits its grace after its time (issue 35: the doubt to the presser)
    seconds += press_grace(running) * t.port.scale
    await t.clock.advance(at)
    t.clock.step_wall(step)
    if press is not None:
        room = disk_full(t.store)
        await press()
        room()
    await t.clock.advance(seconds - at - 0.01)
    assert t.table().step.no == running.no, (running, t.table().step)
    await t.clock.advance(0.01)
    assert t.table().step.no > running.no


async def nominates(t: fake_host.Table, seat: int, target: int) -> None:
    """``seat``, speaking, opens the picker and nominates ``target`` (F24 §4.4.2)."""
    speaker = t.player(seat)
    await t.press(speaker, t.step_message().data(RU.text("host-btn-nominate")))
    await t.press(speaker, t.step_message().data(str(target)))


@pytest.mark.parametrize("step", STEPS, ids=STEP_IDS)
async def test_hosted_steps_close_on_time_when_the_wall_clock_steps(step: float) -> None:
    """Night 0 (F24 §4.2.1), a speech (§4.3.1), a voting window (§4.4.5) and the night's shooting
    (§4.5.3), each with the wall clock stepping inside it (the speech and the window also with a
    press failing inside, which makes the controller re-read the table and re-arm the step)."""
    async with fake_host.table() as t:
        await t.fill()
        night_zero = t.table().step
        assert night_zero.kind == "night_zero"
        await closes_after(t, night_zero.seconds, step)
        speech = t.table().step
        assert speech.kind == "speech" and speech.seat == 1
        await nominates(t, 1, 7)

        async def passes() -> Any:
            return await t.press(t.player(1), t.step_message().data(RU.text("host-btn-pass")))

        await closes_after(t, speech.seconds, -step, at=5.0, press=passes)
        assert t.table().step.seat == 2
        await nominates(t, 2, 8)
        for _ in range(9):  # #2 and the others pass
            seat = t.table().step.seat
            await t.press(t.player(seat), t.step_message().data(RU.text("host-btn-pass")))
        window = t.table().step
        assert window.kind == "vote" and window.seat == 7, window

        async def hand() -> Any:
            label = RU.text("host-btn-hand", seat=RU.text("seat", n=7))
            return await t.press(t.player(3), t.step_message().data(label))

        await closes_after(t, window.seconds, step, press=hand)
        while (await t.state()).phase is not Phase.NIGHT:  # #8's hands (F24 §4.4.8), his last word
            await t.clock.advance(t.table().step.seconds)
        shooting = t.table().step
        assert shooting.kind == "shooting", shooting
        await closes_after(t, shooting.seconds, step)
