"""One judge's table on either platform, behind the same few verbs (no tests here).

The full-game script of ``tests/test_judge_game.py`` runs on both transports through these
adapters: the judge presses his panel's buttons and types commands, the announcements go to the
table's public place, the private notices to the judge. Each adapter drives the real client —
the PTB Application against the fake Bot API, discord.py against the fake Discord — and waits
until the bot has handled each update.

================  ==================================  ===================================
                  Telegram                            Discord
================  ==================================  ===================================
the game's home   the judge's private chat            the table's text channel
the panel         the judge's private chat            the judge's direct messages
announcements     the group linked with /link         the table's channel
the club          —                                   the channel linked with /link
a command         ``/foul 4 4.1.3`` typed             ``/foul seat:4 reason:4.1.3``
================  ==================================  ===================================
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Protocol

import rules
from bot.service import Service
from fakebot import FakeBotAPI
from support import discord_table, telegram_table

PLATFORMS = ("telegram", "discord")
NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")


@dataclass(frozen=True)
class PostedProtocol:
    """A protocol the bot posted: where, and its files by name (bytes)."""

    place: str
    files: dict[str, bytes]


class Judging(Protocol):
    platform: str
    has_club: bool  # a club channel is linked and gets the result
    protocol_places: int  # how many places get the protocol at the end
    service: Service
    home: str

    async def command(self, name: str, /, **options: Any) -> str: ...
    async def press(self, label: str) -> None: ...
    async def link(self) -> None: ...
    def public(self) -> list[str]: ...
    def table_lines(self) -> list[str]: ...  # what the table reads now: each message as it stands
    def club(self) -> list[str]: ...
    def private(self) -> list[str]: ...  # every version of every message the judge was shown
    def panel_text(self) -> str: ...
    def panel_buttons(self) -> list[str]: ...
    def announcement_posts(self) -> int: ...
    def judge_posts(self) -> int: ...
    def protocols(self) -> list[PostedProtocol]: ...
    async def state(self) -> rules.GameState: ...


class TelegramJudging:
    platform = "telegram"
    has_club = False
    protocol_places = 2  # the judge's private chat and the group (issue 14)

    def __init__(self, table: telegram_table.Table) -> None:
        self.t = table
        self.service = table.service
        self.home = f"tg:{table.judge.id}"

    async def command(self, name: str, /, **options: Any) -> str:
        """``/name v1 v2 …`` typed in the judge's private chat, the options' values in order."""
        before = len(self.t.fake.sent(self.t.judge))
        await self.t.say(" ".join([f"/{name}", *(str(v) for v in options.values())]))
        return "\n".join(m.texts[-1] or "" for m in self.t.fake.sent(self.t.judge)[before:])

    async def press(self, label: str) -> None:
        await self.t.press(label)

    async def link(self) -> None:
        await self.t.say("/link", chat=self.t.group)

    def public(self) -> list[str]:
        return self.t.public()

    def table_lines(self) -> list[str]:
        """Every line of the group's messages as they stand now (an edit replaces its text)."""
        return [line for m in self.t.fake.sent(self.t.group) if m.texts and m.texts[-1]
                for line in m.texts[-1].splitlines()]

    def club(self) -> list[str]:
        return []

    def private(self) -> list[str]:
        return self.t.private()

    def panel_text(self) -> str:
        return self.t.panel().text or ""

    def panel_buttons(self) -> list[str]:
        return [b.get("text", "") for b in self.t.panel().buttons]

    def _notices(self, chat: int) -> int:  # sendMessage without a keyboard: not a panel
        return sum(1 for c in self.t.fake.calls_to("sendMessage")
                   if c.params.get("chat_id") == chat and "reply_markup" not in c.params)

    def announcement_posts(self) -> int:
        return self._notices(self.t.group.id)

    def judge_posts(self) -> int:
        return self._notices(self.t.judge.id)

    def protocols(self) -> list[PostedProtocol]:
        """The protocols whose files have all arrived (the picture, then the documents; our
        JSON the first of them): by chat, the files by name."""
        posted = []
        for chat in (self.t.judge, self.t.group):
            files: dict[str, bytes] = {}
            for m in self.t.fake.sent(chat):
                for meta in ([m.photo[-1]] if m.photo else []) + ([m.document] if m.document else []):
                    stored = self.t.fake.files[meta["file_id"]]
                    files[stored.file_name or meta.get("file_name") or "?"] = stored.data or b""
            if any(name.endswith(".json") for name in files):
                posted.append(PostedProtocol(str(chat.id), files))
        return posted

    async def state(self) -> rules.GameState:
        return await self.t.state()


