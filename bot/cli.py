"""``mafia-referee``: the command line.

    mafia-referee [demo] [--db PATH] [--lang ru|en]      play the shipped example game (default)
    mafia-referee console [--db PATH] [--new] [--strict] [--lang ru|en]
    mafia-referee replay FILE [--json] [--png FILE] [--protocol FILE] [--lang ru|en]
                                                         check a recorded game against the rules
                                                         (and write its score sheet, its protocol)
    mafia-referee protocol [--db PATH] [--game ID] [--png FILE] [--json FILE]
                           [--mafiaratings FILE] [--raw FILE] [--lang ru|en]
                                                         a stored game's protocol as files
    mafia-referee telegram [--db PATH]                   the judge's assistant in Telegram
                                                         (token from the environment; exit
                                                         status 2 when it is missing or refused)
    mafia-referee discord [--db PATH] [--guild ID] [--invite APP_ID]
                                                         the judge's assistant in Discord (token
                                                         from the environment; --invite only
                                                         prints the link that adds the bot)
    mafia-referee both [--db PATH]                       both bots in one process, one game log
                                                         (one writing process per database: a
                                                         second telegram/discord/both on it
                                                         stops at once, exit status 2)
    mafia-referee health [--db PATH] [--heartbeat FILE] [--max-age S] [--lang ru|en]
                                                         the database (and the bot's heartbeat) is
                                                         well: exit 0, else 1 (deploy/); S is a
                                                         positive finite number of seconds
    mafia-referee backup DEST [--db PATH] [--force] [--lang ru|en]
                                                         an online backup of the database
    mafia-referee migrate --to postgresql://… [--db PATH] [--lang ru|en]
                                                         copy the SQLite database into an empty
                                                         PostgreSQL one and check the copy
    mafia-referee clubs [--db PATH]                      the clubs of a database, with their keys
    mafia-referee club-export [--club CHAT] [--format json|csv] [--out FILE]
    mafia-referee club-stats NAME [PERIOD] [--club CHAT] [--png FILE]
                                                         a club's roster and games; a player's card
    mafia-referee --version                              the installed version

``PATH`` of ``--db`` is a file or a PostgreSQL URL for every command (:func:`open_database`). A
file a command writes (an :class:`OutputFile` argument) that cannot be written there is refused
before the command runs (:func:`refuse_bad_outputs`); a database that cannot be opened or
reached is one line (:mod:`bot.entry`) — never a traceback, never the URL's password.

``main`` returns the exit status (0 ok; 1 a runtime failure or a disagreement; 2 bad input or
settings); the console-script wrapper (:mod:`bot.entry`) passes it to ``sys.exit``. A command line
argparse cannot read is one line in the chosen language (``--lang``, else ``MAFIA_REFEREE_LANG``)
with argparse's own reason, exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import math
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, NoReturn, Sequence, TextIO

from .i18n import DEFAULT_LANG, LANGS, catalog
from .opening import (  # re-exported: bot.entry says these
    DatabaseNotWritable, DatabaseUnreachable, NoDatabase, open_database, why_not_opened,
)

if TYPE_CHECKING:
    from .i18n import Catalog
    from .settings import Settings

COMMANDS = ("demo", "console", "replay", "protocol", "clubs", "club-export", "club-stats", "telegram",
            "discord", "both", "health", "backup", "migrate")
EXIT_UNAVAILABLE = 2
DISTRIBUTION = "mafia-referee"
#: A Discord application (client) id is a snowflake: a positive 64-bit integer, at most 20 digits.
MAX_SNOWFLAKE_DIGITS = 20


class BadOutput(Exception):
    """A file a command would write cannot be written there (its folder is missing, it is a
    folder, the place is read-only): refused before anything runs (:func:`refuse_bad_outputs`),
    one line (``cli-bad-output``), exit status 2. ``cause``: the OS's error."""

    def __init__(self, path: str, cause: BaseException) -> None:
        super().__init__(path, cause)
        self.path = path
        self.cause = cause


class _Marked:
    """An argparse ``type`` that marks what an argument is (so that a command's files and
    databases are found by it) and keeps its value a :class:`~pathlib.Path`."""

    #: what ``--help``'s usage calls the value
    label = "FILE"

    def __call__(self, text: str) -> "Path | str":
        return Path(text)

    def __repr__(self) -> str:
        return self.label


