"""The seating plan of a tournament or a club evening (issue 17, bot/club/seating.py), as
properties over 10–40 players and 4–12 games: every player is seated at most once per game and
every table is full; the rests go round (games played differ by one at most); no seat repeats
for a player more than :func:`seat_bound` allows; no pair meets more than :func:`meeting_bound`
allows — balanced by the players' strength and regulars (issue 33) or not."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.club.seating import SEATS, SeatingError, meeting_bound, plan, seat_bound, spread
from bot.club.strength import table_means

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def balance(players: int, draw: int | None) -> dict[str, object]:
    """``plan``'s balancing arguments: none (``draw`` is ``None``), or every player's strength
    and some regulars drawn from ``draw``."""
    if draw is None:
        return {}
    rng = random.Random(draw)
    return {"strength": {p: rng.gauss(1500, 200) for p in range(players)},
            "regulars": {p for p in range(players) if rng.random() < 0.4}}


@SLOW
@given(players=st.integers(10, 40), games=st.integers(4, 12), seed=st.integers(0, 2**16),
       draw=st.none() | st.integers(0, 2**16))
def test_every_player_is_seated_at_most_once_per_game_and_the_rests_go_round(
        players: int, games: int, seed: int, draw: int | None) -> None:
    people = list(range(players))
    made = plan(people, games, seed=seed, **balance(players, draw))  # type: ignore[arg-type]
    assert len(made.rounds) == games
    for tables, resting in zip(made.rounds, made.resting):
        assert len(tables) == players // SEATS
        seated = [p for table in tables for p in table]
        assert all(len(table) == SEATS for table in tables)
        assert len(seated) == len(set(seated))  # once per game at most
        assert sorted(seated + list(resting)) == sorted(people)  # everyone plays or rests
    played = [made.games_of(p) for p in people]
    assert max(played) - min(played) <= 1
    if players % SEATS == 0:
        assert set(played) == {games}  # the tables take everyone: once per game exactly


@SLOW
@given(players=st.integers(10, 40), games=st.integers(4, 12), seed=st.integers(0, 2**16),
       draw=st.none() | st.integers(0, 2**16))
def test_seats_and_opponents_stay_within_their_stated_bounds(players: int, games: int, seed: int,
                                                             draw: int | None) -> None:
    made = plan(list(range(players)), games, seed=seed, **balance(players, draw))  # type: ignore[arg-type]
    for p in made.players:
        counts = made.seat_counts(p)
        assert sum(counts) == made.games_of(p)
        assert max(counts) <= seat_bound(made.games_of(p)), (p, counts)
    meetings = made.meetings()
    assert max(meetings.values()) <= meeting_bound(players, games, players // SEATS)


@pytest.mark.parametrize("players", [20, 30, 40])
def test_a_balanced_first_game_evens_its_tables(players: int) -> None:
    # before the first game no pair has met: every split costs the meetings the same, so the
    # balance decides. Half the club strong, half weak: each table gets five of each, the same
    # mean; a third of the club regulars (the strength all equal): no table has two more
    strength = {p: 1800.0 if p % 2 else 1200.0 for p in range(players)}
    first = plan(list(range(players)), 4, seed=3, strength=strength).rounds[0]
    assert len(set(table_means(first, strength))) == 1
    plain = plan(list(range(players)), 4, seed=3).rounds[0]
    features = [((strength[p] - 1500) / 50, 0.0) for p in range(players)]
    assert spread(first, features) == 0 < spread(plain, features)  # the plain plan does not look
    regulars = {p for p in range(players) if p % 3 == 0}
    first = plan(list(range(players)), 4, seed=3, strength=dict.fromkeys(range(players), 1500.0),
                 regulars=regulars).rounds[0]
    counts = [sum(p in regulars for p in table) for table in first]
    assert max(counts) - min(counts) <= 1, counts


def test_a_balanced_plan_needs_every_players_strength() -> None:
    with pytest.raises(SeatingError):
        plan(list(range(10)), 4, strength={p: 1500.0 for p in range(9)})


def test_the_bounds_say_what_the_numbers_allow() -> None:
    assert seat_bound(4) == 2 and seat_bound(10) == 2 and seat_bound(12) == 3
    assert meeting_bound(10, 7, 1) == 7  # one table: everyone meets in every game
    assert meeting_bound(40, 4, 4) == 3  # 0.92 on average


def test_one_table_of_ten_puts_everyone_in_a_new_seat_each_game() -> None:
    made = plan(list(range(10)), 10, seed=5)
    assert all(max(made.seat_counts(p)) == 1 for p in made.players)  # a Latin square exists


def test_the_plan_is_the_seed_s() -> None:
    assert plan(list(range(23)), 6, seed=7) == plan(list(range(23)), 6, seed=7)


@pytest.mark.parametrize("players, games, tables", [(9, 4, None), (20, 0, None), (20, 4, 3),
                                                     (20, 4, 0)])
def test_a_plan_that_cannot_be_made_is_refused(players: int, games: int, tables: int | None) -> None:
    with pytest.raises(SeatingError):
        plan(list(range(players)), games, tables=tables)


def test_players_must_be_distinct() -> None:
    with pytest.raises(SeatingError):
        plan(["a"] * 10, 4)
