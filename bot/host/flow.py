"""What every host driver does the same way when a step ends: the closing event, a silent speech
counted, a player silent too long removed. The drivers (:mod:`bot.telegram.host`,
:mod:`bot.discord.host`) inherit it and supply the transport: :meth:`HostFlow._act_and_advance`
(apply one event, announce it, open the step the rules expect), :meth:`HostFlow._catch_up`,
:meth:`HostFlow._save` and :meth:`HostFlow._cat`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import rules

from ..render import seat_label
from . import steps as st
from .steps import Step
from .table import LEFT_TABLE, Table

if TYPE_CHECKING:
    from ..i18n import Catalog
    from ..service import Outcome, Service

log = logging.getLogger(__name__)


class HostFlow:
    """The step flow both host drivers share (a mixin: no state of its own)."""

    service: Service

    # --- the transport (each driver's own) --------------------------------------------------------
    async def _act_and_advance(self, table: Table, event: rules.Event, *,
                               lead: list[str] | None = None) -> Outcome:
        raise NotImplementedError

    async def _catch_up(self, table: Table, current: Outcome) -> None:
        """The game moved on without the table: open the step the rules expect now."""
        raise NotImplementedError

    async def _save(self, table: Table, *fields: str) -> None:
        raise NotImplementedError

    async def _cat(self, chat: str) -> Catalog:
        raise NotImplementedError

    # --- shared ----------------------------------------------------------------------------------
    async def _close_step(self, table: Table) -> None:
        """The step's time is up: its inputs become the engine's event (:func:`steps.closing_event`;
        one the rules refuse is logged and the game moves on with ``Next``). A speaker silent for
        ``absent_after`` own speeches in a row has then left the table (:meth:`_absent`)."""
        current = await self.service.current(table.chat)
        step = table.step
        if current is None or step is None:
            return
        if st.plan(current.state, table.spec.options).key != step.key:  # moved on meanwhile
            await self._catch_up(table, current)
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

    def _count_silence(self, table: Table, step: Step) -> bool:
        """``absent_after`` (seed 4.2.1): the speaker's silent own day speeches in a row, kept
        with the table, counted when the next step is stored (the driver stores ``data`` in the
        same transaction). A silenced minute (seed 4.4) is not a speech of his: it neither counts
        nor resets. A bot that cannot read the chat's messages cannot tell silence from speech:
        nothing counts. When the count reaches the option the seat is noted as ``absent_due``
        (:meth:`_absent`). Returns whether ``data`` changed."""
        if not table.data.get("rights", {}).get("read", True):
            return False
        counts: dict[str, int] = table.data.setdefault("silent", {})
        if not st.count_silence(step, counts):
            return False
        if step.seat is not None and st.absent_due(counts, table.spec.options.absent_after, step.seat):
            table.data["absent_due"] = step.seat
        return True

    async def _absent(self, table: Table) -> None:
        """The seat noted ``absent_due`` (:meth:`_count_silence`) has left the table — seed
        4.2.1, a disqualifying foul (seed 4.5: he leaves at once, without a last word; seed
        5.1–5.2 for the vote). The note is cleared after the penalty is stored: a restart in
        between applies it then (a seat no longer at the table is not penalised twice)."""
        seat = table.data.get("absent_due")
        if seat is None:
            return
        current = await self.service.current(table.chat)
        if table.status == "running" and current is not None and not current.finished \
                and current.state.seat(seat).at_table:
            cat = await self._cat(table.chat)
            silent = int(table.data.get("silent", {}).get(str(seat), 0))
            lead = [cat.text("host-absent", seat=seat_label(seat, cat), count=silent)]
            try:
                await self._act_and_advance(table, rules.Penalty(seat=seat, reason=LEFT_TABLE),
                                            lead=lead)
            except rules.RuleError as error:
                log.info("host: %s silent, no penalty: %s", seat, error)
        table.data.pop("absent_due", None)
        await self._save(table, "data")
