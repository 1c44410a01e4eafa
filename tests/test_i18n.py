"""The message catalogs (bot/locales): every code the rules, the service and the commands can
produce has a message in every language, every key the bot's code asks for exists, every message
formats without errors, and Russian plurals take the right form."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

import rules
from bot import render
from bot.i18n import DEFAULT_LANG, LANGS, LOCALES_DIR, Catalog, catalog
from rules.events import EVENT_TYPES

BOT_DIR = Path(render.__file__).resolve().parent
RULES_DIR = Path(rules.__file__).resolve().parent
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
ISOLATION_MARKS = ("\u2068", "\u2069")

SERVICE_CODES = ("no_game", "not_judge", "stale", "game_exists", "nothing_to_undo")
# Numeric arguments (counts, days, seat numbers given as ints); any other argument is text.
NUMERIC_ARGS = frozenset({
    "count", "day", "night", "n", "at_table", "yes", "need", "hits", "index", "game", "length",
    "limit", "round", "seconds_n", "nominees_n", "seats_n", "guesses_n",
})


@pytest.fixture(params=LANGS)
def cat(request: pytest.FixtureRequest) -> Catalog:
    return catalog(request.param)


def _missing(keys: list[str]) -> dict[str, list[str]]:
    """Per language, the keys it lacks."""
    out = {lang: sorted(k for k in keys if not catalog(lang).has(k)) for lang in LANGS}
    return {lang: missing for lang, missing in out.items() if missing}


# --- the catalogs themselves ------------------------------------------------------------------

def test_languages() -> None:
    assert DEFAULT_LANG == "ru" and DEFAULT_LANG in LANGS
    assert catalog("ru") is catalog("ru")  # cached
    with pytest.raises(ValueError):
        catalog("de")


def test_missing_key_is_a_key_error(cat: Catalog) -> None:
    with pytest.raises(KeyError):
        cat.text("no-such-message")


def test_languages_have_the_same_keys() -> None:
    keys = {lang: catalog(lang).keys for lang in LANGS}
    for lang in LANGS:
        assert keys[lang] == keys[DEFAULT_LANG], (lang, sorted(keys[lang] ^ keys[DEFAULT_LANG]))


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self.messages: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)

    def visit_MessageReference(self, node: ast.MessageReference) -> None:
        self.messages.add(node.id.name)


def _message_variables(lang: str) -> dict[str, set[str]]:
    """Each message of ``lang`` and the variables it uses, with those of the messages it refers
    to (a referenced message sees the caller's variables: ``{ cite-4_5 }`` needs ``$rules``)."""
    own: dict[str, set[str]] = {}
    refs: dict[str, set[str]] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, ast.Message):
                visitor = _Variables()
                visitor.visit(entry)
                own[entry.id.name], refs[entry.id.name] = visitor.names, visitor.messages
    out: dict[str, set[str]] = {}
    for key in own:
        names, seen, todo = set(), set(), [key]
        while todo:
            current = todo.pop()
            if current in seen or current not in own:
                continue
            seen.add(current)
            names |= own[current]
            todo.extend(refs[current])
        out[key] = names
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_formats_cleanly(lang: str) -> None:
    """Every message formats with its variables given: no Fluent error, no isolation marks
    (use_isolating=False), no unresolved ``{…}``."""
    cat = catalog(lang)
    for key, names in _message_variables(lang).items():
        args = {name: (2 if name in NUMERIC_ARGS else "x") for name in names}
        text, errors = cat.format(key, **args)
        assert not errors, (key, errors)
        assert text.strip(), key
        assert not any(mark in text for mark in ISOLATION_MARKS), key
        assert "{" not in text and "}" not in text, (key, text)


# --- coverage of every code ---------------------------------------------------------------------

def test_every_notice_kind() -> None:
    assert not _missing([f"notice-{kind.value}" for kind in rules.Kind])


def test_every_rule_error() -> None:
    assert not _missing([f"error-{code.value}" for code in rules.Code])


def test_every_service_error() -> None:
    service = pytest.importorskip("bot.service")
    assert not _missing([f"service-{code}" for code in SERVICE_CODES])
    documented = set(re.findall(r"``(\w+)``", service.ServiceError.__doc__ or ""))
    codes = documented & {"no_game", "not_judge", "stale", "game_exists", "nothing_to_undo",
                          "not_admin", "finished"}
    assert not _missing([f"service-{code}" for code in codes])


def test_every_command_error() -> None:
    commands = pytest.importorskip("bot.commands")
    assert not _missing([f"command-{code}" for code in commands.COMMAND_ERROR_CODES])
    raised = set(re.findall(r'CommandError\(\s*"(\w+)"', Path(commands.__file__).read_text("utf-8")))
    assert not _missing([f"command-{code}" for code in raised])


def test_every_missing_argument_is_named() -> None:
    """``missing_argument`` names what is missing (seat, name, count …) in words."""
    commands = pytest.importorskip("bot.commands")
    source = Path(commands.__file__).read_text("utf-8")
    whats = set(re.findall(r'_need\([^)]*"(\w+)"\)', source))
    whats |= set(re.findall(r'"missing_argument"[^)]*argument="(\w+)"', source))
    assert whats
    assert not _missing([f"what-{what}" for what in whats])


