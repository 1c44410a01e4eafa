"""Every rule citation in the library resolves inside the repository, to an entry of docs/rules.md,
and every entry of docs/rules.md names the code that does it.

The library is ``rules/``, ``bot/`` and ``storage/``: Python (comments, docstrings, other strings),
the message catalogs (``bot/locales/*/*.ftl``) and the SQL migrations. The citation forms, as
docs/rules.md §1 lists them:

* ``seed 4.4``, ``Seed IV``, ``the seed's 4.2.4`` → anchor ``seed-4.4``;
* ``F24 §4.4.8``, ``FIIM 2024 §7.7``, «ФИИМ 2024, §6.5», «ФИИМ 2024, 4.4.2» → ``f24-…``;
  ``S24 …``, ``FSM 2024 …``, «ФСМ 2024 …» → ``s24-…``; ``F24/S24 …`` (and «ФИИМ/ФСМ 2024») → both;
* ``docs/rules.md §4.2`` → the entry ``s4.2``;
* a bare ``§7.2`` takes the source of the nearest F24/S24/docs tag before it in the same comment
  block or string (none: it fails);
* a list or a range goes on under its tag: ``seed 5.1, 5.2``, ``F24 §6.5, §7.1–7.2`` (a range's
  two ends are checked);
* ``SC-determined`` → ``sc-determined`` (a bare ``SC`` fails: say which ruling);
* ``MafiaRatings 7.16.2`` → ``mr-7.16.2``;
* in a catalog's message a bare number (``(4.1.1)``, ``*[other] 5.2``, ``4.2.x``) is the seed's;
* a Python string that is a rule number (a reason code ``"4.2.1"``, a why-code ``"5.6"``) →
  ``code-…`` (in the MafiaRatings importer also ``mr-…``: its option paragraphs);
* files a clone does not have — the team's rule digest and worked cases (RULES.md, SCENARIOS.md),
  ENGINEERING.md, the seed's text file, the shared game records — and their R-/E-numbers are never
  cited.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from rules.config import REASONS, RulesConfig, Timers

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
LIBRARY = ("rules", "bot", "storage")


# --- docs/rules.md --------------------------------------------------------------------------------

def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
ENTRY = re.compile(r"^s\d+\.\d+$")  # our own entries: docs/rules.md §4.2 → s4.2
HEADING = re.compile(r"^(#{2,4}) (.*)$", re.M)
LINK = re.compile(r"\]\(#([^)]+)\)")
WHERE = re.compile(r"^Where: (.+)$", re.M)


def anchors() -> set[str]:
    return set(ANCHOR.findall(doc_text()))


def sections() -> dict[str, str]:
    """Each entry ``s…`` with its text, up to the next heading."""
    text = doc_text()
    heads = list(HEADING.finditer(text))
    out: dict[str, str] = {}
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        for anchor in ANCHOR.findall(head.group(2)):
            if ENTRY.match(anchor):
                out[anchor] = text[head.end():end]
    return out


def resolve(dotted: str) -> object:
    """``rules.engine._Move.start_speech`` → the object (the longest importable module, then
    attributes); raises if any part is missing."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(dotted)


# --- citations in the library ---------------------------------------------------------------------

@dataclass(frozen=True)
class Cite:
    where: str  # path:line
    text: str  # as written
    keys: tuple[str, ...]  # the anchors it needs (any one of ``alternatives`` for a code)
    alternatives: bool = False


FORBIDDEN = re.compile(
    r"RULES\.md|SCENARIOS(?:\.md)?|ENGINEERING\.md|seed-rules\.ru\.txt|shared/(?:rules|games)"
    r"|\bR\d+\.\d+(?:\.\d+)*\b|\bE[1-6]\b")
NUM = r"\d+(?:\.\d+)*"
DOTTED = r"\d+(?:\.\d+)+"
ROMAN = r"(?:IV|VI|V)\b"
# A source tag; for the seed and MafiaRatings only when a number follows.
TAG = re.compile(
    r"(?P<docs>docs/rules\.md)"
    r"|(?P<both>F24/S24|FIIM/FSM 2024|ФИИМ/ФСМ 2024)"
    r"|(?P<f24>\bF24\b|\bFIIM 2024\b|ФИИМ 2024)"
    r"|(?P<s24>\bS24\b|\bFSM 2024\b|ФСМ 2024)"
    rf"|(?P<seed>\b[Ss]eed(?:'s)?(?:\s+|-)(?={ROMAN}|{DOTTED}))"
    rf"|(?P<mr>\bMafiaRatings\s+(?={DOTTED}))"
    r"|(?P<sc>\bSC\b(?:-[a-z]+(?:-[a-z]+)*)?)"
    r"|(?P<section>§)")
