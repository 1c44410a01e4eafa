"""``mafia-referee replay FILE [--json] [--png FILE] [--protocol FILE] [--lang ru|en]``: replay a
real game record through the rules engine, and render its protocol.

Reads a Polemica v4 game (plain, or in the envelope Polemica's API returns), a MafiaRatings
game, or what ``mafia-referee`` itself exports (our JSON protocol, and the MafiaRatings layout),
replays it under the rules it was played by
(:func:`rules.records.replay`) and prints the engine's announcements, then the comparison with
the record. Exit status: 0 the replay agrees with the record, 1 it disagrees, 2 the file is
unreadable (missing; over :data:`MAX_BYTES`, and then read no further, even from a device or a
pipe; not JSON; nested deeper than Python can read; a list of a known section that is ``null`` or
longer than :data:`MAX_ENTRIES`) or the record carries an option or value the importer does not
know.

Announcements and the comparison are printed from the message catalogs (``--lang``, default
``MAFIA_REFEREE_LANG``; private notices too: the record's roles are known); the importer's notes
and differences stay technical English. ``--json`` prints one JSON object instead (README,
"Commands"): the engine's outcome ``winner`` (``"red"``, ``"black"``, ``"draw"`` or ``null``),
``departures`` (``[{"seat", "day", "phase", "cause"}]``) and ``cancelled_votes`` (days) at the
top level, plus ``agrees``, ``differences``, ``notes``, ``complete`` (the record reaches the end
of the game) and the record's own outcome under ``record`` (same three keys); on an unreadable
file ``{"error", "field", "message", "file"}`` instead.

``--png FILE`` writes the record's score sheet and ``--protocol FILE`` our JSON protocol, as the
bots make them (:mod:`bot.protocol`; the record's judge's extras and best move in its points); with
``--json`` the object also has ``written`` (the paths) and ``not_made`` (why not). A file that
cannot be made (the record does not reach the end of the game) exits 1.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO, Callable, TextIO

from rules.records import RecordError, ReplayReport, import_record, replay

from .i18n import DEFAULT_LANG, Catalog, catalog, problem_text
from .render import notice_text, seat_label

EXIT_AGREES = 0
EXIT_DISAGREES = 1
EXIT_UNREADABLE = 2

#: A record is a few kilobytes (a real one: under 100 KB); a larger file is refused before reading.
MAX_BYTES = 20 * 1024 * 1024
#: The most entries a record's list may hold (a game has at most a few hundred votes).
MAX_ENTRIES = 10_000
#: Sections the importers read as lists: ``null`` there is a malformed record, not "none".
LIST_SECTIONS = ("players", "votes", "shots", "checks")


class Unreadable(Exception):
    """The file cannot be read as a record: ``message`` says why (already in the user's words)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


#: The file name that means standard input (``mafia-referee replay - < game.json``).
STDIN = "-"


def _load(path: str | Path, cat: Catalog, stdin: BinaryIO | None = None) -> Any:
    """The JSON in ``path`` (``-``: standard input): a regular file's size checked before
    reading; from anything else (standard input, a device such as ``/dev/zero``, a FIFO, whose
    size says nothing) at most :data:`MAX_BYTES` + 1 bytes are read and the extra byte refuses
    it; the nesting depth caught."""
    if str(path) == STDIN:
        data = (stdin if stdin is not None else sys.stdin.buffer).read(MAX_BYTES + 1)
    else:
        size = os.stat(path).st_size
        if size > MAX_BYTES:
            raise Unreadable(cat.text("replay-too-large", size=str(size // (1024 * 1024) or 1),
                                      limit=str(MAX_BYTES // (1024 * 1024))))
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable(cat.text("replay-too-large-stream", limit=str(MAX_BYTES // (1024 * 1024))))
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise Unreadable(cat.text("replay-too-deep")) from None


def _check_shape(record: Any, cat: Catalog) -> None:
    """Refuse what the importers would misread rather than reject: a known list section that is
    ``null``, and any list longer than :data:`MAX_ENTRIES` (walked without recursion)."""
    if isinstance(record, dict):
        inner = record.get("data")  # a Polemica game in the API's envelope
        for where, part in (("", record), ("data.", inner if isinstance(inner, dict) else {})):
            for key in LIST_SECTIONS:
                if key in part and part[key] is None:
                    raise Unreadable(cat.text("replay-null-list"), where + key)
    stack: list[tuple[Any, str]] = [(record, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, list):
            if len(value) > MAX_ENTRIES:
                raise Unreadable(cat.text("replay-too-many", count=str(len(value)),
                                          limit=str(MAX_ENTRIES)), where or "record")
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((item, f"{where}.{key}" if where else str(key)) for key, item in value.items())


def _winner(winner: str | None, cat: Catalog) -> str:
    """``победа красных`` / ``ничья`` / ``итог не записан``: the catalogs' team words."""
    if winner in ("red", "black"):
        return cat.text("replay-winner", winner="team", team=cat.text(f"team-of-{winner}"))
    return cat.text("replay-winner", winner=winner or "none", team="")


def _departures(outcome: dict[str, Any], cat: Catalog) -> str:
    parts = []
    for d in outcome["departures"]:
        cause = f"cause-{d['cause']}"
        parts.append(cat.text("replay-departure", seat=seat_label(d["seat"], cat),
                              cause=cat.text(cause) if cat.has(cause) else str(d["cause"]),
                              phase=d["phase"], day=str(d["day"])))
    return "; ".join(parts) or "-"


def _print_text(report: ReplayReport, out: TextIO, cat: Catalog) -> None:
    for notice in report.notices:
        line = notice_text(notice, cat)
        if line:
            print(line, file=out)
    print(file=out)
    print(cat.text("replay-record", source=report.source, game=str(report.game_id),
                   partial="no" if report.complete else "yes"), file=out)
    for label, outcome in (("replay", report.report), ("record", report.recorded)):
        cancelled = ", ".join(str(day) for day in outcome["cancelled_votes"] or ()) or "-"
        print(cat.text("replay-outcome", label=label, winner=_winner(outcome["winner"], cat),
                       departures=_departures(outcome, cat), cancelled=cancelled), file=out)
    for note in report.notes:  # the importer's notes and differences are technical, in English
        print(cat.text("replay-note", note=note), file=out)
    for difference in report.differences:
        print(cat.text("replay-difference", difference=difference), file=out)
    print(cat.text("replay-agrees" if report.agrees else "replay-disagrees"), file=out)


def _print_json(report: ReplayReport, out: TextIO, extra: dict[str, Any] | None = None) -> None:
    data = {**report.report, "agrees": report.agrees, "differences": list(report.differences),
            "notes": list(report.notes), "complete": report.complete, "record": report.recorded,
            **(extra or {})}
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str), file=out)


def run_replay_cli(path: str | Path, as_json: bool, out: TextIO, lang: str = DEFAULT_LANG, *,
                   err: TextIO | None = None, stdin: BinaryIO | None = None,
                   png: Path | None = None, protocol: Path | None = None) -> int:
    """Replay the record in ``path`` (``-``: standard input, or ``stdin``); print to ``out``;
    return the exit status (0/1/2). A record that cannot be read is one line on ``err``
    (default: ``out``), or with ``as_json`` the error object on ``out``. ``png`` /
    ``protocol``: also write the record's score sheet / our JSON protocol there (a file that
    cannot be made, e.g. of an unfinished game, is said and exits 1)."""
    cat = catalog(lang)
    err = out if err is None else err
    out_or_err = out if as_json else err
    try:
        record = _load(path, cat, stdin)
        _check_shape(record, cat)
    except Unreadable as error:
        _fail(out_or_err, as_json, "unreadable", error.message, error.field, path, cat)
        return EXIT_UNREADABLE
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        _fail(out_or_err, as_json, "unreadable", _unreadable(error, cat), None, path, cat)
        return EXIT_UNREADABLE
    try:
        report = replay(record)
    except RecordError as error:
        _fail(out_or_err, as_json, "record", error.message, error.field, path, cat)
        return EXIT_UNREADABLE
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError,
            OverflowError, MemoryError) as error:
        # A value of the wrong shape that the importer's checks did not name: still a record we
        # cannot read (exit 2), never a disagreement (exit 1).
        _fail(out_or_err, as_json, "record", f"malformed record ({type(error).__name__}: {error})"[:500],
              None, path, cat)
        return EXIT_UNREADABLE
    written, not_made = _protocol_files(record, cat, png=png, protocol=protocol)
    if as_json:
        extra = {"written": written, "not_made": not_made} if png or protocol else {}
        _print_json(report, out, extra)
    else:
        _print_text(report, out, cat)
        for name in written:
            print(cat.text("protocol-cli-written", file=name), file=out)
        for problem in not_made:
            print(problem, file=out)
    if not_made:
        return EXIT_DISAGREES
    return EXIT_AGREES if report.agrees else EXIT_DISAGREES


def _protocol_files(record: Any, cat: Catalog, *, png: Path | None,
                    protocol: Path | None) -> tuple[list[str], list[str]]:
    """The record's score sheet (``png``) and our JSON protocol (``protocol``) written, as the
    bots make them: the paths written, and why any asked file was not (in ``cat``'s words)."""
    if png is None and protocol is None:
        return [], []
    from .protocol import ExportError, error_text, render_sheet, to_json

    imported = import_record(record)
    made: list[tuple[Path, Callable[[], bytes]]] = []
    if png is not None:
        made.append((png, lambda: render_sheet(imported.config, imported.names, imported.events,
                                               cat.lang, game_id=imported.game_id)))
    if protocol is not None:
        made.append((protocol, lambda: json.dumps(
            to_json(imported.config, imported.names, imported.events, game_id=imported.game_id),
            ensure_ascii=False, indent=1).encode("utf-8")))
    written: list[str] = []
    not_made: list[str] = []
    for path, make in made:
        try:
            path.write_bytes(make())
        except ExportError as error:
            not_made.append(error_text(error, cat))
        except OSError as error:
            not_made.append(cat.text("protocol-cli-not-written", file=str(path),
                                     why=problem_text(error, cat)))
        else:
            written.append(str(path))
    return written, not_made


def _unreadable(error: OSError | UnicodeDecodeError | json.JSONDecodeError, cat: Catalog) -> str:
    """Why the file cannot be read, in ``cat``'s words: not JSON (where), not UTF-8 (where), the
    file itself (:func:`bot.i18n.problem_text`)."""
    if isinstance(error, json.JSONDecodeError):
        return cat.text("replay-not-json", line=error.lineno, column=error.colno)
    if isinstance(error, UnicodeDecodeError):
        return cat.text("replay-not-utf8", offset=error.start)
    return problem_text(error, cat)


def _fail(out: TextIO, as_json: bool, kind: str, message: str, field: str | None,
          path: str | Path, cat: Catalog) -> None:
    if as_json:
        print(json.dumps({"error": kind, "field": field, "message": message, "file": str(path)},
                         ensure_ascii=False), file=out)
    else:
        print(cat.text("replay-error", kind=kind, file=str(path), field=f" {field}:" if field else "",
                       message=message), file=out)
