"""``mafia-referee telegram`` as several workers on one PostgreSQL database
(``MAFIA_REFEREE_WORKERS=shared``, issue 18, :mod:`bot.telegram.shared`): two worker processes in
webhook mode behind one endpoint, as a proxy would spread Telegram's POSTs over them — each
update of each judge's chat handled once (some delivered to both workers, as Telegram retries
an update it got no answer for), in the order the judge typed them, and the judge's messages sent
once; on SQLite the mode is refused with one line."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storage import PgStore

PROJECT = Path(__file__).resolve().parents[1]
PREFIX = "MAFIA_REFEREE_"
JUDGES = 4
NAMES = 6  # /name commands per judge after /new


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(PREFIX) and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
    env.update(extra)
    return env


def test_shared_workers_are_refused_on_sqlite(tmp_path: Path) -> None:
    """One line, exit status 2, the database untouched: SQLite has one bot process."""
    run = subprocess.run(
        [sys.executable, "-m", "bot", "telegram"], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, env=_env(MAFIA_REFEREE_TELEGRAM_TOKEN="123:abc", MAFIA_REFEREE_LANG="en",
                              MAFIA_REFEREE_DB=str(tmp_path / "referee.sqlite3"),
                              MAFIA_REFEREE_WORKERS="shared"))
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "MAFIA_REFEREE_WORKERS=shared needs a PostgreSQL database (MAFIA_REFEREE_DB=postgresql://…): "
        "on SQLite one bot process serves the database; unset MAFIA_REFEREE_WORKERS."]
    assert not (tmp_path / "referee.sqlite3").exists()


def test_shared_webhook_workers_are_refused_without_a_set_secret(tmp_path: Path, pg_url: str) -> None:
    """Each worker calls setWebhook at its start: with a random secret each, Telegram would know
    the last one only and the other workers would answer its requests 403."""
    run = subprocess.run(
        [sys.executable, "-m", "bot", "telegram"], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, env=_env(MAFIA_REFEREE_TELEGRAM_TOKEN="123:abc", MAFIA_REFEREE_LANG="ru",
                              MAFIA_REFEREE_DB=pg_url, MAFIA_REFEREE_WORKERS="shared",
                              MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL="https://referee.example.org/tg/hook"))
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1
    assert "MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET" in run.stderr and "Traceback" not in run.stderr


def _news(fake: Any, chat: int) -> list[str]:
    """What the judge was told in his chat, in order: the new game's message and the notice
    heading his panel as each action posts or edits it (issue 16: the action's notice on top).
    A panel's keyboard taken off (``editMessageReplyMarkup``, when it is posted afresh below
    newer messages) tells nothing new."""
    news = []
    for call in fake.calls:
        if call.method in ("sendMessage", "editMessageText") and call.ok \
                and str(call.params.get("chat_id")) == str(chat):
            head = str(call.params.get("text") or "").split("\n", 1)[0]
            if head.startswith(("New game #", "Seat #")):
                news.append(head)
    return news


@pytest.mark.timeout(600)
@pytest.mark.parametrize("kill", [False, True], ids=["running", "one-sigkilled"])
async def test_two_workers_split_the_chats_each_update_once_in_order(pg_url: str, kill: bool) -> None:
    """With ``one-sigkilled``, a worker is SIGKILLed mid-flight and started again (a proxy sends
    the POSTs meanwhile to the other): its chats go on with the other worker, nothing lost or
    applied twice; at most one message a kill cut (sent, not yet marked sent) is sent again."""
    pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks] (tornado)")
    import aiohttp

    from fakebot import FakeBotAPI
    from support.webhook import post_update

    rng = random.Random(int(os.environ.get("MAFIA_REFEREE_KILL_SEED", "18")))
    secret = "webhook-Secret_42"
    async with FakeBotAPI() as fake:
        judges = [fake.add_user(f"Judge{n}", f"judge{n}", started=True) for n in range(JUDGES + 1)]
        control, judges = judges[0], judges[1:]  # control: every update to one worker, once
        ports = [_free_port(), _free_port()]
        def spawn(port: int) -> Any:
            env = _env(MAFIA_REFEREE_TELEGRAM_TOKEN=fake.token, MAFIA_REFEREE_TELEGRAM_BASE_URL=fake.base_url,
                       MAFIA_REFEREE_DB=pg_url, MAFIA_REFEREE_LANG="en", MAFIA_REFEREE_WORKERS="shared",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL="https://referee.example.org/tg/hook",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_PORT=str(port),
                       MAFIA_REFEREE_TELEGRAM_WEBHOOK_SECRET=secret)
            return asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "telegram", cwd=PROJECT, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)

        workers = [await spawn(port) for port in ports]
        killed: list[Any] = []
        hooks = [f"http://127.0.0.1:{port}/tg/hook" for port in ports]
        try:
            async with aiohttp.ClientSession() as http:
                async def post(hook: str, update: dict[str, Any]) -> None:
                    assert await post_update(http, hook, update, secret) == 200

                scripts = {j.id: ["/new"] + [f"/name 1 n{i}" for i in range(NAMES)]
                           for j in (control, *judges)}
                # interleaved across chats, each chat's own in the order typed
                order = [j for j in (control, *judges) for _ in scripts[j.id]]
                rng.shuffle(order)
                typed = {j.id: 0 for j in (control, *judges)}
                for judge in order:
                    text = scripts[judge.id][typed[judge.id]]
                    typed[judge.id] += 1
                    fake.user_sends(judge, None, text)
                    update = fake._updates.pop()  # what Telegram would POST to the webhook
                    if judge is control:
                        await post(hooks[0], update)
                        continue
                    if kill and typed[judge.id] == 3 and not killed:  # mid-flight: SIGKILLed, then back
                        victim = rng.randrange(2)
                        workers[victim].send_signal(signal.SIGKILL)
                        await workers[victim].wait()
                        killed.append(workers[victim])
                        workers[victim] = await spawn(ports[victim])
                    first = rng.randrange(2)
                    await post(hooks[first], update)
                    if rng.random() < 0.3:  # delivered again, to the other worker
                        await post(hooks[1 - first], update)
                    if rng.random() < 0.2:
                        await asyncio.sleep(rng.random() * 0.05)

            async with await PgStore.open(pg_url) as store:
                async def logged(judge: Any) -> list[str]:
                    game = await store.current_game(f"tg:{judge.id}")
                    if game is None:
                        return []
                    return [row.event.get("name", "") for row in await store.events(game.id)
                            if row.event.get("type") == "set_name"]

                wanted = [f"n{i}" for i in range(NAMES)]

                async def all_logged() -> bool:
                    return all([await logged(j) == wanted for j in (control, *judges)])

                def all_told() -> bool:  # the panel is edited after the action's commit
                    return all(f"Seat #1: n{NAMES - 1}." in _news(fake, j.id) for j in (control, *judges))

                for _ in range(1200):  # a generous bound, not a speed
                    if await all_logged() and not await store.pool.fetchval(
                            "SELECT COUNT(*) FROM inbox WHERE done_at IS NULL") and not await store.pending() \
                            and all_told():
                        break
                    await asyncio.sleep(0.1)
                for judge in (control, *judges):
                    assert await logged(judge) == wanted  # each once, in the order typed
                    game = await store.current_game(f"tg:{judge.id}")
                    assert game is not None
                    rows = await store.events(game.id)
                    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
                    assert len([g for g in await store.pool.fetch(
                        "SELECT id FROM games WHERE chat = $1", f"tg:{judge.id}")]) == 1  # one /new
                assert await store.pending() == []
            cut = 0
            for judge in (control, *judges):  # the judge's news: each once, in order
                news = _news(fake, judge.id)
                once = list(dict.fromkeys(news))
                assert len(once) == 1 + NAMES and once[0].startswith("New game #"), news
                assert once[1:] == [f"Seat #1: n{i}." for i in range(NAMES)]
                cut += len(news) - len(once)  # sent, then cut by the kill before it was marked
            assert cut <= len(killed)
        finally:
            for process in workers:
                if process.returncode is None:
                    process.send_signal(signal.SIGINT)
            outs = [await asyncio.wait_for(p.communicate(), 60) for p in workers]
        if kill:
            assert killed
        for process, (out, _) in zip(workers, outs):
            assert process.returncode == 0, out.decode()[-3000:]


async def test_a_chat_with_a_running_timer_or_unsent_messages_is_adopted_by_one_worker(
        pg_url: str) -> None:
    """A worker claims the chats that have a running timer or unsent messages and no owner (its
    owner died, or none has started yet): it arms the chat's timer and sends its outbox (the
    home's and its aliases'); another worker leaves them alone while it owns them, and takes them
    over once its claims end. A Discord chat on the same database is never a Telegram worker's."""
    from types import SimpleNamespace

    from bot.service import Service
    from bot.telegram.shared import SharedWorker
    from storage import OutboxItem

    async with await PgStore.open(pg_url) as store:
        timed = await store.create_game("tg:1", "tg:1", {}, {})
        await store.set_timer(timed, {"key": "x"})
        await store.create_game("tg:2", "tg:2", {}, {})
        await store.set_alias("tg:-5", "tg:2")
        await store.enqueue([OutboxItem("tg:-5", {"text": "news"})])
        await store.create_game("tg:3", "tg:3", {}, {})  # nothing waits: nobody claims it
        # a Discord shard's game on the same database: its messages and presses are not Telegram's
        await store.create_game("dc:9", "dc:9", {}, {})
        await store.enqueue([OutboxItem("dc:9", {"text": "a Discord table's"})])
        assert await store.inbox_put(10**18, "dc:9", {"id": "1", "type": 3})

        def worker(log: list[tuple[str, str]]) -> SharedWorker:
            async def rearm(home: str) -> None:
                log.append(("arm", home))

            referee = SimpleNamespace(
                settings=SimpleNamespace(db=pg_url),
                service=Service(store),
                judge=SimpleNamespace(rearm=rearm, disarm=lambda game_id: None),
                outbox=SimpleNamespace(kick=lambda chat, reread=False: log.append(("send", chat))))
            return SharedWorker(SimpleNamespace(), referee)  # type: ignore[arg-type]

        a_log: list[tuple[str, str]] = []
        b_log: list[tuple[str, str]] = []
        a, b = worker(a_log), worker(b_log)
        try:
            assert sorted(await a.adopt()) == ["tg:1", "tg:2"]
            assert sorted(a_log) == [("arm", "tg:1"), ("arm", "tg:2"), ("send", "tg:-5"),
                                     ("send", "tg:1"), ("send", "tg:2")]
            assert await a.adopt() == []  # owned already
            assert await a.drainer.round() == 0  # the Discord press waits for its shard
            assert await b.adopt() == [] and b_log == []
            await a.claims.close()  # as if it died
            assert sorted(await b.adopt()) == ["tg:1", "tg:2"]
            assert ("arm", "tg:1") in b_log and ("send", "tg:-5") in b_log
        finally:
            await a.claims.close()
            await b.claims.close()


