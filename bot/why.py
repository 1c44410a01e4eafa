"""``/why``: the engine's reason for the last ruling, built from its typed notices (never from
the words the bot announced).

Every notice kind (:class:`rules.Kind`) is either a **ruling** — something the rules decided: a
vote not held, a player silent or with 30 s, no best move, the end of the game — with the rules
it rests on (:func:`grounds`), or part of the course of the game that decides nothing (a name,
a nomination, a counted hand: :data:`NOT_RULINGS`). ``/why`` answers the last ruling the asker
may see (a private one — a check, a night removal's reason — only the judge): what was
announced, and the rule behind it as ``/rule`` says it (:mod:`bot.rulebook`) under the game's
preset. Pure: no I/O.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterable

import rules
from rules import Kind, Notice, RulesConfig
from rules import notices as nt

from .i18n import Catalog
from .render import notice_text
from .rulebook import NUMBER, Entry, entry_text, rule_text

if TYPE_CHECKING:
    from .commands import Explain
    from .service import Service

#: The notice kinds that decide nothing by a rule: the course of the game as the judge records it.
NOT_RULINGS: frozenset[Kind] = frozenset({
    Kind.NAME_SET, Kind.ROLES_SET, Kind.GAME_STARTED, Kind.NIGHT_ZERO, Kind.DAY_STARTS,
    Kind.NOMINATED, Kind.VOTING_STARTS, Kind.VOTE_COUNTED, Kind.NIGHT_FALLS, Kind.NIGHT_STEP,
    Kind.DON_CHECK, Kind.SHERIFF_CHECK, Kind.BEST_MOVE, Kind.BEST_MOVE_HITS, Kind.TIE_SPEECH,
    Kind.REMOVED_DETAILS, Kind.FOUL_WITHDRAWN, Kind.JUDGE_MUST_CHECK_END, Kind.SHOOTING_RESULT,
    Kind.NIGHT_RESULT, Kind.LAST_WORD,
})


def is_ruling(notice: Notice) -> bool:
    """Whether ``notice`` is a ruling: its kind is not :data:`NOT_RULINGS`, and a speech is one
    only when a penalty shapes it (silent, seed 4.4; 30 s, seed 5.7)."""
    if isinstance(notice, nt.Speech):
        return notice.silenced or notice.short
    return notice.kind not in NOT_RULINGS

#: Why-codes of VOTE_NOT_HELD and NOBODY_LEAVES that are not rule numbers → the rule's code
#: (None: the game's own option, which the announcement names).
_NO_VOTE_RULES: dict[str, str | None] = {
    "3_of_9": "7.11",  # F24 §7.11
    "raise_failed": "4.4.12.3",  # F24/S24 §4.4.12.3
    # nobody nominated: the course of the day, no rule to cite (docs/rules.md §4.1; F24/S24
    # §4.4.2 only says when one may nominate)
    "no_nominees": None,
}


def _cite(code: str | None) -> tuple[Entry, ...]:
    return () if code is None else (Entry("cite", code),)


def _reason(code: str | None, config: RulesConfig) -> tuple[Entry, ...]:
    """A penalty's item as ``/rule`` explains it (a generic penalty has none)."""
    return (Entry("reason", str(code)),) if str(code) in config.reasons and str(code)[0].isdigit() else ()


@functools.singledispatch
def grounds(notice: Notice, config: RulesConfig) -> tuple[Entry, ...]:
    """The rules the ruling ``notice`` rests on, as :mod:`bot.rulebook` entries; none where the
    ruling follows from the game's own options or from the course of the game alone (who has the
    most hands, who is shot). A table: each ruling's class has its grounds, registered below;
    ``KeyError`` for a kind that is no ruling (:data:`NOT_RULINGS`)."""
    raise KeyError(notice.kind)


def _no_vote(why: str, reason: str | None, config: RulesConfig) -> tuple[Entry, ...]:
    entries = _cite(_NO_VOTE_RULES[why] if why in _NO_VOTE_RULES
                    else why if NUMBER.fullmatch(why) else None)
    return entries + (_reason(reason, config) if why in ("5.1", "5.2") else ())


#: The rulings that always rest on one rule.
_ONE_RULE: dict[type[Notice], str] = {
    nt.SpeechSkipped: "4.4", nt.BestMoveDue: "4.5.9", nt.ResultFixed: "7.9", nt.Tie: "4.4.12",
    nt.RaiseVote: "4.4.12.3", nt.RaiseResult: "4.4.12.3", nt.ExtraPoints: "8.4.1",
}
for _kind, _code in _ONE_RULE.items():
    grounds.register(_kind, lambda notice, config, code=_code: _cite(code))


@grounds.register
def _vote_not_held(notice: nt.VoteNotHeld, config: RulesConfig) -> tuple[Entry, ...]:
    return _no_vote(notice.why, notice.reason, config)


@grounds.register
def _nobody_leaves(notice: nt.NobodyLeaves, config: RulesConfig) -> tuple[Entry, ...]:
    return _no_vote(notice.why, None, config)


@grounds.register
def _vote_ban(notice: nt.VoteBan, config: RulesConfig) -> tuple[Entry, ...]:
    return _cite(notice.rule) + _reason(notice.reason, config)


