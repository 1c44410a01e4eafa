"""A club's players across games (issue 17): each finished game leaves one row per seated player,
stored with the action that ended it; the roster keeps a player per account or nickname, renames
and merges keep history, and a player's own data can be forgotten. Every figure is checked
against the game's protocol (``bot.protocol.to_json``: its points, F24/S24 §8)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import rules
from bot.club.facts import seat_facts
from bot.protocol import to_json
from bot.service import Service
from storage import ClubError, StaleRevision, Store

from scenarios.harness import Table
from support import club
from support.stores import rows as sql_rows

CLUB = "tg:-100777"
JUDGE = "tg:42"
NAMES = club.NAMES
store = club.store  # this module's store tests run on both backends (SQLite, PostgreSQL)


def team_loss_game(preset: str, offender: int = 9) -> Table:
    """D8 M9 M10 S5: black #offender swears an oath on day 1 (seed 4.3.1): red wins."""
    t = Table(preset=preset)
    t.team_loss(offender, "4.3.1")
    return t


def best_move_game(preset: str, *guesses: int, victim: int = 1) -> Table:
    """Night 1 kills ``victim``, who names ``guesses`` (F24 §4.5.9); black #10's oath on day 2
    ends it: red wins."""
    t = Table(preset=preset)
    t.skip_day()
    t.shoot(victim)
    while t.state.night is not None and t.state.night.step is not rules.NightStep.BEST_MOVE:
        t.next()
    t.best_move(*guesses)
    t.hear_morning()
    t.foul(3)
    t.team_loss(10, "4.3.1")
    return t


async def play(service: Service, table: Table, names: dict[int, str] = NAMES,
               club: str = CLUB) -> int:
    """The table's log played through the service in ``club``; the game's id."""
    outcome = await service.new_game(club, JUDGE, table.state.config, names)
    for event in table.log:
        await service.act(club, JUDGE, event)
    return outcome.game_id


def protocol_points(table: Table, names: dict[int, str] = NAMES) -> dict[str, Decimal]:
    """Each player's total by name, as the game's protocol states it."""
    doc = to_json(table.state.config, names, table.log)
    return {names[int(seat)]: Decimal(p["total"]) for seat, p in doc["points"]["seats"].items()}


@pytest.mark.parametrize("preset", ["seed", "fiim2024", "fsm2024"])
async def test_a_finished_game_leaves_a_row_per_player_agreeing_with_its_protocol(
        store: Store, preset: str) -> None:
    service = Service(store)
    games = [team_loss_game(preset), best_move_game(preset, 8, 9, 2), team_loss_game(preset, 10)]
    expected: dict[str, Decimal] = {}
    for table in games:
        await play(service, table)
        for name, points in protocol_points(table).items():
            expected[name] = expected.get(name, Decimal(0)) + points
    totals = await store.club_totals(CLUB)
    assert {t.name: Decimal(t.points) / 100 for t in totals.values()} == expected
    by_name = {t.name: t for t in totals.values()}
    assert all(t.games == 3 for t in totals.values())
    assert by_name["Аня"].wins == 3 and by_name["Игорь"].wins == 0  # red won all three
    assert by_name["Даша"].by_role == {"sheriff": (3, 3)} and by_name["Зоя"].by_role == {"don": (3, 0)}
    assert by_name["Аня"].first_killed == 1 and by_name["Аня"].best_moves == 1
    assert by_name["Аня"].best_move_hits == 2  # 8 and 9 are black, 2 is red (F24 §8.3.4)
    assert by_name["Вика"].fouls == 1
    assert by_name["Игорь"].removed == 1 and by_name["Кира"].removed == 2  # the team losses
    assert [g.result for g in await store.club_games(CLUB)] == ["red", "red", "red"]


async def test_extra_points_after_the_end_and_an_undo_of_the_end_follow_the_game(store: Store) -> None:
    """The judge's extra points come after the result (F24 §8.4): the rows follow them; an undo
    that takes the end back deletes them, and the end again writes them again."""
    service = Service(store)
    table = team_loss_game("fiim2024")
    await play(service, table)
    before = (await store.club_totals(CLUB))
    anya = next(t for t in before.values() if t.name == "Аня")
    await service.act(CLUB, JUDGE, rules.Extra(seat=1, points="0.4"))
    table.do(rules.Extra(seat=1, points="0.4"))
    after = {t.name: Decimal(t.points) / 100 for t in (await store.club_totals(CLUB)).values()}
    assert after == protocol_points(table)
    assert after["Аня"] > Decimal(anya.points) / 100
    await service.undo(CLUB, JUDGE, steps=2)  # the extra, then the oath that ended it
    assert await store.club_totals(CLUB) == {}
    assert await store.club_games(CLUB) == []


async def test_an_abandoned_game_and_a_game_with_roles_unknown_count_for_nobody(store: Store) -> None:
    service = Service(store)
    await service.new_game(CLUB, JUDGE, rules.PRESETS["seed"], NAMES)
    await service.act(CLUB, JUDGE, rules.StartGame())
    await service.abandon(CLUB, JUDGE)
    await service.new_game(CLUB, JUDGE, rules.PRESETS["seed"], NAMES)
    await service.act(CLUB, JUDGE, rules.StartGame())
    await service.act(CLUB, JUDGE, rules.DeclareResult("black"))  # roles unknown: no teams
    assert await store.club_totals(CLUB) == {}


