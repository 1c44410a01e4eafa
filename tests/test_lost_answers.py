"""A send the platform carried out but whose answer was lost (a dropped connection, a 502 from a
proxy, a timeout; issue 21): what the outbox's retry makes of it, measured under the fakes'
faults (:mod:`bot.outbox`'s docstring states the promise).

* **Discord**: every part of a row goes with a nonce of its own, the same at every try, which
  Discord enforces: the retry returns the first message — no copy (it was one per lost answer).
* **Telegram**: the Bot API has no such key and cannot read a chat back, so a lost answer to a
  new message costs exactly one copy — never more, and in order; a lost answer to an edit
  costs nothing (the edit again is "not modified", or sets the same text).
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from support.discord_table import TABLE_ID, DiscordTable, wait_for
from support.discord_table import table as discord_table
from support.telegram_table import Table, bot_running, make_world

LOST = 3  # answers lost in each run


# --- Discord ---------------------------------------------------------------------------------------

@pytest.fixture
async def d(tmp_path: Path) -> AsyncIterator[DiscordTable]:
    async with discord_table(tmp_path / "referee.sqlite3", timer_scale=1000.0) as running:
        running.referee.outbox.retry_delay = 0.05  # the outbox's retry after a lost answer
        yield running


async def test_discord_a_lost_answer_costs_no_copy(d: DiscordTable) -> None:
    """The game's channel loses the answers of its next three posts (each carried out): after
    the outbox's retries it holds each announcement once, in order."""
    assert "Игра №1" in await d.slash("new")
    await d.slash("roles", roles="D2 M5 M7 S8")
    def channel_posts() -> list[str]:
        return [m.text for m in d.fake.in_channel(TABLE_ID) if m.author["id"] == d.fake.bot["id"]]

    before = len(channel_posts())
    for n, command in enumerate(["start", "next", "next"][:LOST], 1):
        d.server.lose_answers("POST", "/channels/{channel_id}/messages",
                              match=lambda call: f"/channels/{TABLE_ID}/" in call.url)
        await d.slash(command)
        await wait_for(lambda: len(d.server.lost) == n, what=f"answer {n} lost")
        await wait_for(lambda: not d.referee.outbox.waiting(d.home), what="the outbox's retry")
    await d.referee.outbox.flush(d.home)
    texts = channel_posts()[before:]
    assert len(texts) == len(set(texts)) == LOST, texts  # each once: no copy
    assert "Наступает ночь" in texts[0] and "Слово игроку №1" in texts[1]


async def test_discord_a_lost_answer_to_a_direct_send_is_no_failure(
        d: DiscordTable, caplog: pytest.LogCaptureFixture) -> None:
    """The judge's panel (posted in his DMs, not through the outbox) loses its answer after
    Discord posted it: the send counts as not made — logged, the panel posted again at the next
    action — and the action itself stands; it was an internal error ("saved, but …")."""
    assert "Игра №1" in await d.slash("new")
    await d.slash("roles", roles="D2 M5 M7 S8")
    await d.slash("log", scope="all")  # a message below the panel: the next action posts it afresh
    dm = d.fake.dms[int(d.judge["id"])]
    d.server.lose_answers("POST", "/channels/{channel_id}/messages",
                          match=lambda call: f"/channels/{dm}/" in call.url and bool(call.payload.get("embeds")))
    with caplog.at_level("ERROR"):
        answer = await d.slash("start")
    assert len(d.server.lost) == 1
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    assert "сохранено" not in answer.lower()
    assert (await d.state()).phase.value == "night_zero"
    await d.slash("next")
    assert (await d.state()).speaker == 1


# --- Telegram --------------------------------------------------------------------------------------

@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    judge, group, people = make_world(fake)
    async with bot_running(fake, tmp_path / "referee.sqlite3") as (app, service):
        running = Table(fake=fake, app=app, service=service, judge=judge, group=group, players=people)
        running.referee.outbox.retry_delay = 0.05
        await running.say("/new")
        await running.say("/roles D2 M5 M7 S8")
        await running.say("/link", chat=running.group)
        await running.press("Начать игру ▶")
        await running.press("Далее ▶ (утро)")
        yield running


@pytest.mark.usefixtures("ptb_timedelta")
@pytest.mark.parametrize("how", ["502", "disconnect"])
async def test_telegram_a_lost_answer_to_a_post_costs_one_copy_and_no_more(t: Table, how: str) -> None:
    """Three speeches announced in the group, each announcement's answer lost after Telegram
    posted it (a proxy's 502, a dropped connection): each is in the group twice — once per lost
    answer, never more — and in order."""
    to_group = lambda params: params.get("chat_id") == t.group.id  # noqa: E731

    def copies(seat: int) -> list[int]:
        return [i for i, m in enumerate(t.fake.sent(t.group)) if f"Слово игроку №{seat}" in (m.text or "")]

    seats = range(2, 2 + LOST)
    for seat in seats:
        fault = t.fake.fail_next("sendMessage", 502 if how == "502" else None, executed=True,
                                 disconnect=how == "disconnect", match=to_group)
        await t.press("Далее ▶")
        await t.fake.wait_for(lambda: len(copies(seat)) >= 2, what=f"#{seat}'s announcement again")
        assert len(fault.hits) == 1
    await t.referee.outbox.flush(f"tg:{t.group.id}")
    assert [len(copies(seat)) for seat in seats] == [2] * LOST  # one copy per lost answer
    assert all(max(copies(seat)) < min(copies(seat + 1)) for seat in seats[:-1])  # in order
