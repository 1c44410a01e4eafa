"""A hosted table of a tournament over the fake Bot API (issue 17, part 4: "its tables — each a
Telegram judge's panel, a Discord channel, or a hosted table"). The chief judge opens a tournament
of ten players and two games in the club's group and gives its table to another group's bot
(``/table 1 host`` there). Each ``/newgame`` of that group then gathers the plan's game: a player
takes the plan's seat of his roster entry (his account), else of his own Telegram name or of the
name he types (``/join Имя``) when no other account has it in the club; the seats are the plan's,
not the join order. The chief judge's ``/tournament`` shows the hosted table's game, a take-over
of it and the close are refused while it plays, and the close posts the standings — the two
games' protocols summed (F24/S24 §8) — with both protocols to the club's channel. The first
game's accounts are remembered: in the second game every player is seated by his account."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from bot.i18n import catalog
from fakebot import FakeBotAPI, FakeChat
from rules import Phase, Role
from support.host_table import FAST, NAMES, HostTable, World, host_table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")

SLOW = f"{FAST} timers.speech=600"  # no speech ends by itself while the test looks
#: The plan's names: the players' Telegram names, but the tenth («Кирилл») is «Кир» in the club.
PLAN = [*NAMES[:9], "Кир"]
RU = catalog("ru")


def protocols(t: HostTable, chat: FakeChat) -> dict[str, dict]:
    """Our JSON protocols the bot sent to ``chat``, by file name."""
    return {m.document["file_name"]: json.loads(t.fake.files[m.document["file_id"]].data)
            for m in t.fake.sent(chat) if m.document and m.document["file_name"].count(".") == 1}


def texts(t: HostTable, chat: FakeChat) -> list[str]:
    return [x for m in t.fake.sent(chat) for x in m.texts if x]


async def said(t: HostTable, chat: FakeChat, user: object, text: str) -> list[str]:
    """The messages the bot posts in ``chat`` in answer to ``text`` there (edits left out)."""
    before = len(t.fake.sent(chat))
    await t.say(user, text, chat=chat)
    return [m.texts[0] for m in t.fake.sent(chat)[before:] if m.texts and m.texts[0]]


async def end_game(t: HostTable) -> None:
    """Day 1: the host's team loss of the Don's team (seed 4.3.1) ends the game."""
    await t.wait_floor(1, consume=False)
    (don,) = await t.seats_of(Role.DON)
    await t.say(t.owner, f"/ppk {don} 4.3.1")
    await t.wait_over(timeout=30)


async def test_a_hosted_table_plays_the_tournaments_games_to_its_standings(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    owner = fake.add_user("Ведущий", "host", started=True)
    players = [fake.add_user(name, f"p{i}", started=True) for i, name in enumerate(NAMES, 1)]
    outsider = fake.add_user("Анна", "another_anna", started=True)  # the same name, another account
    world = World(owner, fake.add_group("Онлайн-стол", creator=owner, members=[*players, outsider],
                                        supergroup=True), players)
    club = fake.add_group("Клуб", creator=owner, members=players, supergroup=True)
    channel = fake.add_channel("Клубный канал", username="club_news")
    async with host_table(fake, tmp_path / "referee.sqlite3", world) as t:
        store = t.service.store
        club_key, group_key = f"tg:{club.id}", f"tg:{t.group.id}"
        anna = f"tg:{t.players[0].id}"
        await store.add_player(club_key, "Анна", anna)  # the roster knows Анна's account
        await t.say(t.owner, "/channel @club_news", chat=club)
        opened = await said(t, club, t.owner, "/tournament open 2 fsm " + ", ".join(PLAN))
        assert opened[0].startswith("Турнир №1 открыт: игр — 2, игроков — 10, столов — 1")

        # the group's bot takes the table: the chief judge only, an admin of the group
        refused = await said(t, t.group, t.players[1], "/table 1 host")  # no tournament of his
        assert refused == [RU.text("tournament-none")]
        refused = await said(t, club, t.players[1], "/table 1 host")  # the club's: not the chief
        assert refused == [RU.text("tournament-host-chief-only", chief="Ведущий")]
        assert (await store.tournament(club_key)).judges == {1: None}
        assert (await said(t, t.group, t.owner, "/table 1 host"))[0].startswith(
            "Стол 1 турнира №1 ведёт здесь бот-ведущий; следующая — игра 1 из 2")
        assert (await store.tournament(club_key)).judges == {1: f"host:{group_key}"}
        plan = await store.tournament(club_key)
        names = plan.rounds[0][0]
        assert sorted(names) == sorted(PLAN)

        await t.say(t.owner, f"/newgame {SLOW}")
        lobby = t.lobby().text or ""
        assert lobby.startswith("🎲 Турнир №1, стол 1: набор на игру 1 из 2")
        assert all(f"{seat}. {name} — свободно" in lobby for seat, name in enumerate(names, 1))
        query = await t.press(outsider, t.lobby(), "Записаться")  # «Анна» is another account's
        assert fake.callback_answers[query].show_alert
        assert fake.callback_answers[query].text == RU.text("host-tournament-other-account", name="Анна")
        kirill = t.players[9]
        query = await t.press(kirill, t.lobby(), "Записаться")  # «Кирилл» is not in the plan
        assert fake.callback_answers[query].text.startswith("Имени «Кирилл» нет в рассадке игры 1")
        assert t.table().players == []
        for player in t.players[:9]:  # their Telegram names (Анна: her account) are the plan's
            await t.press(player, t.lobby(), "Записаться")
        assert await said(t, t.group, outsider, "/join Борис") == [
            RU.text("host-tournament-taken", seat=names.index("Борис") + 1, name="Борис")]
        assert len(t.table().players) == 9
        assert f"Кирилл — место {names.index('Кир') + 1} (Кир)." in await said(
            t, t.group, kirill, "/join кир")
        await t.wait_step("night_zero")

        # the seats are the plan's, each the account that took its name
        state = await t.state()
        assert [s.name for s in state.seats] == list(names)
        accounts = {p.first_name: f"tg:{p.id}" for p in t.players}
        accounts["Кир"] = accounts.pop("Кирилл")
        assert t.table().seats == {seat: accounts[name] for seat, name in enumerate(names, 1)}
        games = [t.table().game_id]
        assert (await store.tournament(club_key)).played == {(1, 1): games[0]}

        view = (await said(t, club, t.owner, "/tournament"))[0].splitlines()
        assert view[1].startswith(f"Стол 1 (судья — бот-ведущий в «{t.group.title}»): игра 1 из 2: ")
        assert await said(t, club, t.owner, "/tournament close") == [
            "За столом 1 идёт игра: турнир закрывается, когда она окончена."]
        assert await said(t, club, t.owner, "/table 1") == [  # the chief judge's take-over
            RU.text("tournament-hosted-running", table=1, group=t.group.title)]
        assert (await store.tournament(club_key)).judges == {1: f"host:{group_key}"}
        await end_game(t)

        # game 2: the accounts are known now (Кирилл's is «Кир»'s): the button seats everyone
        roster = await store.find_player(club_key, accounts["Кир"])
        assert roster is not None and roster.name == "Кир"
        await t.say(t.owner, f"/newgame {SLOW}")
        t.seen = 0  # a new table: its steps are counted from 1 again
        assert (t.lobby().text or "").startswith("🎲 Турнир №1, стол 1: набор на игру 2 из 2")
        names = plan.rounds[1][0]
        for player in t.players[:9]:
            await t.press(player, t.lobby(), "Записаться")
        # while its lobby gathers, the table is on: no take-over, no close
        assert await said(t, club, t.owner, "/table 1") == [
            RU.text("tournament-hosted-running", table=1, group=t.group.title)]
        assert await said(t, club, t.owner, "/tournament close") == [
            "За столом 1 идёт игра: турнир закрывается, когда она окончена."]
        # a lobby whose place moved meanwhile (a race the refusals above leave) is not dealt
        await store.seat_judge(plan.id, 1, f"tg:{t.owner.id}")
        stopped = await said(t, t.group, t.players[9], "/join Кир")
        assert RU.text("host-stopped", who=RU.text("host-tournament-moved", table=1)) in stopped
        assert t.table().status == "stopped" and t.table().game_id is None and not t.table().seats
        assert (await store.tournament(club_key)).played == {(1, 1): games[0]}
        await t.say(t.owner, "/table 1 host")  # the table back to the group's bot
        await t.say(t.owner, f"/newgame {SLOW}")
        for player in t.players:
            await t.press(player, t.lobby(), "Записаться")
        await t.wait_step("night_zero")
        state = await t.state()
        assert [s.name for s in state.seats] == list(names)
        assert t.table().seats == {seat: accounts[name] for seat, name in enumerate(names, 1)}
        games.append(t.table().game_id)
        await end_game(t)
        assert (await t.state()).phase is Phase.GAME_OVER
        # no game on: the chief judge may take the table (a judge's panel from now on)
        assert (await said(t, club, t.owner, "/table 1"))[0].startswith("Стол 1 передан: судья — ")
        assert (await store.tournament(club_key)).judges == {1: f"tg:{t.owner.id}"}

        closed = await said(t, club, t.owner, "/tournament close")
        assert closed[-1] == "Итоговая таблица и протоколы игр опубликованы в канале Клубный канал."
        await fake.wait_for(lambda: {f"game-{g}.json" for g in games} <= set(protocols(t, channel)),
                            timeout=30, what="both games' protocols in the channel")
        standings = next(x for x in texts(t, channel) if x.startswith("Турнир №1"))
        totals: dict[str, Decimal] = {}
        for game in games:
            doc = protocols(t, channel)[f"game-{game}.json"]
            row = await store.game(game)
            for seat, points in doc["points"]["seats"].items():
                name = row.names[int(seat)]
                totals[name] = totals.get(name, Decimal(0)) + Decimal(points["total"])
        shown = {}
        for line in standings.splitlines()[1:]:
            place, _, rest = line.partition(". ")
            if place.isdecimal() and " — " in rest:
                name, _, figures = rest.partition(" — ")
                shown[name] = Decimal(figures.split(" (")[0])
        assert shown == totals and len(shown) == 10
