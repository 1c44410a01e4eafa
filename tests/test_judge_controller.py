"""Judge mode (:class:`bot.judge.controller.JudgeController`) against an in-memory platform
(:mod:`support.fakeport`): fast, no HTTP, time moved by the test (no wall clock).

The same controller serves Telegram and Discord (tests/test_telegram_*.py and
tests/test_discord_*.py drive it through the real clients); here it is pinned down alone: who
reads what, presses that change nothing, a press answered only once committed, the speech timer,
undo, a take over."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

import rules
from bot.i18n import catalog
from bot.judge.controller import JudgeController
from bot.locks import ChatLocks
from bot.outbox import Unreachable
from bot.service import Service
from rules import Phase
from storage import OutboxRow, Store
from support.fakeport import Chats, FakeClock, FakeJudgePort, Message, Press

RU = catalog("ru")
HOME = "fk:1"  # the judge's own chat: the game lives there
JUDGE = "fk:1"
GROUP = "fk:-50"  # the club's group, where the table reads


class Desk:
    """A judge at his panel over the fakes."""

    def __init__(self, store: Store, group: str | None) -> None:
        self.chats = Chats()
        self.clock = FakeClock()
        self.service = Service(store)
        self.port = FakeJudgePort(self.chats, self.clock, lambda: store, group=group)
        self.judge = JudgeController(lambda: self.service, self.port, ChatLocks())

    async def say(self, text: str, user: str = JUDGE) -> list[str]:
        return [r.text for r in await self.judge.typed(HOME, user, text)]

    def panel(self) -> Message:
        """The judge's panel: the last message of his chat with buttons."""
        return [m for m in self.chats.of(HOME) if m.buttons][-1]

    async def press(self, label: str, user: str = JUDGE, message: Message | None = None) -> Press:
        handle = Press(user)
        await self.judge.press(HOME, user, (message or self.panel()).data(label), handle)
        return handle

    async def state(self) -> rules.GameState:
        current = await self.service.current(HOME)
        assert current is not None
        return current.state

    async def to_day_one(self) -> None:
        await self.say("/new")
        await self.say("/roles D2 M5 M7 S8")
        await self.say("/start")
        await self.say("/next")
        assert (await self.state()).speaker == 1


@asynccontextmanager
async def desk(group: str | None = GROUP) -> AsyncIterator[Desk]:
    store = await Store.open(":memory:")
    try:
        yield Desk(store, group)
    finally:
        await store.close()


async def test_the_judge_reads_everything_and_the_table_only_what_is_public() -> None:
    """Private notices (the roles, check answers …) go to the judge only (F24 §4.4.13, §4.5.4;
    seed 5.4); the public ones reach the table's chat too."""
    async with desk() as d:
        await d.to_day_one()
        await d.say("/foul 3 4.1.1")
        judge = "\n".join(d.chats.texts(HOME))
        group = "\n".join(d.chats.texts(GROUP))
        assert "Наступает ночь" in group and "Наступает ночь" in judge
        assert "фол" in group
        assert "Роли" in judge or "Дон" in judge
        assert "Дон" not in group and "Шериф — №" not in group


async def test_a_press_by_anyone_but_the_judge_or_from_an_older_panel_changes_nothing() -> None:
    """Every button carries the game's revision: a stale or repeated press is answered
    "outdated", a stranger's is refused with an alert; the log is untouched either way."""
    async with desk() as d:
        await d.to_day_one()
        data = d.panel().data(RU.text("judge-btn-next"))  # what the button carries now
        events = len(await d.service.events(HOME))
        stranger = Press("fk:99")
        await d.judge.press(HOME, "fk:99", data, stranger)
        assert stranger.answers == [(RU.text("judge-press-not-judge"), True)]
        for _ in range(2):  # the same button pressed twice: the second is outdated
            again = Press(JUDGE)
            await d.judge.press(HOME, JUDGE, data, again)
        assert len(await d.service.events(HOME)) == events + 1
        assert again.text == RU.text("judge-press-outdated")
        assert len(await d.service.events(HOME)) == events + 1


