"""JSON exports of a finished game: the MafiaRatings game layout and our own full protocol.

:func:`to_mafiaratings` writes the layout that :mod:`rules.records.mafiaratings` reads (the site's
``include/game.php`` ``Game::api_help``): ``players[i]`` is seat i+1 with ``name``, ``role``,
``death {round, type, time}``, ``nominating``, ``voting`` (a seat, or a list with the vote of each
tie round, ending with the kill-all answer when the voters of the raise vote are known),
``warnings`` (MafiaRatings' word for fouls) with the game time of each (and the site's ``order``
where several penalties share one), ``shooting``, ``don`` / ``sheriff`` (the round this player was
checked in) and ``legacy`` (the best move); ``rules`` is the 13-option code, ``winner`` civ / maf /
tie, ``features`` the letters of what the record holds.

Numbering: our day k is followed by night k (night 0 is the договорка); MafiaRatings' round r is
night r plus day r+1, so day k lives in round k-1 and night k in round k.

The export checks itself: it replays the JSON through our own importer
(:func:`rules.records.replay`) and refuses (:class:`ExportError`) unless the replay gives the game's
own departures, winner and cancelled votes, and unless MafiaRatings' own validity check
(``include/game.php`` ``Game::check``, :mod:`rules.records.mafiaratings_check`) finds nothing. Options MafiaRatings has no code for (the seed's draw
after the third quiet *day*, seed 5.8; a first day without a vote; …) are written as the nearest
code when they made no difference to this game — the replay proves it — and refused otherwise
(always, with ``strict=True``).

:func:`to_json` is our own protocol: the config, names, roles, the whole event log (Undo events
included, as ``rules.to_dict``) and the outcome in the replay report's shape.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Callable, Mapping

import rules
from rules import (
    Cause, Event, FirstDayVote, NominationWithdrawal, RevoteOrder, Role, Rotation, RulesConfig,
    ThirdFoul,
)
from rules.records import RecordError, replay
from rules.records.mafiaratings import read_config
from rules.records.mafiaratings_check import site_issues
from rules.records.model import Moment
from rules.records.protocol import FORMAT, FORMAT_VERSION  # read back by ``mafia-referee replay``

from .record import (
    BallotRound, DayRecord, ExportError, GameRecord, PenaltyRecord, departure_of, read_game,
    require_finished,
)


MR_ROLES = {Role.CIVILIAN: "civ", Role.SHERIFF: "sheriff", Role.MAFIA: "maf", Role.DON: "don"}
MR_WINNERS = {"red": "civ", "black": "maf", "draw": "tie"}

# The feature letters in the site's order (include/game.php GAME_FEATURE_FLAG_*): g don checks,
# s sheriff checks, d death, u death round, t death type, c death time, l legacy, h shooting,
# v voting, k kill-all answers, w warnings, r warning details, n nominating.
FEATURE_ORDER = "agsdutclhvkwrnoi"
FEATURES = set("gsdutclhvwrn")

# Night steps as MafiaRatings game times. The best move has none: a penalty given during it is
# dated to the Sheriff's check, the last step of the same night.
NIGHT_TIMES = {"shooting": "shooting", "don_check": "don", "sheriff_check": "sheriff",
               "best_move": "sheriff"}


# --- the rules code -------------------------------------------------------------------------------
def rules_code(config: RulesConfig) -> tuple[str, list[str]]:
    """The 13-character MafiaRatings ``rules`` code nearest to ``config`` (include/rules.php),
    and the options it cannot express, as ``"name=ours (MafiaRatings: theirs)"``.

    Positions: 0 rotation (6.3), 3 nomination withdrawal (7.5), 4 first-day vote (7.16), 5 revote
    order (7.18), 6 the whole table raised (7.21), 7 raising 2 of 4 (7.22), 8 raising 3 of 9
    (7.23), 9 best move (8.17), 10 last word after a decisive event (8.19), 11 the third foul
    (9.5), 12 technical fouls (9.6); 1 and 2 (colours left on record) are scoring only and stay
    0. What the code cannot say is found by reading it back with the importer and comparing
    option by option."""
    digits = [0] * 13
    digits[0] = 1 if config.rotation is Rotation.LAST else 0
    digits[3] = {NominationWithdrawal.EXPLICIT: 0, NominationWithdrawal.AUTO: 1,
                 NominationWithdrawal.NONE: 2}[config.nomination_withdrawal]
    digits[4] = {FirstDayVote.RAISE_ONLY: 1, FirstDayVote.NO_BREAK: 2,
                 FirstDayVote.SELF_BREAK: 3}.get(config.first_day_vote, 0)
    digits[5] = 1 if config.revote_order is RevoteOrder.REVERSE else 0
    digits[6] = 1 if config.raise_whole_table else 0
    digits[7] = 0 if config.raise_2_of_4 else 1
    digits[8] = (1 if not config.raise_3_of_9
                 else 2 if config.raise_3_of_9_from_day == 3 else 0)
    digits[9] = 0 if config.best_move else 1
    digits[10] = 0 if config.last_word_on_decisive_event else 1
    digits[11] = {ThirdFoul.SILENCE: 0, ThirdFoul.SHORT_SPEECH: 1, ThirdFoul.NONE: 2}[config.third_foul]
    digits[12] = 1 if config.technical_fouls else 0
    code = "".join(map(str, digits))
    theirs = rules.config_to_dict(read_config({"rules": code}))
    ours = rules.config_to_dict(config)
    # Timers never show in a record; the preset only picks the catalog of penalty reasons, and a
    # record keeps no reasons (fouls are fouls, removals are their death types). The first day
    # of raising 3 of 9 means nothing while 3 of 9 are never raised. How the judge recorded the
    # hands (record_voters) is no rule: a record keeps the voters either way.
    skip = {"timers", "preset", "record_voters"} | ({"raise_3_of_9_from_day"} if not config.raise_3_of_9 else set())
    unexpressed = [f"{name}={ours[name]} (MafiaRatings: {theirs[name]})" for name in ours
                   if name not in skip and ours[name] != theirs[name]]
    return code, unexpressed


# --- game times -----------------------------------------------------------------------------------
def game_time(moment: Moment, raise_round: int = 1) -> dict[str, Any]:
    """A moment of the game as a MafiaRatings game time ``{round, time, speaker|votingRound|
    nominee}`` (the inverse of :func:`rules.records.mafiaratings.game_time`). The raise vote
    («voting kill all») is the voting round after the last revote, ``raise_round`` (the site
    requires it: ``check_gametime``)."""
    kind, day = moment.kind, moment.day
    if kind == "night_zero":
        return {"round": 0, "time": "arrangement"}
    if kind == "night":
        return {"round": day, "time": NIGHT_TIMES[moment.step or "shooting"]}
    out: dict[str, Any] = {"round": day - 1}
    if kind in ("speech", "morning", "last_word"):
        out["time"] = {"speech": "speaking", "morning": "night kill speaking",
                       "last_word": "day kill speaking"}[kind]
        out["speaker"] = moment.seat
    elif kind == "tie_speech":
        out.update(time="voting", speaker=moment.seat, votingRound=moment.round)
    elif kind == "voting":
        out.update(time="voting", votingRound=moment.round, nominee=moment.seat)
    elif kind == "raise":
        out.update(time="voting kill all", votingRound=raise_round)
    elif kind == "voting_start":
        out["time"] = "voting start"
    elif kind == "end":  # after the game (F24 §7.9): the site's GAMETIME_END
        out["time"] = "end"
    else:
        raise ExportError("bad_log", f"no MafiaRatings game time for {moment.describe()}",
                          error=moment.kind)
    return out


def _time(record: GameRecord, moment: Moment) -> dict[str, Any]:
    """:func:`game_time` of a moment of ``record`` (its raise vote numbered after its rounds)."""
    day = record.day(moment.day) if moment.kind == "raise" else None
    return game_time(moment, day.rounds[-1].round + 1 if day is not None and day.rounds else 1)


def _leader_speech(day: DayRecord, m: Moment) -> bool:
    """Is ``m`` the 30 s of day 1's leader who stays (MafiaRatings 7.16.2, 7.16.4)? Its moment
    is numbered as the revote it stands in for (:func:`rules.records.driver.moment_of`)."""
    return (m.kind == "tie_speech" and day.leader_stays is not None and m.seat == day.leader_stays
            and m.round == (day.rounds[-1].round + 1 if day.rounds else 1))


def _dated(record: GameRecord, penalty: PenaltyRecord) -> Moment:
    """The moment a penalty is written at. Day 1's leader who stays speaks his 30 s at the
    site's time «day kill speaking» (js/src/game.js gives him that time, and no death), after
    the vote. A round of the vote that is not written (:func:`_finished`) leaves the record no
    moment in it, so a penalty given in it is dated to the last moment of that vote the record
    keeps: its start (a cancelled vote, seed 5.1, or a main vote the game's end cut short; every
    penalty of that vote, the first nominee's too, so that :func:`_orders` keeps their order at
    that one time), or the tie speeches before a revote the game's end cut short. A removal
    that did not cancel the vote cannot be moved there (:func:`_check_cut_short`)."""
    m = penalty.moment
    if m.kind not in ("voting", "tie_speech", "raise"):
        return m
    day = record.day(m.day)
    if day is None:
        return m
    if _leader_speech(day, m):
        return Moment("last_word", m.day, seat=m.seat)
    if day.cancelled is not None:
        return Moment("voting_start", m.day)
    if m.kind == "voting" and m.round is not None and m.round >= len(_finished(day)):
        if m.round == 0 or m.round >= len(day.rounds):
            return Moment("voting_start", m.day)
        return Moment("tie_speech", m.day, seat=day.rounds[m.round].candidates[-1], round=m.round)
    return m


def _check_cut_short(record: GameRecord) -> None:
    """A removal that did not cancel the vote — of the nominee it had decided (seed 5.1: he is
    the one leaving by it) or after its result was known (seed 5.2) — in a round the game's end
    then cut short (a team loss, seed 4.3; a removal that ends the game) cannot be written. The
    site keeps no ballots of that round (its check wants the vote of everyone at the table when
    the round began, and the decided nominee dead), and at the vote's start (:func:`_dated`)
    the removal would read as one before the vote, which cancels it (seed 5.1; the site's
    ``is_voting_canceled`` too): the day would end there, and whatever followed in the vote
    would fall in the night. The removal that ended the game itself changes nothing there."""
    last = record.days[-1] if record.days else None
    if last is None or last.cancelled is not None or record.ended_at is None:
        return
    done = len(_finished(last))
    if done == len(last.rounds):
        return
    for seat, penalty in sorted(record.removals.items(), key=lambda item: item[1].index):
        m = penalty.moment
        if m.kind == "voting" and m.day == last.number and m.round is not None \
                and m.round >= done and penalty.index < record.ended_at:
            raise ExportError("cut_short_vote", f"day {last.number}: seat {seat} was removed "
                              f"during the vote after its result was known, and the game ended "
                              f"before the vote did: MafiaRatings keeps no ballots of that round, "
                              f"and without them the removal reads as one before the vote, which "
                              f"cancels it", day=last.number, seat=seat)


def _orders(record: GameRecord, written: list[PenaltyRecord]) -> dict[int, int]:
    """The site's ``order`` of the penalties written at one game time (js/src/game.js numbers
    the actions at one time 1, 2, … — ``_gameIncTimeOrder`` — and the site and our importer
    sort them by it): a penalty's event index → its order, for the times several share."""
    at: dict[tuple[Any, ...], set[int]] = {}
    for penalty in written:
        at.setdefault(_key(_time(record, _dated(record, penalty))), set()).add(penalty.index)
    return {index: n for indices in at.values() if len(indices) > 1
            for n, index in enumerate(sorted(indices), 1)}


