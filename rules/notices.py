"""Notices: what the rules say happened, one small typed record per kind (no text).

Each kind of notice is a frozen dataclass with named fields (:class:`Speech`,
:class:`VoteCounted`, …; the engine makes them, :func:`rules.apply` returns them in the order
things happened). Seats are ints 1–10, lengths are seconds, a rule is the code the engine cites
(``"5.2"``: the catalogs give each preset's own number for it). Every notice carries what
:class:`Notice` holds: ``rules``, the preset, so that its words cite that preset's own rule
numbers, and ``private``: a private notice carries hidden information (roles, check answers, a
night disqualification's reason, best-move hits) and goes only to the judge; every other notice
may be posted in a group (F24 §4.4.13, §4.5.4).

The catalogs in ``bot/locales`` turn each kind into words (``notice-<kind>``, chosen in
``bot/render.py``). The plain form of a notice — its :class:`Kind` and :attr:`Notice.params`, a
dict of its fields as plain values (lists for tuples), the shape the engine gave before notices
were typed — is read back by :func:`from_params`.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, TypeVar

from .config import DEFAULT_PRESET

T = TypeVar("T")


class Kind(str, enum.Enum):
    """Every notice kind: the ``kind`` of exactly one notice class below (:data:`NOTICE_TYPES`),
    whose docstring gives its fields."""

    # setup
    NAME_SET = "name_set"
    ROLES_SET = "roles_set"
    GAME_STARTED = "game_started"
    NIGHT_ZERO = "night_zero"
    # day
    DAY_STARTS = "day_starts"
    NIGHT_RESULT = "night_result"
    LAST_WORD = "last_word"
    LAST_WORD_SKIPPED = "last_word_skipped"
    SPEECH = "speech"
    SPEECH_SKIPPED = "speech_skipped"
    NOMINATED = "nominated"
    NOMINATION_WITHDRAWN = "nomination_withdrawn"
    VOTE_NOT_HELD = "vote_not_held"
    VOTING_STARTS = "voting_starts"
    VOTE_COUNTED = "vote_counted"
    OFF_BALLOT = "off_ballot"
    TIE = "tie"
    TIE_SPEECH = "tie_speech"
    RAISE_VOTE = "raise_vote"
    RAISE_RESULT = "raise_result"
    NOBODY_LEAVES = "nobody_leaves"
    LEAVES_BY_VOTE = "leaves_by_vote"
    LEADER_STAYS = "leader_stays"
    VOTE_CANCELLED = "vote_cancelled"
    NEXT_VOTE_CANCELLED = "next_vote_cancelled"
    NIGHT_FALLS = "night_falls"
    # night
    SHOOTING_RESULT = "shooting_result"
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    BEST_MOVE_DUE = "best_move_due"
    BEST_MOVE = "best_move"
    BEST_MOVE_HITS = "best_move_hits"
    BEST_MOVE_SKIPPED = "best_move_skipped"
    NIGHT_STEP = "night_step"
    # penalties
    WARNING = "warning"
    FOUL = "foul"
    TECH_FOUL = "tech_foul"
    THIRD_FOUL = "third_foul"
    REMOVED = "removed"
    REMOVED_DETAILS = "removed_details"
    TEAM_LOSS = "team_loss"
    FOUL_WITHDRAWN = "foul_withdrawn"
    PENALTY_AFTER_RESULT = "penalty_after_result"
    # the end
    RESULT_FIXED = "result_fixed"
    GAME_OVER = "game_over"
    JUDGE_MUST_CHECK_END = "judge_must_check_end"
    # the points, after the game (rules.points)
    EXTRA_POINTS = "extra_points"
    BAD_PLAY = "bad_play"


def _sometimes(default: T) -> T:
    """A field the engine gives only in some cases: left out of the plain form
    (:attr:`Notice.params`) while it holds ``default``."""
    return field(default=default, metadata={"sometimes": True})


@dataclass(frozen=True, kw_only=True)
class Notice:
    """What every notice carries. ``kind``: its :class:`Kind` (the catalogs' ``notice-<kind>``);
    ``rules``: the preset (a :data:`rules.PRESETS` key) whose rule numbers its words cite — the
    engine gives the game's; ``private``: hidden information, for the judge only (F24 §4.4.13,
    §4.5.4)."""

    kind: ClassVar[Kind]
    rules: str = DEFAULT_PRESET
    private: bool = False

    @property
    def params(self) -> dict[str, Any]:
        """The plain form of the fields: ``{"seat": 5, "seconds": 60, …, "rules": "seed"}``
        (``private`` apart, tuples as lists, a field given only sometimes left out at its
        default). :func:`from_params` reads it back."""
        out: dict[str, Any] = {}
        for name, sometimes, default in _LAYOUTS[type(self)]:
            value = getattr(self, name)
            if not (sometimes and value == default):
                out[name] = _listed(value)
        out["rules"] = self.rules
        return out

    def __getitem__(self, key: str) -> Any:
        """A field of the plain form by name (:attr:`params`)."""
        return self.params[key]


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


# --- setup --------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class NameSet(Notice):
    """Seat ``seat``'s player is named ``name`` (cleaned: :func:`rules.clean_name`), in the
    setup or later."""

    kind: ClassVar[Kind] = Kind.NAME_SET
    seat: int
    name: str


@dataclass(frozen=True, kw_only=True)
class RolesSet(Notice):
    """The dealt cards are entered (F24 §1.1); ``known`` is False for a game played with the
    roles unknown (the judge then declares the result). Private: the roles are the judge's."""

    kind: ClassVar[Kind] = Kind.ROLES_SET
    private: bool = True
    known: bool


