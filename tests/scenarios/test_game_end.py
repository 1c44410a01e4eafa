"""Scenario tests for the end of the game (RULES.md §8 E1–E6, §12.1, §12.2, §12.18)."""

from __future__ import annotations

import pytest

import rules
from rules import Code, Kind

from .harness import Table


# --- the draw (seed 5.8 vs F24/S24 §7.7) ----------------------------------------------------

def test_seed_5_8_draw_at_the_end_of_the_third_quiet_day() -> None:
    """Seed 5.8, §12.1: 3 «ночи» и «дни» in a row, starting with a (shooting) night, nobody
    leaving → draw, declared at the end of the third day: N1, D2, N2, D3, N3, D4. Night 0 (and
    so day 1) opens no window."""
    t = Table()
    t.skip_day()  # D1
    t.miss()  # N1
    t.skip_day()  # D2
    t.miss()  # N2
    t.skip_day()  # D3
    t.miss()  # N3
    t.expect_game_on()
    t.expect_day(4)
    t.discuss()
    t.expect_draw()


def test_f24_7_7_draw_at_the_end_of_the_third_quiet_night() -> None:
    """F24/S24 §7.7, §12.1 (2024 presets): three shooting nights in a row with the number of
    players unchanged → draw after the third night."""
    t = Table(preset="fiim2024")
    t.skip_day()
    t.miss()
    t.skip_day()
    t.miss()
    t.skip_day()
    t.expect_game_on()
    t.miss()
    t.expect_draw()
    assert t.state.day == 3


@pytest.mark.parametrize("preset, rule, text", [
    ("seed", "after_third_day",
     "Игра окончена. Ничья: три «ночи» и три «дня» подряд, начиная с «ночи», — без выбывших (5.8)."),
    ("fiim2024", "after_third_night", "Игра окончена. Ничья: три «ночи» подряд без выбывших (ФИИМ 2024, §7.7)."),
    ("fsm2024", "after_third_night", "Игра окончена. Ничья: три «ночи» подряд без выбывших (ФСМ 2024, §7.7)."),
])
def test_the_draw_announcement_says_what_its_rule_counts(preset: str, rule: str, text: str) -> None:
    """Seed 5.8: «в течение 3 «ночей» и «дней», следующих подряд друг за другом, начиная с
    «ночи»» — the announcement names the nights AND the days. F24/S24 §7.7 (the 2024 presets):
    «три «ночи» подряд» — nights only (RULES.md E3)."""
    from bot.i18n import catalog
    from bot.render import notice_text

    t = Table(preset=preset)
    for _ in range(3):
        t.skip_day()
        t.miss()
    if preset == "seed":
        t.discuss()
    t.expect_draw()
    over = t.expect_notice(Kind.GAME_OVER, winner=None, why="draw", draw_rule=rule, nights=3)
    assert (notice_text(over, catalog("ru")) or "").startswith(text)


DEPARTURES = ["kill on N2", "night dq on N2", "vote on D3", "raise on D3", "dq on D3",
              "4th foul on D3"]


@pytest.mark.parametrize("preset", ["seed", "fiim2024"])
@pytest.mark.parametrize("departure", DEPARTURES)
def test_12_2_any_departure_restarts_the_draw_window(departure: str, preset: str) -> None:
    """§12.2 (F24 §7.7 «количество участников … осталось неизменным»; MH "by voting, shooting,
    or removal"): N1, D2 and N2 are quiet, then somebody leaves (kill, night DQ, vote, raise,
    DQ, 4th foul). The window restarts with N3: no draw where it would have come (after N3 /
    D4); it comes after N5 (2024 presets) or at the end of D6 (seed)."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.fouls(4, 3)  # on D1, for the 4th-foul case
    t.skip_day()  # D1
    t.miss()  # N1
    t.skip_day()  # D2
    if departure == "kill on N2":
        t.kill(1)
    elif departure == "night dq on N2":
        t.dq(1, "4.2.6")
        t.miss()
    else:
        t.miss()
    if departure == "vote on D3":
        t.vote_out(2)
    elif departure == "raise on D3":
        t.discuss({3: 2, 4: 6})
        t.vote({2: 5, 6: 5})
        t.tie_speeches(2, 6)
        t.revote({2: 5, 6: 5})
        t.raise_vote(6)
        t.expect_leaves(2, 6, cause="raise")
        t.last_word(2)
        t.last_word(6)
    elif departure == "dq on D3":
        t.hear_morning()
        t.dq(2, "4.2.4")
        t.skip_day()
    elif departure == "4th foul on D3":
        t.foul(4)
        t.expect_leaves(4, cause="fouls")
        t.skip_day()
    else:
        t.skip_day()
    t.miss()  # N3
    t.expect_game_on()
    t.skip_day()  # D4
    t.miss()  # N4
    t.skip_day()  # D5
    t.miss()  # N5
    if preset == "fiim2024":
        t.expect_draw()
        return
    t.expect_game_on()
    t.discuss()  # D6
    t.expect_draw()


# --- wins (E1, E2) and the decisive event (E6, F24 §7.9) ------------------------------------

def _parity_vote_on_day_five(**options: object) -> Table:
    """SCENARIOS S28's table: #3 (D), #8 (B), #1, #5, #10 (R); #5 is voted out → 2 vs 2."""
    t = Table(roles="S1 D3 M8 M9", **options)
    t.play_until(5, kills={1: 4, 2: 6}, out={1: 2, 2: 9, 3: 7})
    t.discuss({10: 5, 1: 3})
    t.vote({5: (3, 8, 10), 3: 2})
    return t


