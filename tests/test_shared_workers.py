"""Several workers on one PostgreSQL database sharing the chats (issue 18, :mod:`storage.shared`):
updates for many chats are stored in the inbox as any worker's endpoint stores them (some of them
delivered twice, as Telegram redelivers an update it got no answer for), three worker processes
claim chats and apply their updates, and workers are SIGKILLed at random and replaced. Whatever
the kills cut: every update is applied exactly once, each chat's log holds its updates in update
order, every logged event has its outbox row, and every acknowledged update is in its chat's log
where it was acknowledged."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from storage import PgStore

PROJECT = Path(__file__).resolve().parents[1]
CHATS = 12
UPDATES = 360
WORKERS = 3

WORKER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, {project!r})
    import rules
    from bot.service import Service
    from storage import OutboxItem, PgStore
    from storage.shared import ChatClaims, Drainer

    async def main(url, name, mode):
        store = await PgStore.open(url, pool_size=2)
        service = Service(store)
        claims = ChatClaims(url, on_release=service.forget)

        async def apply(chat, update_id, payload):
            text = payload["text"]
            if mode == "service":
                outcome = await service.act(chat, "tg:1", rules.SetName(seat=1, name=text),
                                            render=lambda o: [OutboxItem(chat, {{"text": text}})])
                seq = outcome.revision
            else:
                game = await store.current_game(chat)
                count, _, _ = await store.game_log(game.id, "none")
                seq = count + 1
                await store.append_many(game.id, seq, [{{"type": "set_name", "seat": 1, "name": text}}],
                                        name, outbox=[OutboxItem(chat, {{"text": text}})])
            print(f"ack {{chat}} {{seq}} {{text}}", flush=True)

        await Drainer(store, claims, apply).run(idle=0.01)

    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
""")


def _spawn(url: str, name: str, out: Path, mode: str) -> subprocess.Popen[bytes]:
    with open(out / f"{name}.out", "wb") as sink:
        return subprocess.Popen([sys.executable, "-c", WORKER.format(project=str(PROJECT)), url, name,
                                 mode],
                                stdout=sink, stderr=subprocess.STDOUT, cwd=PROJECT)


async def _waiting(store: PgStore) -> int:
    return int(await store.pool.fetchval("SELECT COUNT(*) FROM inbox WHERE done_at IS NULL"))


@pytest.mark.timeout(600)
@pytest.mark.parametrize("mode", ["store", "service"])
def test_shared_workers_killed_at_random_apply_each_update_once_in_order(
        pg_url: str, tmp_path: Path, mode: str) -> None:
    """``store``: each update one ``append_many``; ``service``: each one ``Service.act`` (the
    update consumed by the action's own transaction, unknown to the service)."""
    rng = random.Random(int(os.environ.get("MAFIA_REFEREE_KILL_SEED", "18")))
    chats = [f"tg:-{n}" for n in range(1, CHATS + 1)]
    sent: dict[str, list[str]] = {chat: [] for chat in chats}

    async def scenario() -> None:
        async with await PgStore.open(pg_url) as store:
            for chat in chats:
                await store.create_game(chat, "tg:1", {}, {})
            workers = [_spawn(pg_url, f"w{i}", tmp_path, mode) for i in range(WORKERS)]
            spawned, kills = WORKERS, 0
            try:
                update_id = 1000
                while update_id < 1000 + UPDATES:
                    for _ in range(rng.randint(5, 30)):
                        update_id += 1
                        chat = rng.choice(chats)
                        payload = {"text": f"u{update_id}"}
                        assert await store.inbox_put(update_id, chat, payload)
                        sent[chat].append(payload["text"])
                        if rng.random() < 0.1:  # redelivered: stored once
                            assert not await store.inbox_put(update_id, chat, payload)
                    await asyncio.sleep(rng.random() * 0.05)
                    if rng.random() < 0.5:  # SIGKILL one mid-flight, start another in its place
                        slot = rng.randrange(WORKERS)
                        workers[slot].send_signal(signal.SIGKILL)
                        workers[slot].wait()
                        kills += 1
                        workers[slot] = _spawn(pg_url, f"w{spawned}", tmp_path, mode)
                        spawned += 1
                deadline = time.monotonic() + 300  # a generous bound, not a speed
                while await _waiting(store) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                assert await _waiting(store) == 0, "updates left unapplied"
            finally:
                for worker in workers:
                    worker.kill()
                    worker.wait()
            assert kills > 0

            acks = []
            for out in sorted(tmp_path.glob("w*.out")):
                for line in out.read_text().splitlines():
                    if line.startswith("ack "):
                        _, chat, seq, text = line.split()
                        acks.append((chat, int(seq), text))
            assert len(acks) >= UPDATES - kills  # at most one cut by each kill before its print
            logged_texts = []
            for chat in chats:
                game = await store.current_game(chat)
                assert game is not None
                rows = await store.events(game.id)
                assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
                texts = [r.event["name"] for r in rows]
                assert texts == sent[chat]  # each update once, in update order
                logged_texts += texts
                for a_chat, seq, text in acks:
                    if a_chat == chat:
                        assert texts[seq - 1] == text
            # every logged event has its outbox row, and no row is without its event
            assert sorted(r.payload["text"] for r in await store.pending()) == sorted(logged_texts)

    asyncio.run(scenario())


