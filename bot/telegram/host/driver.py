"""Host mode: the bot runs the whole table in a Telegram group (PTB 22 handlers and jobs).

The lobby (``/newgame``), the deal, and then the game step by step: the rules engine says what
comes next (:mod:`.steps`), this driver opens the step (a group message with its countdown and
buttons, private prompts at night, mutes), collects the players' inputs, and when the step closes
— its time is up, or the speaker passes — turns them into ONE engine event through the same
:class:`bot.service.Service` the judge mode uses (the bot is the judge, :data:`BOT`).

* Steps are stored with the table (``host_tables.step``: deadline, inputs, message ids) and
  logged with their length (``host_steps``); at start-up every open table is loaded and its
  step's deadline re-armed, so a restart resumes where the game was (ENGINEERING.md §1).
* Everything a table does runs under one :class:`asyncio.Lock` per group (handlers and JobQueue
  jobs; jobs bypass PTB's per-chat update order).
* Only the speaker writes (:mod:`.steps`): with the right to restrict members the bot mutes the
  other players (``restrictChatMember`` with ``until_date``); otherwise — and for the admins no
  bot can mute — a message out of one's minute is a foul (seed 4.1.1), at night (night 0 too)
  a disqualifying foul for night talk (seed 4.2.6), deleted where allowed.
* Private notices never reach the group: the roles go to each player, a check's answer to its
  checker, nothing else (F24 §4.4.13, §4.5.4).
* What an action announces leaves through the persistent outbox (:mod:`..outbox`, ENGINEERING.md
  §1): :meth:`TelegramHost._renderer` renders it when the service applies the event and it is
  queued in the SAME transaction — the lines of the event (fouls, nominations, the vote's result,
  «Наступает ночь», the night's result, the result), the players' cards, the checks' answers, the
  club channel's notes. The new step's group message is queued there too, the event's lines above
  its step line, under the slot :func:`step_slot`; once the sender has posted it the driver takes
  its id and from then on only edits it (its buttons, countdown, closing). A 429 delays the
  queue in order; a restart sends what is still queued (``Outbox.drain_all``) and the driver
  re-derives nothing: a one-off line repeats only if the process died while sending it. Status
  messages — the lobby, a step's message after its first post, the night prompts in private —
  are edits of stored messages or re-sent only when their id was never stored.
* A player who misses his turns: the rules' defaults (a hand not raised goes to the last
  nominee, F24 §4.4.8; a shot not fired is a miss, §4.5.5; a check not made is not made) and the
  stated option ``absent_after`` (:class:`.options.HostOptions`): that many silent own speeches
  in a row are leaving the table, seed 4.2.1. Leaving the group or blocking the bot is too.

Handlers are registered in group :data:`HOST_GROUP`, ahead of the judge mode's; what is not host
business falls through to them untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import random
import time
from typing import Any, AsyncIterator, Awaitable, Callable

from telegram import (
    ChatMemberUpdated, ChatPermissions, InlineKeyboardButton, InlineKeyboardMarkup, InputFile,
    Message, Update,
)
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.ext import (
    ApplicationHandlerStop, CallbackContext, CallbackQueryHandler, ChatMemberHandler,
    MessageHandler, filters,
)

import rules
from rules import Kind, Phase
from storage import HostStepRow, OutboxItem

from ... import commands as cmds
from ...commands import Act, CommandError
from ...host import steps as st
from ...host import views as vw
from ...host.flow import HostFlow
from ...host.options import HostError, parse_newgame
from ...host.steps import Plan, Step
from ...host.table import LEFT_TABLE, TABLE_SIZE, Table, same_night
from ...i18n import Catalog
from ...render import error_text, fit, result_text, seat_label, status_text
from ...service import Outcome, Render, Service, ServiceError
from ...settings import Settings
from ..outbox import MAX_TEXT, retry_seconds

log = logging.getLogger(__name__)

BOT = "tg:bot"  # the judge of every hosted game
PREFIX = "tg:"
HOST_GROUP = -1  # PTB handler group: before the judge mode's handlers (group 0)
#: A mute that failed for a passing reason (the network, a flood wait) is tried again after
#: these seconds, then left to the next step; waits are capped (the step's clock runs meanwhile).
RESTRICT_BACKOFF = (0.3, 1.0)
MAX_RESTRICT_WAIT = 3.0
LATER = "later"
HOST_COMMANDS = frozenset({"newgame", "stop", "channel", "protocol", "foul", "warn", "dq", "ppk",
                           "unfoul", "nominate", "nom", "pass", "пас", "status"})
ALWAYS_OURS = frozenset({"newgame", "channel", "protocol"})  # the rest only with a table here
PENALTY_COMMANDS = frozenset({"foul", "warn", "dq", "ppk", "unfoul"})
JUDGE_GROUP_COMMANDS = frozenset({"link", "takeover", "unlink"})  # refused while a table plays
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
LIVE = ("lobby", "running")
OVER_SLOT = "host:over"  # the outbox slot of the result's message (F24 §1.4)
ADOPT_POLL = 0.5  # real seconds between looks for a queued step message the outbox has not sent

Context = CallbackContext[Any, Any, Any, Any]
_Refusal = (CommandError, ServiceError, rules.RuleError, HostError)


def key(chat_id: int) -> str:
    return f"{PREFIX}{chat_id}"


def chat_id_of(chat: str) -> int:
    return int(chat.removeprefix(PREFIX))


def step_slot(no: int, step_key: str) -> str:
    """The outbox slot of step ``no``'s group message (its id is stored under it once sent)."""
    return f"host:{no}:{step_key}"


def display_name(user: Any) -> str:
    """A player's name for the table, as :class:`rules.SetName` accepts it: his Telegram name
    cleaned (:func:`rules.clean_name`), else his username, else his id; at most 64 characters."""
    return st.seat_name(getattr(user, "full_name", None), getattr(user, "username", None),
                        fallback=str(getattr(user, "id", "?")))


def _markup(rows: vw.Rows | None) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=b.data, url=b.url)
                                  for b in row] for row in rows if row])


