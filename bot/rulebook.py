"""``/rule 5.7``: what a rule the bot cites says, in our own words (docs/rules.md), under the
game's preset and in the chat's language.

The rules a game's messages cite are of three kinds, and each has its words in the catalogs:

* a **citation** ``cite-<code>`` (``bot/locales/*/common.ftl``, ``points.ftl``): seed 5.7 is
  «5.7» under the seed preset and «ФИИМ 2024, §7.6» under fiim2024; its words are
  ``rule-<code>`` (``rulebook.ftl``);
* a **penalty's reason code** (``rules.REASONS``: ``4.2.4``, ``6.7.11``), shown as it is under
  every preset; its words are ``reason-<code>`` with the penalty its preset gives, and under a
  2024 preset the edition's own number of the item (docs/rules.md §11) finds it too;
* a **bad play** of the points (F24/S24 §8.5), by the preset's own item number
  (``badplay-<rules>-<item>``).

A number is looked up as the game's preset numbers it first (``/rule 7.6`` under fiim2024 is the
seed's 5.7), then as the engine's code (``/rule 5.7`` under fiim2024 is that rule too, shown with
its FIIM number); a few words name a rule too (``/rule draw``, ``/rule ничья``). Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import rules
from rules import RulesConfig, Severity

from .i18n import Catalog
from .render import bad_play_text, cite, key_part, reason_text

NUMBER = re.compile(r"\d+(?:\.\d+)*")  # a rule's number: 8, 5.7, 8.5.13.1
_SHOWN = re.compile(r"§\s?(\d+(?:\.\d+)*)|(?<![\d.§])(\d+(?:\.\d+)+)")

#: A 2024 edition's own item number of each seed reason code (docs/rules.md §11): the seed's fouls
#: 4.1.1–4.1.8 are the editions' §6.6 items (its 4.1.2 two of them, its 4.1.3 and 4.1.4 one), its
#: disqualifying fouls 4.2.x their §6.7.x, its team losses 4.3.x their §6.8.x.
_FOULS = {1: (1,), 2: (2, 3), 3: (4,), 4: (4,), 5: (5,), 6: (6,), 7: (7,), 8: (8,)}
_EDITION_ITEMS: dict[str, tuple[str, ...]] = {
    **{f"4.1.{i}": tuple(f"6.6.{n}" for n in items) for i, items in _FOULS.items()},
    **{f"4.2.{i}": (f"6.7.{i}",) for i in range(1, 11)},
    **{f"4.3.{i}": (f"6.8.{i}",) for i in range(1, 4)},
}


def edition_items(code: str, preset: str) -> tuple[str, ...]:
    """The 2024 edition's own numbers of the seed reason ``code`` under ``preset`` (none under
    the seed: its numbers are the codes)."""
    if preset == "seed":
        return ()
    if preset == "fsm2024" and code == "4.1.8":
        return (f"6.7.{9}",)  # S24 §6.7.9: voting against several nominees disqualifies
    return _EDITION_ITEMS.get(code, ())


#: Words that name a rule (``/rule draw``): a topic → the code of the rule, per the game's config.
_WORDS: dict[str, str] = {
    "draw": "draw", "ничья": "draw",
    "bestmove": "4.5.9", "best move": "4.5.9", "лх": "4.5.9", "лучший ход": "4.5.9",
    "raise": "4.4.12.3", "подъём": "4.4.12.3", "подъем": "4.4.12.3",
    "tie": "4.4.12", "revote": "4.4.12", "переголосование": "4.4.12", "автокатастрофа": "4.4.12.3",
    "ppk": "4.3", "ппк": "4.3", "silence": "4.4", "молчание": "4.4",
    "removal": "4.5", "удаление": "4.5", "disqualification": "4.5", "дисквалификация": "4.5",
}


@dataclass(frozen=True)
class Entry:
    """One rule the bot cites: its ``kind`` (``"cite"``, ``"reason"`` or ``"badplay"``) and the
    engine's ``code`` (``"5.7"``, ``"4.2.4"``, ``"8.5.13.1"``)."""

    kind: str
    code: str


def cited_codes(cat: Catalog) -> tuple[str, ...]:
    """The codes of every citation the catalog has (``cite-5_7`` → ``"5.7"``), in order."""
    codes = [k[len("cite-"):].replace("_", ".") for k in cat.keys
             if k.startswith("cite-") and NUMBER.fullmatch(k[len("cite-"):].replace("_", "."))]
    return tuple(sorted(codes, key=_order))


def _order(code: str) -> tuple[int, ...]:
    return tuple(int(p) for p in code.split("."))


def numbers_of(text: str) -> list[str]:
    """The rule numbers in a citation's text: «ФИИМ 2024, §4.5.9, §7.10» → 4.5.9, 7.10; «5.8»,
    «редакция клуба, 5.8» → 5.8."""
    if NUMBER.fullmatch(text.strip()):
        return [text.strip()]
    return [a or b for a, b in _SHOWN.findall(text)]


