"""Every door of a hosted table's channel on Discord (issue 36), over the fake Discord: an edited
message is judged as written when it was edited (Discord's ``edited_timestamp``), once; one
interaction delivered twice has one effect (a hand press is not toggled back); a player's name
loses its zero-width characters, so «Бо\u200bрис» is «Борис»; what the bot relays of the blacks'
words at night 0 loses its text-direction and control characters."""

from __future__ import annotations

import time
from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.i18n import catalog
from bot.host.steps import WRITTEN_GRACE
from rules import Cause, Role
from support.discord_table import TABLE_ID, DiscordTable, table
from test_discord_host import expire, host_table, message_with, open_table, player_at, role_seats

RU = catalog("ru")
NO_OVERWRITE = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                   moderate_members=True, manage_messages=True)


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch, timer_scale=1000.0) as running:
        yield running


async def test_an_edit_is_judged_when_it_was_edited_and_only_once(t: DiscordTable) -> None:
    """Written in his own minute, edited in the next speaker's: a foul then (seed 4.1.1), the
    message deleted; the same edit's update delivered again (Discord sends a message's update
    again when a link's preview is filled in: the same ``edited_timestamp``) is no second foul;
    edited in his own minute it is nothing."""
    await open_table(t, NO_OVERWRITE)
    await expire(t)  # night 0 → the first speech
    first = host_table(t).step
    speaker = player_at(t, first.seat)
    said = await t.write(speaker, "Я мирный")
    await t.edit(said, "Я мирный, честно", edited_at=time.time())  # his minute: nothing
    assert (await t.state()).seat(first.seat).fouls == [] and not t.fake.posts[said].deleted
    await expire(t)
    assert host_table(t).step.seat != first.seat
    stamp = time.time() + WRITTEN_GRACE + 1  # a few seconds into the next minute: past the grace
    for _ in range(2):  # one edit, its update delivered twice
        await t.edit(said, "Я мирный. №5 — чёрный", edited_at=stamp)
    assert (await t.state()).seat(first.seat).fouls == ["4.1.1"]
    assert t.fake.posts[said].deleted


async def test_an_edit_at_night_is_night_talk(t: DiscordTable) -> None:
    """A message written before the table ran, edited at night 0: night talk (seed 4.2.6),
    a disqualification, the message deleted."""
    writer = t.players[3]
    said = await t.write(writer, "Всем удачи")  # no table runs yet: nobody's business
    await open_table(t, NO_OVERWRITE)
    seat = host_table(t).seat_of(f"dc:{writer['id']}")
    await t.edit(said, "Я Шериф", edited_at=time.time())  # night 0
    departure = (await t.state()).seat(seat).departure
    assert departure is not None and departure.cause is Cause.DISQUALIFICATION
    assert departure.reason == "4.2.6"
    assert t.fake.posts[said].deleted


async def test_one_interaction_one_effect(t: DiscordTable) -> None:
    """A hand raised, its press delivered again with the same interaction id (the gateway's
    replay after a resume): the hand stays up, nothing is answered twice."""
    await open_table(t)
    await expire(t)  # night 0 → day 1
    for _ in range(2):  # two nominees: day 1 votes (F24 §4.4.10)
        step = host_table(t).step
        speaker = player_at(t, step.seat)
        nominees = (await t.state()).nominees
        target = next(s for s in (5, 6, 7) if s != step.seat and s not in nominees)
        await t.press(RU.text("host-btn-nominate"), actor=speaker,
                      message=message_with(t, RU.text("host-btn-nominate")))
        await t.press(str(target), actor=speaker, message=message_with(t, str(target)))
        await expire(t)
    for _ in range(12):
        if host_table(t).step.kind == "vote":
            break
        await expire(t)
    step = host_table(t).step
    assert step.kind == "vote", step.kind
    hand = next(b["label"] for m in t.fake.in_channel(TABLE_ID, deleted=False)
                for b in m.buttons if b["label"].startswith("✋"))
    voter = next(s for s in range(1, 11) if s != step.seat)
    await t.press(hand, actor=player_at(t, voter), message=message_with(t, hand))
    assert host_table(t).step.hands == [voter]
    answers = len(t.fake.replies)
    await t.again()
    assert host_table(t).step.hands == [voter]
    assert len(t.fake.replies) == answers
    assert t.client.repeated == 1


async def test_a_zero_width_space_makes_no_other_name(tmp_path: Path) -> None:
    """Two members shown «Борис» and «Бо\u200bрис» are two players with one name: the table
    tells them apart by a number. The blacks' words relayed at night 0 lose a text-direction
    override, BEL and ESC."""
    from fakediscord import FakeDiscord

    fake = FakeDiscord()
    async with table(tmp_path / "referee.sqlite3", fake=fake, timer_scale=1000.0) as t:
        t.players[0]["global_name"] = "Борис"
        t.players[1]["global_name"] = "Бо\u200bрис"
        await open_table(t)
        names = [s.name for s in (await t.state()).seats]
        assert names[:2] == ["Борис", "Борис (2)"], names
        state = await t.state()
        blacks = role_seats(state, Role.DON, Role.MAFIA)
        await t.write(player_at(t, blacks[0]), "\u202eстреляем\x07 в\x1b 4", channel=0)
        relayed = [m for m in t.dm(player_at(t, blacks[1])) if "стреляем" in m]
        assert relayed and relayed[-1].endswith("стреляем в 4"), relayed
