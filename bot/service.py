"""The adapter-neutral referee service: one per process, shared by every adapter.

Each action runs under its chat's :class:`asyncio.Lock`: load the game (the folded state cached in
memory; on a miss, the stored snapshot and the log's tail after it, or the whole log folded as
:func:`rules.fold` does), check the judge and the revision, ``rules.apply``, then log the event
(and every :data:`SNAPSHOT_EVERY` events a snapshot of the state) in ONE transaction. The state changes in memory only after the
commit, so a refused or failed action changes nothing, and an acknowledged one survives a crash.

Chats and users are strings (``"tg:-100123"``, ``"tg:42"``). The revision is the number of rows in
the game's log (undo events included): buttons carry it, and a stale one is refused.

A chat may be an *alias* of another chat, its *home* (a club's group linked to the judge's private
chat where the game lives): every action resolves the chat to its home first, so ONE lock and ONE
cached game serve all of a game's chats. A game also has an announce chat (where its public notices
go), stored message ids (what an adapter edits in place) and a stored timer: thin, adapter-neutral
wrappers over the store.

The games, homes and locks it keeps in memory are bounded (``cached`` chats, :mod:`bot.lru`): a
chat not used for a while is dropped and read again from the store when it comes back.

The service assumes it is the only writer of its store: one bot process per database, which
:mod:`bot.writer`'s lock enforces for the long-running modes.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import inspect
import json
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Mapping, Sequence, Union

import rules
from rules import snapshot as snapshots
from rules.events import counted
from storage import GameRow, OutboxItem, Snapshot, StaleRevision, Store
from storage.bridge import Unit

from .club.facts import seat_facts
from .commands import CommandError
from .gcpolicy import Freezer
from .lru import CACHED_CHATS, Recent, locks

if TYPE_CHECKING:
    from .club.defaults import ClubRules
    from .commands import NewGame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What an action did. ``state`` is a copy: adapters may read it freely (only
    :meth:`Service.current` with ``copy=False`` gives the service's own, to read only)."""

    game_id: int
    revision: int  # rows in the game's log after this action (the callback-data revision)
    state: rules.GameState
    notices: list[rules.Notice]  # what this action caused, in order
    judge: str
    undone: tuple[rules.Event, ...] = ()  # for undo: the events taken back, newest first
    outbox: tuple[int, ...] = ()  # the ids of the messages queued with it, in render's order
    finished: bool = False  # the game is recorded as finished: over by the rules, or abandoned
    correction: rules.Correction | None = None  # for a fix: what it corrected, and what followed
    #: for an undo that takes a correction back: every notice of the game as it was told, and
    #: as it stands now (what the table was told of the correction is what changes back)
    retold: tuple[tuple[rules.Notice, ...], tuple[rules.Notice, ...]] | None = None


@dataclass(frozen=True)
class Staged:
    """What a ``render`` may return instead of a plain list of messages: the messages to queue
    and the game's new timer, both stored in the same transaction as the events. ``timer`` is
    called inside that transaction with the ids of the queued messages (so that a timer may name
    the message that carries its countdown) and returns the timer (JSON-ready), or ``None`` to
    clear it; ``timer=None`` leaves the stored timer as it is. ``also``: more of the store's
    steps for the same transaction (host mode's new step with the event that opened it:
    :func:`storage.host.host_update`; issue 34)."""

    outbox: Sequence[OutboxItem] = ()
    timer: Callable[[Sequence[int]], Mapping[str, Any] | None] | None = None
    also: Callable[[], Unit[Any]] | None = None


#: What an adapter passes to :meth:`Service.act` / :meth:`Service.undo`: called with the outcome
#: (new state, notices, revision) after ``rules.apply`` and BEFORE the commit, it returns the
#: messages to queue in the outbox in the same transaction as the events (ARCHITECTURE.md, "The
#: promises"), as a list or as :class:`Staged` (with the timer). It must not act through the
#: service (the chat's lock is held; reading is fine); it may be a coroutine function.
Rendered = Union[Sequence[OutboxItem], Staged]
Render = Callable[[Outcome], Union[Rendered, Awaitable[Rendered]]]


@dataclass(frozen=True)
class Committed:
    """What a watcher of the service (:meth:`Service.watch`: the web layer's live pages) is told
    after a transaction of a game's home has committed: the home chat, the game, its revision
    and its state as stored (the service's own: to read only), and whether it is recorded as
    finished (over by the rules, or abandoned)."""

    home: str
    game_id: int
    revision: int
    state: rules.GameState
    finished: bool


@dataclass(frozen=True)
class TimerStored:
    """What a watcher is told when only a game's stored timer changed (a pause, a resume, a
    stage of its countdown: :meth:`Service.set_timer`; no event logged)."""

    game_id: int


@dataclass(frozen=True)
class Relinked:
    """What a watcher is told when ``chat`` acts on another home's games from now on (linked,
    unlinked, moved to a new id): a page that follows the chat follows that game."""

    chat: str


#: A watcher: called with each :class:`Committed`, :class:`TimerStored` or :class:`Relinked`,
#: synchronously, right after the commit (the game's lock may still be held: it must only note
#: it and return; the web layer schedules its work)
Watcher = Callable[[Union[Committed, TimerStored, Relinked]], None]


