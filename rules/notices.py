"""Notices: what the rules say happened, as a kind plus parameters (no text).

The catalogs in ``bot/locales`` turn each kind into words. A notice marked ``private`` carries
hidden information (roles, check answers, a night disqualification's reason, best-move hits) and
goes only to the judge; every other notice may be posted in a group.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Kind(str, enum.Enum):
    """Every notice kind and its parameters. Every notice also carries ``rules``: the preset, so
    that its words cite that preset's own rule numbers."""

    # setup
    NAME_SET = "name_set"  # seat, name
    ROLES_SET = "roles_set"  # known: bool                              (private)
    GAME_STARTED = "game_started"  # preset, roles_known, options (rules.changed_options)
    NIGHT_ZERO = "night_zero"  # seconds (the договорка, F24 §4.2.1)
    # day
    DAY_STARTS = "day_starts"  # day, opener, at_table
    NIGHT_RESULT = "night_result"  # night, killed (seat or None for a miss), removed (seats removed
    #                                 that night on a 4th or disqualifying foul, seed 4.5),
    #                                 killed_removed ("disqualification" | "fouls" | None: the
    #                                 victim removed the same night too, SC-killed-and-removed)
    LAST_WORD = "last_word"  # seat, seconds, why ("kill" | "vote" | "raise")
    LAST_WORD_SKIPPED = "last_word_skipped"  # seats, why ("decisive": the result is fixed and the
    #                                           game's option gives no last word after it, F24 §7.9)
    SPEECH = "speech"  # seat, seconds, silenced (seed 4.4), short (seed 5.7, or the option
    #                    third_foul=short_speech at 5+ players: then option=True), day
    SPEECH_SKIPPED = "speech_skipped"  # seat, why
    NOMINATED = "nominated"  # by, target, nominees
    NOMINATION_WITHDRAWN = "nomination_withdrawn"  # by, target, nominees (MafiaRatings 7.5)
    VOTE_NOT_HELD = "vote_not_held"  # day, why (rule code), seat, cause, reason (the removal, if any)
    VOTING_STARTS = "voting_starts"  # day, nominees, round
    VOTE_COUNTED = "vote_counted"  # nominee, count, derived
    OFF_BALLOT = "off_ballot"  # seat, nominees (still to vote), last (the new last nominee, if he
    #                            was the last, else None; seed 5.2, F24 §4.4.8)
    TIE = "tie"  # seats, round
    TIE_SPEECH = "tie_speech"  # seat, seconds
    RAISE_VOTE = "raise_vote"  # seats, at_table
    RAISE_RESULT = "raise_result"  # seats, yes, at_table, passed
    NOBODY_LEAVES = "nobody_leaves"  # why (rule code), seats
    LEAVES_BY_VOTE = "leaves_by_vote"  # seats, cause ("vote" | "raise"), counts
    LEADER_STAYS = "leader_stays"  # seat, seconds (first-day RAISE_ONLY)
    VOTE_CANCELLED = "vote_cancelled"  # day, seat, rule, cause ("fouls" | "disqualification"), reason
    NEXT_VOTE_CANCELLED = "next_vote_cancelled"  # day, seat, rule, cause, reason (None at night)
    NIGHT_FALLS = "night_falls"  # night
    # night
    SHOOTING_RESULT = "shooting_result"  # killed or None, why, shots; silent (Shots only) (private)
    DON_CHECK = "don_check"  # target, sheriff (bool or None)           (private)
    SHERIFF_CHECK = "sheriff_check"  # target, black (bool or None)     (private)
    BEST_MOVE_DUE = "best_move_due"  # seat, seconds
    BEST_MOVE = "best_move"  # seat, guesses
    BEST_MOVE_HITS = "best_move_hits"  # seat, hits                      (private)
    BEST_MOVE_SKIPPED = "best_move_skipped"  # seat, why ("day1_departures" | "removed" | "off"),
    #                                           rule, departed: night 1's victim gets none (said
    #                                           in the morning, after NIGHT_RESULT; F24 §7.10)
    NIGHT_STEP = "night_step"  # step, seconds
    # penalties
    WARNING = "warning"  # seat, reason
    FOUL = "foul"  # seat, count, reason
    TECH_FOUL = "tech_foul"  # seat, count, reason (MafiaRatings 9.6.2; the 2nd removes)
    THIRD_FOUL = "third_foul"  # seat, effect ("silence" | "short_speech"), may_nominate, short
    #                            (3–4 at the table: seed 5.7), seconds (the short speech)
    REMOVED = "removed"  # seat, cause ("fouls" | "disqualification"), reason (None at night), tournament,
    #                      last_word: None (he leaves now) | "cut" (his last word ends) | "lost" (his
    #                      last word, still to come, is lost) | "killed" (tonight's victim; private)
    REMOVED_DETAILS = "removed_details"  # seat, reason, tournament    (private, night only)
    TEAM_LOSS = "team_loss"  # seat, team, reason, final_minute (F24/S24 §6.8.5)
    FOUL_WITHDRAWN = "foul_withdrawn"  # seat, count
    PENALTY_AFTER_RESULT = "penalty_after_result"  # seat, reason, severity, over (after the game, or
    #                                                 after a decisive vote or kill): recorded, the
    #                                                 result stands (F24 §6.8.6, §7.9); applied
    #                                                 (absent: True): False for an item §6.8.6
    #                                                 exempts — no removal, no penalty points
    # the end
    RESULT_FIXED = "result_fixed"  # winner: announced after the last word (F24 §7.9)   (private)
    GAME_OVER = "game_over"  # winner ("red" | "black" | None for a draw), why, roles; for a draw
    #                           also draw_rule (rules.DrawDeclared value) and nights (seed 5.8, F24 §7.7)
    JUDGE_MUST_CHECK_END = "judge_must_check_end"  # at_table (roles unknown)
    # the points, after the game (rules.points)
    EXTRA_POINTS = "extra_points"  # seat, points (a decimal string; "0": taken back), approved (F24 §8.4)
    BAD_PLAY = "bad_play"  # seat, item, points (negative, a decimal string), withdrawn (F24 §8.5)


@dataclass(frozen=True)
class Notice:
    kind: Kind
    params: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    def __getitem__(self, key: str) -> Any:
        return self.params[key]
