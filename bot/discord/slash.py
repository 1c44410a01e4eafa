"""The slash commands: every command of the table (:mod:`bot.commands`) that works in a server's
channel, with Discord's typed options.

They are made from the table: each spec whose routes reach a Discord channel
(:attr:`bot.commands.Place.CHANNEL`) or a hosted table (:attr:`~bot.commands.Place.TABLE`) is
a slash command of the same name. :data:`OPTIONS` gives the options of those that take any; a
command's options are joined back into its typed line (:attr:`Slash.typed`) and handed to the
front door, which parses it as a typed one — so ``/foul seat:4 reason:4.1.3`` becomes the same
:class:`bot.commands.Act` as the typed ``/foul 4 4.1.3``: one parser, one meaning. Seats are
integers 1–10 (Discord refuses anything else before the bot sees it); lists stay text, as typed:
``/vote nominee:7 hands:1,2,3``, ``/shots shots:2:7 5:7``, ``/roles roles:D2 M5 M7 S8``.

A command with no options needs no line here: adding one to the table adds its slash command.
Every command works in a server's text channel only (the channel is the game's or the table's).
Descriptions come from the catalogs (``dc-cmd-<name>``, ``dc-arg-<key>``): English by default,
Russian for Russian clients (:class:`CatalogTranslator`); command and option names are never
translated.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Optional

import discord
from discord import app_commands
from discord.app_commands import Range, locale_str

from .. import commands as cmds
from ..i18n import catalog

Seat = Range[int, 1, 10]
Hands = Range[str, 1, 40]
Reason = Range[str, 1, 12]
Seats = Range[str, 1, 40]
Text = Range[str, 1, 100]
Name = Range[str, 1, 64]
Options = Range[str, 1, 400]
Period = Range[str, 1, 30]
Players = Range[str, 1, 2000]
Games = Range[int, 1, 20]
Least = Range[int, 0, 1000]
Scheme = Literal["fiim", "fsm"]

_DEFAULT = catalog("en")


def _desc(name: str) -> locale_str:
    """A command's description: the English text, its catalog key riding along."""
    key = f"dc-cmd-{name}"
    return locale_str(_DEFAULT.text(key), key=key)


def _arg(name: str) -> locale_str:
    key = f"dc-arg-{name}"
    return locale_str(_DEFAULT.text(key), key=key)


def line(name: str, *parts: object) -> str:
    """The typed line of a command: its name and the options given, in the typed order."""
    return " ".join([f"/{name}", *(str(p).strip() for p in parts if p is not None and str(p).strip())])


@dataclass(frozen=True)
class Opt:
    """One option of a slash command: its ``name`` (Discord's), its ``kind`` (the annotation
    discord.py reads: :data:`Seat`, a ``Range``, a ``Literal``, ``bool``, a channel or a
    member), whether it is ``required``, its description's catalog key (``dc-arg-<desc>``,
    by default its name) and how it is ``typed`` into the line (``None``: left out; by default
    as it reads)."""

    name: str
    kind: Any
    required: bool = False
    desc: str | None = None
    typed: Callable[[Any], object] | None = None


def _word(word: str) -> Callable[[Any], object]:
    """A yes/no option typed as a word when it is yes (``approved:True`` → ``+``)."""
    return lambda value: word if value else None


def _id(value: Any) -> object:
    return value.id  # a channel or a member: the line carries its id


