"""MafiaRatings game records (mafiaratings.com) → :class:`~.model.Imported`.

Field meanings (``include/game.php`` ``Game::api_help``):
``players[i]`` is seat i+1; ``role`` civ (default) / maf / sheriff / don; ``winner`` civ / maf /
tie. Round 0 is night 0 plus the first day; round r ≥ 1 is night r plus day r+1 (our numbering).
``nominating[r]`` is the seat nominated on round r's day; ``voting[r]`` a seat, or a list with
the vote of each tie round, optionally ending with the kill-all answer (true/false); ``death`` is
``{round, type, time}``; ``warnings[]`` are fouls (MafiaRatings calls fouls "warnings") with the
game time they were given; ``don`` / ``sheriff`` the round this player was checked in;
``legacy`` the best move.

Night outcomes are taken from ``death`` (the site rewrites ``shooting`` to match a recorded
death, so shots are partly derived). The ``rules`` code is read position by position after the
site's own ``include/rules.php`` (13 options, every value mapped to the engine's options; a
record without a code is played by the site's ``DEFAULT_RULES``); a value the site does not
define is a :class:`~.model.RecordError`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..config import (
    PRESETS, DrawDeclared, FirstDayVote, NominationWithdrawal, RevoteOrder, Rotation, RulesConfig,
    ThirdFoul,
)
from .model import (
    DayFacts, GameFacts, Moment, NightFacts, Outcome, PenaltyFact, RecordedDeparture, RecordError,
    recorded_cancelled_votes, vote_expected,
)

ROLES = {"civ": "civilian", "sheriff": "sheriff", "maf": "mafia", "don": "don"}
WINNERS = {"civ": "red", "maf": "black", "tie": "draw"}
FEATURES = set("agsdutclhvkwrnoi")  # include/game.php GAME_FEATURE_FLAG_* letters

# Death types (include/game.php DEATH_TYPE_*) → the report's cause and the penalty fed.
DEATH_CAUSES = {"day": "vote", "night": "kill", "warnings": "fouls", "techFouls": "disqualification",
                "kickOut": "disqualification", "giveUp": "disqualification",
                "teamKickOut": "team_loss"}
DEATH_PENALTIES = {"kickOut": "dq", "techFouls": "dq", "giveUp": "4.2.1", "teamKickOut": "ppk"}

# Game times (include/game.php GAMETIME_*), in the order the site sorts them within a round.
NIGHT_TIMES = {"start": None, "arrangement": None, "relaxed sitting": None,
               "night start": "shooting", "shooting": "shooting", "don": "don_check",
               "sheriff": "sheriff_check"}
DAY_TIMES = ("day start", "night kill speaking", "speaking", "voting start", "voting",
             "voting kill all", "day kill speaking")

# include/rules.php, the 13-option code: position → (name, paragraph, {value: engine options}).
# Scoring and bookkeeping options (6.7, 6.8: colours left on record) change nothing the engine
# plays; every other value is an option of RulesConfig (its docstrings quote the rule texts).
RULES: tuple[tuple[str, str, dict[int, dict[str, Any]]], ...] = (
    ("rotation", "6.3", {0: {"rotation": Rotation.FIRST.value},  # 6.3.1
                         1: {"rotation": Rotation.LAST.value}}),  # 6.3.2
    ("onRecord", "6.7", {v: {} for v in range(5)}),  # colours left on record: scoring only
    ("onRecordCount", "6.8", {v: {} for v in range(10)}),
    ("withdraw", "7.5", {0: {"nomination_withdrawal": NominationWithdrawal.EXPLICIT.value},
                         1: {"nomination_withdrawal": NominationWithdrawal.AUTO.value},
                         2: {"nomination_withdrawal": NominationWithdrawal.NONE.value}}),
    ("firstVoting", "7.16", {0: {"first_day_vote": FirstDayVote.SINGLE_NOT_VOTED.value},  # 7.16.1
                             1: {"first_day_vote": FirstDayVote.RAISE_ONLY.value},  # to-talk
                             2: {"first_day_vote": FirstDayVote.NO_BREAK.value},
                             3: {"first_day_vote": FirstDayVote.SELF_BREAK.value}}),
    ("splitOrder", "7.18", {0: {"revote_order": RevoteOrder.SAME.value},
                            1: {"revote_order": RevoteOrder.REVERSE.value}}),
    ("killAll", "7.21", {0: {"raise_whole_table": False}, 1: {"raise_whole_table": True}}),
    ("splitOnFour", "7.22", {0: {"raise_2_of_4": True}, 1: {"raise_2_of_4": False}}),
    ("splitOnNine", "7.23", {0: {"raise_3_of_9": True, "raise_3_of_9_from_day": 1},
                             1: {"raise_3_of_9": False, "raise_3_of_9_from_day": 1},
                             # 'after1': js/src/game.js raises only in round > 1 = our day 3
                             2: {"raise_3_of_9": True, "raise_3_of_9_from_day": 3}}),
    ("legacy", "8.17", {0: {"best_move": True}, 1: {"best_move": False}}),
    ("gameEndSpeech", "8.19", {0: {"last_word_on_decisive_event": True},
                               1: {"last_word_on_decisive_event": False}}),
    ("threeFouls", "9.5", {0: {"third_foul": ThirdFoul.SILENCE.value},
                           1: {"third_foul": ThirdFoul.SHORT_SPEECH.value},
                           2: {"third_foul": ThirdFoul.NONE.value}}),
    ("techFouls", "9.6", {0: {"technical_fouls": False}, 1: {"technical_fouls": True}}),
)

#: include/rules.php DEFAULT_RULES: the code the site plays a game by when it carries none.
DEFAULT_RULES = "0002000010000"


def upgrade_rules_code(code: str) -> str:
    """The site's ``upgrade_rules_code``: older 29-, 12- and 14-character codes → 13."""
    if len(code) == 29:
        code = code[:20]
        code = code[:17] + code[19:]
        code = code[:12] + code[15:]
        code = code[:9] + code[10:]
        code = code[:6] + code[8:]
        code = code[:4] + code[5:]
        code = code[:1] + code[3:]
        code = code[:2] + "00" + code[2:]
        code = code[:6] + "0" + code[6:]
        code = code[:9] + "0" + code[9:]
    if len(code) == 12:
        code = code[:11] + "00" + code[11:]
    if len(code) == 14:
        code = code[:-1]
    return code


