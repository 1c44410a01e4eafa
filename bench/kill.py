"""Kill points: the bot killed with SIGKILL at hundreds of seeded random points, then restarted
(issue #6, first bullet; the same rig as ``tests/test_kill.py``, at a larger scale).

The rig (``tests/killrig``) runs the bot as a child process (``python -m bot telegram``, or
``… discord``) against the tests' fake Bot API (or fake Discord: REST and gateway) in this
process, over one SQLite file:

* **judge mode**, on Telegram and on Discord: several judges play the shipped demo game at once
  (typed lines — slash commands on Discord — and panel presses), the process is killed at seeded
  points (after a number of acknowledged actions plus a few milliseconds), started again; each
  judge re-sends what was not acknowledged as a real one would (a press again; a typed line only
  if ``/status`` shows it missing);
* **host mode**, on Telegram and on Discord: tables of ten simulated players (lobby, night 0, day 1
  with a nomination, night 1 by time), killed anywhere from the first join on (the tests leave
  the lobby to their deterministic lobby tests: a run that gets stuck there counts under "other
  failures"); on Discord a press sent to a dying bot is lost, and pressed again.

A **kill point** is one game (or table) at one kill. Each run is compared with an un-killed
reference run of the same stream. Counted: acknowledged actions missing from the store when the
process died; announcements repeated beyond the one a kill may repeat (a send it cut); timers
(judge speech timers, host steps) that did not end at their stored deadline (± 0.6 s, or at once
if it passed while the bot was down); and what else failed (lost or reordered announcements, a
log that is not the script or the reference, outbox rows missing, orphaned, other than the
reference's or unsent). Not part of the default ``python -m bench`` run (minutes):
``python -m bench --only kill``."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import Row, Section, eprint

TITLE = "kill points"
PROJECT = Path(__file__).resolve().parents[1]
TESTS = PROJECT / "tests"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kill-runs", type=int, default=None, metavar="N",
                        help="Telegram judge-mode runs (default 5; --quick: 1)")
    parser.add_argument("--kill-discord-runs", type=int, default=None, metavar="N",
                        help="Discord judge-mode runs (default 5; --quick: 1)")
    parser.add_argument("--kill-games", type=int, default=None, metavar="G",
                        help="judge games played at once in a run (default 8; --quick: 2)")
    parser.add_argument("--kill-kills", type=int, default=None, metavar="K",
                        help="kills per run (default 6; --quick: 2)")
    parser.add_argument("--kill-host-runs", type=int, default=None, metavar="N",
                        help="Telegram host-mode runs of 3 tables (default 3; --quick: 1)")
    parser.add_argument("--kill-discord-host-runs", type=int, default=None, metavar="N",
                        help="Discord host-mode runs of 3 tables (default 12; --quick: 1)")


@dataclass
class Tally:
    points: int = 0
    lost: int = 0
    duplicates: int = 0
    repeats: int = 0
    timers: int = 0
    late: int = 0
    other: int = 0
    resent: int = 0
    stale: int = 0  # host: floors over whose message kept its buttons
    broken: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _pick(value: int | None, quick: bool, normal: int, small: int) -> int:
    return value if value is not None else (small if quick else normal)


def _add(tally: Tally, run: Any, timers: list[Any], late: int, other: list[str]) -> None:
    tally.points += run.kill_points
    tally.lost += len(run.lost)
    tally.duplicates += run.duplicates
    tally.repeats += run.repeats
    tally.timers += sum(1 for t in timers if getattr(t, "skipped", None) is None)
    tally.late += late
    tally.other += len(other)
    tally.resent += run.resent
    tally.examples += [*run.lost, *other, *run.problems()][:3]


async def _judge(folder: Path, tally: Tally, runs: int, games: int, kills: int, platform: str,
                 first_seed: int) -> None:
    from killrig.judge import play_games

    _, reference = await play_games(folder / "reference", seed=0, games=1, kills=0, platform=platform)
    for i in range(runs):
        seed = first_seed + i
        try:
            run, _ = await play_games(folder / f"judge-{i}", seed=seed, games=games, kills=kills,
                                      platform=platform, reference=reference)
        except Exception as error:  # noqa: BLE001 - a stuck run is a finding, not a bench crash
            tally.broken.append(f"{platform} judge seed {seed}: {type(error).__name__}: {str(error)[:300]}")
            eprint(traceback.format_exc(limit=3))
            continue
        _add(tally, run, run.timers, run.late_timers,
             [*run.log_errors, *run.half, *run.announcements, *run.bot_errors])
        eprint(f"kill: {platform} judge run {i + 1}/{runs}: {run.kill_points} kill points, "
               f"{len(run.problems())} problems, {run.seconds:.1f} s")


async def _host(folder: Path, tally: Tally, runs: int, kills: int, platform: str, first_seed: int) -> None:
    from killrig.host import play_tables

    _, reference = await play_tables(folder / "reference", seed=0, tables=3, kills=0, platform=platform)
    for i in range(runs):
        seed = first_seed + i
        try:
            run, _ = await play_tables(folder / f"host-{i}", seed=seed, tables=3, kills=kills,
                                       platform=platform, lobby_kills=True, reference=reference)
        except Exception as error:  # noqa: BLE001
            tally.broken.append(f"{platform} host seed {seed}: {type(error).__name__}: {str(error)[:300]}")
            eprint(traceback.format_exc(limit=3))
            continue
        _add(tally, run, run.steps, run.late_steps,
             [*run.log_errors, *run.half, *run.announcements, *run.bot_errors])
        tally.stale += run.stale_floors
        eprint(f"kill: {platform} host run {i + 1}/{runs}: {run.kill_points} kill points, "
               f"{len(run.problems())} problems, {run.seconds:.1f} s")


def run(args: argparse.Namespace) -> Section:
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    section = Section(TITLE)
    quick = bool(args.quick)
    runs = _pick(args.kill_runs, quick, 5, 1)
    games = _pick(args.kill_games, quick, 8, 2)
    kills = _pick(args.kill_kills, quick, 6, 2)
    discord_judge_runs = _pick(args.kill_discord_runs, quick, 5, 1)
    host_runs = _pick(args.kill_host_runs, quick, 3, 1)
    discord_host_runs = _pick(args.kill_discord_host_runs, quick, 12, 1)
    judge, discord_judge, host, discord_host = Tally(), Tally(), Tally(), Tally()
    with tempfile.TemporaryDirectory(prefix="bench-kill-") as folder:
        for tally, platform, n, first_seed in ((judge, "telegram", runs, 1000),
                                                (discord_judge, "discord", discord_judge_runs, 4000)):
            started = time.perf_counter()
            asyncio.run(_judge(Path(folder) / f"judge-{platform}", tally, n, games, kills, platform,
                               first_seed))
            tally.seconds = time.perf_counter() - started
        for tally, platform, n, first_seed in ((host, "telegram", host_runs, 2000),
                                                (discord_host, "discord", discord_host_runs, 3000)):
            started = time.perf_counter()
            asyncio.run(_host(Path(folder) / f"host-{platform}", tally, n, kills, platform, first_seed))
            tally.seconds = time.perf_counter() - started
    for name, t, what in (("judge mode", judge, f"{runs} runs × {games} games × {kills} kills"),
                          ("host mode", host, f"{host_runs} runs × 3 tables × ≤{kills} kills"),
                          ("Discord judge mode", discord_judge,
                           f"{discord_judge_runs} runs × {games} games × {kills} kills"),
                          ("Discord host mode", discord_host,
                           f"{discord_host_runs} runs × 3 tables × ≤{kills} kills")):
        section.rows += [
            Row(f"{name}: kill points", t.points, "count",
                note=(f"{name}: {what} ({t.seconds:.0f} s), each run against an un-killed "
                      f"reference of the same stream; {t.resent} actions re-sent after a restart, "
                      f"{t.repeats} announcements repeated once after the kill that cut their send "
                      f"(allowed: at least once)"
                      + (f"; {t.stale} finished host floors kept their buttons" if "host" in name else "")
                      + (f"; runs that broke: {'; '.join(t.broken)}" if t.broken else ""))),
            Row(f"{name}: acknowledged actions lost", t.lost, "count", target="0", met=t.lost == 0),
            Row(f"{name}: announcements repeated beyond one per kill", t.duplicates, "count",
                target="0", met=t.duplicates == 0),
            Row(f"{name}: timers resumed late", t.late, "count", target="0", met=t.late == 0,
                note=f"{name}: {t.timers} timers were running at a kill and checked"),
            Row(f"{name}: other failures", t.other + len(t.broken), "count", target="0",
                met=t.other + len(t.broken) == 0,
                note=(f"{name}: lost or reordered announcements, a log other than the script or the "
                      "reference, outbox rows missing/orphaned/unsent, errors in the bot's log, "
                      "runs that got stuck" + (f". First: {' | '.join(t.examples[:3])}" if t.examples else ""))),
        ]
    return section
