"""Host mode's store methods (0003): a host-mode table — its lobby, who sits where, the step
running now with its deadline and the players' inputs —, the log of every step's length, and each
group's club channel; one text for both backends (:class:`HostMethods`, over the connection
bridge, :mod:`storage.bridge`)."""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterable, Mapping, Sequence

from .bridge import Bridged, Step, Unit, count, one
from .games import enqueue, queued_rows
from .rows import (
    HOST_COLUMNS, HOST_FIELDS, HostStepRow, HostTableRow, OutboxItem, OutboxRow, StorageError, dumps,
    host_row,
)


class HostMethods(Bridged):
    """Host mode's store methods (0003), one text for both backends: each a unit run by the
    backend's :meth:`_read_unit` or :meth:`_write_unit`."""

    def _bump(self, rows: Sequence[OutboxRow]) -> None:
        raise NotImplementedError

    async def create_host_table(self, chat: str, host: str, options: Mapping[str, Any], *,
                                data: Mapping[str, Any] | None = None) -> int:
        """Open a host-mode table (a lobby) in ``chat``, opened by ``host``, with its ``data``
        (JSON-ready). Returns its id."""
        (table_id,) = await self._write_step(one(
            "INSERT INTO host_tables(chat, host, options, data, created_at) VALUES (?, ?, ?, ?, ?)"
            " RETURNING id", chat, host, dumps(dict(options)), dumps(dict(data or {})), time.time()))
        return int(table_id)

    async def host_table(self, table_id: int) -> HostTableRow | None:
        row = await self._one(f"SELECT {HOST_COLUMNS} FROM host_tables WHERE id = ?", table_id)
        return host_row(row) if row else None

    async def host_table_of(self, chat: str, status: str | None = None) -> HostTableRow | None:
        """The chat's latest table (with ``status``, if given), or ``None``."""
        where, params = ("chat = ?", (chat,)) if status is None else (
            "chat = ? AND status = ?", (chat, status))
        row = await self._one(
            f"SELECT {HOST_COLUMNS} FROM host_tables WHERE {where} ORDER BY id DESC LIMIT 1", *params)
        return host_row(row) if row else None

    async def open_host_tables(self, *, chat: str | None = None,
                               player: str | None = None) -> list[HostTableRow]:
        """Tables in the lobby or playing (to resume them after a restart), oldest first;
        ``chat``: that chat's only; ``player``: only those ``player`` (a user key) is in."""
        where, params = open_host_where(chat, player)
        rows = await self._rows(
            f"SELECT {HOST_COLUMNS} FROM host_tables WHERE {where} ORDER BY id", *params)
        return open_host_rows(rows, player)

    async def open_host_chats(self, prefix: str = "") -> list[str]:
        """The chats (beginning with ``prefix``) with a table in the lobby or playing: what a
        shared worker looks at for tables nobody runs, without reading the tables."""
        rows = await self._rows(
            "SELECT DISTINCT chat FROM host_tables WHERE status IN ('lobby', 'running')"
            " AND substr(chat, 1, ?) = ? ORDER BY chat", len(prefix), prefix)
        return [str(r[0]) for r in rows]

    async def log_host_step(self, table_id: int, no: int, key: str, kind: str, seconds: int,
                            opened_at: float) -> None:
        """Record a step the bot opened (repeating a step number keeps the first record)."""
        await self._write_step(host_step_insert(table_id, HostStepRow(no, key, kind, seconds, opened_at)))

    async def host_steps(self, table_id: int) -> list[HostStepRow]:
        rows = await self._rows("SELECT no, key, kind, seconds, opened_at FROM host_steps"
                                " WHERE table_id = ? ORDER BY no", table_id)
        return [HostStepRow(no=r[0], key=r[1], kind=r[2], seconds=r[3], opened_at=r[4]) for r in rows]

    async def move_host_chat(self, old: str, new: str) -> None:
        """A group changed its id (upgraded to a supergroup): its tables and its club channel
        follow it (the games themselves move with :meth:`move_game`)."""
        def unit() -> Unit[None]:
            yield count("UPDATE host_tables SET chat = ? WHERE chat = ?", new, old)
            yield count("UPDATE host_channels SET chat = ? WHERE chat = ?"
                        " AND NOT EXISTS (SELECT 1 FROM host_channels WHERE chat = ?)", new, old, new)

        await self._write_unit(unit())

    async def set_host_channel(self, chat: str, channel: str | None, title: str | None = None) -> None:
        """Link the group's club channel (``None`` unlinks it)."""
        if channel is None:
            await self._write_step(count("DELETE FROM host_channels WHERE chat = ?", chat))
        else:
            await self._write_step(count(
                "INSERT INTO host_channels(chat, channel, title) VALUES (?, ?, ?)"
                " ON CONFLICT(chat) DO UPDATE SET channel = excluded.channel,"
                " title = excluded.title", chat, channel, title))

    async def host_channel(self, chat: str) -> tuple[str, str | None] | None:
        """The group's channel and its title, or ``None``."""
        row = await self._one("SELECT channel, title FROM host_channels WHERE chat = ?", chat)
        return (row[0], row[1]) if row else None

    async def update_host_table(self, table_id: int, *, opened: HostStepRow | None = None,
                                outbox: Sequence[OutboxItem] = (), outbox_game: int | None = None,
                                **fields: Any) -> None:
        """Change a table's fields: ``players``, ``seats``, ``step``, ``data`` (JSON-ready),
        ``game_id``, ``lobby_message``, ``status``; a status of ``over`` or ``stopped`` also
        stamps ``closed_at``. ``step`` and ``lobby_message`` may be ``None``. ``opened``: the
        step just stored is recorded in ``host_steps`` in the same transaction (as
        :meth:`log_host_step`). ``outbox``: messages queued in the same transaction (of game
        ``outbox_game``, as :meth:`enqueue`). Raises :class:`StorageError` for an unknown field or
        table."""
        table = host_update(table_id, opened=opened, **fields)
        if table is None and not outbox:
            return
        queued = [(item, dumps(dict(item.payload))) for item in outbox]
        at = time.time()

        def unit() -> Unit[list[int]]:
            if table is not None:
                yield from table()
            ids = []
            for item, payload in queued:
                ids.append((yield from enqueue(item, payload, outbox_game, at)))
            return ids

        await self._write_unit(
            unit(), lambda ids: self._bump(queued_rows(ids, queued, outbox_game, at)))


