"""The judge corrects an earlier action (/fix; rules.correct, docs/rules.md §2.6): the log is
replayed with the corrected action in its place and the rules decide again everything that
followed from it; a correction that would make a later action illegal is refused, naming the first
action it would break. The correction is an event of the log, like an undo: nothing is deleted."""

from __future__ import annotations

import pytest

import rules
from rules import Code, Phase, Team

from .harness import Table

PRESETS = sorted(rules.PRESETS)
SIZES = [10, 9, 7, 5, 4, 3]  # players at the table on day 1
# Night 0 removals that leave ``size`` players and the game going (blacks #2, #9, #10; the
# Sheriff #6): reds first, then the Don, the Sheriff and a black, never the last black.
REMOVED = (7, 8, 4, 2, 6, 10, 1)


def table_of(size: int, preset: str = "seed") -> Table:
    """Day 1 with ``size`` players at the table (the rest disqualified on night 0, which
    cancels day 1's vote: seed 5.1)."""
    t = Table(roles="D2 M9 M10 S6", preset=preset, start="night0")
    for seat in REMOVED[:10 - size]:
        t.dq(seat)
    t.next()
    t.expect_players(size)
    return t


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("size", SIZES)
def test_a_foul_on_the_wrong_seat_three_actions_back_becomes_the_right_seats_third(
        size: int, preset: str) -> None:
    """The last speaker of the day has two fouls; the judge gave a third to the opener by mistake
    and three actions followed. Corrected: it is the last speaker's third foul — he is silent in
    his next speech, which the replay shows now that it has come (seed 4.4), or at three or four
    players his speech is 30 s (seed 5.7); the opener has no foul."""
    t = table_of(size, preset)
    order = t.state.speech_order
    opener, second, last = order[0], order[1], order[-1]
    t.fouls(last, 2)
    t.foul(opener, "4.1.2")
    wrong = t.seq
    t.nominate(opener, second)
    for _ in order[:-1]:  # every speech before the last speaker's
        t.next()
    t.expect_speech(last, seconds=60)
    correction = t.fix(wrong, rules.Penalty(seat=last, reason="4.1.2"))
    assert correction.original == rules.Penalty(seat=opener, reason="4.1.2")
    t.expect_fouls(opener, 0)
    t.expect_fouls(last, 3)
    t.expect_speech(last, seconds=30 if size <= 4 else 0)
    t.expect_nominees(second)  # what did not depend on it stands


