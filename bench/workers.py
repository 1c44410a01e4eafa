"""Shared Telegram workers end to end (issue 18): sustained updates/s and latency of 1, 2 and 4
``mafia-referee telegram`` workers (``MAFIA_REFEREE_WORKERS=shared``, webhook mode) on one
PostgreSQL, beside one webhook process on SQLite, with N live games (default 1,000; ``--workers-games
1000,10000`` for both sizes). Opt-in (``--only workers``): it needs a PostgreSQL server, found as
``scale`` finds it (``MAFIA_REFEREE_BENCH_POSTGRESQL``, else one started from the installed
binaries with ``fsync`` on).

The load is ``e2e``'s (:class:`bench.e2e.Judges`): game i is the shipped demo game advanced to a
different line, in judge i's private chat; each judge types (or presses) his game's next line,
open loop, round-robin over the chats, at a fixed offered rate. Telegram's side is the fake Bot
API (``tests/fakebot``); what Telegram would POST to the webhook is POSTed here, spread over the
workers round-robin as a proxy does (with the secret header), each update once. Latency is from
an update's scheduled time to the bot's first reply reaching the fake, so it includes the
webhook's answer, the inbox and the hand-over to the chat's owner.

Each configuration: the games stored (not measured), the workers started and listening, a
warm-up (each judge asks ``/status`` once: his game folded, his panel posted, and in shared mode
his chat claimed by a worker; ``--workers-cold``: none), then the rate ladder: ``LATENCY_RATE``
first (its p50/p99 are the latency rows), then ×1.5 until a step is not kept up (``e2e``'s
test: every update answered within 1 s of the step's end and no growing backlog), at most
``MAX_STEPS`` steps; from 20/s not kept up it steps down (halving) instead. The workers' CPU
per update is their summed user+system time over the ladder divided by the updates answered
(idle polling included; the PostgreSQL server's own CPU not). The bots' rate limiter is off and
the panel's countdown held to the production budget, as in ``e2e``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import Row, Section, eprint
from .e2e import FIRST_ID, Judges, Script, Step, _fake_class, demo_logs, offer, script, warm_up
from .e2e import store_games as store_sqlite_games
from .scale import _database, _server

TITLE = "shared workers (end to end)"
PROJECT = Path(__file__).resolve().parents[1]
#: (store, workers): the configurations, in the order they run
CONFIGS = (("sqlite", 1), ("postgresql", 1), ("postgresql", 2), ("postgresql", 4))
LATENCY_RATE = 20.0  # updates/s: the latency rows (a rate every configuration keeps up with here)
MAX_STEPS = 6
SECRET = "bench-Workers_Secret-18"
HOOK_PATH = "/tg/hook"
IN_FLIGHT = 64  # webhook POSTs at once (a proxy's connections)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers-games", default=None, metavar="N[,N]",
                        help="live games, one size or several (default 1000; --quick: 20)")
    parser.add_argument("--workers-step", type=float, default=None, metavar="S",
                        help="seconds of load per offered rate (default 4; --quick: 1)")
    parser.add_argument("--workers-configs", default=None, metavar="LIST",
                        help="which to run, e.g. sqlite:1,postgresql:2 (default: all four)")
    parser.add_argument("--workers-cold", action="store_true",
                        help="no warm-up: every update of the ladder may touch a game not yet in "
                             "a worker's memory (10,000 games: a warm-up would take minutes)")


# --- the workers -------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Worker:
    """``mafia-referee telegram`` in webhook mode as a child (``python -m bench.workers --serve``:
    the panel's countdown held to the production budget first, as in ``e2e``)."""

    def __init__(self, token: str, base_url: str, db: str, shared: bool, log: Path) -> None:
        self.port = _free_port()
        self.hook = f"http://127.0.0.1:{self.port}{HOOK_PATH}"
        env = {**os.environ, "PTB_TIMEDELTA": "1", "MAFIA_REFEREE_TELEGRAM_TOKEN": token,
               "MAFIA_REFEREE_TELEGRAM_BASE_URL": base_url, "MAFIA_REFEREE_DB": db,
               "MAFIA_REFEREE_LANG": "ru", "MAFIA_REFEREE_WORKERS": "shared" if shared else "single",
               "MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL": f"https://bench.example.org{HOOK_PATH}",
               "MAFIA_REFEREE_TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
               "MAFIA_REFEREE_TELEGRAM_WEBHOOK_PORT": str(self.port),
               "MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET": SECRET,
               "MAFIA_REFEREE_TELEGRAM_RATE_OVERALL": "0", "MAFIA_REFEREE_TELEGRAM_RATE_GROUP": "0",
               "MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE": "0",
               "PYTHONPATH": os.pathsep.join([str(PROJECT), os.environ.get("PYTHONPATH", "")])}
        self.log = log
        self._log = log.open("w")
        self.served: int | None = None  # bytes of its log before the stop
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.workers", "--serve"], cwd=PROJECT,
                                     env=env, stdin=subprocess.DEVNULL, stdout=self._log,
                                     stderr=subprocess.STDOUT)

    async def listening(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"a worker exited with {self.proc.returncode}: see {self.log}")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.1)
        raise RuntimeError(f"a worker does not listen: see {self.log}")

    def cpu(self) -> float:
        """Seconds of CPU (user + system) the worker has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> int:
        self._log.flush()
        self.served = self.log.stat().st_size  # what it logged before it was told to stop
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        return self.proc.returncode

    def errors(self) -> list[str]:
        """The ERROR lines of its log until it was told to stop (the stop cancels the timers'
        jobs under way: APScheduler logs each as an error), and the exception line ending each
        traceback."""
        found, in_trace = [], False
        text = self.log.read_bytes()[:self.served].decode(errors="replace")
        for line in text.splitlines():
            if " ERROR " in line:
                found.append(line)
            elif line.startswith("Traceback"):
                in_trace = True
            elif in_trace and not line.startswith(" "):
                found.append(line)
                in_trace = False
        return found


def _serve() -> int:
    """The child: the countdown budget, then ``mafia-referee telegram``."""
    from bench.e2e import _countdown_budget
    from bot.entry import run

    _countdown_budget()
    sys.argv = ["mafia-referee", "telegram"]
    return run()


class Proxy:
    """What Telegram and a proxy do: every update the fake has for the bot is POSTed to a worker's
    webhook, round-robin, once (a refusal — 500: not stored — is POSTed again, as Telegram
    redelivers)."""

    def __init__(self, fake: Any, hooks: list[str]) -> None:
        self.fake, self.hooks = fake, hooks
        self.posted = self.refused = 0
        self._task: asyncio.Task[None] | None = None
        self._next = 0

    async def _post(self, http: Any, gate: asyncio.Semaphore, update: dict[str, Any]) -> None:
        async with gate:
            for _ in range(5):
                hook = self.hooks[self._next % len(self.hooks)]
                self._next += 1
                try:
                    async with http.post(hook, json=update,
                                         headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}) as answer:
                        if answer.status == 200:
                            self.posted += 1
                            return
                except OSError:
                    pass
                self.refused += 1
                await asyncio.sleep(0.1)

    async def _run(self) -> None:
        import aiohttp

        gate = asyncio.Semaphore(IN_FLIGHT)
        tasks: set[asyncio.Task[None]] = set()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=IN_FLIGHT)) as http:
            while True:
                updates = self.fake._updates
                if not updates:
                    await asyncio.sleep(0.001)
                    continue
                self.fake._updates = []
                for update in updates:
                    task = asyncio.create_task(self._post(http, gate, update))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass


# --- the games ---------------------------------------------------------------------------------

async def store_pg_games(url: str, s: Script, n: int) -> None:
    """``e2e``'s games (game i in chat ``tg:<FIRST_ID + i>`` at its start line, with its
    snapshot: :func:`bench.e2e.demo_logs`) in PostgreSQL."""
    import rules
    from storage import PgStore

    config = rules.config_to_dict(rules.PRESETS[rules.DEFAULT_PRESET])
    logs = demo_logs(s)
    async with await PgStore.open(url) as store:
        for i in range(n):
            chat = f"tg:{FIRST_ID + i}"
            game = await store.create_game(chat, chat, config, {})
            events, snap = logs(i)
            await store.append_many(game, 1, events, chat, snapshot=snap)


# --- one configuration ---------------------------------------------------------------------------

@dataclass
class Outcome:
    kind: str
    workers: int
    games: int
    steps: list[Step] = field(default_factory=list)
    best: float = 0.0
    latency: Step | None = None
    cpu_per_update: float = float("nan")
    errors: int = 0
    refused: int = 0


async def _ladder(judges: Judges, seconds: float, label: str) -> tuple[list[Step], float, Step]:
    steps: list[Step] = []
    cursor = 0

    async def at(rate: float) -> Step:
        nonlocal cursor
        step, cursor = await offer(judges, rate, seconds, cursor)
        steps.append(step)
        eprint(f"workers {label}: {rate:,.1f}/s offered {step.offered}, p50 {1000 * step.p(50):.1f} ms, "
               f"p99 {1000 * step.p(99):.1f} ms, unanswered {step.unanswered}: "
               f"{'kept up' if step.kept_up else 'NOT kept up'}")
        await asyncio.sleep(0.3)
        return step

    latency = await at(LATENCY_RATE)
    rate = LATENCY_RATE
    if latency.kept_up:
        while len(steps) < MAX_STEPS:
            rate *= 1.5
            if not (await at(rate)).kept_up:
                break
    else:
        while len(steps) < MAX_STEPS and rate > 2:
            rate /= 2
            if (await at(rate)).kept_up:
                break
    best = max((s.rate for s in steps if s.kept_up), default=0.0)
    return steps, best, latency


async def measure(kind: str, workers: int, games: int, s: Script, seconds: float, folder: Path,
                  admin: str | None, cold: bool = False) -> Outcome:
    outcome = Outcome(kind, workers, games)
    name = f"bench_workers_{games}_{workers}"
    if kind == "sqlite":
        db = str(folder / f"workers-{games}.sqlite3")
        await store_sqlite_games(Path(db), s, games)
    else:
        assert admin is not None
        db = await _database(admin, name, True)
        await store_pg_games(db, s, games)
    fake = _fake_class()()
    procs: list[Worker] = []
    proxy: Proxy | None = None
    async with fake:
        try:
            judges = Judges(fake, s, games, "referee")
            procs = [Worker(fake.token, fake.base_url, db, kind == "postgresql",
                            folder / f"worker-{kind}-{workers}-{games}-{k}.log") for k in range(workers)]
            for proc in procs:
                await proc.listening()
            proxy = Proxy(fake, [p.hook for p in procs])
            proxy.start()
            if not cold:
                await warm_up(judges, 50.0)
            cpu = sum(p.cpu() for p in procs)
            label = f"{kind} ×{workers}, {games:,} games"
            outcome.steps, outcome.best, outcome.latency = await _ladder(judges, seconds, label)
            answered = sum(len(step.latencies) for step in outcome.steps)
            outcome.cpu_per_update = (sum(p.cpu() for p in procs) - cpu) / max(1, answered)
        finally:
            if proxy is not None:
                await proxy.stop()
                outcome.refused = proxy.refused
            for proc in procs:
                proc.stop()
            errors = [line for p in procs for line in p.errors()]
            outcome.errors = sum(1 for line in errors if " ERROR " in line)
            kinds: dict[str, int] = {}
            for line in errors:
                text = line.split(" ", 2)[-1][:160]
                kinds[text] = kinds.get(text, 0) + 1
            for text, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:5]:
                eprint(f"workers {kind} ×{workers}: {count} × {text}")
    if kind == "postgresql" and admin is not None:
        await _database(admin, name, False)
    return outcome


def _configs(text: str | None) -> list[tuple[str, int]]:
    if not text:
        return list(CONFIGS)
    out = []
    for item in text.split(","):
        kind, _, count = item.partition(":")
        out.append((kind.strip(), int(count or 1)))
    return out


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    sizes = [int(x) for x in (args.workers_games or ("20" if quick else "1000")).split(",")]
    seconds = args.workers_step or (1.0 if quick else 4.0)
    configs = _configs(args.workers_configs)
    section = Section(TITLE)
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-workers-"))
    admin: str | None = None
    server: object | None = None
    if any(kind == "postgresql" for kind, _ in configs):
        try:
            admin, server = _server()
        except Exception as why:  # noqa: BLE001 - the section says it and the bench goes on
            section.notes.append(f"PostgreSQL rows skipped: no server ({why})")
            configs = [c for c in configs if c[0] != "postgresql"]
    s = script()
    try:
        for games in sizes:
            for kind, workers in configs:
                outcome = asyncio.run(measure(kind, workers, games, s, seconds, folder, admin,
                                              cold=bool(args.workers_cold)))
                what = f"{'SQLite, 1 process' if kind == 'sqlite' else f'PostgreSQL, {workers} worker(s)'}"
                latency = outcome.latency
                section.rows += [
                    Row(f"sustained rate, {what}, {games:,} games", outcome.best, "/s",
                        note=f"{len(outcome.steps)} steps of {seconds:g} s"
                             f"{', no warm-up (cold games)' if args.workers_cold else ''}; errors logged "
                             f"{outcome.errors}; webhook POSTs refused {outcome.refused}"),
                    Row(f"latency at {LATENCY_RATE:g}/s, p50, {what}, {games:,} games",
                        latency.p(50) if latency else float("nan"), "s"),
                    Row(f"latency at {LATENCY_RATE:g}/s, p99, {what}, {games:,} games",
                        latency.p(99) if latency else float("nan"), "s",
                        note="" if latency is None or latency.kept_up else "not kept up"),
                    Row(f"workers' CPU per update, {what}, {games:,} games", outcome.cpu_per_update, "s"),
                ]
    finally:
        if server is not None:
            server.stop()  # type: ignore[attr-defined]
        shutil.rmtree(folder, ignore_errors=True)
    return section


if __name__ == "__main__" and sys.argv[1:2] == ["--serve"]:
    raise SystemExit(_serve())