async def test_a_press_is_answered_after_its_event_is_committed() -> None:
    async with desk() as d:
        await d.to_day_one()
        seen: list[int] = []

        async def answer(handle, text=None, *, alert=False, url=None):  # noqa: ANN001, ANN202
            seen.append(len(await d.service.events(HOME)))
            handle.answers.append((text, alert))

        d.port.answer = answer  # type: ignore[method-assign]
        before = len(await d.service.events(HOME))
        await d.press(RU.text("judge-btn-next"))
        assert seen == [before + 1]


async def test_the_speech_timer_warns_and_ends_on_its_deadline_but_moves_nothing() -> None:
    """F24 §4.3.1: 60 s. The table's announcement carries the countdown: 10 s left, then over;
    the judge moves the game on, never the timer."""
    async with desk() as d:
        await d.to_day_one()
        speech = [m for m in d.chats.of(GROUP) if "Слово игроку №1" in m.versions[0]][-1]
        await d.clock.advance(49)
        assert "осталось" not in speech.text
        await d.clock.advance(1)
        assert "осталось 10 секунд" in speech.text
        await d.clock.advance(10)
        assert "время вышло" in speech.text
        assert (await d.state()).speaker == 1


async def test_a_paused_timer_keeps_its_time() -> None:
    async with desk() as d:
        await d.to_day_one()
        await d.clock.advance(20)
        await d.press(RU.text("judge-btn-pause"))
        await d.clock.advance(600)
        await d.press(RU.text("judge-btn-resume"))
        speech = [m for m in d.chats.of(GROUP) if "Слово игроку №1" in m.versions[0]][-1]
        await d.clock.advance(39)
        assert "время вышло" not in speech.text
        await d.clock.advance(1)
        assert "время вышло" in speech.text


async def test_undo_corrects_both_the_judge_and_the_table() -> None:
    async with desk() as d:
        await d.to_day_one()
        await d.say("/foul 3 4.1.2")
        await d.press(RU.text("judge-btn-undo"))
        assert (await d.state()).seat(3).fouls == []
        assert any("Поправка судьи" in t for t in d.chats.texts(GROUP)[-2:])


async def test_a_second_new_over_a_live_game_is_asked_first() -> None:
    async with desk() as d:
        await d.to_day_one()
        game = (await d.service.current(HOME)).game_id  # type: ignore[union-attr]
        assert await d.say("/new") == [RU.text("console-new-confirm", game=game)]
        assert (await d.service.current(HOME)).game_id == game  # type: ignore[union-attr]
        await d.say("/new")
        assert (await d.service.current(HOME)).game_id != game  # type: ignore[union-attr]
        assert (await d.state()).phase is Phase.SETUP


async def test_a_take_over_moves_the_panel_and_tells_the_old_judge() -> None:
    async with desk() as d:
        await d.to_day_one()
        old_panel = d.panel()
        replies = await d.judge.take_over(HOME, "fk:2", "Владелец")
        assert [r.text for r in replies] == []
        current = await d.service.current(HOME)
        assert current is not None and current.judge == "fk:2"
        assert old_panel.buttons is None  # the old panel stopped working
        assert any("теперь судит Владелец" in t for t in d.chats.texts(JUDGE))
        assert any("теперь ведёт судья Владелец" in t for t in d.chats.texts(HOME))


# --- a countdown whose announcement leaves late ------------------------------------------------------

def hold_group(d: Desk) -> Callable[[bool], None]:
    """The table's chat refuses every send (a long flood limit, Telegram down) until released.
    While it is held the fake clock does not wait for the outbox to settle after each timer (its
    retries of the group go on until the release)."""
    transport = d.port.outbox.transport
    deliver = transport.deliver
    settle = d.clock.settle
    held = [True]

    async def holding(row: OutboxRow) -> int | None:
        if held[0] and row.chat == GROUP:
            raise Unreachable("502 Bad Gateway")
        return await deliver(row)

    def hold(on: bool) -> None:
        held[0] = on
        d.clock.settle = None if on else settle

    transport.deliver = holding  # type: ignore[method-assign]
    hold(True)
    return hold


async def drained(store: Store, chat: str) -> None:
    """Until the outbox's background retry has sent everything queued for ``chat``."""
    for _ in range(500):
        if not await store.pending(chat):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{chat}: the outbox never drained")


def announcement(d: Desk, seat: int) -> Message:
    return [m for m in d.chats.of(GROUP) if f"Слово игроку №{seat}" in m.versions[0]][-1]