def test_every_penalty_reason_of_every_preset(cat: Catalog) -> None:
    """Seed IV 4.1.1–4.3.3 and the FIIM 2024 additions (§6.6.9, §6.7.11–6.7.16, §6.8.4)."""
    codes = {code for reasons in rules.REASONS.values() for code in reasons}
    assert {"4.1.8", "4.2.10", "4.3.3", "6.6.9", "6.7.16", "6.8.4"} <= codes
    assert not _missing([f"reason-{render.key_part(code)}" for code in codes])
    texts = {code: render.reason_text(code, cat) for code in codes}
    assert len(set(texts.values())) == len(texts)  # every reason has its own words
    assert render.reason_text("nonsense", cat) == cat.text("reason-unknown", code="nonsense")


def test_reason_words_follow_the_seed() -> None:
    """Russian reasons say what the seed's items say (seed-rules.ru.txt, items 4.1.1–4.3.3)."""
    seed = SHARED / "rules" / "seed-rules.ru.txt"
    if not seed.exists():
        pytest.skip(f"the shared rules are not beside the project ({seed})")
    items = dict(re.findall(r"^(4\.[123]\.\d+)\.?\s+(.+)$", seed.read_text("utf-8"), re.M))
    assert len(items) == 21
    stems = lambda text: {w[:5] for w in re.findall(r"[а-яё]{5,}", text.lower())}  # noqa: E731
    cat = catalog("ru")
    for code, text in items.items():
        ours, theirs = stems(render.reason_text(code, cat)), stems(text)
        assert len(ours & theirs) * 2 >= min(len(theirs), 6), (code, ours, theirs)
    assert render.reason_text("4.2.7", cat) == "слёзы за игровым столом"


def test_every_word_family() -> None:
    keys = [f"phase-{p.value}" for p in rules.Phase]
    keys += [f"step-{s.value}" for s in rules.NightStep]
    keys += [f"role-{r.value}" for r in rules.Role]
    keys += [f"team-{t.value}" for t in rules.Team] + [f"team-of-{t.value}" for t in rules.Team]
    keys += [f"cause-{c.value}" for c in rules.Cause] + [f"left-{c.value}" for c in rules.Cause]
    keys += [f"preset-{p}" for p in rules.PRESETS]
    keys += [f"event-{t}" for t in EVENT_TYPES]
    keys += [f"action-{a}" for a in render.ACTION_KINDS]
    keys += [f"novote-{render.key_part(w)}" for w in render.NO_VOTE_REASONS]
    keys += [f"end-{why}" for why in render.END_REASONS]
    keys += [f"badplay-{scoring.rules}-{render.key_part(item.code)}"  # F24/S24 §8.5
             for scoring in rules.SCORING.values() for item in scoring.bad_plays]
    assert not _missing(keys)


def test_no_vote_reasons_cover_the_engine() -> None:
    """Every reason the engine gives for a vote not held or nobody leaving (rules.vote_plan,
    Kind.NOBODY_LEAVES, the seed 5.1/5.2 bans) is in render.NO_VOTE_REASONS."""
    source = (RULES_DIR / "engine.py").read_text("utf-8")
    found = set(re.findall(r'nobody_leaves\(\s*"([^"]+)"', source))
    found |= set(re.findall(r'VotePlan\(False, "([^"]+)"', source))
    found |= set(re.findall(r'rule = [^\n]*?"(5\.\d)"', source))
    found |= {"5.6", "5.9"} if '"5.6" if' in source else set()
    assert {"no_nominees", "4.4.10", "raise_failed", "5.1", "5.2"} <= found
    assert found <= set(render.NO_VOTE_REASONS)


def test_end_reasons_cover_the_engine() -> None:
    """Every way a game ends (rules.EndReason) has words, and the engine gives no other."""
    assert {why.value for why in rules.EndReason} <= set(render.END_REASONS)
    source = (RULES_DIR / "engine.py").read_text("utf-8")
    found = set(re.findall(r'game_over\(.*"(\w+)"\)$', source, re.M))
    found |= set(re.findall(r'why = [^\n]*"(\w+)"', source))
    found |= set(re.findall(r'Result\(\s*(?:winner|\w+)[^)]*"(\w+)"', source))
    assert {"draw", "team_loss", "declared"} <= found
    assert found <= set(render.END_REASONS) | {"kill", "not_at_table", "miss"}  # shooting whys


def test_every_action_kind_of_the_queries() -> None:
    """Each step the rules can expect (rules.Expected) has a kind with words (render's
    ACTION_KINDS: the judge's "what next" line)."""
    kinds = {step.kind for step in typing.get_args(rules.Expected)}
    assert {"start", "speech", "vote", "best_move", "none"} <= kinds
    assert kinds <= set(render.ACTION_KINDS), kinds - set(render.ACTION_KINDS)


