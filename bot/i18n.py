"""Message catalogs: Project Fluent files under ``bot/locales/<lang>/*.ftl``, one bundle per language.

    >>> from bot.i18n import catalog
    >>> catalog("ru").text("fouls", count=2)
    '2 фола'

Every text the bot shows comes from a catalog, looked up by a literal key (``cat.text`` with a string literal) so
that ``tests/test_i18n.py`` can grep the sources for keys and check every locale has them. Texts are
formatted with ``use_isolating=False``: no U+2068/U+2069 marks around arguments (they show up as junk
in Telegram and terminals). Russian plural categories (one/few/many) come from Babel through
fluent.runtime.
"""

from __future__ import annotations

import errno
import functools
import logging
import socket
from pathlib import Path
from typing import Any, Callable

from fluent.runtime import FluentBundle
from fluent.syntax import FluentParser, ast

import rules

log = logging.getLogger(__name__)

LANGS: tuple[str, ...] = ("ru", "en")
DEFAULT_LANG = "ru"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"
#: Arguments that are identifiers, not quantities: a game's or a table's number is written as
#: it is («№12345»), never digit-grouped as a count would be («12 345»).
IDENTIFIERS = frozenset({"game", "game_id", "table", "id"})


class CatalogError(Exception):
    """A catalog file that does not parse, or a key defined twice."""


class Catalog:
    """One language's messages. ``text(key, **args)`` formats a message; a missing key raises
    ``KeyError``. Formatting problems (a missing argument) are logged and the text is still
    returned, so a typo never takes the bot down; :meth:`format` also returns them, for tests.

    A name a user gave (a player's, a seat's) goes into a text through :meth:`name`, so that the
    platform shows it as written: plain text (the console, Telegram: no parse mode) takes it as
    it is; a platform that reads its texts as markup (Discord's Markdown) uses a catalog made by
    :meth:`escaping`, whose names are escaped while the catalogs' own formatting stays.

    Words a user typed that an answer repeats (the argument a refusal did not understand, the
    rule ``/rule`` did not find, a player the roster does not have) go in through :meth:`said`:
    as typed where only the asker reads the answer, as «…» in a catalog made by
    :meth:`unquoting` — a group's, where a player who may not speak would otherwise have the
    bot say his words for him (issue 36). Both take out what would reorder or hide the text
    around them (:func:`rules.clean_text`)."""

    def __init__(self, lang: str, bundle: FluentBundle, keys: frozenset[str],
                 escape: Callable[[str], str] | None = None, *, quoting: bool = True) -> None:
        self.lang = lang
        self._bundle = bundle
        self._keys = keys
        self._escape = escape
        self.quoting = quoting
        self._unquoting: Catalog | None = None if quoting else self
        self._texts = functools.lru_cache(maxsize=4096)(self._formatted)

    def __repr__(self) -> str:
        marks = [m for m, on in (("escaping", self._escape is not None),
                                 ("unquoting", not self.quoting)) if on]
        return f"Catalog({', '.join([repr(self.lang), *marks])})"

    def escaping(self, escape: Callable[[str], str]) -> "Catalog":
        """The same messages, with :meth:`name` passing each name through ``escape`` (e.g.
        Discord's Markdown escaping)."""
        return Catalog(self.lang, self._bundle, self._keys, escape, quoting=self.quoting)

    def unquoting(self) -> "Catalog":
        """The same messages, whose :meth:`said` never repeats a user's words (made once)."""
        if self._unquoting is None:
            self._unquoting = Catalog(self.lang, self._bundle, self._keys, self._escape,
                                      quoting=False)
        return self._unquoting

    def name(self, value: str) -> str:
        """A user-given name as this catalog's platform shows it literally (its controls and
        zero-width characters taken out: :func:`rules.clean_text`)."""
        value = rules.clean_text(value)
        return value if self._escape is None else self._escape(value)

    def said(self, value: object) -> str:
        """Words a user typed, as an answer repeats them: :meth:`name`'s way (its line breaks
        kept), or «…» (the catalog's ``said-unquoted``) in an :meth:`unquoting` catalog."""
        if not self.quoting:
            return self.text("said-unquoted")
        text = rules.clean_text(str(value), lines=True)
        return text if self._escape is None else self._escape(text)

    @property
    def keys(self) -> frozenset[str]:
        """Every message id of this catalog."""
        return self._keys

    def has(self, key: str) -> bool:
        return key in self._keys

    def format(self, key: str, **args: Any) -> tuple[str, list[Exception]]:
        """The formatted message and the formatting errors (empty when all went well)."""
        if key not in self._keys:
            raise KeyError(f"{self.lang}: no message {key!r}")
        message = self._bundle.get_message(key)
        if message.value is None:
            raise KeyError(f"{self.lang}: message {key!r} has no value")
        args = {name: str(value) if name in IDENTIFIERS and isinstance(value, int)
                and not isinstance(value, bool) else value for name, value in args.items()}
        result, errors = self._bundle.format_pattern(message.value, args)
        return str(result), list(errors)

    def text(self, key: str, **args: Any) -> str:
        """The message ``key`` formatted with ``args``; ``KeyError`` if there is no such message.
        Formatting is pure, so the texts of the most used (key, args) are remembered (a status
        panel names the same seats again and again: ~60 texts per panel)."""
        try:
            # the types too: 1, 1.0 and True are equal dict keys but may format differently; the
            # arguments in the caller's order (one call site, one order: no sort, ~1 µs a text)
            memo = (key, tuple(args.items()), tuple(map(type, args.values()))) if args else (key,)
            return self._texts(memo)
        except TypeError:  # an argument that cannot be a dict key: format it afresh
            return self._text(key, args)

    def _text(self, key: str, args: dict[str, Any]) -> str:
        result, errors = self.format(key, **args)
        if errors:
            log.warning("catalog %s: %s: %s", self.lang, key, "; ".join(map(str, errors)))
        return result

    def _formatted(self, memo: tuple[Any, ...]) -> str:
        return self._text(memo[0], dict(memo[1]) if len(memo) > 1 else {})


