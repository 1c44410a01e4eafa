"""The rules engine: ``apply(state, event) -> (new_state, notices)`` or :class:`RuleError`.

Pure and synchronous. ``apply`` works on a copy, so a refused event leaves the caller's state as it
was. Every rule is cited by its number: seed x.y (the club's own text), F24 / S24 § (FIIM / FSM
2024), the FSM committee's rulings under our ids (SC-one-vote …), MafiaRatings options (a club's
variant); docs/rules.md says what each does here and gives our own entries where no text is
numbered.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Iterable, NamedTuple, Sequence

import rules.events as ev  # the module, not the package (rules/__init__ imports this one)

from .config import (
    DrawDeclared, FirstDayVote, NominationWithdrawal, Reason, RevoteOrder, Rotation, RulesConfig,
    Severity, ThirdFoul, changed_options,
)
from .errors import Code, RuleError
import rules.notices as nt
from .notices import Notice
from .points import bad_play_premise, check_bad_play, check_extra, parse_points, scoring, show
from .state import (
    SEATS, Ballot, Cause, Departure, GameState, Night, NightStep, Phase, Result, Role, Seat, Team,
    new_game,
)

ROLE_COUNTS = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.CIVILIAN: 6}  # F24 §1.1
BEST_MOVE_MAX = 3  # F24 §4.5.9: the best move names up to three seats

MAX_NAME = 64  # characters of a player's name
# Input hygiene, not a rule: the bidirectional-text controls of Unicode TR9 (LRM, RLM, ALM and
# the embeddings, overrides and isolates) would reorder the text around a name in every message.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")
# Letters that draw nothing (Hangul fillers, the blank Braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Characters that draw nothing inside a word (zero-width space and non-joiner, word joiner and the
# invisible operators, the BOM, the soft hyphen, the Mongolian vowel separator): «Бо\u200bрис»
# reads as «Борис», and is the same name for the duplicate check. The zero-width joiner is
# kept where it joins symbols (an emoji sequence: 👨‍👩‍👧), taken out between letters.
_ZERO_WIDTH = frozenset("\u00ad\u180e\u200b\u200c\u2060\u2061\u2062\u2063\u2064\ufeff")
_JOINER = "\u200d"


class NameFault(Enum):
    """Why a name is refused (``RuleError(BAD_NAME, why=...)``)."""

    LENGTH = "length"  # empty, or longer than MAX_NAME
    INVISIBLE = "invisible"  # nothing visible: only spaces, zero-width, control or blank characters


def _visible(ch: str) -> bool:
    """A character that draws something: a letter, digit, punctuation mark or symbol."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS


def _invisible(ch: str) -> bool:
    """Spaces and format characters (zero-width space, joiners, BOM …)."""
    return ch.isspace() or unicodedata.category(ch) == "Cf"


def clean_text(raw: str, *, lines: bool = False) -> str:
    """``raw`` without what would reorder, hide or act in the text around it. Input hygiene, not a
    rule: control characters (category Cc: BEL, ESC …) and the bidirectional-text controls
    (Unicode TR9: overrides, embeddings, isolates, marks) are taken out — a spacing one (a tab,
    a line break) becomes a space, or with ``lines`` a line break stays one —, and so are the
    zero-width characters (:data:`_ZERO_WIDTH`; a zero-width joiner between two letters). What
    the bot repeats of a user's words and every name go through it (:func:`clean_name`)."""
    if raw.isprintable():  # none of them (each is Cc or Cf): as it is, at C speed
        return raw
    out: list[str] = []
    last = len(raw) - 1
    for index, ch in enumerate(raw):
        if ch in _BIDI_CONTROLS or ch in _ZERO_WIDTH or unicodedata.category(ch) == "Cc":
            if lines and ch == "\n":
                out.append(ch)
            elif ch.isspace():
                out.append(" ")
        elif ch == _JOINER and (index in (0, last) or raw[index - 1].isalpha()
                                or raw[index + 1].isalpha()):
            continue  # a joiner joins symbols (an emoji sequence), never letters
        else:
            out.append(ch)
    return "".join(out)


def clean_name(raw: object) -> str | NameFault:
    """A player's name as it is kept, or why it is refused. Input hygiene, not a rule: control
    characters, text-direction controls and zero-width characters are taken out
    (:func:`clean_text`: they would reorder or break every message around the name, or make
    «Бо\u200bрис» another name than «Борис»; taken out rather than refused, so that a
    platform's display name or an older log still passes), then spaces and invisible format
    characters around the name; a name with nothing visible, or longer than :data:`MAX_NAME`
    characters, is refused."""
    if not isinstance(raw, str):
        return NameFault.LENGTH
    text = clean_text(raw)
    start, end = 0, len(text)
    while start < end and _invisible(text[start]):
        start += 1
    while end > start and _invisible(text[end - 1]):
        end -= 1
    name = text[start:end]
    if not name and raw.strip():
        return NameFault.INVISIBLE  # only zero-width, control or other invisible characters
    if not name or len(name) > MAX_NAME:
        return NameFault.LENGTH
    if not any(_visible(ch) for ch in name):
        return NameFault.INVISIBLE
    return name


def name_key(name: str) -> str:
    """Whose name it is, as the club's roster tells players apart (``storage.club.fold``): NFKC
    (a fullwidth or styled letter is its plain one), case-folded, ё as е, inner spaces
    collapsed. Two seats of one game never share a key (:class:`~rules.events.SetName`)."""
    text = unicodedata.normalize("NFKC", name).casefold().replace("ё", "е")
    return " ".join(text.split())


def admit(state: GameState, event: ev.Event) -> RuleError | None:
    """Would a new ``event`` be refused for what a logged one is not? Returns the refusal, else
    ``None``; the service asks it before :func:`apply` of each new action and of a game's first
    names. A stored log may predate these refusals, so :func:`apply` (and every replay) takes
    them:

    * ``NAME_TAKEN`` — a :class:`~rules.events.SetName` giving a seat the name another seat
      already has (:func:`name_key`: one player, one seat, as the club's statistics count each
      seat a game of its player);
    * ``SELF_CHECK`` — the Don or the Sheriff checking his own seat (F24/S24 §4.5.6, §4.5.7: he
      looks for the Sheriff, for a black, among the others);
    * ``SELF_BEST_MOVE`` — night 1's victim naming his own seat (F24/S24 §4.5.9: the seats he
      thinks black, the others').

    * ``BAD_PLAY_NOT_LOST`` — a bad play whose item includes the player's team's loss (F24
      §8.5.2 "…, and the reds lost") given in a game that team won or drew: its premise is false
      (:func:`rules.points.bad_play_premise`).

    An event :func:`apply` refuses anyway is left to it (its refusal says more)."""
    if isinstance(event, (ev.DonCheck, ev.SheriffCheck, ev.BestMove)):
        return _admit_night(state, event)
    if isinstance(event, ev.BadPlay) and not event.withdraw and isinstance(event.seat, int):
        return bad_play_premise(state, event.seat, str(event.item))
    if not isinstance(event, ev.SetName):
        return None
    name = clean_name(event.name)
    if not isinstance(name, str):
        return None  # apply refuses it (BAD_NAME)
    key = name_key(name)
    other = next((s.number for s in state.seats if s.number != event.seat and s.name is not None
                  and name_key(s.name) == key), None)
    if other is None:
        return None
    return RuleError(Code.NAME_TAKEN, seat=event.seat, other=other, name=state.seat(other).name)


def _admit_night(state: GameState, event: ev.DonCheck | ev.SheriffCheck | ev.BestMove
                 ) -> RuleError | None:
    """:func:`admit` for a night's check or best move: its own seat named (see there). The
    checks :func:`apply` makes first are run here as they are there, without applying it."""
    try:
        _open_to(state, event)
        move = _Move(state)  # its checks only read the state
        if isinstance(event, ev.BestMove):
            move.best_move_guesses(event)
        else:
            move.night_check_target(event)
    except RuleError:
        return None  # refused for another reason: apply says which
    night = state.night
    assert night is not None
    if isinstance(event, ev.BestMove):
        if night.killed in event.guesses:
            return RuleError(Code.SELF_BEST_MOVE, seat=night.killed, rules=state.config.preset)
        return None
    if not state.roles_known:
        return None
    role = Role.DON if isinstance(event, ev.DonCheck) else Role.SHERIFF
    holder = next(x for x in state.seats if x.role is role)
    if event.target == holder.number:
        return RuleError(Code.SELF_CHECK, seat=event.target, role=role.value, rules=state.config.preset)
    return None


def apply(state: GameState, event: ev.Event) -> tuple[GameState, list[Notice]]:
    """Apply one event. Returns the new state and the notices, in the order things happened.

    Raises :class:`RuleError` (state unchanged) when the rules refuse the event, and
    ``TypeError`` for :class:`~rules.events.Undo` and :class:`~rules.events.Fix`, which are
    folded by :func:`fold`, not applied.
    Once the game is over only a name, a penalty (recorded, it changes nothing, F24 §7.9) and
    the judge's points (F24/S24 §8.4, §8.5: :mod:`rules.points`) are taken; the points only then.
    """
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"{type(event).__name__} is not applied to a state (see rules.fold)")
    _open_to(state, event)
    move = _Move(state.clone())
    try:
        handler(move, event)
    except RuleError as error:
        error.params.setdefault("rules", state.config.preset)  # its rule numbers (docs/rules.md §1)
        raise
    move.s.revision += 1
    return move.s, move.notices


def _open_to(state: GameState, event: ev.Event) -> None:
    """Raise the :class:`RuleError` of a game that takes no such event at all now: over
    (``GAME_OVER``, see :func:`apply`), or waiting for the judge's result (``RESULT_REQUIRED``)."""
    if state.phase is Phase.GAME_OVER and not isinstance(event, _AFTER_THE_END):
        raise RuleError(Code.GAME_OVER)
    if result_required(state) and not isinstance(event, (ev.SetName, ev.DeclareResult)):
        raise RuleError(Code.RESULT_REQUIRED, at_table=len(state.at_table))


