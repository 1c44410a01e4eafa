"""Telegram's command menus per scope and language, over the fake Bot API, resolved as a client
resolves them (``FakeBotAPI.visible_commands``: the Bot API's "Determining list of commands"):
the judge's private chat lists the game's commands, a group's members see host mode's
``/newgame`` and the speaker's commands, its admins also what only they may do; each in the
user's language, a third language falls back to the configured one. A member's ``/new`` in a
group points to the private chat."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import catalog
from bot.telegram.app import ADMIN_MENU, GROUP_MENU, PRIVATE_MENU
from fakebot import FakeBotAPI
from support.telegram_table import bot_running, make_world

#: Commands that only a group's admins (or the table's host, or the judge in his private chat)
#: may use: never in a group member's menu.
ADMIN_ONLY = {"takeover", "stop", "unlink", "channel", "warn", "dq", "unfoul", "lang"}
#: The judge's recording commands: typed in the private chat only.
PRIVATE_ONLY = {"new", "next", "undo", "vote"}


def _names(menu: list[dict[str, str]]) -> list[str]:
    return [item["command"] for item in menu]


async def test_each_scope_and_language_has_its_menu(tmp_path: Path) -> None:
    async with FakeBotAPI() as fake:
        judge, group, (owner, *players) = make_world(fake)
        english = fake.add_user("Emma", "emma", started=True, language_code="en")
        german = fake.add_user("Hans", "hans", started=True, language_code="de")
        fake.user_joins(english, group)
        async with bot_running(fake, tmp_path / "db.sqlite3"):
            private = fake.visible_commands(judge, judge)
            assert _names(private) == list(PRIVATE_MENU)
            assert not {"newgame", "link", "takeover", "stop"} & set(_names(private))
            member = fake.visible_commands(group, players[0])
            assert _names(member) == list(GROUP_MENU)
            assert "newgame" in _names(member)  # host mode opens a table in a group
            assert "join" in _names(member)  # a tournament's hosted lobby: /join Имя (the plan's seat)
            assert not (ADMIN_ONLY | PRIVATE_ONLY) & set(_names(member))
            admin = fake.visible_commands(group, owner)
            assert _names(admin) == list(ADMIN_MENU)
            assert set(GROUP_MENU) <= set(_names(admin)) and ADMIN_ONLY <= set(_names(admin))
            assert not PRIVATE_ONLY & set(_names(admin))
            # the words: each user's language; a third language gets the configured one (ru)
            ru, en = catalog("ru"), catalog("en")
            assert dict(_pairs(private))["new"] == ru.text("tg-menu-new")
            assert dict(_pairs(fake.visible_commands(english, english)))["new"] == en.text("tg-menu-new")
            assert dict(_pairs(fake.visible_commands(group, english)))["status"] == en.text("tg-menu-group-status")
            assert dict(_pairs(fake.visible_commands(german, german)))["new"] == ru.text("tg-menu-new")
            # /status is the judge's panel in private, the game's status in a group
            assert dict(_pairs(private))["status"] != dict(_pairs(member))["status"]


def _pairs(menu: list[dict[str, str]]) -> list[tuple[str, str]]:
    return [(item["command"], item["description"]) for item in menu]


async def test_the_fake_refuses_what_the_bot_api_refuses(tmp_path: Path) -> None:
    """The fake checks a scope and a language code as Telegram does (so a typo in the bot's
    menus fails here, not in production)."""
    import aiohttp

    async with FakeBotAPI() as fake, aiohttp.ClientSession() as http:
        async def call(**params: object) -> dict[str, object]:
            async with http.post(f"{fake.base_url}{fake.token}/setMyCommands", json=params) as answer:
                return dict(await answer.json())

        command = [{"command": "new", "description": "a new game"}]
        assert (await call(commands=command, scope={"type": "all_group_chats"}, language_code="en"))["ok"]
        for bad in ({"scope": {"type": "everyone"}}, {"scope": {"type": "chat"}},
                    {"language_code": "english"}):
            answer = await call(commands=command, **bad)
            assert answer["ok"] is False and answer["error_code"] == 400, bad


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_members_new_in_a_group_points_to_the_private_chat(tmp_path: Path, lang: str) -> None:
    async with FakeBotAPI() as fake:
        judge, group, (owner, *players) = make_world(fake)
        async with bot_running(fake, tmp_path / "db.sqlite3", lang=lang) as (app, _service):
            before = len(fake.sent(group))
            fake.user_sends(players[0], group, "/new")
            await fake.wait_for(lambda: len(fake.sent(group)) > before, what="the answer")
            answer = fake.sent(group)[-1].text or ""
            assert answer == catalog(lang).text("tg-group-new", bot="@" + app.bot.username)
            assert answer != catalog(lang).text("tg-only-judge")
            assert "/newgame" in answer and "/link" in answer


async def test_a_restart_sets_no_menu_that_did_not_change(tmp_path: Path) -> None:
    """The menus stay on Telegram: the first start sets every scope in every language, a restart
    makes no ``setMyCommands`` call at all (it would delay every answer after a restart by a
    dozen calls), another language configured sets them again, and so does a lost memory of
    them (the file beside the database)."""
    from bot import published

    db = tmp_path / "db.sqlite3"
    async with FakeBotAPI() as fake:
        judge, _group, _players = make_world(fake)
        counts = []
        for lang in ("ru", "ru", "en", "en"):
            if len(counts) == 3:
                published.state_file(db, "menus").unlink()
            before = len(fake.calls_to("setMyCommands"))
            async with bot_running(fake, db, lang=lang):
                pass
            counts.append(len(fake.calls_to("setMyCommands")) - before)
        every = 4 * 3  # the four scopes, each without a language and in ru and en
        assert counts == [every, 0, every, every]
        assert _names(fake.visible_commands(judge, judge)) == list(PRIVATE_MENU)  # still shown
