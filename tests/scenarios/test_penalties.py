"""Scenario tests for penalties (seed IV–V; RULES.md §6, §12.3, §12.16, §12.18, §12.23)."""

from __future__ import annotations

import pytest

import rules
from rules import Code, Kind

from .harness import Table

SEED_FOULS = ["foul", *(f"4.1.{i}" for i in range(1, 9))]
SEED_DQS = ["dq", *(f"4.2.{i}" for i in range(1, 11))]
SEED_TEAM_LOSSES = ["ppk", "4.3.1", "4.3.2", "4.3.3"]


# --- the ladder: every code and its severity (seed 4.1–4.3) ---------------------------------

def test_seed_4_3_a_warning_has_no_effect() -> None:
    """Seed 4.3: a player «может быть устно предупреждён» — an oral warning is no foul: any
    number of them leaves him with no foul, his speech and his seat."""
    t = Table()
    for _ in range(4):
        t.warn(3)
        t.expect_notice(Kind.WARNING, seat=3)
    t.expect_fouls(3, 0)
    t.expect_stays(3)
    t.speech(1)
    t.speech(2)
    t.expect_speech(3, seconds=60)


@pytest.mark.parametrize("code", SEED_FOULS)
def test_seed_4_1_each_item_is_a_foul(code: str) -> None:
    """Seed 4.1.1–4.1.8: each item is a foul; the player stays at the table."""
    t = Table()
    t.foul(3, code)
    t.expect_notice(Kind.FOUL, seat=3, count=1, reason=code)
    t.expect_fouls(3, 1)
    t.expect_stays(3)


@pytest.mark.parametrize("code", SEED_DQS)
def test_seed_4_2_each_item_is_a_disqualifying_foul(code: str) -> None:
    """Seed 4.2.1–4.2.10, 4.5: each item disqualifies; the player leaves at once, without a last
    word."""
    t = Table()
    t.dq(3, code)
    t.expect_leaves(3, cause="dq")
    t.expect_no_notice(Kind.LAST_WORD)
    t.expect_speech(1)


@pytest.mark.parametrize("code", SEED_TEAM_LOSSES)
@pytest.mark.parametrize("offender, winner", [(2, "black"), (9, "red")])
def test_seed_4_3_each_item_loses_the_game_for_the_offenders_team(code: str, offender: int,
                                                                  winner: str) -> None:
    """Seed 4.3.1–4.3.3 (F24 §6.8, E4): the offender's team loses at once."""
    t = Table(roles="S5 D8 M9 M10")
    t.team_loss(offender, code)
    t.expect_notice(Kind.TEAM_LOSS, seat=offender, team="red" if winner == "black" else "black")
    t.expect_winner(winner)


@pytest.mark.parametrize("preset, code, severity", [
    ("fsm2024", "4.1.8", "dq"),  # S24 §6.7.9: voting against several nominees disqualifies
    ("fsm2024", "6.6.8", "foul"),  # S24 §6.6.8: not voting when the judge asks stays a foul
    ("fiim2024", "4.1.8", "foul"),  # F24 §6.6.8
    ("fiim2024", "6.6.9", "foul"),  # F24 §6.6.9: refusing to take the mask off
    *(("fiim2024", f"6.7.{i}", "dq") for i in range(11, 17)),  # F24 §6.7.11–6.7.16
    ("fiim2024", "6.8.4", "team_loss"),  # F24 §6.8: the Sheriff "proving" himself
])
def test_2024_presets_own_penalty_items(preset: str, code: str, severity: str) -> None:
    """RULES.md §6.3–6.5, §11: the 2024 texts' own items and the FSM's harsher 4.1.8."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.foul(3, code)
    if severity == "foul":
        t.expect_fouls(3, 1)
        t.expect_stays(3)
    elif severity == "dq":
        t.expect_leaves(3, cause="dq")
    else:
        t.expect_winner("black")


@pytest.mark.parametrize("code", ["6.6.9", "6.7.16"])
def test_fsm_2024_has_no_items_only_fiim_lists(code: str) -> None:
    """RULES.md §6.3–6.4: the mask foul (F24 §6.6.9) and the non-game advantage (F24 §6.7.16)
    are FIIM's alone; under FSM 2024 they are refused, and its own 6.7.15 is taken."""
    t = Table(roles="S5 D8 M9 M10", preset="fsm2024")
    t.expect_refused(rules.Penalty(seat=3, reason=code), Code.UNKNOWN_REASON)
    t.dq(3, "6.7.15")
    t.expect_leaves(3, cause="dq")