async def test_claims_one_owner_per_chat_released_when_its_connection_ends(pg_url: str) -> None:
    """A chat has one owner; another worker claims it once the owner releases it or its
    connection ends (the server drops the locks), and the owner is told (``on_release``)."""
    from storage.shared import ChatClaims

    async with await PgStore.open(pg_url):  # migrated
        pass
    lost: list[str] = []
    a, b = ChatClaims(pg_url, on_release=lost.append), ChatClaims(pg_url)
    try:
        assert await a.claim("tg:-1") and await a.claim("tg:-1")
        assert not await b.claim("tg:-1")
        assert await b.claim("tg:-2") and not await a.claim("tg:-2")
        await a.release("tg:-1")
        assert lost == ["tg:-1"] and await b.claim("tg:-1")
        assert await a.claim("tg:-3")
        conn = await a._connection()
        await conn.close()  # as if cut off
        assert not a.alive()
        assert await b.claim("tg:-3")
        assert not await a.claim("tg:-1") and lost == ["tg:-1", "tg:-3"]
    finally:
        await a.close()
        await b.close()


async def test_a_worker_claims_from_two_tasks_at_once(pg_url: str) -> None:
    """A worker's drainer and its adoption loop claim chats at the same moment on its one
    connection of claims: each claim waits its turn (asyncpg refuses a second operation in
    progress), none fails — the bench of 2 and 4 workers (bench/workers.py) met that failure."""
    from storage.shared import ChatClaims

    async with await PgStore.open(pg_url):
        pass
    a, b = ChatClaims(pg_url), ChatClaims(pg_url)
    try:
        chats = [f"tg:-{n}" for n in range(1, 41)]
        assert await b.claim(chats[-1]) and await a.claim(chats[0])  # connected
        took = await asyncio.gather(*(a.claim(chat) for chat in chats),
                                    *(a.release(chat) for chat in chats[:10]))
        assert took[:40] == [True] * 39 + [False]
        assert set(a.owned) <= set(chats[:-1]) and a.alive()
    finally:
        await a.close()
        await b.close()


async def test_claims_beyond_kept_release_the_least_recent(pg_url: str) -> None:
    from storage.shared import ChatClaims

    async with await PgStore.open(pg_url):
        pass
    released: list[str] = []
    a, b = ChatClaims(pg_url, kept=2, on_release=released.append), ChatClaims(pg_url)
    try:
        for chat in ("tg:-1", "tg:-2", "tg:-1", "tg:-3"):
            assert await a.claim(chat)
        assert released == ["tg:-2"] and a.owned == ["tg:-1", "tg:-3"]
        assert await b.claim("tg:-2") and not await b.claim("tg:-1")
    finally:
        await a.close()
        await b.close()