def test_f24_7_9_disqualifying_every_black_in_the_decisive_last_word_changes_nothing() -> None:
    """F24/S24 §7.9, E6 (MR 8.19.1: the last black DQ'd during the decisive last word → the
    mafia still wins): the result of a decisive vote stands whatever happens in the last word."""
    t = _parity_vote_on_day_five()
    t.expect_last_word(5)
    t.dq(3, "4.2.4")
    t.dq(8, "4.2.1")
    t.expect_leaves(3, 8, cause="dq")  # R6.6: insults and leaving the table are still punished
    t.expect_game_on()
    t.last_word(5)
    t.expect_winner("black")


def test_f24_6_8_6_no_team_loss_after_the_decisive_vote() -> None:
    """R6.6 (F24 §6.8.6): after the decisive vote the team-loss items are not applied; the
    result stands."""
    t = _parity_vote_on_day_five()
    t.team_loss(8, "4.3.1")
    t.expect_notice(Kind.PENALTY_AFTER_RESULT, seat=8)
    t.expect_game_on()
    t.last_word(5)
    t.expect_winner("black")


@pytest.mark.parametrize("preset", ["seed", "fiim2024", "fsm2024"])
def test_f24_6_8_6_tears_in_the_decisive_last_word_are_not_applied(preset: str) -> None:
    """R6.6 (F24/S24 §6.8.6): after the decisive vote, tears (6.7.7, the seed's 4.2.7) or night
    touching (4.2.2) are recorded only: the player stays, no disqualification (and the leaver's
    last word goes on); insults (4.2.4) still remove."""
    t = _parity_vote_on_day_five(preset=preset)
    t.expect_last_word(5)
    t.dq(3, "4.2.7")
    t.expect_notice(Kind.PENALTY_AFTER_RESULT, seat=3, reason="4.2.7", applied=False)
    t.dq(5, "4.2.2")
    t.expect_stays(3)
    assert not t.state.seat(3).disqualified and not t.state.seat(5).disqualified
    t.expect_last_word(5)
    t.dq(8, "4.2.4")
    t.expect_leaves(8, cause="dq")
    t.last_word(5)
    t.expect_winner("black")


def test_e6_the_leaver_disqualified_in_his_own_decisive_last_word() -> None:
    """E6 (F24 §7.9): «В случае дисквалификации любого игрока результат игры не меняется»; the
    DQ'd leaver loses the rest of his last word (seed 4.5 «без последнего слова»), so the
    result is announced at once."""
    t = _parity_vote_on_day_five()
    t.dq(5, "4.2.4")
    t.expect_winner("black")


def test_last_word_on_decisive_event_option_off() -> None:
    """§13 ``last_word_on_decisive_event`` (F24 §7.9 by default) switched off: the result is
    announced at once, without the leaver's last word."""
    t = _parity_vote_on_day_five(last_word_on_decisive_event=False)
    t.expect_winner("black")


def _two_blacks_three_reds_on_day_four() -> Table:
    t = Table(roles="S5 D8 M9 M10")
    t.play_until(4, kills={1: 1, 2: 3}, out={1: 9, 2: 2, 3: 4})
    t.expect_table(5, 6, 7, 8, 10)
    return t


def test_e2_decisive_kill_last_word_then_black_win_dq_changes_nothing() -> None:
    """E2, E6 (F24 §1.4, §4.5.4, §7.9): a night kill makes 2 vs 2; the victim still speaks his
    morning last word, during which a DQ of every black changes nothing; then black wins."""
    t = _two_blacks_three_reds_on_day_four()
    t.skip_day()
    t.kill(5)
    t.expect_last_word(5)
    t.expect_game_on()
    t.dq(8, "4.2.4")
    t.dq(10, "4.2.4")
    t.last_word(5)
    t.expect_winner("black")


def test_e1_last_black_voted_out_last_word_then_red_win() -> None:
    """E1 (F24 §1.4, §7.9): the last black voted out → his last word → red wins."""
    t = Table(roles="S5 D8 M9 M10")
    t.vote_out(9)
    t.miss()
    t.vote_out(10)
    t.miss()
    t.discuss({3: 8})
    t.expect_leaves(8, cause="vote")
    t.expect_last_word(8)
    t.expect_game_on()
    t.last_word(8)
    t.expect_winner("red")


