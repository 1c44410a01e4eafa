"""Rule errors: an event the rules refuse. Raised by :func:`rules.apply`; the state is unchanged."""

from __future__ import annotations

import enum
from typing import Any


class Code(str, enum.Enum):
    """Why an event was refused. Each code has a message in every catalog (bot/locales)."""

    WRONG_PHASE = "wrong_phase"  # params: event, phase
    NO_SUCH_SEAT = "no_such_seat"  # params: seat
    NOT_AT_TABLE = "not_at_table"  # params: seat
    NOT_SPEAKER = "not_speaker"  # params: seat, speaker
    ALREADY_NOMINATED = "already_nominated"  # params: seat (F24 §4.4.2–4.4.4; docs/rules.md §3.3)
    NOMINATION_USED = "nomination_used"  # params: seat, target (F24 §4.4.3)
    SELF_NOMINATION = "self_nomination"  # params: seat
    NOMINATION_IN_LAST_WORD = "nomination_in_last_word"  # params: seat
    NOT_CURRENT_NOMINEE = "not_current_nominee"  # params: seat, expected
    TOO_MANY_HANDS = "too_many_hands"  # params: count, left
    ALREADY_VOTED = "already_voted"  # params: seat (seed 4.1.8)
    DUPLICATE_SHOT = "duplicate_shot"  # params: seat (twice in one /shots; one shot per black, F24 §4.5.3)
    BAD_COUNT = "bad_count"  # params: count
    UNKNOWN_REASON = "unknown_reason"  # params: reason
    UNKNOWN_ROLE = "unknown_role"  # params: role
    BAD_ROLES = "bad_roles"  # params: black, don, sheriff
    ROLES_UNKNOWN = "roles_unknown"  # params: -
    ROLES_KNOWN = "roles_known"  # params: - (the engine decides the result itself)
    RESULT_REQUIRED = "result_required"  # params: at_table (roles unknown, the game must be over)
    TEAM_REQUIRED = "team_required"  # params: seat
    TEAM_MISMATCH = "team_mismatch"  # params: seat, team (as given), actual (by the roles; seed 4.3)
    NOT_BLACK = "not_black"  # params: seat
    NO_DON = "no_don"  # params: -
    NO_SHERIFF = "no_sheriff"  # params: -
    BEST_MOVE_NOT_DUE = "best_move_not_due"  # params: -
    BAD_BEST_MOVE = "bad_best_move"  # params: -
    SELF_BEST_MOVE = "self_best_move"  # params: seat (the victim names others, F24 §4.5.9)
    SELF_CHECK = "self_check"  # params: seat, role ("don" | "sheriff"; F24 §4.5.6–4.5.7)
    NO_FOUL = "no_foul"  # params: seat
    FOUL_HAS_CONSEQUENCES = "foul_has_consequences"  # params: seat, why
    GAME_OVER = "game_over"  # params: -
    NOTHING_TO_UNDO = "nothing_to_undo"  # params: -
    BAD_NAME = "bad_name"  # params: seat, why (rules.engine.NameFault: length, invisible)
    NAME_TAKEN = "name_taken"  # params: seat, other (the seat with that name), name
    NO_WITHDRAWAL = "no_withdrawal"  # params: - (MafiaRatings 7.5.3: the club allows none)
    NO_NOMINATION = "no_nomination"  # params: seat (nothing of his to withdraw today)
    VOTERS_REQUIRED = "voters_required"  # params: nominee (MafiaRatings 7.16 self-break: by voter)
    # the points after the game (rules.points; F24/S24 §8.4, §8.5)
    BAD_POINTS = "bad_points"  # params: value (not a number of points: 0.4, at most two decimals)
    EXTRA_IN_DRAW = "extra_in_draw"  # params: - (F24/S24 §8.4.7: no extras after a draw)
    EXTRA_VALUE = "extra_value"  # params: seat, value, side ("winners" | "losers"), allowed,
    #                              approvable (with the chief judge's approval; §8.4.3–8.4.4)
    EXTRA_PLAYERS = "extra_players"  # params: count, limit (§8.4.1)
    EXTRA_TOTAL = "extra_total"  # params: total, limit (§8.4.2)
    UNKNOWN_BAD_PLAY = "unknown_bad_play"  # params: item (not one of the preset's §8.5 items)
    BAD_PLAY_ROLE = "bad_play_role"  # params: seat, item, who (the item is another role's)
    BAD_PLAY_GIVEN = "bad_play_given"  # params: seat, item (the same play is counted once)
    BAD_PLAY_NOT_GIVEN = "bad_play_not_given"  # params: seat, item (nothing to take back)
    BAD_PLAY_NOT_LOST = "bad_play_not_lost"  # params: seat, item, result (won|draw: its premise is a loss)
    NOT_FIXABLE = "not_fixable"  # params: seq, why ("no_such" | "undone" | "kind" | "same")
    FIX_BREAKS = "fix_breaks"  # params: seq (the action refused), fixed (the seq corrected),
    #                            event (the refused action), preset, cause (its RuleError)


class RuleError(Exception):
    """An event the rules refuse: a :class:`Code` and its parameters (for the catalogs)."""

    def __init__(self, code: Code, **params: Any) -> None:
        super().__init__(f"{code.value} {params}" if params else code.value)
        self.code = code
        self.params = params
