"""The points of a finished game (F24 §8 / S24 §8; the seed has none, so its preset scores as FIIM
2024): the automatic part — the win, a disqualification, a team loss, the best move, FIIM's
automatic bonus — and the judge's part after the result — extra points within the preset's limits,
penalty points for the listed bad plays — refused with the limit named when over it."""

from __future__ import annotations

from decimal import Decimal

import pytest

import rules
from bot.i18n import catalog
from bot.render import error_text
from rules import BadPlay, Code, Extra, Kind

from .harness import Table

D = Decimal
PRESETS = ("seed", "fiim2024", "fsm2024")
FIIM = ("seed", "fiim2024")  # the seed's points are FIIM 2024's


def red_wins_by_team_loss(preset: str, offender: int = 9) -> Table:
    """D8 M9 M10 S5: on day 1 black #9 swears an oath (seed 4.3.1): red wins at once."""
    t = Table(preset=preset)
    t.team_loss(offender, "4.3.1")
    t.expect_winner("red")
    return t


def best_move_game(preset: str, *guesses: int, victim: int = 1) -> Table:
    """Day 1 passes, night 1 kills ``victim`` who names ``guesses`` (F24 §4.5.9), then black #10
    swears an oath on day 2 (seed 4.3.1): red wins."""
    t = Table(preset=preset)
    t.skip_day()
    t.shoot(victim)
    while t.state.night is not None and t.state.night.step is not rules.NightStep.BEST_MOVE:
        t.next()  # the Don and the Sheriff do not check
    t.best_move(*guesses)
    t.hear_morning()
    t.team_loss(10, "4.3.1")
    t.expect_winner("red")
    return t


def pts(t: Table) -> dict[int, rules.SeatPoints]:
    out = rules.game_points(t.state)
    assert out is not None
    return out


def give(t: Table, seat: int, value: str, approved: bool = False) -> None:
    t.do(Extra(seat=seat, points=value, approved=approved))


