"""Issue 33, items 1 and 4: the evening's sign-up at the console. Its judge is the club's admin
(``/evening new``); with no buttons, a player's press is typed for him (``/evening go Аня``); a
full list (tables × 10, F24 §1.1) sends the next to the reserve, whose first moves up when a
player of the list cancels; ``/tournament open N`` with no names takes the evening's list."""

from __future__ import annotations

import datetime as dt
from typing import Callable
from zoneinfo import ZoneInfo

from bot.console import Session
from bot.i18n import catalog
from bot.service import Service
from storage import Store

RU = catalog("ru")
NAMES = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя", "Игорь", "Кира"]
NOON = dt.datetime(2026, 3, 28, 12, 0, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()


async def berlin_club(store: Store, clock: Callable[[], float] = lambda: NOON) -> Session:
    """The console's club in Berlin (MAFIA_REFEREE_TIMEZONE), on Saturday at noon unless
    ``clock`` moves it, opened."""
    session = Session(Service(store), RU, clock=clock)
    session.club_tz = "Europe/Berlin"
    await session.open()
    return session


async def test_the_console_runs_a_sign_up_and_a_tournament_takes_its_list(store: Store) -> None:
    session = await berlin_club(store)
    refused = await session.handle("/tournament open 2")
    assert refused.lines == [RU.text("evening-list-empty")]
    opened = await session.handle("/вечер новый 29.03 19:30 столов=1")
    assert opened.lines[-1] == RU.text("evening-opened", count=2, times="17:30, 19:15", zone="Europe/Berlin")
    assert "2026-03-29 в 19:30" in opened.lines[0]
    for name in NAMES:
        reply = await session.handle(f"/evening go {name}")
        assert reply.lines[-1] == RU.text("evening-pressed-going")
    full = await session.handle("/evening go Лёва")
    assert full.lines[-1] == RU.text("evening-pressed-full", place=1)
    left = await session.handle("/evening no Вика")
    assert left.lines[1] == RU.text("evening-pressed-out")  # the post edited, the answer, the private line
    assert "10. Лёва" in left.lines[0] and "Резерв" not in left.lines[0]
    assert RU.text("console-evening-private",
                   text=RU.text("evening-moved-up", date="2026-03-29", time="19:30")) in left.lines
    closed = await session.handle("/evening close")
    assert closed.lines[-1].startswith("Запись закрыта. В списке 10: 1. Аня, 2. Боря, 3. Гоша")
    assert (await session.handle("/evening go Вика")).lines == [RU.text("evening-none")]
    tournament = await session.handle("/tournament open 2")
    assert tournament.lines[0] == RU.text("evening-from-list", date="2026-03-29", time="19:30")
    plan = "\n".join(tournament.lines)
    assert "Лёва" in plan and "Вика" not in plan


async def test_tonights_tournament_takes_tonights_list_not_next_weeks_sign_up(store: Store) -> None:
    # tonight's evening starts at 19:30 and its list is final; at 19:45 the admin posts next
    # Sunday's sign-up, and Зоя signs up for it at once; then the chief judge opens tonight's
    now = [NOON]
    session = await berlin_club(store, lambda: now[0])
    await session.handle("/evening new 28.03 19:30 tables=1")
    for name in NAMES:
        await session.handle(f"/evening go {name}")
    await session.handle("/evening close")
    now[0] = dt.datetime(2026, 3, 28, 19, 45, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()
    assert "2026-04-05 в 19:30" in (await session.handle("/evening new 2026-04-05 19:30")).lines[0]
    await session.handle("/evening go Зоя")
    tournament = await session.handle("/tournament open 2")
    assert tournament.lines[0] == RU.text("evening-from-list", date="2026-03-28", time="19:30")
    assert "игроков — 10" in tournament.lines[1]


async def test_an_evening_whose_list_was_closed_early_can_still_be_called_off(store: Store) -> None:
    # README: «/evening close closes the list early, /evening cancel calls the evening off» —
    # the list closed at noon, the evening of 19:30 is called off in the afternoon
    session = await berlin_club(store)
    await session.handle("/evening new 19:30 tables=1")
    for name in NAMES[:4]:
        await session.handle(f"/evening go {name}")
    await session.handle("/evening close")
    cancelled = await session.handle("/evening cancel")
    assert cancelled.lines[-1] == RU.text("evening-cancelled")
    assert cancelled.lines[0].splitlines()[0] == "Вечер 2026-03-28 в 19:30 отменён."  # the post, edited
    assert (await session.handle("/evening cancel")).lines == [RU.text("evening-none")]
    # a called-off evening's list is nobody's tournament
    assert (await session.handle("/tournament open 2")).lines == [RU.text("evening-list-empty")]


async def test_a_tournament_seats_the_evenings_namesakes_and_long_names_as_a_hosted_table_would(
        store: Store) -> None:
    # two accounts both called «Аня» on the list, and one whose platform name is 70 letters long
    session = await berlin_club(store)
    await session.handle("/evening new 19:30 tables=1")
    evening = await store.open_evening_of("console:local")
    signed = [("tg:1", "Аня"), ("tg:2", "Аня"), ("tg:3", "Я" * 70), *((f"tg:{n}", name) for n, name in
                                                                    enumerate(NAMES[1:8], 4))]
    for account, name in signed:
        assert (await store.sign_evening(evening.id, account, name, "going", NOON)).outcome == "going"
    await session.handle("/evening close")
    opened = await session.handle("/tournament open 1")
    assert opened.lines[1].startswith("Турнир №1 открыт: игр — 1, игроков — 10"), opened.lines
    table = next(line for line in opened.lines if line.startswith("Игра 1, стол 1: "))
    seated = {seat.split(". ", 1)[1] for seat in table.removeprefix("Игра 1, стол 1: ").split(", ")}
    assert {"Аня", "Аня (2)", "Я" * 64} <= seated
    await session.handle("/table 1")
    started = await session.handle("/new")  # the plan's names are seats' names: the game starts
    assert started.lines[0].startswith("Новая игра №1"), started.lines


async def test_a_press_typed_without_a_name_says_how_to_type_it(store: Store) -> None:
    session = Session(Service(store), RU, clock=lambda: NOON)
    await session.open()
    await session.handle("/evening new 19:30")
    for typed in ("/evening go", "/evening reserve  ", "/evening no"):
        assert (await session.handle(typed)).lines == [
            "Напишите так: /evening go Аня — «Иду» за игрока (/evening no Аня — «Не приду»,"
            " /evening reserve Аня — «В резерв»)."]


async def test_at_the_console_the_sign_up_closes_once_its_start_has_passed(store: Store) -> None:
    # README: «At the start the sign-up closes and the post shows the final list» — the console
    # waits for no deadline, so the next evening command finds it closed, as the bots would have
    now = [NOON]
    session = await berlin_club(store, lambda: now[0])
    await session.handle("/evening new 19:30 tables=1")
    await session.handle("/evening go Аня")
    now[0] = dt.datetime(2026, 3, 28, 19, 40, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()
    late = await session.handle("/evening go Боря")  # ten minutes after the start
    assert RU.text("evening-started", count=1, going="1. Аня", tables=1) in late.lines
    assert late.lines[-1] == RU.text("evening-none")  # nothing changed: the list is final
    assert "Боря" not in "\n".join(late.lines)
    next_week = await session.handle("/evening new 2026-04-04 19:30")
    assert next_week.lines[-1].startswith("Запись опубликована.")
