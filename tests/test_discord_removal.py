"""A removal in Discord judge mode: the member mapped to a removed seat is timed out.

Seed 4.5: the 4th foul removes a player (no last word); seed 4.2: a disqualifying foul removes
him. When the judge has said whose seat it is (``/seat 4 @member``), the bot times that member
out until the game ends (Moderate Members), lifts it when an undo brings the seat back or the
game ends, and tells the judge when it cannot."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import AsyncIterator

import pytest

from rules import Cause, Phase
from support.discord_table import DiscordTable, table


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        await running_table.slash("new")
        await running_table.slash("roles", roles="D2 M5 M7 S8")
        await running_table.slash("start")
        await running_table.slash("next")
        yield running_table


def uid(member: dict) -> int:
    return int(member["id"])


def timeout_calls(t: DiscordTable, member: dict) -> list[object]:
    return [c.payload for c in t.fake.calls
            if c.method == "PATCH" and c.path.startswith("/guilds/{guild_id}/members/")
            and c.url.endswith(f"/members/{member['id']}")]


def until(t: DiscordTable, member: dict) -> dt.datetime | None:
    value = t.fake.timeouts.get(uid(member))
    return dt.datetime.fromisoformat(value) if value else None


async def four_fouls(t: DiscordTable, seat: int) -> None:
    for _ in range(4):
        await t.slash("foul", seat=seat)


async def test_the_fourth_foul_times_the_member_out_until_the_end(t: DiscordTable) -> None:
    player = t.players[3]
    assert await t.slash("seat", seat=4, member=player) == f"Место 4: <@{player['id']}>."
    await four_fouls(t, 4)
    state = await t.state()
    assert state.seat(4).departure.cause is Cause.FOULS  # seed 4.5
    assert any("№4 покидает игру" in x for x in t.public())
    end = until(t, player)
    assert end is not None
    left = end - dt.datetime.now(dt.timezone.utc)
    assert dt.timedelta(hours=5) < left <= dt.timedelta(hours=6)  # "until the end of the game"
    assert len(timeout_calls(t, player)) == 1

    # an undo brings seat 4 back: the timeout is lifted
    await t.slash("undo")
    assert (await t.state()).seat(4).at_table
    assert until(t, player) is None
    assert timeout_calls(t, player)[-1] == {"communication_disabled_until": None}
    # the 4th foul again, then the end of the game (seed 4.3: a team loss) lifts it
    await t.slash("foul", seat=4)
    assert until(t, player) is not None
    await t.slash("ppk", seat=7)
    assert (await t.state()).phase is Phase.GAME_OVER
    assert until(t, player) is None


async def test_a_disqualification_and_a_remapped_seat(t: DiscordTable) -> None:
    first, second = t.players[5], t.players[6]
    await t.slash("seat", seat=6, member=first)
    await t.slash("dq", seat=6, reason="4.2.7")  # seed 4.2: tears at the table
    assert (await t.state()).seat(6).departure.cause is Cause.DISQUALIFICATION
    assert until(t, first) is not None
    # the judge had the wrong member: the seat is someone else's
    await t.slash("seat", seat=6, member=second)
    assert until(t, first) is None and until(t, second) is not None
    # unmapped: the member is released
    assert await t.slash("seat", seat=6) == "Место 6 больше не привязано к участнику."
    assert until(t, second) is None


async def test_without_moderate_members_the_judge_is_told(t: DiscordTable) -> None:
    player = t.players[3]
    await t.slash("seat", seat=4, member=player)
    t.fake.can_timeout = False
    await four_fouls(t, 4)
    assert (await t.state()).seat(4).departure.cause is Cause.FOULS  # the rules go on regardless
    assert until(t, player) is None
    told = [x for x in t.dm() if "не смог дать тайм-аут" in x]
    assert told and "месту (местам) 4: нужно право" in told[-1]
    assert "«Отправлять участников подумать о своём поведении»" in told[-1]
    assert not any("тайм-аут" in x for x in t.public())  # nothing of it in the channel


async def test_unmapped_seats_and_other_members(t: DiscordTable) -> None:
    await four_fouls(t, 4)  # nobody mapped: nobody is timed out
    assert not t.fake.timeouts
    assert "Это может только судья" in await t.slash("seat", actor=t.players[0], seat=3,
                                                     member=t.players[0])
    assert not t.fake.timeouts
