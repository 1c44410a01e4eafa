"""Which format a parsed JSON record is (:func:`detect`) and the record as :class:`Imported`
(:func:`import_record`): what :mod:`rules.records` offers, below :mod:`.replay`, which imports
through it."""

from __future__ import annotations

from typing import Any, Literal

# the modules, not the package (rules/records/__init__ imports this one)
import rules.records.mafiaratings as mafiaratings
import rules.records.polemica as polemica
import rules.records.protocol as protocol

from .driver import drive
from .model import Imported, RecordError, check_roles

Format = Literal["polemica", "mafiaratings", "protocol"]


def _polemica_game(game: dict[str, Any]) -> bool:
    players = game.get("players")
    first = players[0] if isinstance(players, list) and players and isinstance(players[0], dict) else {}
    return "votes" in game or "shots" in game or "position" in first


def detect(record: Any) -> Format:
    """``"polemica"`` for a Polemica v4 match (``version``, ``players[].position``, ``votes``),
    plain or inside the API's envelope (the game in ``data``); ``"mafiaratings"`` for a
    MafiaRatings game (its ``features`` letters, or ``rules`` code and ``winner``);
    ``"protocol"`` for our own protocol (``format``). Anything else raises :class:`RecordError`."""
    if not isinstance(record, dict):
        raise RecordError("record", "expected a JSON object")
    if record.get("format") == protocol.FORMAT:
        return "protocol"
    if "version" in record and _polemica_game(record):
        return "polemica"
    if polemica.is_envelope(record) and _polemica_game(record["data"]):
        return "polemica"
    if "features" in record or ("rules" in record and "winner" in record):
        return "mafiaratings"
    raise RecordError("record", "neither a Polemica v4 game (plain or in its API envelope), a "
                                "MafiaRatings game nor our own protocol")


def import_record(record: Any) -> Imported:
    """Import a record of any format (see :func:`detect`). Our own protocol carries its events;
    the sites' records are driven through the engine (:mod:`.driver`)."""
    source = detect(record)
    if source == "protocol":
        return protocol.read(record)
    reader = polemica.read if source == "polemica" else mafiaratings.read
    config, names, roles, facts, outcome = reader(record)
    check_roles(roles, "players[].role")
    driver = drive(config, facts, names, roles)
    return Imported(
        source=source,
        game_id=record.get("id"),
        config=config,
        names=names,
        roles=roles,
        events=driver.events,
        outcome=outcome,
        notes=driver.notes,
        problems=driver.problems,
    )