RANGE = r"(?:\s*–\s*§?{n}|-§?{n})?"
# one number of a list under a tag: '§4.4.8', '4.4.8–4.4.10', 'IV'
ITEM = {
    "section": re.compile(rf"\s*§\s?(?P<n>{NUM})(?P<r>{RANGE.format(n=NUM)})"),
    "dotted": re.compile(rf",?\s*§?\s?(?P<n>{DOTTED})(?P<r>{RANGE.format(n=DOTTED)})"),
    "seed": re.compile(rf"(?P<n>{ROMAN}|{DOTTED})(?P<r>{RANGE.format(n=DOTTED)})"),
    "seed_next": re.compile(rf"(?P<n>{DOTTED})(?P<r>{RANGE.format(n=DOTTED)})"),
}
SEPARATOR = re.compile(r"\s*(?:,|/|\band\b|\bи\b)\s*(?=§|\d)")
PREFIX = {"f24": ("f24",), "s24": ("s24",), "both": ("f24", "s24"), "docs": ("s",),
          "seed": ("seed",), "mr": ("mr",)}
BARE = re.compile(r"(?<![\w.§/-])(?P<n>\d\.\d+(?:\.\d+)*)(?:\.x)?(?![\w.])")
URL_BEFORE = re.compile(r"https?://\S+\s*$")


def _key(prefix: str, number: str) -> str:
    return f"{prefix}{number}" if prefix == "s" else f"{prefix}-{number}"


def _numbers(text: str, pos: int, kind: str) -> tuple[list[str], int]:
    """The numbers of a list starting at ``pos`` (``kind``: how its first number is written)."""
    out: list[str] = []
    item = ITEM[kind].match(text, pos)
    while item is not None:
        out.append(item.group("n"))
        rng = item.group("r")
        if rng:
            out.append(re.sub(r"^[\s–\-§]+", "", rng))
        pos = item.end()
        sep = SEPARATOR.match(text, pos)
        if sep is None:
            break
        if kind == "seed":
            item = ITEM["seed_next"].match(text, sep.end())
        else:
            item = ITEM["dotted"].match(text, sep.end()) or ITEM["section"].match(text, sep.end())
    return out, pos


def scan(text: str, path: str, first: int = 1, *, catalog: bool = False) -> Iterator[Cite]:
    """The citations of one block of text (a comment run, a string, a catalog message) that
    starts at line ``first`` of ``path``."""
    def where(offset: int) -> str:
        return f"{path}:{first + text.count(chr(10), 0, offset)}"

    for bad in FORBIDDEN.finditer(text):
        yield Cite(where(bad.start()), bad.group(), ("<not in a clone: cite docs/rules.md>",))
    source: tuple[str, ...] | None = None  # the § source of this block so far
    taken: list[tuple[int, int]] = []
    pos = 0
    while (tag := TAG.search(text, pos)) is not None:
        kind = tag.lastgroup
        assert kind is not None
        pos = tag.end()
        if kind == "sc":
            ruling = tag.group().lower()
            yield Cite(where(tag.start()), tag.group(),
                       (ruling if ruling != "sc" else "<SC: name the ruling>",))
            continue
        if kind == "section":
            if URL_BEFORE.search(text, 0, tag.start()):
                continue  # another document's section (a URL's)
            numbers, end = _numbers(text, tag.start(), "section")
            prefixes = source or ("<§ without its source>",)
        else:
            prefixes = PREFIX[kind]
            if kind in ("f24", "s24", "both", "docs"):
                source = prefixes
            numbers, end = _numbers(text, pos, "seed" if kind == "seed" else "dotted")
            if not numbers:
                numbers, end = _numbers(text, pos, "section")
        if numbers:
            taken.append((tag.start(), end))
            pos = end
            yield Cite(where(tag.start()), text[tag.start():end].strip(),
                       tuple(_key(p, n) for p in prefixes for n in numbers))
    if catalog:
        for bare in BARE.finditer(text):
            if any(a <= bare.start() < b for a, b in taken):
                continue
            yield Cite(where(bare.start()), bare.group(), (f"seed-{bare.group('n')}",))


