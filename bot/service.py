"""The adapter-neutral referee service: one per process, shared by every adapter.

Each action runs under its chat's :class:`asyncio.Lock`: load the game (the folded state cached in
memory; on a miss the log is folded with :func:`rules.fold`), check the judge and the revision,
``rules.apply``, then log the event in ONE transaction. The state changes in memory only after the
commit, so a refused or failed action changes nothing, and an acknowledged one survives a crash.

Chats and users are strings (``"tg:-100123"``, ``"tg:42"``). The revision is the number of rows in
the game's log (undo events included): buttons carry it, and a stale one is refused.

The service assumes it is the only writer of its store (one bot process per database).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import rules
from storage import StaleRevision, Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What an action did. ``state`` is a copy: adapters may read it freely."""

    game_id: int
    revision: int  # rows in the game's log after this action (the callback-data revision)
    state: rules.GameState
    notices: list[rules.Notice]  # what this action caused, in order
    judge: str
    undone: tuple[rules.Event, ...] = ()  # for undo: the events taken back, newest first


class ServiceError(Exception):
    """An action the service refuses. Codes: ``no_game``, ``not_judge``, ``stale`` (params
    ``revision``, ``current``), ``game_exists`` (``game_id``), ``nothing_to_undo`` (``steps``,
    ``available``). A :class:`rules.RuleError` is not wrapped: it passes through unchanged."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


@dataclass
class _Game:
    """A chat's current game as the service holds it: the log and its fold."""

    id: int
    judge: str
    config: rules.RulesConfig
    names: dict[int, str]
    log: list[rules.Event]
    state: rules.GameState
    finished: bool = field(default=False)

    @property
    def revision(self) -> int:
        return len(self.log)


def _result(state: rules.GameState) -> str | None:
    """``games.result`` for a finished state: the winning team, or ``"draw"``."""
    if state.result is None:
        return None
    return state.result.winner.value if state.result.winner is not None else "draw"


def _normalised(event: rules.Event) -> rules.Event:
    """The event as it will be replayed from the log (JSON round trip: lists become tuples), so
    the state after ``act`` is exactly the state a refold gives."""
    return rules.from_dict(json.loads(json.dumps(rules.to_dict(event))))


