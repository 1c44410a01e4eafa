"""Judge mode (:class:`bot.judge.controller.JudgeController`) against an in-memory platform
(:mod:`support.fakeport`): fast, no HTTP, time moved by the test (no wall clock).

The same controller serves Telegram and Discord (tests/test_telegram_*.py and
tests/test_discord_*.py drive it through the real clients); here it is pinned down alone: who
reads what, presses that change nothing, a press answered only once committed, the speech timer,
undo, a take over."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import rules
from bot.i18n import catalog
from bot.judge.controller import JudgeController
from bot.locks import ChatLocks
from bot.service import Service
from rules import Phase
from storage import Store
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


async def test_the_judges_points_go_to_the_game_just_over() -> None:
    """After the result, ``/extra`` and ``/badplay`` (F24 §8.4, §8.5) are the finished game's,
    not a new game's; only its judge gives them; a limit is refused and changes nothing."""
    async with desk() as d:
        await d.to_day_one()
        await d.say("/ppk 5 4.3.1")  # black's oath: red wins (seed 4.3.1)
        over = await d.service.current(HOME)
        assert over is not None and over.state.phase is Phase.GAME_OVER
        await d.say("/extra 1 0.5")
        assert await d.say("/extra 3 0.4", user="fk:99")  # not the judge: refused
        refusal = await d.say("/extra 4 1.2")
        assert refusal and "0.3–1" in refusal[0]
        now = await d.service.current(HOME)
        assert now is not None and now.game_id == over.game_id
        table = rules.game_points(now.state)
        assert table is not None and table[1].extra == rules.points.parse_points("0.5")
        assert table[3].extra == 0 and table[4].extra == 0
        assert "+0.5" in "\n".join(d.chats.texts(HOME))
        assert "№1 — 1.8: победа +1, от Судьи +0.5" in (await d.say("/points"))[0]
