"""Publishing the slash commands to Discord only when they changed.

Discord keeps an application's commands until they are overwritten, and each overwrite counts
against a daily limit; a bot that overwrites them at every start is also the usual cause of
"the commands flicker after a restart". :func:`sync_commands` publishes a scope's commands only
when their payload (names, options, descriptions in every language, default permissions)
differs from what this bot last published there, remembered in a small JSON file beside the
database (``<db>.commands.json``: a digest per scope; delete it to force a publish).

Scopes: without ``guild`` the commands are global (every server the bot is in), and copies an
earlier ``--guild`` run left in a server are removed, so that server does not show each command
twice. With ``guild`` the commands are that server's only (they appear there at once): the
global list is emptied, again so that no command shows twice in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from .. import published as _published

GLOBAL = "global"


def state_file(db: Path) -> Path:
    """Where the digests of what was published are kept: beside the database."""
    return _published.state_file(db, "commands")


async def _digest(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """The digest of the payload :meth:`CommandTree.sync` would send for ``guild``."""
    commands = tree._get_all_commands(guild=guild)  # noqa: SLF001 - the list sync() itself sends
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        payload = [command.to_dict(tree) for command in commands]
    return _published.digest(sorted(payload, key=lambda c: str(c.get("name"))))


async def sync_commands(tree: app_commands.CommandTree[Any], state: Path, guild: int | None) -> list[str]:
    """Publish what changed (see the module's docstring); returns the scopes published
    (``"global"``, ``"guild:<id>"``). Raises what :meth:`CommandTree.sync` raises."""
    known = _published.read(state)
    published: list[str] = []

    async def publish(scope: str, target: discord.abc.Snowflake | None) -> None:
        digest = await _digest(tree, target)
        if known.get(scope) == digest:
            return
        await tree.sync(guild=target)
        known[scope] = digest
        published.append(scope)
        _published.write(state, known)

    if guild is None:
        for scope in sorted(k for k in known if k.startswith("guild:")):  # an earlier --guild's copies
            target = discord.Object(int(scope.split(":", 1)[1]))
            tree.clear_commands(guild=target)
            await publish(scope, target)
            known.pop(scope, None)
            _published.write(state, known)
        await publish(GLOBAL, None)
    else:
        target = discord.Object(guild)
        tree.copy_global_to(guild=target)
        tree.clear_commands(guild=None)  # the server's own copies only: none twice
        await publish(GLOBAL, None)
        await publish(f"guild:{guild}", target)
    return published