class Service:
    """The referee service over a :class:`storage.Store`."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._locks: dict[str, asyncio.Lock] = {}
        self._games: dict[str, _Game] = {}  # chat -> its current game

    @property
    def store(self) -> Store:
        return self._store

    # --- the public actions -------------------------------------------------------------------
    async def new_game(self, chat: str, judge: str, config: rules.RulesConfig,
                       names: dict[int, str] | None = None, *, replace: bool = False) -> Outcome:
        """Create a game and make it the chat's current one; ``judge`` runs it. Refused with
        ``game_exists`` while the current game is unfinished, unless ``replace`` (the replaced
        game is then recorded as ``"abandoned"``). Bad names raise :class:`rules.RuleError`."""
        async with self._lock(chat):
            current = await self._load(chat)
            if current is not None and not current.finished and not replace:
                raise ServiceError("game_exists", game_id=current.id)
            names = _checked_names(config, names or {})
            if current is not None and not current.finished:
                await self._store.finish(current.id, "abandoned")
                current.finished = True
            self._games.pop(chat, None)
            game_id = await self._store.create_game(chat, judge, rules.config_to_dict(config), names)
            state = rules.new_game(config, names)
            game = _Game(id=game_id, judge=judge, config=config, names=names, log=[], state=state)
            self._games[chat] = game
            return _outcome(game, [])

    async def act(self, chat: str, user: str, event: rules.Event, *,
                  revision: int | None = None) -> Outcome:
        """The judge does ``event`` in the chat's current game. An :class:`rules.Undo` is an
        :meth:`undo` of one step."""
        async with self._lock(chat):
            game = await self._checked(chat, user, revision)
            if isinstance(event, rules.Undo):
                return await self._undo(chat, game, user, 1)
            event = _normalised(event)
            state, notices = rules.apply(game.state, event)  # RuleError: nothing changed
            over = state.phase is rules.Phase.GAME_OVER
            finished = None if over == game.finished else over
            await self._append(chat, game, [event], user, finished=finished, result=_result(state))
            game.log.append(event)
            game.state = state
            game.finished = over
            return _outcome(game, notices)

    async def undo(self, chat: str, user: str, *, steps: int = 1,
                   revision: int | None = None) -> Outcome:
        """Take back the last ``steps`` effective events (one logged :class:`rules.Undo` each)
        and refold. Refused with ``nothing_to_undo`` if fewer events stand: the game's creation
        (its rules and names) is never undone."""
        if steps < 1:
            raise ValueError(f"steps must be at least 1, got {steps}")
        async with self._lock(chat):
            game = await self._checked(chat, user, revision)
            return await self._undo(chat, game, user, steps)

    async def current(self, chat: str) -> Outcome | None:
        """The chat's current game (finished or not), or ``None``; no notices."""
        async with self._lock(chat):
            game = await self._load(chat)
            return None if game is None else _outcome(game, [])

    async def take_over(self, chat: str, user: str) -> Outcome:
        """``user`` becomes the judge of the chat's current game (the adapter has checked that
        the user is a chat admin)."""
        async with self._lock(chat):
            game = await self._require(chat)
            if game.judge != user:
                try:
                    await self._store.set_judge(game.id, user)
                except BaseException:
                    self._games.pop(chat, None)
                    raise
                game.judge = user
            return _outcome(game, [])

    async def events(self, chat: str) -> list[rules.Event]:
        """The current game's log, undo events included (``no_game`` if there is none)."""
        async with self._lock(chat):
            game = await self._require(chat)
            return list(game.log)

    # --- internals ----------------------------------------------------------------------------
    def _lock(self, chat: str) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock

    async def _load(self, chat: str) -> _Game | None:
        """The chat's current game: from the cache, else folded from the store's log."""
        game = self._games.get(chat)
        if game is not None:
            return game
        row = await self._store.current_game(chat)
        if row is None:
            return None
        config = rules.config_from_dict(row.config)
        logged = [rules.from_dict(r.event) for r in await self._store.events(row.id)]
        state, _ = rules.fold(config, logged, row.names)
        game = _Game(id=row.id, judge=row.judge, config=config, names=row.names, log=logged,
                     state=state, finished=row.finished)
        self._games[chat] = game
        return game

    async def _require(self, chat: str) -> _Game:
        game = await self._load(chat)
        if game is None:
            raise ServiceError("no_game")
        return game

    async def _checked(self, chat: str, user: str, revision: int | None) -> _Game:
        game = await self._require(chat)
        if user != game.judge:
            raise ServiceError("not_judge", judge=game.judge)
        if revision is not None and revision != game.revision:
            raise ServiceError("stale", revision=revision, current=game.revision)
        return game

    async def _undo(self, chat: str, game: _Game, user: str, steps: int) -> Outcome:
        standing = rules.effective(game.log)
        if len(standing) < steps:
            raise ServiceError("nothing_to_undo", steps=steps, available=len(standing))
        undos = [rules.Undo() for _ in range(steps)]
        state, _ = rules.fold(game.config, [*game.log, *undos], game.names)
        over = state.phase is rules.Phase.GAME_OVER
        finished = None if over == game.finished else over
        await self._append(chat, game, undos, user, finished=finished, result=_result(state))
        game.log.extend(undos)
        game.state = state
        game.finished = over
        return _outcome(game, [], undone=tuple(reversed(standing[-steps:])))

    async def _append(self, chat: str, game: _Game, events: list[rules.Event], user: str, *,
                      finished: bool | None, result: str | None) -> None:
        """Log ``events`` (and the game's end) in one transaction. On any failure the cached game
        is dropped, so the next action refolds whatever the store really holds."""
        try:
            await self._store.append_many(
                game.id, game.revision + 1, [rules.to_dict(e) for e in events], user,
                finished=finished, result=result if finished else None)
        except StaleRevision as error:
            self._games.pop(chat, None)
            log.warning("game %s: the log moved under the cache (%s)", game.id, error)
            raise ServiceError("stale", revision=game.revision, current=error.current) from error
        except BaseException:
            self._games.pop(chat, None)
            raise


def _checked_names(config: rules.RulesConfig, names: dict[int, str]) -> dict[int, str]:
    """The names as the rules accept them (:class:`rules.SetName`: seats 1–10, 1–64 characters,
    stripped); a bad one raises :class:`rules.RuleError`."""
    state = rules.new_game(config)
    for seat, name in names.items():
        state, _ = rules.apply(state, rules.SetName(seat=seat, name=name))
    return {s.number: s.name for s in state.seats if s.name is not None}


def _outcome(game: _Game, notices: list[rules.Notice], undone: tuple[rules.Event, ...] = ()) -> Outcome:
    return Outcome(game_id=game.id, revision=game.revision, state=copy.deepcopy(game.state),
                   notices=notices, judge=game.judge, undone=undone)

