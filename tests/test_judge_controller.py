"""Judge mode (:class:`bot.judge.controller.JudgeController`) against an in-memory platform
(:mod:`support.fakeport`): fast, no HTTP, time moved by the test (no wall clock).

The same controller serves Telegram and Discord (tests/test_telegram_*.py and
tests/test_discord_*.py drive it through the real clients); here it is pinned down alone: who
reads what, presses that change nothing, a press answered only once committed, the speech timer,
undo, a take over."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

import pytest

import rules
from bot.i18n import catalog
from bot.judge import panel as pn
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


def counting_game_reads(d: Desk) -> list[int]:
    """The game ids whose stored row is read from now on (``store.game``)."""
    reads: list[int] = []
    store = d.service.store
    read = store.game

    async def game(game_id: int):  # noqa: ANN202
        reads.append(game_id)
        return await read(game_id)

    store.game = game  # type: ignore[method-assign]
    return reads


async def test_the_timer_s_ticks_take_the_home_from_memory_and_follow_a_moved_game() -> None:
    """Each tick of a timer armed by the judge's action knows the game's home chat: it reads no
    game row (one read of the store per tick, with 1,000 tables timing). The warning and the end
    come once each. A game taken over into the new judge's own chat since: its next tick finds
    it there (one read of the row) — its timer goes on, the new judge's panel shows it."""
    async with desk() as d:
        await d.to_day_one()
        reads = counting_game_reads(d)
        speech = [m for m in d.chats.of(GROUP) if "Слово игроку №1" in m.versions[0]][-1]
        await d.clock.advance(50)
        assert "осталось 10 секунд" in speech.text
        await d.clock.advance(10)
        assert "время вышло" in speech.text
        assert reads == []
        assert [v.rsplit("\n", 1)[-1] for v in speech.versions] == [
            "⏱ Речь игрока №1 — 60 секунд.", "⏱ Речь игрока №1: осталось 10 секунд.",
            "⏹ Речь игрока №1: время вышло."]

        await d.say("/next")  # #2's speech
        game = (await d.service.current(HOME)).game_id  # type: ignore[union-attr]
        await d.judge.take_over(HOME, "fk:2", "Владелец", home="fk:2")
        moved = await d.service.current("fk:2")
        assert moved is not None and moved.game_id == game
        speech = [m for m in d.chats.of(GROUP) if "Слово игроку №2" in m.versions[0]][-1]
        await d.clock.advance(50)
        assert speech.text.endswith("⏱ Речь игрока №2: осталось 10 секунд.")
        assert reads == [game]
        panel = [m for m in d.chats.of("fk:2") if m.buttons][-1]
        assert "Речь игрока №2: осталось 10 секунд" in panel.text
        await d.clock.advance(10)
        assert speech.text.endswith("⏹ Речь игрока №2: время вышло.")
        assert reads == [game]  # once found, the new home is remembered
        assert await d.service.timer(game) is not None


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


async def test_a_new_over_a_game_just_made_replaces_it_at_once() -> None:
    """A game in setup with nothing logged and no names loses nothing: /new fsm2024 replaces it
    without asking (a preset in one step); once a name is in, /new asks first."""
    async with desk() as d:
        await d.say("/new")
        game = (await d.service.current(HOME)).game_id  # type: ignore[union-attr]
        replies = await d.say("/new fsm2024")
        assert RU.text("console-new-confirm", game=game) not in replies
        current = await d.service.current(HOME)
        assert current is not None and current.game_id != game
        assert current.state.config.preset == "fsm2024"
        await d.say("/name 2 Вера")
        assert await d.say("/new") == [RU.text("console-new-confirm", game=current.game_id)]


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
        # the game's home is the old judge's own chat here: he is told once, not again as the table
        assert [t for t in d.chats.texts(HOME) if "теперь" in t] == [
            "Игру №1 теперь судит Владелец (администратор группы). "
            "Панель этой игры у вас больше не работает."]


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
def timed(d: Desk, title: str) -> Message:
    """The table's announcement whose countdown times ``title``."""
    found = [m for m in d.chats.of(GROUP) if f"⏱ {title}" in m.versions[0]]
    assert found, d.chats.texts(GROUP)[-3:]
    return found[-1]


