"""Issue 31, item 8: one language per message. A command line argparse cannot read, ``--help``,
a record that is not JSON, a database that is not there: said wholly in the chosen language
(``--lang``, else ``MAFIA_REFEREE_LANG``, else Russian), argparse's own words included; English
counts take their plural ("1 game", "2 games") in every English message; ``/name`` with several
names for one seat is refused in one clear line and records nothing."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast, visitor

from bot.cli import _parser, argparse_words, main
from bot.console import CHAT, Session
from bot.i18n import LOCALES_DIR, catalog
from bot.service import Service
from storage import Store

#: English words of argparse and of the OS that must not appear inside a Russian line
ENGLISH = re.compile(r"\b(usage|invalid|required|argument|arguments|expected|unrecognized|choose|"
                     r"options|No such file|Expecting|line \d+ column)\b")


def _run(args: list[str], cwd: Path, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIA_REFEREE_")}
    if lang is not None:
        env["MAFIA_REFEREE_LANG"] = lang
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=env)


@pytest.mark.parametrize("args", [["protocol", "--game", "x"], ["backup"], ["nonsense"],
                                  ["health", "--lang", "ru", "--bogus"], ["replay"],
                                  ["console", "--lang", "xx"]])
def test_argparse_errors_are_russian_by_default(tmp_path: Path, args: list[str]) -> None:
    done = _run(args, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("Неверная команда:"), line
    assert not ENGLISH.search(line), line
    english = _run([a if a != "ru" else "en" for a in args], tmp_path, lang="en")
    assert english.stderr.startswith("Bad command line:"), english.stderr


def test_help_is_in_the_chosen_language() -> None:
    """Every command's help, every argument's, and argparse's titles: the Russian catalog's
    under ``ru``, the English one's under ``en``."""
    for lang, usage, options in (("ru", "использование:", "параметры:"), ("en", "usage:", "options:")):
        cat = catalog(lang)
        with argparse_words(lang):
            parser = _parser(lang)
            text = parser.format_help()
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            helps = {name: command.format_help() for name, command in sub.choices.items()}
        assert text.startswith(usage) and cat.text("cli-description")[:30] in text.replace("\n", " ")
        for name, command in sub.choices.items():
            assert helps[name].startswith(usage) and options in helps[name], name
            for action in command._actions:
                if action.dest == "help":
                    assert action.help == cat.text("argparse-help")
                    continue
                assert action.help is not None and cat.has(_key(name, action)), (name, action.dest)
                assert action.help == cat.text(_key(name, action)), (name, action.dest)
        for choice in sub._choices_actions:
            assert choice.help == cat.text(f"cli-help-{choice.dest}")


def _key(command: str, action: argparse.Action) -> str:
    own = f"cli-help-{command}-{action.dest}"
    if catalog("en").has(own):
        return own
    return {"db": "cli-help-db", "lang": "cli-help-lang"}[action.dest]


def test_help_as_a_process_is_russian(tmp_path: Path) -> None:
    done = _run(["backup", "--help"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("использование: mafia-referee backup")
    assert catalog("ru").text("cli-help-backup-force") in " ".join(done.stdout.split())


def test_a_record_that_is_not_json_is_said_in_the_language(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{bad", "utf-8")
    done = _run(["replay", "bad.json"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == catalog("ru").text(
        "replay-error", kind="unreadable", file="bad.json", field="",
        message=catalog("ru").text("replay-not-json", line=1, column=2))
    missing = _run(["replay", "none.json"], tmp_path)
    assert missing.stderr.strip().endswith(catalog("ru").text("os-error-ENOENT"))
    assert not ENGLISH.search(missing.stderr)


def test_no_database_is_said_in_the_language(tmp_path: Path) -> None:
    done = _run(["club-export", "--db", str(tmp_path / "none.sqlite3")], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == catalog("ru").text("cli-no-database", path=str(tmp_path / "none.sqlite3"))


class _Variables(visitor.Visitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:  # noqa: N802 - the visitor's name
        self.names.add(node.id.name)


#: English nouns counted in the catalogs: after "1" each must be singular
COUNTED = ("games", "players", "rows", "wins", "votes", "seconds", "fouls", "actions", "nights",
           "days", "tables", "entries", "hands", "seats", "hits", "removals", "deaths", "blacks",
           "minutes", "bytes", "files", "names")


def test_every_english_count_of_one_is_singular() -> None:
    """Each English message formatted with every argument 1: no "1 games", "1 rows" … anywhere."""
    cat = catalog("en")
    found = []
    for path in sorted((LOCALES_DIR / "en").glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text("utf-8")).body:
            if isinstance(entry, ast.Message) and entry.value is not None:
                variables = _Variables()
                variables.visit(entry.value)
                text, _ = cat.format(entry.id.name, **{name: 1 for name in variables.names})
                if re.search(rf"(?<![/\w])1 ({'|'.join(COUNTED)})\b", text):
                    found.append((entry.id.name, text))
    assert not found, found
    assert catalog("en").text("cli-clubs-line", club="tg:-1", players=1, games=1, last="none") == \
        "tg:-1: 1 player, 1 game"


async def test_several_names_for_one_seat_are_refused_and_nothing_is_recorded(store: Store) -> None:
    session = Session(Service(store), catalog("ru"))
    await session.open()
    reply = await session.handle("/name 1 Аня, Боря, Вика")
    assert not reply.accepted
    (line,) = reply.lines
    assert line.startswith("/name называет одно место: 3 имени для места №1 не записаны.")
    assert line.endswith("/name 1 Аня, затем /name 2 Боря …")
    assert await session.service.current(CHAT) is None  # not even a game was started by it
    assert (await session.handle("/name 1 Аня")).accepted
    current = await session.service.current(CHAT)
    assert current is not None and current.state.seat(1).name == "Аня"
