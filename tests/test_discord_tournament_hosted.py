"""A hosted table of a tournament on Discord (issue 17, part 4), through discord.py's own objects
(:mod:`support.discord_table`): the chief judge opens a tournament of ten players in the club's
channel and gives its table to the host bot of the game's channel (``/table number:1 host:True``,
Manage Channels). ``/newgame`` there gathers the plan's game: a member takes the plan's seat of
his display name, or with ``/join name:…`` the seat of the plan's name he is (a name not in the
game is refused); the seats are the plan's; a game stopped before its end gives its place to the
next one. The chief judge's ``/tournament`` shows the hosted
table and the close waits for its game; after the host's team loss (seed 4.3.1) the close gives
the standings of the ten players."""

from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator

import discord
import pytest

from bot.i18n import catalog
from rules import Role
from support.discord_table import CLUB_ID, TABLE_ID, DiscordTable, FakeMessage, table

RU = catalog("ru")
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)
MANAGE = discord.Permissions(manage_channels=True)


@pytest.fixture
async def t(tmp_path: Path) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", timer_scale=1000.0) as running:
        yield running


def lobby(t: DiscordTable) -> FakeMessage:
    label = RU.text("host-btn-join")
    found = [m for m in t.fake.in_channel(TABLE_ID, deleted=False) if m.button(label)]
    assert found
    return found[-1]


def host_table(t: DiscordTable) -> Any:
    assert t.referee.host is not None
    return t.referee.host.controller.tables_in(t.home)[-1]


async def test_a_hosted_discord_table_plays_the_tournaments_game(t: DiscordTable) -> None:
    t.app_permissions = HOST_RIGHTS
    names = [p["global_name"] for p in t.players[:9]] + ["Десятый"]  # the tenth: another name
    assert await t.slash("tournament", action="open", games=1, players=", ".join(names),
                         where=CLUB_ID) == RU.text("tournament-admins-only", platform="dc")  # no right
    assert await t.service.store.tournament(f"dc:{CLUB_ID}") is None
    opened = await t.slash("tournament", action="open", games=1, players=", ".join(names),
                           where=CLUB_ID, perms=MANAGE)  # Manage Channels: the chief judge
    assert opened.startswith("Турнир №1 открыт: игр — 1, игроков — 10, столов — 1")
    club = f"dc:{CLUB_ID}"
    assert await t.slash("table", number=1, host=True) == RU.text("tournament-host-admins-only")
    assert (await t.slash("table", number=1, host=True, perms=MANAGE)).startswith(
        "Стол 1 турнира №1 ведёт здесь бот-ведущий; следующая — игра 1 из 1")
    plan = await t.service.store.tournament(club)
    assert plan is not None and plan.judges == {1: f"host:{t.home}"}
    seating = plan.rounds[0][0]

    tenth = t.players[9]

    async def gather() -> str:
        """The lobby of the table's game 1; everyone joins; the tenth by the plan's name."""
        await t.slash("newgame", options="seed")
        assert (lobby(t).text or "").startswith("🎲 Турнир №1, стол 1: набор на игру 1 из 1")
        refused = await t.press(RU.text("host-btn-join"), actor=tenth, message=lobby(t))
        assert refused.startswith(f"Имени «{tenth['global_name']}» нет в рассадке игры 1")
        for player in t.players[:9]:
            assert RU.text("host-join-done") in await t.press(
                RU.text("host-btn-join"), actor=player, message=lobby(t))
        return await t.slash("join", actor=tenth, name="десятый")

    await gather()
    stopped = host_table(t).game_id
    await t.slash("stop", perms=MANAGE)  # the game is set aside: its place is played again
    assert (await t.service.store.game(stopped)).result == "abandoned"
    joined = await gather()
    assert f"место {seating.index('Десятый') + 1} (Десятый)" in joined
    state = await t.state()
    assert host_table(t).game_id != stopped
    assert (await t.service.store.tournament(club)).played == {(1, 1): host_table(t).game_id}
    assert [s.name for s in state.seats] == list(seating)  # the plan's seats
    accounts = {p["global_name"]: f"dc:{p['id']}" for p in t.players}
    accounts["Десятый"] = accounts.pop(tenth["global_name"])
    assert host_table(t).seats == {seat: accounts[name] for seat, name in enumerate(seating, 1)}

    view = (await t.slash("tournament", where=CLUB_ID)).splitlines()
    assert view[1].startswith("Стол 1 (судья — бот-ведущий в «") and "игра 1 из 1: " in view[1]
    assert await t.slash("tournament", action="close", where=CLUB_ID) == \
        "За столом 1 идёт игра: турнир закрывается, когда она окончена.\n" \
        "Стол 1 ведёт бот-ведущий в «\\#table-1»: набор или игру там останавливает /stop."
    # (the channel's name escaped as any name is: Discord shows «#table-1»)
    (don,) = [s.number for s in state.seats if s.role is Role.DON]
    await t.slash("ppk", seat=don, perms=MANAGE)  # the host's team loss of the Don's team (4.3.1)
    assert (await t.state()).result is not None
    closed = await t.slash("tournament", action="close", where=CLUB_ID)
    assert closed.startswith("Турнир №1: итоговая таблица (ФИИМ 2024), игр в зачёте — 1")
    assert sum(1 for line in closed.splitlines() if line[:2].rstrip(".").isdecimal()) == 10
    rows = await t.service.store.export_club(club)  # the account took the nickname's seat
    assert [p["account"] for p in rows["players"] if p["name"] == "Десятый"] == [accounts["Десятый"]]
