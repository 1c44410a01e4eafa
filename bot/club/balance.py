"""A club's strength where tables are seated (issue 33): each player's Glicko-2 strength
(:mod:`.strength`) recomputed from the club's stored games and kept while they do not change,
and what a balanced seating plan evens — ``/seating`` and ``/tournament open``
(:func:`.seating.plan`, docs/strength.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from storage import Store

from ..lru import Recent, locks
from .strength import RED_ROLES, START_RATING, Result, Strength, recompute

#: A player with at least this many games in the club is a regular (spread evenly over tables).
REGULAR_GAMES = 10
#: The clubs' strength ratings last computed (:func:`club_strength`), each with its rows' mark.
_STRENGTHS: Recent[tuple[int, str, str, float | None], tuple[tuple[Any, ...], dict[int, Strength]]] \
    = Recent(64)
#: One recompute at a time per club: a second asker waits for the first one's result.
_STRENGTH_LOCKS = locks(64)


async def club_strength(store: Store, club: str, tz: str, until: float | None = None
                        ) -> dict[int, Strength]:
    """Each player's strength (:mod:`.strength`, Glicko-2) after the club's games finished before
    ``until`` (unix seconds; ``None``: all), recomputed from the stored rows; the last result is
    kept per club while the rows' mark (:meth:`storage.Store.club_results_mark`) stays the same;
    one recompute at a time per club (a second asker waits for the first one's result)."""
    key = (id(store), club, tz, until)
    async with _STRENGTH_LOCKS.setdefault(f"{id(store)} {club}", asyncio.Lock()):
        mark = await store.club_results_mark(club)
        kept = _STRENGTHS.get(key)
        if kept is not None and kept[0] == mark:
            return kept[1]
        rows = await store.club_results(club, until)
        results = [Result(game, at, player, role in RED_ROLES, 0.5 if result == "draw"
                          else float((role in RED_ROLES) == (result == "red")))
                   for game, at, player, role, result in rows]
        strengths = await asyncio.to_thread(recompute, results, tz)
        _STRENGTHS[key] = (mark, strengths)
        return strengths


async def seating_balance(store: Store, club: str, names: list[str], tz: str
                          ) -> tuple[dict[str, float], set[str]]:
    """The strength of each of ``names`` (the club's rating; a name it has not rated: a new
    player's, :data:`.strength.START_RATING`) and the regulars among them (at least
    :data:`REGULAR_GAMES` games in the club): what a balanced plan evens."""
    strengths = await club_strength(store, club, tz)
    strength, regulars = {}, set()
    for name in names:
        found = await store.find_player(club, name)
        rated = strengths.get(found.id) if found is not None else None
        strength[name] = rated.rating if rated is not None else START_RATING
        if found is not None and found.games >= REGULAR_GAMES:
            regulars.add(name)
    return strength, regulars
