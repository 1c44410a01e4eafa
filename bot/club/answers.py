"""The club's commands in words (issue 17): ``/games``, ``/stats``, ``/top``, ``/roster``,
``/rename``, ``/merge``, ``/forget``, one implementation for the console, Telegram and Discord.

Every figure comes from the store's rows of finished games (:meth:`storage.Store.club_totals`,
one indexed aggregate): nothing here reads a game's log. Points are shown as the protocol shows
them (``rules.points.show``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable
from zoneinfo import ZoneInfo

import rules

from rules.points import show
from storage import ROLES, ClubError, Store, Totals
from storage.club import SEAT_SLOT

from ..commands import ClubCmd
from ..i18n import Catalog
from ..lru import Recent, locks
from .card import render_card, render_top
from .periods import ALL, BadPeriod, Period, parse_period
from .rating import FirstNight, standings
from .seating import SEATS, SeatingError
from .balance import REGULAR_GAMES, club_strength, seating_balance
from .strength import Strength, evening as club_evening
from .tournament import (
    club_error_text, make_plan, plan_lines, repeated, roster_names, split_names, unseatable,
)

#: ``/top`` lists at most this many players.
TOP_SIZE = 10
#: ``/top``: the fewest games a player needs to be ranked, unless ``min=N`` says otherwise.
MIN_GAMES = 3
#: ``/name``: how many of the roster's names beginning so are offered.
ROSTER_OFFERED = 5
#: ``/seating``: the most games of a series.
SEATING_GAMES = 20
#: ``/evening`` covers the games finished in the last this many hours.
EVENING_HOURS = 12
#: ``/rating`` lists at most this many players.
RATING_SIZE = 30
SCHEME_WORDS = {"fiim": "fiim", "фиим": "fiim", "fiim2024": "fiim", "seed": "fiim",
                "fsm": "fsm", "фсм": "fsm", "fsm2024": "fsm"}
#: ``/games``: how many games unless a number is given, and the most it lists.
GAMES_SHOWN, GAMES_MAX = 10, 50

ORDER_WORDS = {"points": "points", "баллы": "points", "очки": "points", "wins": "wins",
               "победы": "wins", "winrate": "winrate", "rate": "winrate", "процент": "winrate",
               "elo": "elo", "эло": "elo", "strength": "elo", "сила": "elo", "glicko": "elo",
               "глико": "elo"}
ROLE_WORDS = {"civilian": "civilian", "мирный": "civilian", "мирные": "civilian",
              "sheriff": "sheriff", "шериф": "sheriff", "mafia": "mafia", "мафия": "mafia",
              "don": "don", "дон": "don"}
_MIN = re.compile(r"^(?:min|мин)=(\d{1,4})$")
_PAIR = re.compile(r"\s*(?:=|->|→)\s*")


@dataclass(frozen=True)
class Asker:
    """Who asks and what he may do: ``user`` (``"tg:42"``), ``official``: a chat admin or the
    judge, who may change the roster."""

    user: str
    official: bool = False


def points_text(hundredths: int) -> str:
    return show(Decimal(hundredths) / 100)


def _rate(wins: int, games: int) -> str:
    return f"{round(100 * wins / games)}%" if games else "—"


def strength_text(s: Strength) -> tuple[str, str]:
    """A strength as shown: the rating and its deviation, whole points."""
    return str(round(s.rating)), str(round(s.rd))


def ranked(totals: dict[int, Totals], order: str, min_games: int) -> list[Totals]:
    """The players with at least ``min_games``, best first by ``order`` (:data:`TOP_ORDERS`);
    ties go to the more points, wins, games, then the name."""
    rows = [t for t in totals.values() if t.games >= min_games]
    keys = {"points": lambda t: (t.points, t.wins, t.games),
            "wins": lambda t: (t.wins, t.points, t.games),
            "winrate": lambda t: (t.wins / t.games, t.games, t.points)}[order]
    return sorted(rows, key=lambda t: (*(-k for k in keys(t)), t.name.casefold(), t.player_id))


async def roster_name(store: Store, club: str, event: Any, cat: Catalog) -> tuple[Any, list[str]]:
    """``/name 3 вася`` against the club's roster (issue 17): a name the roster has (case-folded)
    is taken as the roster writes it; a new one stays as typed (the roster remembers it when the
    game ends) and the roster's names that begin so are offered. Returns the event to record
    and the lines to show. Any other event passes unchanged."""
    if not isinstance(event, rules.SetName):
        return event, []
    found = await store.find_player(club, event.name)
    if found is not None:
        return dataclasses.replace(event, name=found.name), []
    offered = [p.name for p in await store.roster(club, event.name)][:ROSTER_OFFERED]
    if not offered:
        return event, []
    return event, [cat.text("club-name-offered", seat=event.seat,
                            names=", ".join(cat.name(n) for n in offered))]


def mapped_accounts(home: str, messages: dict[tuple[str, str], int]) -> dict[int, str]:
    """The accounts a judge mapped to seats (Discord's ``/seat 5 @member``: the slot
    ``seat:<n>`` of the game's stored messages in its home), by seat, as the roster keeps them
    (``"dc:7"``; :func:`storage.club.judges_seats` reads them so at the game's end)."""
    prefix = home.partition(":")[0]
    return {int(slot[len(SEAT_SLOT):]): f"{prefix}:{member}" for (chat, slot), member in messages.items()
            if chat == home and slot.startswith(SEAT_SLOT) and slot[len(SEAT_SLOT):].isdecimal()}


async def same_player(store: Store, club: str, seat: int, names: dict[int, str],
                      accounts: dict[int, str]) -> int | None:
    """The other seat whose roster entry is ``seat``'s as the game's end will find them
    (:func:`storage.club.figures_sync`: a seat's mapped account's entry, else its name's), or
    ``None``: one player, one seat — a member mapped to seat 2 whose entry is «Аня» while seat 1
    is named «Аня» would count one person twice."""
    async def entry(number: int) -> int | None:
        for who in (accounts.get(number), names.get(number)):
            found = await store.find_player(club, who) if who else None
            if found is not None:
                return found.id
        return None

    mine = await entry(seat)
    if mine is None:
        return None
    for other in sorted((set(names) | set(accounts)) - {seat}):
        if await entry(other) == mine:
            return other
    return None


class ClubAnswers:
    """The answers of one club (``club``: its chat key, where its games' rows are kept)."""

    def __init__(self, store: Store, *, tz: str = "UTC",
                 link: Callable[[str, int], str | None] | None = None) -> None:
        self.store = store
        self.tz = tz
        self.link = link  # a chat's message as a link (the platform's), for /games' protocols

    def period_name(self, period: Period, cat: Catalog) -> str:
        return cat.text(f"club-period-{period.kind}", label=period.label)

    def _date(self, at: float) -> str:
        return dt.datetime.fromtimestamp(at, ZoneInfo(self.tz)).strftime("%Y-%m-%d")

    async def answer(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        """The lines answering ``command`` in ``club``; a refusal is a line too (nothing changed)."""
        try:
            handler = getattr(self, f"_{command.what}")
            return await handler(club, asker, command, cat, now)
        except ClubError as error:
            return [club_error_text(error, cat)]

    # --- history and statistics ------------------------------------------------------------------
    async def _games(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        count = GAMES_SHOWN
        if command.args:
            if len(command.args) > 1 or not command.args[0].isdecimal() \
                    or not 1 <= int(command.args[0]) <= GAMES_MAX:
                return [cat.text("club-bad-count", most=GAMES_MAX)]
            count = int(command.args[0])
        games = await self.store.club_games(club, count)
        if not games:
            return [cat.text("club-no-games")]
        lines = [cat.text("club-games-title", count=len(games))]
        for game in games:
            best = max(game.points.items(), key=lambda kv: (kv[1], -kv[0]), default=None)
            links = (self.link(chat, message) for chat, message in sorted(game.protocols.items())
                     ) if self.link is not None else iter(())
            lines.append(cat.text(
                "club-games-line", game=game.id, date=self._date(game.finished_at),
                result=cat.text(f"club-result-{game.result}"),
                best=cat.name(game.names[best[0]]) if best else "—",
                points=points_text(best[1]) if best else "—",
                link=next((url for url in links if url), None) or "none"))
        return lines

    def _split(self, args: tuple[str, ...], now: float) -> tuple[list[str], Period, str | None,
                                                               str | None, int | None]:
        """The words of ``/stats`` or ``/top``: the rest (a name), the period, the order, the
        role and the minimum of games."""
        rest: list[str] = []
        period, order, role, least = ALL, None, None, None
        for word in args:
            low = word.lower()
            try:
                found = parse_period(word, now, self.tz)
            except BadPeriod as bad:  # 2026-13 or reversed dates: never a part of a name
                raise ClubError("bad_period", period=bad.word, why=bad.why) from None
            if found is not None:
                period = found
            elif low in ORDER_WORDS:
                order = ORDER_WORDS[low]
            elif low in ROLE_WORDS:
                role = ROLE_WORDS[low]
            elif m := _MIN.match(low):
                least = int(m[1])
            else:
                rest.append(word)
        return rest, period, order, role, least

    async def stats_card(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog,
                         now: float) -> tuple[list[str], tuple[str, bytes] | None, str]:
        """``/stats`` with the player's card (:mod:`.card`): the lines, the picture (its file
        name and PNG bytes; ``None`` when there is nothing to draw) and its caption (the title
        and the points, the key figure)."""
        lines, found = await self._stats_found(club, asker, command, cat, now)
        if found is None:
            return lines, None, ""
        player, period = found
        games = await self.store.player_points(club, player, period.since, period.until)
        png = await asyncio.to_thread(render_card, lines, games, cat, self.tz)
        return lines, (f"stats-{player}.png", png), "\n".join(lines[:1] + lines[2:3])

    async def _stats(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        return (await self._stats_found(club, asker, command, cat, now))[0]

    async def _stats_found(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog,
                           now: float) -> tuple[list[str], tuple[int, Period] | None]:
        """``/stats``' lines, and the player and the period when there are games to show."""
        try:
            return await self._stats_lines(club, asker, command, cat, now)
        except ClubError as error:
            return [club_error_text(error, cat)], None

    async def _stats_lines(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog,
                           now: float) -> tuple[list[str], tuple[int, Period] | None]:
        rest, period, _, _, _ = self._split(command.args, now)
        who = " ".join(rest).lstrip("@") if rest else asker.user
        player = await self.store.find_player(club, who)
        if player is None:
            return [cat.text("club-no-player", name=cat.said(who)) if rest
                    else cat.text("club-stats-whom")], None
        totals = (await self.store.club_totals(club, period.since, period.until,
                                               player=player.id)).get(player.id)
        where = self.period_name(period, cat)
        if totals is None or not totals.games:
            return [cat.text("club-stats-none", name=cat.name(player.name), period=where)], None
        lines = [cat.text("club-stats-title", name=cat.name(player.name), period=where),
                 cat.text("club-stats-games", games=totals.games, wins=totals.wins,
                          rate=_rate(totals.wins, totals.games)),
                 cat.text("club-stats-points", points=points_text(totals.points),
                          additional=points_text(totals.additional))]
        strength = (await club_strength(self.store, club, self.tz, period.until)).get(player.id)
        if strength is not None:
            rating, rd = strength_text(strength)
            lines.append(cat.text("club-stats-strength", rating=rating, rd=rd, games=strength.games))
        for role in ROLES:
            games, wins = totals.by_role.get(role, (0, 0))
            if games:
                lines.append(cat.text("club-stats-role", role=cat.text(f"club-role-{role}"),
                                      games=games, wins=wins, rate=_rate(wins, games)))
        lines.append(cat.text("club-stats-best-move", count=totals.best_moves,
                              hits=totals.best_move_hits))
        lines.append(cat.text("club-stats-penalties", first=totals.first_killed,
                              fouls=totals.fouls, removed=totals.removed))
        return lines, (player.id, period)

    async def _top(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        return (await self._top_rows(club, command, cat, now))[0]

    async def _top_rows(self, club: str, command: ClubCmd, cat: Catalog,
                        now: float) -> tuple[list[str], list[Totals]]:
        """``/top``'s lines and its players, best first."""
        rest, period, order, role, least = self._split(command.args, now)
        if rest:
            return [cat.text("club-top-unknown", word=cat.said(rest[0]))], []
        order = order or "points"
        least = MIN_GAMES if least is None else least
        if order == "elo" and role is not None:  # a team's result rates the whole team
            return [cat.text("club-top-elo-role")], []
        totals = await self.store.club_totals(club, period.since, period.until, role=role)
        title = cat.text("club-top-title", order=cat.text(f"club-order-{order}"),
                         period=self.period_name(period, cat),
                         role=cat.text(f"club-role-{role}") if role else "none", least=least)
        if order == "elo":
            return await self._top_strength(club, period, totals, least, title, cat)
        rows = ranked(totals, order, least)[:TOP_SIZE]
        if not rows:
            return [title, cat.text("club-top-empty", least=least)], []
        return [title, *self._top_lines(rows, cat)], rows

    async def _top_strength(self, club: str, period: Period, totals: dict[int, Totals], least: int,
                            title: str, cat: Catalog) -> tuple[list[str], list[Totals]]:
        """``/top elo``: the period's players with at least ``least`` games in it, by their
        strength at the period's end (:func:`club_strength`), strongest first."""
        strengths = await club_strength(self.store, club, self.tz, period.until)
        rows = sorted((t for t in totals.values() if t.games >= least and t.player_id in strengths),
                      key=lambda t: (-strengths[t.player_id].rating, t.name.casefold(), t.player_id)
                      )[:TOP_SIZE]
        if not rows:
            return [title, cat.text("club-top-empty", least=least)], []
        lines = [title]
        for place, t in enumerate(rows, 1):
            rating, rd = strength_text(strengths[t.player_id])
            lines.append(cat.text("club-top-elo-line", place=place, name=cat.name(t.name),
                                  rating=rating, rd=rd, games=t.games))
        return lines, rows

    def _top_lines(self, rows: list[Totals], cat: Catalog) -> list[str]:
        return [cat.text("club-top-line", place=place, name=cat.name(t.name),
                         points=points_text(t.points), wins=t.wins, games=t.games,
                         rate=_rate(t.wins, t.games))
                for place, t in enumerate(rows, 1)]

    async def table_picture(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog,
                            now: float) -> tuple[list[str], tuple[str, bytes] | None, str]:
        """``/top`` or ``/evening`` with its table as a PNG (:func:`.card.render_top`): the
        lines, the picture (``None`` when nobody is ranked) and its caption (the title)."""
        if command.what == "top":
            lines, rows = await self._top_rows(club, command, cat, now)
        else:
            lines, rows = await self._evening_rows(club, cat, now)
        if not rows:
            return lines, None, ""
        value, column = (lambda t: points_text(t.points)), "points"
        _, period, order, _, _ = self._split(command.args, now)
        if command.what == "top" and order == "elo":  # the rating in the points' column
            strengths = await club_strength(self.store, club, self.tz, period.until)
            value, column = (lambda t: strength_text(strengths[t.player_id])[0]), "strength"
        cells = [(place, cat.name(t.name), value(t), t.wins, t.games,
                  _rate(t.wins, t.games)) for place, t in enumerate(rows, 1)]
        png = await asyncio.to_thread(render_top, lines[0], cells, cat, column)
        return lines, (f"{command.what}.png", png), lines[0]

    async def _rating(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        """The season's rating (F24/S24 §8.7.1; docs/rules.md §8.7): points and the compensation, with the tie-breaks."""
        words = [w for w in command.args if w.lower() not in SCHEME_WORDS]
        scheme = next((SCHEME_WORDS[w.lower()] for w in command.args if w.lower() in SCHEME_WORDS),
                      "fiim")
        rest, period, _, _, least = self._split(tuple(words), now)
        if rest:
            return [cat.text("club-rating-unknown", word=cat.said(rest[0]))]
        if not any(parse_period(w, now, self.tz) for w in words):
            period = parse_period("season", now, self.tz) or ALL
        least = 1 if least is None else least
        totals = await self.store.club_totals(club, period.since, period.until)
        deaths = {player: [FirstNight(at, role in ("civilian", "sheriff"), bool(won), best)
                           for at, role, won, best in rows]
                  for player, rows in (await self.store.first_nights(club, period.since,
                                                                      period.until)).items()}
        table = standings(totals, deaths, scheme, f"{club} {period.kind} {period.label}",
                          min_games=least)
        where = self.period_name(period, cat)
        lines = [cat.text("club-rating-title", scheme=scheme, period=where, least=least)]
        if not table:
            return [*lines, cat.text("club-top-empty", least=least)]
        for s in table[:RATING_SIZE]:
            lines.append(cat.text(
                "club-rating-line", place=s.place, name=cat.name(s.name), total=show(s.total),
                additional=show(s.additional), wins=s.wins, special=s.key_wins, first=s.first_killed,
                games=s.games))
        lines.append(cat.text("club-rating-compensation" if scheme == "fsm"
                              else "club-rating-no-compensation"))
        return lines

    async def _evening(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        """The evening's table (the games of the last :data:`EVENING_HOURS` hours, each player's
        points and wins) and the season's rating (its top ten), for the club's channel."""
        return (await self._evening_rows(club, cat, now))[0]

    async def _evening_rows(self, club: str, cat: Catalog, now: float) -> tuple[list[str], list[Totals]]:
        """``/evening``'s lines and the evening's players, best first."""
        evening = Period(now - EVENING_HOURS * 3600, None, "evening")
        totals = await self.store.club_totals(club, evening.since, None)
        games = [g for g in await self.store.club_games(club, GAMES_MAX)
                 if g.finished_at >= (evening.since or 0)]
        if not totals:
            return [cat.text("club-evening-none", hours=EVENING_HOURS)], []
        rows = ranked(totals, "points", 1)
        # the club evening's date, turning at 06:00 (docs/strength.md): past midnight it is
        # still the evening that began the day before
        day = club_evening(now, self.tz).isoformat()
        lines = [cat.text("club-evening-title", date=day, games=len(games)),
                 *self._top_lines(rows, cat)]
        season = await self._rating(club, Asker(""), ClubCmd("rating", ("season",)), cat, now)
        return [*lines, "", *season[:1 + TOP_SIZE]], rows

    async def _seating(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        """``/seating 6 Аня, Боря, …``: a seating plan for a series (:mod:`.seating`), printed per
        game and table; the names as the roster writes them, where it has them."""
        head, _, rest = command.rest.partition(" ")
        if not head.isdecimal() or not 1 <= int(head) <= SEATING_GAMES:
            return [cat.text("club-seating-usage", most=SEATING_GAMES)]
        shown = await roster_names(self.store, club, split_names(rest))
        if (bad := unseatable(shown)) is not None:
            return [cat.text("club-seating-bad-name", name=cat.said(bad), most=rules.MAX_NAME)]
        twice = repeated(shown)  # one player, one seat (README, /name), as /tournament open
        if twice is not None:
            return [cat.text("club-seating-repeated", name=cat.said(twice))]
        strength, regulars = await seating_balance(self.store, club, shown, self.tz)
        try:
            made = make_plan(shown, int(head), strength, regulars)
        except SeatingError:
            return [cat.text("club-seating-players", count=len(set(shown)), seats=SEATS)]
        return [cat.text("club-seating-title", games=int(head), players=len(shown),
                         tables=len(made.rounds[0])),
                cat.text("club-seating-balanced", regular=REGULAR_GAMES),
                *plan_lines(made.rounds, made.resting, cat, strength)]

    # --- the roster ------------------------------------------------------------------------------
    async def _roster(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        players = await self.store.roster(club, command.rest or None)
        if not players:
            return [cat.text("club-roster-empty")]
        return [cat.text("club-roster-title", count=len(players)),
                *(cat.text("club-roster-line", name=cat.name(p.name), games=p.games)
                  for p in players)]

    async def _pair(self, club: str, command: ClubCmd) -> tuple[int, int, str]:
        parts = _PAIR.split(command.rest, maxsplit=1)
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise ClubError("bad_pair", command=command.what)
        old = await self.store.find_player(club, parts[0].strip())
        if old is None:
            raise ClubError("no_player", name=parts[0].strip())
        if command.what == "rename":
            return old.id, 0, parts[1].strip()
        new = await self.store.find_player(club, parts[1].strip())
        if new is None:
            raise ClubError("no_player", name=parts[1].strip())
        return old.id, new.id, new.name

    async def _rename(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        if not asker.official:
            return [cat.text("club-officials-only")]
        player, _, name = await self._pair(club, command)
        await self.store.rename_player(club, player, name)
        return [cat.text("club-renamed", name=cat.name(" ".join(name.split())))]

    async def _merge(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        if not asker.official:
            return [cat.text("club-officials-only")]
        source, target, name = await self._pair(club, command)
        await self.store.merge_players(club, source, target)
        return [cat.text("club-merged", name=cat.name(name))]

    async def _forget(self, club: str, asker: Asker, command: ClubCmd, cat: Catalog, now: float) -> list[str]:
        player = await self.store.find_player(club, asker.user)
        if player is None or player.account != asker.user:
            return [cat.text("club-forget-nothing")]
        if [a.lower() for a in command.args] not in (["yes"], ["да"]):
            return [cat.text("club-forget-shown", name=cat.name(player.name), games=player.games)]
        await self.store.forget_player(club, asker.user)
        return [cat.text("club-forgotten")]

