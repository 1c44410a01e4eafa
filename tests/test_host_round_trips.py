"""Issue 34: host mode's tick in one write unit. A step's deadline — the event it closes into,
the next step, the table's flags, the step's record, the messages — is stored in ONE
transaction, and nothing the controller holds is read back: at most 3 round trips to the store
a tick (the action's transaction, the outbox's mark of what it sent, the new step's opening),
on SQLite and on PostgreSQL (the code is the same: :mod:`storage.host`, :mod:`storage.games`).

Round trips are counted, never timed: a unit (:meth:`storage.bridge.Bridged._read_unit`,
``_write_unit``; PostgreSQL's ``_write_step``) is one round trip to SQLite's threads, one
transaction on PostgreSQL; on SQLite every call into aiosqlite's threads is counted too (a unit
alone is one, its COMMIT inside: :meth:`storage.Store._unit`)."""

from __future__ import annotations

from pathlib import Path
from contextvars import ContextVar
from typing import Any

import aiosqlite

from bot.host.port import Rights
from bot.host.steps import WARN_LEFT, StepKind, press_grace
from bot.outbox import Outbox
from rules import Phase
from storage import PgStore, Store
from support.fake_host import GROUP, Table

TICK = 3  # the bound: round trips to the store a tick
PRIVATE = 3  # a private chat's sender in a tick: its rows read, an edit's message id, the mark


class Counted:
    """What ``store`` is asked, by unit: ``units`` (each ``(kind, chat)``: the chat whose
    outbox ``outbox`` was sending then, ``""`` outside a send) and, on SQLite, ``calls`` into
    aiosqlite's threads."""

    def __init__(self, store: Store, outbox: Outbox) -> None:
        self.units: list[tuple[str, str]] = []
        self.calls = 0
        self._sending: ContextVar[str] = ContextVar("sending", default="")
        for name in ("_read_unit", "_write_unit") + (("_write_step",) if isinstance(store, PgStore) else ()):
            self._wrap(store, name)
        flush = outbox._flush

        async def sending(chat: str, **options: Any) -> None:
            self._sending.set(chat)  # the flush's own task (a kick) or the handler's, reset below
            try:
                await flush(chat, **options)
            finally:
                self._sending.set("")

        outbox._flush = sending  # type: ignore[method-assign]
        if not isinstance(store, PgStore):
            for conn in (store.conn, store._reader):
                assert conn is not None
                self._wrap_thread(conn)

    def _wrap(self, store: Store, name: str) -> None:
        method = getattr(store, name)

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.units.append((name, self._sending.get()))
            return await method(*args, **kwargs)

        setattr(store, name, counted)

    def _wrap_thread(self, conn: aiosqlite.Connection) -> None:
        execute = conn._execute

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return await execute(fn, *args, **kwargs)

        conn._execute = counted  # type: ignore[method-assign]

    def clear(self) -> None:
        self.units.clear()
        self.calls = 0

    def table(self) -> list[tuple[str, str]]:
        """The units of the table's own work: the handler's, and the group's sends."""
        return [unit for unit in self.units if unit[1] in ("", GROUP)]

    def private(self) -> dict[str, int]:
        """The units of each private chat's sender, by chat (a prompt, a closed prompt, sent in
        the background; a chat's first rows read, an edit's message id)."""
        out: dict[str, int] = {}
        for _, chat in self.units:
            if chat not in ("", GROUP):
                out[chat] = out.get(chat, 0) + 1
        return out


async def _tick(t: Table, seconds: float) -> None:
    await t.clock.advance(seconds)
    await t.port.outbox.settle()