@dataclass(frozen=True, kw_only=True)
class GameStarted(Notice):
    """The setup is closed and night 0 begins (F24 §1.3, §4.1.2): the game's ``preset``,
    whether the roles are known (``roles_known``), and the ``options`` that differ from the
    preset (:func:`rules.changed_options`)."""

    kind: ClassVar[Kind] = Kind.GAME_STARTED
    preset: str
    roles_known: bool
    options: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class NightZero(Notice):
    """Night 0, the blacks' meeting (the договорка, F24 §4.2.1), ``seconds`` long."""

    kind: ClassVar[Kind] = Kind.NIGHT_ZERO
    seconds: int


# --- the day ------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class DayStarts(Notice):
    """Day ``day`` begins with ``at_table`` players at the table; seat ``opener`` speaks first
    (F24 §4.3.2)."""

    kind: ClassVar[Kind] = Kind.DAY_STARTS
    day: int
    opener: int
    at_table: int


@dataclass(frozen=True, kw_only=True)
class NightResult(Notice):
    """The morning after night ``night`` (F24 §4.5.9): the seat ``killed`` (``None``: a miss);
    ``removed``, the seats removed that night on a 4th or disqualifying foul (seed 4.5);
    ``killed_removed``, ``"disqualification"`` or ``"fouls"`` when the victim was removed the
    same night too (SC-killed-and-removed), else ``None``: told once, here — he has no last word
    and (night 1) no best move (seed 4.5), and the day's vote is held (seed 5.1)."""

    kind: ClassVar[Kind] = Kind.NIGHT_RESULT
    night: int
    killed: int | None
    removed: tuple[int, ...]
    killed_removed: str | None


@dataclass(frozen=True, kw_only=True)
class LastWord(Notice):
    """Seat ``seat``'s last word, ``seconds`` long (F24 §4.4.13, §4.5.9); ``why`` it is his:
    ``"kill"`` (the night's victim), ``"vote"`` or ``"raise"`` (he left by the vote)."""

    kind: ClassVar[Kind] = Kind.LAST_WORD
    seat: int
    seconds: int
    why: str


