"""The club's history through the console's database (issue 17): an evening typed at the
console builds the roster and the statistics; ``/name`` takes the roster's spelling of a known
player and offers the roster's names that begin as typed."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import csv
import json
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

import rules
from bot.cli import main
from bot.club import card as club_card
from bot.club.balance import club_strength
from bot.console import CHAT, Session
from bot.i18n import catalog
from bot.protocol import to_json
from bot.service import Service
from storage import Store

NAMES = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя", "Игорь", "Кира"]


async def play(session: Session, names: list[str], roles: str, offender: int) -> list[str]:
    out: list[str] = []
    for seat, name in enumerate(names, 1):
        out += (await session.handle(f"/name {seat} {name}")).lines
    for line in (f"/roles {roles}", "/start", "/next", f"/ppk {offender} 4.3.1"):
        reply = await session.handle(line)
        assert reply.accepted, (line, reply.lines)
    return out


async def test_an_evening_at_the_console_builds_the_roster_and_the_stats(store: Store) -> None:
    service = Service(store)
    session = Session(service, catalog("ru"))
    await session.open()
    await play(session, NAMES, "D2 M5 M7 S8", 7)
    first = await service.current(session.chat)
    assert first is not None
    await session.handle("/new")
    lines = await play(session, ["аня", "Бо", *NAMES[2:]], "D1 M4 M9 S10", 9)
    second = await service.current(session.chat)
    assert second is not None and second.game_id != first.game_id
    assert second.state.seat(1).name == "Аня"  # the roster's spelling
    assert second.state.seat(2).name == "Бо"  # a new name stays as typed …
    assert any("Боря" in line and "/name 2" in line for line in lines)  # … and the roster's is offered

    expected: dict[str, Decimal] = {}
    for game in (first, second):
        row = await store.game(game.game_id)
        assert row is not None
        events = [rules.from_dict(r.event) for r in await store.events(game.game_id)]
        doc = to_json(game.state.config, row.names, events)
        for seat, points in doc["points"]["seats"].items():
            name = game.state.seat(int(seat)).name
            expected[name] = expected.get(name, Decimal(0)) + Decimal(points["total"])
    reply = await session.handle("/rating all min=1")  # every player, by points (RULES.md §9)
    shown = {line.split(". ", 1)[1].split(" — ")[0]: Decimal(line.split(" — ")[1].split(" (")[0])
             for line in reply.lines[1:-1]}
    assert shown == expected
    assert len(shown) == 11  # Боря and Бо: two entries until merged
    merged = (await session.handle("/merge Бо = Боря")).lines
    assert merged == ["Записи объединены: Боря; игры и прежние имена сохранены."]
    stats = "\n".join((await session.handle("/stats боря")).lines)
    assert "игр 2, побед 1 (50%)" in stats  # the Don of a lost game, a civilian of a won one
    assert f"баллов {expected['Боря'] + expected['Бо']} " in stats



async def _one_game(db: Path) -> None:
    store = await Store.open(db)
    try:
        session = Session(Service(store), catalog("ru"))
        await session.open()
        await play(session, NAMES, "D2 M5 M7 S8", 7)
        await session.handle("/rename Аня = Анна")
    finally:
        await store.close()


def test_the_club_admin_exports_the_roster_and_games_as_json_and_csv(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite3"
    asyncio.run(_one_game(db))
    assert main(["club-export", "--db", str(db)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["club"] == CHAT and len(data["players"]) == 10 and len(data["games"]) == 10
    anna = next(p for p in data["players"] if p["name"] == "Анна")
    assert anna["names"] == ["Аня", "Анна"]
    out = tmp_path / "club.csv"
    assert main(["club-export", "--db", str(db), "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == 10
    first = next(r for r in rows if r["seat"] == "1")
    assert first["player"] == "Анна" and first["name_then"] == "Аня" and first["result"] == "red"
    assert sum(Decimal(r["points"]) for r in rows) == sum(
        Decimal(p["points"]) / 100 for p in data["games"])
    assert main(["club-export", "--db", str(tmp_path / "none.sqlite3")]) == 2


def test_the_players_card_is_written_as_a_png_from_the_console_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite3"
    asyncio.run(_one_game(db))
    card = tmp_path / "card.png"
    assert main(["club-stats", "Анна", "--db", str(db), "--png", str(card), "--lang", "ru"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Анна, все игры:\nигр 1, побед 1 (100%)")  # Аня: a red, the reds won
    picture = Image.open(card)
    assert picture.format == "PNG" and picture.width == club_card.WIDTH
    assert main(["club-stats", "Никто", "--db", str(db), "--png", str(tmp_path / "x.png")]) == 1
    assert not (tmp_path / "x.png").exists()  # nobody: no card
    assert main(["club-stats", "Анна", "--db", str(tmp_path / "none.sqlite3")]) == 2


async def test_a_seating_plan_is_printed_per_game_and_table(store: Store) -> None:
    session = Session(Service(store), catalog("ru"))
    await session.open()
    await play(session, NAMES, "D2 M5 M7 S8", 7)
    people = ["аня", *NAMES[1:], *(f"Гость {i}" for i in range(1, 13))]  # 22: two tables, two rest
    lines = (await session.handle(f"/seating 4 {', '.join(people)}")).lines
    assert lines[0] == "Рассадка: игр 4, игроков 22, столов 2 (места — поровну, соперники — как можно разнообразнее):"
    tables = [line for line in lines if ", стол " in line]
    assert len(tables) == 8
    seated = [line.split(": ", 1)[1] for line in tables if line.startswith("Игра 1,")]
    names = [part.split(". ", 1)[1] for row in seated for part in row.split(", ")]
    assert len(set(names)) == 20  # each seated once in the game
    assert any("Аня" in line for line in lines[1:])  # as the roster writes her name
    assert all("аня" not in line for line in lines[1:])
    assert sum(1 for line in lines if line.startswith("Игра 1, отдыхают")) == 1
    refused = (await session.handle("/seating 4 Аня, Боря")).lines
    assert refused == ["Разных игроков: 2, а за столом их 10."]
    assert (await session.handle("/seating x")).lines[0].startswith("Напишите так: /seating 6")


@pytest.mark.parametrize(("zone", "date"), [("Europe/Moscow", "2026-07-01"), ("UTC", "2026-06-30"),
                                            ("America/New_York", "2026-06-30")])
def test_the_console_dates_the_clubs_games_in_the_clubs_time_zone(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        zone: str, date: str) -> None:
    """``MAFIA_REFEREE_TIMEZONE`` is the club's clock at the console as in the bots: a game ended
    at 22:30 UTC on 30 June is one of 1 July in Moscow (UTC+3), of 30 June in New York."""
    import sqlite3
    db = clean_env / "club.sqlite3"
    asyncio.run(_one_game(db))
    ended = 1782858600.0  # 2026-06-30 22:30:00 UTC
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE game_players SET finished_at = ?", (ended,))
    monkeypatch.setenv("MAFIA_REFEREE_TIMEZONE", zone)
    monkeypatch.setattr("sys.stdin", io.StringIO("/games\n"))
    assert main(["console", "--db", str(db), "--lang", "ru"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("Игра №1,"))
    assert line.startswith(f"Игра №1, {date}:")



@pytest.mark.parametrize(("zone", "date"), [("Europe/Moscow", "2026-07-01"), ("UTC", "2026-06-30"),
                                            ("America/New_York", "2026-06-30")])
def test_mafia_referee_clubs_dates_the_last_game_by_the_clubs_clock(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        zone: str, date: str) -> None:
    """README: ``mafia-referee clubs`` lists «its games and the last one's date» — the club's
    date (``MAFIA_REFEREE_TIMEZONE``), the one ``/games`` gives that game, not UTC's."""
    import sqlite3
    db = clean_env / "club.sqlite3"
    asyncio.run(_one_game(db))
    with sqlite3.connect(db) as conn:  # the game ended at 22:30 UTC on 30 June
        conn.execute("UPDATE game_players SET finished_at = ?", (1782858600.0,))
    monkeypatch.setenv("MAFIA_REFEREE_TIMEZONE", zone)
    assert main(["clubs", "--db", str(db), "--lang", "ru"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"последняя {date}")

async def test_games_without_names_are_said_to_be_left_out_of_the_history(store: Store) -> None:
    """A finished game whose seats have no names leaves no rows: /games does not say there is
    no finished game (there is one), but that the history holds the games with names — and a
    name entered after the end puts it there."""
    session = Session(Service(store), catalog("ru"))
    await session.open()
    for line in ("/roles D2 M5 M7 S8", "/start", "/next", "/ppk 7 4.3.1"):
        assert (await session.handle(line)).accepted, line
    lines = (await session.handle("/games")).lines
    assert len(lines) == 1 and "нет оконченных игр" not in lines[0] and "с именами" in lines[0]
    assert (await session.handle("/name 1 Аня")).accepted  # a name entered after the end
    lines = (await session.handle("/games")).lines
    assert len(lines) == 2 and "Аня" in lines[1]


@pytest.mark.parametrize(("command", "period", "why"), [
    ("/stats Аня 2026-13", "2026-13", "такой даты нет"),
    ("/stats Аня 2026-02-30", "2026-02-30", "такой даты нет"),
    ("/stats 2026-03-31..2026-03-01 Аня", "2026-03-31..2026-03-01", "первый день позже последнего"),
    ("/top 2026-13", "2026-13", "такой даты нет"),
    ("/rating 2026-12-31..2026-01-01", "2026-12-31..2026-01-01", "первый день позже последнего"),
    # the calendar's end: a refusal in words, not a traceback
    ("/top 9999-12-31", "9999-12-31", "годы — от 1970 до 9998"),
    ("/stats Аня 2026-01-01..9999-12-31", "2026-01-01..9999-12-31", "годы — от 1970 до 9998"),
    ("/stats Аня 9999-12", "9999-12", "годы — от 1970 до 9998"),
    ("/rating 9999", "9999", "годы — от 1970 до 9998"),
])
async def test_an_invalid_period_is_refused_not_read_as_a_name(store: Store, command: str, period: str,
                                                               why: str) -> None:
    session = Session(Service(store), catalog("ru"))
    await session.open()
    await play(session, NAMES, "D2 M5 M7 S8", 7)
    lines = (await session.handle(command)).lines
    assert len(lines) == 1 and f"«{period}»" in lines[0] and why in lines[0], lines
    assert "нет игрока" not in lines[0]
    assert "Аня" in "\n".join((await session.handle("/stats Аня 2026-03")).lines)  # a valid month


async def test_a_balanced_seating_says_each_tables_mean_strength(store: Store) -> None:
    """Issue 33: /seating balances the tables by the strength rating; each table's line says its
    mean strength (the club's rating; a guest not yet rated counts as a new player's 1500)."""
    session = Session(Service(store), catalog("ru"))
    await session.open()
    await play(session, NAMES, "D2 M5 M7 S8", 7)  # the reds win: their ratings rise
    people = [*NAMES, *(f"Гость {i}" for i in range(1, 11))]
    lines = (await session.handle(f"/seating 4 {', '.join(people)}")).lines
    assert lines[1].startswith("Столы уравнены по силе (/top elo)")
    strengths = await club_strength(store, CHAT, "UTC")
    rating = {}
    for name in people:
        found = await store.find_player(CHAT, name)
        rating[name] = strengths[found.id].rating if found is not None else 1500.0
    tables = [line for line in lines if ", стол " in line]
    assert len(tables) == 8
    for line in tables:
        head, seats = line.split(": ", 1)
        names = [part.split(". ", 1)[1] for part in seats.split(", ")]
        shown = int(head.rsplit("(сила ", 1)[1].rstrip(")"))
        assert shown == round(sum(rating[n] for n in names) / len(names)), line


@pytest.mark.parametrize("twice", ["Аня, АНЯ", "Ёжик, Ежик", "Аня, Аня", "Аня, Ан\u200bя"])
async def test_one_player_under_two_spellings_gets_one_seat_in_a_seating_and_a_tournament(
        store: Store, twice: str) -> None:
    # README, /name: «one player, one seat: a name another seat has — case, ё and fullwidth
    # letters aside — is refused»; a plan that seats her twice could never start its game
    session = Session(Service(store), catalog("ru"))
    await session.open()
    players = f"{twice}, Боря, Вика, Гоша, Даша, Егор, Жанна, Зоя, Игорь, Кира"
    for typed in (f"/seating 1 {players}", f"/tournament open 1 {players}"):
        refused = (await session.handle(typed)).lines
        assert len(refused) == 1 and "в списке игроков дважды: один игрок — одно место" in refused[0], refused
    assert (await session.handle("/tournament")).lines[0].startswith("В клубе не идёт турнир")



async def test_a_name_no_seat_takes_is_refused_in_a_seating_and_a_tournament(store: Store) -> None:
    # a seat's name is 1 to 64 characters (/name): a plan with a longer one could never start
    session = Session(Service(store), catalog("ru"))
    await session.open()
    players = ", ".join(["Я" * 65, *NAMES[1:]])
    for typed in (f"/seating 1 {players}", f"/tournament open 1 {players}"):
        refused = (await session.handle(typed)).lines
        assert refused == [f"Имя «{'Я' * 65}» не годится для места за столом: от 1 до 64 символов, "
                           "хотя бы один видимый знак."]
    assert (await session.handle("/tournament")).lines[0].startswith("В клубе не идёт турнир")


async def test_a_game_played_blind_is_said_to_be_left_out_for_its_roles(store: Store) -> None:
    """README: «Every finished game (with its roles entered) leaves one row per seated player»:
    a game with every name but played blind (/roles unknown, /result) is not in the history, and
    /games says why — not that names are missing, which the judge would type in vain."""
    session = Session(Service(store), catalog("ru"))
    await session.open()
    for seat, name in enumerate(NAMES, 1):
        await session.handle(f"/name {seat} {name}")
    for line in ("/roles unknown", "/start", "/next", "/result red"):
        assert (await session.handle(line)).accepted, line
    lines = (await session.handle("/games")).lines
    assert len(lines) == 1 and "внесёнными ролями" in lines[0] and "/roles unknown" in lines[0]
    evening = (await session.handle("/evening")).lines  # a game did end: it is not in the history
    assert evening == ["За последние 12 часов в историю клуба не вошло ни одной игры: в неё входят"
                       " оконченные игры с именами игроков и внесёнными ролями."]


async def test_the_evenings_table_typed_after_midnight_is_titled_by_the_evening_not_the_new_day(
        store: Store) -> None:
    # docs/strength.md: «a club evening … the date turning at 06:00 so that a game after midnight
    # belongs to the evening»; the judge closes Saturday's evening at half past midnight
    berlin = ZoneInfo("Europe/Berlin")
    now = [dt.datetime(2026, 3, 28, 23, 40, tzinfo=berlin).timestamp()]
    session = Session(Service(store), catalog("ru"), clock=lambda: now[0])
    session.club_tz = "Europe/Berlin"
    await session.open()
    await play(session, NAMES, "D2 M5 M7 S8", 7)
    now[0] = dt.datetime(2026, 3, 29, 0, 30, tzinfo=berlin).timestamp()
    assert (await session.handle("/evening")).lines[0] == "Вечер 2026-03-28: 1 игра"