class OutputFile(_Marked):
    """A file the command writes (``--png``, ``--out``, …): :func:`refuse_bad_outputs` checks
    it before the command runs."""


class BackupTarget(OutputFile):
    """``backup DEST``: a file or a folder, kept as text, checked by :func:`bot.health.backup`."""

    def __call__(self, text: str) -> str:
        return text


class Database(_Marked):
    """A database (``--db``): a file path, ``sqlite:///path`` or ``postgresql://…``
    (:func:`storage.is_url`), kept a :class:`~pathlib.Path` as the settings keep
    ``MAFIA_REFEREE_DB``."""

    label = "DATABASE"

    def __call__(self, text: str) -> "Path | str":
        """Refused here (argparse's one line, exit 2) unless it names a database
        (:func:`storage.pg.check_target`), the password masked."""
        import argparse

        from storage.pg import BadTarget, check_target

        try:
            check_target(text)
        except BadTarget as bad:
            raise argparse.ArgumentTypeError(
                catalog(_usage_lang(sys.argv[1:])).text("setting-problem-database", shown=bad.shown)) from None
        return Path(text)


class PostgresUrl(Database):
    """``migrate --to``: a PostgreSQL database's URL, kept as text (its ``//``)."""

    def __call__(self, text: str) -> str:
        return text


def output_problem(path: Path) -> BaseException | None:
    """Why ``path`` cannot be written as a file (an ``OSError`` to say), else ``None``: a folder
    (``EISDIR``), a missing folder above it (``ENOENT``), a place this process may not create a
    file in — tried, as root ignores modes: a read-only mount, ``/sys`` (``EACCES``, ``EROFS``)."""
    import errno
    import os

    if path.is_dir():
        return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if path.exists():
        if os.access(path, os.W_OK):
            return None
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        return error
    os.close(fd)
    path.unlink(missing_ok=True)
    return None


def refuse_bad_outputs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Raise :class:`BadOutput` for the first file argument (:class:`OutputFile`, not a backup's
    DEST) of the chosen command that cannot be written, before the command does anything."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = sub.choices.get(args.command) if sub is not None else None
    for action in command._actions if command is not None else ():
        value = getattr(args, action.dest, None)
        if type(action.type) is OutputFile and value is not None:
            problem = output_problem(Path(value))
            if problem is not None:
                raise BadOutput(str(value), problem)


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line in the chosen language (catalog ``cli-usage``):
    argparse's own reason, then where to find the help; exit status 2."""

    def __init__(self, *args: object, lang: str = DEFAULT_LANG, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lang = lang

    def error(self, message: str) -> NoReturn:
        line = catalog(self.lang).text("cli-usage", problem=message, prog=self.prog)
        self.exit(EXIT_UNAVAILABLE, line + "\n")


def installed_version() -> str:
    """The installed distribution's version (``importlib.metadata``), or ``unknown`` when the
    package is run from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


#: argparse's own words (its gettext message ids) and the catalog key each is said by, so that
#: its usage line, its section titles and its errors are in the chosen language
#: (:func:`argparse_words`); a message argparse adds later stays in English.
ARGPARSE_WORDS = {
    "usage: ": "argparse-usage",
    "argument %(argument_name)s: %(message)s": "argparse-argument",
    "positional arguments": "argparse-positionals",
    "options": "argparse-options",
    "show this help message and exit": "argparse-help",
    "unrecognized arguments: %s": "argparse-unrecognized",
    "not allowed with argument %s": "argparse-not-allowed",
    "ignored explicit argument %r": "argparse-ignored",
    "the following arguments are required: %s": "argparse-required",
    "one of the arguments %s is required": "argparse-one-required",
    "expected one argument": "argparse-expected-one",
    "expected at most one argument": "argparse-expected-at-most-one",
    "expected at least one argument": "argparse-expected-at-least-one",
    "expected %s argument": "argparse-expected-n",
    "expected %s arguments": "argparse-expected-n-plural",
    "ambiguous option: %(option)s could match %(matches)s": "argparse-ambiguous",
    "unexpected option string: %s": "argparse-unexpected",
    "invalid %(type)s value: %(value)r": "argparse-invalid-value",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse-invalid-choice",
    "can't open '%(filename)s': %(error)s": "argparse-cannot-open",
}


@contextlib.contextmanager
def argparse_words(lang: str) -> Iterator[None]:
    """While building a parser and parsing with it: argparse's words (:data:`ARGPARSE_WORDS`)
    in ``lang``'s (argparse looks them up through its module's ``_`` and ``ngettext``)."""
    cat = catalog(lang)

    def said(message: str) -> str:
        key = ARGPARSE_WORDS.get(message)
        if key is None:
            return message
        return cat.text(key) + message[len(message.rstrip()):]  # "usage: " keeps its space

    def said_n(singular: str, plural: str, count: int) -> str:
        return said(singular if count == 1 else plural)

    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = said, said_n  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _said_help(parser: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """The parser's texts — its description, epilog and every argument's help, given as catalog
    keys (``cli-help-COMMAND-DEST``, help.ftl) — in ``lang``'s words."""
    cat = catalog(lang)

    def said(text: str | None) -> str | None:
        return cat.text(text) if text and text.startswith("cli-") and cat.has(text) else text

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for each in (parser, *sub.choices.values()):
        each.description, each.epilog = said(each.description), said(each.epilog)
        for action in each._actions:
            action.help = said(action.help)
    for choice in sub._choices_actions:
        choice.help = said(choice.help)
    return parser


