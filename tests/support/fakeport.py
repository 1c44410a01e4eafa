"""In-memory fakes of a platform for the two controllers (:class:`bot.host.controller.HostController`,
:class:`bot.judge.controller.JudgeController`): no HTTP, no PTB, no discord.py.

* :class:`Chats` keeps every message a chat got (posted by the port or sent by the outbox), with
  every version of its text and its buttons, and every answer to a press;
* :class:`FakeClock` is the controllable clock: deadlines are scheduled on it and run only when a
  test moves time on (:meth:`FakeClock.advance`) — no test waits on wall-clock time;
* :class:`FakeHostPort` / :class:`FakeJudgePort` implement the ports over them, and the outbox's
  transport (:class:`FakeTransport`) delivers its rows into the same chats.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

import rules
from bot.host import views as vw
from bot.host.port import Mute, MuteMode, Rights
from bot.i18n import Catalog, catalog
from bot.judge.panel import Panel
from bot.judge.port import Target
from bot.judge.timer import Timer
from bot.outbox import Outbox, Refused, rows_of
from bot.protocol.files import protocol_files
from storage import OutboxRow, Store

PREFIX = "fk:"


@dataclass
class Message:
    id: int
    chat: str
    versions: list[str]
    buttons: list[list[vw.Btn]] | None = None
    files: list[str] = field(default_factory=list)
    private: bool = False

    @property
    def text(self) -> str:
        return self.versions[-1]

    def labels(self) -> list[str]:
        return [b.label for row in (self.buttons or []) for b in row]

    def data(self, label: str) -> str:
        """The callback data of the button ``label`` (``KeyError`` if it is not there)."""
        for row in self.buttons or []:
            for button in row:
                if button.label == label and button.data:
                    return button.data
        raise KeyError(f"no button {label!r} on {self.text!r}: {self.labels()}")


@dataclass
class Press:
    """A press's handle: what it was answered."""

    user: str
    answers: list[tuple[str | None, bool]] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return bool(self.answers)

    @property
    def text(self) -> str | None:
        return self.answers[-1][0] if self.answers else None


@dataclass(frozen=True)
class Seen:
    """One change a chat's members saw: when (the fake clock), a post or an edit, of which
    message (its place in the chat), its text and its buttons' labels."""

    at: float
    chat: str
    kind: str
    place: int
    text: str
    labels: tuple[str, ...]


class Chats:
    """Every chat's messages, in order, and every change as it was seen (:attr:`seen`, with
    the time of ``clock`` when one is given)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.messages: dict[int, Message] = {}
        self._ids = itertools.count(1)
        self.blocked: set[str] = set()  # chats that refuse everything (a user who blocked the bot)
        self.clock = clock
        self.seen: list[Seen] = []

    def _saw(self, kind: str, message: Message) -> None:
        place = [m.id for m in self.of(message.chat)].index(message.id)
        self.seen.append(Seen(self.clock() if self.clock else 0.0, message.chat, kind, place,
                              message.text, tuple(message.labels())))

    def post(self, chat: str, text: str, rows: Any = None, *, private: bool = False,
             files: list[str] | None = None) -> int | None:
        if chat in self.blocked:
            return None
        message = Message(next(self._ids), chat, [text], rows, list(files or []), private)
        self.messages[message.id] = message
        self._saw("post", message)
        return message.id

    def edit(self, chat: str, message_id: int, text: str, rows: Any = None) -> bool:
        message = self.messages.get(message_id)
        if message is None or message.chat != chat:
            return False
        changed = message.versions[-1] != text or message.buttons != rows
        if message.versions[-1] != text:
            message.versions.append(text)
        message.buttons = rows
        if changed:
            self._saw("edit", message)
        return True

    def transcript(self, chat: str) -> list[Seen]:
        """What ``chat``'s members saw, change by change, in order."""
        return [s for s in self.seen if s.chat == chat]

    def of(self, chat: str) -> list[Message]:
        return [m for m in self.messages.values() if m.chat == chat]

    def texts(self, chat: str) -> list[str]:
        """Every version of every message of ``chat`` (edits included), oldest first."""
        return [t for m in self.of(chat) for t in m.versions]

    def last(self, chat: str, with_button: str | None = None) -> Message:
        found = [m for m in self.of(chat) if with_button is None or with_button in m.labels()]
        assert found, (chat, with_button, self.texts(chat)[-5:])
        return found[-1]


