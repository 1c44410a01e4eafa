"""What the judge's desk decides in one way at every port: the bots' judge mode
(:class:`bot.judge.controller.JudgeController`) and the console (:class:`bot.console.Session`).

Each of them shows the answers in its own way (a panel and the outbox; printed lines); the
decisions are made here, once:

* which game a game command typed with no game in progress acts on (:func:`game_for`): the
  game just over, the next one it starts, or none (refused);
* whether ``/new`` asks before it sets a game aside (:func:`asks_before_replacing`);
* what ``/fix N …`` replaces action ``N`` with (:func:`replacement`);
* the reason codes ``/help`` lists (:func:`help_reasons`);
* the game's log as it was announced (:func:`announced`: ``/log``) and its audit trail
  (:func:`audit_lines`: ``/log all``).

No rule lives here: the rules engine says what each game takes.
"""

from __future__ import annotations

from typing import Callable

import rules
from rules import Phase

from .. import audit
from .. import commands as cmds
from ..commands import FixCmd, NewGame
from ..i18n import Catalog
from ..render import notice_text, status_text
from ..service import Outcome, Service, untouched


async def game_for(service: Service, home: str, club: str, current: Outcome | None,
                   event: rules.Event) -> rules.RulesConfig | None:
    """The game that game command ``event`` acts on when ``home`` has no game in progress
    (``current``: its last game, over, or ``None``).

    * ``None``: the game just over, which still takes it (a name corrected for the protocol, a
      penalty recorded after the result, F24 §7.9; the judge's points, F24/S24 §8.4, §8.5);
    * a :class:`rules.RulesConfig`: the rules of the next game, which ``event`` starts (the
      club's own, :meth:`bot.service.Service.new_game_rules` of ``club``) — when the finished
      game refuses it only because it is over and the next game's setup takes it (the roles);
    * else it is refused, nothing created: raises the finished game's own refusal (it is over,
      F24 §1.4, and ``/new`` starts the next one; or its own reason: a name another seat of it
      has), or with no game the new setup's (:class:`rules.RuleError`); a chat whose game was
      set aside raises its ``quarantined`` :class:`bot.service.ServiceError` (``/new`` replaces
      it, never a game command silently).
    """
    refusal: rules.RuleError | None = None
    if current is not None:
        refusal = rules.check(current.state, event)
        if refusal is None:
            return None
        if refusal.code is not rules.Code.GAME_OVER:  # the finished game's own reason
            raise refusal
    elif (missing := await service.missing(home)).code == "quarantined":
        raise missing
    config = await service.new_game_rules(club, NewGame())
    opening = rules.check(rules.new_game(config), event)
    if opening is None:
        return config
    raise refusal or opening


def in_progress(current: Outcome | None) -> Outcome | None:
    """``current`` while its game is not over, else ``None``."""
    return current if current is not None and current.state.phase is not Phase.GAME_OVER else None


def asks_before_replacing(current: Outcome | None) -> bool:
    """Whether ``/new`` over ``current`` asks first (a second ``/new`` confirms): an unfinished
    game that something was recorded in is set aside for good (recorded as abandoned); a game
    just created, or one over, is replaced without a word."""
    return in_progress(current) is not None and not untouched(current)


async def replacement(service: Service, home: str, current: Outcome, command: FixCmd) -> rules.Event:
    """``/fix N …``: the replacement of action ``N`` of ``current`` (``home``'s game), read against
    the game as it stood before that action (``/fix 12 /nominate 7``: the speaker then);
    ``ValueError``/:class:`bot.commands.CommandError` as :meth:`bot.commands.FixCmd.replacement`
    raises them (docs/rules.md §2.6)."""
    row = await service.store.game(current.game_id)
    then = rules.state_before(current.state.config, await service.events(home), command.seq,
                              row.names if row is not None else {})
    return command.replacement(then)


def help_reasons(current: Outcome | None) -> str:
    """The reason codes ``/help`` lists: those of ``current``'s rules, else of the default
    preset's (before any game)."""
    return cmds.reason_codes(current.state.config.reasons if current is not None
                             else rules.REASONS[rules.DEFAULT_PRESET])


async def announced(service: Service, home: str, current: Outcome) -> list[rules.Notice]:
    """Every notice of ``current``'s log as it was announced, oldest first (undone actions left
    out): ``/log``. The caller leaves out what its reader may not see (a private notice, F24
    §4.4.13)."""
    row = await service.store.game(current.game_id)
    _, notices = rules.fold(current.state.config, await service.events(home),
                            row.names if row is not None else {})
    return notices


async def log_lines(service: Service, home: str, current: Outcome, cat: Catalog, *,
                    judge: bool) -> list[str]:
    """``/log``: the lines of :func:`announced` its reader may read — the judge every one;
    anyone else the public ones, and every one once the game is over (the roles are revealed
    then, F24 §4.4.13) — or, with none yet, the status as that reader sees it."""
    over = current.state.phase is Phase.GAME_OVER
    lines = [text for text in (notice_text(notice, cat) for notice in await announced(service, home, current)
                               if judge or over or not notice.private) if text]
    return lines or [status_text(current.state, cat, for_judge=judge)]


def result_shown(state: rules.GameState, *, judge: bool) -> bool:
    """Whether ``/result`` shows the result text (the departures, the roles): to anyone once
    the game is over, before that to the judge alone — the table learns of a night's kill in
    the morning (F24 §4.5.9) and of the roles at the end (F24 §4.4.13)."""
    return judge or state.phase is rules.Phase.GAME_OVER


async def audit_lines(service: Service, current: Outcome, cat: Catalog, *,
                      who: Callable[[str], str], when: Callable[[float], str]) -> list[str]:
    """``/log all``: ``current``'s audit trail (:mod:`bot.audit`) — its title, then every logged
    action, who recorded it (``who(actor)``) and when (``when(unix seconds)``), what was undone and
    by whom; one line if nothing is logged yet."""
    rows = await service.store.events(current.game_id)
    if not rows:
        return [cat.text("judge-log-empty", game=current.game_id)]
    return [cat.text("judge-log-title", game=current.game_id),
            *audit.lines(audit.trail(rows), current.state.config, cat, who=who, when=when)]
