"""A club's tournament evening (issue 17, part 4) through the console's database, on either
store backend: a chief judge opens a tournament of two tables and two games with a seating plan;
each table's next game is started with its seats named by the plan; the view shows every table;
the standings at the close add up the games' protocols (F24/S24 §8) with the tie-breaks of
§8.7.1. Bad input (no tournament, an unknown table, a busy table, not the chief judge, a game
still running) is refused and changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

import rules
from bot.club.seating import SEATS
from bot.console import Session
from bot.i18n import catalog
from bot.protocol import to_json
from bot.service import Service
from storage import Store
from storage.club import Tournament

PLAYERS = [f"Игрок {n:02d}" for n in range(1, 21)]
#: Short games: the roles, the first speech, a team loss of the offender's team (F24 §7.2).
GAMES = [("D2 M5 M7 S8", 7), ("D1 M4 M9 S10", 9), ("D3 M6 M10 S1", 1), ("D10 M2 M3 S4", 4)]


@pytest.fixture
def store(any_store: Store) -> Store:
    return any_store


async def begin(session: Session, roles: str) -> None:
    for line in (f"/roles {roles}", "/start"):
        reply = await session.handle(line)
        assert reply.accepted, (line, reply.lines)


async def end(session: Session, offender: int) -> None:
    for line in ("/next", f"/ppk {offender} 4.3.1"):
        reply = await session.handle(line)
        assert reply.accepted, (line, reply.lines)


async def finish(session: Session, roles: str, offender: int) -> None:
    await begin(session, roles)
    await end(session, offender)


def standings_of(lines: list[str]) -> dict[str, Decimal]:
    """The standings' players and totals, from ``club-rating-line``'s words."""
    out = {}
    for line in lines:
        place, _, rest = line.partition(". ")
        if place.isdecimal() and " — " in rest:
            name, _, figures = rest.partition(" — ")
            out[name] = Decimal(figures.split(" (")[0])
    return out


async def expected_points(store: Store, game_ids: list[int]) -> dict[str, Decimal]:
    """Each player's points summed over ``game_ids``, as their protocols give them."""
    out: dict[str, Decimal] = {}
    for game_id in game_ids:
        row = await store.game(game_id)
        assert row is not None
        events = [rules.from_dict(r.event) for r in await store.events(game_id)]
        doc = to_json(rules.config_from_dict(row.config), row.names, events)
        for seat, points in doc["points"]["seats"].items():
            name = row.names[int(seat)]
            out[name] = out.get(name, Decimal(0)) + Decimal(points["total"])
    return out