@pytest.mark.parametrize("size", [10, 9, 7, 5, 4])
def test_a_fourth_foul_corrected_into_place_is_refused_if_the_player_acted_after_it(
        size: int) -> None:
    """The second speaker had three fouls; the judge recorded a foul on the third, then the
    second speaker (silenced, seed 4.4) nominated. Moved to the second speaker, the foul is his
    fourth: he leaves at once (seed 4.5), so his nomination could not have been made — the
    correction is refused, naming that nomination; where his leaving ends the game (the blacks
    as many as the reds, F24 §1.4) the first action it breaks is the next one. Nothing changes."""
    t = table_of(size)
    order = t.state.speech_order
    second, third = order[1], order[2]
    t.fouls(second, 3)
    t.foul(third)
    wrong = t.seq
    t.next()
    t.expect_speech(second, seconds=30 if size <= 4 else 0)  # seed 4.4; seed 5.7
    t.nominate(second, third)
    nomination = t.seq
    t.next()
    left = [s for s in t.state.at_table if s != second]
    blacks = sum(t.state.team_of(s) is Team.BLACK for s in left)
    ends = blacks >= len(left) - blacks
    error = t.expect_fix_refused(wrong, rules.Penalty(seat=second), Code.FIX_BREAKS,
                                 seq=wrong + 1 if ends else nomination, fixed=wrong)
    if ends:
        assert error.params["cause"].code is Code.GAME_OVER
    else:
        assert error.params["event"] == rules.Nominate(by=second, target=third)
        assert error.params["cause"].code in (Code.NOT_AT_TABLE, Code.NOT_SPEAKER)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_vote_count_corrected_changes_who_leaves(preset: str) -> None:
    """Day 1: #1 and #2 nominated; the judge recorded 0 hands against #1, so #2 took the other
    ten and left (F24 §4.4.8, §4.4.11); his last word ended. The count was 7: #1 leaves, #2 stays,
    and the last word that ended is #1's."""
    t = Table(preset=preset)
    t.discuss({1: 2, 2: 1})
    t.expect_voting(2, 1)
    t.votes_against(2, 0)
    count = t.seq
    t.expect_leaves(1, cause="vote")
    t.finish_last_words()
    t.expect_night(1)
    t.fix(count, rules.Vote(nominee=2, count=7))
    t.expect_leaves(2, cause="vote")
    t.expect_stays(1)
    t.expect_night(1)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_shot_corrected_moves_the_kill_and_is_refused_once_the_victim_has_acted(
        preset: str) -> None:
    """Night 1's shot was recorded on #3 and the night went on (checks, best move). It was #4:
    #4 is killed and makes the best move as recorded, #3 is back at the table. Had #4 spoken
    after the morning — here he nominated — the correction is refused at that nomination."""
    t = Table(roles="D8 M9 M10 S5", preset=preset)
    t.skip_day()
    t.shoot(3)
    shot = t.seq
    t.next()
    t.next()
    t.best_move(8, 9, 10)
    t.fix(shot, rules.NightKill(target=4))
    t.expect_leaves(4, cause="kill")
    t.expect_stays(3)
    assert t.state.nights[0].best_move == (8, 9, 10)
    t.last_word(4)
    t.expect_fix_refused(shot, rules.NightKill(target=None), Code.FIX_BREAKS)  # no best move then
    t.speeches_until(3)
    t.nominate(3, 5)
    t.expect_fix_refused(shot, rules.NightKill(target=3), Code.FIX_BREAKS, seq=t.seq)
    t.fix(shot, rules.Shots(shots=((8, 4), (9, 4), (10, 4))))  # the same kill, shot by shot


def test_what_cannot_be_corrected() -> None:
    """Only a standing action, into one of its own kind, and into something else."""
    t = Table()
    t.foul(3)
    foul = t.seq
    t.next()
    t.expect_fix_refused(foul, rules.Penalty(seat=3), Code.NOT_FIXABLE, why="same")
    t.expect_fix_refused(foul, rules.Nominate(by=1, target=3), Code.NOT_FIXABLE, why="kind")
    t.expect_fix_refused(99, rules.Penalty(seat=3), Code.NOT_FIXABLE, why="no_such")
    t.expect_fix_refused(0, rules.Penalty(seat=3), Code.NOT_FIXABLE, why="no_such")
    t.log.append(rules.Undo())
    t.state = t.replay()
    t.expect_fix_refused(foul + 1, rules.Next(), Code.NOT_FIXABLE, why="undone")
    t.expect_fix_refused(t.seq, rules.Next(), Code.NOT_FIXABLE, why="no_such")  # an undo
    t.expect_fix_refused(foul, rules.Penalty(seat=4, reason="4.2.99"), Code.FIX_BREAKS, seq=foul)


def test_a_correction_is_undone_like_any_action_and_can_be_corrected_again() -> None:
    t = Table()
    t.foul(3)
    foul = t.seq
    t.next()
    t.fix(foul, rules.Penalty(seat=4))
    t.expect_fouls(4, 1)
    t.fix(foul, rules.Penalty(seat=5, reason="warning"))  # the latest correction counts
    t.expect_fouls(4, 0)
    assert t.state.seat(5).warnings == ["warning"]
    t.log.append(rules.Undo())  # takes the second correction back: the first counts again
    t.state = t.replay()
    t.expect_fouls(4, 1)
    assert t.state.phase is Phase.SPEECH and t.speaker == 2
