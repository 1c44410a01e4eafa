"""Whom a command typed in a Telegram chat is for.

In a group several bots may read the same command: Telegram adds the bot's username to a command
picked from a group's menu (``/stop@OtherBot``). A bare command, or one addressed to this bot, is
ours; one addressed to another bot is ignored — it changes nothing and gets no answer.
"""

from __future__ import annotations


def addressed_elsewhere(text: str, bot_username: str | None) -> bool:
    """Is ``text`` a command addressed to another bot than ``bot_username`` (``/cmd@Other``)?
    Unknown username: the command is taken as ours."""
    head = text.strip().split(None, 1)[0] if text.strip() else ""
    if not head.startswith("/") or "@" not in head or not bot_username:
        return False
    return head.split("@", 1)[1].lower() != bot_username.lower()
