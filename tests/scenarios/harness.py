"""A judge-readable scenario harness over :func:`rules.apply`.

A test reads like the scenario a judge would write::

    t = Table(roles="D8 M9 M10 S5")        # seats not listed are civilians; day 1 begins
    t.skip_day()                           # D1: nobody nominated, no vote (RULES.md §4 step 0)
    t.kill(1)                              # N1: the blacks kill #1; the night ends
    t.last_word(1)                         # D2 morning: #1's minute (F24 §4.5.9)
    t.speech(2, nominates=6)
    ...
    t.expect_leaves(6, cause="vote")

Every helper goes through real events (``rules.apply``) and never writes the state's fields, so
a "Given" state is reached the way a judge would reach it. Assertions name what the rules say:
who speaks and for how long, who leaves and why, whether a vote is held, who wins.
"""

from __future__ import annotations

import copy
from typing import Iterable, Mapping

import rules
from rules import Cause, Code, Kind, NightStep, Notice, Phase, RuleError

# Role letters of SCENARIOS.md: D = Don, M/B = mafia (black), S = Sheriff, R/C = red civilian.
ROLE_LETTERS = {"D": "don", "M": "mafia", "B": "mafia", "S": "sheriff", "R": "civilian", "C": "civilian"}
DEFAULT_ROLES = "S5 D8 M9 M10"

CAUSES = {
    "vote": Cause.VOTE, "raise": Cause.RAISE, "kill": Cause.KILL, "fouls": Cause.FOULS,
    "4th foul": Cause.FOULS, "dq": Cause.DISQUALIFICATION, "disqualification": Cause.DISQUALIFICATION,
    "team_loss": Cause.TEAM_LOSS,
}

Hands = int | Iterable[int]


def parse_roles(spec: str) -> tuple[str, ...]:
    """``"D2 M5 M7 S8"`` → the ten roles of :class:`rules.SetRoles` (unlisted seats: civilians)."""
    roles = ["civilian"] * 10
    for token in spec.split():
        letter, seat = token[0].upper(), int(token[1:])
        roles[seat - 1] = ROLE_LETTERS[letter]
    return tuple(roles)


def hands_event(nominee: int, hands: Hands) -> rules.Vote:
    """A :class:`rules.Vote`: a count of hands, or the voters' seats."""
    if isinstance(hands, int):
        return rules.Vote(nominee=nominee, count=hands)
    return rules.Vote(nominee=nominee, voters=tuple(hands))


