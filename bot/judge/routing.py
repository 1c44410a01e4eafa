"""Which words go where. Pure functions over notices and states.

* The judge reads every notice of an action, private ones included, at the top of his panel: the
  panel is the one message an action edits in his chat (one Bot API call per action). Only what
  takes a player away from the table by a penalty — a removal on fouls or a disqualification,
  a team loss (seed 4.2, 4.3, 4.5) — also comes as a short message of its own
  (:func:`attention_text`): an edit notifies nobody, and the judge must then act at the table.
* The announce chat (a linked group) gets the public notices only, as one message; a private
  notice (roles, shots, check answers, best-move hits, a night disqualification's reason, a result
  fixed before the last word) never reaches it (F24 §4.4.13, §4.5.4; seed 5.4).
* An undo posts a short correction to both: the judge sees what was taken back, the group only
  what it had been told. So does a correction of an earlier action (``/fix``): the judge sees
  what it corrected and what changed as a result; the group only what changes in what it had
  been told (nothing, if only private notices changed).
"""

from __future__ import annotations

import difflib
from typing import Iterable, Sequence

import rules
from rules import Kind, Phase

from ..audit import undone_actions
from ..commands import command_text
from ..i18n import Catalog
from ..render import notice_text, phase_text, result_text, seat_label, undone_by_event


def _lines(notices: Iterable[rules.Notice], cat: Catalog, *, public: bool) -> list[str]:
    out: list[str] = []
    for notice in notices:
        if public and notice.private:
            continue
        text = notice_text(notice, cat)
        if text:
            out.append(text)
    return out


def judge_text(notices: Sequence[rules.Notice], cat: Catalog) -> str | None:
    """Every notice of one action, for the judge."""
    return "\n".join(_lines(notices, cat, public=False)) or None


#: the notices that also reach the judge as a message of their own (a notification), not only on
#: the panel: a player leaves the table by a penalty, which the judge must carry out (seed 4.2,
#: 4.3, 4.5)
ATTENTION = frozenset({Kind.REMOVED, Kind.TEAM_LOSS})


def attention_text(notices: Sequence[rules.Notice], cat: Catalog) -> str | None:
    """The lines of one action the judge is notified of (:data:`ATTENTION`), else ``None``."""
    return "\n".join(_lines((n for n in notices if n.kind in ATTENTION), cat, public=False)) or None


def public_text(notices: Sequence[rules.Notice], state: rules.GameState, cat: Catalog) -> str | None:
    """The public notices of one action, for the group; at the end also the result with the
    roles (revealed once the game is over, F24 §4.4.13)."""
    lines = _lines(notices, cat, public=True)
    if any(n.kind is Kind.GAME_OVER for n in notices) and state.phase is Phase.GAME_OVER:
        lines.append(result_text(state, cat))
    return "\n".join(lines) or None


def now_text(state: rules.GameState, cat: Catalog) -> str:
    """Where the game stands, in public words: who speaks, or the phase (no nominees, seed 5.4)."""
    turn = rules.current_turn(state)
    if turn is not None:
        return cat.text("judge-now-turn", kind=turn.kind, seat=seat_label(turn.seat, cat))
    night = state.night
    if night is not None:
        return cat.text("judge-now-night", night=night.number, step=phase_text(night.step.value, cat))
    return cat.text("judge-now-phase", phase=phase_text(state.phase.value, cat))


def undo_texts(state: rules.GameState, undone: Sequence[rules.Event], judge_cat: Catalog,
               public_cat: Catalog, retold: tuple[Sequence[rules.Notice], Sequence[rules.Notice]]
               | None = None) -> tuple[str, str | None]:
    """The corrections an undo posts: ``(judge's text, group's text or None)``. For the judge,
    everything taken back; for the group, how many of the undone actions it had heard of, their
    announcements, and where the game stands now. An undo that takes a correction back
    (``retold``: the game's notices as told, and as they stand now) gives the group what changes
    back in what it was told, with no count. The group hears nothing (``None``) of an undo that
    changes nothing it was told — the roles entered, a correction it never heard of: a hidden
    action is not heard of when undone, nor counted among those that are (F24 §4.4.13)."""
    judge = [judge_cat.text("judge-undone", count=len(undone)),
             *undone_actions(state.config, undone, judge_cat)]  # which, as typed: the judge's only
    # with a correction taken back, the undone actions but the corrections: what the group heard
    actions = undone if retold is None else [event for event in undone if not isinstance(event, rules.Fix)]
    said = undone_by_event(state, actions)
    heard = [lines for lines in (_lines(notices, public_cat, public=True) for notices in said) if lines]
    if retold is None:
        judge.extend(_lines((notice for notices in said for notice in notices), judge_cat, public=False))
    else:  # what stood, as it stood: the events re-applied would skip a correction
        judge.extend(retold_changes(retold, judge_cat, public=False))
        added, removed = _changed(*(_lines(told, public_cat, public=True) for told in retold))
        if not added and not removed:
            return "\n".join(judge), None
        # when the undo takes back just the lines of the actions but the corrections, every
        # correction undone was one the group never heard of, and it reads the undo as one
        # without them — a «correction undone» would tell it that something hidden had been
        # corrected (F24 §4.4.13)
        if added or removed != [line for lines in heard for line in lines]:
            # which of the undone actions the group had heard of is not known here: no count
            public = [public_cat.text("judge-undone-public-retold"), *_changes(added, removed, public_cat)]
            return "\n".join(judge), "\n".join([*public, now_text(state, public_cat)])
    if not heard:  # only what the group never heard of (the roles entered): nor of its undoing
        return "\n".join(judge), None
    # the group counts the actions it had heard of: a hidden one in the count would tell it that
    # something it was not told of happened (F24 §4.4.13)
    public = [public_cat.text("judge-undone-public", count=len(heard)),
              *(line for lines in heard for line in lines), now_text(state, public_cat)]
    return "\n".join(judge), "\n".join(public)


