"""One test per scenario of ``SCENARIOS.md`` (the shared test oracle), written from its text.

Each docstring quotes the scenario's id, its Given / Events / Expected in brief, and its rules.
The "Given" state is reached through real events (see :mod:`.harness`); numbering: night k
follows day k, N0 is the договорка.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from rules import Code, Kind

from .harness import Table

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


# --- S01–S04: the third foul ----------------------------------------------------------------

def test_s01_third_foul_before_his_speech_silent_but_may_nominate() -> None:
    """S01 — Third foul before the player's speech: silent, but may nominate.

    Given D2, 9 players, speaking order from #2; #6 has 2 fouls. Events: during #3's speech #6
    interrupts → 3rd foul; #6's turn comes. Expected: no speech time for #6 this day (timer 0),
    he may still nominate; then #7 speaks; on D3 #6 speaks the normal 60 s.
    Rules: seed 4.4, 4.1.1 (F24/S24 §6.4, §6.6.1); MR 9.5.1.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.fouls(6, 2)  # day 1
    t.play_until(2, kills={1: 1})
    t.expect_players(9)
    t.expect_opener(2)
    t.speech(2)
    t.expect_speech(3)
    t.foul(6, "4.1.1")
    t.expect_notice(Kind.THIRD_FOUL, seat=6)
    t.speech(3)
    t.speech(4)
    t.speech(5)
    t.expect_speech(6, seconds=0)
    assert t.can_nominate(6, 9)
    t.speech(6, nominates=9)
    t.expect_nominees(9)
    t.expect_speech(7)
    t.discuss()
    t.last_word(9)  # day ≥ 2, single nominee: he leaves (F24 §4.4.10)
    t.miss()
    t.speeches_until(6)
    t.expect_speech(6, seconds=60)


def _s02_until_third_foul(**options: object) -> Table:
    t = Table(roles="S5 D8 M9 M10", **options)
    t.fouls(4, 2)  # day 1
    t.play_until(2)
    t.speeches_until(4)
    t.expect_speech(4)
    t.foul(4, "4.1.3")  # at 0:40 of his speech he knocks on the table
    return t


def test_s02_third_foul_during_his_own_speech() -> None:
    """S02 — Third foul during his own speech (default).

    Given D2, #4 has 2 fouls and is speaking. Events: at 0:40 #4 knocks → 3rd foul.
    Expected: the current speech is not cut; his next regular day speech (D3) is silent with
    nomination allowed; D4 normal.
    Rules: seed 4.4, 4.1.3 (F24 §6.6.4); RULES.md §12.3.
    """
    t = _s02_until_third_foul()
    t.expect_speech(4, seconds=60)  # not cut
    t.discuss()
    t.miss()
    t.speeches_until(4)
    t.expect_speech(4, seconds=0)
    t.speech(4, nominates=9)
    t.discuss()
    t.last_word(9)  # the single nominee of D3 leaves
    t.miss()
    t.speeches_until(4)
    t.expect_speech(4, seconds=60)


def test_s02_variant_strict_house_rule_cuts_the_speech_at_once() -> None:
    """S02 — Variant: a strict house rule cuts the current speech at once
    (``third_foul_cuts_current_speech``); the silence is then served, so D3 is normal
    (the silence happens once, RULES.md §12.3; MR 9.5.1)."""
    t = _s02_until_third_foul(third_foul_cuts_current_speech=True)
    t.expect_speech(4, seconds=0)
    t.discuss()
    t.miss()
    t.speeches_until(4)
    t.expect_speech(4, seconds=60)