def _load_resources(lang: str) -> tuple[list[ast.Resource], frozenset[str]]:
    folder = LOCALES_DIR / lang
    files = sorted(folder.glob("*.ftl"))
    if not files:
        raise CatalogError(f"no catalog files in {folder}")
    parser = FluentParser()
    resources: list[ast.Resource] = []
    seen: dict[str, Path] = {}
    for path in files:
        resource = parser.parse(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if isinstance(entry, ast.Junk):
                notes = "; ".join(a.message for a in entry.annotations)
                raise CatalogError(f"{path}: cannot parse {entry.content[:60]!r}: {notes}")
            if isinstance(entry, ast.Message):
                name = entry.id.name
                if name in seen:
                    raise CatalogError(f"{path}: {name} is already defined in {seen[name].name}")
                seen[name] = path
        resources.append(resource)
    return resources, frozenset(seen)


@functools.cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (one of :data:`LANGS`), loaded once. Unknown ``lang``: ValueError."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    resources, keys = _load_resources(lang)
    bundle = FluentBundle([lang], use_isolating=False)
    for resource in resources:
        bundle.add_resource(resource)
    return Catalog(lang, bundle, keys)


#: The OS errors (``errno`` names) said in the catalogs' words (``os-error-<name>``): what a
#: command's file, folder or database connection commonly meets. Any other keeps the OS's text.
OS_ERRORS = ("ENOENT", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "EROFS", "ENOSPC", "EEXIST",
             "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "ECONNRESET")


def problem_text(error: BaseException, cat: Catalog) -> str:
    """What went wrong, for a one-line message in ``cat``'s language: a common OS error
    (:data:`OS_ERRORS`; a host name that does not resolve, a timeout) in the catalog's words,
    else the error's own text (e.g. a PostgreSQL server's message, in the server's language)."""
    if isinstance(error, socket.gaierror):
        return cat.text("os-error-host")
    if isinstance(error, TimeoutError) and not error.errno:
        return cat.text("os-error-ETIMEDOUT")
    if isinstance(error, OSError) and error.errno:
        name = errno.errorcode.get(error.errno, "")
        if name in OS_ERRORS:
            return cat.text(f"os-error-{name}")
        return error.strerror or str(error)
    return str(error) or type(error).__name__