@pytest.mark.parametrize("preset", ["seed", "fiim2024"])
def test_only_fsm_2024_numbers_the_voting_order_foul_apart(preset: str) -> None:
    """S24 §6.6.8 is FSM's half of the seed's 4.1.8 (the other half being S24 §6.7.9's
    disqualification); the seed and FIIM 2024 keep both halves in 4.1.8, a foul, and have no
    6.6.8."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.expect_refused(rules.Penalty(seat=3, reason="6.6.8"), Code.UNKNOWN_REASON)
    t.foul(3, "4.1.8")
    t.expect_fouls(3, 1)
    t.expect_stays(3)


@pytest.mark.parametrize("code", ["4.1.9", "4.2.11", "4.3.4", "6.6.9", "", "FOUL"])
def test_a_code_outside_the_seed_catalog_is_refused(code: str) -> None:
    """Seed IV lists 4.1.1–4.1.8, 4.2.1–4.2.10 and 4.3.1–4.3.3; anything else is refused."""
    t = Table()
    t.expect_refused(rules.Penalty(seat=3, reason=code), Code.UNKNOWN_REASON)


def test_seed_5_3_deliberate_peeking_also_removes_from_the_tournament() -> None:
    """Seed 5.3, 4.2.10 (R6.13): deliberate peeking → disqualification and removal from the
    tournament; another DQ item does not carry that flag."""
    t = Table()
    t.dq(3, "4.2.10")
    t.expect_notice(Kind.REMOVED, seat=3, tournament=True)
    assert t.state.seat(3).tournament_removal
    t.dq(4, "4.2.5")
    t.expect_notice(Kind.REMOVED, seat=4, tournament=False)
    assert not t.state.seat(4).tournament_removal


# --- the third and fourth fouls (seed 4.4, 4.5, 5.5, 5.7; §12.3) ----------------------------

def test_seed_4_4_third_foul_silence_happens_once() -> None:
    """Seed 4.4, MR 9.5.1 («лишается слова один раз»): silent in his nearest minute, then normal."""
    t = Table()
    t.fouls(3, 3)
    t.expect_notice(Kind.THIRD_FOUL, seat=3)
    t.speeches_until(3)
    t.expect_speech(3, seconds=0)
    t.discuss()
    t.miss()
    t.speeches_until(3)
    t.expect_speech(3, seconds=60)


def test_12_3_the_last_word_is_not_taken_by_the_third_foul() -> None:
    """§12.3 (MR 9.5.1): a pending 3rd-foul silence does not take the last word."""
    t = Table()
    t.skip_day()
    t.miss()
    t.fouls(6, 3)  # during #2's speech
    t.discuss({2: 6})  # the single nominee of day 2 leaves
    t.expect_leaves(6, cause="vote")
    t.expect_last_word(6, seconds=60)


@pytest.mark.parametrize("option, seconds", [("short_speech", 30), ("none", 60)])
def test_third_foul_club_options(option: str, seconds: int) -> None:
    """§11 3rd foul, MR options: the speech cut to 30 s, or nothing (config ``third_foul``)."""
    t = Table(third_foul=option)
    t.fouls(3, 3)
    t.speeches_until(3)
    t.expect_speech(3, seconds=seconds)


def test_seed_4_5_fourth_foul_leaves_at_once_without_a_last_word() -> None:
    """Seed 4.5 (F24 §6.5): the 4th foul → he leaves at once, without a last word."""
    t = Table()
    t.fouls(3, 4)
    t.expect_leaves(3, cause="fouls")
    t.expect_no_notice(Kind.LAST_WORD)
    t.expect_speech(1)


def test_fourth_foul_of_the_speaker_ends_his_speech() -> None:
    """Seed 4.5: a speaker who gets his 4th foul leaves at once; the next seat speaks."""
    t = Table()
    t.fouls(1, 4)
    t.expect_leaves(1, cause="fouls")
    t.expect_speech(2)


# --- withdrawing a foul ---------------------------------------------------------------------

def test_withdrawing_a_foul() -> None:
    """A foul given by mistake is taken back: the count goes down."""
    t = Table()
    t.foul(3)
    t.withdraw_foul(3)
    t.expect_notice(Kind.FOUL_WITHDRAWN, seat=3, count=0)
    t.expect_fouls(3, 0)
    t.expect_refused(rules.WithdrawFoul(seat=3), Code.NO_FOUL)


def test_withdrawing_a_third_foul_before_the_silence_lifts_it() -> None:
    """Seed 4.4: with the 3rd foul withdrawn before his turn, he has 2 fouls and speaks 60 s."""
    t = Table()
    t.fouls(3, 3)
    t.withdraw_foul(3)
    t.expect_fouls(3, 2)
    t.speeches_until(3)
    t.expect_speech(3, seconds=60)


def test_withdrawing_a_third_foul_is_refused_once_the_silence_was_served() -> None:
    """Seed 4.4: the silence cannot be given back once served → the withdrawal is refused."""
    t = Table()
    t.fouls(3, 3)
    t.speeches_until(3)
    t.expect_speech(3, seconds=0)
    t.speech(3)
    t.expect_refused(rules.WithdrawFoul(seat=3), Code.FOUL_HAS_CONSEQUENCES)


def test_withdrawing_a_fourth_foul_is_refused_once_it_removed_him() -> None:
    """Seed 4.5: the removal has happened (and the vote is cancelled) → refused."""
    t = Table()
    t.fouls(3, 4)
    t.expect_refused(rules.WithdrawFoul(seat=3), Code.FOUL_HAS_CONSEQUENCES)


# --- removals and the vote (seed 5.1–5.2; R6.10–R6.12; §12.16, §12.23) -----------------------

def test_step6_dq_mid_vote_before_the_result_cancels_the_vote() -> None:
    """§4 step 6, seed 5.1 (F24 §7.1): a DQ during the vote before the result is determined →
    the current vote is not held: nobody leaves by it, night follows."""
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss({2: 5, 3: 9, 4: 3})
    t.votes_against(5, 2)
    t.dq(7, "4.2.9")
    t.expect_leaves(7, cause="dq")
    t.expect_no_vote(reason="5.1", day=2)
    t.expect_stays(5, 9, 3)
    t.expect_night(2)


def test_r6_11_dq_after_a_decisive_majority_skips_the_next_vote() -> None:
    """Seed 5.2 (F24 §7.2), R6.11 (SC: "a nominee has a mathematically decisive majority"): the
    result of today's vote stands, and tomorrow's vote is not held."""
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss({2: 5, 3: 9, 4: 3})
    t.votes_against(5, 6)  # 6 of 10: nobody can catch #5
    t.dq(7, "4.2.9")
    t.expect_leaves(7, cause="dq")
    t.expect_voting(5, 9, 3)
    t.votes_against(9, 1)
    t.expect_leaves(5, cause="vote")
    t.last_word(5)
    t.miss()
    t.discuss({3: 9, 4: 3})
    t.expect_no_vote(reason="5.2", day=3)


@pytest.mark.parametrize("penalty", ["dq", "4th foul"])
def test_seed_5_1_the_voted_out_player_removed_in_his_last_word_cancels_nothing(penalty: str) -> None:
    """Seed 5.1 exception («является покинувшим игру по результату голосования»): no vote is
    skipped when the removed player is the one leaving by the vote."""
    t = Table()
    t.fouls(5, 3)
    t.skip_day()
    t.miss()
    t.discuss({2: 5})
    t.expect_last_word(5)
    if penalty == "dq":
        t.dq(5, "4.2.4")
    else:
        t.foul(5)
    t.finish_last_words()
    t.miss()
    t.discuss({3: 6, 4: 7})
    t.expect_vote_held(3)


@pytest.mark.parametrize("penalty", ["dq", "4th foul"])
def test_seed_4_5_removed_during_his_last_word_he_loses_the_rest_of_it(penalty: str) -> None:
    """Seed 4.5 (F24 §6.5): a 4th or disqualifying foul → «немедленно покидает игру без
    последнего слова»; given during the voted-out player's last word, it ends that last word at
    once (night follows), as §12.9 does for a night victim disqualified in the night."""
    t = Table()
    t.fouls(5, 3)
    t.skip_day()
    t.miss()
    t.discuss({2: 5})
    t.expect_last_word(5)
    if penalty == "dq":
        t.dq(5, "4.2.4")
    else:
        t.foul(5)
    t.expect_night(2)


def test_seed_4_5_night_victim_disqualified_in_his_morning_last_word_loses_the_rest() -> None:
    """Seed 4.5, §12.9: a DQ'd player has no last word → the night victim disqualified during
    his morning last word stops at once and the discussion begins."""
    t = Table()
    t.skip_day()
    t.kill(3)
    t.dq(3, "4.2.4")
    t.expect_speech(2)


def test_seed_5_1_the_night_victim_removed_in_his_last_word_cancels_nothing() -> None:
    """Seed 5.1 exception («был убит ночью»): today's vote is held."""
    t = Table()
    t.skip_day()
    t.kill(3)
    t.expect_last_word(3)
    t.dq(3, "4.2.4")
    t.discuss({2: 5, 4: 6})
    t.expect_vote_held(2)


