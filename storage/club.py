"""A club's roster and its players' rows of finished games (0006): the SQL behind the store's
club methods, and those methods (:class:`ClubMethods`, shared by :class:`storage.Store` and
:class:`storage.PgStore`), run inside the backend's units and reads.

A club is the chat a game's table reads (its group: ``COALESCE(announce, chat)``). A player is an
account (``"tg:42"``) where the game knows one — a hosted table's seat (0003) — or else the seat's name, matched in the club's roster case-folded.
Plain SQL (``?`` parameters, no SQLite-only functions, ``RETURNING`` for a new row's id, month
bounds as integers): PostgreSQL runs these same functions in a worker thread
(:class:`storage.pg._Bridge`).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Self, Sequence, TypeVar

from rules.engine import name_key

from .bridge import Bridged, call, only

_T = TypeVar("_T")

ROLES = ("civilian", "sheriff", "mafia", "don")

#: The slot of a game's stored messages that holds its protocol's (bot.outbox.PROTOCOL_SLOT).
PROTOCOL_SLOT = "protocol"

#: The slots of a game's stored messages under its home chat where a judge maps a seat to a
#: member (``seat:<n>``: the member's id; Discord's ``/seat``).
SEAT_SLOT = "seat:"

#: What ``/top`` may order by.
TOP_ORDERS = ("points", "wins", "winrate")


class ClubError(Exception):
    """A roster change that cannot be made. ``code``: ``no_player`` (``name``), ``name_taken``
    (``name``), ``same_player``, ``shared_game`` (``source``, ``target``, ``game``: the two
    entries sat in one game, so they are two people), ``bad_name`` (``name``), ``bad_pair``
    (``command``: not ``old = new``)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class PlayerRow:
    """A roster entry: ``account`` is ``None`` for a nickname; ``games`` counts its rows."""

    id: int
    club: str
    name: str
    account: str | None
    games: int = 0


@dataclass
class Totals:
    """A player's figures summed over some games (points in hundredths). ``by_role``: the games
    and wins per role (:data:`ROLES`)."""

    player_id: int
    name: str = ""
    games: int = 0
    wins: int = 0
    points: int = 0
    additional: int = 0
    best_moves: int = 0  # best moves made (as the first night's victim)
    best_move_hits: int = 0
    first_killed: int = 0
    fouls: int = 0
    removed: int = 0
    by_role: dict[str, tuple[int, int]] = field(default_factory=dict)  # role -> (games, wins)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def wins_as(self, *roles: str) -> int:
        return sum(self.by_role.get(r, (0, 0))[1] for r in roles)

    def add(self, role: str, row: Sequence[Any]) -> None:
        games, wins = int(row[0]), int(row[1] or 0)
        self.games += games
        self.wins += wins
        self.points += int(row[2] or 0)
        self.additional += int(row[3] or 0)
        self.best_moves += int(row[4] or 0)
        self.best_move_hits += int(row[5] or 0)
        self.first_killed += int(row[6] or 0)
        self.fouls += int(row[7] or 0)
        self.removed += int(row[8] or 0)
        g, w = self.by_role.get(role, (0, 0))
        self.by_role[role] = (g + games, w + wins)


@dataclass(frozen=True)
class ClubGame:
    """A finished game of the club: its result and its players' names by seat; ``protocols``
    the chats its protocol was posted to and the first message's id there (slot ``protocol``
    of the game's stored messages, 0002)."""

    id: int
    finished_at: float
    result: str
    names: dict[int, str]
    points: dict[int, int]  # hundredths, by seat
    protocols: dict[str, int] = field(default_factory=dict)


def fold(name: str) -> str:
    """The roster's key of a name (:func:`rules.name_key`: NFKC, case-folded, inner spaces
    collapsed, ё as е): the key a game's seats are told apart by, so that the seats of one game
    are always different players."""
    return name_key(name)


def refold_sync(db: sqlite3.Connection) -> int:
    """Compute the roster's keys that migration 0011 emptied (:func:`fold` changed: NFKC);
    returns how many. Both backends run it when the store opens."""
    rows = db.execute("SELECT id, name FROM players WHERE folded = ''").fetchall()
    for player, name in rows:
        db.execute("UPDATE players SET folded = ? WHERE id = ?", (fold(name), player))
    return len(rows)


def _like(text: str) -> str:
    return text.replace("^", "^^").replace("%", "^%").replace("_", "^_") + "%"


def month_of(at: float) -> int:
    """The first second (unix time) of the UTC calendar month of ``at``."""
    day = dt.datetime.fromtimestamp(at, dt.timezone.utc)
    return int(dt.datetime(day.year, day.month, 1, tzinfo=dt.timezone.utc).timestamp())


def _next_month(month: int) -> int:
    day = dt.datetime.fromtimestamp(month, dt.timezone.utc)
    year, number = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return int(dt.datetime(year, number, 1, tzinfo=dt.timezone.utc).timestamp())


MONTH_SUMS = ("games", "wins", "points", "additional", "best_moves", "best_move_hits",
              "first_killed", "fouls", "removed")


