"""The views of a page's chat, read from what is stored (:mod:`.view` makes them).

A page follows a *chat* (``storage.WebTable.chat``): a judge's home (his private chat, a Discord
channel), a hosted table's group, or a club's group linked to whichever judge's game it is linked
to now (:meth:`bot.service.Service.home`). Each read is of the committed game: the service's
current game of the chat's home, its stored timer (a judge's game) or its hosted table's running
step (a hosted game), its log folded once per revision for the announcements.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import rules
from rules import Phase

from ..i18n import Catalog
from ..service import Outcome, Service
from . import view as vw

#: a tournament page's chat: this prefix and the club's chat
TOURNAMENT = "tournament:"


@dataclass
class Folded:
    """A game's announcements as of one revision (its log folded once)."""

    game_id: int
    revision: int
    notices: list[rules.Notice]


class Pages:
    """Reads a chat's game for its pages. ``cat(chat)``: a chat's catalog (the platform's);
    ``scale``: real seconds per timer second of hosted tables (their steps' deadlines)."""

    def __init__(self, service: Callable[[], Service], cat: Callable[[str], Awaitable[Catalog]], *,
                 clock: Callable[[], float] = time.time, scale: float = 1.0) -> None:
        self._service = service
        self._cat = cat
        self.clock = clock
        self.scale = scale
        self._folded: dict[str, Folded] = {}

    @property
    def service(self) -> Service:
        return self._service()

    async def home(self, chat: str) -> str:
        return await self.service.home(chat)

    async def current(self, chat: str) -> Outcome | None:
        """The game the chat's page shows: its home's current game (read only)."""
        return await self.service.current(await self.home(chat), copy=False)

    async def cat(self, chat: str, current: Outcome | None) -> Catalog:
        """The page's language: the chat's (a linked group's, a hosted table's group's)."""
        return await self._cat(chat)

    async def notices(self, home: str, current: Outcome) -> list[rules.Notice]:
        """Every announcement of ``current`` (its log folded; kept until the next revision)."""
        kept = self._folded.get(home)
        if kept is not None and (kept.game_id, kept.revision) == (current.game_id, current.revision):
            return kept.notices
        row = await self.service.game_row(current.game_id)
        names = row.names if row is not None else {}
        events = await self.service.events(home)
        _, notices = rules.fold(current.state.config, events, names)
        self._folded[home] = Folded(current.game_id, current.revision, notices)
        return notices

    async def clock_of(self, home: str, current: Outcome) -> vw.Clock | None:
        """The step's countdown: a hosted table's running step, else the judge's stored timer."""
        now = self.clock()
        hosted = await self.service.host_table_of(home)
        if hosted is not None and hosted.game_id == current.game_id:
            return vw.host_clock(hosted.step, current.state, now, self.scale)
        return vw.judge_clock(await self.service.timer(current.game_id), current.state, now)

    async def views(self, chat: str, kinds: tuple[str, ...]) -> tuple[int | None, dict[str, dict[str, Any]]]:
        """``chat``'s views of ``kinds`` (``"public"``, ``"broadcast"``) and the id of the game
        they show (``None``: none)."""
        current = await self.current(chat)
        cat = await self.cat(chat, current)
        if current is None:
            return None, {kind: vw.empty_view(cat, kind) for kind in kinds}
        home = await self.home(chat)
        notices = await self.notices(home, current)
        clock = await self.clock_of(home, current)
        stopped = current.finished and current.state.phase is not Phase.GAME_OVER
        out: dict[str, dict[str, Any]] = {}
        for kind in kinds:
            out[kind] = vw.public_view(current.state, cat, game_id=current.game_id, clock=clock,
                                       notices=notices, stopped=stopped,
                                       roles=kind == "broadcast")
        return current.game_id, out

    def forget(self, home: str) -> None:
        self._folded.pop(home, None)
