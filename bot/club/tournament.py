"""A club's tournament evening (issue 17, part 4): ``/tournament`` and ``/table``, one
implementation for the console and Telegram.

A chief judge opens a tournament in the club (``/tournament open 4 Аня, Боря, …``): the seating
plan of its games (:mod:`.seating`) is printed per game and table and stored (0008). Each table is
run by a judge who takes it with ``/table N``; when he starts a game (``/new``) that game is his
table's next one of the plan, its seats named as the plan says (:meth:`TournamentDesk.seating`),
and its players' rows go to the tournament's club. ``/tournament`` shows every table on one view
(its judge, game n of m, the running game's phase and day); the chief judge takes a table over
with ``/table N`` (he becomes its judge; the platform moves its running game to him) and closes
the tournament with ``/tournament close``: the standings of its games with the tie-breaks of
F24/S24 §8.7.1 (:func:`.rating.standings`), which the platform posts to the club's channel with
the games' protocols. A refusal is a line; nothing changes.

A table may also be a group's hosted tables (host mode: the bot is the judge): the chief judge's
``/table N host`` in the group stores :func:`hosted_key` as the table's judge, and the group's next
``/newgame`` gathers the plan's game there (:meth:`bot.host.controller.HostController._plan_seat`
seats each player at the plan's name). While such a table's lobby gathers or its game plays it is
neither taken over nor is the tournament closed (:meth:`TournamentDesk._on`).

A table's game that will not be finished is set aside from the tournament, never silently: the
chief judge or the table's judge writes ``/table N aside`` (its place in the plan is free again,
the table's next ``/new`` starts that game of the plan anew; the game itself stays with its judge,
outside the tournament); a game still in its setup (never started) is set aside by itself when its
judge moves to another table or the tournament closes, each said in a line. The close counts the
games that count in the standings (:attr:`storage.Tournament.counted`) and names the others (a game
over with its roles unknown, a game stopped).
"""

from __future__ import annotations

import re
import time
import zlib
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Collection, Mapping

import rules
from rules import Phase
from rules.points import show
from storage import ClubError, Store, Tournament
from storage.evening import GOING

from ..commands import ClubCmd
from ..host.steps import distinct_name, seat_name
from ..i18n import Catalog
from .balance import REGULAR_GAMES, seating_balance
from .evening import TAKEN_HOURS, wall
from .rating import FirstNight, Standing, standings
from .seating import SEATS, Plan, SeatingError, plan
from .strength import START_RATING, table_means

#: The commands this module answers.
TOURNAMENT_COMMANDS = ("tournament", "table")
#: The most games of a tournament's series.
TOURNAMENT_GAMES = 20
OPEN_WORDS = ("open", "открыть")
CLOSE_WORDS = ("close", "закрыть")
SCHEME_WORDS = {"fiim": "fiim", "фиим": "fiim", "fiim2024": "fiim", "seed": "fiim",
                "fsm": "fsm", "фсм": "fsm", "fsm2024": "fsm"}
#: ``/table N host``: the group's hosted tables (host mode: the bot runs them) are table N
HOST_WORDS = ("host", "bot", "бот", "ведущий")
#: ``/table N aside``: the table's game that will not be finished leaves the tournament
ASIDE_WORDS = ("aside", "drop", "снять", "отложить")
#: a hosted table's "judge" in ``tournament_tables``: this prefix and its group's chat key
HOSTED = "host:"


def hosted_key(chat: str) -> str:
    """The ``tournament_tables.judge`` of the hosted tables of the group ``chat``."""
    return HOSTED + chat


def hosted_chat(judge: str | None) -> str | None:
    """The group whose hosted tables a table's ``judge`` is, or ``None`` (a judge's account)."""
    return judge.removeprefix(HOSTED) if judge and judge.startswith(HOSTED) else None


def needs_admin(command: ClubCmd) -> bool:
    """Whether ``command`` needs the chat's admin: opening a tournament, or giving a table to the
    group's hosted tables (the bot will run games in the group)."""
    words = [a.lower() for a in command.args]
    if command.what == "tournament":
        return bool(words) and words[0] in OPEN_WORDS
    return len(words) == 2 and words[1] in HOST_WORDS


