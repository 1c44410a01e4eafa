"""A seating plan for a tournament or a club evening (issue 17): who sits at which table on which
seat in each game of a series. Pure and deterministic (a seed).

Each game (a round) uses ``tables`` tables of :data:`SEATS` players; with more players than seats
the rest sit the round out, and the rests go round: every player plays as many games as any other,
or one fewer. Over the series the plan balances

* **seats** — each player in each seat as evenly as the numbers allow: at table after table the
  seats are given by a minimum-cost assignment (the cost of a seat grows with the square of the
  times the player sat there), so no seat repeats for a player before it must;
* **opponents** — each pair of players meets as evenly as possible: each round the players are
  split into tables by a local search (swaps between tables) that minimises the sum of the pairs'
  past meetings, i.e. the growth of the sum of their squares.

Given the players' strength (issue 33: the club's rating, :mod:`.strength`) and its regulars, a
**balanced** plan also evens each round's tables: the local search's cost gains
:data:`BALANCE` × the tables' :func:`spread` — the squared distances of the tables' mean
strengths from the round's, in units of :data:`STRENGTH_UNIT` rating points, plus those of their
counts of regulars (each regular weighing :data:`REGULAR`). A swap that only evens the tables
may add a meeting, but never one that would bring a pair to :func:`meeting_bound` meetings
(the meetings' own swaps are as before). Over 20–40 players of ratings spread as N(1500, 150) the
largest gap between a round's tables' means falls from about 70 rating points to about 20, the
regulars' from 2.5 to 0.9 (measured once, seeds 0–2 of eight sizes; not a promise).

The bounds it keeps are stated (and checked as a property for 10–40 players and 4–12 games,
balanced or not): :func:`seat_bound` and :func:`meeting_bound`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Collection, Hashable, Mapping, Sequence

SEATS = 10
#: How much heavier each further meeting of a pair weighs when the tables are split.
PENALTY = 8
#: Random starts of the local search per round.
STARTS = 4
#: A balanced plan: the weight of the tables' spread against the pairs' meetings, and the
#: strength that counts as one unit of it (rating points of a table's mean).
BALANCE = 100
STRENGTH_UNIT = 50.0
REGULAR = 0.5


class SeatingError(ValueError):
    """A plan that cannot be made: fewer players than one table, no games, more tables than the
    players fill."""


@dataclass(frozen=True)
class Plan:
    """``rounds[g][t]`` is table ``t``'s seating in game ``g + 1``: its players by seat (seat 1
    first). ``resting[g]``: who sits game ``g + 1`` out."""

    players: tuple[Hashable, ...]
    rounds: tuple[tuple[tuple[Hashable, ...], ...], ...]
    resting: tuple[tuple[Hashable, ...], ...]

    def games_of(self, player: Hashable) -> int:
        return sum(1 for tables in self.rounds for table in tables if player in table)

    def seat_counts(self, player: Hashable) -> list[int]:
        """How many times ``player`` sat in each seat (index 0: seat 1)."""
        counts = [0] * SEATS
        for tables in self.rounds:
            for table in tables:
                if player in table:
                    counts[table.index(player)] += 1
        return counts

    def meetings(self) -> dict[frozenset[Hashable], int]:
        """How many times each pair of players sat at one table (every pair, 0 included)."""
        out = {frozenset(p): 0 for p in combinations(self.players, 2)}
        for tables in self.rounds:
            for table in tables:
                for pair in combinations(table, 2):
                    out[frozenset(pair)] += 1
        return out


def seat_bound(games: int) -> int:
    """The most times a player of ``games`` games sits in one seat: each seat once before any
    twice, and so on, with one more allowed once the seats left to a table's players collide
    (their last free seats need not differ): ``ceil(games / 10) + 1`` — and exactly
    ``ceil(games / 10)`` for the first ten games played when a table's players share no seat
    history, which the assignment finds whenever it exists."""
    return math.ceil(games / SEATS) + 1


def meeting_bound(players: int, games: int, tables: int) -> int:
    """The most times any pair meets: the mean meetings of a pair rounded up, plus two. The
    slack is needed: with two tables a player's series is a word of table numbers, and twenty
    players in four games have only sixteen words, so some pair sits together in every game
    (1.9 meetings on average); with one table everyone meets in every game."""
    pairs = players * (players - 1) / 2
    mean = games * tables * (SEATS * (SEATS - 1) / 2) / pairs
    return min(games, math.ceil(mean) + 2)


def plan(players: Sequence[Hashable], games: int, *, tables: int | None = None,
         seed: int = 0, strength: Mapping[Hashable, float] | None = None,
         regulars: Collection[Hashable] = ()) -> Plan:
    """The plan of ``games`` games for ``players`` (distinct), on ``tables`` tables (default: as
    many as the players fill, ``len(players) // 10``); with ``strength`` (a rating per player,
    every one of them) and ``regulars`` (some of them), balanced (the module's docstring).
    Raises :class:`SeatingError`."""
    people = tuple(players)
    if len(set(people)) != len(people):
        raise SeatingError("the players must be distinct")
    if games < 1:
        raise SeatingError("at least one game")
    tables = len(people) // SEATS if tables is None else tables
    if tables < 1 or tables * SEATS > len(people):
        raise SeatingError(f"{len(people)} players fill {len(people) // SEATS} tables of {SEATS}")
    if strength is not None and any(p not in strength for p in people):
        raise SeatingError("a balanced plan needs every player's strength")
    rng = random.Random(seed)
    n = len(people)
    features = _features(people, strength, regulars)
    met = [[0] * n for _ in range(n)]
    seat_count = [[0] * SEATS for _ in range(n)]
    played = [0] * n
    rounds, resting = [], []
    for _ in range(games):
        groups, rest = _split(list(range(n)), tables, met, played, rng, features,
                              meeting_bound(n, games, tables))
        seated = []
        for group in groups:
            table = _seat(group, seat_count, rng)
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            for seat, i in enumerate(table):
                seat_count[i][seat] += 1
                played[i] += 1
            seated.append(tuple(people[i] for i in table))
        rounds.append(tuple(seated))
        resting.append(tuple(people[i] for i in sorted(rest)))
    return Plan(people, tuple(rounds), tuple(resting))


def _features(people: Sequence[Hashable], strength: Mapping[Hashable, float] | None,
              regulars: Collection[Hashable]) -> list[tuple[float, ...]]:
    """What a balanced plan evens, per player: his strength in :data:`STRENGTH_UNIT` s (from
    the players' mean) and whether he is a regular; nothing for a plan that is not balanced."""
    if strength is None:
        return [() for _ in people]
    mean = sum(strength[p] for p in people) / len(people)
    return [((strength[p] - mean) / STRENGTH_UNIT, REGULAR * (p in regulars)) for p in people]


def spread(groups: Sequence[Sequence[int]], features: Sequence[tuple[float, ...]]) -> float:
    """The tables' spread: for each feature, the squared distances of the tables' means from
    their mean (strength: :data:`STRENGTH_UNIT` s), or of their counts (regulars)."""
    total = 0.0
    for f in range(len(features[groups[0][0]])):
        sums = [sum(features[i][f] for i in g) for g in groups]
        values = [s / len(g) for s, g in zip(sums, groups)] if f == 0 else sums
        middle = sum(values) / len(values)
        total += sum((v - middle) ** 2 for v in values)
    return total


def _split(active: list[int], tables: int, met: list[list[int]], played: list[int],
           rng: random.Random, features: Sequence[tuple[float, ...]], cap: int
           ) -> tuple[list[list[int]], list[int]]:
    """The round's tables and who rests: a local search over swaps of two players between
    tables (or between a table and the rest, of players with as many games played, so that the
    rests still go round), minimising the weight of the pairs put together, where a pair that
    met ``m`` times weighs ``8 ** m`` (a third meeting costs more than many first ones), plus
    :data:`BALANCE` × the tables' :func:`spread` in a balanced plan; a few random starts, the
    best kept."""
    weight = {i: {j: PENALTY ** met[i][j] for j in active} for i in active}
    balanced = bool(features[active[0]])

    def crowded(player: int, table: list[int], leaving: int) -> bool:
        """Would ``player`` seated at ``table`` (``leaving`` it) meet someone a ``cap``-th time?"""
        return any(met[player][o] + 1 >= cap for o in table if o != leaving)
    even = (lambda groups: BALANCE * spread(groups, features)) if balanced else (lambda groups: 0.0)
    seated = tables * SEATS
    best: tuple[list[list[int]], list[int]] | None = None
    best_cost = math.inf
    for _ in range(STARTS if len(active) > SEATS else 1):
        order = active[:]
        rng.shuffle(order)
        order.sort(key=lambda i: played[i])  # the fewest games first: the rests go round
        groups = [order[t * SEATS:(t + 1) * SEATS] for t in range(tables)]
        rest = order[seated:]
        improved = len(active) > SEATS
        level = even(groups)
        while improved:
            improved = False
            for s, t in combinations(range(tables), 2):
                for x in range(SEATS):
                    for y in range(SEATS):
                        a, b = groups[s][x], groups[t][y]
                        wa, wb = weight[a], weight[b]
                        delta = (sum(wb[o] - wa[o] for o in groups[s] if o != a)
                                 + sum(wa[o] - wb[o] for o in groups[t] if o != b))
                        if not balanced and delta >= 0 or delta > 0 and (
                                crowded(b, groups[s], a) or crowded(a, groups[t], b)):
                            continue
                        groups[s][x], groups[t][y] = b, a
                        after = even(groups)
                        if delta + after - level < -1e-9:
                            level, improved = after, True
                        else:
                            groups[s][x], groups[t][y] = a, b
            for s in range(tables):
                for x in range(SEATS):
                    for y, b in enumerate(rest):
                        a = groups[s][x]
                        if played[a] != played[b]:
                            continue
                        wa, wb = weight[a], weight[b]
                        delta = sum(wb[o] - wa[o] for o in groups[s] if o != a)
                        if not balanced and delta >= 0 or delta > 0 and crowded(b, groups[s], a):
                            continue
                        groups[s][x], rest[y] = b, a
                        after = even(groups)
                        if delta + after - level < -1e-9:
                            level, improved = after, True
                        else:
                            groups[s][x], rest[y] = a, b
        cost = sum(weight[a][b] for g in groups for a, b in combinations(g, 2)) + level
        if cost < best_cost:
            best, best_cost = ([g[:] for g in groups], rest[:]), cost
    assert best is not None
    return best


def _seat(group: list[int], seat_count: list[list[int]], rng: random.Random) -> list[int]:
    """The table's players by seat: a minimum-cost assignment (Hungarian method) where sitting
    where one sat ``k`` times costs ``k²`` (ties broken at random)."""
    players = group[:]
    rng.shuffle(players)
    cost = [[seat_count[p][s] ** 2 * 1000 + rng.randrange(10) for s in range(SEATS)] for p in players]
    chosen = _assignment(cost)
    table = [0] * SEATS
    for row, seat in enumerate(chosen):
        table[seat] = players[row]
    return table


def _assignment(cost: list[list[int]]) -> list[int]:
    """The column of each row in a minimum-cost perfect assignment of a square matrix (the
    Hungarian method with potentials, O(n³))."""
    n = len(cost)
    inf = math.inf
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    match, way = [0] * (n + 1), [0] * (n + 1)  # match[column] = row (1-based; 0: none)
    for row in range(1, n + 1):
        match[0] = row
        col0 = 0
        low = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = match[col0], inf, 0
            for col in range(1, n + 1):
                if not used[col]:
                    current = cost[r0 - 1][col - 1] - u[r0] - v[col]
                    if current < low[col]:
                        low[col], way[col] = current, col0
                    if low[col] < delta:
                        delta, col1 = low[col], col
            for col in range(n + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    low[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    out = [0] * n
    for col in range(1, n + 1):
        out[match[col] - 1] = col - 1
    return out
