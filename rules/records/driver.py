"""Drive the engine through a recorded game, one step at a time.

The driver asks the engine what it expects now (:func:`rules.next_action`, ``state.phase``,
``state.speaker``, ``state.ballot``) and feeds the record's fact for that moment:

* in a speech, the speaker's nomination (so the voting order is the speech order, F24 §4.4.4);
* in a vote, the hands against the current nominee (``Vote(nominee, voters=...)``), never for
  the round's last nominee — the engine derives his count (F24 §4.4.8);
* in a raise vote, the hands for (F24 §4.4.12.3);
* at night, the shots (or the recorded outcome), the checks, the best move (F24 §4.5);
* at every moment, the penalties given then (seed IV): fouls, disqualifications, team losses.

Departures are never fed: the engine must produce them. A fact the engine refuses, or a moment
the record has no fact for, is a *problem* (a disagreement); a penalty whose moment the replay
never reaches is fed at the nearest later moment, with a *note*.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .. import events as ev
from ..config import RulesConfig
from ..engine import apply
from ..errors import RuleError
from .. import notices as nt
from ..notices import Notice
from ..queries import next_action
from ..state import GameState, Phase, new_game
from .model import NIGHT_STEPS, GameFacts, Moment, PenaltyFact

#: Record moments that fall between two engine moments: fed at the next one, as given.
BETWEEN = ("day_start", "voting_start")

MAX_STEPS = 5000  # a game has a few hundred events; this only stops a runaway loop


def clock(state: GameState) -> tuple[int, int]:
    """Where the game is, coarsely: ``(k, 1)`` during day k, ``(k, 2)`` during night k."""
    if state.phase is Phase.SETUP:
        return (0, 0)
    if state.phase is Phase.NIGHT_ZERO:
        return (0, 2)
    if state.phase is Phase.NIGHT:
        return (state.day, 2)
    return (state.day, 1)


def moment_of(state: GameState) -> Moment:
    """The engine's current moment, in :class:`Moment` terms."""
    phase = state.phase
    if phase is Phase.NIGHT_ZERO:
        return Moment("night_zero", 0)
    if phase is Phase.SPEECH:
        return Moment("speech", state.day, seat=state.speaker)
    if phase is Phase.LAST_WORD:
        kind = "morning" if state.last_word_why == "kill" else "last_word"
        return Moment(kind, state.day, seat=state.speaker)
    if phase is Phase.TIE_SPEECH:
        assert state.ballot is not None
        return Moment("tie_speech", state.day, seat=state.speaker, round=state.ballot.round)
    if phase is Phase.LEADER_SPEECH:
        # The records call day 1's leader's 30 s a tie speech, numbered as the revote it stands
        # in for (Polemica's reSpeech after the main vote has voting 1): after the round that
        # kept him, never the moment of a tie speech before that round.
        return Moment("tie_speech", state.day, seat=state.speaker,
                      round=state.ballot.round + 1 if state.ballot is not None else None)
    if phase is Phase.VOTING:
        ballot = state.ballot
        assert ballot is not None
        return Moment("voting", state.day, seat=ballot.candidates[ballot.index], round=ballot.round)
    if phase is Phase.RAISE_VOTE:
        return Moment("raise", state.day)
    if phase is Phase.NIGHT:
        night = state.night
        assert night is not None
        return Moment("night", night.number, step=night.step.value)
    return Moment("end", state.day)


def _index(items: list[int], seat: int | None, missing: int) -> int:
    return items.index(seat) if seat is not None and seat in items else missing


