"""Measurements of mafia-referee (not tests: nothing here passes or fails the test suite).

``python -m bench`` runs every section and prints one table: each metric as a figure, the floor it
is compared with (the cost of doing the same work with the referee's logic taken out), their ratio
(figure / floor) and the target it is judged by. See ``bench/README.md``.

A section is a module of this package with::

    TITLE: str
    def add_arguments(parser: argparse.ArgumentParser) -> None   # optional: its own options
    def run(args: argparse.Namespace) -> Section

and a line in :data:`bench.__main__.SECTIONS` (the end-to-end rows are added that way).
This module holds what the sections share: rows, sections, formatting, timing and machine info.
"""

from __future__ import annotations

import gc
import os
import platform
import sqlite3
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

#: The real game records (read-only, beside the project: ``../shared/games``).
SHARED_GAMES = Path(__file__).resolve().parents[1].parent / "shared" / "games"


@dataclass(frozen=True)
class Row:
    """One measured metric.

    ``figure`` and ``floor`` are in ``unit``; ``ratio`` is always ``figure / floor`` (so for a
    rate, the fraction of the floor's rate reached; for a time or a size, how many times the
    floor's). ``target`` is the goal in words, ``met`` whether the figure reaches it (``None``:
    no target, or not judged at this scale)."""

    metric: str
    figure: float
    unit: str
    floor: float | None = None
    target: str = "—"
    met: bool | None = None
    note: str = ""  # a short remark printed under the table, numbered

    @property
    def ratio(self) -> float | None:
        if self.floor is None or self.floor == 0:
            return None
        return self.figure / self.floor


@dataclass
class Section:
    """What a section measured: its rows and notes (what each floor is, how it was measured)."""

    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0  # wall time the section took


# --- formatting -------------------------------------------------------------------------------

def fmt(value: float | None, unit: str) -> str:
    """``value`` in ``unit`` with a precision that suits it (``—`` for ``None``)."""
    if value is None:
        return "—"
    if unit == "s" and value < 1:
        return fmt(value * 1000, "ms")
    if unit == "ms" and value < 1:
        return f"{value * 1000:.0f} µs"
    if unit == "B" and value >= 1024:
        return fmt(value / 1024, "KB")
    if unit in ("ev/s", "count", "/s"):
        return f"{value:,.0f} {unit}".replace(" count", "")
    if abs(value) >= 100:
        return f"{value:,.0f} {unit}"
    if abs(value) >= 10:
        return f"{value:.1f} {unit}"
    return f"{value:.2f} {unit}"


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "—"
    return f"{ratio:.3g}×" if ratio < 1000 else f"{ratio:,.0f}×"


def table(sections: Iterable[Section]) -> str:
    """The sections' rows as one aligned text table, then the numbered notes."""
    header = ("metric", "figure", "floor", "ratio", "target", "met?")
    lines: list[tuple[str, ...]] = []
    notes: list[str] = []
    for section in sections:
        lines.append((f"[{section.title}]", "", "", "", "", ""))
        for row in section.rows:
            metric = row.metric
            if row.note:
                notes.append(row.note)
                metric += f" ({len(notes)})"
            met = "—" if row.met is None else ("yes" if row.met else "NO")
            lines.append((metric, fmt(row.figure, row.unit), fmt(row.floor, row.unit),
                          fmt_ratio(row.ratio), row.target, met))
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]

    def render(cells: tuple[str, ...]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) if i < 3 else c.ljust(w) for i, (c, w) in
                enumerate(zip(cells[1:], widths[1:]))]
        return "  ".join([first, *rest]).rstrip()

    out = [render(header), "  ".join("-" * w for w in widths)]
    out += [render(line) for line in lines]
    if notes:
        out.append("")
        out += [f"({i}) {text}" for i, text in enumerate(notes, 1)]
    return "\n".join(out)


def as_json(sections: Iterable[Section], machine: dict[str, str]) -> dict[str, Any]:
    """Everything measured, machine-readable (``--json``)."""
    return {
        "machine": machine,
        "sections": [
            {"title": s.title, "seconds": s.seconds, "notes": s.notes,
             "rows": [{**asdict(r), "ratio": r.ratio} for r in s.rows]}
            for s in sections
        ],
    }


# --- the machine ------------------------------------------------------------------------------

def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (or what :mod:`platform` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu_model(),
        "cores": f"{usable} usable of {os.cpu_count()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "sqlite": sqlite3.sqlite_version,
        "os": f"{platform.system()} {platform.release()}",
        "when": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "load before": load_average(usable or 1),
    }


def load_average(cores: int) -> str:
    """The 1-minute load average, with a warning when other work competes for the cores."""
    try:
        one = float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return "unknown"
    busy = "  (other work was running: figures are pessimistic)" if one > 0.5 * cores else ""
    return f"{one:.2f} (1-min average){busy}"


# --- measuring ----------------------------------------------------------------------------

def best_time(work: Callable[[], object], *, repeat: int, min_seconds: float = 0.0) -> float:
    """The best (least) wall time of ``repeat`` runs of ``work``, running more while the runs
    so far took less than ``min_seconds`` in all. The best run is the one least disturbed by
    the rest of the machine; garbage collection runs before each run, not during it."""
    times: list[float] = []
    while len(times) < repeat or sum(times) < min_seconds:
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        start = time.perf_counter()
        try:
            work()
        finally:
            if enabled:
                gc.enable()
        times.append(time.perf_counter() - start)
    return min(times)


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) of ``values``, by linear interpolation."""
    if not values:
        raise ValueError("no values")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[min(998, max(0, round(p * 10) - 1))]


def rss_bytes() -> int:
    """This process's resident set size (Linux ``/proc/self/statm``; 0 where unknown)."""
    try:
        resident = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return resident * os.sysconf("SC_PAGE_SIZE")


def eprint(*parts: object) -> None:
    """Progress on stderr, so stdout holds the table only."""
    print(*parts, file=sys.stderr, flush=True)
