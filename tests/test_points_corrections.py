"""The points and the protocol of a finished game against the rules (F24/S24 §8): what a
correction after the end may change, and what the MafiaRatings export keeps of the points."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import rules
from bot import commands
from bot.i18n import catalog
from bot.render import error_text
from rules import records
from bot.protocol import to_mafiaratings

from test_protocol import BLACK_WIN, CANCELLED, final, play


def _seq_of_team_loss(events: list[rules.Event], seat: int) -> int:
    return next(i for i, e in enumerate(events, 1)
                if isinstance(e, rules.Penalty) and e.seat == seat and e.reason == "ppk")


def _fix(game: tuple, seq: int, line: str) -> rules.Correction:
    config, names, events = game
    before = rules.state_before(config, events, seq, names)
    command = commands.parse(line, before)
    assert isinstance(command, commands.Act)
    return rules.correct(config, events, seq, command.event, names)


def test_a_correction_that_makes_a_lost_bad_play_s_team_win_is_refused() -> None:
    """#7 (a black) loses the game for his team (seed 4.3); the judge gives black #5 the bad
    play «no shot for two nights or more, and the blacks lost» (F24 §8.5.13.4). A correction
    of the offence into red #9's turns the result: the blacks win, and a bad play whose text
    is the blacks' loss has a false premise — as a new one would be refused
    (BAD_PLAY_NOT_LOST), the correction that makes it false is refused, naming it."""
    game = play(CANCELLED + "\n/badplay 5 8.5.13.4\n")
    state = final(game)
    assert state.result is not None and state.result.winner is rules.Team.RED
    assert rules.game_points(state)[5].bad_play == Decimal("-0.5")
    config, names, events = game
    seq = _seq_of_team_loss(events, 7)
    with pytest.raises(rules.RuleError) as caught:
        _fix(game, seq, "/ppk 9")
    error = caught.value
    assert error.code is rules.Code.FIX_BREAKS
    assert error.params["seq"] == seq + 1  # the bad play, not the correction itself
    cause = error.params["cause"]
    assert cause.code is rules.Code.BAD_PLAY_NOT_LOST and cause.params["result"] == "won"
    assert "8.5.13.4" in error_text(error, catalog("ru"))


def test_a_correction_that_keeps_the_lost_bad_play_true_is_taken() -> None:
    """The same offence corrected into black #2's: the blacks still lose, the bad play stands."""
    game = play(CANCELLED + "\n/badplay 5 8.5.13.4\n")
    seq = _seq_of_team_loss(game[2], 7)
    fixed = _fix(game, seq, "/ppk 2")
    points = rules.game_points(fixed.state)
    assert points is not None and points[5].bad_play == Decimal("-0.5")
    assert points[2].team_loss == Decimal("-0.7") and points[7].team_loss == 0


def test_the_judge_s_extra_points_are_in_the_mafiaratings_export() -> None:
    """The judge gives black #2 (a winner) 0.3 and red #10, whose best move named the three
    blacks (F24 §8.3.4: 0.7), 0.5 (F24 §8.4.3–8.4.4). MafiaRatings keeps a judge's extra points
    as a player's numeric ``bonus``; the export writes both as given, and read back the game
    scores every seat as our own protocol does (the best move outweighs #10's extra, §8.4.6)."""
    game = play(BLACK_WIN + "\n/extra 2 0.3\n/extra 10 0.5\n")
    config, names, events = game
    ours = rules.game_points(final(game))
    assert ours is not None
    exported = json.loads(json.dumps(to_mafiaratings(config, names, events)))
    assert [p.get("bonus") for p in exported["players"]] == [
        None, 0.3, None, None, None, None, None, None, None, 0.5]
    imported = records.import_record(exported)
    theirs = rules.game_points(rules.fold(imported.config, imported.events, imported.names)[0])
    assert theirs is not None
    assert {n: p.total for n, p in theirs.items()} == {n: p.total for n, p in ours.items()}
    assert theirs[10].total == Decimal("1")  # the best move's 0.7 and the automatic 0.3


@pytest.mark.parametrize("preset", ["fiim2024", "fsm2024"])
def test_a_bad_play_refused_unless_the_team_lost_says_so_in_its_words(preset: str) -> None:
    """Each bad play the judge may give only when the player's team lost (its item reads "…, and
    lost", F24/S24 §8.5; BAD_PLAY_NOT_LOST otherwise) names that loss where the judge reads it
    (``/rule``, the panel), in both languages: a missed obvious winning shot (F24 §8.5.13.5,
    S24 §8.5.11) costs the points only when the blacks lost."""
    scoring = rules.SCORING[preset]
    for item in scoring.bad_plays:
        key = f"badplay-{preset}-{item.code.replace('.', '_')}"
        words = {lang: catalog(lang).text(key) for lang in ("ru", "en")}
        if item.lost:
            assert "проиграл" in words["ru"] and "lost" in words["en"], (item.code, words)


def test_a_bad_play_corrected_into_one_whose_team_won_is_refused() -> None:
    """The judge corrects the bad play he gave black #5 into «the Sheriff never revealed himself,
    and the reds lost» for the Sheriff #8 (F24 §8.5.11) — but the reds won (seed 4.3: black #7's
    offence lost the game for his team). The replacement is a new action: refused as a new one
    is (BAD_PLAY_NOT_LOST), the Sheriff keeps his points."""
    game = play(CANCELLED + "\n/badplay 5 8.5.13.4\n")
    seq = len(game[2])
    with pytest.raises(rules.RuleError) as caught:
        _fix(game, seq, "/badplay 8 8.5.11")
    error = caught.value
    assert error.code is rules.Code.FIX_BREAKS and error.params["seq"] == seq
    assert error.params["cause"].code is rules.Code.BAD_PLAY_NOT_LOST


def test_a_best_move_corrected_into_one_naming_the_victim_is_refused() -> None:
    """Night 1's victim #10 names #2, #5, #7 (F24 §4.5.9); a correction into a best move naming
    #10 himself is refused as a new best move naming him would be (SELF_BEST_MOVE)."""
    game = play(BLACK_WIN)
    seq = next(i for i, e in enumerate(game[2], 1) if isinstance(e, rules.BestMove))
    with pytest.raises(rules.RuleError) as caught:
        _fix(game, seq, "/bestmove 2 5 10")
    assert caught.value.params["cause"].code is rules.Code.SELF_BEST_MOVE
