"""The speech timer of judge mode and restarts.

The timer runs the rules' length of the speech (F24 §4.3.1: 60 s; §4.4.13: the last word, 60 s;
§4.4.12: 30 s before a revote; seed 4.4: none for a 0 s silence). The bot edits the group's line at
the start, 10 s before the end and at the end — never each second; the judge's panel shows the end
as a clock time and the seconds left, edited every 5 timer seconds (bot.judge.timer.COUNTDOWN_STEP);
the judge may pause it; it never moves the game on. Its deadline is stored with the
game: a new Application over the same SQLite re-arms it and edits the same panel message.
Timer seconds run fast here (``telegram_timer_scale``)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.judge.timer import clock_time
from fakebot import FakeBotAPI, FakeMessage
from rules import Phase
from support import RU_SECRETS
from support.telegram_table import Table, bot_running, make_world, table

SCALE = 0.02  # 60 timer seconds = 1.2 s


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def start_day_one(t: Table) -> None:
    await t.say("/new")
    await t.say("/link", chat=t.group)
    await t.say("/start")
    await t.say("/next")


def timer_message(t: Table, seat: int) -> FakeMessage:
    """The group's announcement that carries the timer of ``seat``'s speech."""
    found = [m for m in t.fake.sent(t.group) if f"Речь игрока №{seat}" in (m.texts[0] or "")]
    assert found, t.public()
    return found[-1]


async def test_the_timer_edits_at_start_ten_seconds_and_end(fake: FakeBotAPI, tmp_path: Path) -> None:
    async with table(fake, tmp_path / "db.sqlite3", scale=SCALE) as t:
        await start_day_one(t)
        message = timer_message(t, 1)
        assert message.texts[0].endswith("⏱ Речь игрока №1 — 60 секунд.")
        deadline = (await t.service.timer((await t.now()).game_id) or {})["deadline"]
        await fake.wait_for(lambda: "время вышло" in (message.text or "")
                            and "время вышло" in (t.panel().text or ""), timeout=5)
        lines = [x.rsplit("\n", 1)[-1] for x in message.texts]
        assert lines == ["⏱ Речь игрока №1 — 60 секунд.", "⏱ Речь игрока №1: осталось 10 секунд.",
                         "⏹ Речь игрока №1: время вышло."]  # three versions, not sixty
        panel = t.panel()
        assert "⏹ Речь игрока №1: время вышло." in (panel.text or "")
        # the panel counts down: the seconds left in steps of 5 (a late edit skips one), the end
        # as a clock time that stays put; at most one edit per step, none each second
        shown = [re.search(r"⏱ Речь игрока №1: осталось (\d+) секунд\w*, до (\d\d:\d\d:\d\d)\.", v or "")
                 for v in panel.texts]
        lefts = [int(m[1]) for m in shown if m]
        assert lefts[0] == 60 and 10 in lefts and all(n % 5 == 0 for n in lefts), lefts
        assert lefts == sorted(set(lefts), reverse=True) and len(lefts) <= 60 // 5, lefts
        assert {m[2] for m in shown if m} == {clock_time(deadline, t.referee.zone)}
        # the timer moved nothing: #1 still speaks until the judge says next
        state = await t.state()
        assert state.phase is Phase.SPEECH and state.speaker == 1 and await t.log_length() == 2
        await t.press("Далее ▶")
        assert (await t.state()).speaker == 2
        assert timer_message(t, 2).texts[0].endswith("⏱ Речь игрока №2 — 60 секунд.")


async def test_pause_and_resume(fake: FakeBotAPI, tmp_path: Path) -> None:
    async with table(fake, tmp_path / "db.sqlite3", scale=SCALE) as t:
        await start_day_one(t)
        await t.press("⏸ Пауза")
        message = timer_message(t, 1)
        assert "пауза, осталось" in (message.text or "")
        assert t.panel().button("▶ Продолжить")
        versions = len(message.texts)
        await asyncio.sleep(90 * SCALE)  # longer than the whole speech: a paused timer is silent
        assert len(message.texts) == versions
        await t.press("▶ Продолжить")
        assert "продолжается, осталось" in (message.text or "")
        await fake.wait_for(lambda: "время вышло" in (message.text or ""), timeout=5)
        assert (await t.state()).speaker == 1


async def test_a_silenced_speech_has_no_timer(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Seed 4.4: the 3rd foul's silence is a 0 s speech; nothing to time."""
    async with table(fake, tmp_path / "db.sqlite3", scale=SCALE) as t:
        await start_day_one(t)
        for _ in range(3):
            await t.say("/foul 2")
        await t.press("Далее ▶")
        state = await t.state()
        assert state.speaker == 2 and state.seconds == 0
        last = t.fake.sent(t.group)[-1]
        assert "лишается слова" in (last.text or "") and "⏱" not in (last.text or "")
        assert await t.service.timer((await t.now()).game_id) is None