def _parser(lang: str = DEFAULT_LANG) -> argparse.ArgumentParser:
    parser = _Parser(
        lang=lang,
        prog="mafia-referee",
        description="cli-description",
        epilog="cli-epilog")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}",
                        help="cli-help-main-version")
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(COMMANDS) + "}",
                                parser_class=functools.partial(_Parser, lang=lang))

    demo = sub.add_parser("demo", help="cli-help-demo")
    demo.add_argument("--db", type=Database(), default=None,
                      help="cli-help-demo-db")
    demo.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    console = sub.add_parser("console", help="cli-help-console")
    console.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    console.add_argument("--new", action="count", default=0,
                         help="cli-help-console-new")
    console.add_argument("--strict", action="store_true",
                         help="cli-help-console-strict")
    console.add_argument("--lang", choices=LANGS, default=None,
                         help="cli-help-console-lang")

    replay = sub.add_parser("replay", help="cli-help-replay")
    replay.add_argument("file", type=Path, help="cli-help-replay-file")
    replay.add_argument("--json", action="store_true", dest="as_json",
                        help="cli-help-replay-as_json")
    replay.add_argument("--png", type=OutputFile(), default=None, metavar="FILE",
                        help="cli-help-replay-png")
    replay.add_argument("--protocol", type=OutputFile(), default=None, metavar="FILE",
                        help="cli-help-replay-protocol")
    replay.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    protocol = sub.add_parser("protocol", help="cli-help-protocol")
    protocol.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    protocol.add_argument("--game", type=int, default=None, metavar="ID",
                          help="cli-help-protocol-game")
    protocol.add_argument("--png", type=OutputFile(), default=None, metavar="FILE",
                          help="cli-help-protocol-png")
    protocol.add_argument("--json", type=OutputFile(), default=None, metavar="FILE", dest="json_file",
                          help="cli-help-protocol-json_file")
    protocol.add_argument("--mafiaratings", type=OutputFile(), default=None, metavar="FILE",
                          help="cli-help-protocol-mafiaratings")
    protocol.add_argument("--raw", type=OutputFile(), default=None, metavar="FILE",
                          help="cli-help-protocol-raw")
    protocol.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    telegram = sub.add_parser("telegram", help="cli-help-telegram")
    telegram.add_argument("--db", type=Database(), default=None, help="cli-help-db")

    discord = sub.add_parser("discord", help="cli-help-discord")
    discord.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    discord.add_argument("--guild", type=int, default=None, metavar="ID",
                         help="cli-help-discord-guild")
    discord.add_argument("--invite", type=int, default=None, metavar="APP_ID",
                         help="cli-help-discord-invite")
    both = sub.add_parser("both", help="cli-help-both")
    both.add_argument("--db", type=Database(), default=None, help="cli-help-db")

    clubs = sub.add_parser("clubs", help="cli-help-clubs")
    clubs.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    clubs.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    export = sub.add_parser("club-export", help="cli-help-club-export")
    export.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    export.add_argument("--club", default=None, metavar="CHAT",
                        help="cli-help-club-export-club")
    export.add_argument("--format", choices=("json", "csv"), default="json", dest="fmt",
                        help="cli-help-club-export-fmt")
    export.add_argument("--out", type=OutputFile(), default=None, metavar="FILE",
                        help="cli-help-club-export-out")
    export.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    card = sub.add_parser("club-stats", help="cli-help-club-stats")
    card.add_argument("words", nargs="*", metavar="NAME [PERIOD]",
                      help="cli-help-club-stats-words")
    card.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    card.add_argument("--club", default=None, metavar="CHAT",
                      help="cli-help-club-stats-club")
    card.add_argument("--png", type=OutputFile(), default=None, metavar="FILE", help="cli-help-club-stats-png")
    card.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")

    health = sub.add_parser("health", help="cli-help-health")
    health.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    health.add_argument("--heartbeat", type=Path, default=None, metavar="FILE",
                        help="cli-help-health-heartbeat")
    health.add_argument("--max-age", default=None, metavar="SECONDS",
                        help="cli-help-health-max_age")
    health.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")
    backup = sub.add_parser("backup", help="cli-help-backup")
    backup.add_argument("dest", type=BackupTarget(), help="cli-help-backup-dest")
    backup.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    backup.add_argument("--force", action="store_true",
                        help="cli-help-backup-force")
    backup.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")
    move = sub.add_parser("migrate", help="cli-help-migrate")
    move.add_argument("--to", required=True, metavar="URL", type=PostgresUrl(),
                      help="cli-help-migrate-to")
    move.add_argument("--db", type=Database(), default=None, help="cli-help-db")
    move.add_argument("--lang", choices=LANGS, default=None, help="cli-help-lang")
    return _said_help(parser, lang)