def order_key(m: Moment, state: GameState) -> tuple[int, ...]:
    """A sort key placing ``m`` in the game's course, relative to ``state`` (whose speech order,
    ballot and last-word queue give the order within a day). Day k: start 0, the night
    victim's last word 1, speeches 2, the vote 3 (main round, tie speeches, revotes, raise
    vote), last words 4; night k: 5 with its steps (F24 §4.3–4.5)."""
    d = m.day
    if m.kind == "night_zero":
        return (0, 9)
    if m.kind == "day_start":
        return (d, 0)
    if m.kind == "morning":
        return (d, 1)
    if m.kind == "speech":
        today = state.day == d and state.phase is not Phase.NIGHT
        return (d, 2, _index(state.speech_order, m.seat, 99) if today else 0)
    if m.kind == "voting_start":
        return (d, 3, -1)
    if m.kind in ("voting", "tie_speech"):
        ballot = state.ballot
        same = ballot is not None and state.day == d and (m.round is None or ballot.round == m.round)
        rnd = m.round if m.round is not None else (ballot.round if same and ballot else 0)
        if m.kind == "tie_speech":
            pos = _index(state.tie_queue, m.seat, 0) if same and state.phase is Phase.TIE_SPEECH else 0
            return (d, 3, rnd, 0, pos)
        if m.seat is None or not same or ballot is None:
            return (d, 3, rnd, 1, 0)
        # The last nominee is never voted explicitly (F24 §4.4.8): his moment is the round's end.
        return (d, 3, rnd, 1, _index(ballot.candidates, m.seat, len(ballot.candidates)))
    if m.kind == "raise":
        return (d, 3, 98)
    if m.kind == "last_word":
        today = state.day == d and state.phase is Phase.LAST_WORD
        return (d, 4, _index(state.last_words, m.seat, 0) if today else 0)
    if m.kind == "night":
        step = NIGHT_STEPS.index(m.step) if m.step in NIGHT_STEPS else 0
        return (d, 5, step)
    return (10_000,)


def _matches(p: Moment, m: Moment) -> bool:
    """Does the record's moment ``p`` name the engine's moment ``m``?"""
    if p.kind != m.kind or p.day != m.day:
        return False
    if p.seat is not None and p.seat != m.seat:
        return False
    if p.round is not None and p.round != m.round:
        return False
    if p.kind == "night":
        return (p.step or "shooting") == m.step
    return True


def _leader_speech(p: Moment, leader: Moment) -> bool:
    """Does the record's moment ``p`` name day 1's leader's 30 s (``leader``)? A tie speech of
    his, whatever its round, or his 'last word': MafiaRatings gives the leader who stays its
    time «day kill speaking» (js/src/game.js, 7.16.2 and 7.16.4), as it does a leaver's."""
    if p.kind == "last_word":
        p = replace(p, kind="tie_speech")
    return _matches(replace(p, round=None), leader)