async def test_every_night_step_is_timed_paused_and_resumed_and_moves_nothing() -> None:
    """Night 0: the meeting (F24 §4.2.1, 60 s), then the Sheriff's look the judge starts (F24
    §4.2.3, 20 s); night 1: the shooting (20 s), the Don's and the Sheriff's checks (F24
    §4.5.6–4.5.7, 10 s), the best move (F24 §4.5.9, 20 s). Each shows on the panel and under the
    table's announcement, pauses and resumes, and ends on its deadline; the judge moves on."""
    async with desk() as d:
        await d.say("/new")
        await d.say("/roles D2 M5 M7 S8")
        await d.say("/start")
        meeting = timed(d, "Договорка")
        assert meeting.text.endswith("⏱ Договорка — 60 секунд.")
        await d.clock.advance(50)
        assert meeting.text.endswith("⏱ Договорка: осталось 10 секунд.")
        assert "Договорка: осталось 10 секунд" in d.panel().text
        await d.press(RU.text("judge-btn-next-part", kind="sheriff_look"))
        assert meeting.text.endswith("⏱ Шериф осматривает стол — 20 секунд.")
        await d.press(RU.text("judge-btn-pause"))
        assert "пауза, осталось 20 секунд" in meeting.text
        await d.clock.advance(600)
        assert "время вышло" not in meeting.text
        await d.press(RU.text("judge-btn-resume"))
        await d.clock.advance(20)
        assert meeting.text.endswith("⏹ Шериф осматривает стол: время вышло.")
        assert RU.text("judge-btn-next-part", kind="sheriff_look") not in d.panel().labels()
        assert (await d.state()).phase is Phase.NIGHT_ZERO  # the timer moved nothing
        await d.say("/next")
        for _ in range(10):
            await d.say("/next")
        hunt = timed(d, "Охота мафии")
        assert hunt.text.endswith("⏱ Охота мафии — 20 секунд.")
        await d.clock.advance(5)
        await d.press(RU.text("judge-btn-pause"))
        await d.clock.advance(100)
        assert "пауза, осталось 15 секунд" in hunt.text
        await d.press(RU.text("judge-btn-resume"))
        await d.clock.advance(15)
        assert hunt.text.endswith("⏹ Охота мафии: время вышло.")
        assert rules.expected(await d.state()) == rules.Shooting(night=1, seconds=20)
        await d.say("/kill 3")
        don = timed(d, "Проверка Дона")
        assert don.text.endswith("⏱ Проверка Дона — 10 секунд.")
        assert RU.text("judge-btn-pause") in d.panel().labels()
        await d.clock.advance(10)  # a 10 s step has no warning: it ends
        assert don.versions[-2:] == [don.versions[0], don.versions[0].replace(
            "⏱ Проверка Дона — 10 секунд.", "⏹ Проверка Дона: время вышло.")]
        await d.say("/next")
        sheriff = timed(d, "Проверка Шерифа")
        await d.press(RU.text("judge-btn-pause"))
        await d.clock.advance(60)
        await d.press(RU.text("judge-btn-resume"))
        await d.clock.advance(9)
        assert "время вышло" not in sheriff.text
        await d.say("/next")
        assert sheriff.text.endswith("⏹ Проверка Шерифа: окончено.")  # ended by the judge
        best = timed(d, "Лучший ход игрока №3")
        assert best.text.endswith("⏱ Лучший ход игрока №3 — 20 секунд.")
        await d.clock.advance(20)
        assert best.text.endswith("⏹ Лучший ход игрока №3: время вышло.")
        assert isinstance(rules.expected(await d.state()), rules.BestMoveStep)
        await d.say("/next")
        assert (await d.state()).speaker == 3  # his last word (F24 §4.5.9)


async def test_fsm2024s_night_zero_goes_on_with_the_free_seating() -> None:
    """S24 §4.2.3: no Sheriff's look; the free seating, 40 s."""
    async with desk() as d:
        await d.say("/new fsm2024")
        await d.say("/start")
        meeting = timed(d, "Договорка")
        await d.press(RU.text("judge-btn-next-part", kind="free_seating"))
        assert meeting.text.endswith("⏱ Свободная посадка — 40 секунд.")
        assert not [label for label in d.panel().labels() if "Шериф" in label]


