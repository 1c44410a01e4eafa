"""Host mode's table flow, written once for every platform: the bot runs a whole table.

The lobby (``/newgame``), the deal, and then the game step by step: the rules engine says what
comes next (:mod:`.steps`), the controller opens the step (a group message with its countdown and
buttons, private prompts at night, mutes), collects the players' inputs, and when the step closes
— its time is up, or the speaker passes — turns them into ONE engine event through the
:class:`bot.service.Service` the judge mode uses (the bot is the judge: :attr:`HostPort.judge`).
A platform gives only its primitives (:class:`.port.HostPort`: :mod:`bot.telegram.host`,
:mod:`bot.discord.host`) and hands its updates to the public methods here.

* **One lock per table's chat** (:class:`bot.locks.ChatLocks`, shared with the judge mode of the
  same platform): handlers, presses and deadlines of a table run one at a time.
* **Stored, then shown.** A step is stored with the table (``host_tables.step``: deadline, inputs,
  message ids) and logged with its length (``host_steps``); at start-up every open table is loaded
  and resumed where it was — its deadline re-armed, or the step the rules expect opened. While a
  step runs, its deadline is kept on the monotonic clock (:mod:`bot.steady`): a step of the wall
  clock (NTP, a resumed VM) neither freezes it nor ends it early.
* **The outbox.** What an action announces — the lines of the event (fouls, nominations, the
  vote's result, «Наступает ночь», the night's result, the result), the players' cards, the
  checks' answers, the club channel's notes, the protocol — is rendered when the service applies
  the event and queued in the SAME transaction (:mod:`bot.outbox`); the new step's group message
  is queued there too, under the slot :func:`step_slot`, and once the sender has posted it the
  controller takes its id and from then on only edits it (its buttons, countdown, closing).
  Status messages — the lobby, a step's message after its first post, the night prompts — are
  edits of stored messages, or posted again only when their id was never stored.
* **Only the speaker writes** (seed 4.1.1): the platform mutes the others where it can
  (:class:`.port.MuteMode`); otherwise — and for members the platform will not mute — a message
  out of one's minute is a foul (seed 4.1.1), at night (night 0 too) a disqualifying foul for
  night talk (seed 4.2.6), deleted where allowed, after the foul is stored (it is its evidence).
* **Secrecy** (F24 §4.4.13, §4.5.4): the roles go to each player, a check's answer to its
  checker, nothing else; every night step lasts its full length and reads the same in the group
  whether or not its role is still at the table.
* **A player who misses his turns:** the rules' defaults (a hand not raised goes to the last
  nominee, F24 §4.4.8; a shot not fired is a miss, §4.5.5; a check not made is not made) and the
  stated option ``absent_after`` (:class:`.options.HostOptions`): that many silent own speeches in
  a row are leaving the table, seed 4.2.1. Leaving the group or blocking the bot is too.

Decisions both platforms share (they once drifted apart): a press is checked for its step first
(an outdated button does nothing, whoever presses it), then for the presser's seat; a press that
acts is answered once its event is committed, never before; a player's private answers are in his
own language; a message out of turn is deleted after its foul is stored; a deal cut short by a
restart is finished at the restart; at the end the result, then the protocol go to the group and
the club channel.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable

import rules
from rules import Kind, Phase
from storage import HostStepRow, OutboxItem
from storage.club import fold
from storage.evening import CLOSED, GOING
from storage.host import host_update
from storage.shared import kept

from .. import commands as cmds
from ..club.defaults import merged, split
from ..club.evening import TAKEN_HOURS
from ..club.tournament import TournamentDesk, hosted_key
from .. import why
from .. import outbox as ob
from ..commands import Act, CommandError, Explain, Place, Show
from ..front import Call
from ..judge.port import Reply
from ..i18n import Catalog
from ..locks import ChatLocks
from ..lru import Recent
from ..render import config_label, error_text, result_text, seat_label, status_text
from ..service import Outcome, Render, Service, ServiceError, Staged
from ..steady import Steady
from . import steps as st
from . import views as vw
from .options import HostError, parse_newgame
from .port import HostPort, Mute, MuteMode, Player, Rights, TableFlags
from .steps import Plan, Stage, Step, StepKind
from .table import LEFT_TABLE, TABLE_SIZE, Table, TableStatus, same_night

log = logging.getLogger(__name__)

LIVE = (TableStatus.LOBBY, TableStatus.RUNNING)
OVER_SLOT = "host:over"  # the outbox slot of the result's message (F24 §1.4)
SHOW_POLL = 0.5  # real seconds between looks at a step whose message is not shown yet
#: real seconds before a table whose deadline's handler failed (a full disk) is tried again
FAILED_RETRY = 5.0
LATE_NOTICE = 5  # timer seconds: a step shown this late says so on its line
#: the host's penalties at a table (seed IV): /foul, /warn, /dq, /ppk and /unfoul
HOST_PENALTIES = (rules.Penalty, rules.WithdrawFoul)
REMOVED_CAUSES = (rules.Cause.FOULS, rules.Cause.DISQUALIFICATION)  # seed 4.5, 4.2

Refusal = (CommandError, ServiceError, rules.RuleError, HostError)


def prompt_slot(no: int) -> str:
    """The outbox slot of step ``no``'s private prompt, in each prompted player's chat."""
    return f"host:prompt:{no}"


def step_slot(no: int, step_key: str) -> str:
    """The outbox slot of step ``no``'s group message (its id is stored under it once sent)."""
    return f"host:{no}:{step_key}"


@dataclass(frozen=True)
class Defaults:
    """The host settings: the default lengths of ``/newgame``'s options (seconds) and the deal's
    seed (``None``: random; a number makes deals repeatable, for tests)."""

    vote_window: int = 10
    shooting: int = 20
    silenced: int = 10
    seed: int | None = None


@dataclass
class _Plan:
    """What an action's render leaves for :meth:`HostController._advance`."""

    lead: list[str] = field(default_factory=list)  # lines before the event's own
    slot: str | None = None  # the new step message's outbox slot
    base: str = ""  # that message's text above the step line
    over: bool = False  # the result was queued
    chats: list[str] = field(default_factory=list)  # who got something
    #: the new step and the table's flags, stored with the event (:meth:`HostController._staged`)
    step: Step | None = None
    flags: TableFlags | None = None
    closings: list[OutboxItem] = field(default_factory=list)  # the old step's prompts closed


