"""Host mode under shared workers (``MAFIA_REFEREE_WORKERS=shared``, issue 18): two
``mafia-referee telegram`` processes on one PostgreSQL, webhook mode, the fake Bot API's updates
POSTed to either (some to both, as Telegram redelivers), and the worker that runs the hosted
table SIGKILLed twice — in a speech nobody ends, and just after the blacks' shots. The other
worker claims the table's group, resumes the table from the store and re-arms its step from the
stored deadline; the killed one comes back. A night prompt pressed in a player's private chat is
applied where the table runs (:meth:`bot.telegram.host.TelegramHost.home_of`).

Checked: the log's events are each once and in order; every step was opened once (``host_steps``
numbers them: a step opened twice, or a deadline that fired twice, would open one more or skip
one) and a step closed by its time closed no earlier than its stored deadline; the shots were
all applied (the night's victim is the seat they aimed at); nothing is left in the inbox or the
outbox; the group got no message twice but at most one per kill."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

import pytest

from rules import Role
from storage import PgStore
from storage.shared import CHAT_LOCK, CLAIMS_NAME
from support.host_table import FAST, make_world

PROJECT = Path(__file__).resolve().parents[1]
SCALE = 0.05  # real seconds per timer second: a 60 s speech is 3 s, a 20 s night step 1 s
# the shots' window 15 s: the three presses and a kill fit in it on a busy machine
OPTIONS = FAST.replace("shooting=20", "shooting=300")
BOUND = 120.0  # s: a generous bound on any wait (a busy machine), never a speed
T = TypeVar("T")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _until(check: Callable[[], Awaitable[T]], what: str, bound: float = BOUND) -> T:
    """Poll ``check`` until it returns something truthy (a database row: no call announces it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


@pytest.mark.timeout(900)
async def test_a_hosted_table_goes_on_in_the_other_worker_when_its_worker_is_killed(
        pg_url: str, tmp_path: Path) -> None:
    pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks] (tornado)")
    import aiohttp

    from bot.service import Service
    from fakebot import FakeBotAPI
    from support.webhook import post_update

    rng = random.Random(int(os.environ.get("MAFIA_REFEREE_KILL_SEED", "18")))
    secret = "webhook-Secret_42"
    async with FakeBotAPI() as fake, await PgStore.open(pg_url) as store:
        world = make_world(fake)
        group = f"tg:{world.group.id}"
        ports = [_free_port(), _free_port()]
        hooks = [f"http://127.0.0.1:{port}/tg/hook" for port in ports]

        logs: dict[int, Path] = {}  # a worker's pid -> its log (stderr and stdout)

        async def spawn(port: int) -> Any:
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("MAFIA_REFEREE_") and k != "TELEGRAM_BOT_TOKEN"}
            env.update(MAFIA_REFEREE_TELEGRAM_TOKEN=fake.token,
                       MAFIA_REFEREE_TELEGRAM_BASE_URL=fake.base_url, MAFIA_REFEREE_DB=pg_url,
                       MAFIA_REFEREE_LANG="ru", MAFIA_REFEREE_WORKERS="shared",
                       MAFIA_REFEREE_TELEGRAM_TIMER_SCALE=repr(SCALE), MAFIA_REFEREE_HOST_SEED="7",
                       MAFIA_REFEREE_TELEGRAM_RATE_OVERALL="1000", MAFIA_REFEREE_TELEGRAM_RATE_GROUP="1000",
                       MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE="1000",
                       MAFIA_REFEREE_TELEGRAM_RATE_GROUP_PERIOD="1",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL="https://referee.example.org/tg/hook",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_PORT=str(port),
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET=secret)
            path = tmp_path / f"worker-{port}-{len(logs)}.log"
            with path.open("wb") as out:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", "telegram", cwd=PROJECT, env=env,
                    stdout=out, stderr=asyncio.subprocess.STDOUT)
            logs[process.pid] = path
            return process

        workers = [await spawn(port) for port in ports]
        kills = 0

        async def table() -> Any:
            return await store.host_table_of(group)

        async def owner() -> int:
            """The worker (0 or 1) whose claims hold the group."""
            name = await store.pool.fetchval(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1"
                " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND l.objsubid = 2 AND l.objid::bigint = (hashtext($2)::bigint & 4294967295)",
                CHAT_LOCK, group)
            assert name is not None and name.startswith(CLAIMS_NAME), name
            pids = [w.pid for w in workers]
            return pids.index(int(name.rsplit(" ", 1)[1]))

        async def kill_owner() -> None:
            nonlocal kills
            victim = await owner()
            workers[victim].send_signal(signal.SIGKILL)
            await workers[victim].wait()
            kills += 1
            workers[victim] = await spawn(ports[victim])

        try:
            async with aiohttp.ClientSession() as http:
                async def deliver(update: dict[str, Any]) -> None:
                    """To one worker, sometimes again to the other (each answers 200: stored)."""
                    first = rng.randrange(2)
                    assert await post_update(http, hooks[first], update, secret) == 200
                    if rng.random() < 0.3:
                        assert await post_update(http, hooks[1 - first], update, secret) == 200

                async def step(kind: str, *, seat: int | None = None, day: str | None = None,
                               after: int = 0) -> dict[str, Any]:
                    async def shown() -> dict[str, Any] | None:
                        row = await table()
                        s = row.step if row is not None else None
                        if s is None or s["no"] <= after or not s["started"] or s["message"] is None:
                            return None
                        if s["kind"] != kind or (seat is not None and s["seat"] != seat):
                            return None
                        return s if day is None or s["key"].split(":")[0] == day else None
                    return await _until(shown, f"the step {kind} {seat or ''}")

                for player in world.players:  # their private chats: owned by either worker
                    fake.user_sends(player, None, "/start")
                    await deliver(fake._updates.pop())
                fake.user_sends(world.owner, world.group, f"/newgame {OPTIONS}")
                await deliver(fake._updates.pop())
                lobby = await _until(table, "the lobby")
                lobby_id = await _until(lambda: _lobby(store, lobby.id), "the lobby's message")
                for n, player in enumerate(world.players, 1):  # seats by join order
                    fake.user_presses(player, fake.message(world.group, lobby_id), button="Записаться")
                    await deliver(fake._updates.pop())
                    await _until(lambda: _joined(store, lobby.id, n), f"player {n} joined")
                seen = (await step("night_zero"))["no"]
                seats = {int(s): u for s, u in (await table()).seats.items()}
                user = {s: fake.user(int(u.removeprefix("tg:"))) for s, u in seats.items()}
                killed_speech: dict[str, Any] | None = None
                for seat in range(1, 11):  # day 1: no nominations, no vote (F24 §4.4.10)
                    s = await step("speech", seat=seat, day="1", after=seen)
                    seen = s["no"]
                    if seat == 3:  # its worker dies; nobody passes: its time runs out elsewhere
                        killed_speech = s
                        await kill_owner()
                        continue
                    fake.user_presses(user[seat], fake.message(world.group, s["message"]), button="Пас")
                    await deliver(fake._updates.pop())
                state = (await Service(store).current(group)).state  # type: ignore[arg-type, union-attr]
                shooters = {s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA)}
                shooting = await step("shooting", after=seen)

                async def prompted() -> bool:  # the prompts are queued just after the step shows
                    row = await table()
                    return {s for s, u in seats.items() if u in row.step["prompted"]} == shooters
                await _until(prompted, "the blacks' prompts queued")
                target = min(set(seats) - set(shooters))
                prefix = f"h:{lobby.id}:{shooting['no']}:"
                for seat in shooters:  # in their private chats: the table's worker applies them
                    prompt = await fake.wait_for(lambda: [
                        m for m in fake.sent(user[seat])
                        if any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons)],
                        BOUND, "the shooting prompt")
                    fake.user_presses(user[seat], prompt[-1], button=str(target))
                    await deliver(fake._updates.pop())
                await kill_owner()  # just after the shots: stored, maybe not yet applied
                await step("speech", day="2", after=shooting["no"])

            async def settled() -> bool:
                return not await store.pool.fetchval(
                    "SELECT COUNT(*) FROM inbox WHERE done_at IS NULL") and not await store.pending()
            await _until(settled, "the inbox and the outbox empty")

            current = await Service(store).current(group)  # type: ignore[arg-type]
            assert current is not None
            assert current.state.nights and current.state.nights[0].killed == target  # every shot
            rows = await store.events(current.game_id)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            steps = await store.host_steps(lobby.id)
            assert [s.no for s in steps] == list(range(1, len(steps) + 1))
            assert len({s.key for s in steps}) == len(steps)  # each step opened once
            assert killed_speech is not None
            after_killed = next(s for s in steps if s.no == killed_speech["no"] + 1)
            assert after_killed.opened_at >= killed_speech["deadline"] - 0.01  # its own time
            passed = {s.no for s in steps if s.kind == "speech" and s.key.startswith("1:")} \
                - {killed_speech["no"]}
            for one, following in zip(steps, steps[1:]):
                if one.no not in passed:  # closed by its time: never before its deadline
                    assert following.opened_at >= one.opened_at + one.seconds * SCALE - 0.01, (one, following)
            sends = [str(c.params.get("text")) for c in fake.calls
                     if c.method == "sendMessage" and c.ok and str(c.params.get("chat_id")) == str(world.group.id)]
            assert len(sends) - len(set(sends)) <= kills, sends
        finally:
            for process in workers:
                if process.returncode is None:
                    process.send_signal(signal.SIGINT)
            for process in workers:
                await asyncio.wait_for(process.wait(), 60)
        assert kills == 2
        for process in workers:
            assert process.returncode == 0, logs[process.pid].read_text()[-3000:]


async def _lobby(store: PgStore, table_id: int) -> int | None:
    row = await store.host_table(table_id)
    return row.lobby_message if row is not None else None


async def _joined(store: PgStore, table_id: int, n: int) -> bool:
    row = await store.host_table(table_id)
    return row is not None and len(row.players) >= n

