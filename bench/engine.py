"""The rules engine: events per second replaying the real games in ``../shared/games``.

Each record is imported once with :func:`rules.records.import_record` (not timed); then
:func:`rules.fold` replays every record's events from a new game, repeatedly, and the best pass
gives the rate.

The floor is the same events through a fold that does nothing but what :func:`rules.apply` must
do before any rule runs: deep-copy the state (``apply`` works on a copy so that a refused event
leaves the caller's state untouched, and a fold keeps no two states sharing parts). It is the
cost of the engine's copy-on-apply design with the rules taken out, so ``engine / floor`` is the
share of the rate the rules logic leaves. A bare loop over the events would be a floor of no use:
it is three orders of magnitude faster than anything that builds a state.
"""

from __future__ import annotations

import argparse
import copy
import json
from dataclasses import dataclass
from pathlib import Path

import rules
from rules.records import RecordError, import_record

from . import SHARED_GAMES, Row, Section, best_time, eprint

TITLE = "engine"


@dataclass(frozen=True)
class Game:
    """An imported real game: what a fold needs."""

    name: str
    config: rules.RulesConfig
    names: dict[int, str]
    events: tuple[rules.Event, ...]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--records", type=Path, default=SHARED_GAMES, metavar="DIR",
                        help="the real game records (default: ../shared/games)")


def load_games(folder: Path) -> tuple[list[Game], list[str]]:
    """Every record under ``folder`` that imports, and a line for each one that does not."""
    games: list[Game] = []
    skipped: list[str] = []
    for path in sorted(folder.glob("*/*.json")):
        name = f"{path.parent.name}/{path.stem}"
        try:
            imported = import_record(json.loads(path.read_text(encoding="utf-8")))
        except (RecordError, ValueError) as error:
            skipped.append(f"{name}: {error}")
            continue
        games.append(Game(name, imported.config, dict(imported.names), tuple(imported.events)))
    return games, skipped


def fold_all(games: list[Game]) -> None:
    """The engine: every game replayed by :func:`rules.fold`."""
    for game in games:
        rules.fold(game.config, game.events, game.names)


def copy_all(games: list[Game]) -> None:
    """The floor: the same fold with ``apply`` replaced by a deep copy of the state."""
    for game in games:
        state = rules.new_game(game.config, game.names)
        for _ in rules.effective(game.events):
            state = copy.deepcopy(state)


def run(args: argparse.Namespace) -> Section:
    section = Section(TITLE)
    folder: Path = args.records
    if not folder.is_dir():
        section.notes.append(f"engine rows skipped: no game records at {folder}")
        return section
    games, skipped = load_games(folder)
    section.notes += [f"record not imported, left out: {line}" for line in skipped]
    if not games:
        section.notes.append(f"engine rows skipped: no record under {folder} imports")
        return section
    events = sum(len(rules.effective(g.events)) for g in games)
    repeat, min_seconds = (1, 0.0) if args.quick else (3, 2.0)
    eprint(f"engine: {len(games)} records, {events} events, best of ≥{repeat} passes")
    fold_all(games)  # warm up (imports, caches)
    engine = best_time(lambda: fold_all(games), repeat=repeat, min_seconds=min_seconds)
    floor = best_time(lambda: copy_all(games), repeat=repeat, min_seconds=min_seconds)
    restart_rate = 10_000 * events / len(games) / 2.0
    section.rows.append(Row(
        "engine: fold of the real games", events / engine, "ev/s", floor=events / floor,
        note=(f"{len(games)} real games ({events} events, {events / len(games):.0f} a game) "
              "replayed by rules.fold; floor: the same fold doing only the deep copy of the state "
              "that rules.apply makes per event (copy-on-apply with the rules taken out). "
              "No target of its own; a restart that refolds 10,000 such games in 2 s would need "
              f"{restart_rate:,.0f} ev/s."),
    ))
    section.notes.append(
        f"engine: {1e6 * engine / events:.0f} µs per event, of which the state's deep copy "
        f"alone costs {1e6 * floor / events:.0f} µs ({100 * floor / engine:.0f}%)")
    return section

