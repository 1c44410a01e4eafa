"""A club's evening sign-up (0017, issue 33; :mod:`bot.club.evening`): the evening, its list and
its reserve, read and written by :class:`EveningMethods` — one text for both backends
(:class:`storage.Store`, :class:`storage.PgStore`) over the connection bridge
(:mod:`storage.bridge`).

A press is one write unit (:meth:`EveningMethods.sign_evening`): the evening's row is read
``FOR UPDATE`` (PostgreSQL; SQLite's one writer holds the whole database), so two presses at
once never both take the last place, and a player who leaves a full list gives his place to
the first of the reserve in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .bridge import Bridged, Unit, count, one, rows

#: the lists a player is in: the evening's players, its reserve
GOING, RESERVE = "going", "reserve"
#: what a player asks with a press: to come, not to come, to wait in the reserve
WANTS = (GOING, "out", RESERVE)
#: an evening's states: taking sign-ups, its list final (the start, or its admin's close), called off
OPEN, CLOSED, CANCELLED = "open", "closed", "cancelled"
#: the places of one table: ten seats (F24 §1.1)
PER_TABLE = 10

_COLUMNS = ("id, club, status, starts_at, zone, tables, cap, opened_by, message_id, reminded,"
            " opened_at, closed_at")


@dataclass(frozen=True)
class Evening:
    """An evening: its ``club`` (the chat where its sign-up is posted), ``status`` (:data:`OPEN`,
    :data:`CLOSED`, :data:`CANCELLED`), the start ``starts_at`` (unix seconds) as typed in
    ``zone`` (IANA), ``tables`` and ``cap`` (places: tables × :data:`PER_TABLE`), who posted it,
    its post's ``message_id`` and the reminders sent (``reminded``: 0, 1 the two hours', 2 the
    fifteen minutes' too)."""

    id: int
    club: str
    status: str
    starts_at: float
    zone: str
    tables: int
    cap: int
    opened_by: str
    message_id: int | None
    reminded: int
    opened_at: float
    closed_at: float | None


@dataclass(frozen=True)
class Signed:
    """One player of an evening: his ``account``, ``name`` and list (:data:`GOING`, :data:`RESERVE`)."""

    account: str
    name: str
    list: str


@dataclass(frozen=True)
class SignUp:
    """What a press came to: ``outcome`` — ``going``, ``reserve`` (asked for), ``full`` (asked
    to come, the list full: in the reserve), ``out`` (left), ``already_going``,
    ``already_reserve`` (``full``: the list is full), ``not_signed`` (``out`` of nobody),
    ``closed`` (the evening takes no sign-ups now); ``moved``: the first of the reserve, moved
    up into the place just given back (``None``: nobody)."""

    outcome: str
    moved: Signed | None = None
    full: bool = False


def _evening(row: Sequence[Any]) -> Evening:
    return Evening(id=int(row[0]), club=str(row[1]), status=str(row[2]), starts_at=float(row[3]),
                   zone=str(row[4]), tables=int(row[5]), cap=int(row[6]), opened_by=str(row[7]),
                   message_id=int(row[8]) if row[8] is not None else None, reminded=int(row[9]),
                   opened_at=float(row[10]), closed_at=float(row[11]) if row[11] is not None else None)


def _sign(evening_id: int, account: str, name: str, want: str, now: float) -> Unit[SignUp]:
    found = yield one("SELECT status, cap FROM evenings WHERE id = ? FOR UPDATE", evening_id)
    if found is None or found[0] != OPEN:
        return SignUp("closed")
    cap = int(found[1])
    players = yield rows("SELECT account, name, list, position FROM evening_players"
                         " WHERE evening_id = ? ORDER BY position", evening_id)
    mine = next((p for p in players if p[0] == account), None)
    going = sum(1 for p in players if p[2] == GOING)
    last = max((int(p[3]) for p in players), default=0)
    if want == GOING:
        if mine is not None and mine[2] == GOING:
            return SignUp("already_going")
        if going >= cap:
            if mine is not None:
                return SignUp("already_reserve", full=True)
            yield from _put(evening_id, account, name, RESERVE, last + 1, now, new=True)
            return SignUp("full")
        yield from _put(evening_id, account, name, GOING, last + 1, now, new=mine is None)
        return SignUp(GOING)
    if want == RESERVE:
        if mine is not None and mine[2] == RESERVE:
            return SignUp("already_reserve", full=going >= cap)
        yield from _put(evening_id, account, name, RESERVE, last + 1, now, new=mine is None)
        left_full = mine is not None and going >= cap
        return SignUp(RESERVE, (yield from _move_up(evening_id, account, last + 2)) if left_full else None)
    if mine is None:
        return SignUp("not_signed")
    yield count("DELETE FROM evening_players WHERE evening_id = ? AND account = ?", evening_id, account)
    left_full = mine[2] == GOING and going >= cap
    return SignUp("out", (yield from _move_up(evening_id, account, last + 1)) if left_full else None)


def _put(evening_id: int, account: str, name: str, where: str, position: int, now: float, *,
         new: bool) -> Unit[None]:
    if new:
        yield count("INSERT INTO evening_players(evening_id, account, name, list, position, signed_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)", evening_id, account, name, where, position, now)
    else:
        yield count("UPDATE evening_players SET name = ?, list = ?, position = ?"
                    " WHERE evening_id = ? AND account = ?", name, where, position, evening_id, account)


