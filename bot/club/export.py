"""``mafia-referee club-export [--db PATH] [--club CHAT] [--format json|csv] [--out FILE]``: a
club admin's export of the roster and the players' games (issue 17), from the database the bot
keeps (whoever holds the database is the club's admin); and ``mafia-referee club-stats`` (a
player's ``/stats`` with his card as a PNG: :func:`run_stats`).

JSON: ``{"club", "players": [{"id", "name", "account", "merged_into", "created_at", "names"}],
"games": [{"game_id", "seat", "player_id", "name", "role", "result", "won", "points",
"additional", "best_move", "first_killed", "fouls", "removed", "finished_at"}]}`` — points in
hundredths, times in unix seconds. CSV: one row per player per game, with the player's roster
name and account, points as decimals and the time in ISO 8601 (UTC). Without ``--club``: the
console's club. Exit status: 0 written, 2 no such database (none is created).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any, TextIO

from storage import Store

from .answers import points_text

CSV_COLUMNS = ("game_id", "finished_at", "seat", "player_id", "player", "account", "name_then",
               "role", "result", "won", "points", "additional", "best_move", "first_killed",
               "fouls", "removed")


def to_csv(data: dict[str, Any]) -> str:
    """:meth:`storage.Store.export_club`'s data as CSV text (:data:`CSV_COLUMNS`)."""
    players = {p["id"]: p for p in data["players"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in data["games"]:
        player = players.get(g["player_id"], {})
        when = dt.datetime.fromtimestamp(g["finished_at"], dt.timezone.utc).isoformat(timespec="seconds")
        writer.writerow([g["game_id"], when, g["seat"], g["player_id"], player.get("name", ""),
                         player.get("account") or "", g["name"], g["role"], g["result"], g["won"],
                         points_text(g["points"]), points_text(g["additional"]),
                         "" if g["best_move"] is None else g["best_move"], g["first_killed"],
                         g["fouls"], g["removed"]])
    return out.getvalue()


async def run_export(db: Path, club: str, fmt: str, out: TextIO, target: Path | None) -> int:
    """Write the export of ``club`` in ``db`` to ``target`` (or ``out``); the exit status."""
    if not db.is_file():
        print(f"no database at {db}", file=out)
        return 2
    store = await Store.open(db)
    try:
        data = await store.export_club(club)
    finally:
        await store.close()
    text = (json.dumps(data, ensure_ascii=False, indent=2) + "\n") if fmt == "json" else to_csv(data)
    if target is None:
        out.write(text)
    else:
        target.write_text(text, encoding="utf-8")
        print(f"{target}: {len(data['players'])} players, {len(data['games'])} rows", file=out)
    return 0


async def run_stats(db: Path, club: str, words: list[str], lang: str, tz: str, out: TextIO,
                    png: Path | None, now: float) -> int:
    """``mafia-referee club-stats NAME [PERIOD] [--png FILE]``: a player's ``/stats`` (the words
    as typed after ``/stats``) printed, and his card (:mod:`.card`) written to ``png``. Exit
    status: 0 shown, 1 nobody or no games to show (no file written), 2 no such database."""
    from ..commands import ClubCmd
    from ..i18n import catalog
    from .answers import Asker, ClubAnswers

    if not db.is_file():
        print(f"no database at {db}", file=out)
        return 2
    store = await Store.open(db)
    try:
        lines, picture, _ = await ClubAnswers(store, tz=tz).stats_card(
            club, Asker(""), ClubCmd("stats", tuple(words)), catalog(lang), now)
    finally:
        await store.close()
    print("\n".join(lines), file=out)
    if picture is None:
        return 1
    if png is not None:
        png.write_bytes(picture[1])
        print(f"{png}: {len(picture[1])} bytes", file=out)
    return 0
