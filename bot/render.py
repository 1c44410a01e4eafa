"""Words for the rules engine's output: notices, refusals, the judge's panel and the final result.

Every text comes from a :class:`~bot.i18n.Catalog`. Catalog keys are literal where the code picks
one message (``cat.text("status-day", …)``) and built from an enum value where a whole family is
covered (``notice-<Kind>``, ``error-<Code>``, ``reason-<code>``, ``phase-<Phase>`` …);
``tests/test_i18n.py`` checks both kinds against every locale.

Secrecy (F24 §4.4.13, §4.5.4: roles stay hidden; seed 5.4: the judge gives no information on the
nominees): :func:`notice_text` of a non-private notice never names a role, and
:func:`status_text` with ``for_judge=False`` shows neither nominees nor roles. Notices carry seats,
never names; the panel and the result may show names.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import Any, Iterable, Mapping

import rules
from rules import Cause, NightStep, Notice, Phase, Role, Team
from rules import notices as nt

from .i18n import Catalog

log = logging.getLogger(__name__)

NONE = "none"  # the value a select expression sees for a missing seat or answer

GENERIC_REASONS = frozenset({"warning", "foul", "dq", "ppk"})  # codes without an item number

# Parameters that hold one seat, or a list of seats.
_SEAT_PARAMS = frozenset({"seat", "speaker", "expected", "target", "by", "nominee", "opener", "killed",
                          "last"})
_SEATS_PARAMS = frozenset({"seats", "nominees", "guesses", "silent", "removed"})

# The kinds of the steps the rules expect (rules.Expected: each step's ``kind``).
ACTION_KINDS = (
    "start", "next", "speech", "last_word", "tie_speech", "leader_speech", "vote", "raise_vote", "shooting",
    "don_check", "sheriff_check", "best_move", "none",
)

# Why a vote is not held (rules.vote_plan) or nobody leaves by it (Kind.NOBODY_LEAVES).
NO_VOTE_REASONS = (
    "5.1", "5.2", "no_nominees", "first_day_no_vote", "4.4.10", "5.6", "5.9", "3_of_9", "2_of_4",
    "no_raise_vote", "raise_failed", "first_day_raise_only", "first_day_no_break",
    "first_day_self_break",
)

# How a game ends (rules.Result.why).
END_REASONS = ("all_black_out", "parity", "draw", "team_loss", "declared", "table_raised")

# The role order for the reveal: black first, then the Sheriff (civilians are "the rest").
_REVEAL_ORDER = (Role.DON, Role.MAFIA, Role.SHERIFF)


# --- small pieces ---------------------------------------------------------------------------

def key_part(code: str) -> str:
    """A code as a Fluent identifier part: ``"4.2.7"`` → ``"4_2_7"``."""
    return code.replace(".", "_")


def seat_label(seat: Any, cat: Catalog) -> str:
    """``№5`` (or ``#5``); anything that is not a seat number is shown as it is."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return cat.text("seat", n=seat)
    return cat.text("seat", n=str(seat))


def seat_list(seats: Iterable[Any], cat: Catalog) -> str:
    """``№3, №7``."""
    return ", ".join(seat_label(s, cat) for s in seats)


def player_label(state: rules.GameState, seat: int, cat: Catalog) -> str:
    """A seat with its player's name when set: ``№3 Вася`` (the panel and the result only); the
    name as the platform shows it literally (:meth:`~bot.i18n.Catalog.name`)."""
    name = state.seat(seat).name
    if name:
        return cat.text("seat-named", n=seat, name=cat.name(name))
    return seat_label(seat, cat)


def duration(seconds: int, cat: Catalog) -> str:
    """``60 секунд``."""
    return cat.text("seconds", count=seconds)


def reason_text(code: str, cat: Catalog, preset: Any = None) -> str:
    """A penalty reason in words (seed IV; F24 §6): ``"4.2.7"`` → «слёзы за игровым столом»; as
    ``preset`` words it where presets differ (S24 §6.7.9 moves voting against several nominees from
    4.1.8 to 4.2.9's wrong form of voting)."""
    key = f"reason-{key_part(code)}"
    if cat.has(key):
        return cat.text(key, rules=preset if isinstance(preset, str) else rules.DEFAULT_PRESET)
    return cat.text("reason-unknown", code=code)


def bad_play_text(item: str, preset: Any, cat: Catalog) -> str:
    """A listed bad play in words (F24/S24 §8.5): its item number in ``preset``'s points."""
    scoring = rules.SCORING.get(str(preset), rules.SCORING[rules.DEFAULT_PRESET])
    key = f"badplay-{scoring.rules}-{key_part(item)}"
    return cat.text(key) if cat.has(key) else item


def options_text(options: Mapping[str, Any], cat: Catalog) -> str:
    """Rule options in words, ``;``-joined, in the config's order (:func:`rules.changed_options`:
    ``{"rotation": "last", "timers": {"speech": 45}}`` → «день закрывает следующий за
    закрывавшим вчера; речь — 45 секунд»); an option without words is shown as ``name=value``."""
    parts: list[str] = []
    for name, value in options.items():
        if name == "timers" and isinstance(value, Mapping):
            for timer, seconds in value.items():
                label = cat.text(f"timer-{timer}") if cat.has(f"timer-{timer}") else timer
                parts.append(cat.text("option-timer", timer=label, seconds=duration(int(seconds), cat)))
            continue
        if isinstance(value, bool):
            key = f"option-{name}-{_yes_no(value)}"
        elif isinstance(value, str):
            key = f"option-{name}-{value}"
        else:
            key = f"option-{name}"
        parts.append(cat.text(key, value=value) if cat.has(key) else f"{name}={value}")
    return "; ".join(parts)


def rules_label(preset: str, options: Mapping[str, Any] | None, cat: Catalog) -> str:
    """The rules a game is played by, for its header, ``/status`` and the protocol: the preset
    in words, then the club's options that differ from it (short; none, none shown)."""
    name = cat.text(f"preset-{preset}") if cat.has(f"preset-{preset}") else preset
    if not options:
        return name
    return cat.text("rules-with-options", preset=name, options=options_text(options, cat))


def config_label(config: rules.RulesConfig, cat: Catalog) -> str:
    """:func:`rules_label` of a game's config."""
    return rules_label(config.preset, rules.changed_options(config), cat)


def phase_text(phase: str, cat: Catalog) -> str:
    """A phase or night step in words (the engine names a night step as the phase of a refusal)."""
    for prefix in ("phase", "step"):
        key = f"{prefix}-{phase}"
        if cat.has(key):
            return cat.text(key)
    return str(phase)


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def cite(code: str, preset: Any, cat: Catalog) -> str:
    """A rule number as ``preset`` numbers it (``cite-<code>``): seed 5.2 is «5.2» under the seed
    preset, «ФИИМ 2024, §7.2» under fiim2024, «ФСМ 2024, §7.2» under fsm2024. A code without a
    citation is shown as it is."""
    key = f"cite-{key_part(code)}"
    if not cat.has(key):
        return code
    return cat.text(key, rules=preset if isinstance(preset, str) else rules.DEFAULT_PRESET)


def _args(params: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
    """Notice or error parameters as Fluent arguments: seats as labels (``None`` → ``"none"``),
    lists of seats joined (plus ``<name>_n``, their number), booleans as ``"yes"``/``"no"``,
    seconds as a duration (plus ``seconds_n``), a penalty reason in words (plus ``code`` and
    ``generic``), a rule number as the preset (``rules``) cites it, a phase and an event in
    words."""
    out: dict[str, Any] = {"rules": params.get("rules") or rules.DEFAULT_PRESET}
    for name, value in params.items():
        if name == "reason" and value is None:
            out.update(reason=NONE, code=NONE, generic="yes")
        elif name == "rule" and isinstance(value, str):
            out[name] = cite(value, out["rules"], cat)
        elif name in _SEAT_PARAMS:
            out[name] = NONE if value is None else seat_label(value, cat)
        elif name in _SEATS_PARAMS and isinstance(value, (list, tuple)):
            out[name] = seat_list(value, cat)
            out[f"{name}_n"] = len(value)
        elif isinstance(value, bool):
            out[name] = _yes_no(value)
        elif value is None:
            out[name] = NONE
        elif name == "seconds" and isinstance(value, int):
            out[name] = duration(value, cat)
            out["seconds_n"] = value
        elif name == "reason" and isinstance(value, str):
            out[name] = reason_text(value, cat, out["rules"])
            out["code"] = value
            out["generic"] = _yes_no(value in GENERIC_REASONS)
        elif name == "phase" and isinstance(value, str):
            out[name] = phase_text(value, cat)
        elif name == "preset" and isinstance(value, str):
            key = f"preset-{value}"
            out[name] = cat.text(key) if cat.has(key) else value
        elif name == "event" and isinstance(value, str):
            key = f"event-{value}"
            out[name] = cat.text(key) if cat.has(key) else value
        elif name == "name" and isinstance(value, str):  # a player's: shown literally (Discord)
            out[name] = cat.name(value)
        elif isinstance(value, (int, float, str)):
            out[name] = value
        else:
            out[name] = str(value)
    return out


def _outcome(winner: str | None, why: str, cat: Catalog, draw_rule: Any = None,
             nights: Any = None, preset: Any = None) -> str:
    """How the game ended, in one sentence (F24 §1.4, seed 4.3). A draw says what its preset
    counts (``draw_rule``, a :class:`rules.DrawDeclared` value): seed 5.8, «ночи» and «дни»
    from a night; F24/S24 §7.7, «ночи», citing ``preset``'s own text. Without it (an older
    notice): the seed's wording."""
    if why == "draw" and isinstance(draw_rule, str) and cat.has(f"end-draw-{draw_rule}"):
        count = nights if isinstance(nights, int) and not isinstance(nights, bool) else 3
        return cat.text(f"end-draw-{draw_rule}", nights_text=cat.text("draw-nights", count=count),
                        days_text=cat.text("draw-days", count=count),
                        rules=preset if isinstance(preset, str) else rules.DEFAULT_PRESET)
    return cat.text(f"end-{why}", winner=winner or "draw")


def outcome_text(result: rules.Result, config: rules.RulesConfig, cat: Catalog) -> str:
    """The result of a game played under ``config`` in one sentence (F24 §1.4; seed 5.8 or
    F24 §7.7 for a draw, by the preset; seed 4.3)."""
    return _outcome(result.winner.value if result.winner else None, result.why, cat,
                    config.draw_declared.value, config.draw_quiet_nights, config.preset)


def _roles_text(roles: Mapping[Any, str], cat: Catalog) -> str:
    """«Дон — №2; мафия — №5, №7; Шериф — №8; остальные — мирные»."""
    by_role: dict[str, list[int]] = {}
    for seat, role in roles.items():
        by_role.setdefault(role, []).append(int(seat))
    parts = [
        cat.text("roles-part", role=cat.text(f"role-{role.value}"), n=len(by_role[role.value]),
                 seats=seat_list(sorted(by_role[role.value]), cat))
        for role in _REVEAL_ORDER if role.value in by_role
    ]
    if by_role.get(Role.CIVILIAN.value):
        parts.append(cat.text("roles-rest"))
    return "; ".join(parts)


# --- notices --------------------------------------------------------------------------------

Args = dict[str, Any]  # a message's Fluent arguments


def notice_text(notice: Notice, cat: Catalog) -> str | None:
    """The announcement line for ``notice`` (private ones too: they go to the judge only), the
    catalog's ``notice-<kind>`` with the arguments of :func:`notice_args`. ``None`` for a notice
    another one already says (the best-move night step: BEST_MOVE_DUE)."""
    args = notice_args(notice, cat)
    if args is None:
        return None
    key = f"notice-{notice.kind.value}"
    if not cat.has(key):
        log.error("catalog %s has no %s", cat.lang, key)
        return cat.text("notice-unknown", kind=notice.kind.value)
    return cat.text(key, **args)


def _fields(notice: Notice, cat: Catalog) -> Args:
    """A notice's fields as Fluent arguments (:func:`_args`: seats as labels, seconds as a
    duration …): the words of a kind that needs nothing more."""
    values = {f.name: getattr(notice, f.name) for f in dataclasses.fields(notice) if f.name != "private"}
    return _args(values, cat)


@functools.singledispatch
def notice_args(notice: Notice, cat: Catalog) -> Args | None:
    """The table of a notice's words: for each notice class, the Fluent arguments of its
    ``notice-<kind>`` (``None``: nothing to say). Every class has one renderer, registered
    below (tests/test_notices.py checks); this fallback raises ``TypeError``."""
    raise TypeError(f"no words for a {type(notice).__name__} notice")


for _plain in (
    nt.NameSet, nt.RolesSet, nt.NightZero, nt.NightResult, nt.LastWord, nt.LastWordSkipped,
    nt.Speech, nt.SpeechSkipped, nt.Nominated, nt.NominationWithdrawn, nt.VotingStarts,
    nt.OffBallot, nt.Tie, nt.TieSpeech, nt.RaiseResult, nt.LeavesByVote, nt.LeaderStays,
    nt.VoteCancelled, nt.NextVoteCancelled, nt.NightFalls, nt.DonCheck, nt.SheriffCheck,
    nt.BestMoveDue, nt.BestMove, nt.BestMoveHits, nt.BestMoveSkipped, nt.Warning, nt.TechFoul,
    nt.ThirdFoul, nt.RemovedDetails, nt.PenaltyAfterResult,
):
    notice_args.register(_plain, _fields)


@notice_args.register
def _night_step(notice: nt.NightStep, cat: Catalog) -> Args | None:
    return None if notice.step == NightStep.BEST_MOVE.value else _fields(notice, cat)


@notice_args.register
def _game_started(notice: nt.GameStarted, cat: Catalog) -> Args | None:
    # the rules in force: the preset and the club's options
    return _fields(notice, cat) | {"preset": rules_label(notice.preset, notice.options, cat)}


@notice_args.register
def _players(notice: nt.DayStarts | nt.JudgeMustCheckEnd, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"players": cat.text("players", count=notice.at_table)}


@notice_args.register
def _vote_not_held(notice: nt.VoteNotHeld, cat: Catalog) -> Args | None:
    args = _fields(notice, cat)
    return args | {"why": no_vote_text(notice.why, notice.seat, cat, args["rules"], notice.cause,
                                       notice.reason)}


@notice_args.register
def _nobody_leaves(notice: nt.NobodyLeaves, cat: Catalog) -> Args | None:
    args = _fields(notice, cat)
    return args | {"why": no_vote_text(notice.why, None, cat, args["rules"])}


@notice_args.register
def _vote_counted(notice: nt.VoteCounted, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"votes": cat.text("votes", count=notice.count)}


@notice_args.register
def _raise_vote(notice: nt.RaiseVote, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"need": notice.at_table // 2 + 1}  # F24 §4.4.12.3: more than half


@notice_args.register
def _shooting_result(notice: nt.ShootingResult, cat: Catalog) -> Args | None:
    shots = ", ".join(
        cat.text("shot", shooter=seat_label(shooter, cat),
                 target=NONE if target is None else seat_label(target, cat))
        for shooter, target in notice.shots)
    args = _fields(notice, cat) | {"shots": shots, "has_shots": _yes_no(bool(notice.shots))}
    # F24 §4.5.5: a black left out of /shots did not shoot — say who (judge only)
    args.setdefault("silent_n", 0)
    return args


@notice_args.register
def _fouls(notice: nt.Foul | nt.FoulWithdrawn, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"fouls": cat.text("fouls", count=notice.count)}


@notice_args.register
def _removed(notice: nt.Removed, cat: Catalog) -> Args | None:
    args = _fields(notice, cat) | {"mode": _removal_mode(notice)}
    if notice.reason is None:
        args["tournament"] = "no"  # a night removal says nothing of its reason (seed 5.3 too)
    return args


@notice_args.register
def _team_loss(notice: nt.TeamLoss, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"team_of": cat.text(f"team-of-{notice.team}")}


@notice_args.register
def _result_fixed(notice: nt.ResultFixed, cat: Catalog) -> Args | None:
    args = _fields(notice, cat)
    return args | {"outcome": _outcome(notice.winner, notice.why, cat, preset=args["rules"]),
                   "has_roles": "no", "roles": ""}


@notice_args.register
def _game_over(notice: nt.GameOver, cat: Catalog) -> Args | None:
    args = _fields(notice, cat)
    roles = notice.roles
    return args | {"outcome": _outcome(notice.winner, notice.why, cat, notice.draw_rule,
                                       notice.nights, args["rules"]),
                   "has_roles": _yes_no(bool(roles)), "roles": _roles_text(roles, cat) if roles else ""}


@notice_args.register
def _extra_points(notice: nt.ExtraPoints, cat: Catalog) -> Args | None:
    return _fields(notice, cat) | {"taken": _yes_no(notice.points == "0")}


@notice_args.register
def _bad_play(notice: nt.BadPlay, cat: Catalog) -> Args | None:
    args = _fields(notice, cat)
    return args | {"what": bad_play_text(notice.item, args["rules"], cat),
                   "cite": cat.text("cite-points", rules=args["rules"], number=notice.item)}


def undone_notices(state: rules.GameState, undone: Iterable[rules.Event]) -> list[Notice]:
    """What the undone events had announced: re-applied, oldest first, to the restored state
    (``undone`` newest first, as :attr:`bot.service.Outcome.undone`). An event that no longer
    applies (it cannot happen: the state is the one it was applied to) ends the list."""
    return [notice for said in undone_by_event(state, undone) for notice in said]


def undone_by_event(state: rules.GameState, undone: Iterable[rules.Event]) -> list[list[Notice]]:
    """:func:`undone_notices`, one list per undone event, oldest first: which of them the group
    had heard of (a public notice) and which it had not."""
    said: list[list[Notice]] = []
    for event in reversed(list(undone)):
        try:
            state, new = rules.apply(state, event)
        except (rules.RuleError, TypeError):
            break
        said.append(list(new))
    return said


def _removal_mode(notice: nt.Removed) -> str:
    """Which removal sentence (seed 4.5): 4 fouls, a disqualifying foul with or without an item,
    or a night removal whose reason stays hidden."""
    if notice.reason is None:
        return "night"
    if notice.cause == Cause.FOULS.value:
        return "fouls"
    return "dq" if notice.reason in GENERIC_REASONS else "dq_item"


def no_vote_text(why: Any, seat: Any, cat: Catalog, preset: Any = None, cause: Any = None,
                 reason: Any = None) -> str:
    """Why no vote is held, or nobody leaves by it (seed 5.1, 5.2, 5.6, 5.9; F24 §4.4.10,
    §4.4.12.3, §7.11; club options), citing ``preset``'s own rule numbers; for a removal, its
    ``cause`` (``"fouls"`` or ``"disqualification"``) and item (``reason``) when known."""
    code = str(why)
    key = f"novote-{key_part(code)}"
    if not cat.has(key):
        return code
    return cat.text(key, seat=NONE if seat is None else seat_label(seat, cat),
                    rules=preset if isinstance(preset, str) else rules.DEFAULT_PRESET,
                    cause=cause if isinstance(cause, str) else NONE,
                    code=reason if isinstance(reason, str) else NONE)


# --- errors ---------------------------------------------------------------------------------

#: The refusals' parameters that carry what the user typed, by message: they go in through
#: :meth:`bot.i18n.Catalog.said` — as typed where only the asker reads the answer, never in a
#: group (issue 36: a player who may not speak must not have the bot say his words).
TYPED_PARAMS: Mapping[str, tuple[str, ...]] = {
    "command-unknown_command": ("command",), "command-too_many_arguments": ("argument",),
    "command-bad_seat": ("argument",), "command-bad_argument": ("argument",),
    "command-bad_undo": ("argument",), "command-bad_team": ("argument",),
    "command-bad_fix": ("argument",), "command-unknown_preset": ("preset",),
    "command-unknown_option": ("option",), "command-bad_option_value": ("option", "value"),
    "command-duplicate_option": ("option",), "command-unknown_lang": ("lang",),
    "command-unknown_reason": ("reason",), "error-unknown_reason": ("reason",),
    "error-bad_points": ("value",),
}


def error_text(error: Exception, cat: Catalog) -> str:
    """A clear one-line message for a refusal: :class:`rules.RuleError` (``error-<code>``),
    ``bot.service.ServiceError`` (``service-<code>``) or ``bot.commands.CommandError``
    (``command-<code>``); anything else is an internal error. What the user typed is repeated
    only as ``cat`` repeats it (:data:`TYPED_PARAMS`: a group's catalog never does)."""
    if isinstance(error, rules.RuleError):
        prefix, code = "error", error.code.value
    elif type(error).__name__ == "ServiceError":
        prefix, code = "service", str(getattr(error, "code", ""))
    elif type(error).__name__ == "CommandError":
        prefix, code = "command", str(getattr(error, "code", ""))
    else:
        return cat.text("error-internal")
    params = getattr(error, "params", {}) or {}
    key = f"{prefix}-{code}"
    if not cat.has(key):
        log.error("catalog %s has no %s", cat.lang, key)
        return cat.text("error-unknown", code=code)
    args = _args(params, cat)
    if isinstance(params.get("seat"), int):
        args["n"] = params["seat"]  # the bare number, for a command to retype
    if code == "wrong_phase":  # in setup the refusal names /start (the game has not begun)
        args["phase_code"] = str(params.get("phase"))
        args["event_code"] = str(params.get("event"))  # roles after the start: /undo is the way
    elif code == "bad_name":
        args.setdefault("why", "length")
    if code == "unknown_reason":  # an unknown code has no words of its own: show it as typed
        args["reason"] = str(params.get("reason"))
    if code == "fix_breaks":  # the action a correction would break, and why (its own refusal)
        from .commands import command_text

        cause, event = params.get("cause"), params.get("event")
        args["why"] = error_text(cause, cat) if isinstance(cause, Exception) else ""
        args["action"] = (cat.name(command_text(event, rules.PRESETS.get(str(params.get("preset")))))
                          if isinstance(event, rules.Event) else "")
        args["itself"] = _yes_no(params.get("seq") == params.get("fixed"))
    if prefix == "service" and code == "quarantined":  # a stored game set aside: where and why
        cause = params.get("cause")
        args["why"] = error_text(cause, cat) if isinstance(cause, Exception) else str(params.get("detail", ""))
        args["game_id"], args["seq"] = str(params.get("game_id")), str(params.get("seq"))
        args["place"] = ("edited" if params.get("edited") else
                         "rules" if params.get("seq") == 0 else "row")
        args["hosted"] = _yes_no(bool(params.get("hosted")))  # a hosted table starts with /newgame
    if prefix == "command" and code == "missing_argument":
        what = f"what-{params.get('argument')}"  # what is missing: seat, name, count, …
        if cat.has(what):
            args["argument"] = cat.text(what)
    for name in TYPED_PARAMS.get(key, ()):
        if name in args:
            args[name] = cat.said(args[name])
    return cat.text(key, **args)


# --- the judge's panel ----------------------------------------------------------------------

def status_text(state: rules.GameState, cat: Catalog, *, for_judge: bool) -> str:
    """The panel: day and phase, who speaks and for how long, the seats with their fouls and
    departures, cancelled votes (seed 5.1–5.2); for the judge also the roles, today's nominees
    and the ballot (seed 5.4: never to the players), a result fixed until the last word
    (F24 §7.9) and what to do next (:func:`rules.expected`)."""
    lines = [_header(state, cat)]
    if state.phase is not Phase.SETUP and rules.changed_options(state.config):
        lines.append(cat.text("status-rules", rules=config_label(state.config, cat)))  # public
    turn = rules.current_turn(state)
    if turn is not None:
        lines.append(_turn_text(state, turn, cat))
    lines.extend(_vote_bans(state, cat, for_judge=for_judge))
    if for_judge:
        lines.extend(_judge_lines(state, cat))
    lines.append(cat.text("status-seats"))
    lines.extend(_seat_line(state, seat, cat, for_judge=for_judge) for seat in state.seats)
    if for_judge:
        lines.append(action_text(state, cat))
    return "\n".join(lines)


def _header(state: rules.GameState, cat: Catalog) -> str:
    phase = state.phase
    if phase is Phase.SETUP:
        return cat.text("status-setup", preset=config_label(state.config, cat))
    if phase is Phase.NIGHT_ZERO:
        return cat.text("status-night-zero")
    if phase is Phase.GAME_OVER:
        result = state.result or rules.Result(None, "declared")
        return cat.text("status-over", outcome=outcome_text(result, state.config, cat))
    night = state.night
    if night is not None:
        return cat.text("status-night", night=night.number, step=cat.text(f"step-{night.step.value}"))
    return cat.text("status-day", day=state.day, phase=cat.text(f"phase-{phase.value}"))


def _turn_text(state: rules.GameState, turn: rules.Turn, cat: Catalog) -> str:
    who = player_label(state, turn.seat, cat)
    if turn.kind == "speech" and turn.seconds == 0:
        return cat.text("status-turn-silenced", seat=who, rules=state.config.preset)  # seed 4.4
    if turn.kind == "last_word":
        return cat.text("status-turn-last_word", seat=who, seconds=duration(turn.seconds, cat))
    if turn.kind in ("tie_speech", "leader_speech"):
        return cat.text(f"status-turn-{turn.kind}", seat=who, seconds=duration(turn.seconds, cat))
    return cat.text("status-turn-speech", seat=who, seconds=duration(turn.seconds, cat))


def _vote_bans(state: rules.GameState, cat: Catalog, *, for_judge: bool) -> list[str]:
    """Votes a removal cancelled, today or later (seed 5.1, 5.2): announced, so public — but
    the table is told of a night removal's in the morning (it would tell whether the one
    removed was shot: SC-killed-and-removed)."""
    if state.phase in (Phase.SETUP, Phase.GAME_OVER):
        return []
    first = state.day + 1 if state.phase is Phase.NIGHT or state.vote_over else state.day
    preset = state.config.preset
    lines = []
    night = state.night
    for day, (rule, seat) in sorted(state.vote_bans.items()):
        if day < first:
            continue
        left = state.seat(seat).departure  # the cause; the item unless it was given at night
        if (not for_judge and left is not None and left.phase == "night"
                and (state.phase is Phase.NIGHT_ZERO
                     or (night is not None and left.day == night.number))):
            continue  # told in the morning
        code = left.reason if left is not None and left.phase == "day" and left.reason else NONE
        lines.append(cat.text("status-vote-banned", day=day, rule=cite(rule, preset, cat),
                              seat=seat_label(seat, cat), rules=preset,
                              cause=left.cause.value if left is not None else NONE, code=code))
    return lines


def _judge_lines(state: rules.GameState, cat: Catalog) -> list[str]:
    lines: list[str] = []
    if not state.roles_known and state.phase is not Phase.GAME_OVER:
        lines.append(cat.text("status-roles-unknown"))
    if state.phase in (Phase.SPEECH, Phase.LAST_WORD) and state.day >= 1 and not state.vote_over:
        nominees = [n for n in state.nominees if state.seat(n).at_table]
        if nominees:
            lines.append(cat.text("status-nominees", seats=seat_list(nominees, cat), n=len(nominees),
                                  rules=state.config.preset))  # seed 5.4 as the preset numbers it
        else:
            lines.append(cat.text("status-no-nominees"))
    ballot = state.ballot
    if state.phase is Phase.VOTING and ballot is not None:
        counts = ", ".join(
            cat.text("status-count", seat=seat_label(c, cat),
                     votes=cat.text("votes", count=ballot.counts.get(c, 0)))
            for c in ballot.candidates[:ballot.index])
        lines.append(cat.text("status-ballot", round=ballot.round,
                              seats=seat_list(ballot.candidates, cat),
                              counts=counts or NONE))
    if state.phase is Phase.RAISE_VOTE:
        lines.append(cat.text("status-raise", seats=seat_list(state.raise_candidates, cat)))
    if state.result is not None and state.phase is not Phase.GAME_OVER:
        outcome = outcome_text(state.result, state.config, cat)
        lines.append(cat.text("status-result-fixed", outcome=outcome, rules=state.config.preset))  # F24 §7.9
    return lines


def told_departure(state: rules.GameState, seat: rules.Seat) -> rules.Departure | None:
    """A seat's departure as the table has been told it: tonight's kill is told in the morning
    (F24 §4.5.9), so until then the victim is at the table — or, removed tonight too, only
    removed, as any night removal reads (SC-night-wording)."""
    departure = seat.departure
    night = state.night
    if (departure is None or night is None or departure.cause is not rules.Cause.KILL
            or departure.phase != "night" or departure.day != night.number):
        return departure
    if seat.disqualified or len(seat.fouls) >= 4:
        cause = rules.Cause.DISQUALIFICATION if seat.disqualified else rules.Cause.FOULS
        return dataclasses.replace(departure, cause=cause, reason=None)
    return None


def status_header(state: rules.GameState, cat: Catalog) -> str:
    """The status's first line: the phase, the day or the night and its step, the result."""
    return _header(state, cat)


def turn_line(state: rules.GameState, cat: Catalog) -> str | None:
    """The status's line of who speaks now and for how long (``None``: nobody speaks)."""
    turn = rules.current_turn(state)
    return _turn_text(state, turn, cat) if turn is not None else None


def vote_ban_lines(state: rules.GameState, cat: Catalog, *, for_judge: bool) -> list[str]:
    """The status's lines of the votes a removal cancelled (seed 5.1, 5.2)."""
    return _vote_bans(state, cat, for_judge=for_judge)


def _seat_line(state: rules.GameState, seat: rules.Seat, cat: Catalog, *, for_judge: bool) -> str:
    who = player_label(state, seat.number, cat)
    facts = seat_facts(state, seat, cat, for_judge=for_judge)
    if not facts:
        return who
    return cat.text("status-seat", seat=who, facts="; ".join(facts))


def seat_facts(state: rules.GameState, seat: rules.Seat, cat: Catalog, *, for_judge: bool) -> list[str]:
    """What the status says of one seat after its label: for the judge its role; its fouls and
    warnings; a 3rd foul's penalty to come; how it left (as the table has been told:
    :func:`told_departure`, unless ``for_judge``); a disqualification besides."""
    facts: list[str] = []
    if for_judge and seat.role is not None:
        facts.append(cat.text(f"role-{seat.role.value}"))
    if seat.fouls:
        facts.append(cat.text("fouls", count=len(seat.fouls)))
    if seat.warnings:
        facts.append(cat.text("warnings", count=len(seat.warnings)))
    departure = seat.departure if for_judge else told_departure(state, seat)
    if seat.silence_pending and departure is None:
        facts.append(_pending_text(state, cat))
    if departure is not None:
        facts.append(departure_text(departure, cat, reveal=for_judge, preset=state.config.preset))
    if seat.disqualified and (departure is None or departure.cause is not rules.Cause.DISQUALIFICATION):
        # disqualified as well: tonight's victim or a vote leaver in the last word (seed 4.5,
        # SC-killed-and-removed), or after the result (F24 §8.2.4: it costs points)
        facts.append(cat.text("status-disqualified"))
    return facts


def _pending_text(state: rules.GameState, cat: Catalog) -> str:
    """A 3rd foul's penalty still to come, as the engine will serve it (``start_speech``): 30 s
    at three or four players (seed 5.7) or by the option ``third_foul=short_speech``, else the
    silence of seed 4.4."""
    preset = state.config.preset
    if len(state.at_table) <= 4:
        return cat.text("status-short-pending", why="5.7", rules=preset,
                        seconds=duration(state.config.timers.short_speech, cat))
    if state.config.third_foul is rules.ThirdFoul.SHORT_SPEECH:
        return cat.text("status-short-pending", why="option", rules=preset,
                        seconds=duration(state.config.timers.short_speech, cat))
    return cat.text("status-silence-pending", rules=preset)


def departure_text(departure: rules.Departure, cat: Catalog, *, reveal: bool,
                   preset: str = rules.DEFAULT_PRESET) -> str:
    """How a seat left: by the vote, the raise, the night kill, 4 fouls (seed 4.5), a
    disqualifying foul (seed 4.2) with its reason unless it was at night and ``reveal`` is off."""
    reason = departure.reason
    show_reason = (reason is not None and reason not in GENERIC_REASONS
                   and (reveal or departure.phase == "day"))
    return cat.text(
        f"left-{departure.cause.value}",
        day=departure.day,
        when=departure.phase,
        reason=reason_text(reason, cat, preset) if show_reason and reason else NONE,
        code=reason or NONE,
        rules=preset,
    )


def action_text(state: rules.GameState, cat: Catalog) -> str:
    """What the judge does next, with the command for it (:func:`rules.expected`)."""
    step = rules.expected(state)
    if isinstance(step, rules.Speech) and step.silenced:
        return cat.text("action-silenced", seat=seat_label(step.seat, cat),
                        rules=state.config.preset)  # seed 4.4
    args = _args(rules.next_action(state).params, cat)
    if isinstance(step, rules.Voting):
        args["left"] = cat.text("votes", count=step.hands_left)
        args["n"] = str(step.nominee)
    elif isinstance(step, rules.RaiseVoting):
        args["need"] = step.needed
    return cat.text(f"action-{step.kind}", **args)


# --- the end --------------------------------------------------------------------------------

def result_text(state: rules.GameState, cat: Catalog) -> str:
    """The end: the winner and why (F24 §1.4), the order in which seats left and why, fouls per
    seat, night 1's best move (F24 §8.3), the roles (revealed once the game is over)."""
    lines: list[str] = []
    result = state.result
    if state.phase is Phase.GAME_OVER and result is not None:
        lines.append(cat.text("result-title", outcome=outcome_text(result, state.config, cat)))
    else:
        lines.append(cat.text("result-not-over"))
    departures = state.departures_in_order()
    if state.team_loss_by is not None and state.seat(state.team_loss_by).departure is None:
        # seed 4.3: the offender's team is awarded the loss and the game ends there — listed last,
        # as the protocol's sheet and JSON list it
        at_night = state.day == 0 or bool(state.nights and state.nights[-1].number == state.day)
        departures.append((state.team_loss_by, rules.Departure(
            rules.Cause.TEAM_LOSS, state.day, "night" if at_night else "day")))
    if departures:
        lines.append(cat.text("result-departures"))
        for index, (number, departure) in enumerate(departures, 1):
            lines.append(cat.text("result-departure", index=index, seat=player_label(state, number, cat),
                                  how=departure_text(departure, cat, reveal=True,
                                                     preset=state.config.preset)))
    else:
        lines.append(cat.text("result-no-departures"))
    fouled = [s for s in state.seats if s.fouls]
    if fouled:
        lines.append(cat.text("result-fouls", list="; ".join(
            cat.text("status-count", seat=player_label(state, s.number, cat),
                     votes=cat.text("fouls", count=len(s.fouls))) for s in fouled)))
    else:
        lines.append(cat.text("result-no-fouls"))
    lines.extend(_best_move_lines(state, cat))
    roles = {s.number: s.role.value for s in state.seats if s.role is not None}
    over = state.phase is Phase.GAME_OVER
    if roles and over:
        lines.append(cat.text("result-roles", roles=_roles_text(roles, cat)))
    elif not roles:
        lines.append(cat.text("result-roles-unknown"))
    return "\n".join(lines)


def signed(points: Any) -> str:
    """Points with their sign: ``+1.3``, ``-0.5``, ``0``."""
    text = rules.points.show(points)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def points_parts(p: rules.SeatPoints, cat: Catalog) -> list[str]:
    """One seat's points, part by part (F24/S24 §8.2–8.5): «победа +1», «лучший ход +0.5» …;
    of the best move and the judge's extra only the one that counts (§8.4.6)."""
    chosen = ("extra", p.extra) if p.extra_counts else ("best_move", p.best_move)
    parts = [("win", p.win), chosen, ("auto", p.auto_bonus), ("dq", p.disqualification),
             ("team_loss", p.team_loss), ("bad_play", p.bad_play)]
    return [cat.text(f"points-part-{name}", points=signed(value)) for name, value in parts if value]


def points_text(state: rules.GameState, cat: Catalog) -> str:
    """The points of a finished game (F24/S24 §8; the seed's preset scores as FIIM 2024), a
    line a seat: the total, then its parts. Before the end, or with the roles unknown, why there
    are none yet."""
    table = rules.game_points(state)
    if table is None:
        key = "points-not-over" if state.phase is not Phase.GAME_OVER else "points-roles-unknown"
        return cat.text(key)
    scoring = rules.SCORING[state.config.preset]
    lines = [cat.text("points-title", rules=state.config.preset, scheme=scoring.rules)]
    for seat in rules.SEATS:
        p = table[seat]
        parts = points_parts(p, cat)
        lines.append(cat.text("points-line", seat=player_label(state, seat, cat),
                              total=rules.points.show(p.total),
                              parts=", ".join(parts) if parts else cat.text("points-part-none")))
    lines.append(cat.text("points-not-computed", rules=state.config.preset))
    return "\n".join(lines)


def _best_move_lines(state: rules.GameState, cat: Catalog) -> list[str]:
    """Night 1's best move (F24 §8.3); the hits only once the game is over (roles hidden)."""
    first = next((n for n in state.nights if n.number == 1), None)
    if first is None or not first.best_move or first.killed is None:
        return []
    guesses = seat_list(first.best_move, cat)
    who = player_label(state, first.killed, cat)
    if state.roles_known and state.phase is Phase.GAME_OVER:
        hits = sum(1 for g in first.best_move if state.team_of(g) is Team.BLACK)
        return [cat.text("result-best-move-hits", seat=who, guesses=guesses, hits=hits)]
    return [cat.text("result-best-move", seat=who, guesses=guesses)]


def text_length(text: str) -> int:
    """The length Telegram counts a message text in: UTF-16 code units (Discord's character
    count is never larger, so a text within this limit fits there too)."""
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` (:func:`text_length`), with an ellipsis when cut."""
    if text_length(text) <= limit:
        return text
    out = text
    while text_length(out) > limit - 1:
        out = out[: max(1, len(out) - max(1, (text_length(out) - limit) // 2 + 1))]
    return out + "…"


def chunks(text: str, limit: int) -> list[str]:
    """``text`` split at line ends into messages within ``limit`` (a longer line is cut)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if text_length(candidate) <= limit:
            current = candidate
            continue
        if current:
            out.append(current)
        current = fit(line, limit)
    if current:
        out.append(current)
    return out