class Table:
    """One game at the table, driven event by event.

    ``roles``: ``"D2 M5 M7 S8"`` (unlisted seats are civilians) or ``None`` for roles unknown.
    ``preset`` names a :data:`rules.PRESETS` entry; ``options`` are
    :meth:`rules.RulesConfig.with_options` overrides (e.g. ``raise_2_of_4=False``).
    ``start``: ``"setup"`` (nothing applied), ``"night0"`` (after StartGame) or ``"day1"``
    (default: the договорка is over and seat 1 opens day 1, F24 §4.3.2).
    """

    def __init__(self, roles: str | None = DEFAULT_ROLES, preset: str = "seed", *,
                 start: str = "day1", **options: object) -> None:
        config = rules.PRESETS[preset]
        if options:
            config = config.with_options(**options)
        self.state = rules.new_game(config)
        self.log: list[rules.Event] = []
        self.notices: list[Notice] = []
        self.last: list[Notice] = []
        if start == "setup":
            return
        if roles is not None:
            self.do(rules.SetRoles(parse_roles(roles)))
        self.do(rules.StartGame())
        if start == "day1":
            self.next()

    # --- raw events ------------------------------------------------------------------------
    def do(self, event: rules.Event) -> list[Notice]:
        """Apply one event as a new action (:func:`rules.admit` first, as the service does);
        keep its notices in :attr:`last` and :attr:`notices`."""
        refusal = rules.admit(self.state, event)
        if refusal is not None:
            raise refusal
        self.state, self.last = rules.apply(self.state, event)
        self.log.append(event)
        self.notices.extend(self.last)
        return self.last

    def next(self) -> list[Notice]:
        """The judge moves on (ends a speech, a last word, a night step, night 0)."""
        return self.do(rules.Next())

    def fix(self, seq: int, replacement: rules.Event) -> rules.Correction:
        """The judge corrects the action logged at ``seq`` (1 for this table's first) into
        ``replacement`` (/fix): the log is replayed over it (:func:`rules.correct`) and the table
        goes on from the replayed state."""
        correction = rules.correct(self.state.config, self.log, seq, replacement)
        self.log.append(rules.Fix(seq=seq, event=replacement))
        self.state = correction.state
        self.notices = list(correction.after)
        assert self.replay() == self.state  # the logged correction folds to the same game
        return correction

    def expect_fix_refused(self, target: int, replacement: rules.Event, code: Code, /,
                           **params: object) -> RuleError:
        """The correction of the action logged at ``target`` is refused with ``code`` (and
        ``params``); nothing changes."""
        before = copy.deepcopy(self.state)
        try:
            rules.correct(self.state.config, self.log, target, replacement)
        except RuleError as error:
            assert error.code is code, f"refused with {error.code.value}, not {code.value}"
            for key, value in params.items():
                assert error.params.get(key) == value, f"{key}={error.params.get(key)!r}, not {value!r}"
            assert self.state == before
            return error
        raise AssertionError(f"the correction of {target} into {replacement} was accepted")

    @property
    def seq(self) -> int:
        """The log position of the latest action (what /log all numbers it)."""
        return len(self.log)

    def replay(self) -> rules.GameState:
        """The state :func:`rules.fold` rebuilds from this table's log."""
        state, _ = rules.fold(self.state.config, self.log)
        return state

    # --- the day ---------------------------------------------------------------------------
    @property
    def speaker(self) -> int | None:
        return self.state.speaker

    def last_word(self, seat: int, seconds: int = 60) -> None:
        """``seat``'s last word runs its course (F24 §4.4.13, §4.5.9)."""
        self.expect_last_word(seat, seconds)
        self.next()

    def finish_last_words(self) -> None:
        """Every last word still running ends (for tests about something else)."""
        while self.state.phase is Phase.LAST_WORD:
            self.next()

    def hear_morning(self) -> None:
        """The night victim's last word, if one is running (F24 §4.5.9)."""
        if self.state.phase is Phase.LAST_WORD and self.state.last_word_why == "kill":
            self.next()

    def nominate(self, by: int, target: int) -> None:
        """«Я выставляю игрока № …» (F24 §4.4.2)."""
        self.do(rules.Nominate(by=by, target=target))

    def speech(self, seat: int, nominates: int | None = None) -> None:
        """``seat``'s speech, with a nomination if given; it ends («Пас», F24 §4.3.5)."""
        assert self.state.phase is Phase.SPEECH and self.speaker == seat, (
            f"expected #{seat}'s speech, got {self.state.phase.value} of #{self.speaker}")
        if nominates is not None:
            self.nominate(seat, nominates)
        self.next()

    def speeches_until(self, seat: int) -> None:
        """Speeches without nominations until ``seat``'s turn comes."""
        self.hear_morning()
        while self.speaker != seat:
            assert self.state.phase is Phase.SPEECH, f"#{seat}'s turn never came"
            self.next()

    def discuss(self, nominations: Mapping[int, int] | None = None) -> None:
        """The rest of the day's discussion: every remaining speech, ``by`` nominating
        ``nominations[by]``. Ends when the speeches are over (a vote, or night)."""
        pending = dict(nominations or {})
        self.hear_morning()
        day = self.state.day
        while self.state.phase is Phase.SPEECH and self.state.day == day:
            seat = self.speaker
            assert seat is not None
            self.speech(seat, pending.pop(seat, None))
        assert not pending, f"these seats never spoke: {sorted(pending)}"

    def skip_day(self) -> None:
        """A day with nobody nominated: no vote (RULES.md §4 step 0.2), night follows."""
        day = self.state.day
        self.discuss()
        self.expect_night(day)

    def vote_out(self, seat: int) -> None:
        """Fast-forward a day in which ``seat`` alone is voted out, by every hand (F24 §4.4.11),
        and speaks his last word. Day 1 needs two nominees (F24 §4.4.10): the second gets none."""
        self.hear_morning()
        day = self.state.day
        order = [s for s in self.state.speech_order[self.state.speech_index:] if s != seat]
        nominations = {order[0]: seat}
        if day == 1:
            other = next(s for s in self.state.at_table if s not in (seat, order[0], order[1]))
            nominations[order[1]] = other
        self.discuss(nominations)
        if day == 1:
            self.vote({seat: len(self.state.at_table)})
        self.expect_leaves(seat, cause="vote")
        self.last_word(seat)

    def play_until(self, day: int, *, kills: Mapping[int, int] | None = None,
                   out: Mapping[int, int] | None = None) -> None:
        """Fast-forward to the first speech of ``day``: on day k ``out[k]`` is voted out (else
        nobody is nominated); in night k the blacks kill ``kills[k]`` (else a miss)."""
        kills, out = dict(kills or {}), dict(out or {})
        for _ in range(200):
            phase = self.state.phase
            if phase is Phase.SPEECH and self.state.day == day:
                return
            if phase is Phase.NIGHT:
                victim = kills.pop(self.state.day, None)
                self.kill(victim) if victim is not None else self.miss()
            elif phase is Phase.LAST_WORD:
                self.next()
            elif self.state.day in out:
                self.vote_out(out.pop(self.state.day))
            else:
                self.skip_day()
        raise AssertionError(f"day {day} never came")

    # --- voting ----------------------------------------------------------------------------
    def votes_against(self, nominee: int, hands: Hands) -> None:
        """One step of the vote: the hands against ``nominee`` (F24 §4.4.5)."""
        self.do(hands_event(nominee, hands))

    def vote(self, hands: Mapping[int, Hands]) -> None:
        """One (re)vote round, nominee by nominee in the ballot's order (F24 §4.4.4): ``hands``
        maps a nominee to a count or to the voters' seats (missing: no hands). The last nominee
        is never voted: unvoted hands go to him (F24 §4.4.8); a count given for him is checked."""
        assert self.state.phase is Phase.VOTING, f"no vote now ({self.state.phase.value})"
        ballot = self.state.ballot
        assert ballot is not None
        round_, start = ballot.round, len(self.notices)
        for nominee in hands:
            assert nominee in ballot.candidates, f"#{nominee} is not on the ballot {ballot.candidates}"
        while self.state.phase is Phase.VOTING and self.state.ballot is not None \
                and self.state.ballot.round == round_:
            current = self.state.ballot
            nominee = current.candidates[current.index]
            self.votes_against(nominee, hands.get(nominee, 0))
        counted = {n["nominee"]: n["count"] for n in self.notices[start:] if n.kind is Kind.VOTE_COUNTED}
        for nominee, given in hands.items():
            want = given if isinstance(given, int) else len(tuple(given))
            assert counted.get(nominee) == want, f"#{nominee}: counted {counted.get(nominee)}, expected {want}"

    def revote(self, hands: Mapping[int, Hands]) -> None:
        """A revote among tied players (F24 §4.4.12.1): as :meth:`vote`."""
        assert self.state.ballot is not None and self.state.ballot.round > 0, "this is no revote"
        self.vote(hands)

    def tie_speech(self, seat: int, seconds: int = 30) -> None:
        """A tied player's 30 s speech (F24 §4.4.12)."""
        self.expect_tie_speech(seat, seconds)
        self.next()

    def tie_speeches(self, *seats: int) -> None:
        """The tied players' speeches, in this order; with no seats given, all of them in the
        engine's order (for a test that does not care)."""
        for seat in seats:
            self.tie_speech(seat)
        if not seats:
            while self.state.phase is Phase.TIE_SPEECH:
                self.next()

    def raise_vote(self, hands: Hands) -> None:
        """«Кто за то, чтоб все голосуемые игроки покинули игровой стол?» (F24 §4.4.12.3)."""
        event = (rules.RaiseVote(count=hands) if isinstance(hands, int)
                 else rules.RaiseVote(voters=tuple(hands)))
        self.do(event)

    # --- the night -------------------------------------------------------------------------
    def shoot(self, target: int | None) -> None:
        """The judge records the shooting: ``target`` killed, or ``None`` for a miss."""
        self.do(rules.NightKill(target=target))

    def shots(self, shots: Mapping[int, int | None]) -> None:
        """Each black's shot (F24 §4.5.3–4.5.5)."""
        self.do(rules.Shots(shots=tuple(shots.items())))

    def end_night(self) -> None:
        """The rest of the night passes without checks or best move (the judge waits)."""
        while self.state.phase is Phase.NIGHT:
            self.next()

    def kill(self, target: int) -> None:
        """The blacks kill ``target``; the night ends (morning: his last word)."""
        self.expect_night()
        self.shoot(target)
        self.end_night()

    def miss(self) -> None:
        """Nobody is killed (промах, F24 §4.5.5); the night ends."""
        self.expect_night()
        self.next()
        self.end_night()

    def don_check(self, seat: int) -> None:
        self.do(rules.DonCheck(target=seat))

    def sheriff_check(self, seat: int) -> None:
        self.do(rules.SheriffCheck(target=seat))

    def best_move(self, *guesses: int) -> None:
        self.do(rules.BestMove(guesses=tuple(guesses)))

    # --- penalties -------------------------------------------------------------------------
    def warn(self, seat: int) -> None:
        """An oral warning (seed 4.3)."""
        self.do(rules.Penalty(seat=seat, reason="warning"))

    def foul(self, seat: int, reason: str = "foul") -> None:
        """A foul (seed 4.1.x)."""
        self.do(rules.Penalty(seat=seat, reason=reason))

    def fouls(self, seat: int, count: int) -> None:
        for _ in range(count):
            self.foul(seat)

    def dq(self, seat: int, reason: str = "dq") -> None:
        """A disqualifying foul (seed 4.2.x)."""
        self.do(rules.Penalty(seat=seat, reason=reason))

    def team_loss(self, seat: int, reason: str = "ppk", team: str | None = None) -> None:
        """A team-loss violation, ППК (seed 4.3.x)."""
        self.do(rules.Penalty(seat=seat, reason=reason, team=team))

    def withdraw_foul(self, seat: int) -> None:
        self.do(rules.WithdrawFoul(seat=seat))

    # --- expectations: who speaks ----------------------------------------------------------
    def expect_speech(self, seat: int, seconds: int = 60) -> None:
        """``seat``'s regular day speech runs now, ``seconds`` long (0: silenced, seed 4.4)."""
        assert self.state.phase is Phase.SPEECH, f"phase is {self.state.phase.value}"
        assert self.speaker == seat, f"#{self.speaker} speaks, not #{seat}"
        assert self.state.seconds == seconds, f"#{seat} has {self.state.seconds} s, not {seconds} s"

    def expect_last_word(self, seat: int, seconds: int = 60) -> None:
        assert self.state.phase is Phase.LAST_WORD, f"phase is {self.state.phase.value}"
        assert self.speaker == seat, f"#{self.speaker}'s last word, not #{seat}'s"
        assert self.state.seconds == seconds, f"{self.state.seconds} s, not {seconds} s"

    def expect_tie_speech(self, seat: int, seconds: int = 30) -> None:
        assert self.state.phase is Phase.TIE_SPEECH, f"phase is {self.state.phase.value}"
        assert self.speaker == seat, f"#{self.speaker} speaks, not #{seat}"
        assert self.state.seconds == seconds, f"{self.state.seconds} s, not {seconds} s"

    def expect_leader_speech(self, seat: int, seconds: int = 30) -> None:
        """Day 1's single leader, who stays by ``first_day_vote`` (raise_only, self_break:
        MafiaRatings 7.16.2, 7.16.4), speaks now, ``seconds`` long, timed as a speech."""
        assert self.state.phase is Phase.LEADER_SPEECH, f"phase is {self.state.phase.value}"
        assert self.speaker == seat, f"#{self.speaker} speaks, not #{seat}"
        assert self.state.seconds == seconds, f"{self.state.seconds} s, not {seconds} s"
        self.expect_timed(("leader_speech", seconds))

    def leader_speech(self, seat: int, seconds: int = 30) -> None:
        """Day 1's leader who stays speaks his 30 s; the judge ends it and night falls."""
        self.expect_leader_speech(seat, seconds)
        self.next()
        self.expect_night(1)

    def expect_timed(self, *parts: tuple[str, int]) -> None:
        """The judge's timer runs these parts now, in order: ``("shooting", 20)`` … (docs/rules.md
        §2.4; nothing for a vote or a 0 s silence)."""
        timed = tuple((part.kind, part.seconds) for part in rules.timing(self.state))
        assert timed == parts, f"the timed parts are {timed}, not {parts}"

    def expect_opener(self, seat: int) -> None:
        """``seat`` opened today's discussion (F24 §4.3.2)."""
        assert self.state.opener == seat, f"#{self.state.opener} opened day {self.state.day}"

    def expect_order(self, *seats: int) -> None:
        """Today's speaking order (F24 §4.3.2)."""
        assert tuple(self.state.speech_order) == seats, f"order is {self.state.speech_order}"

    def can_nominate(self, by: int, target: int) -> bool:
        return rules.can_nominate(self.state, by, target) is None

    def expect_nominees(self, *seats: int) -> None:
        assert tuple(self.state.nominees) == seats, f"nominees are {self.state.nominees}"

    # --- expectations: votes ---------------------------------------------------------------
    def _day_notices(self, kind: Kind, day: int) -> list[Notice]:
        return [n for n in self.notices if n.kind is kind and n.params.get("day") == day]

    def expect_no_vote(self, reason: str | None = None, day: int | None = None) -> None:
        """Day ``day``'s vote (default: the current day) was not held or was cancelled, for
        ``reason`` (a rule number or the engine's code for it) if given; nobody left by it."""
        day = self.state.day if day is None else day
        reasons = [n["why"] for n in self._day_notices(Kind.VOTE_NOT_HELD, day)]
        reasons += [n["rule"] for n in self._day_notices(Kind.VOTE_CANCELLED, day)]
        reasons += [n["rule"] for n in self._day_notices(Kind.NEXT_VOTE_CANCELLED, day)]
        assert reasons, f"day {day}'s vote was not cancelled"
        if reason is not None:
            assert reason in reasons, f"day {day}'s vote not held for {reasons}, not {reason}"
        voted = [n for n, d in self.state.departures()
                 if d.phase == "day" and d.day == day and d.cause in (Cause.VOTE, Cause.RAISE)]
        assert not voted, f"{voted} left by day {day}'s vote"
        assert not (self.state.day == day and self.state.phase in (
            Phase.SPEECH, Phase.VOTING, Phase.TIE_SPEECH, Phase.RAISE_VOTE)), "the day goes on"

    def expect_vote_held(self, day: int | None = None) -> None:
        """Day ``day``'s vote (default: today's) began and was not cancelled."""
        day = self.state.day if day is None else day
        assert any(n["round"] == 0 for n in self._day_notices(Kind.VOTING_STARTS, day)), \
            f"day {day}'s vote was not held"
        assert not self._day_notices(Kind.VOTE_CANCELLED, day), f"day {day}'s vote was cancelled"

    def expect_voting(self, *candidates: int, round: int | None = None) -> None:
        """A (re)vote runs among ``candidates``, in this order."""
        assert self.state.phase is Phase.VOTING, f"phase is {self.state.phase.value}"
        ballot = self.state.ballot
        assert ballot is not None and tuple(ballot.candidates) == candidates, \
            f"ballot is {ballot.candidates if ballot else None}"
        if round is not None:
            assert ballot.round == round, f"round {ballot.round}"

    def expect_votes(self, counts: Mapping[int, int]) -> None:
        """The latest round's counts (F24 §4.4.8: unvoted hands are counted on the last)."""
        start = max(i for i, n in enumerate(self.notices) if n.kind is Kind.VOTING_STARTS)
        counted = {n["nominee"]: n["count"] for n in self.notices[start:] if n.kind is Kind.VOTE_COUNTED}
        assert counted == dict(counts), f"counted {counted}"

    def expect_raise_vote(self, *seats: int) -> None:
        """The judge puts the raise vote for ``seats`` (F24 §4.4.12.3)."""
        assert self.state.phase is Phase.RAISE_VOTE, f"phase is {self.state.phase.value}"
        assert sorted(self.state.raise_candidates) == sorted(seats), f"raising {self.state.raise_candidates}"

    def expect_no_raise_vote(self) -> None:
        """No raise vote was ever put in this game."""
        assert not self.kinds_seen(Kind.RAISE_VOTE), "a raise vote was put"

    # --- expectations: departures ----------------------------------------------------------
    def expect_leaves(self, *seats: int, cause: str) -> None:
        """Each of ``seats`` has left the table for ``cause`` (vote, raise, kill, fouls, dq,
        team_loss)."""
        for seat in seats:
            departure = self.state.seat(seat).departure
            assert departure is not None, f"#{seat} is still at the table"
            assert departure.cause is CAUSES[cause], f"#{seat} left by {departure.cause.value}"

    def expect_stays(self, *seats: int) -> None:
        for seat in seats:
            assert self.state.seat(seat).at_table, f"#{seat} has left"

    def expect_table(self, *seats: int) -> None:
        """Exactly ``seats`` are at the table."""
        assert tuple(self.state.at_table) == seats, f"at the table: {self.state.at_table}"

    def expect_players(self, count: int) -> None:
        assert len(self.state.at_table) == count, f"{len(self.state.at_table)} at the table"

    def expect_draw_window(self, nights: int, days: int) -> None:
        """The quiet nights and days counted towards a draw (seed 5.8; RULES.md §12.1–12.2)."""
        got = (self.state.quiet_nights, self.state.quiet_days)
        assert got == (nights, days), f"quiet nights/days: {got}, not {(nights, days)}"

    def expect_fouls(self, seat: int, count: int) -> None:
        assert len(self.state.seat(seat).fouls) == count, f"#{seat} has {self.state.seat(seat).fouls}"

    # --- expectations: phases and the end --------------------------------------------------
    def expect_night(self, number: int | None = None, step: NightStep = NightStep.SHOOTING) -> None:
        assert self.state.phase is Phase.NIGHT, f"phase is {self.state.phase.value}"
        night = self.state.night
        assert night is not None
        if number is not None:
            assert night.number == number, f"night {night.number}, not {number}"
        assert night.step is step, f"night step {night.step.value}, not {step.value}"

    def expect_day(self, day: int) -> None:
        assert self.state.day == day and self.state.phase in (
            Phase.LAST_WORD, Phase.SPEECH, Phase.VOTING, Phase.TIE_SPEECH, Phase.RAISE_VOTE), \
            f"{self.state.phase.value} of day {self.state.day}, not day {day}"

    def expect_game_on(self) -> None:
        assert self.state.phase is not Phase.GAME_OVER, f"game over: {self.state.result}"

    def expect_winner(self, team: str) -> None:
        """The game is over and ``team`` ("red" or "black") wins."""
        assert self.state.phase is Phase.GAME_OVER, f"the game goes on ({self.state.phase.value})"
        result = self.state.result
        assert result is not None and result.winner is not None and result.winner.value == team, \
            f"result: {result}"
        over = [n for n in self.last if n.kind is Kind.GAME_OVER]
        assert over and over[0]["winner"] == team, "GAME_OVER was not announced now"

    def expect_draw(self) -> None:
        assert self.state.phase is Phase.GAME_OVER, f"the game goes on ({self.state.phase.value})"
        assert self.state.result is not None and self.state.result.winner is None, f"{self.state.result}"
        over = [n for n in self.last if n.kind is Kind.GAME_OVER]
        assert over and over[0]["winner"] is None, "GAME_OVER was not announced now"

    # --- expectations: notices and refusals ------------------------------------------------
    def kinds_seen(self, kind: Kind, since: int = 0) -> list[Notice]:
        return [n for n in self.notices[since:] if n.kind is kind]

    def expect_notice(self, kind: Kind, **params: object) -> Notice:
        """The latest event said ``kind`` with (at least) these parameters."""
        for notice in self.last:
            if notice.kind is kind and all(notice.params.get(k) == v for k, v in params.items()):
                return notice
        raise AssertionError(f"no {kind.value} {params} in {[(n.kind.value, n.params) for n in self.last]}")

    def expect_no_notice(self, kind: Kind) -> None:
        assert not [n for n in self.last if n.kind is kind], f"{kind.value} was said"

    def expect_refused(self, event: rules.Event, code: Code | None = None) -> RuleError:
        """The rules refuse ``event`` (with ``code`` if given) and the state stays as it was."""
        before = copy.deepcopy(self.state)
        try:
            refusal = rules.admit(self.state, event)  # a new action, as the service asks
            if refusal is not None:
                raise refusal
            rules.apply(self.state, event)
        except RuleError as error:
            assert code is None or error.code is code, f"refused with {error.code}, not {code}"
            assert self.state == before, "a refused event changed the state"
            return error
        raise AssertionError(f"{event} was accepted")
