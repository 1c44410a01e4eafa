"""The catalogs' language, for any player: a seat may be rendered with the player's name («№5 Дина»,
the panel and the result do), so no line assumes a gender — in Russian no past tense, short
participle or predicate adjective that agrees with a man («покинул», «убит», «Анна: мирный»), in
English no he/his/him; the bot speaks of itself in one voice; one spelling of a seat («№5»,
«#5»: the sign and the number together); one-word spellings of the negated participles.

The refused Russian forms are a list (past tenses found by their endings, less the nouns that
end the same way; participles and adjectives named one by one): a new gendered line fails here
with its key and the word."""

from __future__ import annotations

import re

import pytest
from fluent.syntax import FluentParser, ast, serializer

from bot.i18n import LANGS, LOCALES_DIR

#: Masculine past tense: a Russian word ending in a past-tense suffix (and its reflexive).
PAST = re.compile(r"(?<![а-яё])([а-яё]{2,}(?:ил|ал|ял|ел|ыл|ул|ёл|ол)(?:ся)?)(?![а-яё])")
#: Words that end like a past tense and are not verbs.
NOT_VERBS = frozenset({
    "стол", "фол", "протокол", "канал", "символ", "предел", "журнал", "сигнал", "пол", "зал",
    "интервал", "материал", "файл", "дел", "пробел", "раздел",
    "выстрел", "правил",  # a shot; the rules' genitive plural
    "узел",  # a network's host (the database URL's, an unreachable server)
})
#: Short participles and adjectives that agree with a man when said of a player, in every case
#: a player can be in («убит», «удалённого», «лишён», «Анна: мирный», «№3 — чёрный»).
GENDERED = re.compile(r"(?<![а-яё])(" + "|".join([
    r"убит(?:ый|ого|ому|ым)?", r"удал[её]н(?:ный|ного|ному|ным)?", r"выставлен", r"лишён",
    r"наказан", r"дисквалифицирован", r"исключ[её]н", r"застрелен", r"проверен",
    r"выбывш(?:ий|его|ему|им)",
    # a role or a team said of a player, not of a noun that carries it («мирный житель»)
    r"мирный", r"красный", r"чёрный",
]) + r")(?![а-яё])(?!\s+(?:житель|игрок|цвет))")
ENGLISH = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.I)


def _texts(lang: str) -> list[tuple[str, str]]:
    """(``file:key``, text) for every message and term, attributes and variants included;
    comments are not the bot's words and are left out."""
    out = []
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        resource = FluentParser().parse(path.read_text("utf-8"))
        for entry in resource.body:
            if isinstance(entry, (ast.Message, ast.Term)):
                parts = [entry.value] if entry.value is not None else []
                parts += [attribute.value for attribute in entry.attributes]
                text = " ".join(serializer.serialize_pattern(part) for part in parts)
                out.append((f"{path.stem}:{entry.id.name}", text))
    return out


def _words(text: str) -> str:
    """The text without its placeables' names (``{ $seat }``, ``{ cite-4_5 }``)."""
    return re.sub(r"\{[^{}]*\}", " ", text.lower())


def test_the_catalogs_are_read() -> None:
    assert len(_texts("ru")) > 500 and len(_texts("en")) > 500


def test_no_russian_line_assumes_a_players_gender() -> None:
    found = []
    for key, text in _texts("ru"):
        words = _words(text)
        found += [(key, word) for word in PAST.findall(words) if word not in NOT_VERBS]
        found += [(key, word) for word in GENDERED.findall(words)]
    assert found == []


#: A personal pronoun that means "he" or "his" («он остаётся», «его речь», «ему — слово», «против
#: него»), and «сам»: in a line that speaks of a player it is said of that player.
PRONOUN = re.compile(r"(?<![а-яё])(он|его|ему|него|нему|ним|нём|сам|самого|самому)(?![а-яё])")
#: What makes a line speak of a player: a seat's placeable or the words for a player.
OF_A_PLAYER = re.compile(r"\{ *\$(?:seat|seats|nominee|by|target|last|killed|opener|speaker)\b"
                         r"|(?<![а-яё])(?:игрок|лидер|кандидат|жертв)", re.I)


def test_no_russian_line_calls_a_player_he() -> None:
    """«Больше всех голосов у игрока №5 Маша, но в первый день он остаётся за столом; ему —
    слово» assumes a man as a past tense does: a line about a player names the seat or the
    thing («ближайшая речь этого игрока», «этой кандидатуре отходят руки»)."""
    found = [(key, word) for key, text in _texts("ru") if OF_A_PLAYER.search(text)
             for word in PRONOUN.findall(_words(text))]
    assert found == []