def test_s03_three_foul_player_in_a_tie_speaks_and_keeps_his_silence() -> None:
    """S03 — 3-foul player ends up in a tie: he may speak in the tie round.

    Given D3, 8 players; #4 spoke, then got his 3rd foul later that day; nominees #4, #7.
    Events: #4 = 4, #7 = 4 (unvoted → last). Expected: #4 speaks 30 s, then #7 30 s → revote;
    the pending silence is not consumed: #4 is silent in his D4 regular speech.
    Rules: F24/S24 §7.5 (seed 5.5); F24 §4.4.12; MR 9.5.1.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.fouls(4, 2)  # day 1
    t.play_until(3, kills={1: 1, 2: 2})
    t.expect_players(8)
    t.speech(3, nominates=4)
    t.speech(4, nominates=7)
    t.speech(5)
    t.foul(4, "4.1.1")  # during #6's speech
    t.discuss()
    t.vote({4: 4, 7: 4})
    t.expect_tie_speech(4, seconds=30)
    t.tie_speeches(4, 7)
    t.expect_voting(4, 7, round=1)
    t.revote({4: 3, 7: 5})
    t.expect_leaves(7, cause="vote")
    t.last_word(7)
    t.miss()
    t.expect_opener(4)
    t.expect_speech(4, seconds=0)


@pytest.mark.parametrize("players", [4, 3])
def test_s04_three_fouls_at_four_or_three_players_gives_thirty_seconds(players: int) -> None:
    """S04 — 3 fouls and only 4 players left: 30-second speech instead of silence.

    Given #6 got his 3rd foul on D4 after speaking; by D5 morning 4 players are at the table.
    Events: D5 discussion reaches #6. Expected: #6 speaks 30 s (not 0, not 60); the penalty
    is served: D6 speech normal. The same holds with 3 players.
    Rules: seed 5.7 (F24/S24 §7.6); MR 9.5.1.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.fouls(6, 2)  # day 1
    t.play_until(4, kills={1: 1, 2: 2, 3: 5}, out={1: 9, 2: 10, 3: 4})
    t.expect_opener(6)
    t.speech(6)
    t.foul(6)  # after his speech
    t.discuss()
    if players == 4:
        t.miss()
    else:
        t.kill(7)
    t.speeches_until(6)
    t.expect_players(players)
    t.expect_speech(6, seconds=30)
    t.discuss()
    t.miss()
    t.speeches_until(6)
    t.expect_speech(6, seconds=60)


# --- S05–S11: removals and the vote ---------------------------------------------------------

def test_s05_fourth_foul_during_the_discussion_cancels_the_days_vote() -> None:
    """S05 — Fourth foul during the discussion → removal, the day's vote cancelled.

    Given D2, 9 players; #5 has nominated #9; #2 has 3 fouls. Events: during #7's speech #2
    comments aloud → 4th foul. Expected: #2 leaves at once without a last word; the discussion
    continues (speeches, nominations recorded); no vote on D2 → N2; the draw counter resets.
    Rules: F24/S24 §6.5; seed 5.1 (F24 §7.1); F24 §1.4.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.fouls(2, 3)  # day 1
    t.play_until(2, kills={1: 1})
    t.expect_players(9)
    t.speeches_until(5)
    t.speech(5, nominates=9)
    t.speech(6)
    t.expect_speech(7)
    t.foul(2, "4.1.1")
    t.expect_leaves(2, cause="fouls")
    t.expect_no_notice(Kind.LAST_WORD)
    t.expect_game_on()
    t.expect_speech(7)  # the discussion continues
    t.speech(7)
    t.speech(8, nominates=3)
    t.expect_nominees(9, 3)
    t.discuss()
    t.expect_no_vote(reason="5.1", day=2)
    t.expect_night(2)
    t.expect_draw_window(nights=0, days=0)


def test_s05_end_check_right_after_the_removal_of_the_last_black() -> None:
    """S05 — END_CHECK right after the removal: the last black removed by a 4th foul → red win
    at once (F24 §1.4, §6.5; RULES.md §12.18)."""
    t = Table(roles="S5 D8 M9 M10")
    t.fouls(8, 3)  # day 1
    t.play_until(3, out={1: 9, 2: 10})
    t.foul(8)
    t.expect_leaves(8, cause="fouls")
    t.expect_winner("red")


def test_s06_tears_in_a_tie_speech_disqualify_and_cancel_the_vote() -> None:
    """S06 — Tears during the tie speeches (seed 4.2.7) → DQ, vote cancelled.

    Given D3, 8 players, tie between #7 and #3 (nomination order #7, #3). Events: during his 30 s
    tie speech #7 starts crying. Expected: #7 disqualified, leaves without a last word; the
    current vote is cancelled: #3 stays, night N3 follows; END_CHECK.
    Rules: seed 4.2.7 (F24/S24 §6.7.7); F24 §6.5, §7.1, §8.2.4; SC on tears.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(3, kills={1: 1, 2: 2})
    t.expect_players(8)
    t.discuss({3: 7, 4: 3})
    t.vote({7: 4, 3: 4})
    t.expect_tie_speech(7)
    t.dq(7, "4.2.7")
    t.expect_leaves(7, cause="dq")
    t.expect_no_notice(Kind.LAST_WORD)
    t.expect_stays(3)
    t.expect_game_on()
    t.expect_no_vote(reason="5.1", day=3)
    t.expect_night(3)