def panel_edits(d: Desk) -> list[tuple[float, str]]:
    """Every edit of the judge's panel from now on: (the fake clock's time, the panel's text)."""
    edits: list[tuple[float, str]] = []
    edit = d.port.edit_panel

    async def recorded(target, message_id, panel, title, handle=None):  # noqa: ANN001, ANN202
        edits.append((d.clock.now, panel.text))
        return await edit(target, message_id, panel, title, handle)

    d.port.edit_panel = recorded  # type: ignore[method-assign]
    return edits


async def test_the_panels_countdown_stays_within_the_stated_rate() -> None:
    """A platform without a live countdown (Telegram) shows the judge the seconds left, rounded
    to 5, and the end as a clock time, edited every 5 s (bot.judge.timer.COUNTDOWN_STEP: 0.2
    edits a second, against Telegram's ~1 a second in one chat) and never within 1 s
    (COUNTDOWN_GAP) of another edit of the panel — the judge's own included."""
    async with desk() as d:
        d.port.countdown_step = 5
        edits = panel_edits(d)
        await d.to_day_one()
        start = d.clock.now
        until = time.strftime("%H:%M:%S", time.gmtime(start + 60))
        assert f"⏱ Речь игрока №1: осталось 60 секунд, до {until}." in d.panel().text
        actions = [start]
        await d.clock.advance(14.5)
        await d.say("/foul 3")  # the judge's own edit, half a second before the 45 s mark
        actions.append(d.clock.now)
        await d.clock.advance(60)
        by_timer = [(at, text) for at, text in edits if at not in actions]
        lefts = [int(m[1]) for _, text in by_timer
                 if (m := re.search(r"осталось (\d+) секунд\w*, до " + until, text))]
        assert lefts == [55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5], lefts
        assert "⏹ Речь игрока №1: время вышло." in by_timer[-1][1]
        assert len(by_timer) == 12  # one a step, and the end: never one a second
        times = sorted(at for at, _ in edits)
        for at, _ in by_timer:
            before = [t for t in times if t < at]
            assert not before or at - before[-1] >= 1.0, (at, before[-1])
        assert [at - start for at, text in by_timer if "осталось 45" in text] == [15.5]