def _move_up(evening_id: int, leaving: str, position: int) -> Unit[Signed | None]:
    """The first of the reserve (but ``leaving``) into the list, last of it."""
    first = yield one("SELECT account, name FROM evening_players WHERE evening_id = ? AND list = ?"
                      " AND account <> ? ORDER BY position LIMIT 1", evening_id, RESERVE, leaving)
    if first is None:
        return None
    yield count("UPDATE evening_players SET list = ?, position = ? WHERE evening_id = ? AND account = ?",
                GOING, position, evening_id, first[0])
    return Signed(str(first[0]), str(first[1]), GOING)


class EveningMethods(Bridged):
    """The store's methods of the evenings' sign-up (0017)."""

    async def open_evening(self, club: str, opened_by: str, starts_at: float, zone: str,
                           tables: int, *, reminded: int = 0, now: float) -> Evening | None:
        """A new evening of ``club`` taking sign-ups (``cap``: ``tables`` × :data:`PER_TABLE`);
        ``None`` when the club has one open already (nothing written)."""
        row = await self._write_step(one(
            "INSERT INTO evenings(club, status, starts_at, zone, tables, cap, opened_by, reminded,"
            " opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
            f" RETURNING {_COLUMNS}", club, OPEN, starts_at, zone, tables, tables * PER_TABLE,
            opened_by, reminded, now))
        return _evening(row) if row is not None else None

    async def evening(self, evening_id: int) -> Evening | None:
        """The evening of that id, whatever its status; ``None``: no such evening."""
        row = await self._one(f"SELECT {_COLUMNS} FROM evenings WHERE id = ?", evening_id)
        return _evening(row) if row is not None else None

    async def open_evening_of(self, club: str) -> Evening | None:
        """The evening of ``club`` taking sign-ups, if any."""
        row = await self._one(f"SELECT {_COLUMNS} FROM evenings WHERE club = ? AND status = ?", club, OPEN)
        return _evening(row) if row is not None else None

    async def latest_evening(self, club: str, since: float, now: float | None = None) -> Evening | None:
        """Tonight's evening of ``club``, the one whose list a tournament or a hosted lobby
        takes: of its evenings not called off that start at ``since`` (unix seconds) or later,
        one whose list is final (closed) before one still taking sign-ups, then the one whose
        start is nearest ``now`` — so a sign-up posted for next week during tonight's evening
        does not take tonight's place. Without ``now``: the last to start."""
        found = [_evening(row) for row in await self._rows(
            f"SELECT {_COLUMNS} FROM evenings WHERE club = ? AND status <> ? AND starts_at >= ?"
            " ORDER BY starts_at DESC, id DESC", club, CANCELLED, since)]
        if now is None or not found:
            return found[0] if found else None
        return min(found, key=lambda e: (e.status != CLOSED, abs(e.starts_at - now), -e.id))

    async def open_evenings(self, prefix: str = "") -> list[Evening]:
        """Every evening taking sign-ups whose club's key starts with ``prefix`` (to re-arm
        their reminders after a restart)."""
        found = await self._rows(f"SELECT {_COLUMNS} FROM evenings WHERE status = ? ORDER BY id", OPEN)
        return [e for e in map(_evening, found) if e.club.startswith(prefix)]

    async def evening_players(self, evening_id: int) -> list[Signed]:
        """The evening's players and reserve, each in the order they were put there."""
        found = await self._rows("SELECT account, name, list FROM evening_players WHERE evening_id = ?"
                                 " ORDER BY position", evening_id)
        return [Signed(str(r[0]), str(r[1]), str(r[2])) for r in found]

    async def sign_evening(self, evening_id: int, account: str, name: str, want: str,
                           now: float) -> SignUp:
        """``account`` (shown as ``name``) asks ``want`` (:data:`WANTS`) of the evening: one
        transaction (see the module). Raises :class:`ValueError` for another ``want``."""
        if want not in WANTS:
            raise ValueError(want)
        return await self._write_unit(_sign(evening_id, account, name, want, now))

    async def set_evening_message(self, evening_id: int, message_id: int | None) -> None:
        """The evening's sign-up post (its message id in the club's chat; Discord's a 64-bit
        snowflake)."""
        await self._write_step(count("UPDATE evenings SET message_id = ? WHERE id = ?",
                                     message_id, evening_id))

    async def set_evening_reminded(self, evening_id: int, reminded: int) -> bool:
        """The reminders sent or skipped (0–2) of an evening still open; ``False``: no longer
        open, or already that far (nothing changed: a reminder is sent once)."""
        return bool(await self._write_step(count(
            "UPDATE evenings SET reminded = ? WHERE id = ? AND status = ? AND reminded < ?",
            reminded, evening_id, OPEN, reminded)))

    async def end_evening(self, evening_id: int, status: str, now: float) -> bool:
        """Close (:data:`CLOSED`: the list final) or call off (:data:`CANCELLED`) an open
        evening — one whose list is closed may still be called off (README: «/evening close
        closes the list early, /evening cancel calls the evening off»); ``False`` when it was
        not open (or, to call off, closed): nothing changed."""
        assert status in (CLOSED, CANCELLED), status
        was = (OPEN, CLOSED) if status == CANCELLED else (OPEN, OPEN)
        return bool(await self._write_step(count(
            "UPDATE evenings SET status = ?, closed_at = ? WHERE id = ? AND status IN (?, ?)",
            status, now, evening_id, *was)))