async def test_the_roster_matches_names_case_folded_and_keeps_clubs_apart(store: Store) -> None:
    service = Service(store)
    await play(service, team_loss_game("seed"))
    await play(service, team_loss_game("seed"), {**NAMES, 1: "аня", 2: "БОРЯ"})
    await play(service, team_loss_game("seed"), club="tg:-100888")
    roster = await store.roster(CLUB)
    assert len(roster) == 10 and {p.name for p in roster} == set(NAMES.values())
    assert all(p.games == 2 for p in roster)
    assert [p.name for p in await store.roster(CLUB, like="ж")] == ["Жанна"]
    assert (await store.find_player(CLUB, "АНЯ")).name == "Аня"  # type: ignore[union-attr]
    assert len(await store.roster("tg:-100888")) == 10


async def test_rename_and_merge_keep_history_and_games(store: Store) -> None:
    service = Service(store)
    await play(service, team_loss_game("seed"))
    await play(service, team_loss_game("seed"), {**NAMES, 1: "Анна"})  # the same person, typed anew
    anya, anna = await store.find_player(CLUB, "Аня"), await store.find_player(CLUB, "Анна")
    assert anya is not None and anna is not None and anya.id != anna.id
    await store.merge_players(CLUB, anna.id, anya.id)
    merged = await store.find_player(CLUB, "анна")  # the merged entry's name finds the survivor
    assert merged is not None and merged.id == anya.id and merged.games == 2
    await store.rename_player(CLUB, anya.id, "Анна Петрова")
    assert (await store.find_player(CLUB, "Анна Петрова")).games == 2  # type: ignore[union-attr]
    with pytest.raises(ClubError, match="name_taken"):
        await store.rename_player(CLUB, anya.id, "боря")
    with pytest.raises(ClubError, match="same_player"):
        await store.merge_players(CLUB, anya.id, anya.id)
    exported = await store.export_club(CLUB)
    entry = next(p for p in exported["players"] if p["id"] == anya.id)
    assert entry["names"] == ["Аня", "Анна", "Анна Петрова"]
    assert sum(1 for g in exported["games"] if g["player_id"] == anya.id) == 2
    await play(service, team_loss_game("seed"), {**NAMES, 1: "Анна"})  # the old name, typed again
    assert (await store.find_player(CLUB, "Анна Петрова")).games == 3  # type: ignore[union-attr]


async def test_forget_deletes_an_accounts_rows_and_entry_but_not_the_log(store: Store) -> None:
    service = Service(store)
    game = await play(service, team_loss_game("seed"))
    player = await store.add_player(CLUB, "Вася", account="tg:5")
    anya = await store.find_player(CLUB, "Аня")
    assert anya is not None
    await store.merge_players(CLUB, anya.id, player)  # Аня's games were Вася's account's
    assert (await store.find_player(CLUB, "tg:5")).games == 1  # type: ignore[union-attr]
    assert await store.forget_player(CLUB, "tg:5") == 1
    assert await store.find_player(CLUB, "tg:5") is None and await store.find_player(CLUB, "Аня") is None
    assert len(await store.club_totals(CLUB)) == 9
    assert len(await store.events(game)) == len(team_loss_game("seed").log)  # the protocol stays
    assert await store.forget_player(CLUB, "tg:5") == 0


def test_seat_facts_are_empty_before_the_end() -> None:
    t = Table(preset="seed")
    assert seat_facts(t.state) == []


# --- the monthly sums agree with the rows, for any period -------------------------------------

ROLES = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")
UTC = dt.timezone.utc


def _at(*parts: int) -> float:
    return dt.datetime(*parts, tzinfo=UTC).timestamp()


#: When the games end: inside months, at a month's first and last second, a year's end.
FINISHED = [_at(2026, 1, 10), _at(2026, 2, 15, 12), _at(2026, 3, 31, 23, 59, 59), _at(2026, 4, 1),
            _at(2026, 4, 1, 0, 0, 1), _at(2026, 6, 20), _at(2026, 12, 31, 23), _at(2027, 1, 2)]
PERIODS = [(None, None), (_at(2026, 1, 20), _at(2026, 4, 1)), (_at(2026, 2, 1), _at(2026, 3, 1)),
           (_at(2026, 3, 31, 12), _at(2026, 4, 2)), (None, _at(2026, 2, 20)),
           (_at(2026, 2, 15, 12), None), (_at(2026, 4, 1), _at(2026, 4, 1, 0, 0, 1)),
           (_at(2026, 1, 1), _at(2027, 1, 1)), (_at(2026, 5, 5), _at(2026, 5, 6)),
           (_at(2025, 12, 31), _at(2026, 7, 1))]


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return self.now


