"""``mafia-referee protocol [--db PATH] [--game ID] [--png FILE] [--json FILE]
[--mafiaratings FILE] [--raw FILE] [--lang ru|en]``: the protocol of a stored game, as files.

Renders any finished game of the database (the console's, or a bot's: the same log) — by default
the console's current game — as the score sheet (PNG), our JSON protocol and the MafiaRatings
layout, exactly as the bots send them (:func:`bot.protocol.files.protocol_files`; the club's name
and time zone from the settings, ``MAFIA_REFEREE_CLUB_NAME`` / ``MAFIA_REFEREE_CLUB_TZ``). Each
file goes where its option says; with none of the three options all of them are written to the
current directory under the names the bots give them (``game-12.png``, ``game-12.json``,
``game-12.mafiaratings.json``).

``--raw FILE`` writes the game's stored log as it is, not replayed (:func:`raw_log`): the way
out for a game set aside because its log no longer folds (``Service``'s ``quarantined``); alone,
it is the only file written.

Each written file is printed as a line; what could not be made (a game that is not over, a
MafiaRatings export the game does not fit) is said in ``--lang``'s words, and a file that could
not be written (or no such game) on standard error. Exit status: 0 every asked file written; 1 a
file asked for could not be made or written (the current directory read-only, a full disk; a
named file that cannot be written at all is refused before, exit 2: ``bot.cli``); 2 no such game
(or no such database: none is created).
"""

from __future__ import annotations

import json as json_text
import sys
from pathlib import Path
from typing import Any, TextIO

from storage import GameRow, Store

from .console import CHAT
from .i18n import catalog, problem_text
from .protocol.files import SheetDefaults, protocol_files

EXIT_OK = 0
EXIT_NOT_MADE = 1
EXIT_NO_GAME = 2

#: The option of each file, by the suffix of the name the bots give it.
KINDS = (("png", ".png"), ("mafiaratings", ".mafiaratings.json"), ("json", ".json"))


def _kind(name: str) -> str:
    return next(kind for kind, suffix in KINDS if name.endswith(suffix))


async def raw_log(store: Store, row: GameRow) -> bytes:
    """Game ``row``'s stored record as it is, not replayed (JSON, UTF-8): its row (rules,
    names, chat, judge, times, result, why it was set aside) and every log row (``seq``, the
    event as stored, who recorded it, when: unix seconds)."""
    record: dict[str, Any] = {
        "game": row.id, "chat": row.chat, "judge": row.judge, "config": row.config,
        "names": {str(seat): name for seat, name in row.names.items()},
        "created_at": row.created_at, "finished_at": row.finished_at, "result": row.result,
        "quarantine": row.quarantine,
        "events": [{"seq": e.seq, "event": e.event, "actor": e.actor, "at": e.at}
                   for e in await store.events(row.id)]}
    return json_text.dumps(record, ensure_ascii=False, indent=1).encode()


async def run_protocol_cli(db: Path, out: TextIO, *, game: int | None = None,
                           png: Path | None = None, json: Path | None = None,
                           mafiaratings: Path | None = None, raw: Path | None = None,
                           lang: str = "ru", defaults: SheetDefaults | None = None,
                           err: TextIO | None = None) -> int:
    """Write the protocol's files of game ``game`` (default: the console's current game) in
    ``db`` (a file or ``postgresql://…``; ``raw``: its stored log, :func:`raw_log`); print the
    files written to ``out``, what went wrong to ``err`` (standard error by default); return the
    exit status (0/1/2)."""
    from .opening import NoDatabase, open_database

    cat = catalog(lang)
    err = err or sys.stderr
    wanted = {"png": png, "json": json, "mafiaratings": mafiaratings}
    everything = all(path is None for path in wanted.values())
    try:
        store = await open_database(db, create=False)  # never an empty database made by asking
    except NoDatabase:
        print(cat.text("protocol-cli-no-db", db=str(db)), file=err)
        return EXIT_NO_GAME
    try:
        row = await store.game(game) if game is not None else await store.current_game(CHAT)
        if row is None:
            print(cat.text("protocol-cli-no-game", game=str(game) if game is not None else "none"),
                  file=err)
            return EXIT_NO_GAME
        record = await raw_log(store, row) if raw is not None else b""
        if raw is not None and everything:
            return _written(raw, record, out, cat, err)
        made = await protocol_files(store, row.id, cat, defaults=defaults)
    finally:
        await store.close()
    status = EXIT_OK if raw is None else _written(raw, record, out, cat, err)
    asked = made.problems if everything else list(dict.fromkeys(  # only the files asked for
        text for kind, path in wanted.items() if path is not None for text in made.missing.get(kind, [])))
    for problem in asked:
        print(problem, file=out)
    files = {_kind(name): (name, data) for name, data in made.files}
    for kind, path in wanted.items():
        if not everything and path is None:
            continue
        if kind not in files:
            if not everything:
                status = EXIT_NOT_MADE
            continue
        name, content = files[kind]
        target = Path(name) if everything else path
        assert target is not None
        status = max(status, _written(target, content, out, cat, err))
    if everything and not files:
        status = EXIT_NOT_MADE
    return status


def _written(target: Path, data: bytes, out: TextIO, cat: Any, err: TextIO) -> int:
    """Write ``data`` to ``target`` and say so on ``out`` (or why not, on ``err``): 0 written,
    1 not."""
    try:
        target.write_bytes(data)
    except OSError as error:
        print(cat.text("protocol-cli-not-written", file=str(target), why=problem_text(error, cat)),
              file=err)
        return EXIT_NOT_MADE
    print(cat.text("protocol-cli-written", file=str(target)), file=out)
    return EXIT_OK
