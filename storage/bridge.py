"""The connection bridge: a store method's SQL and row mapping written once for both backends.

A method's work on the database is a *unit*: a generator that yields :class:`Step` s — a
statement and what to hand back (:func:`rows`, :func:`one`, :func:`count`, :func:`many`,
:func:`call`; :func:`on_loop`, the caller's code) — and returns the method's result. Each
backend runs units on its own connection (:class:`Bridged`'s hooks):

* SQLite (:mod:`storage.store`): :func:`run` drives a unit on the plain
  :class:`sqlite3.Connection` inside the connection's thread, so a whole write unit is ONE round
  trip to the writer's thread (``Store._unit``, the group commit) and a read one to the reader's;
* PostgreSQL (:mod:`storage.pg`): :func:`drive` awaits each step on an asyncpg connection, in the
  unit's transaction (one round trip to the server each, on the event loop: no thread).

The SQL is SQLite's: ``?`` placeholders, ``instr``, and ``FOR UPDATE`` where PostgreSQL must lock
a row a write reads before it writes it back (SQLite's one writer holds the whole database):
:func:`sqlite_sql` drops what SQLite has not, :func:`pg_sql` numbers the placeholders and names
what PostgreSQL calls otherwise. Two steps matter to PostgreSQL's shared workers only, and
SQLite skips them: :func:`lock_game` (a game's transitions one at a time across workers) and
:data:`FENCE` (the inbox update being applied is consumed here, :data:`storage.pg.applying`).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Awaitable, Callable, Generator, Self, Sequence, TypeVar

_T = TypeVar("_T")

#: What a unit is: it yields steps, is sent each step's answer, and returns its result.
Unit = Generator["Step", Any, _T]


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of a unit: ``op`` (``rows``, ``one``, ``count``, ``many``, ``call``,
    ``loop``, ``lock``, ``fence``), its SQL (SQLite's) and parameters, or the function of a
    ``call`` or ``loop``."""

    op: str
    sql: str = ""
    params: Sequence[Any] = ()
    fn: Callable[..., Any] | None = None


def rows(sql: str, *params: Any) -> Step:
    """A statement's rows (tuples on SQLite, records on PostgreSQL: index or unpack them)."""
    return Step("rows", sql, params)


def one(sql: str, *params: Any) -> Step:
    """A statement's first row, or ``None``."""
    return Step("one", sql, params)


def count(sql: str, *params: Any) -> Step:
    """A statement's count of rows inserted, changed or deleted."""
    return Step("count", sql, params)


def many(sql: str, params: Sequence[Sequence[Any]]) -> Step:
    """One statement run for each of ``params`` (``executemany``); hands back ``None``."""
    return Step("many", sql, params)


def call(fn: Callable[..., _T], *args: Any) -> Step:
    """``fn(db, *args)`` on an :class:`sqlite3.Connection` or what stands for one
    (:mod:`storage.club`'s functions; on PostgreSQL in a worker thread, ``storage.pg._Bridge``);
    hands back what it returns."""
    return Step("call", params=args, fn=fn)


def on_loop(fn: Callable[..., _T], *args: Any) -> Step:
    """``fn(*args)`` on the event loop — the caller's code inside a unit (a new game's
    announcements, given its id) —; hands back what it returns. SQLite's writer's thread never
    runs it: such a unit is run with ``on_loop`` (:meth:`Bridged._write_unit`)."""
    return Step("loop", params=args, fn=fn)


def lock_game(game_id: int) -> Step:
    """PostgreSQL: take the game's transaction-scoped advisory lock (two workers never interleave
    one game's transitions). SQLite: nothing (one writer)."""
    return Step("lock", params=(game_id,))


#: PostgreSQL: consume the inbox update being applied, if not yet (a user's update makes this
#: write: :data:`storage.pg.applying`; :class:`storage.pg.AlreadyApplied` rolls the unit back if a
#: worker applied it first). SQLite: nothing (no inbox).
FENCE = Step("fence")


def only(step: Step) -> Unit[Any]:
    """A unit of one step: what the step hands back."""
    return (yield step)


_PLACEHOLDER = re.compile(r"\?")
_INSTR = re.compile(r"\binstr\(")