async def test_a_restart_resumes_the_game_rearms_the_timer_and_edits_the_same_panel(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    judge, group, people = make_world(fake)
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        await start_day_one(t)
        await t.press("Далее ▶")  # #2 speaks: 60 timer seconds = 3 s
        panel = t.panel()
        before = (await t.state(), await t.log_length())
        message = timer_message(t, 2)
    # the process is gone mid-speech; a new one starts over the same SQLite file
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        assert (await t.state(), await t.log_length()) == before
        await fake.wait_for(lambda: "время вышло" in (message.text or "")  # re-armed
                            and "время вышло" in (t.fake.message(judge, panel.message_id).text or ""),
                            timeout=8)
        assert "⏹ Речь игрока №2: время вышло." in (t.fake.message(judge, panel.message_id).text or "")
        await t.press("Далее ▶", message=panel)
        assert (await t.state()).speaker == 3
        assert t.panel().message_id == panel.message_id  # the same message, edited
        assert "Говорит игрок №3" in (t.fake.message(judge, panel.message_id).text or "")


async def test_a_process_dying_at_the_time_up_edit_makes_it_after_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The speech's time is up and the process dies just as it edits «время вышло» (found by
    the SIGKILL test): the edit is not lost — the new process makes it from the stored
    deadline, on the group's announcement and on the judge's panel."""
    from bot.judge.controller import JudgeController

    db = tmp_path / "db.sqlite3"
    judge, group, people = make_world(fake)
    edit = JudgeController._edit_group_timer
    died: list[str] = []

    async def dies_at_the_end(self: JudgeController, timer: Any) -> None:
        if timer.stage == "over":
            died.append(timer.key)
            raise asyncio.CancelledError()  # the process is gone here
        await edit(self, timer)

    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        await start_day_one(t)
        await t.press("Далее ▶")  # #2 speaks: 60 timer seconds = 3 s
        panel = t.panel()
        message = timer_message(t, 2)
        monkeypatch.setattr(JudgeController, "_edit_group_timer", dies_at_the_end)
        await fake.wait_for(lambda: died, timeout=8, what="the time-up edit")
    monkeypatch.setattr(JudgeController, "_edit_group_timer", edit)
    assert "время вышло" not in (message.text or "")
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        await fake.wait_for(lambda: "время вышло" in (message.text or "")
                            and "время вышло" in (t.fake.message(judge, panel.message_id).text or ""),
                            timeout=5, what="the time-up edit after the restart")
        assert (await t.state()).speaker == 2  # the timer moves nothing (F24 §4.3.1)


async def test_a_speech_ended_after_its_warning_is_shown_ended_even_if_the_process_dies(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#1's countdown says "10 seconds left" in the group; the judge ends the speech and the
    process dies right after the commit: the group's line for #1 is not left saying "10 seconds
    left" — its "ended" edit was queued with the action and is made after the restart."""
    from bot.judge.controller import JudgeController

    db = tmp_path / "db.sqlite3"
    judge, group, people = make_world(fake)
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        await start_day_one(t)
        message = timer_message(t, 1)
        await fake.wait_for(lambda: "осталось 10 секунд" in (message.text or ""), timeout=5)

        async def dies(self: JudgeController, *args: Any, **kwargs: Any) -> None:
            raise asyncio.CancelledError()  # the process is gone right after the commit

        monkeypatch.setattr(JudgeController, "_after", dies)
        await t.say("/next")
        monkeypatch.undo()
        assert "окончено" not in (message.text or "")
    async with bot_running(fake, db, scale=0.05) as (app, service):
        await fake.wait_for(lambda: (message.text or "").endswith("⏹ Речь игрока №1: окончено."),
                            timeout=5, what="#1's countdown shown ended")


def night_line(t: Table, title: str) -> FakeMessage:
    """The group's announcement that carries the countdown of ``title``."""
    found = [m for m in t.fake.sent(t.group) if f"⏱ {title} —" in (m.texts[0] or "")]
    assert found, t.public()[-3:]
    return found[-1]


