"""Scenario tests for the day (RULES.md §3, §4, §11, §12) that no shared scenario covers.

Each test cites its rule; expected outcomes come from the rule text.
"""

from __future__ import annotations

import pytest

import rules
from rules import Code, Kind

from .harness import Table


# --- speaking order (R3.1, R3.2, §12.22) ----------------------------------------------------

def test_r3_1_day_one_opens_with_seat_one_and_each_day_with_the_next_seat() -> None:
    """R3.1 (F24 §4.3.2): day 1 starts with seat 1; each later day with the player after the one
    who spoke first the previous day."""
    t = Table()
    t.expect_opener(1)
    t.expect_order(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    t.skip_day()
    t.miss()
    t.expect_opener(2)
    t.expect_order(2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
    t.skip_day()
    t.miss()
    t.expect_opener(3)


def test_r3_1_a_due_opener_who_has_left_is_skipped() -> None:
    """R3.1 example: day 1 opened by #1 → day 2 by #2; if #2 is gone, by #3. Seats that have left
    are skipped in the order."""
    t = Table()
    t.vote_out(2)
    t.miss()
    t.expect_opener(3)
    t.expect_order(3, 4, 5, 6, 7, 8, 9, 10, 1)


def test_r3_2_night_victim_speaks_first_but_does_not_open() -> None:
    """R3.2 (F24 §4.5.9), §12.22: the night victim's last word comes first, before the
    discussion, but he does not open it: the rotation goes on (#1 opened D1 → #2 opens D2)."""
    t = Table()
    t.skip_day()
    t.kill(5)
    t.expect_last_word(5, seconds=60)
    t.last_word(5)
    t.expect_opener(2)
    t.expect_speech(2)
    t.expect_order(2, 3, 4, 6, 7, 8, 9, 10, 1)


def test_12_22_rotation_continues_from_who_actually_opened() -> None:
    """§12.22 (F24 §4.3.2, MRJS ``gameWhoSpeaksFirst``): the due opener #2 was killed on N1, so
    #3 opens D2; D3 is opened by the seat after #3 (#4), not after the due opener."""
    t = Table()
    t.skip_day()
    t.kill(2)
    t.last_word(2)
    t.expect_opener(3)
    t.skip_day()
    t.miss()
    t.expect_opener(4)


def test_12_22_opener_voted_out_on_his_day_hands_over_to_the_next_seat() -> None:
    """§12.22: #2 opened D2 and was voted out that day; D3 is opened by the next seat at the
    table after him, #3."""
    t = Table()
    t.skip_day()
    t.miss()
    t.expect_opener(2)
    t.vote_out(2)
    t.miss()
    t.expect_opener(3)


# --- nominations (R3.3–R3.8, §12.12, §12.15) ------------------------------------------------

def test_r3_3_only_the_speaker_nominates() -> None:
    """R3.3 (F24 §4.4.2): a nomination only during one's own minute."""
    t = Table()
    t.expect_speech(1)
    t.expect_refused(rules.Nominate(by=3, target=5), Code.NOT_SPEAKER)


def test_r3_4_one_nomination_per_player_per_day() -> None:
    """R3.4 (F24 §4.4.3): at most one nomination per player per day; the next day he has one
    again."""
    t = Table()
    t.nominate(1, 5)
    t.expect_refused(rules.Nominate(by=1, target=6), Code.NOMINATION_USED)
    t.expect_nominees(5)
    t.discuss()  # a single nominee on day 1: no vote (F24 §4.4.10)
    t.miss()
    t.speeches_until(1)
    t.nominate(1, 6)
    t.expect_nominees(6)


def test_r3_5_no_second_nomination_of_the_same_player() -> None:
    """R3.5 (MR 7.4–7.5; MRJS ``gameNominatePlayer``): a player already nominated cannot be
    nominated again; the speaker keeps his own nomination."""
    t = Table()
    t.speech(1, nominates=5)
    t.expect_refused(rules.Nominate(by=2, target=5), Code.ALREADY_NOMINATED)
    t.nominate(2, 6)
    t.expect_nominees(5, 6)


def test_r3_5_only_players_at_the_table_can_be_nominated() -> None:
    """R3.5: only players at the table can be nominated."""
    t = Table()
    t.vote_out(7)
    t.miss()
    t.expect_speech(2)
    t.expect_refused(rules.Nominate(by=2, target=7), Code.NOT_AT_TABLE)


def test_r3_8_nomination_order_is_the_voting_order() -> None:
    """R3.8 (F24 §4.4.4): the order of nominations (not the seats') is the voting order."""
    t = Table()
    t.discuss({1: 9, 2: 4, 3: 6})
    t.expect_voting(9, 4, 6, round=0)


def test_12_12_self_nomination_allowed_by_default() -> None:
    """§12.12: F24/S24 let a player nominate «любого игрока» → self-nomination allowed."""
    t = Table()
    t.nominate(1, 1)
    t.expect_nominees(1)


def test_12_12_self_nomination_option_off() -> None:
    """§12.12: configurable — with ``self_nomination=False`` it is refused."""
    t = Table(self_nomination=False)
    t.expect_refused(rules.Nominate(by=1, target=1), Code.SELF_NOMINATION)
    t.nominate(1, 2)


def test_12_15_night_victim_does_not_nominate_in_his_last_word() -> None:
    """§12.15 (MR 8.6.1 default): the night victim cannot nominate in his last word."""
    t = Table()
    t.skip_day()
    t.kill(5)
    t.expect_last_word(5)
    t.expect_refused(rules.Nominate(by=5, target=3), Code.NOMINATION_IN_LAST_WORD)


def test_a_voted_out_player_does_not_nominate_in_his_last_word() -> None:
    """R3.3 (F24 §4.4.2): nominations happen in the day's speeches; the vote is over when the
    leaver speaks his last word (F24 §4.4.13)."""
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss({2: 6})
    t.expect_last_word(6)
    error = t.expect_refused(rules.Nominate(by=6, target=3))
    assert error.code in (Code.NOMINATION_IN_LAST_WORD, Code.WRONG_PHASE)


# --- is the vote held (RULES.md §4 step 0) --------------------------------------------------

def test_step0_no_nominees_no_vote_on_a_later_day() -> None:
    """§4 step 0.2: 0 nominees → no vote, night (any day)."""
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss()
    t.expect_no_vote(reason="no_nominees", day=2)
    t.expect_night(2)


def test_step0_day_one_two_nominees_are_voted() -> None:
    """§4 step 0.3 applies only to a single nominee: two nominees on day 1 are voted
    (F24 §4.4.10)."""
    t = Table()
    t.discuss({1: 4, 2: 7})
    t.expect_vote_held(1)
    t.vote({4: 6, 7: 4})
    t.expect_leaves(4, cause="vote")


@pytest.mark.parametrize("option, held", [("normal", True), ("no_vote", False)])
def test_first_day_vote_options_single_nominee(option: str, held: bool) -> None:
    """§11 day-1 single nominee, club variants (config ``first_day_vote``): ``normal`` votes him
    like any other day (he leaves, F24 §4.4.8); ``no_vote`` holds no vote at all on day 1."""
    t = Table(first_day_vote=option)
    t.discuss({1: 6})
    if held:
        t.expect_leaves(6, cause="vote")
    else:
        t.expect_no_vote(day=1)
        t.expect_players(10)


def test_first_day_vote_option_no_vote_even_with_two_nominees() -> None:
    """Config ``first_day_vote = no_vote`` (Polemica ``zeroVoting: none``): no vote on day 1."""
    t = Table(first_day_vote="no_vote")
    t.discuss({1: 4, 2: 7})
    t.expect_no_vote(reason="first_day_no_vote", day=1)
    t.expect_night(1)


def test_first_day_vote_option_raise_only() -> None:
    """Config ``first_day_vote = raise_only`` (Polemica ``liftOnly``; MR 7.16.2): a single leader
    of day 1 stays; only a passed raise vote removes anyone."""
    t = Table(first_day_vote="raise_only")
    t.discuss({1: 4, 2: 7})
    t.vote({4: 6, 7: 4})
    t.expect_stays(4, 7)
    t.leader_speech(4)

    t = Table(first_day_vote="raise_only")
    t.discuss({1: 4, 2: 7})
    t.vote({4: 5, 7: 5})
    t.tie_speeches(4, 7)
    t.revote({4: 5, 7: 5})
    t.raise_vote(6)
    t.expect_leaves(4, 7, cause="raise")


# --- collecting the votes (RULES.md §4 step 2) ----------------------------------------------

def test_seed_4_1_8_each_player_votes_against_one_nominee_only() -> None:
    """§4 step 2a, seed 4.1.8, §12.7: a player votes against at most one nominee; a second
    hand of the same player is refused (only the first counts)."""
    t = Table()
    t.skip_day()
    t.miss()
    t.discuss({2: 5, 3: 9, 4: 3})
    t.votes_against(5, (1, 2))
    t.expect_refused(rules.Vote(nominee=9, voters=(2, 4)), Code.ALREADY_VOTED)
    t.votes_against(9, (4,))
    t.expect_votes({5: 2, 9: 1, 3: 7})


def test_f24_4_4_8_hands_never_exceed_the_players_at_the_table() -> None:
    """§4 step 2b (F24 §4.4.8): the vote total equals the players at the table."""
    t = Table()
    t.discuss({1: 5, 2: 9, 3: 3})
    t.expect_refused(rules.Vote(nominee=5, count=11), Code.TOO_MANY_HANDS)
    t.votes_against(5, 6)
    t.expect_refused(rules.Vote(nominee=9, count=5), Code.TOO_MANY_HANDS)
    t.votes_against(9, 4)
    t.expect_votes({5: 6, 9: 4, 3: 0})
    t.expect_leaves(5, cause="vote")


def test_unvoted_hands_to_last_option_off() -> None:
    """§13 ``unvoted_hands_to_last_nominee`` (F24 §4.4.8) made optional: with it off the last
    nominee is voted too, and the plurality decides (F24 §4.4.11)."""
    t = Table(unvoted_hands_to_last=False)
    t.discuss({1: 5, 2: 9})
    t.vote({5: 3, 9: 2})
    t.expect_leaves(5, cause="vote")
    t.expect_stays(9)


# --- ties and the raise vote (RULES.md §4 step 4) -------------------------------------------

def _same_tie_twice(t: Table, a: int, b: int) -> None:
    first, second = t.state.speech_order[:2]
    t.discuss({first: a, second: b})
    half = len(t.state.at_table) // 2
    t.vote({a: half, b: len(t.state.at_table) - half})
    t.tie_speeches(a, b)
    t.revote({a: half, b: len(t.state.at_table) - half})


@pytest.mark.parametrize("yes, leave", [(5, False), (6, True)])
def test_12_5_raise_vote_needs_more_than_half_even_split_stays(yes: int, leave: bool) -> None:
    """§12.5, §12.6 (F24 §4.4.12.3; MRJS ``for > against``): more than half of the players at
    the table must be for; hands not raised count against; 5 of 10 (even split) → all stay."""
    t = Table()
    _same_tie_twice(t, 4, 7)
    t.expect_raise_vote(4, 7)
    t.raise_vote(yes)
    if leave:
        t.expect_leaves(4, 7, cause="raise")
        t.last_word(4)
        t.last_word(7)
    else:
        t.expect_stays(4, 7)
    t.expect_night(1)


def test_seed_5_9_whole_table_tied_twice_no_raise_vote() -> None:
    """Seed 5.9 (F24/S24 §7.8): no raise vote for all players at the table: everyone nominated,
    1 hand each, twice → night, nobody leaves."""
    t = Table()
    t.discuss({seat: seat % 10 + 1 for seat in range(1, 11)})
    order = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
    t.expect_voting(*order, round=0)
    t.vote({seat: 1 for seat in order})
    t.tie_speeches(*order)
    t.expect_voting(*order, round=1)
    t.revote({seat: 1 for seat in order})
    t.expect_no_raise_vote()
    t.expect_night(1)
    t.expect_players(10)


def _nine_players_three_tied_twice(preset: str) -> Table:
    t = Table(preset=preset)
    t.vote_out(10)
    t.miss()
    t.expect_players(9)
    t.discuss({2: 3, 3: 5, 4: 7})
    t.vote({3: 3, 5: 3, 7: 3})
    t.tie_speeches(3, 5, 7)
    t.revote({3: 3, 5: 3, 7: 3})
    return t


@pytest.mark.parametrize("preset", ["seed", "fiim2024"])
def test_f24_7_11_nine_players_three_tied_twice_no_raise(preset: str) -> None:
    """§12.14, F24 §7.11 «Голосование за подъем трех игроков при девятерых не проводится»; the
    seed is silent, its preset follows F24 (§13 ``raise_3_of_9: forbidden``) → night."""
    t = _nine_players_three_tied_twice(preset)
    t.expect_no_raise_vote()
    t.expect_night(2)
    t.expect_players(9)


def test_s24_nine_players_three_tied_twice_raise_allowed_in_fsm() -> None:
    """§12.14: S24 has no §7.11 clause → the raise vote is put (and passes with 5 of 9)."""
    t = _nine_players_three_tied_twice("fsm2024")
    t.expect_raise_vote(3, 5, 7)
    t.raise_vote(5)
    t.expect_leaves(3, 5, 7, cause="raise")


def test_revote_in_reverse_order_option() -> None:
    """§11 revote order: MR club option "reverse" (config ``revote_order``): the revote runs
    from the last tied nominee back, so the unvoted hands go to the first one (F24 §4.4.8)."""
    t = Table(revote_order="reverse")
    t.skip_day()
    t.miss()
    t.discuss({2: 7, 4: 3})
    t.vote({7: 5, 3: 5})
    t.tie_speeches()
    t.expect_voting(3, 7, round=1)
    t.revote({3: 4, 7: 6})
    t.expect_leaves(7, cause="vote")


def test_raise_vote_option_off_second_tie_means_night() -> None:
    """§11 (ML, German Mafia-Liga): no raise vote at all; a second tie → all stay, night
    (config ``raise_vote``)."""
    t = Table(raise_vote=False)
    _same_tie_twice(t, 4, 7)
    t.expect_no_raise_vote()
    t.expect_night(1)
    t.expect_stays(4, 7)


def test_step4e_the_first_tie_never_goes_straight_to_a_raise_vote() -> None:
    """§4 step 4e (MRJS ``votingRound > 0``): the first tie always leads to speeches and a
    revote."""
    t = Table()
    t.discuss({1: 4, 2: 7})
    t.vote({4: 5, 7: 5})
    t.expect_tie_speech(4, seconds=30)
    assert not t.kinds_seen(Kind.RAISE_VOTE)


def test_three_foul_player_still_votes() -> None:
    """§4 step 2a: every player at the table votes, players with 3 fouls too."""
    t = Table()
    t.fouls(6, 3)
    t.discuss({1: 4, 2: 7})
    t.vote({4: (6, 1, 2, 3, 5, 8), 7: 4})
    t.expect_leaves(4, cause="vote")
