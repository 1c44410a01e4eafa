"""Typed notices (issue 29): one class per kind, one renderer per class with its words in every
catalog language, one entry in /why's table, and a plain form that reads back — the same plain
form the engine gave before notices were typed."""

from __future__ import annotations

import collections
import dataclasses

import pytest

import rules
from bot import render, why
from bot.i18n import LANGS, catalog
from rules import Kind, Notice
from rules import notices as nt
from support.notices import ROLES, SAMPLES, variants


def _classes(base: type[Notice] = Notice) -> list[type[Notice]]:
    """Every class below ``base`` that names a kind of its own."""
    out = []
    for cls in base.__subclasses__():
        if "kind" in vars(cls):
            out.append(cls)
        out.extend(_classes(cls))
    return out


def _played() -> list[Notice]:
    """Every notice of a game played to its end, with a shooting's silent black (F24 §4.5.5)."""
    state = rules.new_game(rules.PRESETS["seed"])
    said: list[Notice] = []
    events: list[rules.Event] = [rules.SetRoles(ROLES), rules.StartGame(), *[rules.Next()] * 11,
                                 rules.Shots(shots=((2, 4), (5, 4))), rules.Next(), rules.Next(),
                                 rules.Penalty(3, "4.2.7"), rules.Penalty(2, "ppk")]
    for event in events:
        state, notices = rules.apply(state, event)
        said.extend(notices)
    assert state.phase is rules.Phase.GAME_OVER  # seed 4.3: the Don's team loses
    return said


def test_every_kind_has_exactly_one_notice_class() -> None:
    counts = collections.Counter(cls.kind for cls in _classes())
    assert set(counts) == set(Kind)
    assert [kind for kind, n in counts.items() if n != 1] == []
    assert all(nt.NOTICE_TYPES[cls.kind] is cls for cls in _classes())
    assert sorted(n.kind for n in SAMPLES) == sorted(Kind)  # the samples below: one of each


@pytest.mark.parametrize("lang", LANGS)
def test_every_notice_class_has_one_renderer_and_its_words(lang: str) -> None:
    """Each class is in the renderer's table under its own name (not by a base class's entry),
    and its ``notice-<kind>`` is in the catalog and formats."""
    cat = catalog(lang)
    for sample in SAMPLES:
        cls = type(sample)
        assert cls in render.notice_args.registry, cls.__name__
        assert cat.has(f"notice-{cls.kind.value}"), (lang, cls.kind)
        text = render.notice_text(sample, cat)
        assert text and cat.text("notice-unknown", kind=cls.kind.value) != text, (lang, cls.kind)


def test_a_notice_class_without_a_renderer_is_refused() -> None:
    """The table's fallback: a kind added without its words fails loudly, never says nothing."""
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Unrendered(Notice):  # no kind of its own: the scan above never counts it
        seat: int

    with pytest.raises(TypeError):
        render.notice_text(Unrendered(seat=1), catalog("ru"))


def test_every_notice_class_is_a_ruling_with_grounds_or_named_as_none() -> None:
    fallback = why.grounds.registry[object]
    for cls in nt.NOTICE_TYPES.values():
        ruling = why.grounds.dispatch(cls) is not fallback
        assert ruling is (cls.kind not in why.NOT_RULINGS), cls.__name__


def test_a_notice_round_trips_through_its_plain_form() -> None:
    for notice in [*variants(), *_played()]:
        plain = notice.params
        assert not any(isinstance(v, tuple) for v in plain.values()), plain  # lists, as before
        assert nt.from_params(notice.kind.value, plain, notice.private) == notice
        assert all(notice[name] == value for name, value in plain.items())


def test_the_plain_form_is_the_one_the_engine_gave_before() -> None:
    """As the engine built notices before they were typed: tuples as lists, ``rules`` last, a
    field given only sometimes left out (a shooting's ``silent`` without /shots, a draw's
    ``draw_rule`` and ``nights``, ``applied`` unless an item is exempt)."""
    said = {n.kind: (n.params, n.private) for n in _played()}
    assert said[Kind.SHOOTING_RESULT] == (
        {"killed": None, "why": "miss", "shots": [[2, 4], [5, 4]], "silent": [7], "rules": "seed"}, True)
    assert said[Kind.NIGHT_RESULT] == (
        {"night": 1, "killed": None, "removed": [], "killed_removed": None, "rules": "seed"}, False)
    assert list(said[Kind.SPEECH][0]) == ["seat", "seconds", "silenced", "short", "option", "day", "rules"]
    state = rules.new_game(rules.PRESETS["fiim2024"])
    notices: list[Notice] = []
    for event in (rules.SetRoles((None,) * 10), rules.StartGame(), rules.Next(),
                  rules.DeclareResult("red"), rules.Penalty(4, "foul")):
        state, new = rules.apply(state, event)
        notices.extend(new)
    assert [(n.kind, n.params) for n in notices[-2:]] == [
        (Kind.GAME_OVER, {"winner": "red", "why": "declared", "roles": None, "rules": "fiim2024"}),
        (Kind.PENALTY_AFTER_RESULT, {"seat": 4, "reason": "foul", "severity": "foul", "over": True,
                                     "rules": "fiim2024"}),
    ]
    night = nt.ShootingResult(killed=None, why="miss", shots=())
    assert "silent" not in night.params and nt.from_params(night.kind, night.params).silent is None


def test_a_plain_form_of_another_kind_or_shape_is_refused() -> None:
    with pytest.raises(ValueError):
        nt.from_params("no_such_kind", {})
    with pytest.raises(ValueError):
        nt.from_params(Kind.FOUL, {"seat": 4, "count": 1})  # no reason
    with pytest.raises(ValueError):
        nt.from_params(Kind.FOUL, {"seat": 4, "count": 1, "reason": "foul", "role": "don"})


def test_each_kind_is_private_as_the_engine_says_it() -> None:
    """The kinds that hold hidden information are private by default (F24 §4.4.13, §4.5.4)."""
    private = {cls.kind for cls in nt.NOTICE_TYPES.values()
               if next(f for f in dataclasses.fields(cls) if f.name == "private").default}
    assert private == {Kind.ROLES_SET, Kind.SHOOTING_RESULT, Kind.DON_CHECK, Kind.SHERIFF_CHECK,
                       Kind.BEST_MOVE_HITS, Kind.REMOVED_DETAILS, Kind.RESULT_FIXED}
