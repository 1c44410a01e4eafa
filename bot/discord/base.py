"""What both of Discord's ports share (:class:`bot.judge.port.JudgePort`,
:class:`bot.host.port.HostPort`): the adapter's outbox, clock, catalogs and timers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from ..i18n import Catalog
from ..outbox import Outbox
from .keys import PREFIX

if TYPE_CHECKING:  # pragma: no cover
    from .app import DiscordReferee


class DiscordPortBase:
    """The primitives every mode's port on Discord has, over the adapter ``referee``."""

    platform = "dc"  # the catalogs' wording of Discord's own words
    prefix = PREFIX

    def __init__(self, referee: "DiscordReferee") -> None:
        self.referee = referee

    @property
    def outbox(self) -> Outbox:
        return self.referee.outbox

    @property
    def scale(self) -> float:
        """Real seconds per timer second."""
        return self.referee.timer_scale

    def clock(self) -> float:
        return self.referee.clock()

    def monotonic(self) -> float:
        return self.referee.monotonic()

    async def cat(self, chat: str) -> Catalog:
        """A channel's catalog: its server's language."""
        return await self.referee.cat(chat)

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        self.referee.tasks.schedule(group, delay, callback)

    def cancel(self, group: str) -> None:
        self.referee.tasks.cancel(group)