class Driver:
    """Feeds :class:`GameFacts` to the engine. :meth:`run` returns the events it fed."""

    def __init__(self, config: RulesConfig, facts: GameFacts, names: dict[int, str],
                 roles: tuple[str, ...]) -> None:
        self.config = config
        self.facts = facts
        self.names = names
        self.roles = roles
        self.state = new_game(config)
        self.events: list[ev.Event] = []
        self.notices: list[Notice] = []
        self.notes: list[str] = list(facts.notes)
        self.problems: list[str] = list(facts.problems)
        self.pending: list[PenaltyFact] = sorted(facts.penalties, key=lambda p: p.order)
        self.nominated: set[tuple[int, int]] = set()
        self.leader_speech: Moment | None = None  # first-day RAISE_ONLY: the leader's 30 s
        self.vote_day, self.vote_round = 0, 0  # the ballot round being counted
        self.stopped = False

    # --- feeding ------------------------------------------------------------------------------
    def feed(self, event: ev.Event) -> str | None:
        """Apply ``event``; on refusal return why and leave the state as it was. An engine
        failure other than a refusal (a bug) stops the replay and is reported as a problem."""
        try:
            state, notices = apply(self.state, event)
        except RuleError as error:
            return _error_text(error)
        except Exception as error:  # noqa: BLE001 — the oracle reports engine bugs, not crashes
            self.stop(f"the engine failed on {_describe_event(event)} at "
                      f"{moment_of(self.state).describe()}: {type(error).__name__} {error}".rstrip())
            return f"engine failure {type(error).__name__}"
        self.state = state
        self.events.append(event)
        self.notices.extend(notices)
        for notice in notices:
            if isinstance(notice, nt.VotingStarts):
                self.vote_day, self.vote_round = notice.day, notice.round
            elif isinstance(notice, nt.VoteCounted) and notice.derived:
                self.check_derived(notice.nominee, notice.count)
            elif isinstance(notice, nt.LeaderStays):
                self.leader_speech = Moment("tie_speech", self.vote_day, seat=notice.seat)
        return None

    def feed_or_problem(self, event: ev.Event, what: str,
                        fallback: Callable[[], ev.Event | None] | None = None) -> bool:
        error = self.feed(event)
        if error is None:
            return True
        if self.stopped:
            return False
        self.problems.append(f"{what}: the engine refused {event.type} ({error})")
        if fallback is not None:
            other = fallback()
            if other is not None and self.feed(other) is None:
                self.notes.append(f"{what}: fed {_describe_event(other)} instead")
                return True
        return False

    def stop(self, why: str) -> None:
        """Stop the replay here (the first reason is reported; later ones follow from it)."""
        if not self.stopped:
            self.problems.append(why)
        self.stopped = True

    # --- the loop -----------------------------------------------------------------------------
    def run(self) -> list[ev.Event]:
        self.setup()
        for _ in range(MAX_STEPS):
            if self.stopped or self.state.phase is Phase.GAME_OVER:
                break
            moment = moment_of(self.state)
            stop = self.facts.stop_at
            if stop is not None and order_key(moment, self.state) >= order_key(stop, self.state):
                break  # a partial record: it stops before this moment
            position = self.position()
            past_end = clock(self.state) > self.facts.end
            if not past_end:
                self.before(moment)
            self.apply_penalties(moment)  # past the end: only those whose moment never came
            if past_end:
                break  # the record ends here; the engine would play on
            if self.stopped or self.state.phase is Phase.GAME_OVER or self.position() != position:
                continue
            self.act(moment)
        else:
            self.stop("the replay did not finish (step limit)")
        self.after_the_game()
        self.finish()
        return self.events

    def after_the_game(self) -> None:
        """Penalties the record gives after the game (MafiaRatings' game time ``end``): fed once
        the engine's game is over too, where they are recorded and change nothing (F24 §7.9)."""
        if self.stopped or self.state.phase is not Phase.GAME_OVER:
            return
        for penalty in [p for p in self.pending if p.moment.kind == "end"]:
            self.pending.remove(penalty)
            self.feed_or_problem(ev.Penalty(seat=penalty.seat, reason=penalty.reason),
                                 f"{penalty.source} ({penalty.moment.describe()})")

    def position(self) -> tuple[Any, ...]:
        s = self.state
        ballot = (s.ballot.round, s.ballot.index) if s.ballot else None
        night = s.night.step if s.night else None
        return (s.phase, s.day, s.speaker, ballot, night, len(s.last_words), len(s.tie_queue))

    def setup(self) -> None:
        for seat, name in sorted(self.names.items()):
            if self.feed(ev.SetName(seat=seat, name=name)) is not None:
                self.notes.append(f"seat {seat}: the name {name!r} was not set")
        error = self.feed(ev.SetRoles(roles=self.roles))
        if error is not None:
            self.stop(f"roles: the engine refused the dealt cards ({error})")
            return
        self.feed(ev.StartGame())

    def before(self, moment: Moment) -> None:
        """A speaker's nomination comes in his own speech (F24 §4.4.2)."""
        if moment.kind != "speech" or moment.seat is None:
            return
        key = (moment.day, moment.seat)
        day = self.facts.days.get(moment.day)
        if key in self.nominated or day is None or moment.seat not in day.nominations:
            return
        self.nominated.add(key)
        target = day.nominations[moment.seat]
        self.feed_or_problem(ev.Nominate(by=moment.seat, target=target),
                             f"day {moment.day}: seat {moment.seat} nominating seat {target}")

    def apply_penalties(self, moment: Moment) -> None:
        """Feed every penalty given at this moment, or at an earlier one the replay never had.
        Stops as soon as one moves the game on (a removal ending a speech or cancelling the
        vote): the loop then looks at the new moment."""
        leader = self.leader_speech
        position = self.position()
        for penalty in list(self.pending):
            if self.state.phase is Phase.GAME_OVER or self.position() != position:
                return
            exact = _matches(penalty.moment, moment) or (
                leader is not None and _leader_speech(penalty.moment, leader))
            late = not exact and order_key(penalty.moment, self.state) < order_key(moment, self.state)
            if not (exact or late):
                continue
            self.pending.remove(penalty)
            if late and penalty.moment.kind not in BETWEEN:
                self.notes.append(
                    f"{penalty.source}: {penalty.reason} of seat {penalty.seat} given at "
                    f"{penalty.moment.describe()}, fed at {moment.describe()} (the replay has no "
                    f"such moment)")
            self.feed_or_problem(ev.Penalty(seat=penalty.seat, reason=penalty.reason),
                                 f"{penalty.source} ({penalty.moment.describe()})")
        self.leader_speech = None

    def act(self, moment: Moment) -> None:
        action = next_action(self.state)
        kind = action.kind
        if kind in ("next", "speech", "last_word", "tie_speech", "leader_speech"):
            self.feed_or_problem(ev.Next(), moment.describe())
        elif kind == "vote":
            self.vote(moment, action.params)
        elif kind == "raise_vote":
            self.raise_vote(moment, action.params)
        elif kind == "shooting":
            self.shooting(action.params["night"])
        elif kind == "don_check":
            night = self.facts.nights.get(action.params["night"])
            self.check(ev.DonCheck, night.don_check if night else None, action.params["night"], "don")
        elif kind == "sheriff_check":
            night = self.facts.nights.get(action.params["night"])
            self.check(ev.SheriffCheck, night.sheriff_check if night else None,
                       action.params["night"], "sheriff")
        elif kind == "best_move":
            self.best_move()
        else:
            self.stop(f"{moment.describe()}: the engine expects {kind!r}, which the replay cannot give")

    # --- the vote -----------------------------------------------------------------------------
    def vote(self, moment: Moment, params: dict[str, Any]) -> None:
        day, rnd, nominee = moment.day, params["round"], params["nominee"]
        facts = self.facts.days.get(day)
        if facts is None or rnd >= len(facts.rounds):
            self.stop(f"day {day}: the engine holds vote round {rnd} on {params['nominees']}, "
                      f"but the record has no ballots for it")
            return
        voters = tuple(sorted(v for v, c in facts.rounds[rnd].items() if c == nominee))

        def only_valid() -> ev.Event:
            ballot = self.state.ballot
            done = set(ballot.voters) if ballot else set()
            ok = tuple(v for v in voters if v in self.state.at_table and v not in done)
            return ev.Vote(nominee=nominee, count=len(ok), voters=ok)

        if not self.feed_or_problem(ev.Vote(nominee=nominee, count=len(voters), voters=voters),
                                    f"day {day} round {rnd}: the vote on seat {nominee}", only_valid):
            self.stop(f"day {day} round {rnd}: the vote on seat {nominee} could not be fed")

    def check_derived(self, nominee: int, count: int) -> None:
        """The last nominee's hands are derived (F24 §4.4.8); compare them with the record."""
        day, rnd = self.vote_day, self.vote_round
        facts = self.facts.days.get(day)
        if facts is None or rnd >= len(facts.rounds):
            return
        recorded = sum(1 for c in facts.rounds[rnd].values() if c == nominee)
        if recorded != count:
            self.problems.append(
                f"day {day} round {rnd}: seat {nominee} (the last nominee) gets {count} hands "
                f"by F24 §4.4.8, the record has {recorded}")

    def raise_vote(self, moment: Moment, params: dict[str, Any]) -> None:
        facts = self.facts.days.get(moment.day)
        at_table = params["at_table"]
        if facts is not None and facts.raise_voters and len(facts.raise_voters) == facts.raise_yes \
                and self.feed(ev.RaiseVote(voters=facts.raise_voters)) is None:
            return  # the hands by voter, for the protocol (a voter not at the table: by count)
        if facts is not None and facts.raise_yes is not None:
            event = ev.RaiseVote(count=facts.raise_yes)
        elif facts is not None and facts.raise_passed is not None:
            count = at_table if facts.raise_passed else 0
            self.notes.append(
                f"day {moment.day}: the record has no raise-vote ballot; its outcome "
                f"({'all leave' if facts.raise_passed else 'all stay'}) is taken from the "
                f"recorded departures ({count} of {at_table} hands fed)")
            event = ev.RaiseVote(count=count)
        else:
            self.stop(f"day {moment.day}: the engine holds a raise vote on {params['seats']}, "
                      f"but the record has no raise-vote ballot")
            return
        if not self.feed_or_problem(event, f"day {moment.day}: the raise vote"):
            self.stop(f"day {moment.day}: the raise vote could not be fed")

    # --- the night ----------------------------------------------------------------------------
    def shooting(self, number: int) -> None:
        night = self.facts.nights.get(number)
        what = f"night {number}: the shooting"
        if night is not None and night.shots:
            def kill_only() -> ev.Event:
                return ev.NightKill(target=None)
            ok = self.feed_or_problem(ev.Shots(shots=night.shots), what, kill_only)
        elif night is not None and night.kill_known:
            ok = self.feed_or_problem(ev.NightKill(target=night.kill), what)
        else:
            ok = self.feed_or_problem(ev.Next(), what)  # nobody shot: a miss (F24 §4.5.5)
        if not ok:
            self.stop(f"{what} could not be fed")

    def check(self, kind: type, target: int | None, number: int, who: str) -> None:
        if target is None:
            self.feed_or_problem(ev.Next(), f"night {number}: the {who}'s check")
            return
        if not self.feed_or_problem(kind(target=target), f"night {number}: the {who} checking seat {target}",
                                    lambda: ev.Next()):
            self.stop(f"night {number}: the {who}'s check could not be fed")

    def best_move(self) -> None:
        guesses = self.facts.best_move
        if guesses:
            if self.feed_or_problem(ev.BestMove(guesses=guesses), "night 1: the best move",
                                    lambda: ev.Next()):
                return
            self.stop("night 1: the best move could not be fed")
            return
        self.feed_or_problem(ev.Next(), "night 1: the best move")

    # --- the end ------------------------------------------------------------------------------
    def finish(self) -> None:
        """Record facts the replay never used (each a disagreement, or a note after the end)."""
        last_day = self.state.day
        for day, facts in sorted(self.facts.days.items()):
            if day > last_day:
                continue
            for by, target in sorted(facts.nominations.items()):
                if (day, by) not in self.nominated:
                    self.problems.append(
                        f"day {day}: the record has seat {by} nominating seat {target}, but seat "
                        f"{by} had no speech that day in the replay")
        for penalty in self.pending:
            self.notes.append(f"{penalty.source}: {penalty.reason} of seat {penalty.seat} at "
                              f"{penalty.moment.describe()} was not fed (the replay ended first)")
        self.give_extras()

    def give_extras(self) -> None:
        """The judge's extra points of the record, after the result (F24/S24 §8.4), as the
        club's judge gave them: approved (the chief judge's approval, §8.4.3, is the record's to
        keep); one the rules refuse (a draw, §8.4.5; over a limit) is a note, not a difference —
        the points are not the outcome."""
        if not self.facts.extras:
            return
        if self.state.phase is not Phase.GAME_OVER:
            self.notes.append("extra points: not fed (the replay did not reach the result)")
            return
        for seat, points in sorted(self.facts.extras.items()):
            error = self.feed(ev.Extra(seat=seat, points=points, approved=True))
            if error is not None and not self.stopped:
                self.notes.append(f"seat {seat}: extra points {points} not fed ({error})")


def _error_text(error: RuleError) -> str:
    params = ", ".join(f"{k}={v}" for k, v in error.params.items())
    return f"{error.code.value}: {params}" if params else error.code.value


def _describe_event(event: ev.Event) -> str:
    fields = {k: v for k, v in ev.to_dict(event).items() if k != "type"}
    return f"{event.type} {fields}" if fields else event.type


def drive(config: RulesConfig, facts: GameFacts, names: dict[int, str],
          roles: tuple[str, ...]) -> Driver:
    """Run a :class:`Driver` over ``facts`` and return it (events, notes, problems, state)."""
    driver = Driver(config, facts, names, roles)
    driver.run()
    return driver