def _settings_lang() -> str:
    """The configured language (``MAFIA_REFEREE_LANG``), without failing on other settings."""
    from .settings import Settings

    try:
        return Settings().lang
    except Exception:  # a bad environment: the command itself reports it when it matters
        return DEFAULT_LANG


def lang_option(args: Sequence[str]) -> str | None:
    """The value of ``--lang X`` (or ``--lang=X``) in ``args`` when it is one we have."""
    for i, arg in enumerate(args):
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in LANGS:
            return value
    return None


def _usage_lang(args: Sequence[str]) -> str:
    """The language of a command-line error: ``--lang X`` when it is one we have, else the
    configured one."""
    return lang_option(args) or _settings_lang()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; no subcommand (or only options) plays the demo."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if not args_in or (args_in[0].startswith("-") and args_in[0] not in ("-h", "--help", "--version")):
        args_in.insert(0, "demo")
    lang = _usage_lang(args_in)
    with argparse_words(lang):  # its usage, titles and errors in the chosen language
        parser = _parser(lang)
        args = parser.parse_args(args_in)
    refuse_bad_outputs(args, parser)  # a file that cannot be written: one line, exit 2 (bot.entry)

    if args.command == "demo":
        from .demo import run_demo

        return asyncio.run(run_demo(args.db, lang=args.lang or _settings_lang()))
    if args.command == "console":
        from .console import run_console
        from .settings import Settings

        settings = Settings()
        db = args.db or settings.db
        try:
            return asyncio.run(run_console(db, new=args.new, strict=args.strict,
                                           lang=args.lang, default_lang=settings.lang,
                                           stdin=script_input(sys.stdin), timezone=settings.timezone,
                                           club_rules=settings.rules))
        except sqlite3.Error as error:
            raise why_not_opened(db, error) from error
    if args.command == "replay":
        from .replay_cli import run_replay_cli

        return int(run_replay_cli(args.file, args.as_json, sys.stdout,
                                  lang=args.lang or _settings_lang(), err=sys.stderr, png=args.png,
                                  protocol=args.protocol))
    if args.command == "protocol":
        from .protocol_cli import run_protocol_cli
        from .settings import Settings

        settings = Settings()
        return asyncio.run(run_protocol_cli(args.db or settings.db, sys.stdout, game=args.game, png=args.png,
                                            json=args.json_file, mafiaratings=args.mafiaratings,
                                            raw=args.raw,
                                            lang=args.lang or settings.lang,
                                            defaults=settings.sheet()))
    if args.command == "clubs":
        from .club.export import run_clubs
        from .settings import Settings

        settings = Settings()
        return asyncio.run(run_clubs(args.db or settings.db, sys.stdout,
                                     lang=args.lang or settings.lang, tz=settings.timezone))
    if args.command == "club-export":
        from .club.export import run_export
        from .console import CHAT
        from .settings import Settings

        settings = Settings()
        return asyncio.run(run_export(args.db or settings.db, args.club or CHAT, args.fmt,
                                      sys.stdout, args.out, lang=args.lang or settings.lang))
    if args.command == "club-stats":
        import time

        from .club.export import run_stats
        from .console import CHAT
        from .settings import Settings

        settings = Settings()
        return asyncio.run(run_stats(args.db or settings.db, args.club or CHAT, args.words,
                                     args.lang or settings.lang, settings.timezone, sys.stdout,
                                     args.png, time.time()))
    if args.command == "discord":
        return _discord(args.db, args.guild, args.invite)
    if args.command == "both":
        return _both(args.db)
    if args.command in ("health", "backup"):
        return _deploy(args)
    if args.command == "migrate":
        return _migrate(args)
    return _telegram(args.db)


