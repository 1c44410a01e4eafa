"""PostgreSQL end to end (issue 18): the writer's lock, ``health``, the demo and its protocol
from a PostgreSQL URL, and several worker processes writing the same games, SIGKILLed at random —
the store's half of "one game never in two places". Each worker appends to randomly chosen
games at the revision it read (``append_many`` with an outbox row, as an action does); a
refused revision (another worker logged first) is read again and retried. What a worker
acknowledged (printed after ``append_many`` returned) must be in the log exactly where it said,
every game's log must run 1, 2, 3 … without a gap or a repeat, and every logged event must have
its outbox row (one transaction) — whatever the kills cut."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from storage import Store

PROJECT = Path(__file__).resolve().parents[1]
GAMES = 6
ACKS = 240  # acknowledged actions in all before the workers are stopped
WORKERS = 3

WORKER = textwrap.dedent("""
    import asyncio, random, sys
    sys.path.insert(0, {project!r})
    from storage import OutboxItem, StaleRevision, Store

    async def main(url, name, games):
        store = await Store.open(url)
        rng = random.Random(name)
        n = 0
        while True:
            game = rng.choice(games)
            count, _, _ = await store.game_log(game, "none")
            n += 1
            event = {{"type": "set_name", "seat": 1, "name": f"{{name}}-{{n}}"}}
            try:
                await store.append_many(game, count + 1, [event], name,
                                        outbox=[OutboxItem(f"tg:{{game}}", {{"text": f"{{name}}-{{n}}"}})])
            except StaleRevision:
                continue
            print(f"ack {{game}} {{count + 1}} {{name}}-{{n}}", flush=True)

    asyncio.run(main(sys.argv[1], sys.argv[2], [int(g) for g in sys.argv[3].split(",")]))
