"""What a game's log says happened, day by day and night by night: the facts a protocol shows.

:func:`read_game` folds the log (``rules.effective``: undone events are skipped) one event at a
time and keeps what a score sheet and an export need but the final state forgets: each day's
nominations (F24 §4.4.2–4.4.4), every ballot round with its hands and, when the judge recorded
them, its voters (F24 §4.4.5–4.4.12), the raise vote (F24 §4.4.12.3), why a vote was not held
(seed 5.1, 5.2; F24 §4.4.10), and each penalty with the moment it was given (seed IV).

Moments are :class:`rules.records.model.Moment` values taken by
:func:`rules.records.driver.moment_of`, the same function the record importer matches its
penalties with — so an export that writes them replays them at the same moment.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import Cause, Departure, Event, GameState, Notice, Phase, Result, Role, Severity
from rules import notices as nt
from rules.records.driver import moment_of
from rules.records.model import Moment
from rules.records.replay import engine_outcome


ERROR_CODES: tuple[str, ...] = (
    "not_finished", "roles_unknown", "bad_log", "votes_by_count", "two_checks", "two_deaths",
    "options", "replay_differs", "site_check", "cut_short_vote",
)


class ExportError(ValueError):
    """A protocol or export that cannot be made faithfully. ``code`` names the obstacle (a
    ``protocol-error-<code>`` message in the catalogs), ``params`` fill the message; ``str()``
    says it in English for logs. Codes (:data:`ERROR_CODES`): ``not_finished``,
    ``roles_unknown``, ``bad_log`` (``error``), ``votes_by_count`` (``day``, ``round``, ``seat``),
    ``two_checks`` (``who``, ``seat``), ``two_deaths`` (``seat``, ``what``: a reason code),
    ``options`` (``options``), ``replay_differs`` (``differences``), ``site_check``
    (``issues``: what MafiaRatings' own check, ``Game::check``, would note), ``cut_short_vote``
    (``day``, ``seat``: a removal after the vote's result was known, in a round the game's end
    cut short)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass
class BallotRound:
    """One round of a day's vote (round 0 = the main vote, 1 = the first revote, F24 §4.4.12).

    ``counts`` are the hands against each candidate; ``voters`` the seats that raised them, or
    ``None`` for a candidate whose hands the judge entered as a count only. ``derived`` is the
    last candidate, whose hands are the ones not raised before (F24 §4.4.8)."""

    round: int
    candidates: list[int]
    counts: dict[int, int] = field(default_factory=dict)
    voters: dict[int, tuple[int, ...] | None] = field(default_factory=dict)
    derived: int | None = None

    def target_of(self, seat: int) -> int | None:
        """The candidate ``seat`` voted against in this round, if the voters are known."""
        for candidate, voters in self.voters.items():
            if voters is not None and seat in voters:
                return candidate
        return None


@dataclass
class RaiseRecord:
    """The vote for raising all tied players (F24 §4.4.12.3). ``voters`` is ``None`` when the
    judge entered a count only."""

    seats: list[int]
    yes: int
    at_table: int
    passed: bool
    voters: tuple[int, ...] | None


@dataclass
class DayRecord:
    """Day k: who was at the table when it began, the nominations in order, the vote rounds,
    the raise vote, and how the vote ended."""

    number: int
    at_table: list[int]
    nominations: list[tuple[int, int]] = field(default_factory=list)  # (by, target)
    rounds: list[BallotRound] = field(default_factory=list)
    raise_vote: RaiseRecord | None = None
    not_held: tuple[str, int | None] | None = None  # rules.vote_plan's (why, seat)
    cancelled: tuple[str, int] | None = None  # a removal during the vote (seed 5.1): rule, seat
    nobody_leaves: str | None = None  # Kind.NOBODY_LEAVES why
    leader_stays: int | None = None  # first-day RAISE_ONLY (MafiaRatings 7.16.2)
    left: list[int] = field(default_factory=list)  # by the vote
    left_cause: str | None = None  # "vote" | "raise"

    @property
    def vote_reached(self) -> bool:
        """Did the day reach its vote (held, not held or cancelled)?"""
        return bool(self.rounds or self.not_held or self.cancelled)


@dataclass
class NightRecord:
    """Night k (k ≥ 1): the blacks at the table when it fell, how the shooting was recorded
    (``"shots"``, ``"judge"`` for a kill or miss entered as an outcome, ``"none"`` when nobody
    shot) and what the final state holds of it (F24 §4.5)."""

    number: int
    blacks: list[int]
    recorded: str = "none"
    killed: int | None = None
    shots: list[tuple[int, int | None]] = field(default_factory=list)
    don_check: int | None = None
    sheriff_check: int | None = None
    best_move: tuple[int, ...] | None = None


@dataclass
class PenaltyRecord:
    """A penalty (seed IV) and the moment it was given. ``number`` is the foul's number for a
    foul (1–4); ``index`` the position of its event in the effective log (the order penalties
    at one moment were given in; a 4th foul and the removal it brings share it)."""

    seat: int
    reason: str
    severity: Severity
    moment: Moment
    number: int = 0
    applied: bool = True  # False: recorded only, F24/S24 §6.8.6 exempts it after the result
    index: int = 0


@dataclass
class GameRecord:
    """A game's protocol facts. ``state`` and ``notices`` are the fold's."""

    config: rules.RulesConfig
    state: GameState
    notices: list[Notice]
    events: list[Event]  # the effective events (undone ones dropped)
    days: list[DayRecord] = field(default_factory=list)
    nights: list[NightRecord] = field(default_factory=list)
    fouls: dict[int, list[PenaltyRecord]] = field(default_factory=dict)
    tech_fouls: dict[int, list[PenaltyRecord]] = field(default_factory=dict)  # MafiaRatings 9.6.2
    warnings: dict[int, list[PenaltyRecord]] = field(default_factory=dict)
    removals: dict[int, PenaltyRecord] = field(default_factory=dict)  # the removing penalty
    # a 4th or disqualifying foul given after leaving by the vote or the kill: in or before one's
    # last word, or to tonight's victim (seed 4.5; SC-killed-and-removed; docs/rules.md §6.5)
    late_removals: dict[int, PenaltyRecord] = field(default_factory=dict)
    # penalties once the result is fixed or the game over: recorded, the result stands (F24 §7.9)
    after_result: list[PenaltyRecord] = field(default_factory=list)
    team_loss: PenaltyRecord | None = None
    ended_at: int | None = None  # the index of the event that ended the game

    # --- views ------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    @property
    def result(self) -> Result | None:
        return self.state.result if self.finished else None

    def name(self, seat: int) -> str | None:
        return self.state.seat(seat).name

    def role(self, seat: int) -> Role | None:
        return self.state.seat(seat).role

    def departure(self, seat: int) -> Departure | None:
        return self.state.seat(seat).departure

    def day(self, number: int) -> DayRecord | None:
        return next((d for d in self.days if d.number == number), None)

    def night(self, number: int) -> NightRecord | None:
        return next((n for n in self.nights if n.number == number), None)

    def shown_days(self) -> list[DayRecord]:
        """The days worth a column: those that reached their vote, had nominations or saw
        someone leave. A last day that ended in its morning (F24 §7.9: the result is announced
        after the night victim's last word) is left out."""
        left_on = {(how[1], how[2]) for seat in rules.SEATS
                   if (how := departure_of(self, seat)) is not None}
        out = []
        for day in self.days:
            if day.vote_reached or day.nominations or (day.number, "day") in left_on:
                out.append(day)
        return out

    def outcome(self) -> dict[str, Any]:
        """The outcome in the replay report's shape: ``{"winner", "departures",
        "cancelled_votes"}`` (``rules.records.ReplayReport.report``)."""
        return engine_outcome(self.state, self.notices).as_report()


class _Walker:
    """Folds the log one event at a time and files each notice under its day or night."""

    def __init__(self, config: rules.RulesConfig, names: dict[int, str] | None) -> None:
        self.state = rules.new_game(config, names)
        self.record = GameRecord(config=config, state=self.state, notices=[], events=[])

    def step(self, event: Event) -> None:
        before = self.state
        try:
            after, notices = rules.apply(before, event)
        except rules.RuleError as error:
            raise ExportError("bad_log", f"the game log does not replay: {event.type} refused "
                                         f"({error.code.value})", error=error.code.value) from None
        self.state = after
        self.record.events.append(event)
        self.record.notices.extend(notices)
        for notice in notices:
            self.see(notice, before, event)

    @property
    def today(self) -> DayRecord:
        return self.record.days[-1]

    @property
    def at(self) -> int:
        """The index of the event being filed in the effective log."""
        return len(self.record.events) - 1

    @functools.singledispatchmethod
    def see(self, notice: Notice, before: GameState, event: Event) -> None:
        """File ``notice``, said by ``event`` applied to ``before``, under its day or night: a
        table keyed by the notice's class (registered below); the kinds a protocol does not
        need are passed over here."""

    @see.register
    def _day_starts(self, notice: nt.DayStarts, before: GameState, event: Event) -> None:
        self.record.days.append(DayRecord(number=notice.day, at_table=list(self.state.at_table)))

    @see.register
    def _nominated(self, notice: nt.Nominated, before: GameState, event: Event) -> None:
        self.today.nominations.append((notice.by, notice.target))

    @see.register
    def _withdrawn(self, notice: nt.NominationWithdrawn, before: GameState, event: Event) -> None:
        # MafiaRatings 7.5: only the final ones count
        self.today.nominations.remove((notice.by, notice.target))

    @see.register
    def _not_held(self, notice: nt.VoteNotHeld, before: GameState, event: Event) -> None:
        self.today.not_held = (notice.why, notice.seat)

    @see.register
    def _voting_starts(self, notice: nt.VotingStarts, before: GameState, event: Event) -> None:
        self.today.rounds.append(BallotRound(round=notice.round, candidates=list(notice.nominees)))

    @see.register
    def _off_ballot(self, notice: nt.OffBallot, before: GameState, event: Event) -> None:
        if not (self.record.days and self.today.rounds):
            return
        # seed 5.2: a nominee removed from the table during the vote is off the ballot
        ballot = self.today.rounds[-1]
        if notice.seat in ballot.candidates:
            ballot.candidates.remove(notice.seat)
        ballot.counts.pop(notice.seat, None)
        ballot.voters.pop(notice.seat, None)

    @see.register
    def _vote_counted(self, notice: nt.VoteCounted, before: GameState, event: Event) -> None:
        self.counted(before, event, notice.nominee, notice.count, notice.derived)

    @see.register
    def _raise_result(self, notice: nt.RaiseResult, before: GameState, event: Event) -> None:
        self.today.raise_vote = RaiseRecord(list(notice.seats), notice.yes, notice.at_table,
                                            notice.passed, _voters(event, notice.yes))

    @see.register
    def _nobody_leaves(self, notice: nt.NobodyLeaves, before: GameState, event: Event) -> None:
        self.today.nobody_leaves = notice.why

    @see.register
    def _leader_stays(self, notice: nt.LeaderStays, before: GameState, event: Event) -> None:
        self.today.leader_stays = notice.seat

    @see.register
    def _leaves_by_vote(self, notice: nt.LeavesByVote, before: GameState, event: Event) -> None:
        self.today.left, self.today.left_cause = list(notice.seats), notice.cause

    @see.register
    def _vote_cancelled(self, notice: nt.VoteCancelled, before: GameState, event: Event) -> None:
        if self.record.days and notice.day == self.today.number \
                and before.phase in (Phase.VOTING, Phase.TIE_SPEECH, Phase.RAISE_VOTE):
            self.today.cancelled = (notice.rule, notice.seat)

    @see.register
    def _night_falls(self, notice: nt.NightFalls, before: GameState, event: Event) -> None:
        blacks = [n for n in self.state.at_table if self.state.team_of(n) is rules.Team.BLACK]
        self.record.nights.append(NightRecord(number=notice.night, blacks=blacks))

    @see.register
    def _shooting_result(self, notice: nt.ShootingResult, before: GameState, event: Event) -> None:
        recorded = {"shots": "shots", "night_kill": "judge"}.get(event.type, "none")
        self.record.nights[-1].recorded = recorded

    # --- penalties (seed IV), each with the moment it was given ---------------------------------
    @see.register
    def _foul(self, notice: nt.Foul | nt.TechFoul, before: GameState, event: Event) -> None:
        fouls = self.record.fouls if isinstance(notice, nt.Foul) else self.record.tech_fouls
        fouls.setdefault(notice.seat, []).append(
            _penalty(before, event, notice.seat, notice.reason, number=notice.count,
                     index=self.at))

    @see.register
    def _foul_withdrawn(self, notice: nt.FoulWithdrawn, before: GameState, event: Event) -> None:
        self.record.fouls[notice.seat].pop()

    @see.register
    def _warning(self, notice: nt.Warning, before: GameState, event: Event) -> None:
        self.record.warnings.setdefault(notice.seat, []).append(
            _penalty(before, event, notice.seat, notice.reason, index=self.at))

    @see.register
    def _removed(self, notice: nt.Removed, before: GameState, event: Event) -> None:
        left_before = before.seat(notice.seat).departure is not None
        removals = self.record.late_removals if left_before else self.record.removals
        removals[notice.seat] = _penalty(before, event, notice.seat, notice.reason, index=self.at)

    @see.register
    def _team_loss(self, notice: nt.TeamLoss, before: GameState, event: Event) -> None:
        self.record.team_loss = _penalty(before, event, notice.seat, notice.reason,
                                         index=self.at)

    @see.register
    def _after_result(self, notice: nt.PenaltyAfterResult, before: GameState, event: Event) -> None:
        penalty = _penalty(before, event, notice.seat, notice.reason, index=self.at)
        penalty.severity, penalty.applied = Severity(notice.severity), notice.applied
        self.record.after_result.append(penalty)

    @see.register
    def _game_over(self, notice: nt.GameOver, before: GameState, event: Event) -> None:
        self.record.ended_at = self.at

    def counted(self, before: GameState, event: Event, nominee: int, count: int,
                derived: bool) -> None:
        ballot = self.today.rounds[-1]
        ballot.counts[nominee] = count
        if not derived:
            ballot.voters[nominee] = _voters(event, count)
            return
        # F24 §4.4.8: the hands not raised before go to the last nominee.
        ballot.derived = nominee
        known = [v for c, v in ballot.voters.items() if c != nominee]
        if any(v is None for v in known):
            ballot.voters[nominee] = None
            return
        raised = {seat for v in known for seat in (v or ())}
        removed = {s for s in before.at_table if s not in self.state.at_table
                   and (d := self.state.seat(s).departure) is not None
                   and d.cause not in (Cause.VOTE, Cause.RAISE)}  # by a penalty in this event
        rest = tuple(s for s in before.at_table if s not in raised and s not in removed)
        ballot.voters[nominee] = rest if len(rest) == count else None

    def finish(self) -> GameRecord:
        record = self.record
        record.state = self.state
        for night in record.nights:
            final = next((n for n in self.state.nights if n.number == night.number), None)
            if final is None:
                continue
            night.killed, night.shots = final.killed, list(final.shots)
            night.don_check, night.sheriff_check = final.don_check, final.sheriff_check
            night.best_move = final.best_move
        return record


def _penalty(before: GameState, event: Event, seat: int, reason: str | None,
             number: int = 0, index: int = 0) -> PenaltyRecord:
    """The penalty ``event`` (the log's ``index``-th) gave ``seat`` in ``before``: its reason
    (the event's code, else the notice's), severity (the preset's for that reason) and moment."""
    code = getattr(event, "reason", None) or reason or ""
    severity = before.config.reasons[code].severity if code in before.config.reasons else Severity.FOUL
    return PenaltyRecord(seat, code, severity, moment_of(before), number=number, index=index)


def _voters(event: Event, count: int) -> tuple[int, ...] | None:
    """The voters an event names; no hands need no names; a bare count leaves them unknown."""
    voters = tuple(getattr(event, "voters", ()) or ())
    if voters:
        return voters
    return () if count == 0 else None


def read_game(config: rules.RulesConfig, names: dict[int, str] | None,
              events: list[Event]) -> GameRecord:
    """Fold ``events`` (Undo included: what it undoes is skipped) under ``config`` with the seat
    ``names`` and collect the protocol facts. A log the rules refuse raises
    :class:`ExportError` (``bad_log``)."""
    walker = _Walker(config, names)
    for event in rules.effective(events):
        walker.step(event)
    return walker.finish()


def require_finished(record: GameRecord) -> None:
    """A protocol is made of a finished game only: before the end it would reveal the roles and
    the checks (F24 §4.4.13, §4.5.4: they stay hidden while the game goes on)."""
    if not record.finished:
        raise ExportError("not_finished", "the game is not over: a protocol is made of a "
                                          "finished game only")


def departure_of(record: GameRecord, seat: int) -> tuple[Cause | str, int, str] | None:
    """How and when ``seat`` left: ``(cause, day, phase)``, a team loss included (seed 4.3:
    the offender's team loses; the engine keeps no departure for it)."""
    dep = record.departure(seat)
    if dep is not None:
        return dep.cause, dep.day, dep.phase
    loss = record.team_loss
    if loss is not None and loss.seat == seat:
        phase = "night" if loss.moment.kind in ("night", "night_zero") else "day"
        return Cause.TEAM_LOSS, loss.moment.day, phase
    return None