def _key(time: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted(time.items()))


# --- the players ----------------------------------------------------------------------------------
def _put(player: dict[str, Any], key: str, index: int, value: Any) -> None:
    """``player[key][index] = value``, padding the list with nulls."""
    items = player.setdefault(key, [])
    while len(items) <= index:
        items.append(None)
    items[index] = value


def _removal(record: GameRecord, seat: int) -> tuple[str, PenaltyRecord] | None:
    """The death type and the penalty of a seat removed by one (:func:`_death`)."""
    how = departure_of(record, seat)
    if how is None and any(p.seat == seat and p.severity is rules.Severity.DISQUALIFYING and p.applied
                           for p in record.after_result):
        how = ("after_result", 0, "day")
    if how is None or how[0] in (Cause.VOTE, Cause.RAISE, Cause.KILL):
        return None
    cause = how[0]
    if cause is Cause.TEAM_LOSS:
        penalty = record.team_loss
        kind = "teamKickOut"
    elif cause == "after_result":  # disqualified after the game, from the table (F24 §7.9)
        penalty = next(p for p in record.after_result
                       if p.seat == seat and p.severity is rules.Severity.DISQUALIFYING and p.applied)
        kind = "giveUp" if penalty.reason == "4.2.1" else "kickOut"
    else:
        penalty = record.removals[seat]
        kind = ("warnings" if cause is Cause.FOULS else "giveUp" if penalty.reason == "4.2.1"
                else "techFouls" if penalty.severity is rules.Severity.TECHNICAL else "kickOut")
    assert penalty is not None
    return kind, penalty