#: the roster errors' parameters that carry names a user typed (``/rename``, ``/merge``, ``/stats``)
TYPED_NAMES = ("name", "source", "target")


class TournamentRefusal(Exception):
    """A tournament command refused in its words (``str(error)``: the line); nothing changes."""


def club_error_text(error: ClubError, cat: Catalog) -> str:
    """A roster change refused, in ``cat``'s words: the names the user typed repeated only as
    ``cat`` repeats a user's words (:meth:`bot.i18n.Catalog.said`: never in a group)."""
    return cat.text(f"club-error-{error.code}", **{
        k: cat.said(v) if k in TYPED_NAMES else str(v) for k, v in error.params.items()})


@dataclass(frozen=True)
class Seating:
    """A table's next game of a tournament: its number in the plan and the names by seat."""

    tournament: Tournament
    table: int
    game_no: int
    names: dict[int, str]

    @property
    def place(self) -> tuple[int, int]:
        """What :meth:`bot.service.Service.new_game` takes as ``tournament``."""
        return self.tournament.id, self.table


@dataclass
class DeskAnswer:
    """What a tournament command says (``lines``) and what the platform does next: ``closed``
    the tournament just closed (``posted``: its standings, to post to the club's channel with
    its games' protocols); ``taken`` the running game of a table whose judge changed (its id,
    to move it to the new judge); ``aside`` the games just set aside from the tournament with
    the line that says so (to tell each game's own chat, where its judge records it)."""

    lines: list[str]
    closed: Tournament | None = None
    taken: int | None = None
    posted: list[str] = field(default_factory=list)
    aside: dict[int, str] = field(default_factory=dict)


def split_names(text: str) -> list[str]:
    """The names of a comma (or ``;``, a new line) separated list, their spaces collapsed and
    what a seat's name loses taken out (:func:`rules.clean_text`: zero-width characters…)."""
    return [name for name in (" ".join(rules.clean_text(n).split()) for n in re.split(r"[,;\n]", text))
            if name]


def unseatable(names: list[str]) -> str | None:
    """The first name of ``names`` no seat takes (:func:`rules.clean_name`: over
    :data:`rules.MAX_NAME` characters, or nothing visible), else ``None`` — a plan with it
    would have its table's ``/new`` refused."""
    return next((name for name in names if not isinstance(rules.clean_name(name), str)), None)


def repeated(names: list[str]) -> str | None:
    """The first name of ``names`` that is another one's player (:func:`rules.name_key` of its
    seat's name: case, ё and fullwidth letters aside), else ``None``: one player, one seat."""
    keys: set[str] = set()
    for name in names:
        key = rules.name_key(rules.clean_text(name))
        if key in keys:
            return name
        keys.add(key)
    return None


async def roster_names(store: Store, club: str, names: list[str]) -> list[str]:
    """The names as the club's roster writes them, where it has them."""
    shown = []
    for name in names:
        found = await store.find_player(club, name)
        shown.append(found.name if found is not None else name)
    return shown


def make_plan(names: list[str], games: int, strength: Mapping[str, float] | None = None,
              regulars: Collection[str] = ()) -> Plan:
    """The seating plan of ``games`` games for ``names``, seeded by the names (the same list
    gives the same plan); balanced by ``strength`` and ``regulars`` when given
    (:func:`.seating.plan`). Raises :class:`.seating.SeatingError`."""
    return plan(names, games, seed=zlib.crc32("\n".join(names).encode()), strength=strength,
                regulars=regulars)


