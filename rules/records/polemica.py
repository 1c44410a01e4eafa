"""Polemica v4 match records (polemicagame.com) → :class:`~.model.Imported`.

Field meanings (from the ``polemica-library`` model classes and ``GameUtils.kt``): ``role`` 0 don,
1 mafia, 2 civilian, 3 sheriff; ``result`` 0 red, 1 black; ``votes[]`` with ``num`` 0 = nomination,
1 = main vote, 2… = revotes, no ``num`` = a "yes" in the raise vote (``candidate: 1`` means yes);
``shots[]`` one per black shooter per night; ``checks[]`` with ``role`` 0 (Don) or 3 (Sheriff);
``players[].fouls[]`` with the stage they were given at; ``players[].disqual`` the stage of a
removal.

The game is replayed under FIIM 2024 rules (both sites follow them; the draw is declared at the
end of the third quiet night, F24 §7.7) plus the options the record carries: ``zeroVoting``
(the first day; at the top or in ``config``) and ``config.lift3From9`` (raising 3 of 9, F24
§7.11; absent = allowed, as the records without it show).

Two shapes are read: the plain v4 game, and the game as Polemica's API returns it, inside an
envelope ``{"id", "type", "started_at", "ended_at", "winnerCode", "data": {…v4 game…}, "judge",
"players", …}``. The game inside ``data`` is what is replayed (its fields are named
``data.…`` in errors); the envelope is a cross-check (:func:`envelope_checks`).
"""

from __future__ import annotations

import re
from typing import Any

from ..config import PRESETS, DrawDeclared, FirstDayVote, RulesConfig
from .model import (
    DayFacts, GameFacts, Moment, NightFacts, Outcome, PenaltyFact, RecordedDeparture, RecordError,
    recorded_cancelled_votes, vote_expected,
)

ROLES = {0: "don", 1: "mafia", 2: "civilian", 3: "sheriff"}
RESULTS = {0: "red", 1: "black"}
# ``zeroVoting``, the first day's vote. ``respeech`` and ``liftOnly`` both hold the vote and keep a
# single leader at the table (he speaks again); only a passed lift removes anyone — Polemica's
# own library reads them alike (polemica-library GameUtils: ``withBreak()`` is false for both).
FIRST_DAY = {None: FirstDayVote.SINGLE_NOT_VOTED, "none": FirstDayVote.NO_VOTE,
             "liftOnly": FirstDayVote.RAISE_ONLY, "respeech": FirstDayVote.RAISE_ONLY}
# Config keys with no bearing on the course of the game (how votes are shown, whether the
# referee sees the cards, how they were dealt, how the game is scored).
NEUTRAL_CONFIG = ("openVoting", "refereeKnowRoles", "dealingType", "scoringType", "scoringVersion")
#: A platform flag of the game (``isLive``; any ``is…``/``has…`` key that is true or false): how
#: the platform shows or counts the game, never a rule of it. Read as such, noted, not compared;
#: any other key the importer does not know stays an error (an unknown rule is never guessed).
PLATFORM_FLAGS = ("isLive",)
PLATFORM_FLAG = re.compile(r"(is|has)[A-Z][A-Za-z0-9]*")
CHECKERS = {0: "don", 3: "sheriff"}

# Fouls' and removals' stages (Stage.kt) → the engine's moment.
NIGHT_ZERO_STAGES = ("dealing", "briefing", "comIntro")
# comKill: the judge names the black who "killed the Sheriff" (``comKiller``, a scoring field),
# the night's last step after the guess (the best move): a foul then is given at the night's end.
NIGHT_STAGES = {"toNight": "shooting", "shooting": "shooting", "checks": "don_check",
                "donCheck": "don_check", "comCheck": "sheriff_check", "guess": "best_move",
                "comKill": "best_move"}
RAISE_STAGES = ("toLift", "lift", "liftResult")
DAY_STAGES = ("speech", "voted", "shooted", "reSpeech", "toVoting", "voting") + RAISE_STAGES


