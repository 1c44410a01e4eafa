"""Telegram judge and host modes and Discord with a stored game whose log no longer folds (tests/test_quarantine.py for
the service): a restart still starts and re-arms the other games' timers; the judge of that game
is told which game, which action, why and what to do, and /new starts a new game there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from fakebot import FakeBotAPI
from storage import Store
from test_discord_timer import day_one
from support.stores import rows
from support.discord_table import FakeDiscord
from support.discord_table import table as dc_table
from support.host_table import host_table
from support.host_table import make_world as host_world
from support.telegram_table import Table, bot_running, make_world

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta


async def test_a_restart_with_a_game_that_no_longer_folds(fake: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    judge, group, people = make_world(fake)
    other = fake.add_user("Судья2", "judge2", started=True)
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        for text in ("/new", "/start", "/next"):  # day 1: #1 speaks, his timer runs
            await t.say(text)
            await t.say(text, chat=other, user=other)
            if text == "/new":
                await t.say("/link", chat=t.group)  # its announcements go to the club's group
        broken = (await t.now()).game_id
        panel = t.panel(other)
    async with await Store.open(db) as store:  # as an older version might have logged it:
        await rows(store, "INSERT INTO events(game_id, seq, event, actor, at) VALUES (?, ?, ?, ?, ?)",
                   broken, 3, json.dumps(rules.to_dict(rules.Nominate(by=2, target=5))),
                   f"tg:{judge.id}", 1.0)  # #2 nominates in #1's minute (F24 §4.4.2)
    async with bot_running(fake, db, scale=0.05) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        # the other judge's game: its timer re-armed, it runs out, the game goes on
        await fake.wait_for(lambda: "время вышло" in (fake.message(other, panel.message_id).text or ""),
                            timeout=8, what="the other game's timer after the restart")
        await t.say("/next", chat=other, user=other)
        assert (await service.current(f"tg:{other.id}")).state.speaker == 2  # type: ignore[union-attr]
        # this judge: told which game, which action, why, and what to do
        await t.say("/status")
        said = t.private()[-1]
        assert f"Сохранённую игру №{broken} не удаётся загрузить" in said and "№3" in said, said
        assert "/new" in said and "--raw" in said and "4.4.2" in said
        await t.say("/foul 3")  # a game command does not start a new game over it silently
        assert t.private()[-1] == said
        await t.say("/status", chat=t.group)  # the linked group is told too
        assert f"Сохранённую игру №{broken} не удаётся загрузить" in t.public()[-1], t.public()[-1]
        await t.say("/new")
        await t.say("/start")
        now = await t.now()
        assert now.game_id != broken and now.state.phase is rules.Phase.NIGHT_ZERO
        assert len(await service.store.events(broken)) == 3  # kept, as stored


async def test_a_hosted_table_whose_log_no_longer_folds_is_stopped_and_said(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """Host mode: the restart stops the table (its deadlines are not re-armed), the group is told
    which game and why, and /newgame opens a new table there."""
    db = tmp_path / "db.sqlite3"
    world = host_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        await t.wait_floor(1)
        broken = t.table().game_id
        assert broken is not None
        logged = len(await t.service.events(f"tg:{t.group.id}"))
    async with await Store.open(db) as store:
        await rows(store, "INSERT INTO events(game_id, seq, event, actor, at) VALUES (?, ?, ?, ?, ?)",
                   broken, logged + 1, json.dumps(rules.to_dict(rules.Nominate(by=2, target=5))),
                   "host", 1.0)  # #2 nominates in #1's minute (F24 §4.4.2)
    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: any(f"№{broken} не удаётся загрузить" in x for x in t.group_texts()),
                            timeout=10, what="the group told")
        assert t.table().status == "stopped"
        told = next(x for x in t.group_texts() if f"№{broken} не удаётся загрузить" in x)
        assert "/newgame" in told  # a hosted table is opened with /newgame, not the judge's /new
        await t.say(t.owner, "/newgame")
        assert t.table().status == "lobby" and t.table().game_id != broken
        async with await Store.open(db) as store:
            assert len(await store.events(broken)) == logged + 1  # kept, as stored


async def test_discord_a_restart_with_a_game_that_no_longer_folds(tmp_path: Path) -> None:
    """Discord judge mode: the restart starts (the game's timer is not re-armed), /status says
    which game and why, /new starts a new game in the channel."""
    db = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    async with dc_table(db, fake=fake, timer_scale=5.0) as t:
        await day_one(t)
        broken = (await t.service.current(t.home)).game_id  # type: ignore[union-attr]
        refused = len(await t.service.events(t.home)) + 1
    async with await Store.open(db) as store:
        await rows(store, "INSERT INTO events(game_id, seq, event, actor, at) VALUES (?, ?, ?, ?, ?)",
                   broken, refused, json.dumps(rules.to_dict(rules.Nominate(by=2, target=5))), "dc:1", 1.0)
        timer = await store.timer(broken)
        assert timer is not None
        await store.set_timer(broken, {**timer, "deadline": 0.0})  # it would fire at once
    async with dc_table(db, fake=fake, timer_scale=5.0) as t:
        said = await t.slash("status")
        assert f"Сохранённую игру №{broken} не удаётся загрузить" in said, said
        assert f"№{refused}" in said and "/new" in said
        await t.slash("new")
        await t.slash("start")
        now = await t.service.current(t.home)
        assert now is not None and now.game_id != broken
        assert now.state.phase is rules.Phase.NIGHT_ZERO
        assert await t.service.timer(broken) is None