def plan_lines(rounds: tuple[tuple[tuple[str, ...], ...], ...], resting: tuple[tuple[str, ...], ...],
               cat: Catalog, strength: Mapping[str, float] | None = None) -> list[str]:
    """A plan printed per game and table (seat by seat), and who rests in each game; with
    ``strength``, each table's mean strength (public: the club's rating)."""
    lines = []
    for number, (tables, rest) in enumerate(zip(rounds, resting), 1):
        means = table_means(tables, strength) if strength is not None else [None] * len(tables)
        for table_no, (table, mean) in enumerate(zip(tables, means), 1):
            seats = ", ".join(f"{seat}. {cat.name(str(p))}" for seat, p in enumerate(table, 1))
            lines.append(cat.text("club-seating-table", game=number, table=table_no, seats=seats)
                         if mean is None else
                         cat.text("club-seating-table-strength", game=number, table=table_no,
                                  seats=seats, strength=str(round(mean))))
        if rest:
            lines.append(cat.text("club-seating-resting", game=number,
                                  names=", ".join(cat.name(str(p)) for p in rest)))
    return lines


def standing_lines(table: list[Standing], scheme: str, cat: Catalog) -> list[str]:
    """The standings' lines (as ``/rating`` prints them) and what the compensation is."""
    return [*(cat.text("club-rating-line", place=s.place, name=cat.name(s.name), total=show(s.total),
                       additional=show(s.additional), wins=s.wins, special=s.key_wins,
                       first=s.first_killed, games=s.games) for s in table),
            cat.text("club-rating-compensation" if scheme == "fsm" else "club-rating-no-compensation")]