def check(state: GameState, event: ev.Event) -> RuleError | None:
    """Would ``event``, a new action, be refused? Returns the :class:`RuleError` it would raise
    (:func:`admit`'s refusal first, as the service asks it), else ``None``."""
    refusal = admit(state, event)
    if refusal is not None:
        return refusal
    try:
        apply(state, event)
    except RuleError as error:
        return error
    return None


def nomination_refusal(state: GameState, event: ev.Nominate) -> RuleError | None:
    """:func:`check` of a nomination without the copy :func:`apply` makes: the checks of
    :meth:`_Move.nomination` (F24 §4.4.2–4.4.4), the rules' one statement of who may nominate
    whom, run on ``state`` itself (they only read it). What :func:`apply` does after them never
    refuses, and :func:`admit` refuses no nomination, so the answer is :func:`check`'s:
    the :class:`RuleError` it would return (``rules``: the preset), else ``None``. For
    :func:`rules.nominable`, which asks it of every seat."""
    try:
        _open_to(state, event)
    except RuleError as error:
        return error  # as apply raises it
    try:
        _Move(state).nomination(event)
    except RuleError as error:
        error.params.setdefault("rules", state.config.preset)  # as apply adds it
        return error
    return None


def fold(
    config: RulesConfig, events: Iterable[ev.Event], names: dict[int, str] | None = None
) -> tuple[GameState, list[Notice]]:
    """Replay a game log from a new game under ``config``: undone events are skipped
    (:func:`rules.events.effective`). Returns the final state and every notice.

    Raises :class:`RuleError` if a logged event is refused (a corrupt log)."""
    state = new_game(config, names)
    notices: list[Notice] = []
    for event in ev.effective(events):
        state, new = apply(state, event)
        notices.extend(new)
    return state, notices


def state_before(config: RulesConfig, events: Sequence[ev.Event], seq: int,
                 names: dict[int, str] | None = None) -> GameState:
    """The game as it stood just before the action logged at ``seq`` (1 for the first): the
    standing actions logged before it, replayed (corrections included). A correction's
    replacement is read against it (``/fix 12 /nominate 7``: the speaker of then)."""
    state = new_game(config, names)
    for place, event in ev.counted(events):
        if place >= seq:
            break
        state, _ = apply(state, event)
    return state


def _admitted_from(config: RulesConfig, log: Sequence[ev.Event], seq: int,
                   names: dict[int, str] | None) -> set[int]:
    """The places after ``seq`` of the standing actions of ``log`` that :func:`admit` takes
    where they stand now. A correction must not turn one of them into what a new action would
    be refused for — a bad play whose "…, and lost" a new result makes false (F24/S24 §8.5),
    a best move naming the victim a corrected kill makes it (F24/S24 §4.5.9) — while an action
    a stored log held before its refusal existed stays as it was. The replacement itself is a
    new action: :func:`correct` admits it where it stands."""
    state = new_game(config, names)
    out: set[int] = set()
    for place, event in ev.counted(log):
        if place > seq and admit(state, event) is None:
            out.add(place)
        state, _ = apply(state, event)
    return out


@dataclass(frozen=True)
class Correction:
    """What :func:`correct` found: the action logged at ``seq`` was ``original`` (as it counted,
    an earlier correction included) and is ``replacement`` now; ``state`` is the game replayed
    over it; ``before`` and ``after`` are every notice of the game without and with the
    correction (what the judge was told, and what he would have been)."""

    seq: int
    original: ev.Event
    replacement: ev.Event
    state: GameState
    before: tuple[Notice, ...]
    after: tuple[Notice, ...]


def correct(config: RulesConfig, events: Sequence[ev.Event], seq: int, replacement: ev.Event,
            names: dict[int, str] | None = None) -> Correction:
    """The judge corrects the action logged at ``seq`` of ``events`` (a game's log) into
    ``replacement``: the log is replayed with it in that place (:class:`rules.events.Fix`).

    Raises :class:`RuleError` ``NOT_FIXABLE`` (``why``: ``no_such`` — no action at ``seq``, or
    an undo or a correction; ``undone`` — it no longer stands; ``kind`` — another kind of
    action, :func:`rules.events.fixable`; ``same`` — nothing would change), or ``FIX_BREAKS``
    with the first action of the replay the rules now refuse (``seq``; the replacement itself
    when ``seq == fixed``) and why (``cause``): refused as :func:`apply` refuses it, or as
    :func:`admit` refuses a new action — the replacement, or a later action the correction
    turns into one (:func:`_admitted_from`). Nothing is changed either way."""
    log = list(events)
    if not 1 <= seq <= len(log) or isinstance(log[seq - 1], (ev.Undo, ev.Fix)):
        raise RuleError(Code.NOT_FIXABLE, seq=seq, why="no_such")
    now = dict(ev.counted(log))
    if seq not in now:
        raise RuleError(Code.NOT_FIXABLE, seq=seq, why="undone")
    original = now[seq]
    if not ev.fixable(original, replacement):
        raise RuleError(Code.NOT_FIXABLE, seq=seq, why="kind")
    if original == replacement:
        raise RuleError(Code.NOT_FIXABLE, seq=seq, why="same")
    admitted = _admitted_from(config, log, seq, names)
    state = new_game(config, names)
    after: list[Notice] = []
    for place, event in ev.counted([*log, ev.Fix(seq=seq, event=replacement)]):
        try:
            refusal = admit(state, event) if place == seq or place in admitted else None
            if refusal is not None:
                refusal.params.setdefault("rules", config.preset)  # as apply adds it
                raise refusal
            state, notices = apply(state, event)
        except RuleError as error:
            raise RuleError(Code.FIX_BREAKS, seq=place, fixed=seq, event=event,
                            preset=config.preset, cause=error) from error
        after.extend(notices)
    _, before = fold(config, log, names)
    return Correction(seq, original, replacement, state, tuple(before), tuple(after))


