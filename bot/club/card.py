"""The player's card (issue 17 §2): ``/stats``' figures and a chart of the player's points over
time, as a small PNG, drawn with the score sheet's fonts and canvas (:mod:`bot.protocol.sheet`).

The chart has a bar per game, or per month when the period holds more than :data:`MAX_BARS`
games (the months' sums); each bar is labelled with its points and its date (the club's time
zone). Pillow is synchronous: callers render in a thread (``asyncio.to_thread``).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Sequence
from zoneinfo import ZoneInfo

from rules.points import show

from ..i18n import Catalog
from ..protocol.sheet import (
    _LOCK, BLUE, BODY, GRID, HEADER, INK, MARGIN, MUTED, RED, SMALL, TITLE, Canvas, Span,
    line_height, wrap,
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
