"""Bounded caches (issue 21): a long-running bot keeps at most ``MAFIA_REFEREE_CACHE_CHATS`` chats'
games, homes, languages and locks in memory (:mod:`bot.lru`; 5,000 chats added 26 MB before). A
chat dropped from memory is read again from the store when it comes back, and nothing in use — a
lock held or awaited, a live host table — is ever dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import rules
from bot.judge.controller import JudgeController
from bot.locks import ChatLocks
from bot.lru import CACHED_CHATS, Recent, locks
from bot.service import Service
from bot.settings import Settings
from storage import Store
from support.fakeport import Chats, FakeClock, FakeJudgePort

ROLES = ("don", "mafia", "mafia", "sheriff", *("civilian",) * 6)


def test_recent_drops_the_least_recently_used_but_keeps_what_is_in_use() -> None:
    seen: Recent[str, int] = Recent(3)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        seen[key] = value
    assert seen["a"] == 1  # used: "b" is now the oldest
    seen["d"] = 4
    assert list(seen) == ["c", "a", "d"]
    assert [key for key, _ in seen.items()] == ["c", "a", "d"] == [k for k in seen if seen[k]]
    assert seen.values() == [3, 1, 4]
    held = locks(2)
    first = held["x"] = asyncio.Lock()
    asyncio.run(first.acquire())
    held["y"], held["z"] = asyncio.Lock(), asyncio.Lock()
    assert held.get("x") is first and "y" not in held  # a held lock is never dropped
    with pytest.raises(ValueError):
        Recent(0)


async def test_the_service_keeps_a_bounded_number_of_games_and_refolds_the_others(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        service = Service(store, cached=5)
        chats = [f"tg:{1000 + n}" for n in range(40)]
        for chat in chats:
            await service.new_game(chat, chat, rules.PRESETS["seed"])
            await service.act(chat, chat, rules.SetRoles(ROLES))
            await service.act(chat, chat, rules.StartGame())
            await service.act(chat, chat, rules.Next())
        assert len(service._games) <= 5 and len(service._locks) <= 5 and len(service._aliases) <= 5
        first = await service.act(chats[0], chats[0], rules.Next())  # read again from the store
        assert first.state.speaker == 2 and first.revision == 4
        again = await service.current(chats[0])
        assert again is not None and again.state == first.state and again.revision == first.revision
    finally:
        await store.close()


async def test_the_judge_controller_keeps_a_bounded_number_of_chats() -> None:
    store = await Store.open(":memory:")
    try:
        service = Service(store, cached=4)
        port = FakeJudgePort(Chats(), FakeClock(), lambda: store)
        judge = JudgeController(lambda: service, port, ChatLocks(4))
        for n in range(30):
            home = f"fk:{n + 1}"
            await judge.typed(home, home, "/new")
            await judge.typed(home, home, "/status")
        assert len(judge.locks._locks) <= 4
        assert len(judge._latest) <= 4 and len(judge._views) <= 4 and len(judge._confirm_new) <= 4
    finally:
        await store.close()


def test_the_bound_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAFIA_REFEREE_CACHE_CHATS", raising=False)
    assert Settings(_env_file=None).cache_chats == CACHED_CHATS  # type: ignore[call-arg]
    monkeypatch.setenv("MAFIA_REFEREE_CACHE_CHATS", "300")
    assert Settings(_env_file=None).cache_chats == 300  # type: ignore[call-arg]
    monkeypatch.setenv("MAFIA_REFEREE_CACHE_CHATS", "0")
    with pytest.raises(ValueError):
        Settings(_env_file=None)  # type: ignore[call-arg]