class FakeClock:
    """Time that moves only when a test says so; ``schedule`` puts callbacks on it."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now
        self.offset = 0.0  # what the wall clock's steps added (step_wall)
        self.settle: Callable[[], Awaitable[None]] | None = None  # after each call: background work
        self._due: list[tuple[float, int, str, Callable[[], Awaitable[None]]]] = []
        self._seq = itertools.count()

    def __call__(self) -> float:
        """The wall clock: the monotonic one, moved by every step a test makes
        (:meth:`step_wall`)."""
        return self.now + self.offset

    def monotonic(self) -> float:
        """The clock nobody sets: what the scheduled calls wait on."""
        return self.now

    def step_wall(self, seconds: float) -> None:
        """The wall clock steps by ``seconds`` (NTP correcting it, a VM resumed): the monotonic
        clock, and every call scheduled on it, do not move."""
        self.offset += seconds

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        self._due.append((self.now + max(0.0, delay), next(self._seq), group, callback))

    def cancel(self, group: str) -> None:
        self._due = [d for d in self._due if d[2] != group]

    def cancel_all(self) -> None:
        """A process that dies takes its timers with it."""
        self._due = []

    def pending(self, group_prefix: str = "") -> list[float]:
        """When the scheduled calls are due (of groups starting with ``group_prefix``)."""
        return sorted(at for at, _, group, _ in self._due if group.startswith(group_prefix))

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every call that falls due, in time order."""
        end = self.now + seconds
        while True:
            due = sorted(d for d in self._due if d[0] <= end)
            if not due:
                break
            at, seq, group, callback = due[0]
            self._due.remove(due[0])
            self.now = max(self.now, at)
            await callback()
            if self.settle is not None:
                await self.settle()
        self.now = end


class FakeTransport:
    """The outbox's transport into :class:`Chats`; a protocol row becomes one message with the
    protocol's file names."""

    prefix = PREFIX

    def __init__(self, chats: Chats, store: Callable[[], Store]) -> None:
        self.chats = chats
        self._store = store

    async def deliver(self, row: OutboxRow, made: Any = None) -> int | None:
        payload = row.payload
        text = str(payload.get("text", ""))
        if row.kind == "edit":
            message_id = payload.get("message_id")
            if message_id is None and row.slot and row.game_id is not None:
                message_id = await self._store().message(row.game_id, row.chat, row.slot)
            if message_id is None or not self.chats.edit(row.chat, int(message_id), text,
                                                          rows_of(payload)):
                raise Refused("message to edit not found")
            return int(message_id)
        files: list[str] = []
        if payload.get("protocol") is not None:
            made = await protocol_files(self._store(), int(payload["protocol"]), catalog("ru"),
                                        judge=payload.get("judge"), table=payload.get("table"))
            files = [name for name, _ in made.files]
        sent = self.chats.post(row.chat, text, rows_of(payload), private=bool(payload.get("private")),
                               files=files)
        if sent is None:
            raise Refused(f"{row.chat} refuses messages")
        return sent


class _Base:
    platform = "tg"
    prefix = PREFIX
    voice_tables = False

    def __init__(self, chats: Chats, clock: FakeClock, store: Callable[[], Store]) -> None:
        self.chats = chats
        self.clock = clock
        self.outbox = Outbox(store, FakeTransport(chats, store), retry_delay=0.01)
        self.scale = 1.0
        clock.settle = self.outbox.settle

    async def cat(self, chat: str) -> Catalog:
        return catalog("ru")

    def monotonic(self) -> float:
        return self.clock.monotonic()

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        self.clock.schedule(group, delay, callback)

    def cancel(self, group: str) -> None:
        self.clock.cancel(group)

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None:
        handle.answers.append((text, alert))