async def test_a_hosted_tables_private_updates_go_to_the_inbox_of_its_chat(pg_url: str) -> None:
    """A night prompt is pressed, a lobby's link opened, a seated player writes or blocks the
    bot in his private chat: the update is stored under the table's group, so that the worker
    running the table applies it (not the owner of his private chat, which holds no table). A
    command, a message of someone at no running table, a group's update stay where they are."""
    from types import SimpleNamespace

    from telegram import Update

    from bot.host import views as vw
    from bot.telegram.host import TelegramHost
    from bot.telegram.shared import InboxQueue

    async with await PgStore.open(pg_url) as store:
        running = await store.create_host_table("tg:-100", "tg:1", {"host": {}, "rules": {}})
        await store.update_host_table(running, status="running", seats={1: "tg:5"},
                                      players=[{"user": "tg:5", "name": "Аня", "reachable": True}])
        lobby = await store.create_host_table("tg:-200", "tg:1", {"host": {}, "rules": {}})
        await store.update_host_table(lobby, players=[{"user": "tg:6", "name": "Боря", "reachable": True}])
        from bot.service import Service

        referee = SimpleNamespace(service=Service(store))
        host = SimpleNamespace(referee=referee)
        ids = iter(range(1, 100))

        def private(user: int, text: str) -> Update:
            chat = {"id": user, "type": "private", "first_name": "x"}
            return Update.de_json({"update_id": next(ids), "message": {
                "message_id": 1, "date": 0, "chat": chat, "text": text,
                "from": {"id": user, "is_bot": False, "first_name": "x"}}}, None)

        def press(user: int, chat: int, data: str) -> Update:
            kind = "private" if chat > 0 else "supergroup"
            return Update.de_json({"update_id": next(ids), "callback_query": {
                "id": "q", "chat_instance": "c", "data": data,
                "from": {"id": user, "is_bot": False, "first_name": "x"},
                "message": {"message_id": 9, "date": 0, "chat": {"id": chat, "type": kind}}}}, None)

        blocked = Update.de_json({"update_id": next(ids), "my_chat_member": {  # update 1
            "chat": {"id": 5, "type": "private", "first_name": "x"}, "date": 0,
            "from": {"id": 5, "is_bot": False, "first_name": "x"},
            "old_chat_member": {"status": "member", "user": {"id": 42, "is_bot": True, "first_name": "bot"}},
            "new_chat_member": {"status": "kicked", "until_date": 0,
                                "user": {"id": 42, "is_bot": True, "first_name": "bot"}}}}, None)
        expected = [
            (press(5, 5, vw.encode(running, 3, "shoot", 2)), "tg:-100"),  # a night prompt
            (press(6, -200, vw.encode(lobby, 0, "join")), "tg:-200"),
            (private(6, f"/start h{lobby}"), "tg:-200"),  # the lobby's link
            (private(6, "/start"), "tg:-200"),  # he opened the bot: the lobby may write to him
            (private(5, "hello"), "tg:-100"),  # seated at a running table
            (blocked, "tg:-100"),
            (private(6, "hello"), None),  # only in a lobby: nothing for a table
            (private(5, "/help"), None),  # a command: the judge mode's
            (private(7, "hello"), None),  # at no table
            (press(5, 5, "j:1:2:next"), None),  # not a host button
        ]
        for update, chat in expected:
            assert await TelegramHost.home_of(host, update) == chat, update  # type: ignore[arg-type]
        queue = InboxQueue(referee, lambda update: TelegramHost.home_of(host, update))  # type: ignore[arg-type]
        for update, chat in expected:
            await queue.put(update)
        waiting = {chat: [u for u, _ in await store.inbox_waiting(chat)]
                   for chat in ("tg:-100", "tg:-200", "tg:5", "tg:6", "tg:7")}
        assert waiting == {"tg:-100": [1, 2, 6], "tg:-200": [3, 4, 5], "tg:5": [8, 10],
                           "tg:6": [7], "tg:7": [9]}


