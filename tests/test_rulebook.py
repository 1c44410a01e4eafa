"""``/rule`` (bot/rulebook.py): every rule number the bot cites in a message, under every preset
and in both languages, is answered — as that preset numbers it and as the engine's code — in our
own words; a number it does not cite is refused with the way to the list."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import rules
from bot import rulebook
from bot.i18n import LANGS, catalog
from bot.render import cite
from bot.rulebook import Entry

from test_rule_citations import catalog_blocks, scan

ROOT = Path(__file__).resolve().parents[1]
PRESETS = sorted(rules.PRESETS)
#: a source of a catalog's citation → the preset whose games show it
SOURCE = {"seed": "seed", "f24": "fiim2024", "s24": "fsm2024"}


def catalog_citations() -> set[tuple[str, str]]:
    """(preset, number) of every rule number a catalog message shows: a bare number is the
    seed's, «ФИИМ 2024, §…» FIIM's, «ФСМ 2024, §…» FSM's (tests/test_rule_citations.py reads them)."""
    out = set()
    for path in sorted((ROOT / "bot" / "locales").rglob("*.ftl")):
        for line, text, message in catalog_blocks(path):
            if not message:
                continue
            for found in scan(text, path.name, line, catalog=True):
                for key in found.keys:
                    source, _, number = key.partition("-")
                    if source in SOURCE and number[0].isdigit():
                        out.add((SOURCE[source], number))
    return out


def answers(query: str, preset: str, lang: str) -> str:
    return rulebook.rule_text(query, rules.PRESETS[preset], catalog(lang))


