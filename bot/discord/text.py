"""Discord reads a message's text as Markdown: a name a user gave goes in escaped.

A player's display name, a seat's name typed with ``/name``: ``**Маша**``,
``[click](https://…)``, ``||spoiler||``, ``# big`` or ``- list`` is shown as typed, never as bold,
a masked link, a spoiler, a heading or a list, and ``@everyone`` or a pasted ``<@id>`` is not a
mention (the client's ``AllowedMentions.none()`` already keeps every ping off), nor is any other
``<…>`` form Discord draws — a channel, a role, an emoji, a slash command, a timestamp. The
catalogs' own formatting stays: only the names pass through :func:`escape_name`, by way of
:meth:`bot.i18n.Catalog.name` of the catalogs :func:`discord_catalog` gives — a seat's label, a
notice's or a refusal's ``name`` (:func:`bot.render.notice_text`: «Место №3: name.»), an action
as typed in the audit trail and a correction (``/name 3 name``), a member's or a channel's name
in a tournament's lines, a table's channel in a player's card. (A host or a judge taking over is
named by a mention the bot makes, ``<@id>``: not a name, left as it is.)
"""

from __future__ import annotations

import functools

from discord.utils import escape_markdown, escape_mentions

from ..i18n import Catalog, catalog


def escape_name(name: str) -> str:
    """``name`` as Discord shows it literally: its Markdown and mentions escaped
    (:func:`discord.utils.escape_markdown`, :func:`~discord.utils.escape_mentions`), and a
    backslash before each ``<``, so that no ``<#id>``, ``<:emoji:id>``, ``</command:id>`` or
    ``<t:seconds:R>`` is drawn (Discord shows a backslashed punctuation mark as the mark)."""
    return escape_markdown(escape_mentions(name)).replace("<", "\\<")


@functools.cache
def discord_catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (:func:`bot.i18n.catalog`) with names escaped for Discord."""
    return catalog(lang).escaping(escape_name)