async def test_a_speech_s_ticks_are_at_most_three_round_trips_each(any_target: str) -> None:
    """Three speeches run out (F24 §4.3.1: a minute each, the 10-second warning inside it):
    the warning writes nothing (its stage is stored with the end: a restart before it warns
    again); each end — the ``Next`` logged, the next seat's step stored with
    it, its message sent and marked, its window opened — at most 3 round trips, and the next
    seat at the table has the floor (§4.3.2)."""
    async with await Store.open(any_target) as store:
        t = Table(store, Rights(mute=True, delete=True))
        await t.to_first_speech()
        await t.port.outbox.settle()
        counted = Counted(store, t.port.outbox)
        for _ in range(3):
            step = t.table().step
            assert step is not None and step.kind is StepKind.SPEECH
            seat, no = step.seat, step.no
            counted.clear()
            await _tick(t, step.seconds - WARN_LEFT)
            assert t.table().step.no == no  # the warning: the same step
            assert counted.units == [], counted.units
            if isinstance(store, Store):
                assert counted.calls == 0
            counted.clear()
            await _tick(t, WARN_LEFT + press_grace(step))
            assert len(counted.units) <= TICK, counted.units  # a day: nothing private
            if isinstance(store, Store):
                assert counted.calls <= TICK, counted.units
            assert (await t.state()).speaker == seat % 10 + 1
            now = t.table().step
            assert now is not None and now.no == no + 1 and now.seat == seat % 10 + 1
            stored = await store.host_table(t.table().id)
            assert stored is not None and stored.step == now.to_dict()  # nothing left unstored


async def test_a_night_step_s_tick_is_at_most_three_round_trips_for_the_table(any_target: str) -> None:
    """The night (F24 §4.5): each step's end is at most 3 round trips for the table itself —
    the event with the new step, the group's message marked, the step's opening with its
    private prompts queued —; each private chat's sender, in the background (its slowness
    holds up nothing), at most 3 of its own."""
    async with await Store.open(any_target) as store:
        t = Table(store, Rights(mute=True, delete=True))
        await t.to_first_speech()
        while (await t.state()).phase is not Phase.NIGHT:  # the day runs out: nobody nominated
            await _tick(t, t.table().step.seconds + 2)
        counted = Counted(store, t.port.outbox)
        nights = 0
        while (await t.state()).phase is Phase.NIGHT:
            step = t.table().step
            assert step is not None
            counted.clear()
            await _tick(t, step.seconds + press_grace(step))
            after = t.table().step
            ends = after.no - step.no if after is not None else 1  # a step of no time ends too
            assert ends >= 1
            assert len(counted.table()) <= TICK * ends, (step.key, counted.units)
            assert all(n <= PRIVATE * ends for n in counted.private().values()), counted.units
            nights += ends
        assert nights >= 2 and (await t.state()).phase in (Phase.SPEECH, Phase.LAST_WORD)


async def test_the_step_is_stored_with_the_event_that_opened_it(tmp_path: Path) -> None:
    """A process that dies right after the action's commit leaves the new step stored with it
    (issue 34): the restart finds #2's floor as the rules have it and nothing to redo."""
    async with await Store.open(tmp_path / "db.sqlite3") as store:
        t = Table(store, Rights(mute=True, delete=True))
        await t.to_first_speech()
        first = t.table().step

        async def dies(*args: Any, **kwargs: Any) -> None:
            return None

        t.host._advance = dies  # type: ignore[method-assign]
        await _tick(t, first.seconds + press_grace(first))
        stored = await store.host_table(t.table().id)
        assert stored is not None and stored.step is not None
        assert stored.step["no"] == first.no + 1 and stored.step["seat"] == first.seat % 10 + 1
        assert stored.step["previous"]["no"] == first.no  # closed at the restart
        steps = [row.no for row in await store.host_steps(t.table().id)]
        assert steps[-1] == first.no + 1  # its record too
        await t.restart()
        assert t.table().step.no == first.no + 1
        await t.port.outbox.drain_all()  # the start's drain sends the step's queued message
        await _tick(t, 1)  # and it is shown: its window opens
        assert t.table().step.no == first.no + 1 and t.table().step.started
        state = await t.state()
        assert state.phase is Phase.SPEECH and state.speaker == first.seat % 10 + 1