async def test_a_tournament_of_two_tables_runs_to_its_standings_at_the_console(store: Store) -> None:
    service = Service(store)
    chief = Session(service, catalog("ru"))
    await chief.open()
    assert (await chief.handle("/tournament")).lines == [
        catalog("ru").text("tournament-none")]
    assert "Напишите так" in (await chief.handle("/tournament open")).lines[0]
    assert (await chief.handle("/table 1")).lines == [catalog("ru").text("tournament-none")]

    opened = (await chief.handle("/tournament open 2 fsm " + ", ".join(PLAYERS))).lines
    assert opened[0].startswith("Турнир №1 открыт: игр — 2, игроков — 20, столов — 2")
    plan = await store.tournament(chief.chat)
    assert plan is not None and plan.tables == 2 and plan.games == 2 and plan.scheme == "fsm"
    for game in plan.rounds:  # every player seated once per game (bot/club/seating.py)
        seated = [p for table in game for p in table]
        assert sorted(seated) == sorted(PLAYERS) and all(len(t) == SEATS for t in game)
    printed = [line for line in opened if line.startswith("Игра ")]  # per game and table
    assert len(printed) == 4 and printed[1].startswith("Игра 1, стол 2: 1. ")
    again = (await chief.handle("/tournament open 2 " + ", ".join(PLAYERS))).lines
    assert again == [catalog("ru").text("club-error-tournament_open")]

    assert (await chief.handle("/table 3")).lines == [catalog("ru").text("tournament-bad-table", tables=2)]
    assert (await chief.handle("/table 1 host")).lines == [  # no hosted tables at the console
        catalog("ru").text("tournament-host-unavailable")]
    game_ids: list[int] = []
    for game_no in (1, 2):
        for table in (1, 2):
            assert "судья" in (await chief.handle(f"/table {table}")).lines[0]
            started = (await chief.handle("/new")).lines
            current = await service.current(chief.chat)
            assert current is not None
            names = plan.rounds[game_no - 1][table - 1]
            assert [s.name for s in current.state.seats] == list(names)  # the plan's seats
            assert any(line.startswith(f"Стол {table}, игра {game_no} из 2 турнира: 1. {names[0]}")
                       for line in started)
            view = (await chief.handle("/tournament")).lines
            assert view[1 + table - 1].startswith(f"Стол {table} (судья — ")
            assert f"игра {game_no} из 2: подготовка" in view[table]
            if (game_no, table) == (1, 1):  # a game set aside gives its place to the next one
                assert (await chief.handle("/new")).lines[0].startswith("Игра №")  # asks first
                again = (await chief.handle("/new")).lines
                assert any(line.startswith("Стол 1, игра 1 из 2 турнира: ") for line in again)
                replaced = current
                current = await service.current(chief.chat)
                assert current is not None and current.game_id != replaced.game_id
                assert [s.name for s in current.state.seats] == list(names)
                assert (await store.tournament(chief.chat)).played == {(1, 1): current.game_id}
            roles, offender = GAMES[len(game_ids)]
            await begin(chief, roles)
            if table == 1:  # the other table may not be taken while this one's game runs
                assert (await chief.handle("/table 2")).lines == [
                    catalog("ru").text("tournament-finish-first", table=1)]
                assert (await chief.handle("/tournament close")).lines == [
                    "За столом 1 идёт игра: турнир закрывается, когда она окончена.",
                    catalog("ru").text("tournament-still-running-aside", table=1)]
            await end(chief, offender)
            game_ids.append(current.game_id)
    view = (await chief.handle("/tournament")).lines
    assert all("сыграны все игры (2)" in line for line in view[1:])
    # an undo of the last game's end takes it back: its table plays again, the close waits
    assert (await chief.handle("/undo")).accepted
    assert (await chief.handle("/tournament close")).lines == [
        "За столом 2 идёт игра: турнир закрывается, когда она окончена.",
        catalog("ru").text("tournament-still-running-aside", table=2)]
    assert "игра 2 из 2: день 1" in (await chief.handle("/tournament")).lines[2]
    assert (await chief.handle(f"/ppk {GAMES[3][1]} 4.3.1")).accepted

    other = Session(service, catalog("ru"), user="console:someone")  # not the chief judge
    refused = (await other.handle("/tournament close")).lines
    assert refused[0].startswith("Закрыть турнир может только главный судья")
    assert (await other.handle("/table 2")).lines[0].startswith("Стол 2 ведёт ")  # the chief's
    taken = (await other.handle("/table 1")).lines  # a free table: anyone may run it
    assert taken == ["Стол 1: судья — console:someone; все его игры сыграны."]
    assert (await store.tournament(chief.chat)) is not None  # still open

    closed = (await chief.handle("/tournament close")).lines
    assert closed[0].startswith("Турнир №1: итоговая таблица (ФСМ 2024), игр в зачёте — 4")
    assert standings_of(closed) == await expected_points(store, game_ids)
    assert len(standings_of(closed)) == 20
    assert await store.tournament(chief.chat) is None
    # the tournament's games count in the club's history as any other
    stats = "\n".join((await chief.handle(f"/stats {PLAYERS[0]}")).lines)
    assert "игр 2," in stats
    # after the close a new game is a free one again: no seats named
    await chief.handle("/new")
    current = await service.current(chief.chat)
    assert current is not None and not any(s.name for s in current.state.seats)