class _Move:
    """One transition in progress: the copied state and the notices it emits."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.notices: list[Notice] = []

    @property
    def cfg(self) -> RulesConfig:
        return self.s.config

    def say(self, notice: Notice) -> None:
        """Emit ``notice`` with ``rules``, the game's preset, so that its words cite that
        preset's own rule numbers (seed 4.5 is FIIM 2024 §6.5 …)."""
        self.notices.append(dataclasses.replace(notice, rules=self.cfg.preset))

    # --- validation helpers -----------------------------------------------------------------
    def expect_phase(self, event: ev.Event, *phases: Phase) -> None:
        if self.s.phase not in phases:
            raise RuleError(Code.WRONG_PHASE, event=event.type, phase=self.s.phase.value)

    def valid_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise RuleError(Code.NO_SUCH_SEAT, seat=seat)
        return seat

    def seat_at_table(self, seat: object) -> int:
        number = self.valid_seat(seat)
        if not self.s.seat(number).at_table:
            raise RuleError(Code.NOT_AT_TABLE, seat=number)
        return number

    def hands(self, count: int | None, voters: tuple[int, ...], left: int) -> tuple[int, list[int]]:
        """Validate a hand count or a list of voters; ``left`` hands may still be raised."""
        if voters:
            seen: set[int] = set()
            for voter in voters:
                self.seat_at_table(voter)
                if voter in seen or (self.s.ballot and voter in self.s.ballot.voters
                                     and self.s.phase is Phase.VOTING):
                    raise RuleError(Code.ALREADY_VOTED, seat=voter)  # seed 4.1.8
                seen.add(voter)
            if count is not None and count != len(voters):
                raise RuleError(Code.BAD_COUNT, count=count)
            count = len(voters)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RuleError(Code.BAD_COUNT, count=count)
        if count > left:
            raise RuleError(Code.TOO_MANY_HANDS, count=count, left=left)
        return count, list(voters)

    # --- setup ------------------------------------------------------------------------------
    def set_name(self, e: ev.SetName) -> None:
        seat = self.valid_seat(e.seat)
        name = clean_name(e.name)
        if not isinstance(name, str):
            raise RuleError(Code.BAD_NAME, seat=seat, why=name.value)
        self.s.seat(seat).name = name
        self.say(nt.NameSet(seat=seat, name=name))

    def set_roles(self, e: ev.SetRoles) -> None:
        """F24 §1.1: 7 red (one Sheriff), 3 black (one Don); or every role unknown."""
        self.expect_phase(e, Phase.SETUP, Phase.NIGHT_ZERO)
        if not isinstance(e.roles, (tuple, list)) or len(e.roles) != len(SEATS):
            raise RuleError(Code.BAD_ROLES, black=None, don=None, sheriff=None)
        if all(r is None for r in e.roles):
            roles: list[Role | None] = [None] * len(SEATS)
        else:
            known = {x.value for x in Role}
            bad = next((r for r in e.roles if not isinstance(r, str) or r not in known), None)
            if bad is not None:
                raise RuleError(Code.UNKNOWN_ROLE, role=bad)
            roles = [Role(r) for r in e.roles]  # type: ignore[arg-type]
            counts = {role: roles.count(role) for role in Role}
            if counts != ROLE_COUNTS:
                raise RuleError(
                    Code.BAD_ROLES,
                    black=counts[Role.DON] + counts[Role.MAFIA],
                    don=counts[Role.DON],
                    sheriff=counts[Role.SHERIFF],
                )
        for seat, role in zip(self.s.seats, roles):
            seat.role = role
        self.say(nt.RolesSet(known=roles[0] is not None))
        if self.s.departures():
            self.check_end(decisive=False)  # seats removed in night 0 before the deal was entered

    def start_game(self, e: ev.StartGame) -> None:
        """F24 §1.3, §4.1.2: the game starts with a night; night 0 is the договорка (F24 §4.2.1)."""
        self.expect_phase(e, Phase.SETUP)
        self.s.phase = Phase.NIGHT_ZERO
        self.s.seconds = self.cfg.timers.mafia_meeting
        self.say(nt.GameStarted(preset=self.cfg.preset, roles_known=self.s.roles_known,
                                options=changed_options(self.cfg)))
        self.say(nt.NightZero(seconds=self.s.seconds))

    # --- moving on --------------------------------------------------------------------------
    def next(self, e: ev.Next) -> None:
        phase = self.s.phase
        if phase is Phase.NIGHT_ZERO:
            self.morning_bans(1)
            self.start_day(1)
        elif phase is Phase.SPEECH:
            self.s.speech_index += 1
            self.start_speech()
        elif phase is Phase.LAST_WORD:
            self.end_last_word()
        elif phase is Phase.TIE_SPEECH:
            self.s.tie_queue.pop(0)
            self.next_tie_speech()
        elif phase is Phase.LEADER_SPEECH:
            self.s.tie_queue = []
            self.end_day()
        elif phase is Phase.NIGHT:
            self.next_night_step()
        else:
            raise RuleError(Code.WRONG_PHASE, event=e.type, phase=phase.value)

    # --- the day ----------------------------------------------------------------------------
    def start_day(self, day: int) -> None:
        """F24 §4.3.2: day 1 opens with seat 1; each later day with the next seat at the table
        after the previous day's opener (docs/rules.md §3.1). The night victim's last word comes
        first (F24 §4.5.9) but he does not open. Option ``rotation=last`` (MafiaRatings 6.3.2):
        today's last speaker is the next seat at the table after yesterday's last speaker, and the
        seat after him opens."""
        s = self.s
        s.day = day
        s.nominations = []
        s.ballot = None
        s.result_determined = False
        s.vote_over = False
        s.day_departures = 0
        at_table = s.at_table
        start = 1 if s.opener is None else s.opener % len(SEATS) + 1
        if s.opener is not None and self.cfg.rotation is Rotation.LAST and s.speech_order:
            closer = next((n for n in _cyclic_from(s.speech_order[-1] % len(SEATS) + 1)
                           if n in at_table), None)
            start = start if closer is None else closer % len(SEATS) + 1
        # Nobody may be left only after a decisive kill whose result is fixed (F24 §7.9) and
        # removals in that night: then the victim's last word, if any, and the result.
        opener = next((n for n in _cyclic_from(start) if n in at_table), None)
        s.opener = opener if opener is not None else s.opener
        s.speech_order = [n for n in _cyclic_from(opener) if n in at_table] if opener else []
        s.speech_index = 0
        if opener is not None:
            self.say(nt.DayStarts(day=day, opener=opener, at_table=len(at_table)))
        victim = s.nights[-1].killed if s.nights and s.nights[-1].number == day - 1 else None
        if victim is not None and not _no_last_word(s.seat(victim)):
            self.start_last_words([victim], "kill")
        elif s.result is not None:
            self.game_over(s.result.winner, s.result.why)
        else:
            self.start_speeches()

    def start_speeches(self) -> None:
        self.s.phase = Phase.SPEECH
        self.s.speech_index = 0
        self.start_speech()

    def start_speech(self) -> None:
        """The next regular speech: 60 s (F24 §4.3.1); 0 s for a pending 3rd-foul silence
        (seed 4.4), 30 s instead when 3 or 4 players are at the table (seed 5.7). The penalty
        is served once (MafiaRatings 9.5.1)."""
        s = self.s
        while s.speech_index < len(s.speech_order) and not s.seat(s.speech_order[s.speech_index]).at_table:
            s.speech_index += 1
        if s.speech_index >= len(s.speech_order):
            self.end_speeches()
            return
        seat = s.seat(s.speech_order[s.speech_index])
        seconds, silenced, short, option = self.cfg.timers.speech, False, False, False
        if seat.silence_pending:
            seat.silence_pending = False
            if len(s.at_table) <= 4:  # seed 5.7
                seconds, short = self.cfg.timers.short_speech, True
            elif self.cfg.third_foul is ThirdFoul.SILENCE:  # seed 4.4
                seconds, silenced = 0, True
            else:  # the game's option third_foul=short_speech (MafiaRatings 9.5.2), not seed 5.7
                seconds, short, option = self.cfg.timers.short_speech, True, True
        s.seconds = seconds
        self.say(nt.Speech(seat=seat.number, seconds=seconds, silenced=silenced, short=short,
                           option=option, day=s.day))

    def nomination(self, e: ev.Nominate) -> tuple[int, int, int | None]:
        """F24 §4.4.2–4.4.4: only in one's own minute, one per day, no repeat, only seats at the
        table. Self-nomination per option (docs/rules.md §3.4). A silenced speaker (seed 4.4)
        still nominates. Option ``nomination_withdrawal=auto`` (MafiaRatings 7.5.2): a second
        nomination in his minute replaces his first. Returns ``(by, target, earlier)``, the
        speaker's nominee it replaces or ``None``; raises :class:`RuleError` why not. Only reads
        the state: :func:`nomination_refusal` asks it without a copy."""
        s = self.s
        by = self.valid_seat(e.by)
        if s.phase is Phase.LAST_WORD and s.speaker == by:
            raise RuleError(Code.NOMINATION_IN_LAST_WORD, seat=by)  # docs/rules.md §3.5
        self.expect_phase(e, Phase.SPEECH)
        if s.speaker != by:
            raise RuleError(Code.NOT_SPEAKER, seat=by, speaker=s.speaker)
        target = self.seat_at_table(e.target)
        earlier = next((t for b, t in s.nominations if b == by), None)
        if earlier is not None and self.cfg.nomination_withdrawal is not NominationWithdrawal.AUTO:
            raise RuleError(Code.NOMINATION_USED, seat=by, target=earlier)
        if target in s.nominees:
            raise RuleError(Code.ALREADY_NOMINATED, seat=target)
        if target == by and not self.cfg.self_nomination:
            raise RuleError(Code.SELF_NOMINATION, seat=by)
        return by, target, earlier

    def nominate(self, e: ev.Nominate) -> None:
        """A nomination the rules allow (:meth:`nomination`) is put up; the nominations' order
        is the voting order (F24 §4.4.2)."""
        s = self.s
        by, target, earlier = self.nomination(e)
        if earlier is not None:
            self.withdraw(by, earlier)
        s.nominations.append((by, target))
        self.say(nt.Nominated(by=by, target=target, nominees=tuple(s.nominees)))
        if self.nomination_decides(by):
            # SC-determined (option single_nominee_decided): he is the one leaving by today's
            # vote from now on, so the end is checked as if he had left (F24 §1.4, §7.9)
            s.result_determined = True
            if s.roles_known:
                self.check_end(decisive=True)

    def nomination_decides(self, by: int) -> bool:
        """SC-determined, the option ``single_nominee_decided`` (fsm2024): on day 2 or later
        the last speaker (no seat after ``by`` in today's order is still at the table) has put up
        the only candidate of a vote that will be held — every hand goes to him (F24 §4.4.8), so
        the result is determined. Not with a withdrawal allowed (MafiaRatings 7.5.1–7.5.2): the
        nomination may still change."""
        s = self.s
        if (not self.cfg.single_nominee_decided or s.day < 2 or s.day in s.vote_bans
                or self.cfg.nomination_withdrawal is not NominationWithdrawal.NONE
                or len(s.nominees) != 1):
            return False
        later = s.speech_order[s.speech_index + 1:]
        return s.speaker == by and not any(s.seat(n).at_table for n in later)

    def decided_nominee(self) -> int | None:
        """The nominee today's vote has decided, who leaves by it (F24 §1.4; seed 5.1: «является
        покинувшим игру по результату голосования»): the one nobody can catch in the running vote
        (SC-determined), or, with ``single_nominee_decided``, the only candidate the last speaker
        put up (:meth:`nomination_decides`), his speech still running. ``None``: none."""
        s = self.s
        if s.phase is Phase.VOTING and s.ballot is not None:
            return s.ballot.decided
        if s.phase is Phase.SPEECH and s.result_determined and self.cfg.single_nominee_decided \
                and len(s.nominees) == 1:
            return s.nominees[0]
        return None

    def withdraw_nomination(self, e: ev.WithdrawNomination) -> None:
        """MafiaRatings 7.5.1–7.5.2: in his own minute the speaker takes back his nomination
        («Я отзываю игрока № …»); refused where the club allows none (7.5.3; F24 has no such
        clause: docs/rules.md §3.7)."""
        s = self.s
        by = self.valid_seat(e.by)
        if self.cfg.nomination_withdrawal is NominationWithdrawal.NONE:
            raise RuleError(Code.NO_WITHDRAWAL)
        self.expect_phase(e, Phase.SPEECH)
        if s.speaker != by:
            raise RuleError(Code.NOT_SPEAKER, seat=by, speaker=s.speaker)
        target = next((t for b, t in s.nominations if b == by), None)
        if target is None:
            raise RuleError(Code.NO_NOMINATION, seat=by)
        self.withdraw(by, target)

    def withdraw(self, by: int, target: int) -> None:
        self.s.nominations.remove((by, target))
        self.say(nt.NominationWithdrawn(by=by, target=target, nominees=tuple(self.s.nominees)))

    def end_speeches(self) -> None:
        """Is the vote held (docs/rules.md §4.1)? If so, the main vote begins."""
        held, why, seat = vote_plan(self.s)
        if not held:
            assert why is not None  # vote_plan says why a vote is not held
            self.s.vote_over = True
            self.s.result_determined = True
            departure = self.s.seat(seat).departure if seat is not None else None
            cause = departure.cause.value if departure else None  # the removal's cause and item
            reason = departure.reason if departure and departure.phase == "day" else None
            self.say(nt.VoteNotHeld(day=self.s.day, why=why, seat=seat, cause=cause, reason=reason))
            if self.s.result is not None:  # the decided candidate removed since (F24 §7.9)
                self.game_over(self.s.result.winner, self.s.result.why)
                return
            self.end_day()
            return
        nominees = [n for n in self.s.nominees if self.s.seat(n).at_table]
        self.open_round(nominees, 0)

    # --- voting -----------------------------------------------------------------------------
    def open_round(self, candidates: list[int], round_: int) -> None:
        s = self.s
        s.phase = Phase.VOTING
        s.ballot = Ballot(candidates=list(candidates), round=round_, counts={c: 0 for c in candidates})
        self.say(nt.VotingStarts(day=s.day, nominees=tuple(candidates), round=round_))
        self.maybe_close_round()

    def vote(self, e: ev.Vote) -> None:
        """F24 §4.4.5–4.4.8: hands against each nominee in order, at most one per player."""
        self.expect_phase(e, Phase.VOTING)
        ballot = self.s.ballot
        assert ballot is not None
        nominee = self.valid_seat(e.nominee)
        expected = ballot.candidates[ballot.index]
        if nominee != expected:
            raise RuleError(Code.NOT_CURRENT_NOMINEE, seat=nominee, expected=expected)
        count, voters = self.hands(e.count, e.voters, self.hands_left())
        if count and not voters and self.leader_needs_own_vote():
            raise RuleError(Code.VOTERS_REQUIRED, nominee=nominee)
        ballot.counts[nominee] = count
        ballot.voters.extend(voters)
        ballot.choices.update((voter, nominee) for voter in voters)
        ballot.index += 1
        self.say(nt.VoteCounted(nominee=nominee, count=count, derived=False))
        self.maybe_close_round()

    def hands_left(self) -> int:
        return hands_left(self.s)

    def leader_needs_own_vote(self) -> bool:
        """MafiaRatings 7.16 self-break: on day 1 a single leader leaves by his own hand only,
        so the hands are given by voter."""
        return self.s.day == 1 and self.cfg.first_day_vote is FirstDayVote.SELF_BREAK

    def voted_for_self(self, seat: int) -> bool:
        """Was ``seat``'s hand in the running round against himself? A hand not raised went to
        the last nominee (F24 §4.4.8)."""
        ballot = self.s.ballot
        assert ballot is not None
        if seat in ballot.choices:
            return ballot.choices[seat] == seat
        return (self.cfg.unvoted_hands_to_last and ballot.candidates[-1] == seat
                and seat not in ballot.voters)

    def single_leader_leaves(self, leader: int) -> bool:
        """Does a single leader of today's vote leave by it? Always, except on day 1 under the
        first-day options (RAISE_ONLY, NO_BREAK; SELF_BREAK by his own hand, MafiaRatings 7.16)."""
        rule = self.cfg.first_day_vote
        if self.s.day != 1 or rule in (FirstDayVote.SINGLE_NOT_VOTED, FirstDayVote.NORMAL):
            return True
        return rule is FirstDayVote.SELF_BREAK and self.voted_for_self(leader)

    def maybe_close_round(self) -> None:
        """Unvoted hands go to the last nominee (F24 §4.4.8), so the round closes after the last
        but one. The result is known early once a nominee cannot be caught (SC-determined); from
        then on he is the one leaving by this vote (F24 §1.4), so the end is checked at once as if
        he had left — a removal later in the ballot no longer changes a result this vote decides
        (F24 §7.9), exactly as one during his last word would not."""
        ballot = self.s.ballot
        assert ballot is not None
        if self.cfg.unvoted_hands_to_last and ballot.index == len(ballot.candidates) - 1:
            last = ballot.candidates[-1]
            ballot.counts[last] = self.hands_left()
            ballot.index += 1
            self.say(nt.VoteCounted(nominee=last, count=ballot.counts[last], derived=True))
        if ballot.index >= len(ballot.candidates):
            self.resolve_round()
            return
        left = self.hands_left()
        leader = max(ballot.candidates, key=lambda c: ballot.counts[c])
        if all(ballot.counts[leader] > ballot.counts[c] + left for c in ballot.candidates if c != leader):
            self.s.result_determined = True
            if self.single_leader_leaves(leader):
                ballot.decided = leader
                if self.s.roles_known:
                    self.check_end(decisive=True)

    def resolve_round(self) -> None:
        """The round's outcome (docs/rules.md §4.3–4.6): F24 §4.4.11–4.4.12.3, seed 5.6, 5.9,
        F24 §7.11."""
        s = self.s
        ballot = s.ballot
        assert ballot is not None
        top = max(ballot.counts.values())
        leaders = [c for c in ballot.candidates if ballot.counts[c] == top]
        if len(leaders) == 1:
            if not self.single_leader_leaves(leaders[0]):  # day 1, MafiaRatings 7.16.2–7.16.4
                if self.cfg.first_day_vote is FirstDayVote.NO_BREAK:
                    self.nobody_leaves("first_day_no_break", leaders)  # no speech either
                    return
                if not self.cfg.first_day_leader_speech:
                    self.nobody_leaves(self.first_day_why(), leaders)
                    return
                self.leader_speech(leaders[0])
                return
            self.leave_by_vote(leaders, Cause.VOTE)
            return
        if ballot.round > 0 and set(leaders) == set(ballot.candidates):
            n = len(s.at_table)
            if len(leaders) == n and not self.cfg.raise_whole_table:  # else MafiaRatings 7.21.2
                self.nobody_leaves("5.6" if n == 3 else "5.9", leaders)
            elif n == 9 and len(leaders) == 3 and not (
                    self.cfg.raise_3_of_9 and s.day >= self.cfg.raise_3_of_9_from_day):
                self.nobody_leaves("3_of_9", leaders)  # F24 §7.11; MafiaRatings 7.23
            elif n == 4 and len(leaders) == 2 and not self.cfg.raise_2_of_4:
                self.nobody_leaves("2_of_4", leaders)  # MafiaRatings 7.22.2
            elif not self.cfg.raise_vote:
                self.nobody_leaves("no_raise_vote", leaders)
            else:
                s.phase = Phase.RAISE_VOTE
                s.raise_candidates = list(leaders)
                self.say(nt.RaiseVote(seats=tuple(leaders), at_table=n))
            return
        order = leaders[::-1] if self.cfg.revote_order is RevoteOrder.REVERSE else leaders
        self.say(nt.Tie(seats=tuple(leaders), round=ballot.round))
        s.ballot = Ballot(candidates=list(order), round=ballot.round + 1)
        s.phase = Phase.TIE_SPEECH
        s.tie_queue = list(order)
        self.next_tie_speech()

    def leader_speech(self, leader: int) -> None:
        """Day 1 under ``first_day_vote=raise_only`` or ``self_break`` (MafiaRatings 7.16.2,
        7.16.4): the single leader stays, nobody leaves by the vote, and he speaks 30 s more (the
        tie speech's length, docs/rules.md §4.8); the judge ends that speech (``Next``) and night
        falls. The vote's result is known from here on (a removal now cancels the next day's
        vote, seed 5.2)."""
        s = self.s
        s.result_determined = True
        s.vote_over = True
        s.phase = Phase.LEADER_SPEECH
        s.tie_queue = [leader]
        s.seconds = self.cfg.timers.tie_speech
        self.say(nt.LeaderStays(seat=leader, seconds=s.seconds))
        self.say(nt.NobodyLeaves(why=self.first_day_why(), seats=(leader,)))

    def first_day_why(self) -> str:
        """Why day 1's single leader stays: the ``first_day_vote`` option that keeps him."""
        return "first_day_raise_only" if self.cfg.first_day_vote is FirstDayVote.RAISE_ONLY \
            else "first_day_self_break"

    def next_tie_speech(self) -> None:
        """30 s each, in order (F24 §4.4.12.1); a 3-foul player speaks too (seed 5.5)."""
        s = self.s
        while s.tie_queue and not s.seat(s.tie_queue[0]).at_table:
            s.tie_queue.pop(0)
        if s.tie_queue:
            s.seconds = self.cfg.timers.tie_speech
            self.say(nt.TieSpeech(seat=s.tie_queue[0], seconds=s.seconds))
            return
        assert s.ballot is not None
        self.open_round(s.ballot.candidates, s.ballot.round)

    def raise_vote(self, e: ev.RaiseVote) -> None:
        """F24 §4.4.12.3: more than half of the players at the table for → all tied leave;
        an even split → all stay. Hands not raised count as against."""
        self.expect_phase(e, Phase.RAISE_VOTE)
        n = len(self.s.at_table)
        yes, _ = self.hands(e.count, e.voters, n)
        passed = yes * 2 > n
        seats = list(self.s.raise_candidates)
        self.say(nt.RaiseResult(seats=tuple(seats), yes=yes, at_table=n, passed=passed))
        if passed:
            self.leave_by_vote(seats, Cause.RAISE)
        else:
            self.nobody_leaves("raise_failed", seats)

    def nobody_leaves(self, why: str, seats: list[int]) -> None:
        self.s.result_determined = True
        self.s.vote_over = True
        self.say(nt.NobodyLeaves(why=why, seats=tuple(seats)))
        self.end_day()

    def leave_by_vote(self, seats: list[int], cause: Cause) -> None:
        """F24 §1.4: the moment of the vote is the moment of leaving; each gets a 60 s last word
        in nomination order (F24 §4.4.13)."""
        s = self.s
        s.result_determined = True
        s.vote_over = True
        assert s.ballot is not None
        counts = {c: s.ballot.counts.get(c, 0) for c in s.ballot.candidates}
        for seat in seats:
            if s.seat(seat).at_table:  # the decided leader may already have been removed (seed 5.1)
                self.depart(seat, cause)
        self.say(nt.LeavesByVote(seats=tuple(seats), cause=cause.value, counts=counts))
        self.check_end(decisive=True, leavers=seats)
        if s.phase is Phase.GAME_OVER:
            return
        speaking = [n for n in seats if not _no_last_word(s.seat(n))]  # seed 4.5: no last word
        if speaking:
            self.start_last_words(speaking, cause.value)
        elif s.result is not None:
            self.game_over(s.result.winner, s.result.why)
        else:
            self.end_day()

    def start_last_words(self, seats: list[int], why: str) -> None:
        s = self.s
        if s.result is not None and not self.cfg.last_word_on_decisive_event:
            self.say(nt.LastWordSkipped(seats=tuple(seats), why="decisive"))
            self.game_over(s.result.winner, s.result.why)
            return
        s.phase = Phase.LAST_WORD
        s.last_words = list(seats)
        s.last_word_why = why
        s.seconds = self.cfg.timers.last_word
        self.say(nt.LastWord(seat=seats[0], seconds=s.seconds, why=why))

    def end_last_word(self) -> None:
        s = self.s
        s.last_words.pop(0)
        if s.last_words:
            self.say(nt.LastWord(seat=s.last_words[0], seconds=s.seconds, why=s.last_word_why))
        elif s.result is not None:
            self.game_over(s.result.winner, s.result.why)  # F24 §7.9
        elif s.last_word_why == "kill":
            self.start_speeches()
        else:
            self.end_day()

    def end_day(self) -> None:
        """Night k follows day k. Seed 5.8: a day with nobody leaving continues a quiet window
        that began with a shooting night; the seed preset declares the draw at the end of the
        third such day."""
        s = self.s
        s.vote_over = True
        s.ballot = None
        s.tie_queue = []
        if s.quiet_nights > 0:
            s.quiet_days += 1
        if (self.cfg.draw_declared is DrawDeclared.AFTER_THIRD_DAY
                and s.quiet_nights >= self.cfg.draw_quiet_nights
                and s.quiet_days >= self.cfg.draw_quiet_nights):
            self.game_over(None, "draw")
            return
        s.phase = Phase.NIGHT
        s.nights.append(Night(number=s.day))
        self.say(nt.NightFalls(night=s.day))
        self.enter_night_step(NightStep.SHOOTING)

    # --- the night --------------------------------------------------------------------------
    def enter_night_step(self, step: NightStep) -> None:
        night = self.s.night
        assert night is not None
        night.step = step
        timers = self.cfg.timers
        self.s.seconds = {
            NightStep.SHOOTING: timers.shooting,
            NightStep.DON_CHECK: timers.don_check,
            NightStep.SHERIFF_CHECK: timers.sheriff_check,
            NightStep.BEST_MOVE: timers.best_move,
        }[step]
        self.say(nt.NightStep(step=step.value, seconds=self.s.seconds))
        if step is NightStep.BEST_MOVE:
            assert night.killed is not None  # best_move_due: night 1's victim
            self.say(nt.BestMoveDue(seat=night.killed, seconds=self.s.seconds))

    def expect_step(self, e: ev.Event, step: NightStep) -> Night:
        self.expect_phase(e, Phase.NIGHT)
        night = self.s.night
        assert night is not None
        if night.step is not step:
            raise RuleError(Code.WRONG_PHASE, event=e.type, phase=night.step.value)
        return night

    def night_kill(self, e: ev.NightKill) -> None:
        """F24 §4.5.3–4.5.5: the judge records a kill or a miss. A seat no longer at the table
        cannot be killed: a miss (SC-before-shooting)."""
        night = self.expect_step(e, NightStep.SHOOTING)
        target = None if e.target is None else self.valid_seat(e.target)
        self.record_shooting(night, target, "judge")

    def shots(self, e: ev.Shots) -> None:
        """F24 §4.5.4–4.5.5: a kill only if every black at the table shot the same seat; any
        other pattern, or no shot, is a miss. Blacks may shoot a black. The shot of a black who
        has left (e.g. disqualified tonight) is ignored (SC-shot-ignored; docs/rules.md §5.1)."""
        night = self.expect_step(e, NightStep.SHOOTING)
        shooters: set[int] = set()
        targets: set[int | None] = set()
        for shot in e.shots:
            if not isinstance(shot, tuple) or len(shot) != 2:
                raise RuleError(Code.BAD_COUNT, count=shot)
            shooter, target = self.valid_seat(shot[0]), shot[1]
            target = None if target is None else self.valid_seat(target)
            if self.s.roles_known and self.s.team_of(shooter) is not Team.BLACK:
                raise RuleError(Code.NOT_BLACK, seat=shooter)
            if shooter in shooters:
                raise RuleError(Code.DUPLICATE_SHOT, seat=shooter)
            shooters.add(shooter)
            if self.s.seat(shooter).at_table:
                targets.add(target)
        night.shots = [tuple(shot) for shot in e.shots]  # type: ignore[misc]
        shooters &= set(self.s.at_table)
        blacks = {n for n in self.s.at_table if self.s.team_of(n) is Team.BLACK}
        everyone_shot = shooters == blacks if self.s.roles_known else bool(shooters)
        target = next(iter(targets)) if everyone_shot and len(targets) == 1 else None
        # F24 §4.5.5: a black at the table left out of the shots did not shoot — a miss;
        # the judge's notice names him (roles unknown: nobody can be named).
        self.record_shooting(night, target, "shots", silent=sorted(blacks - shooters))

    def record_shooting(self, night: Night, target: int | None, how: str,
                        silent: list[int] | None = None) -> None:
        """The shooting's outcome, private to the judge; ``silent`` (for ``/shots`` only): the
        blacks at the table whose shot was not given (F24 §4.5.5: they did not shoot)."""
        night.shot = True
        killed = target if target is not None and self.s.seat(target).at_table else None
        why = "kill" if killed else ("not_at_table" if target is not None else "miss")
        night.killed = killed
        self.say(nt.ShootingResult(killed=killed, why=why,
                                   shots=tuple((shooter, shot) for shooter, shot in night.shots),
                                   silent=None if silent is None else tuple(silent)))
        if killed is not None:
            self.depart(killed, Cause.KILL)
            self.check_end(decisive=True, leavers=[killed])
            if self.s.phase is Phase.GAME_OVER:
                return
        self.enter_night_step(NightStep.DON_CHECK)

    def checker(self, role: Role, code: Code, target: int) -> None:
        """A Don or Sheriff shot tonight still checks: he leaves at the end of the night
        (F24 §4.5.4; docs/rules.md §5.2). A new check of his own seat is refused by
        :func:`admit` (``SELF_CHECK``)."""
        if not self.s.roles_known:
            return
        night = self.s.night
        assert night is not None
        holder = next(x for x in self.s.seats if x.role is role)
        if not holder.at_table and (night.killed != holder.number or _no_last_word(holder)):
            raise RuleError(code)  # gone, or removed tonight after the shot (seed 4.5)

    def night_check_target(self, e: ev.DonCheck | ev.SheriffCheck) -> int:
        """F24 §4.5.6–4.5.7: the seat a Don's or Sheriff's check names, if the rules take it now:
        its own night step, a seat, a checker who still checks (:meth:`checker`); else
        :class:`RuleError`. Changes nothing (:func:`admit` asks it too)."""
        don = isinstance(e, ev.DonCheck)
        self.expect_step(e, NightStep.DON_CHECK if don else NightStep.SHERIFF_CHECK)
        target = self.valid_seat(e.target)
        self.checker(Role.DON if don else Role.SHERIFF, Code.NO_DON if don else Code.NO_SHERIFF, target)
        return target

    def don_check(self, e: ev.DonCheck) -> None:
        """F24 §4.5.6: the Don looks for the Sheriff; the answer comes from the roles if known."""
        target = self.night_check_target(e)
        night = self.s.night
        assert night is not None
        night.don_check = target
        role = self.s.seat(target).role
        self.say(nt.DonCheck(target=target,
                             sheriff=None if role is None else role is Role.SHERIFF))
        self.enter_night_step(NightStep.SHERIFF_CHECK)

    def sheriff_check(self, e: ev.SheriffCheck) -> None:
        """F24 §4.5.7: the Sheriff checks a seat; black or red from the roles if known."""
        target = self.night_check_target(e)
        night = self.s.night
        assert night is not None
        night.sheriff_check = target
        team = self.s.team_of(target)
        self.say(nt.SheriffCheck(target=target,
                                 black=None if team is None else team is Team.BLACK))
        self.after_checks()

    def best_move_due(self) -> bool:
        """F24 §4.5.9, §7.10: night 1's victim makes the best move unless it is refused
        (:meth:`best_move_refused`)."""
        night = self.s.night
        return (night is not None and night.number == 1 and night.killed is not None
                and self.best_move_refused(night) is None)

    def best_move_refused(self, night: Night) -> nt.BestMoveSkipped | None:
        """Why night 1's victim gets no best move, as the notice that says it (``why``,
        ``rule``, ``departed``); ``None`` if it is due. F24 §7.10: 2+ players left by the day-1
        vote (``best_move_blocked_by_day1_departures``); seed 4.5: the victim removed tonight
        too (docs/rules.md §6.5); the game's option ``best_move=false``."""
        assert night.number == 1 and night.killed is not None
        day1_out = sum(1 for _, d in self.s.departures()
                       if d.phase == "day" and d.day == 1 and d.cause in (Cause.VOTE, Cause.RAISE))
        if not self.cfg.best_move:
            why, rule = "off", None
        elif _no_last_word(self.s.seat(night.killed)):
            why, rule = "removed", "4.5"
        elif day1_out >= self.cfg.best_move_blocked_by_day1_departures:
            why, rule = "day1_departures", "7.10"
        else:
            return None
        return nt.BestMoveSkipped(seat=night.killed, why=why, rule=rule, departed=day1_out)
        return None

    def after_checks(self) -> None:
        if self.best_move_due():
            self.enter_night_step(NightStep.BEST_MOVE)
        else:
            self.end_night()

    def best_move_guesses(self, e: ev.BestMove) -> tuple[int, ...]:
        """F24 §8.3: the seats a best move names, if the rules take it now: its night step, one
        to :data:`BEST_MOVE_MAX` seats, none twice; else :class:`RuleError`. Changes nothing
        (:func:`admit` asks it too)."""
        self.expect_step(e, NightStep.BEST_MOVE)
        guesses = tuple(self.valid_seat(g) for g in e.guesses)
        if not 1 <= len(guesses) <= BEST_MOVE_MAX or len(set(guesses)) != len(guesses):
            raise RuleError(Code.BAD_BEST_MOVE)
        return guesses

    def best_move(self, e: ev.BestMove) -> None:
        """F24 §8.3: the victim names up to three seats he thinks black (a new one naming his own
        seat is refused by :func:`admit`: ``SELF_BEST_MOVE``); hits are for the judge only."""
        guesses = self.best_move_guesses(e)
        night = self.s.night
        assert night is not None and night.killed is not None
        night.best_move = guesses
        self.say(nt.BestMove(seat=night.killed, guesses=guesses))
        if self.s.roles_known:
            hits = sum(1 for g in guesses if self.s.team_of(g) is Team.BLACK)
            self.say(nt.BestMoveHits(seat=night.killed, hits=hits))
        self.end_night()

    def next_night_step(self) -> None:
        night = self.s.night
        assert night is not None
        if night.step is NightStep.SHOOTING:
            self.record_shooting(night, None, "miss")  # nobody shot (F24 §4.5.5)
        elif night.step is NightStep.DON_CHECK:
            self.enter_night_step(NightStep.SHERIFF_CHECK)
        elif night.step is NightStep.SHERIFF_CHECK:
            self.after_checks()
        else:
            self.end_night()

    def end_night(self) -> None:
        """The night's outcome is announced in the morning. F24/S24 §7.7 (the 2024 presets):
        the draw is declared at the end of the third quiet shooting night."""
        s = self.s
        night = s.night
        assert night is not None
        if night.departures == 0:
            s.quiet_nights += 1
        # Seed 4.5, 4.2: a player removed tonight on a 4th or disqualifying foul has left the
        # game too, so a miss is not "nobody left" (his reason stays with the judge).
        removed = sorted(n for n, d in s.departures()
                         if (d.phase, d.day) == ("night", night.number)
                         and d.cause in (Cause.FOULS, Cause.DISQUALIFICATION))
        # SC-killed-and-removed: killed and removed the same night — told once, as both
        victim = s.seat(night.killed) if night.killed is not None else None
        also = None if victim is None or not _no_last_word(victim) else (
            Cause.DISQUALIFICATION.value if victim.disqualified else Cause.FOULS.value)
        self.say(nt.NightResult(night=night.number, killed=night.killed, removed=tuple(removed),
                                killed_removed=also))
        refused = self.best_move_refused(night) if night.number == 1 and night.killed is not None else None
        if refused is not None and refused.why != "removed":
            # told with the kill, in the morning: never earlier than the kill; a victim removed
            # tonight is told once, by the morning's line (no last word, no best move: seed 4.5)
            self.say(refused)
        self.morning_bans(night.number + 1)
        if (self.cfg.draw_declared is DrawDeclared.AFTER_THIRD_NIGHT
                and s.quiet_nights >= self.cfg.draw_quiet_nights and s.result is None):
            self.game_over(None, "draw")
            return
        self.start_day(night.number + 1)

    # --- penalties --------------------------------------------------------------------------
    def penalty(self, e: ev.Penalty) -> None:
        """Seed IV: warning (no effect), foul, disqualifying foul, team loss.

        Given to a seat at the table; to a seat that has left by the vote and whose last word
        runs or waits, or to tonight's victim (seed 4.5: a 4th or disqualifying foul costs what
        is left of the last word; seed 5.1: he is the one leaving, so no vote is affected); or
        after the game (recorded, the result stands: F24 §7.9). Once the result is fixed, an item
        F24/S24 §6.8.6 exempts is recorded only (``applied=False``: no removal, no penalty
        points; :attr:`rules.config.Reason.not_after_result`). Under the 2024 presets an item
        of F24/S24 §6.8.5 committed in one's final minute, or once the vote has decided that he
        leaves, loses the game for his team — unless the result is already fixed (§6.8.6).
        Raises ``UNKNOWN_REASON``, ``NOT_AT_TABLE`` (a seat gone for good), ``TEAM_REQUIRED``,
        ``TEAM_MISMATCH``."""
        s = self.s
        if s.phase is Phase.SETUP:
            raise RuleError(Code.WRONG_PHASE, event=e.type, phase=s.phase.value)
        reason = s.config.reasons.get(e.reason) if isinstance(e.reason, str) else None
        if reason is None:
            raise RuleError(Code.UNKNOWN_REASON, reason=e.reason)
        number = self.valid_seat(e.seat)
        seat = s.seat(number)
        if s.phase is Phase.GAME_OVER:
            self.penalty_after_result(number, reason)
            return
        night = s.night
        tonight_victim = night is not None and night.killed == number
        leaving = number in self.last_words_pending()
        if not seat.at_table and not leaving and not tonight_victim:
            raise RuleError(Code.NOT_AT_TABLE, seat=number)
        if s.result is not None and reason.not_after_result:  # F24/S24 §6.8.6: not applied
            self.say(nt.PenaltyAfterResult(private=self.before_morning(), seat=number,
                                           reason=reason.code, severity=reason.severity.value,
                                           over=False, applied=False))
            return
        severity = reason.severity
        final_minute = leaving or (s.ballot is not None and s.ballot.decided == number
                                   and s.phase is Phase.VOTING)
        escalated = (severity is Severity.DISQUALIFYING and reason.last_word_team_loss
                     and final_minute and s.result is None)  # F24 §6.8.5; §6.8.6
        if severity is Severity.WARNING:
            seat.warnings.append(reason.code)  # seed 4.3: an oral warning has no effect
            self.say(nt.Warning(seat=number, reason=reason.code))
        elif severity is Severity.FOUL:
            self.foul(number, reason.code)
        elif severity is Severity.DISQUALIFYING and not escalated:
            seat.disqualified = True
            seat.tournament_removal = seat.tournament_removal or reason.tournament_removal
            self.remove(number, Cause.DISQUALIFICATION, reason.code)
        elif reason.severity is Severity.TECHNICAL:
            self.tech_foul(number, reason.code)
        else:
            if escalated:
                seat.disqualified = True  # F24 §6.8: «штраф за дисквалификацию» and the loss
            self.team_loss(number, reason.code, e.team, final_minute=escalated)

    def before_morning(self) -> bool:
        """A night before its morning: what a penalty then says of a result fixed by tonight's
        kill is the judge's until the morning tells the kill (F24 §4.5.9, §7.9)."""
        return self.s.phase in (Phase.NIGHT, Phase.NIGHT_ZERO)

    def last_words_pending(self) -> list[int]:
        """The seats that have left by the vote or the night's kill and whose last word runs
        now or waits (F24 §4.4.13, §4.5.9)."""
        return list(self.s.last_words) if self.s.phase is Phase.LAST_WORD else []

    def penalty_after_result(self, number: int, reason: Reason) -> None:
        """A penalty given once the game is over (real MafiaRatings records carry them): it is
        recorded for the protocol and the points — a foul, a disqualification (F24 §8.2.4) —
        and the result stands (F24 §7.9); an item F24/S24 §6.8.6 exempts, and any team loss
        (F24/S24 §6.8.6: not applied after the decisive vote or kill), is recorded only
        (``applied=False``: no penalty points)."""
        code, severity = reason.code, reason.severity
        if reason.not_after_result or severity is Severity.TEAM_LOSS:  # F24/S24 §6.8.6
            self.say(nt.PenaltyAfterResult(seat=number, reason=code, severity=severity.value,
                                           over=True, applied=False))
            return
        seat = self.s.seat(number)
        if severity is Severity.WARNING:
            seat.warnings.append(code)
        elif severity is Severity.FOUL:
            seat.fouls.append(code)
        elif severity is Severity.DISQUALIFYING:
            seat.disqualified = True
            seat.tournament_removal = seat.tournament_removal or self.cfg.reasons[code].tournament_removal
        self.say(nt.PenaltyAfterResult(seat=number, reason=code, severity=severity.value,
                                       over=True))

    def foul(self, number: int, code: str) -> None:
        """Seed 4.4: the 3rd foul silences the nearest speech (nomination still allowed);
        seed 4.5: the 4th removes the player at once, without a last word — for a player who
        has already left by the vote or the kill, it costs what is left of his last word."""
        s = self.s
        seat = s.seat(number)
        seat.fouls.append(code)
        count = len(seat.fouls)
        self.say(nt.Foul(seat=number, count=count, reason=code))
        if not seat.at_table:
            if count == 3:
                seat.silence_pending = True  # he has no speech left: never served (see withdraw_foul)
            elif count == 4:
                self.remove(number, Cause.FOULS, code)
            return
        if count == 3 and self.cfg.third_foul is not ThirdFoul.NONE:
            seat.silence_pending = True
            # seed 5.7: at 3 or 4 players his nearest speech is 30 s, not silence
            self.say(nt.ThirdFoul(seat=number, effect=self.cfg.third_foul.value, may_nominate=True,
                                  short=len(s.at_table) <= 4, seconds=self.cfg.timers.short_speech))
            if (self.cfg.third_foul_cuts_current_speech and s.phase is Phase.SPEECH
                    and s.speaker == number):
                seat.silence_pending = False  # the house rule of docs/rules.md §6.3: served now
                s.seconds = 0
                self.say(nt.Speech(seat=number, seconds=0, silenced=True, short=False, option=False,
                                   day=s.day))
        elif count >= 4:
            self.remove(number, Cause.FOULS, code)

    def tech_foul(self, number: int, code: str) -> None:
        """MafiaRatings 9.6.2: technical fouls count apart from fouls; the second removes the
        player as a disqualifying foul does (seed 4.5: at once, without a last word; 5.1–5.2)."""
        seat = self.s.seat(number)
        seat.tech_fouls.append(code)
        self.say(nt.TechFoul(seat=number, count=len(seat.tech_fouls), reason=code))
        if len(seat.tech_fouls) >= 2:
            seat.disqualified = True
            self.remove(number, Cause.DISQUALIFICATION, code)

    def remove(self, number: int, cause: Cause, code: str) -> None:
        """Seed 4.5 and 5.1–5.2 (F24 §6.5, §7.1–7.2; with the committee's rulings,
        docs/rules.md §7.1)."""
        s = self.s
        seat = s.seat(number)
        at_night = s.phase in (Phase.NIGHT, Phase.NIGHT_ZERO)
        tournament = seat.tournament_removal
        if not seat.at_table:
            self.remove_leaver(number, cause, code)
            return
        fixed = s.result is not None  # F24 §7.9: a removal after the result changes nothing
        self.depart(number, cause, code)
        self.say(nt.Removed(seat=number, cause=cause.value, reason=None if at_night else code,
                            tournament=tournament, last_word=None, stands=fixed and not at_night))
        if at_night:
            self.say(nt.RemovedDetails(seat=number, reason=code, tournament=tournament))
        bans, said = dict(s.vote_bans), len(self.notices)
        cancels_current = self.ban_vote(number)
        told = self.notices[said:]
        self.check_end(decisive=False)
        if s.phase is Phase.GAME_OVER:
            return
        if s.result is not None and not fixed:
            # this removal fixed the result while a last word is still due (F24 §7.9): no vote
            # follows it, so none is said to be cancelled
            s.vote_bans = bans
            self.notices = [n for n in self.notices if not any(n is t for t in told)]
        if cancels_current:
            self.end_day()
        elif s.phase is Phase.VOTING:
            self.drop_from_ballot(number)
        elif s.phase is Phase.SPEECH and s.speaker == number:
            s.speech_index += 1
            self.start_speech()
        elif s.phase is Phase.TIE_SPEECH and s.tie_queue and s.tie_queue[0] == number:
            s.tie_queue.pop(0)
            self.next_tie_speech()
        elif s.phase is Phase.LEADER_SPEECH and s.speaker == number:
            s.tie_queue = []  # his speech ends with him (seed 4.5): night falls
            self.end_day()

    def remove_leaver(self, number: int, cause: Cause, code: str) -> None:
        """A 4th or disqualifying foul for a player who has already left: by the vote, his last
        word running or waiting, or by tonight's kill. He is the one leaving (seed 5.1: no vote
        is affected; SC-killed-and-removed: the next vote is held), so the penalty only costs
        what is left of his last word (seed 4.5 «без последнего слова»; docs/rules.md §6.5: the
        night victim gets no last word and no best move). Announced once: "his last
        word ends" — he does not leave the game a second time. Tonight's victim is announced to
        the table exactly as any other night removal (the same line, its reason hidden:
        SC-night-wording), so that it does not tell who was shot; the judge alone is told what it
        means; removed during his best move, he makes none: the step ends with him. Once the
        result is fixed, the line says it stands (``stands``: F24 §7.9)."""
        s = self.s
        queue = self.last_words_pending()
        tournament = s.seat(number).tournament_removal
        if queue and queue[0] == number:
            last_word = "cut"
        elif number in queue:
            last_word = "lost"
        else:
            last_word = "killed"
            self.say(nt.Removed(seat=number, cause=cause.value, reason=None,
                                tournament=tournament, last_word=None))
            self.say(nt.RemovedDetails(seat=number, reason=code, tournament=tournament))
        self.say(nt.Removed(private=last_word == "killed", seat=number, cause=cause.value,
                            reason=code, tournament=tournament, last_word=last_word,
                            stands=s.result is not None and last_word != "killed"))
        if last_word == "cut":
            self.end_last_word()
        elif last_word == "lost":
            s.last_words.remove(number)
        elif s.night is not None and s.night.step is NightStep.BEST_MOVE:
            self.end_night()  # seed 4.5: removed, he has no best move — his step ends with him

    def drop_from_ballot(self, number: int) -> None:
        """A nominee who leaves the table while the vote goes on (seed 5.2: its result is known,
        so it is not cancelled) can no longer be voted out: he is taken off the rest of the
        ballot. The unvoted hands go to the last nominee still at the table (F24 §4.4.8), so if he
        was the last, the one before him becomes last. Hands already counted against him stand
        (they were raised), and the decided leader, who «является покинувшим игру по результату
        голосования» (seed 5.1), is always counted already."""
        ballot = self.s.ballot
        assert ballot is not None
        if number not in ballot.candidates[ballot.index:]:
            return
        was_last = ballot.candidates[-1] == number
        ballot.candidates.remove(number)
        ballot.counts.pop(number, None)
        still = ballot.candidates[ballot.index:]
        last = still[-1] if was_last and still and self.cfg.unvoted_hands_to_last else None
        self.say(nt.OffBallot(seat=number, nominees=tuple(still), last=last))
        self.maybe_close_round()

    def ban_vote(self, number: int) -> bool:
        """Which vote a removal cancels (seed 5.1, 5.2). Returns True if it cancels the vote
        running now (the day then goes straight to night)."""
        s = self.s
        phase = s.phase
        if s.result is not None:
            return False  # the result is fixed (F24 §7.9): no vote follows, none is cancelled
        if phase is Phase.NIGHT_ZERO:
            day, rule = 1, "5.1"
        elif phase is Phase.NIGHT:
            day, rule = s.day + 1, "5.1"  # SC-before-shooting: the next day's vote
        elif number == self.decided_nominee():
            return False  # seed 5.1–5.2: he is the one leaving by this vote; no vote is affected
        elif phase in (Phase.VOTING, Phase.TIE_SPEECH, Phase.RAISE_VOTE) and not s.result_determined:
            day, rule = s.day, "5.1"  # the current vote is not held
        elif s.vote_over or s.result_determined:
            day, rule = s.day + 1, "5.2"  # after the result: the next vote is not held
        else:
            day, rule = s.day, "5.1"  # before today's vote (or the morning last word)
        if day in s.vote_bans:
            return False  # SC-one-vote: several removals skip only one (the nearest) vote
        s.vote_bans[day] = (rule, number)
        # the cause the judge gave: a 4th foul, or a disqualification with its item (its reason
        # stays hidden at night, SC-night-wording)
        departure = s.seat(number).departure
        cause = departure.cause.value if departure else Cause.DISQUALIFICATION.value
        reason = departure.reason if departure and phase not in (Phase.NIGHT, Phase.NIGHT_ZERO) else None
        today = nt.VoteCancelled(day=day, seat=number, rule=rule, cause=cause, reason=reason)
        later = nt.NextVoteCancelled(day=day, seat=number, rule=rule, cause=cause, reason=reason)
        if day == s.day and phase in (Phase.VOTING, Phase.TIE_SPEECH, Phase.RAISE_VOTE):
            self.say(today)
            s.vote_over = True
            s.result_determined = True
            return True
        if phase in (Phase.NIGHT, Phase.NIGHT_ZERO):
            # told to the table in the morning (:meth:`morning_bans`): at night it would say
            # whether the one removed was shot (SC-killed-and-removed keeps that vote)
            self.say(dataclasses.replace(later, private=True))
        elif day == s.day:
            self.say(today)
        else:
            self.say(later)
        return False

    def morning_bans(self, day: int) -> None:
        """Day ``day``'s vote cancelled by a removal in the night before it (seed 5.1,
        SC-before-shooting): told to the table in the morning, with the night's result — at night
        every removal reads the same (:meth:`remove_leaver`)."""
        s = self.s
        ban = s.vote_bans.get(day)
        if ban is None:
            return
        rule, seat = ban
        departure = s.seat(seat).departure
        if departure is None or departure.phase != "night":
            return
        self.say(nt.VoteCancelled(day=day, seat=seat, rule=rule, cause=departure.cause.value,
                                  reason=None))  # the reason of a night removal stays with the judge

    def team_loss(self, number: int, code: str, team: str | None, final_minute: bool = False) -> None:
        """Seed 4.3 (F24 §6.8): the offender's team loses at once; ``final_minute``: a
        disqualifying foul escalated by F24/S24 §6.8.5. After a decisive vote or kill the result
        stands and the offence is only recorded (F24 §6.8.6, §7.9)."""
        s = self.s
        offender = s.team_of(number)
        try:
            given = Team(team) if team is not None else None
        except ValueError:
            given = None
        if offender is None:
            offender = given
            if offender is None:
                raise RuleError(Code.TEAM_REQUIRED, seat=number)
        elif given is not None and given is not offender:
            # seed 4.3: the team named is the offender's; the entered roles say otherwise
            raise RuleError(Code.TEAM_MISMATCH, seat=number, team=given.value, actual=offender.value)
        if s.result is not None:  # F24 §6.8.6, §7.9: not applied, the result stands
            self.say(nt.PenaltyAfterResult(private=self.before_morning(), seat=number, reason=code,
                                           severity=Severity.TEAM_LOSS.value, over=False,
                                           applied=False))
            return
        self.say(nt.TeamLoss(seat=number, team=offender.value, reason=code, final_minute=final_minute))
        s.team_loss_by = number  # F24/S24 §8.2.5: the offender's penalty points
        winner = Team.RED if offender is Team.BLACK else Team.BLACK
        self.game_over(winner, "team_loss")

    def withdraw_foul(self, e: ev.WithdrawFoul) -> None:
        """The judge takes a seat's last foul back, unless something already followed from it:
        the 4th foul's removal (seed 4.5, ``why="removal"``), a 4th foul that cost a last word
        (``"last_word_cut"``), or a 3rd foul whose silence or short speech was served (seed 4.4,
        5.7, ``"silence_served"``) or is being served — his speech now is it, or was cut by the
        foul (docs/rules.md §6.3: ``"silence_under_way"``). Those are taken back with /undo,
        which takes back what followed too. Raises ``NO_FOUL``, ``FOUL_HAS_CONSEQUENCES``."""
        number = self.valid_seat(e.seat)
        seat = self.s.seat(number)
        if not seat.fouls:
            raise RuleError(Code.NO_FOUL, seat=number)
        count = len(seat.fouls)
        if seat.departure is not None and seat.departure.cause is Cause.FOULS:
            raise RuleError(Code.FOUL_HAS_CONSEQUENCES, seat=number, why="removal")
        if count >= 4:  # given after he left by the vote or the kill: his last word is lost
            raise RuleError(Code.FOUL_HAS_CONSEQUENCES, seat=number, why="last_word_cut")
        if count == 3 and self.cfg.third_foul is not ThirdFoul.NONE and not seat.silence_pending:
            under_way = self.s.phase is Phase.SPEECH and self.s.speaker == number
            raise RuleError(Code.FOUL_HAS_CONSEQUENCES, seat=number,
                            why="silence_under_way" if under_way else "silence_served")
        seat.fouls.pop()
        if count == 3:
            seat.silence_pending = False
        self.say(nt.FoulWithdrawn(seat=number, count=count - 1))

    # --- departures and the end -------------------------------------------------------------
    def depart(self, number: int, cause: Cause, reason: str | None = None) -> None:
        s = self.s
        at_night = s.phase in (Phase.NIGHT, Phase.NIGHT_ZERO)
        order = len(s.departures()) + 1
        s.seat(number).departure = Departure(cause, s.day, "night" if at_night else "day", reason, order)
        if s.night is not None:
            s.night.departures += 1
        else:
            s.day_departures += 1
        s.quiet_nights = 0  # seed 5.8: any departure resets the draw window (docs/rules.md §8.3)
        s.quiet_days = 0

    def check_end(self, decisive: bool, leavers: Iterable[int] = ()) -> None:
        """F24 §1.4: red wins when no black is at the table, black when blacks ≥ reds;
        nobody left at the table (MafiaRatings 7.21.2, the whole table raised): a draw.

        The players a running vote has decided leave by it (F24 §1.4: the moment of the vote is
        the moment of leaving; seed 5.2: a removal after the result is known does not stop it),
        so they are counted as gone. After a decisive vote or kill the result is fixed and
        announced after the last words (F24 §7.9); so is a result that a removal brings about
        while a last word is still due — the decided nominee's, a vote leaver's, or tonight's
        victim's ("the leaving player always has the right to his last word"). Otherwise a
        removal's result is immediate (docs/rules.md §8.1). ``leavers``: the seats a decisive vote
        or kill has just removed; with ``last_word_on_decisive_event`` off (MafiaRatings 8.19.2)
        the game ends at once and their skipped last word is said (LAST_WORD_SKIPPED)."""
        s = self.s
        if s.result is not None:
            return
        if not s.roles_known and s.at_table:
            if len(s.departures()) >= 3:
                self.say(nt.JudgeMustCheckEnd(at_table=len(s.at_table)))
            return
        leaving = self.leaving_by_vote()
        table = [n for n in s.at_table if n not in leaving]
        blacks = sum(1 for n in table if s.team_of(n) is Team.BLACK)
        reds = len(table) - blacks
        if not s.at_table:
            winner, why = None, "table_raised"  # MafiaRatings 7.21.2: everyone raised — a draw
        elif blacks == 0:
            winner, why = Team.RED, "all_black_out"
        elif blacks >= reds:
            winner, why = Team.BLACK, "parity"
        else:
            return
        if leaving or ((decisive or self.last_word_due()) and self.cfg.last_word_on_decisive_event):
            # the ballot is finished first, so that the decided nominee leaves by the vote
            s.result = Result(winner, why)
            self.say(nt.ResultFixed(winner=winner.value if winner else None, why=why))
        else:
            unheard = [n for n in leavers if not _no_last_word(s.seat(n))]
            if decisive and unheard and not self.cfg.last_word_on_decisive_event:
                self.say(nt.LastWordSkipped(seats=tuple(unheard), why="decisive"))
            self.game_over(winner, why)

    def leaving_by_vote(self) -> list[int]:
        """The nominee today's vote has decided (:meth:`decided_nominee`: nobody can catch him,
        SC-determined) and who is still at the table: he leaves by this vote once its ballot is
        finished (F24 §1.4, seed 5.2)."""
        decided = self.decided_nominee()
        if decided is not None and self.s.seat(decided).at_table:
            return [decided]
        return []

    def last_word_due(self) -> bool:
        """Is a last word still to come for someone leaving by the vote or tonight's kill (F24
        §4.4.13, §4.5.9, §7.9)?"""
        s = self.s
        if self.leaving_by_vote() or self.last_words_pending():
            return True
        night = s.night
        return night is not None and night.killed is not None and not _no_last_word(s.seat(night.killed))

    def declare_result(self, e: ev.DeclareResult) -> None:
        """With roles unknown the judge declares the result (red, black or draw)."""
        if self.s.roles_known:
            raise RuleError(Code.ROLES_KNOWN)
        if e.winner not in ("red", "black", "draw"):
            raise RuleError(Code.BAD_COUNT, count=e.winner)
        if self.s.phase is Phase.SETUP:
            raise RuleError(Code.WRONG_PHASE, event=e.type, phase=self.s.phase.value)
        self.game_over(None if e.winner == "draw" else Team(e.winner), "declared")

    def game_over(self, winner: Team | None, why: str) -> None:
        """The end. A draw also says what was counted: seed 5.8 (nights and days from a night) or
        F24/S24 §7.7 (nights), ``draw_quiet_nights`` of them."""
        s = self.s
        s.result = Result(winner, why)
        s.phase = Phase.GAME_OVER
        s.seconds = 0
        roles = {x.number: x.role.value for x in s.seats if x.role} or None
        draw = why == "draw"
        self.say(nt.GameOver(winner=winner.value if winner else None, why=why, roles=roles,
                             draw_rule=self.cfg.draw_declared.value if draw else None,
                             nights=self.cfg.draw_quiet_nights if draw else None))


    # --- the points, after the game ----------------------------------------------------------
    def extra(self, e: ev.Extra) -> None:
        """F24/S24 §8.4: the judge's extra points for a seat, within the preset's limits
        (:func:`rules.points.check_extra` says which limit refuses); ``"0"`` takes them back."""
        number = self.valid_seat(e.seat)
        value = parse_points(e.points)
        refusal = check_extra(self.s, number, value, bool(e.approved))
        if refusal is not None:
            raise refusal
        if value:
            self.s.extras[number] = value
        else:
            self.s.extras.pop(number, None)
        self.say(nt.ExtraPoints(seat=number, points=show(value), approved=bool(e.approved)))

    def bad_play(self, e: ev.BadPlay) -> None:
        """F24/S24 §8.5: the penalty points of a listed bad play (the preset's own item
        number), given once per item, or taken back (:func:`rules.points.check_bad_play`)."""
        number = self.valid_seat(e.seat)
        refusal = check_bad_play(self.s, number, str(e.item), bool(e.withdraw))
        if refusal is not None:
            raise refusal
        given = self.s.bad_plays.get(number, ())
        given = tuple(i for i in given if i != e.item) if e.withdraw else (*given, str(e.item))
        if given:
            self.s.bad_plays[number] = given
        else:
            self.s.bad_plays.pop(number, None)
        self.say(nt.BadPlay(seat=number, item=str(e.item), points=show(scoring(self.s).bad_play),
                            withdrawn=bool(e.withdraw)))


