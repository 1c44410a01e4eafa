"""A club's evening sign-up (issue 33, item 1): ``/evening new 19:30 tables=2`` by a chat's
admin, one implementation for Telegram, Discord and the console.

The admin's line posts the sign-up in the club's chat: the evening's date and start, its tables
and places (tables × 10: ten seats a table, F24 §1.1), the list and the reserve, and three
buttons — «Иду», «Не приду», «В резерв» (data ``e:<evening>:<g|n|r>``, :func:`encode`). Each
press is one transaction of the store (:meth:`storage.evening.EveningMethods.sign_evening`) and
the post is edited to show it; «Иду» with the list full puts the player in the reserve and says
so; when a player of a full list leaves it (or goes to the reserve) the first of the reserve
moves up and is told in private — a player the bot cannot write to (he blocked it: the Bot
API's 403) still moves up, nothing else changes, and the post says nothing of it. A press of an
evening that no longer takes sign-ups (closed, cancelled, or a button of an older one) changes
nothing and is answered so.

The start is a wall-clock time in the club's time zone (the setting ``MAFIA_REFEREE_TIMEZONE``,
default ``Europe/Moscow``; an optional date before it: ``2026-03-29 19:30`` or ``29.03``; without
one, the next 19:30 there), read with :mod:`zoneinfo` at the evening's own date: a change of
daylight saving time between the post and the evening gives the right instant. Two reminders
(:data:`REMINDERS`: two hours and fifteen minutes before the start) are posted in the club's
chat, naming the list, and sent to each player of the list in private; at the start the
sign-up closes, the post shows the final list and the chat is told how a tournament takes it
(``/tournament open N`` with no names: :meth:`bot.club.tournament.TournamentDesk.answer`).
These deadlines are the evening's stored row (``starts_at``, ``reminded``: 0017), armed at the
post and again at every start-up (:meth:`EveningDesk.resume_all`; a deadline passed while the
bot was down fires at once, the reminders already too late skipped). ``/evening close`` closes
the sign-up early (the list final), ``/evening cancel`` calls the evening off; ``/evening``
alone still answers the evening's results (:mod:`.answers`).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import rules
from storage import Evening, Signed, Store
from storage.evening import CANCELLED, CLOSED, GOING, OPEN, RESERVE

from ..commands import ClubCmd
from ..i18n import Catalog
from ..locks import ChatLocks
from ..outbox import Button, Rows

if TYPE_CHECKING:
    from ..service import Service

#: the data of a sign-up's buttons: ``e:<evening id>:<action>``
PREFIX = "e"
#: a button's action → what the press asks (:data:`storage.evening.WANTS`)
ACTIONS = {"g": GOING, "n": "out", "r": RESERVE}
#: the reminders: seconds before the start
REMINDERS = (2 * 3600, 15 * 60)
#: ``/tournament open N`` takes the list of an evening that started at most this many hours ago
TAKEN_HOURS = 12
#: the most tables an evening may have
MAX_TABLES = 10
NEW_WORDS = ("new", "open", "новый", "новая", "открыть")
CLOSE_WORDS = ("close", "закрыть")
CANCEL_WORDS = ("cancel", "отменить", "отмена")
TABLES_KEYS = ("tables", "столов", "столы", "столик", "столиков")
#: the console's typed presses (it has no buttons): ``/evening go Аня`` — a button's action
TYPED = {"go": "g", "иду": "g", "no": "n", "нет": "n", "out": "n", "reserve": "r", "резерв": "r"}
_DATA = re.compile(r"e:([0-9]{1,12}):([gnr])")
_TIME = re.compile(r"([01]?[0-9]|2[0-3])[:.]([0-5][0-9])")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DAY_MONTH = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})(?:\.([0-9]{4}))?")


class EveningError(Exception):
    """An evening command that cannot be carried out; ``key`` is its catalog message
    (``evening-<key>``), ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class EveningPort(Protocol):
    """What the sign-up needs of a platform (host mode's port gives it all:
    :class:`bot.host.port.HostPort`): posts and edits with buttons, a press's answer, a
    private message, the chats' catalogs, the wall clock (seconds) and deadlines."""

    max_text: int  # characters a message's text holds (the post is shortened to fit)

    async def cat(self, chat: str) -> Catalog: ...

    async def post(self, chat: str, text: str, rows: Rows | None = None, *,
                   private: bool = False) -> int | None: ...

    async def edit(self, chat: str, message_id: int, text: str, rows: Rows | None = None, *,
                   private: bool = False) -> bool: ...

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None: ...

    def clock(self) -> float: ...

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None: ...

    def cancel(self, group: str) -> None: ...