@pytest.mark.parametrize(("line", "found"), [
    ("Больше всех голосов у игрока { $seat }, но он остаётся; ему — слово", ["он", "ему"]),
    ("Игрок { $seat } получает третий фол: его ближайшая речь — 30 с", ["его"]),
    ("Последней кандидатурой становится игрок { $last }: ему отходят руки", ["ему"]),
    ("Проверьте токен: его выдаёт @BotFather.", []),  # no player in the line: the token
    ("Последней кандидатурой становится игрок { $last }: этой кандидатуре отходят руки", []),
])
def test_the_pronoun_check(line: str, found: list[str]) -> None:
    hits = PRONOUN.findall(_words(line)) if OF_A_PLAYER.search(line) else []
    assert hits == found


def test_no_english_line_assumes_a_players_gender() -> None:
    found = [(key, m) for key, text in _texts("en") for m in ENGLISH.findall(_words(text))]
    assert found == []


@pytest.mark.parametrize(("line", "word"), [
    ("{ $seat } — покинул игру", "покинул"), ("Игрок { $seat } получил фол", "получил"),
    ("{ $seat }: мирный", "мирный"), ("убит { $seat }", "убит"), ("лучший ход убитого", "убитого"),
    ("игрок уже выставлен", "выставлен"), ("{ $seat } лишён слова", "лишён"),
    ("он ушёл", "ушёл"), ("Игрок отозвался", "отозвался"),
])
def test_the_check_finds_gendered_forms(line: str, word: str) -> None:
    words = _words(line)
    hits = [w for w in PAST.findall(words) if w not in NOT_VERBS] + GENDERED.findall(words)
    assert hits == [word]


@pytest.mark.parametrize("line", [
    "{ $seat } покидает игру", "покинуть игру: { $seat }", "роль: мирный житель", "за столом",
    "четвёртый фол", "протокол игры", "убита", "проверка: чёрная команда",
])
def test_the_check_lets_gender_free_forms_pass(line: str) -> None:
    words = _words(line)
    assert [w for w in PAST.findall(words) if w not in NOT_VERBS] + GENDERED.findall(words) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_seat_is_written_one_way(lang: str) -> None:
    """«№5» and «#5»: the sign and the number (or the placeable) together, never «№ 5»."""
    sign = "№" if lang == "ru" else "#"
    spaced = [(key, text) for key, text in _texts(lang)
              if re.search(re.escape(sign) + r" +(\d|\{)", text)]
    assert spaced == []


def test_negated_participles_are_one_word() -> None:
    """«неподнятая рука», «несделанный выстрел», «несделанная проверка» (a participle without
    dependent words is written with «не» together)."""
    split = [(key, m) for key, text in _texts("ru")
             for m in re.findall(r"(?<![а-яё])не (?:поднят|сделан)\w*", text.lower())]
    assert split == []


def test_the_bot_speaks_of_itself_in_the_first_person() -> None:
    """One voice: the bot says «я» / «I» of itself (the welcome, the rights it lacks), never «бот
    должен» / «the bot must» of the very bot that speaks; it may name «бот» as a thing the judge
    adds to a group or channel."""
    third = [(key, text) for key, text in _texts("ru")
             if re.search(r"(?<![а-яё])(?:бот(?:у)? (?:не )?(?:долж|может|смог|умеет|видит|заметит)"
                          r"|у бота нет)", text.lower())]
    third += [(key, text) for key, text in _texts("en")
              if re.search(r"\bthe bot (?:must|cannot|can't|could not)\b", text.lower())]
    assert third == []


#: One term per thing: the word the catalogs use, and the synonyms they must not use for it.
ONE_TERM = {
    "ru": {"панель": r"пульт", "«Отправлять участников подумать о своём поведении»": r"Модерировать участников"},
    "en": {"panel": r"\bremote\b|\bdashboard\b"},
}


@pytest.mark.parametrize("lang", LANGS)
def test_one_term_per_thing(lang: str) -> None:
    texts = _texts(lang)
    for term, synonyms in ONE_TERM[lang].items():
        assert any(term.lower() in text.lower() for _, text in texts), term
        assert [key for key, text in texts if re.search(synonyms, text, re.I)] == [], term
