"""Host mode over the in-memory platform (:mod:`support.fakeport`), as the controller's tests
drive it: a :class:`Table` with its host and ten players, acting and reading the chats; time
moves only when a test says so (:class:`support.fakeport.FakeClock`)."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import rules
from bot.commands import Part, Place
from bot.front import Entry, Front
from bot.host.controller import Defaults, HostController
from bot.host.port import Player, Rights
from bot.i18n import catalog
from bot.locks import ChatLocks
from bot.service import Service
from storage import Store
from support.fakeport import Chats, FakeClock, FakeHostPort, Press

RU = catalog("ru")
GROUP = "fk:-100"
HOST = Player("fk:1", "Ведущий")
PLAYERS = [Player(f"fk:{100 + n}", name) for n, name in enumerate(
    ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл"), 1)]
# Roles never shown in the group before the end (F24 §4.4.13, §4.5.4).
SECRETS = ("ваша роль", "Дон — №", "мафия — №", "Шериф — №", "Чёрные за столом", ": Шериф.",
           "не Шериф", "чёрный.", "красный.")


class Table:
    """One hosted table over the fakes; ``restart()`` builds a new controller (a new process)
    over the same store and chats. Every call waits until what it sent in the background has
    arrived."""

    def __init__(self, store: Store, rights: Rights) -> None:
        self.store = store
        self.clock = FakeClock()
        self.chats = Chats(self.clock)
        self.service = Service(store)
        self.port = FakeHostPort(self.chats, self.clock, lambda: store, rights=rights)
        self.host = self._controller()

    def _controller(self) -> HostController:
        return HostController(lambda: self.service, self.port, ChatLocks(), Defaults(seed=7))

    async def restart(self) -> None:
        self.clock.cancel_all()
        self.service = Service(self.store)
        self.host = self._controller()
        await self.host.load_open()
        await self.host.resume_all()

    async def command(self, who: Player, text: str) -> list[str]:
        name = text.split()[0].lstrip("/")
        answer = await self.host.command(GROUP, who, name, text, None, title="Клуб")
        await self.port.outbox.settle()  # what it sent in the background has arrived
        return answer

    async def enter(self, who: Player, text: str, *, stamp: float | None = None,
                    **entry: object) -> list[str]:
        """``who`` writes ``text`` in the group, through the front door as a platform hands it
        in (``entry``: the :class:`bot.front.Entry`'s flags — ``edit``, ``anonymous``), stamped
        ``stamp`` (the platform's; by default now, by the table's clock). Returns the answers."""
        door = Front(lambda: self.service, {Part.HOST: self.host}, _NoRights(), self.port.cat,
                     lines=self.host)
        replies = await door.enter(Entry(
            "tg", Place.GROUP, GROUP, who.user, text, handle=f"msg:{text}",
            stamp=self.clock.now if stamp is None else stamp, **entry))  # type: ignore[arg-type]
        await self.port.outbox.settle()
        return [r.text for r in replies or []]

    async def press(self, who: Player, data: str) -> Press:
        handle = Press(who.user)
        await self.host.press(who, data, handle)
        await self.port.outbox.settle()
        return handle

    def prompt(self, user: str):  # noqa: ANN201 - a fake message
        """``user``'s private prompt of the running step: his newest message with its buttons."""
        step = self.table().step
        found = [m for m in self.chats.of(user) if m.buttons
                 and any((b.data or "").startswith(f"h:{self.table().id}:{step.no}:") for row in m.buttons for b in row)]
        assert found, (user, self.chats.texts(user)[-3:])
        return found[-1]

    def table(self):  # noqa: ANN201 - the controller's Table
        tables = self.host.tables_in(GROUP)
        assert tables
        return tables[-1]

    async def state(self) -> rules.GameState:
        current = await self.service.current(GROUP)
        assert current is not None
        return current.state

    def player(self, seat: int) -> Player:
        user = self.table().seats[seat]
        return next(p for p in PLAYERS if p.user == user)

    def step_message(self):  # noqa: ANN201 - a fake message
        step = self.table().step
        assert step is not None and step.message is not None, step
        return self.chats.messages[step.message]

    async def fill(self, newgame: str = "/newgame") -> None:
        """``newgame`` (``/newgame`` and its options) and ten joins: the deal and night 0."""
        assert await self.command(HOST, newgame) == []
        lobby = self.chats.last(GROUP, with_button=RU.text("host-btn-join"))
        for player in PLAYERS:
            answer = await self.press(player, lobby.data(RU.text("host-btn-join")))
            assert answer.answered

    async def to_first_speech(self, newgame: str = "/newgame") -> None:
        await self.fill(newgame)
        assert self.table().step.kind == "night_zero"
        await self.clock.advance(self.table().step.seconds)  # the договорка runs out
        assert self.table().step.kind == "speech"


class _NoRights:
    """Nobody is a chat admin (the router asks only for a command it carries out)."""

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool:
        return False


@asynccontextmanager
async def table(rights: Rights = Rights(mute=True, delete=True)) -> AsyncIterator[Table]:
    """A table over a fresh in-memory store, the host ``HOST``, the players ``PLAYERS``."""
    store = await Store.open(":memory:")
    try:
        yield Table(store, rights)
    finally:
        await store.close()