def _death(record: GameRecord, seat: int, timed: Callable[[PenaltyRecord], dict[str, Any]]
           ) -> dict[str, Any] | None:
    """``death {round, type, time}``: day / night for a vote or a kill; warnings, techFouls
    (MafiaRatings 9.6.2), kickOut, giveUp (seed 4.2.1, leaving the table) and teamKickOut with
    the game time of the removal (``timed``)."""
    dep = record.departure(seat)
    if dep is not None and dep.cause in (Cause.VOTE, Cause.RAISE):
        return {"round": dep.day - 1, "type": "day"}
    if dep is not None and dep.cause is Cause.KILL:
        return {"round": dep.day, "type": "night"}
    removal = _removal(record, seat)
    if removal is None:
        return None
    kind, penalty = removal
    time = timed(penalty)
    return {"round": time["round"], "type": kind, "time": time}


def _check_single_deaths(record: GameRecord) -> None:
    """MafiaRatings keeps one death a player: a disqualification or a team loss given to a
    player who has already left (in his last word) cannot be written."""
    for seat, penalty in record.late_removals.items():
        if penalty.severity is not rules.Severity.FOUL:
            raise ExportError("two_deaths", f"seat {seat} was disqualified ({penalty.reason}) after "
                              f"leaving the game: MafiaRatings records one death a player",
                              seat=seat, what=penalty.reason)
    for penalty in record.after_result:
        if penalty.severity is rules.Severity.DISQUALIFYING and penalty.applied \
                and departure_of(record, penalty.seat):
            raise ExportError("two_deaths", f"seat {penalty.seat} was disqualified ({penalty.reason}) "
                              f"after the game, having left it: MafiaRatings records one death a "
                              f"player", seat=penalty.seat, what=penalty.reason)
    loss = record.team_loss
    if loss is not None and record.departure(loss.seat) is not None:
        raise ExportError("two_deaths", f"seat {loss.seat} caused a team loss after leaving the "
                          f"game: MafiaRatings records one death a player", seat=loss.seat,
                          what=loss.reason)