def code_options(code: Any) -> dict[str, Any]:
    """The engine options a 13-digit ``rules`` code names, position by position (older
    lengths upgraded as the site does). Raises :class:`RecordError` naming ``rules`` or the
    position ``rules[k]`` whose value include/rules.php does not define."""
    if not isinstance(code, str):
        raise RecordError("rules", f"expected the rules code string, got {code!r}")
    upgraded = upgrade_rules_code(code)
    if len(upgraded) != len(RULES) or not upgraded.isdigit():
        raise RecordError("rules", f"unknown rules code {code!r} (expected {len(RULES)} digits)")
    options: dict[str, Any] = {}
    for k, (name, paragraph, values) in enumerate(RULES):
        value = int(upgraded[k])
        meaning = values.get(value)
        if meaning is None:
            raise RecordError(f"rules[{k}]", f"{name} ({paragraph}) has no value {value}")
        options.update(meaning)
    return options


def read_config(record: dict[str, Any]) -> RulesConfig:
    """FIIM 2024 (the draw at the end of the third quiet night, F24 §7.7) plus the options of
    the ``rules`` code, position by position (absent: :data:`DEFAULT_RULES`, as the site's
    ``Game::get_rules``)."""
    options: dict[str, Any] = {"draw_declared": DrawDeclared.AFTER_THIRD_NIGHT.value,
                               "raise_vote": True, "unvoted_hands_to_last": True}  # 7.13, 7.17
    options.update(code_options(record.get("rules", DEFAULT_RULES)))
    return PRESETS["fiim2024"].with_options(**options)