def host_update(table_id: int, *, opened: HostStepRow | None = None,
                **fields: Any) -> Callable[[], Unit[None]] | None:
    """The steps of :meth:`HostMethods.update_host_table` without its outbox, as a unit to run
    inside another transaction too (``None``: nothing to change): an action's, so that host
    mode's step goes into the store with the event that opened it
    (:meth:`storage.games.GameMethods.append_many`'s ``also``; issue 34). Raises
    :class:`StorageError` for an unknown field at once, for an unknown table when run."""
    sets, params = host_assignments(fields)
    if not sets and opened is None:
        return None

    def unit() -> Unit[None]:
        if sets and not (yield count(f"UPDATE host_tables SET {', '.join(sets)} WHERE id = ?",
                                     *params, table_id)):
            raise StorageError(f"no host table {table_id}")
        if opened is not None:
            yield host_step_insert(table_id, opened)

    return unit


def host_step_insert(table_id: int, row: HostStepRow) -> Step:
    """The statement recording a step in ``host_steps`` (a step number already there keeps its
    first record): :meth:`HostMethods.log_host_step`, and :meth:`HostMethods.update_host_table`
    in its transaction."""
    return count("INSERT INTO host_steps(table_id, no, key, kind, seconds, opened_at)"
                 " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(table_id, no) DO NOTHING",
                 table_id, row.no, row.key, row.kind, int(row.seconds), row.opened_at)


def open_host_where(chat: str | None, player: str | None) -> tuple[str, list[Any]]:
    """The ``WHERE`` of :meth:`HostMethods.open_host_tables` and its values: a ``player`` is
    looked for in the ``players`` JSON text as a JSON string (a user key holds no ``%``, ``_`` or
    quote), and :func:`open_host_rows` keeps only the rows that truly list him."""
    where, params = ["status IN ('lobby', 'running')"], []
    if chat is not None:
        where.append("chat = ?")
        params.append(chat)
    if player is not None:
        where.append("players LIKE ?")
        params.append(f"%{json.dumps(player)}%")
    return " AND ".join(where), params


def open_host_rows(rows: Iterable[Sequence[Any]], player: str | None) -> list[HostTableRow]:
    """The decoded rows :func:`open_host_where` found (with ``player``: those listing him)."""
    tables = [host_row(r) for r in rows]
    return tables if player is None else [
        t for t in tables if any(p.get("user") == player for p in t.players)]


def host_assignments(fields: Mapping[str, Any]) -> tuple[list[str], list[Any]]:
    """A host table's changed ``fields`` as ``UPDATE`` assignments (``name = ?``) and their
    values, JSON where the column holds JSON; a status of ``over`` or ``stopped`` also stamps
    ``closed_at``. Raises :class:`StorageError` for an unknown field."""
    sets: list[str] = []
    params: list[Any] = []
    for name, value in fields.items():
        if name not in HOST_FIELDS:
            raise StorageError(f"no host table field {name!r}")
        if name == "seats":
            value = dumps({str(k): v for k, v in dict(value).items()})
        elif name in ("players", "data") or (name == "step" and value is not None):
            value = dumps(value)
        sets.append(f"{name} = ?")
        params.append(value)
        if name == "status" and value in ("over", "stopped"):
            sets.append("closed_at = ?")
            params.append(time.time())
    return sets, params