def _finished(day: DayRecord) -> list[BallotRound]:
    """The rounds of a day's vote that were held to the end: none when a removal cancelled the
    vote (seed 5.1: it is not held, so no hand raised in it counts), and none from a round the
    game's end cut short (a team loss, seed 4.3)."""
    if day.cancelled is not None:
        return []
    rounds = []
    for ballot in day.rounds:
        if any(c not in ballot.counts for c in ballot.candidates):
            break
        rounds.append(ballot)
    return rounds


def _ballots(day: DayRecord) -> list[BallotRound]:
    """The rounds written for a day (:func:`_finished`), every hand by its voter."""
    rounds = _finished(day)
    for ballot in rounds:
        for candidate in ballot.candidates:
            if ballot.voters.get(candidate) is None:
                raise ExportError(
                    "votes_by_count",
                    f"day {day.number} round {ballot.round}: the hands against seat {candidate} "
                    f"were recorded as a count, not by voter; MafiaRatings records each player's "
                    f"vote", day=day.number, round=ballot.round, seat=candidate)
    return rounds


def _days(record: GameRecord, players: list[dict[str, Any]]) -> bool:
    """Nominations and votes of every day. Returns whether kill-all answers were written."""
    answers = False
    for day in record.days:
        r = day.number - 1
        for by, target in day.nominations:
            _put(players[by - 1], "nominating", r, target)
        ballots = _ballots(day)
        if not ballots:
            continue
        raise_voters = day.raise_vote.voters if day.raise_vote is not None else None
        answers = answers or raise_voters is not None
        voters = {v for b in ballots for c in b.candidates for v in (b.voters[c] or ())}
        for seat in sorted(voters):
            targets: list[Any] = [b.target_of(seat) for b in ballots]
            if raise_voters is not None:
                targets.append(seat in raise_voters)
            # a single vote is a number, unless the day has revotes: the site then reads every
            # voter's votes as a list (a number first breaks its init_votings)
            _put(players[seat - 1], "voting", r, targets if len(ballots) > 1 or len(targets) > 1
                 else targets[0])
    return answers


