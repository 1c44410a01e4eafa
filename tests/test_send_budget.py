"""Telegram's overall send limit shared by the workers of one bot (issue 18, shared workers):
:class:`storage.shared.SendBudget` (a token bucket in PostgreSQL, 0009) and
:class:`bot.telegram.host.SharedRateLimiter` (PTB's limiter taking every request's turn from it).
Telegram allows a bot about 30 messages a second overall, whichever process sends them: with
N workers each counting only its own sends, N × 30 would go out. Every clock here is the test's
own; nothing sleeps."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage import PgStore
from storage.shared import SendBudget

RATE = 30.0  # Telegram's ~30 messages a second per bot


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:  # the limiter's sleep: the clock moves on
        self.now += seconds


def within_limit(times: list[float], rate: float, burst: float) -> bool:
    """No window of T seconds (T = 1, 2, 5) holds more than ``burst + rate × T`` sends."""
    times = sorted(times)
    for span in (1.0, 2.0, 5.0):
        j = 0
        for i, start in enumerate(times):
            while j < len(times) and times[j] < start + span - 1e-9:
                j += 1
            if j - i > burst + rate * span + 1e-6:
                return False
    return True


async def test_workers_share_one_budget_and_none_gets_the_same_turn(pg_url: str) -> None:
    """Three workers take 300 sends at the same instant, concurrently: the first 30 (the
    burst) go at once, the others one turn each, 1/30 s apart — no turn given twice (one
    statement each, ordered by the row's lock), the last one 9 s on. Another bot's budget is its
    own."""
    clock = Clock()
    async with await PgStore.open(pg_url) as store:
        workers = [SendBudget(lambda: store.pool, "tg:1", RATE, clock=clock) for _ in range(3)]
        waits = await asyncio.gather(*(w.take() for w in workers for _ in range(100)))
        assert sorted(round(w * RATE, 6) for w in waits) == [0.0] * 30 + [float(k) for k in range(1, 271)]
        assert within_limit([clock.now + w for w in waits], RATE, RATE)
        # counted per worker, as three PTB limiters would: 3 × 30 at once, three times the limit
        assert not within_limit([clock.now + (i % 100) / RATE for i in range(300)], RATE, RATE)
        other = SendBudget(lambda: store.pool, "tg:2", RATE, clock=clock)
        assert await other.take() == 0.0  # another bot's bucket is full
        clock.now += 300 / RATE  # the reserved turns have gone and the bucket refilled
        assert [await workers[0].take() for _ in range(30)] == [0.0] * 30
        assert await workers[1].take() == pytest.approx(1 / RATE)
        assert workers[0].left() == pytest.approx(0.0)  # as seen by its last take
        clock.now += 0.5
        assert workers[0].left() == pytest.approx(15.0)  # refilled since, by its reckoning


async def test_steady_senders_stay_within_the_limit_whatever_the_mix(pg_url: str) -> None:
    """Four workers sending at different paces over 20 s of the test's clock (one in bursts):
    together within ``burst + rate × T`` in every window, and no turn wasted."""
    clock = Clock()
    async with await PgStore.open(pg_url) as store:
        workers = [SendBudget(lambda: store.pool, "tg:7", RATE, clock=clock) for _ in range(4)]
        paces = [0.02, 0.05, 0.1, 0.0]  # seconds between sends; the last sends 40 at each second
        due = [0.0, 0.0, 0.0, 0.0]
        times: list[float] = []
        start = clock.now
        while min(due) < 20.0:
            k = min(range(4), key=lambda i: due[i])
            clock.now = start + due[k]
            for _ in range(40 if paces[k] == 0.0 else 1):
                times.append(clock.now + await workers[k].take())
            due[k] += paces[k] or 1.0
        assert within_limit(times, RATE, RATE)
        # 120 offered a second, 30 allowed: a backlog from the first second on, and no turn in
        # it left unused — the last send goes when the budget has paid for all before it
        assert max(times) == pytest.approx(start + (len(times) - RATE) / RATE)


async def test_the_limiter_waits_its_turn_inside_the_group_limit(pg_url: str) -> None:
    """:class:`SharedRateLimiter` on two workers: every request to a chat (a message, a
    moderation call alike) waits the turn the shared budget gives it, then goes; a request
    without a chat (``getMe``) takes none; the countdown's room is read from the budget."""
    from bot.telegram.host import SharedRateLimiter

    clock = Clock()
    async with await PgStore.open(pg_url) as store:
        def limiter() -> SharedRateLimiter:
            budget = SendBudget(lambda: store.pool, "tg:9", RATE, clock=clock)
            return SharedRateLimiter(budget, group_max_rate=0, group_time_period=0,
                                     max_retries=0, sleep=clock.sleep)

        ours, theirs = limiter(), limiter()
        sent: list[float] = []

        async def call(*args: Any, **kwargs: Any) -> bool:
            sent.append(clock.now)
            return True

        assert ours.has_room(0.5)
        for i in range(45):
            worker = ours if i % 2 else theirs
            endpoint = "restrictChatMember" if i % 3 == 0 else "sendMessage"
            data = {"chat_id": -100 - i % 5, "text": "x"}
            assert await worker.process_request(call, (), {}, endpoint, data, None)
        assert sent[:30] == [sent[0]] * 30  # the burst at once
        assert [round((t - sent[0]) * RATE, 6) for t in sent[30:]] == [float(k) for k in range(1, 16)]
        assert not ours.has_room(0.5)  # the budget is spent: no countdown edit now
        before = len(sent)
        await ours.process_request(call, (), {}, "getMe", {}, None)
        assert len(sent) == before + 1 and sent[-1] == sent[-2]  # no turn taken, no wait
        clock.now += 1.0
        assert ours.has_room(0.5)


def test_shared_workers_get_the_shared_limiter(pg_url: str, tmp_path: Any) -> None:
    """``MAFIA_REFEREE_WORKERS=shared``: the overall limit from the bot's budget (keyed by the
    token's bot id), the group limit this worker's; one process keeps PTB's own counting."""
    from bot.settings import Settings
    from bot.telegram.app import build_application
    from bot.telegram.host import HostRateLimiter, SharedRateLimiter

    shared = build_application(Settings(telegram_token="123:abc", db=pg_url, workers="shared",
                                        telegram_rate_group=20, telegram_rate_group_period=60))
    limiter = shared.bot.rate_limiter
    assert isinstance(limiter, SharedRateLimiter)
    assert limiter.budget.key == "tg:123" and limiter.budget.rate == 30.0
    assert limiter._group_max_rate == 20 and limiter._base_limiter is None
    alone = build_application(Settings(telegram_token="123:abc", db=tmp_path / "x.sqlite3"))
    assert type(alone.bot.rate_limiter) is HostRateLimiter
