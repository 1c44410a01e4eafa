"""The strength rating (issue 33, bot/club/strength.py; docs/strength.md): Glicko-2 against the
worked example of Glickman's "Example of the Glicko-2 system" (2012/2022), and the team
adaptation (Williams 2013's composite opponent, the red side's advantage) as properties."""

from __future__ import annotations

import datetime as dt
import random
import time
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.club.answers import Asker, ClubAnswers
from bot.club.balance import club_strength
from bot.club.strength import (
    SCALE, START_RATING, Result, evening, recompute, red_advantage, table_means, update,
)
from bot.commands import ClubCmd, parse
from bot.i18n import catalog
from bot.service import Service
from storage import Store

from scenarios.harness import Table
from support import club

DAY = 86_400.0
T0 = 1_767_290_400.0  # 2026-01-01 18:00 UTC: an evening's first game


def game(game_id: int, at: float, red: list[int], black: list[int], winner: str) -> list[Result]:
    """One game's rows: ``winner`` ``red``, ``black`` or ``draw``."""
    red_score = {"red": 1.0, "black": 0.0, "draw": 0.5}[winner]
    return ([Result(game_id, at, p, True, red_score) for p in red]
            + [Result(game_id, at, p, False, 1 - red_score) for p in black])


def history(rng: random.Random, players: int, games: int, evenings: int) -> list[Result]:
    """``games`` games of ten of ``players`` players over ``evenings`` evenings, results at random."""
    out: list[Result] = []
    for number in range(games):
        seated = rng.sample(range(1, players + 1), 10)
        at = T0 + DAY * (number * evenings // games) + 600 * number
        out += game(number + 1, at, seated[:7], seated[7:], rng.choice(("red", "black", "draw")))
    return out


def test_the_papers_worked_example() -> None:
    # Glickman's example: a player of 1500, RD 200, σ 0.06, τ 0.5 beats a 1400 (RD 30), loses to
    # a 1550 (RD 100) and to a 1700 (RD 300): μ' = −0.2069, φ' = 0.8722, σ' = 0.05999, that is
    # r' = 1464.06 and RD' = 151.52 (the paper rounds μ' before scaling it back).
    rating, rd, volatility = update(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)],
                                    tau=0.5)
    assert round((rating - 1500) / SCALE, 4) == -0.2069
    assert round(rd / SCALE, 4) == 0.8722
    assert 0.05999 <= volatility < 0.06  # the paper writes its five first decimals
    assert abs(rating - 1464.06) < 0.01 and round(rd, 2) == 151.52


def test_a_period_without_games_only_widens_the_deviation() -> None:
    # the paper's step 6 for a player who does not compete: φ' = √(φ² + σ²), r and σ kept
    rating, rd, volatility = update(1500, 200, 0.06, [])
    assert rating == 1500 and volatility == 0.06
    assert abs(rd / SCALE - ((200 / SCALE) ** 2 + 0.06 ** 2) ** 0.5) < 1e-12
    assert update(1500, 350, 0.06, [])[1] == 350  # never wider than a new player's


def test_a_first_evening_of_new_players_moves_each_side_by_the_same_step() -> None:
    # everyone new, no earlier games (no side advantage): every player meets a composite equal to
    # himself (E = ½), so each winner gains what each loser drops — Glicko-2 is not zero-sum over
    # unequal teams: the seven gain, in sum, more than the three drop
    out = recompute(game(1, T0, list(range(1, 8)), [8, 9, 10], "red"))
    gains = {p: s.rating - START_RATING for p, s in out.items()}
    assert len({round(gains[p], 9) for p in range(1, 8)}) == 1
    assert len({round(gains[p], 9) for p in (8, 9, 10)}) == 1
    assert gains[1] > 0 and abs(gains[1] + gains[8]) < 1e-9
    assert sum(gains.values()) > 0
    assert all(s.games == 1 and s.rd < 350 for s in out.values())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), winner=st.sampled_from(("red", "black")))
def test_the_winners_of_a_game_never_lose_rating_nor_its_losers_gain(seed: int, winner: str) -> None:
    # a two-team game alone in its period: a winner's change is φ'² g (1 − E) > 0, whatever the
    # ratings before it
    rng = random.Random(seed)
    before = history(rng, 25, 60, 6)
    seated = rng.sample(range(1, 26), 10)
    last = game(999, T0 + 30 * DAY, seated[:7], seated[7:], winner)
    old, new = recompute(before), recompute(before + last)
    for row in last:
        was = old[row.player_id].rating if row.player_id in old else START_RATING
        assert (new[row.player_id].rating > was) == (row.score == 1), row


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_the_order_of_an_evenings_games_does_not_matter(seed: int) -> None:
    # all the games of a rating period are rated at once from the period's starting values
    rng = random.Random(seed)
    rows = history(rng, 20, 40, 4)
    shuffled = rows[:]
    rng.shuffle(shuffled)
    assert recompute(shuffled) == recompute(rows)


