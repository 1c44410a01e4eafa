"""Who may act in Discord, and what the bot may do.

The game's judge acts; a member with Manage Channels may take the game over, explicitly; anyone
else gets an ephemeral refusal and changes nothing. Stale and repeated presses change nothing.
The rights the bot lacks in a channel are reported when the game is created."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.i18n import catalog
from support.discord_table import BOT_RIGHTS, CLUB_ID, EPHEMERAL_CHANNEL, MANAGE_CHANNELS, TABLE_ID, DiscordTable, table

RU = catalog("ru")


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        yield running_table


async def started(t: DiscordTable) -> None:
    await t.slash("new")
    await t.slash("roles", roles="D2 M5 M7 S8")
    await t.press("Начать игру ▶")
    await t.press("Далее ▶ (утро)")


async def log_length(t: DiscordTable) -> int:
    return len(await t.service.events(t.home))


async def test_a_non_judge_press_is_refused_and_changes_nothing(t: DiscordTable) -> None:
    """A player who presses a button of the game (as Discord would deliver it, the same
    custom_id) is told ephemerally that only the judge may; the log, the panel and the channel
    stay as they were."""
    await started(t)
    panel = t.panel()

    def posted() -> int:  # messages anyone but the presser can see
        return sum(1 for m in t.fake.messages.values() if m.channel_id != EPHEMERAL_CHANNEL)

    before = (await log_length(t), posted(), len(panel.versions))
    player = t.players[0]
    answer = await t.press("Далее ▶", actor=player)
    assert answer == RU.text("judge-press-not-judge")
    reply = t.fake.replies[-1]
    assert reply.ephemeral and reply.user == int(player["id"]) and reply.kind == "message"
    assert (await log_length(t), posted(), len(panel.versions)) == before
    assert (await t.state()).speaker == 1


async def test_a_non_judge_command_is_refused_and_changes_nothing(t: DiscordTable) -> None:
    await started(t)
    before = (await log_length(t), len(t.public()))
    answer = await t.slash("foul", actor=t.players[2], seat=4)
    assert answer.startswith("Это может только судья этой игры (<@")
    assert "/takeover" in answer
    assert all(r.ephemeral for r in t.fake.replies if r.user == int(t.players[2]["id"]) and r.content)
    assert (await log_length(t), len(t.public())) == before
    # nor may he start another game over it
    answer = await t.slash("new", actor=t.players[2])
    assert "незаконченная игра №1" in answer
    assert (await t.service.current(t.home)).game_id == 1


async def test_stale_and_repeated_presses_change_nothing(t: DiscordTable) -> None:
    """A button carries the revision it was drawn at: a press of an older panel, or the same
    button pressed twice before the panel moved, is "outdated" — and the panel is refreshed."""
    await started(t)
    old = t.panel()
    old_next = old.button("Далее ▶")["custom_id"]
    old_foul = old.button("Фол ▸")["custom_id"]  # the panel is edited in place: its buttons change
    await t.press("Далее ▶")  # #1's speech ends
    assert (await t.state()).speaker == 2
    length = await log_length(t)
    # the old panel pressed again (its message as the judge's client still shows it)
    answer = await t.press("", custom_id=old_next, message=old)
    assert answer == RU.text("judge-press-outdated")
    assert t.fake.replies[-1].ephemeral
    assert await log_length(t) == length and (await t.state()).speaker == 2
    # a double tap delivered after the panel moved on: the button is no longer on the message
    answer = await t.press("", custom_id=old_next, message=t.panel())
    assert answer == RU.text("judge-press-outdated")
    assert await log_length(t) == length and (await t.state()).speaker == 2
    # a view's stale press changes nothing either
    answer = await t.press("", custom_id=old_foul, message=old)
    assert answer == RU.text("judge-press-outdated") and await log_length(t) == length
    # a button of the panel's shape that no panel made (no such game; a seat that is not a
    # number): nothing changes and nothing claims to be refreshed
    now = await t.service.current(t.home)
    for forged in ("99:1:n", f"{now.game_id}:{now.revision}:nm:abc"):
        answer = await t.press("", custom_id=forged, message=t.panel())
        assert answer == RU.text("judge-press-unknown") and await log_length(t) == length


async def test_a_take_over_by_a_member_with_manage_channels(t: DiscordTable) -> None:
    await started(t)
    old_panel = t.panel()
    old_next = old_panel.button("Далее ▶")["custom_id"]
    # a member without the right is refused
    answer = await t.slash("takeover", actor=t.players[0])
    assert answer == "Забрать игру может только участник с правом «Управлять каналами»."
    assert (await t.service.current(t.home)).judge == f"dc:{t.judge['id']}"
    # an admin takes it, explicitly
    answer = await t.slash("takeover", actor=t.admin, perms=MANAGE_CHANNELS)
    assert answer == "Теперь вы судите игру №1: панель — в ваших личных сообщениях."
    current = await t.service.current(t.home)
    assert current.judge == f"dc:{t.admin['id']}"
    assert any("Игру №1 теперь ведёт судья <@" in x for x in t.public())
    assert any("теперь судит <@" in x for x in t.dm())  # the old judge is told
    assert t.fake.messages[old_panel.id].now.components == []  # his panel stopped
    # the old judge's press (his panel's custom_id) is refused
    answer = await t.press("", actor=t.judge, custom_id=old_next,
                           message=old_panel)
    assert answer == RU.text("judge-press-not-judge")
    assert (await t.state()).speaker == 1
    # the new judge's panel works
    await t.press("Далее ▶", actor=t.admin, message=t.panel(t.admin))
    assert (await t.state()).speaker == 2
    # and the old judge's commands are refused now
    assert "Это может только судья" in await t.slash("next")


async def test_missing_rights_are_reported_when_the_game_is_created(t: DiscordTable) -> None:
    t.app_permissions = discord.Permissions(view_channel=True, send_messages=True)
    answer = await t.slash("new")
    assert "Игра №1 создана" in answer
    assert "«Прикреплять файлы»" in answer and "«Отправлять участников подумать" in answer
    assert "«Отправлять сообщения»" not in answer
    t.app_permissions = BOT_RIGHTS
    assert "не хватает" not in await t.slash("new")


async def test_closed_direct_messages_are_reported(t: DiscordTable) -> None:
    t.fake.closed_dms.add(int(t.judge["id"]))
    answer = await t.slash("new")
    assert "не могу написать вам в личные сообщения" in answer and "/panel" in answer
    t.fake.closed_dms.clear()
    assert await t.slash("panel") == "Панель судьи — в ваших личных сообщениях."
    assert t.panel().button("Начать игру ▶")


async def test_a_club_channel_the_bot_cannot_post_in_is_not_linked(t: DiscordTable) -> None:
    await t.slash("new")
    t.fake.no_post.add(CLUB_ID)
    answer = await t.slash("link", channel=CLUB_ID)
    assert answer.startswith("Я не могу писать в <#") and "Ничего не привязано" in answer
    assert await t.service.announce(1) is None
    t.fake.no_post.clear()
    assert "Итоги этой игры пойдут" in await t.slash("link", channel=CLUB_ID)
    assert await t.service.announce(1) == f"dc:{CLUB_ID}"
    assert "Канал клуба отвязан" in await t.slash("unlink")
    assert await t.service.announce(1) is None
    assert "Это может только судья" in await t.slash("link", actor=t.players[1], channel=CLUB_ID)


async def test_the_server_language(t: DiscordTable) -> None:
    await t.slash("new")
    assert "судья игры или участник с правом" in await t.slash("lang", actor=t.players[0], lang="en")
    assert await t.slash("lang", lang="en") == "Language: English."
    await t.slash("roles", roles="D2 M5 M7 S8")
    await t.press("Start the game ▶")
    assert t.public()[-1].startswith("The game begins")
    assert "Game #1" in t.panel().text
    # a member with Manage Server may switch it back
    answer = await t.slash("lang", actor=t.admin, perms=discord.Permissions(manage_guild=True), lang="ru")
    assert answer == "Язык: русский."


async def test_status_for_anyone_keeps_roles_hidden(t: DiscordTable) -> None:
    await started(t)
    answer = await t.slash("status", actor=t.players[3])
    assert "Говорит игрок №1" in answer
    for word in ("Дон", "мафия", "Шериф"):
        assert word not in answer
    assert "Это может только судья" not in answer
    # the judge's /status is his panel, afresh
    assert await t.slash("status") == "Панель судьи — в ваших личных сообщениях."
    # a player's /log has only public notices
    log = await t.slash("log", actor=t.players[3])
    assert "Игра начинается" in log and "Роли внесены" not in log
    assert await t.slash("log") == "Отправлено вам в личные сообщения."
    assert "Роли внесены" in "\n".join(t.dm())


async def test_commands_outside_the_game_channel_act_on_that_channel(t: DiscordTable) -> None:
    """One game per text channel: the club channel has none of its own."""
    await t.slash("new")
    answer = await t.slash("next", where=CLUB_ID)
    assert answer.startswith("Сейчас нельзя перейти дальше") and "/start" in answer  # in setup
    assert await t.service.current(f"dc:{CLUB_ID}") is None
    assert (await t.service.current(f"dc:{TABLE_ID}")).revision == 0
    assert await t.slash("panel", where=CLUB_ID) == RU.text("service-no_game")


async def test_a_new_game_over_an_unfinished_one_asks_for_a_second_new(t: DiscordTable) -> None:
    """As in the console: the first /new over an unfinished game only asks; a second, right
    after, shelves it (recorded as abandoned) and starts game #2; the old panel stops."""
    await started(t)
    old_panel = t.panel()
    answer = await t.slash("new")
    assert answer == RU.text("console-new-confirm", game=1)
    assert (await t.service.current(t.home)).game_id == 1
    await t.slash("status")  # another command in between: the question lapses
    assert await t.slash("new") == RU.text("console-new-confirm", game=1)
    assert "Игра №2 создана" in await t.slash("new")
    assert (await t.service.current(t.home)).game_id == 2
    assert (await t.service.store.game(1)).result == "abandoned"
    assert t.fake.messages[old_panel.id].now.components == [] or t.fake.messages[old_panel.id].deleted


async def test_a_press_that_fails_before_the_controller_is_answered(
        t: DiscordTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: what escapes a press before the controller has it (here the store cannot read
    the game the button names) is answered ephemerally — an internal error, nothing done — not
    left to Discord's "This interaction failed"; the next press works as before."""
    await started(t)
    length = await log_length(t)
    game = t.service.store.game

    async def unreadable(game_id: int) -> object:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(t.service.store, "game", unreadable)
    before = len(t.fake.replies)
    answer = await t.press("Далее ▶")
    assert answer == RU.text("error-internal")
    assert [r.ephemeral for r in t.fake.replies[before:]] == [True]
    assert await log_length(t) == length and (await t.state()).speaker == 1
    monkeypatch.setattr(t.service.store, "game", game)
    await t.press("Далее ▶")
    assert (await t.state()).speaker == 2
