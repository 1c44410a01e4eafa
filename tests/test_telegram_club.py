"""A club's evening over the fake Bot API (issue 17): a judge runs several games from his private
chat, linked to the club's group; each game's protocol reaches the group, and the group's
``/games``, ``/stats`` and ``/top`` agree with those protocols (the points of F24/S24 §8)."""

from __future__ import annotations

import asyncio
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import AsyncIterator

import pytest

from PIL import Image

from bot.club import card
from fakebot import FakeBotAPI
from rules import Phase
from rules.points import show
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")

NAMES = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя", "Игорь", "Кира"]
#: The evening: (the game's seating, left to right from seat 1; its roles; the black who swears
#: an oath on day 1 (seed 4.3.1): the blacks lose by a team loss, F24 §8.2.5).
EVENING = [
    (NAMES, "D2 M5 M7 S8", 7),
    (NAMES[3:] + NAMES[:3], "D1 M4 M9 S10", 9),
    (NAMES[::-1], "D3 M6 M10 S2", 6),
]


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


def documents(t: Table) -> dict[str, dict]:
    """Our JSON protocols the bot sent to the group, by file name."""
    return {m.document["file_name"]: json.loads(t.fake.files[m.document["file_id"]].data)
            for m in t.fake.sent(t.group) if m.document and m.document["file_name"].count(".") == 1}


async def play_to_a_team_loss(t: Table, seating: list[str], roles: str, offender: int) -> None:
    """One of the evening's games, linked to the group: its names and roles, and on day 1 a team
    loss (seed 4.3) by ``offender`` ends it."""
    await t.say("/new fiim2024")
    await t.say("/link", chat=t.group)
    for seat, name in enumerate(seating, 1):
        await t.say(f"/name {seat} {name}")
    await t.say(f"/roles {roles}")
    await t.say("/start")
    await t.say("/next")
    await t.say(f"/ppk {offender} 4.3.1")
    assert (await t.state()).phase is Phase.GAME_OVER