def _add_months(db: sqlite3.Connection, rows: list[tuple[Any, ...]], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) rows of ``(club, month, player_id, role, *sums)``
    (:data:`MONTH_SUMS`) in ``player_months``; a month left with no games is dropped."""
    if not rows:
        return
    sets = ", ".join(f"{c} = player_months.{c} + excluded.{c}" for c in MONTH_SUMS)
    db.executemany(
        f"INSERT INTO player_months(club, month, player_id, role, {', '.join(MONTH_SUMS)})"
        f" VALUES (?, ?, ?, ?, {', '.join('?' for _ in MONTH_SUMS)})"
        f" ON CONFLICT(club, month, player_id, role) DO UPDATE SET {sets}",
        [(*r[:4], *(sign * int(v or 0) for v in r[4:])) for r in rows])
    if sign < 0:
        db.execute("DELETE FROM player_months WHERE games = 0")


def game_months(db: sqlite3.Connection, game_id: int) -> list[tuple[Any, ...]]:
    """A game's rows as ``player_months`` contributions."""
    return [(club, month_of(at), player, role, 1, won, points, additional,
             0 if best is None else 1, best or 0, first, fouls, removed)
            for club, at, player, role, won, points, additional, best, first, fouls, removed
            in db.execute("SELECT club, finished_at, player_id, role, won, points, additional,"
                          " best_move, first_killed, fouls, removed FROM game_players"
                          " WHERE game_id = ?", (game_id,)).fetchall()]


# --- inside a write unit ---------------------------------------------------------------------

def player_sync(db: sqlite3.Connection, club: str, name: str | None, account: str | None,
                at: float, *, claim: bool = False) -> int | None:
    """The roster's player for an account or a name (created if new; an account's entry keeps
    its roster name), or ``None`` with neither. ``claim``: the judge said the account is the
    seat's (Discord's ``/seat``) — a new account takes the roster's nickname entry of that name
    (one with no account yet), so the nickname's history becomes the account's."""
    if account:
        row = db.execute("SELECT id FROM players WHERE club = ? AND account = ?",
                         (club, account)).fetchone()
        if row is not None:
            return _final(db, int(row[0]))
        if claim and name:
            row = db.execute("SELECT id FROM players WHERE club = ? AND folded = ? AND account IS NULL"
                             " AND merged_into IS NULL ORDER BY id", (club, fold(name))).fetchone()
            if row is not None:
                db.execute("UPDATE players SET account = ? WHERE id = ?", (account, int(row[0])))
                return int(row[0])
        name = name or account
    if not name:
        return None
    if not account:
        rows = db.execute("SELECT id, merged_into FROM players WHERE club = ? AND folded = ?"
                          " ORDER BY merged_into IS NOT NULL, id", (club, fold(name))).fetchall()
        if rows:
            return _final(db, int(rows[0][0]))
    player = int(db.execute("INSERT INTO players(club, name, folded, account, created_at)"
                            " VALUES (?, ?, ?, ?, ?) RETURNING id",
                            (club, name, fold(name), account, at)).fetchone()[0])
    db.execute("INSERT INTO player_names(player_id, name, since) VALUES (?, ?, ?)", (player, name, at))
    return player


def _final(db: sqlite3.Connection, player: int) -> int:
    """Follow a merged entry to the one it was merged into."""
    for _ in range(100):
        row = db.execute("SELECT merged_into FROM players WHERE id = ?", (player,)).fetchone()
        if row is None or row[0] is None:
            return player
        player = int(row[0])
    return player


def figures_sync(db: sqlite3.Connection, game_id: int, figures: Sequence[Mapping[str, Any]],
                 at: float) -> None:
    """Replace the game's rows (``figures``: :meth:`bot.club.facts.SeatFacts.as_row` values), in
    the club of the game's tournament (0008), else of its group (its announce chat: a Telegram
    judge's game lives in his private chat and speaks in the group), else its home chat:
    each seat's player is the hosted table's account for it, else its name (a seat with
    neither is left out)."""
    _add_months(db, game_months(db, game_id), -1)
    db.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
    if not figures:
        return
    club, finished_at = db.execute(
        "SELECT COALESCE((SELECT t.club FROM tournament_games s JOIN tournaments t"
        " ON t.id = s.tournament_id WHERE s.game_id = games.id), announce, chat), finished_at"
        " FROM games WHERE id = ?", (game_id,)).fetchone()
    seats = db.execute("SELECT seats FROM host_tables WHERE game_id = ? ORDER BY id DESC",
                       (game_id,)).fetchone()
    accounts = {int(k): v for k, v in json.loads(seats[0] or "{}").items()} if seats else {}
    claimed = {} if accounts else judges_seats(db, game_id)
    # a tournament's hosted table seated each account at the plan's name it checked (the
    # account's own, or a name no other account has): a new account takes that nickname's entry
    planned = bool(accounts) and db.execute("SELECT 1 FROM tournament_games WHERE game_id = ?",
                                            (game_id,)).fetchone() is not None
    for f in figures:
        seat = int(f["seat"])
        player = player_sync(db, club, f.get("name"), accounts.get(seat) or claimed.get(seat), at,
                             claim=seat in claimed or planned)
        if player is None:
            continue
        name = f.get("name") or db.execute("SELECT name FROM players WHERE id = ?",
                                           (player,)).fetchone()[0]
        db.execute(
            "INSERT INTO game_players(game_id, seat, club, player_id, name, role, result, won, points,"
            " additional, best_move, first_killed, fouls, removed, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, f["seat"], club, player, name, f["role"], f["result"], f["won"], f["points"],
             f["additional"], f["best_move"], f["first_killed"], f["fouls"], f["removed"],
             finished_at if finished_at is not None else at))
    _add_months(db, game_months(db, game_id), 1)


def judges_seats(db: sqlite3.Connection, game_id: int) -> dict[int, str]:
    """The accounts a judge mapped to seats (Discord's ``/seat 5 @member``: the member's id
    under the slot ``seat:<n>`` of the game's stored messages in its home chat), by seat: the
    account is the home's platform prefix with the member's id (``"dc:7"``)."""
    home, stored = db.execute("SELECT chat, messages FROM games WHERE id = ?", (game_id,)).fetchone()
    prefix = home.partition(":")[0]
    out = {}
    for key, member in json.loads(stored or "{}").items():
        chat, _, slot = key.rpartition(" ")
        number = slot.removeprefix(SEAT_SLOT)
        if chat == home and slot.startswith(SEAT_SLOT) and number.isdecimal():
            out[int(number)] = f"{prefix}:{member}"
    return out