def test_r6_12_dq_on_night_zero_skips_day_ones_vote_only() -> None:
    """R6.12 (SC): a night violation before the shooting → he leaves at once and the next day's
    vote is not held; only that one vote is skipped."""
    t = Table(start="night0")
    t.dq(4, "4.2.3")
    t.expect_leaves(4, cause="dq")
    t.next()
    t.discuss({1: 5, 2: 6})
    t.expect_no_vote(reason="5.1", day=1)
    t.miss()
    t.discuss({2: 5, 3: 6})
    t.expect_vote_held(2)


def test_12_23_removal_on_a_later_day_with_no_vote_anyway_keeps_tomorrows_vote() -> None:
    """§12.23 (SC's day-1 ruling applied to every day): nobody nominated on D2 and a DQ → the
    D2 vote is the one "not held"; D3's vote is kept."""
    t = Table()
    t.skip_day()
    t.miss()
    t.dq(6, "4.2.4")
    t.discuss()
    t.expect_no_vote(day=2)
    t.miss()
    t.discuss({3: 5, 4: 7})
    t.expect_vote_held(3)


def test_12_18_a_disqualification_that_makes_parity_ends_the_game_at_once() -> None:
    """§8 ("a red is DQ'd → 2v2 → black win"), §12.18: after a DQ the win check is immediate."""
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(4, kills={1: 1, 2: 3}, out={1: 9, 2: 2, 3: 4})
    t.expect_table(5, 6, 7, 8, 10)
    t.dq(6, "4.2.4")
    t.expect_winner("black")