def test_e1_last_black_shoots_himself() -> None:
    """E1, R5.5 (самострел): the last black kills himself → morning last word → red wins."""
    t = Table(roles="S5 D8 M9 M10")
    t.vote_out(9)
    t.miss()
    t.vote_out(10)
    t.shots({8: 8})
    t.end_night()
    t.expect_last_word(8)
    t.expect_game_on()
    t.last_word(8)
    t.expect_winner("red")


def test_no_more_events_after_the_game_is_over() -> None:
    """§2.1: GAME_OVER is final (names may still be set)."""
    t = _parity_vote_on_day_five()
    t.last_word(5)
    t.expect_refused(rules.Next(), Code.GAME_OVER)
    t.expect_refused(rules.WithdrawFoul(seat=1), Code.GAME_OVER)
    t.do(rules.SetName(seat=1, name="Anna"))


# --- roles unknown: the judge declares the result -------------------------------------------

def test_roles_unknown_the_judge_is_asked_from_the_third_departure() -> None:
    """§8 "when to check: after every departure" (E1 needs 3 departures at least): with roles
    unknown the engine cannot check, so from the 3rd departure on it asks the judge, and the
    game goes on until he declares the result."""
    t = Table(roles=None)
    t.vote_out(2)
    t.kill(3)
    assert not t.kinds_seen(Kind.JUDGE_MUST_CHECK_END)
    t.vote_out(4)
    assert t.kinds_seen(Kind.JUDGE_MUST_CHECK_END)
    t.expect_game_on()
    asked = len(t.kinds_seen(Kind.JUDGE_MUST_CHECK_END))
    t.kill(5)
    assert len(t.kinds_seen(Kind.JUDGE_MUST_CHECK_END)) > asked
    t.do(rules.DeclareResult(winner="red"))
    t.expect_winner("red")


@pytest.mark.parametrize("winner", ["red", "black", "draw"])
def test_roles_unknown_the_judge_declares_any_result(winner: str) -> None:
    """DeclareResult: red, black or draw."""
    t = Table(roles=None)
    t.do(rules.DeclareResult(winner=winner))
    if winner == "draw":
        t.expect_draw()
    else:
        t.expect_winner(winner)


def test_declaring_a_result_is_refused_when_roles_are_known() -> None:
    """With roles known the rules decide the end themselves (§8)."""
    t = Table(roles="S5 D8 M9 M10")
    t.expect_refused(rules.DeclareResult(winner="red"), Code.ROLES_KNOWN)


def test_declaring_a_nonsense_result_is_refused() -> None:
    t = Table(roles=None)
    t.expect_refused(rules.DeclareResult(winner="green"))


# --- hidden information (R1.5) --------------------------------------------------------------

HIDDEN = {"role", "roles", "sheriff", "black", "hits", "winner", "shots"}


def test_r1_5_roles_and_night_answers_stay_hidden_until_the_end() -> None:
    """R1.5 (F24 §4.4.13, §4.5.4): a departed player's role is never revealed during the game;
    the check answers (F24 §4.5.6–4.5.7, by gesture), the best move's hits and a result fixed
    before the last word (F24 §7.9) are the judge's alone — private notices. Only the end of
    the game shows the roles."""
    t = Table(roles="S1 D3 M8 M9")
    t.vote_out(2)
    t.shoot(4)
    t.don_check(1)
    t.sheriff_check(3)
    t.best_move(3, 8, 9)
    t.play_until(5, kills={2: 6}, out={2: 9, 3: 7})
    t.discuss({10: 5, 1: 3})
    t.vote({5: (3, 8, 10), 3: 2})
    t.last_word(5)
    t.expect_winner("black")
    end = next(i for i, n in enumerate(t.notices) if n.kind is Kind.GAME_OVER)
    for notice in t.notices[:end]:
        if not notice.private:
            assert not HIDDEN & set(notice.params), notice
    private = {n.kind for n in t.notices[:end] if n.private}
    assert {Kind.ROLES_SET, Kind.DON_CHECK, Kind.SHERIFF_CHECK, Kind.BEST_MOVE_HITS,
            Kind.RESULT_FIXED} <= private


def test_the_game_record_replays_to_the_same_state() -> None:
    """A finished game's log (the judge's record) folds back into the same final state."""
    t = Table(roles="S1 D3 M8 M9")
    t.play_until(5, kills={1: 4, 2: 6}, out={1: 2, 2: 9, 3: 7})
    t.discuss({10: 5, 1: 3})
    t.vote({5: (3, 8, 10), 3: 2})
    t.last_word(5)
    t.expect_winner("black")
    assert t.replay() == t.state