async def test_period_totals_from_monthly_sums_agree_with_the_rows(
        monkeypatch: pytest.MonkeyPatch, any_target: str) -> None:
    """``player_months`` (whole months) plus the rows at a period's edges give the same totals as
    the rows alone — for periods that cut months anywhere, after games are replaced (the judge's
    extras), taken back and players merged."""
    clock = _Clock()
    monkeypatch.setattr("storage.games.time", clock)  # the methods of both backends
    store = await Store.open(any_target)
    try:
        kept: dict[int, tuple[float, list[dict]]] = {}
        for number, at in enumerate(FINISHED):
            clock.now = at
            game = await store.create_game(CLUB, JUDGE, {}, {})
            rows = [{"seat": seat, "name": f"p{(seat * (number + 3)) % 13}" if seat > 1 else f"x{game}",
                     "role": role, "result": "red", "won": int(role in ("civilian", "sheriff")),
                     "points": 10 * seat + number, "additional": number, "best_move": None,
                     "first_killed": 0, "fouls": (seat + number) % 3, "removed": 0}
                    for seat, role in enumerate(ROLES, 1)]
            await store.append_many(game, 1, [{"type": "next"}], JUDGE, finished=True, result="red",
                                    figures=rows)
            if number % 3 == 1:  # the judge's extras after the end: the rows are replaced
                rows[2] = {**rows[2], "points": rows[2]["points"] + 40}
                await store.append_many(game, 2, [{"type": "extra"}], JUDGE, figures=rows)
            if number == 5:  # an undo takes the end back: the rows go
                await store.append_many(game, 2, [{"type": "undo"}], JUDGE, finished=False, figures=[])
                continue
            kept[game] = (at, rows)
        games = sorted(kept)  # seat 1's entries: one game each, so never two seats of one game
        first, second = (await store.find_player(CLUB, f"x{games[0]}"),
                         await store.find_player(CLUB, f"x{games[-1]}"))
        assert first is not None and second is not None
        await store.merge_players(CLUB, first.id, second.id)
        for since, until in PERIODS:
            got = await store.club_totals(CLUB, since, until)
            expected: dict[int, tuple[int, int, int]] = {}
            for game, (at, rows) in kept.items():
                if (since is not None and at < since) or (until is not None and at >= until):
                    continue
                for seat, player in await sql_rows(
                        store, "SELECT seat, player_id FROM game_players WHERE game_id = ?", game):
                    row = rows[seat - 1]
                    g, p, f = expected.get(player, (0, 0, 0))
                    expected[player] = (g + 1, p + row["points"], f + row["fouls"])
            assert {k: (t.games, t.points, t.fouls) for k, t in got.items()} == expected, (since, until)
            assert expected or (since, until) == PERIODS[8]
    finally:
        await store.close()


async def test_the_club_commands_answer_from_either_backend(store: Store) -> None:
    """/name offers the roster's entry and /games, /stats answer from the rows — on
    PostgreSQL as on SQLite (no answer is the catalog's no-data or no-player one)."""
    from bot.club.answers import Asker, ClubAnswers, roster_name
    from bot.commands import ClubCmd
    from bot.i18n import catalog

    await play(Service(store), team_loss_game("seed"))
    cat = catalog("ru")
    event, _ = await roster_name(store, CLUB, rules.SetName(seat=1, name="аня"), cat)
    assert event.name == "Аня"  # the roster's spelling
    answers = ClubAnswers(store)
    stats = await answers.answer(CLUB, Asker(JUDGE), ClubCmd("stats", ("Аня",)), cat, 0.0)
    assert stats and stats != [cat.text("club-no-player", name="Аня")] and "Аня" in stats[0]
    games = await answers.answer(CLUB, Asker(JUDGE), ClubCmd("games"), cat, 0.0)
    assert "Аня (1.3)" in "\n".join(games)  # the game's best: its protocol's 1.3 points


async def test_the_rows_are_written_in_the_actions_transaction(store: Store) -> None:
    """An action that fails (a stale revision, or an error inside its unit) leaves no row: the
    seats are written with the action or not at all — on either backend."""
    game = await store.create_game(CLUB, JUDGE, {}, {})
    rows = [{"seat": 1, "name": "Аня", "role": "civilian", "result": "red", "won": 1, "points": 100,
             "additional": 0, "best_move": None, "first_killed": 0, "fouls": 0, "removed": 0}]
    with pytest.raises(StaleRevision):
        await store.append_many(game, 5, [{"type": "next"}], JUDGE, finished=True, result="red",
                                figures=rows)
    with pytest.raises(Exception):  # the second seat lacks its role: the unit rolls back
        await store.append_many(game, 1, [{"type": "next"}], JUDGE, finished=True, result="red",
                                figures=[*rows, {"seat": 2, "name": "Боря"}])
    assert await store.club_totals(CLUB) == {} and await store.roster(CLUB) == []
    assert await store.events(game) == []
    await store.append_many(game, 1, [{"type": "next"}], JUDGE, finished=True, result="red",
                            figures=rows)
    assert [(t.name, t.points) for t in (await store.club_totals(CLUB)).values()] == [("Аня", 100)]
