"""Scenario tests for the MafiaRatings club options (szotin/mafiaratings ``include/rules.php``;
``js/src/game.js`` where the rule text leaves a doubt), one section per option.

Each test plays the option's own rule text (quoted in its docstring) as a judge would, and the
option's default beside it where the two part. Numbers are MafiaRatings' paragraphs.
"""

from __future__ import annotations

import pytest

import rules
from rules import Code, Kind

from .harness import Table

# --- 6.3 rotation of the first speech --------------------------------------------------------


def test_6_3_2_rotation_last_the_closer_moves_on_by_one() -> None:
    """6.3.2: «если в первый день стол открывал игрок номер 1, а закрывал номер 10, то во второй
    день стол откроет игрок номер 2, а закроет номер 1 (следующий за номером 10)»."""
    t = Table(rotation="last")
    t.expect_order(*range(1, 11))
    t.skip_day()
    t.miss()
    t.expect_opener(2)
    t.expect_order(2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_6_3_2_rotation_last_a_killed_closer_is_skipped(preset: str) -> None:
    """6.3.2: «Если же игрок номер 1 убит ночью, стол открывает игрок номер 3, а закрывает
    номер 2 (следующий живой игрок после номера 10)». Under 6.3.1 (the default, F24 §4.3.2) #2
    opens and #10 closes."""
    t = Table(rotation="last", preset=preset)
    t.skip_day()
    t.kill(1)
    t.last_word(1)
    t.expect_opener(3)
    t.expect_order(3, 4, 5, 6, 7, 8, 9, 10, 2)

    first = Table(preset=preset)
    first.skip_day()
    first.kill(1)
    first.last_word(1)
    first.expect_opener(2)
    first.expect_order(2, 3, 4, 5, 6, 7, 8, 9, 10)


@pytest.mark.parametrize("kills, out, day", [
    ({1: 4}, {}, 3),  # 9 at the table, then 9
    ({1: 1, 2: 2}, {2: 9}, 3),  # 8, then 7
    ({1: 1, 2: 2, 3: 3}, {2: 9, 3: 10}, 4),  # 5 at the table
    ({1: 1, 2: 2, 3: 3, 4: 4}, {2: 9, 3: 10}, 5),  # 4, then the game goes on at 4
])
def test_6_3_2_rotation_last_at_every_table_size(kills: dict[int, int], out: dict[int, int],
                                                 day: int) -> None:
    """6.3.2 at smaller tables: each day's last speaker is the seat at the table next after the
    previous day's last speaker, and the seat after him opens."""
    t = Table(rotation="last")
    previous_closer = None
    for d in range(1, day + 1):
        t.play_until(d, kills=kills, out=out)
        order = t.state.speech_order
        at_table = t.state.at_table
        if previous_closer is not None:
            seats = [(previous_closer + i - 1) % 10 + 1 for i in range(1, 11)]
            closer = next(s for s in seats if s in at_table)
            assert order[-1] == closer, (d, order, previous_closer)
            assert order[0] == next(s for s in [(closer + i - 1) % 10 + 1 for i in range(1, 11)]
                                    if s in at_table)
        assert sorted(order) == at_table
        previous_closer = order[-1]


# --- 7.5 withdrawing a nomination -------------------------------------------------------------


def test_7_5_3_no_withdrawal_by_default() -> None:
    """7.5.3 (and F24, which has no such clause): «Отозвать кандидатуру невозможно» — the
    withdrawal is refused, and a second nomination too (F24 §4.4.3)."""
    t = Table()
    t.nominate(1, 6)
    t.expect_refused(rules.WithdrawNomination(by=1), Code.NO_WITHDRAWAL)
    t.expect_refused(rules.Nominate(by=1, target=7), Code.NOMINATION_USED)
    t.expect_nominees(6)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_7_5_1_explicit_withdrawal_before_another_nomination(preset: str) -> None:
    """7.5.1: «Выставляю игрока 1. — Принято. — Выставляю 2, 3, 4. [ведущий молчит] — Отзываю
    игрока номер 1. — Отозвано. — Выставляю 2, 3, 4. — Номер 3 принят (это означает, что 2 уже
    выставлен другими игроками)»."""
    t = Table(nomination_withdrawal="explicit", preset=preset)
    t.speech(1, nominates=2)
    t.speeches_until(5)
    t.nominate(5, 1)
    t.expect_refused(rules.Nominate(by=5, target=2), Code.NOMINATION_USED)
    t.do(rules.WithdrawNomination(by=5))
    t.expect_notice(Kind.NOMINATION_WITHDRAWN, by=5, target=1, nominees=[2])
    t.expect_refused(rules.Nominate(by=5, target=2), Code.ALREADY_NOMINATED)
    t.nominate(5, 3)
    t.expect_nominees(2, 3)


def test_7_5_2_auto_withdrawal_the_last_nomination_stands() -> None:
    """7.5.2: «Отзывание игрока не обязательно для выставления другого игрока. Оно происходит
    автоматически при следующем выставлении»: 1 accepted; 2 and 3 already nominated; 4 accepted
    (1 withdrawn); «отзываю игрока номер 4 — отозвано»; 5, then 6 accepted; 7 already
    nominated — «номер 6 принят»."""
    t = Table(nomination_withdrawal="auto")
    t.speech(1, nominates=2)
    t.speech(2, nominates=3)
    t.speech(3, nominates=7)
    t.expect_speech(4)
    t.nominate(4, 1)
    t.expect_refused(rules.Nominate(by=4, target=2), Code.ALREADY_NOMINATED)
    t.expect_refused(rules.Nominate(by=4, target=3), Code.ALREADY_NOMINATED)
    t.nominate(4, 8)
    t.expect_notice(Kind.NOMINATION_WITHDRAWN, by=4, target=1)
    t.expect_nominees(2, 3, 7, 8)
    t.do(rules.WithdrawNomination(by=4))
    t.expect_nominees(2, 3, 7)
    t.nominate(4, 5)
    t.nominate(4, 6)
    t.expect_refused(rules.Nominate(by=4, target=7), Code.ALREADY_NOMINATED)
    t.expect_nominees(2, 3, 7, 6)
    t.next()
    t.discuss()
    t.expect_voting(2, 3, 7, 6)  # the voting order is the speaking order (F24 §4.4.4)


@pytest.mark.parametrize("option", ["explicit", "auto"])
def test_7_5_withdrawal_only_in_ones_own_minute(option: str) -> None:
    """7.5.1–7.5.2: «Во время своей минуты игрок имеет право отозвать…» — not after it, and not
    when he nominated nobody."""
    t = Table(nomination_withdrawal=option)
    t.expect_refused(rules.WithdrawNomination(by=1), Code.NO_NOMINATION)
    t.speech(1, nominates=5)
    t.expect_refused(rules.WithdrawNomination(by=1), Code.NOT_SPEAKER)
    t.expect_nominees(5)


# --- 7.16 the first day's vote ----------------------------------------------------------------


@pytest.mark.parametrize("option", ["no_break", "self_break", "raise_only"])
def test_7_16_a_single_first_day_nominee_is_not_voted(option: str) -> None:
    """7.16.2 (no-break, self-break): «Если в первый игровой «день» выставлена только одна
    кандидатура, то голосование не проводится»."""
    t = Table(first_day_vote=option)
    t.discuss({3: 6})
    t.expect_no_vote(reason="4.4.10", day=1)
    t.expect_night(1)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_7_16_no_break_a_single_leader_stays_without_a_speech(preset: str) -> None:
    """7.16 no-break: «Если в голосовании побеждает только один игрок, то никто не умирает, слово
    ему не дается, наступает ночь»."""
    t = Table(first_day_vote="no_break", preset=preset)
    t.discuss({1: 4, 2: 7})
    t.vote({4: 6})
    t.expect_stays(4, 7)
    t.expect_no_notice(Kind.LEADER_STAYS)
    t.expect_notice(Kind.NOBODY_LEAVES, why="first_day_no_break")
    t.expect_night(1)


def test_7_16_no_break_a_tie_still_speaks_and_may_be_raised() -> None:
    """7.16 no-break: «В случае попила, игроки разговаривают по 30 секунд. Поднять двоих
    можно»; a single leader of the revote stays too."""
    t = Table(first_day_vote="no_break")
    t.discuss({1: 4, 2: 7})
    t.vote({4: 5})
    t.tie_speech(4, seconds=30)
    t.tie_speech(7, seconds=30)
    t.revote({4: 5})
    t.expect_raise_vote(4, 7)
    t.raise_vote(6)
    t.expect_leaves(4, 7, cause="raise")

    t = Table(first_day_vote="no_break")
    t.discuss({1: 4, 2: 7})
    t.vote({4: 5})
    t.tie_speeches(4, 7)
    t.revote({4: 7})
    t.expect_stays(4, 7)
    t.expect_night(1)


def test_7_16_no_break_applies_to_the_first_day_only() -> None:
    """7.16: «В течение следующих «дней» голосуется любое количество выставленных…»: on day 2 a
    single leader leaves as on any day."""
    t = Table(first_day_vote="no_break")
    t.skip_day()
    t.miss()
    t.discuss({2: 4, 3: 7})
    t.vote({4: 6})
    t.expect_leaves(4, cause="vote")


def test_7_16_self_break_a_leader_who_voted_against_himself_leaves() -> None:
    """7.16 self-break: «Если в голосовании победил только один игрок, то он умирает только в том
    случае, если проголосовал за себя сам»."""
    t = Table(first_day_vote="self_break")
    t.discuss({1: 4, 2: 7})
    t.vote({4: (1, 2, 3, 4, 5, 6)})
    t.expect_leaves(4, cause="vote")
    t.expect_last_word(4)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_7_16_self_break_otherwise_he_gets_30_seconds_and_stays(preset: str) -> None:
    """7.16 self-break: «В остальных случаях он просто получает дополнительные 30 секунд для
    речи»."""
    t = Table(first_day_vote="self_break", preset=preset)
    t.discuss({1: 4, 2: 7})
    t.vote({4: (1, 2, 3, 5, 6, 7)})  # #4's own hand goes to #7
    t.expect_stays(4)
    t.expect_notice(Kind.LEADER_STAYS, seat=4)
    t.expect_notice(Kind.NOBODY_LEAVES, why="first_day_self_break")
    t.leader_speech(4)


def test_7_16_self_break_the_last_nominees_unraised_hand_is_his_own_vote() -> None:
    """7.16 self-break with F24 §4.4.8: the last nominee who raised no hand has his hand counted
    against himself — he voted for himself and leaves; one whose hand went elsewhere stays."""
    t = Table(first_day_vote="self_break")
    t.discuss({1: 4, 2: 7})
    t.vote({4: (1, 2, 3)})  # the seven other hands, #7's among them, go to #7
    t.expect_leaves(7, cause="vote")

    t = Table(first_day_vote="self_break")
    t.discuss({1: 4, 2: 7})
    t.vote({4: (1, 2, 3, 7)})
    t.expect_stays(7)
    t.expect_notice(Kind.LEADER_STAYS, seat=7)


def test_7_16_self_break_needs_the_voters_on_the_first_day() -> None:
    """7.16 self-break: whether the leader leaves depends on his own hand, so on day 1 the judge
    records who voted (a bare count is refused, nothing changes); on day 2 counts are fine."""
    t = Table(first_day_vote="self_break")
    t.discuss({1: 4, 2: 7})
    t.expect_refused(rules.Vote(nominee=4, count=6), Code.VOTERS_REQUIRED)
    t.votes_against(4, 0)

    t = Table(first_day_vote="self_break")
    t.skip_day()
    t.miss()
    t.discuss({2: 4, 3: 7})
    t.vote({4: 6})
    t.expect_leaves(4, cause="vote")


# --- 7.21 the whole table tied twice ------------------------------------------------------------


def _whole_table_tied(t: Table, seats: tuple[int, ...]) -> None:
    """Every player at the table is nominated, ties with the others, and ties again."""
    t.discuss({t.state.speech_order[i]: seats[(i + 1) % len(seats)] for i in range(len(seats))})
    ballot = t.state.ballot
    assert ballot is not None and sorted(ballot.candidates) == sorted(seats)
    t.vote({c: 1 for c in ballot.candidates[:-1]})
    t.tie_speeches()
    ballot = t.state.ballot
    assert ballot is not None
    t.revote({c: 1 for c in ballot.candidates[:-1]})


FOUR = dict(kills={1: 1, 2: 2, 3: 3}, out={2: 9, 3: 10, 4: 4})  # day 5: #5 #6 #7 #8 (Don 8)


def test_7_21_1_whole_table_tied_twice_is_not_raised_by_default() -> None:
    """7.21.1 = seed 5.9: «Объявляется ночь. Никто не покидает стол»."""
    t = Table()
    t.play_until(5, **FOUR)
    _whole_table_tied(t, (5, 6, 7, 8))
    t.expect_no_raise_vote()
    t.expect_notice(Kind.NOBODY_LEAVES, why="5.9")
    t.expect_night(5)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_7_21_2_whole_table_raised_is_a_draw(preset: str) -> None:
    """7.21.2: «Проводятся речи по 30 секунд и переголосование. Если результат повторяется, то
    проводится голосование на то, чтобы все игроки покинули стол. Если игроки голосуют за
    убийство всех, объявляется ничья» — after everyone's last word (F24 §7.9)."""
    t = Table(raise_whole_table=True, preset=preset)
    t.play_until(5, **FOUR)
    _whole_table_tied(t, (5, 6, 7, 8))
    t.expect_raise_vote(5, 6, 7, 8)
    t.raise_vote(3)
    t.expect_leaves(5, 6, 7, 8, cause="raise")
    t.expect_players(0)
    for _ in range(4):
        t.expect_game_on()
        t.next()
    t.expect_draw()
    t.expect_notice(Kind.GAME_OVER, winner=None, why="table_raised")


def test_7_21_2_whole_table_raise_that_fails_means_night() -> None:
    """7.21.2 with F24 §4.4.12.3: half the hands or fewer — everyone stays, night falls."""
    t = Table(raise_whole_table=True)
    t.play_until(5, **FOUR)
    _whole_table_tied(t, (5, 6, 7, 8))
    t.raise_vote(2)
    t.expect_table(5, 6, 7, 8)
    t.expect_night(5)


def test_7_21_2_replaces_seed_5_6_at_three_players() -> None:
    """Seed 5.6 (three players tied twice: night) is 7.21.1's case at three; under 7.21.2 the
    three are raised as well, and a passed raise is a draw."""
    t = Table(raise_whole_table=True)
    t.play_until(6, kills={1: 1, 2: 2, 3: 3, 5: 6}, out={2: 9, 3: 10, 4: 4})
    t.expect_table(5, 7, 8)
    _whole_table_tied(t, (5, 7, 8))
    t.expect_raise_vote(5, 7, 8)
    t.raise_vote(2)
    t.finish_last_words()
    t.expect_draw()

    t = Table()
    t.play_until(6, kills={1: 1, 2: 2, 3: 3, 5: 6}, out={2: 9, 3: 10, 4: 4})
    _whole_table_tied(t, (5, 7, 8))
    t.expect_notice(Kind.NOBODY_LEAVES, why="5.6")


def test_7_21_2_with_roles_unknown_the_draw_needs_no_roles() -> None:
    """7.21.2: nobody is left at the table, so the draw is known whatever the cards: the last
    words run and the game ends without the judge declaring it."""
    t = Table(roles=None, raise_whole_table=True)
    t.play_until(5, **FOUR)
    _whole_table_tied(t, (5, 6, 7, 8))
    t.raise_vote(4)
    t.finish_last_words()
    t.expect_draw()


# --- 7.23 three tied of nine ----------------------------------------------------------------------


def _three_of_nine_tied_twice(t: Table) -> None:
    t.discuss({t.state.speech_order[0]: 3, t.state.speech_order[1]: 5, t.state.speech_order[2]: 7})
    t.vote({3: 3, 5: 3})
    t.tie_speeches()
    t.revote({3: 3, 5: 3})


def test_7_23_after1_no_raise_of_three_of_nine_on_day_two() -> None:
    """7.23 «after1» as ``js/src/game.js`` holds it (the rule text repeats 7.23.2's): on the day
    after the first night (MafiaRatings' round 1) three tied of nine are not raised — night."""
    t = Table(raise_3_of_9=True, raise_3_of_9_from_day=3)
    t.skip_day()
    t.kill(1)
    t.expect_players(9)
    _three_of_nine_tied_twice(t)
    t.expect_notice(Kind.NOBODY_LEAVES, why="3_of_9")
    t.expect_night(2)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_7_23_after1_three_of_nine_are_raised_from_day_three(preset: str) -> None:
    """7.23 «after1» (``_gameCanKillAll``: round > 1): from our day 3 on the raise vote is put
    as in any other round (7.23.1)."""
    t = Table(raise_3_of_9=True, raise_3_of_9_from_day=3, preset=preset)
    t.skip_day()
    t.kill(1)
    t.skip_day()
    t.miss()
    t.expect_players(9)
    _three_of_nine_tied_twice(t)
    t.expect_raise_vote(3, 5, 7)
    t.raise_vote(5)
    t.expect_leaves(3, 5, 7, cause="raise")


@pytest.mark.parametrize("options, raised", [
    ({"raise_3_of_9": True}, True),  # 7.23.1 (FSM 2024)
    ({"raise_3_of_9": False}, False),  # 7.23.2 (F24 §7.11)
    ({"raise_3_of_9": False, "raise_3_of_9_from_day": 3}, False),
])
def test_7_23_three_of_nine_on_day_two(options: dict[str, object], raised: bool) -> None:
    t = Table(**options)
    t.skip_day()
    t.kill(1)
    _three_of_nine_tied_twice(t)
    if raised:
        t.expect_raise_vote(3, 5, 7)
    else:
        t.expect_night(2)


def test_7_23_from_day_must_be_a_day() -> None:
    with pytest.raises(ValueError, match="raise_3_of_9_from_day"):
        rules.PRESETS["seed"].with_options(raise_3_of_9_from_day=0)


# --- 9.6 technical fouls --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_9_6_2_technical_fouls_count_apart_and_two_remove(preset: str) -> None:
    """9.6.2: «Технические фолы считаются отдельно от основных. За два технических фола игрок
    получает удаление» — at once, without a last word (seed 4.5); a removal before the vote
    cancels it (seed 5.1)."""
    t = Table(technical_fouls=True, preset=preset)
    t.fouls(6, 3)
    t.foul(6, "tech")
    t.expect_notice(Kind.TECH_FOUL, seat=6, count=1)
    t.expect_fouls(6, 3)
    t.expect_stays(6)
    t.nominate(1, 4)
    t.foul(6, "tech")
    t.expect_leaves(6, cause="dq")
    assert t.state.seat(6).departure.reason == "tech"
    t.expect_no_notice(Kind.LAST_WORD)
    t.discuss()
    t.expect_no_vote(reason="5.1", day=1)


def test_9_6_2_a_second_technical_foul_in_the_last_word_ends_it() -> None:
    """9.6.2 with seed 4.5: a player voted out who gets his second technical foul in his last
    word loses the rest of it; he stays the one who left by the vote."""
    t = Table(technical_fouls=True)
    t.skip_day()
    t.miss()
    t.foul(4, "tech")
    t.discuss({2: 4})
    t.expect_last_word(4)
    t.foul(4, "tech")
    t.expect_leaves(4, cause="vote")
    t.expect_night(2)


def test_9_6_1_no_technical_fouls_by_default() -> None:
    """9.6.1: «В этой версии правил технических фолов нет» — the reason is unknown."""
    t = Table()
    t.expect_refused(rules.Penalty(seat=6, reason="tech"), Code.UNKNOWN_REASON)
    assert "tech" not in t.state.config.reasons
    assert "tech" in t.state.config.with_options(technical_fouls=True).reasons


# --- 7.16.2 / 7.16.4: the leader who stays speaks 30 s, then night (the newcomer's item 2) ---------

_STAYS = {"raise_only": "first_day_raise_only", "self_break": "first_day_self_break"}


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("option", sorted(_STAYS))
@pytest.mark.parametrize("nominations, hands, leader", [
    ({1: 3, 2: 5}, {3: (1, 2, 4, 6, 7, 8)}, 3),  # the first of two nominees leads
    ({1: 3, 2: 5}, {3: (1, 2)}, 5),  # the last one: the unraised hands (his own not among them)
    ({1: 3, 4: 5, 6: 9}, {3: (1, 2), 5: (3, 4, 6, 7, 8)}, 5),  # the middle one of three
])
def test_the_day_one_leader_who_stays_speaks_30_seconds_then_night(
        preset: str, option: str, nominations: dict[int, int], hands: dict[int, tuple[int, ...]],
        leader: int) -> None:
    """MafiaRatings 7.16.2 «to-talk» and 7.16.4 «self-break» (docs/rules.md §4.8): a single
    leader of day 1 does not leave but «получает дополнительные 30 секунд»: a speech step, timed
    30 s, that the judge ends; only then night falls."""
    if option == "self_break" and leader == 5 and len(nominations) == 2:
        hands = {3: (1, 2, 5)}  # self-break: #5's own hand against #3, so #5 stays
    t = Table(first_day_vote=option, preset=preset)
    t.discuss(nominations)
    t.vote(hands)
    t.expect_stays(leader)
    t.expect_notice(Kind.LEADER_STAYS, seat=leader, seconds=30)
    t.expect_notice(Kind.NOBODY_LEAVES, why=_STAYS[option])
    t.expect_no_notice(Kind.NIGHT_FALLS)
    assert rules.next_action(t.state).kind == "leader_speech"
    t.expect_refused(rules.Nominate(by=leader, target=1), Code.WRONG_PHASE)
    t.leader_speech(leader)
    assert t.state.at_table == list(range(1, 11))


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("option", sorted(_STAYS))
def test_a_revote_leader_on_day_one_also_speaks_and_stays(preset: str, option: str) -> None:
    t = Table(first_day_vote=option, preset=preset)
    t.discuss({1: 3, 2: 5})
    t.vote({3: (1, 2, 3, 4, 6)})
    t.tie_speeches(3, 5)
    t.revote({3: (1, 2, 4, 6, 7, 8)})
    t.expect_stays(3, 5)
    t.leader_speech(3)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("option", sorted(_STAYS))
def test_the_leaders_speech_is_after_the_result_a_removal_then_skips_the_next_vote(
        preset: str, option: str) -> None:
    """The vote's result is known when the leader's speech begins: a disqualification in it
    ends the speech, night falls, and day 2's vote is not held (seed 5.2)."""
    t = Table(first_day_vote=option, preset=preset)
    t.discuss({1: 3, 2: 5})
    t.vote({3: (1, 2, 4, 6, 7, 8)})
    t.expect_leader_speech(3)
    t.dq(3, "4.2.4")
    t.expect_notice(Kind.NEXT_VOTE_CANCELLED, day=2, seat=3, rule="5.2")
    t.expect_night(1)
    t.miss()
    t.discuss({t.state.speech_order[0]: 5})
    t.expect_no_vote("5.2", day=2)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_a_foul_in_the_leaders_speech_leaves_it_running(preset: str) -> None:
    t = Table(first_day_vote="raise_only", preset=preset)
    t.discuss({1: 3, 2: 5})
    t.vote({3: 6})
    t.foul(3)
    t.expect_fouls(3, 1)
    t.leader_speech(3)


def test_no_break_gives_the_leader_no_speech() -> None:
    """MafiaRatings 7.16.3 «no-break»: the leader stays and gets no speech; night falls."""
    t = Table(first_day_vote="no_break")
    t.discuss({1: 3, 2: 5})
    t.vote({3: 6})
    t.expect_no_notice(Kind.LEADER_STAYS)
    t.expect_night(1)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("option", sorted(_STAYS))
def test_with_the_leaders_speech_off_night_falls_at_once(preset: str, option: str) -> None:
    """``first_day_leader_speech=False`` (the games stored before the speech was a step: migration
    0012): the leader stays, nobody is promised a speech, night falls after the vote."""
    t = Table(first_day_vote=option, preset=preset, first_day_leader_speech=False)
    t.discuss({1: 3, 2: 5})
    t.vote({3: (1, 2, 4, 6, 7, 8)})
    t.expect_stays(3)
    t.expect_notice(Kind.NOBODY_LEAVES, why=_STAYS[option])
    t.expect_no_notice(Kind.LEADER_STAYS)
    t.expect_night(1)