@dataclass(frozen=True)
class Slash:
    """The options of one slash command, in the order Discord lists them, and ``order``: the
    options' names in the order the typed line takes them, when that is not the listed order
    (``/nominate target:7 by:3`` types ``/nominate 3 7``); ``"="`` stands for itself
    (``/rename player:Аня new:Анна`` types ``/rename Аня = Анна``). ``either``: two options
    of which the first, when given, is typed instead of the second (``/settings off:True``)."""

    options: tuple[Opt, ...] = ()
    order: tuple[str, ...] | None = None
    either: tuple[str, str] | None = None

    def typed(self, values: Mapping[str, Any]) -> list[object]:
        """The typed line's parts for the options given (``values``: by name, absent ones
        ``None``)."""
        given = {o.name: (None if values.get(o.name) is None else
                          (o.typed or str)(values[o.name])) for o in self.options}
        if self.either is not None and given[self.either[0]] is not None:
            given[self.either[1]] = None
        return [given.get(name, name) for name in self.order or tuple(given)]


def _seat(required: bool = True) -> Opt:
    return Opt("seat", Seat, required)


def _penalty() -> Slash:
    return Slash((_seat(), Opt("reason", Reason)))


_PERIOD = Opt("period", Period)
_LEAST = Opt("least", Least, typed=lambda least: f"min={least}")
_VOICE = Opt("voice", discord.VoiceChannel, typed=lambda voice: f"voice={voice.id}")

#: The options of every slash command that takes any, by the command's name (the others: none).
OPTIONS: dict[str, Slash] = {
    "new": Slash((Opt("preset", Literal["seed", "fiim2024", "fsm2024"]), Opt("options", Options),
                  _VOICE)),
    "name": Slash((_seat(), Opt("name", Name, True))),
    "roles": Slash((Opt("roles", Text, True),)),
    "nominate": Slash((Opt("target", Seat, True), Opt("by", Seat)), order=("by", "target")),
    "withdraw": Slash((Opt("by", Seat),)),
    "vote": Slash((Opt("nominee", Seat, True), Opt("hands", Hands, True))),
    "raise": Slash((Opt("hands", Hands, True),)),
    "kill": Slash((_seat(),)),
    "shots": Slash((Opt("shots", Text, True),)),
    "don": Slash((_seat(),)),
    "sheriff": Slash((_seat(),)),
    "bestmove": Slash((Opt("seats", Seats, True),)),
    "foul": _penalty(),
    "warn": _penalty(),
    "dq": _penalty(),
    "ppk": Slash((_seat(), Opt("reason", Reason), Opt("team", Literal["red", "black"]))),
    "tech": Slash((_seat(),)),
    "unfoul": Slash((_seat(),)),
    "result": Slash((Opt("winner", Literal["red", "black", "draw"]),)),
    "extra": Slash((_seat(), Opt("points", Range[str, 1, 8], True),
                    Opt("approved", bool, typed=_word("+")))),
    "badplay": Slash((_seat(), Opt("item", Reason, True))),
    "rule": Slash((Opt("rule", Period),)),
    "undo": Slash((Opt("steps", Range[int, 1, 100]),)),
    "fix": Slash((Opt("action", Range[int, 1, cmds.MAX_NUMBER], True),
                  Opt("command", Range[str, 1, 200], True))),
    "timer": Slash((Opt("action", Literal["pause", "resume", "next"], desc="timer-action"),)),
    "log": Slash((Opt("scope", Literal["all"]),)),
    "lang": Slash((Opt("lang", Literal["ru", "en"], True),)),
    "games": Slash((Opt("count", Range[int, 1, 50]),)),
    "stats": Slash((Opt("player", Name), _PERIOD)),
    "top": Slash((_PERIOD, Opt("order", Literal["points", "wins", "winrate", "elo"]),
                  Opt("role", Literal["civilian", "sheriff", "mafia", "don"]), _LEAST)),
    "rating": Slash((_PERIOD, Opt("scheme", Scheme), _LEAST)),
    "evening": Slash((Opt("action", Literal["new", "close", "cancel"], desc="evening-action"),
                      Opt("start", Period, desc="evening-start"),
                      Opt("tables", Range[int, 1, 10], desc="evening-tables",
                          typed=lambda tables: f"tables={tables}"))),
    "seating": Slash((Opt("games", Games, True, "series-games"), Opt("players", Players, True))),
    "tournament": Slash((Opt("action", Literal["open", "close"], desc="tournament-action"),
                         Opt("games", Games, desc="series-games"), Opt("scheme", Scheme),
                         Opt("players", Players))),
    "table": Slash((Opt("number", Games, True, "table-number"),
                    Opt("host", bool, desc="table-host", typed=_word("host")),
                    Opt("aside", bool, desc="table-aside", typed=_word("aside")))),
    "roster": Slash((Opt("name", Name, desc="name-start"),)),
    "rename": Slash((Opt("player", Name, True), Opt("new", Name, True, "new-name")),
                    order=("player", "=", "new")),
    "merge": Slash((Opt("player", Name, True, "merged"), Opt("into", Name, True)),
                   order=("player", "=", "into")),
    "forget": Slash((Opt("confirm", bool, typed=_word("yes")),)),
    "settings": Slash((Opt("rules", Options, desc="club-rules"),
                       Opt("off", bool, desc="settings-off", typed=_word("off"))),
                      order=("off", "rules"), either=("off", "rules")),
    "stream": Slash((Opt("what", Literal["new", "delay", "tournament"], desc="stream-what"),
                     Opt("seconds", Range[int, 0, cmds.MAX_STREAM_DELAY], desc="stream-seconds"))),
    "link": Slash((Opt("channel", discord.TextChannel, True, typed=_id),)),
    "seat": Slash((_seat(), Opt("member", discord.Member, typed=_id))),
    "newgame": Slash((Opt("options", Options, desc="host-options"), _VOICE)),
    "join": Slash((Opt("name", Name, True, "plan-name"),)),
    "channel": Slash((Opt("channel", discord.TextChannel, desc="club", typed=_id),
                      Opt("off", bool, typed=_word("off"))),
                     order=("off", "channel"), either=("off", "channel")),
}