def retold_changes(retold: tuple[Sequence[rules.Notice], Sequence[rules.Notice]], cat: Catalog, *,
                   public: bool) -> list[str]:
    """What an undo that takes a correction back changes in what was told (``retold``: the
    game's notices as they stood, and as they stand now): «now:» the lines it brings back, «no
    longer so:» those it takes back (``public``: the group's lines only)."""
    return _changes(*_changed(*(_lines(told, cat, public=public) for told in retold)), cat)


def _changed(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """The lines ``after`` has that ``before`` had not, and those it no longer has."""
    added: list[str] = []
    removed: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed.extend(before[i1:i2])
        if op in ("replace", "insert"):
            added.extend(after[j1:j2])
    return added, removed


def correction_texts(state: rules.GameState, correction: rules.Correction, judge_cat: Catalog,
                     public_cat: Catalog) -> tuple[str, str | None]:
    """What a correction (``/fix``) posts: for the judge, the action corrected (as typed: was,
    is) and what changed as a result — the announcements the replay adds and those it takes
    back; for the group, only the public announcements that changed and where the game stands
    now, or ``None`` when none changed (a private notice's change must not show: F24 §4.4.13)."""
    config = state.config
    judge = [judge_cat.text("judge-fixed", seq=correction.seq,
                            was=judge_cat.name(command_text(correction.original, config)),
                            now=judge_cat.name(command_text(correction.replacement, config)))]
    added, removed = _changed(_lines(correction.before, judge_cat, public=False),
                              _lines(correction.after, judge_cat, public=False))
    judge.extend(_changes(added, removed, judge_cat) or [judge_cat.text("judge-fixed-nothing-else")])
    added, removed = _changed(_lines(correction.before, public_cat, public=True),
                              _lines(correction.after, public_cat, public=True))
    if not added and not removed:
        return "\n".join(judge), None
    public = [public_cat.text("judge-fixed-public"), *_changes(added, removed, public_cat),
              now_text(state, public_cat)]
    return "\n".join(judge), "\n".join(public)


def _changes(added: list[str], removed: list[str], cat: Catalog) -> list[str]:
    out: list[str] = []
    if added:
        out.append(cat.text("judge-fixed-now"))
        out.extend(f"+ {line}" for line in added)
    if removed:
        out.append(cat.text("judge-fixed-no-longer"))
        out.extend(f"− {line}" for line in removed)
    return out


def turn_key(state: rules.GameState) -> str | None:
    """An identity for the speech (or last word, or tie speech) running now: it stays the same
    while fouls and nominations happen inside the speech and changes when another begins. ``None``
    when nobody speaks."""
    turn = rules.current_turn(state)
    if turn is None or state.phase is Phase.GAME_OVER:
        return None
    ballot_round = state.ballot.round if state.ballot is not None else -1
    return ":".join(str(x) for x in (
        state.day, turn.kind, turn.seat, turn.seconds, state.speech_index, len(state.last_words),
        len(state.tie_queue), ballot_round, len(state.nights)))


def step_key(state: rules.GameState) -> str | None:
    """An identity for the timed step running now (:func:`rules.timing`): a speech's
    :func:`turn_key`, ``"night_zero"``, or the night step (``"night:1:don_check"``). It stays the
    same while fouls happen inside the step and changes when another step begins. ``None`` when
    nothing is timed now (a vote, the setup, the end)."""
    if not rules.timing(state) or state.phase is Phase.GAME_OVER:
        return None
    if state.phase is Phase.NIGHT_ZERO:
        return "night_zero"
    night = state.night
    if night is not None:
        return f"night:{night.number}:{night.step.value}"
    return turn_key(state)
