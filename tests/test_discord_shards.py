"""Discord by shards over one PostgreSQL store (issue 18; bot/discord/shards.py).

A server belongs to shard ``(guild_id >> 22) % count``; several processes each connect some
shards and touch only the game channels of their own servers: their timers, their outbox (the
judge's direct messages with the game they belong to), their presses — a press in direct
messages, which Discord sends to shard 0 whatever the server, is handed to the owner through
the store. Two real discord.py clients (as two processes: a store each) run shard 0 and shard 1
of 2 against two fake Discords, one server each.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import AsyncIterator

import discord
import pytest
from pydantic import ValidationError

from bot import writer
from bot.discord.app import DiscordReferee, ShardedRefereeClient, build_client
from bot.discord.shards import Shards, shard_of
from bot.outbox import post
from bot.service import Service
from bot.settings import Settings
from fakediscord import GUILD_ID, FakeDiscord, FakeDiscordServer
from storage import Store
from support.discord_table import TABLE_ID, DiscordTable, running, settings_for, wait_for
from support.stores import rows

# servers spread over the shards: consecutive creation times (the snowflake's bits above 22)
GUILDS = [GUILD_ID + (n << 22) + n for n in range(64)]
GUILD_ONE = GUILD_ID  # on shard 1 of 2
GUILD_ZERO = GUILD_ID + (1 << 22)  # on shard 0 of 2
TABLE_ZERO = 900_000_000_000_000_300  # the game's channel in GUILD_ZERO
SLOW = 5.0  # real seconds per timer second: no speech ends during the test


def discordpy_shard(guild_id: int, count: int) -> int:
    """discord.py's own answer (``Guild.shard_id``) for server ``guild_id`` among ``count``."""
    fake = SimpleNamespace(id=guild_id, _state=SimpleNamespace(shard_count=count))
    return discord.Guild.shard_id.fget(fake)  # type: ignore[attr-defined]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 16])
def test_a_server_belongs_to_the_shard_discord_gives_it_and_to_one_process(count: int) -> None:
    assert GUILD_ONE != GUILD_ZERO and shard_of(GUILD_ONE, 2) == 1 and shard_of(GUILD_ZERO, 2) == 0
    shards = [shard_of(g, count) for g in GUILDS]
    assert shards == [discordpy_shard(g, count) for g in GUILDS]
    assert set(shards) == set(range(count))  # every shard has servers
    # the shards split between processes (0,2,4… and 1,3,5…): each server is one process's
    processes = [Shards(count, tuple(range(first, count, 2))) for first in range(min(count, 2))]
    for guild in GUILDS:
        assert sum(p.owns_guild(guild) for p in processes) == 1
    assert not Shards(count, tuple(range(count))).multi  # one process with every shard
    assert all(Shards(count).owns_guild(g) and Shards().owns_guild(g) for g in GUILDS)
    with pytest.raises(ValueError):
        shard_of(GUILD_ONE, 0)


def test_the_shard_settings() -> None:
    settings = Settings(_env_file=None, discord_shards=4, discord_shard_ids="3, 1")
    assert settings.shard_ids == (1, 3) and Shards.of(4, settings.shard_ids).multi
    assert Settings(_env_file=None, discord_shards=4).shard_ids is None
    assert Settings(_env_file=None, discord_shards=4, discord_shard_ids=" ").shard_ids is None
    for count, ids, problem in ((None, "0", "needs MAFIA_REFEREE_DISCORD_SHARDS"),
                                (2, "2", "from 0 to 1"), (2, "0,x", "from 0 to 1"),
                                (3, "1,1", "names a shard twice")):
        with pytest.raises(ValidationError, match=problem):
            Settings(_env_file=None, discord_shards=count, discord_shard_ids=ids)
    with pytest.raises(ValidationError):
        Settings(_env_file=None, discord_shards=0)


