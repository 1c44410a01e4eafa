"""The store: restart, memory per open game, the SQLite file's growth, commits, a killed writer.

N open games (default 10,000) are written to a fresh SQLite file through :class:`storage.Store`,
each a realistic mid-game log (60–120 events): real games (the records in ``../shared/games``
and the shipped demo, ``bot/demo/club_game.txt`` parsed by :func:`bot.commands.parse`) cut at
several points of their middle, half of them with a judge's mistake taken back (the event, an
:class:`rules.Undo`, the event again). The games are written interleaved, a few events per game
in turn, as parallel chats append to one log table (so the B-tree splits as it does in use).

Writing them is setup, not measured: it runs with ``PRAGMA synchronous=OFF`` to take seconds,
not minutes. Every measurement reopens the file with :meth:`storage.Store.open`, i.e. with the
store's own settings.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import os
import pickle
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from bot import demo
from bot.commands import Act, CommandError, NewGame, parse
from bot.service import Service
from storage import Store

from . import SHARED_GAMES, Row, Section, eprint, percentile, rss_bytes
from .engine import load_games

TITLE = "storage"

TARGET_RESTART_S = 2.0  # for 10,000 open games
TARGET_GAMES = 10_000
TARGET_MEMORY_B = 50 * 1024  # per open game
MIN_EVENTS, MAX_EVENTS = 60, 120  # a mid-game log
CUTS = (0.55, 0.7, 0.85)  # where a full game's log is cut (share of its events)
CHUNKS = 4  # a game's log is written in this many transactions, in turn with the other games
JUDGE = "bench:judge"
SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
PROJECT = Path(__file__).resolve().parents[1]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help=f"open games to store and restart (default {TARGET_GAMES:,}; --quick: 200)")
    parser.add_argument("--sample", type=int, default=None, metavar="M",
                        help="games measured one by one for memory and where restart time goes "
                             "(default 250; --quick: 40)")
    parser.add_argument("--commits", type=int, default=None, metavar="K",
                        help="single-action commits timed per setting (default 400; --quick: 40)")
    parser.add_argument("--db-dir", type=Path, default=None, metavar="DIR",
                        help="where the SQLite files go (default: a temporary folder, removed)")


# --- the logs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Template:
    """A mid-game log as the store holds it: the game row's config and names, the events."""

    name: str
    config: rules.RulesConfig
    names: dict[int, str]
    events: tuple[rules.Event, ...]

    @property
    def event_dicts(self) -> list[dict[str, Any]]:
        return [rules.to_dict(e) for e in self.events]

    def payload(self) -> int:
        """The bytes of information the game is: its config, names and events as JSON text (the
        floor of its memory and of its file space)."""
        texts = [_json(rules.config_to_dict(self.config)), _json(self.names)]
        texts += [_json(d) for d in self.event_dicts]
        return sum(len(t.encode("utf-8")) for t in texts)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def demo_game() -> tuple[rules.RulesConfig, list[rules.Event]]:
    """The shipped demo game's config and events: its commands parsed against the state they
    are typed in (``/nominate 3`` needs the speaker)."""
    config = rules.PRESETS[rules.DEFAULT_PRESET]
    state: rules.GameState | None = None
    events: list[rules.Event] = []
    for line in demo.commands():
        try:
            command = parse(line, state)
        except CommandError as error:  # pragma: no cover - the demo is tested elsewhere
            raise RuntimeError(f"demo line {line!r}: {error}") from error
        if isinstance(command, NewGame):
            config = command.config()
            state = rules.new_game(config)
        elif isinstance(command, Act):
            assert state is not None
            state, _ = rules.apply(state, command.event)
            events.append(command.event)
    return config, events


def templates(records: Path) -> list[Template]:
    """Mid-game logs (:data:`MIN_EVENTS`–:data:`MAX_EVENTS` events, game not over) cut from the
    demo and the real games; every other one with an undone-and-redone event in its middle."""
    sources: list[tuple[str, rules.RulesConfig, dict[int, str], list[rules.Event]]] = []
    config, events = demo_game()
    sources.append(("demo", config, {}, events))
    if records.is_dir():
        games, _ = load_games(records)
        sources += [(g.name, g.config, g.names, list(g.events)) for g in games]
    out: list[Template] = []
    for name, config, names, events in sources:
        longest = min(MAX_EVENTS, len(events) - 1)
        cuts = sorted({min(longest, max(MIN_EVENTS, round(len(events) * f))) for f in CUTS})
        for cut in cuts:
            if cut < MIN_EVENTS:
                continue
            log = list(events[:cut])
            if len(out) % 2:
                middle = cut // 2
                log[middle + 1:middle + 1] = [rules.Undo(), log[middle]]
            state, _ = rules.fold(config, log, names)
            if state.phase is not rules.Phase.GAME_OVER:
                out.append(Template(f"{name}@{cut}", config, dict(names), tuple(log)))
    if not out:  # pragma: no cover - the demo alone gives three
        raise RuntimeError("no mid-game log could be built")
    return out


