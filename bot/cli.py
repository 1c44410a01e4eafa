"""``mafia-referee``: the command line.

    mafia-referee [demo] [--db PATH] [--lang ru|en]      play the shipped example game (default)
    mafia-referee console [--db PATH] [--new] [--strict] [--lang ru|en]
    mafia-referee replay FILE [--json]                   check a recorded game against the rules
    mafia-referee telegram                               the judge's assistant in Telegram
                                                         (token from the environment; exit
                                                         status 2 when it is missing)
    mafia-referee discord [--guild ID] [--invite APP_ID] the judge's assistant in Discord (token
                                                         from the environment; --invite only
                                                         prints the link that adds the bot)
    mafia-referee both                                   both bots in one process, one game log
    mafia-referee health [--db PATH] [--max-age S]       the database (and the bot's heartbeat) is
                                                         well: exit 0, else 1 (deploy/)
    mafia-referee backup DEST [--db PATH]                an online backup of the database

``main`` returns the exit status; the console-script wrapper passes it to ``sys.exit``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Sequence

from .i18n import DEFAULT_LANG, LANGS, catalog

COMMANDS = ("demo", "console", "replay", "telegram", "discord", "both", "health", "backup")
EXIT_UNAVAILABLE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafia-referee")
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(COMMANDS) + "}")

    demo = sub.add_parser("demo")
    demo.add_argument("--db", type=Path, default=None)
    demo.add_argument("--lang", choices=LANGS, default=None)

    console = sub.add_parser("console")
    console.add_argument("--db", type=Path, default=None)
    console.add_argument("--new", action="store_true")
    console.add_argument("--strict", action="store_true")
    console.add_argument("--lang", choices=LANGS, default=None)

    replay = sub.add_parser("replay")
    replay.add_argument("file", type=Path)
    replay.add_argument("--json", action="store_true", dest="as_json")

    sub.add_parser("telegram")

    discord = sub.add_parser("discord")
    discord.add_argument("--guild", type=int, default=None,
                         help="also publish the slash commands to this server (at once)")
    discord.add_argument("--invite", type=int, default=None, metavar="APP_ID",
                         help="print the link that adds the bot to a server, and exit")
    sub.add_parser("both")

    health = sub.add_parser("health", help="check the database (and the bot's heartbeat); exit 1 if unwell")
    health.add_argument("--db", type=Path, default=None)
    health.add_argument("--heartbeat", type=Path, default=None)
    health.add_argument("--max-age", type=float, default=None, metavar="SECONDS")
    backup = sub.add_parser("backup", help="copy the database with SQLite's online backup")
    backup.add_argument("dest", help="a file, or a directory (for a dated file name)")
    backup.add_argument("--db", type=Path, default=None)
    return parser


def _settings_lang() -> str:
    """The configured language (``MAFIA_REFEREE_LANG``), without failing on other settings."""
    from .settings import Settings

    try:
        return Settings().lang
    except Exception:  # a bad environment: the command itself reports it when it matters
        return DEFAULT_LANG


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; no subcommand (or only options) plays the demo."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if not args_in or (args_in[0].startswith("-") and args_in[0] not in ("-h", "--help")):
        args_in.insert(0, "demo")
    args = _parser().parse_args(args_in)

    if args.command == "demo":
        from .demo import run_demo

        return asyncio.run(run_demo(args.db, lang=args.lang or _settings_lang()))
    if args.command == "console":
        from .console import run_console
        from .settings import Settings

        settings = Settings()
        return asyncio.run(run_console(args.db or settings.db, new=args.new, strict=args.strict,
                                       lang=args.lang, default_lang=settings.lang))
    if args.command == "replay":
        from .replay_cli import run_replay_cli

        return int(run_replay_cli(args.file, args.as_json, sys.stdout))
    if args.command == "discord":
        return _discord(args.guild, args.invite)
    if args.command == "both":
        return _both()
    if args.command in ("health", "backup"):
        return _deploy(args)
    return _telegram()


def _telegram() -> int:
    """``mafia-referee telegram``: the bot, with the token from the environment (never logged);
    a clear message and exit status 2 without one."""
    import os

    from .settings import Settings

    settings = Settings()
    if settings.telegram_token is None or not settings.telegram_token.get_secret_value().strip():
        print(catalog(settings.lang).text("cli-telegram-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    from .telegram.app import run

    return run(settings)


def _discord(guild: int | None, invite: int | None) -> int:
    """``mafia-referee discord``: the bot, with the token from the environment (never logged);
    a clear message and exit status 2 without one. ``--invite APP_ID`` prints the invite link."""
    if invite is not None:
        from .discord.rights import invite_url

        print(invite_url(invite))
        return 0
    from .settings import Settings

    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(catalog(settings.lang).text("cli-discord-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    from .discord.app import run

    return run(settings, sync_guild=guild)


def _both() -> int:
    """``mafia-referee both``: the Telegram and the Discord bot in one process over one game
    log (one process per database); both tokens are required."""
    import os

    from .settings import Settings

    settings = Settings()
    tokens = (settings.telegram_token, settings.discord_token)
    if any(t is None or not t.get_secret_value().strip() for t in tokens):
        print(catalog(settings.lang).text("cli-both-no-token"), file=sys.stderr)
        return EXIT_UNAVAILABLE
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    from .discord.both import run_both

    return run_both(settings)


def _deploy(args: argparse.Namespace) -> int:
    """``mafia-referee health [--db PATH] [--heartbeat FILE] [--max-age S]``: one line, exit 0
    when well, 1 when not (Docker's HEALTHCHECK convention); ``mafia-referee backup DEST
    [--db PATH]``: SQLite's online backup, safe while the bot runs (:mod:`bot.health`)."""
    from . import health
    from .settings import Settings

    settings = Settings()
    cat = catalog(settings.lang)
    db = args.db or settings.db
    if args.command == "backup":
        try:
            written, games = health.backup(db, args.dest)
        except health.BackupError as error:
            print(cat.text(f"backup-{error.code}", **error.params), file=sys.stderr)
            return 1
        print(cat.text("backup-done", path=str(written), count=games))
        return 0
    verdict = health.check(db, heartbeat=args.heartbeat or settings.heartbeat, max_age=args.max_age)
    print(cat.text(f"health-{verdict.code}", **verdict.params), file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
