"""Issue 31, item 4: a club's own rules. The preset and options a club's new games start with —
stored for the club (migration 0015, ``Service.set_club_rules``) or, for every club without its
own, the setting ``MAFIA_REFEREE_RULES`` — are what ``/new`` (the console, the judge's assistant
on Telegram and Discord) and ``/newgame`` (host mode) start with; what is typed goes over them:
options replace the club's options of the same name, a preset typed starts from that preset
alone. Words that ``/new`` would refuse are refused when they are set, and nothing is stored."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import rules
from bot.club.defaults import merged
from bot.commands import CommandError
from bot.console import CHAT, Session
from bot.i18n import catalog
from bot.service import Service
from storage import Store

FIIM_45 = "fiim2024 raise_2_of_4=false timers.speech=45"


def test_typed_words_go_over_the_clubs() -> None:
    club = FIIM_45.split()
    assert merged(club, []) == club
    assert merged(club, ["timers.speech=30"]) == ["fiim2024", "raise_2_of_4=false", "timers.speech=30"]
    assert merged(club, ["fsm2024"]) == ["fsm2024"]  # a preset typed: that preset alone
    assert merged(club, ["seed", "raise_vote=no"]) == ["seed", "raise_vote=no"]
    assert merged([], ["fiim2024"]) == ["fiim2024"]
    # a hosted table's short name of a rules option replaces the club's option
    assert merged(["timers.shooting=15"], ["shooting=25", "seats=shuffle"]) == ["shooting=25", "seats=shuffle"]


async def test_the_clubs_own_rules_are_stored_per_club_and_checked(any_store: Store) -> None:
    service = Service(any_store)
    assert await service.club_rules("tg:-1001") is None
    set_to = await service.set_club_rules("tg:-1001", "  fiim2024   raise_2_of_4=false\ttimers.speech=45 ",
                                          by="tg:7")
    assert set_to is not None and set_to.own and set_to.words == FIIM_45
    config = set_to.config()
    assert config.preset == "fiim2024" and not config.raise_2_of_4 and config.timers.speech == 45
    assert await any_store.club_rules("tg:-1001") == FIIM_45
    assert await service.club_rules("tg:-1002") is None  # another club: its own (none)
    for bad in ("fiim2025", "fiim2024 no_such_option=1", "timers.speech=9999", "raise_vote=maybe"):
        with pytest.raises(CommandError):
            await service.set_club_rules("tg:-1001", bad)
        assert await any_store.club_rules("tg:-1001") == FIIM_45  # nothing stored
    assert await service.set_club_rules("tg:-1001", "") is None  # forgotten: the seed preset
    assert await any_store.club_rules("tg:-1001") is None


async def test_the_setting_serves_every_club_without_its_own(store: Store) -> None:
    service = Service(store, club_rules="fsm2024 timers.speech=50")
    fallback = await service.club_rules("tg:-1")
    assert fallback is not None and not fallback.own and fallback.config().preset == "fsm2024"
    await service.set_club_rules("tg:-2", "fiim2024")
    own = await service.club_rules("tg:-2")
    assert own is not None and own.own and own.config().preset == "fiim2024"
    with pytest.raises(CommandError):
        Service(store, club_rules="nonsense=1")


async def _console(store: Store, line: str) -> rules.RulesConfig:
    session = Session(Service(store), catalog("en"))
    await session.open()
    reply = await session.handle(line)
    assert reply.accepted, reply
    current = await session.service.current(CHAT)
    assert current is not None
    return current.state.config


async def test_the_consoles_new_starts_the_clubs_game_with_what_is_typed_over_it(store: Store) -> None:
    await Service(store).set_club_rules(CHAT, FIIM_45)
    config = await _console(store, "/new")
    assert (config.preset, config.raise_2_of_4, config.timers.speech) == ("fiim2024", False, 45)
    config = await _console(store, "/new timers.speech=30")
    assert (config.preset, config.raise_2_of_4, config.timers.speech) == ("fiim2024", False, 30)
    config = await _console(store, "/new fsm2024")
    assert config == rules.PRESETS["fsm2024"]
    config = await _console(store, "/new seed")
    assert config == rules.PRESETS["seed"]


async def test_the_first_game_command_starts_the_clubs_game_too(store: Store) -> None:
    await Service(store).set_club_rules(CHAT, "fiim2024 timers.speech=40")
    config = await _console(store, "/name 1 Аня")
    assert config.preset == "fiim2024" and config.timers.speech == 40


def test_the_setting_reaches_the_console_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    env |= {"MAFIA_REFEREE_RULES": "fsm2024 timers.speech=50", "MAFIA_REFEREE_LANG": "en"}
    db = tmp_path / "referee.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db), "--new", "--strict"],
                          input="/status\n", capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    import asyncio

    async def config() -> dict[str, object]:
        store = await Store.open(db)
        try:
            row = await store.current_game(CHAT)
            assert row is not None
            return row.config
        finally:
            await store.close()

    stored = rules.config_from_dict(asyncio.run(config()))
    assert stored.preset == "fsm2024" and stored.timers.speech == 50
    env["MAFIA_REFEREE_RULES"] = "fsm2024 timers.speech=zero"
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db)], input="",
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith(catalog("en").text("cli-bad-setting", name="MAFIA_REFEREE_RULES",
                                                     problem="").split(":")[0])
    assert "Traceback" not in done.stderr


async def test_the_judges_new_starts_the_clubs_game_of_his_linked_group() -> None:
    """Judge mode (Telegram, Discord: one controller): the club of a judge's ``/new`` is the
    group his game is linked to (a new game keeps the link), else his own chat."""
    from test_judge_controller import GROUP, HOME, desk

    async with desk() as d:
        await d.service.set_club_rules(HOME, "fsm2024")
        await d.say("/new")
        assert (await d.state()).config.preset == "fsm2024"
        current = await d.service.current(HOME)
        assert current is not None
        await d.service.store.set_announce(current.game_id, GROUP)  # /link in the club's group
        await d.service.set_club_rules(GROUP, FIIM_45)
        await d.say("/new")
        config = (await d.state()).config
        assert (config.preset, config.raise_2_of_4, config.timers.speech) == ("fiim2024", False, 45)
        await d.say("/new")
        await d.say("/new timers.speech=30")
        assert (await d.state()).config.timers.speech == 30
        assert (await d.state()).config.preset == "fiim2024"


async def test_a_hosted_tables_newgame_starts_the_groups_game() -> None:
    from support.fake_host import GROUP, HOST, table

    async with table() as t:
        await t.service.set_club_rules(GROUP, "fiim2024 timers.speech=45 timers.shooting=15")
        assert await t.command(HOST, "/newgame seats=shuffle shooting=25") == []
        config = t.table().spec.config
        assert (config.preset, config.timers.speech, config.timers.shooting) == ("fiim2024", 45, 25)
        assert t.table().spec.options.seating == "shuffle"
