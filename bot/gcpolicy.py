"""Garbage collection for a long-running bot (issue 16: no GC stalls).

CPython's cyclic collector pauses the whole event loop while it walks a generation; a full
collection walks every tracked object alive, and with thousands of games in memory that was a
pause of 130–215 ms (1,000 games) to about 0.5 s (10,000) in the middle of someone's action.
What lives long — the modules, the Application, the games loaded, each game's newest state —
never becomes cyclic garbage (a game's state is a tree of dataclasses and lists, freed by
reference counting), so it is moved out of the collector's reach with :func:`gc.freeze`: after
start-up, after every :data:`FREEZE_EVERY` games loaded, and after every :data:`FREEZE_ACTIONS`
actions (each action makes a new state of about 60 objects: with 1,000 games in play the states
made since the last freeze were 40,000–100,000 objects, a full collection of 77 ms). Objects
frozen are still freed when their last reference goes. Before each freeze the young generations
are collected (:func:`gc.collect` of generation 1: a few thousand objects), so the cycles made
since are not frozen; a cycle that was promoted to the oldest generation and then dropped would
be frozen and kept, so every :data:`THAW_EVERY` freezes everything is unfrozen, collected once in
full (the one long pause left: once per 65,536 actions) and frozen again.
"""

from __future__ import annotations

import gc

#: Games loaded (folded from the store) between two freezes.
FREEZE_EVERY = 32
#: Actions (committed) between two freezes.
FREEZE_ACTIONS = 128
#: Freezes between two full collections of everything (unfrozen, collected, frozen again).
THAW_EVERY = 512


def freeze() -> None:
    """Collect the young generations, then move every object alive to the permanent generation
    (never walked by a collection)."""
    gc.collect(1)
    gc.freeze()


def thaw() -> int:
    """Unfreeze everything, collect it in full (a cycle frozen after it was dropped goes now),
    freeze what is left; the number of unreachable objects found."""
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found


class Freezer:
    """Counts games loaded and actions; freezes after every ``every`` games loaded and every
    ``actions`` actions, and thaws after every ``thaw`` freezes."""

    def __init__(self, every: int = FREEZE_EVERY, actions: int = FREEZE_ACTIONS,
                 thaw: int = THAW_EVERY) -> None:
        self.every = every
        self.actions = actions
        self.thaw = thaw
        self._loaded = 0
        self._acted = 0
        self._frozen = 0

    def _freeze(self) -> None:
        self._frozen += 1
        if self._frozen % self.thaw == 0:
            thaw()
        else:
            freeze()

    def loaded(self) -> None:
        self._loaded += 1
        if self._loaded % self.every == 0:
            self._freeze()

    def acted(self) -> None:
        self._acted += 1
        if self._acted % self.actions == 0:
            self._freeze()
