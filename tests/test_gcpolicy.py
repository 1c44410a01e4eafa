"""The garbage-collection policy (bot/gcpolicy.py, issue 16): what is frozen and when, and that
the bot's common paths make no cyclic garbage (what a freeze catches alive is then freed by
reference counting once dropped). Counts and reachability only; how long a collection takes is
the bench's (bench/e2e.py), never a test's."""

from __future__ import annotations

import gc
import weakref
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator

import pytest

from bot.gcpolicy import Freezer
from fakebot import FakeBotAPI
from support.judging import TelegramJudging, setup_club_game
from support.telegram_table import Table, table


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


def cyclic_garbage() -> Counter[str]:
    """What a full collection finds unreachable now, by type (then freed)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    gc.collect()
    return found


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path, ptb_timedelta: None) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def test_the_judges_common_paths_leave_no_cyclic_garbage(t: Table) -> None:
    """Each update (its handler, the store's round trips, every Bot API request: httpx binds a
    response to its body stream, bot/telegram/http.py unbinds it) is freed by reference counting:
    a freeze during one keeps nothing once it is done."""
    await setup_club_game(TelegramJudging(t))
    await t.say("/status")
    cyclic_garbage()  # what setting up left
    paths: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("a press", lambda: t.press("Далее ▶")),
        ("a typed action", lambda: t.say("/foul 3 4.1.1")),
        ("a refused action", lambda: t.say("/foul 12 4.1.1")),
        ("an undo", lambda: t.say("/undo")),
        ("a fresh panel", lambda: t.say("/status")),
    ]
    for what, path in paths:
        await path()
        assert cyclic_garbage() == Counter(), what
