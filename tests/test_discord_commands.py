"""Discord's slash commands as a server sees them: the commands only admins may use carry
``default_permissions`` (the others are everyone's); they are published only when they changed
(:mod:`bot.discord.sync`), and ``--guild`` never leaves a command twice in a server; the invite
link asks for the rights host mode needs too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import rights, slash
from bot.discord.app import build_client
from bot.discord.sync import GLOBAL, state_file, sync_commands
from bot.settings import Settings

#: Commands shown only to members with Manage Channels (what their handlers check).
ADMIN_COMMANDS = {"channel", "takeover"}


@pytest.fixture
async def tree(tmp_path: Path) -> Any:
    client = build_client(Settings(_env_file=None, discord_token="x", db=tmp_path / "referee.sqlite3"),
                          sync=False)
    await client.tree.set_translator(slash.CatalogTranslator())
    published: list[str] = []

    async def sync(*, guild: Any = None) -> list[Any]:
        published.append(f"guild:{guild.id}" if guild is not None else GLOBAL)
        return []

    client.tree.sync = sync  # type: ignore[method-assign]
    client.tree.published = published  # type: ignore[attr-defined]
    yield client.tree
    await client.close()


def test_only_the_admins_commands_carry_default_permissions(tmp_path: Path) -> None:
    client = build_client(Settings(_env_file=None, discord_token="x", db=tmp_path / "x.sqlite3"), sync=False)
    commands = {c.name: c for c in client.tree.get_commands()}
    assert ADMIN_COMMANDS <= set(commands)
    for name, command in commands.items():
        permissions = command.default_permissions
        if name in ADMIN_COMMANDS:
            assert permissions is not None and permissions.manage_channels, name
            assert permissions.value == discord.Permissions(manage_channels=True).value, name
        else:
            assert permissions is None, name  # /new, /nominate, /pass … are everyone's
    payload = commands["channel"].to_dict(client.tree)
    assert int(payload["default_member_permissions"]) == discord.Permissions(manage_channels=True).value


async def test_commands_are_published_only_when_they_changed(tree: Any, tmp_path: Path) -> None:
    state = state_file(tmp_path / "referee.sqlite3")
    assert await sync_commands(tree, state, None) == [GLOBAL]
    assert await sync_commands(tree, state, None) == []  # a restart: nothing changed
    assert tree.published == [GLOBAL]

    @discord.app_commands.command(name="novelty", description="new in this version")
    async def novelty(interaction: discord.Interaction[Any]) -> None:
        pass

    assert tree.get_command("novelty") is None  # a name no version of ours has used
    tree.add_command(novelty)
    assert await sync_commands(tree, state, None) == [GLOBAL]  # an upgrade with a new command
    tree.remove_command("novelty")
    assert await sync_commands(tree, state, None) == [GLOBAL]
    state.unlink()  # forgotten: published again
    assert await sync_commands(tree, state, None) == [GLOBAL]


async def test_a_guild_never_shows_a_command_twice(tree: Any, tmp_path: Path) -> None:
    """``--guild``: the server gets its own copies and the global list is emptied; a later run
    without it publishes globally and removes the server's copies."""
    state = state_file(tmp_path / "referee.sqlite3")
    assert await sync_commands(tree, state, None) == [GLOBAL]
    assert await sync_commands(tree, state, 42) == [GLOBAL, "guild:42"]
    assert tree.get_commands() == []  # the global list published empty
    assert {c.name for c in tree.get_commands(guild=discord.Object(42))} >= {"new", "newgame", "channel"}
    assert await sync_commands(tree, state, 42) == []  # a restart with --guild: nothing changed
    digests = json.loads(state.read_text())
    assert set(digests) == {GLOBAL, "guild:42"}


async def test_a_global_run_removes_an_earlier_guilds_copies(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    state = state_file(db)
    client = build_client(Settings(_env_file=None, discord_token="x", db=db), sync=False)
    await client.tree.set_translator(slash.CatalogTranslator())
    calls: list[tuple[str, int]] = []

    async def sync(*, guild: Any = None) -> list[Any]:
        scope = f"guild:{guild.id}" if guild is not None else GLOBAL
        calls.append((scope, len(client.tree.get_commands(guild=guild))))
        return []

    client.tree.sync = sync  # type: ignore[method-assign]
    await sync_commands(client.tree, state, 42)
    await client.close()
    # the next start has no --guild: a fresh client, as a new process would have
    again = build_client(Settings(_env_file=None, discord_token="x", db=db), sync=False)
    await again.tree.set_translator(slash.CatalogTranslator())
    calls.clear()

    async def sync_again(*, guild: Any = None) -> list[Any]:
        scope = f"guild:{guild.id}" if guild is not None else GLOBAL
        calls.append((scope, len(again.tree.get_commands(guild=guild))))
        return []

    again.tree.sync = sync_again  # type: ignore[method-assign]
    assert await sync_commands(again.tree, state, None) == ["guild:42", GLOBAL]
    assert calls[0] == ("guild:42", 0)  # the server's copies removed
    assert calls[1][0] == GLOBAL and calls[1][1] > 20  # every command, globally
    assert set(json.loads(state.read_text())) == {GLOBAL}
    await again.close()


def test_the_invite_asks_for_host_modes_rights() -> None:
    granted = discord.Permissions(int(rights.invite_url(1).rsplit("permissions=", 1)[1]))
    for name in (*rights.CHANNEL_RIGHTS, *rights.HOST_RIGHTS, *rights.VOICE_RIGHTS):
        assert getattr(granted, name), name
    assert granted.manage_roles and granted.manage_messages  # host mode: overwrites, deletions
    assert granted.mute_members  # a voice table mutes who may not speak
    assert not granted.administrator and not granted.manage_channels and not granted.manage_guild


async def test_over_the_wire_restarts_publish_nothing_and_a_guild_run_shows_each_command_once(
        tmp_path: Path) -> None:
    """Four starts of the bot against the fake Discord over HTTP, one database: the first
    publishes globally; a restart publishes nothing (no PUT at all); ``--guild`` gives the server
    its own copies and empties the global list; a later global run empties the server's list and
    publishes globally again. After each start the server shows every command exactly once."""
    from fakediscord import FakeDiscord, FakeDiscordServer
    from fakediscord.world import GUILD_ID
    from support.discord_table import running, settings_for

    fake = FakeDiscord()
    db = tmp_path / "referee.sqlite3"
    guild = f"guild:{GUILD_ID}"

    def puts() -> list[str]:
        return [("global" if "guild_id" not in c.path else guild) for c in fake.calls
                if c.method == "PUT" and c.path.endswith("/commands")]

    def shown() -> list[str]:  # what a member of the server sees: the global and the server's
        return sorted(c["name"] for scope in ("global", guild) for c in fake.commands.get(scope, []))

    async with FakeDiscordServer(fake) as server:
        every: list[str] = []
        for sync_guild, expected in ((None, ["global"]), (None, []), (GUILD_ID, ["global", guild]),
                                     (None, [guild, "global"])):
            before = len(puts())
            client = build_client(settings_for(db, server), sync=True, sync_guild=sync_guild)
            async with running(server, client):
                pass
            assert puts()[before:] == expected, (sync_guild, puts())
            every = every or shown()
            assert shown() == every and len(set(every)) == len(every), shown()
        assert ADMIN_COMMANDS <= set(every) and {"new", "newgame", "foul"} <= set(every)
        assert fake.commands[guild] == [] and len(fake.commands["global"]) == len(every)
    assert not fake.errors, fake.errors