# --- small readers --------------------------------------------------------------------------------
def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(field, f"expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(field, f"{value} is out of range {low}..{high}")
    return value


def _seat(value: Any, field: str) -> int:
    return _int(value, field, 1, 10)


def _list(player: dict[str, Any], key: str, field: str) -> list[Any]:
    value = player.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(f"{field}.{key}", "expected a list")
    return value


def game_time(time: Any, field: str) -> Moment:
    """A MafiaRatings game time ``{round, time, speaker|votingRound|nominee}`` as a moment.

    Round r holds night r (times start … sheriff) and then day r+1 (day start … day kill
    speaking). In ``voting``, a ``speaker`` is a tie speech before revote ``votingRound``."""
    if not isinstance(time, dict):
        raise RecordError(field, "expected a game time object")
    rnd = _int(time.get("round"), f"{field}.round", 0, 99)
    kind = time.get("time")
    speaker = time.get("speaker")
    seat = _seat(speaker, f"{field}.speaker") if speaker is not None else None
    nominee = time.get("nominee")
    nominee = _seat(nominee, f"{field}.nominee") if nominee is not None else None
    voting_round = time.get("votingRound")
    vr = _int(voting_round, f"{field}.votingRound", 0, 99) if voting_round is not None else None
    day = rnd + 1
    if kind in NIGHT_TIMES:
        step = NIGHT_TIMES[kind]
        if step is None:
            if rnd != 0:
                raise RecordError(f"{field}.time", f"{kind!r} in round {rnd}")
            return Moment("night_zero", 0)
        if rnd == 0:
            raise RecordError(f"{field}.time", f"{kind!r} in round 0 (there is no shooting night 0)")
        return Moment("night", rnd, step=step)
    if kind == "day start":
        return Moment("day_start", day)
    if kind == "night kill speaking":
        return Moment("morning", day, seat=seat)
    if kind == "speaking":
        return Moment("speech", day, seat=seat)
    if kind == "voting start":
        return Moment("voting_start", day)
    if kind == "voting":
        if seat is not None:
            return Moment("tie_speech", day, seat=seat, round=vr)
        return Moment("voting", day, seat=nominee, round=vr)
    if kind == "voting kill all":
        return Moment("raise", day)
    if kind == "day kill speaking":
        return Moment("last_word", day, seat=seat)
    if kind == "end":
        return Moment("end", day)
    raise RecordError(f"{field}.time", f"unknown game time {kind!r}")


def _order(time: Any) -> int:
    """The site's ``order`` of a game time: the rank of an action among those at one moment."""
    order = time.get("order") if isinstance(time, dict) else None
    return order if isinstance(order, int) and not isinstance(order, bool) else 0


def _phase(moment: Moment) -> str:
    return "night" if moment.kind in ("night", "night_zero") else "day"


# --- the record ---------------------------------------------------------------------------------
class _Reader:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        players = record.get("players")
        if not isinstance(players, list) or len(players) != 10:
            raise RecordError("players", "expected a list of 10 players")
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise RecordError(f"players[{i}]", "expected an object")
        self.players: list[dict[str, Any]] = players
        features = record.get("features")
        if not isinstance(features, str):
            raise RecordError("features", f"expected the feature letters, got {features!r}")
        unknown = set(features) - FEATURES
        if unknown:
            raise RecordError("features", f"unknown feature letter(s) {''.join(sorted(unknown))!r}")
        missing = set("dutvn") - set(features)
        if missing:
            raise RecordError("features", f"the record lacks {''.join(sorted(missing))!r}: deaths, "
                                          f"their rounds and types, votes and nominations are needed")
        self.features = features
        self.deaths = {i + 1: self.death(i) for i in range(10)}
        self.fates = {seat: self.fate(seat) for seat in self.deaths}

    def fate(self, seat: int) -> tuple[int, str] | None:
        """(round, type) of how ``seat`` left the table (``None``: he did not, or only after the
        game's end). The site writes a removal in a player's
        own last word over his kill or vote (js/src/game.js ``gamePlayerWarning``,
        ``gamePlayerKickOut`` … set ``death`` whatever it was), but he had left already: a
        removal at his own morning last word is the night's kill (round r: night r), one at his
        own last word after the vote is the vote (seed 4.5, 5.1 and SC-killed-and-removed: the
        earlier departure stands; the removal is still fed, at that moment)."""
        death = self.deaths[seat]
        if death is None:
            return None
        rnd, kind, moment = death
        if moment is not None and moment.kind == "end":
            return None  # a removal after the game is a penalty only (F24 §7.9), fed as such
        if moment is not None and moment.seat == seat and moment.kind in ("morning", "last_word"):
            return moment.day - 1, "night" if moment.kind == "morning" else "day"
        return rnd, kind

    def death(self, i: int) -> tuple[int, str, Moment | None] | None:
        """(round, type, moment of a removal) of seat i+1, or None if he stayed to the end."""
        field = f"players[{i}].death"
        death = self.players[i].get("death")
        if death is None:
            return None
        if not isinstance(death, dict):
            raise RecordError(field, f"expected {{round, type}}, got {death!r}")
        rnd = _int(death.get("round"), f"{field}.round", 0, 99)
        kind = death.get("type")
        if kind not in DEATH_CAUSES:
            raise RecordError(f"{field}.type", f"unknown death type {kind!r}")
        moment = None
        if kind not in ("day", "night"):
            time = death.get("time")
            if time is None and kind == "warnings":
                warnings = self.players[i].get("warnings")
                time = warnings[3] if isinstance(warnings, list) and len(warnings) > 3 else None
            if time is None and kind == "techFouls":
                techs = self.players[i].get("techFouls")
                time = techs[1] if isinstance(techs, list) and len(techs) > 1 else None
            if time is None:
                raise RecordError(f"{field}.time", f"a {kind} removal without its game time")
            moment = game_time(time, f"{field}.time")
        return rnd, kind, moment

    # --- options and people ---------------------------------------------------------------
    def roles(self) -> tuple[str, ...]:
        out = []
        for i, p in enumerate(self.players):
            role = p.get("role", "civ")
            if role not in ROLES:
                raise RecordError(f"players[{i}].role", f"unknown role {role!r}")
            out.append(ROLES[role])
        return tuple(out)

    def names(self) -> dict[int, str]:
        return {i + 1: str(p.get("name") or f"Игрок {i + 1}") for i, p in enumerate(self.players)}

    # --- days ------------------------------------------------------------------------------
    def days(self) -> dict[int, DayFacts]:
        days: dict[int, DayFacts] = {}
        raise_answers: dict[int, list[bool]] = {}
        raise_voters: dict[int, list[int]] = {}  # the seats whose answer was yes
        for i, p in enumerate(self.players):
            seat, field = i + 1, f"players[{i}]"
            for rnd, target in enumerate(_list(p, "nominating", field)):
                if target is None:
                    continue
                days.setdefault(rnd + 1, DayFacts()).nominations[seat] = _seat(
                    target, f"{field}.nominating[{rnd}]")
            for rnd, vote in enumerate(_list(p, "voting", field)):
                if vote is None:
                    continue
                where = f"{field}.voting[{rnd}]"
                facts = days.setdefault(rnd + 1, DayFacts())
                ballots = vote if isinstance(vote, list) else [vote]
                if ballots and isinstance(ballots[-1], bool):
                    raise_answers.setdefault(rnd + 1, []).append(ballots[-1])
                    if ballots[-1]:
                        raise_voters.setdefault(rnd + 1, []).append(seat)
                    ballots = ballots[:-1]
                for k, target in enumerate(ballots):
                    if target is None:
                        continue
                    while len(facts.rounds) <= k:
                        facts.rounds.append({})
                    facts.rounds[k][seat] = _seat(target, f"{where}[{k}]")
        for day, facts in days.items():
            answers = raise_answers.get(day)
            if answers is not None:
                facts.raise_yes = sum(answers)
                facts.raise_voters = tuple(sorted(raise_voters.get(day, ())))
            elif facts.rounds:
                facts.raise_passed = self.raise_passed(day)
        return days

    def raise_passed(self, day: int) -> bool | None:
        """Without kill-all answers the raise vote's outcome shows only in the deaths: several
        players voted out on the same day (README: the 2020 games)."""
        voted_out = [s for s, d in self.fates.items() if d and d[0] == day - 1 and d[1] == "day"]
        if len(voted_out) > 1:
            return True
        return False if not voted_out else None

    # --- nights ----------------------------------------------------------------------------
    def nights(self) -> dict[int, NightFacts]:
        nights: dict[int, NightFacts] = {}
        last = self.last_round()
        for n in range(1, last + 1):
            killed = [s for s, d in self.fates.items() if d and d[0] == n and d[1] == "night"]
            if len(killed) > 1:
                raise RecordError("players[].death", f"several players killed in night {n}")
            nights[n] = NightFacts(kill=killed[0] if killed else None, kill_known=True)
        for i, p in enumerate(self.players):
            for who in ("don", "sheriff"):
                rnd = p.get(who)
                if rnd is None:
                    continue
                n = _int(rnd, f"players[{i}].{who}", 1, 99)
                facts = nights.setdefault(n, NightFacts(kill_known=True))
                setattr(facts, f"{who}_check", i + 1)
        return nights

    def last_round(self) -> int:
        """The last round the record covers (include/game.php get_last_round, plus deaths)."""
        last = 0
        for p in self.players:
            for key in ("nominating", "voting"):
                value = p.get(key)
                if isinstance(value, list):
                    last = max(last, len(value) - 1)
            shooting = p.get("shooting")
            if isinstance(shooting, list):
                last = max(last, len(shooting))
            for key in ("don", "sheriff"):
                if isinstance(p.get(key), int):
                    last = max(last, p[key])
        for death in self.deaths.values():
            if death:
                last = max(last, death[0])
        return last

    # --- penalties -------------------------------------------------------------------------
    def penalties(self, technical_fouls: bool) -> list[PenaltyFact]:
        """Warnings (fouls) and, with ``technical_fouls`` (9.6.2), technical fouls, each at its
        game time; a removal's death as its penalty (a techFouls death only when the rules have
        no technical fouls: then it is fed as a disqualification). Penalties at one moment keep
        the site's ``order`` of that game time."""
        out: list[PenaltyFact] = []
        for i, p in enumerate(self.players):
            seat, field = i + 1, f"players[{i}]"
            kinds = [("warnings", "foul")] + ([("techFouls", "tech")] if technical_fouls else [])
            for key, reason in kinds:
                given = p.get(key)
                if isinstance(given, int) and not isinstance(given, bool):
                    if given:
                        raise RecordError(f"{field}.{key}", "a count without the times they were "
                                                            "given (feature 'r')")
                    given = []
                for j, time in enumerate(_list({key: given}, key, field)):
                    moment = game_time(time, f"{field}.{key}[{j}]")
                    out.append(PenaltyFact(seat, reason, moment, (_order(time), j, seat),
                                           f"{field}.{key}[{j}]"))
            death = self.deaths[seat]
            if death and death[1] in DEATH_PENALTIES and not (technical_fouls and death[1] == "techFouls"):
                assert death[2] is not None
                time = p["death"].get("time")
                out.append(PenaltyFact(seat, DEATH_PENALTIES[death[1]], death[2],
                                       (_order(time), 99, seat), f"{field}.death"))
        return out

    # --- what the record says happened -------------------------------------------------------
    def outcome(self, config: RulesConfig, days: dict[int, DayFacts]) -> Outcome:
        winner = self.record.get("winner")
        if winner not in WINNERS:
            raise RecordError("winner", f"unknown winner {winner!r}")
        departures: list[RecordedDeparture] = []
        by_vote: dict[int, list[int]] = {}
        for seat, fate in self.fates.items():
            if fate and fate[1] == "day":
                by_vote.setdefault(fate[0], []).append(seat)
        team_loss_days: set[int] = set()
        for seat, death in sorted(self.deaths.items()):
            fate = self.fates[seat]
            if death is None or fate is None:
                continue  # stayed to the end, or removed after it (a penalty only, F24 §7.9)
            _, _, moment = death
            rnd, kind = fate
            if kind == "day":
                cause = "raise" if len(by_vote[rnd]) > 1 else "vote"
                departures.append(RecordedDeparture(seat, rnd + 1, "day", cause))
            elif kind == "night":
                departures.append(RecordedDeparture(seat, rnd, "night", "kill"))
            else:
                assert moment is not None
                phase = _phase(moment)
                departures.append(RecordedDeparture(seat, moment.day, phase, DEATH_CAUSES[kind]))
                if kind == "teamKickOut" and phase == "day":
                    team_loss_days.add(moment.day)
        cancelled = recorded_cancelled_votes(days, config.first_day_vote, team_loss_days)
        shown = sorted(d for d, f in days.items()
                       if d not in team_loss_days and vote_expected(d, f, config.first_day_vote))
        return Outcome(WINNERS[winner], departures, cancelled, complete=True, shown_days=shown)


def _bonus(facts: GameFacts, seat: int, bonus: Any) -> None:
    """A player's ``bonus``: a number is the judge's extra points (F24/S24 §8.4), fed after the
    result; the site's own titles (``"bestPlayer"``, ``"bestMove"``: points by the site's
    scoring, not the best move of F24 §4.5.9, which is ``legacy``) have no F24/S24 value and
    are noted; a list holds either."""
    total = Decimal(0)
    for item in bonus if isinstance(bonus, list) else [bonus]:
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, (int, float)):
            total += Decimal(str(item))
        else:
            facts.notes.append(f"seat {seat}: the site's bonus {item!r} has no FIIM/FSM points: "
                               f"not fed")
    if total:
        facts.extras[seat] = str(total.normalize())


