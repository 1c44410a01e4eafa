"""The pure rules engine of Russian sports mafia (FIIM; the seed rules win where they speak).

    >>> import rules
    >>> state = rules.new_game(rules.PRESETS["seed"])
    >>> state, notices = rules.apply(state, rules.StartGame())
    >>> [n.kind.value for n in notices]
    ['game_started', 'night_zero']

``apply(state, event)`` returns a new state and its notices or raises :class:`RuleError`, leaving
the given state untouched. No I/O, no asyncio, no clock: timers are lengths in seconds that the
adapters run.
"""

from .config import (
    DEFAULT_PRESET, PRESETS, REASONS, DrawDeclared, FirstDayVote, NominationWithdrawal, Reason,
    RevoteOrder, Rotation, RulesConfig, Severity, ThirdFoul, Timers, changed_options,
    config_from_dict, config_to_dict,
)
from .engine import (
    AFTER_THE_RESULT, MAX_NAME, Correction, NameFault, admit, apply, check, clean_name, clean_text,
    correct, fold, name_key, state_before, vote_plan,
)
from .errors import Code, RuleError
from .events import (
    BadPlay, BestMove, DeclareResult, DonCheck, Event, Extra, Fix, Next, NightKill, Nominate,
    Penalty, RaiseVote,
    SetName, SetRoles, SheriffCheck, Shots, StartGame, Undo, Vote, WithdrawFoul, WithdrawNomination,
    counted, effective, fixable, from_dict, standing, to_dict, undone,
)
from .notices import Kind, Notice
from .points import (
    SCORING, BadPlayItem, Scoring, SeatPoints, check_bad_play, check_extra, game_points,
)
from .queries import (
    BEST_MOVE_MAX, LEFT_TABLE, NIGHT_TALK, OUT_OF_TURN, Action, BestMoveStep, ChecksStep,
    DonCheckStep, Expected, LastWord, LeaderSpeech, NightZero, Over, RaiseVoting, Setup, SheriffCheckStep,
    Shooting, Speech, TieSpeech, Timed, Turn, VotePlan, Voting, can_nominate, can_penalize, can_vote,
    checker, current_turn, deal, expected, may_nominate, next_action, nominable, out_of_turn_reason,
    result_required, seen_at_table, shooters, timing,
)
from .state import (
    SEATS, Cause, Departure, EndReason, GameState, Night, NightStep, Phase, Result, Role, Seat, Team,
    new_game,
)

__all__ = [name for name in dir() if not name.startswith("_")]
