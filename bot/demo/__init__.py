"""The shipped demo: one complete club game, played through the real service and store.

``club_game.txt`` is a command script in the console's language (``#`` comments tell the story).
:func:`run_demo` plays it through :class:`bot.service.Service` on a SQLite :class:`storage.Store`
(a temporary file deleted afterwards, unless ``db`` is given) and prints what a group would see:
the public announcements only (F24 §4.4.13: roles stay hidden until the end; check answers and
best-move hits go to the judge only), then the result.
"""

from __future__ import annotations

import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TextIO

from ..console import PROMPT, Session, script_lines
from ..i18n import DEFAULT_LANG, catalog
from ..render import result_text
from ..service import Service

SCRIPT = "club_game.txt"
CHAT = "console:demo"
JUDGE = "console:judge"
WINNER = "red"  # the result the script's story intends (all blacks voted out, F24 §1.4)


def script_text(name: str = SCRIPT) -> str:
    """The text of a shipped demo script."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def commands(name: str = SCRIPT) -> list[str]:
    """The commands of a shipped demo script, comments and blank lines dropped."""
    return list(script_lines(script_text(name).splitlines()))


async def play(db: Path, *, lang: str = DEFAULT_LANG, out: TextIO | None = None) -> int:
    """Play the demo script into the store at ``db``. Returns 0, or 1 if a command was refused
    (the script and the rules disagree: a bug)."""
    out = out if out is not None else sys.stdout
    cat = catalog(lang)
    from ..opening import open_database  # PostgreSQL down, a read-only folder: one line (bot.entry)

    store = await open_database(db)
    try:
        session = Session(Service(store), cat, chat=CHAT, user=JUDGE, judge_view=False)
        for line in commands():
            reply = await session.handle(line)
            if not reply.accepted:
                print(PROMPT + line, *reply.refusal, sep="\n", file=sys.stderr)
                return 1
            for text in reply.lines:
                print(text, file=out)
        current = await session.service.current(CHAT)
        assert current is not None
        print(file=out)
        print(result_text(current.state, cat), file=out)
        return 0
    finally:
        await store.close()


async def run_demo(db: Path | None = None, *, lang: str = DEFAULT_LANG, out: TextIO | None = None) -> int:
    """:func:`play` on ``db``, or on a temporary database removed afterwards."""
    if db is not None:
        return await play(db, lang=lang, out=out)
    with tempfile.TemporaryDirectory(prefix="mafia-referee-demo-") as folder:
        return await play(Path(folder) / "demo.sqlite3", lang=lang, out=out)