def _active(db: sqlite3.Connection, club: str, player: int) -> tuple[str, str | None]:
    row = db.execute("SELECT name, account FROM players WHERE id = ? AND club = ?"
                     " AND merged_into IS NULL", (player, club)).fetchone()
    if row is None:
        raise ClubError("no_player", name=str(player))
    return row[0], row[1]


def rename_sync(db: sqlite3.Connection, club: str, player: int, name: str, at: float) -> None:
    """Rename a roster entry (its old names stay in ``player_names``); refused with
    ``name_taken`` when another entry has that name, ``bad_name`` for an empty or long one."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= 64:
        raise ClubError("bad_name", name=name)
    _active(db, club, player)
    taken = db.execute("SELECT id FROM players WHERE club = ? AND folded = ? AND id <> ?"
                       " AND merged_into IS NULL", (club, fold(name), player)).fetchone()
    if taken is not None:
        raise ClubError("name_taken", name=name)
    db.execute("UPDATE players SET name = ?, folded = ? WHERE id = ?", (name, fold(name), player))
    db.execute("INSERT INTO player_names(player_id, name, since) VALUES (?, ?, ?)", (player, name, at))


def merge_sync(db: sqlite3.Connection, club: str, source: int, target: int, at: float) -> None:
    """Merge entry ``source`` into ``target`` (one person entered twice): its games count for
    ``target``, its account moves to ``target`` if that has none, and ``source`` stays as a
    merged entry (its names found it again; the history keeps it)."""
    if source == target:
        raise ClubError("same_player")
    source_name, source_account = _active(db, club, source)
    target_name, target_account = _active(db, club, target)
    shared = db.execute("SELECT a.game_id FROM game_players a JOIN game_players b"
                        " ON b.game_id = a.game_id AND b.player_id = ? WHERE a.player_id = ?"
                        " ORDER BY a.game_id LIMIT 1", (target, source)).fetchone()
    if shared is not None:  # two seats of one game are two people: merged, one would play twice
        raise ClubError("shared_game", source=source_name, target=target_name, game=int(shared[0]))
    moved = db.execute(f"SELECT club, month, player_id, role, {', '.join(MONTH_SUMS)}"
                       " FROM player_months WHERE player_id = ?", (source,)).fetchall()
    _add_months(db, moved, -1)
    _add_months(db, [(r[0], r[1], target, *r[3:]) for r in moved], 1)
    db.execute("UPDATE game_players SET player_id = ? WHERE player_id = ?", (target, source))
    db.execute("UPDATE players SET merged_into = ? WHERE merged_into = ?", (target, source))
    db.execute("UPDATE players SET merged_into = ?, account = NULL WHERE id = ?", (target, source))
    if source_account and not target_account:
        db.execute("UPDATE players SET account = ? WHERE id = ?", (source_account, target))
    for (name,) in db.execute("SELECT name FROM players WHERE id = ?", (source,)).fetchall():
        db.execute("INSERT INTO player_names(player_id, name, since) VALUES (?, ?, ?)",
                   (target, name, at))


def forget_sync(db: sqlite3.Connection, club: str, account: str) -> int:
    """Delete what the club keeps about ``account``'s player: its rows of games, its names and
    its roster entries (those merged into it too). The games' logs — the protocols — stay.
    Returns the game rows deleted (0: nothing kept)."""
    row = db.execute("SELECT id FROM players WHERE club = ? AND account = ?", (club, account)).fetchone()
    if row is None:
        return 0
    player = int(row[0])
    ids = [player] + [int(r[0]) for r in db.execute(
        "SELECT id FROM players WHERE merged_into = ?", (player,)).fetchall()]
    marks = ", ".join("?" for _ in ids)
    dropped = db.execute(f"DELETE FROM game_players WHERE player_id IN ({marks})", ids).rowcount
    db.execute(f"DELETE FROM player_names WHERE player_id IN ({marks})", ids)
    db.execute(f"DELETE FROM player_months WHERE player_id IN ({marks})", ids)
    db.execute(f"UPDATE players SET merged_into = NULL WHERE id IN ({marks})", ids)
    db.execute(f"DELETE FROM players WHERE id IN ({marks})", ids)
    return max(dropped, 1)


# --- reads -----------------------------------------------------------------------------------

def roster_sync(db: sqlite3.Connection, club: str, like: str | None = None) -> list[PlayerRow]:
    """The club's roster (merged entries left out), by name; ``like``: the entries whose name
    (case-folded) begins with it."""
    where, params = "p.club = ? AND p.merged_into IS NULL", [club]
    if like is not None:
        where += " AND p.folded LIKE ? ESCAPE '^'"
        params.append(_like(fold(like)))
    rows = db.execute(
        "SELECT p.id, p.club, p.name, p.account, (SELECT COUNT(*) FROM game_players g"
        f" WHERE g.player_id = p.id) FROM players p WHERE {where} ORDER BY p.folded, p.id",
        params).fetchall()
    return [PlayerRow(*r) for r in rows]


def find_sync(db: sqlite3.Connection, club: str, who: str) -> PlayerRow | None:
    """A player by account (``"tg:42"``) or by name (the current one, or a merged entry's)."""
    row = db.execute("SELECT id FROM players WHERE club = ? AND account = ?", (club, who)).fetchone()
    if row is None:
        row = db.execute("SELECT id FROM players WHERE club = ? AND folded = ?"
                         " ORDER BY merged_into IS NOT NULL, id", (club, fold(who))).fetchone()
    if row is None:
        return None
    player = _final(db, int(row[0]))
    found = db.execute("SELECT p.id, p.club, p.name, p.account, (SELECT COUNT(*) FROM game_players g"
                       " WHERE g.player_id = p.id) FROM players p WHERE p.id = ?", (player,)).fetchone()
    return PlayerRow(*found)


_SUMS = ("COUNT(*), SUM(won), SUM(points), SUM(additional),"
         " SUM(CASE WHEN best_move IS NULL THEN 0 ELSE 1 END), SUM(COALESCE(best_move, 0)),"
         " SUM(first_killed), SUM(fouls), SUM(removed)")


def _whole_months(since: float | None, until: float | None) -> tuple[float | None, float | None]:
    """The whole UTC months inside ``[since, until)``, as ``[low, high)`` month starts
    (``None``: unbounded); ``low >= high`` when there are none."""
    start = None if since is None else month_of(since)
    low = None if start is None else (start if start == since else _next_month(start))
    high = None if until is None else month_of(until)
    return low, high


def _window(where: list[str], params: list[Any], column: str, since: float | None,
            until: float | None) -> None:
    """Append ``since <= column < until`` to ``where``/``params`` (``None``: that side open)."""
    if since is not None:
        where.append(f"{column} >= ?")
        params.append(since)
    if until is not None:
        where.append(f"{column} < ?")
        params.append(until)


def totals_sync(db: sqlite3.Connection, club: str, since: float | None, until: float | None,
                player: int | None = None, role: str | None = None) -> dict[int, Totals]:
    """Every player's :class:`Totals` over the club's games finished in ``[since, until)``
    (``None``: unbounded), or only ``player``'s; ``role``: only the games in that role. The
    whole months come from ``player_months``, the partial ones at the edges from the rows."""
    low, high = _whole_months(since, until)
    parts: list[tuple[float | None, float | None, bool]]
    if low is not None and high is not None and low >= high:  # no whole month: rows only
        parts = [(since, until, False)]
    else:
        parts = [(low, high, True)]
        if since is not None and low is not None and since < low:
            parts.append((since, low, False))
        if until is not None and high is not None and high < until:
            parts.append((high, until, False))
    out: dict[int, Totals] = {}
    for start, end, months in parts:
        where, params = ["club = ?"], [club]
        if player is not None:
            where, params = ["player_id = ?"], [player]
        if role is not None:
            where.append("role = ?")
            params.append(role)
        _window(where, params, "month" if months else "finished_at", start, end)
        sums = ", ".join(f"SUM({c})" for c in MONTH_SUMS) if months else _SUMS
        table = "player_months" if months else "game_players"
        for row in db.execute(f"SELECT player_id, role, {sums} FROM {table}"
                              f" WHERE {' AND '.join(where)} GROUP BY player_id, role", params):
            totals = out.setdefault(int(row[0]), Totals(int(row[0])))
            totals.add(row[1], row[2:])
    return _named(db, out)


def _named(db: sqlite3.Connection, out: dict[int, Totals]) -> dict[int, Totals]:
    """``out`` with each player's roster name."""
    ids = list(out)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        for pid, name in db.execute(f"SELECT id, name FROM players WHERE id IN ({marks})", chunk):
            out[int(pid)].name = name
    return out


def first_nights_sync(db: sqlite3.Connection, club: str, since: float | None,
                      until: float | None) -> dict[int, list[tuple[float, str, int, int | None]]]:
    """Each player's first-night deaths in ``[since, until)``: ``(finished_at, role, won,
    best_move)``, oldest first (the compensation counts them in order, S24 §8.6)."""
    where, params = ["club = ?", "first_killed = 1"], [club]
    _window(where, params, "finished_at", since, until)
    out: dict[int, list[tuple[float, str, int, int | None]]] = {}
    for player, at, role, won, best in db.execute(
            f"SELECT player_id, finished_at, role, won, best_move FROM game_players"
            f" WHERE {' AND '.join(where)} ORDER BY finished_at, game_id", params):
        out.setdefault(int(player), []).append((at, role, int(won), best))
    return out


def points_sync(db: sqlite3.Connection, club: str, player: int, since: float | None,
                until: float | None) -> list[tuple[float, int]]:
    """``player``'s games in the club finished in ``[since, until)``, oldest first:
    ``(finished_at, points in hundredths)`` (the card's chart)."""
    where, params = ["player_id = ?", "club = ?"], [player, club]
    _window(where, params, "finished_at", since, until)
    return [(float(at), int(points)) for at, points in db.execute(
        f"SELECT finished_at, points FROM game_players WHERE {' AND '.join(where)}"
        " ORDER BY finished_at, game_id", params).fetchall()]


def results_sync(db: sqlite3.Connection, club: str, until: float | None
                 ) -> list[tuple[int, float, int, str, str]]:
    """Every row of the club's finished games before ``until`` (``None``: all), oldest first:
    ``(game_id, finished_at, player_id, role, result)`` (``result``: ``red``, ``black`` or
    ``draw``; the strength rating's input, issue 33)."""
    where, params = ["club = ?"], [club]
    _window(where, params, "finished_at", None, until)
    return [(int(game), float(at), int(player), role, result or "") for game, at, player, role, result
            in db.execute(f"SELECT game_id, finished_at, player_id, role, result FROM game_players"
                          f" WHERE {' AND '.join(where)} ORDER BY finished_at, game_id, seat",
                          params)]


def results_mark_sync(db: sqlite3.Connection, club: str) -> tuple[Any, ...]:
    """A mark of the club's rows of games that changes whenever :func:`results_sync` would read
    something else, read from the monthly sums the rows keep (``player_months``: a few rows per
    player and month, not a million) and the newest end: a game ended (the newest end moves,
    the sums grow), one whose end was undone or corrected (its games, wins, roles or players
    leave the sums), a merge (the games move to another player) or a player forgotten."""
    months = db.execute("SELECT COUNT(*), SUM(games), SUM(wins), SUM(points), SUM(month),"
                        " SUM(player_id * games), SUM(player_id * wins), SUM(LENGTH(role) * games)"
                        " FROM player_months WHERE club = ? AND games > 0", (club,)).fetchone()
    newest = db.execute("SELECT MAX(finished_at) FROM game_players WHERE club = ?",
                        (club,)).fetchone()
    return (*months, *newest)


def games_sync(db: sqlite3.Connection, club: str, limit: int) -> list[ClubGame]:
    """The club's last ``limit`` games with players' rows (finished with the roles known),
    newest first."""
    games: list[tuple[int, float, str]] = []
    seen: set[int] = set()
    for game_id, finished_at, result in db.execute(  # ten seats a game at most: the index's order
            "SELECT game_id, finished_at, result FROM game_players WHERE club = ?"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?", (club, limit * 10)).fetchall():
        if game_id not in seen and len(games) < limit:
            seen.add(game_id)
            games.append((game_id, finished_at, result))
    out = []
    for game_id, finished_at, result in games:
        rows = db.execute("SELECT seat, name, points FROM game_players WHERE game_id = ?"
                          " ORDER BY seat", (game_id,)).fetchall()
        stored = db.execute("SELECT messages FROM games WHERE id = ?", (game_id,)).fetchone()
        protocols = {key.rpartition(" ")[0]: int(message)
                     for key, message in json.loads(stored[0] if stored and stored[0] else "{}").items()
                     if key.rpartition(" ")[2] == PROTOCOL_SLOT}
        out.append(ClubGame(int(game_id), finished_at, result or "",
                            {int(s): n for s, n, _ in rows}, {int(s): int(p) for s, _, p in rows},
                            protocols))
    return out


def export_sync(db: sqlite3.Connection, club: str) -> dict[str, Any]:
    """The club's roster (with every name each entry had, merged entries too) and its players'
    rows of games: ``{"club", "players": [...], "games": [...]}``."""
    players = []
    for pid, name, account, merged, created in db.execute(
            "SELECT id, name, account, merged_into, created_at FROM players WHERE club = ? ORDER BY id",
            (club,)).fetchall():
        names = [n for (n,) in db.execute("SELECT name FROM player_names WHERE player_id = ?"
                                          " ORDER BY since, name", (pid,)).fetchall()]
        players.append({"id": pid, "name": name, "account": account, "merged_into": merged,
                        "created_at": created, "names": names})
    columns = ("game_id", "seat", "player_id", "name", "role", "result", "won", "points",
               "additional", "best_move", "first_killed", "fouls", "removed", "finished_at")
    games = [dict(zip(columns, r)) for r in db.execute(
        f"SELECT {', '.join(columns)} FROM game_players WHERE club = ? ORDER BY game_id, seat",
        (club,)).fetchall()]
    return {"club": club, "players": players, "games": games}


@dataclass(frozen=True)
class ClubRow:
    """A club the database knows (``mafia-referee clubs``): its chat key (``tg:-100123``), its
    roster's entries, its games with players' rows and the last one's end (unix seconds)."""

    club: str
    players: int
    games: int
    last_game: float | None


def clubs_sync(db: sqlite3.Connection) -> list[ClubRow]:
    """Every club with a roster entry or a game's rows, the most recently played first."""
    rows = db.execute(
        "SELECT c.club, (SELECT COUNT(*) FROM players p WHERE p.club = c.club),"
        " (SELECT COUNT(DISTINCT g.game_id) FROM game_players g WHERE g.club = c.club),"
        " (SELECT MAX(g.finished_at) FROM game_players g WHERE g.club = c.club)"
        " FROM (SELECT club FROM players UNION SELECT club FROM game_players) c").fetchall()
    clubs = [ClubRow(str(club), int(players), int(games), None if last is None else float(last))
             for club, players, games, last in rows]
    return sorted(clubs, key=lambda c: (-(c.last_game or 0.0), c.club))


def club_known_sync(db: sqlite3.Connection, club: str) -> bool:
    """Whether ``club`` has a roster entry or a game's rows."""
    return db.execute("SELECT EXISTS (SELECT 1 FROM players WHERE club = ?)"
                      " OR EXISTS (SELECT 1 FROM game_players WHERE club = ?)",
                      (club, club)).fetchone()[0] in (1, True)


# --- a club's own rules (0015) --------------------------------------------------------------------

def club_rules_sync(db: sqlite3.Connection, club: str) -> str | None:
    """The words of ``/new`` the club's new games start with, as set; ``None``: none set."""
    row = db.execute("SELECT words FROM club_rules WHERE club = ?", (club,)).fetchone()
    return None if row is None else str(row[0])


def set_club_rules_sync(db: sqlite3.Connection, club: str, words: str | None, by: str | None,
                        at: float) -> None:
    """Store (or, ``words`` ``None``, delete) the club's rules."""
    if words is None:
        db.execute("DELETE FROM club_rules WHERE club = ?", (club,))
        return
    db.execute("INSERT INTO club_rules(club, words, set_by, set_at) VALUES (?, ?, ?, ?)"
               " ON CONFLICT(club) DO UPDATE SET words = excluded.words,"
               " set_by = excluded.set_by, set_at = excluded.set_at", (club, words, by, at))


# --- tournaments (0008) ------------------------------------------------------------------------

@dataclass(frozen=True)
class Tournament:
    """A tournament evening of a club (issue 17, part 4): ``rounds[g][t]`` the names by seat
    (seat 1 first) at table ``t + 1`` in game ``g + 1`` of its seating plan, ``resting[g]`` who
    sits game ``g + 1`` out; ``judges`` each table's judge (``None``: none yet); ``played`` the
    game recorded at each ``(table, game_no)``, ``finished`` those of them that ended,
    ``running`` those still open (neither ended nor set aside), ``counted`` the finished ones
    that count in the standings: they have their players' rows (0006; a game over with its
    roles unknown has none, F24 §8: no teams, no points)."""

    id: int
    club: str
    chief: str
    games: int
    scheme: str
    rounds: tuple[tuple[tuple[str, ...], ...], ...]
    resting: tuple[tuple[str, ...], ...]
    judges: dict[int, str | None]
    played: dict[tuple[int, int], int]
    finished: frozenset[int]
    running: frozenset[int]
    opened_at: float
    closed_at: float | None
    counted: frozenset[int] = frozenset()

    @property
    def tables(self) -> int:
        return len(self.rounds[0]) if self.rounds else 0

    def done(self, table: int) -> int:
        """How many of its games ``table`` has finished."""
        return sum(1 for (t, _), g in self.played.items() if t == table and g in self.finished)

    def table_of(self, judge: str) -> int | None:
        return next((t for t, j in sorted(self.judges.items()) if j == judge), None)


def _tournament(db: sqlite3.Connection, where: str, params: Sequence[Any]) -> Tournament | None:
    row = db.execute("SELECT id, club, chief, games, scheme, plan, opened_at, closed_at"
                     f" FROM tournaments WHERE {where} ORDER BY id DESC", params).fetchone()
    if row is None:
        return None
    tid = int(row[0])
    plan = json.loads(row[5])
    judges = {int(t): j for t, j in db.execute(
        "SELECT table_no, judge FROM tournament_tables WHERE tournament_id = ?", (tid,)).fetchall()}
    played: dict[tuple[int, int], int] = {}
    finished: set[int] = set()
    running: set[int] = set()
    counted: set[int] = set()
    for table, number, game, result, rows in db.execute(
            "SELECT s.table_no, s.game_no, s.game_id, g.result, (SELECT COUNT(*) FROM game_players p"
            " WHERE p.game_id = s.game_id) FROM tournament_games s"
            " JOIN games g ON g.id = s.game_id WHERE s.tournament_id = ?", (tid,)).fetchall():
        played[(int(table), int(number))] = int(game)
        if result is None:
            running.add(int(game))
        elif result != "abandoned":
            finished.add(int(game))
            if int(rows):
                counted.add(int(game))
    return Tournament(tid, row[1], row[2], int(row[3]), row[4],
                      tuple(tuple(tuple(t) for t in r) for r in plan["rounds"]),
                      tuple(tuple(r) for r in plan["resting"]), judges, played,
                      frozenset(finished), frozenset(running), float(row[6]),
                      None if row[7] is None else float(row[7]), frozenset(counted))


def open_tournament_sync(db: sqlite3.Connection, club: str, chief: str, scheme: str,
                         rounds: Sequence[Sequence[Sequence[str]]],
                         resting: Sequence[Sequence[str]], at: float) -> Tournament:
    """Open a tournament in ``club`` with its seating plan; refused with ``tournament_open``
    while another one runs there."""
    if _tournament(db, "club = ? AND closed_at IS NULL", (club,)) is not None:
        raise ClubError("tournament_open")
    plan = json.dumps({"rounds": [[list(t) for t in r] for r in rounds],
                       "resting": [list(r) for r in resting]}, ensure_ascii=False)
    tid = int(db.execute("INSERT INTO tournaments(club, chief, games, scheme, plan, opened_at)"
                         " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                         (club, chief, len(rounds), scheme, plan, at)).fetchone()[0])
    db.executemany("INSERT INTO tournament_tables(tournament_id, table_no, judge) VALUES (?, ?, NULL)",
                   [(tid, n) for n in range(1, len(rounds[0]) + 1)])
    found = _tournament(db, "id = ?", (tid,))
    assert found is not None
    return found


def seat_judge_sync(db: sqlite3.Connection, tournament: int, table: int, judge: str) -> None:
    """``judge`` runs ``table`` from now on; a table he ran before in the open tournaments is
    left without a judge (one table a judge)."""
    db.execute("UPDATE tournament_tables SET judge = NULL WHERE judge = ? AND tournament_id IN"
               " (SELECT id FROM tournaments WHERE closed_at IS NULL)", (judge,))
    db.execute("UPDATE tournament_tables SET judge = ? WHERE tournament_id = ? AND table_no = ?",
               (judge, tournament, table))


def judge_table_sync(db: sqlite3.Connection, judge: str) -> tuple[Tournament, int] | None:
    """The open tournament and the table ``judge`` runs, or ``None``."""
    row = db.execute("SELECT s.tournament_id FROM tournament_tables s JOIN tournaments t"
                     " ON t.id = s.tournament_id WHERE s.judge = ? AND t.closed_at IS NULL"
                     " ORDER BY s.tournament_id DESC", (judge,)).fetchone()
    found = None if row is None else _tournament(db, "id = ?", (int(row[0]),))
    table = None if found is None else found.table_of(judge)
    return None if found is None or table is None else (found, table)


def start_game_sync(db: sqlite3.Connection, tournament: int, table: int, game_id: int) -> int | None:
    """Record ``game_id`` as ``table``'s next game of the series (a game of the table that did
    not end gives its place up); its number, or ``None`` when the table has played them all."""
    found = _tournament(db, "id = ? AND closed_at IS NULL", (tournament,))
    if found is None:
        return None
    for (t, number), game in found.played.items():
        if t == table and game not in found.finished:
            db.execute("DELETE FROM tournament_games WHERE tournament_id = ? AND table_no = ?"
                       " AND game_no = ?", (tournament, table, number))
    number = found.done(table) + 1
    if number > found.games:
        return None
    db.execute("INSERT INTO tournament_games(tournament_id, table_no, game_no, game_id)"
               " VALUES (?, ?, ?, ?)", (tournament, table, number, game_id))
    return number


def drop_game_sync(db: sqlite3.Connection, tournament: int, game_id: int) -> None:
    """The game no longer holds its place in the tournament's plan (set aside: the next game
    started at its table takes that place); the game itself is left alone."""
    db.execute("DELETE FROM tournament_games WHERE tournament_id = ? AND game_id = ?",
               (tournament, game_id))


def place_sync(db: sqlite3.Connection, game_id: int) -> tuple[int, int] | None:
    row = db.execute("SELECT s.tournament_id, s.table_no FROM tournament_games s JOIN tournaments t"
                     " ON t.id = s.tournament_id WHERE s.game_id = ? AND t.closed_at IS NULL",
                     (game_id,)).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def close_tournament_sync(db: sqlite3.Connection, tournament: int, at: float) -> None:
    db.execute("UPDATE tournaments SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
               (at, tournament))


def series_totals_sync(db: sqlite3.Connection, tournament: int) -> dict[int, Totals]:
    """Every player's :class:`Totals` over the tournament's games (their rows, 0006)."""
    out: dict[int, Totals] = {}
    for row in db.execute(f"SELECT player_id, role, {_SUMS} FROM game_players WHERE game_id IN"
                          " (SELECT game_id FROM tournament_games WHERE tournament_id = ?)"
                          " GROUP BY player_id, role", (tournament,)):
        out.setdefault(int(row[0]), Totals(int(row[0]))).add(row[1], row[2:])
    return _named(db, out)


def series_first_nights_sync(db: sqlite3.Connection, tournament: int
                             ) -> dict[int, list[tuple[float, str, int, int | None]]]:
    """Each player's first-night deaths in the tournament's games, oldest first (S24 §8.6)."""
    out: dict[int, list[tuple[float, str, int, int | None]]] = {}
    for player, at, role, won, best in db.execute(
            "SELECT player_id, finished_at, role, won, best_move FROM game_players"
            " WHERE first_killed = 1 AND game_id IN (SELECT game_id FROM tournament_games"
            " WHERE tournament_id = ?) ORDER BY finished_at, game_id", (tournament,)):
        out.setdefault(int(player), []).append((at, role, int(won), best))
    return out


class ClubMethods(Bridged):
    """The club's store methods (issue 17), one text for every backend: each runs a function of
    this module on the backend's connection (a :func:`storage.bridge.call`), through
    :meth:`_club_read` (a read, one consistent snapshot) or :meth:`_club_write` (a write in a
    transaction of its own)."""

    async def _club_read(self, work: Callable[[Any], _T]) -> _T:
        return await self._read_unit(only(call(work)), consistent=True)  # type: ignore[no-any-return]

    async def _club_write(self, work: Callable[[Any], _T]) -> _T:
        return await self._write_unit(only(call(work)))  # type: ignore[no-any-return]

    async def refold_roster(self) -> int:
        """Compute the roster's keys left empty by migration 0011 (:func:`refold_sync`); the
        store's ``open`` calls it (:meth:`_opened`). Returns how many were computed."""
        return await self._club_write(refold_sync)

    async def _opened(self, prepare: Callable[[], Awaitable[None]]) -> Self:
        """What each backend's ``open`` does once connected, before any read: ``prepare()`` (the
        backend's settings and migrations), then the roster's keys a migration emptied computed
        (:meth:`refold_roster`, 0011); on any failure the store is closed again and the error
        raised. Returns the store."""
        try:
            await prepare()
            await self.refold_roster()
        except BaseException:
            await self.close()
            raise
        return self

    async def roster(self, club_chat: str, like: str | None = None) -> list[PlayerRow]:
        """The club's roster by name (merged entries left out); ``like``: names beginning so."""
        return await self._club_read(lambda db: roster_sync(db, club_chat, like))

    async def find_player(self, club_chat: str, who: str) -> PlayerRow | None:
        """A roster entry by account (``"tg:42"``) or name (case-folded), or ``None``."""
        return await self._club_read(lambda db: find_sync(db, club_chat, who))

    async def add_player(self, club_chat: str, name: str | None, account: str | None = None) -> int:
        """The roster's entry for ``account`` or ``name``, created if new; its id."""
        at = time.time()
        player = await self._club_write(lambda db: player_sync(db, club_chat, name, account, at))
        if player is None:
            raise ClubError("bad_name", name="")
        return player

    async def rename_player(self, club_chat: str, player: int, name: str) -> None:
        """Rename an entry, keeping its old names (:class:`storage.ClubError`)."""
        at = time.time()
        await self._club_write(lambda db: rename_sync(db, club_chat, player, name, at))

    async def merge_players(self, club_chat: str, source: int, target: int) -> None:
        """Merge entry ``source`` into ``target`` (their games and names kept under ``target``)."""
        at = time.time()
        await self._club_write(lambda db: merge_sync(db, club_chat, source, target, at))

    async def forget_player(self, club_chat: str, account: str) -> int:
        """Delete what the club keeps about ``account`` (its games' rows, names, entry); the
        games' logs stay. Returns the rows deleted (0: nothing was kept)."""
        return await self._club_write(lambda db: forget_sync(db, club_chat, account))

    async def club_totals(self, club_chat: str, since: float | None = None,
                          until: float | None = None, *, player: int | None = None,
                          role: str | None = None) -> dict[int, Totals]:
        """Each player's totals over the club's games finished in ``[since, until)`` (unix
        seconds), or one ``player``'s; ``role``: in that role only. One indexed aggregate, no
        log read."""
        return await self._club_read(
            lambda db: totals_sync(db, club_chat, since, until, player, role))

    async def first_nights(self, club_chat: str, since: float | None = None,
                           until: float | None = None
                           ) -> dict[int, list[tuple[float, str, int, int | None]]]:
        """Each player's deaths on a first night in ``[since, until)``, oldest first:
        ``(finished_at, role, won, best_move hits)`` (the compensation's count, S24 §8.6)."""
        return await self._club_read(lambda db: first_nights_sync(db, club_chat, since, until))

    async def player_points(self, club_chat: str, player: int, since: float | None = None,
                            until: float | None = None) -> list[tuple[float, int]]:
        """``player``'s games finished in ``[since, until)``, oldest first: ``(finished_at,
        points in hundredths)`` (the player's card, issue 17)."""
        return await self._club_read(lambda db: points_sync(db, club_chat, player, since, until))

    async def club_results(self, club_chat: str, until: float | None = None
                           ) -> list[tuple[int, float, int, str, str]]:
        """Every row of the club's games finished before ``until`` (unix seconds; ``None``: all),
        oldest first: ``(game_id, finished_at, player_id, role, result)`` (the strength rating,
        :mod:`bot.club.strength`)."""
        return await self._club_read(lambda db: results_sync(db, club_chat, until))

    async def club_results_mark(self, club_chat: str) -> tuple[Any, ...]:
        """A mark that changes whenever :meth:`club_results` would read other rows (one
        aggregate: a cache of the rating is checked by it)."""
        return await self._club_read(lambda db: results_mark_sync(db, club_chat))

    async def club_games(self, club_chat: str, limit: int = 10) -> list[ClubGame]:
        """The club's last finished games, newest first."""
        return await self._club_read(lambda db: games_sync(db, club_chat, limit))

    async def export_club(self, club_chat: str) -> dict[str, Any]:
        """The club's roster and its players' rows of games, JSON-ready."""
        return await self._club_read(lambda db: export_sync(db, club_chat))

    async def club_rules(self, club_chat: str) -> str | None:
        """The club's own rules (0015): the words of ``/new`` its games start with, or ``None``."""
        return await self._club_read(lambda db: club_rules_sync(db, club_chat))

    async def set_club_rules(self, club_chat: str, words: str | None, by: str | None = None) -> None:
        """Set the club's own rules to ``words`` (checked by the caller:
        :meth:`bot.service.Service.set_club_rules`), or forget them (``None``)."""
        at = time.time()
        await self._club_write(lambda db: set_club_rules_sync(db, club_chat, words, by, at))

    async def clubs(self) -> list[ClubRow]:
        """The clubs of the database (:func:`clubs_sync`), the most recently played first."""
        return await self._club_read(clubs_sync)

    async def club_known(self, club_chat: str) -> bool:
        """Whether the database has a roster entry or a game of ``club_chat``."""
        return await self._club_read(lambda db: club_known_sync(db, club_chat))

    # --- tournaments (0008) ------------------------------------------------------------------------
    async def open_tournament(self, club_chat: str, chief: str, scheme: str,
                              rounds: Sequence[Sequence[Sequence[str]]],
                              resting: Sequence[Sequence[str]]) -> Tournament:
        """Open a tournament in the club with its seating plan (``rounds[g][t]``: names by seat);
        :class:`storage.ClubError` ``tournament_open`` while one runs there."""
        at = time.time()
        return await self._club_write(
            lambda db: open_tournament_sync(db, club_chat, chief, scheme, rounds, resting, at))

    async def tournament(self, club_chat: str) -> Tournament | None:
        """The club's open tournament, or ``None``."""
        return await self._club_read(
            lambda db: _tournament(db, "club = ? AND closed_at IS NULL", (club_chat,)))

    async def chief_tournament(self, chief: str) -> Tournament | None:
        """The latest open tournament whose chief judge is ``chief``, or ``None``."""
        return await self._club_read(
            lambda db: _tournament(db, "chief = ? AND closed_at IS NULL", (chief,)))

    async def seat_judge(self, tournament: int, table: int, judge: str) -> None:
        """``judge`` runs ``table`` (and no other table of an open tournament)."""
        await self._club_write(lambda db: seat_judge_sync(db, tournament, table, judge))

    async def judge_table(self, judge: str) -> tuple[Tournament, int] | None:
        """The open tournament and the table ``judge`` runs, or ``None``."""
        return await self._club_read(lambda db: judge_table_sync(db, judge))

    async def tournament_place(self, game_id: int) -> tuple[int, int] | None:
        """``(tournament id, table)`` of a game of an open tournament, or ``None``."""
        return await self._club_read(lambda db: place_sync(db, game_id))

    async def drop_tournament_game(self, tournament: int, game_id: int) -> None:
        """Set the game aside from the tournament: its place in the plan is free again."""
        await self._club_write(lambda db: drop_game_sync(db, tournament, game_id))

    async def close_tournament(self, tournament: int) -> None:
        at = time.time()
        await self._club_write(lambda db: close_tournament_sync(db, tournament, at))

    async def tournament_totals(self, tournament: int) -> dict[int, Totals]:
        """Each player's totals over the tournament's finished games."""
        return await self._club_read(lambda db: series_totals_sync(db, tournament))

    async def tournament_first_nights(self, tournament: int
                                      ) -> dict[int, list[tuple[float, str, int, int | None]]]:
        """Each player's first-night deaths in the tournament's games, oldest first."""
        return await self._club_read(lambda db: series_first_nights_sync(db, tournament))