def test_s07_dq_after_the_result_is_known_skips_the_next_days_vote() -> None:
    """S07 — DQ after the result is known → the next day's vote is skipped.

    Given D3, 8 players; #5 has been voted out and gives his last word. Events: #9 swears → DQ.
    Expected: #5 left at the moment of the vote (his last word goes on); #9 leaves at once
    without a last word; N3 as usual; D4: no vote whatever the nominations (seed 5.2); two
    departures on D3 → the draw counter resets.
    Rules: seed 4.2.4, 4.5, 5.2 (F24 §6.7.15, §6.5, §7.2); F24 §1.4; SC.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(3, kills={1: 1, 2: 2})
    t.expect_players(8)
    t.discuss({3: 5, 4: 6})
    t.vote({5: 6, 6: 2})
    t.expect_leaves(5, cause="vote")
    t.expect_last_word(5)
    t.dq(9, "4.2.4")
    t.expect_leaves(9, cause="dq")
    assert t.state.seat(5).departure.order < t.state.seat(9).departure.order
    t.expect_last_word(5)  # it goes on
    t.last_word(5)
    t.expect_night(3)
    t.expect_draw_window(nights=0, days=0)
    t.miss()
    t.discuss({4: 6, 6: 8})
    t.expect_no_vote(reason="5.2", day=4)
    t.expect_night(4)


def test_s09_two_disqualifications_on_one_day_skip_only_that_days_vote() -> None:
    """S09 — Two disqualifications on the same day.

    Given D4, 8 players. Events: during the speeches #2 is DQ'd (seed 4.2.8), later #9 (seed
    4.2.4). Expected: both leave without last words; D4 vote not held; D5 vote held; END_CHECK
    after each.
    Rules: seed 4.2.8, 4.2.4, 5.1; F24 §7.1; SC (only the nearest vote is skipped).
    """
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(4, kills={1: 1, 2: 3})
    t.expect_players(8)
    t.expect_speech(5)
    t.dq(2, "4.2.8")
    t.expect_leaves(2, cause="dq")
    t.expect_game_on()
    t.speech(5, nominates=4)
    t.speech(6)
    t.dq(9, "4.2.4")
    t.expect_leaves(9, cause="dq")
    t.expect_game_on()
    t.expect_no_notice(Kind.LAST_WORD)
    t.discuss({7: 10})
    t.expect_no_vote(reason="5.1", day=4)
    t.miss()
    t.discuss({6: 4, 7: 8})
    t.expect_vote_held(5)


def test_s10_day_one_single_nominee_plus_a_dq_keeps_day_two_vote() -> None:
    """S10 — Day 1 with a single nominee plus a DQ.

    Given D1, 10 players; only #3 nominated. Events: during #8's speech #8 says «видит Бог, я
    красный» → DQ. Expected: no vote on D1; the D2 vote is held.
    Rules: F24 §4.4.10, §6.7.8, §7.1; SC (нулевой круг ruling); RULES.md §12.16.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.speech(1, nominates=3)
    t.speeches_until(8)
    t.dq(8, "4.2.8")
    t.expect_leaves(8, cause="dq")
    t.discuss()
    t.expect_no_vote(day=1)
    t.expect_night(1)
    t.miss()
    t.discuss({2: 5, 3: 6})
    t.expect_vote_held(2)


