"""A season's rating (issue 17; RULES.md §9, F24/S24 §8.6–8.7): points summed, the first-night
victim's compensation where the preset's rule is known (S24 §8.6), and the tie-breaks of both
presets: additional points → wins → wins as Don or Sheriff → first-night deaths → lot."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.club.rating import FirstNight, compensation, lot, standings
from storage import Totals

D = Decimal


def deaths(*spec: tuple[bool, int | None]) -> list[FirstNight]:
    """(red won, best move hits) per first-night death of a red player, in order."""
    return [FirstNight(at=float(i), red=True, won=won, hits=hits) for i, (won, hits) in enumerate(spec)]


@pytest.mark.parametrize("games, base", [(4, 4), (10, 4), (12, 5), (20, 8), (25, 10)])
def test_fsm_compensation_grows_with_each_death_up_to_its_base(games: int, base: int) -> None:
    """S24 §8.6: the i-th death earns i·0.4/B (0.4 past B), B = 40 % of the games, at least 4."""
    series = deaths(*[(False, 1)] * (base + 2))
    expected = sum((D(i) * D("0.4") / base).quantize(D("0.01")) for i in range(1, base + 1)) + D("0.8")
    assert compensation(series, games, "fsm") == expected
    assert compensation(series[:1], games, "fsm") == (D("0.4") / base).quantize(D("0.01"))


def test_fsm_compensation_needs_a_black_in_the_best_move_and_halves_when_red_wins() -> None:
    assert compensation(deaths((False, 0)), 10, "fsm") == 0  # no black named
    assert compensation(deaths((False, None)), 10, "fsm") == 0  # no best move made
    assert compensation(deaths((True, 2)), 10, "fsm") == D("0.05")  # 0.1, halved
    # the count goes on over deaths that earned nothing: the 2nd death earns 2·0.4/4
    assert compensation(deaths((False, 0), (False, 3)), 10, "fsm") == D("0.2")
    black = [FirstNight(0.0, red=False, won=False, hits=None)]
    assert compensation(black, 10, "fsm") == 0


def test_fiim_compensation_is_not_guessed() -> None:
    assert compensation(deaths((False, 3)), 10, "fiim") is None


def totals(pid: int, name: str, *, games: int = 10, points: int = 0, additional: int = 0,
           wins: int = 0, don_sheriff: int = 0, first: int = 0) -> Totals:
    t = Totals(pid, name, games=games, wins=wins, points=points, additional=additional,
               first_killed=first)
    t.by_role = {"don": (don_sheriff, don_sheriff), "civilian": (games - don_sheriff, wins - don_sheriff)}
    return t


def test_ties_break_on_additional_points_then_wins_then_key_wins_then_first_nights_then_lot() -> None:
    table = {
        1: totals(1, "Аня", points=800, additional=100, wins=6),
        2: totals(2, "Боря", points=800, additional=150, wins=5),  # more additional points
        3: totals(3, "Вика", points=800, additional=100, wins=7),  # more wins
        4: totals(4, "Гоша", points=800, additional=100, wins=6, don_sheriff=3),  # more as Don/Sheriff
        5: totals(5, "Даша", points=800, additional=100, wins=6, first=2),  # more first nights
        6: totals(6, "Егор", points=900),  # more points
        7: totals(7, "Жанна", points=800, additional=100, wins=6),  # a full tie with Аня: the lot
    }
    order = [s.name for s in standings(table, {}, "fiim", "season 2026")]
    assert order[:6] == ["Егор", "Боря", "Вика", "Гоша", "Даша", order[5]]
    first, second = sorted([1, 7], key=lambda p: lot("season 2026", p))
    assert order[5:] == [table[first].name, table[second].name]
    assert [s.place for s in standings(table, {}, "fiim", "season 2026")] == list(range(1, 8))
    assert standings(table, {}, "fiim", "season 2026") == standings(table, {}, "fiim", "season 2026")


def test_the_compensation_counts_in_the_total_and_in_the_additional_points_under_fsm() -> None:
    table = {1: totals(1, "Аня", points=500, additional=0, first=1),
             2: totals(2, "Боря", points=500, additional=5)}
    fsm = standings(table, {1: deaths((False, 2))}, "fsm", "s")
    assert [s.name for s in fsm] == ["Аня", "Боря"]  # 5.10 (0.1 compensation) against 5.00
    assert fsm[0].total == D("5.10") and fsm[0].compensation == D("0.10")
    fiim = standings(table, {1: deaths((False, 2))}, "fiim", "s")
    assert [s.name for s in fiim] == ["Боря", "Аня"]  # tie on points: Боря's additional 0.05
    assert fiim[1].compensation is None


def test_players_below_the_minimum_are_left_out() -> None:
    table = {1: totals(1, "Аня", games=2, points=300), 2: totals(2, "Боря", games=5, points=100)}
    assert [s.name for s in standings(table, {}, "fiim", "s", min_games=3)] == ["Боря"]
