"""The protocol of a finished game: a score-sheet picture and JSON exports.

* :func:`render_sheet` (:mod:`.sheet`) — the score sheet as a PNG: seats, roles, fouls,
  nominations and votes per day, nights, checks, the best move and the result.
* :func:`to_mafiaratings` (:mod:`.export`) — the MafiaRatings game layout, checked by replaying
  it through our own importer (:func:`rules.records.replay`) and by MafiaRatings' own validity
  check (:func:`rules.records.mafiaratings_check.site_issues`).
* :func:`to_json` / :func:`from_json` — our own full protocol (config, names, roles, the event
  log, the outcome).
* :class:`ExportError` — why a protocol cannot be made; :func:`error_text` puts it in words.

Inputs are a game as the service keeps it: ``(config, names, events)``, Undo events included.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Mapping

import rules

from ..i18n import Catalog
from ..render import reason_text, seat_label
from .export import from_json, rules_code, to_json, to_mafiaratings
from .record import ERROR_CODES, ExportError, GameRecord, read_game


def render_sheet(config: rules.RulesConfig, names: Mapping[int, str] | None,
                 events: list[rules.Event], lang: str, *, game_id: Any = None,
                 played_at: float | dt.datetime | dt.date | None = None,
                 info: Any = None) -> bytes:
    """The score sheet of a finished game as PNG bytes (:func:`.sheet.render_sheet`; ``info``
    a :class:`.sheet.SheetInfo`; Pillow is
    imported on the first call, not with the package). Takes about 0.1 s: call it from a worker
    thread (``asyncio.to_thread``) in an event loop."""
    from .sheet import render_sheet as render

    return render(config, names, events, lang, game_id=game_id, played_at=played_at, info=info)


def error_text(error: ExportError, cat: Catalog) -> str:
    """An :class:`ExportError` in the catalog's words (``protocol-error-<code>``): a seat as its
    label (plus ``n``, its number), a penalty reason in words."""
    if not cat.has(f"protocol-error-{error.code}"):
        return str(error)
    args: dict[str, Any] = {}
    for name, value in error.params.items():
        if name == "seat":
            args["seat"], args["n"] = seat_label(value, cat), value
        elif name == "what":
            args["what"] = reason_text(str(value), cat)
        else:
            args[name] = value
    return cat.text(f"protocol-error-{error.code}", **args)


__all__ = [
    "ERROR_CODES", "ExportError", "GameRecord", "error_text", "from_json", "read_game", "render_sheet",
    "rules_code", "to_json", "to_mafiaratings",
]