# --- writing the store ------------------------------------------------------------------------

def chat_of(i: int) -> str:
    return f"bench:{i}"


async def populate(path: Path, logs: list[Template], n: int) -> int:
    """Write ``n`` open games (game i gets ``logs[i % len(logs)]``) interleaved in
    :data:`CHUNKS` rounds. Returns the number of events written."""
    store = await Store.open(path)
    try:
        await store.conn.execute_fetchall("PRAGMA synchronous=OFF")  # setup only (see above)
        dicts = [t.event_dicts for t in logs]
        ids = []
        for i in range(n):
            log = logs[i % len(logs)]
            ids.append(await store.create_game(
                chat_of(i), JUDGE, rules.config_to_dict(log.config), log.names))
        for chunk in range(CHUNKS):
            for i, game_id in enumerate(ids):
                events = dicts[i % len(logs)]
                size = -(-len(events) // CHUNKS)
                part = events[chunk * size:(chunk + 1) * size]
                if part:
                    await store.append_many(game_id, chunk * size + 1, part, JUDGE)
        await store.conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await store.close()
    return sum(len(dicts[i % len(logs)]) for i in range(n))


def file_bytes(path: Path) -> int:
    """The database file and its WAL (after a checkpoint the WAL is empty or gone)."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


# --- restart ----------------------------------------------------------------------------------

@dataclass
class Restart:
    seconds: float  # Store.open + open_games + every game folded through the service
    games: int
    events: int
    rss_growth: int  # bytes of RSS the loaded games took
    lazy_seconds: float  # Store.open + open_games + open_timers, nothing folded
    floor_seconds: float  # one SELECT of every event row
    synchronous: str
    journal_mode: str


async def restart(path: Path, expected: int) -> Restart:
    """Open the store as the bot does after a restart and load every open game."""
    gc.collect()
    rss_before = rss_bytes()
    start = time.perf_counter()
    store = await Store.open(path)
    try:
        service = Service(store)
        rows = await store.open_games()
        await service.open_timers()
        events = 0
        for row in rows:
            outcome = await service.current(row.chat)
            assert outcome is not None and outcome.game_id == row.id
            events += outcome.revision
        seconds = time.perf_counter() - start
        gc.collect()
        rss_growth = rss_bytes() - rss_before
        if len(rows) != expected:
            raise RuntimeError(f"restart found {len(rows)} open games, {expected} were stored")
        synchronous = SYNCHRONOUS.get((await store.conn.execute_fetchall("PRAGMA synchronous"))[0][0], "?")
        journal = (await store.conn.execute_fetchall("PRAGMA journal_mode"))[0][0]
        del service, rows
    finally:
        await store.close()
    gc.collect()

    start = time.perf_counter()
    store = await Store.open(path)
    try:
        await store.open_games()
        await store.open_timers()
        lazy = time.perf_counter() - start
        start = time.perf_counter()
        await store.conn.execute_fetchall("SELECT game_id, seq, event FROM events ORDER BY game_id, seq")
        floor = time.perf_counter() - start
    finally:
        await store.close()
    return Restart(seconds, expected, events, rss_growth, lazy, floor, synchronous, journal)


@dataclass
class Breakdown:
    """Where one game's load goes, summed over the sample (seconds)."""

    games: int
    queries: float  # store.alias + current_game + events (JSON decoding of the rows included)
    decode: float  # rules.from_dict of every event
    fold: float  # rules.fold
    copies: float  # the same fold doing only the state's deep copies (part of ``fold``)
    memory: int  # tracemalloc: bytes the sample's loaded games hold in the service


async def breakdown(path: Path, sample: int) -> Breakdown:
    """Load ``sample`` games step by step (timed), then again through a fresh service under
    tracemalloc (memory)."""
    store = await Store.open(path)
    try:
        rows = (await store.open_games())[:sample]
        queries = decode = fold = copies = 0.0
        for row in rows:
            t0 = time.perf_counter()
            await store.alias(row.chat)
            game = await store.current_game(row.chat)
            assert game is not None
            logged = await store.events(game.id)
            t1 = time.perf_counter()
            config = rules.config_from_dict(game.config)
            events = [rules.from_dict(r.event) for r in logged]
            t2 = time.perf_counter()
            rules.fold(config, events, game.names)
            t3 = time.perf_counter()
            state = rules.new_game(config, game.names)
            for _ in rules.effective(events):
                state = copy.deepcopy(state)
            t4 = time.perf_counter()
            queries += t1 - t0
            decode += t2 - t1
            fold += t3 - t2
            copies += t4 - t3

        service = Service(store)
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            for row in rows:
                await service.current(row.chat)
            gc.collect()
            memory = tracemalloc.get_traced_memory()[0] - base
        finally:
            tracemalloc.stop()
        del service
    finally:
        await store.close()
    return Breakdown(len(rows), queries, decode, fold, copies, memory)


# --- what if the store kept a snapshot of each game's state? ------------------------------------

@dataclass
class Snapshots:
    states_only: float  # open_games + every game's pickled state + its revision
    states_gc_paused: float  # the same with the cyclic garbage collector paused meanwhile
    with_logs: float  # the same + every game's log read and decoded (rules.from_dict)
    blob_bytes: float  # mean size of a snapshot


async def snapshot_restart(db: Path, side: Path, logs: list[Template], n: int) -> Snapshots:
    """Restart from snapshots: a bench-only table ``snapshots(game_id, revision, state)`` in a
    side file holds each game's folded state (pickled), as a store with snapshots would; the
    restart then decodes states instead of refolding logs. ``storage/`` is not changed."""
    blobs = [pickle.dumps(rules.fold(t.config, t.events, t.names)[0], pickle.HIGHEST_PROTOCOL)
             for t in logs]
    store = await Store.open(db)
    try:
        ids = [row.id for row in await store.open_games()]
    finally:
        await store.close()
    with sqlite3.connect(side) as conn:
        conn.execute("CREATE TABLE snapshots (game_id INTEGER PRIMARY KEY, revision INTEGER NOT NULL,"
                     " state BLOB NOT NULL)")
        conn.executemany("INSERT INTO snapshots VALUES (?, ?, ?)",
                         [(game_id, len(logs[i % len(logs)].events), blobs[i % len(logs)])
                          for i, game_id in enumerate(ids)])
    conn.close()

    async def load(with_logs: bool, pause_gc: bool = False) -> float:
        gc.collect()
        if pause_gc:
            gc.disable()
        start = time.perf_counter()
        store = await Store.open(db)
        try:
            rows = await store.open_games()
            await store.open_timers()
            conn = sqlite3.connect(side)
            try:
                states = {game_id: (revision, pickle.loads(blob)) for game_id, revision, blob
                          in conn.execute("SELECT game_id, revision, state FROM snapshots")}
            finally:
                conn.close()
            assert len(states) == len(rows)
            if with_logs:
                logged: dict[int, list[rules.Event]] = {}
                for game_id, event in await store.conn.execute_fetchall(
                        "SELECT game_id, event FROM events ORDER BY game_id, seq"):
                    logged.setdefault(game_id, []).append(rules.from_dict(json.loads(event)))
                assert len(logged) == len(rows)
        finally:
            await store.close()
            seconds = time.perf_counter() - start
            gc.enable()
        return seconds

    states_only = await load(False)
    paused = await load(False, pause_gc=True)
    with_logs = await load(True)
    return Snapshots(states_only, paused, with_logs,
                     sum(len(blobs[i % len(blobs)]) for i in range(n)) / n)


# --- commits and a killed writer ----------------------------------------------------------------

async def commit_latencies(path: Path, log: Template, k: int, synchronous: str | None) -> list[float]:
    """Seconds per :meth:`Store.append` of one event (one action's transaction), ``k`` times,
    with the store's own setting (``None``) or ``synchronous`` forced."""
    store = await Store.open(path)
    try:
        if synchronous is not None:
            await store.conn.execute_fetchall(f"PRAGMA synchronous={synchronous}")
        game_id = await store.create_game("bench:commit", JUDGE, rules.config_to_dict(log.config), log.names)
        dicts = log.event_dicts
        times = []
        for seq in range(1, k + 1):
            start = time.perf_counter()
            await store.append(game_id, seq, dicts[(seq - 1) % len(dicts)], JUDGE)
            times.append(time.perf_counter() - start)
    finally:
        await store.close()
    return times


_WRITER = """
import asyncio, sys
from storage import Store

async def main(path):
    store = await Store.open(path)
    game = await store.create_game("bench:kill", "bench:judge", {}, {})
    print(game, flush=True)
    seq = 0
    while True:
        seq += 1
        await store.append(game, seq, {"type": "next"}, "bench:judge")
        print(seq, flush=True)  # acknowledged: the commit returned

asyncio.run(main(sys.argv[1]))
"""


@dataclass
class Killed:
    acknowledged: int  # the last seq the writer reported committed before SIGKILL
    stored: int  # rows found after reopening
    integrity: str


def kill_writer(path: Path, acks: int) -> Killed:
    """Start a writer appending one event per transaction and reporting each commit; SIGKILL it
    after ``acks`` commits (mid-stream: it keeps writing meanwhile); reopen and count."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PROJECT), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE,
                             text=True, env=env, cwd=PROJECT)
    last = 0
    game = 0
    try:
        assert child.stdout is not None
        game = int(child.stdout.readline())
        while last < acks:
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"the writer stopped after {last} commits (status {child.poll()})")
            last = int(line)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        if child.stdout is not None:
            child.stdout.close()

    async def count() -> tuple[int, str]:
        store = await Store.open(path)
        try:
            stored = len(await store.events(game))
            integrity = (await store.conn.execute_fetchall("PRAGMA integrity_check"))[0][0]
        finally:
            await store.close()
        return stored, integrity

    stored, integrity = asyncio.run(count())
    return Killed(last, stored, integrity)


# --- the section ------------------------------------------------------------------------------

def run(args: argparse.Namespace) -> Section:
    n = args.games if args.games is not None else (200 if args.quick else TARGET_GAMES)
    n = max(1, n)
    sample = min(n, args.sample if args.sample is not None else (40 if args.quick else 250))
    commits = max(2, args.commits if args.commits is not None else (40 if args.quick else 400))
    records = getattr(args, "records", SHARED_GAMES)
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-", dir=args.db_dir))
    try:
        return asyncio.run(_run(folder, records, n, sample, commits))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _run(folder: Path, records: Path, n: int, sample: int, commits: int) -> Section:
    section = Section(TITLE)
    logs = templates(records)
    db = folder / "bench.sqlite3"
    empty = folder / "empty.sqlite3"
    await (await Store.open(empty)).close()
    eprint(f"storage: writing {n:,} open games ({len(logs)} mid-game logs) to {db}")
    start = time.perf_counter()
    events = await populate(db, logs, n)
    eprint(f"storage: written in {time.perf_counter() - start:.1f} s; restarting")
    growth = (file_bytes(db) - file_bytes(empty)) / n
    payload = sum(logs[i % len(logs)].payload() for i in range(n)) / n

    back = await restart(db, n)
    eprint(f"storage: restart {back.seconds:.2f} s; measuring a sample of {sample} games")
    parts = await breakdown(db, sample)
    eprint("storage: what if states were snapshotted")
    snaps = await snapshot_restart(db, folder / "snapshots.sqlite3", logs, n)
    eprint("storage: commits and a killed writer")
    full = await commit_latencies(folder / "commit-store.sqlite3", logs[0], commits, None)
    off = await commit_latencies(folder / "commit-off.sqlite3", logs[0], commits, "OFF")
    killed = await asyncio.to_thread(kill_writer, folder / "kill.sqlite3", max(20, commits // 4))

    scale = n / TARGET_GAMES
    target_s = TARGET_RESTART_S * scale
    scaled = "" if n == TARGET_GAMES else f" (scaled to {n:,} games: < {target_s:.3g} s)"
    per_game = back.seconds / n
    section.rows += [
        Row(f"restart: load + refold {n:,} open games", back.seconds, "s", floor=back.floor_seconds,
            target=f"< 2 s per 10,000{scaled}", met=back.seconds < target_s,
            note=(f"Store.open, open_games, open_timers, then Service.current(chat) for each game "
                  f"({back.events:,} logged events, {back.events / n:.0f} a game): "
                  f"{1000 * per_game:.1f} ms a game. Floor: one SELECT of every event row of the "
                  "same file.")),
        Row(f"restart: re-arm only, fold on first touch ({n:,})", back.lazy_seconds, "s",
            floor=back.floor_seconds, target="—",
            note=("Store.open + open_games + open_timers, no game folded: what a restart costs if "
                  "each game is folded when its chat is next used (Service._load is lazy); the "
                  f"first update of each game then waits for its fold ({1000 * per_game:.1f} ms).")),
        Row(f"what-if: restart from state snapshots ({n:,})", snaps.states_only, "s",
            floor=back.floor_seconds, target=f"< 2 s per 10,000{scaled}",
            met=snaps.states_only < target_s,
            note=("NOT the product: a bench-only side table holding each game's folded state "
                  f"(pickled, {snaps.blob_bytes / 1024:.1f} KB a game) and revision; Store.open, "
                  "open_games, open_timers and every state unpickled. The log itself would be read "
                  "when needed (undo). With the cyclic garbage collector paused during the load "
                  f"(gc.disable / gc.freeze): {snaps.states_gc_paused:.2f} s.")),
        Row(f"what-if: snapshots + every log decoded ({n:,})", snaps.with_logs, "s",
            floor=back.floor_seconds, target=f"< 2 s per 10,000{scaled}",
            met=snaps.with_logs < target_s,
            note=("the same, plus every game's log read in one SELECT and decoded with "
                  "rules.from_dict, as the service holds it now (_Game.log).")),
        Row("memory per open game (tracemalloc)", parts.memory / parts.games, "B",
            floor=payload, target="< 50 KB", met=parts.memory / parts.games < TARGET_MEMORY_B,
            note=(f"Python heap held by the service after loading {parts.games} games through "
                  "Service.current (log, folded state, lock), per game. Floor: the game's "
                  "payload, its config, names and events as JSON text.")),
        Row(f"memory per open game (RSS, all {n:,})", back.rss_growth / n, "B", floor=payload,
            target="< 50 KB", met=back.rss_growth / n < TARGET_MEMORY_B,
            note=("growth of the process's resident set while the restart loaded every game, per "
                  "game (allocator pools freed by the setup are reused, so this may read low).")),
        Row("SQLite file growth per game", growth, "B", floor=payload, target="—",
            note=(f"(db + WAL after a checkpoint − an empty store's) / {n:,}, games written "
                  f"interleaved in {CHUNKS} transactions each. Floor: the same JSON payload.")),
        Row("commit of one action, p50", percentile(full, 50), "s", floor=percentile(off, 50),
            note=(f"Store.append of one event, alone (its own BEGIN IMMEDIATE … COMMIT: nothing "
                  f"to group it with), {commits} times, "
                  f"with the store's synchronous={back.synchronous}; floor: the same with "
                  "synchronous=OFF (no fsync).")),
        Row("commit of one action, p99", percentile(full, 99), "s", floor=percentile(off, 99)),
        Row("killed writer: acknowledged actions lost", max(0, killed.acknowledged - killed.stored),
            "count", target="0", met=killed.stored >= killed.acknowledged and killed.integrity == "ok",
            note=(f"a writer process appending one event per commit was SIGKILLed after reporting "
                  f"{killed.acknowledged} commits; reopened, the log held {killed.stored} rows; "
                  f"integrity_check: {killed.integrity}.")),
    ]
    other = parts.fold - parts.copies
    total = parts.queries + parts.decode + parts.fold
    section.notes += [
        f"{len(logs)} mid-game logs, {min(len(t.events) for t in logs)}–"
        f"{max(len(t.events) for t in logs)} events; {events:,} events stored in all.",
        (f"where a game's load goes ({parts.games} games one by one, {1000 * total / parts.games:.1f} "
         f"ms a game): SQL + row JSON {100 * parts.queries / total:.0f}%, "
         f"rules.from_dict {100 * parts.decode / total:.0f}%, rules.fold {100 * parts.fold / total:.0f}% "
         f"(of which the state's deep copy per event {100 * parts.copies / total:.0f}%, "
         f"the rules {100 * other / total:.0f}%)."),
        (f"durability: journal_mode={back.journal_mode}, synchronous={back.synchronous} (set by "
         "Store.open). Safe against a killed process: a commit returns only after its frames are "
         "written to the WAL file, and what a process has written survives its death in the OS "
         "(any synchronous setting); the service answers and changes its in-memory game only "
         "after that commit, and on the next open SQLite replays the committed WAL frames and "
         "ignores an unfinished tail (frame checksums). FULL also fsyncs the WAL at every "
         "commit, so acknowledged actions survive a power loss or OS crash too, which NORMAL "
         "does not promise in WAL mode."),
    ]
    return section
