"""A club's tournament page (issue 30): every table's game now and the standings, in the words
of ``/tournament`` (:class:`bot.club.tournament.TournamentDesk`), each running game as its live
page shows it (:func:`.view.public_view`: nothing role-bearing before its end)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..club.tournament import TournamentDesk
from ..commands import ClubCmd
from . import view as vw

if TYPE_CHECKING:
    from .server import WebLayer


async def tournament_view(layer: "WebLayer", club: str) -> dict[str, Any]:
    """The page of ``club``'s open tournament: ``lines`` (``/tournament``'s view: each table's
    judge and game), ``standings`` (over its finished games, F24/S24 §8.7.1) and ``tables``
    (each table's running game, its public view)."""
    cat = await layer.cat(club)
    service = layer.service
    found = await service.tournament(club)
    out: dict[str, Any] = {"kind": "tournament", "lang": cat.lang, "labels": vw.labels(cat),
                           "lines": [], "standings": [], "tables": []}
    if found is None:
        out["lines"] = [cat.text("web-no-tournament")]
        return out
    desk: TournamentDesk = layer.door(club).judge.tournament_desk(cat)
    out["lines"] = (await desk.answer(club, found.chief, ClubCmd("tournament"), cat)).lines
    out["standings"] = await desk.standings(found, cat)
    assert layer.pages is not None
    for table in range(1, found.tables + 1):
        game = TournamentDesk._running(found, table)
        row = await service.game_row(game) if game is not None else None
        view = None
        if row is not None:
            shown, views = await layer.pages.views(row.chat, ("public",))
            view = views["public"] if shown == game else None
        out["tables"].append({"table": table, "view": view})
    return out