class VotePlan(NamedTuple):
    """Whether today's vote is held (:func:`vote_plan`): ``why`` it is not (a rule code), and
    ``seat``, the removal that cancelled it (seed 5.1, 5.2)."""

    held: bool
    why: str | None = None
    seat: int | None = None


def vote_plan(state: GameState) -> VotePlan:
    """Is today's vote held? A :class:`VotePlan` (docs/rules.md §4.1), ``why`` not:

    * ``"5.1"`` / ``"5.2"`` — cancelled by a removal (seed 5.1, 5.2; ``seat`` is the removed one);
    * ``"no_nominees"``; ``"first_day_no_vote"`` (option); ``"4.4.10"`` — a single nominee on
      day 1 is not voted (F24 §4.4.10).
    """
    ban = state.vote_bans.get(state.day)
    if ban is not None:
        return VotePlan(False, ban[0], ban[1])
    nominees = [n for n in state.nominees if state.seat(n).at_table]
    if not nominees:
        return VotePlan(False, "no_nominees")
    if state.day == 1:
        rule = state.config.first_day_vote
        if rule is FirstDayVote.NO_VOTE:
            return VotePlan(False, "first_day_no_vote")
        if len(nominees) == 1 and rule is not FirstDayVote.NORMAL:
            return VotePlan(False, "4.4.10")  # F24 §4.4.10; MafiaRatings 7.16.1, 7.16.3, 7.16.4
    return VotePlan(True)


