"""Issue 17 §2 in Discord: ``/stats`` answers with the player's card and ``/top`` with its table,
as PNG files attached to the (ephemeral) answer; the text stays as it is."""

from __future__ import annotations

import io
from pathlib import Path
from typing import AsyncIterator

import pytest
from PIL import Image

from bot.club import card
from fakediscord import EPHEMERAL_CHANNEL
from rules import Phase
from support.discord_table import DiscordTable, table


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        for game in range(3):  # three games: /top ranks players with 3 games
            await running_table.slash("new")
            await running_table.slash("name", seat=1, name="Аня")
            await running_table.slash("roles", roles="D2 M5 M7 S8")
            await running_table.slash("start")
            await running_table.slash("next")
            await running_table.slash("ppk", seat=7)  # the reds win by a team loss (seed 4.3)
            assert (await running_table.state()).phase is Phase.GAME_OVER
        yield running_table


def pictures(t: DiscordTable) -> list[tuple[str, bytes]]:
    return [(name, data) for m in t.fake.messages.values() if m.channel_id == EPHEMERAL_CHANNEL
            for name, data in m.files.items()]


async def test_stats_and_top_attach_their_pictures(t: DiscordTable) -> None:
    assert not [n for n, _ in pictures(t) if n.endswith(".png") and n.startswith(("stats", "top"))]
    answer = await t.slash("stats", player="Аня")
    assert "Аня, все игры:" in answer and "игр 3, побед 3" in answer  # the text as before
    cards = [(n, d) for n, d in pictures(t) if n.startswith("stats-")]
    assert len(cards) == 1
    image = Image.open(io.BytesIO(cards[0][1]))
    assert image.format == "PNG" and image.width == card.WIDTH

    answer = await t.slash("top")
    assert answer.startswith("Лучшие по баллам")
    tops = [d for n, d in pictures(t) if n == "top.png"]
    assert len(tops) == 1 and Image.open(io.BytesIO(tops[0])).format == "PNG"

    before = len(pictures(t))
    await t.slash("games")  # no picture for the other commands
    assert len(pictures(t)) == before


async def test_top_by_strength_and_the_stats_strength_line(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 in Discord: ``/top order:elo`` ranks by the strength rating (its picture's
    column the strength), ``/stats`` says the player's; a game with both teams named is rated."""
    names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя", "Игорь", "Кира"]
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as t:
        await t.slash("new")
        for seat, name in enumerate(names, 1):
            await t.slash("name", seat=seat, name=name)
        await t.slash("roles", roles="D2 M5 M7 S8")
        await t.slash("start")
        await t.slash("next")
        await t.slash("ppk", seat=7)  # the reds win by a team loss (seed 4.3)
        answer = await t.slash("top", order="elo", least=1)
        lines = answer.splitlines()
        assert lines[0].startswith("Лучшие по силе (Глико-2)")
        ranked = [line.split(". ", 1)[1].split(" — ")[0] for line in lines[1:]]
        assert len(ranked) == 10 and set(ranked[-3:]) == {"Боря", "Даша", "Жанна"}  # D2 M5 M7
        assert [n for n, _ in pictures(t) if n == "top.png"]
        stats = await t.slash("stats", player="Аня")
        assert "сила (Глико-2) " in stats and "игр в расчёте 1" in stats
