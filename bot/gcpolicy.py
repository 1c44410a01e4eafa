"""Garbage collection for a long-running bot (issue 16: no GC stalls).

CPython's cyclic collector pauses the whole event loop while it walks a generation; a full
collection walks every tracked object alive, and with thousands of games in memory that was a
pause of 130–215 ms (1,000 games) to about 0.5 s (10,000) in the middle of someone's action.
What lives long — the modules, the Application, the games loaded — never becomes cyclic
garbage (a game's state is a tree of dataclasses and lists, freed by reference counting), so it
is moved out of the collector's reach with :func:`gc.freeze`: after start-up, and after every
:data:`FREEZE_EVERY` games loaded. Objects frozen are still freed when their last reference
goes; only a reference cycle frozen with them would stay, which is why the freezes are not
more frequent than that.
"""

from __future__ import annotations

import gc

#: Games loaded (folded from the store) between two freezes.
FREEZE_EVERY = 32


def freeze() -> None:
    """Move every object alive now to the permanent generation (never walked by a collection)."""
    gc.freeze()


class Freezer:
    """Counts games loaded and freezes after every ``every`` of them."""

    def __init__(self, every: int = FREEZE_EVERY) -> None:
        self.every = every
        self._loaded = 0

    def loaded(self) -> None:
        self._loaded += 1
        if self._loaded % self.every == 0:
            freeze()
