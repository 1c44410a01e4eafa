"""The ``mafia-referee`` console script: :func:`bot.cli.main` with the failures a user can cause
turned into one clear line (from the catalogs) and an exit status instead of a traceback.

* a bad setting in the environment or ``.env`` (pydantic's ``ValidationError``) → status 2, the
  common problems (a choice, a number out of range, not a number, not an http(s) URL) in the
  catalog's words; an env file that is not UTF-8 or cannot be read (:class:`bot.settings.EnvFileError`)
  → status 2, naming the file;
* a database file that cannot be opened (not SQLite, read-only, a directory) → status 2; when it
  is a good (or a missing) file whose folder or files are not writable
  (:class:`bot.cli.DatabaseNotWritable`), the line says so; a database of a newer schema
  (``storage.migrate.NewerSchema``, after a downgrade) or another program's SQLite file
  (``ForeignDatabase``) → status 2 and the line ``health`` says too, for every command (a
  service manager does not restart a process that exits 2);
* the line is in the language of ``--lang`` when the command line has one, else
  ``MAFIA_REFEREE_LANG``;
* another bot process already serving the database (:class:`bot.writer.DatabaseBusy`) → status 2;
* a PostgreSQL database that cannot be reached or opened (:class:`bot.cli.DatabaseUnreachable`:
  its URL without the password), a database file that does not exist for a command that only
  reads (:class:`bot.cli.NoDatabase`), a file the command would write that cannot be written there
  (:class:`bot.cli.BadOutput`: checked before the command runs) → status 2, one line;
* Ctrl-C → status 130, quietly; output into a closed pipe (``| head``) → status 0, quietly.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from typing import Any, Mapping

from .i18n import DEFAULT_LANG, LANGS, Catalog, catalog

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
PREFIX = "MAFIA_REFEREE_"
#: pydantic error types said in the user's language (catalog ``setting-problem-<type>``, cli.ftl);
#: any other keeps pydantic's own (English) text.
PROBLEMS = ("literal_error", "greater_than", "greater_than_equal", "less_than", "less_than_equal",
            "int_parsing", "int_from_float", "float_parsing", "bool_parsing", "missing", "http_url",
            "time_zone", "https_url", "webhook_secret", "club_rules", "database",
            "picture_file")
#: the ``ctx`` entries a problem's words use besides the limit (the webhook secret's bounds); the
#: input itself is never shown for a secret (``setting-problem-webhook_secret`` has no value)
CONTEXT = ("min", "distinct", "shown")


def setting_problem(problem: Mapping[str, Any], cat: Catalog) -> str:
    """What is wrong with one setting, in the catalog's words for the common cases (a choice
    among values, a number out of range, not a number), else pydantic's message."""
    kind = str(problem.get("type", ""))
    ctx = problem.get("ctx") or {}
    if kind not in PROBLEMS:
        return str(problem.get("msg", ""))
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return cat.text("setting-problem-literal_error", expected=", ".join(choices))
    limit = next((ctx[key] for key in ("gt", "ge", "lt", "le") if key in ctx), "")
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)  # "больше 0", not "больше 0.0"
    from storage.pg import masked

    return cat.text(f"setting-problem-{kind}", limit=str(limit),
                    value=masked(str(problem.get("input", "")))[:40],
                    **{key: str(ctx[key]) for key in CONTEXT if key in ctx})


def _lang() -> str:
    """``--lang`` of the command line, else ``MAFIA_REFEREE_LANG``, else the default."""
    from .cli import lang_option

    lang = lang_option(sys.argv[1:]) or os.environ.get("MAFIA_REFEREE_LANG", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


def run() -> int:
    """The console-script entry point (``pyproject.toml``)."""
    from pydantic import ValidationError

    from storage.migrate import ForeignDatabase, NewerSchema

    from .cli import BadOutput, DatabaseNotWritable, DatabaseUnreachable, NoDatabase, main
    from .i18n import problem_text
    from .settings import EnvFileError, WebUnavailable
    from .writer import DatabaseBusy

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
            name = field.upper() if field.upper().startswith(PREFIX) else PREFIX + field.upper()
            print(cat.text("cli-bad-setting", name=name, problem=setting_problem(problem, cat)),
                  file=sys.stderr)
        return EXIT_USAGE
    except EnvFileError as error:
        print(cat.text("cli-bad-env-file", path=error.path, problem=error.problem, detail=error.detail,
                       offset=str(error.offset)),
              file=sys.stderr)
        return EXIT_USAGE
    except DatabaseBusy as error:
        print(cat.text("cli-db-busy", path=str(error.db), pid=str(error.pid or "?")), file=sys.stderr)
        return EXIT_USAGE
    except BadOutput as error:
        print(cat.text("cli-bad-output", path=error.path, problem=problem_text(error.cause, cat)),
              file=sys.stderr)
        return EXIT_USAGE
    except NoDatabase as error:
        print(cat.text("cli-no-database", path=error.path), file=sys.stderr)
        return EXIT_USAGE
    except DatabaseUnreachable as error:
        print(cat.text("cli-db-unreachable", url=error.url, problem=problem_text(error.cause, cat)),
              file=sys.stderr)
        return EXIT_USAGE
    except DatabaseNotWritable as error:
        print(cat.text("cli-db-not-writable", path=str(error.path), problem=error.problem), file=sys.stderr)
        return EXIT_USAGE
    except NewerSchema as error:
        print(cat.text("cli-new-schema", path=error.path, version=error.version, expected=error.expected),
              file=sys.stderr)
        return EXIT_USAGE
    except ForeignDatabase as error:
        print(cat.text("cli-foreign-database", path=error.path, tables=", ".join(error.tables[:5])),
              file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.Error as error:
        print(cat.text("cli-bad-database", problem=str(error)), file=sys.stderr)
        return EXIT_USAGE
    except WebUnavailable as error:
        print(cat.text("cli-web-unavailable", listen=error.listen, port=str(error.port),
                       problem=problem_text(error.cause, cat)), file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run())
