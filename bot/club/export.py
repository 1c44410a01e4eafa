"""``mafia-referee club-export [--db PATH] [--club CHAT] [--format json|csv] [--out FILE]``: a
club admin's export of the roster and the players' games (issue 17), from the database the bot
keeps (whoever holds the database is the club's admin); and ``mafia-referee club-stats`` (a
player's ``/stats`` with his card as a PNG: :func:`run_stats`).

JSON: ``{"club", "players": [{"id", "name", "account", "merged_into", "created_at", "names"}],
"games": [{"game_id", "seat", "player_id", "name", "role", "result", "won", "points",
"additional", "best_move", "first_killed", "fouls", "removed", "finished_at"}]}`` — points in
hundredths, times in unix seconds. CSV: one row per player per game, with the player's roster
name and account, points as decimals and the time in ISO 8601 (UTC). Without ``--club``: the
console's club; ``mafia-referee clubs`` lists the clubs of a database (:func:`run_clubs`). The
database is a file or ``postgresql://…`` (:func:`bot.opening.open_database`). Exit status: 0
written, 2 no such database (none is created) or club.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, TextIO, TypeVar
from zoneinfo import ZoneInfo

from storage import Store

from ..i18n import Catalog, catalog, problem_text
from .answers import points_text

_T = TypeVar("_T")

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


async def _opened(db: Path, err: TextIO, cat: Catalog) -> Store | None:
    """The store at ``db`` (SQLite or PostgreSQL: :func:`bot.opening.open_database`), never created:
    ``None`` with the line said on ``err`` when there is no such file. A server that cannot be
    reached, a newer schema … are raised for :mod:`bot.entry` to say."""
    from ..opening import NoDatabase, open_database

    try:
        return await open_database(db, create=False)
    except NoDatabase as missing:
        print(cat.text("cli-no-database", path=missing.path), file=err)
        return None


async def _with_store(db: Path, err: TextIO, cat: Catalog,
                      work: Callable[[Store], Awaitable[_T]]) -> _T | None:
    """``work`` on the store at ``db`` (:func:`_opened`), closed after; ``None`` when there is no
    such database (said on ``err``) or ``work`` found nothing to do (said by it)."""
    store = await _opened(db, err, cat)
    if store is None:
        return None
    try:
        return await work(store)
    finally:
        await store.close()


async def _unknown_club(store: Store, club: str, err: TextIO, cat: Catalog) -> bool:
    """Whether ``club`` is not a club of the database (said on ``err``, with where to look)."""
    if await store.club_known(club):
        return False
    print(cat.text("cli-no-club", club=club), file=err)
    return True


async def run_export(db: Path, club: str, fmt: str, out: TextIO, target: Path | None, *,
                     lang: str = "ru", err: TextIO | None = None) -> int:
    """Write the export of ``club`` in ``db`` to ``target`` (or ``out``); the exit status: 0
    written, 2 no such database or club (said on ``err``, standard error by default)."""
    cat = catalog(lang)
    err = err or sys.stderr

    async def read(store: Store) -> dict[str, Any] | None:
        return None if await _unknown_club(store, club, err, cat) else await store.export_club(club)

    data = await _with_store(db, err, cat, read)
    if data is None:
        return 2
    text = (json.dumps(data, ensure_ascii=False, indent=2) + "\n") if fmt == "json" else to_csv(data)
    if target is None:
        out.write(text)
        return 0
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:  # checked before (bot.cli.refuse_bad_outputs): a full disk, a race
        print(cat.text("cli-not-written", path=str(target), problem=problem_text(error, cat)), file=err)
        return 2
    print(cat.text("club-export-written", path=str(target), players=len(data["players"]),
                   rows=len(data["games"])), file=out)
    return 0


async def run_clubs(db: Path, out: TextIO, *, lang: str = "ru", tz: str = "UTC",
                    err: TextIO | None = None) -> int:
    """``mafia-referee clubs``: a line per club of ``db`` — its key (``--club`` of the other
    commands), its roster's entries, its games and the last one's date by the club's clock
    (``tz``: ``MAFIA_REFEREE_TIMEZONE``, as ``/games`` dates it) — most recent first.
    Exit status 0 (a database without clubs says so), 2 no such database."""
    cat = catalog(lang)
    err = err or sys.stderr
    clubs = await _with_store(db, err, cat, lambda store: store.clubs())
    if clubs is None:
        return 2
    if not clubs:
        print(cat.text("cli-clubs-none"), file=out)
    for club in clubs:
        when = ("" if club.last_game is None else
                dt.datetime.fromtimestamp(club.last_game, ZoneInfo(tz)).date().isoformat())
        print(cat.text("cli-clubs-line", club=club.club, players=club.players, games=club.games,
                       last=when or "none"), file=out)
    return 0


async def run_stats(db: Path, club: str, words: list[str], lang: str, tz: str, out: TextIO,
                    png: Path | None, now: float, *, err: TextIO | None = None) -> int:
    """``mafia-referee club-stats NAME [PERIOD] [--png FILE]``: a player's ``/stats`` (the words
    as typed after ``/stats``) printed, and his card (:mod:`.card`) written to ``png``. Exit
    status: 0 shown, 1 nobody or no games to show (no file written), 2 bad input — no name, a
    period that is not one (``2026-13``), no such database or club — said on ``err``."""
    from ..commands import ClubCmd
    from .answers import Asker, ClubAnswers
    from .periods import BadPeriod, parse_period

    cat = catalog(lang)
    err = err or sys.stderr
    for word in words:
        try:
            parse_period(word, now, tz)
        except BadPeriod as bad:
            print(cat.text("club-error-bad_period", period=bad.word, why=bad.why), file=err)
            return 2
    if not words:
        print(cat.text("club-stats-whom"), file=err)
        return 2
    async def read(store: Store) -> tuple[list[str], tuple[str, bytes] | None, str] | None:
        if await _unknown_club(store, club, err, cat):
            return None
        return await ClubAnswers(store, tz=tz).stats_card(
            club, Asker(""), ClubCmd("stats", tuple(words)), cat, now)

    found = await _with_store(db, err, cat, read)
    if found is None:
        return 2
    lines, picture, _ = found
    print("\n".join(lines), file=out)
    if picture is None:
        return 1
    if png is not None:
        try:
            png.write_bytes(picture[1])
        except OSError as error:  # checked before (bot.cli.refuse_bad_outputs): a full disk, a race
            print(cat.text("cli-not-written", path=str(png), problem=problem_text(error, cat)), file=err)
            return 2
        print(cat.text("club-card-written", path=str(png), size=len(picture[1])), file=out)
    return 0
