"""The ``mafia-referee`` console script: :func:`bot.cli.main` with the failures a user can cause
turned into one clear line (from the catalogs) and an exit status instead of a traceback.

* a bad setting in the environment or ``.env`` (pydantic's ``ValidationError``) → status 2;
* a database file that cannot be opened (not SQLite, read-only, a directory) → status 2;
* Ctrl-C → status 130, quietly; output into a closed pipe (``| head``) → status 0, quietly.
"""

from __future__ import annotations

import os
import sqlite3
import sys

from .i18n import DEFAULT_LANG, LANGS, catalog

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _lang() -> str:
    lang = os.environ.get("MAFIA_REFEREE_LANG", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


def run() -> int:
    """The console-script entry point (``pyproject.toml``)."""
    from pydantic import ValidationError

    from .cli import main

    cat = catalog(_lang())
    try:
        return main()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``mafia-referee | head``): silence the interpreter's final flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ValidationError as error:
        for problem in error.errors():
            field = ".".join(str(part) for part in problem.get("loc", ())) or "?"
            print(cat.text("cli-bad-setting", name=f"MAFIA_REFEREE_{field.upper()}",
                           problem=problem.get("msg", "")), file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.Error as error:
        print(cat.text("cli-bad-database", problem=str(error)), file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run())