async def test_an_update_is_applied_once(pg_url: str) -> None:
    """The transition that applies an inbox update marks it done in its transaction: a second
    one is refused and logs nothing; an update stored twice is stored once."""
    from storage.pg import AlreadyApplied

    async with await PgStore.open(pg_url) as store:
        game = await store.create_game("tg:-1", "tg:1", {}, {})
        assert await store.inbox_put(7, "tg:-1", {"text": "a"})
        assert not await store.inbox_put(7, "tg:-1", {"text": "b"})
        assert await store.inbox_put(5, "tg:-1", {"text": "c"})
        assert await store.inbox_chats() == ["tg:-1"]
        assert await store.inbox_waiting("tg:-1") == [(5, {"text": "c"}), (7, {"text": "a"})]
        event = {"type": "set_name", "seat": 1, "name": "x"}
        await store.append_many(game, 1, [event], "w", inbox=5)
        with pytest.raises(AlreadyApplied):
            await store.append_many(game, 2, [event], "w", inbox=5)
        assert len(await store.events(game)) == 1
        await store.inbox_done(7)
        with pytest.raises(AlreadyApplied):
            await store.inbox_done(7)
        assert await store.inbox_chats() == [] and await store.inbox_waiting("tg:-1") == []


async def test_a_chat_moving_between_workers_is_not_applied_from_a_stale_cache(pg_url: str) -> None:
    """A worker that lets a chat go forgets its cached game (``on_release`` →
    :meth:`Service.forget`): when it owns the chat again, after another worker applied some of
    its updates, it applies the next one on the game as stored, not as it last saw it."""
    import rules
    from bot.service import Service
    from storage.shared import ChatClaims, Drainer

    chat = "tg:-1"
    stores = [await PgStore.open(pg_url) for _ in range(2)]
    services = [Service(store) for store in stores]
    claims = [ChatClaims(pg_url, on_release=service.forget) for service in services]

    def applier(service: Service):  # noqa: ANN202
        async def apply(chat: str, update_id: int, payload: dict) -> None:
            await service.act(chat, "tg:1", rules.SetName(seat=1, name=payload["text"]))
        return apply

    a, b = (Drainer(s, c, applier(v)) for s, c, v in zip(stores, claims, services))
    try:
        await services[0].new_game(chat, "tg:1", rules.config_from_dict({}))
        await stores[0].inbox_put(1, chat, {"text": "u1"})
        assert await a.round() == 1
        await stores[0].inbox_put(2, chat, {"text": "u2"})
        assert await b.round() == 0  # a's chat
        await claims[0].release(chat)
        assert await b.round() == 1
        await claims[1].release(chat)
        await stores[0].inbox_put(3, chat, {"text": "u3"})
        assert await a.round() == 1
        assert [e.name for e in await services[0].events(chat)] == ["u1", "u2", "u3"]
    finally:
        for c in claims:
            await c.close()
        for s in stores:
            await s.close()


async def test_prune_drops_the_applied_updates_only(pg_url: str) -> None:
    async with await PgStore.open(pg_url) as store:
        await store.inbox_put(1, "tg:-1", {"text": "a"})
        await store.inbox_put(2, "tg:-1", {"text": "b"})
        await store.inbox_done(1)
        await store.prune(before=time.time() + 60)
        assert await store.pool.fetchval("SELECT array_agg(update_id) FROM inbox") == [2]
        assert await store.inbox_waiting("tg:-1") == [(2, {"text": "b"})]


async def test_a_new_game_a_link_and_a_take_over_consume_the_update_they_apply(pg_url: str) -> None:
    """Like an action, the writes a user's update makes of another kind consume it in their own
    transaction: a second worker applying the same update is refused and writes nothing (a
    worker SIGKILLed after ``/new`` and before marking it would otherwise leave its successor
    to apply ``/new`` again)."""
    from storage.pg import AlreadyApplied, Applying, applying

    async with await PgStore.open(pg_url) as store:
        for update_id, write in ((1, lambda: store.create_game("tg:-1", "tg:1", {}, {})),
                                 (2, lambda: store.set_alias("tg:-2", "tg:-1")),
                                 (3, lambda: store.move_game(1, "tg:-3", "tg:2"))):
            assert await store.inbox_put(update_id, "tg:-1", {})
            for attempt in range(2):
                update = Applying(update_id)
                token = applying.set(update)
                try:
                    if attempt == 0:
                        await write()
                        assert update.consumed
                    else:
                        with pytest.raises(AlreadyApplied):
                            await write()
                finally:
                    applying.reset(token)
        assert await store.inbox_waiting("tg:-1") == []
        assert [g.id for g in await store.open_games()] == [1]
        assert await store.alias("tg:-2") == "tg:-3"  # the aliases follow the game
        assert (await store.game(1)).chat == "tg:-3"