async def test_a_tables_game_and_its_place_in_the_plan_are_one_transaction(store: Store) -> None:
    """The game a tournament's table starts and its row in the tournament are written together
    (a crash between once left a plain game, and the plan's place was played again): with every
    club write after the creation failing, ``/new`` still gives the table its game of the plan;
    a creation that fails inside its transaction leaves neither the game nor the row."""
    service, chief, found = await opened(store, PLAYERS[:10])
    assert (await chief.handle("/table 1")).accepted

    async def crash(work: object) -> object:  # the process dies at its next club write
        raise RuntimeError("killed")

    writes = store._club_write
    store._club_write = crash  # type: ignore[method-assign]
    try:
        started = (await chief.handle("/new")).lines
    finally:
        store._club_write = writes  # type: ignore[method-assign]
    current = await service.current(chief.chat)
    assert current is not None
    assert (await store.tournament(chief.chat)).played == {(1, 1): current.game_id}
    assert [s.name for s in current.state.seats] == list(found.rounds[0][0])
    assert any(line.startswith("Стол 1, игра 1 из 2 турнира: ") for line in started)

    def fails(game_id: int) -> list:  # the creation's own transaction fails after the row
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        await store.create_game(chief.chat, chief.user, rules.config_to_dict(rules.PRESETS["seed"]),
                                {}, outbox=fails, tournament=(found.id, 2))
    after = await store.tournament(chief.chat)
    assert after.played == {(1, 1): current.game_id}  # table 2 has no game, no stray row
    assert (await store.current_game(chief.chat)).id == current.game_id


async def new(session: Session) -> int:
    """``/new``, confirmed when the chat's game is unfinished (the console asks first); its id."""
    lines = (await session.handle("/new")).lines
    if lines[0].startswith("Игра №"):
        assert (await session.handle("/new")).accepted
    current = await session.service.current(session.chat)
    assert current is not None
    return current.game_id


async def opened(store: Store, players: list[str]) -> tuple[Service, Session, Tournament]:
    """A chief judge at the console who opened a tournament of two games over ``players``: the
    service, his session, the tournament as stored."""
    service = Service(store)
    chief = Session(service, catalog("ru"))
    await chief.open()
    assert (await chief.handle("/tournament open 2 " + ", ".join(players))).accepted
    found = await store.tournament(chief.chat)
    assert found is not None
    return service, chief, found


def games_of(lines: list[str]) -> dict[str, int]:
    """The standings' players and their games counted (``club-rating-line``: "… из N; …")."""
    return {line.partition(". ")[2].partition(" — ")[0]: int(line.split(" из ")[1].split(",")[0].split(";")[0])
            for line in lines if line.partition(". ")[0].isdecimal()}


@pytest.mark.parametrize("count", [10, 20, 30])
async def test_a_game_never_started_gives_its_place_back_at_a_table_change_and_the_close(
        store: Store, count: int) -> None:
    """A table's game still in its setup (never /start-ed) blocks neither the judge's move to
    another table nor the close: it is set aside from the tournament, said in a line (its place
    in the plan free again, or the tournament closing without it); the game itself is left to
    its judge. The close counts the one game that ended (10 players, 1 game each)."""
    ru = catalog("ru")
    service, chief, found = await opened(store, [f"Игрок {n:02d}" for n in range(1, count + 1)])
    assert found.tables == count // 10
    assert (await chief.handle("/table 1")).accepted
    played = await new(chief)
    await finish(chief, *GAMES[0])
    left = None  # the game left in its setup at the table before
    for table in range(1, found.tables + 1):
        lines = (await chief.handle(f"/table {table}")).lines
        if left is not None:
            number = 2 if table == 2 else 1  # table 1 had played its game 1
            assert lines[0] == ru.text("tournament-set-aside", table=table - 1, id=left, game=number,
                                       games=2, started="no", closing="no")
            assert f"снята с турнира: в зачёт она не идёт, её место в рассадке свободно — " \
                f"следующая /new за этим столом начнёт игру {number} по рассадке заново" in lines[0]
        assert lines[-1].startswith(f"Стол {table}: судья — ") or lines[-1] == \
            ru.text("tournament-table-yours", table=1)
        after = await store.tournament(chief.chat)
        assert after.played == {(1, 1): played}  # the game set aside holds no place
        left = await new(chief)
        assert (await store.tournament(chief.chat)).played[(table, 2 if table == 1 else 1)] == left
        current = await service.current(chief.chat)
        assert current is not None and current.state.phase is rules.Phase.SETUP
    closed = (await chief.handle("/tournament close")).lines
    last = found.tables
    assert closed[0] == ru.text("tournament-set-aside", table=last, id=left, game=2 if last == 1 else 1,
                                games=2, started="no", closing="yes")
    assert "турнир закрывается без неё" in closed[0]
    assert closed[1].startswith("Турнир №1: итоговая таблица (ФИИМ 2024), игр в зачёте — 1;")
    assert games_of(closed) == {name: 1 for name in found.rounds[0][0]}
    assert not any(line.startswith("Не в зачёте") for line in closed)
    assert await store.tournament(chief.chat) is None
    current = await service.current(chief.chat)  # the game itself is its judge's, untouched
    assert current is not None and current.game_id == left and not current.finished


