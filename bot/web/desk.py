"""``/stream``: a table's pages, as the front door routes it (:data:`bot.commands.Part.WEB`).

The pages of the chat it is typed in: at the judge's desk his home (they follow his games), in
a group the group (the game linked to it now, or its hosted table), in a Discord channel the
channel. Anyone there reads the live page's and the overlay's addresses; the broadcast page's
(the roles shown behind the table) is said only privately — at the judge's desk, in Discord's
answer for the asker alone, else sent to the asker's private chat. ``/stream new`` makes new
secrets (the old pages close), ``/stream delay N`` sets the broadcast's delay, ``/stream
tournament`` gives the club's tournament page. The router has checked who may.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable

import rules

from ..commands import Place, StreamCmd
from ..front import Call
from ..judge.port import Reply
from ..render import duration
from .pages import TOURNAMENT

#: the places where an answer is read by the asker alone
PRIVATE = {("tg", Place.DESK), ("dc", Place.CHANNEL), ("dc", Place.TABLE)}


class StreamDesk:
    """The ``/stream`` part of a platform's front door; ``layer()``: the web layer (``None``:
    off); ``club_of(call)``: the club a desk's command acts on (the group its game is linked to)."""

    def __init__(self, layer: Callable[[], Any]) -> None:
        self._layer = layer

    def held(self, home: str) -> Any:
        return contextlib.nullcontext()

    def state(self, current: Any, place: Place) -> rules.GameState | None:
        return None

    async def run(self, call: Call) -> list[Reply]:
        layer = self._layer()
        command = call.command
        assert isinstance(command, StreamCmd)
        cat = call.cat
        if layer is None:
            return [Reply(cat.text("web-off"))]
        service = layer.service
        chat = call.home if call.place is Place.DESK else call.chat
        if command.what == "tournament":
            club = call.chat
            if call.place is Place.DESK and call.current is not None:
                club = await layer.service.announce(call.current.game_id) or call.chat
            if await service.tournament(club) is None:
                return [Reply(cat.text("web-no-tournament"))]
            row = await service.web_table(TOURNAMENT + club, create=True)
            return [Reply(cat.text("web-tournament", url=layer.tournament_url(row.public_key)))]
        lines: list[str] = []
        if command.what == "new":
            row = await service.rotate_web_table(chat)
            if layer.hub is not None:
                layer.hub.close(chat)
            lines.append(cat.text("web-rotated"))
        elif command.what == "delay":
            row = await service.set_web_delay(chat, int(command.seconds or 0))
            if layer.hub is not None:
                layer.hub.set_delay(chat, row.delay)
            lines.append(cat.text("web-delay-set", delay=duration(row.delay, cat)))
        else:
            row = await service.web_table(chat, create=True)
        lines.append(cat.text("web-pages", live=layer.live_url(row.public_key),
                              overlay=layer.overlay_url(row.public_key)))
        broadcast = cat.text("web-broadcast", delay=duration(row.delay, cat),
                             live=layer.live_url(row.broadcast_key),
                             overlay=layer.overlay_url(row.broadcast_key))
        if (call.entry.platform, call.place) in PRIVATE:
            return [Reply("\n".join([*lines, broadcast]))]
        lines.append(cat.text("web-broadcast-sent"))
        return [Reply("\n".join(lines)), Reply(broadcast, chat=call.user)]
