"""A sample notice of every kind, built with its typed constructor, and the variants that pick
the catalogs' other sentences (tests/test_render.py, tests/scenarios/test_rule_and_why.py,
tests/test_notices.py)."""

from __future__ import annotations

from typing import Iterator

import rules
from bot.render import END_REASONS, NO_VOTE_REASONS
from rules import notices as nt

# Don #2, mafia #5 and #7, Sheriff #8, the rest civilians (F24 §1.1).
ROLES = ("civilian", "don", "civilian", "civilian", "mafia", "civilian", "mafia", "sheriff",
         "civilian", "civilian")
ALL_ROLES = {n: r for n, r in enumerate(ROLES, 1)}

#: One notice of each kind (tests/test_notices.py checks that every kind has one).
SAMPLES: tuple[rules.Notice, ...] = (
    nt.NameSet(seat=3, name="Вася"),
    nt.RolesSet(known=True),
    nt.GameStarted(preset="seed", roles_known=True, options={}),
    nt.NightZero(seconds=60),
    nt.DayStarts(day=2, opener=2, at_table=9),
    nt.NightResult(night=1, killed=4, removed=(), killed_removed=None),
    nt.LastWord(seat=4, seconds=60, why="kill"),
    nt.LastWordSkipped(seats=(4,), why="decisive"),
    nt.Speech(seat=5, seconds=60, silenced=False, short=False, option=False, day=2),
    nt.SpeechSkipped(seat=5, why="absent"),
    nt.Nominated(by=1, target=3, nominees=(3,)),
    nt.NominationWithdrawn(by=1, target=3, nominees=()),
    nt.VoteNotHeld(day=1, why="4.4.10", seat=None, cause=None, reason=None),
    nt.VotingStarts(day=2, nominees=(3, 7), round=0),
    nt.VoteCounted(nominee=3, count=4, derived=False),
    nt.OffBallot(seat=8, nominees=(7,), last=7),
    nt.Tie(seats=(3, 7), round=0),
    nt.TieSpeech(seat=3, seconds=30),
    nt.RaiseVote(seats=(3, 7), at_table=10),
    nt.RaiseResult(seats=(3, 7), yes=6, at_table=10, passed=True),
    nt.NobodyLeaves(why="raise_failed", seats=(3, 7)),
    nt.LeavesByVote(seats=(3,), cause="vote", counts={3: 6, 7: 4}),
    nt.LeaderStays(seat=3, seconds=30),
    nt.VoteCancelled(day=2, seat=5, rule="5.1", cause="fouls", reason="foul"),
    nt.NextVoteCancelled(day=3, seat=5, rule="5.2", cause="disqualification", reason="4.2.7"),
    nt.NightFalls(night=2),
    nt.ShootingResult(killed=4, why="kill", shots=((2, 4), (5, 4), (7, 4))),
    nt.DonCheck(target=8, sheriff=True),
    nt.SheriffCheck(target=2, black=True),
    nt.BestMoveDue(seat=4, seconds=20),
    nt.BestMove(seat=4, guesses=(2, 5, 7)),
    nt.BestMoveHits(seat=4, hits=3),
    nt.BestMoveSkipped(seat=4, why="day1_departures", rule="7.10", departed=2),
    nt.NightStep(step="don_check", seconds=10),
    nt.Warning(seat=5, reason="warning"),
    nt.Foul(seat=5, count=2, reason="4.1.3"),
    nt.ThirdFoul(seat=5, effect="silence", may_nominate=True, short=False, seconds=30),
    nt.TechFoul(seat=5, count=1, reason="tech"),
    nt.Removed(seat=2, cause="fouls", reason="4.1.1", tournament=False, last_word=None),
    nt.RemovedDetails(seat=2, reason="4.2.2", tournament=False),
    nt.TeamLoss(seat=4, team="black", reason="4.3.1", final_minute=False),
    nt.FoulWithdrawn(seat=5, count=1),
    nt.PenaltyAfterResult(seat=4, reason="4.2.4", severity="disqualifying", over=False),
    nt.ResultFixed(winner="red", why="all_black_out"),
    nt.GameOver(winner="red", why="all_black_out", roles=ALL_ROLES),
    nt.JudgeMustCheckEnd(at_table=7),
    nt.ExtraPoints(seat=3, points="0.4", approved=False),
    nt.BadPlay(seat=3, item="8.5.2", points="-0.5", withdrawn=False),
)