# --- the automatic part ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset, loss", [("seed", "-0.70"), ("fiim2024", "-0.70"), ("fsm2024", "-1.00")])
def test_the_winners_get_a_point_and_the_team_loss_costs_its_offender(preset: str, loss: str) -> None:
    """F24/S24 §8.2.1–8.2.3: +1 to every winner, nothing to a loser; §8.2.5: the team loss's
    offender −0.7 (FIIM) or −1 (FSM); F24 §8.4.8: +0.3 to everyone else with no destructive play
    (FSM has no such bonus)."""
    t = red_wins_by_team_loss(preset)
    p = pts(t)
    for seat in (1, 2, 3, 4, 5, 6, 7):
        assert p[seat].win == 1
    for seat in (8, 9, 10):
        assert p[seat].win == 0
    assert p[9].team_loss == D(loss)
    auto = D("0.3") if preset in FIIM else D(0)
    assert p[9].auto_bonus == 0
    assert p[1].total == 1 + auto and p[8].total == auto
    assert p[9].total == D(loss)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_disqualification_costs_half_a_point_and_the_automatic_bonus(preset: str) -> None:
    """F24/S24 §8.2.4: −0.5 for a disqualification from the table; F24 §8.4.8: no automatic
    bonus then. A 4th foul is not a disqualification."""
    t = Table(preset=preset)
    t.dq(3, "4.2.4")
    t.fouls(4, 4)
    t.team_loss(9, "4.3.1")
    p = pts(t)
    assert p[3].disqualification == D("-0.5") and p[3].auto_bonus == 0
    assert p[3].total == D("0.5")  # red won
    assert p[4].disqualification == 0
    assert p[4].auto_bonus == (D("0.3") if preset in FIIM else 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_disqualification_after_the_result_still_costs(preset: str) -> None:
    """F24 §7.9: the result stands, and the disqualified player is penalised by §8.2.4."""
    t = red_wins_by_team_loss(preset)
    t.do(rules.Penalty(seat=2, reason="4.2.4"))
    assert pts(t)[2].disqualification == D("-0.5") and pts(t)[2].win == 1


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("code", ["4.2.2", "4.2.5", "4.2.7", "4.2.9", "4.2.10"])
def test_an_item_f24_6_8_6_exempts_after_the_result_costs_nothing(preset: str, code: str) -> None:
    """F24/S24 §6.8.6: once the result is fixed, night touching (6.7.2), peeking (6.7.5, 6.7.10),
    tears (6.7.7), a wrong form of voting (6.7.9) are not applied: recorded for the protocol, no
    disqualification and no −0.5 (§8.2.4), so the automatic bonus stays (F24 §8.4.8)."""
    t = red_wins_by_team_loss(preset)
    t.do(rules.Penalty(seat=2, reason=code))
    t.expect_notice(Kind.PENALTY_AFTER_RESULT, seat=2, reason=code, applied=False)
    assert not t.state.seat(2).disqualified and not t.state.seat(2).tournament_removal
    p = pts(t)
    assert p[2].disqualification == 0 and p[2].win == 1
    assert p[2].auto_bonus == (D("0.3") if preset in FIIM else 0)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("code", ["4.2.1", "4.2.4", "dq"])
def test_leaving_the_table_and_insults_after_the_result_still_cost(preset: str, code: str) -> None:
    """F24/S24 §6.8.6 spares neither leaving the table (6.7.1) nor insults or obscenity (6.7.4,
    6.7.15; the seed's 4.2.4), nor a disqualification the judge gives without an item."""
    t = red_wins_by_team_loss(preset)
    t.do(rules.Penalty(seat=2, reason=code))
    assert pts(t)[2].disqualification == D("-0.5")


def test_fsm_2024_voting_for_several_nominees_after_the_result_costs_nothing() -> None:
    """S24 §6.7.9 (FSM's 4.1.8) is among the items S24 §6.8.6 does not apply after the result."""
    t = red_wins_by_team_loss("fsm2024")
    t.do(rules.Penalty(seat=2, reason="4.1.8"))
    assert pts(t)[2].disqualification == 0


@pytest.mark.parametrize("preset, three, two", [
    ("seed", "0.7", "0.5"), ("fiim2024", "0.7", "0.5"), ("fsm2024", "0.5", "0.25")])
def test_the_best_move_earns_by_the_blacks_it_names(preset: str, three: str, two: str) -> None:
    """F24/S24 §8.3.4: three blacks named +0.7 / +0.5 (FSM), two +0.5 / +0.25; one or none
    earn nothing."""
    assert pts(best_move_game(preset, 8, 9, 10))[1].best_move == D(three)
    assert pts(best_move_game(preset, 8, 9, 2))[1].best_move == D(two)
    assert pts(best_move_game(preset, 8, 2, 3))[1].best_move == 0
    t = best_move_game(preset, 8, 9, 10)
    assert all(p.best_move == 0 for seat, p in pts(t).items() if seat != 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_black_victim_earns_nothing_by_the_best_move(preset: str) -> None:
    """F24/S24 §8.3.4 reward «красный» игрок и «шериф» only."""
    t = Table(preset=preset, roles="D8 M9 M1 S5")
    t.skip_day()
    t.shoot(1)
    t.next()
    t.next()
    t.best_move(8, 9, 2)
    t.hear_morning()
    t.team_loss(9, "4.3.1")
    assert pts(t)[1].best_move == 0


def test_no_points_before_the_end_or_with_the_roles_unknown() -> None:
    t = Table()
    assert rules.game_points(t.state) is None
    u = Table(roles=None)
    u.do(rules.DeclareResult(winner="red"))
    assert rules.game_points(u.state) is None
    u.expect_refused(Extra(seat=1, points="0.3"), Code.ROLES_UNKNOWN)


# --- the judge's extras (§8.4) --------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
def test_extras_and_bad_plays_only_after_the_result(preset: str) -> None:
    t = Table(preset=preset)
    t.expect_refused(Extra(seat=1, points="0.3"), Code.WRONG_PHASE)
    t.expect_refused(BadPlay(seat=1, item="8.5.2"), Code.WRONG_PHASE)


@pytest.mark.parametrize("preset, winner_ok, winner_bad, loser_ok, loser_bad", [
    ("fiim2024", ["0.3", "1", "0.6"], ["0.2", "1.1", "1.3"], ["0.2", "0.7"], ["0.1", "0.8"]),
    ("seed", ["0.3", "1.0"], ["0.25", "1.5"], ["0.2"], ["0.8"]),
    ("fsm2024", ["0.1", "0.5"], ["0.6", "0.05"], ["0.1", "0.4"], ["0.5", "0.7"]),
])
def test_an_extra_is_one_of_its_sides_values(preset: str, winner_ok: list[str], winner_bad: list[str],
                                              loser_ok: list[str], loser_bad: list[str]) -> None:
    """F24 §8.4.3–8.4.4: a winner 0.3–1 (1.3 and 1.5 with approval), a loser 0.2–0.7; S24:
    a winner 0.1–0.5 (0.6, 0.7 with approval), a loser 0.1–0.4. Refused with the range named."""
    t = red_wins_by_team_loss(preset)
    for value in winner_ok:
        give(t, 2, value)
        assert pts(t)[2].extra == D(value)
    for value in loser_ok:
        give(t, 8, value)
        assert pts(t)[8].extra == D(value)
    for value in winner_bad:
        error = t.expect_refused(Extra(seat=2, points=value), Code.EXTRA_VALUE)
        assert error.params["side"] == "winners" and "–" in error.params["allowed"]
    for value in loser_bad:
        error = t.expect_refused(Extra(seat=8, points=value), Code.EXTRA_VALUE)
        assert error.params["side"] == "losers"


@pytest.mark.parametrize("preset, approved", [("fiim2024", ["1.3", "1.5"]), ("fsm2024", ["0.6", "0.7"])])
def test_the_highest_extras_need_the_chief_judges_approval(preset: str, approved: list[str]) -> None:
    t = red_wins_by_team_loss(preset)
    for value in approved:
        error = t.expect_refused(Extra(seat=2, points=value), Code.EXTRA_VALUE)
        assert error.params["approvable"] is True  # the refusal tells of «+»
        assert "+" in error_text(error, catalog("ru")) and "+" in error_text(error, catalog("en"))
        give(t, 2, value, approved=True)
        assert pts(t)[2].extra == D(value)


@pytest.mark.parametrize("preset, below, above", [
    ("seed", ["0.2", "0.1"], ["2", "1.1"]), ("fiim2024", ["0.2", "0.1"], ["2", "1.1"]),
    ("fsm2024", ["0.05"], ["1", "0.8"])])
def test_a_value_approval_cannot_allow_is_refused_without_asking_for_it(
        preset: str, below: list[str], above: list[str]) -> None:
    """F24/S24 §8.4.3: the chief judge's approval («+») allows only the named values above the
    range; a value below the minimum (or beyond even those) is refused without telling of «+»,
    and with «+» it is refused too."""
    t = red_wins_by_team_loss(preset)
    for value in [*below, *above]:
        error = t.expect_refused(Extra(seat=2, points=value), Code.EXTRA_VALUE)
        assert error.params["approvable"] is False, value
        for lang in ("ru", "en"):
            assert "+" not in error_text(error, catalog(lang)), (value, lang)
        t.expect_refused(Extra(seat=2, points=value, approved=True), Code.EXTRA_VALUE)


@pytest.mark.parametrize("preset, players, approved", [
    ("seed", 5, 6), ("fiim2024", 5, 6), ("fsm2024", 4, 5)])
def test_extras_go_to_a_limited_number_of_players(preset: str, players: int, approved: int) -> None:
    """F24 §8.4.1: up to six players, more than five with the chief judge's approval; S24:
    up to five, more than four with it."""
    t = red_wins_by_team_loss(preset)
    for seat in range(1, players + 1):
        give(t, seat, "0.2" if preset == "fsm2024" else "0.3")
    error = t.expect_refused(Extra(seat=players + 1, points="0.3"), Code.EXTRA_PLAYERS)
    assert (error.params["count"], error.params["limit"]) == (players + 1, players)
    give(t, players + 1, "0.2" if preset == "fsm2024" else "0.3", approved=True)
    t.expect_refused(Extra(seat=approved + 1, points="0.3", approved=True), Code.EXTRA_PLAYERS)
    give(t, 1, "0")  # taken back: room for another
    give(t, approved + 1, "0.3", approved=True)


@pytest.mark.parametrize("preset, values, over, limit", [
    ("fiim2024", ["1", "1", "0.7"], "0.3", "2.8"),
    ("fsm2024", ["0.5", "0.5"], "0.3", "1.2"),
])
def test_extras_stay_within_the_total(preset: str, values: list[str], over: str, limit: str) -> None:
    """F24 §8.4.2: 2.8 in all (3 with approval); S24 §8.4.2: 1.2."""
    t = red_wins_by_team_loss(preset)
    for seat, value in enumerate(values, 1):
        give(t, seat, value)
    error = t.expect_refused(Extra(seat=6, points=over), Code.EXTRA_TOTAL)
    assert error.params["limit"] == limit
    if preset == "fiim2024":
        give(t, 6, "0.3", approved=True)  # 3.0 with the chief judge's approval
        t.expect_refused(Extra(seat=7, points="0.3", approved=True), Code.EXTRA_TOTAL)


@pytest.mark.parametrize("preset", PRESETS)
def test_no_extras_after_a_draw(preset: str) -> None:
    """F24/S24 §8.4.7: a draw gives no extra points."""
    t = Table(preset=preset)
    for _ in range(3):  # three quiet nights (F24/S24 §7.7) and, for the seed, days (seed 5.8)
        t.skip_day()
        t.miss()
    if preset == "seed":
        t.discuss()
    t.expect_draw()
    t.expect_refused(Extra(seat=1, points="0.3"), Code.EXTRA_IN_DRAW)
    assert all(p.win == 0 for p in pts(t).values())


@pytest.mark.parametrize("preset", FIIM)
def test_fiim_best_move_and_extra_exclude_each_other_and_the_larger_counts(preset: str) -> None:
    """F24 §8.4.6: the larger of the best move and the judge's extra counts; an extra that is
    the larger counts in the 2.8 total."""
    t = best_move_game(preset, 8, 9, 2)  # +0.5
    give(t, 1, "0.3")
    p = pts(t)[1]
    assert not p.extra_counts and p.total == 1 + D("0.5") + D("0.3")  # win + best move + auto
    give(t, 1, "1")
    p = pts(t)[1]
    assert p.extra_counts and p.additional == 1 + D("0.3")
    for seat, value in ((2, "1"), (3, "0.7")):
        give(t, seat, value)
    t.expect_refused(Extra(seat=4, points="0.3"), Code.EXTRA_TOTAL)  # 1 + 1 + 0.7 + 0.3 > 2.8


def test_fsm_extra_that_outweighs_the_best_move_is_left_out_of_the_total() -> None:
    """S24 §8.4.6: the larger counts, and an extra that is the larger does not count in the 1.2
    total."""
    t = best_move_game("fsm2024", 8, 9, 2)  # +0.25
    give(t, 1, "0.5")
    assert pts(t)[1].extra_counts and pts(t)[1].additional == D("0.5")
    give(t, 2, "0.5")
    give(t, 3, "0.5")  # 1.0 counted: #1's 0.5 is not
    give(t, 4, "0.2")
    t.expect_refused(Extra(seat=5, points="0.1"), Code.EXTRA_TOTAL)


@pytest.mark.parametrize("preset", PRESETS)
def test_bad_points_are_refused(preset: str) -> None:
    t = red_wins_by_team_loss(preset)
    for value in ("x", "-0.3", "0.333", "inf", "NaN"):
        t.expect_refused(Extra(seat=1, points=value), Code.BAD_POINTS)
    t.expect_refused(Extra(seat=11, points="0.3"), Code.NO_SUCH_SEAT)
    give(t, 1, "0,3" if preset != "fsm2024" else "0,2")  # a comma, as a Russian keyboard types it


# --- penalty points (§8.5) ----------------------------------------------------------------------

@pytest.mark.parametrize("preset, item, other, each", [
    ("seed", "8.5.3", "8.5.4", "-0.5"), ("fiim2024", "8.5.3", "8.5.1", "-0.5"),
    ("fsm2024", "8.5.2", None, "-0.4")])
def test_bad_plays_cost_each_once_and_the_automatic_bonus(preset: str, item: str, other: str | None,
                                                          each: str) -> None:
    """F24 §8.5: −0.5 for each listed bad play, different ones added up, the same one once (F24
    §8.5.1); S24 §8.5: −0.4. A red's play given to a red whose team won — an item that does not
    say "and lost" (S24 has one such for a red: §8.5.2); the automatic bonus goes (F24 §8.4.8)."""
    t = red_wins_by_team_loss(preset)
    t.do(BadPlay(seat=2, item=item))
    t.expect_notice(Kind.BAD_PLAY, seat=2, item=item, points=each)
    t.expect_refused(BadPlay(seat=2, item=item), Code.BAD_PLAY_GIVEN)
    p = pts(t)[2]
    assert p.bad_play == D(each) and p.auto_bonus == 0 and p.total == 1 + D(each)
    if other is not None:
        t.do(BadPlay(seat=2, item=other))
        assert pts(t)[2].bad_play == 2 * D(each)
    t.do(BadPlay(seat=2, item=item, withdraw=True))
    t.expect_refused(BadPlay(seat=2, item=item, withdraw=True), Code.BAD_PLAY_NOT_GIVEN)


@pytest.mark.parametrize("preset, item, seat, who", [
    ("fiim2024", "8.5.13.4", 2, "black"),  # a red who did not shoot: only blacks shoot
    ("fiim2024", "8.5.13.2", 8, "sheriff"),  # the Sheriff's item given to the Don
    ("fsm2024", "8.5.1", 9, "red"),  # a black cannot break the vote into his own red
])
def test_a_bad_play_is_for_its_role_only(preset: str, item: str, seat: int, who: str) -> None:
    t = red_wins_by_team_loss(preset)
    error = t.expect_refused(BadPlay(seat=seat, item=item), Code.BAD_PLAY_ROLE)
    assert error.params["who"] == who


@pytest.mark.parametrize("preset, item", [("fsm2024", "8.5.6"), ("fsm2024", "8.5.12"),
                                          ("fiim2024", "8.5.14"), ("seed", "4.1.1")])
def test_an_item_not_in_the_presets_list_is_refused(preset: str, item: str) -> None:
    """S24 §8.5.6 only heads items 7–11; FSM has no item 12; FIIM none past 13."""
    t = red_wins_by_team_loss(preset)
    t.expect_refused(BadPlay(seat=2, item=item), Code.UNKNOWN_BAD_PLAY)


def test_the_points_are_in_the_log_and_undone_with_it() -> None:
    """The judge's points are events: folding the log gives them back; an undo takes one back."""
    t = red_wins_by_team_loss("fiim2024")
    give(t, 2, "0.6")
    t.do(BadPlay(seat=3, item="8.5.3"))  # a red's, with no "and lost" in it: the reds won
    folded = t.replay()
    assert rules.game_points(folded) == pts(t)
    state, _ = rules.fold(t.state.config, [*t.log, rules.Undo()])
    assert rules.game_points(state)[3].bad_play == 0 and rules.game_points(state)[2].extra == D("0.6")
