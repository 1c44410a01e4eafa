"""The in-repo guard for MafiaRatings games under any club rules (issue: "for random MafiaRatings
games with any option values, departures and winner agree").

Hypothesis draws a MafiaRatings rules code (every value of every option include/rules.php
defines), plays a whole game under it with our own engine — nominations (withdrawn and replaced
where the rules allow), votes by voter with ties, revotes and raise votes, kills and misses,
checks, the best move, fouls, technical fouls, disqualifications and team losses — exports it in
the MafiaRatings layout, and checks that:

* MafiaRatings' own validity check (``Game::check``, :func:`site_issues`) notes nothing;
* the export, re-imported and replayed under the rules its code names, gives the game's own
  departures (seat, day, phase, cause) and winner, with no fact refused;
* our own JSON protocol replays to the same outcome.

A game the layout cannot express is refused with a named reason, and only for the reasons listed
here, each checked against the game itself.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bot.protocol import ExportError, to_json, to_mafiaratings
from rules import Kind, Phase, Team
from rules.records import replay
from rules.records.mafiaratings import read_config
from rules.records.mafiaratings_check import site_issues
from rules.records.replay import engine_outcome

ROLE_DECK = ("don", "mafia", "mafia", "sheriff", *("civilian",) * 6)  # R1.1
# include/rules.php: the values of each of the 13 options (1 and 2 are scoring only).
SITE_OPTION_VALUES = (2, 1, 1, 3, 4, 2, 2, 2, 3, 2, 2, 3, 2)
MAX_EVENTS = 700


@st.composite
def rules_codes(draw: Any) -> str:
    return "".join(str(draw(st.integers(0, n - 1))) for n in SITE_OPTION_VALUES)


class Game:
    """A game played by drawing each judge's action from the rules' own next step."""

    def __init__(self, draw: Any, config: rules.RulesConfig) -> None:
        self.draw = draw
        self.state = rules.new_game(config)
        self.events: list[rules.Event] = []
        self.removed_in_vote: set[int] = set()  # days with a seat removed while a vote ran
        # (day, round) of the vote rounds a removal left running, and of the round a penalty
        # ended the game in
        self.outlived: set[tuple[int, int]] = set()
        self.ended_in: tuple[int, int] | None = None
        self.kept: dict[int, list[int]] = {}  # day → its single leader the first-day rule kept
        self.checked: dict[str, set[int]] = {"don": set(), "sheriff": set()}
        # the game's style (swarm testing): quiet games reach the draw, tied ones the raise vote
        self.penalty_rate = draw(st.sampled_from([0, 1, 3]))
        self.tie_rate = draw(st.sampled_from([0, 4, 14]))
        self.kill_rate = draw(st.sampled_from([0, 2, 6]))
        self.nominate_rate = draw(st.sampled_from([0, 4, 8, 16]))

    def do(self, event: rules.Event) -> bool:
        try:
            state, notices = rules.apply(self.state, event)
        except rules.RuleError:
            return False
        before = self.state
        for notice in notices:
            if notice.kind is Kind.NOBODY_LEAVES \
                    and notice["why"] in ("first_day_raise_only", "first_day_self_break"):
                self.kept[before.day] = list(notice["seats"])
        if before.phase is Phase.VOTING and any(n.kind is Kind.REMOVED for n in notices):
            self.removed_in_vote.add(before.day)
        if before.phase is Phase.VOTING and before.ballot is not None:
            where = (before.day, before.ballot.round)
            if state.phase is Phase.GAME_OVER and isinstance(event, rules.Penalty):
                self.ended_in = where
            elif any(n.kind is Kind.REMOVED for n in notices) and state.phase is Phase.VOTING \
                    and state.ballot is not None and state.ballot.round == where[1]:
                self.outlived.add(where)
        self.state = state
        self.events.append(event)
        return True

    def pick(self, options: list[Any]) -> Any:
        return self.draw(st.sampled_from(options))

    def chance(self, weight: int, out_of: int = 20) -> bool:
        return weight > 0 and self.draw(st.integers(1, out_of)) <= weight

    def penalty(self) -> None:
        """Now and then a penalty on someone at the table: mostly fouls."""
        state = self.state
        if not state.at_table or not self.chance(self.penalty_rate):
            return  # nobody at the table: the whole table raised (MafiaRatings 7.21.2), last words
        seat = self.pick(state.at_table)
        reasons = ["foul"] * 16 + ["dq", "4.2.1", "ppk"]
        if state.config.technical_fouls:
            reasons += ["tech"] * 3
        self.do(rules.Penalty(seat=seat, reason=self.pick(reasons)))

    def play(self) -> None:
        self.do(rules.SetRoles(roles=tuple(self.draw(st.permutations(ROLE_DECK)))))
        self.do(rules.StartGame())
        for _ in range(MAX_EVENTS):
            if self.state.phase is Phase.GAME_OVER:
                return
            self.penalty()
            if self.state.phase is Phase.GAME_OVER:
                return
            self.step()

    def step(self) -> None:
        state = self.state
        action = rules.next_action(state)
        kind = action.kind
        if kind == "speech":
            self.speech(action.params["seat"])
        elif kind == "vote":
            self.vote(action.params)
        elif kind == "raise_vote":
            voters = self.draw(st.lists(st.sampled_from(state.at_table), unique=True))
            self.do(rules.RaiseVote(count=len(voters), voters=tuple(voters)))
        elif kind == "shooting":
            self.shooting()
        elif kind in ("don_check", "sheriff_check"):
            self.check(kind.split("_")[0])
        elif kind == "best_move":
            guesses = self.draw(st.lists(st.sampled_from(rules.SEATS), unique=True, min_size=1,
                                         max_size=3))
            if not self.chance(15) or not self.do(rules.BestMove(guesses=tuple(guesses))):
                self.do(rules.Next())
        else:
            self.do(rules.Next())

    def speech(self, seat: int) -> None:
        state = self.state
        if self.chance(self.nominate_rate):
            fresh = [n for n in state.at_table if n not in state.nominees]
            self.do(rules.Nominate(by=seat, target=self.pick(fresh or state.at_table)))
            if state.config.nomination_withdrawal is not rules.NominationWithdrawal.NONE \
                    and self.chance(4):
                if self.chance(10):
                    self.do(rules.WithdrawNomination(by=seat))
                self.do(rules.Nominate(by=seat, target=self.pick(self.state.at_table)))
        self.do(rules.Next())

    def vote(self, params: dict[str, Any]) -> None:
        state = self.state
        ballot = state.ballot
        assert ballot is not None
        free = [n for n in state.at_table if n not in ballot.voters]
        left = params["hands_left"]
        count = self.draw(st.integers(0, min(left, len(free))))
        if self.chance(self.tie_rate):  # an even share of the hands: the round ties
            top = max(ballot.counts.values(), default=0)
            share = left // (len(ballot.candidates) - ballot.index)
            count = min(top or share, left, len(free))
        voters = self.draw(st.permutations(free))[:count]
        self.do(rules.Vote(nominee=params["nominee"], count=len(voters), voters=tuple(sorted(voters))))

    def shooting(self) -> None:
        state = self.state
        blacks = [n for n in state.at_table if state.team_of(n) is Team.BLACK]
        target = self.pick(state.at_table)
        if self.chance(self.kill_rate, 8):
            shots = [(b, target) for b in blacks]
        else:
            shots = [(b, self.pick([None, *rules.SEATS])) for b in blacks]
        if self.chance(10):
            self.do(rules.Shots(shots=tuple(shots)))
        else:
            targets = {t for _, t in shots}
            self.do(rules.NightKill(target=target if len(targets) == 1 and None not in targets
                                    else None))

    def check(self, who: str) -> None:
        """A check of a seat not checked before (MafiaRatings keeps one round a seat)."""
        free = [n for n in rules.SEATS if n not in self.checked[who]]
        if free and self.chance(15):
            target = self.pick(free)
            event = rules.DonCheck(target=target) if who == "don" else rules.SheriffCheck(target=target)
            if self.do(event):
                self.checked[who].add(target)
                return
        self.do(rules.Next())


def _script(game: Game) -> str:
    """The game's events, one a line, for a failure's message."""
    return "\n".join(repr(e) for e in game.events)


def _late_penalty_after_leaving(game: Game) -> bool:
    """A disqualification or team loss given to a seat that had already left (in its last
    word): MafiaRatings records one death a player."""
    state = rules.new_game(game.state.config)
    for event in game.events:
        before = state
        state, _ = rules.apply(state, event)
        if isinstance(event, rules.Penalty) and event.reason in ("dq", "4.2.1", "ppk", "tech") \
                and before.seat(event.seat).departure is not None:
            return True
    return False


def _expected_refusal(game: Game, error: ExportError) -> bool:
    if error.code == "two_deaths":
        return _late_penalty_after_leaving(game)
    if error.code == "cut_short_vote":
        # A removal the vote went on after (seed 5.1: the decided nominee's; 5.2: after the
        # result), then a penalty ending the game in that same round: the site keeps no ballots
        # of an unfinished round, and at the vote's start the removal would cancel it.
        return game.ended_in is not None and game.ended_in in game.outlived \
            and error.params["day"] == game.ended_in[0]
    if error.code == "site_check":
        found = re.findall(r"did not vote in round (\d+)", error.params["issues"])
        issues = error.params["issues"].split("; ")
        return bool(found) and len(found) == len(issues) \
            and all(_not_voting_explained(game, int(r) + 1) for r in found)
    return False


def _not_voting_explained(game: Game, day: int) -> bool:
    """Why the site can want a vote of day ``day`` (its round ``day - 1``) that a player did not
    cast: a seat removed while that vote went on (seed 5.2: the result is known) casts no vote
    in it, and the site wants every player alive at a vote to have voted; or the vote was not
    held at all because the day before, the single leader the first-day rule kept at the table
    (MafiaRatings 7.16.2, 7.16.4) was removed after its result — he is not the one leaving by
    that vote, so the next one is not held (seed 5.2, MafiaRatings 9.8) — while the site's
    ``is_voting_canceled`` counts a vote's winner as voted out and holds it."""
    if day in game.removed_in_vote:
        return True
    ban = game.state.vote_bans.get(day)
    return ban is not None and ban[0] == "5.2" and ban[1] in game.kept.get(day - 1, [])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(code=rules_codes(), data=st.data())
def test_random_games_under_any_club_rules_survive_the_mafiaratings_round_trip(
        code: str, data: st.DataObject) -> None:
    config = read_config({"rules": code})
    game = Game(data.draw, config)
    game.play()
    assert game.state.phase is Phase.GAME_OVER, "the draw (F24 §7.7) ends every game"
    names = {n: f"Игрок {n}" for n in rules.SEATS}
    try:
        exported = to_mafiaratings(config, names, game.events)
    except ExportError as error:
        assert _expected_refusal(game, error), f"{error.code}: {error}\n{_script(game)}"
        return
    assert exported["rules"] == code[0] + "00" + code[3:]
    assert site_issues(exported) == []
    report = replay(copy.deepcopy(exported))
    assert report.agrees, report.differences
    expected = engine_outcome(*rules.fold(config, game.events)).as_report()
    assert report.report["departures"] == expected["departures"]
    assert report.report["winner"] == expected["winner"]
    protocol = replay(to_json(config, names, game.events))
    assert protocol.agrees and protocol.report == expected