async def test_an_evening_builds_the_clubs_history_and_stats_agree_with_the_protocols(t: Table) -> None:
    channel = t.fake.add_channel("Клубный канал", username="club_news")
    await t.say("/channel @club_news", chat=t.group, user=t.players[0])  # the group's owner
    for number, game in enumerate(EVENING, 1):
        await play_to_a_team_loss(t, *game)
        await t.fake.wait_for(lambda n=number: f"game-{n}.json" in documents(t), timeout=30,
                              what=f"game {number}'s protocol in the group")

    expected: dict[str, Decimal] = {}
    wins: dict[str, int] = {}
    for doc in documents(t).values():
        for seat, points in doc["points"]["seats"].items():
            name = doc["names"][seat]
            expected[name] = expected.get(name, Decimal(0)) + Decimal(points["total"])
            wins[name] = wins.get(name, 0) + (Decimal(points["win"]) > 0)
    assert len(documents(t)) == 3

    # each protocol's message id is stored when its last part has gone: the sends finish first
    await asyncio.wait_for(t.referee.outbox.settle(), 30)
    games_stored = await t.service.store.club_games(f"tg:{t.group.id}", 3)
    assert all(len(g.protocols) == 3 for g in games_stored)  # the judge, the group, the channel
    before = len(t.public())
    await t.say("/games", chat=t.group)
    games = t.public()[before:]
    assert games[0].startswith("Последние игры клуба (3)")
    assert [line.split(",")[0] for line in games[1:]] == ["Игра №3", "Игра №2", "Игра №1"]
    # each game's line links to its protocol where it was posted (the group or the club's channel)
    for number, line in zip((3, 2, 1), games[1:]):
        link = line.split("; протокол: ")[1]
        chat_part, message_id = link.removeprefix("https://t.me/c/").split("/")
        chat = next(c for c in (t.group, channel) if str(c.id) == f"-100{chat_part}")
        posted = next(m for m in t.fake.sent(chat) if m.message_id == int(message_id))
        assert posted.photo and f"№{number}" in (posted.caption or "")  # the score sheet

    for name in ("Аня", "Игорь", "Кира"):
        before = len(t.public())
        await t.say(f"/stats {name}", chat=t.group)
        answer = "\n".join(t.public()[before:])
        assert f"{name}, все игры:" in answer
        assert f"игр 3, побед {wins[name]}" in answer
        assert f"баллов {show(expected[name])} " in answer
        # the player's card follows the text: a photo, its caption the key figure (issue 17 §2)
        cards = [m for m in t.fake.sent(t.group) if m.photo and (m.caption or "").startswith(f"{name}, ")]
        assert len(cards) == 1, f"{name}'s card in the group"
        assert cards[0].caption == f"{name}, все игры:\n" + answer.splitlines()[2]
        picture = Image.open(io.BytesIO(t.fake.files[cards[0].photo[-1]["file_id"]].data))
        assert picture.format == "PNG" and picture.width == card.WIDTH and picture.height > 300

    before = len(t.public())
    await t.say("/top", chat=t.group)
    lines = t.public()[before:]
    assert lines[0].startswith("Лучшие по баллам, все игры (не меньше 3 игр)")
    assert lines[-1] == lines[0]  # the picture's caption: the title
    shown = [(line.split(" — ")[0].split(". ", 1)[1], line.split("баллов ")[1].split(",")[0])
             for line in lines[1:-1]]
    assert len(shown) == 10
    assert [Decimal(p) for _, p in shown] == sorted((Decimal(p) for _, p in shown), reverse=True)
    assert all(Decimal(points) == expected[name] for name, points in shown)
    tops = [m for m in t.fake.sent(t.group) if m.photo and (m.caption or "").startswith("Лучшие по баллам")]
    assert len(tops) == 1 and tops[0].caption == lines[0]  # the table as a picture too (issue 17 §2)
    assert Image.open(io.BytesIO(t.fake.files[tops[0].photo[-1]["file_id"]].data)).format == "PNG"

    # the strength rating (issue 33): /top elo (сила) ranks the same ten by Glicko-2, a picture too
    before = len(t.public())
    await t.say("/top сила", chat=t.group)
    lines = t.public()[before:]
    assert lines[0].startswith("Лучшие по силе (Глико-2), все игры (не меньше 3 игр)")
    assert lines[-1] == lines[0]  # the picture's caption
    strengths = [int(line.split(" — сила ")[1].split(" ")[0]) for line in lines[1:-1]]
    assert len(strengths) == 10 and strengths == sorted(strengths, reverse=True)
    assert any(m.photo and m.caption == lines[0] for m in t.fake.sent(t.group))

    # the season's rating: the same points, every player ranked (RULES.md §9 tie-breaks)
    before = len(t.public())
    await t.say("/rating", chat=t.group)
    lines = t.public()[before:]
    assert lines[0].startswith("Рейтинг (ФИИМ 2024), сезон ")
    ranked = [(line.split(" — ")[0].split(". ", 1)[1], line.split(" — ")[1].split(" (")[0])
              for line in lines[1:-1]]
    assert len(ranked) == 10 and all(Decimal(total) == expected[name] for name, total in ranked)
    assert "не учтена" in lines[-1]  # FIIM's compensation: no formula in the rules text

    # the judge closes the evening: its table and the season's rating go to the club's channel
    before = len(t.public())
    await t.say("/evening", chat=t.group)
    assert t.public()[before:] == ["Итоги вечера и рейтинг сезона опубликованы в канале Клубный канал."]
    posted = [m.text for m in t.fake.sent(channel) if m.text and m.text.startswith("Вечер ")]
    assert len(posted) == 1 and ": 3 игры" in posted[0].splitlines()[0]
    evening = {line.split(". ", 1)[1].split(" — ")[0]: Decimal(line.split("баллов ")[1].split(",")[0])
               for line in posted[0].splitlines()[1:11]}
    assert evening == expected  # the evening is these three games
    assert "Рейтинг (ФИИМ 2024), сезон " in posted[0]
    tables = [m for m in t.fake.sent(channel) if m.photo and (m.caption or "").startswith("Вечер ")]
    assert len(tables) == 1 and tables[0].caption == posted[0].splitlines()[0]
    assert not [m for m in t.fake.sent(t.group) if m.photo and (m.caption or "").startswith("Вечер ")]

    # the roster: a rename by someone else than the judge or an admin is refused
    before = len(t.public())
    await t.say("/rename Аня = Анна", chat=t.group, user=t.players[1])
    assert t.public()[before:] == ["Состав меняет судья или администратор чата."]
    await t.say("/rename Аня = Анна", chat=t.group, user=t.players[0])  # the group's owner
    before = len(t.public())
    await t.say("/stats анна", chat=t.group)
    assert "Анна, все игры:" in t.public()[before]



async def test_the_groups_admin_posts_the_evening_to_the_club_channel_a_member_reads_it(t: Table) -> None:
    # README, /evening: «posted to the group's club channel (/channel) by the judge or an admin»
    channel = t.fake.add_channel("Клубный канал", username="club_news")
    owner, member = t.players[0], t.players[1]  # the group's owner (its admin); a member
    await t.say("/channel @club_news", chat=t.group, user=owner)
    await play_to_a_team_loss(t, *EVENING[0])
    await t.fake.wait_for(lambda: "game-1.json" in documents(t), timeout=30, what="the protocol")
    await asyncio.wait_for(t.referee.outbox.settle(), 30)

    before = len(t.public())
    await t.say("/evening", chat=t.group, user=member)  # not his to post: the group reads it
    assert t.public()[before].startswith("Вечер ")
    assert not [m for m in t.fake.sent(channel) if m.text and m.text.startswith("Вечер ")]
    before = len(t.public())
    await t.say("/evening", chat=t.group, user=owner)
    assert t.public()[before:] == ["Итоги вечера и рейтинг сезона опубликованы в канале Клубный канал."]
    posted = [m.text for m in t.fake.sent(channel) if m.text and m.text.startswith("Вечер ")]
    assert len(posted) == 1 and ": 1 игра" in posted[0].splitlines()[0]