def test_an_evening_past_midnight_is_one_period_in_the_clubs_zone() -> None:
    zone = ZoneInfo("Europe/Berlin")
    late = dt.datetime(2026, 3, 28, 23, 30, tzinfo=zone).timestamp()
    after = dt.datetime(2026, 3, 29, 3, 30, tzinfo=zone).timestamp()  # after the clocks went on
    assert evening(late, "Europe/Berlin") == evening(after, "Europe/Berlin") == dt.date(2026, 3, 28)
    assert evening(after, "UTC") == dt.date(2026, 3, 28)
    assert evening(dt.datetime(2026, 3, 29, 7, 0, tzinfo=zone).timestamp(),
                   "Europe/Berlin") == dt.date(2026, 3, 29)
    # two games of one evening either side of midnight are rated together: the order-free promise
    first = game(1, late, list(range(1, 8)), [8, 9, 10], "red")
    second = game(2, after, [1, 2, 3, 8, 9, 10, 11], [4, 5, 6], "black")
    assert recompute(first + second, "Europe/Berlin") == recompute(second + first, "Europe/Berlin")


def test_the_red_sides_advantage_comes_from_the_earlier_evenings() -> None:
    assert red_advantage(0, 0) == 0
    assert red_advantage(15, 20) > 0 > red_advantage(5, 20)
    # after a season where red won 15 of 20, a red win of equal players earns less than a black one
    rng = random.Random(3)
    season = []
    for number in range(20):
        seated = rng.sample(range(100, 130), 10)
        season += game(number + 1, T0 + 600 * number, seated[:7], seated[7:],
                       "red" if number < 15 else "black")
    red_win = recompute(season + game(50, T0 + 7 * DAY, list(range(1, 8)), [8, 9, 10], "red"))
    black_win = recompute(season + game(50, T0 + 7 * DAY, list(range(1, 8)), [8, 9, 10], "black"))
    assert 0 < red_win[1].rating - START_RATING < black_win[8].rating - START_RATING


def test_an_absence_widens_the_deviation_once_per_evening_missed() -> None:
    rows = game(1, T0, list(range(1, 8)), [8, 9, 10], "red")
    kept = recompute(rows + game(2, T0 + DAY, [1, 2, 3, 4, 5, 6, 11], [7, 8, 9], "red"))
    away = recompute(rows + game(2, T0 + DAY, [1, 2, 3, 4, 5, 6, 11], [7, 8, 9], "red")
                     + game(3, T0 + 2 * DAY, [1, 2, 3, 4, 5, 6, 11], [7, 8, 9], "black"))
    assert away[10].rating == kept[10].rating  # 10 played only the first evening
    assert away[10].rd > kept[10].rd > recompute(rows)[10].rd


def test_a_draw_of_equals_moves_no_rating_and_narrows_every_deviation() -> None:
    # s = ½ = E for everyone: Δ = 0, so μ' = μ; the game still tells something: φ' < φ
    out = recompute(game(1, T0, list(range(1, 8)), [8, 9, 10], "draw"))
    assert all(abs(s.rating - START_RATING) < 1e-9 and s.rd < 350 for s in out.values())


def test_a_game_with_one_team_only_is_not_rated() -> None:
    assert recompute([Result(1, T0, p, True, 1.0) for p in range(1, 8)]) == {}


def test_a_tables_mean_counts_an_unrated_player_as_new() -> None:
    assert table_means([["a", "b"], ["c"]], {"a": 1600, "b": 1400}) == [1500, START_RATING]


# --- recomputed from the stored games, shown by /stats and /top elo --------------------------
CLUB = "tg:-100777"
JUDGE = "tg:42"
store = club.store  # these tests run on both backends (SQLite, PostgreSQL)


def oath(offender: int) -> Table:
    """D8 M9 M10 S5: #offender swears an oath on day 1 (seed 4.3.1): his team loses."""
    t = Table(preset="seed")
    t.team_loss(offender, "4.3.1")
    return t


async def play(service: Service, table: Table, names: dict[int, str] = club.NAMES) -> None:
    await service.new_game(CLUB, JUDGE, table.state.config, names)
    for event in table.log:
        await service.act(CLUB, JUDGE, event)


