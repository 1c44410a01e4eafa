"""Linking a club's group to a judge's game: /link and its refusals, one group per game, a group
upgraded to a supergroup, a group where the bot may not post."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import AsyncIterator

import pytest

import rules
from fakebot import FakeBotAPI
from bot.i18n import catalog
from support.telegram_table import Table, table

RU = catalog("ru")


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


def last(t: Table, chat: object) -> str:
    return t.fake.sent(chat)[-1].text or ""  # type: ignore[arg-type]


async def test_link_needs_a_game_of_ones_own(t: Table) -> None:
    await t.say("/link", chat=t.group)
    assert "Сначала начните игру" in last(t, t.group)
    await t.say("/new")
    await t.say("/link", chat=t.group)
    assert "Игра №1 привязана к этой группе" in last(t, t.group)
    assert "публичные объявления идут туда" in "\n".join(t.private())
    assert "Объявления идут в привязанную группу." in (t.panel().text or "")
    # another judge cannot steal the linked group while the game runs
    other = t.players[1]
    await t.say("/new", user=other)
    await t.say("/link", chat=t.group, user=other)
    assert "уже привязана к игре №1" in last(t, t.group)
    assert await t.service.home(f"tg:{t.group.id}") == f"tg:{t.judge.id}"


async def test_one_group_per_game(t: Table, fake: FakeBotAPI) -> None:
    second = fake.add_group("Второй стол", members=[t.judge], creator=t.players[0])
    await t.say("/new")
    await t.say("/link", chat=t.group)
    await t.say("/link", chat=second)
    await t.say("/start")
    assert "Наступает ночь" in last(t, second)
    assert not any("Наступает ночь" in x for x in t.public())
    await t.say("/status", chat=t.group)
    assert "не привязана игра" in last(t, t.group)
    await t.say("/unlink", chat=second)
    await t.say("/next")
    assert not any("День 1" in x for x in t.texts(second))
    assert "Объявления идут сюда" not in (t.panel().text or "")  # not in setup any more


async def test_a_group_upgraded_to_a_supergroup_keeps_its_link(t: Table, fake: FakeBotAPI) -> None:
    basic = fake.add_group("Старая группа", members=[t.judge], creator=t.players[0], supergroup=False)
    await t.say("/new")
    await t.say("/link", chat=basic)
    before = t.processor.done
    moved = fake.migrate_group(basic)
    await fake.wait_for(lambda: t.processor.done >= before + 2)  # both service messages
    await t.say("/start")
    assert "Наступает ночь" in last(t, moved)
    assert await t.service.home(f"tg:{moved.id}") == f"tg:{t.judge.id}"


async def test_a_group_where_the_bot_may_not_post(t: Table, fake: FakeBotAPI) -> None:
    muted = fake.add_group("Без прав", members=[t.judge], creator=t.players[0],
                           bot_status="restricted", bot_rights={"can_send_messages": False})
    await t.say("/new")
    await t.say("/link", chat=muted)
    assert "не могу писать в группе «Без прав»" in last(t, t.judge)
    assert await t.service.home(f"tg:{muted.id}") == f"tg:{muted.id}"  # not linked
    await t.say("/start")  # the game goes on; announcements stay in private
    assert (await t.state()).phase.value == "night_zero"


async def test_a_429_on_an_announcement_is_honoured_and_sent_once(t: Table, fake: FakeBotAPI) -> None:
    """ENGINEERING.md §2: Telegram's "retry after" is honoured (AIORateLimiter retries); the
    announcement arrives once and the game is not replayed."""
    await t.say("/new")
    await t.say("/link", chat=t.group)
    fault = fake.fail_next("sendMessage", 429, retry_after=1,
                           match=lambda params: params.get("chat_id") == t.group.id)
    await t.say("/start")
    assert fault.hits and fault.remaining == 0
    assert sum("Наступает ночь" in x for x in t.public()) == 1
    assert await t.log_length() == 1


async def test_a_group_command_that_fails_inside_is_answered(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk under ``/link`` (adapter code, outside the controllers): the group is told
    of the internal error instead of silence; nothing is linked."""
    await t.say("/new")

    async def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(t.service.store, "set_alias", full)
    await t.say("/link", chat=t.group)
    await t.fake.wait_for(lambda: last(t, t.group) == RU.text("error-internal"), what="the error's answer")
    assert await t.service.home(f"tg:{t.group.id}") == f"tg:{t.group.id}"


async def test_a_group_without_a_linked_game_is_told_so_not_to_start_one_here(t: Table) -> None:
    """A group nothing is linked to: its commands that need the linked game are told that no
    game is linked (/link), never "start a new one: /new", which a group may not do; a game
    command there points to the private chat, the judge of a game of his own included (he is
    the judge: "only the judge may" would be wrong)."""
    await t.say("/new")  # the judge has a game, not linked to the group
    for user in (t.judge, t.players[1]):
        for line in ("/why", "/unlink"):
            await t.say(line, chat=t.group, user=user)
            assert last(t, t.group) == RU.text("tg-not-linked"), (user.id, line)
        await t.say("/foul 3", chat=t.group, user=user)
        assert last(t, t.group) == RU.text("tg-group-use-private"), user.id
    assert (await t.state()).phase is rules.Phase.SETUP and await t.log_length() == 0
    await t.say("/rule 5.7", chat=t.group, user=t.players[1])  # a rule is no game's
    assert last(t, t.group).startswith("5.7:")


async def test_another_bots_long_command_in_a_group_is_not_answered(t: Table) -> None:
    """A command no command of ours names is another bot's, however long: the group hears
    nothing from us (not "too long")."""
    count = len(t.fake.sent(t.group))
    await t.say("/weather " + "Москва " * 100, chat=t.group, user=t.players[1])
    assert len(t.fake.sent(t.group)) == count
    await t.say("/foul " + "3 " * 300, chat=t.group, user=t.players[1])  # ours: said
    assert len(t.fake.sent(t.group)) == count + 1
    assert last(t, t.group) == RU.text("command-too_long", length=606, limit=500)


async def test_a_group_typing_status_does_not_hold_up_the_games_announcements(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """A group may get about 20 messages a minute (MAFIA_REFEREE_TELEGRAM_RATE_GROUP): 25
    players' /status typed at once would fill it, and the table's next announcement would wait
    behind their answers. An answer that only reads leaves a quarter of the budget to the game:
    some /status go unanswered while the group is busy, and the announcement of the judge's
    next action goes out at once."""
    async with table(fake, tmp_path / "referee.sqlite3", telegram_rate_group=20,
                     telegram_rate_group_period=60) as t:
        await t.say("/new")
        await t.say("/roles D2 M5 M7 S8")
        await t.say("/link", chat=t.group)
        await t.press("Начать игру ▶")
        await t.press("Далее ▶ (утро)")  # day 1: «Слово игроку №1»
        before = len(t.public())
        for i in range(25):
            await t.say("/status", chat=t.group, user=t.players[i % len(t.players)])
        answers = len(t.public()) - before
        assert 0 < answers < 25
        await t.press("Далее ▶")
        told = t.public()[-1]
        assert "№2" in told and RU.text("status-seats") not in told  # the announcement, not a status