def _nights(record: GameRecord, players: list[dict[str, Any]]) -> None:
    """Shots, checks and the best move. A kill entered as an outcome means every black at the
    table shot the victim (F24 §4.5.4), which is how MafiaRatings writes it; a miss without shots
    is a null shot of each black at the table, so the record reaches that night."""
    for night in record.nights:
        n = night.number
        shots = {shooter: target for shooter, target in night.shots if shooter in night.blacks}
        for black in night.blacks:
            target = shots.get(black, night.killed if not night.shots else None)
            _put(players[black - 1], "shooting", n - 1, target)
        for who, seat in (("don", night.don_check), ("sheriff", night.sheriff_check)):
            if seat is None:
                continue
            if who in players[seat - 1]:
                raise ExportError("two_checks", f"seat {seat} was checked by the {who} twice: "
                                  f"MafiaRatings records one check round a player", who=who, seat=seat)
            players[seat - 1][who] = n
        if n == 1 and night.best_move and night.killed is not None:
            players[night.killed - 1]["legacy"] = list(night.best_move)


def _fouls(record: GameRecord, seat: int) -> list[PenaltyRecord]:
    """A seat's fouls as written: those after the game too (F24 §7.9)."""
    return record.fouls.get(seat, []) + [
        p for p in record.after_result if p.seat == seat and p.severity is rules.Severity.FOUL]


def _players(record: GameRecord) -> tuple[list[dict[str, Any]], bool]:
    written = [p for seat in rules.SEATS
               for p in _fouls(record, seat) + record.tech_fouls.get(seat, [])]
    written += [removal[1] for seat in rules.SEATS if (removal := _removal(record, seat))]
    orders = _orders(record, written)

    def timed(penalty: PenaltyRecord) -> dict[str, Any]:
        time = _time(record, _dated(record, penalty))
        if penalty.index in orders:
            time["order"] = orders[penalty.index]
        return time

    players: list[dict[str, Any]] = []
    for seat in rules.SEATS:
        player: dict[str, Any] = {}
        name = record.name(seat)
        if name:
            player["name"] = name
        role = record.role(seat)
        assert role is not None
        player["role"] = MR_ROLES[role]
        death = _death(record, seat, timed)
        if death is not None:
            player["death"] = death
        fouls = _fouls(record, seat)
        if fouls:
            player["warnings"] = [timed(f) for f in fouls]
        techs = record.tech_fouls.get(seat, [])
        if techs:
            player["techFouls"] = [timed(f) for f in techs]
        players.append(player)
    answers = _days(record, players)
    _nights(record, players)
    for seat, value in record.state.extras.items():
        players[seat - 1]["bonus"] = _bonus(value)
    return [_ordered(p) for p in players], answers


def _bonus(value: Decimal) -> int | float:
    """The judge's extra points (F24/S24 §8.4) as MafiaRatings' numeric ``bonus``, which the
    site (and :mod:`rules.records.mafiaratings`) reads as the judge's bonus: as he gave them,
    also when the player's best move outweighs them (§8.4.6 is the scoring's, not the record's)."""
    return int(value) if value == value.to_integral_value() else float(value)


PLAYER_KEYS = ("name", "role", "death", "nominating", "voting", "warnings", "techFouls",
               "shooting", "don", "sheriff", "legacy", "bonus")


def _ordered(player: dict[str, Any]) -> dict[str, Any]:
    """The player's fields in the order the site's api_help lists them."""
    return {key: player[key] for key in PLAYER_KEYS if key in player}


# --- the exports ----------------------------------------------------------------------------------
def _when(value: float | dt.datetime | None) -> int | None:
    if value is None:
        return None
    return int(value.timestamp() if isinstance(value, dt.datetime) else value)