def variants() -> Iterator[rules.Notice]:
    """Every sample, then the notices that pick the catalogs' other sentences."""
    yield from SAMPLES
    for why in NO_VOTE_REASONS:
        seat = 5 if why in ("5.1", "5.2") else None
        yield nt.VoteNotHeld(day=2, why=why, seat=seat, cause=None, reason=None)
        yield nt.NobodyLeaves(why=why, seats=(3, 7))
    for cause, reason in (("fouls", "foul"), ("disqualification", "4.2.7")):
        yield nt.VoteNotHeld(day=2, why="5.1", seat=5, cause=cause, reason=reason)
        yield nt.VoteCancelled(day=2, seat=5, rule="5.1", cause=cause, reason=None)
        yield nt.NextVoteCancelled(day=3, seat=5, rule="5.2", cause=cause, reason=reason)
    for step in rules.NightStep:
        yield nt.NightStep(step=step.value, seconds=10)
    yield nt.NightResult(night=1, killed=None, removed=(), killed_removed=None)
    for removed in ((), (9,), (3, 9)):
        yield nt.NightResult(night=2, killed=None, removed=removed, killed_removed=None)
        yield nt.NightResult(night=2, killed=4, removed=removed, killed_removed=None)
    for cause in ("disqualification", "fouls"):
        yield nt.NightResult(night=2, killed=4, removed=(4,), killed_removed=cause)
    yield nt.OffBallot(seat=7, nominees=(), last=None)
    yield nt.OffBallot(seat=7, nominees=(8, 9), last=None)
    yield nt.Speech(seat=5, seconds=0, silenced=True, short=False, option=False, day=2)
    yield nt.Speech(seat=5, seconds=30, silenced=False, short=True, option=False, day=5)
    yield nt.Speech(seat=5, seconds=30, silenced=False, short=True, option=True, day=5)
    yield nt.VotingStarts(day=2, nominees=(3,), round=0)
    yield nt.VotingStarts(day=2, nominees=(3, 7), round=1)
    yield nt.VoteCounted(nominee=7, count=1, derived=True)
    yield nt.RaiseResult(seats=(3, 7), yes=5, at_table=10, passed=False)
    yield nt.LeavesByVote(seats=(3, 7), cause="raise", counts={3: 5, 7: 5})
    yield nt.RolesSet(known=False)
    yield nt.BestMoveSkipped(seat=4, why="removed", rule="4.5", departed=0)
    yield nt.BestMoveSkipped(seat=4, why="off", rule=None, departed=3)
    yield nt.LastWordSkipped(seats=(3, 7), why="decisive")
    for killed, why in ((None, "miss"), (None, "not_at_table")):
        yield nt.ShootingResult(killed=killed, why=why, shots=())
    for silent in ((), (7,), (5, 7)):
        yield nt.ShootingResult(killed=None, why="miss", shots=((2, 1),), silent=silent)
    for answer in (False, None):
        yield nt.DonCheck(target=8, sheriff=answer)
        yield nt.SheriffCheck(target=2, black=answer)
    yield nt.Warning(seat=5, reason="4.1.2")
    yield nt.Foul(seat=5, count=1, reason="foul")
    for effect in ("short_speech", "none"):
        yield nt.ThirdFoul(seat=5, effect=effect, may_nominate=True, short=False, seconds=30)
    yield nt.ThirdFoul(seat=5, effect="silence", may_nominate=True, short=True, seconds=30)
    yield nt.Removed(seat=2, cause="disqualification", reason="4.2.7", tournament=False, last_word=None)
    yield nt.Removed(seat=2, cause="disqualification", reason="dq", tournament=False, last_word=None)
    yield nt.Removed(seat=2, cause="disqualification", reason="4.2.10", tournament=True, last_word=None)
    yield nt.Removed(seat=2, cause="disqualification", reason=None, tournament=True, last_word=None)
    for last_word in ("cut", "lost", "killed"):  # tonight's victim's is the judge's (private)
        yield nt.Removed(seat=2, cause="fouls", reason="foul", tournament=False, last_word=last_word,
                         private=last_word == "killed")
    yield nt.RemovedDetails(seat=2, reason="dq", tournament=True)
    yield nt.TeamLoss(seat=4, team="red", reason="ppk", final_minute=False)
    yield nt.TeamLoss(seat=4, team="black", reason="4.2.4", final_minute=True)
    yield nt.TechFoul(seat=5, count=2, reason="tech")
    yield nt.Removed(seat=2, cause="disqualification", reason="tech", tournament=False, last_word=None)
    for over in (False, True):
        for applied in (False, True):
            yield nt.PenaltyAfterResult(seat=4, reason="4.2.4", severity="disqualifying", over=over,
                                        applied=applied)
    for why in END_REASONS:
        for winner in ("red", "black", None):
            yield nt.GameOver(winner=winner, why=why, roles=None)
            yield nt.ResultFixed(winner=winner, why=why)
    yield nt.ExtraPoints(seat=3, points="0", approved=False)
    yield nt.ExtraPoints(seat=3, points="1.3", approved=True)
    for preset, scoring in rules.SCORING.items():
        for item in scoring.bad_plays:
            for withdrawn in (False, True):
                yield nt.BadPlay(seat=3, item=item.code, points="-0.4", withdrawn=withdrawn,
                                 rules=preset)
    for rule in rules.DrawDeclared:
        for nights in (1, 3, 4, 5):
            yield nt.GameOver(winner=None, why="draw", roles=ALL_ROLES, draw_rule=rule.value,
                              nights=nights)
