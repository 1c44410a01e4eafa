"""The speech timer on Discord: a live countdown under the channel's announcement and on the panel.

F24 §4.3.1: a speech is 60 s. The line carries Discord's relative timestamp ``<t:…:R>``, which
every client counts down by itself; the bot edits the line at 10 s left and at the end, pauses
and resumes it from the panel, stops it when the judge moves on, and re-arms it after a restart.
The timer never moves the game on (judge mode). Here a timer second lasts 20 ms."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.service import Service
from storage import Store
from support.discord_table import TABLE_ID, DiscordTable, FakeDiscord, FakeMessage, table, wait_for

SCALE = 0.02  # real seconds per timer second: a 60 s speech runs 1.2 s
COUNTDOWN = re.compile(r"Конец <t:([0-9]+):R>\.")


async def day_one(t: DiscordTable) -> FakeMessage:
    """Setup, night 0, the morning of day 1: #1's speech begins; its channel message."""
    await t.slash("new")
    await t.slash("roles", roles="D2 M5 M7 S8")
    await t.slash("start")
    await t.slash("next")
    message = t.fake.in_channel(TABLE_ID)[-1]
    assert "Слово игроку №1 — 60 секунд." in message.now.content
    return message


def history(message: FakeMessage) -> list[str]:
    return [v.content for v in message.versions]


async def test_a_speech_counts_down_live_and_is_edited_at_ten_seconds_and_at_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(tmp_path / "db.sqlite3", monkeypatch, timer_scale=SCALE) as t:
        message = await day_one(t)
        first = message.now.content
        assert "⏱ Речь игрока №1 — 60 секунд." in first
        assert COUNTDOWN.search(first)  # the live countdown to the deadline
        assert COUNTDOWN.search(t.panel().text)
        await wait_for(lambda: "время вышло" in message.now.content and "время вышло" in t.panel().text,
                       what="the end of the speech, in the channel and on the panel")
        texts = history(message)
        assert any("осталось 10 секунд" in x and COUNTDOWN.search(x) for x in texts)
        assert "⏹ Речь игрока №1: время вышло." in texts[-1]
        assert not COUNTDOWN.search(texts[-1])  # no countdown left standing
        assert "время вышло" in t.panel().text and not t.panel().button("⏸ Пауза")
        assert (await t.state()).speaker == 1  # the timer never moves the game on


async def test_pause_resume_and_an_early_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(tmp_path / "db.sqlite3", monkeypatch, timer_scale=SCALE) as t:
        message = await day_one(t)
        await t.press("⏸ Пауза")
        assert "⏸ Речь игрока №1: пауза, осталось" in message.now.content
        assert not COUNTDOWN.search(message.now.content)
        versions = len(message.versions)
        await asyncio.sleep(60 * SCALE * 1.5)  # paused: no edit comes
        assert len(message.versions) == versions
        await t.press("▶ Продолжить")
        assert "продолжается, осталось" in message.now.content and COUNTDOWN.search(message.now.content)
        await t.press("Далее ▶")  # the judge ends the speech early
        assert "⏹ Речь игрока №1: окончено." in message.now.content
        following = t.fake.in_channel(TABLE_ID)[-1]
        assert "Слово игроку №2" in following.now.content and COUNTDOWN.search(following.now.content)


async def test_a_running_timer_is_rearmed_after_a_restart(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    store = await Store.open(db)
    try:
        async with table(db, monkeypatch, service=Service(store), fake=fake, timer_scale=5.0) as t:
            message = await day_one(t)  # a 60 s speech that would last 5 minutes
        assert "время вышло" not in message.now.content
        # the bot comes back; the deadline has passed meanwhile: the end is shown at once
        timer = await Service(store).timer(1)
        assert timer is not None
        timer["deadline"] = 0.0
        await store.set_timer(1, timer)
        async with table(db, monkeypatch, service=Service(store), fake=fake, timer_scale=5.0):
            await wait_for(lambda: "время вышло" in message.now.content, what="the re-armed timer")
    finally:
        await store.close()


def line_of(t: DiscordTable, title: str) -> FakeMessage:
    """The channel's announcement that carries the countdown of ``title``."""
    found = [m for m in t.fake.in_channel(TABLE_ID) if f"⏱ {title} —" in m.versions[0].content]
    assert found, t.public()[-3:]
    return found[-1]


async def test_every_night_step_is_timed_paused_and_resumed(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Night 0: the meeting (F24 §4.2.1) and the Sheriff's look (F24 §4.2.3); night 1: the
    shooting, the checks (F24 §4.5.6–4.5.7), the best move (F24 §4.5.9): each counts down live
    under the channel's announcement, pauses and resumes from the panel, and is shown ended when
    the judge moves on (timer seconds last 1000 s here: nothing ends by itself)."""
    async with table(tmp_path / "db.sqlite3", monkeypatch, timer_scale=1000.0) as t:
        await t.slash("new")
        await t.slash("roles", roles="D2 M5 M7 S8")
        await t.slash("start")

        async def pause_and_resume(message: FakeMessage, title: str) -> None:
            assert COUNTDOWN.search(message.now.content) and COUNTDOWN.search(t.panel().text)
            await t.press("⏸ Пауза")
            assert f"⏸ {title}: пауза, осталось" in message.now.content
            assert not COUNTDOWN.search(message.now.content)
            await t.press("▶ Продолжить")
            assert f"⏱ {title}:" in message.now.content and COUNTDOWN.search(message.now.content)

        night0 = line_of(t, "Договорка")
        await pause_and_resume(night0, "Договорка")
        await t.press("Шериф смотрит ▶")
        assert "⏱ Шериф осматривает стол — 20 секунд." in night0.now.content
        await pause_and_resume(night0, "Шериф осматривает стол")
        await t.slash("next")
        assert "⏹ Шериф осматривает стол: окончено." in night0.now.content
        for _ in range(10):
            await t.slash("next")
        for title, command, options in (("Охота мафии", "kill", {"seat": 3}),
                                        ("Проверка Дона", "don", {"seat": 8}),
                                        ("Проверка Шерифа", "sheriff", {"seat": 2}),
                                        ("Лучший ход игрока №3", "bestmove", {"seats": "2 5 7"})):
            message = line_of(t, title)
            await pause_and_resume(message, title)
            await t.slash(command, **options)
            assert f"⏹ {title}: окончено." in message.now.content
            assert not COUNTDOWN.search(message.now.content)
        assert (await t.state()).speaker == 3  # his last word: the judge moved every step on


async def test_the_timer_is_also_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/timer shows what is left; /timer action:pause|resume|next do what the panel's buttons do."""
    async with table(tmp_path / "db.sqlite3", monkeypatch, timer_scale=1000.0) as t:
        await t.slash("new")
        await t.slash("start")
        assert "⏱ Договорка" in await t.slash("timer")
        await t.slash("timer", action="pause")
        message = line_of(t, "Договорка")
        assert "⏸ Договорка: пауза, осталось 60 секунд." in message.now.content
        await t.slash("timer", action="resume")
        await t.slash("timer", action="next")
        assert "⏱ Шериф осматривает стол — 20 секунд." in message.now.content
        assert (await t.state()).phase.value == "night_zero"
        refused = await t.slash("timer", action="next")  # the Sheriff's look is night 0's last part
        assert "нет следующей части" in refused and "⏱ Шериф осматривает стол — 20 секунд." in message.now.content
