"""A club's statistics as it grows (issue 17): ``/stats`` and ``/top`` on a club of 1,000 players
and 100,000 finished games (``--club-players``, ``--club-games``; ``--quick``: 100 and 2,000).

The club is written straight into a migrated database (setup, not measured; ``synchronous=OFF``):
its roster, a ``games`` row per game spread over two years, ten ``game_players`` rows each (six
civilians, the Sheriff, two mafia, the Don; players drawn at random; points as the protocol
gives them) and the ``player_months`` sums the store keeps with them. Measured through
:class:`storage.Store` and the answers the chat shows (:class:`bot.club.answers.ClubAnswers`),
best of five after a warm-up:

* ``/top season`` and ``/top`` (all games), ``/top month``;
* ``/stats <player>`` (all games) and ``/stats <player> month``;
* ``/games``;
* the strength rating recomputed (issue 33: :func:`bot.club.balance.club_strength`, its cache
  emptied first): every row of the club's games read and folded by Glicko-2, one rating period
  per day of games; its floor the rows read alone (:meth:`storage.Store.club_results`). Best of
  three (one with ``--quick``).

The floor of the others is the same totals summed from the rows alone (``GROUP BY player, role``
over the club's rows of the period): what a query costs without the monthly sums.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from bot.club import balance
from bot.club.answers import Asker, ClubAnswers
from bot.club.balance import club_strength
from bot.commands import ClubCmd
from bot.i18n import catalog
from storage import Store
from storage.club import MONTH_SUMS, month_of

from . import Row, Section, eprint

TITLE = "club statistics"
CLUB = "tg:-100500"
TARGET_S = 0.5  # "well under a second"
ROLES = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")
SPAN = 2 * 365 * 86400.0
END = 1_798_761_600.0  # 2027-01-01 UTC: the last game ends in the last season's December


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--club-players", type=int, default=1000, metavar="N",
                        help="players in the club (default 1,000)")
    parser.add_argument("--club-games", type=int, default=100_000, metavar="N",
                        help="finished games of the club (default 100,000)")


def _write(db: Path, players: int, games: int, seed: int = 17) -> None:
    """The club's roster, games and rows, written straight into the migrated file ``db``."""
    rng = random.Random(seed)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    conn.execute("INSERT INTO chats(chat) VALUES (?)", (CLUB,))
    conn.executemany("INSERT INTO players(id, club, name, folded, account, created_at)"
                     " VALUES (?, ?, ?, ?, NULL, 0)",
                     [(i, CLUB, f"Игрок {i}", f"игрок {i}") for i in range(1, players + 1)])
    months: dict[tuple[int, int, str], list[int]] = {}
    rows = []
    start = END - SPAN
    for game in range(1, games + 1):
        at = start + SPAN * game / (games + 1)
        red = rng.random() < 0.55
        conn.execute("INSERT INTO games(id, chat, judge, config, created_at, finished_at, result)"
                     " VALUES (?, ?, 'tg:1', '{}', ?, ?, ?)",
                     (game, CLUB, at - 3600, at, "red" if red else "black"))
        month = month_of(at)
        killed = rng.randrange(1, 11)
        for seat, (player, role) in enumerate(zip(rng.sample(range(1, players + 1), 10), ROLES), 1):
            won = int(red == (role in ("civilian", "sheriff")))
            extra = rng.choice((0, 0, 0, 10, 20, 30, 40))
            best = rng.randrange(4) if seat == killed and role in ("civilian", "sheriff") else None
            fouls = rng.choice((0, 0, 1, 1, 2, 3))
            row = (game, seat, CLUB, player, f"Игрок {player}", role, "red" if red else "black",
                   won, 100 * won + extra, extra, best, int(seat == killed), fouls, 0, at)
            rows.append(row)
            sums = months.setdefault((month, player, role), [0] * len(MONTH_SUMS))
            for i, value in enumerate((1, won, 100 * won + extra, extra, best is not None,
                                       best or 0, int(seat == killed), fouls, 0)):
                sums[i] += int(value)
        if len(rows) >= 50_000:
            _rows(conn, rows)
            rows = []
    _rows(conn, rows)
    conn.executemany(
        f"INSERT INTO player_months(club, month, player_id, role, {', '.join(MONTH_SUMS)})"
        f" VALUES (?, ?, ?, ?, {', '.join('?' for _ in MONTH_SUMS)})",
        [(CLUB, month, player, role, *sums) for (month, player, role), sums in months.items()])
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def _rows(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    conn.executemany(
        "INSERT INTO game_players(game_id, seat, club, player_id, name, role, result, won, points,"
        " additional, best_move, first_killed, fouls, removed, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _floor(db: Path, since: float | None, until: float | None) -> float:
    """The rows alone: the period's totals per player and role, summed from ``game_players``."""
    conn = sqlite3.connect(db)
    try:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            conn.execute("SELECT player_id, role, COUNT(*), SUM(won), SUM(points), SUM(additional),"
                         " SUM(fouls) FROM game_players WHERE club = ? AND finished_at >= ?"
                         " AND finished_at < ? GROUP BY player_id, role",
                         (CLUB, since or 0, until or 1e12)).fetchall()
            best = min(best, time.perf_counter() - started)
        return best
    finally:
        conn.close()


async def _measure(db: Path) -> dict[str, tuple[float, str]]:
    store = await Store.open(db)
    answers = ClubAnswers(store, tz="UTC")
    cat = catalog("ru")
    now = END - 86400  # in the last month of the last season
    asker = Asker("tg:1")
    out: dict[str, tuple[float, str]] = {}
    try:
        for label, command in (("/top season", ClubCmd("top", ("season",))),
                               ("/top (all games)", ClubCmd("top")),
                               ("/top month", ClubCmd("top", ("month",))),
                               ("/stats player (all games)", ClubCmd("stats", ("Игрок", "7"))),
                               ("/stats player month", ClubCmd("stats", ("Игрок", "7", "month"))),
                               ("/games", ClubCmd("games"))):
            lines = await answers.answer(CLUB, asker, command, cat, now)  # warm-up
            best = float("inf")
            for _ in range(5):
                started = time.perf_counter()
                lines = await answers.answer(CLUB, asker, command, cat, now)
                best = min(best, time.perf_counter() - started)
            out[label] = (best, lines[1] if len(lines) > 1 else lines[0])
    finally:
        await store.close()
    return out


async def _strength(db: Path, runs: int) -> tuple[float, float, int]:
    """The rating recomputed from the stored rows (best of ``runs``), the rows read alone, and
    how many players it rated."""
    store = await Store.open(db)
    try:
        best, floor, rated = float("inf"), float("inf"), 0
        for _ in range(runs):
            balance._STRENGTHS.clear()
            started = time.perf_counter()
            rated = len(await club_strength(store, CLUB, "UTC"))
            best = min(best, time.perf_counter() - started)
            started = time.perf_counter()
            await store.club_results(CLUB)
            floor = min(floor, time.perf_counter() - started)
        return best, floor, rated
    finally:
        await store.close()


def run(args: argparse.Namespace) -> Section:
    quick = bool(args.quick)
    players = 100 if quick else args.club_players
    games = 2_000 if quick else args.club_games
    folder = Path(tempfile.mkdtemp(prefix="mafia-bench-club-", dir=getattr(args, "db_dir", None)))
    section = Section(TITLE)
    try:
        db = folder / "club.sqlite3"
        asyncio.run(_migrated(db))
        started = time.perf_counter()
        _write(db, players, games)
        eprint(f"club: {players:,} players, {games:,} games written in {time.perf_counter() - started:.1f} s")
        figures = asyncio.run(_measure(db))
        season = (END - 365 * 86400.0, END)
        floors = {"/top season": _floor(db, *season), "/top (all games)": _floor(db, None, None),
                  "/top month": _floor(db, month_of(END - 86400), END)}
        judged = not quick
        for n, (label, (seconds, line)) in enumerate(figures.items()):
            eprint(f"club: {label}: {1000 * seconds:.1f} ms — {line}")
            section.rows.append(Row(
                f"{label}, {players:,} players × {games:,} games", seconds, "s",
                floor=floors.get(label), target=f"< {int(TARGET_S * 1000)} ms" if judged else "—",
                met=seconds < TARGET_S if judged else None,
                note=("The whole answer (the store's totals and the text); best of 5 after a "
                      "warm-up. Floor: the same totals summed from the rows alone (GROUP BY "
                      "player and role over the period's rows), without the monthly sums.")
                if n == 0 else ""))
        seconds, floor, rated = asyncio.run(_strength(db, 1 if quick else 3))
        eprint(f"club: strength recompute: {seconds:.2f} s for {rated:,} players")
        section.rows.append(Row(
            f"strength rating recompute, {players:,} players × {games:,} games", seconds, "s",
            floor=floor, target="—", met=None,
            note=("Issue 33: every stored row of the club's games read and folded by Glicko-2 "
                  "(bot/club/strength.py; a rating period per day of games), the cache emptied "
                  f"first; best of {1 if quick else 3}. Floor: the rows read alone "
                  "(Store.club_results).")))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return section


async def _migrated(db: Path) -> None:
    store = await Store.open(db)
    await store.close()