class TournamentDesk:
    """The tournament commands of a club. ``state_of(game_id)``: the game's current state while
    it runs (``None`` once it is over or set aside); ``who(account)``: an account as the platform
    shows it; ``where(chat)``: a group's title, if known (a hosted table's); ``hosting``: the
    platform runs hosted tables (``/table N host``; the console does not); ``tz``: the club's
    time zone (its strength rating's evenings, :mod:`.balance`)."""

    def __init__(self, store: Store, *,
                 state_of: Callable[[int], Awaitable[rules.GameState | None]] | None = None,
                 who: Callable[[str], str] = str,
                 where: Callable[[str], str | None] = lambda chat: None,
                 hosting: bool = False, clock: Callable[[], float] = time.time,
                 tz: str = "UTC") -> None:
        self.store = store
        self.clock = clock
        self.tz = tz
        self.state_of = state_of
        self.who = who
        self.where = where
        self.hosting = hosting

    def _judge(self, judge: str, cat: Catalog) -> str:
        """A table's judge as the club reads it: an account's name, or the bot in a group."""
        group = hosted_chat(judge)
        if group is None:
            return self.who(judge)
        return cat.text("tournament-hosted-judge", group=self.where(group) or group)

    async def answer(self, club: str, user: str, command: ClubCmd, cat: Catalog, *,
                     may_open: bool = True, busy: bool = False,
                     platform: str = "tg") -> DeskAnswer:
        """``/tournament [open N [fiim|fsm] names | close]`` or ``/table N`` by ``user`` in
        ``club``; ``may_open``: whether he may open a tournament there (a chat's admin);
        ``busy``: a game of his own runs where a table's running game would move to;
        ``may_open`` also gives a table to the chat's hosted tables (``/table N host``);
        ``platform`` (``"tg"`` | ``"dc"``) words the refusal for an admin's right."""
        try:
            if command.what == "table":
                if len(command.args) == 2 and command.args[1].lower() in HOST_WORDS:
                    return await self._host_table(club, user, command.args[0], cat, may_open)
                if len(command.args) == 2 and command.args[1].lower() in ASIDE_WORDS:
                    return await self._aside(club, user, command.args[0], cat)
                return await self._table(club, user, command, cat, busy)
            word = command.args[0].lower() if command.args else ""
            if word in OPEN_WORDS:
                if not may_open:
                    return DeskAnswer([cat.text("tournament-admins-only", platform=platform)])
                return await self._open(club, user, command, cat)
            if word in CLOSE_WORDS:
                return await self._close(club, user, cat)
            if command.args:
                return DeskAnswer([cat.text("tournament-usage", most=TOURNAMENT_GAMES)])
            return await self._view(club, cat)
        except ClubError as error:
            return DeskAnswer([club_error_text(error, cat)])
        except TournamentRefusal as refusal:
            return DeskAnswer([str(refusal)])

    async def _open(self, club: str, user: str, command: ClubCmd, cat: Catalog) -> DeskAnswer:
        if await self.store.tournament(club) is not None:
            return DeskAnswer([cat.text("club-error-tournament_open")])
        words = command.rest.split(None, 3)  # open, the games, [the scheme,] the names
        head = words[1] if len(words) > 1 else ""
        scheme, rest = "fiim", " ".join(words[2:])
        if len(words) > 2 and words[2].lower() in SCHEME_WORDS:
            scheme, rest = SCHEME_WORDS[words[2].lower()], " ".join(words[3:])
        if not head.isdecimal() or not 1 <= int(head) <= TOURNAMENT_GAMES:
            return DeskAnswer([cat.text("tournament-usage", most=TOURNAMENT_GAMES)])
        typed = split_names(rest)
        taken: list[str] = []
        if not typed:  # no names: the players of the club's evening (its sign-up, issue 33)
            typed, taken = await self._evening_names(club, cat)
        names = await roster_names(self.store, club, typed)
        if (bad := unseatable(names)) is not None:
            return DeskAnswer([cat.text("club-seating-bad-name", name=cat.said(bad), most=rules.MAX_NAME)])
        twice = repeated(names)  # one player, one seat (rules.admit): «Вася» and «вася» are one
        if twice is not None:
            return DeskAnswer([cat.text("club-seating-repeated", name=cat.said(twice))])
        balance: tuple[dict[str, float], set[str]] | None = \
            await seating_balance(self.store, club, names, self.tz)
        if not balance[1] and all(rated == START_RATING for rated in balance[0].values()):
            balance = None  # nobody rated yet: nothing to even (the plain plan, as before)
        try:  # balanced by the club's strength rating, as /seating's (issue 33)
            made = make_plan(names, int(head), *(balance or ()))
        except SeatingError:
            return DeskAnswer([cat.text("club-seating-players", count=len(set(names)), seats=SEATS)])
        rounds = tuple(tuple(tuple(str(p) for p in t) for t in r) for r in made.rounds)
        resting = tuple(tuple(str(p) for p in r) for r in made.resting)
        opened = await self.store.open_tournament(club, user, scheme, rounds, resting)
        return DeskAnswer([*taken,
                           cat.text("tournament-opened", number=opened.id, games=opened.games,
                                    tables=opened.tables, players=len(names),
                                    chief=self.who(user)),
                           *([cat.text("club-seating-balanced", regular=REGULAR_GAMES)]
                             if balance else []),
                           *plan_lines(rounds, resting, cat, balance[0] if balance else None),
                           cat.text("tournament-how", tables=opened.tables)])

    async def _evening_names(self, club: str, cat: Catalog) -> tuple[list[str], list[str]]:
        """The players of the club's evening — its sign-up's list (:mod:`.evening`), of tonight's
        evening (:meth:`storage.evening.EveningMethods.latest_evening`: started no earlier than
        :data:`.evening.TAKEN_HOURS` ago, not next week's sign-up) — and the line that says
        so; :class:`TournamentRefusal` when there is none, or its list is empty."""
        now = self.clock()
        found = await self.store.latest_evening(club, now - TAKEN_HOURS * 3600, now)
        players: list[str] = []
        for signed in await self.store.evening_players(found.id) if found is not None else []:
            if signed.list == GOING:  # a seat's name, as a hosted table gives it: cut to its
                # length, a second «Аня» (another account) is «Аня (2)» — one player, one seat
                players.append(distinct_name(seat_name(signed.name, fallback=signed.account), players))
        if not players:
            raise TournamentRefusal(cat.text("evening-list-empty"))
        assert found is not None
        date, time_ = wall(found.starts_at, found.zone)
        return players, [cat.text("evening-from-list", date=date, time=time_)]

    async def _table(self, club: str, user: str, command: ClubCmd, cat: Catalog,
                     busy: bool) -> DeskAnswer:
        found = await self.store.tournament(club)
        if found is None:
            return DeskAnswer([cat.text("tournament-none")])
        if len(command.args) != 1 or not command.args[0].isdecimal() \
                or not 1 <= int(command.args[0]) <= found.tables:
            return DeskAnswer([cat.text("tournament-bad-table", tables=found.tables)])
        table = int(command.args[0])
        judge = found.judges.get(table)
        if judge == user:
            return DeskAnswer([cat.text("tournament-table-yours", table=table)])
        if judge is not None and user != found.chief:
            return DeskAnswer([cat.text("tournament-table-busy", table=table,
                                        judge=self._judge(judge, cat))])
        group = hosted_chat(judge)
        if group is not None and await self._on(found, table):  # the bot's game or lobby
            return DeskAnswer([cat.text("tournament-hosted-running", table=table,
                                        group=self.where(group) or group)])
        held = found.table_of(user)
        running = self._running(found, held) if held is not None else None
        unstarted = running is not None and await self._unstarted(running)
        if running is not None and not unstarted:  # his table's game would be left without its judge
            return DeskAnswer([cat.text("tournament-finish-first", table=held)])
        if judge is not None and busy and self._running(found, table) is not None:
            return DeskAnswer([cat.text("tournament-own-game", table=table)])  # nowhere to move it
        aside: dict[int, str] = {}
        if running is not None and held is not None:  # never started: it gives its place back
            aside[running] = await self._set_aside(found, held, running, False, cat)
        await self.store.seat_judge(found.id, table, user)
        number = found.done(table) + 1
        lines = [*aside.values(),
                 cat.text("tournament-table-taken" if judge is not None else "tournament-table-set",
                          table=table, judge=self.who(user),
                          game=min(number, found.games), games=found.games,
                          left=max(0, found.games - found.done(table)))]
        return DeskAnswer(lines, taken=self._running(found, table) if judge is not None else None,
                          aside=aside)

    async def _aside(self, club: str, user: str, number: str, cat: Catalog) -> DeskAnswer:
        """``/table N aside``: table N's game that will not be finished (started or not) leaves
        the tournament (:meth:`_set_aside`). The chief judge or the table's judge; a hosted
        table's game or lobby is stopped in its group (``/stop``) instead."""
        found = await self.store.tournament(club)
        if found is None:
            return DeskAnswer([cat.text("tournament-none")])
        if not number.isdecimal() or not 1 <= int(number) <= found.tables:
            return DeskAnswer([cat.text("tournament-bad-table", tables=found.tables)])
        table = int(number)
        judge = found.judges.get(table)
        if user not in (found.chief, judge):
            return DeskAnswer([cat.text("tournament-aside-who", table=table,
                                        chief=self.who(found.chief))])
        group = hosted_chat(judge)
        if group is not None:
            return DeskAnswer([cat.text("tournament-aside-hosted", table=table,
                                        group=self.where(group) or group)])
        game = self._running(found, table)
        if game is None:
            return DeskAnswer([cat.text("tournament-aside-nothing", table=table)])
        line = await self._set_aside(found, table, game, not await self._unstarted(game), cat)
        return DeskAnswer([line], aside={game: line})

    async def _set_aside(self, found: Tournament, table: int, game: int, started: bool,
                         cat: Catalog, *, closing: bool = False) -> str:
        """The table's ``game`` leaves the tournament: its place in the plan is free again (the
        table's next game started takes it); the game itself is left alone. The line saying so."""
        number = next(n for (t, n), g in found.played.items() if g == game)
        await self.store.drop_tournament_game(found.id, game)
        return cat.text("tournament-set-aside", table=table, id=game, game=number,
                        games=found.games, started="yes" if started else "no",
                        closing="yes" if closing else "no")

    async def _unstarted(self, game: int) -> bool:
        """The game is known to be in its setup (never started: no /start yet)."""
        state = await self.state_of(game) if self.state_of is not None else None
        return state is not None and state.phase is Phase.SETUP

    async def _host_table(self, club: str, user: str, number: str, cat: Catalog,
                          may_open: bool) -> DeskAnswer:
        """``/table N host`` in a group: its hosted tables (host mode) are table N of the
        tournament of this club, or else of the one ``user`` is the chief judge of. The chief
        judge only (a chat admin of the group: the bot will run games there), and not while
        the table, or the group's own table, has a game running."""
        if not self.hosting:
            return DeskAnswer([cat.text("tournament-host-unavailable")])
        found = await self.store.tournament(club) or await self.store.chief_tournament(user)
        if found is None:
            return DeskAnswer([cat.text("tournament-none")])
        if not number.isdecimal() or not 1 <= int(number) <= found.tables:
            return DeskAnswer([cat.text("tournament-bad-table", tables=found.tables)])
        table = int(number)
        if user != found.chief:
            return DeskAnswer([cat.text("tournament-host-chief-only", chief=self.who(found.chief))])
        if not may_open:
            return DeskAnswer([cat.text("tournament-host-admins-only")])
        key = hosted_key(club)
        if found.judges.get(table) == key:
            return DeskAnswer([cat.text("tournament-host-already", table=table)])
        for busy in (table, found.table_of(key)):
            if busy is not None and await self._on(found, busy):
                return DeskAnswer([cat.text("tournament-host-busy", table=busy)])
        await self.store.seat_judge(found.id, table, key)
        return DeskAnswer([cat.text("tournament-host-set", table=table, number=found.id,
                                    game=min(found.done(table) + 1, found.games), games=found.games,
                                    left=max(0, found.games - found.done(table)))])

    async def _on(self, found: Tournament, table: int) -> bool:
        """A game of ``table`` is on: its game runs, or its hosted group gathers the players of
        its next game (a lobby of this table: host mode, ``TableFlags.tournament``)."""
        if self._running(found, table) is not None:
            return True
        group = hosted_chat(found.judges.get(table))
        lobby = await self.store.host_table_of(group, "lobby") if group is not None else None
        place = (lobby.data or {}).get("tournament") if lobby is not None else None
        return bool(place) and (place["id"], place["table"]) == (found.id, table)

    @staticmethod
    def _running(found: Tournament, table: int) -> int | None:
        """The table's game started and neither over nor set aside, if any."""
        return next((g for (t, _), g in sorted(found.played.items())
                     if t == table and g in found.running), None)

    async def _view(self, club: str, cat: Catalog) -> DeskAnswer:
        found = await self.store.tournament(club)
        if found is None:
            return DeskAnswer([cat.text("tournament-none")])
        lines = [cat.text("tournament-title", number=found.id, games=found.games,
                          tables=found.tables, chief=self.who(found.chief))]
        for table in range(1, found.tables + 1):
            judge = found.judges.get(table)
            done = found.done(table)
            running = self._running(found, table)
            state = await self.state_of(running) if running is not None and self.state_of else None
            if state is not None:
                number = next(n for (t, n), g in found.played.items() if g == running)
                now = cat.text("tournament-now-playing", game=number, games=found.games,
                               phase=state.phase.value,
                               day=state.day if state.phase is not Phase.SETUP else 0)
            elif done >= found.games:
                now = cat.text("tournament-now-done", games=found.games)
            else:
                now = cat.text("tournament-now-waiting", game=done + 1, games=found.games)
            last = max(((n, g) for (t, n), g in found.played.items()
                        if t == table and g in found.finished), default=None)
            result = await self._result(last[1], cat) if last is not None else ""
            if result and last is not None and last[1] not in found.counted:
                result = cat.text("tournament-result-not-counted", result=result)
            lines.append(cat.text("tournament-table-line", table=table,
                                  judge=self._judge(judge, cat) if judge else "none", now=now,
                                  done=done, result=result or "none",
                                  last=last[0] if last else 0))
        return DeskAnswer(lines)

    async def _result(self, game_id: int, cat: Catalog) -> str:
        row = await self.store.game(game_id)
        return cat.text(f"club-result-{row.result}") if row is not None and row.result in (
            "red", "black", "draw") else ""

    async def _close(self, club: str, user: str, cat: Catalog) -> DeskAnswer:
        found = await self.store.tournament(club)
        if found is None:
            return DeskAnswer([cat.text("tournament-none")])
        if user != found.chief:
            return DeskAnswer([cat.text("tournament-chief-only", chief=self.who(found.chief))])
        hosted: list[tuple[int, str]] = []  # (table, its group): a lobby gathers or a game plays
        running: list[tuple[int, int]] = []  # (table, its game): started
        unstarted: list[tuple[int, int]] = []  # in its setup: set aside by the close
        for table in range(1, found.tables + 1):
            game, group = self._running(found, table), hosted_chat(found.judges.get(table))
            if group is not None:
                if await self._on(found, table):
                    hosted.append((table, group))
            elif game is not None:
                (unstarted if await self._unstarted(game) else running).append((table, game))
        if hosted or running:
            busy = sorted(t for t, _ in [*hosted, *running])
            return DeskAnswer([
                cat.text("tournament-still-running", count=len(busy), tables=", ".join(map(str, busy))),
                *(cat.text("tournament-still-running-aside", table=t) for t, _ in running),
                *(cat.text("tournament-still-running-hosted", table=t, group=self.where(g) or g)
                  for t, g in hosted)])
        aside = {game: await self._set_aside(found, table, game, False, cat, closing=True)
                 for table, game in unstarted}
        found = await self.store.tournament(club) or found  # without the games set aside
        await self.store.close_tournament(found.id)
        posted = await self.standings(found, cat)
        return DeskAnswer([*aside.values(), *posted], closed=found, posted=posted, aside=aside)

    async def standings(self, found: Tournament, cat: Catalog) -> list[str]:
        """The tournament's standings over its finished games (F24/S24 §8.7.1; the FSM
        compensation, S24 §8.6, when its scheme is ``fsm``)."""
        totals = await self.store.tournament_totals(found.id)
        deaths = {player: [FirstNight(at, role in ("civilian", "sheriff"), bool(won), best)
                           for at, role, won, best in rows]
                  for player, rows in (await self.store.tournament_first_nights(found.id)).items()}
        table = standings(totals, deaths, found.scheme, f"tournament {found.id}")
        title = cat.text("tournament-standings", number=found.id, scheme=found.scheme,
                         games=len(found.counted))
        uncounted = [cat.text("tournament-not-counted", id=g, table=t, game=n,
                              why="no-roles" if g in found.finished else "stopped")
                     for (t, n), g in sorted(found.played.items(), key=lambda kv: kv[0][::-1])
                     if g not in found.counted and g not in found.running]
        if not table:
            return [title, cat.text("tournament-no-games"), *uncounted]
        return [title, *standing_lines(table, found.scheme, cat), *uncounted]

    # --- a table's next game ----------------------------------------------------------------------
    async def seating(self, judge: str) -> Seating | None:
        """The seating of the next game of the table ``judge`` runs (an account; a group's
        hosted tables: :func:`hosted_key`), or ``None`` (no table, or its games all played)."""
        held = await self.store.judge_table(judge)
        if held is None:
            return None
        found, table = held
        number = found.done(table) + 1
        if number > found.games:
            return None
        return Seating(found, table, number,
                       {seat: name for seat, name in enumerate(found.rounds[number - 1][table - 1], 1)})

    async def started(self, seating: Seating, game_id: int, cat: Catalog) -> list[str]:
        """The line that says the game just created with ``seating`` (its tournament's row
        written in its creation's transaction: ``Service.new_game(tournament=…)``) is the
        table's next one, the seats by name; nothing if it was not recorded as such."""
        found = await self.store.tournament(seating.tournament.club)
        if found is None or found.id != seating.tournament.id \
                or found.played.get((seating.table, seating.game_no)) != game_id:
            return []
        return [cat.text("tournament-game-started", table=seating.table, game=seating.game_no,
                         games=seating.tournament.games,
                         seats=", ".join(f"{s}. {cat.name(n)}" for s, n in sorted(seating.names.items())))]