def hands_left(state: GameState) -> int:
    """Hands still to be raised in the running round (F24 §4.4.5, §4.4.8): one per player at the
    table who has not voted. A listed voter who has left since (seed 5.2: the vote goes on) keeps
    his counted hand; with counts only, such a hand is taken as one of the players still here
    (never more hands than players)."""
    ballot = state.ballot
    if ballot is None:
        return 0
    gone = sum(1 for voter in ballot.voters if not state.seat(voter).at_table)
    return max(0, len(state.at_table) + gone - sum(ballot.counts.values()))


def result_required(state: GameState) -> bool:
    """With roles unknown the engine cannot see the end (F24 §1.4), but with two players or fewer
    at the table every deal of the cards has ended the game: the judge must declare the result."""
    return (not state.roles_known and state.phase not in (Phase.SETUP, Phase.GAME_OVER)
            and len(state.at_table) <= 2 and state.result is None)


def _no_last_word(seat: Seat) -> bool:
    """Seed 4.5 (F24 §6.5): a 4th or disqualifying foul → «без последнего слова», also for a
    player who had already left by the vote or the night's kill (docs/rules.md §6.5)."""
    return seat.disqualified or len(seat.fouls) >= 4


def _cyclic_from(start: int) -> list[int]:
    return [(start - 1 + i) % len(SEATS) + 1 for i in range(len(SEATS))]