class DiscordJudging:
    platform = "discord"
    has_club = True
    protocol_places = 3  # the table's channel, the club's and the judge's direct messages

    def __init__(self, table: discord_table.DiscordTable) -> None:
        self.t = table
        self.service = table.service
        self.home = table.home

    async def command(self, name: str, /, **options: Any) -> str:
        return await self.t.slash(name, **options)

    async def press(self, label: str) -> None:
        await self.t.press(label)

    async def link(self) -> None:
        answer = await self.t.slash("link", channel=discord_table.CLUB_ID)
        assert "Итоги этой игры пойдут ещё и в" in answer

    def public(self) -> list[str]:
        return self.t.public()

    def table_lines(self) -> list[str]:
        """Every line of the table channel's messages as they stand now (an edit replaces its
        text; a deleted message is gone)."""
        return [line for m in self.t.fake.in_channel(discord_table.TABLE_ID, deleted=False)
                if m.texts and m.texts[-1] for line in m.texts[-1].splitlines()]

    def club(self) -> list[str]:
        return self.t.public(discord_table.CLUB_ID)

    def private(self) -> list[str]:
        """Every version of every message in the judge's DMs, the panel's embed included: what
        he has read there (an action's notices come on the panel)."""
        return self.t.read()

    def panel_text(self) -> str:
        return self.t.panel().text

    def panel_buttons(self) -> list[str]:
        return [b.get("label", "") for b in self.t.panel().buttons]

    def _notices(self, channel: int) -> int:  # messages without an embed: not a panel
        return sum(1 for m in self.t.fake.in_channel(channel) if not m.versions[0].embeds)

    def announcement_posts(self) -> int:
        return self._notices(discord_table.TABLE_ID)

    def judge_posts(self) -> int:
        return self._notices(self.t.fake.dms[int(self.t.judge["id"])])

    def protocols(self) -> list[PostedProtocol]:
        judge = self.t.fake.dms.get(int(self.t.judge["id"]), -1)
        return [PostedProtocol(str(channel), dict(m.files))
                for channel in (discord_table.TABLE_ID, discord_table.CLUB_ID, judge)
                for m in self.t.fake.in_channel(channel) if m.files]

    async def state(self) -> rules.GameState:
        return await self.t.state()


@asynccontextmanager
async def judging(platform: str, db: Path) -> AsyncIterator[Judging]:
    """A running judge-mode bot on ``platform`` (one of :data:`PLATFORMS`) over its own store
    at ``db``, against the platform's fake on 127.0.0.1."""
    if platform == "telegram":
        async with FakeBotAPI() as fake, telegram_table.table(fake, db) as tg:
            yield TelegramJudging(tg)
    else:
        async with discord_table.table(db, protocol=True) as dc:
            yield DiscordJudging(dc)


async def nexts(t: Judging, count: int) -> None:
    for _ in range(count):
        await t.press("Далее ▶")


async def foul(t: Judging, seat: int, code: str) -> None:
    """Фол ▸ → the seat → the reason (seed 4.1)."""
    await t.press("Фол ▸")
    await t.press(str(seat))
    await t.press(code)


async def nominate(t: Judging, target: int) -> None:
    await t.press("Выставить ▸")
    await t.press(str(target))


async def setup_club_game(t: Judging, **new: str) -> None:
    """/new (``new``: its options, e.g. ``preset="seed"``), the names typed, the public place
    linked, the roles by the picker: Don 2, mafia 5 and 7, Sheriff 8 (R1.1), then night 0 and
    the morning of day 1."""
    assert "№1" in await t.command("new", **new)  # the game's number, as the protocol will name it
    for seat, name in enumerate(NAMES, 1):
        await t.command("name", seat=seat, name=name)
    await t.link()
    await t.press("Роли ▸")
    for seat in ("2", "5", "7", "8"):
        await t.press(seat)
    await t.press("Принято ✓")
    state = await t.state()
    assert [state.seat(n).role.value for n in (2, 5, 7, 8)] == ["don", "mafia", "mafia", "sheriff"]
    await t.press("Начать игру ▶")
    await t.press("Далее ▶ (утро)")
    assert (await t.state()).speaker == 1  # F24 §4.3.2: seat 1 opens day 1