@dataclass(frozen=True, kw_only=True)
class LastWordSkipped(Notice):
    """No last word for ``seats``: ``why`` is ``"decisive"`` — the result is fixed, and the
    game's option gives no last word after the deciding vote or kill (MafiaRatings 8.19.2;
    F24 §7.9 gives one)."""

    kind: ClassVar[Kind] = Kind.LAST_WORD_SKIPPED
    seats: tuple[int, ...]
    why: str


@dataclass(frozen=True, kw_only=True)
class Speech(Notice):
    """Seat ``seat``'s speech on day ``day``, ``seconds`` long (F24 §4.3.1). ``silenced``: he
    loses it to a 3rd foul (seed 4.4; ``seconds`` is 0, he may still nominate); ``short``: a
    3rd foul's short speech instead — at 3 or 4 players (seed 5.7), or by the game's option
    ``third_foul=short_speech``, which ``option`` then says."""

    kind: ClassVar[Kind] = Kind.SPEECH
    seat: int
    seconds: int
    silenced: bool
    short: bool
    option: bool
    day: int


@dataclass(frozen=True, kw_only=True)
class SpeechSkipped(Notice):
    """Seat ``seat``'s speech is skipped, ``why`` a code (seed 4.4). The engine says it no
    more; the catalogs and ``/why`` still know it."""

    kind: ClassVar[Kind] = Kind.SPEECH_SKIPPED
    seat: int
    why: str


@dataclass(frozen=True, kw_only=True)
class Nominated(Notice):
    """Seat ``by``, the speaker, nominates seat ``target`` (F24 §4.4.2–4.4.4); ``nominees``:
    today's nominees so far, in the voting order."""

    kind: ClassVar[Kind] = Kind.NOMINATED
    by: int
    target: int
    nominees: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class NominationWithdrawn(Notice):
    """Seat ``by`` takes back his nomination of seat ``target`` (MafiaRatings 7.5.1–7.5.2, by
    the game's option ``nomination_withdrawal``); ``nominees``: today's nominees now."""

    kind: ClassVar[Kind] = Kind.NOMINATION_WITHDRAWN
    by: int
    target: int
    nominees: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class VoteNotHeld(Notice):
    """Day ``day``'s vote is not held (docs/rules.md §4.1): ``why``, the rule code or reason
    :func:`rules.vote_plan` gives (``"5.1"``, ``"5.2"``, ``"no_nominees"``, ``"4.4.10"`` …).
    For a removal that cancelled it (seed 5.1, 5.2): the ``seat`` removed, the ``cause``
    (``"fouls"`` | ``"disqualification"``) and the item, ``reason`` (``None`` if given at
    night); else all three ``None``."""

    kind: ClassVar[Kind] = Kind.VOTE_NOT_HELD
    day: int
    why: str
    seat: int | None
    cause: str | None
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class VotingStarts(Notice):
    """A vote round on day ``day`` opens (F24 §4.4.5): ``round`` 0 is the main vote, 1 and on
    a revote (F24 §4.4.12); ``nominees`` in the voting order."""

    kind: ClassVar[Kind] = Kind.VOTING_STARTS
    day: int
    nominees: tuple[int, ...]
    round: int


@dataclass(frozen=True, kw_only=True)
class VoteCounted(Notice):
    """``count`` hands against seat ``nominee`` (F24 §4.4.5–4.4.7); ``derived``: he is the last
    nominee, and the hands are those not raised before (F24 §4.4.8)."""

    kind: ClassVar[Kind] = Kind.VOTE_COUNTED
    nominee: int
    count: int
    derived: bool


@dataclass(frozen=True, kw_only=True)
class OffBallot(Notice):
    """Nominee ``seat``, removed while the vote goes on, is off the ballot (seed 5.2):
    ``nominees``, those still to be voted; ``last``, the new last nominee, who takes the hands
    not raised, when ``seat`` was the last (F24 §4.4.8), else ``None``."""

    kind: ClassVar[Kind] = Kind.OFF_BALLOT
    seat: int
    nominees: tuple[int, ...]
    last: int | None


