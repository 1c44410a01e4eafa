"""Issue 17 §1 in Discord judge mode: ``/seat 1 @member`` records the member as the roster's
account of the seat's player when the game ends. A nickname the roster had before (games the
judge named by hand) becomes that account's entry, its history kept; the member's own ``/stats``
then finds it; a seat mapped to nobody stays a nickname."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.i18n import catalog
from rules import Phase
from support.discord_table import MANAGE_CHANNELS, DiscordTable, table


RU = catalog("ru")


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        yield running_table


async def game(t: DiscordTable, seats: dict[int, dict | None]) -> None:
    await t.slash("new")
    await t.slash("name", seat=1, name="Аня")
    await t.slash("name", seat=2, name="Боря")
    for seat, member in seats.items():
        await t.slash("seat", seat=seat, member=member)
    await t.slash("roles", roles="D2 M5 M7 S8")
    await t.slash("start")
    await t.slash("next")
    await t.slash("ppk", seat=7)  # the reds win by a team loss (seed 4.3)
    assert (await t.state()).phase is Phase.GAME_OVER


async def test_a_seat_mapped_to_a_member_records_his_account_in_the_roster(t: DiscordTable) -> None:
    member = t.players[0]
    account = f"dc:{member['id']}"
    await game(t, {})  # Аня by her nickname only
    before = await t.service.store.export_club(t.home)  # the club: the game's channel
    assert [p["account"] for p in before["players"] if p["name"] == "Аня"] == [None]
    await game(t, {1: member})  # now the judge says seat 1 is this member
    rows = await t.service.store.export_club(t.home)
    anya = [p for p in rows["players"] if p["name"] == "Аня"]
    assert len(anya) == 1 and anya[0]["account"] == account  # the nickname's entry, claimed
    assert sum(1 for g in rows["games"] if g["player_id"] == anya[0]["id"]) == 2
    borya = [p for p in rows["players"] if p["name"] == "Боря"]
    assert len(borya) == 1 and borya[0]["account"] is None  # never mapped: a nickname

    answer = await t.slash("stats", actor=member)  # her own statistics, found by her account
    assert "Аня, все игры:" in answer and "игр 2, побед 2" in answer


async def test_a_tournament_table_in_discord_gets_its_seating(t: DiscordTable) -> None:
    """Issue 17 §4 in Discord: the same commands as slash commands; the judge's /new at his
    table starts its game with the plan's seats."""
    names = [f"Игрок {n}" for n in range(1, 11)]
    opened = await t.slash("tournament", action="open", games=1, players=", ".join(names),
                           perms=MANAGE_CHANNELS)  # the chief judge: Manage Channels, as /table N host
    assert opened.startswith("Турнир №1 открыт: игр — 1, игроков — 10, столов — 1")
    assert "Стол 1: судья — " in await t.slash("table", number=1)
    await t.slash("new")
    plan = await t.service.store.tournament(t.home)
    assert plan is not None
    assert [s.name for s in (await t.state()).seats] == list(plan.rounds[0][0])
    refused = await t.slash("tournament", action="close", actor=t.players[0])
    assert refused.startswith("Закрыть турнир может только главный судья")
    # a game that will not be finished: set aside from the tournament (the table's judge; no one
    # else), its place in the plan seated again by the next /new
    await t.slash("roles", roles="D1 M2 M3 S4")
    await t.slash("start")
    first = (await t.service.current(t.home)).game_id
    assert (await t.slash("tournament", action="close")).splitlines()[1] == \
        RU.text("tournament-still-running-aside", table=1)
    assert await t.slash("table", number=1, aside=True, actor=t.players[0]) == RU.text(
        "tournament-aside-who", table=1, chief=t.judge["global_name"])
    assert await t.slash("table", number=1, aside=True) == RU.text(
        "tournament-set-aside", table=1, id=first, game=1, games=1, started="yes", closing="no")
    assert (await t.service.store.tournament(t.home)).played == {}
    await t.slash("new")
    await t.slash("new")  # the second confirms: the game set aside is shelved
    again = await t.service.current(t.home)
    assert again.game_id != first and [s.name for s in again.state.seats] == list(plan.rounds[0][0])
    assert (await t.service.store.tournament(t.home)).played == {(1, 1): again.game_id}
    for step in ("roles", "start", "next", "ppk"):
        await t.slash(step, **({"roles": "D2 M5 M7 S8"} if step == "roles" else
                               {"seat": 7} if step == "ppk" else {}))
    closed = await t.slash("tournament", action="close")
    assert closed.startswith("Турнир №1: итоговая таблица (ФИИМ 2024), игр в зачёте — 1")
    assert sum(1 for line in closed.splitlines() if line[:2].rstrip(".").isdecimal()) == 10


async def test_a_member_is_never_two_seats_of_one_game(t: DiscordTable) -> None:
    """One player, one seat (newcomer's report, item 1): once the roster's «Аня» is this
    member's account, naming seat 1 «Аня» and mapping seat 2 to the member would count one
    person twice — refused either way round, nothing changed."""
    member = t.players[0]
    await game(t, {1: member})  # «Аня» is now the member's entry
    await t.slash("new")
    await t.slash("name", seat=1, name="Аня")
    await t.slash("name", seat=2, name="Боря")
    refused = await t.slash("seat", seat=2, member=member)
    assert "один и тот же игрок" in refused and "одно место" in refused
    current = await t.service.current(t.home)
    assert current is not None
    assert not [slot for _, slot in await t.service.messages(current.game_id) if slot.startswith("seat:")]
    await t.slash("name", seat=1, name="Вика")
    assert "Место 2" in await t.slash("seat", seat=2, member=member)  # now it is hers alone
    refused = await t.slash("name", seat=3, name="аня")  # the roster's Аня is seat 2's member
    assert "один и тот же игрок" in refused
    assert (await t.state()).seat(3).name is None
