"""Names escaped everywhere (issue 32): every place a user-chosen name reaches a message goes
through the platform's escaping — on Discord, which reads a message as Markdown, a name of
Markdown, HTML or a mention is shown as typed (:mod:`bot.discord.text`); on Telegram no message
the bot sends has a parse mode, so a name arrives verbatim. Names of each kind go through every
announcement that carries one: the seat's name set (the table's channel, the judge's panel and
reply), a name refused as taken, the audit trail (``/log all``), the result and the protocol's
caption (the table and the club's channel), a hosted table's lobby, steps, cards, the stop.
(``tests/test_discord_names.py``: the lobby and the panel, and each form Discord draws.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, AsyncIterator

import discord
import pytest

from bot.i18n import catalog
from fakebot import FakeBotAPI
from rules import Phase
from support.discord_table import CLUB_ID, TABLE_ID, DiscordTable
from support.discord_table import table as discord_table
from support.telegram_table import Table, table

RU = catalog("ru")
#: ten names, one a seat: Markdown (bold, a masked link, a spoiler, italics, code), HTML (a tag,
#: a link), mentions (everyone, a member, a Telegram username) and a heading
NAMES = ("**Маша**", "[клик](https://evil.example/x)", "||спойлер||", "_курсив_", "`код`",
         "<b>Жирный</b>", '<a href="https://evil.example">ссылка</a>', "@everyone",
         "<@900000000000000123>", "# Заголовок")
TAKEN = NAMES[1]  # typed again for another seat: refused, the refusal names it
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)


# --- Discord ---------------------------------------------------------------------------------------

def shown(text: str) -> str:
    """What Discord shows of a text's escapes: a backslash before a punctuation mark is dropped,
    and so is the zero-width space that breaks a mention."""
    return re.sub(r"\\([^\w\s]|_)", r"\1", text).replace("\u200b", "")


def raw_names(text: str) -> list[str]:
    """The names in ``text`` as typed, unescaped: Discord would draw their Markdown, tag or
    mention (a heading: a line that starts with one)."""
    found = [n for n in (*NAMES, "**Даша**") if n != "# Заголовок"
             and re.search(r"(?<!\\)" + re.escape(n), text)]
    found += [line for line in text.splitlines() if line.startswith("# Заголовок")]
    return found


def discord_texts(t: DiscordTable) -> list[str]:
    """Every version of everything the bot wrote: messages (their embeds too) in every channel
    and DM, and its answers to commands and presses."""
    out: list[str] = []
    for message in t.fake.messages.values():
        if message.author["id"] != t.fake.bot["id"]:
            continue
        for version in message.versions:
            out.append(version.content or "")
            for embed in version.embeds:
                out.extend(str(embed.get(k) or "") for k in ("title", "description"))
                out.extend(str(f.get("value") or "") for f in embed.get("fields") or [])
    out.extend(r.content or "" for r in t.fake.replies)
    return [x for x in out if x]


def channel(t: DiscordTable, channel_id: int) -> str:
    return "\n".join(v.content for m in t.fake.in_channel(channel_id) for v in m.versions if v.content)


@pytest.fixture
async def d(tmp_path: Path) -> AsyncIterator[DiscordTable]:
    async with discord_table(tmp_path / "referee.sqlite3", timer_scale=1000.0) as running:
        yield running


async def test_discord_judge_mode_escapes_the_names_in_every_announcement(d: DiscordTable) -> None:
    await d.slash("new")
    await d.slash("link", channel=CLUB_ID)
    for seat, name in enumerate(NAMES, 1):
        await d.slash("name", seat=seat, name=name)
    table_channel = channel(d, TABLE_ID)
    for seat, name in enumerate(NAMES, 1):  # «Место №N: name.» in the table's channel
        assert RU.text("notice-name_set", seat=f"№{seat}", name=name) in shown(table_channel), name
    fixed = await d.slash("fix", action=1, command="/name 1 **Даша**")  # a correction's texts
    dm = d.fake.dms[int(d.judge["id"])]
    assert any("**Даша**" in shown(x) and "\\*" in x for x in discord_texts(d)), fixed
    refused = await d.slash("name", seat=9, name=TAKEN)
    assert TAKEN in shown(refused) and "места 2" in refused, refused
    assert "личные сообщения" in await d.slash("log", scope="all")
    log = d.fake.in_channel(dm)[-1].now.content
    for name in NAMES:
        assert name in shown(log), (name, log)
    await d.slash("roles", roles="D2 M5 M7 S8")
    await d.slash("start")
    await d.slash("next")
    await d.slash("ppk", seat=7)
    assert (await d.state()).phase is Phase.GAME_OVER
    await d.settle()
    panel = shown(d.panel().text)  # the judge's panel at the end: who left, by name
    assert f"№7 {NAMES[6]}" in panel, panel[-600:]
    leaks = [(x[:80], raw_names(x)) for x in discord_texts(d) if raw_names(x)]
    assert leaks == [], "\n".join(map(repr, leaks))


async def test_discord_host_mode_escapes_the_names_in_every_announcement(tmp_path: Path) -> None:
    """The players' display names: the lobby, the seats, the cards in their DMs (which name the
    table's channel, ``#_стол_мафии_``: italics if read as Markdown), the steps, the stop."""
    from support.discord_table import FakeDiscord

    fake = FakeDiscord()
    fake.add_channel(TABLE_ID, TITLE)
    async with discord_table(tmp_path / "referee.sqlite3", fake=fake, timer_scale=1000.0) as d:
        await hosted_game(d)