@dataclass(frozen=True, kw_only=True)
class Tie(Notice):
    """Round ``round`` ends in a tie between ``seats`` (F24 §4.4.12): each speaks before the
    revote."""

    kind: ClassVar[Kind] = Kind.TIE
    seats: tuple[int, ...]
    round: int


@dataclass(frozen=True, kw_only=True)
class TieSpeech(Notice):
    """Seat ``seat`` speaks before the revote, ``seconds`` long (F24 §4.4.12.1)."""

    kind: ClassVar[Kind] = Kind.TIE_SPEECH
    seat: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class RaiseVote(Notice):
    """``seats`` are tied again: the table votes on raising them all (F24 §4.4.12.3), more
    than half of the ``at_table`` players needed."""

    kind: ClassVar[Kind] = Kind.RAISE_VOTE
    seats: tuple[int, ...]
    at_table: int


@dataclass(frozen=True, kw_only=True)
class RaiseResult(Notice):
    """The raise vote (F24 §4.4.12.3): ``yes`` hands of ``at_table`` players for raising
    ``seats``; ``passed`` when that is more than half."""

    kind: ClassVar[Kind] = Kind.RAISE_RESULT
    seats: tuple[int, ...]
    yes: int
    at_table: int
    passed: bool


@dataclass(frozen=True, kw_only=True)
class NobodyLeaves(Notice):
    """Nobody leaves by today's vote; ``seats``, its leaders, stay. ``why``: a rule code or the
    game's option (seed 5.6, 5.9; F24 §4.4.12.3, §7.11; ``"first_day_raise_only"`` …, the
    catalogs' ``novote-<why>``)."""

    kind: ClassVar[Kind] = Kind.NOBODY_LEAVES
    why: str
    seats: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class LeavesByVote(Notice):
    """``seats`` leave by the vote, at its moment (F24 §1.4): ``cause`` ``"vote"`` or
    ``"raise"`` (F24 §4.4.12.3); ``counts``, the last round's hands per candidate."""

    kind: ClassVar[Kind] = Kind.LEAVES_BY_VOTE
    seats: tuple[int, ...]
    cause: str
    counts: Mapping[int, int]


@dataclass(frozen=True, kw_only=True)
class LeaderStays(Notice):
    """Day 1's single leader ``seat`` stays at the table and speaks ``seconds`` more (the game's
    option ``first_day_vote``: MafiaRatings 7.16.2, 7.16.4)."""

    kind: ClassVar[Kind] = Kind.LEADER_STAYS
    seat: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class VoteBan(Notice):
    """A removal cancels day ``day``'s vote (seed 5.1, 5.2): the ``seat`` removed, ``rule`` the
    code (``"5.1"`` | ``"5.2"``), the ``cause`` (``"fouls"`` | ``"disqualification"``) and the
    item, ``reason`` (``None`` if given at night: it stays with the judge, SC-night-wording).
    Said as one of its two kinds below."""

    day: int
    seat: int
    rule: str
    cause: str
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class VoteCancelled(VoteBan):
    """Today's vote is cancelled (seed 5.1), or, in the morning, the day's vote by a removal in
    the night before it (SC-before-shooting)."""

    kind: ClassVar[Kind] = Kind.VOTE_CANCELLED


@dataclass(frozen=True, kw_only=True)
class NextVoteCancelled(VoteBan):
    """A later day's vote is cancelled (seed 5.1, 5.2). Private when given at night: the table
    is told in the morning (:class:`VoteCancelled`), which would otherwise say whether the one
    removed was shot (SC-killed-and-removed)."""

    kind: ClassVar[Kind] = Kind.NEXT_VOTE_CANCELLED


@dataclass(frozen=True, kw_only=True)
class NightFalls(Notice):
    """Night ``night`` falls (it follows day ``night``)."""

    kind: ClassVar[Kind] = Kind.NIGHT_FALLS
    night: int