def test_some_shards_are_refused_on_sqlite_and_in_both(tmp_path: Path) -> None:
    """One line, exit status 2, nothing started: the other shards' processes could not share
    an SQLite file (one process serves every shard there)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MAFIA_REFEREE_LANG": "en",
           "MAFIA_REFEREE_DB": str(tmp_path / "referee.sqlite3"), "MAFIA_REFEREE_DISCORD_TOKEN": "x.y.z",
           "MAFIA_REFEREE_TELEGRAM_TOKEN": "123:abc", "MAFIA_REFEREE_DISCORD_SHARDS": "2",
           "MAFIA_REFEREE_DISCORD_SHARD_IDS": "1"}
    for mode, line in (("discord", "needs a PostgreSQL database"),
                       ("both", "mafia-referee both serves every Discord shard")):
        run = subprocess.run([sys.executable, "-m", "bot", mode], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120, env=env)
        assert run.returncode == 2, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and line in run.stderr
    assert not (tmp_path / "referee.sqlite3").exists()


@contextlib.asynccontextmanager
async def shard_process(pg_url: str, fake: FakeDiscord, shard: int, channel: int,
                        name: str) -> AsyncIterator[DiscordTable]:
    """A process serving shard ``shard`` of 2 (its own store on the shared database) against
    ``fake``'s server; its judge is the member called ``name``, its game channel ``channel``."""
    if channel not in fake.channels:
        fake.add_channel(channel, f"table-{shard}")
    judge = next((u for u in fake.users.values() if u["global_name"] == name), None) or fake.add_user(name)
    store = await Store.open(pg_url)
    try:
        async with FakeDiscordServer(fake) as server:
            settings = settings_for(pg_url, server, discord_shards=2, discord_shard_ids=str(shard))
            client = build_client(settings, Service(store), sync=False, protocol=False, timer_scale=SLOW)
            assert isinstance(client, ShardedRefereeClient)
            async with running(server, client):
                await wait_for(lambda: client.referee._drainer is not None, timeout=30, what="on_ready")
                yield DiscordTable(fake, server, client, client.referee.service, judge, [], judge)
    finally:
        await store.close()
    assert not fake.errors, fake.errors


async def day_one(t: DiscordTable, channel: int) -> int:
    """A game in ``channel`` up to #1's speech (its timer running); the game's id."""
    for command, options in (("new", {}), ("roles", {"roles": "D2 M5 M7 S8"}), ("start", {}), ("next", {})):
        await t.slash(command, where=channel, **options)
    current = await t.service.current(f"dc:{channel}")
    assert current is not None and current.state.speaker == 1
    return current.game_id


def armed(referee: DiscordReferee) -> set[str]:
    return {group for group in referee.tasks._tasks if group.startswith("timer:")}


def touched(server: FakeDiscordServer, *ids: int) -> list[str]:
    """The REST calls to ``server`` naming any of ``ids`` (a channel, a DM channel)."""
    return [f"{c.method} {c.url}" for c in server.fake.calls if any(str(i) in c.url for i in ids)]


async def hand_over(zero: DiscordTable, one: DiscordTable, label: str) -> int:
    """The judge of shard 1's game presses ``label`` on his panel; Discord delivers the press
    (direct messages) to the process of shard 0. The interaction's id."""
    button = one.panel().button(label)
    assert button is not None, label
    payload = one.fake.press_payload(one.judge, one.panel(), button["custom_id"], one.app_permissions)
    # one interaction, reachable through either fake (Discord's webhooks are not sharded)
    zero.fake.interactions[payload["token"]] = one.fake.interactions[payload["token"]]
    assert await zero.server.dispatch("INTERACTION_CREATE", payload) is not None
    return int(payload["id"])