@lru_cache(maxsize=1024)
def pg_sql(query: str) -> str:
    """PostgreSQL's text of our SQL: the ``?`` placeholders numbered ``$1``, ``$2`` … (our SQL has
    no ``?`` in literals) and SQLite's ``instr(text, part)`` as ``strpos(text, part)``."""
    number = iter(range(1, 10_000))
    return _INSTR.sub("strpos(", _PLACEHOLDER.sub(lambda _: f"${next(number)}", query))


@lru_cache(maxsize=1024)
def sqlite_sql(query: str) -> str:
    """SQLite's text of our SQL: without ``FOR UPDATE`` (its writer locks the whole database)."""
    return query.replace(" FOR UPDATE", "")


def step_sqlite(db: sqlite3.Connection, step: Step) -> Any:
    """Run ``step`` on SQLite's plain connection ``db``; what it hands back."""
    op = step.op
    if op == "rows":
        return db.execute(sqlite_sql(step.sql), step.params).fetchall()
    if op == "one":  # every row read: a RETURNING statement runs to its end
        found = db.execute(sqlite_sql(step.sql), step.params).fetchall()
        return found[0] if found else None
    if op == "count":
        return db.execute(sqlite_sql(step.sql), step.params).rowcount
    if op == "many":
        db.executemany(sqlite_sql(step.sql), step.params)
        return None
    if op == "call":
        assert step.fn is not None
        return step.fn(db, *step.params)
    return None  # lock, fence: PostgreSQL's (a loop step is the caller's: see run)


@dataclass(frozen=True, slots=True)
class Paused:
    """:func:`run` stopped at an :func:`on_loop` step: run ``step`` on the event loop, then
    :func:`run` the unit on with its answer."""

    step: Step


def run(db: sqlite3.Connection, unit: Unit[_T], answer: Any = None, *,
        pausing: bool = False) -> _T | Paused:
    """Drive ``unit`` on SQLite's plain connection ``db`` (in the connection's thread, in one
    call) from where it stands (``answer``: to its last step) to its end; its result. At an
    :func:`on_loop` step it stops with ``pausing`` (:class:`Paused`), else raises
    :class:`AssertionError`."""
    try:
        step = unit.send(answer)
        while step.op != "loop":
            step = unit.send(step_sqlite(db, step))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    assert pausing, "a unit with an on_loop step is written with on_loop=True"
    return Paused(step)


async def drive(unit: Unit[_T], execute: Callable[[Step], Awaitable[Any]]) -> _T:
    """Drive ``unit`` on the event loop, each step awaited through ``execute``; its result."""
    try:
        step = next(unit)
        while True:
            step = unit.send(await execute(step))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


class Bridged:
    """What a backend gives the methods written once (:class:`storage.games.GameMethods`,
    :class:`storage.host.HostMethods`, :class:`storage.club.ClubMethods`): two hooks that run a
    unit, and :meth:`close` (``async with`` a store closes it)."""

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read_unit(self, unit: Unit[_T], *, consistent: bool = False) -> _T:
        """Run a unit that only reads, on committed rows. ``consistent``: PostgreSQL reads its
        statements in one snapshot (one read-only transaction, ``REPEATABLE READ``); SQLite's
        reader runs every unit in one call of its thread (as it always did), each statement on
        what is committed by then."""
        raise NotImplementedError

    async def _write_unit(self, unit: Unit[_T], then: Callable[[_T], None] | None = None, *,
                          on_loop: bool = False) -> _T:
        """Run a unit in one write transaction; return its result once committed, after
        ``then(result)`` ran (the caches and counters follow the committed rows; not run if it
        fails). ``on_loop``: the unit has :func:`on_loop` steps, the caller's code (SQLite then
        comes back to the event loop for each: a round trip to the writer's thread before and
        after it, instead of the unit's one)."""
        raise NotImplementedError

    async def _write_step(self, step: Step, then: Callable[[Any], None] | None = None) -> Any:
        """One writing statement (its answer, as :meth:`_write_unit`): on PostgreSQL on its own,
        atomic without a transaction of its own (no ``BEGIN``/``COMMIT`` round trips)."""
        return await self._write_unit(only(step), then)

    async def _rows(self, sql: str, *params: Any) -> list[Any]:
        """The rows of one reading statement."""
        return await self._read_unit(only(rows(sql, *params)))  # type: ignore[no-any-return]

    async def _one(self, sql: str, *params: Any) -> Any:
        """The first row of one reading statement, or ``None``."""
        return await self._read_unit(only(one(sql, *params)))
