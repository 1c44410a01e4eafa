"""The live pages' streams (issue 30): spectators of tables over Server-Sent Events on 127.0.0.1.

The bot's side runs here, in this process: one :class:`bot.service.Service` over a SQLite file
(``synchronous=FULL``, as the bot's) and the web layer's server (:class:`bot.web.WebLayer`). The
spectators run in a child process (``python -m bench.web --spectators …``): one aiohttp client
holding every stream open, each a real ``/api/stream`` with its table's key, reading the bytes
as a browser's fetch does. Each commit of the bench is a seat's name given again (a table in its
setup: every name shows on the page, so every commit changes the public view once).

* **latency**: from the commit's return (``Service.act``, its transaction committed) to each
  page's frame arriving whole in the spectators' process (both clocks ``time.time()`` on one
  machine), p50 and p99 over every page of every commit;
* **CPU per update**: this process's CPU time (``time.process_time``: the service, the store's
  thread, the hub and every stream's writes) per commit, with the spectators connected, and the
  same commits with no spectator (the floor: the web layer on, nobody following).

Scenarios: 200 spectators of one table; 20 tables with 20 spectators each. Commits come at
``--web-rate`` a second (open loop), round-robin over the tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import Row, Section, eprint, percentile

TITLE = "web"
TARGET_P99 = 0.25  # seconds: a page shows a commit well within a spectator's glance


def add_arguments(parser: argparse._ArgumentGroup) -> None:
    parser.add_argument("--web-commits", type=int, default=200, metavar="N",
                        help="commits per scenario (default 200; --quick: 20)")
    parser.add_argument("--web-rate", type=float, default=20.0, metavar="PER_S",
                        help="commits a second, over all the tables (default 20)")


# --- the spectators' process ---------------------------------------------------------------------

async def _spectate(base: str, keys: list[str], per_table: int, ready: Path, done: Path) -> None:
    import aiohttp

    arrivals: dict[str, list[float]] = {}  # "table:name" -> arrival times

    async def one(table: int, key: str) -> None:
        async with http.get(base + "/api/stream", headers={"X-Page-Key": key},
                            timeout=aiohttp.ClientTimeout(total=None)) as response:
            assert response.status == 200, response.status
            buffer = b""
            async for chunk in response.content.iter_any():
                at = time.time()
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    if not block.startswith(b"event: state"):
                        continue
                    data = json.loads(block.split(b"data: ", 1)[1])
                    seats = data.get("seats") or []
                    name = seats[0]["name"] if seats else ""
                    arrivals.setdefault(f"{table}:{name}", []).append(at)

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        tasks = [asyncio.create_task(one(t, key)) for t, key in enumerate(keys) for _ in range(per_table)]
        await asyncio.sleep(0.5)
        ready.write_text("ready")
        while not done.exists():
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # the last frames
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(arrivals))


def _spectators_main(argv: list[str]) -> None:
    base, keys, per_table, ready, done = argv[0], argv[1].split(","), int(argv[2]), Path(argv[3]), Path(argv[4])
    asyncio.run(_spectate(base, keys, per_table, ready, done))


# --- the bot's side ---------------------------------------------------------------------------------

async def _scenario(folder: Path, tables: int, per_table: int, commits: int, rate: float
                    ) -> tuple[list[float], float, int]:
    """(latencies, CPU seconds per commit, pages) of one scenario; ``per_table`` 0: the floor."""
    import rules
    from bot.i18n import catalog
    from bot.service import Service
    from bot.settings import Settings
    from bot.web.server import WebLayer
    from storage import Store

    db = folder / f"web-{tables}x{per_table}.sqlite3"
    store = await Store.open(db)
    service = Service(store)
    settings = Settings(web_url="http://127.0.0.1", web_port=0, web_max_per_ip=100_000,
                        web_max_per_table=100_000, _env_file=None)  # type: ignore[call-arg]

    class Door:
        async def cat(self, chat: str) -> object:
            return catalog("ru")

    layer = WebLayer(settings)
    layer.attach("tg", Door())
    await layer.start(service)
    chats = [f"tg:{900 + t}" for t in range(tables)]
    keys = []
    for chat in chats:
        await service.new_game(chat, chat, rules.PRESETS["fiim2024"])
        keys.append((await store.web_table(chat, create=True)).public_key)
    child = None
    ready, done = folder / "ready", folder / "done"
    for path in (ready, done):
        path.unlink(missing_ok=True)
    try:
        if per_table:
            child = subprocess.Popen(
                [sys.executable, "-m", "bench.web", "--spectators", f"http://127.0.0.1:{layer.port}",
                 ",".join(keys), str(per_table), str(ready), str(done)],
                stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parent.parent)
            deadline = time.monotonic() + 60
            while not ready.exists():
                if time.monotonic() > deadline or child.poll() is not None:
                    raise RuntimeError("the spectators did not connect")
                await asyncio.sleep(0.05)
            while layer.hub.streams() < tables * per_table:  # type: ignore[union-attr]
                await asyncio.sleep(0.05)
        sent: dict[str, float] = {}
        start = time.perf_counter()
        cpu = time.process_time()
        for n in range(commits):
            due = start + n / rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            table = n % tables
            name = f"Игрок {n}"
            await service.act(chats[table], chats[table], rules.SetName(seat=1, name=name))
            sent[f"{table}:{name}"] = time.time()
        await layer.hub.idle()  # type: ignore[union-attr]
        if per_table:  # every page's last frame written
            await asyncio.sleep(0.2)
        used = (time.process_time() - cpu) / commits
        latencies: list[float] = []
        if child is not None:
            done.write_text("done")
            out, _ = child.communicate(timeout=120)
            arrivals = json.loads(out)
            for key, at in sent.items():
                latencies.extend(t - at for t in arrivals.get(key, []))
            missing = sum(1 for key in sent if len(arrivals.get(key, [])) < per_table)
            if missing:
                eprint(f"web: {missing} commits reached fewer than {per_table} pages")
        return latencies, used, tables * per_table
    finally:
        if child is not None and child.poll() is None:
            child.kill()
        await layer.stop()
        await store.close()


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    commits = 20 if quick else int(args.web_commits)
    rate = float(args.web_rate)
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-web-", dir=getattr(args, "db_dir", None)))
    section = Section(TITLE)
    try:
        scenarios = ((1, 20 if quick else 200), (4 if quick else 20, 5 if quick else 20))
        floor: dict[int, float] = {}
        for tables, _ in scenarios:
            _, used, _ = asyncio.run(_scenario(folder, tables, 0, commits, rate))
            floor[tables] = used
        for tables, per_table in scenarios:
            latencies, used, pages = asyncio.run(_scenario(folder, tables, per_table, commits, rate))
            label = f"{tables} table(s) × {per_table} spectators"
            if not latencies:
                continue
            p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
            eprint(f"web: {label}: p50 {1000 * p50:.1f} ms, p99 {1000 * p99:.1f} ms, "
                   f"CPU/commit {1000 * used:.2f} ms (none following: {1000 * floor[tables]:.2f})")
            first = not section.rows
            section.rows += [
                Row(f"commit to every page, p50, {label}", p50, "s",
                    note=(f"{commits} commits at {rate:g}/s round-robin over the tables, each a "
                          "seat's name given again (every commit changes the page); from "
                          "Service.act's return to the frame's arrival in the spectators' process "
                          "(its own aiohttp client, every stream open), over every page of every "
                          "commit.") if first else ""),
                Row(f"commit to every page, p99, {label}", p99, "s", target=f"< {TARGET_P99 * 1000:.0f} ms",
                    met=p99 < TARGET_P99),
                Row(f"bot's CPU per commit, {label}", used, "s", floor=floor[tables],
                    note=("time.process_time of the bot's process per commit (the service, the "
                          "store, the hub, every stream's write); floor: the same commits with "
                          "the web layer on and nobody following.") if first else ""),
            ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return section


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--spectators":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _spectators_main(sys.argv[2:])
