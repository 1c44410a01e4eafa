"""Issue 33, items 1 and 4: an evening's sign-up on Discord, through discord.py's own objects
(:mod:`support.discord_table`). A member with Manage Channels posts it in the club's channel
(``/evening action:new start:19:30 tables:1``; without the right it is refused and nothing is
posted); its buttons (``e:…``, rebuilt by discord.py like host mode's) edit the post and answer
the presser alone; with the places taken (tables × 10, F24 §1.1) «Иду» is the reserve; a
cancel of the full list moves the first of the reserve up — told in direct messages, and when
those are closed to the bot (Discord's 50007) the list moves all the same and the channel reads
nothing of it. ``/evening`` alone is still the evening's table."""

from __future__ import annotations

from pathlib import Path
import discord

from bot.i18n import catalog
from support.discord_table import CLUB_ID, DiscordTable, FakeMessage, table

RU = catalog("ru")
MANAGE = discord.Permissions(manage_channels=True)


def post(t: DiscordTable) -> FakeMessage:
    found = [m for m in t.fake.in_channel(CLUB_ID, deleted=False) if m.button("Иду")]
    assert found, t.public(CLUB_ID)
    return found[-1]


async def test_a_discord_sign_up_fills_and_moves_up_the_reserve_past_closed_dms(tmp_path: Path) -> None:
    async with table(tmp_path / "referee.sqlite3") as t:
        await _sign_up(t)


async def _sign_up(t: DiscordTable) -> None:
    refused = await t.slash("evening", action="new", start="19:30", tables=1, where=CLUB_ID)
    assert refused == RU.text("evening-admins-only")
    assert t.fake.in_channel(CLUB_ID) == []
    said = await t.slash("evening", action="new", start="19:30", tables=1, where=CLUB_ID,
                         actor=t.admin, perms=MANAGE)
    assert said.startswith("Запись опубликована.")
    assert "0/10" in post(t).text
    people = [*t.players, t.judge]  # eleven members
    for member in people[:10]:
        assert await t.press("Иду", actor=member, message=post(t)) == RU.text("evening-pressed-going")
    assert await t.press("Иду", actor=t.judge, message=post(t)) == RU.text("evening-pressed-full", place=1)
    assert "Резерв: 1. Judge" in post(t).text
    t.fake.closed_dms.add(int(t.judge["id"]))
    before = len(t.fake.in_channel(CLUB_ID))
    left = await t.press("Не приду", actor=t.players[4], message=post(t))
    assert left == RU.text("evening-pressed-out")
    text = post(t).text
    assert "10/10" in text and "10. Judge" in text and "Player5" not in text and "Резерв" not in text
    assert t.dm(t.judge) == []  # his direct messages are closed: nothing reached him
    assert len(t.fake.in_channel(CLUB_ID)) == before  # nothing said of it in the channel
    # the next of the reserve, whose direct messages are open, is told there
    assert await t.press("В резерв", actor=t.admin, message=post(t)) == \
        RU.text("evening-pressed-reserve", place=1)
    assert await t.press("Не приду", actor=t.players[0], message=post(t)) == RU.text("evening-pressed-out")
    assert t.dm(t.admin)[-1].startswith("Освободилось место: вы в списке на вечер")
    assert (await t.slash("evening", action="close", where=CLUB_ID, actor=t.admin, perms=MANAGE)).startswith(
        "Запись закрыта. В списке 10:")
    assert not [m for m in t.fake.in_channel(CLUB_ID) if m.button("Иду")]  # the buttons are gone
    assert await t.slash("evening", where=CLUB_ID) == RU.text("club-evening-none", hours=12)  # its table