async def test_the_rating_is_the_stored_games_folded_and_follows_a_merge(store: Store) -> None:
    service = Service(store)
    await play(service, oath(9))  # red wins
    await play(service, oath(2), {**club.NAMES, 1: "Анна"})  # black wins; Аня typed anew
    rows = await store.club_results(CLUB)
    assert len(rows) == 20 and {r[4] for r in rows} == {"red", "black"}
    answers = ClubAnswers(store)
    strengths = await club_strength(store, CLUB, "UTC")
    expected = recompute(expected_rows(rows))
    assert strengths == expected and len(strengths) == 11
    anya, anna = await store.find_player(CLUB, "Аня"), await store.find_player(CLUB, "Анна")
    assert anya is not None and anna is not None
    assert strengths[anya.id].games == strengths[anna.id].games == 1
    await store.merge_players(CLUB, anna.id, anya.id)
    merged = await club_strength(store, CLUB, "UTC")
    assert anna.id not in merged and merged[anya.id].games == 2
    lines = await answers.answer(CLUB, Asker("tg:1"), ClubCmd("stats", ("Аня",)), catalog("ru"), time.time())
    rating = round(merged[anya.id].rating)
    assert any(line.startswith(f"сила (Глико-2) {rating} ±") for line in lines), lines
    await service.undo(CLUB, JUDGE, steps=1)  # the second game's end taken back: its rows go
    after = await club_strength(store, CLUB, "UTC")
    assert after[anya.id].games == 1 and after == recompute(
        expected_rows(await store.club_results(CLUB)))
    assert len({s.rating for s in after.values()}) == 2  # one game: its winners, its losers


def expected_rows(rows: list[tuple[int, float, int, str, str]]) -> list[Result]:
    return [Result(g, at, p, role in ("civilian", "sheriff"),
                   float((role in ("civilian", "sheriff")) == (result == "red")))
            for g, at, p, role, result in rows]


async def test_top_elo_orders_by_strength_and_refuses_a_role(store: Store) -> None:
    service = Service(store)
    await play(service, oath(9))  # red wins twice: the red seats are the strongest
    await play(service, oath(10))
    answers = ClubAnswers(store)
    cat = catalog("en")
    lines = await answers.answer(CLUB, Asker("tg:1"), ClubCmd("top", ("elo", "min=1")), cat, time.time())
    assert lines[0].startswith("Top by strength (Glicko-2)")
    red = {n for s, n in club.NAMES.items() if s not in (8, 9, 10)}
    named = [line.split(" — ")[0].split(". ", 1)[1] for line in lines[1:]]
    assert len(named) == 10 and set(named[:7]) == red
    ratings = [int(line.split(" — ")[1].split(" ")[0]) for line in lines[1:]]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1500 > ratings[-1]
    same = await answers.answer(CLUB, Asker("tg:1"), ClubCmd("top", ("сила", "min=1")), cat, time.time())
    assert same == lines
    refused = await answers.answer(CLUB, Asker("tg:1"), ClubCmd("top", ("elo", "don")), cat, time.time())
    assert refused == [cat.text("club-top-elo-role")]
    _, picture, _ = await answers.table_picture(CLUB, Asker("tg:1"), ClubCmd("top", ("elo", "min=1")),
                                                cat, time.time())
    assert picture is not None and picture[1].startswith(b"\x89PNG")


async def test_a_tournament_opened_in_a_rated_club_evens_its_tables_by_strength(store: Store) -> None:
    """``/tournament open 2 …`` seats as a balanced ``/seating`` does: the seven reds who won
    twice are split between the two tables, and each table's line says its mean strength; in a
    club with nobody rated the plan is the plain one (tests/test_tournament.py)."""
    from bot.club.tournament import TournamentDesk

    service = Service(store)
    await play(service, oath(9))  # red (seats 1–7) wins twice
    await play(service, oath(10))
    strong = {n for s, n in club.NAMES.items() if s <= 7}
    guests = [f"Гость {i}" for i in range(1, 11)]
    cat = catalog("ru")
    command = parse("/tournament open 2 " + ", ".join([*club.NAMES.values(), *guests]), None)
    assert isinstance(command, ClubCmd)
    answer = await TournamentDesk(store).answer(CLUB, JUDGE, command, cat)
    text = "\n".join(answer.lines)
    assert cat.text("club-seating-balanced", regular=10) in text
    firsts = [line for line in answer.lines if line.startswith("Игра 1, стол ")]
    assert len(firsts) == 2 and all("(сила " in line for line in firsts), firsts
    at_tables = [sum(name in line for name in strong) for line in firsts]
    assert sorted(at_tables) == [3, 4], firsts  # not all the strong at one table
