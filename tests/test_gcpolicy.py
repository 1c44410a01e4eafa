"""The garbage-collection policy (bot/gcpolicy.py, issue 16): what is frozen and when. Counts
and reachability only; how long a collection takes is the bench's (bench/e2e.py), never a
test's."""

from __future__ import annotations

import gc
import weakref
from typing import Any, Iterator

import pytest

from bot.gcpolicy import Freezer


@pytest.fixture(autouse=True)
def manual_gc() -> Iterator[None]:
    """Only the policy collects during a test (no automatic collection hides what it does)."""
    enabled = gc.isenabled()
    gc.disable()
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the suite as it was
    if enabled:
        gc.enable()


class Node:
    """A reference cycle of one: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me: Any = self


def test_actions_freeze_every_n_after_collecting_the_young_cycles() -> None:
    freezer = Freezer(every=10**6, actions=3, thaw=10**6)
    kept = Node()
    freezer.acted()
    freezer.acted()
    assert gc.get_freeze_count() == 0
    dropped = Node()
    gone = weakref.ref(dropped)
    del dropped
    freezer.acted()  # the 3rd: the young cycles collected, the rest frozen
    assert gone() is None  # the dropped cycle was not frozen with the rest
    assert gc.get_freeze_count() > 0
    assert not any(o is kept for o in gc.get_objects())  # alive, out of every collection's walk


def test_games_loaded_freeze_every_n() -> None:
    freezer = Freezer(every=2, actions=10**6, thaw=10**6)
    freezer.loaded()
    assert gc.get_freeze_count() == 0
    freezer.loaded()
    assert gc.get_freeze_count() > 0


def test_a_cycle_dropped_after_its_freeze_goes_at_the_thaw() -> None:
    """A cycle alive at a freeze and dropped later is out of every collection's reach — until
    the thaw (every ``thaw`` freezes), which collects everything once and freezes the rest."""
    freezer = Freezer(every=10**6, actions=1, thaw=2)
    node = Node()
    gone = weakref.ref(node)
    freezer.acted()  # the 1st freeze: the cycle is alive, frozen
    del node
    gc.collect()
    assert gone() is not None  # unreachable, but frozen: a full collection does not see it
    freezer.acted()  # the 2nd freeze is a thaw
    assert gone() is None
    assert gc.get_freeze_count() > 0  # what is alive is frozen again