#: Commands Discord shows only to members with Manage Channels (their handlers refuse others:
#: ``/takeover`` of a live game not one's own, ``/channel``).
ADMINS_ONLY = frozenset({"takeover", "channel"})


async def _run(interaction: discord.Interaction[Any], name: str, *parts: object) -> None:
    referee = getattr(interaction.client, "referee", None)
    if referee is not None:
        await referee.slash(interaction, line(name, *parts))


def _command(name: str, slash: Slash) -> app_commands.Command[Any, ..., None]:
    """The slash command ``name`` with ``slash``'s options: its callback's signature is made
    from the options (discord.py reads the options from it)."""

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await _run(interaction, name, *slash.typed(values))

    empty = inspect.Parameter.empty
    callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=discord.Interaction),
        *(inspect.Parameter(o.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                            default=empty if o.required else None,
                            annotation=o.kind if o.required else Optional[o.kind])
          for o in slash.options)])
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.name: _arg(o.desc or o.name) for o in slash.options}
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=_desc(name), callback=callback)
    if name in ADMINS_ONLY:
        app_commands.default_permissions(manage_channels=True)(command)
    return app_commands.guild_only()(command)


def names() -> tuple[str, ...]:
    """The commands of the table that work in a Discord channel or at a hosted table there."""
    return tuple(spec.name for spec in cmds.specs()
                 if {cmds.Place.CHANNEL, cmds.Place.TABLE} & set(spec.places("dc")))


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = tuple(
    _command(name, OPTIONS.get(name, Slash())) for name in names())
assert set(OPTIONS) <= set(names()), set(OPTIONS) - set(names())  # no options of no command


class CatalogTranslator(app_commands.Translator):
    """Russian descriptions for Russian clients, from ``bot/locales/ru``; names stay as they are."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if locale is not discord.Locale.russian or not isinstance(key, str):
            return None
        ru = catalog("ru")
        return ru.text(key) if ru.has(key) else None


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Add every command to ``tree``."""
    for command in COMMANDS:
        tree.add_command(command)
