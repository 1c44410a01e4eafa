"""The garbage-collection policy (bot/gcpolicy.py, issue 16): what is frozen and when, and that
the bot's common paths make no cyclic garbage (what a freeze catches alive is then freed by
reference counting once dropped). Counts and reachability only; how long a collection takes is
the bench's (bench/e2e.py), never a test's."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator

import pytest

from bot.discord.tasks import TaskScheduler
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
    freezer = Freezer(every=10**6, actions=3, growth=10**6)
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
    freezer = Freezer(every=2, actions=10**6, growth=10**6)
    freezer.loaded()
    assert gc.get_freeze_count() == 0
    freezer.loaded()
    assert gc.get_freeze_count() > 0


@pytest.fixture(params=["blocks allocated", "objects frozen"])
def measure(request: pytest.FixtureRequest) -> Callable[[], int]:
    """What the thaw's bound counts: the policy's own (sys.getallocatedblocks, a counter read in
    constant time) and the frozen objects themselves (gc.get_freeze_count, which walks them)."""
    return sys.getallocatedblocks if request.param == "blocks allocated" else gc.get_freeze_count


def test_the_policy_never_walks_the_frozen_heap() -> None:
    """gc.get_freeze_count walks every frozen object (150-400 ms with 10,000 games in memory):
    the policy's bound counts the blocks allocated instead."""
    assert Freezer().measure is sys.getallocatedblocks


def alive(count: int) -> list[list[Any]]:
    """``count`` + 1 tracked objects (lists), freed by reference counting when dropped."""
    return [[] for _ in range(count)]


def test_the_thaw_comes_once_the_frozen_objects_grew_beyond_the_bound(measure: Callable[[], int]) -> None:
    """A cycle alive at a freeze and dropped after it is out of every collection's reach until
    the frozen objects have grown by ``growth`` since the last full collection: then everything
    is collected once, and what is alive frozen again."""
    freezer = Freezer(every=10**6, actions=1, growth=0.5, measure=measure)
    freezer.acted()  # the first freeze: its count is the base
    base = measure()
    node = Node()
    gone = weakref.ref(node)
    kept = [alive(base // 4)]
    freezer.acted()  # the cycle is alive: frozen with the rest
    del node
    freezer.acted()
    assert gone() is not None and freezer.thaws == 0  # grown by a quarter: below the bound
    kept.append(alive(base // 2))  # now by three quarters
    freezer.acted()
    assert freezer.thaws == 1 and gone() is None
    assert not any(o is kept[1] for o in gc.get_objects())  # alive: frozen again
    kept.append(alive(base // 4))  # the base is now the count after the thaw
    freezer.acted()
    assert freezer.thaws == 1


def test_games_loaded_do_not_count_towards_the_thaw(measure: Callable[[], int]) -> None:
    """Games loaded are alive: what a freeze after loading adds raises the bar with it."""
    freezer = Freezer(every=1, actions=1, growth=0.5, measure=measure)
    freezer.acted()
    base = measure()
    games = alive(2 * base)  # the frozen objects triple: games loaded
    freezer.loaded()
    assert freezer.thaws == 0
    played = alive(base)  # a third more by actions: below half the raised base
    freezer.acted()
    assert freezer.thaws == 0
    played += alive(base)
    freezer.acted()
    assert freezer.thaws == 1
    del games, played


def test_objects_given_back_lower_the_bar(measure: Callable[[], int]) -> None:
    """Frozen games dropped (finished, out of the cache) are freed by reference counting, and
    the bound follows the frozen objects down: garbage cannot hide in the room they left."""
    freezer = Freezer(every=1, actions=1, growth=0.5, measure=measure)
    freezer.acted()
    base = measure()
    games = alive(base)
    freezer.loaded()  # the bar: three times the base
    del games  # freed although frozen
    freezer.acted()  # the bar back to one and a half times the base
    played = alive(base * 3 // 4)
    freezer.acted()
    assert freezer.thaws == 1
    del played


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


@pytest.fixture(params=["aiohttp", "httpx"])
async def t(request: pytest.FixtureRequest, fake: FakeBotAPI, tmp_path: Path,
            ptb_timedelta: None) -> AsyncIterator[Table]:
    """A judge's table over each Bot API client (MAFIA_REFEREE_TELEGRAM_HTTP)."""
    async with table(fake, tmp_path / "referee.sqlite3", telegram_http=request.param) as running_table:
        yield running_table


async def test_the_judges_common_paths_leave_no_cyclic_garbage(t: Table) -> None:
    """Each update (its handler, the store's round trips, every Bot API request — aiohttp's, or
    httpx's, which binds a response to its body stream and bot/telegram/http.py unbinds) is freed
    by reference counting: a freeze during one keeps nothing once it is done."""
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


async def test_a_cancelled_discord_timer_leaves_no_cyclic_garbage() -> None:
    """A timer cancelled in its sleep (every action that restarts a speech) is freed by
    reference counting: its task's CancelledError holds the coroutine's frame, which must not
    hold the task."""
    scheduler = TaskScheduler()
    ran: list[str] = []

    async def callback() -> None:
        ran.append("ran")

    cyclic_garbage()
    scheduler.schedule("speech", 60.0, callback)
    await asyncio.sleep(0)  # the task sleeps
    scheduler.cancel("speech")
    for _ in range(3):
        await asyncio.sleep(0)  # the cancellation delivered, the task done
    assert ran == []
    assert cyclic_garbage() == Counter()