def test_s11_night_dq_before_the_shooting() -> None:
    """S11 — Night DQ before the shooting starts.

    Given N2, 7 players, numbers not yet called. Events: #4 touches his neighbour → DQ; then all
    blacks "shoot" #4. Expected: #4 leaves at once, announced without naming a role; the shot at
    #4 is a miss (nobody else leaves); D3: no vote.
    Rules: F24 §6.7.2, §7.1; SC (night DQ timing, wording); MRJS ``gameGetNightKill``.
    """
    t = Table(roles="S6 D8 M4 M9")
    t.vote_out(5)
    t.kill(1)
    t.vote_out(2)
    t.expect_night(2)
    t.expect_players(7)
    t.dq(4, "4.2.2")
    t.expect_leaves(4, cause="dq")
    removed = t.expect_notice(Kind.REMOVED, seat=4)
    assert not removed.private and removed["reason"] is None
    for notice in t.last:
        if not notice.private:
            assert not {"role", "roles", "team"} & set(notice.params), notice
    t.shots({8: 4, 9: 4})
    t.end_night()
    t.expect_players(6)
    t.expect_speech(3)  # no victim's last word: nobody was killed
    t.discuss({3: 6, 6: 7})
    t.expect_no_vote(reason="5.1", day=3)


def test_s13_oath_awards_the_win_to_the_other_team() -> None:
    """S13 — Oath → loss awarded to the offender's team (ППК).

    Given D2, 9 players; #2 is red. Events: #2 says «Клянусь, я красный». Expected: game over
    at once, the black team wins; no more speeches or votes.
    Rules: F24/S24 §6.8.1, §8.2.5 (seed 4.3.1).
    """
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(2, kills={1: 1})
    t.expect_players(9)
    t.expect_speech(2)
    t.team_loss(2, "4.3.1")
    t.expect_winner("black")
    t.expect_refused(rules.Next(), Code.GAME_OVER)
    t.expect_refused(rules.Nominate(by=2, target=5), Code.GAME_OVER)


# --- S15–S24: the vote ----------------------------------------------------------------------

def test_s15_day_one_single_nominee_is_not_voted() -> None:
    """S15 — Day 1, single nominee → no vote.

    Given D1, 10 players; only #6 nominated. Expected: no vote; «Наступает ночь» → N1; nobody
    leaves. Rules: F24/S24 §4.4.10.
    """
    t = Table()
    t.discuss({1: 6})
    t.expect_no_vote(reason="4.4.10", day=1)
    t.expect_night(1)
    t.expect_players(10)


def test_s16_later_day_single_nominee_takes_every_hand_and_leaves() -> None:
    """S16 — Day ≥2, single nominee → he leaves.

    Given D2, 9 players (#1 killed on N1); only #6 nominated. Events: the vote is called; nobody
    puts a hand up. Expected: every vote goes to #6 → #6 leaves, 60 s last word → END_CHECK → N2.
    Rules: F24 §4.4.8, §4.4.10, §4.4.11, §4.4.13; SC.
    """
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(2, kills={1: 1})
    t.discuss({2: 6})
    t.expect_votes({6: 9})
    t.expect_leaves(6, cause="vote")
    t.last_word(6, seconds=60)
    t.expect_game_on()
    t.expect_night(2)


def test_s17_plurality_with_unvoted_hands_on_the_last_nominee() -> None:
    """S17 — Plurality, with unvoted hands going to the last nominee.

    Given D3, 7 players #1 #2 #3 #5 #6 #8 #9; nominees #5, #9, #2. Events: #5: hands of #1 #3 #6
    #8; #9: hand of #2; #5 and #9 don't vote. Expected: #2 gets 2; #5 = 4, #9 = 1, #2 = 2 →
    #5 leaves. Rules: F24 §4.4.4, §4.4.7, §4.4.8, §4.4.11.
    """
    t = Table(roles="S1 D8 M9 M4")
    t.vote_out(4)
    t.kill(7)
    t.vote_out(10)
    t.miss()
    t.expect_table(1, 2, 3, 5, 6, 8, 9)
    t.discuss({3: 5, 5: 9, 6: 2})
    t.expect_voting(5, 9, 2)
    t.vote({5: (1, 3, 6, 8), 9: (2,), 2: 2})
    t.expect_votes({5: 4, 9: 1, 2: 2})
    t.expect_leaves(5, cause="vote")
    t.expect_stays(9, 2)