def encode(evening_id: int, action: str) -> str:
    """A sign-up button's data (``action``: a key of :data:`ACTIONS`)."""
    assert action in ACTIONS, action
    return f"{PREFIX}:{evening_id}:{action}"


def decode(data: str | None) -> tuple[int, str] | None:
    """A sign-up button's evening and what it asks (:data:`ACTIONS`' values), else ``None``."""
    found = _DATA.fullmatch(data or "")
    return (int(found.group(1)), ACTIONS[found.group(2)]) if found else None


def is_press(data: str | None) -> bool:
    """Whether ``data`` is a sign-up button's (its prefix)."""
    return (data or "").startswith(f"{PREFIX}:")


@dataclass(frozen=True)
class NewEvening:
    """``/evening new [date] HH:MM [tables=N]`` read: the start (unix seconds) and the tables."""

    starts_at: float
    tables: int


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone ``name``; :class:`EveningError` (``bad-zone``) if the system has none."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise EveningError("bad-zone", zone=name) from None


def parse_new(words: list[str], now: float, zone: str) -> NewEvening:
    """The words after ``new``: an optional date (``2026-03-29``, ``29.03``, ``29.03.2026``; a
    ``DD.MM`` before the time is the date, README «An evening's sign-up»), the
    start ``HH:MM`` and ``tables=N`` (``столов=N``; 1 … :data:`MAX_TABLES`, default 1). The start
    is that wall-clock time in ``zone`` — on the date given, else the next such time after
    ``now`` (seconds) — as an instant. :class:`EveningError`: ``usage`` (a word it cannot read,
    or ``tables=`` given twice), ``no-such-time`` (the clocks skip that time on that date: the
    spring change of daylight saving time), ``past`` (the start has passed)."""
    tz = zone_of(zone)
    today = dt.datetime.fromtimestamp(now, tz).date()
    day: dt.date | None = None
    clock: dt.time | None = None
    tables: int | None = None
    for n, word in enumerate(words):
        key, sep, value = word.partition("=")
        dated = day is None and (_ISO_DATE.fullmatch(word) or _DAY_MONTH.fullmatch(word))
        if sep and key.lower() in TABLES_KEYS:
            if tables is not None or not value.isdecimal() or not 1 <= int(value) <= MAX_TABLES:
                raise EveningError("usage", most=MAX_TABLES)
            tables = int(value)
        elif dated and (clock is not None or any(_TIME.fullmatch(w) for w in words[n + 1:])):
            day = _date(dated, today)  # «05.04 19:30»: a date before the time, not 05:04
        elif (found := _TIME.fullmatch(word)) and clock is None:
            clock = dt.time(int(found.group(1)), int(found.group(2)))
        elif dated:
            day = _date(dated, today)
        else:
            raise EveningError("usage", most=MAX_TABLES)
    if clock is None:
        raise EveningError("usage", most=MAX_TABLES)
    start = _instant(day or today, clock, tz)
    if day is None and start <= now:
        start = _instant(today + dt.timedelta(days=1), clock, tz)
    if start <= now:
        raise EveningError("past")
    return NewEvening(start, tables or 1)


