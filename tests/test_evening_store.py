"""Issue 33, item 1: an evening's sign-up as stored (migration 0017, ``storage.evening``), on
SQLite and PostgreSQL alike. The places are tables × 10 (ten seats a table, F24 §1.1); «Иду»
with the list full puts the player in the reserve; when a player of a full list leaves it, the
first of the reserve takes his place in the same transaction; an evening that takes no sign-ups
changes nothing."""

from __future__ import annotations

import asyncio

from storage import Store
from storage.evening import CANCELLED, CLOSED, GOING, RESERVE

NOW = 1_800_000_000.0


async def _evening(store: Store, tables: int = 1):  # noqa: ANN202 - storage.Evening
    made = await store.open_evening("tg:-1001", "tg:1", NOW + 7200, "Europe/Berlin", tables, now=NOW)
    assert made is not None
    return made


async def _fill(store: Store, evening: int, count: int, first: int = 100) -> None:
    for n in range(first, first + count):
        assert (await store.sign_evening(evening, f"tg:{n}", f"P{n}", GOING, NOW)).outcome == GOING


async def test_an_evening_opens_once_per_club_with_ten_places_a_table(any_store: Store) -> None:
    made = await _evening(any_store, tables=2)
    assert (made.cap, made.tables, made.status, made.zone, made.reminded) == \
        (20, 2, "open", "Europe/Berlin", 0)
    assert await any_store.open_evening("tg:-1001", "tg:2", NOW, "UTC", 1, now=NOW) is None  # one open
    assert (await any_store.open_evening_of("tg:-1001")) == made
    other = await any_store.open_evening("tg:-1002", "tg:2", NOW, "UTC", 1, now=NOW)
    assert other is not None and other.id != made.id
    assert {e.id for e in await any_store.open_evenings("tg:")} == {made.id, other.id}
    assert await any_store.open_evenings("dc:") == []
    assert await any_store.end_evening(made.id, CANCELLED, NOW)
    assert not await any_store.end_evening(made.id, CLOSED, NOW)  # no longer open
    assert await any_store.open_evening_of("tg:-1001") is None
    again = await any_store.open_evening("tg:-1001", "tg:1", NOW + 99, "UTC", 1, now=NOW)
    assert again is not None  # a club's next evening, once the last one is over


async def test_a_full_list_sends_the_next_to_the_reserve_and_a_leaver_gives_his_place(
        any_store: Store) -> None:
    evening = (await _evening(any_store)).id
    await _fill(any_store, evening, 10)
    full = await any_store.sign_evening(evening, "tg:200", "Late", GOING, NOW)
    assert (full.outcome, full.moved) == ("full", None)
    second = await any_store.sign_evening(evening, "tg:201", "Later", GOING, NOW)
    assert second.outcome == "full"
    again = await any_store.sign_evening(evening, "tg:200", "Late", GOING, NOW)
    assert (again.outcome, again.full) == ("already_reserve", True)
    left = await any_store.sign_evening(evening, "tg:103", "P103", "out", NOW)
    assert left.outcome == "out" and left.moved is not None and left.moved.account == "tg:200"
    players = await any_store.evening_players(evening)
    going = [p.account for p in players if p.list == GOING]
    assert len(going) == 10 and "tg:103" not in going and going[-1] == "tg:200"
    assert [p.account for p in players if p.list == RESERVE] == ["tg:201"]


async def test_a_player_of_a_full_list_who_moves_to_the_reserve_lets_the_first_of_it_up(
        any_store: Store) -> None:
    evening = (await _evening(any_store)).id
    await _fill(any_store, evening, 10)
    assert (await any_store.sign_evening(evening, "tg:300", "R", GOING, NOW)).outcome == "full"
    moved = await any_store.sign_evening(evening, "tg:100", "P100", RESERVE, NOW)
    assert moved.outcome == RESERVE and moved.moved is not None and moved.moved.account == "tg:300"
    players = await any_store.evening_players(evening)
    assert [p.account for p in players if p.list == RESERVE] == ["tg:100"]


async def test_a_reserve_chosen_while_places_are_free_waits_and_comes_on_its_own_press(
        any_store: Store) -> None:
    evening = (await _evening(any_store)).id
    assert (await any_store.sign_evening(evening, "tg:1", "A", RESERVE, NOW)).outcome == RESERVE
    await _fill(any_store, evening, 3)
    left = await any_store.sign_evening(evening, "tg:100", "P100", "out", NOW)
    assert left.moved is None  # the list was not full: nobody waited for that place
    assert (await any_store.sign_evening(evening, "tg:1", "A", GOING, NOW)).outcome == GOING
    assert (await any_store.sign_evening(evening, "tg:1", "A", GOING, NOW)).outcome == "already_going"
    assert (await any_store.sign_evening(evening, "tg:9", "Z", "out", NOW)).outcome == "not_signed"


async def test_presses_at_once_never_give_more_places_than_there_are(any_store: Store) -> None:
    evening = (await _evening(any_store)).id
    await _fill(any_store, evening, 7)
    outcomes = await asyncio.gather(*(any_store.sign_evening(evening, f"tg:{n}", f"Q{n}", GOING, NOW)
                                      for n in range(500, 506)))
    assert sorted(o.outcome for o in outcomes) == ["full"] * 3 + [GOING] * 3
    assert sum(p.list == GOING for p in await any_store.evening_players(evening)) == 10


async def test_a_closed_evening_takes_no_press_and_a_reminder_is_marked_once(any_store: Store) -> None:
    evening = (await _evening(any_store)).id
    assert await any_store.set_evening_reminded(evening, 1)
    assert not await any_store.set_evening_reminded(evening, 1)  # sent once
    await any_store.set_evening_message(evening, 2**53 + 7)  # a Discord message id is a snowflake
    assert (await any_store.evening(evening)).message_id == 2**53 + 7
    assert await any_store.end_evening(evening, CLOSED, NOW)
    assert (await any_store.sign_evening(evening, "tg:1", "A", GOING, NOW)).outcome == "closed"
    assert await any_store.evening_players(evening) == []
    assert not await any_store.set_evening_reminded(evening, 2)
    assert (await any_store.latest_evening("tg:-1001", NOW)).id == evening
    assert await any_store.latest_evening("tg:-1001", NOW + 7201) is None


async def test_tonights_evening_is_the_final_list_nearest_now(any_store: Store) -> None:
    # an afternoon evening at 14:00 and one at 19:30 whose list closed early; next week's open
    afternoon = (await any_store.open_evening("tg:-1001", "tg:1", NOW - 3600, "Europe/Moscow", 1, now=NOW))
    assert afternoon is not None and await any_store.end_evening(afternoon.id, CLOSED, NOW)
    later = await any_store.open_evening("tg:-1001", "tg:1", NOW + 4.5 * 3600, "Europe/Moscow", 1, now=NOW)
    assert later is not None and await any_store.end_evening(later.id, CLOSED, NOW)
    week = await any_store.open_evening("tg:-1001", "tg:1", NOW + 7 * 86400, "Europe/Moscow", 1, now=NOW)
    assert week is not None
    since = NOW - 12 * 3600
    assert (await any_store.latest_evening("tg:-1001", since, NOW)).id == afternoon.id  # playing now
    assert (await any_store.latest_evening("tg:-1001", since, NOW + 3 * 3600)).id == later.id
    assert (await any_store.latest_evening("tg:-1001", since, NOW + 6 * 3600)).id == later.id