def read(record: dict[str, Any]) -> tuple[RulesConfig, dict[int, str], tuple[str, ...], GameFacts,
                                          Outcome]:
    """Parse a MafiaRatings record: config, names, roles, facts, recorded outcome."""
    config = read_config(record)
    reader = _Reader(record)
    roles = reader.roles()
    days = reader.days()
    nights = reader.nights()
    best_move: tuple[int, ...] | None = None  # the night-1 victim's legacy (F24 §4.5.9)
    for i, p in enumerate(reader.players):
        legacy = p.get("legacy")
        if isinstance(legacy, list) and legacy and reader.fates[i + 1] == (1, "night"):
            best_move = tuple(_seat(x, f"players[{i}].legacy[{k}]") for k, x in enumerate(legacy))
    last = reader.last_round()
    end = (last + 1, 1)
    if record.get("winner") == "tie":
        # A draw comes after quiet rounds (F24 §7.7: the third night in a row with nobody
        # leaving), and a quiet round — no nomination, no vote, a miss — leaves no trace in the
        # record: its last round is the last one with a trace. The replay plays on through as
        # many quiet rounds as the draw needs (each night a miss, each day without a vote), so
        # that the engine reaches the draw itself, or disagrees.
        end = (last + 1 + config.draw_quiet_nights, 2)
    facts = GameFacts(days=days, nights=nights, penalties=reader.penalties(config.technical_fouls),
                      best_move=best_move, end=end)
    if end != (last + 1, 1):
        facts.notes.append(f"winner tie: the record's last trace is round {last}; the quiet rounds "
                           f"after it are replayed to the draw (F24 §7.7)")
    for i, p in enumerate(reader.players):
        _bonus(facts, i + 1, p.get("bonus"))
    if "rules" not in record:
        facts.notes.append(f"rules: the record has no rules code; played by the site's default "
                           f"{DEFAULT_RULES}")
    for i, p in enumerate(reader.players):
        if isinstance(p.get("techFouls"), list) and p["techFouls"] and not config.technical_fouls:
            facts.notes.append(f"seat {i + 1}: {len(p['techFouls'])} technical foul(s) recorded "
                               f"under rules without them (9.6.1): not fouls; a removal shows "
                               f"as the death")
    return config, reader.names(), roles, facts, reader.outcome(config, days)
