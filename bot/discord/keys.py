"""The service's keys of Discord ids: a channel is the chat ``"dc:<channel_id>"``, a user
``"dc:<user_id>"`` (snowflakes are unique across kinds, so the two never collide), and a server's
language is stored under ``"dc:guild:<guild_id>"``.

    >>> chat_key(42), user_key(7), guild_key(5), id_of("dc:42")
    ('dc:42', 'dc:7', 'dc:guild:5', 42)
"""

from __future__ import annotations

import re

PREFIX = "dc:"
_KEY = re.compile(r"dc:([0-9]{1,20})")


def chat_key(channel_id: int) -> str:
    return f"{PREFIX}{channel_id}"


def user_key(user_id: int) -> str:
    return f"{PREFIX}{user_id}"


def guild_key(guild_id: int) -> str:
    return f"{PREFIX}guild:{guild_id}"


def is_discord(key: str | None) -> bool:
    """Whether ``key`` is a Discord channel or user key."""
    return key is not None and _KEY.fullmatch(key) is not None


def id_of(key: str) -> int:
    """The snowflake of a channel or user key; ``ValueError`` for another adapter's key."""
    match = _KEY.fullmatch(key)
    if match is None:
        raise ValueError(f"not a Discord key: {key!r}")
    return int(match.group(1))


def mention_user(key: str) -> str:
    """``<@id>``: Discord shows the member's name (the bot sends with mentions disabled, so
    nobody is pinged)."""
    return f"<@{id_of(key)}>"


def mention_channel(key: str) -> str:
    return f"<#{id_of(key)}>"
