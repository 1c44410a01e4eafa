"""Bad input: the rules refuse it with a :class:`rules.RuleError` and the state stays equal to
what it was (``rules.apply`` works on a copy). Seats are 1–10 (R1.1); each event belongs to
its phase (RULES.md §2.2); a departed seat no longer acts or is acted on (F24 §1.4)."""

from __future__ import annotations

from typing import Callable

import pytest

import rules
from rules import Code

from .harness import Table, parse_roles


def _voting(t: Table) -> Table:
    t.discuss({1: 5, 2: 9, 3: 4})  # ballot #5, #9, #4
    return t


def _tie(t: Table) -> Table:
    t.discuss({1: 5, 2: 9})
    t.vote({5: 5, 9: 5})  # #5's 30 s tie speech
    return t


def _raise(t: Table) -> Table:
    _tie(t)
    t.tie_speeches(5, 9)
    t.revote({5: 5, 9: 5})
    return t


def _last_word(t: Table) -> Table:
    t.discuss({1: 5, 2: 9})
    t.vote({5: 6, 9: 4})
    return t


def _night_step(steps: int) -> Callable[[Table], Table]:
    def build(t: Table) -> Table:
        t.skip_day()
        if steps:
            t.shoot(3)
        for _ in range(steps - 1):
            t.next()
        return t
    return build


def _game_over(t: Table) -> Table:
    t.team_loss(2, "4.3.1")
    return t


def _after_seven_left(t: Table) -> Table:
    t.vote_out(7)
    t.miss()  # D2: #2 speaks
    return t


def _voting_after_seven_left(t: Table) -> Table:
    _after_seven_left(t)
    t.discuss({2: 5, 3: 9})
    return t


WHERE: dict[str, Callable[[Table], Table]] = {
    "speech": lambda t: t,
    "voting": _voting,
    "tie speech": _tie,
    "raise vote": _raise,
    "last word": _last_word,
    "shooting": _night_step(0),
    "don check": _night_step(1),
    "sheriff check": _night_step(2),
    "best move": _night_step(3),
    "game over": _game_over,
    "speech, #7 out": _after_seven_left,
    "voting, #7 out": _voting_after_seven_left,
}


def at(where: str) -> Table:
    """A table (roles S5 D8 M9 M10) brought to ``where`` through real events."""
    if where == "setup":
        return Table(start="setup")
    if where == "night 0":
        return Table(start="night0")
    return WHERE[where](Table(roles="S5 D8 M9 M10"))


NO_SUCH_SEAT = [
    ("speech", rules.Nominate(by=1, target=0)),
    ("speech", rules.Nominate(by=1, target=11)),
    ("speech", rules.Nominate(by=0, target=3)),
    ("speech", rules.Penalty(seat=0, reason="foul")),
    ("speech", rules.Penalty(seat=11, reason="dq")),
    ("speech", rules.WithdrawFoul(seat=0)),
    ("speech", rules.SetName(seat=11, name="Anna")),
    ("voting", rules.Vote(nominee=11, count=1)),
    ("voting", rules.Vote(nominee=5, voters=(0, 1))),
    ("raise vote", rules.RaiseVote(voters=(1, 11))),
    ("shooting", rules.NightKill(target=11)),
    ("shooting", rules.Shots(shots=((8, 0), (9, 0), (10, 0)))),
    ("don check", rules.DonCheck(target=0)),
    ("sheriff check", rules.SheriffCheck(target=11)),
    ("best move", rules.BestMove(guesses=(8, 9, 11))),
]


@pytest.mark.parametrize("where, event", NO_SUCH_SEAT, ids=[f"{w}-{e}" for w, e in NO_SUCH_SEAT])
def test_seats_are_one_to_ten(where: str, event: rules.Event) -> None:
    """R1.1: seats 1–10; seat 0 or 11 is refused, state unchanged."""
    at(where).expect_refused(event, Code.NO_SUCH_SEAT)


NOT_AT_TABLE = [
    ("speech, #7 out", rules.Nominate(by=2, target=7)),
    ("speech, #7 out", rules.Penalty(seat=7, reason="foul")),
    ("speech, #7 out", rules.Penalty(seat=7, reason="dq")),
    ("voting, #7 out", rules.Vote(nominee=5, voters=(7,))),
]


@pytest.mark.parametrize("where, event", NOT_AT_TABLE, ids=[f"{w}-{e}" for w, e in NOT_AT_TABLE])
def test_a_departed_seat_no_longer_acts_or_is_acted_on(where: str, event: rules.Event) -> None:
    """F24 §1.4, R3.5: a player who has left is not nominated, does not vote, and is not
    penalised at the table."""
    at(where).expect_refused(event, Code.NOT_AT_TABLE)