def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(field, f"expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(field, f"{value} is out of range {low}..{high}")
    return value


def _seat(value: Any, field: str) -> int:
    return _int(value, field, 1, 10)


def _list(record: dict[str, Any], key: str) -> list[Any]:
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(key, "expected a list")
    return value


# --- options -----------------------------------------------------------------------------------
def is_platform_flag(key: str, value: Any) -> bool:
    """Whether ``config.key`` is a platform flag (:data:`PLATFORM_FLAGS`, :data:`PLATFORM_FLAG`)."""
    return key in PLATFORM_FLAGS or (isinstance(value, bool) and PLATFORM_FLAG.fullmatch(key) is not None)


def platform_flags(record: dict[str, Any]) -> list[str]:
    """The notes on the record's platform flags in ``config`` (read, carrying no rule)."""
    config = record.get("config")
    if not isinstance(config, dict):
        return []
    return [f"config.{key}: {value!r}, a platform flag: no rule, not compared"
            for key, value in config.items()
            if key not in NEUTRAL_CONFIG and is_platform_flag(key, value)]


def read_config(record: dict[str, Any]) -> RulesConfig:
    """The FIIM 2024 preset with the record's options (README "Options and causes")."""
    zero = record.get("zeroVoting")
    field = "zeroVoting"
    raise_3_of_9 = True  # records without config hold raise votes among 3 of 9 (333915)
    config = record.get("config")
    if config is not None:
        if not isinstance(config, dict):
            raise RecordError("config", "expected an object")
        for key, value in config.items():
            if key == "lift3From9":
                if not isinstance(value, bool):
                    raise RecordError("config.lift3From9", f"expected true or false, got {value!r}")
                raise_3_of_9 = value
            elif key == "zeroVoting":
                if "zeroVoting" in record and value != zero:
                    raise RecordError("config.zeroVoting", f"{value!r} disagrees with the game's "
                                                           f"zeroVoting {zero!r}")
                zero, field = value, "config.zeroVoting"
            elif key not in NEUTRAL_CONFIG and not is_platform_flag(key, value):
                raise RecordError(f"config.{key}", f"unknown option (value {value!r})")
    if zero not in FIRST_DAY:
        raise RecordError(field, f"unknown first-day rule {zero!r} (known: none, liftOnly, "
                                 f"respeech, or absent)")
    return PRESETS["fiim2024"].with_options(
        first_day_vote=FIRST_DAY[zero].value,
        raise_2_of_4=True,  # F24 §4.4.12.3 allows it
        raise_3_of_9=raise_3_of_9,
        best_move=True,  # F24 §4.5.9
        draw_declared=DrawDeclared.AFTER_THIRD_NIGHT.value,  # F24 §7.7
        last_word_on_decisive_event=True,  # F24 §7.9
    )


# --- players -------------------------------------------------------------------------------------
def read_players(record: dict[str, Any]) -> dict[int, dict[str, Any]]:
    players = _list(record, "players")
    if len(players) != 10:
        raise RecordError("players", f"expected 10 players, got {len(players)}")
    out: dict[int, dict[str, Any]] = {}
    for i, player in enumerate(players):
        if not isinstance(player, dict):
            raise RecordError(f"players[{i}]", "expected an object")
        seat = _seat(player.get("position"), f"players[{i}].position")
        if seat in out:
            raise RecordError(f"players[{i}].position", f"seat {seat} appears twice")
        if player.get("role") not in ROLES:
            raise RecordError(f"players[{i}].role", f"unknown role {player.get('role')!r}")
        out[seat] = player
    return out


def _index_of(record: dict[str, Any], seat: int) -> int:
    for i, player in enumerate(record["players"]):
        if player.get("position") == seat:
            return i
    return seat - 1


# --- stages --------------------------------------------------------------------------------------
def stage_moment(stage: Any, field: str) -> Moment:
    """Where a foul or a removal happened (README: Polemica ``stage.type``)."""
    if not isinstance(stage, dict):
        raise RecordError(field, "expected a stage object")
    kind = stage.get("type")
    day = _int(stage.get("day", 0), f"{field}.day", 0, 99)
    player = stage.get("player")
    seat = _seat(player, f"{field}.player") if player is not None else None
    voting = stage.get("voting")
    num = _int(voting, f"{field}.voting", 0, 99) if voting is not None else None
    if kind in NIGHT_ZERO_STAGES:
        return Moment("night_zero", 0)
    if kind in NIGHT_STAGES:
        return Moment("night", day, step=NIGHT_STAGES[kind])
    if kind == "speech":
        return Moment("speech", day, seat=seat)
    if kind == "shooted":  # the night victim's last word in the morning
        return Moment("morning", day, seat=seat)
    if kind == "voted":  # the farewell of a player voted out
        return Moment("last_word", day, seat=seat)
    if kind == "reSpeech":  # 30 s before revote: ``voting`` is the round that tied (num 1…)
        return Moment("tie_speech", day, seat=seat, round=num)
    if kind == "toVoting":
        return Moment("voting_start", day)
    if kind == "toDay":  # the passage to day ``day``: the morning, before its first word
        return Moment("day_start", day)
    if kind == "voting":  # during vote ``num`` (1 = main vote = engine round 0)
        return Moment("voting", day, seat=seat, round=None if num is None else max(num - 1, 0))
    if kind in RAISE_STAGES:
        return Moment("raise", day)
    if kind == "gameOver":
        return Moment("end", day)
    raise RecordError(f"{field}.type", f"unknown or ambiguous stage {kind!r}")


def _phase(moment: Moment) -> str:
    return "night" if moment.kind in ("night", "night_zero") else "day"


def read_penalties(record: dict[str, Any], players: dict[int, dict[str, Any]]) -> tuple[
        list[PenaltyFact], dict[int, tuple[Moment, str]]]:
    """Fouls in the order given (their timestamps), and removals not by four fouls as a
    disqualification (seed 4.2) at the stage of ``disqual``. Returns the penalties and, per
    removed seat, the removal's moment and cause (README: four fouls → fouls, else
    disqualification)."""
    penalties: list[PenaltyFact] = []
    removals: dict[int, tuple[Moment, str]] = {}
    for seat, player in sorted(players.items()):
        i = _index_of(record, seat)
        fouls = player.get("fouls") or []
        if not isinstance(fouls, list):
            raise RecordError(f"players[{i}].fouls", "expected a list")
        last_time = ""
        for j, foul in enumerate(fouls):
            field = f"players[{i}].fouls[{j}]"
            if not isinstance(foul, dict):
                raise RecordError(field, "expected an object")
            moment = stage_moment(foul.get("stage"), f"{field}.stage")
            time = str(foul.get("time") or "")
            last_time = max(last_time, time)
            penalties.append(PenaltyFact(seat, "foul", moment, (time, seat, j), field))
        techs = player.get("techs") or []
        if not isinstance(techs, list):
            raise RecordError(f"players[{i}].techs", "expected a list")
        disqual = player.get("disqual")
        if disqual is not None:
            field = f"players[{i}].disqual"
            moment = stage_moment(disqual, field)
            if len(fouls) >= 4:
                removals[seat] = (moment, "fouls")  # the engine removes him at the 4th (seed 4.5)
            else:
                removals[seat] = (moment, "disqualification")
                penalties.append(PenaltyFact(seat, "dq", moment, (last_time + "~", seat, 99), field))
    return penalties, removals


# --- votes, shots, checks ------------------------------------------------------------------------
def read_days(record: dict[str, Any]) -> dict[int, DayFacts]:
    days: dict[int, DayFacts] = {}
    rounds: dict[int, dict[int, dict[int, int]]] = {}
    lifts: dict[int, set[int]] = {}
    for i, vote in enumerate(_list(record, "votes")):
        field = f"votes[{i}]"
        if not isinstance(vote, dict):
            raise RecordError(field, "expected an object")
        day = _int(vote.get("day"), f"{field}.day", 1, 99)
        voter = _seat(vote.get("voter"), f"{field}.voter")
        num = vote.get("num")
        candidate = vote.get("candidate")
        facts = days.setdefault(day, DayFacts())
        if num is None:  # the raise ballot: candidate 1 = "yes", 0 = bookkeeping
            if candidate == 1:
                lifts.setdefault(day, set()).add(voter)
            elif candidate not in (0, None):
                raise RecordError(f"{field}.candidate", f"unknown raise-vote answer {candidate!r}")
            continue
        num = _int(num, f"{field}.num", 0, 99)
        if candidate in (0, None):
            continue  # abstain / bookkeeping (PolemicaVote.kt)
        target = _seat(candidate, f"{field}.candidate")
        if num == 0:
            if voter in facts.nominations and facts.nominations[voter] != target:
                raise RecordError(field, f"seat {voter} nominates twice on day {day}")
            facts.nominations[voter] = target
        else:
            rounds.setdefault(day, {}).setdefault(num, {})[voter] = target
    for day, by_num in rounds.items():
        nums = sorted(by_num)
        if nums != list(range(1, len(nums) + 1)):
            raise RecordError("votes", f"day {day}: vote rounds {nums} are not 1, 2, …")
        days[day].rounds = [by_num[n] for n in nums]
        days[day].raise_yes = len(lifts.get(day, ()))  # only "yes" is recorded
        days[day].raise_voters = tuple(sorted(lifts.get(day, ())))
    for day in lifts:
        if day not in rounds:
            raise RecordError("votes", f"day {day}: raise-vote ballots without a vote")
    return days


def read_nights(record: dict[str, Any]) -> dict[int, NightFacts]:
    nights: dict[int, NightFacts] = {}
    shots: dict[int, list[tuple[int, int | None]]] = {}
    for i, shot in enumerate(_list(record, "shots")):
        field = f"shots[{i}]"
        if not isinstance(shot, dict):
            raise RecordError(field, "expected an object")
        night = _int(shot.get("night"), f"{field}.night", 1, 99)
        shooter = _seat(shot.get("shooter"), f"{field}.shooter")
        victim = shot.get("victim")
        target = None if victim in (None, 0) else _seat(victim, f"{field}.victim")
        shots.setdefault(night, []).append((shooter, target))
    for night, list_ in shots.items():
        nights.setdefault(night, NightFacts()).shots = tuple(list_)
    for i, check in enumerate(_list(record, "checks")):
        field = f"checks[{i}]"
        if not isinstance(check, dict):
            raise RecordError(field, "expected an object")
        night = _int(check.get("night"), f"{field}.night", 1, 99)
        who = CHECKERS.get(check.get("role"))  # type: ignore[arg-type]
        if who is None:
            raise RecordError(f"{field}.role", f"unknown checker {check.get('role')!r}")
        target = _seat(check.get("player"), f"{field}.player")
        facts = nights.setdefault(night, NightFacts())
        setattr(facts, f"{who}_check", target)
    return nights


def best_move(players: dict[int, dict[str, Any]], nights: dict[int, NightFacts],
              roles: dict[int, str]) -> tuple[int, ...] | None:
    """The night-1 victim's named blacks (``guess.mafs``), when he was killed (F24 §4.5.9)."""
    night = nights.get(1)
    if night is None or not night.shots:
        return None
    victims = {t for _, t in night.shots}
    if len(victims) != 1:
        return None
    victim = next(iter(victims))
    guess = players.get(victim, {}).get("guess") if victim else None
    mafs = guess.get("mafs") if isinstance(guess, dict) else None
    if isinstance(mafs, list) and 1 <= len(mafs) <= 3 and all(isinstance(x, int) for x in mafs):
        return tuple(mafs)
    return None


# --- what the record says happened ----------------------------------------------------------------
def vote_departures(day: int, facts: DayFacts, first_day: FirstDayVote) -> tuple[list[int], str]:
    """Who the record's ballots remove (GameUtils.getFinalVotes): the final round's single
    leader (not on day 1 under zeroVoting), or all tied leaders when the raise passed: yes >
    voters of the final round − yes (F24 §4.4.12.3)."""
    if not facts.rounds:
        return [], "vote"
    final = facts.rounds[-1]
    counts: dict[int, int] = {}
    for target in final.values():
        counts[target] = counts.get(target, 0) + 1
    if not counts:
        return [], "vote"
    top = max(counts.values())
    leaders = sorted(c for c, n in counts.items() if n == top)
    if len(leaders) == 1:
        if day == 1 and first_day in (FirstDayVote.RAISE_ONLY, FirstDayVote.NO_VOTE):
            return [], "vote"
        return leaders, "vote"
    yes = facts.raise_yes or 0
    return (leaders, "raise") if yes > len(final) - yes else ([], "raise")


def read_outcome(record: dict[str, Any], config: RulesConfig, roles: dict[int, str],
                 days: dict[int, DayFacts], nights: dict[int, NightFacts],
                 removals: dict[int, tuple[Moment, str]]) -> Outcome:
    """Departures in the order they happened: day k's votes and removals, then night k's
    removals and kill (a kill ⇔ every black at the table shot the same seat, F24 §4.5.4)."""
    result = record.get("result")
    stage = record.get("stage") or {}
    complete = isinstance(stage, dict) and stage.get("type") == "gameOver"
    if result is None:
        winner = None
    elif result in RESULTS:
        winner = RESULTS[result]
    else:
        raise RecordError("result", f"unknown result {result!r}")
    if complete and winner is None:
        raise RecordError("result", "the game is over but the record has no result")
    out: dict[int, RecordedDeparture] = {}
    last = max([*days, *nights, *(m.day for m, _ in removals.values()), 0])
    for k in range(0, last + 1):
        if k in days:  # a player voted out keeps his cause if removed in his last word
            leaving, cause = vote_departures(k, days[k], config.first_day_vote)
            for seat in leaving:
                if seat not in out:
                    out[seat] = RecordedDeparture(seat, k, "day", cause)
        for seat, (moment, cause) in removals.items():
            if moment.day == k and _phase(moment) == "day" and seat not in out:
                out[seat] = RecordedDeparture(seat, k, "day", cause)
        night_removals = [(seat, moment, cause) for seat, (moment, cause) in removals.items()
                          if moment.day == k and _phase(moment) == "night"]
        for seat, moment, cause in night_removals:  # before the shooting (toNight, night 0)
            if (moment.kind == "night_zero" or moment.step == "shooting") and seat not in out:
                out[seat] = RecordedDeparture(seat, k, "night", cause)
        night = nights.get(k)
        if night and night.shots:
            blacks = [s for s, r in roles.items() if r in ("mafia", "don") and s not in out]
            victims = {t for _, t in night.shots}
            victim = next(iter(victims)) if len(victims) == 1 else None
            if victim is not None and victim not in out and len(night.shots) >= len(blacks):
                out[victim] = RecordedDeparture(victim, k, "night", "kill")
        for seat, moment, cause in night_removals:  # a victim removed the same night: the kill
            if seat not in out:  # stands (SC-killed-and-removed)
                out[seat] = RecordedDeparture(seat, k, "night", cause)
    skip: set[int] = set()  # a partial record's unfinished day cannot show a cancelled vote
    if not complete and isinstance(stage, dict) and stage.get("type") not in NIGHT_STAGES:
        skip.add(int(stage.get("day") or 0))
    cancelled = recorded_cancelled_votes(days, config.first_day_vote, skip)
    shown = sorted(d for d, f in days.items()
                   if d not in skip and vote_expected(d, f, config.first_day_vote))
    return Outcome(winner, list(out.values()), cancelled, complete, shown)


def end_clock(record: dict[str, Any]) -> tuple[int, int]:
    """The point where the record stops: its ``stage`` (night stages → that night)."""
    stage = record.get("stage")
    if not isinstance(stage, dict):
        raise RecordError("stage", "expected a stage object")
    day = _int(stage.get("day", 0), "stage.day", 0, 99)
    if stage.get("type") == "gameOver":
        return (day, 2)  # over on day ``day`` or in the night after it (a draw, F24 §7.7)
    return (day, 2) if stage.get("type") in NIGHT_STAGES else (day, 1)


def is_envelope(record: dict[str, Any]) -> bool:
    """Is ``record`` the API envelope (the game inside ``data``) rather than the game itself?"""
    data = record.get("data")
    return isinstance(data, dict) and not any(key in record for key in ("votes", "shots", "stage"))


# The envelope's winner: the game's own ``result`` coding (0 red, 1 black).
WINNER_CODES = {0: "red", 1: "black"}


def envelope_checks(envelope: dict[str, Any], game: dict[str, Any], outcome: Outcome,
                    facts: GameFacts) -> None:
    """Cross-check the envelope against the game inside it. A disagreement about what happened
    is a problem (a difference of the replay): the winner (``winnerCode`` against the game's
    ``result``), a player's card (``players[].role``); the order the players left the table
    (``players[].quit_index``, 2 = the first to leave) becomes part of the recorded outcome and
    is compared with the replay's. One about who or what is named is a note: the judge
    (``judge`` against the game's ``referee``), a player's name, the game's id."""
    code = envelope.get("winnerCode")
    if code is not None:
        said = WINNER_CODES.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
        if said is None:
            facts.notes.append(f"winnerCode: {code!r} is not a result code (0 red, 1 black); "
                               f"not compared")
        elif outcome.winner is None:
            facts.notes.append(f"winnerCode: the envelope says {said}, the game has no result")
        elif said != outcome.winner:
            facts.problems.append(f"winnerCode: the envelope says {said} won, the game's result "
                                  f"{outcome.winner}")
    if "id" in game and "id" in envelope and game["id"] != envelope["id"]:
        facts.notes.append(f"id: the envelope's {envelope['id']!r}, the game's {game['id']!r}")
    judge, referee = envelope.get("judge"), game.get("referee")
    if isinstance(judge, dict) and isinstance(referee, dict):
        for key in ("id", "username"):
            if key in judge and key in referee and judge[key] != referee[key]:
                facts.notes.append(f"judge.{key}: the envelope's {judge[key]!r}, the game's "
                                   f"referee {referee[key]!r}")
    people = envelope.get("players")
    if people is None:
        return
    if not isinstance(people, list):
        raise RecordError("players", "expected the envelope's list of players")
    seats = {p.get("position"): p for p in game.get("players") or [] if isinstance(p, dict)}
    order: list[tuple[int, int]] = []
    for i, person in enumerate(people):
        if not isinstance(person, dict):
            raise RecordError(f"players[{i}]", "expected an object")
        # The envelope's seat is its tablePosition (its "position", where it has one beside it,
        # is the player's place in the game's standings); an envelope without it: "position".
        key = "tablePosition" if "tablePosition" in person else "position"
        seat = person.get(key)
        if seat not in seats:
            facts.notes.append(f"players[{i}]: no seat of the game ({key} {seat!r}); not compared")
            continue
        mine = seats[seat]
        if "role" in person and person["role"] != mine.get("role"):
            facts.problems.append(f"players[{i}].role: the envelope deals seat {seat} role "
                                  f"{person['role']!r}, the game {mine.get('role')!r}")
        if "username" in person and "username" in mine and person["username"] != mine["username"]:
            facts.notes.append(f"players[{i}].username: {person['username']!r}, in the game "
                               f"{mine['username']!r}")
        quit_index = person.get("quit_index")
        if quit_index is not None:
            if not isinstance(quit_index, int) or isinstance(quit_index, bool):
                raise RecordError(f"players[{i}].quit_index", f"expected a number, got {quit_index!r}")
            if quit_index >= 2:
                order.append((quit_index, seat))
    if any(p.get("quit_index") is not None for p in people if isinstance(p, dict)):
        outcome.leaving_order = [seat for _, seat in sorted(order)]


def read(record: dict[str, Any]) -> tuple[RulesConfig, dict[int, str], tuple[str, ...], GameFacts,
                                          Outcome]:
    """Parse a Polemica record, plain or in its API envelope (:func:`is_envelope`): config,
    names, roles, facts, recorded outcome."""
    if not is_envelope(record):
        return read_game(record)
    game = record["data"]
    try:
        parsed = read_game(game, in_envelope=True)
    except RecordError as error:
        raise RecordError(f"data.{error.field}", error.message) from None
    envelope_checks(record, game, parsed[4], parsed[3])
    return parsed


def read_game(record: dict[str, Any], in_envelope: bool = False) -> tuple[
        RulesConfig, dict[int, str], tuple[str, ...], GameFacts, Outcome]:
    """The v4 game itself. In an envelope its ``version`` may be left out (the envelope is the
    v4 API's)."""
    if record.get("version") != 4 and not (in_envelope and "version" not in record):
        raise RecordError("version", f"only Polemica v4 records are known, got {record.get('version')!r}")
    config = read_config(record)
    players = read_players(record)
    roles = {seat: ROLES[p["role"]] for seat, p in players.items()}
    names = {seat: str(p.get("username") or f"Игрок {seat}") for seat, p in players.items()}
    days = read_days(record)
    nights = read_nights(record)
    penalties, removals = read_penalties(record, players)
    stage = record.get("stage")
    partial = not (isinstance(stage, dict) and stage.get("type") == "gameOver")
    facts = GameFacts(days=days, nights=nights, penalties=penalties,
                      best_move=best_move(players, nights, roles), end=end_clock(record),
                      stop_at=stage_moment(stage, "stage") if partial else None)
    facts.notes.extend(platform_flags(record))
    for seat, player in sorted(players.items()):
        if player.get("techs"):
            facts.notes.append(f"seat {seat}: {len(player['techs'])} technical foul(s) recorded; "
                               f"they are not fouls (a removal shows in 'disqual')")
    outcome = read_outcome(record, config, roles, days, nights, removals)
    return config, names, tuple(roles[s] for s in range(1, 11)), facts, outcome