def _date(found: re.Match[str], today: dt.date) -> dt.date:
    """The date typed: ``2026-03-29``, ``29.03.2026``, or ``29.03`` — the next 29.03 from
    ``today`` on (in April, next year's; ``29.02`` the next leap year's). :class:`EveningError`
    (``usage``) for a date no calendar has."""
    parts = found.groups()
    try:
        if len(parts) == 3 and found.re is _ISO_DATE:
            return dt.date(int(parts[0]), int(parts[1]), int(parts[2]))
        if parts[2]:
            return dt.date(int(parts[2]), int(parts[1]), int(parts[0]))
    except ValueError:
        raise EveningError("usage", most=MAX_TABLES) from None
    for year in range(today.year, today.year + 9):  # a 29.02 comes within eight years
        try:
            day = dt.date(year, int(parts[1]), int(parts[0]))
        except ValueError:
            continue
        if day >= today:
            return day
    raise EveningError("usage", most=MAX_TABLES)


def _instant(day: dt.date, clock: dt.time, tz: ZoneInfo) -> float:
    """The instant the wall clock in ``tz`` shows ``clock`` on ``day`` (the zone's offset of
    that date: daylight saving time or not). :class:`EveningError` (``no-such-time``) when the
    clocks skip it that day (they are put forward over it)."""
    try:  # a date the clock cannot show (9999-12-31 west of UTC is year 10000 there)
        at = dt.datetime.combine(day, clock, tzinfo=tz).timestamp()
        shown = dt.datetime.fromtimestamp(at, tz)
    except (ValueError, OverflowError, OSError):
        raise EveningError("usage", most=MAX_TABLES) from None
    if (shown.date(), shown.time()) != (day, clock):
        raise EveningError("no-such-time", date=day.strftime("%d.%m.%Y"), time=clock.strftime("%H:%M"))
    return at


def deadlines(evening: Evening) -> tuple[float, float, float]:
    """The evening's instants (seconds): the two reminders (:data:`REMINDERS`) and the start."""
    start = evening.starts_at
    return start - REMINDERS[0], start - REMINDERS[1], start


def skipped(starts_at: float, now: float) -> int:
    """The reminders already too late at ``now`` for an evening starting at ``starts_at``."""
    return sum(1 for before in REMINDERS if starts_at - before <= now)


def wall(at: float, zone: str) -> tuple[str, str]:
    """The date (``YYYY-MM-DD``) and time (``HH:MM``) the wall clock of ``zone`` shows at ``at``."""
    local = dt.datetime.fromtimestamp(at, zone_of(zone))
    return local.strftime("%Y-%m-%d"), local.strftime("%H:%M")


def names(players: list[Signed], which: str, cat: Catalog, shown: int | None = None) -> str:
    """The names of one list, numbered, in order ("" for none); only the first ``shown`` of
    them, then how many more (a post that must fit a message)."""
    listed = [p for p in players if p.list == which]
    text = ", ".join(f"{n}. {cat.name(p.name)}" for n, p in enumerate(listed[:shown], 1))
    hidden = len(listed) - len(listed[:shown])
    if not hidden:
        return text
    more = cat.text("evening-post-more", count=hidden, listed="yes" if text else "no")
    return f"{text} {more}" if text else more


def post_text(evening: Evening, players: list[Signed], cat: Catalog, limit: int | None = None) -> str:
    """The sign-up's post: the evening, its list (count of places) and its reserve, and what
    happens next (open), or that the list is final (closed) or the evening called off. Longer
    than ``limit`` characters (a message's text: Discord's 2000), the reserve's names and then
    the list's are cut from the end, each list saying how many more it has (its count stays)."""
    date, time_ = wall(evening.starts_at, evening.zone)
    counts = {which: sum(1 for p in players if p.list == which) for which in (GOING, RESERVE)}
    shown = dict(counts)

    def text() -> str:
        lines = [cat.text("evening-post", date=date, time=time_, zone=evening.zone,
                          tables=evening.tables, cap=evening.cap, status=evening.status),
                 cat.text("evening-post-going", count=counts[GOING], cap=evening.cap,
                          going=names(players, GOING, cat, shown[GOING]) or "none")]
        if counts[RESERVE]:
            lines.append(cat.text("evening-post-reserve",
                                  reserve=names(players, RESERVE, cat, shown[RESERVE])))
        if evening.status == OPEN:
            lines.append(cat.text("evening-post-how"))
        return "\n".join(lines)

    made = text()
    while limit is not None and len(made) > limit and (shown[GOING] or shown[RESERVE]):
        shown[RESERVE if shown[RESERVE] else GOING] -= 1
        made = text()
    return made


