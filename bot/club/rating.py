"""A season's (or a series') rating of a club's players (issue 17; F24/S24 §8.6–8.7;
docs/rules.md §8.7).

Pure: :func:`standings` orders players by their points summed, plus the first-night victim's
compensation where the preset's rule for it is known, and breaks ties as both presets do
(F24/S24 §8.7.1, as the project's rules digest gives them): the additional points (extras) →
wins → wins as the Don or the Sheriff → first-night deaths → lot. The lot is drawn from a seed
(the series' name), so the same series always gives the same order.

The compensation (S24 §8.6, as the project's rules digest gives it): the player's *i*-th death
on the first night of the series earns ``Ci = i·0.4/B`` (``0.4`` once ``i > B``), where ``B``
is 40 % of the series' games and at least 4 (read as ``B = max(4, round(0.4 × games))``,
``games`` the player's own in the series); only when that game's best move named at least one
black (F24 §4.5.9), and half of it when the red team won. Each game's compensation is rounded
to hundredths. FIIM's formula is not in our rules text (the digest: «lost in extraction»; F24
§8.6), so a FIIM rating has no compensation: it says so (``compensation`` is ``None``) rather
than guessing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Mapping, Sequence

from storage import Totals

CENT = Decimal("0.01")
#: The schemes a club may rate by: FIIM 2024 (the seed's preset scores as FIIM) and FSM 2024.
SCHEMES = ("fiim", "fsm")


@dataclass(frozen=True)
class FirstNight:
    """One of a player's deaths on a game's first night: ``won`` whether his (red) team won,
    ``hits`` the blacks his best move named (``None``: none made), ``red`` his team."""

    at: float
    red: bool
    won: bool
    hits: int | None


@dataclass(frozen=True)
class Standing:
    """A player's place. Points are :class:`~decimal.Decimal`; ``compensation`` is ``None``
    when the scheme's rule for it is not known (FIIM)."""

    place: int
    player_id: int
    name: str
    total: Decimal
    points: Decimal
    compensation: Decimal | None
    additional: Decimal
    games: int
    wins: int
    key_wins: int  # as the Don or the Sheriff
    first_killed: int


def _points(hundredths: int) -> Decimal:
    return (Decimal(hundredths) / 100).quantize(CENT)


def compensation(deaths: Sequence[FirstNight], games: int, scheme: str) -> Decimal | None:
    """The first-night victim's compensation over a series of ``games`` games (see the module's
    docstring), ``None`` for a scheme without a known rule."""
    if scheme != "fsm":
        return None
    base = max(4, int((Decimal(games) * Decimal("0.4")).quantize(Decimal(1), ROUND_HALF_UP)))
    total = Decimal(0)
    for i, death in enumerate(sorted(deaths, key=lambda d: d.at), 1):
        if not death.red or not death.hits:
            continue
        earned = Decimal("0.4") if i > base else Decimal(i) * Decimal("0.4") / base
        if death.won:
            earned /= 2
        total += earned.quantize(CENT, ROUND_HALF_UP)
    return total


def lot(seed: str, player_id: int) -> str:
    """The player's lot in a series named ``seed``: the last tie-break, the same at every call."""
    return hashlib.sha256(f"{seed}\x00{player_id}".encode()).hexdigest()


def standings(totals: Mapping[int, Totals], deaths: Mapping[int, Sequence[FirstNight]],
              scheme: str, seed: str, *, min_games: int = 0) -> list[Standing]:
    """Every player with at least ``min_games``, best first (the tie-breaks of F24/S24 §8.7.1)."""
    rows = []
    for player, t in totals.items():
        if t.games < min_games or not t.games:
            continue
        comp = compensation(deaths.get(player, ()), t.games, scheme)
        points = _points(t.points)
        additional = _points(t.additional) + (comp or 0)
        rows.append(Standing(0, player, t.name, points + (comp or 0), points, comp, additional,
                             t.games, t.wins, t.wins_as("don", "sheriff"), t.first_killed))
    rows.sort(key=lambda s: (-s.total, -s.additional, -s.wins, -s.key_wins, -s.first_killed,
                             lot(seed, s.player_id)))
    return [Standing(place, *(getattr(s, f) for f in (
        "player_id", "name", "total", "points", "compensation", "additional", "games", "wins",
        "key_wins", "first_killed"))) for place, s in enumerate(rows, 1)]
