"""A best move or a last word the rules skip is said, with its reason, never left for the
table to wonder about (issue 15): night 1's victim without a best move (F24/S24 §7.10: 2+ left
by the day-1 vote; seed 4.5: removed the same night, said by the morning's line; the game's
option), a leaver without a last
word after the deciding vote or shot when the game's option gives none (F24 §7.9 switched off).

The best move's reason is said in the morning, right after the night's result: never earlier
than the kill itself is announced (host mode posts it in the group)."""

from __future__ import annotations

import pytest

import rules
from bot.i18n import catalog
from bot.render import notice_text
from rules import Kind, NightStep

from .harness import Table

PRESETS = sorted(rules.PRESETS)


def _raise_out_on_day_one(t: Table, seats: tuple[int, int]) -> None:
    """Day 1: ``seats`` nominated, tied twice and raised together (F24 §4.4.12.3)."""
    nominators = [s for s in t.state.speech_order if s not in seats][: len(seats)]
    t.discuss(dict(zip(nominators, seats)))
    share = {s: len(t.state.at_table) // 2 for s in seats}
    t.vote(share)
    t.tie_speeches()
    t.revote(share)
    t.expect_raise_vote(*seats)
    t.raise_vote(len(t.state.at_table) // 2 + 1)
    t.expect_leaves(*seats, cause="raise")
    t.finish_last_words()
    t.expect_night(1)


def _morning(t: Table) -> list[rules.Notice]:
    """The night passes (its checks skipped); the notices from the shooting on."""
    start = len(t.notices)
    t.end_night()
    return t.notices[start:]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("blocked_by", [2, 1])  # 8 or 9 players at the table at night 1
def test_f24_7_10_out_by_the_day_one_vote_the_best_move_refusal_is_said(preset: str, blocked_by: int) -> None:
    """F24/S24 §7.10: two players out by the day-1 vote (a raise); a club's threshold of one
    (``best_move_blocked_by_day1_departures``, MafiaRatings) and one voted out."""
    t = Table(roles="S6 D9 M10 M4", preset=preset, best_move_blocked_by_day1_departures=blocked_by)
    if blocked_by == 2:
        _raise_out_on_day_one(t, (3, 8))
    else:
        t.vote_out(3)
    t.expect_players(10 - blocked_by)
    t.shoot(1)
    said = _morning(t)
    kinds = [n.kind for n in said]
    assert Kind.BEST_MOVE_DUE not in kinds
    skipped = [n for n in said if n.kind is Kind.BEST_MOVE_SKIPPED]
    assert [(n["seat"], n["why"], n["departed"], n["rule"]) for n in skipped] == [(1, "day1_departures", blocked_by, "7.10")]
    assert not skipped[0].private  # public: the day-1 vote and the kill are known to all
    assert kinds.index(Kind.BEST_MOVE_SKIPPED) == kinds.index(Kind.NIGHT_RESULT) + 1
    t.expect_last_word(1)  # the last word stays (F24 §4.5.9)
    ru = notice_text(skipped[0], catalog("ru")) or ""
    cited = {"fsm2024": "ФСМ 2024, §7.10"}.get(preset, "ФИИМ 2024, §7.10")
    assert "№1" in ru and f"— {blocked_by}" in ru and cited in ru, ru


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_4_5_the_victim_removed_the_same_night_makes_no_best_move_and_it_is_said(preset: str) -> None:
    """Seed 4.5: removed, he leaves without a last word — and without the best move. Said once,
    in the morning's line with the kill (issue 35: one departure, told once), citing 4.5 as the
    preset numbers it; no separate BEST_MOVE_SKIPPED line."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.skip_day()
    t.shoot(3)
    t.dq(3, "4.2.6")
    said = _morning(t)
    kinds = [n.kind for n in said]
    assert Kind.BEST_MOVE_DUE not in kinds and Kind.BEST_MOVE_SKIPPED not in kinds
    morning = next(n for n in said if n.kind is Kind.NIGHT_RESULT)
    ru = notice_text(morning, catalog("ru")) or ""
    cited = {"seed": "(4.5)", "fiim2024": "ФИИМ 2024, §6.5", "fsm2024": "ФСМ 2024, §6.5"}[preset]
    assert "лучшего хода" in ru and cited in ru, ru


@pytest.mark.parametrize("preset", PRESETS)
def test_the_best_move_switched_off_is_said(preset: str) -> None:
    t = Table(preset=preset, best_move=False)
    t.skip_day()
    t.shoot(3)
    said = _morning(t)
    assert [(n["seat"], n["why"]) for n in said if n.kind is Kind.BEST_MOVE_SKIPPED] == [(3, "off")]
    t.expect_last_word(3)


@pytest.mark.parametrize("preset", PRESETS)
def test_nothing_is_said_where_no_best_move_was_ever_due(preset: str) -> None:
    """A night-1 miss, night 2's victim, one player out on day 1 (the best move is made): no
    refusal to explain."""
    t = Table(preset=preset)
    t.skip_day()
    t.miss()
    t.skip_day()
    t.shoot(3)
    _morning(t)
    kept = Table(preset=preset)
    kept.vote_out(4)
    kept.shoot(3)
    kept.next()
    kept.next()
    kept.expect_night(1, step=NightStep.BEST_MOVE)
    kept.best_move(8, 9, 10)
    for table in (t, kept):
        assert not table.kinds_seen(Kind.BEST_MOVE_SKIPPED)


def test_the_refusal_is_not_said_before_the_morning() -> None:
    """At night the group learns nothing of the kill: the refusal waits for the night's result."""
    t = Table(roles="S6 D9 M10 M4")
    _raise_out_on_day_one(t, (3, 8))
    start = len(t.notices)
    t.shoot(1)
    t.next()  # the Don's check
    assert t.state.night is not None and t.state.night.step is NightStep.SHERIFF_CHECK
    assert not t.kinds_seen(Kind.BEST_MOVE_SKIPPED, since=start)


def _parity_vote_on_day_five(preset: str, **options: object) -> Table:
    """#3 (D), #8 (B), #1, #5, #10 (R) on day 5; #5 is voted out → 2 vs 2, decisive."""
    t = Table(roles="S1 D3 M8 M9", preset=preset, **options)
    t.play_until(5, kills={1: 4, 2: 6}, out={1: 2, 2: 9, 3: 7})
    t.discuss({10: 5, 1: 3})
    t.vote({5: (3, 8, 10), 3: 2})
    return t


@pytest.mark.parametrize("preset", PRESETS)
def test_f24_7_9_off_the_last_word_skipped_after_the_deciding_vote_is_said(preset: str) -> None:
    t = _parity_vote_on_day_five(preset, last_word_on_decisive_event=False)
    t.expect_notice(Kind.LAST_WORD_SKIPPED, seats=[5], why="decisive")
    t.expect_no_notice(Kind.LAST_WORD)
    kinds = [n.kind for n in t.last]
    assert kinds.index(Kind.LAST_WORD_SKIPPED) < kinds.index(Kind.GAME_OVER)
    t.expect_winner("black")


@pytest.mark.parametrize("preset", PRESETS)
def test_f24_7_9_off_the_last_word_skipped_after_the_deciding_shot_is_said(preset: str) -> None:
    """Five at the table (#5, #6, #7 red; #8, #10 black); the kill of #5 makes 2 vs 2."""
    t = Table(roles="S5 D8 M9 M10", preset=preset, last_word_on_decisive_event=False)
    t.play_until(4, kills={1: 1, 2: 3}, out={1: 9, 2: 2, 3: 4})
    t.expect_table(5, 6, 7, 8, 10)
    t.skip_day()
    t.kill(5)
    assert [(n["seats"], n["why"]) for n in t.kinds_seen(Kind.LAST_WORD_SKIPPED)] == [([5], "decisive")]
    assert not [n for n in t.notices if n.kind is Kind.LAST_WORD and n["seat"] == 5]
    t.expect_winner("black")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_last_word_given_after_the_deciding_vote_says_no_skip(preset: str) -> None:
    t = _parity_vote_on_day_five(preset)
    t.expect_last_word(5)
    assert not t.kinds_seen(Kind.LAST_WORD_SKIPPED)