def test_s18_two_way_tie_from_unvoted_hands_then_the_revote_decides() -> None:
    """S18 — Two-way tie (created by unvoted hands) → 30 s speeches → revote decides.

    Given D2, 10 players (N1 a miss); nominees #7, #3. Events: #7 = 5, the other five don't vote
    → #3 = 5; speeches #7 then #3, 30 s; revote (order #7, #3): #7 = 6, #3 = 4. Expected: #7
    leaves, last word 60 s → N2. Rules: F24 §4.4.8, §4.4.12, §4.4.12.1.
    """
    t = Table()
    t.skip_day()
    t.miss()
    t.expect_players(10)
    t.discuss({2: 7, 4: 3})
    t.vote({7: 5, 3: 5})
    t.tie_speech(7, seconds=30)
    t.tie_speech(3, seconds=30)
    t.expect_voting(7, 3, round=1)
    t.revote({7: 6, 3: 4})
    t.expect_leaves(7, cause="vote")
    t.last_word(7, seconds=60)
    t.expect_night(2)


def test_s19_a_shrinking_tie_gets_another_round_and_no_raise_vote() -> None:
    """S19 — Tie that shrinks → a second round of speeches and revote.

    Given D2, 10 players; nominees #2, #5, #8, #10. Events: #2 = 3, #5 = 3, #8 = 1, #10 = 3 →
    30 s each (2, 5, 10) → revote #2 = 4, #5 = 2, #10 = 4 → 30 s each (2, 10) → revote #2 = 6,
    #10 = 4. Expected: #2 leaves; no raise vote was ever put.
    Rules: F24 §4.4.12, §4.4.12.1, §4.4.12.2.
    """
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss({3: 2, 4: 5, 6: 8, 7: 10})
    t.vote({2: 3, 5: 3, 8: 1, 10: 3})
    t.tie_speeches(2, 5, 10)
    t.expect_voting(2, 5, 10, round=1)
    t.revote({2: 4, 5: 2, 10: 4})
    t.tie_speeches(2, 10)
    t.expect_voting(2, 10, round=2)
    t.revote({2: 6, 10: 4})
    t.expect_leaves(2, cause="vote")
    t.expect_stays(5, 8, 10)
    t.expect_no_raise_vote()


def test_s20_raise_vote_passes_on_day_one_and_blocks_the_best_move() -> None:
    """S20 — Same tie twice → raise vote passes on day 1 → no best move.

    Given D1, 10 players; nominees #3, #8. Events: 5–5 → speeches → revote 5–5 → raise vote,
    6 hands for. Expected: 6 > 10/2 → #3 and #8 both leave; last words #3 then #8; N1: the
    blacks kill #1 → no best move (2 left by the D1 vote); morning last word only.
    Rules: F24 §4.4.12.3, §4.4.13, §4.5.9, §7.10, §8.3.5; MRJS.
    """
    t = Table(roles="S5 D9 M10 M4")
    t.discuss({1: 3, 2: 8})
    t.vote({3: 5, 8: 5})
    t.tie_speeches(3, 8)
    t.revote({3: 5, 8: 5})
    t.expect_raise_vote(3, 8)
    t.raise_vote(6)
    t.expect_leaves(3, 8, cause="raise")
    t.last_word(3)
    t.last_word(8)
    t.expect_night(1)
    start = len(t.notices)
    t.shoot(1)
    t.end_night()
    assert not t.kinds_seen(Kind.BEST_MOVE_DUE, since=start)
    t.expect_last_word(1)


def _three_players_on_day_six() -> Table:
    """#2 (R), #6 (B), #9 (R) at the table on D6, speaking order 2, 6, 9 (S22's Given)."""
    t = Table(roles="M3 D6 M7 S9")
    t.play_until(6, kills={1: 4, 3: 8}, out={1: 3, 2: 5, 3: 7, 4: 1, 5: 10})
    t.expect_table(2, 6, 9)
    t.expect_order(2, 6, 9)
    return t