class TelegramHost(HostFlow):
    """Host mode over the judge mode's :class:`~bot.telegram.app.TelegramReferee` (its service,
    catalogs and clock). See the module docstring."""

    def __init__(self, settings: Settings, referee: Any) -> None:
        self.settings = settings
        self.referee = referee
        self.app: Any = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._tables: dict[int, Table] = {}
        self._unresumed: dict[str, list[int]] = {}  # group -> its open tables not yet resumed

    # --- life cycle -------------------------------------------------------------------------------
    @property
    def service(self) -> Service:
        return self.referee.service  # type: ignore[no-any-return]

    @property
    def clock(self) -> Callable[[], float]:
        return self.referee.clock  # type: ignore[no-any-return]

    @property
    def scale(self) -> float:
        return self.settings.telegram_timer_scale

    def register(self, app: Any) -> None:
        self.app = app
        app.add_handler(CallbackQueryHandler(self.on_press, pattern=rf"^{vw.PREFIX}:"), group=HOST_GROUP)
        app.add_handler(MessageHandler(filters.ChatType.GROUPS & filters.UpdateType.MESSAGE,
                                       self.on_group), group=HOST_GROUP)
        app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE
                                       & filters.TEXT, self.on_private), group=HOST_GROUP)
        app.add_handler(ChatMemberHandler(self.on_my_member, ChatMemberHandler.MY_CHAT_MEMBER),
                        group=HOST_GROUP)

    async def post_init(self, app: Any) -> None:
        """Load every open table once the service is open, and resume them (a job: the JobQueue
        runs it as soon as the Application has started). An update for a group that comes
        first resumes that group's tables itself (:meth:`_held`)."""
        for row in await self.service.store.open_host_tables():
            if not row.chat.startswith(PREFIX):
                continue  # another adapter's table (``mafia-referee both``: one game log)
            table = self._tables.setdefault(row.id, Table.from_row(row))
            self._unresumed.setdefault(table.chat, []).append(table.id)
        if app.job_queue is not None:
            app.job_queue.run_once(self._resume, 0, name="host-resume",
                                   job_kwargs={"misfire_grace_time": None})

    def table(self, table_id: int) -> Table | None:
        """The table as held in memory (tests and the status of a running game)."""
        return self._tables.get(table_id)

    def tables_in(self, chat_id: int) -> list[Table]:
        return [t for t in self._tables.values() if t.chat == key(chat_id)]

    # --- small helpers ------------------------------------------------------------------------------
    def _lock(self, chat: str) -> asyncio.Lock:
        return self._locks.setdefault(chat, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def _held(self, chat: str) -> AsyncIterator[None]:
        """The group's lock (everything a table does runs under it) — and, the first time in
        this process's life, the group's tables resumed before anything else is done there: a
        press or a message that reaches the group before the start-up :meth:`_resume` would
        otherwise act on a step the process died leaving (the speaker's «Пас» taken for the
        night's shot)."""
        async with self._lock(chat):
            for table_id in self._unresumed.pop(chat, []):
                table = self._tables.get(table_id)
                if table is not None:
                    await self._resume_one(table)
            yield

    async def _cat(self, chat: str) -> Catalog:
        return await self.referee.cat(chat)  # type: ignore[no-any-return]

    @property
    def _bot(self) -> Any:
        return self.app.bot

    async def _load(self, table_id: int) -> Table | None:
        table = self._tables.get(table_id)
        if table is None:
            row = await self.service.store.host_table(table_id)
            if row is None:
                return None
            # one object per table: another handler may have loaded it during the await
            table = self._tables.setdefault(table_id, Table.from_row(row))
        return table

    async def _table_of(self, chat: str) -> Table | None:
        row = await self.service.store.host_table_of(chat)
        return None if row is None else await self._load(row.id)

    async def _live(self, chat: str) -> Table | None:
        table = await self._table_of(chat)
        return table if table is not None and table.status in LIVE else None

    async def _save(self, table: Table, *fields: str) -> None:
        values: dict[str, Any] = {}
        for name in fields:
            value = getattr(table, name)
            values[name] = value.to_dict() if isinstance(value, Step) else value
        await self.service.store.update_host_table(table.id, **values)

    async def _send(self, chat: str, text: str, rows: vw.Rows | None = None) -> Message | None:
        try:
            return await self._bot.send_message(chat_id_of(chat), fit(text, MAX_TEXT), reply_markup=_markup(rows))
        except TelegramError as error:
            log.warning("host: cannot send to %s: %s", chat, error)
            return None

    async def _edit(self, chat: str, message_id: int, text: str, rows: vw.Rows | None = None) -> bool:
        try:
            await self._bot.edit_message_text(fit(text, MAX_TEXT), chat_id=chat_id_of(chat),
                                              message_id=message_id, reply_markup=_markup(rows))
        except BadRequest as error:
            if "not modified" in str(error).lower():
                return True
            log.info("host: cannot edit %s/%s: %s", chat, message_id, error)
            return False
        except TelegramError as error:
            log.warning("host: editing %s/%s failed: %s", chat, message_id, error)
            return False
        return True

    async def _delete(self, message: Message) -> None:
        try:
            await message.delete()
        except TelegramError as error:
            log.info("host: cannot delete %s: %s", message.message_id, error)

    async def _answer(self, query: Any, text: str | None = None, *, alert: bool = False,
                      url: str | None = None) -> None:
        try:
            await query.answer(text=text, show_alert=alert, url=url)
        except TelegramError as error:
            log.info("host: cannot answer a callback query: %s", error)

    async def _is_admin(self, chat: str, user: str) -> bool:
        try:
            member = await self._bot.get_chat_member(chat_id_of(chat), chat_id_of(user))
        except TelegramError:
            return False
        return member.status in ADMIN_STATUSES

    async def _may_direct(self, table: Table, user: str) -> bool:
        """The host who opened the table, or a chat admin, directs it (stop, penalties)."""
        return user == table.host or await self._is_admin(table.chat, user)

    async def _rights(self, chat: str, chat_type: str) -> dict[str, bool]:
        """What the bot may do in the group: restrict members (a supergroup and the right),
        delete messages, read every message (an admin, or privacy mode off)."""
        try:
            member = await self._bot.get_chat_member(chat_id_of(chat), self._bot.id)
        except TelegramError:
            return {"restrict": False, "delete": False, "read": False}
        owner = member.status == ChatMemberStatus.OWNER
        admin = member.status in ADMIN_STATUSES
        return {
            "restrict": chat_type == "supergroup" and (owner or (admin and bool(
                getattr(member, "can_restrict_members", False)))),
            "delete": owner or (admin and bool(getattr(member, "can_delete_messages", False))),
            "read": admin or bool(getattr(self._bot, "can_read_all_group_messages", False)),
        }

    # --- jobs ---------------------------------------------------------------------------------------
    def _job_name(self, table: Table) -> str:
        return f"host:{table.id}"

    def _cancel(self, table: Table) -> None:
        if self.app is None or self.app.job_queue is None:
            return
        for job in self.app.job_queue.get_jobs_by_name(self._job_name(table)):
            job.schedule_removal()

    def _arm(self, table: Table) -> None:
        """Schedule the step's 10-second warning (a speech) and its end, from the stored deadline
        (``misfire_grace_time=None``: a late job still runs; a passed deadline fires at once)."""
        self._cancel(table)
        step = table.step
        if step is None or self.app is None or self.app.job_queue is None:
            return
        now = self.clock()
        options = {"misfire_grace_time": None}
        if step.stage == "running" and step.kind in (*st.SPEAKING, "night_zero") \
                and step.seconds > st.WARN_LEFT:
            warn_at = step.deadline - st.WARN_LEFT * self.scale
            self.app.job_queue.run_once(self._on_warn, max(0.0, warn_at - now),
                                        data=(table.id, step.no), name=self._job_name(table),
                                        job_kwargs=options)
        self.app.job_queue.run_once(self._on_deadline, max(0.0, step.deadline - now),
                                    data=(table.id, step.no), name=self._job_name(table),
                                    job_kwargs=options)
        self._arm_adopt(table)

    def _arm_adopt(self, table: Table) -> None:
        """While the step's message waits in the outbox (a 429), look again in a moment."""
        step = table.step
        if step is None or step.message is not None or not step.slot:
            return
        if self.app is None or self.app.job_queue is None:
            return
        self.app.job_queue.run_once(self._on_adopt, ADOPT_POLL, data=(table.id, step.no),
                                    name=self._job_name(table),
                                    job_kwargs={"misfire_grace_time": None})

    async def _on_adopt(self, context: Context) -> None:
        table_id, no = context.job.data  # type: ignore[union-attr, misc]
        table = await self._load(table_id)
        if table is None:
            return
        async with self._held(table.chat):
            step = table.step
            if table.status != "running" or step is None or step.no != no or step.message is not None:
                return
            current = await self.service.current(table.chat)
            if current is not None:
                await self._show(table, current.state)
            self._arm_adopt(table)

    async def _on_warn(self, context: Context) -> None:
        table_id, no = context.job.data  # type: ignore[union-attr, misc]
        table = await self._load(table_id)
        if table is None:
            return
        async with self._held(table.chat):
            step = table.step
            if table.status != "running" or step is None or step.no != no or step.stage != "running":
                return
            step.stage = "warned"
            current = await self.service.current(table.chat)
            if current is not None:  # shown, then stored: a kill between shows it again
                await self._show(table, current.state)
            await self._save(table, "step")

    async def _on_deadline(self, context: Context) -> None:
        table_id, no = context.job.data  # type: ignore[union-attr, misc]
        table = await self._load(table_id)
        if table is None:
            return
        async with self._held(table.chat):
            step = table.step
            if table.status != "running" or step is None or step.no != no:
                return
            await self._close_step(table)

    async def _resume(self, context: Context) -> None:
        """After a (re)start: every open table loaded by :meth:`post_init` and not yet resumed
        by an update of its group is resumed now (:meth:`_held`)."""
        for chat in list(self._unresumed):
            async with self._held(chat):
                pass

    async def _resume_one(self, table: Table) -> None:
        """One table after a (re)start (under its group's lock): a running one's step is
        re-armed from its stored deadline, or — if the process died between an event and its
        step — the step the rules expect now is opened; a full lobby is dealt; a lobby whose
        message was never stored (a /newgame cut short) is posted."""
        try:
            if table.status == "lobby" and not (table.seats or self._ready(table)):
                if table.lobby_message is None:
                    await self._show_lobby(table)
                return  # a lobby: it waits for its players
            if table.status == "running":
                await self._resume_table(table)
            else:  # full, or seated: the process died before or during the deal
                await self._start(table)
        except Exception:  # one broken table must not keep the others down
            log.exception("host: cannot resume table %s", table.id)

    async def _resume_table(self, table: Table) -> None:
        """Resume a running table. What its last events announced is in the outbox (queued with
        them) and the sender drains it at start-up: nothing is derived again from the log here.
        The step the rules expect is resumed, or opened if the process died between an event and
        its step; a step message the outbox still holds (or has just sent) is taken, not posted
        again."""
        current = await self.service.current(table.chat)
        if current is None or current.game_id != table.game_id:
            table.status = "stopped"
            await self._save(table, "status")
            return
        if current.finished and current.state.phase is not Phase.GAME_OVER:  # a stop cut short
            await self._stopped(table, str(table.data.get("stopped_by") or table.data.get("host_name", "")))
            return
        if current.state.phase is Phase.SETUP:  # dealt, stored as running, not yet begun
            await self._open_game(table)
            return
        plan = st.plan(current.state, table.spec.options)
        step = table.step
        if step is not None and step.previous is not None:  # stored over, not yet closed
            await self._retire_step(table, Step.from_dict(step.previous), current.state, plan)
            await self._retired(table)
        if step is not None and step.key == plan.key and plan.kind != "over":
            if step.message is None:
                await self._show(table, current.state)
            await self._prompt_all(table, current.state)  # any prompt not sent before the stop
            await self._sync_mutes(table, current.state, plan)
            self._arm(table)
        else:
            await self._advance(table, current, {})
        await self._absent(table)  # a silent player's removal the stop cut short

    # --- the game: acting, and moving from step to step ------------------------------------------
    async def _act(self, table: Table, event: rules.Event, render: Render | None = None) -> Outcome:
        return await self.service.act(table.chat, BOT, event, render=render)

    async def _act_and_advance(self, table: Table, event: rules.Event, *,
                               lead: list[str] | None = None,
                               acknowledge: Callable[[], Awaitable[None]] | None = None) -> Outcome:
        """Apply one event (the rules may refuse it): what it announces — ``lead`` lines first —
        is queued with it in the outbox (:meth:`_renderer`); ``acknowledge`` (the answer to the
        press that asked for it) once it is committed, never before; then the step the rules
        expect."""
        box: dict[str, Any] = {"lead": list(lead or [])}
        outcome = await self._act(table, event, self._renderer(table, box))
        if acknowledge is not None:
            await acknowledge()
        await self._advance(table, outcome, box)
        return outcome

    def _renderer(self, table: Table, box: dict[str, Any],
                  before: Callable[[Outcome], Awaitable[list[OutboxItem]]] | None = None) -> Render:
        """The ``render`` of an action (run by the service after ``rules.apply``, before the
        commit): the messages it causes, queued in the same transaction (ENGINEERING.md §1).
        ``before(outcome)`` may add messages ahead of them. What :meth:`_advance` needs is left
        in ``box`` (``slot``: the new step message's; ``over``; ``chats``: who got something)."""

        async def render(outcome: Outcome) -> list[OutboxItem]:
            items: list[OutboxItem] = list(await before(outcome)) if before is not None else []
            items.extend(await self._answer_items(table, outcome))
            items.extend(await self._group_items(table, outcome, box))
            box["chats"] = list(dict.fromkeys(item.chat for item in items))
            return items

        return render

    async def _answer_items(self, table: Table, outcome: Outcome) -> list[OutboxItem]:
        """A check's answer goes to its checker only (F24 §4.5.6–4.5.7)."""
        items: list[OutboxItem] = []
        for notice in outcome.notices:
            role = {Kind.DON_CHECK: rules.Role.DON, Kind.SHERIFF_CHECK: rules.Role.SHERIFF}.get(notice.kind)
            if role is None:
                continue
            seat = st.role_seat(outcome.state, role)
            user = table.seats.get(seat) if seat is not None else None
            if user is not None:
                items.append(OutboxItem(user, {"text": vw.check_answer(notice, await self._cat(user))}))
        return items

    async def _group_items(self, table: Table, outcome: Outcome, box: dict[str, Any]) -> list[OutboxItem]:
        """The group's part: the event's public lines — as the new step message's head when a
        step opens (its step line under them, the slot :func:`step_slot`), alone when the step
        goes on or the night's message is kept — or the result (F24 §1.4) and the channel's."""
        cat = await self._cat(table.chat)
        state = outcome.state
        lines = [*box.get("lead", []), *vw.public_lines(outcome.notices, cat)]
        plan = st.plan(state, table.spec.options)
        old = table.step
        if plan.kind == "over":
            box["over"] = OVER_SLOT
            text = "\n".join([*lines, "", result_text(state, cat)]).strip()
            return [OutboxItem(table.chat, {"text": text}, slot=OVER_SLOT),
                    *await self._channel_result_items(table, state)]
        if (old is not None and old.key == plan.key) or same_night(old, plan):
            return [OutboxItem(table.chat, {"text": "\n".join(lines)})] if lines else []
        step = self._new_step(plan, old, 0.0, "\n".join(lines), outcome.revision)
        box["slot"], box["base"] = step_slot(step.no, step.key), step.base
        return [OutboxItem(table.chat, {"text": vw.step_text(step, state, cat), "base": step.base},
                           slot=box["slot"])]

    def _new_step(self, plan: Plan, old: Step | None, now: float, base: str, revision: int) -> Step:
        return Step(no=(old.no if old else 0) + 1, key=plan.key, kind=plan.kind,
                    seconds=plan.seconds, seat=plan.seat, night=plan.night, opened=now,
                    deadline=now + plan.seconds * self.scale, base=base, revision=revision)

    async def _flush(self, *chats: str) -> None:
        """Let the outbox's sender post what is queued for ``chats`` now (in order; a chat that
        must wait out a 429 is sent later by the sender itself)."""
        for chat in dict.fromkeys(chats):
            await self.referee.outbox.flush(chat)

    async def _advance(self, table: Table, outcome: Outcome, box: dict[str, Any]) -> None:
        """After the commit: the step the rules expect now is stored first (a restart finds it and
        its queued message), then the old step is closed, the private and channel messages
        leave, and the new step's message leaves and gets its buttons. If the step running is
        still the one expected (a foul inside a speech), it goes on and the event's lines leave
        on their own."""
        state = outcome.state
        others = [c for c in box.get("chats", []) if c != table.chat]
        plan = st.plan(state, table.spec.options)
        old = table.step
        if old is not None and old.key == plan.key and plan.kind != "over":
            await self._flush(*others, table.chat)
            old.revision = outcome.revision
            if old.view or old.kind in ("speech", "silenced"):  # the nominations may have changed
                old.view = ""
                await self._show(table, state)
            await self._save(table, "step")
            await self._sync_mutes(table, state, plan)
            return
        if plan.kind == "over":
            await self._retire_step(table, old, state, plan)
            await self._flush(*others)
            await self._finish(table, outcome, box)
            return
        await self._store_step(table, plan, old, outcome.revision, box)
        await self._retire_step(table, old, state, plan)
        await self._retired(table)
        await self._flush(*others)
        await self._open(table, state, plan)

    async def _catch_up(self, table: Table, current: Outcome) -> None:
        await self._advance(table, current, {})

    async def _queued(self, table: Table, slot: str) -> tuple[bool, str | None]:
        """Was a message under ``slot`` queued for the group (sent or still pending)? And the
        base it was queued with, when the row is still pending."""
        pending = await self.service.store.pending(table.chat)
        row = next((r for r in pending if r.slot == slot), None)
        if row is not None:
            return True, str(row.payload.get("base", ""))
        if table.game_id is not None and await self.service.store.message(
                table.game_id, table.chat, slot) is not None:
            return True, None
        return False, None

    async def _store_step(self, table: Table, plan: Plan, old: Step | None, revision: int,
                          box: dict[str, Any]) -> Step:
        """The new step, stored at once. Its message was queued with the event (``box``); a
        resumed table looks for it in the outbox (the base of a message already sent is the
        words of the events since the old step, derived again from the log — for its edits
        only: nothing is posted again)."""
        now = self.clock()
        step = self._new_step(plan, old, now, "", revision)
        if old is not None:  # closed after this store; a restart in between closes it then
            step.previous = {**old.to_dict(), "previous": None}
        if same_night(old, plan) and old is not None:
            step.message, step.base, step.slot = old.message, old.base, old.slot  # one message
        elif box.get("slot"):
            step.slot, step.base = box["slot"], box.get("base", "")
        else:
            slot = step_slot(step.no, step.key)
            queued, base = await self._queued(table, slot)
            if queued:
                step.slot = slot
                step.base = base if base is not None else await self._base_since(table, old)
        table.step = step
        data = {"data": table.data} if old is not None and self._count_silence(table, old) else {}
        await self.service.store.update_host_table(  # the step, its record and the old step's
            table.id, step=step.to_dict(),            # silence count: one transaction
            opened=HostStepRow(step.no, step.key, step.kind, step.seconds, now), **data)
        return step

    async def _base_since(self, table: Table, old: Step | None) -> str:
        """The public lines of the events logged after ``old`` last changed (the head of a step
        message the outbox sent before a crash): replayed by the engine, for the edits."""
        row = await self.service.store.game(table.game_id) if table.game_id else None
        revision = old.revision if old is not None else 0
        if row is None or revision <= 0:
            return ""
        log_ = await self.service.events(table.chat)
        state, _ = rules.fold(rules.config_from_dict(row.config), log_[:revision], row.names)
        notices: list[rules.Notice] = []
        for event in rules.effective(log_[revision:]):
            try:
                state, new = rules.apply(state, event)
            except (rules.RuleError, TypeError):
                break
            notices.extend(new)
        return "\n".join(vw.public_lines(notices, await self._cat(table.chat)))

    async def _open(self, table: Table, state: rules.GameState, plan: Plan) -> None:
        """The stored new step goes live: the mutes, its message (from the outbox, in order after
        the event's lines), its buttons, its private prompts, its timer."""
        await self._sync_mutes(table, state, plan)
        await self._flush(table.chat)
        await self._show(table, state)
        await self._prompt_all(table, state)
        self._arm(table)

    async def _adopt(self, table: Table, step: Step) -> int | None:
        """The id of the step's message once the outbox has sent it; ``None`` while it is still
        queued. If the sender gave it up, the slot is dropped: the message is posted directly."""
        if table.game_id is not None:
            found = await self.service.store.message(table.game_id, table.chat, step.slot)
            if found is not None:
                return found
        if not (await self._queued(table, step.slot))[0]:
            step.slot = ""
        return None

    async def _show(self, table: Table, state: rules.GameState, *, closed: bool = False) -> None:
        """The step's group message: edited in place; taken from the outbox once its first post
        has left (then edited: its buttons, its stage); posted here only when nothing was queued
        for it (a resumed or moved table)."""
        step = table.step
        if step is None:
            return
        cat = await self._cat(table.chat)
        text = vw.step_text(step, state, cat, closed=closed)
        rows = None if closed else vw.step_keyboard(step, state, table.id, cat)
        if step.message is None and step.slot:
            found = await self._adopt(table, step)
            if found is not None:
                as_queued = (step.slot == step_slot(step.no, step.key) and step.stage == "running"
                             and not closed)
                if rows or not as_queued:  # the buttons; or the stage / step moved on meanwhile
                    await self._edit(table.chat, found, text, rows)
                step.message = found
                await self._save(table, "step")
                return
            if step.slot:
                return  # still in the outbox: shown with its buttons once it has left
        if step.message is not None:
            await self._edit(table.chat, step.message, text, rows)
            return
        sent = await self._send(table.chat, text, rows)
        if sent is not None:
            step.message = sent.message_id
            await self._save(table, "step")

    async def _retire_step(self, table: Table, step: Step | None, state: rules.GameState,
                           following: Plan) -> None:
        """The step ``step`` is over: its timer stops, its message loses its buttons and shows
        how it ended (a night's message is kept for the night's next step), its prompts close.
        (Its silence was counted when the next step was stored: :meth:`_count_silence`.)"""
        self._cancel(table)
        if step is None:
            return
        same_night = step.at_night and following.kind in st.NIGHT_STEPS and following.night == step.night
        if step.message is None and step.slot and not same_night:
            found = await self._adopt(table, step)
            step.message = found if found is not None else step.message
        if not same_night:
            cat = await self._cat(table.chat)
            closed = vw.step_text(step, state, cat, closed=True)
            if step.message is not None:
                await self._edit(table.chat, step.message, closed)
            elif step.slot:  # still in the outbox (a 429): its closing edit queued behind it
                await self.service.store.enqueue(
                    [OutboxItem(table.chat, {"text": closed}, kind="edit", slot=step.slot)],
                    game_id=table.game_id)
        for user, message_id in step.prompts.items():
            cat = await self._cat(user)
            seat = table.seat_of(user)
            if seat is None:
                continue
            text, _ = vw.prompt(step, state, seat, table.id, cat)
            await self._edit(user, message_id, f"{text}\n\n{cat.text('host-prompt-closed')}")

    async def _retired(self, table: Table) -> None:
        """The step before the running one is closed (:meth:`_retire_step`): forget it."""
        if table.step is not None and table.step.previous is not None:
            table.step.previous = None
            await self._save(table, "step")

    async def _prompt_all(self, table: Table, state: rules.GameState) -> None:
        """The night's private prompts: the blacks' shot, the Don's or the Sheriff's check, the
        victim's best move (nothing is sent for a role no longer in the game, and the step runs
        its full length all the same)."""
        step = table.step
        if step is None:
            return
        for seat in st.prompted(state, step):
            user = table.seats.get(seat)
            if user is None or user in step.prompts:
                continue
            cat = await self._cat(user)
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            sent = await self._send(user, text, rows)
            if sent is not None:  # stored at once: a restart sends only the prompts not sent
                step.prompts[user] = sent.message_id
                await self._save(table, "step")

    # --- mutes --------------------------------------------------------------------------------------
    async def _restrict(self, table: Table, user: str, *, mute: bool) -> bool | None | str:
        """Mute or unmute one player. ``True`` done; ``None`` Telegram refuses for this member (an
        admin or the owner: seed 4.1.1 fouls cover him); ``False`` the bot lacks the right;
        ``LATER`` a passing failure (the network, a flood wait), tried a few times already: the
        next step's muting tries again, the table keeps muting."""
        permissions = ChatPermissions.no_permissions() if mute else ChatPermissions.all_permissions()
        until = int(time.time() + self.settings.telegram_host_mute_hours * 3600) if mute else None
        for wait in (*RESTRICT_BACKOFF, None):
            try:
                await self._bot.restrict_chat_member(chat_id_of(table.chat), chat_id_of(user),
                                                     permissions=permissions, until_date=until)
                return True
            except BadRequest as error:  # (a NetworkError subclass: first)
                text = str(error).lower()
                if "administrator" in text or "owner" in text or "creator" in text:
                    return None
                log.warning("host: cannot restrict %s in %s: %s", user, table.chat, error)
                return False
            except (NetworkError, RetryAfter) as error:  # passing: try again shortly
                log.info("host: restricting %s in %s failed, %s: %s", user, table.chat,
                         "giving up for this step" if wait is None else "retrying", error)
                if wait is None:
                    return LATER
                delay = retry_seconds(error) if isinstance(error, RetryAfter) else wait
                await asyncio.sleep(min(delay, MAX_RESTRICT_WAIT))
            except TelegramError as error:  # Forbidden: the bot is no longer an admin there
                log.warning("host: restricting %s in %s failed: %s", user, table.chat, error)
                return False
        return LATER

    async def _sync_mutes(self, table: Table, state: rules.GameState, plan: Plan) -> None:
        """Restrict mode: everyone but the speaker is muted (departed players for the rest of the
        game). Only the differences are sent; what was done is stored with the table."""
        if table.data.get("mode") != "restrict" or state.phase is Phase.GAME_OVER:
            return
        open_ = {table.seats[s] for s in st.writers(state, plan) if s in table.seats}
        everyone = set(table.seats.values())
        muted = set(table.data.get("muted", []))
        unmutable = set(table.data.get("unmutable", []))
        before = (set(muted), set(unmutable))
        for user in sorted(everyone - open_ - muted - unmutable):
            done = await self._restrict(table, user, mute=True)
            if done is True:
                muted.add(user)
            elif done is None:
                unmutable.add(user)
            elif done == LATER:
                continue  # not muted yet: the next step's sync tries him again
            else:  # the right is gone: fall back to fouls (seed 4.1.1) and say so
                table.data["mode"] = "foul"
                await self._send(table.chat, (await self._cat(table.chat)).text("host-mute-failed"))
                break
        for user in sorted(muted & open_):
            if await self._restrict(table, user, mute=False) is True:
                muted.discard(user)
        if (muted, unmutable) != before or table.data.get("mode") != "restrict":
            table.data["muted"], table.data["unmutable"] = sorted(muted), sorted(unmutable)
            await self._save(table, "data")

    async def _unmute_all(self, table: Table) -> None:
        for user in list(table.data.get("muted", [])):
            await self._restrict(table, user, mute=False)
        table.data["muted"] = []
        await self._save(table, "data")

    # --- the end --------------------------------------------------------------------------------------
    async def _finish(self, table: Table, outcome: Outcome, box: dict[str, Any]) -> None:
        """The result (F24 §1.4) with the roles revealed — queued with the last event (a resumed
        table finds it queued; posted here only if the event was logged without it) — the mutes
        lifted, the club channel's protocol sent; the table is stored as over last (nothing
        resumes a table that is over: a process that dies before does all this again at the
        restart — the result not twice, it is in the outbox)."""
        state = outcome.state
        if box.get("over") is None and not (await self._queued(table, OVER_SLOT))[0]:
            await self._send(table.chat, result_text(state, await self._cat(table.chat)))
        await self._flush(table.chat)
        await self._unmute_all(table)
        linked = await self.service.store.host_channel(table.chat)
        if linked is not None:
            await self._send_protocol(table, linked[0])
        table.step = None
        table.status = "over"
        await self._save(table, "step", "status")

    async def _stop(self, table: Table, who: str) -> None:
        """The host (or an admin) stops the table: a running game is recorded as abandoned, its
        log kept as played. Who stopped it is stored first: a process that dies after the
        abandon finishes the stop at the restart (:meth:`_stopped`)."""
        cat = await self._cat(table.chat)
        self._cancel(table)
        if table.status == "running":
            table.data["stopped_by"] = who
            await self._save(table, "data")
            current = await self.service.current(table.chat)
            if current is not None:
                table_state = current.state
                step = table.step
                if step is not None and step.message is not None:
                    await self._edit(table.chat, step.message,
                                     vw.step_text(step, table_state, cat, closed=True))
            try:
                await self.service.abandon(table.chat, BOT)
            except ServiceError as error:
                log.info("host: table %s: %s", table.id, error)
        elif table.lobby_message is not None:
            await self._edit(table.chat, table.lobby_message, cat.text("host-lobby-closed"))
        await self._stopped(table, who)

    async def _stopped(self, table: Table, who: str) -> None:
        """The end of a stop (its game abandoned, if it had one): the mutes lifted, the table
        stored as stopped, the group told."""
        await self._unmute_all(table)
        table.step = None
        table.status = "stopped"
        await self._save(table, "step", "status")
        cat = await self._cat(table.chat)
        await self._send(table.chat, cat.text("host-stopped", who=who))

    # --- the lobby --------------------------------------------------------------------------------------
    def _link(self, table: Table) -> str:
        return vw.deep_link(self._bot.username or "bot", table.id)

    async def _lobby_text(self, table: Table, cat: Catalog) -> tuple[str, vw.Rows]:
        rights = table.data.get("rights", {})
        lines = [cat.text("host-lobby", preset=cat.text(f"preset-{table.spec.config.preset}"),
                          seating=table.spec.options.seating, count=len(table.players),
                          left=TABLE_SIZE - len(table.players), host=table.data.get("host_name", ""))]
        lines.append(cat.text("host-lobby-absent", count=table.spec.options.absent_after))
        for index, player in enumerate(table.players, 1):
            lines.append(cat.text("host-lobby-player", index=index, name=player["name"],
                                  reachable="yes" if player.get("reachable") else "no"))
        if any(not p.get("reachable") for p in table.players):
            lines.append(cat.text("host-lobby-open-bot", link=self._link(table)))
        mute = table.spec.options.mute
        if not rights.get("read", True):
            lines.append(cat.text("host-rights-read"))
        if mute != "foul" and not rights.get("restrict", False):
            lines.append(cat.text("host-rights-restrict"))
        if not rights.get("delete", False):
            lines.append(cat.text("host-rights-delete"))
        rows: vw.Rows = [[vw.Btn(cat.text("host-btn-join"), vw.encode(table.id, 0, vw.JOIN)),
                          vw.Btn(cat.text("host-btn-leave"), vw.encode(table.id, 0, vw.LEAVE))],
                         [vw.Btn(cat.text("host-btn-open-bot"), url=self._link(table))]]
        return "\n".join(lines), rows

    async def _show_lobby(self, table: Table) -> None:
        cat = await self._cat(table.chat)
        text, rows = await self._lobby_text(table, cat)
        if table.lobby_message is not None:
            await self._edit(table.chat, table.lobby_message, text, rows)
            return
        sent = await self._send(table.chat, text, rows)
        if sent is not None:
            table.lobby_message = sent.message_id
            await self._save(table, "lobby_message")

    async def _new_table(self, message: Message, user: Any, args: list[str]) -> None:
        chat = key(message.chat.id)
        cat = await self._cat(chat)
        if await self._live(chat) is not None:
            await self._send(chat, cat.text("host-busy"))
            return
        if await self.service.home(chat) != chat:
            await self._send(chat, cat.text("host-judge-linked"))
            return
        current = await self.service.current(chat)
        if current is not None and not current.finished:  # over, or stopped: a new table may open
            await self._send(chat, cat.text("host-busy"))
            return
        settings = self.settings
        spec = parse_newgame(args, vote_window=settings.telegram_host_vote_window,
                             shooting=settings.telegram_host_shooting,
                             silenced=settings.telegram_host_silenced)
        data = {"rights": await self._rights(chat, message.chat.type),
                "host_name": display_name(user), "title": message.chat.title or "",
                "chat_type": message.chat.type}
        table_id = await self.service.store.create_host_table(chat, key(user.id), spec.to_dict(),
                                                              data=data)
        table = await self._load(table_id)
        assert table is not None
        await self._show_lobby(table)

    async def _hello(self, table: Table, user: str) -> bool:
        """Can the bot write to the player privately (he has started it)? Says hello if so."""
        cat = await self._cat(user)
        return await self._send(user, cat.text("host-joined", title=table.data.get("title", ""))) is not None

    async def _join(self, query: Any, table: Table, user: Any) -> None:
        cat = await self._cat(table.chat)
        who = key(user.id)
        player = table.player(who)
        if player is not None:
            # already seated; one not yet reachable (the bot could not write to him, or a
            # restart cut his join short) is tried again: pressing again is how he says "now"
            if not player.get("reachable") and await self._hello(table, who):
                await self._answer(query, cat.text("host-join-done"))
                await self._reachable(table, who)
            else:
                await self._answer(query, cat.text("host-join-already"))
                await self._maybe_start(table)  # a start a restart cut short
            return
        if table.full:
            await self._answer(query, cat.text("host-join-full"), alert=True)
            return
        table.players.append({"user": who, "name": display_name(user), "reachable": False})
        await self._save(table, "players")
        reachable = await self._hello(table, who)
        table.players[-1]["reachable"] = reachable
        await self._save(table, "players")
        if reachable:
            await self._answer(query, cat.text("host-join-done"))
        else:
            await self._answer(query, cat.text("host-join-open-bot"), url=self._link(table))
        await self._show_lobby(table)
        await self._maybe_start(table)

    async def _leave(self, query: Any | None, table: Table, user: str) -> None:
        cat = await self._cat(table.chat)
        if table.player(user) is None:
            if query is not None:
                await self._answer(query, cat.text("host-not-in-lobby"))
            return
        if table.seats:  # seated: the deal is under way (a restart finishes it)
            if query is not None:
                await self._answer(query, cat.text("host-lobby-started"))
            return
        table.players = [p for p in table.players if p["user"] != user]
        await self._save(table, "players")
        if query is not None:
            await self._answer(query, cat.text("host-left-lobby"))
        await self._show_lobby(table)

    async def _reachable(self, table: Table, user: str) -> None:
        player = table.player(user)
        if player is None or player.get("reachable"):
            return
        player["reachable"] = True
        await self._save(table, "players")
        await self._show_lobby(table)
        await self._maybe_start(table)

    def _ready(self, table: Table) -> bool:
        """Ten players who can all be written to privately (R1.1)."""
        return table.status == "lobby" and table.full and all(p.get("reachable") for p in table.players)

    async def _maybe_start(self, table: Table) -> None:
        """A ready table: the deal and night 0 (R1.1)."""
        if self._ready(table):
            await self._start(table)

    def _rng(self, table: Table) -> random.Random:
        seed = self.settings.telegram_host_seed
        return random.Random(f"{seed}:{table.id}") if seed is not None else random.Random()

    async def _start(self, table: Table) -> None:
        """Seats (join order or shuffled), the random deal entered with :class:`rules.SetRoles`,
        the cards in private (queued with the deal), night 0 (its words queued with it).

        Each of these is stored before the next is done, so a process that dies on the way
        finishes the start when it comes back (:meth:`_resume`): the seats are stored first (the
        table is then "dealing"), a game of this table already created or dealt is taken up, not
        created or dealt again."""
        cat = await self._cat(table.chat)
        rng = self._rng(table)
        if not table.seats:
            order = list(table.players)
            if table.spec.options.seating == "shuffle":
                rng.shuffle(order)
            table.seats = {seat: p["user"] for seat, p in enumerate(order, 1)}
            await self._save(table, "seats")
        seats = dict(table.seats)
        names = {seat: (table.player(user) or {}).get("name", "") for seat, user in seats.items()}
        title = table.data.get("title", "")

        async def cards(dealt: Outcome) -> list[OutboxItem]:  # R1.1: each card in private
            return [OutboxItem(user, {"text": vw.role_card(dealt.state, seat, title,
                                                             await self._cat(user))})
                    for seat, user in seats.items()]

        outcome = await self._dealing_game(table)
        if outcome is None:
            outcome = await self.service.new_game(table.chat, BOT, table.spec.config, names)
        if not outcome.state.roles_known:
            outcome = await self._act(table, rules.SetRoles(roles=st.deal(rng)), cards)
        table.game_id = outcome.game_id
        table.status = "running"
        rights = await self._rights(table.chat, table.data.get("chat_type", "supergroup"))
        table.data["rights"] = rights
        mute = table.spec.options.mute
        table.data["mode"] = "restrict" if mute != "foul" and rights["restrict"] else "foul"
        table.data["delete"] = rights["delete"]
        table.data.setdefault("muted", [])
        if table.lobby_message is not None:  # before the store: a restart after it redoes this
            await self._edit(table.chat, table.lobby_message, cat.text("host-lobby-started"))
        await self._save(table, "seats", "game_id", "status", "data")
        await self._flush(*seats.values())
        await self._open_game(table)

    async def _open_game(self, table: Table) -> None:
        """The dealt game begins (:class:`rules.StartGame`, its words queued with it: the seats,
        how the table is kept quiet, the club channel's note), then night 0. Also what a
        restart does for a running table whose game was dealt but not yet begun."""
        cat = await self._cat(table.chat)
        mute = table.spec.options.mute
        fallback = "yes" if mute == "restrict" and table.data.get("mode") != "restrict" else "no"

        async def opening(started: Outcome) -> list[OutboxItem]:
            text = cat.text("host-started", host=table.data.get("host_name", ""),
                            seats=vw.seats_text(started.state, cat),
                            mode=table.data.get("mode", "foul"), fallback=fallback)
            return [OutboxItem(table.chat, {"text": text}),
                    *await self._channel_start_items(table, started.state)]

        box: dict[str, Any] = {}
        outcome = await self._act(table, rules.StartGame(), self._renderer(table, box, opening))
        await self._advance(table, outcome, box)

    async def _dealing_game(self, table: Table) -> Outcome | None:
        """The game a start cut short created for this seated table: the chat's current game,
        unfinished, the bot's own, created after the table and still in its setup."""
        current = await self.service.current(table.chat)
        if current is None or current.judge != BOT or current.state.phase is not Phase.SETUP:
            return None
        row = await self.service.store.game(current.game_id)
        opened = await self.service.store.host_table(table.id)
        if row is None or opened is None or row.finished or row.created_at < opened.created_at:
            return None
        return current

    # --- the club channel and the protocol ----------------------------------------------------------
    async def _set_channel(self, chat: str, user: str, args: list[str]) -> None:
        cat = await self._cat(chat)
        if not await self._is_admin(chat, user):
            await self._send(chat, cat.text("host-channel-admin-only"))
            return
        if not args:
            linked = await self.service.store.host_channel(chat)
            await self._send(chat, cat.text("host-channel-usage") if linked is None
                             else cat.text("host-channel-is", title=linked[1] or linked[0]))
            return
        if args[0].lower() in ("off", "нет", "-"):
            await self.service.store.set_host_channel(chat, None)
            await self._send(chat, cat.text("host-channel-unlinked"))
            return
        target = args[0] if args[0].startswith("@") or args[0].lstrip("-").isdigit() else f"@{args[0]}"
        try:
            found = await self._bot.get_chat(int(target) if target.lstrip("-").isdigit() else target)
            member = await self._bot.get_chat_member(found.id, self._bot.id)
        except TelegramError:
            await self._send(chat, cat.text("host-channel-not-found", name=target))
            return
        can_post = found.type == "channel" and (
            member.status == ChatMemberStatus.OWNER
            or (member.status == ChatMemberStatus.ADMINISTRATOR and bool(getattr(member, "can_post_messages", False))))
        if not can_post:
            await self._send(chat, cat.text("host-channel-cannot-post", name=target))
            return
        await self.service.store.set_host_channel(chat, key(found.id), found.title or target)
        await self._send(chat, cat.text("host-channel-linked", title=found.title or target))

    async def _channel_start_items(self, table: Table, state: rules.GameState) -> list[OutboxItem]:
        """The club channel's note of the start (queued with StartGame)."""
        linked = await self.service.store.host_channel(table.chat)
        if linked is None:
            return []
        cat = await self._cat(linked[0])
        return [OutboxItem(linked[0], {"text": cat.text(
            "host-channel-start", title=table.data.get("title", ""),
            host=table.data.get("host_name", ""), seats=vw.seats_text(state, cat))})]

    async def _channel_result_items(self, table: Table, state: rules.GameState) -> list[OutboxItem]:
        """The club channel's result (winner, departures in order and why, fouls, the best move:
        F24 §1.4, §8.3) and the game's length, queued with the last event; the protocol (PNG +
        JSON) follows it directly (:meth:`_finish`: files do not go through the outbox)."""
        linked = await self.service.store.host_channel(table.chat)
        if linked is None:
            return []
        channel = linked[0]
        cat = await self._cat(channel)
        row = await self.service.store.game(table.game_id) if table.game_id else None
        minutes = round((time.time() - row.created_at) / 60) if row else 0
        return [OutboxItem(channel, {"text": cat.text(
            "host-channel-result", title=table.data.get("title", ""),
            length=cat.text("host-minutes", count=minutes), result=result_text(state, cat))})]

    async def _send_protocol(self, table: Table, chat: str) -> bool:
        """The score sheet (PNG) and the JSON exports of a finished table's game: ours, and the
        MafiaRatings layout when it can express the game (it replays through our importer)."""
        from ...protocol import ExportError, render_sheet, to_json, to_mafiaratings

        if table.game_id is None:
            return False
        row = await self.service.store.game(table.game_id)
        if row is None:
            return False
        cat = await self._cat(chat)
        config = rules.config_from_dict(row.config)
        events = [rules.from_dict(r.event) for r in await self.service.store.events(row.id)]
        try:
            png = await asyncio.to_thread(render_sheet, config, row.names, events, cat.lang,
                                          game_id=row.id, played_at=row.created_at)
            ours = to_json(config, row.names, events, game_id=row.id, started_at=row.created_at,
                           ended_at=row.finished_at)
        except ExportError as error:
            log.warning("host: no protocol for game %s: %s", row.id, error)
            await self._send(chat, cat.text("host-protocol-failed"))
            return False
        files: list[tuple[str, dict[str, Any]]] = [(f"game-{row.id}.json", ours)]
        try:
            files.append((f"game-{row.id}.mafiaratings.json",
                          to_mafiaratings(config, row.names, events, game_id=row.id,
                                          started_at=row.created_at, ended_at=row.finished_at)))
        except ExportError as error:
            log.info("host: game %s has no MafiaRatings export: %s", row.id, error)
        try:
            await self._bot.send_photo(chat_id_of(chat), InputFile(io.BytesIO(png), filename=f"game-{row.id}.png"),
                                       caption=cat.text("host-protocol-caption", game=row.id))
            for name, data in files:
                payload = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
                await self._bot.send_document(chat_id_of(chat), InputFile(io.BytesIO(payload), filename=name))
        except TelegramError as error:
            log.warning("host: cannot send the protocol to %s: %s", chat, error)
            return False
        return True

    # --- handlers: the group --------------------------------------------------------------------------
    async def on_group(self, update: Update, context: Context) -> None:
        message = update.message
        user = update.effective_user
        if message is None:
            return
        chat = key(message.chat.id)
        if message.left_chat_member is not None:
            async with self._held(chat):
                await self._left(chat, key(message.left_chat_member.id))
            return
        if user is None or user.is_bot:
            return
        text = message.text or ""
        if text.startswith("/"):
            name = text.split(None, 1)[0].lstrip("/").split("@", 1)[0].lower()
            ours = name in ALWAYS_OURS or (
                name in HOST_COMMANDS | JUDGE_GROUP_COMMANDS and await self._live(chat) is not None)
            if ours:  # else the judge mode answers (a group linked to a judge's game)
                async with self._held(chat):
                    await self._command(message, user, name, text)
                raise ApplicationHandlerStop
            return
        if message.migrate_to_chat_id:
            async with self._held(chat):
                await self._migrated(chat, key(message.migrate_to_chat_id))
            return  # judge mode's handler moves the chat's link, language and outbox
        if message.new_chat_members or message.migrate_from_chat_id:
            return
        async with self._held(chat):
            await self._message(message, key(user.id), text)

    async def _migrated(self, old: str, new: str) -> None:
        """The group became a supergroup (a new chat id): its open table, the table's game and
        its club channel follow it; the lobby or the step's message is posted afresh there (the
        old one stays behind in the old chat)."""
        table = await self._live(old)
        await self.service.store.move_host_chat(old, new)
        if table is None:
            return
        async with self._held(new):
            current = await self.service.current(old) if table.game_id is not None else None
            if current is not None and current.game_id == table.game_id:
                await self.service.take_over(old, current.judge, home=new)
            table.chat = new
            table.lobby_message = None
            if table.step is not None:  # posted afresh in the new chat
                table.step.message, table.step.slot = None, ""
            await self._save(table, "lobby_message", "step")
            if table.status == "lobby":
                await self._show_lobby(table)
            elif current is not None:
                await self._show(table, current.state)

    async def _command(self, message: Message, user: Any, name: str, text: str) -> None:
        chat = key(message.chat.id)
        who = key(user.id)
        cat = await self._cat(chat)
        args = text.split()[1:]
        try:
            if name == "newgame":
                await self._new_table(message, user, args)
            elif name == "channel":
                await self._set_channel(chat, who, args)
            elif name == "protocol":
                await self._protocol(chat)
            else:
                await self._table_command(message, user, name, text, args)
        except _Refusal as error:
            await self._send(chat, self._refusal(error, cat))

    def _refusal(self, error: Exception, cat: Catalog) -> str:
        if isinstance(error, HostError):
            return cat.text("host-error-bad_option", **error.params)
        return error_text(error, cat)

    async def _table_command(self, message: Message, user: Any, name: str, text: str,
                             args: list[str]) -> None:
        chat = key(message.chat.id)
        who = key(user.id)
        cat = await self._cat(chat)
        table = await self._live(chat)
        if table is None:  # it stopped meanwhile
            await self._send(chat, cat.text("host-no-table"))
            return
        if name in JUDGE_GROUP_COMMANDS:
            await self._send(chat, cat.text("host-busy"))
            return
        if name == "stop":
            if not await self._may_direct(table, who):
                await self._send(chat, cat.text("host-not-host"))
                return
            await self._stop(table, display_name(user))
            return
        if table.status != "running":
            await self._send(chat, cat.text("host-not-started"))
            return
        current = await self.service.current(chat)
        assert current is not None
        state = current.state
        if name == "status":
            await self._send(chat, status_text(state, cat, for_judge=False))
            return
        if name in PENALTY_COMMANDS:  # the host's fouls (seed IV)
            if not await self._may_direct(table, who):
                await self._send(chat, cat.text("host-not-host"))
                return
            command = cmds.parse(text, state)
            if isinstance(command, Act):
                await self._act_and_advance(table, command.event)
            return
        seat = table.seat_of(who)
        step = table.step
        if seat is None or step is None or step.seat != seat or step.kind not in (*st.SPEAKING, "silenced"):
            await self._send(chat, cat.text("host-not-speaker"))
            return
        await self._active(table, step)
        if name in ("pass", "пас"):
            await self._act_and_advance(table, rules.Next())
            return
        command = cmds.parse(text, state)  # /nominate 7: the speaker nominates (F24 §4.4.2)
        if isinstance(command, Act) and isinstance(command.event, rules.Nominate):
            if command.event.by != seat:
                raise rules.RuleError(rules.Code.NOT_SPEAKER, seat=command.event.by, speaker=seat)
            await self._act_and_advance(table, command.event)

    async def _message(self, message: Message, user: str, text: str) -> None:
        """A player writes in the group: the speaker's «Пас» ends his minute; anyone else at the
        table speaks out of turn — by day a foul (seed 4.1.1), at night (night 0 included) a
        disqualifying foul for night talk (seed 4.2.6: :func:`steps.out_of_turn_reason`); the
        message is deleted where allowed."""
        chat = key(message.chat.id)
        table = await self._table_of(chat)
        if table is None or table.status != "running" or table.step is None:
            return
        seat = table.seat_of(user)
        if seat is None:
            return
        current = await self.service.current(chat)
        if current is None:
            return
        state = current.state
        plan = st.plan(state, table.spec.options)
        if plan.key != table.step.key:
            return
        if seat in st.writers(state, plan):
            await self._active(table, table.step)
            if text and st.is_pass(text):
                await self._act_and_advance(table, rules.Next())
            return
        reason = st.out_of_turn_reason(state, plan, seat)  # seed 4.1.1 by day, 4.2.6 at night
        if reason is not None:
            try:
                await self._act_and_advance(table, rules.Penalty(seat=seat, reason=reason))
            except rules.RuleError as error:
                log.info("host: no foul for %s: %s", seat, error)
        if table.data.get("delete"):  # after the foul is stored: the message is its evidence
            await self._delete(message)

    async def _left(self, chat: str, user: str) -> None:
        """A player left the group: off the lobby; at the table, he left it (seed 4.2.1)."""
        table = await self._live(chat)
        if table is None:
            return
        if table.status == "lobby":
            await self._leave(None, table, user)
            return
        await self._left_table(table, user)

    async def _left_table(self, table: Table, user: str) -> None:
        seat = table.seat_of(user)
        if seat is None:
            return
        current = await self.service.current(table.chat)
        if current is None or not current.state.seat(seat).at_table:
            return
        try:
            await self._act_and_advance(table, rules.Penalty(seat=seat, reason=LEFT_TABLE))
        except rules.RuleError as error:
            log.info("host: %s left, no penalty: %s", seat, error)

    async def _protocol(self, chat: str) -> None:
        cat = await self._cat(chat)
        row = await self.service.store.host_table_of(chat, "over")
        table = await self._load(row.id) if row is not None else None
        if table is None:
            await self._send(chat, cat.text("host-protocol-none"))
            return
        await self._send_protocol(table, chat)

    # --- handlers: buttons ---------------------------------------------------------------------------
    async def on_press(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None or query.from_user is None:
            return
        press = vw.decode(query.data)
        table = await self._load(press.table) if press is not None else None
        if press is None or table is None:
            cat = await self._cat(key(query.from_user.id))
            await self._answer(query, cat.text("host-outdated"))
            raise ApplicationHandlerStop
        async with self._held(table.chat):
            try:
                await self._pressed(query, table, press)
            except _Refusal as error:
                cat = await self._cat(table.chat)
                await self._answer(query, self._refusal(error, cat)[:200], alert=True)
        raise ApplicationHandlerStop

    async def _pressed(self, query: Any, table: Table, press: vw.HostPress) -> None:
        cat = await self._cat(table.chat)
        user = key(query.from_user.id)
        if press.action in (vw.JOIN, vw.LEAVE):
            if table.status != "lobby":
                await self._answer(query, cat.text("host-outdated"))
            elif press.action == vw.JOIN:
                await self._join(query, table, query.from_user)
            else:
                await self._leave(query, table, user)
            return
        step = table.step
        if table.status != "running" or step is None or step.no != press.step:
            await self._answer(query, cat.text("host-outdated"))
            return
        seat = table.seat_of(user)
        if seat is None:
            await self._answer(query, cat.text("host-not-player"), alert=True)
            return
        current = await self.service.current(table.chat)
        assert current is not None
        state = current.state
        if st.plan(state, table.spec.options).key != step.key:  # the step outlived its turn
            await self._answer(query, cat.text("host-outdated"))
            await self._advance(table, current, {})
            return
        action = press.action
        if action in (vw.PASS, vw.NOM_VIEW, vw.BACK, vw.NOMINATE):
            await self._speaker_press(query, table, step, state, seat, press)
        elif action == vw.HAND:
            await self._hand(query, table, step, state, seat)
        elif action in (vw.SHOOT, vw.CHECK, vw.BEST):
            await self._night_press(query, table, step, state, seat, press)
        else:
            await self._answer(query, cat.text("host-outdated"))

    async def _speaker_press(self, query: Any, table: Table, step: Step, state: rules.GameState,
                             seat: int, press: vw.HostPress) -> None:
        cat = await self._cat(table.chat)
        if step.seat != seat or step.kind not in (*st.SPEAKING, "silenced"):
            await self._answer(query, cat.text("host-not-speaker"), alert=True)
            return
        await self._active(table, step)
        if press.action == vw.PASS:
            await self._act_and_advance(table, rules.Next(), acknowledge=lambda: self._answer(query))
        elif press.action in (vw.NOM_VIEW, vw.BACK):
            step.view = "nominate" if press.action == vw.NOM_VIEW else ""
            await self._save(table, "step")
            await self._answer(query)
            await self._show(table, state)
        else:
            target = press.seat()
            if target is None:
                raise ValueError("no target")
            await self._act_and_advance(table, rules.Nominate(by=seat, target=target),
                                        acknowledge=lambda: self._answer(
                                            query, cat.text("host-nominated",
                                                            seat=seat_label(target, cat))))

    async def _hand(self, query: Any, table: Table, step: Step, state: rules.GameState, seat: int) -> None:
        """A hand up or down in the window of one nominee (F24 §4.4.5; seed 4.1.8: one vote a
        round, the engine says who may) or of the raise vote (§4.4.12.3)."""
        cat = await self._cat(table.chat)
        if step.kind not in st.WINDOWS:
            await self._answer(query, cat.text("host-outdated"))
            return
        try:
            up = st.toggle_hand(state, step, seat)
        except rules.RuleError as refusal:
            await self._answer(query, error_text(refusal, cat)[:200], alert=True)
            return
        await self._save(table, "step")
        await self._answer(query, cat.text("host-hand", up="yes" if up else "no",
                                           kind=step.kind, seat=seat_label(step.seat, cat)))

    async def _night_press(self, query: Any, table: Table, step: Step, state: rules.GameState,
                           seat: int, press: vw.HostPress) -> None:
        """A shot, a check or a best-move seat, changeable until the step closes; applied then."""
        user = key(query.from_user.id)
        cat = await self._cat(user)
        if not st.take_night_choice(state, step, seat, press.action, press.seat()):
            await self._answer(query, cat.text("host-outdated"))
            return
        await self._save(table, "step")
        await self._answer(query, cat.text("host-taken"))
        message_id = step.prompts.get(user)
        if message_id is not None:
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            await self._edit(user, message_id, text, rows)

    # --- handlers: private chats ---------------------------------------------------------------------
    async def on_private(self, update: Update, context: Context) -> None:
        message = update.message
        user = update.effective_user
        if message is None or user is None or message.text is None:
            return
        who = key(user.id)
        text = message.text
        table_id = vw.start_payload(text)
        if table_id is not None:  # the lobby's deep link
            table = await self._load(table_id)
            cat = await self._cat(who)
            if table is None or table.status != "lobby" or table.player(who) is None:
                await self._send(who, cat.text("host-link-stale"))
            else:
                async with self._held(table.chat):
                    await self._send(who, cat.text("host-joined", title=table.data.get("title", "")))
                    await self._reachable(table, who)
            raise ApplicationHandlerStop
        if text.split(None, 1)[0].split("@")[0] == "/start":
            for table in [t for t in self._tables.values() if t.status == "lobby" and t.player(who)]:
                async with self._held(table.chat):
                    await self._reachable(table, who)
            return
        if text.startswith("/"):
            return
        seated = [t for t in self._tables.values() if t.status == "running" and t.seat_of(who)]
        for table in seated:
            if table.step is not None and table.step.kind == "night_zero":
                async with self._held(table.chat):
                    if await self._relay(table, who, text):
                        raise ApplicationHandlerStop
        if seated:  # a player's stray message is not a judge's command
            await self._send(who, (await self._cat(who)).text("host-private-closed"))
            raise ApplicationHandlerStop

    async def _relay(self, table: Table, user: str, text: str) -> bool:
        """Night 0 (F24 §4.2): what one black writes to the bot goes to the other blacks."""
        current = await self.service.current(table.chat)
        seat = table.seat_of(user)
        if current is None or seat is None or current.state.phase is not Phase.NIGHT_ZERO:
            return False
        blacks = st.blacks_at_table(current.state)
        if seat not in blacks:
            return False
        for other in blacks:
            if other != seat and other in table.seats:
                cat = await self._cat(table.seats[other])
                await self._send(table.seats[other], cat.text("host-relay", seat=seat_label(seat, cat), text=text))
        return True

    async def on_my_member(self, update: Update, context: Context) -> None:
        """A player blocked the bot: his night prompts cannot reach him. In the lobby he is not
        reachable any more; at the table he has left it (seed 4.2.1)."""
        changed: ChatMemberUpdated | None = update.my_chat_member
        if changed is None or changed.chat.type != "private":
            return
        if changed.new_chat_member.status not in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
            return
        who = key(changed.chat.id)
        for table in list(self._tables.values()):
            if table.status == "lobby" and table.player(who) is not None:
                async with self._held(table.chat):
                    player = table.player(who)
                    if player is not None:
                        player["reachable"] = False
                        await self._save(table, "players")
                        await self._show_lobby(table)
            elif table.status == "running" and table.seat_of(who) is not None:
                async with self._held(table.chat):
                    await self._left_table(table, who)
