"""The slash commands of host mode. Each is turned into its typed line (as on Telegram:
``/newgame seats=shuffle``, ``/stop``, ``/pass``) and handed to the adapter, which gives it to
the host driver when the channel has a table (or the command is host mode's own).

The speaker's ``/nominate`` and the host's ``/foul``, ``/warn``, ``/dq``, ``/ppk``, ``/unfoul``,
``/status`` are judge mode's commands (:mod:`bot.discord.slash`): in a hosted channel the host
driver answers them.
"""

from __future__ import annotations

from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Range

from .. import slash
from ..slash import _arg, _desc, _run


@app_commands.command(name="newgame", description=_desc("newgame"))
@app_commands.describe(options=_arg("host-options"), voice=_arg("voice"))
async def newgame(interaction: discord.Interaction[Any],
                  options: Optional[Range[str, 1, 400]] = None,
                  voice: Optional[discord.VoiceChannel] = None) -> None:
    await _run(interaction, "newgame", options, f"voice={voice.id}" if voice else None)


@app_commands.command(name="stop", description=_desc("stop"))
async def stop(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "stop")


@app_commands.command(name="pass", description=_desc("pass"))
async def pass_(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "pass")


@app_commands.command(name="join", description=_desc("join"))
@app_commands.describe(name=_arg("plan-name"))
async def join(interaction: discord.Interaction[Any], name: Range[str, 1, 64]) -> None:
    await _run(interaction, "join", name)


@app_commands.command(name="protocol", description=_desc("protocol"))
async def protocol(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "protocol")


@app_commands.command(name="channel", description=_desc("channel"))
@app_commands.default_permissions(manage_channels=True)  # _set_channel refuses anyone else
@app_commands.describe(channel=_arg("club"), off=_arg("off"))
async def channel(interaction: discord.Interaction[Any],
                  channel: Optional[discord.TextChannel] = None,
                  off: Optional[bool] = None) -> None:
    await _run(interaction, "channel", "off" if off else (channel.id if channel else None))


HOST_COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (newgame, stop, pass_, join, protocol,
                                                                   channel)
NAMES = frozenset(c.name for c in HOST_COMMANDS)

for _command in HOST_COMMANDS:
    app_commands.guild_only()(_command)


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Add host mode's commands to ``tree`` (judge mode's are :func:`bot.discord.slash.install`)."""
    for command in HOST_COMMANDS:
        tree.add_command(command)


__all__ = ["HOST_COMMANDS", "NAMES", "install", "slash"]