def test_s22_three_players_tied_twice_means_night() -> None:
    """S22 — Three players, all nominated, 1-1-1 twice → night (seed 5.6).

    Given D6, 3 players #2 (R), #6 (B), #9 (R), order 2, 6, 9; #2 nominates #6, #6 nominates #9,
    #9 nominates #2. Events: #6 = 1 (#2), #9 = 1 (#6), #2 = 1 (#9 doesn't vote → last) → 30 s
    each (6, 9, 2) → revote 1-1-1 again. Expected: no further voting, no raise vote; «Наступает
    ночь»; nobody leaves. Rules: seed 5.6; seed 5.9 = F24/S24 §7.8; MM.
    """
    t = _three_players_on_day_six()
    t.discuss({2: 6, 6: 9, 9: 2})
    t.expect_voting(6, 9, 2)
    t.vote({6: (2,), 9: (6,), 2: 1})
    t.tie_speeches(6, 9, 2)
    t.revote({6: 1, 9: 1, 2: 1})
    t.expect_no_raise_vote()
    t.expect_night(6)
    t.expect_table(2, 6, 9)


def _four_players_on_day_five(**options: object) -> Table:
    """#4 (B), #1, #7, #10 (R) at the table on D5, speaking order 10, 1, 4, 7."""
    t = Table(roles="S10 D4 M2 M5", **options)
    t.play_until(5, kills={1: 3, 2: 6}, out={1: 2, 2: 5, 3: 8, 4: 9})
    t.expect_table(1, 4, 7, 10)
    t.discuss({10: 4, 1: 7})
    t.vote({4: 2, 7: 2})
    t.tie_speeches(4, 7)
    t.revote({4: 2, 7: 2})
    return t


def test_s24_four_players_two_tied_twice_raise_vote_allowed() -> None:
    """S24 — Four players, two tied twice → raise vote allowed (FIIM/FSM).

    Given D5, 4 players #4 (B), #1, #7, #10 (R); nominees #4, #7. Events: 2–2 → speeches →
    revote 2–2 → raise vote: 3 for. Expected: 3 > 4/2 → #4 and #7 leave → last words (#4, #7)
    → blacks 0 → red win. Rules: F24 §4.4.12.3, §1.4, §7.9; MR 7.22.
    """
    t = _four_players_on_day_five()
    t.expect_raise_vote(4, 7)
    t.raise_vote(3)
    t.expect_leaves(4, 7, cause="raise")
    t.expect_game_on()
    t.last_word(4)
    t.expect_game_on()
    t.last_word(7)
    t.expect_winner("red")


def test_s24_variant_raise_two_of_four_forbidden() -> None:
    """S24 — Variant ``raise_2_of_4 = forbidden`` (MR 7.22 option): night after the second tie,
    nobody leaves."""
    t = _four_players_on_day_five(raise_2_of_4=False)
    t.expect_no_raise_vote()
    t.expect_night(5)
    t.expect_table(1, 4, 7, 10)


# --- S26–S30: the end of the game -----------------------------------------------------------

