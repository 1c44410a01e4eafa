"""A stored game's protocol as files, for every platform: the score sheet (PNG), our JSON and, when
it can express the game, the MafiaRatings layout (which replays through our own importer). Our
JSON carries the game's audit trail too (``audit``: :func:`bot.audit.with_audit`).

Rendered from the game's log when a protocol is sent (an outbox row of :func:`bot.outbox.protocol`,
or ``/protocol``): the same files whichever platform, mode or process sends them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field

import rules
from storage import Store

from ..audit import with_audit
from ..i18n import Catalog
from . import ExportError, error_text, render_sheet, to_json, to_mafiaratings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProtocolFiles:
    """``files``: ``(file name, bytes)``, the picture first; ``problems``: why a file could not
    be made, in the catalog's words (shown beside the files)."""

    files: list[tuple[str, bytes]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def picture(self) -> tuple[str, bytes] | None:
        return next(((n, d) for n, d in self.files if n.endswith(".png")), None)

    @property
    def documents(self) -> list[tuple[str, bytes]]:
        return [(n, d) for n, d in self.files if not n.endswith(".png")]


def _dumped(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


async def protocol_files(store: Store, game_id: int, cat: Catalog) -> ProtocolFiles:
    """The files of game ``game_id`` (none, and no problem, if the store has no such game). The
    picture is drawn in a worker thread (about a second); a picture that fails for another
    reason than the game's own (:class:`ExportError`) is logged and left out: it is a courtesy,
    never a reason to lose the rest."""
    row = await store.game(game_id)
    if row is None:
        return ProtocolFiles()
    config = rules.config_from_dict(row.config)
    rows = await store.events(game_id)
    events = [rules.from_dict(r.event) for r in rows]
    files: list[tuple[str, bytes]] = []
    problems: list[str] = []

    def problem(error: ExportError) -> None:
        text = error_text(error, cat)
        if text not in problems:
            problems.append(text)

    try:
        png = await asyncio.to_thread(render_sheet, config, row.names, events, cat.lang,
                                      game_id=game_id, played_at=row.created_at)
    except ExportError as error:
        problem(error)
    except Exception:  # noqa: BLE001 - the picture is a courtesy
        log.exception("game %s: the score sheet failed", game_id)
    else:
        files.append((f"game-{game_id}.png", png))
    try:
        files.append((f"game-{game_id}.json", _dumped(with_audit(to_json(
            config, row.names, events, game_id=game_id, started_at=row.created_at,
            ended_at=row.finished_at), rows, config))))
    except ExportError as error:
        problem(error)
    try:
        files.append((f"game-{game_id}.mafiaratings.json", _dumped(to_mafiaratings(
            config, row.names, events, game_id=game_id, started_at=row.created_at,
            ended_at=row.finished_at))))
    except ExportError as error:  # not every game fits the MafiaRatings layout: no problem
        log.info("game %s has no MafiaRatings export: %s", game_id, error)
    return ProtocolFiles(files, problems)
