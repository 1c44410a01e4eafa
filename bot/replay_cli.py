"""``mafia-referee replay FILE [--json]``: replay a real game record through the rules engine.

Reads a Polemica v4 or MafiaRatings JSON record, replays it under the rules it was played by
(:func:`rules.records.replay`) and prints the engine's announcements, then the comparison with
the record. Exit status: 0 the replay agrees with the record, 1 it disagrees, 2 the file is
unreadable or the record carries an option or value the importer does not know.

Announcements are printed from the message catalogs (``--lang``; private notices too: the
record's roles are known). ``--json`` prints one JSON object instead: the engine's outcome
``{"winner", "departures", "cancelled_votes"}`` at the top level, plus ``agrees``,
``differences``, ``notes`` and the record's own outcome under ``"record"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from rules.records import RecordError, ReplayReport, replay

from .i18n import DEFAULT_LANG, Catalog, catalog
from .render import notice_text

EXIT_AGREES = 0
EXIT_DISAGREES = 1
EXIT_UNREADABLE = 2


def _load(path: str | Path) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _departures(outcome: dict[str, Any]) -> str:
    parts = [
        f"{d['seat']}:{d['cause']}@{'N' if d['phase'] == 'night' else 'D'}{d['day']}"
        for d in outcome["departures"]
    ]
    return " ".join(parts) or "-"


def _print_text(report: ReplayReport, out: TextIO, cat: Catalog) -> None:
    for notice in report.notices:
        line = notice_text(notice, cat)
        if line:
            print(line, file=out)
    print(file=out)
    print(cat.text("replay-record", source=report.source, game=str(report.game_id),
                   partial="no" if report.complete else "yes"), file=out)
    for label, outcome in (("replay", report.report), ("record", report.recorded)):
        print(cat.text("replay-outcome", label=label, winner=outcome["winner"] or "-",
                       departures=_departures(outcome),
                       cancelled=str(outcome["cancelled_votes"] or "-")), file=out)
    for note in report.notes:  # the importer's notes and differences are technical, in English
        print(cat.text("replay-note", note=note), file=out)
    for difference in report.differences:
        print(cat.text("replay-difference", difference=difference), file=out)
    print(cat.text("replay-agrees" if report.agrees else "replay-disagrees"), file=out)


def _print_json(report: ReplayReport, out: TextIO) -> None:
    data = {**report.report, "agrees": report.agrees, "differences": list(report.differences),
            "notes": list(report.notes), "complete": report.complete, "record": report.recorded}
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str), file=out)


def run_replay_cli(path: str | Path, as_json: bool, out: TextIO, lang: str = DEFAULT_LANG) -> int:
    """Replay the record in ``path``; print to ``out``; return the exit status (0/1/2)."""
    cat = catalog(lang)
    try:
        record = _load(path)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        _fail(out, as_json, "unreadable", str(error), None, cat)
        return EXIT_UNREADABLE
    try:
        report = replay(record)
    except RecordError as error:
        _fail(out, as_json, "record", error.message, error.field, cat)
        return EXIT_UNREADABLE
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        # A value of the wrong shape that the importer's checks did not name: still a record we
        # cannot read (exit 2), never a disagreement (exit 1).
        _fail(out, as_json, "record", f"malformed record ({type(error).__name__}: {error})", None, cat)
        return EXIT_UNREADABLE
    if as_json:
        _print_json(report, out)
    else:
        _print_text(report, out, cat)
    return EXIT_AGREES if report.agrees else EXIT_DISAGREES


def _fail(out: TextIO, as_json: bool, kind: str, message: str, field: str | None,
          cat: Catalog) -> None:
    if as_json:
        print(json.dumps({"error": kind, "field": field, "message": message},
                         ensure_ascii=False), file=out)
    else:
        print(cat.text("replay-error", kind=kind, field=f" {field}:" if field else "",
                       message=message), file=out)