class FakeHostPort(_Base):
    """Host mode's port in memory. ``rights``: what the bot may do; ``unmutable``: members the
    platform refuses to mute; ``mutes``: who is muted for the turn now; ``log``: every mute call."""

    judge = "fk:bot"
    max_text = 4096  # a test sets Discord's 2000

    def __init__(self, chats: Chats, clock: FakeClock, store: Callable[[], Store], *,
                 rights: Rights = Rights(mute=True, delete=True)) -> None:
        super().__init__(chats, clock, store)
        self.granted = rights
        self.unmutable: set[str] = set()
        self.muted: set[str] = set()
        self.log: list[tuple[str, bool]] = []
        self.deleted: list[Any] = []
        self.admins: set[str] = set()
        self.right_lost = False  # the bot lost the right to mute during the game

    async def private_cat(self, table_chat: str, user: str) -> Catalog:
        return catalog("ru")

    async def post(self, chat: str, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> int | None:
        return self.chats.post(chat, text, rows, private=private)

    async def edit(self, chat: str, message_id: int, text: str, rows: vw.Rows | None = None, *,
                   private: bool = False) -> bool:
        return self.chats.edit(chat, message_id, text, rows)

    async def delete(self, handle: Any) -> None:
        self.deleted.append(handle)

    async def rights(self, chat: str, handle: Any = None, *, chat_type: str = "") -> Rights | None:
        return self.granted

    async def may_direct(self, chat: str, user: str, handle: Any = None) -> bool:
        return user in self.admins

    def mute_mode(self, rights: Rights) -> MuteMode:
        return MuteMode.RESTRICT

    async def mute(self, table_chat: str, user: str, mode: MuteMode, on: bool, *,
                   table_id: int = 0) -> Mute:
        self.log.append((user, on))
        if on and user in self.unmutable:
            return Mute.UNMUTABLE
        if on and (not self.granted.mute or self.right_lost):
            return Mute.NO_RIGHT
        (self.muted.add if on else self.muted.discard)(user)
        return Mute.DONE

    async def remove(self, table_chat: str, user: str, on: bool, reason: str) -> bool | None:
        return None

    def countdown(self, deadline: float, cat: Catalog) -> str:
        return ""

    def where(self, table_chat: str, title: str) -> str:
        return title

    def seat_lines(self, seats: Mapping[int, str], state: Any, cat: Catalog) -> str:
        return vw.seats_text(state, cat)

    def lobby_notes(self, rights: Rights, mode_option: str, unreachable: bool, table_id: int,
                    cat: Catalog) -> tuple[list[str], vw.Rows]:
        return [], []

    def unreachable(self, table_id: int, cat: Catalog) -> tuple[str, str | None]:
        return "open the bot", None


class FakeJudgePort(_Base):
    """Judge mode's port in memory: the judge reads in the game's home, the table in ``group``
    (``None``: nowhere)."""

    panel_lag = 3
    live_countdown = False
    countdown_step: int | None = None  # a test sets it to see the panel's countdown edits
    room = True  # a test clears it: the bot is busy, the countdown's edits are skipped

    def __init__(self, chats: Chats, clock: FakeClock, store: Callable[[], Store], *,
                 group: str | None = None) -> None:
        super().__init__(chats, clock, store)
        self.group = group
        self.removed: list[set[int]] = []

    def judge_chat(self, home: str, judge: str) -> Target:
        return Target(home)

    async def public_chat(self, game_id: int | None, home: str) -> str | None:
        return self.group

    async def club_chat(self, game_id: int, home: str) -> str | None:
        return None

    def mention(self, user: str) -> str:
        return ""

    def name_of(self, user: str) -> str | None:
        return {"fk:1": "Судья Иван"}.get(user)

    def place(self, chat: str) -> str | None:
        return {"fk:-50": "Клуб"}.get(chat)

    def message_link(self, chat: str, message_id: int) -> str | None:
        return None
    def moment(self, at: float) -> str:
        return time.strftime("%H:%M:%S", time.gmtime(at))

    async def panel_notes(self, state: rules.GameState, game_id: int, home: str,
                          cat: Catalog) -> list[str]:
        return []

    async def post_panel(self, target: Target, panel: Panel, title: str) -> int | None:
        rows = [[vw.Btn(b.label, b.data) for b in row] for row in panel.rows]
        return self.chats.post(target.chat, panel.text, rows)

    async def edit_panel(self, target: Target, message_id: int, panel: Panel, title: str,
                         handle: Any = None) -> bool:
        rows = [[vw.Btn(b.label, b.data) for b in row] for row in panel.rows]
        return self.chats.edit(target.chat, message_id, panel.text, rows)

    async def drop_panel(self, target: Target, message_id: int) -> None:
        message = self.chats.messages[message_id]
        self.chats.edit(target.chat, message_id, message.text, None)

    async def close_panel(self, target: Target, message_id: int, text: str | None) -> None:
        message = self.chats.messages[message_id]
        self.chats.edit(target.chat, message_id, text or message.text, None)

    def timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        return timer.line(cat, now)

    def panel_timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        if self.countdown_step is None:
            return timer.line(cat, now)
        return timer.countdown_line(cat, now, self.countdown_step, dt.timezone.utc)

    def has_room(self) -> bool:
        return self.room

    async def edit(self, chat: str, message_id: int, text: str) -> bool:
        return self.chats.edit(chat, message_id, text)

    async def sync_removed(self, game_id: int, home: str, judge: str, removed: set[int]) -> None:
        self.removed.append(set(removed))

    async def sync_floor(self, game_id: int, home: str, judge: str, state: Any) -> None:
        return None  # no voice tables here