async def test_a_timer_tick_renders_only_the_timer_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: the panel is rendered once per revision; a timer's tick (its countdown, 10 s
    left) changes only the timer's line of the panel as rendered, and the next action renders
    it anew."""
    async with desk() as d:
        d.port.countdown_step = 5
        edits = panel_edits(d)
        await d.to_day_one()
        before = d.panel().text
        assert "осталось 60 секунд" in before
        edits.clear()
        renders: list[int] = []
        render = pn.render_panel

        def counted(*args: Any, **kwargs: Any) -> pn.Panel:
            renders.append(args[2])
            return render(*args, **kwargs)

        monkeypatch.setattr(pn, "render_panel", counted)
        await d.clock.advance(12)  # 55 and 50 s left
        assert [text for _, text in edits] == [
            before.replace("осталось 60 секунд", f"осталось {left} секунд") for left in (55, 50)]
        assert renders == []
        await d.say("/foul 3")
        assert len(renders) == 1 and "№3" in d.panel().text.split("\n\n")[0]
        await d.clock.advance(41)  # 10 s left: the stage's edit
        assert "осталось 10 секунд" in d.panel().text and len(renders) == 1


async def test_a_busy_bot_skips_the_countdown_but_not_the_warning_or_the_end() -> None:
    """The countdown's edits are a convenience: while the bot's sending budget is busy
    (port.has_room: the countdowns of many tables at once) each is skipped and the next comes a
    step later; the 10-seconds-left warning and the end are edited as always, on the panel and
    under the table's announcement, and the panel's clock time of the end never changes. A
    skipped countdown costs no read of the store."""
    async with desk() as d:
        d.port.countdown_step = 5
        edits = panel_edits(d)
        await d.to_day_one()
        start = d.clock.now
        until = time.strftime("%H:%M:%S", time.gmtime(start + 60))
        line = timed(d, "Речь игрока №1")
        edits.clear()  # the judge's own
        d.port.room = False
        reads: list[int] = []
        game = d.service.store.game

        async def counted(game_id: int):  # noqa: ANN202
            reads.append(game_id)
            return await game(game_id)

        d.service.store.game = counted  # type: ignore[method-assign]
        await d.clock.advance(22)
        assert edits == []  # 55, 50, 45, 40 s left: skipped
        assert reads == []  # before any read of the store (many tables timing at once)
        d.service.store.game = game  # type: ignore[method-assign]
        d.port.room = True
        await d.clock.advance(5)
        assert [(at - start, re.search(r"осталось (\d+)", text)[1]) for at, text in edits] == [
            (25.0, "35")]
        d.port.room = False
        await d.clock.advance(60)
        lefts = [m[1] for _, text in edits if (m := re.search(r"осталось (\d+) секунд\w*, до " + until, text))]
        assert lefts == ["35", "10"], lefts  # the warning's edit shows its clock time too
        assert "⏹ Речь игрока №1: время вышло." in edits[-1][1] and len(edits) == 3
        assert "⏹ Речь игрока №1: время вышло." in line.text
        assert [v.rsplit("\n", 1)[-1] for v in line.versions] == [
            "⏱ Речь игрока №1 — 60 секунд.", "⏱ Речь игрока №1: осталось 10 секунд.",
            "⏹ Речь игрока №1: время вышло."]


async def test_log_all_lists_every_action_with_who_and_when_and_what_was_undone_by_whom() -> None:
    """The audit trail: each logged action as the command that records it, its author and
    time; an undone action names the undo that took it back and who gave it, across a take
    over. Anyone but the judge gets the public /log (the trail names checks and shots)."""
    async with desk() as d:
        await d.to_day_one()  # /roles, /start, /next: actions 1–3
        await d.say("/foul 3 4.1.2")  # 4
        await d.press(RU.text("judge-btn-undo"))  # 5: takes 4 back
        await d.judge.take_over(HOME, "fk:2", "Владелец")
        await d.say("/foul 5", user="fk:2")  # 6
        await d.say("/undo", user="fk:2")  # 7: takes 6 back
        await d.say("/nominate 4", user="fk:2")  # 8
        [text] = await d.say("/log all", user="fk:2")
        clock = r"\d\d:\d\d:\d\d"
        lines = text.splitlines()
        assert lines[0] == RU.text("judge-log-title", game=(await d.service.current(HOME)).game_id)
        expected = [
            r"1\. T · fk:1 · /roles D2 M5 M7 S8", r"2\. T · fk:1 · /start", r"3\. T · fk:1 · /next",
            r"4\. T · fk:1 · /foul 3 4\.1\.2 — отменено действием 5 \(fk:1, T\)",
            r"5\. T · fk:1 · ↩ отмена действия 4",
            r"6\. T · fk:2 · /foul 5 — отменено действием 7 \(fk:2, T\)",
            r"7\. T · fk:2 · ↩ отмена действия 6", r"8\. T · fk:2 · /nominate 1 4",
        ]
        assert len(lines) == 1 + len(expected)
        for line, pattern in zip(lines[1:], expected):
            assert re.fullmatch(pattern.replace("T", clock), line), (line, pattern)
        public = await d.say("/log all", user="fk:9")
        assert "/foul" not in public[0] and "fk:" not in public[0]
        before = len(d.chats.of(HOME))
        await d.press(RU.text("judge-btn-log"), user="fk:2", message=d.panel())
        posted = d.chats.of(HOME)[before:]
        assert any(m.text == text for m in posted)


async def test_a_correction_three_actions_back_changes_what_followed_and_is_refused_if_it_breaks_one() -> None:
    """#5 has two fouls; the third went to #3 by mistake and three actions followed. /fix moves
    it: #5 has three fouls and is silent in his next speech (seed 4.4) — the judge reads what it
    corrected and what changed, the table a short correction of what it had been told. A
    correction that would make a later action impossible is refused, naming the first one;
    nothing changes."""
    async with desk() as d:
        await d.to_day_one()  # 1 /roles, 2 /start, 3 /next
        await d.say("/foul 5")  # 4
        await d.say("/foul 5")  # 5
        await d.say("/foul 3 4.1.2")  # 6: meant for #5
        await d.say("/nominate 4")  # 7
        await d.say("/next")  # 8
        await d.say("/next")  # 9: #3 speaks
        judge_before, group_before = len(d.chats.texts(HOME)), len(d.chats.texts(GROUP))
        assert await d.say("/fix 6 /foul 5 4.1.2") == []
        state = await d.state()
        assert (len(state.seat(5).fouls), len(state.seat(3).fouls)) == (3, 0)
        assert state.seat(5).silence_pending and state.nominees == [4] and state.speaker == 3
        told = "\n".join(d.chats.texts(HOME)[judge_before:])
        assert "✎ Исправлено действие 6: было «/foul 3 4.1.2», стало «/foul 5 4.1.2»." in told
        assert "+ Игрок №5 получает третий фол: лишается слова в ближайшую минуту" in told
        assert "− Игроку №3 — фол: стук по столу (4.1.3)" not in told  # the reason is 4.1.2's
        assert re.search(r"− Игроку №3 — фол: .*\(4\.1\.2\)\. Теперь 1 фол\.", told)
        [correction] = [t for t in d.chats.texts(GROUP)[group_before:] if "Поправка судьи" in t]
        assert "+ Игрок №5 получает третий фол" in correction
        assert correction.endswith("Сейчас: речь игрока №3.") and "/foul" not in correction
        await d.say("/next")  # 11: #4
        await d.say("/next")  # 12: #5, silenced
        assert (await d.state()).seconds == 0
        log = len(await d.service.events(HOME))
        [refused] = await d.say("/fix 4 /dq 5")  # #5 gone at 4: the foul at 5 could not be given
        assert refused.startswith("Исправление не принято: с ним было бы невозможно действие 5 "
                                  "«/foul 5».")
        assert len(await d.service.events(HOME)) == log and (await d.state()).speaker == 5
        [refused] = await d.say("/fix 7 /warn 4")
        assert refused == RU.text("error-not_fixable", seq=7, why="kind")
        [trail] = await d.say("/log all")
        assert re.search(r"\n6\. \S+ · fk:1 · /foul 3 4\.1\.2 — исправлено действием 10 \(fk:1, \S+\)\n", trail)
        assert re.search(r"\n10\. \S+ · fk:1 · ✎ исправление действия 6: /foul 5 4\.1\.2\n", trail)
        await d.say("/undo 3")  # two speeches and the correction: undone like any action
        state = await d.state()
        assert (len(state.seat(5).fouls), len(state.seat(3).fouls), state.speaker) == (2, 1, 3)


# --- a countdown whose announcement leaves late ------------------------------------------------------

def hold_group(d: Desk) -> Callable[[bool], None]:
    """The table's chat refuses every send (a long flood limit, Telegram down) until released.
    While it is held the fake clock does not wait for the outbox to settle after each timer (its
    retries of the group go on until the release)."""
    transport = d.port.outbox.transport
    deliver = transport.deliver
    settle = d.clock.settle
    held = [True]

    async def holding(row: OutboxRow, made: Any = None) -> int | None:
        if held[0] and row.chat == GROUP:
            raise Unreachable("502 Bad Gateway")
        return await deliver(row, made)

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


def test_a_timer_is_stored_with_every_field_and_read_back_the_same() -> None:
    """What a restart re-arms from: the stored timer (``Timer.to_dict``, a shallow copy since
    issue 16) holds every field as :func:`dataclasses.asdict` gives it, and reads back equal."""
    import dataclasses

    from bot.judge.timer import WARNED, Timer

    timer = Timer(key="1:speech:1", kind="speech", seat=1, seconds=60, scale=0.5, stage=WARNED,
                  deadline=1000.5, left=None, run_from=12.5, group_chat="fk:-50", group_message=7,
                  group_base="Слово игроку №1", group_outbox=3, part=1)
    stored = timer.to_dict()
    assert stored == dataclasses.asdict(timer)
    stored["stage"] = "over"  # the caller's own copy
    assert timer.stage == WARNED
    assert Timer.from_dict({**timer.to_dict(), "unknown": 1}) == timer
