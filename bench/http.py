"""The Bot API client alone: CPU per call of our aiohttp client and of PTB's httpx one by
connection pool size, and the missing sniffio.

Issue 16 found two defects inside every Telegram call: ``import sniffio`` failing at each
request (httpcore asks which event loop runs; without the package the failed import is retried
every time), and httpcore scanning its whole connection pool at each request (a pool of 256
that a burst has filled is walked, connection by connection, for every later request).

Here the fake Bot API of the tests runs in a child process (``python -m bench.http --serve``) and
this process is only the client: a PTB :class:`telegram.Bot` with the referee's HTTP settings
(HTTP/1.1 keep-alive, ``MAFIA_REFEREE_TELEGRAM_CONNECTIONS``; the default client,
:class:`bot.telegram.request.AiohttpRequest`, at the setting's pool, and PTB's
``HTTPXRequest`` at every pool size) sends ``sendMessage`` calls,
``CONCURRENCY`` at a time (as many updates handled at once), and the client's CPU
(``time.process_time``) per call is measured for several pool sizes, alternating, best of the
passes. "sniffio missing" runs the same in a child process where importing ``sniffio`` fails
after the import system's usual search (a finder that searches and then refuses).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from . import Row, Section, eprint

TITLE = "Bot API client"
PROJECT = Path(__file__).resolve().parents[1]
POOLS = (1, 2, 4, 8, 16, 256)
CONCURRENCY = 64
CALLS = 800


async def _serve() -> None:
    sys.path.insert(0, str(PROJECT / "tests"))
    from fakebot import FakeBotAPI

    async with FakeBotAPI() as fake:
        user = fake.add_user("Судья", "judge", id=100, started=True)
        print(json.dumps({"token": fake.token, "base_url": fake.base_url, "chat": user.id}),
              flush=True)
        await asyncio.to_thread(sys.stdin.readline)


def _hide_sniffio() -> None:
    """Make ``import sniffio`` fail as it does where the package is not installed."""
    import importlib.abc
    import importlib.machinery

    class Missing(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
            if name == "sniffio":
                importlib.machinery.PathFinder.find_spec("sniffio-is-missing", path)
                raise ModuleNotFoundError("No module named 'sniffio'", name="sniffio")
            return None

    sys.modules.pop("sniffio", None)
    sys.meta_path.insert(0, Missing())


async def _client(server: dict[str, Any], pool: int, calls: int,
                  kind: str = "httpx") -> dict[str, float]:
    from telegram import Bot
    from telegram.request import HTTPXRequest

    from bot.telegram.request import AiohttpRequest

    request = (HTTPXRequest(connection_pool_size=pool, pool_timeout=60.0) if kind == "httpx"
               else AiohttpRequest(connection_pool_size=pool, pool_timeout=60.0))
    bot = Bot(server["token"], base_url=server["base_url"], request=request)
    async with bot:
        gate = asyncio.Semaphore(CONCURRENCY)

        async def one(i: int) -> None:
            async with gate:
                await bot.send_message(server["chat"], f"{i}")

        await asyncio.gather(*(one(i) for i in range(50)))  # connect, warm up
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(calls)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu": cpu / calls, "rate": calls / wall}


def _measure(server: dict[str, Any], pool: int, calls: int, hide: bool,
             kind: str = "httpx") -> dict[str, float]:
    code = ("import asyncio, json, sys; from bench import http; "
            + ("http._hide_sniffio(); " if hide else "")
            + f"print(json.dumps(asyncio.run(http._client(json.loads(sys.argv[1]), {pool}, {calls}, "
            + f"{kind!r}))))")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(server)], cwd=PROJECT,
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(PROJECT)})
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    calls = 200 if quick else CALLS
    passes = 1 if quick else 2
    pools = (1, 8, 256) if quick else POOLS
    section = Section(TITLE)
    proc = subprocess.Popen([sys.executable, "-m", "bench.http", "--serve"], cwd=PROJECT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(PROJECT)})
    try:
        assert proc.stdout is not None and proc.stdin is not None
        server = json.loads(proc.stdout.readline())
        from bot.settings import Settings

        chosen = Settings.model_fields["telegram_connections"].default
        results: dict[tuple[int, bool], list[dict[str, float]]] = {}
        aio: list[dict[str, float]] = []
        for _ in range(passes):  # alternating: a busy moment falls on every size
            aio.append(_measure(server, chosen, calls, False, "aiohttp"))
            for pool in pools:
                results.setdefault((pool, False), []).append(_measure(server, pool, calls, False))
            results.setdefault((chosen, True), []).append(_measure(server, chosen, calls, True))
        aio_cpu, aio_rate = min(r["cpu"] for r in aio), max(r["rate"] for r in aio)
        best = {key: min(r["cpu"] for r in runs) for key, runs in results.items()}
        rates = {key: max(r["rate"] for r in runs) for key, runs in results.items()}
        eprint(f"Bot API client: aiohttp pool {chosen}: {1e6 * aio_cpu:.0f} µs, {aio_rate:,.0f}/s; "
               + ", ".join(
            f"pool {p}{' no sniffio' if h else ''}: {1e6 * c:.0f} µs, {rates[(p, h)]:,.0f}/s"
            for (p, h), c in sorted(best.items())))
        section.rows.append(Row(
            f"CPU per sendMessage, aiohttp client (the default), pool {chosen}", aio_cpu, "s",
            floor=best[(chosen, False)],
            note=(f"bot.telegram.request.AiohttpRequest ({aio_rate:,.0f} calls/s), the client of "
                  "MAFIA_REFEREE_TELEGRAM_HTTP=aiohttp; floor: PTB's HTTPXRequest with the same "
                  "pool (MAFIA_REFEREE_TELEGRAM_HTTP=httpx), next row.")))
        section.rows.append(Row(
            f"CPU per sendMessage, httpx (PTB's HTTPXRequest), pool {chosen}",
            best[(chosen, False)], "s",
            floor=min(best[(p, False)] for p in pools),
            note=(f"the client process's CPU per call, {calls:,} calls {CONCURRENCY} at a time "
                  f"against the fake Bot API in another process; best of {passes} alternating "
                  "passes; floor: the cheapest pool size. By pool size: "
                  + ", ".join(f"{p}: {1e6 * best[(p, False)]:.0f} µs ({rates[(p, False)]:,.0f} calls/s)"
                              for p in pools) + ".")))
        section.rows.append(Row(
            "CPU per sendMessage, sniffio missing", best[(chosen, True)], "s",
            floor=best[(chosen, False)],
            note="the same with the pool of the setting where importing sniffio fails (its "
                 "finder searches sys.path, then refuses); floor: sniffio installed."))
        section.rows.append(Row(
            "CPU per sendMessage, PTB's default pool (256)", best[(256, False)], "s",
            floor=best[(chosen, False)], note="floor: the pool of the setting."))
    finally:
        if proc.stdin is not None:
            proc.stdin.write("stop\n")
            proc.stdin.flush()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return section


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        asyncio.run(_serve())
    else:
        print("usage: python -m bench --only http", file=sys.stderr)
        sys.exit(2)