def buttons(evening: Evening, cat: Catalog) -> Rows | None:
    """The sign-up's buttons while it is open, else none."""
    if evening.status != OPEN:
        return None
    return [[Button(cat.text("evening-btn-go"), encode(evening.id, "g")),
             Button(cat.text("evening-btn-no"), encode(evening.id, "n")),
             Button(cat.text("evening-btn-reserve"), encode(evening.id, "r"))]]


class EveningDesk:
    """The sign-up of a platform's clubs: ``service()`` gives the store, ``port`` the
    platform's primitives (:class:`EveningPort`), ``zone`` the clubs' time zone (an IANA name:
    ``MAFIA_REFEREE_TIMEZONE``); ``remind``: whether the reminders are armed (the console runs
    none)."""

    def __init__(self, service: Callable[[], Service], port: EveningPort, *, zone: str,
                 remind: bool = True) -> None:
        self._service = service
        self.port = port
        self.zone = zone
        self.remind = remind
        self.locks = ChatLocks()
        self._armed: dict[str, int] = {}  # club -> its open evening whose deadline is armed here
        #: shared workers: whether this worker runs the club's chat now (``None``: every chat)
        self.runs: Callable[[str], bool] | None = None

    @property
    def store(self) -> Store:
        return self._service().store

    # --- the admin's commands ---------------------------------------------------------------------
    async def command(self, club: str, user: str, command: ClubCmd, cat: Catalog, *,
                      admin: bool) -> list[str]:
        """``/evening new|close|cancel …`` typed in ``club`` by ``user`` (``admin``: of that
        chat): the lines for him. A refusal is a line; nothing changes."""
        word = command.args[0].lower() if command.args else ""
        try:
            if word not in (*NEW_WORDS, *CLOSE_WORDS, *CANCEL_WORDS):
                raise EveningError("usage", most=MAX_TABLES)
            if not admin:
                raise EveningError("admins-only")
            if word in NEW_WORDS:
                return await self._new(club, user, list(command.args[1:]), cat)
            if len(command.args) > 1:  # /evening close | cancel: nothing after it
                raise EveningError("usage", most=MAX_TABLES)
            return await self._end(club, CLOSED if word in CLOSE_WORDS else CANCELLED, cat)
        except EveningError as error:
            return [cat.text(f"evening-{error.key}", **error.params)]

    async def _new(self, club: str, user: str, words: list[str], cat: Catalog) -> list[str]:
        now = self.port.clock()
        new = parse_new(words, now, self.zone)
        async with self.locks.lock(club):
            opened = await self.store.open_evening(club, user, new.starts_at, self.zone, new.tables,
                                                   reminded=skipped(new.starts_at, now), now=now)
            if opened is None:
                found = await self.store.open_evening_of(club)
                date, time_ = wall(found.starts_at, found.zone) if found else ("", "")
                raise EveningError("already", date=date, time=time_)
            message = await self.port.post(club, post_text(opened, [], cat, self.port.max_text),
                                           buttons(opened, cat))
            if message is None:  # nothing to press: the evening is not left open unseen
                await self.store.end_evening(opened.id, CANCELLED, now)
                raise EveningError("not-posted")
            await self.store.set_evening_message(opened.id, message)
        self._arm(opened)
        times = [wall(at, self.zone)[1] for at in deadlines(opened)[opened.reminded:2]]
        return [cat.text("evening-opened", count=len(times), times=", ".join(times), zone=self.zone)]

    async def _end(self, club: str, status: str, cat: Catalog) -> list[str]:
        """``/evening close``: the open sign-up's list is final; ``/evening cancel``: the
        evening is called off — the open one, else the next one whose list was closed early
        and that has not started yet."""
        async with self.locks.lock(club):
            now = self.port.clock()
            found = await self.store.open_evening_of(club)
            if found is None and status == CANCELLED:
                found = await self.store.latest_evening(club, now, now)  # to come, its list closed
                found = found if found is not None and found.starts_at > now else None
            if found is None or not await self.store.end_evening(found.id, status, now):
                raise EveningError("none")
            self.released(club)
            players = await self._show(found.id)
        going = [p for p in players if p.list == GOING]
        if status == CANCELLED:
            return [cat.text("evening-cancelled")]
        return [cat.text("evening-closed", count=len(going), going=names(players, GOING, cat) or "none")]

    # --- a press ------------------------------------------------------------------------------------
    async def press(self, user: str, name: str, data: str | None, handle: Any) -> None:
        """A sign-up button pressed by ``user`` (shown as ``name``): stored, answered, the post
        edited; the player moved up from the reserve told in private."""
        pressed = decode(data)
        found = await self.store.evening(pressed[0]) if pressed is not None else None
        if pressed is None or found is None:
            await self.port.answer(handle, (await self.port.cat(user)).text("evening-pressed-stale"))
            return
        cat = await self.port.cat(found.club)
        async with self.locks.lock(found.club):
            signed = await self.store.sign_evening(found.id, user, name, pressed[1], self.port.clock())
            players = await self._show(found.id) if signed.outcome != "closed" else []
        place = next((n for n, p in enumerate((p for p in players if p.list == RESERVE), 1)
                      if p.account == user), 0)
        await self.port.answer(handle, cat.text(f"evening-pressed-{signed.outcome}", place=place,
                                                full="yes" if signed.full else "no"))
        if signed.moved is not None:
            await self.tell(signed.moved.account, found, "evening-moved-up")

    async def typed(self, club: str, command: ClubCmd, handle: Any) -> str | None:
        """The console's press typed by its judge for a player (``/evening go Аня``: the words
        of :data:`TYPED`, then the name), on the club's open evening, answered to ``handle``
        as a press is; the refusal's catalog key when there is no name (how to type it) or no
        open evening."""
        name = " ".join(command.rest.split()[1:])
        found = await self.store.open_evening_of(club)
        if not name:
            return "evening-typed-usage"
        if found is None:
            return "evening-none"
        action = TYPED[command.args[0].lower()]
        await self.press(f"{club}:{rules.name_key(name)}", name, encode(found.id, action), handle)
        return None

    async def tell(self, user: str, evening: Evening, key: str) -> bool:
        """``key``'s words to ``user`` in private; ``False`` when he cannot be written to (he
        blocked the bot, never started it: the platform logged it) — nothing else changes."""
        date, time_ = wall(evening.starts_at, evening.zone)
        cat = await self.port.cat(evening.club)
        return await self.port.post(user, cat.text(key, date=date, time=time_), private=True) is not None

    async def _show(self, evening_id: int) -> list[Signed]:
        """Edit the post to the evening as stored; its players."""
        evening = await self.store.evening(evening_id)
        assert evening is not None
        players = await self.store.evening_players(evening_id)
        if evening.message_id is not None:
            cat = await self.port.cat(evening.club)
            await self.port.edit(evening.club, evening.message_id,
                                 post_text(evening, players, cat, self.port.max_text), buttons(evening, cat))
        return players

    # --- the deadlines --------------------------------------------------------------------------------
    @staticmethod
    def _group(evening_id: int) -> str:
        return f"evening:{evening_id}"

    def _arm(self, evening: Evening) -> None:
        """Schedule the evening's next deadline (a passed one at once)."""
        if not self.remind or evening.status != OPEN:
            return
        at = deadlines(evening)[min(evening.reminded, 2)]
        evening_id = evening.id
        self.port.cancel(self._group(evening_id))
        self._armed[evening.club] = evening_id
        self.port.schedule(self._group(evening_id), max(0.0, at - self.port.clock()),
                           lambda: self.due(evening_id))

    async def clubs(self, prefix: str = "") -> list[str]:
        """The clubs (chat keys starting with ``prefix``) with an evening taking sign-ups: a
        shared worker claims those nobody owns (their reminders need an owner)."""
        return list(dict.fromkeys(e.club for e in await self.store.open_evenings(prefix)))

    async def claimed(self, club: str) -> None:
        """Shared workers: this worker now runs ``club``'s chat — its open evening armed."""
        found = await self.store.open_evening_of(club)
        if found is not None:
            self._arm(found)

    def released(self, club: str) -> None:
        """Shared workers: ``club``'s chat is another worker's now — its deadline disarmed."""
        evening_id = self._armed.pop(club, None)
        if evening_id is not None:
            self.port.cancel(self._group(evening_id))

    async def resume_all(self, prefix: str = "",
                         owns: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """After a start-up: every open evening of the clubs whose keys start with ``prefix``
        (and that ``owns``, when given: a process of several) armed again from its stored start
        and reminders."""
        for evening in await self.store.open_evenings(prefix):
            if owns is None or await owns(evening.club):
                self._arm(evening)

    async def due(self, evening_id: int) -> None:
        """A deadline of the evening fell due: at the start the sign-up closes; else the last
        reminder due now is sent (one the bot was down for is skipped), then the next armed."""
        evening = await self.store.evening(evening_id)
        if evening is None or evening.status != OPEN:
            return
        if self.runs is not None and not self.runs(evening.club):  # another worker's chat now
            return
        now = self.port.clock()
        due = [n for n, at in enumerate(deadlines(evening)) if at <= now]
        if not due:  # early (a clock's step): armed again
            self._arm(evening)
            return
        if due[-1] == 2:
            await self._start(evening)
            return
        async with self.locks.lock(evening.club):
            sent = await self.store.set_evening_reminded(evening.id, due[-1] + 1)
        if sent:
            await self._reminder(evening, due[-1])
        refreshed = await self.store.evening(evening_id)
        if refreshed is not None:
            self._arm(refreshed)

    async def catch_up(self, club: str) -> None:
        """The club's open evening whose start has passed closes as at its start (the post
        shows the final list, the chat is told): for a desk that arms no deadline — the
        console, which waits for nothing — before it reads the next evening command."""
        found = await self.store.open_evening_of(club)
        if found is not None and found.starts_at <= self.port.clock():
            await self._start(found)

    async def _reminder(self, evening: Evening, which: int) -> None:
        """Reminder ``which`` (0: two hours before, 1: fifteen minutes): a post in the club's
        chat naming the list, and each player of the list told in private. It says the minutes
        truly left: one sent late (the bot was down at its time) never promises two hours when
        one is left."""
        players = await self.store.evening_players(evening.id)
        cat = await self.port.cat(evening.club)
        date, time_ = wall(evening.starts_at, evening.zone)
        going = [p for p in players if p.list == GOING]
        left = min(REMINDERS[which], max(60, math.ceil(evening.starts_at - self.port.clock())))
        await self.port.post(evening.club, cat.text(
            "evening-reminder", minutes=math.ceil(left / 60), date=date, time=time_, count=len(going),
            cap=evening.cap, going=names(players, GOING, cat) or "none"))
        for player in going:
            await self.tell(player.account, evening, "evening-reminder-private")

    async def _start(self, evening: Evening) -> None:
        """The start: the sign-up closes, the post shows the final list, the chat is told how a
        tournament takes it — unless the bot was down for the whole evening (its start over
        :data:`TAKEN_HOURS` ago: no tournament takes that list), when the post alone shows it
        closed: «the evening begins» is not said a day late."""
        async with self.locks.lock(evening.club):
            now = self.port.clock()
            if not await self.store.end_evening(evening.id, CLOSED, now):
                return
            self._armed.pop(evening.club, None)
            players = await self._show(evening.id)
        if now - evening.starts_at > TAKEN_HOURS * 3600:
            return
        cat = await self.port.cat(evening.club)
        going = [p for p in players if p.list == GOING]
        await self.port.post(evening.club, cat.text(
            "evening-started", count=len(going), going=names(players, GOING, cat) or "none",
            tables=evening.tables))