# --- the night ----------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class ShootingResult(Notice):
    """The shooting's outcome, for the judge (F24 §4.5.3–4.5.5): the seat ``killed`` (``None``:
    none), ``why`` ``"kill"`` | ``"miss"`` | ``"not_at_table"`` (all shot a seat no longer at
    the table); ``shots``, each black's ``(shooter, target or None)``; ``silent``, for
    ``/shots`` only (else ``None``): the blacks at the table whose shot was not given — they
    did not shoot (F24 §4.5.5)."""

    kind: ClassVar[Kind] = Kind.SHOOTING_RESULT
    private: bool = True
    killed: int | None
    why: str
    shots: tuple[tuple[int, int | None], ...]
    silent: tuple[int, ...] | None = _sometimes(None)


@dataclass(frozen=True, kw_only=True)
class DonCheck(Notice):
    """The Don checks seat ``target`` for the Sheriff (F24 §4.5.6): the answer ``sheriff``
    from the roles (``None``: the roles are unknown)."""

    kind: ClassVar[Kind] = Kind.DON_CHECK
    private: bool = True
    target: int
    sheriff: bool | None


@dataclass(frozen=True, kw_only=True)
class SheriffCheck(Notice):
    """The Sheriff checks seat ``target`` (F24 §4.5.7): the answer ``black`` from the roles
    (``None``: the roles are unknown)."""

    kind: ClassVar[Kind] = Kind.SHERIFF_CHECK
    private: bool = True
    target: int
    black: bool | None


@dataclass(frozen=True, kw_only=True)
class BestMoveDue(Notice):
    """Night 1's victim, seat ``seat``, makes the best move: ``seconds`` (F24 §4.5.9, §8.3)."""

    kind: ClassVar[Kind] = Kind.BEST_MOVE_DUE
    seat: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class BestMove(Notice):
    """Seat ``seat``'s best move: ``guesses``, the one to three seats he names black
    (F24 §8.3)."""

    kind: ClassVar[Kind] = Kind.BEST_MOVE
    seat: int
    guesses: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class BestMoveHits(Notice):
    """How many of seat ``seat``'s best-move guesses are black, ``hits`` (F24 §8.3): the
    judge's until the game is over."""

    kind: ClassVar[Kind] = Kind.BEST_MOVE_HITS
    private: bool = True
    seat: int
    hits: int


@dataclass(frozen=True, kw_only=True)
class BestMoveSkipped(Notice):
    """Night 1's victim, seat ``seat``, makes no best move — said in the morning, after
    :class:`NightResult`. ``why``: ``"day1_departures"`` (F24 §7.10: ``departed`` players left
    by day 1's vote) or ``"off"`` (the game's option ``best_move``); ``rule``, the code
    (``None`` for the option); ``departed``, the players day 1's vote took away. (A victim
    removed that night too, seed 4.5, is told by :class:`NightResult` alone: ``"removed"`` is
    the engine's reason, never said.)"""

    kind: ClassVar[Kind] = Kind.BEST_MOVE_SKIPPED
    seat: int
    why: str
    rule: str | None
    departed: int


@dataclass(frozen=True, kw_only=True)
class NightStep(Notice):
    """A night step begins (F24 §4.5): ``step``, a :class:`rules.NightStep` value, ``seconds``
    long."""

    kind: ClassVar[Kind] = Kind.NIGHT_STEP
    step: str
    seconds: int


# --- penalties ----------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Warning(Notice):  # the field's term (this module uses no builtin Warning)
    """A warning for seat ``seat`` (seed 4.3: it has no effect); ``reason``, the item or
    ``"warning"`` (seed IV)."""

    kind: ClassVar[Kind] = Kind.WARNING
    seat: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class Foul(Notice):
    """A foul for seat ``seat``, his ``count``-th (seed 4.4: the 3rd silences, seed 4.5: the
    4th removes); ``reason``, the item or ``"foul"`` (seed IV)."""

    kind: ClassVar[Kind] = Kind.FOUL
    seat: int
    count: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class TechFoul(Notice):
    """A technical foul for seat ``seat``, his ``count``-th (MafiaRatings 9.6.2: the 2nd
    removes); ``reason``, the item."""

    kind: ClassVar[Kind] = Kind.TECH_FOUL
    seat: int
    count: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ThirdFoul(Notice):
    """Seat ``seat``'s 3rd foul and what it costs (seed 4.4): ``effect``, the game's option
    ``third_foul`` (``"silence"`` | ``"short_speech"``); ``may_nominate``: he still nominates;
    ``short``: 3 or 4 players are at the table, so his nearest speech is ``seconds`` long
    instead (seed 5.7) — as it is by ``short_speech``."""

    kind: ClassVar[Kind] = Kind.THIRD_FOUL
    seat: int
    effect: str
    may_nominate: bool
    short: bool
    seconds: int