async def pause_and_resume(t: Table, message: FakeMessage, title: str, seconds: str) -> None:
    """The judge pauses and resumes the step's timer from his panel (timer seconds run slowly
    here: nothing ends by itself)."""
    assert f"⏱ {title}: осталось {seconds}, до " in (t.panel().text or "")
    await t.press("⏸ Пауза")
    assert (message.text or "").endswith(f"⏸ {title}: пауза, осталось {seconds}.")
    assert f"⏸ {title}: пауза, осталось {seconds}." in (t.panel().text or "")
    await t.press("▶ Продолжить")
    resumed = "" if seconds == "10 секунд" else "продолжается, "  # 10 s left: the warning's words
    assert (message.text or "").endswith(f"⏱ {title}: {resumed}осталось {seconds}.")


async def test_every_night_step_is_timed_paused_and_resumed(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Night 0: the meeting (F24 §4.2.1) and the Sheriff's look the judge starts (F24 §4.2.3);
    night 1: the shooting, both checks (F24 §4.5.6–4.5.7), the best move (F24 §4.5.9). Each is
    under the group's announcement and on the panel, pauses, resumes, and is shown ended when the
    judge moves on; none moves the game on by itself. Nothing in the group names a role."""
    async with table(fake, tmp_path / "db.sqlite3") as t:  # timer seconds last 1000 s
        await t.say("/new")
        await t.say("/link", chat=t.group)
        await t.say("/roles D2 M5 M7 S8")
        await t.say("/start")
        night0 = night_line(t, "Договорка")
        assert night0.texts[0].endswith("⏱ Договорка — 60 секунд.")
        await pause_and_resume(t, night0, "Договорка", "60 секунд")
        await t.press("Шериф смотрит ▶")
        assert (night0.text or "").endswith("⏱ Шериф осматривает стол — 20 секунд.")
        await pause_and_resume(t, night0, "Шериф осматривает стол", "20 секунд")
        await t.press("Далее ▶ (утро)")
        assert (night0.text or "").endswith("⏹ Шериф осматривает стол: окончено.")
        for _ in range(10):  # day 1: nobody is nominated, the night falls
            await t.press("Далее ▶")
        steps = [("Охота мафии", "20 секунд", "/kill 3"), ("Проверка Дона", "10 секунд", "/don 8"),
                 ("Проверка Шерифа", "10 секунд", "/sheriff 2"),
                 ("Лучший ход игрока №3", "20 секунд", "/bestmove 2 5 7")]
        for title, seconds, command in steps:
            message = night_line(t, title)
            assert message.texts[0].endswith(f"⏱ {title} — {seconds}.")
            await pause_and_resume(t, message, title, seconds)
            await t.say(command)
            assert (message.text or "").endswith(f"⏹ {title}: окончено.")
        state = await t.state()
        assert state.phase is Phase.LAST_WORD and state.speaker == 3
        assert not [x for x in t.public() if any(s in x for s in RU_SECRETS)]


async def test_the_countdown_has_room_only_in_a_quiet_budget() -> None:
    """A countdown edit goes only if it leaves at most COUNTDOWN_SHARE of the bot's overall
    budget in use, with no flood wait (RetryAfter) holding every request back
    (bot.telegram.host.limiter). The budget here leaks over 1000 s: nothing frees itself during
    the test."""
    import datetime as dt

    from telegram.error import RetryAfter

    from bot.judge.timer import COUNTDOWN_SHARE
    from bot.telegram.host.limiter import HostRateLimiter

    limiter = HostRateLimiter(overall_max_rate=4, overall_time_period=1000, group_max_rate=0)

    async def sent() -> bool:
        return True

    async def flood() -> bool:
        raise RetryAfter(dt.timedelta(seconds=600))

    data = {"chat_id": 7}  # the judge's private chat
    assert COUNTDOWN_SHARE == 0.5 and limiter.has_room(COUNTDOWN_SHARE)
    await limiter.process_request(sent, (), {}, "editMessageText", data, None)
    assert limiter.has_room(COUNTDOWN_SHARE)  # 1 of 4 in use: one more makes half
    await limiter.process_request(sent, (), {}, "sendMessage", data, None)
    assert not limiter.has_room(COUNTDOWN_SHARE) and limiter.has_room(1.0)  # 2 of 4

    quiet = HostRateLimiter(overall_max_rate=0, group_max_rate=0)  # no overall limit set
    assert quiet.has_room(COUNTDOWN_SHARE)
    waiting = asyncio.create_task(quiet.process_request(flood, (), {}, "sendMessage", data, 1))
    for _ in range(100):
        await asyncio.sleep(0)
        if not quiet.has_room(COUNTDOWN_SHARE):
            break
    assert not quiet.has_room(COUNTDOWN_SHARE)  # Telegram said "retry after 600 s"
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert quiet.has_room(COUNTDOWN_SHARE)
