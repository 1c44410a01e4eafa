"""Who may use the bot (``MAFIA_REFEREE_ALLOWED_CHATS``, :mod:`bot.access`): a listed Telegram group
is served and another one gets one answer naming its id, and nothing else (no table, no link); in
a private chat a member of a listed group (or a listed user) may start a game and a stranger may
not; a Discord command in a server that is not listed is answered with the server's id and goes
no further. Unset, everyone may."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from bot.access import Access
from bot.discord.app import build_client
from bot.i18n import catalog
from bot.service import Service
from bot.settings import Settings
from bot.telegram.app import ALLOWED_UPDATES, build_application
from fakebot import FakeBotAPI, running
from storage import Store
from support.telegram_table import make_world, settings_for


def test_the_setting_is_a_list_of_chat_keys() -> None:
    settings = Settings(_env_file=None, allowed_chats="tg:-1001234, tg:42;dc:987 ")
    assert settings.allowed == {"tg:-1001234", "tg:42", "dc:987"}
    assert Settings(_env_file=None, allowed_chats="  ").allowed == frozenset()
    assert Settings(_env_file=None).allowed == frozenset()
    for bad in ("-1001234", "tg:abc", "discord:5", "tg:1 dc:x"):
        with pytest.raises(ValidationError):
            Settings(_env_file=None, allowed_chats=bad)


async def test_a_telegram_group_not_listed_is_told_its_id_and_nothing_else(tmp_path: Path) -> None:
    async with FakeBotAPI() as fake:
        judge, club, (owner, *players) = make_world(fake)
        stranger = fake.add_user("Чужак", "stranger", started=True)
        other = fake.add_group("Другой клуб", members=[stranger], creator=owner)
        store = await Store.open(tmp_path / "db.sqlite3")
        service = Service(store)
        settings = settings_for(fake, tmp_path / "db.sqlite3").model_copy(
            update={"allowed_chats": f"tg:{club.id}"})
        app = build_application(settings, service)
        ru = catalog("ru")
        try:
            async with running(app, fake, allowed_updates=list(ALLOWED_UPDATES)):
                await app.post_init(app)

                async def answer(user: Any, chat: Any, text: str) -> str:
                    where = chat if chat is not None else user
                    before = len(fake.sent(where))
                    fake.user_sends(user, chat, text)
                    await fake.wait_for(lambda: len(fake.sent(where)) > before, what=f"the answer to {text}")
                    return fake.sent(where)[-1].text or ""

                # another group: one answer with its id, no table opened
                said = await answer(stranger, other, "/newgame")
                assert said == ru.text("access-group", chat=f"tg:{other.id}")
                assert await service.store.host_table_of(f"tg:{other.id}") is None
                # a stranger's private chat: no new game; a club member's: a new game
                said = await answer(stranger, None, "/new")
                assert said == ru.text("access-private", user=str(stranger.id))
                assert await service.current(f"tg:{stranger.id}") is None
                await answer(judge, None, "/new")
                assert await service.current(f"tg:{judge.id}") is not None
                # the listed group is served
                said = await answer(judge, club, "/link")
                assert said == ru.text("tg-linked-group", game=1)
        finally:
            await store.close()


async def test_a_discord_server_not_listed_is_refused(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, discord_token="x", db=tmp_path / "x.sqlite3", allowed_chats="dc:1")
    client = build_client(settings, sync=False)
    replies: list[str] = []

    async def reply(interaction: Any, text: str) -> None:
        replies.append(text)

    client.referee.reply = reply  # type: ignore[method-assign]

    async def guild_cat(guild_id: int | None) -> Any:
        return catalog("en")

    client.referee.guild_cat = guild_cat  # type: ignore[method-assign]
    assert await client.tree.interaction_check(SimpleNamespace(guild_id=1)) is True
    assert await client.tree.interaction_check(SimpleNamespace(guild_id=None)) is True  # the judge's DMs
    assert replies == []
    assert await client.tree.interaction_check(SimpleNamespace(guild_id=2)) is False
    assert replies == [catalog("en").text("access-server", server="dc:2")]
    await client.close()


async def test_unset_everyone_may() -> None:
    access = Access(())
    assert access.everyone and access.chat("tg:-5") and access.chat("dc:9")

    async def never(group: str, user: str) -> bool:
        raise AssertionError("no look-up when everyone may")

    assert await access.may_start("tg:7", never)
