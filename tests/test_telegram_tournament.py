"""A tournament evening over the fake Bot API (issue 17, part 4): in the club's group a chief
judge opens a tournament of two tables and two games; each table's judge takes his table with
``/table N`` and starts its games from his private chat, their seats named by the plan; the chief
judge sees both tables on ``/tournament``, takes table 2 over in the middle of a game (the game
and its panel move to him) and closes the tournament: the standings — the protocols' points
summed (F24/S24 §8), the tie-breaks of §8.7.1 — and the four games' protocols reach the club's
channel. Refusals change nothing."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from rules import Phase
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")

PRESET_FSM = "ФСМ 2024"  # the judge's panel in the setup: the preset's button
PLAYERS = [f"Игрок {n:02d}" for n in range(1, 21)]
#: Each game's roles and the black whose oath on day 1 (seed 4.3.1) loses his team the game.
ROLES = {(1, 1): ("D2 M5 M7 S8", 7), (1, 2): ("D1 M4 M9 S10", 9),
         (2, 1): ("D3 M6 M10 S1", 1), (2, 2): ("D10 M2 M3 S4", 4)}


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


def json_protocols(t: Table, chat: object) -> dict[str, dict]:
    """Our JSON protocols the bot sent to ``chat``, by file name."""
    return {m.document["file_name"]: json.loads(t.fake.files[m.document["file_id"]].data)
            for m in t.fake.sent(chat) if m.document and m.document["file_name"].count(".") == 1}


async def test_a_tournament_with_two_tables_runs_to_its_standings_in_the_channel(t: Table) -> None:
    chief, second = t.players[0], t.players[1]  # the group's owner; the second table's judge
    channel = t.fake.add_channel("Клубный канал", username="club_news")
    await t.say("/channel @club_news", chat=t.group, user=chief)
    club = f"tg:{t.group.id}"

    before = len(t.public())
    await t.say("/tournament open 2 " + ", ".join(PLAYERS), chat=t.group)  # the judge: no admin
    assert t.public()[before:] == [
        "Открыть турнир (и стать его главным судьёй) может только администратор чата."]
    assert await t.service.store.tournament(club) is None
    before = len(t.public())
    await t.say("/tournament open 2 " + ", ".join(PLAYERS), chat=t.group, user=chief)
    opened = "\n".join(t.public()[before:])
    assert opened.startswith("Турнир №1 открыт: игр — 2, игроков — 20, столов — 2")
    for game in (1, 2):
        for number in (1, 2):
            assert f"Игра {game}, стол {number}: 1. " in opened  # printed per game and table
    plan = await t.service.store.tournament(club)
    assert plan is not None and plan.chief == f"tg:{chief.id}"

    await t.say("/table 1", chat=t.group)  # the judge
    await t.say("/table 2", chat=t.group, user=second)
    before = len(t.public())
    await t.say("/table 2", chat=t.group, user=t.players[2])  # neither its judge nor the chief
    assert t.public()[before:] == ["Стол 2 ведёт Игрок1; забрать стол может только главный судья."]
    assert (await t.service.store.tournament(club)).judges == {1: f"tg:{t.judge.id}",
                                                              2: f"tg:{second.id}"}

    async def start(judge: object, number: int, game: int) -> int:
        await t.say("/new fiim2024", chat=judge, user=judge)
        current = await t.service.current(f"tg:{judge.id}")
        assert current is not None and current.state.phase is Phase.SETUP
        names = plan.rounds[game - 1][number - 1]
        assert [s.name for s in current.state.seats] == list(names)  # the plan's seats
        told = "\n".join(t.texts(judge))
        assert f"Стол {number}, игра {game} из 2 турнира: 1. {names[0]}, 2. {names[1]}" in told
        panel = t.panel(judge).text or ""
        assert all(name in panel for name in names)  # the seating on his panel
        if (number, game) == (1, 1):  # another preset in the setup: the game is made again,
            await t.press(PRESET_FSM, user=judge)  # keeping its place in the plan
            again = await t.service.current(f"tg:{judge.id}")
            assert again is not None and again.game_id != current.game_id
            assert again.state.config.preset == "fsm2024"
            assert [s.name for s in again.state.seats] == list(names)
            assert (await t.service.store.tournament(f"tg:{t.group.id}")).played[(1, 1)] \
                == again.game_id
            return again.game_id
        return current.game_id

    async def play(judge: object, steps: list[str]) -> None:
        for step in steps:
            await t.say(step, chat=judge, user=judge)

    def script(game: int, number: int) -> list[str]:
        roles, offender = ROLES[(game, number)]
        return [f"/roles {roles}", "/start", "/next", f"/ppk {offender} 4.3.1"]

    games = [await start(t.judge, 1, 1), await start(second, 2, 1)]
    before = len(t.public())
    await t.say("/tournament", chat=t.group, user=chief)
    view = t.public()[before:][0].splitlines()
    assert view[0] == "Турнир №1: игр — 2, столов — 2; главный судья — Владелец."
    assert view[1] == "Стол 1 (судья — Судья): игра 1 из 2: подготовка"
    assert view[2] == "Стол 2 (судья — Игрок1): игра 1 из 2: подготовка"
    await play(t.judge, script(1, 1))
    await play(second, script(1, 2)[:2])
    before = len(t.public())
    await t.say("/tournament close", chat=t.group, user=chief)  # table 2 still plays
    assert t.public()[before:] == ["За столом 2 идёт игра: турнир закрывается, когда она окончена."]
    await play(second, script(1, 2)[2:])

    games += [await start(t.judge, 1, 2), await start(second, 2, 2)]
    before = len(t.public())
    await t.say("/tournament close", chat=t.group, user=chief)  # both tables play
    assert t.public()[before:] == ["За столами 1, 2 идут игры: турнир закрывается, когда они окончены."]
    await play(second, script(2, 2)[:3])  # day 1 of table 2's second game …
    before = len(t.public())
    await t.say("/tournament", chat=t.group, user=chief)
    view = t.public()[before:][0].splitlines()
    assert view[1].startswith("Стол 1 (судья — Судья): игра 2 из 2: подготовка; игра 1: победа ")
    assert view[2].startswith("Стол 2 (судья — Игрок1): игра 2 из 2: день 1; игра 1: победа ")
    await t.say("/new fiim2024", chat=chief, user=chief)  # a game of his own, not the tournament's
    before = len(t.public())
    await t.say("/table 2", chat=t.group, user=chief)  # its game would have nowhere to go
    assert t.public()[before:] == ["В вашем чате идёт ваша игра: сначала доведите её до конца, "
                                   "затем забирайте стол 2 вместе с его игрой."]
    assert (await t.service.store.tournament(club)).judges[2] == f"tg:{second.id}"
    await play(chief, script(2, 2))  # over (its rows go to his own chat's club)
    await t.say("/table 2", chat=t.group, user=chief)  # … when the chief judge takes it over
    moved = await t.service.current(f"tg:{chief.id}")
    assert moved is not None and moved.game_id == games[3] and moved.judge == f"tg:{chief.id}"
    assert (await t.service.store.tournament(club)).judges[2] == f"tg:{chief.id}"
    assert t.panel(chief).buttons  # his panel for the game
    before = len(t.public())
    await t.say("/tournament close", chat=t.group, user=second)
    assert t.public()[before:] == ["Закрыть турнир может только главный судья (Владелец)."]
    await play(chief, script(2, 2)[3:])
    await play(t.judge, script(2, 1))

    before = len(t.public())
    await t.say("/tournament close", chat=t.group, user=chief)
    assert t.public()[before:][-1] == "Итоговая таблица и протоколы игр опубликованы в канале Клубный канал."
    await t.fake.wait_for(lambda: len(json_protocols(t, channel)) == 4, timeout=30,
                          what="the four games' protocols in the channel")
    assert set(json_protocols(t, channel)) == {f"game-{g}.json" for g in games}
    posted = [m.text for m in t.fake.sent(channel) if m.text and m.text.startswith("Турнир №1")]
    assert len(posted) == 1
    lines = posted[0].splitlines()
    assert lines[0].startswith("Турнир №1: итоговая таблица (ФИИМ 2024), сыграно игр — 4")
    expected: dict[str, Decimal] = {}
    for doc in json_protocols(t, channel).values():
        for seat, points in doc["points"]["seats"].items():
            name = doc["names"][seat]
            expected[name] = expected.get(name, Decimal(0)) + Decimal(points["total"])
    standings = {line.split(". ", 1)[1].split(" — ")[0]: Decimal(line.split(" — ")[1].split(" (")[0])
                 for line in lines[1:-1]}
    assert standings == expected and len(standings) == 20
    totals = [standings[line.split(". ", 1)[1].split(" — ")[0]] for line in lines[1:-1]]
    assert totals == sorted(totals, reverse=True)
    assert await t.service.store.tournament(club) is None
    # the table's old judge was told once that the chief judge took the game over: his private
    # chat is the game's home, so the table's notice would have said it to him a second time
    told = [m.text for m in t.fake.sent(second) if m.text and f"Игру №{games[3]} теперь" in m.text]
    assert told == [f"Игру №{games[3]} теперь судит Владелец (администратор группы). "
                    "Панель этой игры у вас больше не работает."]
