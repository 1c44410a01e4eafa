"""What the bot needs in a server, and the link that invites it with exactly that.

In a game's channel: **View Channel** and **Send Messages** (the announcements), **Attach Files**
(the protocol's picture and JSON at the end), and **Moderate Members** (a member mapped to a seat
with ``/seat`` is timed out when the rules remove him: the 4th foul, seed 4.5; a disqualification,
seed 4.2 — until the game ends). Slash commands and the judge's direct messages need no permission.
No privileged gateway intent is needed (the bot reads no message content and no member list).

Host mode (the bot runs the table) also needs, in the table's channel, **Manage Permissions**
(discord.py's ``manage_roles``: a member overwrite closes the channel to all but the speaker) and
**Manage Messages** (a message out of one's minute is deleted): :data:`HOST_RIGHTS`. A voice table
(:mod:`bot.discord.voice`) mutes the players who may not speak: **Mute Members**
(:data:`VOICE_RIGHTS`). The invite asks for all three sets, so a server that adds the bot can host
text and voice tables at once.
"""

from __future__ import annotations

import discord

from ..i18n import Catalog

# In the order the judge is told about them.
CHANNEL_RIGHTS: tuple[str, ...] = ("view_channel", "send_messages", "attach_files", "moderate_members")
TIMEOUT_RIGHT = "moderate_members"
#: Host mode's own (bot/discord/host/port.py: ``mute`` and ``delete``).
HOST_RIGHTS: tuple[str, ...] = ("manage_roles", "manage_messages")
#: A voice table's (bot/discord/voice.py: only who may speak is unmuted).
VOICE_RIGHTS: tuple[str, ...] = ("mute_members",)
SCOPES = ("bot", "applications.commands")


def invite_permissions() -> discord.Permissions:
    return discord.Permissions(**{name: True for name in (*CHANNEL_RIGHTS, *HOST_RIGHTS, *VOICE_RIGHTS)})


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot with its slash commands, :data:`CHANNEL_RIGHTS`,
    :data:`HOST_RIGHTS` and :data:`VOICE_RIGHTS`."""
    return discord.utils.oauth_url(application_id, permissions=invite_permissions(), scopes=SCOPES)


def missing(permissions: discord.Permissions, names: tuple[str, ...] = CHANNEL_RIGHTS) -> list[str]:
    """The rights of ``names`` that ``permissions`` lacks (an administrator lacks none)."""
    if permissions.administrator:
        return []
    return [name for name in names if not getattr(permissions, name)]


def rights_text(names: list[str], cat: Catalog) -> str:
    """The missing rights in words, each with what it is for."""
    return "; ".join(cat.text(f"dc-right-{name}") for name in names)
