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
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import rules
from storage import Store

from ..audit import with_audit
from ..i18n import Catalog
from . import ExportError, error_text, render_sheet, to_json, to_mafiaratings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProtocolFiles:
    """``files``: ``(file name, bytes)``, the picture first; ``problems``: why a file could not
    be made, in the catalog's words (shown beside the files); ``missing``: the same by the file
    it concerns (``png``, ``json``, ``mafiaratings``), for a caller that asked for some only;
    ``over``: the game's log ends in a result (``False``: its end was undone after the protocol
    was queued — an outbox then sends nothing of it)."""

    files: list[tuple[str, bytes]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    missing: dict[str, list[str]] = field(default_factory=dict)
    over: bool = True

    @property
    def picture(self) -> tuple[str, bytes] | None:
        return next(((n, d) for n, d in self.files if n.endswith(".png")), None)

    @property
    def documents(self) -> list[tuple[str, bytes]]:
        return [(n, d) for n, d in self.files if not n.endswith(".png")]


def _dumped(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


@dataclass(frozen=True)
class SheetDefaults:
    """What a deployment says of every sheet (settings): the club's name and time zone."""

    club: str | None = None
    tz: str = "UTC"


#: Files made lately, by game, language, log length and sheet info: one rendering serves the
#: judge, the table and the club channel (the picture takes about a second).
_MADE: OrderedDict[tuple[Any, ...], ProtocolFiles] = OrderedDict()
_MADE_MAX = 16
_MAKING: dict[tuple[Any, ...], "asyncio.Future[ProtocolFiles]"] = {}  # being made now


async def protocol_files(store: Store, game_id: int, cat: Catalog, *,
                         defaults: SheetDefaults | None = None, judge: str | None = None,
                         table: str | None = None) -> ProtocolFiles:
    """The files of game ``game_id`` (none, and no problem, if the store has no such game). The
    sheet's header (:class:`bot.protocol.sheet.SheetInfo`) gets the game's start and end, the
    deployment's ``defaults`` (club, time zone), the ``judge``'s name and the ``table``. The
    picture is drawn in a worker thread (about a second); a picture that fails for another
    reason than the game's own (:class:`ExportError`) is logged and left out: it is a courtesy,
    never a reason to lose the rest. The same game's files are made once for every chat that
    gets them (the log unchanged)."""
    row = await store.game(game_id)
    if row is None:
        return ProtocolFiles()
    from .sheet import SheetInfo

    defaults = defaults or SheetDefaults()
    config = rules.config_from_dict(row.config)
    rows = await store.events(game_id)
    events = [rules.from_dict(r.event) for r in rows]
    info = SheetInfo(game_id=game_id, started_at=row.created_at, ended_at=row.finished_at,
                     tz=defaults.tz, judge=judge, club=defaults.club, table=table)
    key = (game_id, cat.lang, len(events), row.finished_at, info)
    made = _MADE.get(key)
    if made is not None:
        _MADE.move_to_end(key)
        return made
    loop = asyncio.get_running_loop()
    making = _MAKING.get((loop, key))
    if making is not None:  # another chat's row asked first: the same files
        return await asyncio.shield(making)
    making = loop.create_future()
    _MAKING[(loop, key)] = making
    try:
        made = await _make(config, row.names, events, cat, info, rows)
    except BaseException as error:
        making.set_exception(error)
        making.exception()  # retrieved: nobody else may be waiting
        raise
    finally:
        _MAKING.pop((loop, key), None)
    making.set_result(made)
    _MADE[key] = made
    while len(_MADE) > _MADE_MAX:
        _MADE.popitem(last=False)
    return made


async def _make(config: rules.RulesConfig, names: dict[int, str], events: list[rules.Event],
                cat: Catalog, info: Any, rows: list[Any]) -> ProtocolFiles:
    game_id = info.game_id
    files: list[tuple[str, bytes]] = []
    problems: list[str] = []
    missing: dict[str, list[str]] = {}

    def problem(kind: str, text: str) -> None:
        missing.setdefault(kind, []).append(text)
        if text not in problems:
            problems.append(text)

    try:
        png = await asyncio.to_thread(render_sheet, config, names, events, cat.lang, info=info)
    except ExportError as error:
        problem("png", error_text(error, cat))
    except Exception:  # noqa: BLE001 - the picture is a courtesy
        log.exception("game %s: the score sheet failed", game_id)
    else:
        files.append((f"game-{game_id}.png", png))
    try:
        files.append((f"game-{game_id}.json", _dumped(with_audit(to_json(
            config, names, events, game_id=game_id, started_at=info.started_at,
            ended_at=info.ended_at), rows, config))))
    except ExportError as error:
        problem("json", error_text(error, cat))
    try:
        files.append((f"game-{game_id}.mafiaratings.json", _dumped(to_mafiaratings(
            config, names, events, game_id=game_id, started_at=info.started_at,
            ended_at=info.ended_at))))
    except ExportError as error:  # not every game fits the MafiaRatings layout: say why
        log.info("game %s has no MafiaRatings export: %s", game_id, error)
        problem("mafiaratings", cat.text("protocol-no-mafiaratings", why=error_text(error, cat)))
    try:
        over = rules.fold(config, events, names)[0].phase is rules.Phase.GAME_OVER
    except rules.RuleError:  # a log that does not replay: the exports have said why
        over = False
    return ProtocolFiles(files, problems, missing, over)
