"""Scenario tests for the night (RULES.md §5, §12.9–12.11, §12.17, §12.21)."""

from __future__ import annotations

import pytest

import rules
from rules import Code, Kind, NightStep

from .harness import Table


# --- night 0 (R5.1) -------------------------------------------------------------------------

def test_r5_1_no_shooting_and_no_checks_on_night_zero() -> None:
    """R5.1 (F24 §4.2): the договорка has no shooting and no checks."""
    t = Table(start="night0")
    t.expect_refused(rules.NightKill(target=3), Code.WRONG_PHASE)
    t.expect_refused(rules.Shots(shots=((8, 3), (9, 3), (10, 3))), Code.WRONG_PHASE)
    t.expect_refused(rules.DonCheck(target=3), Code.WRONG_PHASE)
    t.expect_refused(rules.SheriffCheck(target=3), Code.WRONG_PHASE)
    t.next()
    t.expect_speech(1)
    t.expect_players(10)


# --- the shooting (R5.3–R5.5, §12.11) -------------------------------------------------------

def test_r5_3_every_black_on_the_same_seat_kills() -> None:
    """R5.3 (F24 §4.5.4): every black at the table shoots the same player → he leaves; in the
    morning he speaks his last word."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shots({8: 3, 9: 3, 10: 3})
    t.end_night()
    t.expect_leaves(3, cause="kill")
    t.expect_last_word(3)


@pytest.mark.parametrize("shots", [
    {8: 3, 9: 3, 10: 4},  # one black shoots someone else
    {8: 3, 9: 3},  # one black does not shoot
    {8: 3, 9: 3, 10: None},  # one black holds his hand down
    {},  # nobody shoots
])
def test_r5_4_anything_but_all_on_one_seat_is_a_miss(shots: dict[int, int | None]) -> None:
    """R5.4 (F24 §4.5.5): a black shoots someone else, or does not shoot → miss, nobody leaves;
    the morning has no last word."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shots(shots)
    t.end_night()
    t.expect_players(10)
    t.expect_speech(2)


def test_r5_4_the_judge_records_a_miss() -> None:
    """R5.4: the judge records a miss directly, or moves on with no shot recorded."""
    t = Table()
    t.skip_day()
    t.shoot(None)
    t.end_night()
    t.expect_players(10)
    t.skip_day()
    t.next()  # nobody shot
    t.expect_night(2, step=NightStep.DON_CHECK)
    t.end_night()
    t.expect_players(10)