class ServiceError(Exception):
    """An action the service refuses. Codes: ``no_game``, ``not_judge``, ``stale`` (params
    ``revision``, ``current``), ``game_exists`` (``game_id``), ``nothing_to_undo`` (``steps``,
    ``available``), ``home_busy`` (``game_id``: a take over into a chat with an unfinished game
    of its own), ``bad_alias`` (``chat``), ``quarantined`` (``game_id``; ``seq``: the log row
    refused, 0 for the game's rules or names; ``cause``: the refusal, a :class:`rules.RuleError`
    or ``None``; ``detail``: it as text — the chat's current game was stored by an older version
    and its log no longer folds: every action on it says so, and :meth:`Service.missing` gives
    it where :meth:`Service.current` gives ``None``, until a new game replaces it). A
    :class:`rules.RuleError` is not wrapped: it passes through unchanged."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


#: A snapshot of the folded state is stored (in the action's transaction) every this many
#: standing events, and kept in memory for undo: a cold load or an undo replays at most about
#: this many events, however long the log (issue 16).
SNAPSHOT_EVERY = 16
#: In-memory checkpoints kept per game besides its base (an undo deeper than them all refolds).
CHECKPOINTS_KEPT = 2


@dataclass
class _Checkpoint:
    """The folded state after log row ``seq`` (0: the game's start), ``count`` events standing."""

    seq: int
    count: int
    state: rules.GameState


@dataclass
class _Game:
    """A chat's current game as the service holds it: its log (decoded lazily) and its fold.

    ``base`` is the oldest state kept (the game's start, or the stored snapshot it was loaded
    from); ``standing`` the log rows of the events standing after it; ``checkpoints`` newer
    states kept for undo (at standing events, oldest first)."""

    id: int
    judge: str
    config: rules.RulesConfig
    names: dict[int, str]
    state: rules.GameState
    base: _Checkpoint
    standing: list[int] = field(default_factory=list)
    checkpoints: list[_Checkpoint] = field(default_factory=list)
    finished: bool = field(default=False)
    stored: int | None = None  # the standing count of the stored snapshot (None: none usable)
    _log: list[rules.Event | None] = field(default_factory=list)  # by seq - 1; None: not decoded
    _raw: dict[int, str] = field(default_factory=dict)  # rows read, not decoded yet: JSON by seq
    unread: int = 0  # log rows 1..unread are not read from the store yet (under a snapshot)
    #: the running digest of its log rows, for the next snapshot (rules.snapshot.log_digest)
    log_hash: Any = field(default_factory=hashlib.sha256)

    @property
    def revision(self) -> int:
        return len(self._log)

    @property
    def count(self) -> int:
        """Events standing (undone ones and undo events not counted)."""
        return self.base.count + len(self.standing)

    def event(self, seq: int) -> rules.Event:
        """The event of log row ``seq``."""
        event = self._log[seq - 1]
        if event is None:
            assert seq > self.unread, "read the log first (Service._read_all)"
            event = self._log[seq - 1] = rules.from_dict(json.loads(self._raw.pop(seq)))
        return event

    @property
    def log(self) -> list[rules.Event]:
        """The whole log, undo events included (decoded on first use; read it first)."""
        return [self.event(seq) for seq in range(1, self.revision + 1)]

    def logged(self, events: Sequence[rules.Event]) -> None:
        self._log.extend(events)

    def refold(self) -> None:
        """Take the base back to the game's start (an undo deeper than every kept state), or to
        its latest standing correction (:class:`rules.Fix` rewrites what came before it: the
        state after it is the log up to it, folded); the whole log must have been read."""
        stack: list[int] = []
        for seq in range(1, self.revision + 1):
            if isinstance(self.event(seq), rules.Undo):
                if stack:
                    stack.pop()
            else:
                stack.append(seq)
        fixes = [i for i, seq in enumerate(stack) if isinstance(self.event(seq), rules.Fix)]
        if fixes:
            at = fixes[-1]
            state, _ = rules.fold(self.config, self.log[:stack[at]], self.names)
            self.base = _Checkpoint(stack[at], at + 1, state)
            self.standing = stack[at + 1:]
        else:
            self.base = _Checkpoint(0, 0, rules.new_game(self.config, self.names))
            self.standing = stack
        self.checkpoints = []


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

    def __init__(self, store: Store, *, cached: int = CACHED_CHATS,
                 snapshot_every: int = SNAPSHOT_EVERY, club_rules: str | None = None) -> None:
        """``cached``: how many chats' games, homes and locks are kept in memory (:mod:`bot.lru`);
        ``snapshot_every``: see :data:`SNAPSHOT_EVERY` (tests make it small); ``club_rules``: the
        rules every club without its own starts its games with (``MAFIA_REFEREE_RULES``: the
        words of ``/new``, :mod:`bot.club.defaults`; checked here, ``CommandError``)."""
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, got {snapshot_every}")
        from .club.defaults import ClubRules, parse_rules

        self._club_rules = (None if not (club_rules or "").strip() else
                            ClubRules(" ".join(club_rules.split()), False, parse_rules(club_rules)))
        self._store = store
        self._every = snapshot_every
        self._freezer = Freezer()  # long-lived games out of the collector's reach
        self._locks = locks(cached)
        self._games: Recent[str, _Game] = Recent(cached)  # home chat -> its current game
        self._aliases: Recent[str, str | None] = Recent(cached)  # chat -> its home (None: a home itself)
        self._watchers: list[Watcher] = []

    @property
    def store(self) -> Store:
        return self._store

    def watch(self, watcher: Watcher) -> None:
        """Call ``watcher`` after every commit of a game's transaction (:class:`Committed`): an
        action, an undo, a correction, a new game, an abandon, a take over, a timer stored. What
        it is told has been committed: the live pages never show what was not (issue 30)."""
        self._watchers.append(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        if watcher in self._watchers:
            self._watchers.remove(watcher)

    def _committed(self, home: str, game: _Game) -> None:
        """Tell the watchers that ``game`` of ``home`` is stored as it is now."""
        if self._watchers:
            self._tell(Committed(home, game.id, game.revision, game.state, game.finished))

    def _tell(self, done: Committed | TimerStored | Relinked) -> None:
        """Call every watcher; one that fails is logged, never the action's failure (it has
        been committed)."""
        for watcher in tuple(self._watchers):
            try:
                watcher(done)
            except Exception:  # noqa: BLE001 - the action stands; the page catches up later
                log.exception("a watcher of the service failed on %s", done)

    # --- the public actions -------------------------------------------------------------------
    async def new_game(self, chat: str, judge: str, config: rules.RulesConfig,
                       names: dict[int, str] | None = None, *, replace: bool = False,
                       announce: str | None = None,
                       news: Callable[[int], Sequence[OutboxItem]] | None = None,
                       tournament: tuple[int, int] | None = None) -> Outcome:
        """Create a game and make it the chat's current one; ``judge`` runs it; ``announce``:
        where its public announcements go (a linked group). Refused with ``game_exists`` while
        the current game is unfinished, unless ``replace`` (the replaced game is then recorded
        as ``"abandoned"``, in the same transaction). ``news(game_id)``: the messages that
        announce it, queued in the outbox in that transaction too (it must not act through the
        service). ``tournament``: ``(tournament id, table)`` — the game is that table's next
        game of the tournament's plan, recorded in the same transaction (issue 17). Bad names
        raise :class:`rules.RuleError`."""
        async with self._locked(chat) as chat:
            current = await self._load(chat)  # None too when it is set aside: kept as stored
            if current is not None and not current.finished and not replace:
                raise ServiceError("game_exists", game_id=current.id)
            names = _checked_names(config, names or {})
            replaced = current.id if current is not None and not current.finished else None
            self._games.pop(chat, None)
            game_id = await self._store.create_game(chat, judge, rules.config_to_dict(config), names,
                                                    announce=announce, abandon=replaced,
                                                    outbox=news, tournament=tournament)
            state = rules.new_game(config, names)
            game = _Game(id=game_id, judge=judge, config=config, names=names, state=state,
                         base=_Checkpoint(0, 0, state))
            self._games[chat] = game
            self._committed(chat, game)
            return _outcome(game, [])

    async def act(self, chat: str, user: str, event: rules.Event, *,
                  revision: int | None = None, render: Render | None = None) -> Outcome:
        """The judge does ``event`` in the chat's current game. An :class:`rules.Undo` is an
        :meth:`undo` of one step, a :class:`rules.Fix` a :meth:`fix`. ``render`` gives the
        messages to queue with it (the outbox)."""
        async with self._locked(chat) as chat:
            game = await self._checked(chat, user, revision)
            if isinstance(event, rules.Undo):
                return await self._undo(chat, game, user, 1, render)
            if isinstance(event, rules.Fix):
                return await self._fix(chat, game, user, event.seq, event.event, render)
            event = _normalised(event)
            refusal = rules.admit(game.state, event)  # a new action: NAME_TAKEN
            if refusal is not None:
                raise refusal
            state, notices = rules.apply(game.state, event)  # RuleError: nothing changed
            over = state.phase is rules.Phase.GAME_OVER
            finished = None if over == game.finished else over
            planned = Outcome(game_id=game.id, revision=game.revision + 1,
                              state=copy.deepcopy(state), notices=notices, judge=game.judge)
            seq, count = game.revision + 1, game.count + 1
            due = count % self._every == 0 or (game.stored is None and count >= self._every)
            queued = await self._append(chat, game, [event], user, finished=finished,
                                        result=_result(state),
                                        staged=await _rendered(render, planned),
                                        snapshot=_snapshot(seq, count, state) if due else None,
                                        figures=_figures(state, game.finished))
            game.logged([event])
            game.standing.append(seq)
            game.state = state
            game.finished = over
            if due:
                game.stored = count
            if count % self._every == 0:
                game.checkpoints = [*game.checkpoints, _Checkpoint(seq, count, state)][-CHECKPOINTS_KEPT:]
            self._committed(chat, game)
            return replace(planned, outbox=tuple(queued), finished=over)  # its copy: no other

    async def undo(self, chat: str, user: str, *, steps: int = 1,
                   revision: int | None = None, render: Render | None = None) -> Outcome:
        """Take back the last ``steps`` effective events (one logged :class:`rules.Undo` each)
        and refold. Refused with ``nothing_to_undo`` if fewer events stand: the game's creation
        (its rules and names) is never undone. ``render``: the corrections to queue with it."""
        if steps < 1:
            raise ValueError(f"steps must be at least 1, got {steps}")
        async with self._locked(chat) as chat:
            game = await self._checked(chat, user, revision)
            return await self._undo(chat, game, user, steps, render)

    async def fix(self, chat: str, user: str, seq: int, replacement: rules.Event, *,
                  revision: int | None = None, render: Render | None = None) -> Outcome:
        """The judge corrects the action logged at ``seq`` (1 for the game's first) into
        ``replacement``: one :class:`rules.Fix` is logged and the game is replayed over it
        (:func:`rules.correct`; docs/rules.md §2.6). The outcome carries the
        :class:`rules.Correction` (what changed). A :class:`rules.RuleError` (``not_fixable``,
        ``fix_breaks`` with the first later action it would break) changes nothing. ``render``:
        the corrections to queue with it."""
        async with self._locked(chat) as chat:
            game = await self._checked(chat, user, revision)
            return await self._fix(chat, game, user, seq, replacement, render)

    async def current(self, chat: str, *, copy: bool = True) -> Outcome | None:
        """The chat's current game (finished or not), or ``None``; no notices. ``None`` also
        when it is set aside — stored by an older version, its log no longer folds (found at its
        first load: the game is quarantined, nothing deleted, one warning logged) — so that
        everything goes on as in a chat without a game (a new game, a restart's timers);
        :meth:`missing` says which, and every action on it is refused with ``quarantined``.
        ``copy=False``: the state is the service's own, to read only (the engine never changes
        a state in place: an action makes a new one), for a caller that only reads it (the
        judge's typed command, press and timer tick: one copy of the state less, ~25 µs)."""
        async with self._locked(chat) as chat:
            game = await self._load(chat)
            if game is None:
                return None
            return _outcome(game, []) if copy else Outcome(
                game_id=game.id, revision=game.revision, state=game.state, notices=[],
                judge=game.judge, finished=game.finished)

    async def missing(self, chat: str) -> ServiceError:
        """Why the chat has no current game (:meth:`current` gave ``None``), as the refusal to
        give: ``quarantined`` (its game set aside: which, where its log stops folding, why, what
        to do) or ``no_game``."""
        async with self._locked(chat) as chat:
            await self._load(chat)  # a game not loaded yet is set aside here if it must be
            return await self._missing(chat)

    async def take_over(self, chat: str, user: str, *, home: str | None = None) -> Outcome:
        """``user`` becomes the judge of the chat's current game (the adapter has checked that
        the user is a chat admin). With ``home`` the game also moves there (the new judge's own
        chat): the old home falls back to its previous game and its aliases follow the game.
        Refused with ``home_busy`` if ``home`` has an unfinished game of its own."""
        async with self._locked(chat) as current_home:
            game = await self._require(current_home)
            if home is None or home == current_home:
                if game.judge != user:
                    try:
                        await self._store.set_judge(game.id, user)
                    except BaseException:
                        self._games.pop(current_home, None)
                        raise
                    game.judge = user
                return _outcome(game, [])
            async with self._lock(home):
                target = await self._load(home) if await self.home(home) == home else None
                if target is not None and not target.finished and target.id != game.id:
                    raise ServiceError("home_busy", game_id=target.id)
                try:
                    await self._store.move_game(game.id, home, user)
                finally:
                    self._games.pop(current_home, None)
                    self._games.pop(home, None)
                    self._aliases.clear()
                game.judge = user
                self._games[home] = game
                self._committed(home, game)
                fallen = await self._load(current_home) if self._watchers else None
                if fallen is not None:  # the old home shows its previous game again
                    self._committed(current_home, fallen)
                return _outcome(game, [])

    async def abandon(self, chat: str, user: str) -> Outcome:
        """The judge stops the chat's unfinished game: it is recorded as ``"abandoned"``, its log
        kept as played (host mode's /stop). ``no_game`` if there is none or it is over."""
        async with self._locked(chat) as chat:
            game = await self._checked(chat, user, None)
            if game.finished:
                raise ServiceError("no_game")
            try:
                await self._store.finish(game.id, "abandoned")
            except BaseException:
                self._games.pop(chat, None)
                raise
            game.finished = True
            self._committed(chat, game)
            return _outcome(game, [])

    async def events(self, chat: str) -> list[rules.Event]:
        """The current game's log, undo events included (``no_game`` if there is none)."""
        async with self._locked(chat) as chat:
            game = await self._require(chat)
            await self._read_all(game)
            return game.log

    # --- chats: aliases, announce chats, stored message ids and timers -----------------------
    async def home(self, chat: str, *, fresh: bool = False) -> str:
        """The home chat whose games ``chat`` acts on (``chat`` itself unless it is an alias).
        ``fresh``: read from the store, not this process's memory — another worker sharing the
        database may have linked it (the shared workers route by it)."""
        if fresh or chat not in self._aliases:
            self._aliases[chat] = await self._store.alias(chat)
        return self._aliases[chat] or chat

    async def link(self, chat: str, home: str) -> str:
        """Make ``chat`` an alias of ``home`` (resolved first): from now on ``chat`` acts on
        ``home``'s current game. Returns the home. ``bad_alias`` if that would make a chat its
        own alias or hide a home whose games other chats act on."""
        home = await self.home(home)
        if home == chat or await self._store.aliases_of(chat):
            raise ServiceError("bad_alias", chat=chat)
        async with self._lock(home):
            await self._store.set_alias(chat, home)
            self._aliases[chat] = home
        if self._watchers:
            self._tell(Relinked(chat))
        return home

    async def unlink(self, chat: str) -> None:
        """``chat`` is no longer an alias: it is a home of its own again."""
        await self._store.set_alias(chat, None)
        self._aliases[chat] = None
        if self._watchers:
            self._tell(Relinked(chat))

    async def aliases(self, home: str) -> list[str]:
        """The chats that act on ``home``'s games."""
        return await self._store.aliases_of(home)

    async def migrate_chat(self, old: str, new: str) -> None:
        """A chat changed its id (a group upgraded to a supergroup): its alias, language and
        the games announcing there follow it."""
        await self._store.move_chat(old, new)
        self._aliases.clear()
        if self._watchers:
            self._tell(Relinked(new))

    async def set_announce(self, game_id: int, chat: str | None) -> None:
        """Where game ``game_id``'s public announcements go (``None``: its home chat only)."""
        await self._store.set_announce(game_id, chat)

    async def announce(self, game_id: int) -> str | None:
        return await self._store.announce(game_id)

    # --- a club's own rules (issue 31) ----------------------------------------------------------
    async def club_rules(self, club: str) -> "ClubRules | None":
        """The rules ``club`` (its chat key: ``tg:-100123``, ``dc:<channel>``, ``console:local``)
        starts its new games with: its own (:meth:`set_club_rules`; ``own`` true), else the
        setting's (``MAFIA_REFEREE_RULES``; ``own`` false), else ``None`` (the seed preset). Own
        rules a newer version would refuse are passed over for the setting's (logged)."""
        from .club.defaults import ClubRules, parse_rules

        words = await self._store.club_rules(club)
        if words is not None:
            try:
                return ClubRules(words, True, parse_rules(words))
            except CommandError as error:
                log.warning("club %s: its rules %r are refused (%s): the default is used", club,
                            words, error)
        return self._club_rules

    async def set_club_rules(self, club: str, words: str | None, *,
                             by: str | None = None) -> "ClubRules | None":
        """Set ``club``'s own rules to ``words`` — the words typed after ``/new``, e.g.
        ``fiim2024 raise_2_of_4=false timers.speech=45`` — checked as ``/new`` checks them
        (:class:`bot.commands.CommandError`, nothing stored); ``None`` or blank forgets them.
        ``by``: who set them (a user key). Returns the rules the club's new games now start
        with (:meth:`club_rules`): ``/new`` and ``/newgame`` there, the console's ``/new``."""
        from .club.defaults import parse_rules

        text = " ".join((words or "").split())
        if text:
            parse_rules(text)
        await self._store.set_club_rules(club, text or None, by)
        return await self.club_rules(club)

    async def new_game_rules(self, club: str, command: "NewGame") -> rules.RulesConfig:
        """The rules of a new game of ``club`` asked for by ``command`` (``/new`` as typed):
        what was typed over the club's rules (:func:`bot.club.defaults.merged`); a bad
        combination is :class:`bot.commands.CommandError`."""
        from .club.defaults import with_club_rules

        return with_club_rules(command, await self.club_rules(club)).config()

    async def set_message(self, game_id: int, chat: str, slot: str, message_id: int | None) -> None:
        """Remember the id of the message an adapter edits in place (``slot``: ``"panel"``,
        ``"timer"``, …); ``None`` forgets it."""
        await self._store.set_message(game_id, chat, slot, message_id)

    async def message(self, game_id: int, chat: str, slot: str) -> int | None:
        return await self._store.message(game_id, chat, slot)

    async def messages(self, game_id: int) -> dict[tuple[str, str], int]:
        return await self._store.messages(game_id)

    async def set_timer(self, game_id: int, timer: Mapping[str, Any] | None) -> None:
        """Store the game's running timer (adapter-defined, JSON-ready) or clear it; the
        watchers of the game's home are told (a page shows the timer paused, resumed, over)."""
        await self._store.set_timer(game_id, timer)
        if self._watchers:
            self._tell(TimerStored(game_id))

    async def timer(self, game_id: int) -> dict[str, Any] | None:
        return await self._store.timer(game_id)

    async def open_timers(self, prefix: str = "") -> dict[int, dict[str, Any]]:
        """The stored timers of the unfinished current games (to re-arm after a restart); with
        ``prefix`` (``"tg:"``, ``"dc:"``) only those of games whose home chat starts with it, so
        that each adapter sharing the store re-arms its own."""
        return await self._store.open_timers(prefix)

    # --- what the platforms keep beside a game ---------------------------------------------------
    # (a platform reaches the store only through these: bot/telegram and bot/discord never touch it)
    async def lang(self, chat: str) -> str | None:
        """The language chosen for ``chat`` (``/lang``; a Discord server's under its key)."""
        return await self._store.lang(chat)

    async def set_lang(self, chat: str, lang: str) -> None:
        await self._store.set_lang(chat, lang)

    async def club_channel(self, chat: str) -> tuple[str, str | None] | None:
        """The club channel linked to ``chat`` (``/channel``: its key and title), if any."""
        return await self._store.host_channel(chat)

    async def set_club_channel(self, chat: str, channel: str | None, title: str | None = None) -> None:
        await self._store.set_host_channel(chat, channel, title)

    async def game_row(self, game_id: int) -> GameRow | None:
        """Game ``game_id`` as stored (its home chat, judge, result), current or not."""
        return await self._store.game(game_id)

    async def open_games(self) -> list[GameRow]:
        """Every game not finished, as stored."""
        return await self._store.open_games()

    async def host_table(self, table_id: int) -> Any:
        """Hosted table ``table_id`` as stored (:class:`storage.HostTableRow`), or ``None``."""
        return await self._store.host_table(table_id)

    async def open_host_tables(self, *, player: str | None = None) -> list[Any]:
        """The hosted tables that gather or play (``player``: those he is at)."""
        return await self._store.open_host_tables(player=player)

    async def host_table_of(self, chat: str) -> Any:
        """The latest hosted table of ``chat`` as stored (its running step), or ``None``."""
        return await self._store.host_table_of(chat)

    async def tournament(self, club: str) -> Any:
        """``club``'s open tournament as stored (:class:`storage.Tournament`), or ``None``."""
        return await self._store.tournament(club)

    # --- the live pages (issue 30, bot.web): their secrets and the broadcast's delay ------------
    async def web_table(self, chat: str, *, create: bool = False) -> Any:
        """The pages of ``chat`` (:class:`storage.WebTable`; ``create``: made when none yet)."""
        return await self._store.web_table(chat, create=create)

    async def web_table_by_id(self, table_id: int) -> Any:
        return await self._store.web_table_by_id(table_id)

    async def rotate_web_table(self, chat: str) -> Any:
        """New secrets for ``chat``'s pages: the old addresses stop working."""
        return await self._store.rotate_web_table(chat)

    async def set_web_delay(self, chat: str, delay: int) -> Any:
        """The broadcast's delay of ``chat``'s pages, seconds."""
        return await self._store.set_web_delay(chat, delay)

    async def enqueue(self, items: Sequence[OutboxItem], game_id: int | None = None) -> list[int]:
        """Queue messages that no action carries (a confirmation) in the outbox."""
        return await self._store.enqueue(items, game_id=game_id)

    async def pending(self, chat: str) -> list[Any]:
        """What the outbox still holds for ``chat`` (:class:`storage.OutboxRow`)."""
        return await self._store.pending(chat)

    async def slots_named(self, prefix: str) -> dict[int, dict[tuple[str, str], int]]:
        """Every game's stored message slots whose name starts with ``prefix`` (Discord's
        ``muted:<seat>``)."""
        return await self._store.slots_named(prefix)

    async def pending_chats(self) -> list[str]:
        """The chats the outbox holds unsent messages for."""
        return await self._store.pending_chats()

    async def open_host_chats(self, prefix: str = "") -> list[str]:
        """The chats with a hosted table that gathers or plays (``prefix``: one platform's)."""
        return await self._store.open_host_chats(prefix)

    async def inbox_put(self, update_id: int, home: str, payload: Mapping[str, Any]) -> bool:
        """Store an update for the worker that owns ``home`` (shared mode, PostgreSQL: the
        inbox). ``False``: that update was stored before (delivered again)."""
        return await self._store.inbox_put(update_id, home, dict(payload))  # type: ignore[attr-defined]

    def drainer(self, claims: Any, apply: Any, **options: Any) -> Any:
        """A loop over the inbox applying the updates of the chats ``claims`` owns
        (:class:`storage.shared.Drainer`; ``options`` as it takes them)."""
        from storage.shared import Drainer

        return Drainer(self._store, claims, apply, **options)  # type: ignore[arg-type]

    def shared_pool(self) -> Any:
        """The PostgreSQL pool the shared workers count in (their send budget,
        :class:`storage.shared.SendBudget`)."""
        return self._store.pool  # type: ignore[attr-defined]

    async def game_files(self, game_id: int, cat: Any, **sheet: Any) -> Any:
        """The protocol files of game ``game_id`` (:func:`bot.protocol.files.protocol_files`;
        ``sheet``: its header's defaults, judge and table)."""
        from .protocol.files import protocol_files

        return await protocol_files(self._store, game_id, cat, **sheet)

    async def prune(self) -> int:
        """Forget what finished games no longer need (their delivered outbox rows, their
        snapshots: :meth:`storage.Store.prune`)."""
        return await self._store.prune()

    def forget(self, home: str) -> int | None:
        """Drop what is kept in memory of home chat ``home`` (its game) and every alias: another
        process may change them from now on — the shared workers call it when this worker stops
        owning the chat (:class:`storage.shared.ChatClaims`' ``on_release``). Returns the id of
        the game dropped (``None``: none was kept)."""
        game = self._games.pop(home, None)
        self._aliases.clear()
        return None if game is None else game.id

    # --- internals ----------------------------------------------------------------------------
    @asynccontextmanager
    async def _locked(self, chat: str) -> AsyncIterator[str]:
        """Resolve ``chat`` to its home and hold the home's lock; the alias is checked again
        under the lock, since a take over may have moved the game meanwhile."""
        while True:
            home = await self.home(chat)
            async with self._lock(home):
                if await self.home(chat) != home:
                    continue
                yield home
                return

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
        if row.quarantine is not None and row.quarantine.get("engine") == snapshots.version():
            return None  # set aside by this engine: it would refuse the log again
        try:
            game = await self._fold(row)
        except _UNFOLDABLE as error:
            await self._quarantine(chat, row, error)
            return None
        if row.quarantine is not None:  # set aside by another engine, and this one folds it
            await self._store.quarantine(row.id, None)
            log.warning("game %s in %s: set aside by another version of the rules, folds again; "
                        "back in play (its step timer is not re-armed)", row.id, chat)
        self._games[chat] = game
        self._freezer.loaded()
        return game

    async def _quarantine(self, chat: str, row: GameRow, error: Exception) -> None:
        """Set aside game ``row`` (``chat``'s current one), whose stored log no longer folds
        (``error``): the log row refused and the refusal are found by one more walk of its log
        and stored with it and this engine's version (nothing deleted:
        :meth:`storage.Store.quarantine`); the operator's log gets one warning line. While it is
        the chat's current game, a later version of the engine (a fix deployed) folds it again
        at its first load, and puts it back in play if it folds."""
        if isinstance(error, LogEdited):  # changed by hand under its snapshot: said so
            seq, cause = error.seq, error
        else:
            seq, cause = _refused(row, [r.event for r in await self._store.events(row.id)], error)
        why = {"seq": seq, "detail": str(cause) or type(cause).__name__,
               "engine": snapshots.version()}  # another engine (a fix deployed) tries it again
        if isinstance(error, LogEdited):
            why["edited"] = True
        if isinstance(cause, rules.RuleError):
            why["code"] = cause.code.value
            why["params"] = json.loads(json.dumps(cause.params, default=str))
        await self._store.quarantine(row.id, why)
        if isinstance(error, LogEdited):
            log.warning("game %s in %s: its stored log is not the one its snapshot folded (%s); "
                        "set aside, nothing deleted", row.id, chat, why["detail"])
            return
        log.warning("game %s in %s: its stored log no longer folds (log row %s: %s); set aside, "
                    "nothing deleted", row.id, chat, seq, why["detail"])

    async def _fold(self, row: GameRow) -> _Game:
        """Game ``row`` folded from its stored snapshot and the log's tail, or its whole log."""
        config = rules.config_from_dict(row.config)
        revision, rows, snapshot = await self._store.game_log(row.id, snapshots.version())
        game = _Game(id=row.id, judge=row.judge, config=config, names=row.names,
                     state=rules.new_game(config, row.names),
                     base=_Checkpoint(0, 0, rules.new_game(config, row.names)),
                     finished=row.finished, _log=[None] * revision, _raw=dict(rows),
                     unread=revision - len(rows))
        data = await self._check_log(game, snapshot)
        if not (snapshot is not None and _resume(game, snapshot, data)):
            await self._read_all(game)
            game.refold()  # no usable snapshot: the whole fold, keeping checkpoints on the way
            state = game.base.state
            for count, seq in enumerate(game.standing, game.base.count + 1):
                state, _ = rules.apply(state, game.event(seq))
                if count % self._every == 0:
                    game.checkpoints.append(_Checkpoint(seq, count, state))
            game.checkpoints = game.checkpoints[-CHECKPOINTS_KEPT:]
            game.state = state
        return game

    async def _check_log(self, game: _Game, snapshot: Snapshot | None) -> Any:
        """At a cold load: the digest of game ``game``'s whole log (kept for its next
        snapshots), and ``snapshot``'s checked — the log rows it folds are as it says they were
        (issue 32: a log edited by hand under a snapshot is noticed here, not when the protocol
        is drawn from the log at the end), else :class:`LogEdited` (a row changed, or taken
        out). A snapshot past the log's end is not checked: it is no snapshot of this log.
        Returns the snapshot's decoded JSON, ``None`` when there is none or it cannot be
        read. The rows under the snapshot are read for it, not kept (their texts only hashed)."""
        data: Any = None
        under: tuple[int, str] | None = None  # the rows the snapshot folds, and their digest
        if snapshot is not None:
            try:
                data = json.loads(snapshot.state)
                under = snapshot.seq, snapshots.unpack(data)[1]
            except (ValueError, TypeError):
                pass  # another format, or unreadable: nothing to check (and not used)
        rows = await self._store.event_texts(game.id, game.unread) if game.unread else []
        rows.extend((seq, game._raw[seq]) for seq in range(game.unread + 1, game.revision + 1)
                    if seq in game._raw)
        for want, (seq, _) in enumerate(rows, 1):
            if seq != want:
                raise LogEdited(game.id, want)  # a row taken out of the log
        texts = [text for _, text in rows]
        if under is None:
            game.log_hash = snapshots.log_digest(texts)
            return data
        if under[0] > len(texts):  # past the log's end: not this log's (ignored, as before)
            game.log_hash = snapshots.log_digest(texts)
            return data
        digest = snapshots.log_digest(texts[:under[0]])
        if digest.hexdigest() != under[1]:
            raise LogEdited(game.id, under[0])
        game.log_hash = snapshots.log_digest(texts[under[0]:], digest)
        return data

    async def _read_all(self, game: _Game) -> None:
        """Read the log rows a cold load left under the snapshot (for the whole log, or an undo
        deeper than every state kept)."""
        if game.unread:
            game._raw.update(await self._store.event_texts(game.id, game.unread))
            game.unread = 0

    async def _require(self, chat: str) -> _Game:
        game = await self._load(chat)
        if game is None:
            raise await self._missing(chat)
        return game

    async def _missing(self, home: str) -> ServiceError:
        row = await self._store.current_game(home)
        if row is not None and row.quarantine is not None:
            return _quarantined(row.id, row.quarantine)
        return ServiceError("no_game")

    async def _checked(self, chat: str, user: str, revision: int | None) -> _Game:
        game = await self._require(chat)
        if user != game.judge:
            raise ServiceError("not_judge", judge=game.judge)
        if revision is not None and revision != game.revision:
            raise ServiceError("stale", revision=revision, current=game.revision)
        return game

    async def _undo(self, chat: str, game: _Game, user: str, steps: int,
                    render: Render | None = None) -> Outcome:
        if game.count < steps:
            raise ServiceError("nothing_to_undo", steps=steps, available=game.count)
        if len(game.standing) < steps:  # deeper than every state kept
            await self._read_all(game)
            game.refold()
        undos = [rules.Undo() for _ in range(steps)]
        retold = None
        if len(game.standing) < steps:  # a correction taken back: the log before it, refolded
            actions = rules.standing(game.log)
            undone = tuple(event for _, event in reversed(actions[len(actions) - steps:]))
            _, told = rules.fold(game.config, game.log, game.names)
            state, now = rules.fold(game.config, [*game.log, *undos], game.names)
            retold = (tuple(told), tuple(now))
            keep, checkpoints = None, []
        else:
            keep = game.standing[:len(game.standing) - steps]
            kept = set(keep)
            checkpoints = [c for c in game.checkpoints if c.seq in kept]
            start = checkpoints[-1] if checkpoints else game.base
            state = start.state
            for seq in keep:
                if seq > start.seq:
                    state, _ = rules.apply(state, game.event(seq))
            undone = tuple(game.event(seq) for seq in reversed(game.standing[-steps:]))
        over = state.phase is rules.Phase.GAME_OVER
        finished = None if over == game.finished else over
        planned = Outcome(game_id=game.id, revision=game.revision + steps,
                          state=copy.deepcopy(state), notices=[], judge=game.judge, undone=undone,
                          retold=retold)
        count = game.count - steps
        due = game.stored is not None and count < game.stored  # the stored one is undone
        queued = await self._append(
            chat, game, undos, user, finished=finished, result=_result(state),
            staged=await _rendered(render, planned),
            snapshot=_snapshot(game.revision + steps, count, state) if due else None,
            figures=_figures(state, game.finished))
        game.logged(undos)
        if keep is None:
            game.refold()  # its base: the game's start, or the correction now standing last
        else:
            game.standing = keep
            game.checkpoints = checkpoints
        game.state = state
        game.finished = over
        if due:
            game.stored = count
        self._committed(chat, game)
        return replace(planned, outbox=tuple(queued), finished=over)  # its copy: no other

    async def _fix(self, chat: str, game: _Game, user: str, seq: int, replacement: rules.Event,
                   render: Render | None = None) -> Outcome:
        """A correction rewrites what came before it: the whole log is read, the game replayed
        over the :class:`rules.Fix`, and a snapshot stored at it (a cold load starts there)."""
        await self._read_all(game)
        replacement = _normalised(replacement)
        correction = rules.correct(game.config, game.log, seq, replacement, game.names)
        refusal = rules.admit(correction.state, replacement)  # a name corrected into another's
        if refusal is not None:
            raise refusal
        event = rules.Fix(seq=seq, event=replacement)
        state = correction.state
        over = state.phase is rules.Phase.GAME_OVER
        finished = None if over == game.finished else over
        if over and game.finished and _result(state) != _result(game.state):
            finished = True  # still over, with another result: recorded again
        planned = Outcome(game_id=game.id, revision=game.revision + 1, state=copy.deepcopy(state),
                          notices=[], judge=game.judge, correction=correction)
        count = game.count + 1  # the correction stands (an undo takes it back)
        queued = await self._append(chat, game, [event], user, finished=finished,
                                    result=_result(state), staged=await _rendered(render, planned),
                                    snapshot=_snapshot(game.revision + 1, count, state),
                                    figures=_figures(state, game.finished))
        game.logged([event])
        game.refold()  # its base: the correction
        game.state = state
        game.finished = over
        game.stored = count
        self._committed(chat, game)
        return replace(planned, outbox=tuple(queued), finished=over)  # its copy: no other

    async def _append(self, chat: str, game: _Game, events: list[rules.Event], user: str, *,
                      finished: bool | None, result: str | None,
                      staged: Staged = Staged(), snapshot: Callable[[str], Snapshot] | None = None,
                      figures: list[dict[str, Any]] | None = None) -> list[int]:
        """Log ``events`` (and the game's end, the ``staged`` messages and timer, the players'
        ``figures`` of a finished game, the snapshot ``snapshot(digest)`` gives with the digest
        of the log up to them) in one transaction. On any failure the cached game is dropped,
        so the next action refolds whatever the store really holds. Returns the outbox ids."""
        rows = [rules.to_dict(e) for e in events]
        digest = snapshots.log_digest(map(snapshots.event_text, rows), game.log_hash)
        try:
            queued = await self._store.append_many(
                game.id, game.revision + 1, rows, user,
                finished=finished, result=result if finished else None, outbox=staged.outbox,
                timer=staged.timer, figures=figures, also=staged.also,
                snapshot=None if snapshot is None else snapshot(digest.hexdigest()))
        except StaleRevision as error:
            self._games.pop(chat, None)
            log.warning("game %s: the log moved under the cache (%s)", game.id, error)
            raise ServiceError("stale", revision=game.revision, current=error.current) from error
        except BaseException:
            self._games.pop(chat, None)
            raise
        game.log_hash = digest
        self._freezer.acted()  # the new state (alive here) lives until the game's next action
        return queued


def _figures(state: rules.GameState, was_finished: bool) -> list[dict[str, Any]] | None:
    """The players' rows to store with an action (issue 17, :mod:`bot.club.facts`): the facts of
    a game over (replaced at every action after its end: the judge's extra points change them),
    none (deleted) when an undo took the end back, ``None`` (left alone) while it goes on."""
    if state.phase is rules.Phase.GAME_OVER:
        return [f.as_row() for f in seat_facts(state)]
    return [] if was_finished else None


#: What folding a stored game may raise when an older version stored what this one refuses: a
#: refused event, an event or option this version cannot read.
_UNFOLDABLE = (rules.RuleError, ValueError, TypeError, KeyError, AttributeError)


class LogEdited(ValueError):
    """Game ``game_id``'s stored log is not the one its snapshot folded: a row up to ``seq``
    was changed or taken out by hand (the log is append-only: the bot never does it). The game
    is set aside (:meth:`Service._quarantine`), its log kept as it is."""

    def __init__(self, game_id: int, seq: int) -> None:
        super().__init__(f"its log was changed outside the bot at or before row {seq}")
        self.game_id, self.seq = game_id, seq


def _refused(row: GameRow, events: Sequence[Mapping[str, Any]],
             error: Exception) -> tuple[int, Exception]:
    """Where game ``row``'s log (``events``: its rows' JSON, in order) stops folding: the log
    row (1 for the first; 0: its rules or names) and the refusal, replayed as :func:`rules.fold`
    does (a corrected action at its own row); ``error`` (what the load raised) if the walk finds
    none."""
    try:
        config = rules.config_from_dict(row.config)
        state = rules.new_game(config, row.names)
    except _UNFOLDABLE as refusal:
        return 0, refusal
    logged: list[rules.Event] = []
    for seq, data in enumerate(events, 1):
        try:
            logged.append(rules.from_dict(data))
        except _UNFOLDABLE as refusal:
            return seq, refusal
    for seq, event in counted(logged):
        try:
            state, _ = rules.apply(state, event)
        except _UNFOLDABLE as refusal:
            return seq, refusal
    return 0, error


def _quarantined(game_id: int, why: Mapping[str, Any]) -> ServiceError:
    """The ``quarantined`` error of a game set aside for ``why`` (as stored)."""
    cause: rules.RuleError | None = None
    if "code" in why:
        try:
            cause = rules.RuleError(rules.Code(why["code"]), **dict(why.get("params") or {}))
        except (ValueError, TypeError):
            cause = None  # a refusal this version has no words for: its text is shown
    return ServiceError("quarantined", game_id=game_id, seq=int(why.get("seq") or 0), cause=cause,
                        detail=str(why.get("detail", "")), edited=bool(why.get("edited")))


def _snapshot(seq: int, count: int, state: rules.GameState) -> Callable[[str], Snapshot]:
    """The snapshot to store of ``state``, the fold after log row ``seq``, given the digest of
    the log rows ``1..seq`` (:meth:`Service._append` has it)."""
    return lambda digest: Snapshot(seq, count, snapshots.version(), snapshots.payload(state, digest))


def _resume(game: _Game, snapshot: Snapshot, data: Any) -> bool:
    """Fold ``game`` (its log not decoded yet) from its stored ``snapshot`` (``data``: its JSON,
    decoded) and the log's tail after it. ``False`` (nothing changed) when the snapshot cannot
    be used: written by another version of the rules, unreadable, or taken back by an undo after
    it (the caller then folds the whole log)."""
    if (snapshot.version != snapshots.version() or snapshot.seq != game.unread
            or snapshot.seq > game.revision):
        return False
    try:
        state = snapshots.state_from_dict(game.config, snapshots.unpack(data)[0])
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        log.warning("game %s: its snapshot is unreadable, the log is folded (%s)", game.id, error)
        return False
    stack: list[int] = []
    for seq in range(snapshot.seq + 1, game.revision + 1):
        if isinstance(game.event(seq), rules.Fix):
            return False  # it rewrites what came before it: the whole log is folded
        if isinstance(game.event(seq), rules.Undo):
            if not stack:
                return False  # an undo reaches under the snapshot
            stack.pop()
        else:
            stack.append(seq)
    game.base = _Checkpoint(snapshot.seq, snapshot.standing, state)
    game.standing = stack
    for seq in stack:
        state, _ = rules.apply(state, game.event(seq))
    game.state = state
    game.stored = snapshot.standing
    return True


async def _rendered(render: Render | None, planned: Outcome) -> Staged:
    """What ``render`` gives for the planned outcome (nothing without a renderer)."""
    if render is None:
        return Staged()
    items = render(planned)
    if inspect.isawaitable(items):
        items = await items
    if isinstance(items, Staged):
        return Staged(tuple(items.outbox), items.timer, items.also)
    return Staged(tuple(items))  # type: ignore[arg-type]


def untouched(outcome: Outcome | None) -> bool:
    """Is ``outcome``'s game one just created — in setup, nothing logged, no seat named? A new
    game may replace it without asking (nothing of it would be lost: ``console --new`` then
    ``/new fiim2024``)."""
    return (outcome is not None and outcome.revision == 0
            and outcome.state.phase is rules.Phase.SETUP
            and all(seat.name is None for seat in outcome.state.seats))


def _checked_names(config: rules.RulesConfig, names: dict[int, str]) -> dict[int, str]:
    """The names as the rules accept them (:class:`rules.SetName`: seats 1–10, 1–64 characters,
    stripped, no two seats with one name: :func:`rules.admit`); a bad one raises
    :class:`rules.RuleError`."""
    state = rules.new_game(config)
    for seat, name in names.items():
        event = rules.SetName(seat=seat, name=name)
        refusal = rules.admit(state, event)
        if refusal is not None:
            raise refusal
        state, _ = rules.apply(state, event)
    return {s.number: s.name for s in state.seats if s.name is not None}


def _outcome(game: _Game, notices: list[rules.Notice], undone: tuple[rules.Event, ...] = ()) -> Outcome:
    return Outcome(game_id=game.id, revision=game.revision, state=copy.deepcopy(game.state),
                   notices=notices, judge=game.judge, undone=undone, finished=game.finished)

