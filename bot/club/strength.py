"""A club's strength rating (issue 33): Glicko-2 over team results, beside the points
(docs/strength.md says it in words).

Pure, and derived only: :func:`recompute` folds the stored rows of the club's finished games
(:meth:`storage.Store.club_results`) into each player's :class:`Strength`; nothing of it is
stored, so a merge, a forgotten player or a corrected game changes it at the next reading.

**The method** is Glicko-2 as M. E. Glickman gives it in "Example of the Glicko-2 system"
(Boston University, 2012, revised 2022): a rating ``r`` (1500 for a new player), its deviation
``RD`` (350) and a volatility ``σ`` (0.06), updated once per *rating period* from all the period's
results at once, on the scale ``μ = (r − 1500) / 173.7178``, ``φ = RD / 173.7178``:

* ``g(φ) = 1 / √(1 + 3φ²/π²)``, ``E = 1 / (1 + exp(−g(φⱼ)(μ − μⱼ)))``;
* ``v = 1 / Σ g(φⱼ)² E (1 − E)``, ``Δ = v Σ g(φⱼ)(sⱼ − E)`` (``s``: 1 a win, ½ a draw, 0 a loss);
* the new ``σ'`` by the paper's Illinois iteration (``τ`` = :data:`TAU`, ``ε`` = :data:`EPSILON`);
* ``φ* = √(φ² + σ'²)``, ``φ' = 1 / √(1/φ*² + 1/v)``, ``μ' = μ + φ'² Σ g(φⱼ)(sⱼ − E)``;
* a player who sits a period out keeps ``μ`` and ``σ``, and ``φ`` grows to ``√(φ² + σ²)``
  (never above 350 / 173.7178).

**The team adaptation** is the *composite opponent* of G. J. Williams, "Abstracting Glicko-2
for Team Games" (M.S. thesis, University of Cincinnati, 2013): each player of a game plays one
match against a composite player of the other team, whose rating and deviation are the means
of that team's players' (at the period's start). The means, not the sums: the red team's seven
do not outweigh the black team's three by their number. The sides' base win rates differ, so
the composite carries the side's advantage as a chess rating carries the white pieces': the
red side's is ``h = ln(p / (1 − p))`` (Glicko-2 units), ``p`` the share of the red team's wins in
the club's earlier periods (a draw half a win), smoothed by one win and one loss (``p = ½`` for a
club's first evening); a red player meets a composite at ``μ_black − h``, a black one at
``μ_red + h``. Since ``h`` is fixed from the earlier periods, the games of one period may be
taken in any order (the paper's promise). The roles inside a team (the Sheriff, the Don) are
not told apart: a game says only which team won.

**A rating period** is a club evening: the games finished on one date of the club's time zone,
the date turning at :data:`DAY_TURNS` o'clock so that an evening past midnight stays one period.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo

#: Glicko-2's scale factor (rating points per unit of μ) and the new player's values.
SCALE = 173.7178
START_RATING, START_RD, START_VOLATILITY = 1500.0, 350.0, 0.06
#: The constraint on the volatility's change (Glickman: 0.3 to 1.2; his example's 0.5).
TAU = 0.5
#: The volatility iteration's tolerance (Glickman's).
EPSILON = 0.000001
#: A rating period's date turns at this hour of the club's time zone (an evening past midnight).
DAY_TURNS = 6
#: The roles of the red team (the rest are the black team's).
RED_ROLES = frozenset({"civilian", "sheriff"})


@dataclass(frozen=True)
class Strength:
    """A player's strength: ``rating`` and ``rd`` in rating points (Glicko-2's ``r`` and
    ``RD``), ``volatility`` (``σ``), ``games`` the rated games."""

    player_id: int
    rating: float
    rd: float
    volatility: float
    games: int


@dataclass(frozen=True)
class Result:
    """One player's row of one finished game: ``red`` his team, ``score`` 1 a win, 0.5 a draw,
    0 a loss (for his team)."""

    game_id: int
    finished_at: float
    player_id: int
    red: bool
    score: float


@dataclass
class _Rated:
    mu: float = 0.0
    phi: float = START_RD / SCALE
    sigma: float = START_VOLATILITY
    period: int = -1  # the last period played
    games: int = 0


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1 / (1 + math.exp(-g_j * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """The new ``σ'``: Glickman's step 5 (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(rating: float, rd: float, volatility: float,
           matches: Sequence[tuple[float, float, float]], *, tau: float = TAU
           ) -> tuple[float, float, float]:
    """One player's Glicko-2 update over one rating period (Glickman 2012/2022, steps 2–8):
    ``matches`` are ``(opponent's rating, opponent's RD, score)`` in rating points; returns the
    new ``(rating, RD, volatility)``. No matches: only the deviation grows (step 6)."""
    mu, phi = (rating - START_RATING) / SCALE, rd / SCALE
    if not matches:
        return rating, min(math.sqrt(phi * phi + volatility * volatility), START_RD / SCALE) * SCALE, \
            volatility
    terms = [((r - START_RATING) / SCALE, _g(d / SCALE), s) for r, d, s in matches]
    mu2, phi2, sigma2 = _step(mu, phi, volatility, terms, tau)
    return START_RATING + SCALE * mu2, SCALE * phi2, sigma2


def _step(mu: float, phi: float, sigma: float, terms: Iterable[tuple[float, float, float]],
          tau: float) -> tuple[float, float, float]:
    """Steps 3–7 on Glicko-2's scale: ``terms`` are ``(μⱼ, g(φⱼ), sⱼ)``."""
    info, gain = 0.0, 0.0
    for mu_j, g_j, s in terms:
        e = _expected(mu, mu_j, g_j)
        info += g_j * g_j * e * (1 - e)
        gain += g_j * (s - e)
    v = 1 / info
    sigma2 = _volatility(phi, sigma, v * gain, v, tau)
    pre = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1 / math.sqrt(1 / (pre * pre) + 1 / v)
    return mu + phi2 * phi2 * gain, phi2, sigma2


def red_advantage(red_score: float, games: int) -> float:
    """The red side's advantage ``h`` on Glicko-2's scale: the logit of the red team's share of
    wins ``red_score / games``, smoothed by one win and one loss (0 with no games)."""
    p = (red_score + 1) / (games + 2)
    return math.log(p / (1 - p))


def evening(at: float, tz: str) -> dt.date:
    """The rating period (a club evening) of a game finished at ``at`` (unix seconds): its date in
    ``tz``, turning at :data:`DAY_TURNS` o'clock."""
    return (dt.datetime.fromtimestamp(at, ZoneInfo(tz)) - dt.timedelta(hours=DAY_TURNS)).date()


def recompute(results: Iterable[Result], tz: str = "UTC", *, tau: float = TAU
              ) -> dict[int, Strength]:
    """Every player's :class:`Strength` after all ``results`` (a game's rows: one per seat,
    both teams; a game with one team only is left out), period after period
    (:func:`evening`); a player who missed periods has his deviation grown once per period
    missed, to the last one (so a long absence shows as a wider ``RD``)."""
    periods: dict[dt.date, dict[int, list[Result]]] = {}
    days: dict[float, dt.date] = {}  # a game's ten rows share one end
    for row in results:
        day = days.get(row.finished_at)
        if day is None:
            day = days[row.finished_at] = evening(row.finished_at, tz)
        periods.setdefault(day, {}).setdefault(row.game_id, []).append(row)
    rated: dict[int, _Rated] = {}
    red_score, decided = 0.0, 0
    number = -1
    for number, day in enumerate(sorted(periods)):
        h = red_advantage(red_score, decided)
        terms: dict[int, list[tuple[float, float, float]]] = {}
        for _, rows in sorted(periods[day].items()):  # summed in one order: the same floats
            rows.sort(key=lambda r: r.player_id)
            sides = {True: [r for r in rows if r.red], False: [r for r in rows if not r.red]}
            if not sides[True] or not sides[False]:
                continue
            teams = {red: [_grown(rated, r.player_id, number) for r in side]
                     for red, side in sides.items()}
            composite = {red: (sum(p.mu for p in team) / len(team),
                               _g(sum(p.phi for p in team) / len(team)))
                         for red, team in teams.items()}
            for row in rows:
                mu_j, g_j = composite[not row.red]
                terms.setdefault(row.player_id, []).append(
                    (mu_j - h if row.red else mu_j + h, g_j, row.score))
            red_score += sides[True][0].score
            decided += 1
        for player, matches in terms.items():
            p = rated[player]
            p.mu, p.phi, p.sigma = _step(p.mu, p.phi, p.sigma, matches, tau)
            p.period, p.games = number, p.games + len(matches)
    return {player: _strength(player, _grown(rated, player, number + 1)) for player in rated}


def _grown(rated: dict[int, _Rated], player: int, period: int) -> _Rated:
    """``player``'s values at the start of ``period``: his deviation grown by each period he
    missed since his last (step 6, once per period)."""
    p = rated.setdefault(player, _Rated(period=period - 1))
    missed = period - 1 - p.period
    if missed > 0:
        p.phi = min(math.sqrt(p.phi * p.phi + missed * p.sigma * p.sigma), START_RD / SCALE)
        p.period = period - 1
    return p


def _strength(player: int, p: _Rated) -> Strength:
    return Strength(player, START_RATING + SCALE * p.mu, SCALE * p.phi, p.sigma, p.games)


def table_means(tables: Sequence[Sequence[Any]], strength: Mapping[Any, float]) -> list[float]:
    """Each table's mean rating (a player without one counts as :data:`START_RATING`)."""
    return [sum(strength.get(p, START_RATING) for p in table) / len(table) for table in tables]
