"""A hosted table's options: how seats are given, how "only the speaker writes" is enforced, and
the lengths of the steps the rules leave to the judge. Parsed from ``/newgame`` (pure).

``/newgame [preset] [rule option=value …] [seats=join|shuffle] [mute=auto|restrict|foul]
[shooting=N] [silenced=N] [absent=N] [voice=<channel id>] [grace=N]`` — the rule options are the judge's ``/new`` options
(:func:`bot.commands.parse_options`: ``timers.speech=45``, ``raise_vote=no`` …).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

import rules

from .. import commands as cmds
from ..commands import CommandError, NewGame

SEATINGS = ("join", "shuffle")  # seats by join order, or shuffled at the start
MUTES = ("auto", "restrict", "foul")  # how "only the speaker writes" is enforced
MAX_STEP = 600  # seconds: the longest host step length accepted
ABSENT_AFTER = 2  # silent speeches in a row that count as leaving the table (seed 4.2.1)
MAX_ABSENT = 10  # the most ``absent`` accepts (0 = off)
VOICE_GRACE = 60  # seconds out of a voice table's channel before it is leaving the table (4.2.1)


class HostError(Exception):
    """A host-mode request refused; ``code`` has a ``host-error-<code>`` catalog message."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class HostOptions:
    """* ``seating`` — seats by join order or shuffled (issue: "by join order or shuffled");
    * ``mute`` — ``restrict``: the bot mutes everyone but the speaker (needs the right to
      restrict members, in a supergroup); ``foul``: a message out of one's minute is a foul
      (seed 4.1.1), deleted where the bot may delete; ``auto``: restrict when the bot can;
    * ``shooting`` — seconds the blacks have to shoot (the rules give the shooting no length of
      its own: F24 §4.5.3, the judge counts): the rules' ``timers.shooting``, which the judge's
      timer of the shooting runs too (``shooting=N`` and ``timers.shooting=N`` are one option);
    * ``silenced`` — seconds a speaker silenced by his 3rd foul has to nominate (seed 4.4);
    * ``absent_after`` — a player whose ``N`` own day speeches in a row ran out with nothing
      written and nothing pressed has left the table: the disqualifying foul of seed 4.2.1
      («покидание игрового стола»; he leaves at once without a last word, seed 4.5, and the
      nearest vote is not held, seed 5.1–5.2). ``0`` turns it off. A silenced minute (seed 4.4)
      neither counts nor resets; nothing counts while the bot cannot read the group. The rest a missing player gets is the rules' own default: an
      unraised hand goes to the last nominee (F24 §4.4.8), a black who does not shoot makes the
      shooting a miss (§4.5.5), an unmade check or best move is simply not made;
    * ``voice`` — a voice table: the id of the voice channel where the players speak; everyone
      but the one who has the floor is server-muted there (``mute=foul`` keeps nobody muted).
      The bot cannot hear silence in voice, so ``absent_after`` counts nothing at a voice table;
    * ``voice_grace`` — seconds a seated player may be out of the voice table's channel: one
      still away when they run out has left the table (seed 4.2.1; ``0`` turns it off)."""

    seating: str = "join"
    mute: str = "auto"
    shooting: int = 20
    silenced: int = 10
    absent_after: int = ABSENT_AFTER
    voice: str = ""  # a voice table: the voice channel's id (Discord), "" none
    voice_grace: int = VOICE_GRACE

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "HostOptions":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class TableSpec:
    """What ``/newgame`` asked for: the host options and the rules config."""

    options: HostOptions
    config: rules.RulesConfig

    def to_dict(self) -> dict[str, Any]:
        return {"host": self.options.to_dict(), "rules": rules.config_to_dict(self.config)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TableSpec":
        return cls(HostOptions.from_dict(data.get("host") or {}),
                   rules.config_from_dict(data.get("rules") or {}))


def _seconds(key: str, raw: str) -> int:
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_STEP:
        raise HostError("bad_option", option=key, value=raw)
    return int(raw)


def _count(key: str, raw: str) -> int:
    if not raw.isdigit() or not 0 <= int(raw) <= MAX_ABSENT:
        raise HostError("bad_option", option=key, value=raw)
    return int(raw)


#: the host's own options (the rules' are :func:`bot.commands.parse_options`'), by one name
_HOST_OPTIONS = frozenset({"seating", "mute", "silenced", "absent_after", "voice_grace", "voice"})
_SAME = {"seats": "seating", "absent": "absent_after", "grace": "voice_grace"}


def parse_newgame(args: list[str], *, vote_window: int, shooting: int, silenced: int,
                  absent_after: int = ABSENT_AFTER) -> TableSpec:
    """``/newgame``'s arguments → a :class:`TableSpec`. ``vote_window`` is the host-mode
    default of ``timers.vote_window`` (a window per nominee, F24 §4.4.5), used unless the
    arguments set it; ``shooting`` likewise of ``timers.shooting`` (``shooting=N`` is another
    name for it: both given is an option given twice, ``duplicate_option``); ``silenced`` and ``absent_after`` the defaults of those
    options (``absent=N`` or ``absent_after=N`` sets the last). Raises :class:`HostError` or
    :class:`bot.commands.CommandError`."""
    host: dict[str, Any] = {"silenced": silenced, "absent_after": absent_after}
    rest: list[str] = []
    given: set[str] = set()
    for arg in args:
        key, sep, raw = arg.partition("=")
        key = key.strip().lower()
        raw = raw.strip().lower()
        option = _SAME.get(key, key)
        if sep and option in _HOST_OPTIONS:  # which of the two was meant? said, not guessed
            if option in given:
                raise CommandError("duplicate_option", option=key)
            given.add(option)
        if sep and key in ("seats", "seating"):
            if raw not in SEATINGS:
                raise HostError("bad_option", option=key, value=raw)
            host["seating"] = raw
        elif sep and key == "mute":
            if raw not in MUTES:
                raise HostError("bad_option", option=key, value=raw)
            host["mute"] = raw
        elif sep and key == "shooting":
            rest.append(f"timers.shooting={_seconds(key, raw)}")
        elif sep and key == "silenced":
            host[key] = _seconds(key, raw)
        elif sep and key in ("absent", "absent_after"):
            host["absent_after"] = _count(key, raw)
        elif sep and key in ("grace", "voice_grace"):
            if not raw.isdigit() or int(raw) > MAX_STEP:
                raise HostError("bad_option", option=key, value=raw)
            host["voice_grace"] = int(raw)
        elif sep and key == "voice":
            if not raw.isdigit():
                raise HostError("bad_option", option=key, value=raw)
            host["voice"] = raw
        else:
            rest.append(arg)
    parsed = cmds.parse(" ".join(["/new", *rest]), None)
    if not isinstance(parsed, NewGame):  # pragma: no cover - "/new …" always parses to NewGame
        raise CommandError("bad_argument", command="new", argument=" ".join(rest))
    options = dict(parsed.options)
    timers = dict(options.get("timers") or {})
    timers.setdefault("vote_window", vote_window)
    timers.setdefault("shooting", shooting)
    options["timers"] = timers
    config = cmds.build_config(parsed.preset, options)
    host["shooting"] = config.timers.shooting
    if not 1 <= config.timers.shooting <= MAX_STEP:  # the blacks always get a window to shoot
        raise HostError("bad_option", option="timers.shooting", value=str(config.timers.shooting))
    return TableSpec(HostOptions(**host), config)
