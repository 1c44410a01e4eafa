"""Helpers of the Telegram tests (no tests here): the real PTB Application of judge mode over a
SQLite store, run against the fake Bot API on 127.0.0.1, and a :class:`Table` that acts as the
judge and the players and waits until the bot has handled each update."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import rules
from bot.service import Outcome, Service
from bot.settings import Settings
from bot.telegram.app import ALLOWED_UPDATES, PerChatUpdateProcessor, build_application, referee_of
from fakebot import FakeBotAPI, FakeChat, FakeMessage, FakeUser, running
from storage import Store

HANDLED = 30.0  # s: how long the bot may take to handle one update (generous: a busy machine)



def settings_for(fake: FakeBotAPI, db: Path, *, scale: float = 1000.0, lag: int = 3,
                 lang: str = "ru", **more: Any) -> Settings:
    """Settings for a test: the fake's URL, high rate limits, a slow (or fast) timer; ``more``:
    other settings by name (``telegram_http="httpx"``; a limit: ``telegram_rate_group=20``)."""
    limits: dict[str, Any] = {"telegram_rate_overall": 1000, "telegram_rate_group": 1000,
                              "telegram_rate_group_period": 1, "telegram_rate_private": 1000}
    return Settings(telegram_token=fake.token, telegram_base_url=fake.base_url, db=db,
                    lang=lang, telegram_timer_scale=scale, telegram_max_retries=3,
                    telegram_panel_lag=lag, **{**limits, **more})


@dataclass
class Table:
    """One judge at one table: his private chat with the bot and the club's group."""

    fake: FakeBotAPI
    app: Any
    service: Service
    judge: FakeUser
    group: FakeChat
    players: list[FakeUser] = field(default_factory=list)

    @property
    def processor(self) -> PerChatUpdateProcessor:
        processor = self.app.update_processor
        assert isinstance(processor, PerChatUpdateProcessor)
        return processor

    @property
    def referee(self) -> Any:
        return referee_of(self.app)

    async def _handled(self, act: Any, what: str) -> Any:
        before = self.processor.done
        result = act()
        await self.fake.wait_for(lambda: self.processor.done > before, HANDLED, what=what)
        return result

    async def say(self, text: str, *, chat: FakeChat | FakeUser | None = None,
                  user: FakeUser | None = None) -> FakeMessage:
        """``user`` (the judge) types ``text`` in ``chat`` (his private chat) and the bot handles it."""
        who = user or self.judge
        return await self._handled(lambda: self.fake.user_sends(who, chat, text), f"handling {text!r}")

    async def press(self, label: str | None = None, *, data: str | None = None,
                    user: FakeUser | None = None, message: FakeMessage | None = None,
                    strict: bool = True) -> str:
        """Press a button of the judge's current panel (or ``message``); returns the query id."""
        target = message or self.panel()
        who = user or self.judge
        return await self._handled(
            lambda: self.fake.user_presses(who, target, data, button=label, strict=strict),
            f"the press {label or data!r}")

    def panel(self, user: FakeUser | None = None) -> FakeMessage:
        """The judge's panel: the newest message with buttons in his private chat."""
        chat = (user or self.judge).id
        panels = [m for m in self.fake.sent(chat) if m.buttons and not m.deleted]
        assert panels, f"no panel in {chat}: {[m.content for m in self.fake.sent(chat)]}"
        return panels[-1]

    def texts(self, chat: FakeChat | FakeUser | int) -> list[str]:
        """Every version of every message the bot sent to ``chat`` (edits included)."""
        out: list[str] = []
        for message in self.fake.sent(chat):
            out.extend(t for t in message.texts if t)
        return out

    def private(self) -> list[str]:
        return self.texts(self.judge)

    def public(self) -> list[str]:
        return self.texts(self.group)

    async def now(self) -> Outcome:
        current = await self.service.current(f"tg:{self.judge.id}")
        assert current is not None
        return current

    async def state(self) -> rules.GameState:
        return (await self.now()).state

    async def log_length(self) -> int:
        return len(await self.service.events(f"tg:{self.judge.id}"))


@asynccontextmanager
async def bot_running(fake: FakeBotAPI, db: Path, *, clock: Callable[[], float] | None = None,
                      **options: Any) -> AsyncIterator[tuple[Any, Service]]:
    """The Application of judge mode over its own store at ``db``, started and always stopped;
    ``clock``: its wall clock (a test steps it), else ``time.time``."""
    store = await Store.open(db)
    try:
        service = Service(store)
        app = build_application(settings_for(fake, db, **options), service,
                                **({"clock": clock} if clock is not None else {}))
        async with running(app, fake, allowed_updates=list(ALLOWED_UPDATES)):
            # run_polling() calls post_init after initialize(); running() starts the app by hand
            await app.post_init(app)
            yield app, service
    finally:
        await store.close()


def make_world(fake: FakeBotAPI, players: int = 3) -> tuple[FakeUser, FakeChat, list[FakeUser]]:
    """A judge who has started the bot, some players, and the club's group (the bot is an admin
    there; the judge is a member, not an admin)."""
    judge = fake.add_user("Судья", "judge", started=True)
    people = [fake.add_user(f"Игрок{i}", f"p{i}", started=True) for i in range(1, players + 1)]
    owner = fake.add_user("Владелец", "owner", started=True)
    group = fake.add_group("Клуб «Мафия»", members=[judge, *people], creator=owner)
    return judge, group, [owner, *people]


@asynccontextmanager
async def table(fake: FakeBotAPI, db: Path, **options: Any) -> AsyncIterator[Table]:
    judge, group, people = make_world(fake)
    async with bot_running(fake, db, **options) as (app, service):
        yield Table(fake=fake, app=app, service=service, judge=judge, group=group, players=people)


@asynccontextmanager
async def linked_day_one(fake: FakeBotAPI, db: Path) -> AsyncIterator[Table]:
    """A judge's :func:`table` with a game of roles D2 M5 M7 S8 linked to the group, started and
    at day 1's first speech."""
    async with table(fake, db) as running_table:
        await running_table.say("/new")
        await running_table.say("/roles D2 M5 M7 S8")
        await running_table.say("/link", chat=running_table.group)
        await running_table.press("Начать игру ▶")
        await running_table.press("Далее ▶ (утро)")
        yield running_table
