"""What both of Telegram's ports share (:class:`bot.judge.port.JudgePort`,
:class:`bot.host.port.HostPort`): the adapter's outbox, clock, catalogs and the deadlines
(:class:`.jobs.JobScheduler`, on the event loop's monotonic clock)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from ..i18n import Catalog
from ..outbox import Outbox
from .jobs import JobScheduler

PREFIX = "tg:"


def chat_key(chat_id: int) -> str:
    """The store's key of a Telegram chat: ``"tg:<id>"``."""
    return f"{PREFIX}{chat_id}"


def chat_id_of(key: str) -> int:
    """The Telegram chat id of a store's key (:func:`chat_key`)."""
    return int(key.removeprefix(PREFIX))


class TelegramPortBase:
    """The primitives every mode's port on Telegram has, over the judge mode's adapter
    ``referee`` (its settings, clock, catalogs, outbox and Application)."""

    platform = "tg"  # the catalogs' wording of Telegram's own words
    prefix = PREFIX

    def __init__(self, referee: Any) -> None:
        self.referee = referee
        self.jobs = JobScheduler(lambda: referee.app)

    @property
    def outbox(self) -> Outbox:
        return self.referee.outbox  # type: ignore[no-any-return]

    @property
    def scale(self) -> float:
        """Real seconds per timer second (``telegram_timer_scale``)."""
        return float(self.referee.settings.telegram_timer_scale)

    def clock(self) -> float:
        return float(self.referee.clock())

    def monotonic(self) -> float:
        return float(self.referee.monotonic())

    async def cat(self, chat: str) -> Catalog:
        """A chat's catalog (its ``/lang``)."""
        return await self.referee.cat(chat)  # type: ignore[no-any-return]

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        self.jobs.schedule(group, delay, callback)

    def cancel(self, group: str) -> None:
        self.jobs.cancel(group)