def mafiaratings_record(record: GameRecord, config: RulesConfig, *, game_id: Any = None,
                        started_at: float | dt.datetime | None = None,
                        ended_at: float | dt.datetime | None = None) -> tuple[dict[str, Any], list[str]]:
    """The MafiaRatings JSON of a read game and the options its rules code cannot express;
    no self-check (see :func:`to_mafiaratings`)."""
    require_finished(record)
    if not record.state.roles_known:
        raise ExportError("roles_unknown", "the roles are unknown: MafiaRatings records each "
                                           "player's role")
    _check_single_deaths(record)
    _check_cut_short(record)
    code, unexpressed = rules_code(config)
    players, answers = _players(record)
    result = record.outcome()["winner"]
    out: dict[str, Any] = {}
    if game_id is not None:
        out["id"] = game_id
    for key, value in (("startTime", _when(started_at)), ("endTime", _when(ended_at))):
        if value is not None:
            out[key] = value
    features = FEATURES | ({"k"} if answers else set())
    out.update({
        "rules": code,
        "features": "".join(c for c in FEATURE_ORDER if c in features),
        "winner": MR_WINNERS[result],
        "players": players,
    })
    return out, unexpressed


def to_mafiaratings(config: RulesConfig, names: Mapping[int, str] | None, events: list[Event], *,
                    game_id: Any = None, started_at: float | dt.datetime | None = None,
                    ended_at: float | dt.datetime | None = None, strict: bool = False,
                    verify: bool = True) -> dict[str, Any]:
    """A finished game as a MafiaRatings game record (see the module docstring).

    Raises :class:`ExportError` for an unfinished game, unknown roles, hands entered as counts
    (MafiaRatings records each player's vote), a fact the layout has no place for, an option it
    has no code for (with ``strict``, or when the option mattered), and — ``verify`` — any
    difference between the game's outcome and the replay of the export through
    :func:`rules.records.replay`, or an issue MafiaRatings' own check would note
    (:func:`rules.records.mafiaratings_check.site_issues`)."""
    record = read_game(config, dict(names or {}), events)
    out, unexpressed = mafiaratings_record(record, config, game_id=game_id,
                                           started_at=started_at, ended_at=ended_at)
    if strict and unexpressed:
        raise ExportError("options", "MafiaRatings has no rules code for "
                                     + "; ".join(unexpressed), options=", ".join(unexpressed))
    if verify:
        _verify(record, out, unexpressed)
        _site_check(out)
    return out


def _verify(record: GameRecord, exported: dict[str, Any], unexpressed: list[str]) -> None:
    """Replay the export through our importer: the same departures, winner and cancelled
    votes, and no fact refused, or the export is refused. A last day whose vote the game's end
    cut short (:func:`_finished`) is not compared for a cancelled vote: the record shows no
    ballot for it either way."""
    try:
        report = replay(exported)
    except RecordError as error:
        raise ExportError("replay_differs", f"our importer cannot read the export: {error}",
                          differences=str(error)) from None
    ours = record.outcome()
    last = record.days[-1] if record.days else None
    if last is not None and last.cancelled is None and len(_finished(last)) < len(last.rounds):
        for outcome in (ours, report.report):
            outcome["cancelled_votes"] = [d for d in outcome["cancelled_votes"] if d != last.number]
    differences = list(report.differences)
    if report.report != ours:
        differences.append(f"the replay gives {report.report}, the game {ours}")
    if not differences:
        return
    if unexpressed:
        raise ExportError("options", "the game depends on rules MafiaRatings has no code for: "
                          + "; ".join(unexpressed) + " (" + "; ".join(differences) + ")",
                          options=", ".join(unexpressed))
    raise ExportError("replay_differs", "the export does not replay to the same game: "
                      + "; ".join(differences), differences="; ".join(differences))


def _site_check(exported: dict[str, Any]) -> None:
    """MafiaRatings' own validity check (``Game::check``, :func:`site_issues`): the site must
    take the export as it is, or it is refused."""
    issues = site_issues(exported)
    if issues:
        raise ExportError("site_check", "MafiaRatings would find issues in the export: "
                          + "; ".join(issues), issues="; ".join(issues))


def to_json(config: RulesConfig, names: Mapping[int, str] | None, events: list[Event], *,
            game_id: Any = None, started_at: float | dt.datetime | None = None,
            ended_at: float | dt.datetime | None = None) -> dict[str, Any]:
    """Our own protocol of a finished game: ``format``/``version``, ``config``
    (``rules.config_to_dict``), ``names`` and ``roles`` by seat (``"1"``…``"10"``), ``events``
    (the whole log as ``rules.to_dict``, Undo events included), ``outcome`` in the replay
    report's shape ``{"winner", "departures", "cancelled_votes"}``, ``penalties``
    (:func:`penalties`) and ``points`` (:func:`points_json`). Raises
    :class:`ExportError` (``not_finished``) before the end."""
    record = read_game(config, dict(names or {}), events)
    require_finished(record)
    out: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION}
    if game_id is not None:
        out["id"] = game_id
    for key, value in (("started_at", _when(started_at)), ("ended_at", _when(ended_at))):
        if value is not None:
            out[key] = value
    out.update({
        "config": rules.config_to_dict(config),
        "names": {str(s): record.name(s) for s in rules.SEATS if record.name(s)},
        "roles": {str(s): (r.value if (r := record.role(s)) else None) for s in rules.SEATS},
        "events": [rules.to_dict(e) for e in events],
        "outcome": record.outcome(),
        "penalties": penalties(record),
        "points": points_json(record),
    })
    return out


