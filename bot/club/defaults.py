"""A club's own rules (issue 31, item 4): the preset and options a club's new games start with.

They are the words typed after ``/new`` (``fiim2024 raise_2_of_4=false timers.speech=45``,
``mafiaratings=…`` too), stored for one club (``club_rules``, migration 0014:
:meth:`bot.service.Service.set_club_rules`) or given for every club without its own by the
setting ``MAFIA_REFEREE_RULES``; without either a new game is the seed preset's, as before.

What the judge (or a hosted table's host) types after ``/new`` or ``/newgame`` goes over them
(:func:`merged`): a preset typed starts from that preset alone (the club's options are for the
club's preset); options alone keep the club's preset and options, each typed option replacing
the club's of the same name. So ``/new`` is the club's game, ``/new timers.speech=45`` the
club's game with 45-second speeches, ``/new fsm2024`` a plain FSM 2024 game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import rules

from .. import commands as cmds
from ..commands import CommandError, NewGame

#: A host option's short name that is a rules option's (``/newgame shooting=20``).
ALIASES = {"shooting": "timers.shooting"}


@dataclass(frozen=True)
class ClubRules:
    """A club's rules: ``words`` as stored (or set), ``own`` whether they are the club's own
    (stored for it) rather than the setting's, ``command`` the ``/new`` they are."""

    words: str
    own: bool
    command: NewGame

    def config(self) -> rules.RulesConfig:
        return self.command.config()


def split(text: str) -> list[str]:
    """The words of a rules text (any whitespace between them)."""
    return text.split()


def parse_rules(text: str) -> NewGame:
    """``text`` as the words of ``/new``, checked as ``/new`` checks them (an unknown preset or
    option, a bad value, a bad combination: :class:`bot.commands.CommandError`)."""
    parsed = cmds.parse(" ".join(["/new", *split(text)]), None)
    if not isinstance(parsed, NewGame):  # pragma: no cover - "/new …" always parses to NewGame
        raise CommandError("bad_argument", command="new", argument=text)
    parsed.config()  # the combination builds
    return parsed


def _key(word: str) -> str | None:
    """The option a word sets (``raise_vote``, ``timers.speech``), ``None`` for a preset word."""
    key, sep, _ = word.partition("=")
    if not sep:
        return None
    key = key.strip().lower().replace("-", "_")
    return ALIASES.get(key, key)


def _is_preset(word: str) -> bool:
    return _key(word) is None and word.lower() in rules.PRESETS


def merged(club: Sequence[str], typed: Sequence[str]) -> list[str]:
    """The words of the new game: the club's, with what was typed over them — a preset typed
    first: the typed words alone; else the club's words less each option typed, then the typed
    words (a typed option after ``mafiaratings=…`` wins, as in ``/new``)."""
    if not club or (typed and _is_preset(typed[0])):
        return list(typed)
    replaced = {_key(word) for word in typed} - {None}
    return [*(word for word in club if _key(word) not in replaced), *typed]


def with_club_rules(command: NewGame, club: ClubRules | None) -> NewGame:
    """``command`` (a ``/new`` as typed: its ``words``) over the club's rules (:func:`merged`),
    parsed and checked as ``/new`` is."""
    if club is None or (not command.words and (command.preset != rules.DEFAULT_PRESET
                                                 or command.options)):
        return command  # no club rules, or a game's rules given by the code itself
    return parse_rules(" ".join(merged(split(club.words), command.words)))