def _s26_until_night_four(preset: str) -> Table:
    """After D2, 8 players; N2 miss → D3 no nominees → N3 miss → D4 tie repeated, raise fails."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.play_until(2, kills={1: 1})
    t.vote_out(2)
    t.expect_players(8)
    t.miss()
    t.skip_day()
    t.miss()
    _tie_twice_and_raise_fails(t)
    t.expect_night(4)
    return t


def _tie_twice_and_raise_fails(t: Table) -> None:
    first, second = t.state.speech_order[:2]
    a, b = t.state.speech_order[2:4]
    t.discuss({first: a, second: b})
    t.vote({a: 4, b: 4})
    t.tie_speeches(a, b)
    t.revote({a: 4, b: 4})
    t.expect_raise_vote(a, b)
    t.raise_vote(4)  # 4 of 8: not more than half


def test_s26_draw_after_three_quiet_nights_and_days_seed() -> None:
    """S26 — Draw: three missed nights and three quiet days in a row (seed default).

    Given after D2, 8 players. Events: N2 miss → D3 no nominees → N3 miss → D4 tie repeated,
    raise fails → N4 miss → D5 the tie repeats, the raise fails again. Expected (seed 5.8):
    nobody left during N2…D5 → draw declared at the end of D5; at the end of N4 the game goes on.
    Rules: seed 5.8; F24/S24 §7.7; F24 §8.4.7.
    """
    t = _s26_until_night_four("seed")
    t.miss()
    t.expect_game_on()
    t.expect_day(5)
    _tie_twice_and_raise_fails(t)
    t.expect_draw()
    t.expect_players(8)


@pytest.mark.parametrize("preset", ["fiim2024", "fsm2024"])
def test_s26_variant_2024_presets_declare_the_draw_after_the_third_night(preset: str) -> None:
    """S26 — Variant (FIIM 2024 / FSM 2024, §7.7): draw declared at the end of N4 (three nights
    in a row with nobody leaving); D5 is not played."""
    t = _s26_until_night_four(preset)
    t.miss()
    t.expect_draw()
    assert t.state.day == 4


def test_s28_black_win_by_parity_after_a_vote_announced_after_the_last_word() -> None:
    """S28 — Black win by parity after a vote.

    Given D5, 5 players #3 (D), #8 (B), #1, #5, #10 (R); nominees #5, #3. Events: #5 = 3 (#3,
    #8, #10), #3 = 2 (unvoted → last). Expected: #5 leaves → 2 B vs 2 R → black win, announced
    after #5's 60 s last word. Rules: F24 §1.4, §4.4.11, §7.9; MRJS ``_gameIsEnd``.
    """
    t = Table(roles="S1 D3 M8 M9")
    t.play_until(5, kills={1: 4, 2: 6}, out={1: 2, 2: 9, 3: 7})
    t.expect_table(1, 3, 5, 8, 10)
    t.discuss({10: 5, 1: 3})
    t.vote({5: (3, 8, 10), 3: 2})
    t.expect_leaves(5, cause="vote")
    t.expect_last_word(5, seconds=60)
    t.expect_game_on()
    assert all(n.private for n in t.last if n.kind is Kind.RESULT_FIXED)
    t.last_word(5)
    t.expect_winner("black")


def test_s30_black_win_by_a_night_kill_at_three_players() -> None:
    """S30 — Black win by a night kill at three players.

    Given after S22: N6, 3 players #2 (R), #6 (B), #9 (R). Events: #6 shoots #2. Expected: #2
    leaves at the end of the night → 1 B vs 1 R → black win; in the morning #2 gets his 60 s
    last word (no best move: not N1), then the black win is announced.
    Rules: F24 §1.4, §4.5.4, §4.5.9, §7.9.
    """
    t = _three_players_on_day_six()
    t.discuss({2: 6, 6: 9, 9: 2})
    t.vote({6: 1, 9: 1})
    t.tie_speeches(6, 9, 2)
    t.revote({6: 1, 9: 1})
    t.expect_night(6)
    start = len(t.notices)
    t.shots({6: 2})
    t.end_night()
    assert not t.kinds_seen(Kind.BEST_MOVE_DUE, since=start)
    t.expect_leaves(2, cause="kill")
    t.expect_last_word(2, seconds=60)
    t.expect_game_on()
    t.last_word(2)
    t.expect_winner("black")


# --- the oracle itself ----------------------------------------------------------------------

def test_every_shared_scenario_has_a_test() -> None:
    """Every ``### Snn`` of SCENARIOS.md has a ``test_snn_…`` here."""
    path = SHARED / "rules" / "SCENARIOS.md"
    if not path.is_file():
        pytest.skip(f"the shared rules folder is absent ({path})")
    ids = re.findall(r"^### (S\d+)\b", path.read_text(encoding="utf-8"), flags=re.M)
    assert ids
    tested = {name.split("_")[1].upper() for name in globals() if name.startswith("test_s")}
    assert sorted(set(ids) - tested) == []
