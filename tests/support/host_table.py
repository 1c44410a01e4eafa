"""Helpers of the host-mode tests (no tests here): the real PTB Application over a SQLite store,
run against the fake Bot API on 127.0.0.1, with ten simulated players in a club's group and in
their private chats, and a :class:`HostTable` that acts as them and waits for the bot.

Timers run fast (``telegram_timer_scale``, the judge mode's pattern): with :data:`SCALE` a timer
second is 0.05 s. Games are opened with longer voting windows and night steps (``/newgame``'s
rule and host options) so that ten presses fit comfortably in a window."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import rules
from bot.service import Service
from bot.settings import Settings
from bot.telegram.app import ALLOWED_UPDATES, PerChatUpdateProcessor, build_application
from bot.host.table import Table
from bot.telegram.host import TelegramHost
from bot.host.steps import Step
from fakebot import FakeBotAPI, FakeChat, FakeMessage, FakeUser, running
from rules import Role, Team
from storage import Store

SCALE = 0.05  # real seconds per timer second
# Windows long enough for ten presses (at SCALE: 1.5 s, 1 s, 1 s); night 0 short (1 s).
FAST = ("timers.vote_window=30 timers.mafia_meeting=20 timers.don_check=20 "
        "timers.sheriff_check=20 timers.best_move=20 shooting=20")
NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")
GROUP_TITLE = "Клуб «Мафия онлайн»"

HANDLED = 30.0  # s: how long the bot may take to handle one update (generous: a busy machine)



def host_settings(fake: FakeBotAPI, db: Path, *, scale: float = SCALE, seed: int | None = 7,
                  lang: str = "ru", retries: int = 3) -> Settings:
    """``retries=0``: the rate limiter does not retry a 429 itself (the outbox must)."""
    return Settings(telegram_token=fake.token, telegram_base_url=fake.base_url, db=db, lang=lang,
                    telegram_timer_scale=scale, telegram_rate_overall=1000,
                    telegram_rate_group=1000, telegram_rate_group_period=1,
                    telegram_rate_private=1000,
                    telegram_max_retries=retries, host_seed=seed)


@asynccontextmanager
async def app_running(fake: FakeBotAPI, db: Path, *, clock: Callable[[], float] | None = None,
                      **options: Any) -> AsyncIterator[tuple[Any, Service]]:
    """The Application (judge and host mode) over its own store at ``db``, always stopped;
    ``clock``: its wall clock (a test steps it), else ``time.time``."""
    store = await Store.open(db)
    try:
        service = Service(store)
        app = build_application(host_settings(fake, db, **options), service,
                                **({"clock": clock} if clock is not None else {}))
        async with running(app, fake, allowed_updates=list(ALLOWED_UPDATES)):
            await app.post_init(app)  # run_polling() would call it; running() starts by hand
            yield app, service
    finally:
        await store.close()


@dataclass
class World:
    owner: FakeUser
    group: FakeChat
    players: list[FakeUser]


def make_world(fake: FakeBotAPI, *, started: int = 10, supergroup: bool = True,
               bot_rights: dict[str, bool] | None = None, admins: tuple[int, ...] = ()) -> World:
    """Ten players (the first ``started`` have opened the bot), the group's owner who hosts,
    the bot an admin of the group (``bot_rights`` override its rights)."""
    owner = fake.add_user("Ведущий", "host", started=True)
    players = [fake.add_user(name, f"p{i}", started=i <= started) for i, name in enumerate(NAMES, 1)]
    group = fake.add_group(GROUP_TITLE, creator=owner, members=players, supergroup=supergroup,
                           bot_rights=bot_rights, admins=[players[i - 1] for i in admins])
    return World(owner, group, players)


@dataclass
class HostTable:
    """The table as the tests drive it: the players act, the bot's answers are awaited."""

    fake: FakeBotAPI
    app: Any
    service: Service
    world: World
    seen: int = 0  # the last step number a test waited for

    @property
    def group(self) -> FakeChat:
        return self.world.group

    @property
    def owner(self) -> FakeUser:
        return self.world.owner

    @property
    def players(self) -> list[FakeUser]:
        return self.world.players

    @property
    def host(self) -> TelegramHost:
        return self.app.bot_data["host"]  # type: ignore[no-any-return]

    @property
    def processor(self) -> PerChatUpdateProcessor:
        processor = self.app.update_processor
        assert isinstance(processor, PerChatUpdateProcessor)
        return processor

    # --- acting ------------------------------------------------------------------------------------
    async def _handled(self, act: Callable[[], Any], what: str) -> Any:
        before = self.processor.done
        result = act()
        await self.fake.wait_for(lambda: self.processor.done > before, HANDLED, what=what)
        return result

    async def say(self, user: FakeUser, text: str, chat: FakeChat | None = None, *,
                  date: int | None = None, as_chat: FakeChat | None = None) -> FakeMessage:
        """``user`` writes ``text`` in the group (or ``chat``; ``None`` … his private chat: pass
        ``chat=user``); ``date``: Telegram's stamp, if the bot reads it late; ``as_chat``: in
        the name of his channel (an anonymous admin writes in the group's name anyway)."""
        target = self.group if chat is None else chat
        return await self._handled(
            lambda: self.fake.user_sends(user, target, text, date=date, as_chat=as_chat),
            f"handling {text!r}")

    async def edit(self, user: FakeUser, message: FakeMessage, text: str) -> FakeMessage:
        """``user`` edits his ``message`` to ``text`` (an ``edited_message`` update, handled)."""
        return await self._handled(lambda: self.fake.user_edits(user, message, text),
                                   f"the edit {text!r}")

    async def leave(self, user: FakeUser) -> FakeMessage:
        """``user`` leaves the group."""
        return await self._handled(lambda: self.fake.user_leaves(user, self.group),
                                   f"{user.first_name} leaving")

    async def private(self, user: FakeUser, text: str) -> FakeMessage:
        return await self._handled(lambda: self.fake.user_sends(user, None, text), f"handling {text!r}")

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> str:
        return await self._handled(lambda: self.fake.user_presses(user, message, button=label),
                                   f"the press {label!r}")

    async def press_data(self, user: FakeUser, message: FakeMessage, data: str) -> str:
        return await self._handled(
            lambda: self.fake.user_presses(user, message, data, strict=False), f"the press {data!r}")

    # --- looking ----------------------------------------------------------------------------------------
    def table(self) -> Table:
        tables = self.host.tables_in(self.group.id)
        assert tables, "no table in the group"
        return max(tables, key=lambda t: t.id)

    def step(self) -> Step | None:
        tables = self.host.tables_in(self.group.id)
        return max(tables, key=lambda t: t.id).step if tables else None

    async def state(self) -> rules.GameState:
        current = await self.service.current(f"tg:{self.group.id}")
        assert current is not None
        return current.state

    def user(self, seat: int) -> FakeUser:
        return self.fake.user(int(self.table().seats[seat].removeprefix("tg:")))

    def seat(self, user: FakeUser) -> int:
        found = self.table().seat_of(f"tg:{user.id}")
        assert found is not None
        return found

    async def seats_of(self, *roles: Role) -> list[int]:
        state = await self.state()
        return [s.number for s in state.seats if s.role in roles]

    async def reds(self) -> list[int]:
        state = await self.state()
        return [s.number for s in state.seats if s.role is not None and s.role.team is Team.RED]

    def lobby(self) -> FakeMessage:
        message_id = self.table().lobby_message
        assert message_id is not None
        return self.fake.message(self.group, message_id)

    def group_texts(self) -> list[str]:
        """Every version of every message the bot sent to the group (edits included)."""
        return [t for m in self.fake.sent(self.group) for t in m.texts if t]

    def private_texts(self, user: FakeUser) -> list[str]:
        return [t for m in self.fake.sent(user) for t in m.texts if t]

    def prompt(self, user: FakeUser, step: Step) -> FakeMessage | None:
        """``user``'s private prompt of ``step`` once it has arrived: his newest message with
        that step's buttons."""
        prefix = f"h:{self.table().id}:{step.no}:"
        found = [m for m in self.fake.sent(user)
                 if any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons)]
        return found[-1] if found else None

    def step_message(self) -> FakeMessage:
        step = self.step()
        assert step is not None and step.message is not None
        return self.fake.message(self.group, step.message)

    # --- waiting ------------------------------------------------------------------------------------------
    async def wait_step(self, kind: str, seat: int | None = None, *, timeout: float = 30.0,
                        prompts: int = 0, consume: bool = True) -> Step:
        """The next step (after the last one consumed) of ``kind`` (and ``seat``), with its group
        message shown (its window open) and at least ``prompts`` private prompts delivered. ``consume=False``
        leaves it for the next wait."""
        after = self.seen

        def ready() -> Step | None:
            step = self.step()
            if step is None or step.no <= after or step.message is None or not step.started:
                return None
            if step.kind != kind or (seat is not None and step.seat != seat):
                return None
            users = [self.fake.user(int(u.removeprefix("tg:"))) for u in step.prompted]
            return step if sum(self.prompt(u, step) is not None for u in users) >= prompts else None

        step = await self.fake.wait_for(ready, timeout, f"the step {kind} {seat or ''}")
        if consume:
            self.seen = step.no
        return step

    async def wait_floor(self, seat: int | None = None, *, day: int | None = None,
                         consume: bool = True, timeout: float = 30.0) -> Step:
        """The next speaking step (a speech, a last word, a tie speech, a silenced minute) of
        ``seat`` (any seat if ``None``) on ``day``."""
        after = self.seen

        def ready() -> Step | None:
            step = self.step()
            if step is None or step.no <= after or step.message is None or not step.started:
                return None
            if step.kind not in ("speech", "last_word", "tie_speech", "silenced"):
                return None
            if seat is not None and step.seat != seat:
                return None
            if day is not None and step.key.split(":")[0] != str(day):
                return None
            return step

        step = await self.fake.wait_for(ready, timeout, f"the floor for {seat} (day {day})")
        if consume:
            self.seen = step.no
        return step

    async def wait_over(self, timeout: float = 30.0) -> None:
        await self.fake.wait_for(lambda: self.table().status == "over", timeout, "the end")

    # --- whole moves ----------------------------------------------------------------------------------
    async def open_and_fill(self, options: str = FAST) -> None:
        """/newgame by the host, the ten players join by the button (in order: seats by join
        order), night 0 begins."""
        await self.say(self.owner, f"/newgame {options}".strip())
        for player in self.players:
            await self.press(player, self.lobby(), "Записаться")
        await self.wait_step("night_zero")

    async def pass_turn(self, seat: int, *, typed: bool = False) -> None:
        """``seat``'s floor: he ends it with «Пас» typed in the group, or the button."""
        await self.wait_floor(seat)
        if typed:
            await self.say(self.user(seat), "Пас")
        else:
            await self.press(self.user(seat), self.step_message(), "Пас")

    async def nominate(self, seat: int, target: int) -> None:
        """The speaker opens the picker and nominates ``target`` (F24 §4.4.2)."""
        step = self.step()
        assert step is not None and step.seat == seat
        await self.press(self.user(seat), self.fake.message(self.group, step.message), "Выставить")
        await self.press(self.user(seat), self.fake.message(self.group, step.message), str(target))

    async def speeches(self, order: list[int], nominations: dict[int, int] | None = None) -> None:
        """Each seat of ``order`` speaks in turn (nominating as told) and passes."""
        for seat in order:
            await self.wait_floor(seat)
            if nominations and seat in nominations:
                await self.nominate(seat, nominations[seat])
            await self.press(self.user(seat), self.step_message(), "Пас")

    async def vote(self, nominee: int, voters: list[int]) -> None:
        """The window against ``nominee``: ``voters`` raise a hand (F24 §4.4.5); then it closes."""
        step = await self.wait_step("vote", nominee)
        message = self.fake.message(self.group, step.message)
        for seat in voters:
            await self.press(self.user(seat), message, "Против")

    async def voted_out(self, nominee: int, voters: list[int]) -> None:
        """``voters`` vote ``nominee`` out (F24 §4.4.5); he says his last word and passes."""
        await self.vote(nominee, voters)
        await self.wait_step("last_word", nominee)
        await self.press(self.user(nominee), self.step_message(), "Пас")

    async def raise_all(self, voters: list[int]) -> None:
        step = await self.wait_step("raise")
        message = self.fake.message(self.group, step.message)
        for seat in voters:
            await self.press(self.user(seat), message, "За подъём")

    async def night(self, number: int, *, shots: dict[int, int | None] | None = None,
                    don: int | None = None, sheriff: int | None = None,
                    best_move: list[int] | None = None) -> None:
        """Night ``number``: the blacks shoot (``None``: the «Не стрелять» button; a black left
        out does not press at all), the Don and the Sheriff check, the victim's best move."""
        blacks = [s for s in await self.seats_of(Role.DON, Role.MAFIA)
                  if (await self.state()).seat(s).at_table]
        step = await self.wait_step("shooting", prompts=len(blacks))
        for shooter, target in (shots or {}).items():
            user = self.user(shooter)
            prompt = self.prompt(user, step)
            assert prompt is not None
            await self.press(user, prompt, "Не стрелять" if target is None else str(target))
        await self._check("don_check", Role.DON, don)
        await self._check("sheriff_check", Role.SHERIFF, sheriff)
        if best_move is None:
            await self.wait_floor(day=number + 1, consume=False)  # the morning
        else:
            state = await self.state()
            victim = state.nights[-1].killed if state.nights else None
            assert victim is not None
            step = await self.wait_step("best_move", prompts=1)
            user = self.user(victim)
            for seat in best_move:
                prompt = await self.fake.wait_for(lambda: self.prompt(user, step), what="the prompt")
                await self.press(user, prompt, str(seat))
        await self.wait_floor(day=number + 1, consume=False)  # the morning

    async def _check(self, kind: str, role: Role, target: int | None) -> None:
        expected = 1 if target is not None else 0
        step = await self.wait_step(kind, prompts=expected)
        if target is None:
            return
        (seat,) = await self.seats_of(role)
        user = self.user(seat)
        prompt = self.prompt(user, step)
        assert prompt is not None
        await self.press(user, prompt, str(target))


@asynccontextmanager
async def host_table(fake: FakeBotAPI, db: Path, world: World | None = None,
                     **options: Any) -> AsyncIterator[HostTable]:
    world = world or make_world(fake)
    async with app_running(fake, db, **options) as (app, service):
        yield HostTable(fake=fake, app=app, service=service, world=world)