class ScriptInput:
    """Standard input that never fails on its encoding: a script's lines are read as bytes and
    decoded one by one — UTF-8, else cp1251 (a file saved by a Windows editor), any byte neither
    knows becoming U+FFFD; a terminal's ``input()`` replaces what it cannot decode."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def isatty(self) -> bool:
        return self._stream.isatty()

    def __iter__(self) -> Iterator[str]:
        buffer = getattr(self._stream, "buffer", None)
        if buffer is None:  # already text (a StringIO in tests)
            yield from self._stream
            return
        for raw in buffer:
            yield decode_line(raw)


def decode_line(raw: bytes) -> str:
    """One line of a script: UTF-8 (a BOM dropped), else cp1251, never an exception."""
    try:
        return raw.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return raw.decode("cp1251", errors="replace")


def script_input(stream: TextIO | None) -> TextIO:
    """``stream`` (stdin) wrapped in :class:`ScriptInput`; a terminal's decoding made lenient;
    no stdin at all (closed by a service manager) is an empty script."""
    if stream is None:
        import io

        return io.StringIO("")
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and stream.isatty():
        reconfigure(errors="replace")
    return ScriptInput(stream)  # type: ignore[return-value]


def _settings_with_db(db: Path | None) -> "Settings":
    from .settings import Settings

    settings = Settings()
    return settings if db is None else settings.model_copy(update={"db": db})


def _probe_database(db: Path) -> None:
    """Open (create, migrate) and close the store at ``db`` before a bot connects anywhere: a
    database that cannot be opened is a bad setting (``sqlite3.Error``: exit 2 in
    :mod:`bot.entry`), said at once rather than after the network is up."""
    async def probe() -> None:
        store = await open_database(db)
        await store.close()

    asyncio.run(probe())


def _serve(db: Path, serve: Callable[[], int]) -> int:
    """Take the writer's lock of ``db`` (:mod:`bot.writer`: one writing process per database;
    another one running is :class:`bot.writer.DatabaseBusy`, exit 2), then open (create, migrate)
    the store (:func:`_probe_database`) and run ``serve`` while holding it: a second process
    touches neither the database nor the network. A lock that cannot be taken is said as the
    database's own problem when it has one (a read-only folder, not SQLite), else as the lock
    file's."""
    from storage import is_url

    from . import writer

    try:
        lock = writer.acquire(db)
    except OSError as error:
        if is_url(db):
            raise DatabaseUnreachable(str(db), error.__cause__ or error) from error
        _probe_database(db)
        raise DatabaseNotWritable(writer.lock_path(db), error.strerror or str(error)) from error
    with lock:
        _probe_database(db)
        return serve()