async def test_a_countdown_that_ran_out_before_its_announcement_left_is_shown_ended() -> None:
    """F24 §4.3.1: 60 s. The table's announcement of #2's minute is held in the outbox past its
    deadline (a long 429, the network): once it is out it is edited to «время вышло» at once —
    it showed «60 секунд» for ever. The timer still moves nothing."""
    async with desk() as d:
        await d.to_day_one()
        hold = hold_group(d)
        await d.press(RU.text("judge-btn-next"))  # #2's minute begins; its announcement waits
        assert not [m for m in d.chats.of(GROUP) if "Слово игроку №2" in m.text]
        await d.clock.advance(61)
        hold(False)
        await d.port.outbox.flush(GROUP)
        await drained(d.service.store, GROUP)
        assert "время вышло" in announcement(d, 2).text
        assert (await d.state()).speaker == 2


async def test_a_countdown_that_ran_out_while_the_bot_was_down_is_shown_ended() -> None:
    """The bot dies with #2's announcement still in the outbox and comes back after its minute:
    the announcement goes out and is edited to «время вышло» (its deadline is stored)."""
    async with desk() as d:
        await d.to_day_one()
        hold_group(d)
        await d.press(RU.text("judge-btn-next"))
        await d.port.outbox.close()  # the process dies with its timers
        d.clock.cancel_all()
        await d.clock.advance(300)
        store = d.service.store
        port = FakeJudgePort(d.chats, d.clock, lambda: store, group=GROUP)
        service = Service(store)
        judge = JudgeController(lambda: service, port, ChatLocks())
        await judge.rearm()
        await d.clock.advance(0)  # the passed deadline fires at once
        await port.outbox.drain_all()
        assert "время вышло" in announcement(d, 2).text


# --- an internal error: said, and the game stays as stored ---------------------------------------------

def disk_full(store: Store) -> Callable[[], None]:
    """The store's writes fail as on a full disk (SQLITE_FULL) until undone."""
    saved = {name: getattr(store, name) for name in ("append_many", "enqueue", "set_message")}

    async def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    for name in saved:
        setattr(store, name, full)
    return lambda: [setattr(store, name, method) for name, method in saved.items()] and None


async def test_a_press_that_cannot_be_stored_is_answered_not_saved() -> None:
    """A full disk under «Далее ▶»: the judge's press is answered "not saved, try again" (it was
    only logged, and the press spun), the game is as stored, and the same press works once the
    disk has room."""
    async with desk() as d:
        await d.to_day_one()
        events = await d.service.events(HOME)
        room = disk_full(d.service.store)
        failed = await d.press(RU.text("judge-btn-next"))
        assert failed.answers == [(RU.text("error-not-saved"), True)]
        room()
        assert await d.service.events(HOME) == events and (await d.state()).speaker == 1
        again = await d.press(RU.text("judge-btn-next"))
        assert again.answered and (await d.state()).speaker == 2


async def test_a_typed_command_that_cannot_be_stored_is_answered_not_saved() -> None:
    async with desk() as d:
        await d.to_day_one()
        room = disk_full(d.service.store)
        assert await d.say("/foul 3") == [RU.text("error-not-saved")]
        room()
        assert (await d.state()).seat(3).fouls == []
        await d.say("/foul 3")
        assert len((await d.state()).seat(3).fouls) == 1


async def test_an_action_stored_but_not_shown_says_so() -> None:
    """The event is stored, then showing it fails (a bug in the panel, the platform down): the
    press was answered when the action was stored, and the judge is told in his chat that it is
    saved but its message could not be sent; the game goes on from there."""
    async with desk() as d:
        await d.to_day_one()
        edit, post = d.port.edit_panel, d.port.post_panel

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the panel cannot be drawn")

        d.port.edit_panel = d.port.post_panel = broken  # type: ignore[method-assign]
        pressed = await d.press(RU.text("judge-btn-next"))
        assert pressed.answers[0] == (None, False)  # answered once stored
        assert (await d.state()).speaker == 2
        assert RU.text("error-saved-not-sent") in d.chats.texts(HOME)
        d.port.edit_panel, d.port.post_panel = edit, post  # type: ignore[method-assign]
        await d.say("/status")  # the panel afresh, as the message says
        await d.press(RU.text("judge-btn-next"))
        assert (await d.state()).speaker == 3