@pytest.mark.parametrize("count", [10, 20, 30])
async def test_a_started_game_that_will_not_be_finished_is_set_aside_by_the_chief_judge(
        store: Store, count: int) -> None:
    """A started game blocks the close, whose refusal names the table and ``/table N aside``;
    that command (the chief judge or the table's judge; anyone else refused, nothing changes)
    sets the game aside: its place in the plan is free, the table's next ``/new`` seats that
    game of the plan again, and the close counts only what counts."""
    ru = catalog("ru")
    service, chief, found = await opened(store, [f"Игрок {n:02d}" for n in range(1, count + 1)])
    table = found.tables  # the last table
    assert (await chief.handle(f"/table {table}")).accepted
    assert (await chief.handle(f"/table {table} aside")).lines == [
        ru.text("tournament-aside-nothing", table=table)]
    game = await new(chief)
    await begin(chief, GAMES[0][0])
    assert (await chief.handle("/next")).accepted  # day 1
    refused = (await chief.handle("/tournament close")).lines
    assert refused == [f"За столом {table} идёт игра: турнир закрывается, когда она окончена.",
                       ru.text("tournament-still-running-aside", table=table)]
    other = Session(service, ru, user="console:someone")
    assert (await other.handle(f"/table {table} aside")).lines == [
        ru.text("tournament-aside-who", table=table, chief=chief.user)]
    assert (await other.handle(f"/table {table + 1} aside")).lines == [
        ru.text("tournament-bad-table", tables=table)]
    assert (await store.tournament(chief.chat)).played == {(table, 1): game}  # nothing changed

    assert (await chief.handle(f"/table {table} aside")).lines == [
        ru.text("tournament-set-aside", table=table, id=game, game=1, games=2, started="yes",
                closing="no")]
    assert (await store.tournament(chief.chat)).played == {}
    assert (await chief.handle(f"/table {table} aside")).lines == [
        ru.text("tournament-aside-nothing", table=table)]
    view = (await chief.handle("/tournament")).lines
    assert view[table] == f"Стол {table} (судья — {chief.user}): ждёт игру 1 из 2"
    again = await new(chief)  # the same game of the plan, seated again
    current = await service.current(chief.chat)
    assert current is not None and [s.name for s in current.state.seats] == list(found.rounds[0][table - 1])
    assert (await store.tournament(chief.chat)).played == {(table, 1): again}
    await finish(chief, *GAMES[1])
    closed = (await chief.handle("/tournament close")).lines
    assert closed[0].startswith("Турнир №1: итоговая таблица (ФИИМ 2024), игр в зачёте — 1;")
    assert games_of(closed) == {name: 1 for name in found.rounds[0][table - 1]}


async def test_a_game_over_without_roles_does_not_count_and_the_close_says_so(store: Store) -> None:
    """A game ended by ``/result`` with its roles never entered has no players' rows (no teams,
    no points): the view marks it, and the close counts the games that count — the same as the
    standings' games per player — and names the one that does not."""
    ru = catalog("ru")
    service, chief, found = await opened(store, PLAYERS[:10])
    assert (await chief.handle("/table 1")).accepted
    first = await new(chief)
    await finish(chief, *GAMES[0])
    second = await new(chief)
    for line in ("/start", "/next", "/result red"):
        assert (await chief.handle(line)).accepted, line
    view = (await chief.handle("/tournament")).lines
    assert view[1].endswith("игра 2: победа красных (не в зачёте: роли не внесены)")
    closed = (await chief.handle("/tournament close")).lines
    assert closed[0].startswith("Турнир №1: итоговая таблица (ФИИМ 2024), игр в зачёте — 1;")
    assert games_of(closed) == {name: 1 for name in found.rounds[0][0]}
    assert closed[-1] == ru.text("tournament-not-counted", id=second, table=1, game=2, why="no-roles")
    assert closed[-1] == ("Не в зачёте: игра №2 (стол 1, игра 2) — окончена без внесённых ролей, "
                          "очков нет.")
    assert first != second
