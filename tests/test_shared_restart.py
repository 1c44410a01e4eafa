"""A database restart drops no command (issue 32): with shared workers
(``MAFIA_REFEREE_WORKERS=shared``, :mod:`bot.telegram.shared`), a judge's command stored in the
inbox and caught by a PostgreSQL restart while it is applied is not answered «not saved» and
dropped: it stays in the inbox, the judge is told once that it is kept, and it is applied —
exactly once — when the database is back; the game goes on.

The PostgreSQL server is this test's own (:mod:`support.pgserver`), restarted in the middle of
applying the command: the session's shared server is never touched."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

import pytest

import rules
from bot.i18n import catalog
from bot.service import Service
from bot.telegram.app import ALLOWED_UPDATES, build_application, referee_of
from fakebot import FakeBotAPI, running
from storage import Store
from support import pgserver
from support.telegram_table import settings_for

pytestmark = pytest.mark.usefixtures("ptb_timedelta")
RU = catalog("ru")
BOUND = 60.0  # s: a generous bound on any wait (a busy machine), never a speed


@pytest.fixture
def server() -> Iterator[pgserver.Server]:
    try:
        own = pgserver.start()
    except pgserver.Unavailable as why:
        pytest.skip(f"no PostgreSQL server of the test's own: {why}")
    try:
        yield own
    finally:
        own.stop()


async def until(check: Callable[[], Awaitable[Any]], what: str) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND
    while True:
        try:
            value = await check()
        except Exception:  # noqa: BLE001 - the database restarting: look again
            value = None
        if value:
            return value
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.timeout(300)
async def test_a_command_caught_by_a_postgresql_restart_is_applied_once_when_it_is_back(
        fake: FakeBotAPI, server: pgserver.Server, tmp_path: Path) -> None:
    judge = fake.add_user("Судья", "judge", started=True)
    home = f"tg:{judge.id}"
    store = await Store.open(server.url)
    try:
        service = Service(store)
        app = build_application(settings_for(fake, server.url, workers="shared"), service)  # type: ignore[arg-type]
        referee = referee_of(app)
        async with running(app, fake, allowed_updates=list(ALLOWED_UPDATES)):
            await app.post_init(app)
            await until(lambda: asyncio.sleep(0, referee.shared), "the shared worker")
            worker = referee.shared

            def told() -> list[str]:
                return [t for m in fake.sent(judge) for t in m.texts if t]

            async def now() -> Any:
                return await service.current(home)

            fake.user_sends(judge, None, "/new")
            await until(now, "the new game")
            fake.user_sends(judge, None, "/roles D2 M5 M7 S8")
            await until(lambda: _has(now, lambda c: c.state.roles_known), "the roles")
            fake.user_sends(judge, None, "/start")
            await until(lambda: _has(now, lambda c: c.state.phase is rules.Phase.NIGHT_ZERO),
                        "night 0")
            before = len(await service.events(home))

            apply = worker.drainer._apply
            restarts: list[int] = []

            async def caught(chat: str, update_id: int, payload: dict[str, Any]) -> None:
                """The first try of ``/next``: PostgreSQL restarts as it is applied."""
                text = (payload.get("message") or {}).get("text")
                if text != "/next" or restarts:
                    return await apply(chat, update_id, payload)
                restarts.append(update_id)
                await asyncio.to_thread(server.halt)
                try:
                    await apply(chat, update_id, payload)
                finally:
                    await asyncio.to_thread(server.resume)

            worker.drainer._apply = caught
            fake.user_sends(judge, None, "/next")
            await until(lambda: _has(now, lambda c: c.state.speaker == 1), "the /next applied")
            events = await service.events(home)
            assert [type(e).__name__ for e in events[before:]] == ["Next"]  # once
            assert restarts, "the restart did not catch the command"
            kept = RU.text("error-kept", press="no")
            assert told().count(kept) == 1, told()[-5:]
            assert not [t for t in told() if RU.text("error-not-saved") in t
                        or RU.text("error-internal") in t]
            assert (await service.current(home)).state.speaker == 1  # type: ignore[union-attr]
            await until(lambda: _empty_inbox(store), "the inbox emptied")
            # the game goes on
            fake.user_sends(judge, None, "/next")
            await until(lambda: _speaker(service, home, 2), "the next /next")
    finally:
        await store.close()


async def _has(value: Callable[[], Awaitable[Any]], test: Callable[[Any], bool]) -> bool:
    found = await value()
    return found is not None and test(found)


async def _speaker(service: Service, home: str, seat: int) -> bool:
    current = await service.current(home)
    return current is not None and current.state.speaker == seat


async def _empty_inbox(store: Any) -> bool:
    return not await store.inbox_chats()


def test_only_the_database_out_of_reach_keeps_an_update() -> None:
    """:func:`storage.shared.unreachable`: asyncpg's connection and shutdown errors, a closed
    connection, a refused or timed-out connection are the database away; a refusal of what was
    asked, a bug, or an HTTP client's failure (a platform's call) are not."""
    import aiohttp
    import asyncpg

    from storage.shared import unreachable

    away = [asyncpg.ConnectionDoesNotExistError("closed in the middle"),
            asyncpg.CannotConnectNowError("the database system is starting up"),
            asyncpg.AdminShutdownError("terminating connection"),
            asyncpg.InterfaceError("connection is closed"),
            ConnectionRefusedError(111, "Connect call failed"), TimeoutError()]
    other = [asyncpg.UniqueViolationError("duplicate key"), asyncpg.InterfaceError(
        "cannot perform operation: another operation is in progress"), ValueError("a bug"),
        aiohttp.ClientConnectorError(None, OSError(111, "refused")),  # type: ignore[arg-type]
        aiohttp.ServerTimeoutError()]
    assert [unreachable(e) for e in away] == [True] * len(away)
    assert [unreachable(e) for e in other] == [False] * len(other)


async def test_an_update_the_database_keeps_refusing_is_dropped_after_its_tries(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the database answers the inbox, an update whose every try meets it out of reach
    (flapping, a misread error) is kept :data:`storage.shared.KEPT_TRIES` times, its chat let
    go each time and its later updates waiting behind it; then it is dropped as a failed one
    (``on_dropped``) and the chat goes on. A drainer that does not keep (``keep=False``)
    drops it at once, as before."""
    from storage import PgStore
    from storage import shared
    from storage.shared import ChatClaims, Drainer, kept

    monkeypatch.setattr(shared, "KEPT_TRIES", 3)
    monkeypatch.setattr(shared, "KEPT_WAIT", 0.01)
    applied: list[tuple[int, bool]] = []
    dropped: list[int] = []

    async def apply(chat: str, update_id: int, payload: dict[str, Any]) -> None:
        if update_id in (1, 21):
            error = ConnectionRefusedError(111, "Connect call failed")
            applied.append((update_id, kept(error)))  # what a handler's catch-all asks
            return
        applied.append((update_id, False))

    async def on_dropped(chat: str, update_id: int, payload: dict[str, Any]) -> None:
        dropped.append(update_id)

    async with await PgStore.open(pg_url) as store:
        claims = ChatClaims(pg_url)
        released: list[str] = []
        claims._on_release = released.append
        try:
            for update_id in (1, 2):
                await store.inbox_put(update_id, "tg:-1", {"n": update_id})
            drainer = Drainer(store, claims, apply, keep=True, on_dropped=on_dropped)
            for _ in range(3):
                await drainer.round()
            assert applied == [(1, True), (1, True), (1, True), (2, False)]
            assert dropped == [1] and released == ["tg:-1", "tg:-1"]
            assert await store.inbox_chats() == []
            applied.clear()
            await store.inbox_put(21, "tg:-2", {"n": 21})
            await store.inbox_put(22, "tg:-2", {"n": 22})
            plain = Drainer(store, claims, apply)
            await plain.round()
            assert applied == [(21, False), (22, False)] and dropped == [1]
            assert await store.inbox_chats() == []
        finally:
            await claims.close()