TITLE = "_стол_мафии_"


async def hosted_game(d: DiscordTable) -> None:
    for player, name in zip(d.players, NAMES):
        player["global_name"] = name
    d.app_permissions = HOST_RIGHTS
    await d.slash("newgame", options="seed seats=join")
    join = RU.text("host-btn-join")
    for player in d.players:
        lobby = [m for m in d.fake.in_channel(TABLE_ID, deleted=False) if m.button(join)][-1]
        await d.press(join, actor=player, message=lobby)
    await d.close_steps(3)  # night 0, then the first speakers' steps
    await d.slash("stop")
    text = shown(channel(d, TABLE_ID))
    assert all(name in text for name in NAMES), text[-600:]
    cards = [x for x in discord_texts(d) if "🎭" in x]
    assert len(cards) == 10 and all(f"#{TITLE}" in shown(x) for x in cards), cards[:1]
    assert not [x for x in cards if re.search(r"(?<!\\)" + re.escape(TITLE), x)], cards[:1]
    leaks = [(x[:80], raw_names(x)) for x in discord_texts(d) if raw_names(x)]
    assert leaks == [], "\n".join(map(repr, leaks))


# --- Telegram --------------------------------------------------------------------------------------

def telegram_texts(t: Table) -> list[str]:
    out: list[str] = []
    for message in t.fake.sent():
        out.extend(x for x in message.texts if x)
        if message.caption:
            out.append(message.caption)
    return out


def no_parse_mode(t: Table) -> None:
    """No call the bot made asked Telegram to parse its text: every name went as typed."""
    assert [c for c in t.fake.calls if "parse_mode" in c.params] == []


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running:
        yield running


@pytest.mark.usefixtures("ptb_timedelta")
async def test_telegram_judge_mode_sends_the_names_verbatim_in_every_announcement(t: Table) -> None:
    await t.say("/new")
    await t.say("/link", chat=t.group)
    for seat, name in enumerate(NAMES, 1):
        await t.say(f"/name {seat} {name}")
    group = "\n".join(t.public())
    for seat, name in enumerate(NAMES, 1):
        assert RU.text("notice-name_set", seat=f"№{seat}", name=name) in group, name
    await t.say(f"/name 9 {TAKEN}")
    assert TAKEN in t.private()[-1] and "места 2" in t.private()[-1]
    await t.say("/log all")
    log = "\n".join(t.private()[-3:])
    assert all(name in log for name in NAMES), log
    await t.say("/roles D2 M5 M7 S8")
    await t.say("/start")
    await t.say("/next")
    await t.say("/ppk 7 4.3.1")
    assert (await t.state()).phase is Phase.GAME_OVER
    panel = t.panel().text or ""  # the judge's panel at the end: who left, by name
    assert f"№7 {NAMES[6]}" in panel, panel[-600:]
    no_parse_mode(t)


@pytest.mark.usefixtures("ptb_timedelta")
async def test_telegram_host_mode_sends_the_names_verbatim(fake: FakeBotAPI, tmp_path: Path) -> None:
    from support.host_table import host_table, make_world

    world = make_world(fake)
    for player, name in zip(world.players, NAMES):
        fake.rename_user(player, name)
    async with host_table(fake, tmp_path / "referee.sqlite3", world=world) as h:
        await h.say(h.owner, "/newgame seats=join")
        for player in h.players:
            await h.press(player, h.lobby(), "Записаться")
        await h.wait_step("night_zero")
        lobby = "\n".join(h.group_texts())
        assert all(name in lobby for name in NAMES), lobby[-800:]
        for player in h.players:  # his card names his seat: his name as typed
            assert any(h.seat(player) and f"№{h.seat(player)}" in x for x in h.private_texts(player))
        await h.say(h.owner, "/stop")
    no_parse_mode(h)  # type: ignore[arg-type]