""")


def _spawn(url: str, name: str, games: list[int]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WORKER.format(project=str(PROJECT)), url, name,
         ",".join(map(str, games))],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=PROJECT)


async def _games(url: str) -> list[int]:
    async with await Store.open(url) as store:
        return [await store.create_game(f"tg:-{n}", "tg:1", {}, {}) for n in range(1, GAMES + 1)]


def _read_acks(worker: subprocess.Popen[str], want: int, acks: list[tuple[int, int, str]]) -> None:
    assert worker.stdout is not None
    while want > 0:
        line = worker.stdout.readline()
        if not line:
            return  # it died
        _, game, seq, name = line.split()
        acks.append((int(game), int(seq), name))
        want -= 1


@pytest.mark.timeout(600)
def test_workers_killed_at_random_lose_and_double_nothing_acknowledged(pg_url: str) -> None:
    games = asyncio.run(_games(pg_url))
    rng = random.Random(int(os.environ.get("MAFIA_REFEREE_KILL_SEED", "18")))
    acks: list[tuple[int, int, str]] = []
    workers = [_spawn(pg_url, f"w{i}", games) for i in range(WORKERS)]
    spawned = WORKERS
    kills = 0
    try:
        while len(acks) < ACKS:
            slot = rng.randrange(WORKERS)
            _read_acks(workers[slot], rng.randint(1, 12), acks)
            if rng.random() < 0.4:  # SIGKILL it mid-flight, and start another in its place
                workers[slot].send_signal(signal.SIGKILL)
                workers[slot].wait()
                _read_acks(workers[slot], 10**9, acks)  # what it acknowledged before dying
                kills += 1
                workers[slot] = _spawn(pg_url, f"w{spawned}", games)
                spawned += 1
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
            if worker.stdout is not None:
                _read_acks(worker, 10**9, acks)
                worker.stdout.close()
    assert kills > 0

    async def check() -> None:
        async with await Store.open(pg_url) as store:
            logged: dict[tuple[int, int], str] = {}
            for game in games:
                rows = await store.events(game)
                assert [r.seq for r in rows] == list(range(1, len(rows) + 1))  # in order, no gap
                for r in rows:
                    logged[(game, r.seq)] = r.event["name"]
            names = list(logged.values())
            assert len(names) == len(set(names))  # no action logged twice
            for game, seq, name in acks:  # every acknowledged action, where it was acknowledged
                assert logged.get((game, seq)) == name
            # every logged event has its outbox row, and no row is without its event
            texts = sorted(json.loads(json.dumps(r.payload))["text"] for r in await store.pending())
            assert texts == sorted(names)

    asyncio.run(check())


def test_one_writing_process_per_postgresql_database(pg_url: str) -> None:
    """``bot.writer`` on a PostgreSQL URL: a second writer is refused (DatabaseBusy, its URL
    without the password), the lock is free again once released — and once its holder is
    SIGKILLed (the server drops a dead connection's locks)."""
    from bot import writer

    with writer.acquire(Path(pg_url)):  # as Settings gives it: a Path that folded the "//"
        with pytest.raises(writer.DatabaseBusy):
            writer.acquire(pg_url)
    with writer.acquire(pg_url):
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; sys.path.insert(0, sys.argv[2]);"
         " from bot import writer; writer.acquire(sys.argv[1]); print('held', flush=True);"
         " time.sleep(600)", pg_url, str(PROJECT)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(writer.DatabaseBusy):
            writer.acquire(pg_url)
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()  # type: ignore[union-attr]
    for _ in range(600):  # the server notices the closed connection at once; a generous bound
        try:
            writer.acquire(pg_url).release()
            break
        except writer.DatabaseBusy:
            import time

            time.sleep(0.05)
    else:
        raise AssertionError("the killed holder's lock was never released")


def test_an_unreachable_server_is_one_line(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A PostgreSQL URL no server answers: exit 2 with one line, its password not shown."""
    import socket

    from bot.entry import run

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_TOKEN", "1:x")
    monkeypatch.setattr(sys, "argv", ["mafia-referee", "telegram", "--db",
                                      f"postgresql://u:secret@127.0.0.1:{port}/x"])
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    assert run() == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "secret" not in err and "u:***@" in err, err


def test_health_on_postgresql(pg_url: str, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``mafia-referee health`` with a PostgreSQL URL (the compose file's check): an empty
    database is not yet at the schema (exit 1), a migrated one is well (exit 0, its games
    counted), a server that is not there is ``unreachable`` (exit 1), the password never shown."""
    import socket

    from bot.cli import main
    from bot.i18n import catalog

    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    en = catalog("en")
    from storage import bundled

    assert main(["health", "--db", pg_url]) == 1
    said = capsys.readouterr()
    assert (said.out + said.err).strip() == en.text(
        "health-old_schema", path=pg_url, version=0, expected=len(bundled()))
    asyncio.run(_games(pg_url))
    assert main(["health", "--db", pg_url]) == 0
    assert capsys.readouterr().out.strip() == en.text(
        "health-ok", path=pg_url, version=len(bundled()), count=GAMES)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["health", "--db", f"postgresql://u:secret@127.0.0.1:{port}/x"]) == 1
    said = capsys.readouterr()
    text = (said.out + said.err).strip()
    head = en.text("health-unreachable", path=f"postgresql://u:***@127.0.0.1:{port}/x", problem="")
    assert text.startswith(head.split(": .")[0] + ":") and "secret" not in text, text


def test_the_demo_and_its_protocol_on_postgresql(pg_url: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The read-and-write commands take a PostgreSQL URL as ``--db`` too: the demo game is
    played into it and its protocol written from it (the same JSON as from SQLite)."""
    from bot.cli import main

    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    lite = tmp_path / "demo.sqlite3"
    for db, out in ((pg_url, tmp_path / "pg.json"), (str(lite), tmp_path / "lite.json")):
        assert main(["demo", "--db", db, "--lang", "en"]) == 0
        assert main(["protocol", "--db", db, "--game", "1", "--json", str(out)]) == 0
    pg, sqlite = (json.loads((tmp_path / f"{n}.json").read_text("utf-8")) for n in ("pg", "lite"))
    def timeless(value: object) -> object:  # the times differ between the two runs
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k not in TIMES}
        if isinstance(value, list):
            return [timeless(v) for v in value]
        return value

    assert timeless(pg) == timeless(sqlite) and len(pg["audit"]) > 50


TIMES = frozenset({"at", "created_at", "started_at", "ended_at", "finished_at"})


async def test_a_cancelled_club_call_stops_its_thread_before_the_connection_goes_back(
        pg_url: str) -> None:
    """storage/club.py runs in a worker thread on PostgreSQL (storage.pg._bridged); a caller
    cancelled mid-way lets the statement in flight end, runs no further one, and the
    transaction is rolled back: the row written before the cancel is not kept."""
    import threading

    from storage.pg import _bridged

    store = await Store.open(pg_url)
    started, release = threading.Event(), threading.Event()
    after: list[object] = []

    def work(db: object) -> None:
        db.execute("INSERT INTO chats(chat) VALUES (?)", ("tg:1",))  # type: ignore[attr-defined]
        started.set()
        release.wait(60)
        try:
            db.execute("INSERT INTO chats(chat) VALUES (?)", ("tg:2",))  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - what the thread met
            after.append(exc)

    async def call() -> None:
        async with store._write() as conn:  # type: ignore[attr-defined]
            await _bridged(work, conn)

    try:
        task = asyncio.create_task(call())
        await asyncio.to_thread(started.wait, 60)
        task.cancel()
        await asyncio.sleep(0)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(after) == 1 and "cancelled" in str(after[0])
        assert await store.pool.fetchval("SELECT COUNT(*) FROM chats") == 0
    finally:
        await store.close()


def test_both_stores_offer_the_same_methods() -> None:
    """Nothing above storage/ knows which backend it has (issue 18): every public method of the
    SQLite store is the PostgreSQL store's too (the player's card once read a method only
    SQLite had)."""
    from storage import PgStore, Store

    sqlite = {name for name in dir(Store) if not name.startswith("_")}
    postgresql = {name for name in dir(PgStore) if not name.startswith("_")}
    # SQLite's own connection, for what reads SQLite itself (migrate --to, the storage bench)
    assert sqlite - postgresql == {"conn"}