WRONG_PHASE = [
    ("setup", rules.Next()),
    ("setup", rules.Nominate(by=1, target=2)),
    ("setup", rules.Penalty(seat=3, reason="foul")),
    ("setup", rules.DeclareResult(winner="red")),
    ("night 0", rules.StartGame()),
    ("night 0", rules.Nominate(by=1, target=2)),
    ("night 0", rules.Vote(nominee=5, count=3)),
    ("speech", rules.StartGame()),
    ("speech", rules.SetRoles(parse_roles("S1 D2 M3 M4"))),
    ("speech", rules.Vote(nominee=5, count=3)),
    ("speech", rules.RaiseVote(count=6)),
    ("speech", rules.NightKill(target=3)),
    ("speech", rules.Shots(shots=((8, 3), (9, 3), (10, 3)))),
    ("speech", rules.DonCheck(target=3)),
    ("speech", rules.SheriffCheck(target=3)),
    ("voting", rules.Next()),
    ("voting", rules.Nominate(by=1, target=2)),
    ("voting", rules.RaiseVote(count=6)),
    ("tie speech", rules.Vote(nominee=5, count=3)),
    ("tie speech", rules.Nominate(by=5, target=2)),
    ("raise vote", rules.Vote(nominee=5, count=3)),
    ("raise vote", rules.Next()),
    ("last word", rules.Vote(nominee=9, count=3)),
    ("last word", rules.NightKill(target=3)),
    ("shooting", rules.Nominate(by=1, target=2)),
    ("shooting", rules.DonCheck(target=5)),
    ("shooting", rules.SheriffCheck(target=8)),
    ("don check", rules.NightKill(target=4)),
    ("don check", rules.SheriffCheck(target=8)),
    ("sheriff check", rules.DonCheck(target=5)),
    ("best move", rules.SheriffCheck(target=8)),
]


@pytest.mark.parametrize("where, event", WRONG_PHASE, ids=[f"{w}-{e}" for w, e in WRONG_PHASE])
def test_each_event_belongs_to_its_phase(where: str, event: rules.Event) -> None:
    """§2.2: who acts and what is allowed in each state; anything else is refused."""
    at(where).expect_refused(event, Code.WRONG_PHASE)


@pytest.mark.parametrize("event", [rules.Next(), rules.WithdrawFoul(seat=3),
                                   rules.Nominate(by=3, target=4), rules.NightKill(target=3)])
def test_nothing_happens_after_the_game_is_over(event: rules.Event) -> None:
    """§2.1: GAME_OVER is final (a penalty after it is only recorded: test_game_end)."""
    at("game over").expect_refused(event, Code.GAME_OVER)


OTHER = [
    ("voting", rules.Vote(nominee=9, count=3), Code.NOT_CURRENT_NOMINEE),  # F24 §4.4.4
    ("voting", rules.Vote(nominee=5, count=-1), Code.BAD_COUNT),
    ("voting", rules.Vote(nominee=5, count=11), Code.TOO_MANY_HANDS),
    ("voting", rules.Vote(nominee=5, voters=(1, 1)), Code.ALREADY_VOTED),  # seed 4.1.8
    ("voting", rules.Vote(nominee=5, count=2, voters=(1, 2, 3)), Code.BAD_COUNT),
    ("raise vote", rules.RaiseVote(count=11), Code.TOO_MANY_HANDS),
    ("raise vote", rules.RaiseVote(count=-1), Code.BAD_COUNT),
    ("shooting", rules.Shots(shots=((8, 3), (8, 3))), None),
    ("shooting", rules.Shots(shots=((1, 3), (8, 3), (9, 3))), Code.NOT_BLACK),
    ("speech", rules.Penalty(seat=3, reason="4.9.9"), Code.UNKNOWN_REASON),
    ("speech", rules.WithdrawFoul(seat=3), Code.NO_FOUL),
    ("speech", rules.SetName(seat=3, name="  "), Code.BAD_NAME),
    ("setup", rules.SetRoles(parse_roles("D1 D2 M3 S4")), Code.BAD_ROLES),  # R1.1
    ("setup", rules.SetRoles(("civilian",) * 10), Code.BAD_ROLES),
    ("setup", rules.SetRoles(("civilian",) * 9), Code.BAD_ROLES),
    ("setup", rules.SetRoles(("werewolf",) + parse_roles("D2 M3 M4 S5")[1:]), Code.UNKNOWN_ROLE),
]


@pytest.mark.parametrize("where, event, code", OTHER, ids=[f"{w}-{e}" for w, e, _ in OTHER])
def test_other_bad_input_is_refused(where: str, event: rules.Event, code: Code | None) -> None:
    """Counts, voters, shooters, reasons, names and role decks that the rules do not allow."""
    at(where).expect_refused(event, code)


def test_a_refused_event_leaves_the_callers_state_untouched() -> None:
    """``rules.apply`` works on a copy: the state object handed in is the same afterwards, and
    the game goes on from it normally."""
    t = at("voting")
    before = t.state
    with pytest.raises(rules.RuleError):
        rules.apply(before, rules.Vote(nominee=5, count=11))
    assert t.state is before
    t.vote({5: 6, 9: 2, 4: 2})
    t.expect_leaves(5, cause="vote")
