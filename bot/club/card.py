"""The player's card and the club's tables as pictures (issue 17, part 2): ``/stats``' figures and
a chart of the player's points over time, as a small PNG, drawn with the score sheet's fonts and
canvas (:mod:`bot.protocol.sheet`).

The chart has a bar per game, or per month when the period holds more than :data:`MAX_BARS`
games (the months' sums); each bar is labelled with its points and its date (the club's time
zone). :func:`render_top` draws ``/top``'s or ``/evening``'s table (place, name, points, wins,
games, win rate) for the club's channel. Pillow is synchronous: callers render in a thread (``asyncio.to_thread``).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Sequence
from zoneinfo import ZoneInfo

from rules.points import show

from ..i18n import Catalog
from ..protocol.sheet import (
    _LOCK, BLACK_ROW, BLUE, BODY, GRID, HEADER, INK, MARGIN, MUTED, PAD, RED, SMALL, TITLE, Canvas,
    Cell, Span, fit_middle, line_height, table, wrap,
)

WIDTH = 720  # px: small, a phone shows it whole
MAX_BARS = 30  # more games than this: a bar per month
CHART = 220  # px: the bars' area's height


def series(games: Sequence[tuple[float, int]], tz: str) -> tuple[str, list[tuple[str, int]]]:
    """The chart's bars: ``("games" | "months", [(label, hundredths), …])``, oldest first."""
    zone = ZoneInfo(tz)
    days = [(dt.datetime.fromtimestamp(at, zone), points) for at, points in games]
    if len(days) <= MAX_BARS:
        return "games", [(day.strftime("%d.%m"), points) for day, points in days]
    months: dict[str, int] = {}
    for day, points in days:
        key = day.strftime("%m.%Y")
        months[key] = months.get(key, 0) + points
    return "months", list(months.items())[-MAX_BARS:]


def compose(lines: Sequence[str], games: Sequence[tuple[float, int]], cat: Catalog,
            tz: str = "UTC") -> tuple[Canvas, float]:
    """The card's drawing (its texts: :meth:`Canvas.texts`) and its height."""
    canvas = Canvas()
    y = float(MARGIN)
    inner = WIDTH - 2 * MARGIN
    for number, line in enumerate(lines):
        size, bold, color = (TITLE * 0.8, True, HEADER) if number == 0 else (BODY, False, INK)
        for part in wrap(line, inner, size, bold):
            y += line_height(size) / 2
            canvas.text(MARGIN, y, Span(part, color, bold, size))
            y += line_height(size) / 2
    kind, bars = series(games, tz)
    if not bars:
        return canvas, y + MARGIN
    y += 12
    canvas.text(MARGIN, y + line_height(BODY) / 2, Span(cat.text(f"club-card-chart-{kind}"), MUTED, True))
    y += line_height(BODY) + line_height(SMALL)
    top, high, low = y, max(0, *(p for _, p in bars)), min(0, *(p for _, p in bars))
    span = (high - low) or 1
    zero = top + CHART * high / span
    step = inner / len(bars)
    canvas.rect(MARGIN, zero, inner, 0, None, GRID)
    for index, (label, points) in enumerate(bars):
        x = MARGIN + index * step + step * 0.15
        h = CHART * abs(points) / span
        canvas.rect(x, zero - h if points >= 0 else zero, step * 0.7, max(h, 1),
                    BLUE if points >= 0 else RED)
        value_y = (zero - h - line_height(SMALL) / 2) if points >= 0 else zero + h + line_height(SMALL) / 2
        middle = x + step * 0.35
        if step >= 22:  # room for the figures under and over the bars
            canvas.text(middle, value_y, Span(show(Decimal(points) / 100), INK, size=SMALL * 0.8),
                        ha="center")
            canvas.text(middle, top + CHART + line_height(SMALL) * 1.2,
                        Span(label, MUTED, size=SMALL * 0.8), ha="center")
    return canvas, top + CHART + line_height(SMALL) * 2 + MARGIN


def render_card(lines: Sequence[str], games: Sequence[tuple[float, int]], cat: Catalog,
                tz: str = "UTC") -> bytes:
    """The card as PNG bytes (synchronous: call in a thread)."""
    with _LOCK:  # the sheet's fonts, one drawing at a time
        canvas, height = compose(lines, games, cat, tz)
        return canvas.png(height, WIDTH)


#: the top table's columns: place, name, points, wins, games, win rate (px; the name takes the rest)
TOP_COLUMNS = ["place", "name", "points", "wins", "games", "rate"]
_FIXED = {0: 44, 2: 96, 3: 96, 4: 84, 5: 104}


def compose_top(title: str, rows: Sequence[tuple[int, str, str, int, int, str]],
                cat: Catalog, value: str = "points") -> tuple[Canvas, float]:
    """The table's drawing (its texts: :meth:`Canvas.texts`) and its height; ``rows``: (place,
    name, points, wins, games, win rate), best first; ``value``: what the third column holds
    (``points``, or ``strength``: the rating, ``/top elo``)."""
    canvas = Canvas()
    y = float(MARGIN)
    inner = WIDTH - 2 * MARGIN
    for part in wrap(title, inner, TITLE * 0.8, True):
        y += line_height(TITLE * 0.8) / 2
        canvas.text(MARGIN, y, Span(part, HEADER, True, TITLE * 0.8))
        y += line_height(TITLE * 0.8) / 2
    y += 10
    widths = [float(_FIXED.get(i, 0)) for i in range(len(TOP_COLUMNS))]
    widths[1] = inner - sum(widths)
    fit = lambda name, bold: fit_middle(name, widths[1] - 2 * PAD, BODY, bold)  # noqa: E731
    body = [([Cell([Span(str(place), bold=True)], align="center"),
              Cell([Span(fit(name, place <= 3), bold=place <= 3)]),
              Cell([Span(points, BLUE if not points.startswith("-") else RED, True)], align="center"),
              Cell([Span(str(wins))], align="center"), Cell([Span(str(games))], align="center"),
              Cell([Span(rate, MUTED)], align="center")],
             BLACK_ROW if place % 2 == 0 else None)
            for place, name, points, wins, games, rate in rows]
    heads = [value if c == "points" else c for c in TOP_COLUMNS]
    y = table(canvas, y, [cat.text(f"club-card-{c}") for c in heads], widths, body,
              min_row=32.0, center={0, 2, 3, 4, 5})
    return canvas, y + MARGIN


def render_top(title: str, rows: Sequence[tuple[int, str, str, int, int, str]], cat: Catalog,
               value: str = "points") -> bytes:
    """The table as PNG bytes (synchronous: call in a thread); ``value``: :func:`compose_top`'s."""
    with _LOCK:
        canvas, height = compose_top(title, rows, cat, value)
        return canvas.png(height, WIDTH)