@dataclass(frozen=True, kw_only=True)
class Removed(Notice):
    """Seat ``seat`` is removed by a penalty, without a last word (seed 4.5): ``cause``
    ``"fouls"`` (a 4th foul) or ``"disqualification"`` (seed 4.2); ``reason``, the item
    (``None`` at night: it stays with the judge, SC-night-wording); ``tournament``: removed from
    the tournament too (seed 5.3). ``last_word``, for one who has already left: ``None`` (he
    leaves now), ``"cut"`` (his last word ends), ``"lost"`` (his last word, still to come, is
    lost) or ``"killed"`` (tonight's victim: private, the table hears a night removal).
    ``stands``: given by day once the result is fixed (F24 §7.9): the removal changes nothing
    else, no vote is cancelled (none follows) and the result stands."""

    kind: ClassVar[Kind] = Kind.REMOVED
    seat: int
    cause: str
    reason: str | None
    tournament: bool
    last_word: str | None
    stands: bool = _sometimes(False)


@dataclass(frozen=True, kw_only=True)
class RemovedDetails(Notice):
    """A night removal's item ``reason`` and ``tournament`` removal (seed 5.3), for the judge
    only: the table hears none of it (SC-night-wording)."""

    kind: ClassVar[Kind] = Kind.REMOVED_DETAILS
    private: bool = True
    seat: int
    reason: str
    tournament: bool


@dataclass(frozen=True, kw_only=True)
class TeamLoss(Notice):
    """Seat ``seat``'s team, ``team`` (``"red"`` | ``"black"``), loses at once (seed 4.3;
    F24 §6.8): ``reason``, the item; ``final_minute``: a disqualifying foul in a last word,
    escalated (F24/S24 §6.8.5)."""

    kind: ClassVar[Kind] = Kind.TEAM_LOSS
    seat: int
    team: str
    reason: str
    final_minute: bool


@dataclass(frozen=True, kw_only=True)
class FoulWithdrawn(Notice):
    """The judge takes seat ``seat``'s last foul back: ``count`` fouls now."""

    kind: ClassVar[Kind] = Kind.FOUL_WITHDRAWN
    seat: int
    count: int


@dataclass(frozen=True, kw_only=True)
class PenaltyAfterResult(Notice):
    """A penalty for seat ``seat`` once the result is fixed — after the game (``over``) or
    after a decisive vote or kill: recorded, the result stands (F24 §6.8.6, §7.9). ``reason``
    the item, ``severity`` a :class:`rules.Severity` value; ``applied`` is False for an item
    F24/S24 §6.8.6 exempts (no removal, no penalty points)."""

    kind: ClassVar[Kind] = Kind.PENALTY_AFTER_RESULT
    seat: int
    reason: str
    severity: str
    over: bool
    applied: bool = _sometimes(True)


# --- the end ------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class ResultFixed(Notice):
    """A decisive vote or kill fixes the result, announced after the last word (F24 §7.9):
    ``winner`` ``"red"`` | ``"black"`` | ``None`` (a draw), ``why`` a
    :class:`rules.EndReason` value. For the judge until then."""

    kind: ClassVar[Kind] = Kind.RESULT_FIXED
    private: bool = True
    winner: str | None
    why: str


