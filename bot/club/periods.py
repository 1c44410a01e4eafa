"""The period a club's statistics cover, as typed: ``month``, ``season``, ``all``, a year
(``2026``), a month (``2026-03``), a day (``2026-03-14``) or dates (``2026-03-01..2026-03-31``,
both days counted). Pure: the caller gives the time now and the club's time zone.

A season is a calendar year (clubs' seasons rank games of one year).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo

WORDS = {"month": "month", "месяц": "month", "season": "season", "сезон": "season",
         "year": "season", "год": "season", "all": "all", "всё": "all", "все": "all",
         "today": "today", "сегодня": "today", "evening": "today", "вечер": "today"}
_DAY = r"(\d{4})-(\d{2})-(\d{2})"
_RANGE = re.compile(rf"^{_DAY}\.\.{_DAY}$")
_ONE_DAY = re.compile(rf"^{_DAY}$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_YEAR = re.compile(r"^(\d{4})$")


@dataclass(frozen=True)
class Period:
    """``[since, until)`` in unix seconds (``None``: unbounded) and how to name it: ``kind`` is
    ``all``, ``season``, ``month``, ``today`` or ``dates`` (``label`` then says which)."""

    since: float | None
    until: float | None
    kind: str
    label: str = ""


ALL = Period(None, None, "all")
#: the years a typed period may name (its end must still be a date: 9999-12-31 has no next day)
FIRST_YEAR, LAST_YEAR = 1970, 9998


class BadPeriod(ValueError):
    """A word shaped as a period that names none: a month or a day that does not exist
    (``2026-13``, ``2026-02-30``; ``why`` ``date``), dates whose last day comes before the
    first (``why`` ``reversed``) or a year outside :data:`FIRST_YEAR` … :data:`LAST_YEAR`
    (``why`` ``range``). Never a player's name: it is refused, not searched for."""

    def __init__(self, word: str, why: str) -> None:
        super().__init__(f"{word}: {why}")
        self.word, self.why = word, why


def _start(day: dt.date, tz: dt.tzinfo) -> float:
    return dt.datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def parse_period(word: str, now: float, tz: dt.tzinfo | str = "UTC") -> Period | None:
    """The period ``word`` names, or ``None`` when it names none (it is then something else:
    a player's name, an order). Raises :class:`BadPeriod` for a word shaped as dates that name
    no period."""
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    today = dt.datetime.fromtimestamp(now, zone).date()
    text = word.strip().lower()
    kind = WORDS.get(text)
    typed = _RANGE.match(text) or _ONE_DAY.match(text) or _MONTH.match(text) or _YEAR.match(text)
    years = [int(g) for g in typed.groups() if len(g) == 4] if typed else []
    if any(not FIRST_YEAR <= year <= LAST_YEAR for year in years):  # the calendar's ends
        raise BadPeriod(word.strip(), "range")
    try:
        if kind == "all":
            return ALL
        if kind == "today":
            return Period(_start(today, zone), _start(today + dt.timedelta(days=1), zone), "today")
        if kind == "month":
            first = today.replace(day=1)
            return Period(_start(first, zone), _start(_next_month(first), zone), "month",
                          first.strftime("%Y-%m"))
        if kind == "season":
            return _year(today.year, zone, "season")
        if m := _YEAR.match(text):
            return _year(int(m[1]), zone, "dates")
        if m := _MONTH.match(text):
            first = dt.date(int(m[1]), int(m[2]), 1)
            return Period(_start(first, zone), _start(_next_month(first), zone), "dates", text)
        if m := _ONE_DAY.match(text):
            day = dt.date(int(m[1]), int(m[2]), int(m[3]))
            return Period(_start(day, zone), _start(day + dt.timedelta(days=1), zone), "dates", text)
        if m := _RANGE.match(text):
            first = dt.date(int(m[1]), int(m[2]), int(m[3]))
            last = dt.date(int(m[4]), int(m[5]), int(m[6]))
            if last < first:
                raise BadPeriod(word.strip(), "reversed")
            return Period(_start(first, zone), _start(last + dt.timedelta(days=1), zone), "dates",
                          text)
    except BadPeriod:
        raise
    except ValueError:  # 2026-13, 2026-02-30, 0000
        raise BadPeriod(word.strip(), "date") from None
    return None


def _year(year: int, zone: dt.tzinfo, kind: str) -> Period:
    return Period(_start(dt.date(year, 1, 1), zone), _start(dt.date(year + 1, 1, 1), zone), kind,
                  str(year))
