"""Long logs: a cold load and an undo as a game's log grows (issue 16, item 4: flat cost).

Games of 20, 300 and 1,000 logged events are stored through the service (a real SQLite file,
``synchronous=OFF`` for the setup): the demo game's first events (the deal, night 0, day 1's
first speeches) and then names given again and again (a name is taken in every phase, so any
length is a valid log), with an undo of the last event every 25 events. Measured through
:class:`bot.service.Service`:

* **cold first touch**: ``Service.current`` of a game not in memory (a fresh service over the
  store): the log read, the stored snapshot decoded and the tail after it replayed;
* **undo**: ``Service.undo`` of one step in a game in memory (then the event done again,
  not timed): the newest kept state still standing and the events after it replayed, the undo
  logged (one commit).

The floor is the same with snapshots off (``snapshot_every`` larger than the log): the whole log
decoded and folded, as before issue 16. Best of several runs, each on its own game.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from pathlib import Path

from . import Row, Section, eprint

TITLE = "long logs"
SIZES = (20, 300, 1000)
TARGET_S = 0.003  # at 1,000 events
NO_SNAPSHOTS = 10 ** 9


def _events(n: int) -> list:
    import rules
    from bench.e2e import script

    s = script()
    prefix = [e for e in s.events[1:s.day_one + 3] if e is not None]
    out = list(prefix[:n])
    i = 0
    while len(out) < n:
        i += 1
        if i % 25 == 0:
            out.append(rules.Undo())
        else:
            out.append(rules.SetName(seat=i % 10 + 1, name=f"Игрок {i}"))
    return out


async def _store(db: Path, n: int, games: int) -> list[str]:
    import rules
    from bot.service import Service
    from storage import Store

    store = await Store.open(db)
    await store.conn.execute_fetchall("PRAGMA synchronous=OFF")
    chats = []
    try:
        service = Service(store)
        events = _events(n)
        for g in range(games):
            chat = f"tg:{n}{g:03d}"
            await service.new_game(chat, chat, rules.PRESETS["seed"])
            for event in events:
                await service.act(chat, chat, event)
            chats.append(chat)
    finally:
        await store.close()
    return chats


async def _measure(db: Path, chats: list[str], every: int) -> tuple[float, float]:
    """(best cold first touch, best undo) in seconds."""
    import rules
    from bot.service import Service
    from storage import Store

    from bot import service as module

    real = module.snapshots.version
    if every == NO_SNAPSHOTS:  # the floor: no stored snapshot is of this version, none is written
        module.snapshots.version = lambda: "floor"  # type: ignore[assignment]
    store = await Store.open(db)
    cold: list[float] = []
    undo: list[float] = []
    try:
        for chat in chats:
            service = Service(store, snapshot_every=every)
            start = time.perf_counter()
            outcome = await service.current(chat)
            cold.append(time.perf_counter() - start)
            assert outcome is not None
            events = await service.events(chat)
            last = rules.effective(events)[-1]
            start = time.perf_counter()
            await service.undo(chat, chat)
            undo.append(time.perf_counter() - start)
            await service.act(chat, chat, last)
    finally:
        await store.close()
        module.snapshots.version = real  # type: ignore[assignment]
    return min(cold), min(undo)


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    from bot.service import SNAPSHOT_EVERY

    games = 3 if quick else 7
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-log-", dir=getattr(args, "db_dir", None)))
    section = Section(TITLE)
    try:
        for n in SIZES:
            db = folder / f"log{n}.sqlite3"
            chats = asyncio.run(_store(db, n, games))
            # alternate, so that a busy moment of the machine falls on both
            with_ = [asyncio.run(_measure(db, chats, SNAPSHOT_EVERY)) for _ in range(2)]
            without = [asyncio.run(_measure(db, chats, NO_SNAPSHOTS)) for _ in range(2)]
            cold, undo = min(c for c, _ in with_), min(u for _, u in with_)
            cold0, undo0 = min(c for c, _ in without), min(u for _, u in without)
            eprint(f"long logs: {n} events: cold {1000 * cold:.2f} ms (no snapshots "
                   f"{1000 * cold0:.2f}), undo {1000 * undo:.2f} ms ({1000 * undo0:.2f})")
            judged = n == SIZES[-1]
            section.rows += [
                Row(f"cold first touch, {n:,} events", cold, "s", floor=cold0,
                    target="< 3 ms" if judged else "—", met=cold < TARGET_S if judged else None,
                    note=("Service.current on a fresh service (the log read, the snapshot "
                          "decoded, the tail replayed); floor: snapshots off, the whole log "
                          "folded (before issue 16). Logs: the demo's first events, then names "
                          "given again, an undo every 25 events. Best of "
                          f"{games} games × 2 passes, alternating with the floor.")
                    if n == SIZES[0] else ""),
                Row(f"undo of one step, {n:,} events", undo, "s", floor=undo0,
                    target="< 3 ms" if judged else "—", met=undo < TARGET_S if judged else None,
                    note=("Service.undo in memory, its commit included (synchronous=FULL); "
                          "floor: snapshots off (the whole log refolded).")
                    if n == SIZES[0] else ""),
            ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return section