def _source_keys() -> tuple[set[str], set[str]]:
    """Literal keys (``.text("key"``) and key families (``.text(f"prefix-{…}"``) in bot/**/*.py."""
    literal: set[str] = set()
    families: set[str] = set()
    for path in BOT_DIR.rglob("*.py"):
        source = path.read_text("utf-8")
        literal |= set(re.findall(r"""\.text\(\s*["']([A-Za-z][\w-]*)["']""", source))
        families |= set(re.findall(r"""\.text\(\s*f["']([A-Za-z][\w-]*-)\{""", source))
    return literal, families


def test_every_key_the_code_uses() -> None:
    literal, families = _source_keys()
    assert {"fouls", "status-day", "seat"} <= literal  # the grep works
    assert not _missing(sorted(literal))
    for prefix in families:
        for lang in LANGS:
            assert any(k.startswith(prefix) for k in catalog(lang).keys), (lang, prefix)


# --- plurals ----------------------------------------------------------------------------------

RU_FOULS = {0: "0 фолов", 1: "1 фол", 2: "2 фола", 5: "5 фолов", 11: "11 фолов", 21: "21 фол",
            22: "22 фола", 25: "25 фолов"}
RU_SECONDS = {0: "0 секунд", 1: "1 секунда", 2: "2 секунды", 5: "5 секунд", 11: "11 секунд",
              21: "21 секунда", 22: "22 секунды", 25: "25 секунд"}
RU_VOTES = {0: "0 голосов", 1: "1 голос", 2: "2 голоса", 5: "5 голосов", 11: "11 голосов",
            21: "21 голос", 22: "22 голоса", 25: "25 голосов"}
RU_PLAYERS = {0: "0 игроков", 1: "1 игрок", 2: "2 игрока", 5: "5 игроков", 11: "11 игроков",
              21: "21 игрок", 22: "22 игрока", 25: "25 игроков"}


@pytest.mark.parametrize(("key", "forms"), [
    ("fouls", RU_FOULS), ("seconds", RU_SECONDS), ("votes", RU_VOTES), ("players", RU_PLAYERS),
])
def test_russian_plurals(key: str, forms: dict[int, str]) -> None:
    cat = catalog("ru")
    for count, expected in forms.items():
        assert cat.text(key, count=count) == expected


def test_english_plurals() -> None:
    cat = catalog("en")
    expected = {0: "0 fouls", 1: "1 foul", 2: "2 fouls", 5: "5 fouls", 11: "11 fouls",
                21: "21 fouls", 22: "22 fouls", 25: "25 fouls"}
    for count, text in expected.items():
        assert cat.text("fouls", count=count) == text
    assert cat.text("seconds", count=1) == "1 second"
    assert cat.text("seconds", count=60) == "60 seconds"


def test_no_isolation_marks_around_arguments(cat: Catalog) -> None:
    text = cat.text("notice-nominated", by="№1", target="№3")
    assert not any(mark in text for mark in ISOLATION_MARKS)
    assert cat.text("seat", n=5) in ("№5", "#5")


@pytest.mark.parametrize("lang", LANGS)
def test_game_numbers_are_never_digit_grouped(lang: str) -> None:
    """A game's or a table's number is an identifier: «№12345», never «№12 345», in every
    message that shows one."""
    cat = catalog(lang)
    sources = _sources(lang)
    used = sorted(key for key, text in sources.items()
                  if re.search(r"\$(game|game_id|table)\b", text))
    assert len(used) > 10
    for key in used:
        text, _ = cat.format(key, game=12345, game_id=12345, table=67890)
        assert "12345" in text or "67890" in text, (key, text)
        for grouped in ("12 345", "12\u00a0345", "12,345", "67 890", "67\u00a0890"):
            assert grouped not in text, (key, text)


def _sources(lang: str) -> dict[str, str]:
    """Each message's source text."""
    out: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        source = path.read_text(encoding="utf-8")
        for entry in FluentParser().parse(source).body:
            if isinstance(entry, ast.Message) and entry.span is not None:
                out[entry.id.name] = source[entry.span.start:entry.span.end]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_remembered_text_is_the_one_its_arguments_format_to(lang: str) -> None:
    """``Catalog.text`` remembers the texts it formatted (a panel asks for the same ones again
    and again): a text asked again, with the arguments in another order, or with an argument
    equal as a dict key but of another type (1, 1.0, True) is the text those arguments format
    to, never another's; an argument that cannot be a key still formats."""
    cat = catalog(lang)
    for count in (1, True, 2, 2.0, 2.5, 2, True):
        assert cat.text("fouls", count=count) == cat.format("fouls", count=count)[0]
    assert cat.text("fouls", count=True) != cat.text("fouls", count=2)
    first = cat.text("status-seat", seat="№5", facts="x")
    assert cat.text("status-seat", facts="x", seat="№5") == first
    assert cat.text("status-seat", seat="№6", facts="x") != first
    assert cat.text("status-seat", seat="№5", facts=["x"]) == \
        cat.format("status-seat", seat="№5", facts=["x"])[0]
    assert cat.text("status-seats") == cat.format("status-seats")[0]