def test_team_loss_with_roles_unknown_needs_the_offenders_team() -> None:
    """Seed 4.3 (E4): the offender's team loses; with roles unknown the judge names the team."""
    t = Table(roles=None)
    t.expect_refused(rules.Penalty(seat=3, reason="4.3.2"), Code.TEAM_REQUIRED)
    t.team_loss(3, "4.3.2", team="black")
    t.expect_winner("red")


# --- a nominee removed during the vote (seed 5.1, 5.2; F24 §4.4.8; RULES.md §4 step 6) -------

def _vote_on_day_two(*nominees: int) -> Table:
    """D1 quiet, N1 #1 killed; on day 2 (9 at the table) #2, #3, #4 … nominate ``nominees``."""
    t = Table()
    t.skip_day()
    t.kill(1)
    t.discuss({by: target for by, target in zip((2, 3, 4, 5), nominees)})
    t.expect_voting(*nominees, round=0)
    return t


def test_seed_5_2_the_last_nominee_removed_after_the_result_leaves_the_ballot() -> None:
    """Seed 5.2: removed «во время голосования, после того как был определён результат
    голосования» → the vote goes on and the NEXT vote is not held. #8 has left the table, so he
    can no longer be voted out nor take hands: the unvoted hands go to the last nominee STILL AT
    THE TABLE (F24 §4.4.8 «голос отходит против игрока, выставленного на голосование
    последним»), here #7, and the round closes at once."""
    t = _vote_on_day_two(6, 7, 8)
    t.votes_against(6, 5)  # 5 of 9: nobody can catch #6 (SC: the result is determined)
    t.fouls(8, 4)
    t.expect_leaves(8, cause="fouls")
    t.expect_notice(Kind.NEXT_VOTE_CANCELLED, day=3, seat=8, rule="5.2")
    t.expect_notice(Kind.OFF_BALLOT, seat=8, last=7)
    t.expect_votes({6: 5, 7: 3})  # 8 at the table: 5 against #6, the other 3 go to #7
    assert not [n for n in t.kinds_seen(Kind.VOTE_COUNTED) if n["nominee"] == 8]
    t.expect_leaves(6, cause="vote")
    t.expect_refused(rules.Vote(nominee=7, count=1))  # the round is over: #6's last word
    t.last_word(6)
    t.miss()
    t.discuss({3: 5, 4: 7})
    t.expect_no_vote(reason="5.2", day=3)