async def test_a_hosted_table_is_run_by_the_worker_that_owns_its_group(pg_url: str) -> None:
    """An open hosted table nobody runs (its worker died, or none has started) is adopted by
    one worker: its group claimed and the table flow told to resume it; the other leaves it
    alone, and takes it over once the first one's claims end (the flow told it was let go: its
    deadlines do nothing there). A group with a live table is not let go for room."""
    from types import SimpleNamespace

    from bot.service import Service
    from bot.telegram.shared import SharedWorker

    async with await PgStore.open(pg_url) as store:
        await store.create_host_table("tg:-7", "tg:1", {"host": {}, "rules": {}})
        over = await store.create_host_table("tg:-8", "tg:1", {"host": {}, "rules": {}})
        await store.update_host_table(over, status="over")

        def worker(log: list[tuple[str, str]]) -> SharedWorker:
            async def rearm(home: str) -> None:
                return None

            async def claimed(chat: str) -> None:
                log.append(("resume", chat))

            flow = SimpleNamespace(claimed=claimed, released=lambda chat: log.append(("drop", chat)),
                                   live_chats=lambda: {"tg:-7"}, runs=None)
            referee = SimpleNamespace(
                settings=SimpleNamespace(db=pg_url),
                service=Service(store),
                judge=SimpleNamespace(rearm=rearm, disarm=lambda game_id: None),
                outbox=SimpleNamespace(kick=lambda chat, reread=False: None))
            app = SimpleNamespace(bot_data={"host": SimpleNamespace(controller=flow)})
            return SharedWorker(app, referee)  # type: ignore[arg-type]

        a_log: list[tuple[str, str]] = []
        b_log: list[tuple[str, str]] = []
        a, b = worker(a_log), worker(b_log)
        try:
            assert await a.adopt() == ["tg:-7"] and a_log == [("resume", "tg:-7")]
            assert a.host is not None and a.host.runs("tg:-7") and not a.host.runs("tg:-8")
            assert await b.adopt() == [] and b_log == []
            a.claims._kept = 1
            assert await a.claims.claim("tg:5") and await a.claims.claim("tg:6")
            assert a.claims.owns("tg:-7") and not a.claims.owns("tg:5")  # the table's group kept
            await a.claims.close()  # as if it died
            assert ("drop", "tg:-7") in a_log and not a.host.runs("tg:-7")
            assert await b.adopt() == ["tg:-7"] and b_log == [("resume", "tg:-7")]
        finally:
            await a.claims.close()
            await b.claims.close()


async def test_a_chat_being_taken_over_is_handed_out_once_it_is(pg_url: str) -> None:
    """The adopting loop claims a group and its hosted table is being read afresh and resumed
    (``on_claim``) when the drainer claims it for an update: the drainer's claim returns once
    the takeover has ended — an update applied meanwhile would act on a copy of the table the
    takeover then replaces, and what the update did (a black's shot) would be lost."""
    from storage.shared import ChatClaims

    gate = asyncio.Event()
    seen: list[str] = []

    async def on_claim(chat: str) -> None:
        seen.append("taking")
        await gate.wait()
        seen.append("taken")

    claims = ChatClaims(pg_url, on_claim=on_claim)
    try:
        first = asyncio.create_task(claims.claim("tg:-1"))
        for _ in range(600):
            if seen:
                break
            await asyncio.sleep(0.05)
        assert seen == ["taking"] and claims.owns("tg:-1")
        second = asyncio.create_task(claims.claim("tg:-1"))
        await asyncio.sleep(0.2)
        assert not second.done()
        gate.set()
        assert await second and seen == ["taking", "taken"]
        assert await first
        assert await claims.claim("tg:-1") and seen == ["taking", "taken"]  # claimed once
    finally:
        await claims.close()