_HANDLERS: dict[type, Callable[[_Move, ev.Event], None]] = {
    ev.SetName: _Move.set_name,
    ev.SetRoles: _Move.set_roles,
    ev.StartGame: _Move.start_game,
    ev.Next: _Move.next,
    ev.Nominate: _Move.nominate,
    ev.WithdrawNomination: _Move.withdraw_nomination,
    ev.Vote: _Move.vote,
    ev.RaiseVote: _Move.raise_vote,
    ev.NightKill: _Move.night_kill,
    ev.Shots: _Move.shots,
    ev.DonCheck: _Move.don_check,
    ev.SheriffCheck: _Move.sheriff_check,
    ev.BestMove: _Move.best_move,
    ev.Penalty: _Move.penalty,
    ev.WithdrawFoul: _Move.withdraw_foul,
    ev.DeclareResult: _Move.declare_result,
    ev.Extra: _Move.extra,
    ev.BadPlay: _Move.bad_play,
}  # type: ignore[dict-item]

#: What a finished game still takes besides a name: a penalty, recorded (F24 §7.9), and the
#: judge's points (F24/S24 §8.4, §8.5).
AFTER_THE_RESULT = (ev.Penalty, ev.Extra, ev.BadPlay)
_AFTER_THE_END = (ev.SetName, *AFTER_THE_RESULT)
