"""Issue 33, items 1 and 4: an evening's sign-up over the fake Bot API. The group's admin posts
it (``/evening new``; anyone else is refused and nothing is posted); the buttons' presses edit the
post; with the places taken (tables × 10, F24 §1.1) «Иду» puts the player in the reserve and
says so; a player of the full list who cancels gives the place to the first of the reserve, who
is told in private — and when that player has blocked the bot (the Bot API's 403) the list moves
all the same, nothing breaks and the group reads nothing of it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.i18n import catalog
from fakebot import FakeBotAPI
from storage import Store
from support.telegram_table import Table, bot_running, make_world, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")
RU = catalog("ru")


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def test_a_sign_up_fills_moves_up_the_reserve_and_survives_a_blocked_player(t: Table) -> None:
    fake, group = t.fake, t.group
    owner, member = t.players[0], t.players[1]
    await t.say("/evening new 19:30 tables=1", chat=group, user=member)
    assert RU.text("evening-admins-only") in t.public()
    assert not [m for m in fake.sent(group) if m.buttons]  # nothing posted
    await t.say("/вечер новый 19:30 столов=1", chat=group, user=owner)
    post = next(m for m in fake.sent(group) if m.buttons)
    assert "мест — 10" in post.text and "0/10" in post.text
    go = post.callback_data("Иду")
    people = [fake.add_user(f"Гость{n}", f"guest{n}", started=True) for n in range(1, 13)]
    for user in people:
        await t._handled(lambda u=user: fake.user_joins(u, group), "a member joins")

    async def press(user, label: str) -> str:  # noqa: ANN001 - a fake user
        query = await t.press(label, user=user, message=post)
        await fake.wait_for(lambda: query in fake.callback_answers, what="the press's answer")
        return fake.callback_answers[query].text or ""

    for user in people[:10]:
        assert await press(user, "Иду") == RU.text("evening-pressed-going")
    assert await press(people[10], "Иду") == RU.text("evening-pressed-full", place=1)
    assert await press(people[11], "В резерв") == RU.text("evening-pressed-reserve", place=2)
    assert await press(people[10], "Иду") == RU.text("evening-pressed-already_reserve", place=1, full="yes")
    post = next(m for m in fake.sent(group) if m.buttons)
    assert "10/10" in post.text and "Резерв: 1. Гость11, 2. Гость12" in post.text

    fake.user_blocks_bot(people[10])  # the first of the reserve blocked the bot
    before = len(fake.sent(group))
    assert await press(people[3], "Не приду") == RU.text("evening-pressed-out")
    post = next(m for m in fake.sent(group) if m.buttons)
    assert "10. Гость11" in post.text and "Гость4" not in post.text
    assert "Резерв: 1. Гость12" in post.text
    assert fake.sent(people[10].id) == []  # the 403: nothing reached him
    assert len(fake.sent(group)) == before  # the group is told nothing of it

    # the next cancel: the first of the reserve now can be written to, and is
    assert await press(people[0], "Не приду") == RU.text("evening-pressed-out")
    told = await fake.wait_for(lambda: [m.text for m in fake.sent(people[11].id)], what="the private word")
    assert told[-1].startswith("Освободилось место: вы в списке на вечер")
    assert await press(people[0], "Не приду") == RU.text("evening-pressed-not_signed")

    await t.say("/evening close", chat=group, user=owner)
    final = next(m for m in fake.sent(group) if m.message_id == post.message_id)
    assert not final.buttons and "запись закрыта" in final.text
    late = await t.press(data=go, user=people[0], message=final, strict=False)  # a button still on a screen
    await fake.wait_for(lambda: late in fake.callback_answers, what="the stale press's answer")
    assert fake.callback_answers[late].text == RU.text("evening-pressed-closed")


async def test_a_stored_evening_is_re_armed_at_start_up_and_its_due_reminder_posted(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    judge, group, people = make_world(fake)
    club = f"tg:{group.id}"
    async with await Store.open(db) as store:  # before this start: ten minutes to the start
        now = time.time()
        made = await store.open_evening(club, f"tg:{people[0].id}", now + 600, "Europe/Moscow", 1,
                                        reminded=1, now=now - 7200)
        assert made is not None
        await store.sign_evening(made.id, f"tg:{people[1].id}", "Игрок1", "going", now)
    async with bot_running(fake, db):
        reminder = await fake.wait_for(
            lambda: [m.text for m in fake.sent(group) if m.text.startswith("Напоминание")],
            what="the fifteen minutes' reminder, armed again at start-up")
        assert "Идут (1/10): 1. Игрок1" in reminder[0]
        private = await fake.wait_for(lambda: [m.text for m in fake.sent(people[1].id)],
                                      what="the player's reminder in private")
        assert private[-1].startswith("Напоминание: вы в списке на вечер")
