"""The games, their logs, the chats and the outbox: the store's methods written once for both
backends (:class:`GameMethods`), each a unit over the connection bridge (:mod:`storage.bridge`).

Beside the log (migration 0002): a chat may be an alias of another chat (its *home*, whose games
it acts on), a game may have an announce chat, the ids of messages an adapter edits in place, and
a running timer (JSON), so that a restart finds them again. The outbox (0004) holds what an action
announces, queued in the action's transaction.

The log is the game: the service folds it with :func:`rules.fold`. Nothing in ``events`` is ever
updated or deleted (triggers refuse it); an undo is itself a logged event.

What the backends add: the connection (the two hooks of :class:`storage.bridge.Bridged`) and
SQLite's caches (the hooks :meth:`GameMethods._set_cached`, :meth:`GameMethods._set_cached_lang`
and :meth:`GameMethods._forget`, which PostgreSQL, many writers, leaves empty; SQLite's
:meth:`storage.Store._extras` and :meth:`storage.Store.lang` read through them).
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .bridge import FENCE, Bridged, Unit, call, count, lock_game, many, on_loop, one, rows
from .club import figures_sync, start_game_sync
from .rows import (
    GAME_COLUMNS, OUTBOX_COLUMNS, PRUNE_AFTER, EventRow, GameRow, NoSuchGame, OutboxItem, OutboxRow,
    Snapshot, StaleRevision, StorageError, dumps, game_row, message_key, outbox_row,
)

#: The aliases of a home (:meth:`GameMethods.aliases_of`): run at every chat a shared worker claims.
ALIASES_SQL = "SELECT chat FROM chats WHERE home = ? ORDER BY chat"
_IMMUTABLE = frozenset({str, int, float, bool, type(None)})  # JSON values shared safely
FRESH_KEPT = 256  # rows kept per chat for its sender (GameMethods.queued_since), at most


@dataclass
class GameExtras:
    """A game's small values read at every action (JSON decoded; SQLite caches them)."""

    announce: str | None
    messages: dict[str, int]
    timer: dict[str, Any] | None


