"""The judge's panel in Discord: the real discord.py client fed Discord's interaction payloads,
over the fake REST API (support.discord_table).

The whole game runs on both platforms in test_judge_game.py; here is what is Discord's own: the
panel's views are the press's own update of the message, an action moves the panel below its
notice, and every panel fits Discord's limits on components.
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from support.discord_table import DiscordTable, table
from support.judging import DiscordJudging, foul, nexts, setup_club_game


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        yield running_table


async def test_views_edit_the_panel_in_place_and_actions_move_it_down(t: DiscordTable) -> None:
    await setup_club_game(DiscordJudging(t))
    panel = t.panel()
    await t.press("Фол ▸")
    await t.press("6")
    assert t.panel().id == panel.id  # views are the press's own update of the same message
    assert "Игрок №6 Егор" in t.panel().text
    assert t.fake.replies[-1].kind == "update"
    await t.press("← Назад")
    await t.press("← Назад")
    assert t.panel().id == panel.id
    before = len(t.fake.in_channel(panel.channel_id))
    await t.press("Далее ▶")  # an action's notices come at the top of the same panel, edited
    assert t.panel().id == panel.id and len(t.fake.in_channel(panel.channel_id)) == before
    said = t.public()[-1].split("\n\n")[0]  # what the table was told (its timer line aside)
    assert said and t.panel().text.split("\n\n")[0].endswith(said)  # the panel's first lines
    fresh = t.panel()
    assert await t.slash("panel") == "Панель судьи — в ваших личных сообщениях."
    assert t.panel().id > fresh.id and t.fake.messages[fresh.id].deleted


async def test_every_panel_fits_discord(t: DiscordTable) -> None:
    """Each panel message the bot sent holds at most 5 rows of at most 5 buttons, unique
    custom_ids of at most 100 characters shaped game:revision:action (Discord's limits)."""
    await setup_club_game(DiscordJudging(t))
    await foul(DiscordJudging(t), 4, "4.1.1")
    await t.press("Фол ▸")
    await t.press("4")
    await t.press("Дисквалификация ▸")
    await t.press("← Назад")
    await t.press("← Назад")
    await t.press("← Назад")
    await nexts(DiscordJudging(t), 10)  # night 1: the shooting's seats
    for message in t.fake.messages.values():
        for version in message.versions:
            rows = version.components
            assert len(rows) <= 5
            ids = [b["custom_id"] for row in rows for b in row["components"]]
            assert all(len(row["components"]) <= 5 for row in rows)
            assert len(ids) == len(set(ids))
            assert all(len(i) <= 100 and i.startswith("1:") for i in ids)