@dataclass(frozen=True, kw_only=True)
class GameOver(Notice):
    """The end (F24 §1.4): ``winner`` ``"red"`` | ``"black"`` | ``None`` (a draw), ``why`` a
    :class:`rules.EndReason` value, ``roles`` each seat's role value (``None``: the roles are
    unknown). A draw also says what its preset counts (seed 5.8, F24 §7.7): ``draw_rule``, a
    :class:`rules.DrawDeclared` value, and ``nights``, how many."""

    kind: ClassVar[Kind] = Kind.GAME_OVER
    winner: str | None
    why: str
    roles: Mapping[int, str] | None
    draw_rule: str | None = _sometimes(None)
    nights: int | None = _sometimes(None)


@dataclass(frozen=True, kw_only=True)
class JudgeMustCheckEnd(Notice):
    """The roles are unknown and ``at_table`` players are left: the judge checks whether the
    game is over (F24 §1.4) and declares the result."""

    kind: ClassVar[Kind] = Kind.JUDGE_MUST_CHECK_END
    at_table: int


# --- the points, after the game -----------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class ExtraPoints(Notice):
    """The judge's extra points for seat ``seat`` (F24 §8.4): ``points``, a decimal string
    (``"0"``: taken back); ``approved`` by the chief judge."""

    kind: ClassVar[Kind] = Kind.EXTRA_POINTS
    seat: int
    points: str
    approved: bool


@dataclass(frozen=True, kw_only=True)
class BadPlay(Notice):
    """A listed bad play's penalty points for seat ``seat`` (F24 §8.5): ``item``, its number in
    the preset's points; ``points``, negative, a decimal string; ``withdrawn``: taken back."""

    kind: ClassVar[Kind] = Kind.BAD_PLAY
    seat: int
    item: str
    points: str
    withdrawn: bool


#: Each kind's class.
NOTICE_TYPES: dict[Kind, type[Notice]] = {
    cls.kind: cls
    for cls in (
        NameSet, RolesSet, GameStarted, NightZero, DayStarts, NightResult, LastWord,
        LastWordSkipped, Speech, SpeechSkipped, Nominated, NominationWithdrawn, VoteNotHeld,
        VotingStarts, VoteCounted, OffBallot, Tie, TieSpeech, RaiseVote, RaiseResult,
        NobodyLeaves, LeavesByVote, LeaderStays, VoteCancelled, NextVoteCancelled, NightFalls,
        ShootingResult, DonCheck, SheriffCheck, BestMoveDue, BestMove, BestMoveHits,
        BestMoveSkipped, NightStep, Warning, Foul, TechFoul, ThirdFoul, Removed, RemovedDetails,
        TeamLoss, FoulWithdrawn, PenaltyAfterResult, ResultFixed, GameOver, JudgeMustCheckEnd,
        ExtraPoints, BadPlay,
    )
}


#: Each notice class's own fields (``rules`` and ``private`` apart): name, whether it is given
#: only sometimes (:func:`_sometimes`), its default.
_LAYOUTS: dict[type[Notice], tuple[tuple[str, bool, object], ...]] = {
    cls: tuple((f.name, bool(f.metadata.get("sometimes")), f.default)
               for f in dataclasses.fields(cls) if f.name not in ("rules", "private"))
    for cls in NOTICE_TYPES.values()
}


def from_params(kind: Kind | str, params: Mapping[str, Any], private: bool | None = None) -> Notice:
    """The notice of ``kind`` whose plain form is ``params`` (:attr:`Notice.params`; lists read
    as tuples); ``private`` as given, else the kind's default. Raises ``ValueError`` for an
    unknown kind or a field the kind does not have or lacks."""
    try:
        cls = NOTICE_TYPES[Kind(kind)]
    except ValueError:
        raise ValueError(f"unknown notice kind: {kind!r}") from None
    values = {name: _tupled(value) for name, value in params.items()}
    if private is not None:
        values["private"] = private
    try:
        return cls(**values)
    except TypeError as exc:
        raise ValueError(f"bad {cls.kind.value} notice: {exc}") from None
