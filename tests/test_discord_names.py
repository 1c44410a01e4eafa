"""A name a user gave is shown on Discord as typed (issue 21): Discord reads a message's text as
Markdown, so a player called ``**Маша**`` was posted in bold, ``[клик](https://…)`` as a masked
link, ``||…||`` as a spoiler. Names are escaped where they enter a text (:mod:`bot.discord.text`,
:meth:`bot.i18n.Catalog.name`) while the catalogs' own formatting — the live countdown's
``<t:…:R>`` — stays; pings stay off. Telegram posts plain text (no parse mode): names go as typed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.i18n import catalog
from support.discord_table import TABLE_ID, DiscordTable, table

RU = catalog("ru")
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)
#: names whose Markdown Discord would render anywhere in a line (bold, a masked link, a spoiler,
#: italics, code, strike-through, underline) or that would mention (everyone, a member)
INLINE = ("**Маша**", "[клик](https://evil.example/x)", "||спойлер||", "_курсив_", "`код`",
          "~~зачёркнуто~~", "__Глеб__", "@everyone", "<@900000000000000123>")
#: names that are Markdown only at the start of a line (a heading, a list, a quote)
LINE_START = ("# Заголовок", "- пункт", "> цитата")


def shown(text: str) -> str:
    """What Discord shows of a text's escapes: a backslash before a punctuation mark is dropped,
    and so is the zero-width space that breaks a mention."""
    return re.sub(r"\\([^\w\s]|_)", r"\1", text).replace("\u200b", "")


def as_typed(text: str, name: str) -> None:
    """``name`` is in ``text`` as Discord shows it, and none of its Markdown acts."""
    assert name in shown(text), (name, text)
    if name in INLINE:  # never as typed: a backslash (or a zero-width space) before its marks
        assert not re.search(r"(?<!\\)" + re.escape(name), text), f"{name!r} unescaped in {text!r}"
    for line in text.splitlines():
        assert not line.startswith(("#", "- ", ">")), f"a name made a heading, a list or a quote: {line!r}"


def everything(t: DiscordTable) -> str:
    """Every version of every message the channel got."""
    return "\n".join(v.content for m in t.fake.in_channel(TABLE_ID) for v in m.versions if v.content)


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch, timer_scale=1000.0) as running:
        yield running


async def test_host_mode_shows_the_players_names_as_typed(t: DiscordTable) -> None:
    """Display names go into the lobby, the host's line, the seats and each speaker's step."""
    names = [*INLINE, *LINE_START][:10]
    for player, name in zip(t.players, names):
        player["global_name"] = name
    t.app_permissions = HOST_RIGHTS
    await t.slash("newgame", options="seed seats=join")
    for player in t.players:
        lobby = [m for m in t.fake.in_channel(TABLE_ID, deleted=False) if m.button(RU.text("host-btn-join"))][-1]
        await t.press(RU.text("host-btn-join"), actor=player, message=lobby)
    lobby = everything(t)
    for name in names:
        as_typed(lobby, name)
    state = await t.state()
    named = [s.name for s in state.seats]
    assert sorted(n for n in named if n) == sorted(names)  # the game keeps the names as typed
    await t.close_steps(3)  # night 0, then the first speakers' steps
    steps = [m.text for m in t.fake.in_channel(TABLE_ID) if "<t:" in m.text]
    assert steps and all(re.search(r"<t:\d+:R>", s) for s in steps)  # the catalogs' own formatting
    speaker = (await t.state()).speaker
    assert speaker is not None
    as_typed(steps[-1], (await t.state()).seat(speaker).name or "")  # the floor names its speaker
    channel = everything(t)
    for name in names:
        as_typed(channel, name)
    mentions = t.client.allowed_mentions  # and no ping, whatever a name says
    assert mentions is not None and not (mentions.everyone or mentions.users or mentions.roles)


async def test_judge_mode_shows_the_names_the_judge_typed_as_typed(t: DiscordTable) -> None:
    """``/name`` goes into the panel (in the judge's DMs) and the result."""
    await t.slash("new")
    for seat, name in enumerate([*INLINE, *LINE_START][:10], 1):
        await t.slash("name", seat=seat, name=name)
    panel = t.panel()
    for name in [*INLINE, *LINE_START][:10]:
        as_typed(panel.text, name)


@pytest.mark.parametrize("name", [
    "<#900000000000000123>", "<@&900000000000000123>", "<:pepe:900000000000000123>",
    "</newgame:900000000000000123>", "<t:1700000000:R>", "<https://evil.example>", "a<b>c",
    "\\<#900000000000000123>", *INLINE, *LINE_START])
def test_a_name_draws_nothing_on_discord(name: str) -> None:
    """Whatever Discord would draw of a name — Markdown, a mention, a channel, a role, an emoji, a
    slash command, a timestamp — is escaped where the name enters a text (a seat's label here)."""
    import rules
    from bot.discord.text import discord_catalog
    from bot.render import player_label

    state = rules.new_game(rules.PRESETS["seed"])
    state, _ = rules.apply(state, rules.SetName(seat=3, name=name))
    text = player_label(state, 3, discord_catalog("ru"))
    as_typed(text, name)
    assert re.fullmatch(r"(?:[^<\\]|\\.)*", text), text  # every "<" escaped: no <…> form drawn


def test_telegram_takes_names_as_plain_text() -> None:
    """No parse mode on Telegram: a name is never markup there, so it goes as typed."""
    import rules
    from bot.render import player_label

    state = rules.new_game(rules.PRESETS["seed"])
    state, _ = rules.apply(state, rules.SetName(seat=3, name="<b>**Маша**</b>"))
    assert player_label(state, 3, RU) == RU.text("seat-named", n=3, name="<b>**Маша**</b>")