def _serve_shared(settings: "Settings", serve: Callable[[], int]) -> int:
    """``MAFIA_REFEREE_WORKERS=shared``: one of several workers on a PostgreSQL database, with
    no writer's lock (each chat's owner is this worker or another: :mod:`bot.telegram.shared`).
    Refused with one line and exit status 2 on SQLite, and in webhook mode without
    ``…_TELEGRAM_WEBHOOK_SECRET`` (each worker's own random secret, given to Telegram at its
    start, would make Telegram's requests to the others forged)."""
    from storage import is_url

    cat = catalog(settings.lang)
    if not is_url(settings.db):
        print(cat.text("cli-shared-needs-postgresql"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    if settings.telegram_webhook_url and settings.telegram_webhook_secret is None:
        print(cat.text("cli-shared-needs-secret"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    _probe_database(settings.db)
    return serve()


def _no_heartbeat(settings: "Settings", mode: str) -> None:
    """Only ``telegram`` touches ``MAFIA_REFEREE_HEARTBEAT``: the other long-running modes say so
    in the file, and ``health --max-age`` (the Dockerfile's check) then judges the database alone."""
    if settings.heartbeat is not None:
        from .health import mark_no_heartbeat

        mark_no_heartbeat(settings.heartbeat, mode)


def _telegram(db: Path | None = None) -> int:
    """``mafia-referee telegram``: the bot, with the token from the environment (never logged);
    a clear message and exit status 2 without one."""
    import os

    settings = _settings_with_db(db)
    if settings.telegram_token is None or not settings.telegram_token.get_secret_value().strip():
        print(catalog(settings.lang).text("cli-telegram-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    from .telegram.app import run

    if settings.workers == "shared":
        return _serve_shared(settings, lambda: run(settings))
    return _serve(settings.db, lambda: run(settings))


def _discord(db: Path | None, guild: int | None, invite: int | None) -> int:
    """``mafia-referee discord``: the bot, with the token from the environment (never logged);
    a clear message and exit status 2 without one. ``--invite APP_ID`` prints the invite link."""
    if invite is not None:
        from .discord.rights import invite_url

        if invite < 1 or len(str(invite)) > MAX_SNOWFLAKE_DIGITS:
            print(catalog(_settings_lang()).text("cli-bad-invite", value=str(invite)[:30]), file=sys.stderr)
            return EXIT_UNAVAILABLE
        print(invite_url(invite))
        return 0
    settings = _settings_with_db(db)
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(catalog(settings.lang).text("cli-discord-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    from .discord.app import run

    def serve() -> int:
        _no_heartbeat(settings, "discord")
        return run(settings, sync_guild=guild)

    if _sharded(settings):
        return _serve_shards(settings, serve)
    return _serve(settings.db, serve)


def _sharded(settings: "Settings") -> bool:
    """Whether this Discord process is one of several, each serving some of the shards."""
    from .discord.shards import Shards

    return Shards.of(settings.discord_shards, settings.shard_ids).multi


def _serve_shards(settings: "Settings", serve: Callable[[], int]) -> int:
    """``MAFIA_REFEREE_DISCORD_SHARD_IDS`` naming some of the shards: one of several Discord
    processes on a PostgreSQL database (:mod:`bot.discord.shards`), holding its shards' locks
    (:func:`bot.writer.acquire_shards`) instead of the writer's. Refused with one line and exit
    status 2 on SQLite, or when another process holds one of its shards, serves the whole
    database, or runs with another shard count."""
    from storage import is_url
    from storage.pg import redacted

    from . import writer

    cat = catalog(settings.lang)
    if not is_url(settings.db):
        print(cat.text("cli-shards-need-postgresql"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    assert settings.discord_shards is not None and settings.shard_ids is not None
    try:
        lock = writer.acquire_shards(str(settings.db), settings.discord_shards, settings.shard_ids)
    except writer.DatabaseBusy:
        print(cat.text("cli-shards-busy", path=redacted(str(settings.db)),
                       shards=",".join(map(str, settings.shard_ids)), count=settings.discord_shards),
              file=sys.stderr)
        return EXIT_UNAVAILABLE
    except OSError as error:
        raise DatabaseUnreachable(str(settings.db), error.__cause__ or error) from error
    with lock:
        _probe_database(settings.db)
        return serve()


def _both(db: Path | None = None) -> int:
    """``mafia-referee both``: the Telegram and the Discord bot in one process over one game
    log (one process per database); both tokens are required."""
    import os

    settings = _settings_with_db(db)
    tokens = (settings.telegram_token, settings.discord_token)
    if any(t is None or not t.get_secret_value().strip() for t in tokens):
        print(catalog(settings.lang).text("cli-both-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    if _sharded(settings):
        print(catalog(settings.lang).text("cli-shards-both"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    from .discord.both import run_both

    def serve() -> int:
        _no_heartbeat(settings, "both")
        return run_both(settings)

    return _serve(settings.db, serve)


def _migrate(args: argparse.Namespace) -> int:
    """``mafia-referee migrate --to URL [--db PATH]``: copy the SQLite database (``--db``, else
    ``MAFIA_REFEREE_DB``) into the empty PostgreSQL database at ``URL`` and check the copy
    (:func:`storage.copy.copy_to_postgresql`): a line per table, exit 0; 1 when the copy differs;
    2 when it cannot be made (the target not PostgreSQL or not empty, the bot still serving the
    file: it holds the writer's lock)."""
    from storage import is_url
    from storage.copy import CopyError, copy_to_postgresql
    from storage.migrate import MigrationError
    from storage.pg import redacted

    from . import writer
    from .settings import Settings

    settings = Settings()
    cat = catalog(args.lang or settings.lang)
    source = args.db or settings.db
    if not is_url(args.to) or is_url(source):
        shown = redacted(str(args.to)) if is_url(args.to) else str(args.to)
        print(cat.text("migrate-bad-target", target=shown), file=sys.stderr)
        return EXIT_UNAVAILABLE
    if not Path(source).exists():
        print(cat.text("backup-no_database", path=str(source)), file=sys.stderr)
        return EXIT_UNAVAILABLE
    with writer.acquire(Path(source)):  # a bot still writing the file: DatabaseBusy, exit 2
        try:
            copied = asyncio.run(copy_to_postgresql(source, args.to))
        except CopyError as error:
            print(cat.text(f"migrate-{error.code.replace('_', '-')}", table=error.table,
                           problem=str(error)), file=sys.stderr)
            return 1 if error.code == "differs" else EXIT_UNAVAILABLE
        except (sqlite3.Error, MigrationError):
            raise  # the source file's own problem, a newer schema: said by bot.entry
        except Exception as error:  # asyncpg's own, a refused connection: the target's server
            raise DatabaseUnreachable(str(args.to), error) from error
    for table in copied:
        print(cat.text("migrate-table", table=table.table, count=table.rows,
                       digest=table.digest[:16]))
    print(cat.text("migrate-done", count=sum(t.rows for t in copied)))
    return 0


def _said(params: dict[str, object], cat: "Catalog") -> dict[str, object]:
    """A message's arguments with each error among them said in ``cat``'s words
    (:func:`bot.i18n.problem_text`)."""
    from .i18n import problem_text

    return {key: problem_text(value, cat) if isinstance(value, BaseException) else value
            for key, value in params.items()}


def max_age_seconds(text: str) -> float | None:
    """``--max-age``: a positive finite number of seconds, else ``None`` (``nan`` would turn the
    heartbeat check off, ``inf``/``1e400`` likewise, ``0`` and negatives would always fail)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def _deploy(args: argparse.Namespace) -> int:
    """``mafia-referee health [--db PATH] [--heartbeat FILE] [--max-age S]``: one line, exit 0
    when well, 1 when not (Docker's HEALTHCHECK convention), 2 when ``S`` is not a positive finite
    number of seconds; ``mafia-referee backup DEST [--db PATH] [--force]``: SQLite's online
    backup, safe while the bot runs (:mod:`bot.health`); exit 2 when it cannot be made."""
    from . import health
    from .settings import Settings

    settings = Settings()
    cat = catalog(args.lang or settings.lang)
    db = args.db or settings.db
    if args.command == "backup":
        try:
            written, games = health.backup(db, args.dest, force=args.force)
        except health.BackupError as error:
            # a source that is not a database, a destination that cannot be written or is the
            # live database itself: bad input, exit 2 (README)
            print(cat.text(f"backup-{error.code}", **_said(error.params, cat)), file=sys.stderr)
            return EXIT_UNAVAILABLE
        print(cat.text("backup-done", path=str(written), count=games))
        return 0
    max_age = None
    if args.max_age is not None:
        max_age = max_age_seconds(args.max_age)
        if max_age is None:
            print(cat.text("health-bad_max_age", value=str(args.max_age)[:40]), file=sys.stderr)
            return EXIT_UNAVAILABLE
    verdict = health.check(db, heartbeat=args.heartbeat or settings.heartbeat, max_age=max_age)
    print(cat.text(f"health-{verdict.code}", **_said(verdict.params, cat)),
          file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["DatabaseNotWritable", "DatabaseUnreachable", "NoDatabase", "main", "open_database"]
