"""A game command typed after the game is over (issue 29: one behaviour at every desk): the
console and the bots' judge mode decide it once (:func:`bot.judge.decide.game_for`).

The finished game takes what it still takes — a name corrected for the protocol, a penalty
recorded after the result (F24 §7.9), the judge's points (F24 §8.4) — and the next game starts
with a command its setup takes (the roles); any other command says the game is over (F24 §1.4)
and changes nothing. The same for every preset, in the console and at a bot's desk."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator, Protocol

import pytest

import rules
from bot.console import Session
from bot.i18n import Catalog, catalog
from bot.render import error_text
from bot.service import Service
from storage import Store

from test_judge_controller import HOME, RU, Desk

EN = catalog("en")


class Judge(Protocol):
    """A judge typing at a desk (``say``: the answers' lines), the service behind it, the home
    of his game and the language he reads."""

    service: Service
    home: str
    cat: Catalog

    async def say(self, line: str) -> list[str]: ...


class AtTheConsole:
    def __init__(self, store: Store) -> None:
        self.session = Session(Service(store), EN)
        self.service, self.home, self.cat = self.session.service, self.session.chat, EN

    async def say(self, line: str) -> list[str]:
        return (await self.session.handle(line)).lines


class AtTheBotsDesk:
    def __init__(self, store: Store) -> None:
        self.desk = Desk(store, group=None)
        self.service, self.home, self.cat = self.desk.service, HOME, RU

    async def say(self, line: str) -> list[str]:
        return [text for text in await self.desk.say(line) for text in text.split("\n")]


@asynccontextmanager
async def judge_at(where: str) -> AsyncIterator[Judge]:
    store = await Store.open(":memory:")
    try:
        judge: Judge = AtTheConsole(store) if where == "console" else AtTheBotsDesk(store)
        if isinstance(judge, AtTheConsole):
            await judge.session.open()
        yield judge
    finally:
        await store.close()


async def finished(judge: Judge, preset: str) -> int:
    """A game of ``preset`` whose judge declares the end (roles unknown, F24 §1.4): its id."""
    for line in (f"/new {preset}", "/roles unknown", "/start", "/result draw"):
        await judge.say(line)
    current = await judge.service.current(judge.home)
    assert current is not None and current.state.phase is rules.Phase.GAME_OVER
    return current.game_id


@pytest.mark.parametrize("where", ["console", "bot"])
@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
async def test_after_the_end_the_finished_game_takes_a_name_and_the_roles_start_the_next(
        where: str, preset: str) -> None:
    async with judge_at(where) as judge:
        over = await finished(judge, preset)
        # a name corrected after the result: the finished game's, for its protocol
        await judge.say("/name 3 Вера")
        current = await judge.service.current(judge.home)
        assert current is not None and current.game_id == over
        assert current.state.phase is rules.Phase.GAME_OVER and current.state.seat(3).name == "Вера"
        # a name another seat of the finished game has: its own reason, not a new game
        said = await judge.say("/name 4 Вера")
        assert error_text(rules.RuleError(rules.Code.NAME_TAKEN, seat=4, other=3, name="Вера"), judge.cat) in said
        current = await judge.service.current(judge.home)
        assert current is not None and current.game_id == over and current.state.seat(4).name is None
        # a command no game takes now: the finished game's words, nothing created
        said = await judge.say("/next")
        assert error_text(rules.RuleError(rules.Code.GAME_OVER), judge.cat) in said
        current = await judge.service.current(judge.home)
        assert current is not None and current.game_id == over
        # the roles: the next game's setup takes them, so the next game begins with them
        await judge.say("/roles D2 M5 M7 S8")
        current = await judge.service.current(judge.home)
        assert current is not None and current.game_id == over + 1
        assert current.state.phase is rules.Phase.SETUP and current.state.roles_known
        assert current.state.seat(2).role is rules.Role.DON


@pytest.mark.parametrize("where", ["console", "bot"])
async def test_before_any_game_a_command_the_setup_refuses_creates_nothing(where: str) -> None:
    async with judge_at(where) as judge:
        said = await judge.say("/next")
        assert said, "a refusal is answered"
        assert await judge.service.current(judge.home) is None