class HostController:
    """The table flow over a platform's :class:`.port.HostPort` (see the module docstring)."""

    def __init__(self, service: Callable[[], Service], port: HostPort, locks: ChatLocks,
                 defaults: Defaults = Defaults()) -> None:
        self._service = service
        self.port = port
        self.locks = locks
        self.defaults = defaults
        # every live table stays in memory (a player's private message finds his table there);
        # over or stopped ones only as many as the chats' locks keep (bot.lru)
        self._tables: Recent[int, Table] = Recent(locks.limit, keep=lambda t: t.status in LIVE)
        self._unresumed: dict[str, list[int]] = {}  # chat -> its open tables not yet resumed
        #: (table, step number) whose host was told of an unnamed message (:meth:`_unnamed`)
        self._told_unnamed: Recent[tuple[int, int], bool] = Recent(256)
        #: whether this process runs ``chat``'s tables now (shared workers: whether it owns the
        #: chat, :mod:`bot.telegram.shared`); a deadline of a chat it does not run does nothing
        self.runs: Callable[[str], bool] = lambda chat: True
        #: (table id, step number) -> the step's deadline on the monotonic clock (issue 32: a
        #: step of the wall clock moves no step; the stored deadline stays the wall clock's)
        self._steady: Steady[tuple[int, int]] = Steady(port.clock, port.monotonic,
                                                       limit=locks.limit)

    @property
    def service(self) -> Service:
        return self._service()

    # --- life cycle -------------------------------------------------------------------------------
    async def load_open(self, owns: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """Load every open table of this platform (at start-up, once the store is open); each is
        resumed before anything else is done in its chat (:meth:`held`), or by
        :meth:`resume_all`. ``owns(chat)``: only the tables of the chats it accepts (a Discord
        process of several shards: :mod:`bot.discord.shards`)."""
        for row in await self.service.store.open_host_tables():
            if not row.chat.startswith(self.port.prefix):
                continue  # another platform's table (``mafia-referee both``: one game log)
            if owns is not None and not await owns(row.chat):
                continue  # another process's
            table = self._tables.setdefault(row.id, Table.from_row(row))
            self._unresumed.setdefault(table.chat, []).append(table.id)

    async def resume_all(self) -> None:
        """Resume every table :meth:`load_open` loaded and no update has resumed yet."""
        for chat in list(self._unresumed):
            async with self.held(chat):
                pass

    async def claimed(self, chat: str) -> None:
        """This process now runs ``chat``'s tables (a shared worker claimed the chat: the worker
        that ran them may have died, or let the chat go): what it held of them is dropped, each
        open table is read afresh from the store and resumed as after a restart — its step
        re-armed from the stored deadline (one that passed fires at once), or the step the rules
        expect opened."""
        self.released(chat)
        for row in await self.service.store.open_host_tables(chat=chat):
            table = self._tables[row.id] = Table.from_row(row)
            self._unresumed.setdefault(chat, []).append(table.id)
        async with self.held(chat):
            pass

    def released(self, chat: str) -> None:
        """This process stops running ``chat``'s tables (another worker may claim the chat):
        their deadlines are cancelled and what it held of them is dropped."""
        self._unresumed.pop(chat, None)
        for table in self.tables_in(chat):
            self._cancel(table)
            if table.step is not None:
                self._steady.drop((table.id, table.step.no))
            for user in table.flags.away:
                self.port.cancel(self._away_group(table, user))
            self._tables.pop(table.id, None)

    def live_chats(self) -> set[str]:
        """The chats with a table in the lobby or playing, as held in memory."""
        return {t.chat for t in self._tables.values() if t.status in LIVE}

    def table(self, table_id: int) -> Table | None:
        """The table as held in memory."""
        return self._tables.get(table_id)

    def tables(self) -> list[Table]:
        """Every table held in memory (the open ones, and those closed since the start)."""
        return list(self._tables.values())

    def tables_in(self, chat: str) -> list[Table]:
        return [t for t in self._tables.values() if t.chat == chat]

    @contextlib.asynccontextmanager
    async def held(self, chat: str) -> AsyncIterator[None]:
        """The chat's lock (everything a table does runs under it) — and, the first time in this
        process's life, the chat's tables resumed before anything else is done there: a press or
        a message that reaches the chat before the start-up resume would otherwise act on a step
        the process died leaving (the speaker's «Пас» taken for the night's shot)."""
        async with self.locks.lock(chat):
            for table_id in self._unresumed.pop(chat, []):
                table = self._tables.get(table_id)
                if table is not None:
                    await self._resume_one(table)
            yield

    # --- small helpers ------------------------------------------------------------------------------
    async def _cat(self, chat: str) -> Catalog:
        return await self.port.cat(chat)

    async def _player_cat(self, table: Table, user: str) -> Catalog:
        return await self.port.private_cat(table.chat, user)

    def _t(self, cat: Catalog, key: str, **args: Any) -> str:
        """A text whose wording depends on the platform (``platform`` selects the variant)."""
        return cat.text(key, platform=self.port.platform, **args)

    async def _load(self, table_id: int) -> Table | None:
        table = self._tables.get(table_id)
        if table is None:
            row = await self.service.store.host_table(table_id)
            if row is None or not row.chat.startswith(self.port.prefix):
                return None
            # one object per table: another handler may have loaded it during the await
            table = self._tables.setdefault(table_id, Table.from_row(row))
        return table

    async def _table_of(self, chat: str, status: str | None = None) -> Table | None:
        row = await self.service.store.host_table_of(chat, status)
        return None if row is None else await self._load(row.id)

    async def live(self, chat: str) -> Table | None:
        """The chat's table while it gathers or plays."""
        table = await self._table_of(chat)
        return table if table is not None and table.status in LIVE else None

    async def _save(self, table: Table, *fields: str, later: bool = False) -> None:
        """Store the table's ``fields`` and those whose write was put off (``table.unsaved``);
        ``later``: put these off too, to the handler's next write (:meth:`_saved`)."""
        if later:
            table.unsaved.update(fields)
            return
        await self.service.store.update_host_table(table.id, **self._fields(table, *fields))

    def _fields(self, table: Table, *fields: str) -> dict[str, Any]:
        """``table.stored`` of ``fields`` and of those put off, which are then no longer."""
        values = table.stored(*dict.fromkeys([*fields, *sorted(table.unsaved)]))
        table.unsaved.clear()
        return values

    async def _saved(self, table: Table) -> None:
        """The writes put off (:meth:`_save` with ``later``) are made now, if any."""
        if table.unsaved:
            await self._save(table)

    async def _queue(self, *items: OutboxItem, game_id: int | None = None) -> None:
        """Queue messages that no action carries (a lobby's or a stop's) and send them."""
        if items:
            await self.service.store.enqueue(list(items), game_id=game_id)
            await self.port.outbox.flush(*(item.chat for item in items))

    async def _queue_aside(self, *items: OutboxItem, game_id: int | None = None) -> None:
        """Queue messages to private chats (paced: about a send a second each) and send them in
        the background (:meth:`_kick`), not under the group's lock."""
        if items:
            await self.service.store.enqueue(list(items), game_id=game_id)
            self._kick(*(item.chat for item in items))

    async def _flush(self, *chats: str, defer_files: bool = False) -> None:
        """Let the outbox's sender post what is queued for ``chats`` now (in order; a chat that
        must wait out a flood limit is sent later by the sender itself); ``defer_files``: the
        protocol and what follows it in the background (:meth:`bot.outbox.Outbox.flush`)."""
        await self.port.outbox.flush(*chats, defer_files=defer_files)

    def _kick(self, *chats: str) -> None:
        """Let the outbox's sender post what is queued for ``chats`` in the background: private
        chats and the club channel, whose slowness must not hold up the table (what the group
        sees, and when, never depends on who was written to privately)."""
        for chat in dict.fromkeys(chats):
            self.port.outbox.kick(chat)

    async def _save_queuing(self, table: Table, items: list[OutboxItem], *fields: str) -> None:
        """Store ``fields`` and queue ``items`` in one transaction, then send them in the
        background (:meth:`_kick`)."""
        await self.service.store.update_host_table(table.id, **self._fields(table, *fields),
                                                   outbox=items, outbox_game=table.game_id)
        self._kick(*(item.chat for item in items))

    async def _club(self, table: Table) -> str | None:
        """The group's club channel (``/channel``), if it is another chat of this platform."""
        linked = await self.service.store.host_channel(table.chat)
        if linked is None or not linked[0].startswith(self.port.prefix) or linked[0] == table.chat:
            return None
        return linked[0]

    # --- deadlines ----------------------------------------------------------------------------------
    def _group(self, table: Table) -> str:
        return f"host:{table.id}"

    def _cancel(self, table: Table) -> None:
        self.port.cancel(self._group(table))

    def _arm(self, table: Table, *, after: float = 0.0) -> None:
        """Schedule the step's 10-second warning (a speech) and its end, from the stored deadline
        — for a window of presses :data:`steps.PRESS_GRACE` after it (:func:`steps.press_grace`) —
        kept on the monotonic clock since the step's window opened (:mod:`bot.steady`; one read
        from the store — a start-up, a chat taken over — from the wall clock then), so that a
        step of the wall clock moves neither (a late call still runs; a passed deadline fires at
        once). A step not yet shown runs no deadline: it is looked at again in a moment
        (:meth:`_on_unseen`), and its window opens when it is shown (:meth:`_open_window`).
        ``after``: no call sooner than that many real seconds from now (a failure's retry)."""
        self._cancel(table)
        step = table.step
        if step is None:
            return
        no = step.no
        if not step.started:
            self.port.schedule(self._group(table), max(after, SHOW_POLL),
                               lambda: self._on_unseen(table.id, no))
            return
        left = self._steady.left((table.id, no), step.deadline)
        if step.stage is Stage.RUNNING and step.kind in st.WARNED_STEPS \
                and step.seconds > st.WARN_LEFT:
            self.port.schedule(self._group(table), max(after, left - st.WARN_LEFT * self.port.scale),
                               lambda: self._on_warn(table.id, no))
        # a window of presses closes st.PRESS_GRACE after its time: a press sent as it closed,
        # its button still on the player's screen, counts (the doubt goes to the player)
        closes = left + st.press_grace(step) * self.port.scale
        self.port.schedule(self._group(table), max(after, closes),
                           lambda: self._on_deadline(table.id, no))

    async def _due(self, table_id: int) -> Table | None:
        """The table a deadline fell due for, or ``None``: gone, or its chat is not run here
        (a shared worker let it go after the deadline's call had begun; nothing of it is held)."""
        table = await self._load(table_id)
        if table is not None and not self.runs(table.chat):
            self._tables.pop(table_id, None)
            return None
        return table

    async def _running(self, table_id: int, no: int) -> Table | None:
        table = await self._load(table_id)
        if table is None or table.status is not TableStatus.RUNNING or table.step is None or table.step.no != no:
            return None
        return table

    async def _on_unseen(self, table_id: int, no: int) -> None:
        """A step not shown yet (its message waits out a flood limit, or its buttons could not
        be put on): try to show it again; it waits as long as it takes."""
        table = await self._due(table_id)
        if table is None:
            return
        async with self.held(table.chat):
            if await self._running(table_id, no) is None or table.step is None \
                    or table.step.started:
                return
            async with self._guarded(table, "a step's look"):
                current = await self.service.current(table.chat)
                if current is not None:
                    await self._show(table, current.state)
                if not table.step.started:
                    self._arm(table)

    async def _on_warn(self, table_id: int, no: int) -> None:
        table = await self._due(table_id)
        if table is None:
            return
        async with self.held(table.chat):
            if await self._running(table_id, no) is None or table.step is None \
                    or table.step.stage is not Stage.RUNNING:
                return
            async with self._guarded(table, "a step's warning"):
                table.step.stage = Stage.WARNED
                current = await self.service.current(table.chat)
                if current is not None:
                    await self._show(table, current.state, later=True)
                # stored by the step's next write (its end's, issue 34): a restart before it finds
                # the step running and warns again at once (_arm), the same words shown again
                await self._save(table, "step", later=True)

    async def _on_deadline(self, table_id: int, no: int) -> None:
        table = await self._due(table_id)
        if table is None:
            return
        async with self.held(table.chat):
            if await self._running(table_id, no) is None:
                return
            async with self._guarded(table, "a step's end"):
                await self.close_step(table)

    # --- an internal error --------------------------------------------------------------------------------
    async def _mark(self, table: Table) -> tuple[Any, ...] | None:
        """The table as stored and its game's revision: what a handler that stored anything
        changes (``None``: the store cannot be read)."""
        try:
            row = await self.service.store.host_table(table.id)
            current = await self.service.current(table.chat)
        except Exception:  # noqa: BLE001 - said by the handler's own failure, if it comes
            log.exception("host: table %s cannot be read", table.id)
            return None
        return (row, current.game_id if current else None, current.revision if current else None)

    async def _recover(self, table: Table, mark: tuple[Any, ...] | None) -> bool:
        """A handler of ``table`` failed inside (a bug, a full disk; under the chat's lock): what
        it held in memory is dropped, the table is read again from the store and resumed as after
        a restart — its step re-armed, or the step the rules expect opened — so it goes on as
        stored. Returns whether the handler had stored something (the table or its game moved
        on since ``mark``)."""
        self._cancel(table)
        now = await self._mark(table)
        if now is None:  # the store itself fails: the next start resumes the table
            return False
        row = now[0]
        if row is None:
            self._tables.pop(table.id, None)
        else:
            fresh = self._tables[table.id] = Table.from_row(row)
            await self._resume_one(fresh)  # it logs its own failure
        return mark is not None and now != mark

    @contextlib.asynccontextmanager
    async def _guarded(self, table: Table, what: str) -> AsyncIterator[None]:
        """A handler of ``table`` that no press or command answers — a step's deadline, a
        message in the group, a player leaving — under the chat's lock. One that fails inside
        (a full disk, the database away) is logged and the table goes on as stored
        (:meth:`_recover`), its step's calls re-armed no sooner than :data:`FAILED_RETRY`:
        a step whose end could not be stored is ended again then — nothing is left waiting
        for a press that may never come (at night none can) — and a failure that lasts is
        tried again at that pace, not in a loop. A voice table's graces are re-armed alike: a
        player away past his grace whose leaving (seed 4.2.1) could not be stored is tried
        again then (:meth:`away_over`)."""
        try:
            yield
        except Exception as error:  # noqa: BLE001 - logged; the table goes on as stored
            if kept(error):  # an update kept for the database: applied again once it is back
                raise
            log.exception("host: %s at table %s failed", what, table.id)
            await self._recover(table, None)  # read after the failure only: no tick's read more
            fresh = self._tables.get(table.id)
            if fresh is not None and fresh.status is TableStatus.RUNNING:
                self._arm(fresh, after=FAILED_RETRY)
                for user in list(fresh.flags.away):  # resumed at once above: one past due loops
                    self._arm_away(fresh, user, after=FAILED_RETRY)

    # --- resuming after a restart ---------------------------------------------------------------------
    async def _resume_one(self, table: Table) -> None:
        """One table after a (re)start (under its chat's lock): a running one's step is re-armed
        from its stored deadline, or — if the process died between an event and its step — the
        step the rules expect now is opened; a full lobby is dealt; a lobby whose message was
        never stored (a /newgame cut short) is posted."""
        try:
            if table.status is TableStatus.LOBBY and not (table.seats or self._ready(table)):
                if table.lobby_message is None:
                    await self._show_lobby(table)
                return  # a lobby: it waits for its players
            if table.status is TableStatus.RUNNING:
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
            table.status = TableStatus.STOPPED
            await self._save(table, "status")
            missing = await self.service.missing(table.chat) if current is None else None
            if missing is not None and missing.code == "quarantined":  # its log no longer folds
                hosted = type(missing)(missing.code, **missing.params, hosted=True)  # /newgame, not /new
                await self._queue(ob.post(table.chat, error_text(hosted, await self._cat(table.chat))),
                                  game_id=table.game_id)
            return
        if current.finished and current.state.phase is not Phase.GAME_OVER:  # a stop cut short
            await self._stopped(table, table.flags.stopped_by or table.flags.host_name)
            return
        if current.state.phase is Phase.SETUP:  # dealt, stored as running, not yet begun
            await self._open_game(table)
            return
        plan = st.plan(current.state, table.spec.options)
        step = table.step
        if step is not None and step.previous is not None:  # stored over, not yet closed
            await self._retire_step(table, Step.from_dict(step.previous), current.state, plan)
            await self._retired(table)
        if step is not None and step.key == plan.key and plan.kind is not StepKind.OVER:
            if step.message is None or not step.started:
                await self._show(table, current.state)
            await self._prompt_all(table, current.state)  # any prompt not sent before the stop
            await self._sync_mutes(table, current.state, plan)
            self._arm(table)
        else:
            await self._advance(table, current, _Plan())
        await self._absent(table)  # a silent player's removal the stop cut short
        await self._saved(table)
        for user in list(table.flags.away):  # a voice table's graces, re-armed
            self._arm_away(table, user)

    # --- the game: acting, and moving from step to step ------------------------------------------------
    async def _act(self, table: Table, event: rules.Event, render: Render | None = None) -> Outcome:
        return await self.service.act(table.chat, self.port.judge, event, render=render)

    async def _act_and_advance(self, table: Table, event: rules.Event, *,
                               lead: list[str] | None = None,
                               acknowledge: Callable[[], Awaitable[None]] | None = None) -> Outcome:
        """Apply one event (the rules may refuse it): what it announces — ``lead`` lines first —
        is queued with it in the outbox (:meth:`_renderer`); ``acknowledge`` (the answer to the
        press that asked for it) once it is committed, never before; then the step the rules
        expect."""
        plan = _Plan(lead=list(lead or []))
        outcome = await self._act(table, event, self._renderer(table, plan))
        if acknowledge is not None:
            await acknowledge()
        await self._advance(table, outcome, plan)
        return outcome

    def _renderer(self, table: Table, plan: _Plan,
                  before: Callable[[Outcome], Awaitable[list[OutboxItem]]] | None = None) -> Render:
        """The ``render`` of an action (run by the service after ``rules.apply``, before the
        commit): the messages it causes, queued in the same transaction. ``before(outcome)`` may
        add messages ahead of them. What :meth:`_advance` needs is left in ``plan``."""

        async def render(outcome: Outcome) -> Staged:
            items: list[OutboxItem] = list(await before(outcome)) if before is not None else []
            items.extend(await self._answer_items(table, outcome))
            items.extend(await self._group_items(table, outcome, plan))
            plan.chats = list(dict.fromkeys(item.chat for item in items))
            also = await self._staged(table, outcome, plan)
            return Staged([*items, *plan.closings], also=also)

        return render

    async def _staged(self, table: Table, outcome: Outcome, plan: _Plan) -> Any:
        """When the action opens a new step: that step, the table's flags (the old step's
        silence counted, its record) and the closing of the old step's prompts, stored in the
        action's own transaction (issue 34: one write a step; a restart finds the step with
        its event, as it found it stored just after). Left in ``plan`` for :meth:`_advance`;
        the table in memory is changed only once committed. ``None``: no new step."""
        expected = st.plan(outcome.state, table.spec.options)
        old = table.step
        if plan.over or expected.kind is StepKind.OVER or (old is not None and old.key == expected.key):
            return None
        if not plan.slot and not same_night(old, expected):
            return None  # no message queued for it: its step looks in the outbox after the commit
        plan.closings = await self._closings(table, old, outcome.state)
        flags = TableFlags.from_dict(table.flags.to_dict())
        plan.step = await self._next_step(table, expected, old, outcome.revision, plan, flags)
        plan.flags = flags
        return host_update(table.id, opened=self._opened(plan.step),  # serialised at once
                           step=plan.step.to_dict(copied=False), data=flags.to_dict(copied=False))

    def _opened(self, step: Step) -> HostStepRow:
        """The record of ``step`` in ``host_steps``: opened now."""
        return HostStepRow(step.no, step.key, step.kind, step.seconds, step.opened)

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
                cat = await self._player_cat(table, user)
                items.append(ob.post(user, vw.check_answer(notice, cat), private=True))
        return items

    async def _group_items(self, table: Table, outcome: Outcome, plan: _Plan) -> list[OutboxItem]:
        """The group's part: the event's public lines — as the new step message's head when a
        step opens (its step line under them, the slot :func:`step_slot`), alone when the step
        goes on or the night's message is kept — or the result (F24 §1.4) with the protocol, and
        the club channel's."""
        cat = await self._cat(table.chat)
        state = outcome.state
        lines = [*plan.lead, *vw.public_lines(outcome.notices, cat)]
        expected = st.plan(state, table.spec.options)
        old = table.step
        if expected.kind is StepKind.OVER:
            plan.over = True
            text = "\n".join([*lines, "", result_text(state, cat)]).strip()
            caption = cat.text("host-protocol-caption", game=outcome.game_id)
            return [ob.post(table.chat, text, slot=OVER_SLOT),
                    ob.protocol(table.chat, outcome.game_id, caption, lang=cat.lang),
                    *await self._club_result_items(table, outcome)]
        if (old is not None and old.key == expected.key) or same_night(old, expected):
            return [ob.post(table.chat, "\n".join(lines))] if lines else []
        step = self._new_step(expected, old, 0.0, "\n".join(lines), outcome.revision)
        plan.slot, plan.base = step_slot(step.no, step.key), step.base
        return [ob.post(table.chat, vw.step_text(step, state, cat), slot=plan.slot, base=step.base)]

    def _new_step(self, plan: Plan, old: Step | None, now: float, base: str, revision: int) -> Step:
        return Step(no=(old.no if old else 0) + 1, key=plan.key, kind=plan.kind,
                    seconds=plan.seconds, seat=plan.seat, night=plan.night, opened=now,
                    deadline=now + plan.seconds * self.port.scale, base=base, revision=revision)

    async def _advance(self, table: Table, outcome: Outcome, plan: _Plan) -> None:
        """After the commit: the step the rules expect now is stored first (a restart finds it and
        its queued message), then the old step is closed, the new step's message leaves and
        gets its buttons (its window opens then), and the private and channel messages leave
        in the background — so that what the group sees, and when, does not depend on who is
        written to privately (F24 §4.5: nothing may reveal a role). If the step running is still
        the one expected (a foul inside a speech), it goes on and the event's lines leave on
        their own."""
        state = outcome.state
        others = [c for c in plan.chats if c != table.chat]
        expected = st.plan(state, table.spec.options)
        old = table.step
        if old is not None and old.key == expected.key and expected.kind is not StepKind.OVER:
            await self._flush(table.chat)
            self._kick(*others)
            old.revision = outcome.revision
            if old.view or old.kind in (StepKind.SPEECH, StepKind.SILENCED):  # nominations may change
                old.view = ""
                await self._show(table, state)
            await self._save(table, "step")
            await self._sync_mutes(table, state, expected)
            return
        if expected.kind is StepKind.OVER:
            await self._retire_step(table, old, state, expected)
            self._kick(*others)
            await self._finish(table, outcome, plan)
            return
        # the old step's prompts are closed in the new step's own transaction: the work done
        # before the group sees the new step is the same whoever was asked something in private
        if plan.step is not None:  # stored with the event
            table.step, closings = plan.step, plan.closings
            if plan.flags is not None:
                table.flags = plan.flags
        else:
            closings = await self._closings(table, old, state)
            await self._store_step(table, expected, old, outcome.revision, plan, closings)
        await self._retire_step(table, old, state, expected, prompts=False)
        await self._retired(table)
        await self._open(table, state, expected)
        # a check's answer, the closed prompts: after what the group sees, never holding it up
        self._kick(*others, *(item.chat for item in closings))

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
                          rendered: _Plan, outbox: list[OutboxItem] | None = None) -> Step:
        """The new step, stored at once (with ``outbox``, queued in the same transaction): an
        event's step not stored with it (:meth:`_staged`), a resumed table's."""
        step = await self._next_step(table, plan, old, revision, rendered, table.flags)
        table.step = step
        await self.service.store.update_host_table(  # the step, its record and the old step's
            table.id, **self._fields(table, "step", "flags"),  # silence count: one transaction
            opened=self._opened(step), outbox=outbox or (), outbox_game=table.game_id)
        return step

    async def _next_step(self, table: Table, plan: Plan, old: Step | None, revision: int,
                         rendered: _Plan, flags: TableFlags) -> Step:
        """The new step (``flags``: the table's, changed by it: the old step's silence counted,
        its record). Its message was queued with the event; a resumed table looks for it in
        the outbox (the base of a message already sent is the words of the events since the old
        step, derived again from the log — for its edits only: nothing is posted again)."""
        now = self.port.clock()
        step = self._new_step(plan, old, now, "", revision)
        if old is not None:  # closed after this store; a restart in between closes it then
            step.previous = {**old.to_dict(), "previous": None}
        if same_night(old, plan) and old is not None:
            step.message, step.base, step.slot = old.message, old.base, old.slot  # one message
        elif rendered.slot:
            step.slot, step.base = rendered.slot, rendered.base
        else:
            slot = step_slot(step.no, step.key)
            queued, base = await self._queued(table, slot)
            if queued:
                step.slot = slot
                step.base = base if base is not None else await self._base_since(table, old)
        if old is not None:  # a message read after it is judged by when it was written
            self._count_silence(table, old, flags)
            flags.recent = [*flags.recent, st.recent_record(old, now)][-st.RECENT_KEPT:]
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
        the event's lines), its buttons and its timer (:meth:`_show`), its private prompts."""
        await self._sync_mutes(table, state, plan, later=True)
        await self._flush(table.chat)
        await self._show(table, state, later=True)
        await self._prompt_all(table, state)  # stored with the step's opening
        await self._saved(table)
        self._arm(table)

    async def _adopt(self, table: Table, step: Step) -> int | None:
        """The id of the step's message once the outbox has sent it; ``None`` while it is still
        queued. If the sender gave it up, the slot is dropped: the message is posted directly."""
        if table.game_id is not None:
            found = self.port.outbox.delivered(table.game_id, table.chat, step.slot)  # sent here
            if found is None:
                found = await self.service.store.message(table.game_id, table.chat, step.slot)
            if found is not None:
                return found
        if not (await self._queued(table, step.slot))[0]:
            step.slot = ""
        return None

    def _step_text(self, step: Step, state: rules.GameState, cat: Catalog, *,
                   closed: bool = False) -> str:
        """The step's message: its line, and while it runs the platform's live countdown."""
        text = vw.step_text(step, state, cat, closed=closed)
        if not closed and step.seconds > 0 and step.opened:
            countdown = self.port.countdown(step.deadline, cat)
            if countdown:
                text = f"{text} {countdown}"
        return text

    async def _show(self, table: Table, state: rules.GameState, *, closed: bool = False,
                    later: bool = False) -> None:
        """The step's group message: edited in place; taken from the outbox once its first post
        has left (then edited: its buttons, its stage); posted here only when nothing was queued
        for it (a resumed or moved table). A step shown for the first time opens its window
        (:meth:`_open_window`); one that could not be shown waits (:meth:`_arm`). What it
        changed is stored before it returns — ``later``: by the caller's next write."""
        step = table.step
        if step is None:
            return
        cat = await self._cat(table.chat)
        opening = not step.started and not closed
        if opening:  # the countdown it shows runs from now
            step.deadline = self.port.clock() + step.seconds * self.port.scale
        text = self._step_text(step, state, cat, closed=closed)
        rows = None if closed else vw.step_keyboard(step, state, table.id, cat)
        if await self._display(table, step, state, cat, text, rows, closed=closed) and opening:
            await self._open_window(table, state, rows)
        if not later:
            await self._saved(table)

    async def _display(self, table: Table, step: Step, state: rules.GameState, cat: Catalog,
                       text: str, rows: vw.Rows | None, *, closed: bool) -> bool:
        """Put ``text`` and ``rows`` on the step's message (:meth:`_show`): whether the players
        now see it so."""
        if step.message is None and step.slot:
            found = await self._adopt(table, step)
            if found is not None:
                queued = vw.step_text(step, state, cat, closed=closed)
                as_queued = (step.slot == step_slot(step.no, step.key)
                             and step.stage is Stage.RUNNING and not closed and text == queued)
                step.message = found
                await self._save(table, "step", later=True)  # stored with the window's opening
                if rows or not as_queued:  # the buttons; or the stage / step moved on meanwhile
                    return await self.port.edit(table.chat, found, text, rows)
                return True
            if step.slot:
                return False  # still in the outbox: shown with its buttons once it has left
        if step.message is not None:
            return await self.port.edit(table.chat, step.message, text, rows)
        posted = await self.port.post(table.chat, text, rows)
        if posted is None:
            return False
        step.message = posted
        await self._save(table, "step")
        return True

    async def _open_window(self, table: Table, state: rules.GameState, rows: vw.Rows | None) -> None:
        """The step's message is shown with its buttons: its window opens now, whatever delayed
        it (a flood limit, a slow network) — a speaker gets his full minute (F24 §4.3.1), every
        player his vote (seed 4.1.8), the night its full steps. A step shown ``LATE_NOTICE``
        timer seconds or more after it began says so on its line (the group is told why)."""
        step = table.step
        assert step is not None
        now = self.port.clock()
        waited = (now - step.opened) / self.port.scale
        step.opened, step.deadline, step.started = now, now + step.seconds * self.port.scale, True
        self._steady.set((table.id, step.no), step.deadline, step.seconds * self.port.scale)
        if step.seconds and waited >= LATE_NOTICE and step.message is not None:
            step.late = round(waited)
            cat = await self._cat(table.chat)
            await self.port.edit(table.chat, step.message, self._step_text(step, state, cat), rows)
        await self._save(table, "step", later=True)  # by the caller (:meth:`_show`)
        self._arm(table)

    async def _place(self, chat: str, message_id: int | None, text: str,
                     rows: vw.Rows | None) -> int | None:
        """A status message edited in place, or posted when none is stored yet: the id of the
        message posted (``None``: edited, or it could not be posted)."""
        if message_id is not None:
            await self.port.edit(chat, message_id, text, rows)
            return None
        return await self.port.post(chat, text, rows)

    async def _retire_step(self, table: Table, step: Step | None, state: rules.GameState,
                           following: Plan, *, prompts: bool = True) -> None:
        """The step ``step`` is over: its timer stops, its message loses its buttons and shows
        how it ended (a night's message is kept for the night's next step), its prompts close
        (``prompts=False``: the caller queued :meth:`_closings` itself). (Its silence was
        counted when the next step was stored: :meth:`_count_silence`.)"""
        self._cancel(table)
        if step is None:
            return
        kept = step.at_night and following.kind in st.NIGHT_STEPS and following.night == step.night
        if step.message is None and step.slot and not kept:
            found = await self._adopt(table, step)
            step.message = found if found is not None else step.message
        if not kept:
            cat = await self._cat(table.chat)
            closed = vw.step_text(step, state, cat, closed=True)
            if step.message is not None:
                await self.port.edit(table.chat, step.message, closed)
            elif step.slot:  # still in the outbox (a flood limit): its closing edit queued behind it
                await self.service.store.enqueue([ob.edit(table.chat, closed, slot=step.slot)],
                                                 game_id=table.game_id)
        closings = await self._closings(table, step, state) if prompts else []
        if closings:
            await self._save_queuing(table, closings)

    async def _closings(self, table: Table, step: Step | None, state: rules.GameState) -> list[OutboxItem]:
        """The edits that close ``step``'s private prompts (their buttons gone, said closed)."""
        closings: list[OutboxItem] = []
        for user in step.prompted if step is not None else []:
            seat = table.seat_of(user)
            if seat is None:
                continue
            cat = await self._player_cat(table, user)
            text, _ = vw.prompt(step, state, seat, table.id, cat)
            closings.append(ob.edit(user, f"{text}\n\n{cat.text('host-prompt-closed')}",
                                    slot=prompt_slot(step.no), private=True))
        return closings

    async def _retired(self, table: Table) -> None:
        """The step before the running one is closed (:meth:`_retire_step`): forget it."""
        if table.step is not None and table.step.previous is not None:
            table.step.previous = None  # a restart before it is stored closes it again: edits
            await self._save(table, "step", later=True)

    async def _prompt_all(self, table: Table, state: rules.GameState) -> None:
        """The night's private prompts: the blacks' shot, the Don's or the Sheriff's check, the
        victim's best move (nothing is sent for a role no longer in the game, and the step runs
        its full length all the same). Queued with the step's record (a restart queues only
        those not queued) and sent in the background: a slow private chat holds up nothing."""
        step = table.step
        if step is None:
            return
        prompts: list[OutboxItem] = []
        for seat in st.prompted(state, step):
            user = table.seats.get(seat)
            if user is None or user in step.prompted:
                continue
            cat = await self._player_cat(table, user)
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            prompts.append(ob.post(user, text, slot=prompt_slot(step.no), private=True, rows=rows))
            step.prompted.append(user)
        if prompts:
            await self._save_queuing(table, prompts, "step")

    # --- the step's end ---------------------------------------------------------------------------------
    async def close_step(self, table: Table) -> None:
        """The step's time is up (under the chat's lock): its inputs become the engine's event
        (:func:`steps.closing_event`; one the rules refuse is logged and the game moves on with
        ``Next``). A speaker silent for ``absent_after`` own speeches in a row has then left the
        table (:meth:`_absent`)."""
        self._cancel(table)
        current = await self.service.current(table.chat)
        step = table.step
        if current is None or step is None:
            return
        if st.plan(current.state, table.spec.options).key != step.key:  # moved on meanwhile
            await self._advance(table, current, _Plan())
            return
        event = st.closing_event(current.state, step)
        try:
            await self._act_and_advance(table, event)
        except rules.RuleError as error:
            log.warning("host: table %s: %s refused (%s); moving on", table.id, event, error)
            try:
                await self._act_and_advance(table, rules.Next())
            except rules.RuleError:
                log.exception("host: table %s cannot move on", table.id)
        await self._absent(table)

    async def _active(self, table: Table, step: Step) -> None:
        """The speaker wrote or pressed something: this speech is not a silent one."""
        if not step.active:
            step.active = True
            await self._save(table, "step")

    def _count_silence(self, table: Table, step: Step, flags: TableFlags) -> bool:
        """``absent_after`` (seed 4.2.1): the speaker's silent own day speeches in a row, kept
        with the table, counted when the next step is stored (in the same transaction). A
        silenced minute (seed 4.4) is not a speech of his: it neither counts nor resets. A bot
        that cannot read the chat's messages cannot tell silence from speech: nothing counts.
        When the count reaches the option the seat is noted as ``absent_due`` (:meth:`_absent`).
        Returns whether ``flags`` (the table's, or those about to be stored) changed."""
        if not flags.rights.read or table.spec.options.voice:  # a voice table: silence unheard
            return False
        if not st.count_silence(step, flags.silent):
            return False
        if step.seat is not None and st.absent_due(flags.silent, table.spec.options.absent_after,
                                                   step.seat):
            flags.absent_due = step.seat
        return True

    async def _absent(self, table: Table) -> None:
        """The seat noted ``absent_due`` (:meth:`_count_silence`) has left the table — seed
        4.2.1, a disqualifying foul (seed 4.5: he leaves at once, without a last word; seed
        5.1–5.2 for the vote). The note is cleared after the penalty is stored: a restart in
        between applies it then (a seat no longer at the table is not penalised twice)."""
        seat = table.flags.absent_due
        if seat is None:
            return
        current = await self.service.current(table.chat)
        if table.status is TableStatus.RUNNING and current is not None and not current.finished \
                and current.state.seat(seat).at_table:
            cat = await self._cat(table.chat)
            silent = int(table.flags.silent.get(str(seat), 0))
            lead = [cat.text("host-absent", seat=seat_label(seat, cat), count=silent)]
            try:
                await self._act_and_advance(table, rules.Penalty(seat=seat, reason=LEFT_TABLE),
                                            lead=lead)
            except rules.RuleError as error:
                log.info("host: %s silent, no penalty: %s", seat, error)
        table.flags.absent_due = None
        await self._save(table, "flags")

    # --- mutes --------------------------------------------------------------------------------------------
    async def _sync_mutes(self, table: Table, state: rules.GameState, plan: Plan, *,
                          later: bool = False) -> None:
        """Everyone at the table but the speaker is muted: for the whole game (a whole-game
        :class:`.port.MuteMode`: departed players too), or during the speeches only (``timeout``:
        so that every hand can be raised). A player the rules removed (seed 4.5, 4.2) is muted
        until the end where the platform can. Only the differences are sent; what was done is
        stored with the table (``later``: with the handler's next write — a restart before it
        mutes or unmutes again, harmlessly)."""
        await self._sync_removals(table, state)
        flags = table.flags
        mode = flags.mode
        if mode is MuteMode.FOUL or state.phase is Phase.GAME_OVER:
            return
        open_ = {table.seats[s] for s in st.writers(state, plan) if s in table.seats}
        everyone = set(table.seats.values())
        removed = set(flags.removed)
        if mode.whole_game:
            wanted = everyone - open_
        elif plan.kind in st.FLOOR:
            wanted = everyone - removed - open_  # a removed player keeps the removal's own mute
        else:
            wanted = set()
        muted, unmutable = set(flags.muted), set(flags.unmutable)
        before = (set(muted), set(unmutable))
        for user in sorted(wanted - muted - unmutable):
            done = await self.port.mute(table.chat, user, mode, True, table_id=table.id)
            if done is Mute.DONE:
                muted.add(user)
            elif done is Mute.UNMUTABLE:
                unmutable.add(user)
            elif done is Mute.NO_RIGHT:  # the right is gone: fall back to fouls (seed 4.1.1)
                flags.mode = MuteMode.FOUL
                await self._queue(ob.post(table.chat, (await self._cat(table.chat)).text(
                    "host-mute-failed")), game_id=table.game_id)
                break
            # Mute.LATER: not muted yet; the next step's sync tries him again
        for user in sorted(muted - wanted):
            if not mode.whole_game and user in removed:  # the removal's mute stays
                muted.discard(user)
                continue
            if await self.port.mute(table.chat, user, mode, False, table_id=table.id) is Mute.DONE:
                muted.discard(user)
        fresh = sorted(table.seat_of(u) or 0 for u in unmutable - before[1])
        if fresh and mode is MuteMode.VOICE:  # told once: the host fouls them instead (4.1.1)
            await self._queue(ob.post(table.chat, (await self._cat(table.chat)).text(
                "host-voice-unmutable", seats=", ".join(map(str, fresh)))), game_id=table.game_id)
        if (muted, unmutable) != before or flags.mode is not mode:
            flags.muted, flags.unmutable = sorted(muted), sorted(unmutable)
            await self._save(table, "flags", later=later)

    def _away_group(self, table: Table, user: str) -> str:
        return f"host-away:{table.id}:{user}"

    def _arm_away(self, table: Table, user: str, *, after: float = 0.0) -> None:
        """Schedule the end of ``user``'s grace out of the voice channel (a late call still runs;
        one call at a time). ``after``: no call sooner than that many real seconds from now (a
        failure's retry, :meth:`_guarded`)."""
        deadline = table.flags.away.get(user)
        if deadline is None:
            return
        table_id, group = table.id, self._away_group(table, user)
        self.port.cancel(group)
        self.port.schedule(group, max(after, deadline - self.port.clock()),
                           lambda: self.away_over(table_id, user))

    async def voice_left(self, chat: str, user: str) -> None:
        """A seated player leaves a voice table's channel: his grace (the option
        ``voice_grace``) runs, stored with the table; still away at its end, he has left the
        table (:meth:`away_over`)."""
        if await self.live(chat) is None:
            return
        async with self.held(chat):
            table = await self._table_of(chat, TableStatus.RUNNING)
            grace = table.spec.options.voice_grace if table is not None else 0
            if table is None or not table.spec.options.voice or grace <= 0 \
                    or table.seat_of(user) is None or user in table.flags.away:
                return
            table.flags.away[user] = self.port.clock() + grace * self.port.scale
            await self._save(table, "flags")
            self._arm_away(table, user)

    async def away_over(self, table_id: int, user: str) -> None:
        """``user``'s grace out of the voice channel is over: still away and at the table, he
        has left it — seed 4.2.1, a disqualifying foul (seed 4.5: at once, no last word). The
        mark is cleared after the penalty is stored (a restart in between applies it then); one
        that cannot be stored (a full disk) is tried again every :data:`FAILED_RETRY` seconds
        until it is (:meth:`_guarded`)."""
        table = await self._due(table_id)
        if table is None:
            return
        async with self.held(table.chat):
            if table.status is not TableStatus.RUNNING or user not in table.flags.away:
                return
            async with self._guarded(table, "a player's leaving the voice channel"):
                current = await self.service.current(table.chat)
                seat = table.seat_of(user)
                if current is not None and not current.finished and seat is not None \
                        and current.state.seat(seat).at_table:
                    cat = await self._cat(table.chat)
                    lead = [cat.text("host-voice-away", seat=seat_label(seat, cat),
                                     seconds=table.spec.options.voice_grace)]
                    try:
                        await self._act_and_advance(
                            table, rules.Penalty(seat=seat, reason=LEFT_TABLE), lead=lead)
                    except rules.RuleError as error:
                        log.info("host: %s away, no penalty: %s", seat, error)
                table.flags.away.pop(user, None)
                await self._save(table, "flags")

    async def voice_joined(self, chat: str, user: str, muted: bool) -> None:
        """A member connects to a voice table's channel (or the bot learns who is there, after
        a restart); ``muted``: whether Discord keeps a server mute on him now. A seated player
        gets the mute of the moment: the speaker speaks, the others are muted (a mute he carries
        from before is the table's again)."""
        table = await self.live(chat)
        if table is None or table.status is not TableStatus.RUNNING:
            return
        async with self.held(chat):
            table = await self._table_of(chat, TableStatus.RUNNING)
            if table is None or not table.spec.options.voice or table.seat_of(user) is None:
                return
            flags = table.flags
            if flags.away.pop(user, None) is not None:  # back within his grace
                self.port.cancel(self._away_group(table, user))
                await self._save(table, "flags")
            current = await self.service.current(chat)
            if flags.mode is not MuteMode.VOICE or current is None or current.finished:
                return
            muted_now = set(flags.muted)
            (muted_now.add if muted else muted_now.discard)(user)
            if muted_now != set(flags.muted):
                flags.muted = sorted(muted_now)
                await self._save(table, "flags")
            await self._sync_mutes(table, current.state, st.plan(current.state, table.spec.options))

    async def _sync_removals(self, table: Table, state: rules.GameState) -> None:
        """The players the rules removed (seed 4.5: the 4th foul; seed 4.2: a disqualification)
        are muted until the end where the platform has such a mute; lifted at the end or by an
        undo. The group is told which seats could not be."""
        flags = table.flags
        removed = set(flags.removed)
        now: set[str] = set()
        if state.phase is not Phase.GAME_OVER:
            now = {table.seats[n] for n, d in state.departures()
                   if d.cause in REMOVED_CAUSES and n in table.seats}
        if now == removed:
            return
        cat = await self._cat(table.chat)
        failed: list[int] = []
        for user in sorted(now - removed):
            seat = table.seat_of(user) or 0
            done = await self.port.remove(table.chat, user, True, cat.text(
                "game-removal-reason", game=table.game_id or 0, seat=seat))
            if done is None:
                return  # this platform's turn mutes cover a removed player
            if done:
                removed.add(user)
            else:
                failed.append(seat)
        for user in sorted(removed - now):
            await self.port.remove(table.chat, user, False, cat.text(
                "game-removal-lifted", game=table.game_id or 0, seat=table.seat_of(user) or 0))
            removed.discard(user)
        if failed:
            await self._queue(ob.post(table.chat, cat.text(
                "host-removal-failed", seats=", ".join(map(str, failed)))), game_id=table.game_id)
        if removed != set(flags.removed):
            flags.removed = sorted(removed)
            await self._save(table, "flags")

    async def _unmute_all(self, table: Table) -> None:
        flags = table.flags
        for user in flags.away:  # a voice table's graces end with the game
            self.port.cancel(self._away_group(table, user))
        flags.away = {}
        for user in list(flags.muted):
            await self.port.mute(table.chat, user, flags.mode, False, table_id=table.id)
        if flags.removed:
            cat = await self._cat(table.chat)
            for user in list(flags.removed):
                await self.port.remove(table.chat, user, False, cat.text(
                    "game-removal-lifted", game=table.game_id or 0, seat=table.seat_of(user) or 0))
        flags.muted, flags.removed = [], []
        await self._save(table, "flags")

    # --- the end --------------------------------------------------------------------------------------------
    async def _finish(self, table: Table, outcome: Outcome, plan: _Plan) -> None:
        """The result (F24 §1.4) with the roles revealed and the protocol — queued with the last
        event (a resumed table finds them queued; queued here only if the event was logged
        without them) — the mutes lifted; the table is stored as over last (nothing resumes a
        table that is over: a process that dies before does this again at the restart — the
        result not twice, it is in the outbox)."""
        if not plan.over and not (await self._queued(table, OVER_SLOT))[0]:
            cat = await self._cat(table.chat)
            await self.service.store.enqueue(
                [ob.post(table.chat, result_text(outcome.state, cat), slot=OVER_SLOT),
                 ob.protocol(table.chat, outcome.game_id,
                             cat.text("host-protocol-caption", game=outcome.game_id), lang=cat.lang),
                 *await self._club_result_items(table, outcome)], game_id=table.game_id)
            club = await self._club(table)
            await self._flush(*([club] if club else []), defer_files=True)
        await self._flush(table.chat, defer_files=True)
        await self._unmute_all(table)
        table.step = None
        table.status = TableStatus.OVER
        await self._save(table, "step", "status")

    async def _club_result_items(self, table: Table, outcome: Outcome) -> list[OutboxItem]:
        """The club channel's result (winner, departures in order and why, fouls, the best move:
        F24 §1.4, §8.3), the game's length and the protocol, queued with the last event."""
        club = await self._club(table)
        if club is None:
            return []
        cat = await self._cat(club)
        row = await self.service.store.game(outcome.game_id)
        minutes = round((time.time() - row.created_at) / 60) if row else 0
        text = cat.text("host-channel-result", title=self.port.where(table.chat, table.flags.title),
                        length=cat.text("host-minutes", count=minutes),
                        result=result_text(outcome.state, cat))
        return [ob.post(club, text),
                ob.protocol(club, outcome.game_id,
                            cat.text("host-protocol-caption", game=outcome.game_id), lang=cat.lang)]

    async def _stop(self, table: Table, who: str) -> None:
        """The host (or an admin) stops the table: a running game is recorded as abandoned, its
        log kept as played. Who stopped it is stored first: a process that dies after the
        abandon finishes the stop at the restart (:meth:`_stopped`)."""
        cat = await self._cat(table.chat)
        self._cancel(table)
        if table.status is TableStatus.RUNNING:
            table.flags.stopped_by = who
            await self._save(table, "flags")
            current = await self.service.current(table.chat)
            step = table.step
            if current is not None and step is not None and step.message is not None:
                await self.port.edit(table.chat, step.message,
                                     vw.step_text(step, current.state, cat, closed=True))
            try:
                await self.service.abandon(table.chat, self.port.judge)
            except ServiceError as error:
                log.info("host: table %s: %s", table.id, error)
        elif table.lobby_message is not None:
            await self.port.edit(table.chat, table.lobby_message, cat.text("host-lobby-closed"))
        await self._stopped(table, who)

    async def _stopped(self, table: Table, who: str) -> None:
        """The end of a stop (its game abandoned, if it had one): the mutes lifted, the table
        stored as stopped, the group told."""
        await self._unmute_all(table)
        table.step = None
        table.status = TableStatus.STOPPED
        await self._save(table, "step", "status")
        cat = await self._cat(table.chat)
        await self._queue(ob.post(table.chat, cat.text("host-stopped", who=who)),
                          game_id=table.game_id)

    # --- the lobby ----------------------------------------------------------------------------------------
    async def _lobby_text(self, table: Table, cat: Catalog) -> tuple[str, vw.Rows]:
        flags = table.flags
        tour = flags.tournament
        if tour is not None:  # a tournament's table: the plan's seats, each taken by its player
            lines = [self._t(cat, "host-lobby-tournament", number=tour["id"], table=tour["table"],
                              game=tour["game"], games=tour["games"], count=len(table.players),
                              preset=config_label(table.spec.config, cat), host=flags.host_name)]
        else:
            lines = [cat.text("host-lobby", preset=config_label(table.spec.config, cat),
                              seating=table.spec.options.seating, count=len(table.players),
                              left=TABLE_SIZE - len(table.players), host=flags.host_name)]
        lines.append(cat.text("host-lobby-judge", host=flags.host_name,
                              plays="yes" if table.player(table.host) is not None else "no",
                              platform=self.port.platform))
        lines.append(cat.text("host-lobby-absent", count=table.spec.options.absent_after,
                                rules=table.spec.config.preset))
        if table.spec.options.voice and table.spec.options.voice_grace:
            lines.append(cat.text("host-lobby-voice-grace", seconds=table.spec.options.voice_grace))
        if tour is not None:
            for seat, name in sorted((int(k), v) for k, v in tour["names"].items()):
                player = next((p for p in table.players if p.get("seat") == seat), None)
                lines.append(cat.text(
                    "host-lobby-seat", seat=seat, name=cat.name(name),
                    who=cat.name(player.get("shown", "")) if player else "",
                    taken="no" if player is None else "yes" if player.get("reachable") else "unreachable"))
        for index, player in enumerate(table.players if tour is None else (), 1):
            lines.append(cat.text("host-lobby-player", index=index, name=cat.name(player["name"]),
                                  reachable="yes" if player.get("reachable") else "no"))
        evening = flags.evening
        if evening is not None:  # the evening's list: who has not joined yet
            seated = {p["user"] for p in table.players}
            waiting = [cat.name(n) for a, n in evening["names"].items() if a not in seated]
            lines.append(cat.text("host-lobby-evening", count=len(evening["names"]),
                                  only="yes" if evening["only"] else "no",
                                  waiting=", ".join(waiting) or "none"))
        options = table.spec.options
        notes, extra = self.port.lobby_notes(
            flags.rights, "voice" if options.voice and options.mute != "foul" else options.mute,
            any(not p.get("reachable") for p in table.players), table.id, cat)
        lines.extend(notes)
        rows: vw.Rows = [[vw.Btn(cat.text("host-btn-join"), vw.encode(table.id, 0, vw.JOIN)),
                          vw.Btn(cat.text("host-btn-leave"), vw.encode(table.id, 0, vw.LEAVE))],
                         *extra]
        if evening is not None and evening["only"] and not table.full:  # a no-show's seat
            rows.append([vw.Btn(cat.text("host-btn-open-evening"), vw.encode(table.id, 0, vw.OPEN))])
        return "\n".join(lines), rows

    async def _show_lobby(self, table: Table) -> None:
        cat = await self._cat(table.chat)
        text, rows = await self._lobby_text(table, cat)
        posted = await self._place(table.chat, table.lobby_message, text, rows)
        if posted is not None:
            table.lobby_message = posted
            await self._save(table, "lobby_message")

    async def _new_table(self, chat: str, host: Player, args: list[str], handle: Any, *,
                         title: str, chat_type: str) -> list[str]:
        cat = await self._cat(chat)
        if await self.live(chat) is not None:
            return [self._t(cat, "host-busy")]
        if await self.service.home(chat) != chat:
            return [cat.text("host-judge-linked")]
        current = await self.service.current(chat)
        if current is not None and not current.finished:  # over, or stopped: a new table may open
            return [cat.text("host-judge-game", game=current.game_id)]
        defaults = self.defaults
        club = await self.service.club_rules(chat)  # the club's own rules, typed words over them
        spec = parse_newgame(merged(split(club.words), args) if club is not None else args,
                             vote_window=defaults.vote_window, shooting=defaults.shooting,
                             silenced=defaults.silenced)
        if spec.options.voice and not self.port.voice_tables:  # no voice channels here
            raise HostError("bad_option", option="voice", value=spec.options.voice)
        rights = await self.port.rights(chat, handle, chat_type=chat_type)
        seating = await TournamentDesk(self.service.store).seating(hosted_key(chat))
        flags = TableFlags(rights=rights or Rights(), host_name=host.name, title=title,
                           chat_type=chat_type, tournament=None if seating is None else {
                               "id": seating.tournament.id, "club": seating.tournament.club,
                               "table": seating.table, "game": seating.game_no,
                               "games": seating.tournament.games,
                               "names": {str(k): v for k, v in seating.names.items()}},
                           evening=None if seating is not None else await self._evening_list(chat))
        table_id = await self.service.store.create_host_table(chat, host.user, spec.to_dict(),
                                                              data=flags.to_dict())
        table = await self._load(table_id)
        assert table is not None
        await self._show_lobby(table)
        return []

    async def _evening_list(self, chat: str) -> dict[str, Any] | None:
        """The list of the group's evening (its sign-up, :mod:`bot.club.evening`) whose start
        is at most :data:`bot.club.evening.TAKEN_HOURS` ago and whose list is final: the lobby
        names them, and with ten or more only they join (the rest wait for the next table)."""
        store = self.service.store
        now = self.port.clock()
        found = await store.latest_evening(chat, now - TAKEN_HOURS * 3600, now)
        if found is None or found.status != CLOSED:
            return None
        names = {p.account: p.name for p in await store.evening_players(found.id) if p.list == GOING}
        return {"id": found.id, "names": names, "only": len(names) >= TABLE_SIZE} if names else None

    async def _open_evening(self, handle: Any, table: Table, who: Player) -> None:
        """The lobby of an evening's list (only its players sit) opened to everyone by its host
        or a chat admin: a player of the list who has not come must not keep the table from
        its ten (F24 §1.1); the list's players still sit as before. Anyone else's press, or one
        on a lobby already open, changes nothing."""
        cat = await self._cat(table.chat)
        evening = table.flags.evening
        if evening is None or not evening["only"]:
            await self.port.answer(handle, cat.text("host-outdated"))
            return
        if not await self._may_direct(table, who.user, handle):
            await self.port.answer(handle, self._t(cat, "host-not-host"), alert=True)
            return
        evening["only"] = False
        await self._save(table, "flags")
        await self.port.answer(handle, cat.text("host-evening-opened"))
        await self._show_lobby(table)

    async def _hello(self, table: Table, user: str) -> bool:
        """Can the bot write to the player privately (he has started it, his DMs are open)?
        Says hello if so."""
        cat = await self._player_cat(table, user)
        return await self.port.post(user, cat.text("host-joined", title=cat.name(table.flags.title)),
                                    private=True) is not None

    async def _join(self, handle: Any, table: Table, who: Player) -> None:
        cat = await self._cat(table.chat)
        player = table.player(who.user)
        if player is not None:
            # already seated; one not yet reachable (the bot could not write to him, or a
            # restart cut his join short) is tried again: pressing again is how he says "now"
            if not player.get("reachable") and await self._hello(table, who.user):
                await self.reachable(table, who.user, acknowledge=lambda: self.port.answer(
                    handle, cat.text("host-join-done")))
            elif not player.get("reachable"):
                text, url = self.port.unreachable(table.id, cat)
                await self.port.answer(handle, text, url=url)
            else:
                await self.port.answer(handle, cat.text("host-join-already"))
                await self._maybe_start(table)  # a start a restart cut short
            return
        if table.full:
            await self.port.answer(handle, cat.text("host-join-full"), alert=True)
            return
        evening = table.flags.evening
        if evening is not None and evening["only"] and who.user not in evening["names"]:
            await self.port.answer(handle, cat.text("host-join-evening-only"), alert=True)
            return
        seat, refusal = await self._plan_seat(table, who, None, cat)
        if refusal is not None:
            await self.port.answer(handle, refusal, alert=True)
            return
        if await self._seat_player(table, who, seat):
            await self.port.answer(handle, cat.text("host-join-done"))
        else:
            text, url = self.port.unreachable(table.id, cat)
            await self.port.answer(handle, text, url=url)
        await self._show_lobby(table)
        await self._maybe_start(table)

    async def _seat_player(self, table: Table, who: Player, seat: int | None) -> bool:
        """``who`` joins the lobby (at the plan's ``seat`` of a tournament's table, under the
        plan's name); whether the bot can write to him privately."""
        tour = table.flags.tournament
        name = st.distinct_name(who.name, (p["name"] for p in table.players))  # one name, one seat
        entry: dict[str, Any] = {"user": who.user, "name": name, "reachable": False}
        if tour is not None and seat is not None:
            entry.update(name=tour["names"][str(seat)], seat=seat, shown=who.name)
        table.players.append(entry)
        await self._save(table, "players")
        reachable = await self._hello(table, who.user)
        table.players[-1]["reachable"] = reachable
        await self._save(table, "players")
        return reachable

    async def _plan_seat(self, table: Table, who: Player, asked: str | None,
                         cat: Catalog) -> tuple[int | None, str | None]:
        """A tournament's table (issue 17): the plan's seat of the game that ``who`` takes, or
        the refusal. His account's roster entry, when its name is one of the game's, is his
        seat; else the name he asks for (``/join Имя``) or his own name on the platform, if it
        is one of the game's names and no other account has that name in the club's roster.
        A seat another player took is refused. ``(None, None)``: a table of no tournament."""
        tour = table.flags.tournament
        if tour is None:
            return None, None
        names = {int(k): v for k, v in tour["names"].items()}
        taken = {p.get("seat") for p in table.players}
        store = self.service.store
        mine = await store.find_player(tour["club"], who.user)
        seat = None
        if mine is not None and mine.account == who.user:
            seat = next((s for s, n in names.items() if fold(n) == fold(mine.name)), None)
        if seat is None:
            wanted = " ".join((asked or who.name).split())
            seat = next((s for s, n in names.items() if fold(n) == fold(wanted)), None)
            if seat is None:
                return None, self._t(cat, "host-tournament-not-listed",
                                      name=cat.said(wanted) if asked else cat.name(wanted),
                                      game=tour["game"], table=tour["table"])
            entry = await store.find_player(tour["club"], names[seat])
            if entry is not None and entry.account not in (None, who.user):
                return None, cat.text("host-tournament-other-account", name=cat.name(names[seat]))
        if seat in taken:
            return None, cat.text("host-tournament-taken", seat=seat, name=cat.name(names[seat]))
        return seat, None

    async def _join_named(self, table: Table, who: Player, asked: str) -> list[str]:
        """``/join Имя`` in a tournament table's lobby: the plan's seat of that name
        (:meth:`_plan_seat`); the answer for the group."""
        cat = await self._cat(table.chat)
        if table.flags.tournament is None:
            return [cat.text("host-join-button")]
        if table.status is not TableStatus.LOBBY or table.seats:
            return [cat.text("host-lobby-started")]
        if table.player(who.user) is not None:
            return [cat.text("host-join-already")]
        if table.full:
            return [cat.text("host-join-full")]
        if not asked.strip():
            return [cat.text("host-join-usage")]
        seat, refusal = await self._plan_seat(table, who, asked, cat)
        if refusal is not None or seat is None:
            return [refusal or ""]
        reachable = await self._seat_player(table, who, seat)
        await self._show_lobby(table)
        await self._maybe_start(table)
        if table.status is TableStatus.STOPPED:  # its place moved: said by the stop
            return []
        lines = [cat.text("host-tournament-seated", seat=seat, who=cat.name(who.name),
                          name=cat.name(table.flags.tournament["names"][str(seat)]))]
        if not reachable:
            lines.append(self.port.unreachable(table.id, cat)[0])
        return lines

    async def _leave(self, handle: Any | None, table: Table, user: str) -> None:
        cat = await self._cat(table.chat)
        if table.player(user) is None:
            if handle is not None:
                await self.port.answer(handle, cat.text("host-not-in-lobby"))
            return
        if table.seats:  # seated: the deal is under way (a restart finishes it)
            if handle is not None:
                await self.port.answer(handle, cat.text("host-lobby-started"))
            return
        table.players = [p for p in table.players if p["user"] != user]
        await self._save(table, "players")
        if handle is not None:
            await self.port.answer(handle, cat.text("host-left-lobby"))
        await self._show_lobby(table)

    async def reachable(self, table: Table, user: str, *,
                        acknowledge: Callable[[], Awaitable[None]] | None = None) -> None:
        """The bot can now write to ``user`` privately (he started it): marked in the lobby, and
        a table whose ten players are all reachable is dealt. Under the chat's lock.
        ``acknowledge`` answers the press that made him reachable once that is stored (a process
        that dies right after the answer has lost nothing) and before the deal."""
        player = table.player(user)
        if player is None or player.get("reachable"):
            if acknowledge is not None:
                await acknowledge()
            return
        player["reachable"] = True
        await self._save(table, "players")
        if acknowledge is not None:
            await acknowledge()
        await self._show_lobby(table)
        await self._maybe_start(table)

    def _ready(self, table: Table) -> bool:
        """Ten players who can all be written to privately (F24 §1.1)."""
        return table.status is TableStatus.LOBBY and table.full and all(p.get("reachable") for p in table.players)

    async def _maybe_start(self, table: Table) -> None:
        """A ready table: the deal and night 0 (F24 §1.1, §4.2)."""
        if self._ready(table):
            await self._start(table)

    def _rng(self, table: Table) -> random.Random:
        seed = self.defaults.seed
        return random.Random(f"{seed}:{table.id}") if seed is not None else random.Random()

    async def _start(self, table: Table) -> None:
        """Seats (join order or shuffled), the random deal entered with :class:`rules.SetRoles`,
        the cards in private (queued with the deal), night 0 (its words queued with it).

        Each of these is stored before the next is done, so a process that dies on the way
        finishes the start when it comes back (:meth:`_resume_one`): the seats are stored first
        (the table is then "dealing"), a game of this table already created or dealt is taken
        up, not created or dealt again."""
        cat = await self._cat(table.chat)
        rng = self._rng(table)
        tour = table.flags.tournament
        place = None
        if tour is not None and await self._dealing_game(table) is None:
            place = await self._plan_place(tour, table.chat)
            if place is None:  # the table moved away (or the tournament closed) meanwhile
                await self._stop(table, cat.text("host-tournament-moved", table=tour["table"]))
                return
        if not table.seats:
            order = list(table.players)
            if table.spec.options.seating == "shuffle":
                rng.shuffle(order)
            table.seats = {seat: p["user"] for seat, p in enumerate(order, 1)} if tour is None \
                else {int(p["seat"]): p["user"] for p in order}  # a tournament's: the plan's seats
            await self._save(table, "seats")
        seats = dict(table.seats)
        names: dict[int, str] = {}
        for seat, user in seats.items():  # a table stored before names were made distinct
            names[seat] = st.distinct_name((table.player(user) or {}).get("name", ""), names.values())
        title = table.flags.title

        async def cards(dealt: Outcome) -> list[OutboxItem]:  # F24 §1.1: each card in private
            return [ob.post(user, vw.role_card(dealt.state, seat, title,
                                               await self._player_cat(table, user)), private=True)
                    for seat, user in seats.items()]

        outcome = await self._dealing_game(table)
        if outcome is None:
            outcome = await self.service.new_game(table.chat, self.port.judge, table.spec.config,
                                                  names, replace=True, tournament=place)
        if not outcome.state.roles_known:
            outcome = await self._act(table, rules.SetRoles(roles=rules.deal(rng)), cards)
        table.game_id = outcome.game_id
        table.status = TableStatus.RUNNING
        flags = table.flags
        flags.rights = await self.port.rights(table.chat, chat_type=flags.chat_type) or flags.rights
        flags.mode = self._mode(table)
        if table.lobby_message is not None:  # before the store: a restart after it redoes this
            await self.port.edit(table.chat, table.lobby_message, cat.text("host-lobby-started"))
        await self._save(table, "seats", "game_id", "status", "flags")
        await self._flush(*seats.values())
        await self._open_game(table)

    async def _plan_place(self, tour: dict[str, Any], chat: str) -> tuple[int, int] | None:
        """A tournament lobby's place in the plan (what ``Service.new_game`` takes), if it is
        still this group's table and next game; ``None`` once it is not."""
        seating = await TournamentDesk(self.service.store).seating(hosted_key(chat))
        if seating is None or (seating.tournament.id, seating.table, seating.game_no) \
                != (tour["id"], tour["table"], tour["game"]):
            return None
        return seating.place

    def _mode(self, table: Table) -> MuteMode:
        """How "only the speaker writes" is kept: the option ``mute=foul``, else the platform's
        whole-game mute where the bot has the right, else timeouts where it may time members
        out, else fouls. A voice table (the option ``voice``): server mutes in its voice channel
        where the bot may mute members, else fouls (the judge's, seed 4.1.1)."""
        rights = table.flags.rights
        if table.spec.options.mute == "foul":
            return MuteMode.FOUL
        if table.spec.options.voice:  # a voice table: the speakers are heard, not read
            return MuteMode.VOICE if rights.voice else MuteMode.FOUL
        if rights.mute:
            return self.port.mute_mode(rights)
        return MuteMode.TIMEOUT if rights.timeout else MuteMode.FOUL

    async def _open_game(self, table: Table) -> None:
        """The dealt game begins (:class:`rules.StartGame`, its words queued with it: the seats,
        how the table is kept quiet, the club channel's note), then night 0. Also what a
        restart does for a running table whose game was dealt but not yet begun."""
        cat = await self._cat(table.chat)
        flags = table.flags
        fallback = "yes" if table.spec.options.mute == "restrict" and not flags.mode.whole_game else "no"

        async def opening(started: Outcome) -> list[OutboxItem]:
            text = cat.text("host-started", host=flags.host_name, mode=flags.mode.value,
                            seats=self.port.seat_lines(table.seats, started.state, cat),
                            fallback=fallback)
            return [ob.post(table.chat, text), *await self._club_start_items(table, started.state)]

        plan = _Plan()
        outcome = await self._act(table, rules.StartGame(), self._renderer(table, plan, opening))
        await self._advance(table, outcome, plan)

    async def _club_start_items(self, table: Table, state: rules.GameState) -> list[OutboxItem]:
        """The club channel's note of the start (queued with StartGame)."""
        club = await self._club(table)
        if club is None:
            return []
        cat = await self._cat(club)
        return [ob.post(club, cat.text("host-channel-start",
                                       title=self.port.where(table.chat, table.flags.title),
                                       host=table.flags.host_name, seats=vw.seats_text(state, cat)))]

    async def _dealing_game(self, table: Table) -> Outcome | None:
        """The game a start cut short created for this seated table: the chat's current game,
        unfinished, the bot's own, created after the table and still in its setup."""
        current = await self.service.current(table.chat)
        if current is None or current.judge != self.port.judge \
                or current.state.phase is not Phase.SETUP:
            return None
        row = await self.service.store.game(current.game_id)
        opened = await self.service.store.host_table(table.id)
        if row is None or opened is None or row.finished or row.created_at < opened.created_at:
            return None
        return current

    # --- commands: the front door's host part (bot.front) --------------------------------------------
    @staticmethod
    def state(current: Outcome | None, place: Place) -> rules.GameState | None:
        """What a command is parsed against at a table: its game (``/nominate 7``: the speaker;
        the host's penalties: the preset's reasons)."""
        return current.state if current is not None else None

    async def owns_protocol(self, chat: str) -> bool:
        """``/protocol`` here is host mode's when the chat's last game is a table's: it has a
        table, and no judge's game linked here since (judge mode sends that one's)."""
        row = await self.service.store.host_table_of(chat)
        if row is None:
            return False
        current = await self.service.current(await self.service.home(chat))
        return current is None or row.game_id is None or current.game_id <= row.game_id

    async def run(self, call: Call) -> list[Reply]:
        """A command routed to host mode (:mod:`bot.front`: ``/newgame``, ``/protocol``, and at
        a table ``/stop``, ``/status``, the host's penalties, the speaker's «Пас» and
        ``/nominate``, ``/rule``, ``/why``, ``/join``), under :meth:`held`. The answers for the
        one who asked (a refusal says why; nothing changed)."""
        entry = call.entry
        who = Player(entry.user, entry.name or entry.user)
        replies = await self._command(call.chat, who, call.spec.name, call.command, entry.handle,
                                      title=entry.title, chat_type=entry.chat_type,
                                      written_at=entry.stamp)
        return [Reply(text) for text in replies if text]

    async def command(self, chat: str, who: Player, name: str, text: str, handle: Any = None, *,
                      title: str = "", chat_type: str = "") -> list[str]:
        """The command ``text`` typed in ``chat`` (its name ``name``), as :meth:`run` carries it
        out, parsed here under the chat's lock: for a caller that is not the router (tests)."""
        async with self.held(chat):
            try:
                command = cmds.parse(text, self.state(await self.service.current(chat), Place.TABLE))
            except CommandError as error:
                return [error_text(error, await self._cat(chat))]
            return await self._command(chat, who, name, command, handle, title=title,
                                       chat_type=chat_type)

    async def _command(self, chat: str, who: Player, name: str, command: cmds.Command,
                       handle: Any, *, title: str, chat_type: str,
                       written_at: float | None = None) -> list[str]:
        cat = await self._cat(chat)
        mark = {t.id: await self._mark(t) for t in self.tables_in(chat) if t.status in LIVE}
        try:
            if isinstance(command, cmds.NewTable):
                return await self._new_table(chat, who, list(command.options), handle, title=title,
                                             chat_type=chat_type)
            if isinstance(command, Show) and command.what == "protocol":
                return await self._protocol(chat)
            return await self._table_command(chat, who, name, command, handle, written_at)
        except HostError as error:
            return [cat.text("host-error-bad_option",
                             **{k: cat.said(v) for k, v in error.params.items()})]
        except Refusal as error:
            return [error_text(error, cat)]
        except Exception as error:  # a bug, a full disk: said, and the table goes on as stored
            if kept(error):  # the database away: applied again once it is back, the chat
                return []    # claimed afresh (its tables read again)
            log.exception("host: /%s in %s failed", name, chat)
            saved = False
            for table in self.tables_in(chat):
                if table.status in LIVE:
                    saved = await self._recover(table, mark.get(table.id)) or saved
            return [cat.text("error-saved-not-sent" if saved else "error-not-saved")]

    async def _table_command(self, chat: str, who: Player, name: str, command: cmds.Command,
                             handle: Any, written_at: float | None = None) -> list[str]:
        """A command at the chat's table; ``written_at``: when it was written (the platform's
        stamp, real seconds), if known."""
        cat = await self._cat(chat)
        table = await self.live(chat)
        if table is None:  # it stopped meanwhile
            return [cat.text("host-no-table")]
        event = command.event if isinstance(command, Act) else None
        if isinstance(command, cmds.StopTable):
            if not await self._may_direct(table, who.user, handle):
                return [self._t(cat, "host-not-host")]
            await self._stop(table, who.name)
            return []
        if isinstance(command, Explain):
            return [await self._explain(chat, command, cat)]
        if isinstance(command, cmds.JoinSeat):
            return await self._join_named(table, who, command.name)
        if not (isinstance(command, Show) and command.what == "status") \
                and not isinstance(event, (*HOST_PENALTIES, rules.Next, rules.Nominate)):
            return [cat.text("host-table-command", command=name)]
        if table.status is not TableStatus.RUNNING:
            return [cat.text("host-not-started")]
        current = await self.service.current(chat)
        assert current is not None
        if isinstance(command, Show):
            return [status_text(current.state, cat, for_judge=False)]
        if isinstance(event, HOST_PENALTIES):  # the host's fouls (seed IV)
            if not await self._may_direct(table, who.user, handle):
                return [self._t(cat, "host-not-host")]
            if isinstance(event, rules.Penalty) and event.team is not None:
                # the roles are dealt: the engine knows the offender's team (seed 4.3), and a
                # refusal of the team named would tell the group whose team it is not
                event = dataclasses.replace(event, team=None)
            await self._act_and_advance(table, event)
            return []
        seat = table.seat_of(who.user)
        step = table.step
        if seat is None:  # a spectator has no minute: not «it is not your minute»
            return [cat.text("host-not-player")]
        if step is None or step.seat != seat or step.kind not in st.FLOOR:
            if isinstance(event, rules.Nominate) \
                    and st.written_in_own(table.flags.recent, seat, written_at, (StepKind.SPEECH,)):
                # written in his minute, read after it (F24 §4.4.2: in one's own speech): a
                # speech ends at its time, no grace after it (as for its nomination button)
                return [cat.text("host-nomination-late", target=seat_label(event.target, cat),
                                 rules=table.spec.config.preset)]
            return [cat.text("host-not-speaker")]
        await self._active(table, step)
        if isinstance(event, rules.Next):  # «Пас»: the speaker ends his minute
            await self._act_and_advance(table, rules.Next())
            return []
        assert isinstance(event, rules.Nominate)  # /nominate 7: the speaker nominates (F24 §4.4.2)
        if event.by != seat:
            raise rules.RuleError(rules.Code.NOT_SPEAKER, seat=event.by, speaker=seat)
        await self._act_and_advance(table, event)
        return []

    async def _explain(self, chat: str, command: Explain, cat: Catalog) -> str:
        """``/rule`` (:mod:`bot.rulebook`) and ``/why`` (:mod:`bot.why`) under the table's rules.
        Nobody at a hosted table is its judge: the host may be playing, so a private ruling (a
        check, a result fixed before the last word) is told to nobody."""
        if command.what == "why" and await self.service.current(chat) is None:
            return cat.text("why-nothing")
        text, _ = await why.answer(self.service, chat, command, cat, judge=None)
        return text

    async def _may_direct(self, table: Table, user: str, handle: Any) -> bool:
        """The host who opened the table, or a chat admin (Discord: Manage Channels), directs it
        (stop, penalties) — unless he plays at it: a player never judges his own table (the host
        chooses in the lobby: joining it, he plays)."""
        if table.seat_of(user) is not None:
            return False
        return user == table.host or await self.port.may_direct(table.chat, user, handle)

    async def _protocol(self, chat: str) -> list[str]:
        """The protocol of the chat's last finished table, sent again to the chat."""
        cat = await self._cat(chat)
        table = await self._table_of(chat, TableStatus.OVER)
        if table is None or table.game_id is None:
            return [cat.text("host-protocol-none")]
        await self._queue(ob.protocol(chat, table.game_id,
                                      cat.text("host-protocol-caption", game=table.game_id),
                                      lang=cat.lang), game_id=table.game_id)
        return []

    # --- messages -----------------------------------------------------------------------------------------
    async def message(self, chat: str, user: str, text: str, handle: Any, *,
                      written_at: float | None = None, command: bool = False,
                      anonymous: bool = False) -> bool:
        """A player writes in the table's chat: the speaker's «Пас» ends his minute; anyone else
        at the table speaks out of turn — by day a foul (seed 4.1.1), at night (night 0
        included) a disqualifying foul for night talk (seed 4.2.6:
        :func:`steps.out_of_turn_reason`); the message is deleted where allowed, after the foul
        is stored (it is its evidence). ``written_at`` (real seconds, the platform's stamp; an
        edit's: when it was edited): a message is judged by the step it was written in, not the
        one it is read in (:func:`steps.judge_written`) — one written in the writer's own
        minute, or his «Пас» sent at the boundary or twice, is no foul.

        Every door of the chat comes here (issue 36, :mod:`bot.front`): ``command`` — a command
        the whole chat reads (a Telegram group's), judged as any message out of one's minute
        and then not carried out; ``anonymous`` — written in the name of a chat by someone the
        platform could not name: at a running table it is deleted where allowed and the host
        told (:meth:`_unnamed`), nobody is fouled. Returns whether the line was the table's
        (judged: a command is then neither carried out nor answered); ``False``: no running
        table, a member not seated, or the writer's own minute (a command is carried out)."""
        if await self.live(chat) is None and chat not in self._unresumed:
            return False
        async with self.held(chat):
            table = await self._table_of(chat)
            if table is None or table.status is not TableStatus.RUNNING or table.step is None:
                return False
            if anonymous:
                await self._unnamed(table, handle)
                return True
            seat = table.seat_of(user)
            if seat is None:
                return False
            current = await self.service.current(chat)
            if current is None:
                return False
            state = current.state
            plan = st.plan(state, table.spec.options)
            if plan.key != table.step.key:
                return False
            written = st.judge_written(table.flags.recent, table.step, seat, written_at, text)
            if written.own:
                return not command  # written in his own minute (or its «Пас» repeated): nothing to judge
            if written.current and seat in st.writers(state, plan):
                await self._active(table, table.step)
                if command:
                    return False  # his minute: his command (/nominate 7) is carried out
                if text and st.is_pass(text):
                    async with self._guarded(table, "a typed «Пас»"):
                        await self._act_and_advance(table, rules.Next())
                return True
            reason = (st.out_of_turn_reason(state, plan, seat) if written.current  # 4.1.1 by day,
                      else written.reason if rules.seen_at_table(state, seat) else None)  # 4.2.6 at night
            if reason is not None:
                async with self._guarded(table, "a foul for a message"):
                    try:
                        await self._act_and_advance(table, rules.Penalty(seat=seat, reason=reason))
                    except rules.RuleError as error:
                        log.info("host: no foul for %s: %s", seat, error)
            if table.flags.rights.delete:
                await self.port.delete(handle)
            return True

    async def _unnamed(self, table: Table, handle: Any) -> None:
        """A message in the name of a chat (a group's anonymous admin, a channel) whose author
        the platform could not name, at a running table: nobody may speak unnamed at a table
        (seed 4.1.1: a player speaks in his own minute, as himself) and nobody can be fouled
        for it, so it is deleted where allowed, and the host is told in private — once a step
        (a flood of them is one notice)."""
        if table.flags.rights.delete:
            await self.port.delete(handle)
        step = table.step
        told = (table.id, step.no if step is not None else 0)
        if told in self._told_unnamed or not table.host.startswith(self.port.prefix):
            return
        self._told_unnamed[told] = True
        cat = await self._player_cat(table, table.host)
        key = "host-unnamed-deleted" if table.flags.rights.delete else "host-unnamed-kept"
        # in the background: the host's private chat is paced, the table goes on meanwhile
        await self._queue_aside(ob.post(table.host, cat.text(key, title=table.flags.title), private=True),
                                game_id=table.game_id)

    async def private_message(self, user: str, text: str) -> str | None:
        """A player writes to the bot privately. Night 0 (F24 §4.2): what one black writes goes
        to the other blacks, sent in the background (their private chats are paced; the group's
        night 0 does not wait for them). Returns ``"relayed"``; ``"seated"`` when he sits at a running table
        but nothing was relayed (tell him his messages go nowhere); ``None``: not the tables'
        business."""
        seated = [t for t in self._tables.values() if t.status is TableStatus.RUNNING and t.seat_of(user)]
        for table in seated:
            if table.step is not None and table.step.kind is StepKind.NIGHT_ZERO:
                async with self.held(table.chat):
                    if await self._relay(table, user, text):
                        return "relayed"
        return "seated" if seated else None

    async def _relay(self, table: Table, user: str, text: str) -> bool:
        current = await self.service.current(table.chat)
        seat = table.seat_of(user)
        if current is None or seat is None or current.state.phase is not Phase.NIGHT_ZERO or not text:
            return False
        blacks = rules.shooters(current.state)
        if seat not in blacks:
            return False
        items = []
        for other in blacks:
            if other != seat and other in table.seats:
                cat = await self._player_cat(table, table.seats[other])
                items.append(ob.post(table.seats[other], cat.text(
                    "host-relay", seat=seat_label(seat, cat), text=cat.said(text)), private=True))
        # in the background: a black who writes much must not hold up night 0's end (F24 §4.2)
        await self._queue_aside(*items, game_id=table.game_id)
        return True

    async def private_start(self, user: str, table_id: int | None = None) -> bool | None:
        """The player opened his private chat with the bot (Telegram's «Старт», the lobby's
        link to table ``table_id``): every lobby he is in may now write to him. ``None``: the
        link's table is over or does not have him (a stale link)."""
        if table_id is not None:
            table = await self._load(table_id)
            if table is None or table.status is not TableStatus.LOBBY or table.player(user) is None:
                return None
            async with self.held(table.chat):
                cat = await self._player_cat(table, user)
                await self.port.post(user, cat.text("host-joined", title=cat.name(table.flags.title)),
                                     private=True)
                await self.reachable(table, user)
            return True
        lobbies = [t for t in self._tables.values() if t.status is TableStatus.LOBBY and t.player(user)]
        for table in lobbies:
            async with self.held(table.chat):
                await self.reachable(table, user)
        return bool(lobbies)

    async def left_chat(self, chat: str, user: str) -> None:
        """A player left the table's chat: off the lobby; at the table, he left it (seed 4.2.1)."""
        async with self.held(chat):
            table = await self.live(chat)
            if table is None:
                return
            if table.status is TableStatus.LOBBY:
                await self._leave(None, table, user)
                return
            await self._left_table(table, user)

    async def unreachable(self, user: str) -> None:
        """A player blocked the bot: his night prompts cannot reach him. In a lobby he is not
        reachable any more; at a table he has left it (seed 4.2.1)."""
        for table in list(self._tables.values()):
            if table.status is TableStatus.LOBBY and table.player(user) is not None:
                async with self.held(table.chat):
                    player = table.player(user)
                    if player is not None:
                        player["reachable"] = False
                        await self._save(table, "players")
                        await self._show_lobby(table)
            elif table.status is TableStatus.RUNNING and table.seat_of(user) is not None:
                async with self.held(table.chat):
                    await self._left_table(table, user)

    async def _left_table(self, table: Table, user: str) -> None:
        seat = table.seat_of(user)
        if seat is None:
            return
        current = await self.service.current(table.chat)
        if current is None or current.finished:
            return
        async with self._guarded(table, "a player's leaving"):
            try:  # tonight's victim too, or one whose last word waits: the penalty removes them now
                await self._act_and_advance(table, rules.Penalty(seat=seat, reason=LEFT_TABLE))
            except rules.RuleError as error:
                log.info("host: %s left, no penalty: %s", seat, error)

    async def migrated(self, old: str, new: str) -> None:
        """The chat changed its id (a Telegram group upgraded to a supergroup): its open table,
        the table's game and its club channel follow it; the lobby or the step's message is
        posted afresh there (the old one stays behind in the old chat)."""
        async with self.held(old):
            table = await self.live(old)
            await self.service.store.move_host_chat(old, new)
            if table is None:
                return
        async with self.held(new):
            current = await self.service.current(old) if table.game_id is not None else None
            if current is not None and current.game_id == table.game_id:
                await self.service.take_over(old, current.judge, home=new)
            table.chat = new
            table.lobby_message = None
            if table.step is not None:  # posted afresh in the new chat
                table.step.message, table.step.slot = None, ""
            await self._save(table, "lobby_message", "step")
            if table.status is TableStatus.LOBBY:
                await self._show_lobby(table)
            elif current is not None:
                await self._show(table, current.state)

    # --- presses -----------------------------------------------------------------------------------------
    async def press(self, who: Player, data: str | None, handle: Any) -> None:
        """A host-mode button (``h:<table>:<step>:<action>[:<arg>]``). An outdated, forged or
        malformed one is answered "outdated" and changes nothing; a press by someone not at the
        table is refused."""
        press = vw.decode(data)
        table = await self._load(press.table) if press is not None else None
        if press is None or table is None:
            cat = await self.port.private_cat("", who.user)
            await self.port.answer(handle, cat.text("host-outdated"))
            return
        async with self.held(table.chat):
            cat = await self._cat(table.chat)
            mark = await self._mark(table)
            try:
                await self._pressed(handle, table, press, who)
            except Refusal as error:
                await self.port.answer(handle, error_text(error, cat)[:200], alert=True)
            except ValueError:
                await self.port.answer(handle, cat.text("host-outdated"))
            except Exception as error:  # a bug, a full disk: answered, and the table goes on as stored
                if kept(error):  # the database away: applied again once it is back
                    return
                log.exception("host: a press at table %s failed", table.id)
                saved = await self._recover(table, mark)
                await self.port.answer(handle, cat.text("error-saved-not-sent" if saved else
                                                        "error-not-saved"), alert=True)

    async def _pressed(self, handle: Any, table: Table, press: vw.HostPress, who: Player) -> None:
        cat = await self._cat(table.chat)
        if press.action in (vw.JOIN, vw.LEAVE, vw.OPEN):
            if table.status is not TableStatus.LOBBY:
                await self.port.answer(handle, cat.text("host-outdated"))
            elif press.action == vw.JOIN:
                await self._join(handle, table, who)
            elif press.action == vw.OPEN:
                await self._open_evening(handle, table, who)
            else:
                await self._leave(handle, table, who.user)
            return
        step = table.step
        if table.status is not TableStatus.RUNNING or step is None or step.no != press.step:
            await self.port.answer(handle, cat.text("host-outdated"))
            return
        seat = table.seat_of(who.user)
        if seat is None:
            await self.port.answer(handle, cat.text("host-not-player"), alert=True)
            return
        current = await self.service.current(table.chat)
        assert current is not None
        state = current.state
        if st.plan(state, table.spec.options).key != step.key:  # the step outlived its turn
            await self.port.answer(handle, cat.text("host-outdated"))
            await self._advance(table, current, _Plan())
            return
        action = press.action
        if action in (vw.PASS, vw.NOM_VIEW, vw.BACK, vw.NOMINATE):
            await self._speaker_press(handle, table, step, state, seat, press)
        elif action == vw.HAND:
            await self._hand(handle, table, step, state, seat)
        elif action in (vw.SHOOT, vw.CHECK, vw.BEST):
            await self._night_press(handle, table, step, state, seat, who.user, press)
        else:
            await self.port.answer(handle, cat.text("host-outdated"))

    async def _speaker_press(self, handle: Any, table: Table, step: Step, state: rules.GameState,
                             seat: int, press: vw.HostPress) -> None:
        cat = await self._cat(table.chat)
        if step.seat != seat or step.kind not in st.FLOOR:
            await self.port.answer(handle, cat.text("host-not-speaker"), alert=True)
            return
        await self._active(table, step)
        if press.action == vw.PASS:
            await self._act_and_advance(table, rules.Next(),
                                        acknowledge=lambda: self.port.answer(handle))
        elif press.action in (vw.NOM_VIEW, vw.BACK):
            step.view = "nominate" if press.action == vw.NOM_VIEW else ""
            await self._save(table, "step")
            await self.port.answer(handle)
            await self._show(table, state)
        else:
            target = press.seat()
            if target is None:
                raise ValueError("no target")
            await self._act_and_advance(table, rules.Nominate(by=seat, target=target),
                                        acknowledge=lambda: self.port.answer(
                                            handle, cat.text("host-nominated",
                                                             seat=seat_label(target, cat))))

    async def _hand(self, handle: Any, table: Table, step: Step, state: rules.GameState,
                    seat: int) -> None:
        """A hand up or down in the window of one nominee (F24 §4.4.5; seed 4.1.8: one vote a
        round, the engine says who may) or of the raise vote (§4.4.12.3)."""
        cat = await self._cat(table.chat)
        if step.kind not in st.WINDOWS:
            await self.port.answer(handle, cat.text("host-outdated"))
            return
        try:
            up = st.toggle_hand(state, step, seat)
        except rules.RuleError as refusal:
            await self.port.answer(handle, error_text(refusal, cat)[:200], alert=True)
            return
        await self._save(table, "step")
        await self.port.answer(handle, cat.text("host-hand", up="yes" if up else "no",
                                                kind=step.kind, seat=seat_label(step.seat, cat)))

    async def _night_press(self, handle: Any, table: Table, step: Step, state: rules.GameState,
                           seat: int, user: str, press: vw.HostPress) -> None:
        """A shot, a check or a best-move seat, changeable until the step closes; applied then."""
        cat = await self._player_cat(table, user)
        if not st.take_night_choice(state, step, seat, press.action, press.seat()):
            await self.port.answer(handle, cat.text("host-outdated"))
            return
        shown: list[OutboxItem] = []
        if user in step.prompted:  # the prompt shows the pick (queued behind the prompt itself)
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            shown.append(ob.edit(user, text, slot=prompt_slot(step.no), private=True, rows=rows))
        await self._save_queuing(table, shown, "step")
        await self.port.answer(handle, cat.text("host-taken"))
