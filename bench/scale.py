"""Past one machine (issue 18): the store's sustained transitions per second with 1, 2 and 4 worker
processes on one PostgreSQL, beside one process on SQLite, and the p99 commit latency with 1,000
and 10,000 live games. Opt-in (``--only scale``): it needs a PostgreSQL server —
``MAFIA_REFEREE_BENCH_POSTGRESQL`` (a URL), else one started from the installed binaries
(``tests/support/pgserver.py``) with ``fsync`` ON (as durable as SQLite's ``synchronous=FULL``).

A transition is what an accepted action writes (:meth:`storage.Store.append_many`: one event
appended at the revision just read, its outbox message, in one transaction; on PostgreSQL with
the game's advisory lock). Each worker process acts on games of its own chats (the chats are
split between the workers, as a sharded deployment splits them), as many actions in flight as
``--scale-inflight`` (default 8: busy chats at once per worker) for ``--scale-seconds``; the
rate is all workers' acknowledged transitions over the window, the latency each commit's wall
time. What this leaves out: the rules, the rendering and the Bot API (``e2e`` measures those in
one process); the figures are the store's ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import Row, Section, eprint

TITLE = "past one machine (store)"
PROJECT = Path(__file__).resolve().parents[1]
WORKERS = (1, 2, 4)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scale-seconds", type=float, default=None,
                        help="seconds each configuration runs (default 8; --quick: 1)")
    parser.add_argument("--scale-inflight", type=int, default=8,
                        help="actions in flight per worker (default 8)")


async def _prepare(target: str, games: int) -> list[int]:
    from storage import Store

    async with await Store.open(target) as store:
        ids = []
        for n in range(games):
            game = await store.create_game(f"tg:-{n + 1}", "tg:1", {}, {})
            ids.append(game)
        return ids


async def _work(target: str, games: list[int], seconds: float, inflight: int, seed: int) -> dict:
    """One worker: ``inflight`` loops acting on random games of its own for ``seconds``."""
    from storage import OutboxItem, StaleRevision, Store

    store = await Store.open(target)
    rng = random.Random(seed)
    latencies: list[float] = []
    stale = 0
    end = time.perf_counter() + seconds

    async def loop() -> None:
        nonlocal stale
        while time.perf_counter() < end:
            game = rng.choice(games)
            count, _, _ = await store.game_log(game, "none")
            start = time.perf_counter()
            try:
                await store.append_many(game, count + 1, [{"type": "set_name", "seat": 1, "name": "x"}],
                                        "tg:1", outbox=[OutboxItem(f"tg:-{game}", {"text": "x"})])
            except StaleRevision:
                stale += 1
                continue
            latencies.append(time.perf_counter() - start)

    try:
        await asyncio.gather(*(loop() for _ in range(inflight)))
    finally:
        await store.close()
    return {"latencies": latencies, "stale": stale}


def _run_workers(target: str, games: list[int], workers: int, seconds: float,
                 inflight: int) -> tuple[float, float, int]:
    """``workers`` processes over ``target``: (transitions/s, p99 commit latency s, stale)."""
    shares = [games[i::workers] for i in range(workers)]
    procs = [subprocess.Popen(
        [sys.executable, "-m", "bench.scale", "--worker", target, json.dumps(share),
         str(seconds), str(inflight), str(i)],
        cwd=PROJECT, stdout=subprocess.PIPE, text=True) for i, share in enumerate(shares)]
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=seconds * 20 + 120)
        results.append(json.loads(out.strip().splitlines()[-1]))
    latencies = sorted(x for r in results for x in r["latencies"])
    stale = sum(r["stale"] for r in results)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan")
    return len(latencies) / seconds, p99, stale


def _server() -> tuple[str, object | None]:
    given = os.environ.get("MAFIA_REFEREE_BENCH_POSTGRESQL")
    if given:
        return given, None
    sys.path.insert(0, str(PROJECT / "tests"))
    from support import pgserver

    server = pgserver.start(durable=True)
    return server.url, server


async def _database(admin: str, name: str, create: bool) -> str:
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if create:
            await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return admin.rsplit("/", 1)[0] + "/" + name


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    seconds = args.scale_seconds or (1.0 if quick else 8.0)
    inflight = max(1, args.scale_inflight)
    sizes = (100,) if quick else (1_000, 10_000)
    section = Section(TITLE)
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-scale-"))
    try:
        admin, server = _server()
    except Exception as why:  # noqa: BLE001 - the section says it and the bench goes on
        section.notes.append(f"skipped: no PostgreSQL server ({why})")
        shutil.rmtree(folder, ignore_errors=True)
        return section
    try:
        for games in sizes:
            db = folder / f"scale{games}.sqlite3"
            ids = asyncio.run(_prepare(str(db), games))
            rate, p99, _ = _run_workers(str(db), ids, 1, seconds, inflight)
            eprint(f"scale: SQLite, 1 process, {games:,} games: {rate:,.0f}/s, p99 {p99 * 1000:.1f} ms")
            section.rows += [
                Row(f"SQLite, 1 process, {games:,} games", rate, "/s",
                    note="transitions/s: append_many (one event + its outbox row, one transaction) "
                         f"at the revision just read, {inflight} in flight per process, "
                         f"{seconds:g} s; SQLite synchronous=FULL, PostgreSQL fsync on."
                    if games == sizes[0] else ""),
                Row(f"SQLite commit p99, {games:,} games", p99, "s")]
            for workers in WORKERS:
                url = asyncio.run(_database(admin, f"bench_scale_{games}_{workers}", True))
                ids = asyncio.run(_prepare(url, games))
                rate, p99, stale = _run_workers(url, ids, workers, seconds, inflight)
                eprint(f"scale: PostgreSQL, {workers} workers, {games:,} games: {rate:,.0f}/s, "
                       f"p99 {p99 * 1000:.1f} ms, stale {stale}")
                section.rows += [
                    Row(f"PostgreSQL, {workers} worker(s), {games:,} games", rate, "/s"),
                    Row(f"PostgreSQL commit p99, {workers} worker(s), {games:,} games", p99, "s")]
                asyncio.run(_database(admin, f"bench_scale_{games}_{workers}", False))
    finally:
        if server is not None:
            server.stop()  # type: ignore[attr-defined]
        shutil.rmtree(folder, ignore_errors=True)
    return section


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _, _, target, share, secs, flight, seed = sys.argv
    out = asyncio.run(_work(target, json.loads(share), float(secs), int(flight), int(seed)))
    print(json.dumps(out))