def test_seed_5_2_the_current_nominee_removed_is_skipped() -> None:
    """Seed 5.2, F24 §4.4.4: the vote goes on in nomination order without the removed nominee;
    a vote against him is refused."""
    t = _vote_on_day_two(6, 7, 8, 9)
    t.votes_against(6, 5)  # determined
    t.dq(7, "4.2.4")
    t.expect_notice(Kind.OFF_BALLOT, seat=7, nominees=[8, 9], last=None)
    t.expect_voting(6, 8, 9, round=0)
    t.expect_refused(rules.Vote(nominee=7, count=1), Code.NOT_CURRENT_NOMINEE)
    t.votes_against(8, 1)
    t.expect_votes({6: 5, 8: 1, 9: 2})  # 8 at the table; #9, the last, takes the other 2
    t.expect_leaves(6, cause="vote")


def test_seed_5_2_a_nominee_removed_after_being_voted_keeps_his_hands() -> None:
    """The hands already raised against a nominee stay counted after he leaves (they were
    cast, F24 §4.4.5); the result is the one already determined."""
    t = _vote_on_day_two(6, 7, 8, 9)
    t.votes_against(6, 5)
    t.votes_against(7, 1)
    t.dq(7, "4.2.4")
    t.expect_no_notice(Kind.OFF_BALLOT)
    t.expect_voting(6, 7, 8, 9, round=0)
    t.votes_against(8, 0)
    t.expect_votes({6: 5, 7: 1, 8: 0, 9: 2})  # 8 at the table
    t.expect_leaves(6, cause="vote")


def test_seed_5_2_hands_of_a_removed_voter_stay_counted() -> None:
    """F24 §4.4.5: one hand per player. #4 raised his hand against #6 and then left (seed 5.2):
    his hand stays, and the players still at the table who have not voted are the hands left."""
    t = _vote_on_day_two(6, 7, 8)
    t.votes_against(6, (2, 3, 4, 5, 9))  # 5 of 9: determined
    t.dq(4, "4.2.4")
    # at the table and not yet voted: #6, #7, #8, #10 (without his hand counted: 8 - 5 = 3)
    assert rules.next_action(t.state).params["hands_left"] == 4
    t.votes_against(7, 1)
    t.expect_votes({6: 5, 7: 1, 8: 3})


