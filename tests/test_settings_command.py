"""``/settings`` (issue 31, item 4): the club's admin sets the rules its new games start with —
the words typed after ``/new`` — in the club's group (Telegram), in a server's channel
(Discord, Manage Channels) or at the console (its own club). Anyone else is refused and nothing
changes; words ``/new`` would refuse are refused and nothing is stored; ``/settings off``
forgets them. The judge's next ``/new`` of a game linked there, and a hosted table's
``/newgame``, start with them (``tests/test_club_rules.py`` has the rules' own cases)."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.console import Session
from bot.i18n import catalog
from bot.service import Service
from fakebot import FakeBotAPI
from storage import Store
from support import discord_table
from support.telegram_table import table as telegram_table

RU = catalog("ru")


async def test_the_consoles_judge_sets_the_consoles_club_rules(store: Store) -> None:
    session = Session(Service(store), RU)
    await session.open()
    assert (await session.handle("/settings")).lines == [RU.text("club-settings-seed")]
    set_to = await session.handle("/settings fiim2024 timers.speech=45")
    assert set_to.accepted and set_to.lines == [RU.text("club-settings-set", words="fiim2024 timers.speech=45")]
    assert (await session.handle("/settings")).lines == [
        RU.text("club-settings-own", words="fiim2024 timers.speech=45")]
    refused = await session.handle("/settings fiim2025")  # no such preset: nothing stored
    assert not refused.accepted
    assert await store.club_rules(session.chat) == "fiim2024 timers.speech=45"
    await session.handle("/new")
    current = await session.service.current(session.chat)
    assert current is not None and current.state.config.preset == "fiim2024"
    assert current.state.config.timers.speech == 45
    forgotten = await session.handle("/settings off")
    assert forgotten.lines == [RU.text("club-settings-reset"), RU.text("club-settings-seed")]
    assert await store.club_rules(session.chat) is None


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as api:
        yield api


@pytest.mark.usefixtures("ptb_timedelta")
async def test_a_groups_admin_sets_the_clubs_rules_and_the_judges_next_game_has_them(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    async with telegram_table(fake, tmp_path / "db.sqlite3") as t:
        club = f"tg:{t.group.id}"
        await t.say("/settings fsm2024", chat=t.group)  # the judge: a member, not the group's admin
        assert t.fake.sent(t.group)[-1].text == RU.text("club-settings-admin-only", platform="tg")
        assert await t.service.store.club_rules(club) is None
        owner = t.players[0]  # the group's creator
        await t.say("/settings fsm2024 timers.speech=50", chat=t.group, user=owner)
        assert t.fake.sent(t.group)[-1].text == RU.text("club-settings-set", words="fsm2024 timers.speech=50")
        await t.say("/settings", user=owner)  # in a private chat: the group's command
        assert t.fake.sent(owner)[-1].text == RU.text("front-not-here", command="settings", where="group")
        await t.say("/new")  # the judge's game, linked to the group: its next /new is the club's
        assert (await t.state()).config.preset == "seed"  # his private chat's club: no rules
        await t.say("/link", chat=t.group)
        await t.say("/new")  # the linked game was untouched: replaced at once
        state = await t.state()
        assert state.config.preset == "fsm2024" and state.config.timers.speech == 50


async def test_discord_needs_manage_channels_for_the_clubs_rules(tmp_path: Path) -> None:
    async with discord_table.table(tmp_path / "db.sqlite3") as t:
        answer = await t.slash("settings", rules="fiim2024")
        assert answer == RU.text("club-settings-admin-only", platform="dc")
        assert await t.service.store.club_rules(t.home) is None
        answer = await t.slash("settings", rules="fiim2024", perms=discord.Permissions(manage_channels=True))
        assert answer == RU.text("club-settings-set", words="fiim2024")
        await t.slash("new")
        assert (await t.state()).config.preset == "fiim2024"
        answer = await t.slash("settings", off=True, perms=discord.Permissions(manage_channels=True))
        assert answer.splitlines()[0] == RU.text("club-settings-reset")