def python_blocks(path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, text, is_string) for each comment run and each string of a Python file."""
    source = path.read_text(encoding="utf-8")
    run: list[str] = []
    run_start = last = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            if run and tok.start[0] != last + 1:
                yield run_start, "\n".join(run), False
                run = []
            if not run:
                run_start = tok.start[0]
            run.append(tok.string)
            last = tok.start[0]
        elif tok.type == tokenize.STRING:
            yield tok.start[0], tok.string, True
    if run:
        yield run_start, "\n".join(run), False


def catalog_blocks(path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, text, is_message) for each comment run and each message of a Fluent file (the
    message's value only, its continuation lines included)."""
    block: list[str] = []
    start, message = 0, False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        key = re.match(r"^-?[A-Za-z][\w-]* =", line)
        comment = line.startswith("#")
        if block and (not line.strip() or key or comment != (not message)):
            yield start, "\n".join(block), message
            block = []
        if not line.strip():
            continue
        if not block:
            start, message = number, not comment
        block.append(line[key.end():] if key else line)
    if block:
        yield start, "\n".join(block), message


def sql_blocks(path: Path) -> Iterator[tuple[int, str, bool]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if "--" in line:
            yield number, line[line.index("--"):], False


def library_citations() -> list[Cite]:
    out: list[Cite] = []
    for root in LIBRARY:
        for path in sorted((ROOT / root).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix == ".py":
                blocks, catalog = python_blocks(path), False
            elif path.suffix == ".ftl":
                blocks, catalog = catalog_blocks(path), True
            elif path.suffix == ".sql":
                blocks, catalog = sql_blocks(path), False
            else:
                continue
            for line, text, flag in blocks:
                for cite in scan(text, rel, line, catalog=catalog and flag):
                    out.append(cite)
                if path.suffix == ".py" and flag:
                    out.extend(_code_literal(path, rel, line, text))
    return out


def _code_literal(path: Path, rel: str, line: int, token: str) -> list[Cite]:
    """A Python string that is a rule number: a reason code or a why-code (or, in the
    MafiaRatings importer, one of the site's option paragraphs)."""
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError):
        return []
    if not isinstance(value, str) or not re.fullmatch(r"(?:[1-9]|10)(?:\.\d+)+", value):
        return []
    keys = [f"code-{value}"] + ([f"mr-{value}"] if "mafiaratings" in path.name else [])
    return [Cite(f"{rel}:{line}", repr(value), tuple(keys), alternatives=True)]


def unresolved(citations: list[Cite], known: set[str]) -> list[str]:
    out = []
    for cite in citations:
        missing = [k for k in cite.keys if k not in known]
        if (cite.alternatives and len(missing) == len(cite.keys)) or (not cite.alternatives and missing):
            out.append(f"{cite.where}: {cite.text!r} → {', '.join(missing)}")
    return out


# --- the tests ------------------------------------------------------------------------------------

def test_every_rule_citation_in_the_library_resolves_in_docs_rules_md() -> None:
    citations = library_citations()
    assert len(citations) > 300  # the scan sees the library (a broken scan finds nothing)
    problems = unresolved(citations, anchors())
    assert not problems, "citations docs/rules.md cannot resolve:\n" + "\n".join(problems)


@pytest.mark.parametrize("text, keys", [
    ("seed 4.4", ["seed-4.4"]),
    ("Seed IV: the ladder", ["seed-IV"]),
    ("the seed's 4.2.4", ["seed-4.2.4"]),
    ("(seed 5.1, 5.2; F24 §4.4.10)", ["seed-5.1", "seed-5.2", "f24-4.4.10"]),
    ("seed 4.5 and 5.1–5.2 (F24 §6.5, §7.1–7.2)",
     ["seed-4.5", "seed-5.1", "seed-5.2", "f24-6.5", "f24-7.1", "f24-7.2"]),
    ("F24/S24 §7.7", ["f24-7.7", "s24-7.7"]),
    ("F24 §4.3.1: 60 s; §4.4.12: 30 s; seed 4.4: 0 s", ["f24-4.3.1", "f24-4.4.12", "seed-4.4"]),
    ("FIIM 2024 §6: … (§6.6.9)", ["f24-6", "f24-6.6.9"]),
    ("«ФСМ 2024, §7.2»", ["s24-7.2"]),
    ("(ФИИМ 2024, 4.5.9, 7.10)", ["f24-4.5.9", "f24-7.10"]),
    ("docs/rules.md §6.5", ["s6.5"]),
    ("MafiaRatings 7.16.2", ["mr-7.16.2"]),
    ("(SC-one-vote)", ["sc-one-vote"]),
    ("the seed preset, 60 s, FIIM 2024 rules", []),
])
def test_the_citation_forms_are_read(text: str, keys: list[str]) -> None:
    assert [k for c in scan(text, "x") for k in c.keys] == keys


@pytest.mark.parametrize("text", [
    "seed 4.6", "F24 §9.9", "S24 §7.11", "SC-nonsense", "(SC)", "MafiaRatings 7.99",
    "docs/rules.md §99.1", "(§12.12)", "RULES.md §12.9", "R6.12", "SCENARIOS S02",
    "ENGINEERING.md §1", "seed-rules.ru.txt",
])
def test_a_citation_docs_rules_md_lacks_fails(text: str) -> None:
    """The check can fail: a number docs/rules.md has no entry for is reported."""
    assert unresolved(list(scan(text, "x")), anchors())


def test_a_catalogs_bare_number_is_the_seeds() -> None:
    found = [k for c in scan(" Фол (4.1.1), ночью (4.2.6); ППК (4.3.x); ФИИМ 2024, §7.9", "x",
                             catalog=True) for k in c.keys]
    assert sorted(found) == ["f24-7.9", "seed-4.1.1", "seed-4.2.6", "seed-4.3"]
    assert unresolved(list(scan(" (4.7.1)", "x", catalog=True)), anchors())


def test_every_reason_code_of_every_preset_is_listed() -> None:
    known = anchors()
    codes = {code for catalog in REASONS.values() for code in catalog if code[0].isdigit()}
    assert codes and not sorted(c for c in codes if f"code-{c}" not in known)


def test_every_option_and_timer_has_its_row_and_every_value_is_named() -> None:
    known, text = anchors(), doc_text()
    for f in dataclasses.fields(RulesConfig):
        assert f"opt-{f.name}" in known, f.name
        default = getattr(RulesConfig(), f.name)
        if isinstance(default, enum.Enum):
            for value in type(default):
                assert f"`{value.value}`" in text, f"{f.name}={value.value}"
    for f in dataclasses.fields(Timers):
        assert f"opt-timers.{f.name}" in known, f.name


def test_every_entry_names_the_code_that_does_it() -> None:
    entries = sections()
    assert len(entries) > 30
    for anchor, text in entries.items():
        assert WHERE.search(text), f"§{anchor[1:]} names no code (a 'Where:' line)"
    missing = []
    for line in WHERE.findall(doc_text()):
        for dotted in re.findall(r"`([\w.]+)`", line):
            try:
                resolve(dotted)
            except (ImportError, AttributeError):
                missing.append(dotted)
    assert not missing, f"docs/rules.md names code that does not exist: {missing}"


def test_every_number_in_the_index_points_to_an_entry_and_every_link_resolves() -> None:
    """A rule number's anchor sits in a table row that links to the entry saying what the engine
    does with it (an entry, a section, a code's or an option's row); every link has its anchor."""
    text = doc_text()
    assert not sorted(set(LINK.findall(text)) - anchors())
    entries = sections()
    for line in text.splitlines():
        ids = ANCHOR.findall(line)
        if not ids or line.startswith("#"):
            continue  # a heading's own anchor: an entry or a section
        assert line.startswith("|"), f"{ids[0]}: an anchor outside a heading or a table row"
        targets = LINK.findall(line)
        assert any(t in entries or re.fullmatch(r"s\d+", t) or t.startswith(("code-", "opt-"))
                   for t in targets), f"{ids[0]}: points to no entry ({targets})"