def test_r5_5_blacks_may_shoot_a_black() -> None:
    """R5.5 (TERM «Самострел»): the blacks may kill one of their own."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shots({8: 9, 9: 9, 10: 9})
    t.end_night()
    t.expect_leaves(9, cause="kill")
    t.expect_last_word(9)


def test_r5_5_shooting_a_seat_no_longer_at_the_table_is_a_miss() -> None:
    """R5.5, §12.11 (MRJS ``gameGetNightKill``): shooting a seat already out = nobody leaves."""
    t = Table(roles="S5 D8 M9 M10")
    t.vote_out(4)
    t.shots({8: 4, 9: 4, 10: 4})
    t.end_night()
    t.expect_players(9)
    t.expect_speech(2)
    t.skip_day()
    t.shoot(4)
    t.end_night()
    t.expect_players(9)


@pytest.mark.parametrize("ninth", [3, 4, None])
def test_r6_12_the_shot_of_a_black_disqualified_tonight_is_ignored(ninth: int | None) -> None:
    """R6.12 (SC): a black caught signalling is disqualified; his shot is ignored, so the other
    two blacks on one seat kill (whatever #9's hand did), and the next day's vote is not held
    (the violation came before the shooting)."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.dq(9, "4.2.3")
    t.shots({8: 3, 9: ninth, 10: 3})
    t.end_night()
    t.expect_leaves(3, cause="kill")
    t.expect_last_word(3)
    t.discuss({2: 5, 4: 6})
    t.expect_no_vote(reason="5.1", day=2)


def test_only_blacks_shoot() -> None:
    """R5.3 (F24 §4.5.3): the blacks shoot; a red seat's shot is refused (roles known)."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.expect_refused(rules.Shots(shots=((1, 3), (8, 3), (9, 3))), Code.NOT_BLACK)


# --- the checks (R5.6–R5.8, §12.10) ---------------------------------------------------------

def test_r5_6_r5_7_check_answers_go_to_the_judge_only() -> None:
    """R5.6–R5.7 (F24 §4.5.6–4.5.7): the Don learns whether a seat is the Sheriff, the Sheriff
    whether it is black — by gesture, so the answers are private notices."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shoot(None)
    t.don_check(5)
    notice = t.expect_notice(Kind.DON_CHECK, target=5, sheriff=True)
    assert notice.private
    t.sheriff_check(9)
    notice = t.expect_notice(Kind.SHERIFF_CHECK, target=9, black=True)
    assert notice.private
    t.skip_day()
    t.shoot(None)
    t.don_check(1)
    t.expect_notice(Kind.DON_CHECK, target=1, sheriff=False)
    t.sheriff_check(2)
    t.expect_notice(Kind.SHERIFF_CHECK, target=2, black=False)


def test_r5_8_a_don_shot_tonight_still_checks() -> None:
    """R5.8: a player shot tonight leaves at the end of the night, so a shot Don still checks."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shots({8: 8, 9: 8, 10: 8})
    t.expect_night(1, step=NightStep.DON_CHECK)
    t.don_check(5)
    t.expect_notice(Kind.DON_CHECK, target=5, sheriff=True)
    t.end_night()
    t.expect_leaves(8, cause="kill")


def test_r5_8_a_sheriff_shot_tonight_still_checks() -> None:
    """R5.8: a shot Sheriff still checks that night."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shoot(5)
    t.next()  # the Don does not check
    t.expect_night(1, step=NightStep.SHERIFF_CHECK)
    t.sheriff_check(10)
    t.expect_notice(Kind.SHERIFF_CHECK, target=10, black=True)


def test_r5_8_a_departed_don_is_still_woken_but_cannot_check() -> None:
    """R5.8, §12.10: if the Don has left, the judge still announces his phase and waits (to
    hide information), but nobody checks."""
    t = Table(roles="S5 D8 M9 M10")
    t.vote_out(8)
    t.shoot(None)
    assert rules.next_action(t.state).kind == "don_check"
    t.expect_refused(rules.DonCheck(target=5), Code.NO_DON)
    t.next()
    assert rules.next_action(t.state).kind == "sheriff_check"


def test_r5_8_a_departed_sheriff_is_still_woken_but_cannot_check() -> None:
    """R5.8, §12.10: the same for a Sheriff who has left."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.kill(5)
    t.skip_day()
    t.shoot(None)
    t.next()
    assert rules.next_action(t.state).kind == "sheriff_check"
    t.expect_refused(rules.SheriffCheck(target=8), Code.NO_SHERIFF)


# --- the best move (R5.9, R5.10, §12.9, §12.17, §12.21) -------------------------------------

def test_r5_9_night_one_victim_makes_the_best_move_then_speaks_in_the_morning() -> None:
    """R5.9 (F24 §4.5.9, §8.3), §12.21: night 1's victim names up to three seats within 20 s,
    during the night; hits are for the judge; his last word comes in the morning."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shoot(3)
    t.next()
    t.next()
    t.expect_night(1, step=NightStep.BEST_MOVE)
    assert t.state.seconds == 20
    t.best_move(8, 9, 1)
    t.expect_notice(Kind.BEST_MOVE, seat=3, guesses=[8, 9, 1])
    hits = t.expect_notice(Kind.BEST_MOVE_HITS, seat=3, hits=2)
    assert hits.private
    t.expect_last_word(3)


@pytest.mark.parametrize("guesses", [(1, 2, 4, 6), (4, 4, 6), ()])
def test_r5_9_best_move_is_up_to_three_different_seats(guesses: tuple[int, ...]) -> None:
    """R5.9 (F24 §8.3): three numbers; none repeated; numbers cannot be added."""
    t = Table()
    t.skip_day()
    t.shoot(3)
    t.next()
    t.next()
    t.expect_refused(rules.BestMove(guesses=guesses), Code.BAD_BEST_MOVE)


def test_r5_10_a_night_one_miss_means_no_best_move_ever() -> None:
    """R5.10, §12.17: if night 1 is a miss, nobody gets a best move (not night 2's victim)."""
    t = Table()
    t.skip_day()
    t.miss()
    t.skip_day()
    start = len(t.notices)
    t.shoot(3)
    t.next()
    t.next()
    assert not t.kinds_seen(Kind.BEST_MOVE_DUE, since=start)
    t.expect_last_word(3)


def test_f24_7_10_one_player_voted_out_on_day_one_keeps_the_best_move() -> None:
    """F24 §7.10 / §8.3.5: only 2+ players out by the day-1 vote remove the best move."""
    t = Table()
    t.vote_out(4)
    t.shoot(3)
    t.next()
    t.next()
    t.expect_night(1, step=NightStep.BEST_MOVE)


def test_12_17_day_one_disqualifications_do_not_remove_the_best_move() -> None:
    """§12.17: only removals by vote on day 1 count; two DQs on day 1 do not remove the
    night-1 victim's best move."""
    t = Table()
    t.dq(4, "4.2.1")
    t.dq(6, "4.2.4")
    t.skip_day()
    t.shoot(3)
    t.next()
    t.next()
    t.expect_night(1, step=NightStep.BEST_MOVE)


def test_12_9_killed_and_disqualified_the_same_night() -> None:
    """§12.9, R6.12 (SC): killed + DQ in the same night → the kill counts, no best move, no last
    word, and the next day's vote is held."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shoot(3)
    t.dq(3, "4.2.6")
    t.end_night()
    assert not t.kinds_seen(Kind.BEST_MOVE_DUE)
    t.expect_leaves(3, cause="kill")
    t.expect_speech(2)  # no last word
    t.discuss({2: 5, 4: 6})
    t.expect_vote_held(2)


def test_best_move_option_off() -> None:
    """§11 best move: MR option to disable it (config ``best_move``)."""
    t = Table(best_move=False)
    t.skip_day()
    t.shoot(3)
    t.next()
    t.next()
    t.expect_last_word(3)
    assert not t.kinds_seen(Kind.BEST_MOVE_DUE)


def test_r5_9_no_best_move_outside_its_step() -> None:
    """R5.9: the best move belongs to night 1's victim, after the checks."""
    t = Table()
    t.skip_day()
    t.expect_refused(rules.BestMove(guesses=(8, 9, 10)))
    t.miss()
    t.expect_refused(rules.BestMove(guesses=(8, 9, 10)))


def test_2_3_night_timers() -> None:
    """§2.3: the mafia meeting of night 0 lasts 60 s (F24 §4.2.1); the Don's and the Sheriff's
    checks ≤10 s each (F24 §4.5.6–4.5.7); the best move ≤20 s (F24 §4.5.9)."""
    t = Table(start="night0")
    t.expect_notice(Kind.NIGHT_ZERO, seconds=60)
    t.next()
    t.skip_day()
    t.shoot(3)
    t.expect_night(1, step=NightStep.DON_CHECK)
    assert t.state.seconds == 10
    t.next()
    t.expect_night(1, step=NightStep.SHERIFF_CHECK)
    assert t.state.seconds == 10
    t.next()
    t.expect_night(1, step=NightStep.BEST_MOVE)
    assert t.state.seconds == 20


def test_r5_4_the_judge_is_told_who_did_not_shoot() -> None:
    """R5.4 (F24 §4.5.5): a black left out of the shots did not shoot, so it is a miss; the
    judge's (private) notice of the shooting names him, so that a forgotten shot is noticed."""
    t = Table(roles="S5 D8 M9 M10")
    t.skip_day()
    t.shots({8: 3, 9: 3})
    notice = t.expect_notice(Kind.SHOOTING_RESULT, killed=None, why="miss", silent=[10])
    assert notice.private


# --- the morning after a night removal (seed 4.5, 4.2; R6.12) ---------------------------------

def _morning(t: Table) -> rules.Notice:
    return next(n for n in reversed(t.notices) if n.kind is Kind.NIGHT_RESULT)


@pytest.mark.parametrize("step", ["shooting", "don_check", "sheriff_check"])
def test_seed_4_5_a_miss_after_a_night_dq_does_not_say_nobody_left(step: str) -> None:
    """Seed 4.2.6, 4.5: «ночные» разговоры → a disqualifying foul, and the player «немедленно
    покидает игру»: announced at once (its reason stays with the judge, SC-night-wording). In a
    night with a miss the morning does not claim «никто не покидает игру»; it names the miss
    only (the removal was announced once, at night) and then that today's vote is not held
    (seed 5.1, SC-before-shooting)."""
    from bot.i18n import catalog
    from bot.render import notice_text

    t = Table()
    t.skip_day()
    if step != "shooting":
        t.shoot(None)
        if step == "sheriff_check":
            t.next()
    t.expect_night(1, NightStep(step))
    t.dq(9, "4.2.6")
    at_night = [notice_text(n, catalog("ru")) for n in t.last if not n.private]
    assert at_night == ["Игрок №9 удаляется и покидает игру без последнего слова (4.5)."]
    t.end_night()
    morning = _morning(t)
    assert morning["killed"] is None and morning["removed"] == [9]
    text = notice_text(morning, catalog("ru")) or ""
    assert "никто не покидает игру" not in text and "4.2.6" not in text
    assert text == "Наступает утро. Промах: ночного убийства нет."
    t.expect_notice(Kind.VOTE_CANCELLED, day=2, seat=9, rule="5.1")
    t.discuss({1: 5})
    t.expect_no_vote(day=2)


def test_seed_4_5_a_fourth_foul_at_night_is_named_in_the_morning_too() -> None:
    """Seed 4.5: the 4th foul removes the player at once, at night as by day."""
    t = Table()
    t.fouls(6, 3)
    t.skip_day()
    t.foul(6, "4.1.1")
    t.expect_leaves(6, cause="fouls")
    t.miss()
    assert _morning(t)["removed"] == [6]


def test_seed_4_5_a_kill_and_a_removal_in_one_night_are_both_told() -> None:
    """R5.3 and seed 4.5: #3 killed and #6 disqualified the same night — two players left."""
    t = Table()
    t.skip_day()
    t.dq(6, "4.2.2")
    t.kill(3)
    morning = _morning(t)
    assert (morning["killed"], morning["removed"]) == (3, [6])


def test_12_9_the_victim_disqualified_the_same_night_is_told_as_killed() -> None:
    """§12.9 (SC): killed and disqualified in one night → the kill stands; the morning names
    the kill, and does not name him again as removed."""
    t = Table()
    t.skip_day()
    t.shoot(3)
    t.dq(3, "4.2.6")
    t.end_night()
    morning = _morning(t)
    assert (morning["killed"], morning["removed"]) == (3, [])


def test_a_quiet_night_still_says_nobody_left() -> None:
    """F24 §4.5.5: a miss with nobody removed → nobody left that night."""
    t = Table()
    t.skip_day()
    t.miss()
    assert (_morning(t)["killed"], _morning(t)["removed"]) == (None, [])


# --- the judge's timer: every timed step (docs/rules.md §2.3, §2.4) ---------------------------

@pytest.mark.parametrize(("preset", "night_zero"), [
    ("seed", (("mafia_meeting", 60), ("sheriff_look", 20))),  # F24 §4.2.1, §4.2.3
    ("fiim2024", (("mafia_meeting", 60), ("sheriff_look", 20))),
    ("fsm2024", (("mafia_meeting", 60), ("free_seating", 40))),  # S24 §4.2.3: no look
])
def test_every_timed_step_of_a_game_has_its_length(preset: str, night_zero: tuple) -> None:
    """Night 0: the blacks' minute, then the Sheriff's look (FIIM) or the free seating (FSM);
    the shooting (the rules give none: 20 s), each check 10 s (F24 §4.5.6–4.5.7), the best move
    20 s (F24 §4.5.9); a speech 60 s; nothing for a vote."""
    t = Table(preset=preset, start="night0")
    t.expect_timed(*night_zero)
    t.next()
    t.expect_timed(("speech", 60))
    t.discuss({1: 4, 2: 6})
    t.expect_voting(4, 6)
    t.expect_timed()  # the vote has no timer of its own
    t.votes_against(4, 6)
    t.expect_timed(("last_word", 60))
    t.finish_last_words()
    t.expect_night()
    t.expect_timed(("shooting", 20))
    t.shoot(3)
    t.expect_timed(("don_check", 10))
    t.next()
    t.expect_timed(("sheriff_check", 10))
    t.next()
    t.expect_timed(("best_move", 20))
    assert rules.timing(t.state)[0].seat == 3
    t.next()
    t.expect_timed(("last_word", 60))


def test_the_timers_are_the_new_games_options_and_a_part_of_0_s_is_left_out() -> None:
    """``/new timers.shooting=15 timers.sheriff_look=0 …``: the lengths follow the options."""
    t = Table(start="night0", timers=rules.Timers(sheriff_look=0, shooting=15, don_check=7,
                                                  mafia_meeting=45))
    t.expect_timed(("mafia_meeting", 45))
    t.next()
    t.skip_day()
    t.expect_timed(("shooting", 15))
    t.shoot(None)
    t.expect_timed(("don_check", 7))


@pytest.mark.parametrize("at_table", [10, 9, 7, 5, 4, 3])
def test_a_check_is_timed_whoever_is_still_at_the_table(at_table: int) -> None:
    """The Don's and the Sheriff's steps run their length even when the checker has left
    (docs/rules.md §5.2: nobody may learn from the timer that he is gone)."""
    t = Table(roles="D2 M5 M7 S8")
    for seat in (2, 8, 5, 1, 3, 4, 6)[:10 - at_table]:  # the Don, the Sheriff, a black, reds
        t.dq(seat)
    t.skip_day()
    t.expect_players(at_table)
    t.shoot(None)
    t.expect_timed(("don_check", 10))
    t.next()
    t.expect_timed(("sheriff_check", 10))


# --- nobody checks or names himself (the newcomer's item 10) ---------------------------------------

@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("victim", [None, 2, 8])
def test_the_don_and_the_sheriff_check_another_seat_never_their_own(preset: str, victim: int | None) -> None:
    """F24 §4.5.6–4.5.7: the Don looks for the Sheriff among the others, the Sheriff checks
    another seat. A check of one's own seat is refused and changes nothing — also for a Don or
    Sheriff shot tonight, who still checks."""
    t = Table(roles="D2 M5 M7 S8", preset=preset)
    t.skip_day()
    t.shoot(victim)
    error = t.expect_refused(rules.DonCheck(target=2), Code.SELF_CHECK)
    assert error.params == {"seat": 2, "role": "don", "rules": preset}
    t.don_check(8)
    error = t.expect_refused(rules.SheriffCheck(target=8), Code.SELF_CHECK)
    assert error.params["role"] == "sheriff"
    t.sheriff_check(2)
    t.expect_notice(Kind.SHERIFF_CHECK, target=2, black=True)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("victim", [1, 4, 9])
def test_the_best_move_names_other_seats_never_the_victims_own(preset: str, victim: int) -> None:
    """F24 §4.5.9: night 1's victim names seats he thinks black — others than his own."""
    t = Table(roles="D2 M5 M7 S8", preset=preset)
    t.skip_day()
    t.shoot(victim)
    t.next()
    t.next()
    t.expect_night(1, NightStep.BEST_MOVE)
    for guesses in ((victim,), (5, victim), (victim, 5, 7)):
        t.expect_refused(rules.BestMove(guesses=guesses), Code.SELF_BEST_MOVE)
    t.best_move(5, 7, 3)
    t.expect_notice(Kind.BEST_MOVE, seat=victim, guesses=[5, 7, 3])


def test_self_refusals_are_said_in_both_catalogs() -> None:
    from bot.i18n import catalog
    from bot.render import error_text

    for lang in ("ru", "en"):
        for error in (rules.RuleError(Code.SELF_BEST_MOVE, seat=1, rules="seed"),
                      rules.RuleError(Code.SELF_CHECK, seat=2, role="don", rules="fsm2024"),
                      rules.RuleError(Code.SELF_CHECK, seat=8, role="sheriff", rules="seed")):
            text = error_text(error, catalog(lang))
            assert "4.5." in text and ("№" in text or "#" in text), text


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_a_stored_log_with_a_self_check_or_self_named_best_move_still_folds(preset: str) -> None:
    """The refusals above are a new action's (rules.admit, asked by the service): a log stored
    before them — the Don and the Sheriff checking themselves, night 1's victim naming his own
    seat — still replays, as it was played."""
    t = Table(roles="D2 M5 M7 S8", preset=preset)
    t.skip_day()
    t.shoot(4)
    log = [*t.log, rules.DonCheck(target=2), rules.SheriffCheck(target=8),
           rules.BestMove(guesses=(4, 5, 7))]
    state, notices = rules.fold(t.state.config, log)
    assert state.night is None or state.phase is not rules.Phase.NIGHT  # the night is over
    assert any(n.kind is Kind.BEST_MOVE and n.params["guesses"] == [4, 5, 7] for n in notices)
    assert rules.check(t.state, rules.DonCheck(target=2)) is not None  # but not as a new action