class GameMethods(Bridged):
    """The games, logs, chats and outbox methods of both backends (see the module's docstring).
    A backend sets ``_queued`` and ``_fresh`` (dicts) in its constructor."""

    #: Seconds after its end that a finished game's delivered rows are pruned (:meth:`prune`).
    prune_after: float = PRUNE_AFTER
    #: Statements (one ``?``: the moment) that :meth:`prune` runs in its transaction too.
    _PRUNED_TOO: tuple[str, ...] = ()
    _queued: dict[str, int]  # chat -> outbox rows committed for it (this process)
    #: chat -> (its :attr:`_queued` count before them, the rows it counts since, not yet taken)
    _fresh: dict[str, tuple[int, list[OutboxRow]]]
    _forgotten = 0  # counts the times the caches were dropped (SQLite's)

    # --- the caches' hooks: called once a write is committed (SQLite's; PostgreSQL has none) ---
    def _set_cached(self, game_id: int, **values: Any) -> None:
        """The game's cached extras (``announce``, ``messages``, ``timer``) follow the rows."""

    def _set_cached_lang(self, chat: str, lang: str) -> None:
        """The chat's cached language follows the row."""

    def _forget(self) -> None:
        """Drop the caches (after a change that touches many rows at once)."""

    # --- games --------------------------------------------------------------------------------
    async def create_game(self, chat: str, judge: str, config: Mapping[str, Any],
                          names: Mapping[int, str], *, announce: str | None = None,
                          abandon: int | None = None,
                          outbox: Callable[[int], Sequence[OutboxItem]] | None = None,
                          tournament: tuple[int, int] | None = None) -> int:
        """Create a game and make it the chat's current game, in one transaction with where its
        announcements go (``announce``, as :meth:`set_announce`), the game it replaces recorded as
        ``"abandoned"`` (``abandon``: its id), the messages that announce it (``outbox``: given
        the new id, the items to queue; stamped with the game's creation time) and its place in a
        tournament (``tournament``: ``(tournament id, table)``, the table's next game of the plan,
        :func:`storage.club.start_game_sync`; a crash cannot leave the game without it). The
        chat's own games finished :attr:`prune_after` ago are pruned in it too (:meth:`prune`).
        Returns the new game's id."""
        at = time.time()
        config_text = dumps(dict(config))
        names_text = dumps({str(k): v for k, v in names.items()})

        def unit() -> Unit[tuple[int, list[str]]]:
            yield FENCE
            if abandon is not None:
                yield from update_game(abandon, "finished_at = ?, result = ?", time.time(), "abandoned")
            yield count("INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", chat)
            (game_id,) = yield one(
                "INSERT INTO games(chat, judge, config, names, announce, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                chat, judge, config_text, names_text, announce, at)
            yield count("UPDATE chats SET current_game = ? WHERE chat = ?", game_id, chat)
            if tournament is not None:
                yield call(start_game_sync, *tournament, game_id)
            items = list((yield on_loop(outbox, game_id))) if outbox is not None else []
            queued = [(item, dumps(dict(item.payload))) for item in items]
            ids = []
            for item, payload in queued:
                ids.append((yield from enqueue(item, payload, game_id, at)))
            yield from prune_games(at - self.prune_after, chat)
            return int(game_id), queued_rows(ids, queued, int(game_id), at)

        game_id, _ = await self._write_unit(unit(), lambda made: self._bump(made[1]),
                                            on_loop=outbox is not None)
        return game_id

    async def prune(self, before: float | None = None) -> int:
        """Drop what a finished game no longer needs: its delivered (``sent``) outbox rows and
        its snapshot, for the games finished before ``before`` (default: :attr:`prune_after`
        seconds ago); on PostgreSQL also the inbox's updates applied before ``before`` (a
        redelivery comes within seconds, never an hour later). The log, the game's row, its
        stored message ids and any row not yet delivered (or given up) stay: the protocol is read
        from the log. Also done for a chat's own finished games whenever it starts a new one.
        Returns the outbox rows dropped."""
        before = time.time() - self.prune_after if before is None else before

        def unit() -> Unit[int]:
            for sql in self._PRUNED_TOO:
                yield count(sql, before)
            return (yield from prune_games(before, None))

        return await self._write_unit(unit())

    async def current_game(self, chat: str) -> GameRow | None:
        """The chat's current (latest) game, finished or not."""
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM chats c JOIN games g"
                              " ON g.id = c.current_game WHERE c.chat = ?", chat)
        return game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = ?", game_id)
        return game_row(row) if row else None

    async def open_games(self) -> list[GameRow]:
        """The chats' current games that are not finished (to re-arm them after a restart), a
        quarantined one left out."""
        found = await self._rows(f"SELECT {GAME_COLUMNS} FROM chats c JOIN games g"
                                 " ON g.id = c.current_game WHERE g.finished_at IS NULL"
                                 " AND g.quarantine IS NULL ORDER BY g.id")
        return [game_row(r) for r in found]

    async def set_judge(self, game_id: int, judge: str) -> None:
        await self._write_unit(update_game(game_id, "judge = ?", judge))

    async def finish(self, game_id: int, result: str | None) -> None:
        """Mark the game finished now with ``result`` (see :data:`storage.RESULTS`)."""
        await self._write_unit(update_game(game_id, "finished_at = ?, result = ?", time.time(), result))

    async def reopen(self, game_id: int) -> None:
        """Mark a finished game open again (an undo took back its end)."""
        await self._write_unit(update_game(game_id, "finished_at = NULL, result = NULL"))

    async def quarantine(self, game_id: int, why: Mapping[str, Any] | None) -> None:
        """Set game ``game_id`` aside: its stored log no longer folds (``why``, JSON-ready: the
        event refused and the refusal, :class:`bot.service.Service`). Nothing is deleted; its
        timer is cleared, and it is no longer among the open games and timers re-armed at a
        start. ``why=None`` puts it back (a later engine folds it). Raises :class:`NoSuchGame`."""
        text = None if why is None else dumps(dict(why))
        await self._write_unit(update_game(game_id, "quarantine = ?, timer = NULL", text),
                               lambda _: self._set_cached(game_id, timer=None))

    # --- the log ------------------------------------------------------------------------------
    async def append(self, game_id: int, seq: int, event: Mapping[str, Any], actor: str) -> None:
        """Log ``event`` as row ``seq`` = the log's row count + 1. Raises :class:`StaleRevision`
        if that is not the next row (someone logged first) and :class:`NoSuchGame`."""
        await self.append_many(game_id, seq, [event], actor)

    async def append_many(
        self, game_id: int, seq: int, events: Sequence[Mapping[str, Any]], actor: str, *,
        finished: bool | None = None, result: str | None = None,
        outbox: Sequence[OutboxItem] = (),
        timer: Callable[[list[int]], Mapping[str, Any] | None] | None = None,
        snapshot: Snapshot | None = None,
        figures: Sequence[Mapping[str, Any]] | None = None,
        also: Callable[[], Unit[Any]] | None = None,
    ) -> list[int]:
        """Log ``events`` as rows ``seq``, ``seq + 1``, … in ONE transaction, and in the same
        transaction set the game's end: ``finished=True`` marks it finished with ``result``,
        ``finished=False`` reopens it, ``None`` leaves it; queue the ``outbox`` messages the
        events caused (0004); and with ``timer`` store the game's timer: ``timer(outbox ids)``
        (``None`` clears it); with ``snapshot``, replace the game's snapshot (0005); with
        ``figures``, replace the game's rows of its players (0006,
        :func:`storage.club.figures_sync`; an empty list deletes them); ``also()``: more steps
        of the same transaction, after the outbox's (a hosted table's new step:
        :func:`storage.host.host_update`, issue 34). Either all of it is stored or nothing. On PostgreSQL the game's advisory lock is taken first (one game's
        transitions at a time across workers) and the inbox update being applied is consumed in
        it (the fence, :data:`storage.pg.applying`). Returns the outbox ids."""
        at = time.time()
        logged = [(game_id, seq + i, dumps(dict(e)), actor, at) for i, e in enumerate(events)]
        payloads = [(item, dumps(dict(item.payload))) for item in outbox]
        snap = None if snapshot is None else (
            game_id, snapshot.seq, snapshot.standing, snapshot.version,
            snapshot.state if isinstance(snapshot.state, str) else dumps(snapshot.state))

        def unit() -> Unit[tuple[list[int], str | None, bool]]:
            yield lock_game(game_id)
            # the revision check is the insert's own: the next seq, or no row at all
            inserted = (yield count(
                "INSERT INTO events(game_id, seq, event, actor, at)"
                " SELECT ?, ?, ?, ?, ? WHERE ? = (SELECT COALESCE(MAX(seq), 0) + 1 FROM events"
                " WHERE game_id = ?) AND EXISTS (SELECT 1 FROM games WHERE id = ?)",
                *logged[0], seq, game_id, game_id)) if logged else 0
            if not inserted:
                exists, current = yield one(
                    "SELECT (SELECT COUNT(*) FROM games WHERE id = ?),"
                    " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?)", game_id, game_id)
                if not exists:
                    raise NoSuchGame(game_id)
                if logged or seq != current + 1:
                    raise StaleRevision(game_id, seq, int(current))
            if len(logged) > 1:
                yield many("INSERT INTO events(game_id, seq, event, actor, at)"
                           " VALUES (?, ?, ?, ?, ?)", logged[1:])
            if finished is True:
                yield from update_game(game_id, "finished_at = ?, result = ?", at, result)
            elif finished is False:
                yield from update_game(game_id, "finished_at = NULL, result = NULL")
            yield FENCE
            ids = []
            for item, payload in payloads:
                ids.append((yield from enqueue(item, payload, game_id, at)))
            if figures is not None:
                yield call(figures_sync, game_id, figures, at)
            if also is not None:
                yield from also()
            if snap is not None:
                yield count("INSERT INTO snapshots(game_id, seq, standing, version, state)"
                            " VALUES (?, ?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET"
                            " seq = excluded.seq, standing = excluded.standing,"
                            " version = excluded.version, state = excluded.state", *snap)
            if timer is None:
                return ids, None, False
            value = timer(ids)
            text = None if value is None else dumps(dict(value))
            yield from update_game(game_id, "timer = ?", text)
            return ids, text, True

        def cached(out: tuple[list[int], str | None, bool]) -> None:
            self._bump(queued_rows(out[0], payloads, game_id, at))
            if out[2]:
                self._set_cached(game_id, timer=None if out[1] is None else json.loads(out[1]))

        ids, _, _ = await self._write_unit(unit(), cached)
        return ids

    async def game_log(self, game_id: int, version: str
                       ) -> tuple[int, list[tuple[int, str]], Snapshot | None]:
        """What a cold load reads, in one round trip on SQLite (one read-only transaction on
        PostgreSQL): the log's row count, its rows as ``(seq, JSON text)`` in order (decoded by
        the caller as far as it needs), and the game's snapshot (``state`` as JSON text) or
        ``None``. With a snapshot of ``version`` only the rows after it are read
        (:meth:`event_texts` reads the others if they are needed)."""
        def unit() -> Unit[tuple[int, list[tuple[int, str]], Snapshot | None]]:
            found = yield one("SELECT seq, standing, version, state FROM snapshots"
                              " WHERE game_id = ?", game_id)
            snap = None if found is None else Snapshot(*found)
            after = snap.seq if snap is not None and snap.version == version else 0
            (total,) = yield one("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", game_id)
            tail = yield rows("SELECT seq, event FROM events WHERE game_id = ? AND seq > ?"
                              " ORDER BY seq", game_id, after)
            return int(total), [(r[0], r[1]) for r in tail], snap

        return await self._read_unit(unit(), consistent=True)

    async def event_texts(self, game_id: int, upto: int) -> list[tuple[int, str]]:
        """The game's log rows ``1..upto`` as ``(seq, JSON text)``."""
        found = await self._rows("SELECT seq, event FROM events WHERE game_id = ? AND seq <= ?"
                                 " ORDER BY seq", game_id, upto)
        return [(r[0], r[1]) for r in found]

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's log in order (empty for an unknown game)."""
        found = await self._rows(
            "SELECT seq, event, actor, at FROM events WHERE game_id = ? ORDER BY seq", game_id)
        return [EventRow(seq=r[0], event=json.loads(r[1]), actor=r[2], at=r[3]) for r in found]

    # --- chats --------------------------------------------------------------------------------
    async def set_lang(self, chat: str, lang: str) -> None:
        """Store the chat's language (``/lang``). Not fenced: a shared worker killed just after
        it sees the update applied again (harmless)."""
        await self._write_step(count("INSERT INTO chats(chat, lang) VALUES (?, ?)"
                                     " ON CONFLICT(chat) DO UPDATE SET lang = excluded.lang",
                                     chat, lang), lambda _: self._set_cached_lang(chat, lang))

    async def lang(self, chat: str) -> str | None:
        """The chat's language (``/lang``), or ``None``."""
        row = await self._one("SELECT lang FROM chats WHERE chat = ?", chat)
        return row[0] if row else None

    # --- chat aliases (0002) ------------------------------------------------------------------
    async def set_alias(self, chat: str, home: str | None) -> None:
        """Make ``chat`` act on ``home``'s games (``None``: ``chat`` is a home of its own again)."""
        if home == chat:
            raise StorageError(f"a chat cannot be its own alias: {chat}")

        def unit() -> Unit[None]:
            yield FENCE
            if home is not None:
                yield count("INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", home)
            yield count("INSERT INTO chats(chat, home) VALUES (?, ?)"
                        " ON CONFLICT(chat) DO UPDATE SET home = excluded.home", chat, home)

        await self._write_unit(unit())

    async def alias(self, chat: str) -> str | None:
        """The home chat ``chat`` is an alias of, or ``None``."""
        row = await self._one("SELECT home FROM chats WHERE chat = ?", chat)
        return row[0] if row else None

    async def aliases_of(self, home: str) -> list[str]:
        """The chats that are aliases of ``home`` (the index ``chats_by_home``, 0010)."""
        return [r[0] for r in await self._rows(ALIASES_SQL, home)]

    # --- a game's announce chat, message ids and timer (0002) ---------------------------------
    async def _extras(self, game_id: int) -> GameExtras | None:
        """The game's announce chat, message ids and timer, or ``None``: no such game."""
        row = await self._one("SELECT announce, messages, timer FROM games WHERE id = ?", game_id)
        if row is None:
            return None
        return GameExtras(announce=row[0],
                          messages={str(k): int(v) for k, v in json.loads(row[1] or "{}").items()},
                          timer=json.loads(row[2]) if row[2] else None)

    async def set_announce(self, game_id: int, chat: str | None) -> None:
        """Where the game's public announcements go (``None``: nowhere but its home chat)."""
        await self._write_unit(update_game(game_id, "announce = ?", chat),
                               lambda _: self._set_cached(game_id, announce=chat))

    async def announce(self, game_id: int) -> str | None:
        extras = await self._extras(game_id)
        return None if extras is None else extras.announce

    async def set_message(self, game_id: int, chat: str, slot: str, message_id: int | None) -> None:
        """Remember (or with ``None`` forget) the id of the message in ``slot`` of ``chat`` for the
        game: the panel, the timer message, … that an adapter edits in place."""
        key = message_key(chat, slot)

        def unit() -> Unit[dict[str, int]]:
            stored = yield from stored_messages(game_id)
            if message_id is None:
                stored.pop(key, None)
            else:
                stored[key] = int(message_id)
            yield from update_game(game_id, "messages = ?", dumps(stored))
            return stored

        await self._write_unit(unit(), lambda stored: self._set_cached(game_id, messages=stored))

    async def message(self, game_id: int, chat: str, slot: str) -> int | None:
        key = message_key(chat, slot)
        extras = await self._extras(game_id)
        if extras is None:
            raise NoSuchGame(game_id)
        return extras.messages.get(key)

    async def messages(self, game_id: int) -> dict[tuple[str, str], int]:
        """Every stored message id of the game, by ``(chat, slot)``."""
        extras = await self._extras(game_id)
        if extras is None:
            raise NoSuchGame(game_id)
        out: dict[tuple[str, str], int] = {}
        for key, message_id in extras.messages.items():
            chat, _, slot = key.rpartition(" ")
            out[(chat, slot)] = message_id
        return out

    async def slots_named(self, prefix: str) -> dict[int, dict[tuple[str, str], int]]:
        """Every stored slot whose name starts with ``prefix``, of every game (finished or not),
        by game id then ``(chat, slot)`` — what a platform must still undo after its games (a
        voice mute of a member who was away when the game ended)."""
        found = await self._rows("SELECT id, messages FROM games WHERE instr(messages, ?) > 0",
                                 f" {prefix}")
        out: dict[int, dict[tuple[str, str], int]] = {}
        for game_id, raw in found:
            for key, value in json.loads(raw or "{}").items():
                chat, _, slot = str(key).rpartition(" ")
                if slot.startswith(prefix):
                    out.setdefault(int(game_id), {})[(chat, slot)] = int(value)
        return out

    async def set_timer(self, game_id: int, timer: Mapping[str, Any] | None) -> None:
        """Store the game's running timer (a JSON-ready mapping), or clear it with ``None``."""
        text = None if timer is None else dumps(dict(timer))
        await self._write_unit(update_game(game_id, "timer = ?", text),
                               lambda _: self._set_cached(game_id, timer=None if text is None
                                                          else json.loads(text)))

    async def timer(self, game_id: int) -> dict[str, Any] | None:
        """The game's stored timer as a new dict, the caller's to change (SQLite's cache is not
        touched by it), or ``None``. A timer of plain values (a judge's timer: numbers, strings,
        ``None``) is copied shallowly — its values cannot be changed in place —: 2.7 µs against
        ``copy.deepcopy``'s 13 µs (timeit, a 9-field timer) at every panel render and timer
        tick; one holding a list or an object is copied deeply."""
        extras = await self._extras(game_id)
        if extras is None or extras.timer is None:
            return None
        timer = extras.timer
        if all(type(value) in _IMMUTABLE for value in timer.values()):
            return dict(timer)
        return copy.deepcopy(timer)

    async def open_timers(self, prefix: str = "") -> dict[int, dict[str, Any]]:
        """The timers of the chats' current unfinished games, by game id (to re-arm them); with
        ``prefix`` only the games whose home chat starts with it (``"tg:"``: one adapter's own,
        when several adapters share the store)."""
        found = await self._rows(
            "SELECT g.id, g.timer FROM chats c JOIN games g ON g.id = c.current_game"
            " WHERE g.finished_at IS NULL AND g.timer IS NOT NULL AND c.home IS NULL"
            " AND g.quarantine IS NULL AND substr(c.chat, 1, ?) = ? ORDER BY g.id", len(prefix), prefix)
        return {r[0]: json.loads(r[1]) for r in found}

    # --- the outbox (0004) --------------------------------------------------------------------
    def queued(self, chat: str) -> tuple[int, int]:
        """A token that changes whenever outbox rows for ``chat`` are committed by this process
        (or SQLite's caches are dropped): a sender that read the chat's pending rows and sees the
        same token after sending them needs not read again."""
        return self._forgotten, self._queued.get(chat, 0)

    def queued_since(self, chat: str, token: tuple[int, int]) -> list[OutboxRow] | None:
        """The outbox rows this process committed for ``chat`` since :meth:`queued` gave
        ``token``, oldest first, as :meth:`pending` would read them then — or ``None`` when they
        are not all known here (the caches were dropped since, or too many were queued): the
        caller reads them (issue 34: an action's sender needs no read of what it queued). What
        is given is forgotten: a later call with a token before it gives ``None``."""
        if token[0] != self._forgotten:
            return None
        base, rows = self._fresh.get(chat, (self._queued.get(chat, 0), []))
        if token[1] < base or token[1] > base + len(rows):
            return None
        taken = rows[token[1] - base:]
        self._fresh[chat] = (base + len(rows), [])
        return sorted(taken, key=lambda row: row.id)

    def _bump(self, rows: Sequence[OutboxRow]) -> None:
        """Once committed: ``rows`` were queued by this process (:meth:`queued`,
        :meth:`queued_since`)."""
        for row in rows:
            chat = row.chat
            count = self._queued.get(chat, 0)
            self._queued[chat] = count + 1
            base, kept = self._fresh.get(chat, (count, []))
            if len(kept) >= FRESH_KEPT:  # a chat nobody drains here: its rows are read, if ever
                base, kept = count, []
            kept.append(row)
            self._fresh[chat] = (base, kept)

    async def enqueue(self, items: Sequence[OutboxItem], game_id: int | None = None) -> list[int]:
        """Queue messages outside any action (in one transaction). Returns their ids."""
        at = time.time()
        payloads = [(item, dumps(dict(item.payload))) for item in items]

        def unit() -> Unit[list[int]]:
            ids = []
            for item, payload in payloads:
                ids.append((yield from enqueue(item, payload, game_id, at)))
            return ids

        return await self._write_unit(
            unit(), lambda ids: self._bump(queued_rows(ids, payloads, game_id, at)))

    async def pending(self, chat: str | None = None) -> list[OutboxRow]:
        """The chat's (or every chat's) messages not yet sent nor given up, oldest first."""
        where, params = ("state = 'pending'", ()) if chat is None else (
            "state = 'pending' AND chat = ?", (chat,))
        found = await self._rows(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE {where} ORDER BY id",
                                 *params)
        return [outbox_row(r) for r in found]

    async def pending_chats(self) -> list[str]:
        """The chats with pending messages (to drain them after a restart), by oldest message."""
        found = await self._rows(
            "SELECT chat FROM outbox WHERE state = 'pending' GROUP BY chat ORDER BY MIN(id)")
        return [r[0] for r in found]

    async def outbox_row(self, row_id: int) -> OutboxRow | None:
        row = await self._one(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = ?", row_id)
        return outbox_row(row) if row else None

    async def mark_sent(self, row_id: int, message_id: int | None = None, *,
                        row: OutboxRow | None = None) -> None:
        """The message left (``message_id``: what the chat answered). A send with a slot also
        stores the id in the game's messages, in the same transaction, for later edits.
        ``row``: the row as the caller read it (its id is what is marked)."""
        await self.mark_sent_many([(row if row is not None else row_id, message_id)])

    async def mark_sent_many(self, sent: Sequence[tuple[OutboxRow | int, int | None]]) -> None:
        """:meth:`mark_sent` of several rows (a row as read, or its id, with the message id the
        chat answered) in ONE write unit, in order; each row's chat, game, slot and kind are read
        back by its update (a chat that moved is the new one). Raises :class:`StorageError` for an
        unknown row (then none is marked)."""
        if not sent:
            return
        at = time.time()

        def unit() -> Unit[dict[int, dict[str, int]]]:
            stored: dict[int, dict[str, int]] = {}
            for row, message_id in sent:
                row_id = row if isinstance(row, int) else row.id
                found = yield one("UPDATE outbox SET state = 'sent', sent_at = ?, message_id = ?,"
                                  " attempts = attempts + 1 WHERE id = ?"
                                  " RETURNING chat, game_id, slot, kind", at, message_id, row_id)
                if found is None:
                    raise StorageError(f"no outbox row {row_id}")
                chat, game_id, slot, kind = found
                if kind == "send" and slot and game_id is not None and message_id is not None:
                    if game_id not in stored:
                        stored[game_id] = yield from stored_messages(game_id)
                    stored[game_id][message_key(chat, slot)] = int(message_id)
            for game_id, messages in stored.items():
                yield from update_game(game_id, "messages = ?", dumps(messages))
            return stored

        def cached(stored: dict[int, dict[str, int]]) -> None:
            for game_id, messages in stored.items():
                self._set_cached(game_id, messages=messages)

        await self._write_unit(unit(), cached)

    async def mark_part(self, row_id: int, parts: Sequence[int | None]) -> None:
        """Record that pending outbox row ``row_id``'s first ``len(parts)`` calls are delivered,
        with the message ids they made (``None``: a call that makes none; 0014): a retry of the
        row makes only the calls after them (:mod:`bot.outbox`). Durable once it returns."""
        await self._write_step(count("UPDATE outbox SET parts = ? WHERE id = ? AND state = 'pending'",
                                     dumps(list(parts)), row_id))

    async def mark_attempt(self, row_id: int, error: str, *, give_up: bool = False) -> None:
        """A send failed: record it; ``give_up`` (a permanent error: blocked, chat not found)
        takes the row out of the queue."""
        await self._write_step(count(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?,"
            " state = CASE WHEN ? THEN 'failed' ELSE state END WHERE id = ?",
            error[:500], bool(give_up), row_id))

    # --- moving games and chats (0002) --------------------------------------------------------
    async def move_game(self, game_id: int, home: str, judge: str) -> str:
        """Make ``home`` the game's home chat and ``judge`` its judge, in one transaction (a take
        over: the game follows its new judge). The old home falls back to its previous game;
        the old home's aliases follow the game; ``home`` stops being an alias. Returns the old
        home chat."""
        def unit() -> Unit[str]:
            yield FENCE
            found = yield one("SELECT chat FROM games WHERE id = ? FOR UPDATE", game_id)
            if found is None:
                raise NoSuchGame(game_id)
            old = str(found[0])
            yield from update_game(game_id, "judge = ?", judge)
            if old == home:
                return old
            yield count("INSERT INTO chats(chat) VALUES (?) ON CONFLICT(chat) DO NOTHING", home)
            yield count("UPDATE chats SET home = NULL, current_game = ? WHERE chat = ?", game_id, home)
            yield count("UPDATE games SET chat = ? WHERE id = ?", home, game_id)
            yield count("UPDATE chats SET current_game = (SELECT MAX(id) FROM games WHERE chat = ?)"
                        " WHERE chat = ?", old, old)
            yield count("UPDATE chats SET home = ? WHERE home = ? AND chat <> ?", home, old, home)
            return old

        return await self._write_unit(unit())

    async def move_chat(self, old: str, new: str) -> None:
        """A chat changed its id (a Telegram group upgraded to a supergroup): its alias, its
        language, the games announcing there and its pending outbox messages follow it; stored
        message ids are dropped (the messages stay behind in the old chat)."""
        def unit() -> Unit[None]:
            found = yield one("SELECT home, lang FROM chats WHERE chat = ?", old)
            home, lang = (found[0], found[1]) if found else (None, None)
            yield count("INSERT INTO chats(chat, home, lang) VALUES (?, ?, ?) ON CONFLICT(chat)"
                        " DO UPDATE SET home = COALESCE(excluded.home, chats.home),"
                        " lang = COALESCE(excluded.lang, chats.lang)", new, home, lang)
            yield count("UPDATE chats SET home = NULL WHERE chat = ?", old)
            yield count("UPDATE games SET announce = ? WHERE announce = ?", new, old)
            yield count(  # what was queued for the old id goes to the new one
                "UPDATE outbox SET chat = ? WHERE chat = ? AND state = 'pending'", new, old)

        await self._write_unit(unit(), lambda _: self._forget())


# --- the units the methods share --------------------------------------------------------------

def update_game(game_id: int, assignments: str, *params: Any) -> Unit[None]:
    """``UPDATE games SET <assignments>`` of game ``game_id``; :class:`NoSuchGame` if none."""
    if not (yield count(f"UPDATE games SET {assignments} WHERE id = ?", *params, game_id)):
        raise NoSuchGame(game_id)


def stored_messages(game_id: int) -> Unit[dict[str, int]]:
    """The game's stored message ids, locked to be written back (PostgreSQL: ``FOR UPDATE``);
    :class:`NoSuchGame` if none."""
    row = yield one("SELECT messages FROM games WHERE id = ? FOR UPDATE", game_id)
    if row is None:
        raise NoSuchGame(game_id)
    return {str(k): int(v) for k, v in json.loads(row[0] or "{}").items()}


def enqueue(item: OutboxItem, payload: str, game_id: int | None, at: float) -> Unit[int]:
    """Queue one outbox row (``payload``: its JSON text); its id."""
    (row_id,) = yield one("INSERT INTO outbox(chat, game_id, kind, payload, slot, created_at)"
                          " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                          item.chat, game_id, item.kind, payload, item.slot, at)
    return int(row_id)


def queued_rows(ids: Sequence[int], queued: Sequence[tuple[OutboxItem, str]], game_id: int | None,
                at: float) -> list[OutboxRow]:
    """The pending rows just queued (their ``ids``; ``queued``: each item with its payload's
    JSON text), as :meth:`GameMethods.pending` reads them: what :meth:`GameMethods._bump`
    keeps."""
    return [OutboxRow(id=row_id, chat=item.chat, game_id=game_id, kind=item.kind,
                      payload=json.loads(payload), slot=item.slot, created_at=at, sent_at=None,
                      message_id=None, attempts=0, last_error=None, state="pending")
            for row_id, (item, payload) in zip(ids, queued)]


def prune_games(before: float, chat: str | None) -> Unit[int]:
    """:meth:`GameMethods.prune` of the games finished before ``before`` (of one home chat's,
    with ``chat``); the outbox rows dropped."""
    games = "SELECT id FROM games WHERE finished_at < ?" + (" AND chat = ?" if chat else "")
    params = (before, chat) if chat else (before,)
    dropped = yield count(f"DELETE FROM outbox WHERE state = 'sent' AND game_id IN ({games})", *params)
    yield count(f"DELETE FROM snapshots WHERE game_id IN ({games})", *params)
    return int(dropped)