@functools.lru_cache(maxsize=16)
def _index(preset: str, cat: Catalog) -> dict[str, tuple[Entry, ...]]:
    """Every number a game under ``preset`` may show → the rules it names."""
    out: dict[str, list[Entry]] = {}

    def put(number: str, entry: Entry, first: bool = False) -> None:
        found = out.setdefault(number, [])
        if entry in found:
            return
        if first:
            found.insert(0, entry)
        else:
            found.append(entry)

    codes = cited_codes(cat)
    for code in codes:  # as the preset cites it: its own number first
        shown = numbers_of(cite(code, preset, cat))
        if shown:
            put(shown[0], Entry("cite", code), first=True)
    for code in codes:  # then as the engine's code
        put(code, Entry("cite", code))
    for code in rules.REASONS[preset]:
        if code[0].isdigit():
            put(code, Entry("reason", code), first=True)
            for number in edition_items(code, preset):
                put(number, Entry("reason", code))
    for item in rules.SCORING[preset].bad_plays:
        put(item.code, Entry("badplay", item.code), first=True)
    return {number: tuple(entries) for number, entries in out.items()}


def lookup(query: str, config: RulesConfig, cat: Catalog) -> tuple[Entry, ...]:
    """The rules ``query`` names under ``config`` (a number, with or without its «§», or a
    word); none if it names none the bot cites."""
    word = " ".join(query.lower().split()).lstrip("§").rstrip(".")
    topic = _WORDS.get(word)
    if topic == "draw":
        return (Entry("cite", "5.8" if config.draw_declared is rules.DrawDeclared.AFTER_THIRD_DAY
                      else "7.7"),)
    if topic is not None:
        word = topic
    return _index(config.preset, cat).get(word, ())


def numbers(config: RulesConfig, cat: Catalog) -> tuple[str, ...]:
    """Every number ``/rule`` answers under ``config``'s preset, in order."""
    return tuple(sorted(_index(config.preset, cat), key=_order))


def _points_args(scoring: rules.points.Scoring) -> dict[str, str]:
    """The preset's points (F24/S24 §8) as the ``rule-8_*`` messages name them."""
    show = rules.points.show
    return dict(
        win=show(scoring.win), dq=show(scoring.disqualification), team_loss=show(scoring.team_loss),
        bm3=show(scoring.best_move[3]), bm2=show(scoring.best_move[2]), bonus=show(scoring.auto_bonus),
        bad=show(scoring.bad_play), xp=str(scoring.extra_players), xpa=str(scoring.extra_players_approved),
        xt=show(scoring.extra_total), xta=show(scoring.extra_total_approved),
        wlo=show(scoring.winner_values[0]), whi=show(scoring.winner_values[-1]),
        whia=show(scoring.winner_values_approved[-1]),
        llo=show(scoring.loser_values[0]), lhi=show(scoring.loser_values[-1]))


def entry_text(entry: Entry, config: RulesConfig, cat: Catalog) -> str:
    """One rule: how the preset numbers it, and what it says."""
    preset = config.preset
    if entry.kind == "cite":
        return cat.text("rule-entry", number=cite(entry.code, preset, cat),
                        text=cat.text(f"rule-{key_part(entry.code)}", rules=preset,
                                      single="yes" if config.single_nominee_decided else "no",
                                      **_points_args(rules.SCORING[preset])))
    if entry.kind == "badplay":
        scoring = rules.SCORING[preset]
        return cat.text("rule-entry", number=cat.text("cite-points", rules=scoring.rules,
                                                      number=entry.code),
                        text=cat.text("rule-badplay", play=bad_play_text(entry.code, preset, cat),
                                      points=rules.points.show(scoring.bad_play)))
    reason = config.reasons[entry.code]
    items = edition_items(entry.code, preset)
    severity = "team_loss" if reason.last_word_team_loss else reason.severity.value
    return cat.text("rule-entry-reason", code=entry.code, rules=preset,
                    items=", ".join(f"§{n}" for n in items) if items else "none",
                    text=cat.text("rule-reason", reason=reason_text(entry.code, cat, preset),
                                  rules=preset,
                                  severity=reason.severity.value,
                                  after_result="no" if reason.not_after_result else "yes",
                                  tournament="yes" if reason.tournament_removal else "no",
                                  final_minute="yes" if severity == "team_loss"
                                  and reason.severity is Severity.DISQUALIFYING else "no"))


def rule_text(query: str, config: RulesConfig, cat: Catalog) -> str:
    """The answer to ``/rule <query>``: each rule it names, or the numbers there are."""
    if not query.strip():
        return cat.text("rule-usage", numbers=", ".join(numbers(config, cat)))
    entries = lookup(query, config, cat)
    if not entries:
        return cat.text("rule-unknown", query=cat.said(query.strip()))
    return "\n".join(entry_text(e, config, cat) for e in entries)