@grounds.register
def _speech(notice: nt.Speech, config: RulesConfig) -> tuple[Entry, ...]:
    # 30 s by the option third_foul=short_speech is no rule of the texts
    return _cite(None if notice.option else "5.7" if notice.short else "4.4")


@grounds.register
def _third_foul(notice: nt.ThirdFoul, config: RulesConfig) -> tuple[Entry, ...]:
    # seed 4.4 is the silence; the other effects are the game's option
    if notice.short:
        return _cite("5.7")
    return _cite("4.4" if notice.effect == "silence" else None)


@grounds.register
def _penalty(notice: nt.Warning | nt.Foul | nt.TechFoul, config: RulesConfig) -> tuple[Entry, ...]:
    return _reason(notice.reason, config)


@grounds.register
def _removed(notice: nt.Removed, config: RulesConfig) -> tuple[Entry, ...]:
    return _cite("4.5") + _reason(notice.reason, config) + (_cite("5.3") if notice.tournament else ())


@grounds.register
def _team_loss(notice: nt.TeamLoss, config: RulesConfig) -> tuple[Entry, ...]:
    return (_cite("4.3") + _reason(notice.reason, config)
            + (_cite("6.8.5") if notice.final_minute else ()))


@grounds.register
def _penalty_after_result(notice: nt.PenaltyAfterResult, config: RulesConfig) -> tuple[Entry, ...]:
    # applied after the game: recorded, the result stands
    stands = notice.over and notice.applied
    return _cite("7.9" if stands else "6.8.6") + _reason(notice.reason, config)


@grounds.register
def _best_move_skipped(notice: nt.BestMoveSkipped, config: RulesConfig) -> tuple[Entry, ...]:
    return _cite(notice.rule or None)


@grounds.register
def _off_ballot(notice: nt.OffBallot, config: RulesConfig) -> tuple[Entry, ...]:
    # off the ballot once its result is known; the new last nominee
    return _cite("5.2") + (_cite("4.4.8") if notice.last is not None else ())


@grounds.register
def _leaves_by_vote(notice: nt.LeavesByVote, config: RulesConfig) -> tuple[Entry, ...]:
    # the most hands leave (F24 §4.4.11); all raised (§4.4.12.3)
    return _cite("4.4.12.3" if notice.cause == "raise" else "4.4.11")


@grounds.register
def _game_over(notice: nt.GameOver, config: RulesConfig) -> tuple[Entry, ...]:
    if notice.winner is None and notice.draw_rule:
        return _cite("5.8" if notice.draw_rule == rules.DrawDeclared.AFTER_THIRD_DAY.value else "7.7")
    if notice.why == "team_loss":
        return _cite("4.3")
    # who wins (F24/S24 §1.4); a result the judge declared with the roles unknown rests on his
    # word alone
    return _cite("1.4" if notice.winner is not None and notice.why != "declared" else None)


@grounds.register
def _bad_play(notice: nt.BadPlay, config: RulesConfig) -> tuple[Entry, ...]:
    return (Entry("badplay", notice.item),) if notice.item else _cite("8.5")


@grounds.register
def _the_games_option(notice: nt.NominationWithdrawn | nt.LeaderStays | nt.LastWordSkipped,
                      config: RulesConfig) -> tuple[Entry, ...]:
    # the game's own options: a nomination withdrawn, the day-1 leader staying, no last word
    # after a decisive event (MafiaRatings 8.19.2: F24 §7.9 says the opposite)
    return ()


def last_ruling(notices: Iterable[Notice], *, private: bool) -> Notice | None:
    """The last ruling among ``notices`` the asker may see (``private``: the judge)."""
    found = None
    for notice in notices:
        if is_ruling(notice) and (private or not notice.private):
            found = notice
    return found


def why_text(notices: Iterable[Notice], config: RulesConfig, cat: Catalog, *, private: bool) -> str:
    """The answer to ``/why``: the last ruling as it was announced, and the rules behind it."""
    notice = last_ruling(notices, private=private)
    if notice is None:
        return cat.text("why-nothing")
    lines = [cat.text("why-ruling", what=notice_text(notice, cat) or notice.kind.value)]
    entries = grounds(notice, config)
    lines.extend(cat.text("why-rule", rule=entry_text(e, config, cat)) for e in entries)
    if not entries:
        lines.append(cat.text("why-no-rule"))
    return "\n".join(lines)


async def answer(service: "Service", home: str, command: "Explain", cat: Catalog, *,
                 judge: str | None) -> tuple[str, bool]:
    """``/rule`` or ``/why`` for ``home``'s current game (the default preset's rules before
    any): the text, and whether it may hold a private ruling — only when ``judge`` (who asks,
    where nobody else reads; ``None`` elsewhere) is the game's judge. ``ServiceError("no_game")``
    (or ``quarantined``: :meth:`bot.service.Service.missing`) for ``/why`` without a game.
    Shared by the console, both judge-mode platforms and host mode."""
    current = await service.current(home)
    config = current.state.config if current is not None else rules.PRESETS[rules.DEFAULT_PRESET]
    if command.what == "rule":
        return rule_text(command.query, config, cat), False
    if current is None:
        raise await service.missing(home)
    private = judge is not None and current.judge == judge
    row = await service.store.game(current.game_id)
    _, notices = rules.fold(config, await service.events(home), row.names if row is not None else {})
    return why_text(notices, config, cat, private=private), private