async def test_two_shard_processes_each_serve_only_their_servers(pg_url: str) -> None:
    one_fake, zero_fake = FakeDiscord(), FakeDiscord(guild_id=GUILD_ZERO)
    async with shard_process(pg_url, zero_fake, 0, TABLE_ZERO, "Judge0") as zero, \
            shard_process(pg_url, one_fake, 1, TABLE_ID, "Judge1") as one:
        assert zero.server.shards == [[0, 2]] and one.server.shards == [[1, 2]]
        assert [g.id for g in zero.client.guilds] == [GUILD_ZERO] and [g.id for g in one.client.guilds] == [GUILD_ONE]
        game_zero = await day_one(zero, TABLE_ZERO)
        game_one = await day_one(one, TABLE_ID)
        assert armed(zero.referee) == {f"timer:{game_zero}"} and armed(one.referee) == {f"timer:{game_one}"}
        one_dm = one.fake.dms[int(one.judge["id"])]
        calls_of_zero = len(zero.fake.calls)

        # shard 1's judge pauses and resumes his speech timer: both presses reach shard 0
        speech = one.fake.in_channel(TABLE_ID)[-1]
        paused = await hand_over(zero, one, "⏸ Пауза")
        await one.server.wait_for(lambda: "пауза, осталось" in speech.now.content, timeout=30, what="the pause")
        await one.server.wait_for(lambda: one.panel().button("▶ Продолжить") is not None, timeout=30, what="the panel")
        resumed = await hand_over(zero, one, "▶ Продолжить")
        await one.server.wait_for(lambda: "продолжается" in speech.now.content, timeout=30, what="the resumption")
        await one.server.wait_for(lambda: one.panel().button("⏸ Пауза") is not None, timeout=30, what="the panel")
        assert zero.fake.answered[paused].kind == "defer_update" and zero.fake.answered[resumed].kind == "defer_update"
        assert [r.kind for r in one.fake.replies if r.interaction in (paused, resumed)] == []  # answered once
        # shard 0's process acknowledged them and touched nothing of shard 1's server
        assert touched(zero.server, TABLE_ID, one_dm) == []
        assert [c.path for c in zero.fake.calls[calls_of_zero:]] == [
            "/interactions/{webhook_id}/{webhook_token}/callback"] * 2
        handed = [(paused, f"dc:{TABLE_ID}", True), (resumed, f"dc:{TABLE_ID}", True)]
        for _ in range(1500):  # the last one is marked done after its answer (a generous bound)
            if await rows(one.service.store, "SELECT update_id, chat, done_at IS NOT NULL FROM inbox"
                          " ORDER BY update_id") == handed:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the presses handed over are not marked done")
        assert armed(zero.referee) == {f"timer:{game_zero}"} and armed(one.referee) == {f"timer:{game_one}"}
        # shard 0's own judge: his press in direct messages is handled where it arrived
        zero_speech = zero.fake.in_channel(TABLE_ZERO)[-1]
        await zero.press("⏸ Пауза")
        assert "пауза, осталось" in zero_speech.now.content
        await zero.press("▶ Продолжить")

        # messages left unsent for both servers (a channel, and a judge's DMs by his game)
        store = one.service.store
        await store.enqueue([post(f"dc:{TABLE_ZERO}", "для стола 0")])
        await store.enqueue([post(f"dc:{TABLE_ID}", "для стола 1")])
        await store.enqueue([post(f"dc:{one.judge['id']}", "судье 1", private=True)], game_one)
        await store.enqueue([post(f"dc:{zero.judge['id']}", "судье 0", private=True)], game_zero)

    # shard 0's process alone: its server's timer and messages, none of shard 1's
    zero_calls = len(zero_fake.calls)
    async with shard_process(pg_url, zero_fake, 0, TABLE_ZERO, "Judge0") as zero:
        await zero.server.wait_for(lambda: "для стола 0" in zero.public(TABLE_ZERO)
                                   and "судье 0" in zero.dm(), timeout=30, what="shard 0's messages")
        assert armed(zero.referee) == {f"timer:{game_zero}"}
        assert touched(zero.server, TABLE_ID, one_dm) == []
        assert {c.path for c in zero_fake.calls[zero_calls:] if c.method != "GET"} == {
            "/users/@me/channels", "/channels/{channel_id}/messages"}  # its judge's DMs, its channel
        waiting = await rows(zero.service.store, "SELECT chat FROM outbox WHERE state = 'pending' ORDER BY id")
        assert waiting == [(f"dc:{TABLE_ID}",), (f"dc:{one.judge['id']}",)]

    # shard 1's process: the rest
    async with shard_process(pg_url, one_fake, 1, TABLE_ID, "Judge1") as one:
        await one.server.wait_for(lambda: "для стола 1" in one.public(TABLE_ID) and "судье 1" in one.dm(),
                                  timeout=30, what="shard 1's messages")
        assert armed(one.referee) == {f"timer:{game_one}"}
        assert await rows(one.service.store, "SELECT chat FROM outbox WHERE state = 'pending'") == []



def test_a_shard_is_served_by_one_process_and_all_agree_on_the_count(pg_url: str) -> None:
    """The locks of the processes of several shards (bot.writer.acquire_shards): a second
    process with one of the same shards, one with another shard count, and a single process
    serving the whole database are each refused (exit 2 in the CLI: DatabaseBusy)."""
    with writer.acquire_shards(pg_url, 4, (0, 1)):
        with writer.acquire_shards(pg_url, 4, (2, 3)):  # the other half: beside it
            for count, ids in ((4, (1,)), (4, (3, 0)), (2, (1,))):
                with pytest.raises(writer.DatabaseBusy):
                    writer.acquire_shards(pg_url, count, ids)
            with pytest.raises(writer.DatabaseBusy):
                writer.acquire(Path(pg_url))  # one bot process for the whole database
    with writer.acquire(Path(pg_url)):
        with pytest.raises(writer.DatabaseBusy):
            writer.acquire_shards(pg_url, 2, (0,))
    with writer.acquire_shards(pg_url, 2, (1,)):  # all released: another count now
        pass