def test_every_number_a_catalog_message_shows_is_answered_under_its_preset() -> None:
    cited = catalog_citations()
    assert len(cited) > 40  # the scan sees the catalogs
    missing = sorted((p, n) for p, n in cited
                     if not rulebook.lookup(n, rules.PRESETS[p], catalog("ru")))
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_citation_reason_code_and_bad_play_is_answered(preset: str, lang: str,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """Each citation as the preset words it («ФИИМ 2024, §7.6») and as the engine's code
    (5.7); each reason code of the preset (4.2.4, 6.7.11); each bad play of its points."""
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    cat, config = catalog(lang), rules.PRESETS[preset]
    unknown = cat.text("rule-unknown", query="{}")
    asked: list[str] = []
    for code in rulebook.cited_codes(cat):
        shown = cite(code, preset, cat)
        for number in [code, rulebook.numbers_of(shown)[0]]:
            text = answers(number, preset, lang)
            assert shown in text, (number, text)
            asked.append(number)
    for code in config.reasons:
        if code[0].isdigit():
            text = answers(code, preset, lang)
            assert text.startswith(cat.text("rule-entry-reason", code=code, rules=preset,
                                            items="none", text="").split(":")[0]), text
            asked.append(code)
    for item in rules.SCORING[preset].bad_plays:
        assert rulebook.lookup(item.code, config, cat)[0] == Entry("badplay", item.code)
        asked.append(item.code)
    for number in asked:
        assert answers(number, preset, lang) != unknown.replace("{}", number)
    assert not [r for r in caplog.records if "catalog" in r.getMessage()]


@pytest.mark.parametrize("preset, shown", [
    ("seed", "5.7: игрок с третьим фолом"),
    ("fiim2024", "ФИИМ 2024, §7.6: игрок с третьим фолом"),
    ("fsm2024", "ФСМ 2024, §7.6: игрок с третьим фолом"),
])
def test_rule_5_7_in_each_presets_numbering(preset: str, shown: str) -> None:
    """Seed 5.7 is the 2024 editions' §7.6: asked by either number, the same rule."""
    assert answers("5.7", preset, "ru").startswith(shown)
    if preset != "seed":
        assert answers("7.6", preset, "ru").startswith(shown)
        assert answers("§7.6", preset, "ru").startswith(shown)


def test_a_2024_number_is_not_the_seeds() -> None:
    """Under the seed, 7.6 is no rule the bot cites (the seed's V ends at 5.9)."""
    assert answers("7.6", "seed", "ru") == catalog("ru").text("rule-unknown", query="7.6")


@pytest.mark.parametrize("preset, severity", [("seed", "фол"), ("fiim2024", "фол"),
                                              ("fsm2024", "дисквалифицирующий фол")])
def test_voting_against_several_nominees_is_the_presets_own_penalty(preset: str, severity: str) -> None:
    """Seed 4.1.8: a foul; FSM 2024 makes it a disqualifying foul (S24 §6.7.9)."""
    text = answers("4.1.8", preset, "ru")
    assert f"— {severity}" in text, text
    if preset == "fsm2024":
        assert text in answers("6.7.9", preset, "ru")  # the edition's own number (with 4.2.9)
        assert "(ФСМ 2024, §6.7.9)" in text


def test_fsm_2024_words_4_1_8_as_its_disqualifying_half_and_6_6_8_as_the_foul() -> None:
    """S24 §6.7.9 takes voting against several nominees out of the foul: under fsm2024 /rule 4.1.8
    speaks of that alone, and 6.6.8 (S24 §6.6.8) of not voting when the judge asks."""
    dq, foul = answers("4.1.8", "fsm2024", "ru"), answers("6.6.8", "fsm2024", "ru")
    assert "двумя руками" in dq and "неголосование" not in dq
    assert "неголосование" in foul and "— фол" in foul


@pytest.mark.parametrize("preset", PRESETS)
def test_an_item_f24_6_8_6_exempts_says_so(preset: str) -> None:
    """F24/S24 §6.8.6: tears (4.2.7) are not applied after the decisive vote or kill, insults
    (4.2.4) still are; /rule says which."""
    assert "не применяется" in answers("4.2.7", preset, "ru")
    assert "не применяется" not in answers("4.2.4", preset, "ru")
    assert "not applied" in answers("4.2.7", preset, "en")


def test_a_2024_item_number_finds_the_seeds_reason_code() -> None:
    """F24 §6.7.4 is the seed's 4.2.4 (insults): a disqualifying foul, in the final minute a team loss."""
    text = answers("6.7.4", "fiim2024", "en")
    assert text.startswith("Item 4.2.4 (FIIM 2024, §6.7.4)") and "team loss (FIIM 2024, §6.8.5)" in text
    assert "team loss" not in answers("4.2.4", "seed", "en")  # the seed has no such escalation


@pytest.mark.parametrize("preset, points", [("fiim2024", "-0.5"), ("fsm2024", "-0.4")])
def test_a_bad_play_by_its_item_with_the_presets_points(preset: str, points: str) -> None:
    text = answers("8.5.2", preset, "en")
    assert points in text and text.startswith({"fiim2024": "FIIM", "fsm2024": "FSM"}[preset])


@pytest.mark.parametrize("query", ["9.9", "4.6", "draws", "1.2.3.4"])
def test_a_rule_the_bot_never_cites_is_refused_with_the_way_to_the_list(query: str) -> None:
    assert answers(query, "fiim2024", "ru") == catalog("ru").text("rule-unknown", query=query)


def test_rule_alone_lists_the_numbers() -> None:
    text = answers("", "fiim2024", "en")
    assert "5.7" in text and "7.6" in text and "4.2.4" in text and "8.5.13.1" in text


@pytest.mark.parametrize("lang", LANGS)
def test_rule_7_2_says_which_reading_of_the_last_speakers_only_candidate_the_game_plays(lang: str) -> None:
    """Issue 35, item 4 (docs/rules.md §7.1): where FIIM 2024's text allows both readings, /rule
    shows the choice. Under fsm2024 the committee's moment counts (SC-determined: the candidate
    leaves, the next day's vote is not held); under fiim2024 and the seed a removal before the
    vote cancels today's (seed 5.1 = F24 §7.1); a club's option on another preset is shown as
    its game plays."""
    cat = catalog(lang)
    decided = {"ru": "последний говорящий выставляет единственную кандидатуру",
               "en": "the last speaker of day 2 or later has nominated the only candidate"}[lang]
    cancels = {"ru": "до начала голосования отменяет сегодняшнее",
               "en": "before the vote begins cancels today's vote"}[lang]
    for preset, number in (("fsm2024", "7.2"), ("fiim2024", "7.2"), ("seed", "5.2")):
        text = rulebook.rule_text(number, rules.PRESETS[preset], cat)
        assert (decided in text) is (preset == "fsm2024"), (preset, text)
        assert (cancels in text) is (preset != "fsm2024"), (preset, text)
    club = rules.PRESETS["seed"].with_options(single_nominee_decided=True)
    assert decided in rulebook.rule_text("5.2", club, cat)