def test_seed_5_1_a_nominee_removed_before_the_result_cancels_the_vote() -> None:
    """Seed 5.1 (F24 §7.1), §4 step 6: removed before the result is determined → the current
    vote is not held at all: nobody leaves by it, night follows; the next vote is held."""
    t = _vote_on_day_two(6, 7, 8)
    t.votes_against(6, 2)  # 2 of 9: not determined
    t.fouls(8, 4)
    t.expect_leaves(8, cause="fouls")
    t.expect_no_vote(reason="5.1", day=2)
    t.expect_no_notice(Kind.OFF_BALLOT)
    t.expect_stays(6, 7)
    t.expect_night(2)
    t.miss()
    t.discuss({3: 5, 4: 7})
    t.expect_vote_held(3)


def test_seed_5_1_the_decided_leader_removed_still_leaves_by_the_vote() -> None:
    """Seed 5.1 exception («является покинувшим игру по результату голосования»): the removed
    leader is the one leaving; he stays counted (no hands move), no vote is cancelled, and he
    has no last word (seed 4.5)."""
    t = _vote_on_day_two(6, 7, 8)
    t.votes_against(6, 5)
    t.dq(6, "4.2.4")
    t.expect_no_notice(Kind.OFF_BALLOT)
    t.votes_against(7, 1)
    t.expect_votes({6: 5, 7: 1, 8: 2})
    t.expect_night(2)
    t.miss()
    t.discuss({3: 5, 4: 7})
    t.expect_vote_held(3)


# --- the team of a team loss (seed 4.3) -------------------------------------------------------

def test_seed_4_3_a_team_the_roles_contradict_is_refused() -> None:
    """Seed 4.3: the loss is given to the team «игрок которой допустил данные нарушения». With
    the roles entered, #9 is black; a judge who names "red" (the winners, by mistake) is
    refused with a clear error and nothing changes."""
    t = Table(roles="S5 D8 M9 M10")
    error = t.expect_refused(rules.Penalty(seat=9, reason="4.3.1", team="red"), Code.TEAM_MISMATCH)
    assert error.params == {"seat": 9, "team": "red", "actual": "black", "rules": "seed"}
    t.team_loss(9, "4.3.1", team="black")  # the right team is accepted
    t.expect_winner("red")


def test_seed_4_3_with_roles_entered_the_team_may_be_left_out() -> None:
    t = Table(roles="S5 D8 M9 M10")
    t.team_loss(2, "4.3.2")
    t.expect_winner("black")


@pytest.mark.parametrize("preset", ["seed", "fiim2024"])
@pytest.mark.parametrize("day", [2, 3])
def test_a_removal_after_the_last_speaker_named_the_only_candidate_cancels_todays_vote(
        preset: str, day: int) -> None:
    """Decided (docs/rules.md §7.1): under the seed and FIIM 2024 seed 5.1 (= F24 §7.1) speaks —
    a removal before the vote begins cancels the nearest vote, today's; the committee's moment
    "the last speaker nominated the only candidate" is FSM's (fsm2024 applies it: issue 35,
    tests/scenarios/test_boundaries.py). The candidate stays and the next day's vote is held.
    Days 2 and 3 (nine and eight at the table)."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.play_until(day, out={2: 4} if day == 3 else {})
    order = t.state.speech_order
    last, candidate = order[-1], next(s for s in order if s not in (order[-1], 8))
    t.speeches_until(last)
    t.nominate(last, candidate)
    t.fouls(last, 4)
    t.expect_no_vote("5.1", day=day)
    t.expect_stays(candidate)
    t.expect_night(day)
    t.miss()
    order = t.state.speech_order
    t.discuss({order[0]: candidate, order[1]: 8})
    t.expect_vote_held(day + 1)
