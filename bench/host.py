"""Host mode's tick (issue 34): the CPU of one step's end against its floor, in one process.

A hosted table runs over the tests' in-memory platform (``tests/support/fake_host.py``: the
real :class:`bot.host.controller.HostController`, :class:`bot.service.Service` and outbox over a
SQLite file, ``synchronous=FULL``; no HTTP, the platform's calls are appends to lists) and its
speeches run out one after another: each **tick** is a speech's deadline — the ``Next`` logged,
the next seat's step stored with it, the step's message sent by the outbox and marked, its
buttons put on, its window opened — and the 10-second warning before it. Measured: the
process's CPU (``time.process_time``: the event loop and SQLite's threads) per speech, and the
round trips to SQLite's threads per speech (each call into aiosqlite's threads).

The **floor** is what a tick cannot do without: one fsync'd write unit through the same store
(the event: an ``append_many`` of one event with one outbox row) and one edit of a message on
the same fake platform, per tick. Ratio = tick / floor. Tables are played from the deal to the
end of day 1's speeches, a fresh table (and file) for each, ``--host-tables`` of them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import Row, Section, eprint

TITLE = "host mode's tick"
TABLES = 12
TARGET_RATIO = 3.0  # issue 34: a host tick ≤ 3× its floor
TESTS = Path(__file__).resolve().parents[1] / "tests"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host-tables", type=int, default=None, metavar="N",
                        help=f"tables played to the end of day 1 (default {TABLES}; --quick 3)")


def _round_trips(counts: list[int]) -> None:
    import aiosqlite.core

    execute = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        counts[0] += 1
        return await execute(self, fn, *args, **kwargs)

    aiosqlite.core.Connection._execute = counted  # type: ignore[method-assign]


async def _table(db: Path, counts: list[int]) -> tuple[float, int, int, float]:
    """One table's day 1: (CPU s of its speeches' ticks, speeches, round trips, floor CPU s)."""
    import rules
    from bot.host.port import Rights
    from bot.host.steps import StepKind, press_grace
    from storage import OutboxItem, Store
    from support.fake_host import Table

    store = await Store.open(db)
    try:
        t = Table(store, Rights(mute=True, delete=True))
        await t.to_first_speech()
        await t.port.outbox.settle()
        cpu, ticks, trips = 0.0, 0, 0
        while True:
            step = t.table().step
            if step is None or step.kind is not StepKind.SPEECH or step.seat == 10:
                break  # the day's last speech leads to the vote or the night: not a speech's tick
            before, trips0 = time.process_time(), counts[0]
            await t.clock.advance(step.seconds + press_grace(step))
            await t.port.outbox.settle()
            cpu += time.process_time() - before
            trips += counts[0] - trips0
            ticks += 1
        current = await t.service.current(t.table().chat)
        assert current is not None
        game = current.game_id
        message = t.chats.post("fk:floor", "floor")
        assert message is not None
        event = rules.to_dict(rules.SetName(seat=1, name="Игрок"))
        seq = current.revision
        floor = time.process_time()
        for n in range(ticks):
            seq += 1
            await store.append_many(game, seq, [event], t.port.judge,
                                    outbox=[OutboxItem("fk:floor", {"text": f"line {n}"})])
            await t.port.edit("fk:floor", message, f"floor {n}")
        return cpu, ticks, trips, time.process_time() - floor
    finally:
        await store.close()


async def _run(folder: Path, tables: int) -> Section:
    sys.path.insert(0, str(TESTS))  # the tests' in-memory platform (support.fake_host)
    counts = [0]
    _round_trips(counts)
    cpu = floor = 0.0
    ticks = trips = 0
    for i in range(tables):
        c, k, r, f = await _table(folder / f"host{i}.sqlite3", counts)
        cpu, ticks, trips, floor = cpu + c, ticks + k, trips + r, floor + f
    per, floor_per = cpu / max(1, ticks), floor / max(1, ticks)
    eprint(f"host: {ticks} speeches' ends over {tables} tables: {1000 * per:.2f} ms CPU each, "
           f"{trips / max(1, ticks):.2f} round trips; floor {1000 * floor_per:.2f} ms")
    section = Section(TITLE)
    section.rows += [
        Row("CPU per speech's end (its 10-s warning included)", per, "s", floor=floor_per,
            target="≤ 3× floor", met=per <= TARGET_RATIO * floor_per,
            note=(f"{ticks} speeches of day 1 over {tables} tables, each on a SQLite file "
                  "(synchronous=FULL), the in-memory platform of the tests; floor: one fsync'd "
                  "action (one event, one outbox row) and one edit per tick on the same store "
                  "and platform (bench/host.py)")),
        Row("round trips to SQLite's threads per speech's end (warning included)",
            trips / max(1, ticks), "count", target="≤ 3 (the warning stores nothing)",
            met=trips / max(1, ticks) <= 3.0),
    ]
    return section


def run(args: argparse.Namespace) -> Section:
    tables = args.host_tables if getattr(args, "host_tables", None) else (3 if args.quick else TABLES)
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-", dir=getattr(args, "db_dir", None)))
    try:
        return asyncio.run(_run(folder, tables))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