def points_json(record: GameRecord) -> dict[str, Any] | None:
    """The points of the game (F24/S24 §8.2–8.5; the seed's preset scores as FIIM 2024), or
    ``None`` with the roles unknown: ``{"rules": "fiim2024" | "fsm2024", "seats": {"1": {"total",
    "win", "best_move", "extra", "extra_counts", "auto_bonus", "disqualification", "team_loss",
    "bad_play", "bad_plays", "additional"}}, "not_computed": ["compensation"]}`` — points as
    decimal strings (``"0.25"``), ``extra_counts`` whether the judge's extra or the best move
    counts (§8.4.6), ``bad_plays`` the items given (§8.5); the first night's victim's
    compensation (§8.6) needs a series of games and is not computed."""
    table = rules.game_points(record.state)
    if table is None:
        return None
    show = rules.points.show
    seats = {}
    for seat, p in table.items():
        seats[str(seat)] = {
            "total": show(p.total), "win": show(p.win), "best_move": show(p.best_move),
            "extra": show(p.extra), "extra_counts": p.extra_counts,
            "auto_bonus": show(p.auto_bonus), "disqualification": show(p.disqualification),
            "team_loss": show(p.team_loss), "bad_play": show(p.bad_play),
            "bad_plays": list(p.bad_plays), "additional": show(p.additional),
        }
    return {"rules": rules.SCORING[record.config.preset].rules, "seats": seats,
            "not_computed": ["compensation"]}


def penalties(record: GameRecord) -> list[dict[str, Any]]:
    """Every penalty of the game with its moment, for the protocol and the points (seed IV;
    F24 §8.2.4–8.2.5): ``{"seat", "reason", "severity", "when", "after"}``, where ``when`` is
    the moment (``rules.records.model.Moment`` fields) and ``after`` says whether it came after
    the seat had left (``"leaving"``: in or before his last word, or to tonight's victim —
    seed 4.5, docs/rules.md §6.5) or after the result (``"result"``, F24 §7.9), else ``None``."""
    items: list[tuple[PenaltyRecord, str | None]] = []
    for seat in rules.SEATS:
        late = record.late_removals.get(seat)
        late_foul = late is not None and late.severity is rules.Severity.FOUL
        items += [(p, None) for p in record.warnings.get(seat, [])]
        items += [(p, "leaving" if late_foul and p.number == 4 else None)  # the 4th foul: listed once
                  for p in record.fouls.get(seat, [])]
        if seat in record.removals and record.removals[seat].severity is not rules.Severity.FOUL:
            items.append((record.removals[seat], None))
        if late is not None and not late_foul:
            items.append((late, "leaving"))
    if record.team_loss is not None:
        items.append((record.team_loss, None))
    items += [(p, "result") for p in record.after_result]
    out = []
    for penalty, after in items:
        m = penalty.moment
        when = {"kind": m.kind, "day": m.day, **{k: v for k, v in (("seat", m.seat), ("round", m.round),
                                                                    ("step", m.step)) if v is not None}}
        out.append({"seat": penalty.seat, "reason": penalty.reason, "severity": penalty.severity.value,
                    "when": when, "after": after,
                    **({} if penalty.applied else {"applied": False})})  # F24/S24 §6.8.6
    return out


def from_json(data: Mapping[str, Any]) -> tuple[RulesConfig, dict[int, str], list[Event]]:
    """Read back :func:`to_json`: ``(config, names, events)``. ``ValueError`` on another
    format or a bad field."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    config = rules.config_from_dict(data.get("config") or {})
    names = {int(k): str(v) for k, v in (data.get("names") or {}).items()}
    events = [rules.from_dict(e) for e in data.get("events") or []]
    return config, names, events
