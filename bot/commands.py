"""The typed command language of the judge: ``parse(text, state) -> Command``.

One language serves every adapter (the console now, Telegram later). The leading ``/`` is
optional, command names are case-insensitive, and a Telegram-style ``/cmd@botname`` suffix is
dropped. Parsing checks only the *form* of a command (seat numbers 1–10, counts, option names);
whether the rules allow it now is the engine's business (:func:`rules.apply`).

Commands::

    /new [seed|fiim2024|fsm2024] [option=value …]   (timers as timers.speech=45; a club's
                                                     MafiaRatings code as mafiaratings=0002000010000)
    /name 3 Вася          /roles D2 M5 M7 S8 | unknown      /start
    /next (/n, /pass)     /nominate 3 7 | /nominate 7         /vote 7 4 | /vote 7 1,2,3
    /withdraw [3]         (the speaker takes back his nomination, where the club allows it)
    /raise 6 | /raise 1,2,3,4,5,6                             /kill 4   /miss
    /shots 2:7 5:7 7:7 (2:- = did not shoot)                  /don 3    /sheriff 5
    /bestmove 1 2 3       /foul 5 [reason]   /warn 5 [reason]   /dq 5 [reason]   /tech 5
    /ppk 5 [reason] [red|black]               /unfoul 5          /result red|black|draw
    /extra 3 0.4 [+]      /badplay 3 8.5.2 | /badplay 3 -8.5.2   (after the result: F24/S24 §8.4–8.5)
    /points   /protocol   /rule 5.7 | /rule draw   /why
    /undo [n]   /fix 12 /foul 5 4.1.1   /timer [pause|resume|next]
    /status   /log [all]   /help   /lang ru|en   /quit
    /games [N]   /stats [name] [month|season|2026-03|dates]   /top [period] [points|wins|winrate|elo]
    [civilian|sheriff|mafia|don] [min=N]   /rating [period] [fiim|fsm] [min=N]   /evening
    /evening new [date] 19:30 tables=2 | close | cancel  (an evening's sign-up, issue 33)
    /seating 6 Аня, Боря, …  (a series' seating plan)
    /roster [name]
    /rename Вася = Василий
    /merge Вася = Василий   /forget [yes]            (the club's players, issue 17)

Every refusal is a :class:`CommandError` whose ``code`` is listed in :data:`COMMAND_ERROR_CODES`
(each has a message in the catalogs, ``bot/locales/*/``).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Union

import rules
from rules import RulesConfig, Severity
from rules.records.mafiaratings import RecordError, code_options

from .i18n import LANGS

MAX_INPUT = 500  # characters: a longer line is refused before it is looked at
MAX_UNDO = 100

COMMAND_ERROR_CODES: tuple[str, ...] = (
    "empty_command",  # params: -
    "unknown_command",  # params: command
    "too_long",  # params: length, limit
    "missing_argument",  # params: command, argument (what is missing: seat, name, count, …)
    "too_many_arguments",  # params: command, argument (the first extra one)
    "bad_seat",  # params: command, argument (not a seat 1–10)
    "bad_argument",  # params: command, argument
    "duplicate_seat",  # params: command, seat (/roles, /bestmove, voters)
    "no_speaker",  # params: command (/nominate 7 when nobody is speaking)
    "wrong_reason",  # params: command, reason (e.g. /warn 5 4.2.7: that reason is not a warning)
    "unknown_preset",  # params: preset
    "unknown_option",  # params: option
    "bad_option_value",  # params: option, value
    "unknown_lang",  # params: lang
    "shooting_first",  # params: command (/next during the shooting: /kill, /miss or /shots)
    "bad_undo",  # params: command, argument, limit (/undo 0, /undo 101: from 1 to MAX_UNDO)
    "result_known",  # params: command (/result red after the end: the result is already known)
    "bad_team",  # params: command, argument (/ppk 6 4.3.1 green: the team is red or black)
    "bad_fix",  # params: command, argument (/fix 12 /undo: a correction is a game action)
    "duplicate_option",  # params: option (/new seed best_move=no best_move=yes)
    "unknown_reason",  # params: command, reason, codes (the game's reason codes, listed)
    "no_technical_fouls",  # params: command (/tech in a game without technical_fouls)
    "several_names",  # params: command, seat, count, number, next (/name 1 Аня, Боря: one name a seat)
)


class CommandError(Exception):
    """A typed command that cannot be understood. ``code`` is one of
    :data:`COMMAND_ERROR_CODES`; ``params`` fill the catalog message."""

    def __init__(self, code: str, **params: Any) -> None:
        assert code in COMMAND_ERROR_CODES, code
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


# --- the commands ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Act:
    """A game event for :meth:`bot.service.Service.act`."""

    event: rules.Event


@dataclass(frozen=True)
class UndoCmd:
    """Take back the last ``steps`` events (:meth:`bot.service.Service.undo`)."""

    steps: int = 1


@dataclass(frozen=True)
class FixCmd:
    """Correct the action logged at ``seq`` (``/log all`` numbers them) into the game action
    ``text`` types (:meth:`bot.service.Service.fix`). ``text`` is read against the game as it
    stood before that action (:meth:`replacement`)."""

    seq: int
    text: str

    def replacement(self, state_then: rules.GameState) -> rules.Event:
        """The corrected action, ``text`` parsed against ``state_then`` (the speaker then, the
        preset's reasons); :class:`CommandError` if it is not a game action."""
        command = parse(self.text, state_then)
        if not isinstance(command, Act):
            raise CommandError("bad_fix", command="fix", argument=self.text)
        if next_in_shooting(command, state_then):
            raise CommandError("shooting_first", command="next")
        return command.event


@dataclass(frozen=True)
class TimerCmd:
    """The running step's timer: ``"show"`` it, ``"pause"``, ``"resume"``, or start its ``"next"``
    part (night 0: the Sheriff's look, F24 §4.2.3). It never changes the game."""

    what: str = "show"


@dataclass(frozen=True)
class NewGame:
    """Start a new game under ``preset`` with ``options`` (``RulesConfig.with_options`` kwargs;
    ``timers`` is a dict of the timers changed). ``words``: what was typed after ``/new``, as
    typed — the club's own rules fill in what they leave out (:mod:`bot.club.defaults`)."""

    preset: str = rules.DEFAULT_PRESET
    options: dict[str, Any] = field(default_factory=dict)
    words: tuple[str, ...] = field(default=(), compare=False)
    #: Discord: the voice channel (its id) the game is played in (``/new voice:#table``)
    voice: int | None = None

    def config(self) -> RulesConfig:
        """The rules of the new game. Changed timers are merged into the preset's timers."""
        return build_config(self.preset, self.options)


@dataclass(frozen=True)
class Show:
    """Show something to the judge: ``"status"``, ``"log"``, ``"log_all"`` (the audit trail:
    every logged action, who recorded it and when, what was undone), ``"help"``, ``"result"``,
    ``"points"`` (F24/S24 §8) or ``"protocol"`` (the last game's score sheet and JSON files)."""

    what: str


@dataclass(frozen=True)
class ClubCmd:
    """A club's players across games (issue 17; :mod:`bot.club.answers`): ``what`` is
    ``games``, ``stats``, ``top``, ``rating``, ``evening``, ``seating``, ``roster``, ``rename``, ``merge``,
    ``forget``, ``tournament`` or ``table`` (:mod:`bot.club.tournament`); ``args`` the
    words typed after it (``/stats Вася month``), read by the club's answers."""

    what: str
    args: tuple[str, ...] = ()
    rest: str = ""


@dataclass(frozen=True)
class Explain:
    """Explain a rule, for anyone at the table (nothing changes): ``"rule"`` — what the rule
    ``query`` names says under the game's preset (:mod:`bot.rulebook`: ``/rule 5.7``,
    ``/rule draw``); ``"why"`` — the engine's reason for the last ruling (:mod:`bot.why`)."""

    what: str
    query: str = ""


@dataclass(frozen=True)
class SetLang:
    """The chat's language (``/lang ru|en``; on Discord the server's)."""

    lang: str


@dataclass(frozen=True)
class Quit:
    """Leave the console."""


@dataclass(frozen=True)
class NewTable:
    """Host mode: open a hosted table's lobby here (``/newgame``); ``options`` as typed, read by
    :func:`bot.host.options.parse_newgame` with the bot's default step lengths."""

    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class StopTable:
    """Host mode: the host (or a chat admin) stops the table (``/stop``)."""


@dataclass(frozen=True)
class JoinSeat:
    """Host mode: take the seat of a tournament lobby's planned ``name`` (``/join Аня``)."""

    name: str


@dataclass(frozen=True)
class Link:
    """Telegram: the judge links this group to his game (``/link``, no argument); Discord: the
    judge names ``channel`` (its id) as the club channel that gets the game's result."""

    channel: int | None = None


@dataclass(frozen=True)
class Unlink:
    """Undo :class:`Link`."""


@dataclass(frozen=True)
class SetChannel:
    """The club channel of this chat's hosted tables (``/channel``): ``target`` as typed (a
    Telegram ``@name`` or id, a Discord channel's id), ``"off"`` to unlink, ``None`` to show it."""

    target: str | None = None


@dataclass(frozen=True)
class TakeOver:
    """A chat admin becomes the judge of the game the chat acts on (``/takeover``)."""


@dataclass(frozen=True)
class ShowPanel:
    """Discord: the judge's panel afresh in his direct messages (``/panel``)."""


@dataclass(frozen=True)
class MapSeat:
    """Discord: ``seat``'s member (his id; ``None``: none), for the timeouts and voice mutes the
    rules' removals bring (``/seat 5 @member``)."""

    seat: int
    member: int | None = None


@dataclass(frozen=True)
class StreamCmd:
    """The table on a screen (issue 30, :mod:`bot.web`): ``"show"`` the addresses of the chat's
    live page, stream overlay and (privately) broadcast page; ``"new"`` secrets (the old
    addresses stop working); ``"delay"``: the broadcast's delay, ``seconds``; ``"tournament"``:
    the address of the club's tournament page."""

    what: str = "show"
    seconds: int | None = None


Command = Union[Act, UndoCmd, FixCmd, TimerCmd, NewGame, Show, ClubCmd, Explain, SetLang, Quit,
                NewTable, StopTable, JoinSeat, Link, Unlink, SetChannel, TakeOver, ShowPanel, MapSeat,
                StreamCmd]


# --- argument helpers -----------------------------------------------------------------------

_INT = re.compile(r"[0-9]{1,4}")  # ASCII digits only: str.isdigit() accepts "²" and "٣"
_SECONDS = re.compile(r"[0-9]{1,5}")  # a length in seconds: up to a day's 86 400
#: the largest count a command reads (four digits: :data:`_INT`); Discord's options stop there too
MAX_NUMBER = 9_999
_LIST_SPLIT = re.compile(r"[,;]")


def _int(text: str, digits: re.Pattern[str] = _INT) -> int | None:
    return int(text) if digits.fullmatch(text) else None


def _seat(command: str, text: str) -> int:
    """A seat number 1–10 (F24 §1.1: ten seats)."""
    value = _int(text.strip().lstrip("#№"))
    if value is None or value not in rules.SEATS:
        raise CommandError("bad_seat", command=command, argument=text)
    return value


def _seats(command: str, texts: list[str], *, unique: bool = True) -> tuple[int, ...]:
    """Seats given as ``1 2 3``, ``1,2,3`` or a mix; duplicates refused when ``unique``."""
    out: list[int] = []
    for text in texts:
        for part in _LIST_SPLIT.split(text):
            if not part:
                continue
            seat = _seat(command, part)
            if unique and seat in out:
                raise CommandError("duplicate_seat", command=command, seat=seat)
            out.append(seat)
    return tuple(out)


def _count(command: str, text: str) -> int:
    """A number of hands. Too many for the table (``/vote 5 11``) is left to the engine, which
    says how many hands may still be raised (``too_many_hands``, F24 §4.4.8)."""
    value = _int(text)
    if value is None:
        raise CommandError("bad_argument", command=command, argument=text)
    return value


def _need(command: str, args: list[str], n: int, what: str) -> None:
    if len(args) < n:
        raise CommandError("missing_argument", command=command, argument=what)


def _at_most(command: str, args: list[str], n: int) -> None:
    if len(args) > n:
        raise CommandError("too_many_arguments", command=command, argument=args[n])


def _hands(command: str, args: list[str]) -> tuple[int | None, tuple[int, ...]]:
    """A hand count (``4``) or the voters' seats (``1,2,3``, ``1 2 3``, a single voter ``3,``)."""
    if len(args) == 1 and not _LIST_SPLIT.search(args[0]):
        return _count(command, args[0]), ()
    return None, _seats(command, args)


# --- the command table ----------------------------------------------------------------------
#
# Every command is one :class:`Spec`: its names (English and Russian, aliases), its parser (the
# typed line → a :data:`Command` dataclass) and its routes — where it may be typed (a
# :class:`Place`), which part handles it there (a :class:`Part`) and who may give it (a
# :class:`Who`). :class:`bot.front.Front` is the one door every platform hands its typed lines
# to: it finds the spec, routes it and checks the rights once; a place without a route refuses
# the command in the same words on every platform.

class Place(enum.Enum):
    """Where a line is typed."""

    DESK = "desk"  # Telegram: a private chat with the bot (the judge records his game there)
    GROUP = "group"  # Telegram: a group (everyone reads what is answered there)
    CHANNEL = "channel"  # Discord: a server's text channel (a slash command, answered to the asker)
    TABLE = "table"  # a group or channel where a hosted table gathers or plays (host mode)
    CONSOLE = "console"  # ``mafia-referee console``
    DM = "dm"  # Discord: a direct message with the bot (no commands: host mode's night-0 relay)


#: The places where a judge records his game: Telegram's private chat, a Discord channel, the console.
DESKS = (Place.DESK, Place.CHANNEL, Place.CONSOLE)


class Part(enum.Enum):
    """Which part of the bot carries a command out."""

    JUDGE = "judge"  # judge mode (bot.judge.controller; the console's session)
    HOST = "host"  # host mode: the bot runs the table (bot.host.controller)
    CLUB = "club"  # the club's players: history, statistics, roster (bot.club.answers)
    TOURNAMENT = "tournament"  # a tournament evening (bot.club.tournament)
    PLATFORM = "platform"  # the platform's own: Telegram's /link, Discord's /seat, /lang, /start
    WEB = "web"  # the table on a screen: its pages' addresses (bot.web.desk)


class Who(enum.Enum):
    """Who may give a command (checked once, by the router, before its part sees it). A part's
    own finer rules stay the part's: the judge controller's "only the judge changes his game",
    host mode's "the speaker" and "the host, who does not play"."""

    ANYONE = "anyone"
    JUDGE = "judge"  # the judge of the game the chat acts on
    ADMIN = "admin"  # the chat's admin (Telegram: its owner or an administrator; Discord: Manage Channels)
    JUDGE_OR_ADMIN = "judge_or_admin"
    JUDGE_OR_SERVER_ADMIN = "judge_or_server_admin"  # Discord: Manage Server (the server's language)
    #: the club's admin when the command gives the chat something to run: a tournament opened
    #: (its chief judge), a table given to host mode (:func:`bot.club.tournament.needs_admin`).
    #: A grant, not a gate: the router finds it (:attr:`bot.front.Call.granted`), the
    #: tournament's desk refuses in its own order (no tournament, not its chief, not an admin)
    ADMIN_TO_OPEN = "admin_to_open"
    #: the chat's admin, unless the game is his or over (``/takeover``)
    ADMIN_TO_TAKE = "admin_to_take"


@dataclass(frozen=True)
class Route:
    """One place where a command works: the part that handles it there and who may give it.

    ``when`` names a condition the router checks (``"host_protocol"``: the chat's last game is
    a hosted table's, :meth:`bot.host.controller.HostController.owns_protocol`); a place may
    have several routes, the first that holds wins. ``platforms``: only there (``"tg"``,
    ``"dc"``; ``None``: wherever the place exists). ``locked``: the part runs it under the lock
    of the chat's game (a tournament's command is not: a table taken over moves its game).
    ``refusal``: the catalog key of the rights' refusal (``{what}`` is the club command's
    ``what``), else the one of :attr:`who`."""

    place: Place
    part: Part
    who: Who = Who.ANYONE
    when: str | None = None
    platforms: frozenset[str] | None = None
    locked: bool = True
    refusal: str | None = None


_Handler = Callable[[str, list[str], str, "rules.GameState | None"], "Command"]


@dataclass(frozen=True)
class Spec:
    """One command: ``name`` (as menus and help list it), ``aliases`` (short forms and the
    Russian words a judge types: «фол 5»), ``parser`` (the arguments → a :data:`Command`,
    :class:`CommandError` when they are not of its form) and ``routes``. ``group_refusal``:
    the catalog key said when it is typed in a group though it is recorded at the judge's desk
    (``/new``: «a new game is started in the private chat, or /newgame here»)."""

    name: str
    aliases: tuple[str, ...]
    parser: _Handler
    routes: tuple[Route, ...]
    group_refusal: str | None = None

    def parse(self, text: str, state: "rules.GameState | None") -> "Command":
        """The line typed (its name already found to be this command) → its command."""
        rest = _rest(text)
        return self.parser(self.name, rest.split(), rest, state)

    def routes_at(self, place: Place, platform: str) -> tuple[Route, ...]:
        """The routes of this command where it is typed, in order."""
        return tuple(r for r in self.routes if r.place is place
                     and (r.platforms is None or platform in r.platforms))

    def places(self, platform: str | None = None) -> tuple[Place, ...]:
        """Where it works (on ``platform``, or anywhere)."""
        out: list[Place] = []
        for r in self.routes:
            if r.place not in out and (platform is None or r.platforms is None or platform in r.platforms):
                out.append(r.place)
        return tuple(out)


_COMMANDS: dict[str, Spec] = {}
_ALIASES: dict[str, str] = {}


def _routes(*places: Place, to: Part = Part.JUDGE, who: Who = Who.ANYONE, **extra: Any) -> tuple[Route, ...]:
    return tuple(Route(place, to, who, **extra) for place in places)


#: the judge's game commands: at his desk, carried out by judge mode
GAME = _routes(*DESKS)
#: at a hosted table, host mode's
AT_TABLE = Route(Place.TABLE, Part.HOST)


def _command(name: str, *aliases: str, at: tuple[Route, ...] = GAME,
             group_refusal: str | None = None) -> Callable[[_Handler], _Handler]:
    def register(handler: _Handler) -> _Handler:
        assert name not in _COMMANDS, name
        _COMMANDS[name] = Spec(name, aliases, handler, at, group_refusal)
        for alias in aliases:
            _ALIASES[alias] = name
        return handler
    return register


def command_names() -> tuple[str, ...]:
    """Every command name (aliases not included), in the order of the help."""
    return tuple(_COMMANDS)


def specs() -> tuple[Spec, ...]:
    """Every command's spec, in the order of the help."""
    return tuple(_COMMANDS.values())


def spec(name: str) -> Spec | None:
    """The command a typed name (``"foul"``, ``"/FOUL@bot"``, ``"фол"``, ``"ф"``…) names, by any
    of its names or aliases (case and ё/е aside), else ``None``."""
    key = name.lstrip("/").split("@", 1)[0].lower()
    key = _ALIASES.get(key, _ALIASES.get(key.replace("ё", "е"), key))
    return _COMMANDS.get(key)


def head(text: str) -> str:
    """The first word of a typed line (the command's name as typed, with its ``/`` and any
    ``@bot``), ``""`` for an empty line."""
    parts = text.strip().split(None, 1)
    return parts[0] if parts else ""


def _rest(text: str) -> str:
    parts = text.strip().split(None, 1)
    return parts[1] if len(parts) > 1 else ""


@_command("new", group_refusal="tg-group-new")
def _new(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    words = tuple(args)
    preset = rules.DEFAULT_PRESET
    first = args[0].lower() if args else "="
    if "=" not in first and first.replace("-", "_") not in option_names():
        if first not in rules.PRESETS:
            raise CommandError("unknown_preset", preset=args[0])
        preset = args.pop(0).lower()
    voice: int | None = None
    voiced: list[str] = []
    for arg in list(args):  # voice=<channel id>: where the game is played (Discord)
        key, sep, value = arg.partition("=")
        if sep and key.lower() == "voice" and value.isdigit():
            voice = int(value)
            args.remove(arg)
            voiced.append(arg)
    options = parse_options(args)
    build_config(preset, options)  # refuse a bad combination now, not at /start
    words = tuple(w for w in words if w not in voiced)
    return NewGame(preset=preset, options=options, words=words, voice=voice)


@_command("name")
def _name(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    _need(cmd, args, 1, "seat")
    seat = _seat(cmd, args[0])
    name = rest.split(None, 1)[1].strip() if len(args) > 1 else ""
    if not name:
        raise CommandError("missing_argument", command=cmd, argument="name")
    names = [part for part in re.split(r"[,;]", name) if part.strip()]
    if len(names) > 1:  # never one seat named «Аня, Боря, Вика»: said, nothing recorded
        raise CommandError("several_names", command=cmd, seat=seat, count=len(names),
                           number=str(seat), next=str(seat % 10 + 1))
    return Act(rules.SetName(seat=seat, name=name))


# D = Don, M = mafia, S/Ш = Sheriff, C/К/Ц (or Cyrillic С, which looks like C) = civilian.
_ROLE_LETTERS: dict[str, str] = {
    "d": "don", "д": "don",
    "m": "mafia", "м": "mafia",
    "s": "sheriff", "ш": "sheriff",
    "c": "civilian", "к": "civilian", "ц": "civilian", "с": "civilian", "r": "civilian",
    "don": "don", "дон": "don", "mafia": "mafia", "мафия": "mafia", "sheriff": "sheriff",
    "шериф": "sheriff", "civilian": "civilian", "мирный": "civilian",
}
_ROLE_ITEM = re.compile(r"([^\W\d_]+)[-:]?#?([0-9]{1,2})")
_UNKNOWN_WORDS = ("unknown", "none", "?", "неизвестны", "нет")


@_command("roles")
def _roles(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """F24 §1.1: the seats of the Don, the mafia and the Sheriff; the rest are civilians. The count
    of each role is checked by the engine (``bad_roles``)."""
    _need(cmd, args, 1, "roles")
    if len(args) == 1 and args[0].lower() in _UNKNOWN_WORDS:
        return Act(rules.SetRoles(roles=(None,) * len(rules.SEATS)))
    roles: list[str] = ["civilian"] * len(rules.SEATS)
    seen: set[int] = set()
    for item in (p for a in args for p in _LIST_SPLIT.split(a) if p):
        match = _ROLE_ITEM.fullmatch(item)
        role = _ROLE_LETTERS.get(match.group(1).lower()) if match else None
        if match is None or role is None:
            raise CommandError("bad_argument", command=cmd, argument=item)
        seat = _seat(cmd, match.group(2))
        if seat in seen:
            raise CommandError("duplicate_seat", command=cmd, seat=seat)
        seen.add(seat)
        roles[seat - 1] = role
    return Act(rules.SetRoles(roles=tuple(roles)))


def _no_args(build: Callable[[], Command]) -> _Handler:
    def handler(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
        _at_most(cmd, args, 0)
        return build()
    return handler


# Telegram's /start is the platform's (the welcome; in a game's setup, the start of night 0)
_command("start", at=(*_routes(Place.DESK, Place.GROUP, to=Part.PLATFORM),
                      Route(Place.TABLE, Part.PLATFORM, platforms=frozenset({"tg"})),
                      *_routes(Place.CHANNEL, Place.CONSOLE)))(_no_args(lambda: Act(rules.StartGame())))
@_command("next", "n", "далее")
def _next(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/next`` ends the current speech, last word or night step. During the shooting the
    judge records it explicitly: his desk refuses a ``/next`` then (:func:`next_in_shooting`)."""
    _at_most(cmd, args, 0)
    return Act(rules.Next())


# the judge's /next at his desk; at a hosted table the speaker's «Пас»: his minute ends
_command("pass", "пас", at=(*GAME, AT_TABLE))(_next)


def next_in_shooting(command: Command, state: rules.GameState | None) -> bool:
    """Whether ``command`` is a ``/next`` typed during the shooting, which the judge records
    explicitly (``/kill``, ``/miss``, ``/shots``): a stray ``/next`` must not become a miss
    (F24 §4.5.5); his desk refuses it (``shooting_first``)."""
    night = state.night if state is not None else None
    return isinstance(command, Act) and isinstance(command.event, rules.Next) \
        and night is not None and night.step is rules.NightStep.SHOOTING


@_command("nominate", "nom", at=(*GAME, AT_TABLE))  # at a table: the speaker's
def _nominate(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/nominate 3 7``: seat 3 nominates 7; ``/nominate 7``: the speaker does (F24 §4.4.2)."""
    _need(cmd, args, 1, "seat")
    _at_most(cmd, args, 2)
    if len(args) == 2:
        return Act(rules.Nominate(by=_seat(cmd, args[0]), target=_seat(cmd, args[1])))
    target = _seat(cmd, args[0])
    return Act(_by_speaker(cmd, state, lambda by: rules.Nominate(by=by, target=target)))


def _by_speaker(cmd: str, state: rules.GameState | None,
                make: Callable[[int], rules.Event]) -> rules.Event:
    """The event ``make`` builds for the current speaker (``/nominate 7``, ``/withdraw``). Nobody
    speaking: ``no_speaker`` (say who: ``/nominate 3 7``) — but in a game over the engine's own
    refusal, which no seat would change."""
    speaker = state.speaker if state is not None else None
    if speaker is not None:
        return make(speaker)
    refusal = rules.check(state, make(1)) if state is not None else None
    if refusal is not None and refusal.code is rules.Code.GAME_OVER:
        raise refusal
    raise CommandError("no_speaker", command=cmd)


@_command("withdraw", "unnominate")
def _withdraw(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/withdraw``: the speaker takes back his nomination; ``/withdraw 3``: seat 3 does
    (MafiaRatings 7.5.1–7.5.2, where the ``nomination_withdrawal`` option allows it)."""
    _at_most(cmd, args, 1)
    if args:
        return Act(rules.WithdrawNomination(by=_seat(cmd, args[0])))
    return Act(_by_speaker(cmd, state, lambda by: rules.WithdrawNomination(by=by)))


@_command("vote")
def _vote(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/vote 7 4``: four hands against #7; ``/vote 7 1,2,3``: these seats voted (F24 §4.4.5)."""
    _need(cmd, args, 1, "seat")
    nominee = _seat(cmd, args[0])
    _need(cmd, args, 2, "count")
    count, voters = _hands(cmd, args[1:])
    return Act(rules.Vote(nominee=nominee, count=count, voters=voters))


@_command("raise")
def _raise(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/raise 6`` or ``/raise 1,2,3,4,5,6``: hands for raising all tied (F24 §4.4.12.3)."""
    _need(cmd, args, 1, "count")
    count, voters = _hands(cmd, args)
    return Act(rules.RaiseVote(count=count, voters=voters))


def _one_seat(make: Callable[[int], rules.Event]) -> _Handler:
    def handler(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
        _need(cmd, args, 1, "seat")
        _at_most(cmd, args, 1)
        return Act(make(_seat(cmd, args[0])))
    return handler


_command("kill")(_one_seat(lambda seat: rules.NightKill(target=seat)))
_command("don")(_one_seat(lambda seat: rules.DonCheck(target=seat)))
_command("sheriff")(_one_seat(lambda seat: rules.SheriffCheck(target=seat)))
_command("unfoul", at=(*GAME, AT_TABLE))(_one_seat(lambda seat: rules.WithdrawFoul(seat=seat)))
_command("miss")(_no_args(lambda: Act(rules.NightKill(target=None))))

_NO_SHOT = ("-", "0", "", "x", "none", "miss")


@_command("shots")
def _shots(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/shots 2:7 5:7 7:7``: each black's shot; ``2:-`` — #2 did not shoot (F24 §4.5.3–4.5.5)."""
    _need(cmd, args, 1, "shots")
    shots: list[tuple[int, int | None]] = []
    for item in (p for a in args for p in _LIST_SPLIT.split(a) if p):
        shooter, sep, target = item.partition(":")
        if not sep:
            shooter, sep, target = item.partition("-")
        if not sep:
            raise CommandError("bad_argument", command=cmd, argument=item)
        shots.append((_seat(cmd, shooter), None if target.lower() in _NO_SHOT else _seat(cmd, target)))
    return Act(rules.Shots(shots=tuple(shots)))


@_command("bestmove", "bm")
def _bestmove(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/bestmove 1 2 3``: up to three seats (F24 §4.5.9, §8.3)."""
    _need(cmd, args, 1, "seat")
    guesses = _seats(cmd, args)
    if len(guesses) > 3:
        raise CommandError("too_many_arguments", command=cmd, argument=str(guesses[3]))
    return Act(rules.BestMove(guesses=guesses))


_TEAM_WORDS: dict[str, str] = {
    "red": "red", "красные": "red", "красная": "red", "мирные": "red",
    "black": "black", "чёрные": "black", "черные": "black", "чёрная": "black", "черная": "black",
    "мафия": "black",
}


def _reasons(state: rules.GameState | None) -> dict[str, rules.Reason]:
    return state.config.reasons if state is not None else rules.REASONS[rules.DEFAULT_PRESET]


def _penalty(severity: Severity, default: str, *, team: bool = False) -> _Handler:
    """Seed IV: ``/warn``, ``/foul``, ``/dq``, ``/ppk`` with an optional reason code. A reason of
    another severity is refused here, so ``/warn 5 4.2.7`` cannot disqualify by mistake; an unknown
    code is left to the engine (``unknown_reason``)."""

    def handler(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
        _need(cmd, args, 1, "seat")
        seat = _seat(cmd, args[0])
        reason, side, given = default, None, False
        for arg in args[1:]:
            word = arg.lower()
            if team and word in _TEAM_WORDS:
                if side is not None:
                    raise CommandError("too_many_arguments", command=cmd, argument=arg)
                side = _TEAM_WORDS[word]
            elif not given:
                reason, given = word, True
            elif team and side is None:  # after the reason only the team may follow
                raise CommandError("bad_team", command=cmd, argument=arg)
            else:
                raise CommandError("too_many_arguments", command=cmd, argument=arg)
        reasons = _reasons(state)
        known = reasons.get(reason)
        if known is None and state is not None and severity is Severity.TECHNICAL \
                and not state.config.technical_fouls:  # not an unknown code: none of its kind
            raise CommandError("no_technical_fouls", command=cmd)
        if known is None and state is not None:  # the game's own codes, listed
            raise CommandError("unknown_reason", command=cmd, reason=reason,
                               codes=reason_codes(reasons, severity))
        if known is not None and known.severity is not severity:
            raise CommandError("wrong_reason", command=cmd, reason=reason)
        return Act(rules.Penalty(seat=seat, reason=reason, team=side))

    return handler


def reason_codes(reasons: dict[str, rules.Reason], severity: Severity | None = None) -> str:
    """The reason codes of a preset (``config.reasons``) that a penalty of ``severity`` takes
    (all of them with ``None``), in the rules' order: ``4.1.1, 4.1.2, …``; the words (``foul``,
    ``dq`` …) last."""
    def order(code: str) -> tuple[int, tuple[int, ...], str]:
        numbers = tuple(int(part) for part in code.split(".")) if _NUMBERED.fullmatch(code) else ()
        return (0 if numbers else 1, numbers, code)

    codes = [code for code, reason in reasons.items() if severity is None or reason.severity is severity]
    return ", ".join(sorted(codes, key=order))


_NUMBERED = re.compile(r"[0-9]+(?:\.[0-9]+)+")

# each penalty command's reason when none is typed: the generic code of its severity (seed IV)
_DEFAULT_REASONS = {"foul": "foul", "warn": "warning", "dq": "dq", "ppk": "ppk", "tech": "tech"}
# at a hosted table the host's (seed IV): the host who opened it, or a chat admin, not playing
_command("foul", "f", at=(*GAME, AT_TABLE))(_penalty(Severity.FOUL, _DEFAULT_REASONS["foul"]))
_command("warn", "warning", at=(*GAME, AT_TABLE))(_penalty(Severity.WARNING, _DEFAULT_REASONS["warn"]))
_command("dq", at=(*GAME, AT_TABLE))(_penalty(Severity.DISQUALIFYING, _DEFAULT_REASONS["dq"]))
_command("ppk", at=(*GAME, AT_TABLE))(_penalty(Severity.TEAM_LOSS, _DEFAULT_REASONS["ppk"], team=True))
# MafiaRatings 9.6.2 (technical_fouls)
_command("tech")(_penalty(Severity.TECHNICAL, _DEFAULT_REASONS["tech"]))

_RESULT_WORDS: dict[str, str] = {**_TEAM_WORDS, "draw": "draw", "ничья": "draw"}


@_command("result")
def _result(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/result red|black|draw`` declares the end (roles unknown); ``/result`` alone shows it."""
    if not args:
        return Show("result")
    _at_most(cmd, args, 1)
    if state is not None and state.phase is rules.Phase.GAME_OVER:
        raise CommandError("result_known", command=cmd)  # F24 §1.4: the game is decided
    winner = _RESULT_WORDS.get(args[0].lower())
    if winner is None:
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    return Act(rules.DeclareResult(winner=winner))


@_command("undo", "u")
def _undo(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    _at_most(cmd, args, 1)
    if not args:
        return UndoCmd(1)
    if not re.fullmatch(r"[0-9]+", args[0]):
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    steps = int(args[0])
    if not 1 <= steps <= MAX_UNDO:
        raise CommandError("bad_undo", command=cmd, argument=args[0], limit=MAX_UNDO)
    return UndoCmd(steps)


_APPROVED = ("+", "approved", "согласовано", "approval")


@_command("extra", "bonus", "доп")
def _extra(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/extra 3 0.4``: the judge's extra points for seat 3 after the result (F24/S24 §8.4);
    ``0`` takes them back; a trailing ``+`` says the chief judge approved more."""
    _need(cmd, args, 1, "seat")
    seat = _seat(cmd, args[0])
    _need(cmd, args, 2, "points")
    _at_most(cmd, args, 3)
    approved = len(args) == 3
    if approved and args[2].lower() not in _APPROVED:
        raise CommandError("bad_argument", command=cmd, argument=args[2])
    return Act(rules.Extra(seat=seat, points=args[1], approved=approved))


@_command("badplay", "penaltypoints", "штраф")
def _badplay(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/badplay 3 8.5.2``: the penalty points of a listed bad play (F24/S24 §8.5, the
    preset's item number); ``/badplay 3 -8.5.2`` takes them back."""
    _need(cmd, args, 1, "seat")
    seat = _seat(cmd, args[0])
    _need(cmd, args, 2, "item")
    _at_most(cmd, args, 2)
    item = args[1]
    withdraw = item.startswith(("-", "−"))
    return Act(rules.BadPlay(seat=seat, item=item.lstrip("-−"), withdraw=withdraw))


@_command("fix")
def _fix(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/fix 12 /foul 5 4.1.1``: action 12 (``/log all``) is corrected into ``/foul 5 4.1.1``."""
    _need(cmd, args, 1, "action")
    seq = _int(args[0].lstrip("#№"))
    if seq is None or seq < 1:
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    _need(cmd, args, 2, "command")
    return FixCmd(seq=seq, text=rest.split(None, 1)[1].strip())


_TIMER_WORDS = {"pause": "pause", "пауза": "pause", "resume": "resume", "продолжить": "resume",
                "next": "next", "дальше": "next"}


@_command("timer", "t")
def _timer(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/timer``: what is left; ``/timer pause|resume``; ``/timer next``: the step's next part."""
    _at_most(cmd, args, 1)
    if not args:
        return TimerCmd()
    what = _TIMER_WORDS.get(args[0].lower())
    if what is None:
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    return TimerCmd(what)


# in a group the linked game's public status; at a hosted table the table's
_command("status", "s", at=(*GAME, Route(Place.GROUP, Part.JUDGE), AT_TABLE))(
    _no_args(lambda: Show("status")))
_command("points", "баллы")(_no_args(lambda: Show("points")))
# in a group or a channel: host mode's when the chat's last game was a hosted table's
_HOST_PROTOCOL = Route(Place.GROUP, Part.HOST, when="host_protocol")
_command("protocol", "протокол", at=(
    Route(Place.DESK, Part.JUDGE), Route(Place.CONSOLE, Part.JUDGE),
    _HOST_PROTOCOL, Route(Place.GROUP, Part.JUDGE),
    dataclasses.replace(_HOST_PROTOCOL, place=Place.CHANNEL), Route(Place.CHANNEL, Part.JUDGE),
    AT_TABLE))(_no_args(lambda: Show("protocol")))
#: /rule and /why: anyone, anywhere (in a group and at a table, what the whole table may know)
EXPLAIN_ROUTES = (*GAME, Route(Place.GROUP, Part.JUDGE), AT_TABLE)
_command("why", "почему", at=EXPLAIN_ROUTES)(_no_args(lambda: Explain("why")))


@_command("rule", "правило", at=EXPLAIN_ROUTES)
def _rule(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/rule 5.7``, ``/rule draw``: what a rule says; ``/rule``: the numbers there are."""
    _at_most(cmd, args, 2)  # a number, or a word or two: /rule лучший ход
    return Explain("rule", " ".join(args))


@_command("log")
def _log(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/log``: the game as announced; ``/log all``: the audit trail."""
    _at_most(cmd, args, 1)
    if not args:
        return Show("log")
    if args[0].lower() not in ("all", "все", "всё"):
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    return Show("log_all")


# in a Telegram group its own help (what the group does: /link, /newgame, /status)
_command("help", "h", "?", at=(*GAME, Route(Place.GROUP, Part.PLATFORM),
                               Route(Place.TABLE, Part.PLATFORM, platforms=frozenset({"tg"}))))(
    _no_args(lambda: Show("help")))

#: The club's commands (issue 17): the history and statistics of its players, its roster, and
#: a tournament evening's (:data:`TOURNAMENT_COMMANDS`).
CLUB_COMMANDS = ("games", "stats", "top", "rating", "evening", "seating", "roster", "rename", "merge",
                 "forget", "tournament", "table")
TOURNAMENT_COMMANDS = ("tournament", "table")


def _club(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    return ClubCmd(cmd, tuple(args), rest.strip())


#: anywhere: at a desk the club of the judge's game (its group) or of the chat itself; in a
#: group, a channel or at a table, that chat's club
_CLUB_ROUTES = _routes(*DESKS, Place.GROUP, Place.TABLE, to=Part.CLUB)
#: a tournament's commands: in a group (or at a table) without the chat's lock — a table taken
#: over moves its game into the chief judge's own chat; opening one needs the chat's admin
_TOURNAMENT_ROUTES = (
    *_routes(Place.DESK, Place.CHANNEL, to=Part.TOURNAMENT, who=Who.ADMIN_TO_OPEN),
    *_routes(Place.GROUP, Place.TABLE, Place.CONSOLE, to=Part.TOURNAMENT, who=Who.ADMIN_TO_OPEN,
             locked=False))
for _club_name in CLUB_COMMANDS:
    _command(_club_name, at=_TOURNAMENT_ROUTES if _club_name in TOURNAMENT_COMMANDS
             else _CLUB_ROUTES)(_club)
# the club's own rules (issue 31): what /new and /newgame start with there; its admin's
_command("settings", "настройки", at=_routes(Place.GROUP, Place.CHANNEL, Place.TABLE, Place.CONSOLE,
                                             to=Part.CLUB, who=Who.ADMIN,
                                             refusal="club-settings-admin-only"))(_club)
# the console's; a bot's chat has nothing to quit (said at Telegram's desk; no Discord command)
_command("quit", "exit", "q", at=_routes(Place.DESK, Place.CONSOLE))(_no_args(lambda: Quit()))


@_command("lang", at=(
    *_routes(Place.DESK, Place.CONSOLE, to=Part.PLATFORM),
    *_routes(Place.GROUP, Place.TABLE, to=Part.PLATFORM, who=Who.JUDGE_OR_ADMIN,
             refusal="front-lang-not-allowed", platforms=frozenset({"tg"})),
    *_routes(Place.CHANNEL, Place.TABLE, to=Part.PLATFORM, who=Who.JUDGE_OR_SERVER_ADMIN,
             refusal="front-lang-not-allowed", platforms=frozenset({"dc"}))))
def _lang(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    _need(cmd, args, 1, "lang")
    _at_most(cmd, args, 1)
    lang = args[0].lower()
    if lang not in LANGS:
        raise CommandError("unknown_lang", lang=args[0])
    return SetLang(lang)


# --- host mode's and the platforms' own commands ----------------------------------------------

_OFF_WORDS = ("off", "нет", "-")


@_command("newgame", "новаяигра", at=_routes(Place.GROUP, Place.CHANNEL, Place.TABLE, to=Part.HOST))
def _newgame(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    return NewTable(tuple(args))


_command("stop", at=(AT_TABLE,))(_no_args(lambda: StopTable()))


@_command("join", at=(AT_TABLE,))
def _join(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    return JoinSeat(rest.strip())


@_command("channel", at=_routes(Place.GROUP, Place.CHANNEL, Place.TABLE, to=Part.PLATFORM,
                                who=Who.ADMIN, refusal="front-channel-admin-only"))
def _channel(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    _at_most(cmd, args, 1)
    if not args:
        return SetChannel()
    return SetChannel("off" if args[0].lower() in _OFF_WORDS else args[0])


_ID = re.compile(r"[0-9]{1,20}")  # a Discord snowflake


def _id(command: str, text: str) -> int:
    if not _ID.fullmatch(text):
        raise CommandError("bad_argument", command=command, argument=text)
    return int(text)


# Telegram: the judge's /link in the group (he needs a game of his own to link: the platform
# says so); Discord: the judge's club channel
@_command("link", at=(Route(Place.GROUP, Part.PLATFORM),
                      Route(Place.CHANNEL, Part.PLATFORM, Who.JUDGE)))
def _link(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    return Link(_id(cmd, args[0]) if args else None)


_command("unlink", at=_routes(Place.GROUP, Place.CHANNEL, to=Part.PLATFORM, who=Who.JUDGE))(
    _no_args(lambda: Unlink()))
# the platform moves the game: Telegram into the new judge's private chat; no lock held — the
# take over takes the locks of both homes itself
_command("takeover", at=_routes(Place.GROUP, Place.CHANNEL, to=Part.JUDGE, who=Who.ADMIN_TO_TAKE,
                                refusal="front-takeover-admin-only", locked=False))(
    _no_args(lambda: TakeOver()))
_command("panel", at=(Route(Place.CHANNEL, Part.PLATFORM, Who.JUDGE),))(_no_args(lambda: ShowPanel()))


_STREAM_WORDS = {"new": "new", "новые": "new", "новая": "new", "delay": "delay",
                 "задержка": "delay", "tournament": "tournament", "турнир": "tournament"}
MAX_STREAM_DELAY = 6 * 3600  # seconds: the broadcast's delay at most (storage.web.MAX_DELAY)


# the table's pages: the judge at his desk; in a group or a channel its judge or admin; at a
# hosted table the chat's admin (host mode's tables have no judge of their own)
@_command("stream", "трансляция", at=(
    Route(Place.DESK, Part.WEB), *_routes(Place.GROUP, Place.CHANNEL, to=Part.WEB, who=Who.JUDGE_OR_ADMIN),
    Route(Place.TABLE, Part.WEB, Who.ADMIN)))
def _stream(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    """``/stream``, ``/stream new``, ``/stream delay 300``, ``/stream tournament``."""
    _at_most(cmd, args, 2)
    if not args:
        return StreamCmd()
    what = _STREAM_WORDS.get(args[0].lower())
    if what is None:
        raise CommandError("bad_argument", command=cmd, argument=args[0])
    if what != "delay":
        _at_most(cmd, args, 1)
        return StreamCmd(what)
    _need(cmd, args, 2, "seconds")
    seconds = _int(args[1], _SECONDS)
    if seconds is None or seconds > MAX_STREAM_DELAY:
        raise CommandError("bad_argument", command=cmd, argument=args[1])
    return StreamCmd("delay", seconds)


@_command("seat", at=(Route(Place.CHANNEL, Part.PLATFORM, Who.JUDGE),))
def _seat_member(cmd: str, args: list[str], rest: str, state: rules.GameState | None) -> Command:
    _need(cmd, args, 1, "seat")
    _at_most(cmd, args, 2)
    return MapSeat(_seat(cmd, args[0]), _id(cmd, args[1]) if len(args) > 1 else None)


# --- an event as the command that records it -------------------------------------------------

def _seat_list(seats: tuple[int, ...]) -> str:
    return ",".join(str(s) for s in seats) + ("," if len(seats) == 1 else "")


def command_text(event: rules.Event, config: RulesConfig | None = None) -> str:
    """The typed command that records ``event`` (the inverse of :func:`parse`, in its full form:
    ``Penalty(5, "4.1.1")`` → ``/foul 5 4.1.1``, ``Nominate(3, 7)`` → ``/nominate 3 7``), for
    the audit trail and ``/fix``; a penalty's command follows its reason's severity in
    ``config``'s preset (seed 4.1.8 is a foul, a disqualifying foul under fsm2024) and leaves
    out the command's own generic reason (``Penalty(5)`` → ``/foul 5``); a correction as its
    ``/fix 12 …``. An event no command makes (an undo) is named by its type."""
    match event:
        case rules.SetName(seat=seat, name=name):
            return f"/name {seat} {name}"
        case rules.SetRoles(roles=roles):
            if all(r is None for r in roles):
                return "/roles unknown"
            letters = {"don": "D", "mafia": "M", "sheriff": "S"}
            return "/roles " + " ".join(f"{letters[r]}{n}" for n, r in enumerate(roles, 1)
                                        if r in letters)
        case rules.StartGame():
            return "/start"
        case rules.Next():
            return "/next"
        case rules.Nominate(by=by, target=target):
            return f"/nominate {by} {target}"
        case rules.WithdrawNomination(by=by):
            return f"/withdraw {by}"
        case rules.Vote(nominee=nominee, count=count, voters=voters):
            return f"/vote {nominee} {count if count is not None else _seat_list(voters)}"
        case rules.RaiseVote(count=count, voters=voters):
            return f"/raise {count if count is not None else _seat_list(voters)}"
        case rules.NightKill(target=target):
            return "/miss" if target is None else f"/kill {target}"
        case rules.Shots(shots=shots):
            return "/shots " + " ".join(f"{a}:{'-' if b is None else b}" for a, b in shots)
        case rules.DonCheck(target=target):
            return f"/don {target}"
        case rules.SheriffCheck(target=target):
            return f"/sheriff {target}"
        case rules.BestMove(guesses=guesses):
            return "/bestmove " + " ".join(str(g) for g in guesses)
        case rules.Penalty(seat=seat, reason=reason, team=team):
            known = (config or RulesConfig()).reasons.get(reason)
            name = "tech" if reason == "tech" else (
                _SEVERITY_COMMANDS[known.severity] if known is not None else "foul")
            shown = None if _DEFAULT_REASONS.get(name) == reason else reason
            return " ".join(str(p) for p in (f"/{name}", seat, shown, team) if p)
        case rules.WithdrawFoul(seat=seat):
            return f"/unfoul {seat}"
        case rules.DeclareResult(winner=winner):
            return f"/result {winner}"
        case rules.Fix(seq=seq, event=replacement):  # as typed: /fix 12 /foul 5 4.1.1
            return f"/fix {seq} {command_text(replacement, config)}"
    return event.type


# /warn, /foul, /dq, /ppk, /tech by the reason's severity (seed IV)
_SEVERITY_COMMANDS = {Severity.WARNING: "warn", Severity.FOUL: "foul", Severity.DISQUALIFYING: "dq",
                      Severity.TEAM_LOSS: "ppk", Severity.TECHNICAL: "tech"}


# --- /new options ---------------------------------------------------------------------------

_TRUE = ("true", "yes", "on", "1", "да")
_FALSE = ("false", "no", "off", "0", "нет")
_OPTION_FIELDS = {f.name: f for f in dataclasses.fields(RulesConfig) if f.name not in ("preset", "timers")}
_TIMER_FIELDS = {f.name for f in dataclasses.fields(rules.Timers)}
_ENUMS: dict[str, type[enum.Enum]] = {
    "FirstDayVote": rules.FirstDayVote, "ThirdFoul": rules.ThirdFoul,
    "DrawDeclared": rules.DrawDeclared, "RevoteOrder": rules.RevoteOrder,
    "Rotation": rules.Rotation, "NominationWithdrawal": rules.NominationWithdrawal,
}
#: ``mafiaratings=CODE``: a club's MafiaRatings rules code (include/rules.php, 13 digits) sets
#: the options its digits name, in the order typed (an option typed after it overrides it).
MAFIARATINGS_OPTION = "mafiaratings"
MAX_TIMER = 600  # seconds


def option_names() -> tuple[str, ...]:
    """Every ``/new`` option name (timers as ``timers.<name>``; ``mafiaratings`` for a club's
    MafiaRatings rules code)."""
    return (*_OPTION_FIELDS, *(f"timers.{t}" for t in sorted(_TIMER_FIELDS)), MAFIARATINGS_OPTION)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["raise_vote=no", "timers.speech=45"]`` → ``{"raise_vote": False, "timers": {"speech": 45}}``
    (bools true/false/yes/no, ints, enum values by name; docs/rules.md §10 lists the options);
    ``mafiaratings=0002000010000`` → the options of that MafiaRatings rules code."""
    options: dict[str, Any] = {}
    seen: set[str] = set()
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().lower().replace("-", "_")
        raw = raw.strip()
        if not sep or not key:
            raise CommandError("bad_argument", command="new", argument=item)
        if key in seen:  # which of the two values was meant? say so rather than guess
            raise CommandError("duplicate_option", option=key)
        seen.add(key)
        if key == MAFIARATINGS_OPTION:
            try:
                options.update(code_options(raw))
            except RecordError:
                raise CommandError("bad_option_value", option=key, value=raw) from None
            continue
        if key.startswith("timers."):
            name = key.removeprefix("timers.")
            if name not in _TIMER_FIELDS:
                raise CommandError("unknown_option", option=key)
            value = _int(raw)
            if value is None or value > MAX_TIMER:
                raise CommandError("bad_option_value", option=key, value=raw)
            options.setdefault("timers", {})[name] = value
            continue
        f = _OPTION_FIELDS.get(key)
        if f is None:
            raise CommandError("unknown_option", option=key)
        options[key] = _option_value(key, str(f.type), raw)
    return options


def _option_value(key: str, kind: str, raw: str) -> Any:
    word = raw.lower()
    if kind == "bool":
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    elif kind == "int":
        value = _int(raw)
        if value is not None:
            return value
    elif kind in _ENUMS:
        values = {m.value for m in _ENUMS[kind]}
        if word.replace("-", "_") in values:
            return word.replace("-", "_")
    raise CommandError("bad_option_value", option=key, value=raw)


def build_config(preset: str, options: dict[str, Any]) -> RulesConfig:
    """The preset with ``options``; changed timers keep the preset's other timers."""
    if preset not in rules.PRESETS:
        raise CommandError("unknown_preset", preset=preset)
    base = rules.PRESETS[preset]
    opts = dict(options)
    if "timers" in opts:
        opts["timers"] = {**dataclasses.asdict(base.timers), **opts["timers"]}
    try:
        return base.with_options(**opts)
    except (ValueError, TypeError) as error:
        raise CommandError("bad_option_value", option=", ".join(sorted(options)), value=str(error)) from None


#: The Russian words a judge types for the commands (the first word of a line, with or without
#: «/»; ё or е alike): «дальше», «фол 5», «голос 7 4» … Each names one command; the English
#: names and their short forms stay.
RUSSIAN_WORDS: dict[str, str] = {
    "новая": "new", "имя": "name", "роли": "roles", "старт": "start", "начать": "start",
    "дальше": "next", "далее": "next", "спасибо": "next",
    "выставить": "nominate", "выставляю": "nominate", "кандидатура": "nominate",
    "отозвать": "withdraw", "голос": "vote", "голоса": "vote", "голосование": "vote",
    "подъём": "raise", "подъем": "raise", "выстрелы": "shots", "убийство": "kill",
    "промах": "miss", "дон": "don", "шериф": "sheriff", "лх": "bestmove", "лучший": "bestmove",
    "фол": "foul", "предупреждение": "warn", "дисквалификация": "dq", "дк": "dq", "ппк": "ppk",
    "тех": "tech", "снять": "unfoul", "итог": "result", "результат": "result", "отмена": "undo",
    "отменить": "undo", "статус": "status", "журнал": "log", "помощь": "help", "справка": "help",
    "язык": "lang", "выход": "quit",
    "игры": "games", "статистика": "stats", "стата": "stats", "топ": "top", "рейтинг": "rating",
    "вечер": "evening", "рассадка": "seating",
    "состав": "roster",
    "переименовать": "rename", "объединить": "merge", "забыть": "forget",
}
for _word, _target in RUSSIAN_WORDS.items():
    assert _target in _COMMANDS, _target
    _ALIASES.setdefault(_word, _target)


# --- the parser -----------------------------------------------------------------------------

def parse(text: str, state: rules.GameState | None) -> Command:
    """One typed line → a :data:`Command`, or :class:`CommandError`.

    ``state`` (the game now, or ``None``) fills what the line leaves out: ``/nominate 7`` uses
    the current speaker, and the penalty reasons come from the game's preset."""
    return parse_as(find(text), text, state)


def find(text: str) -> Spec:
    """The command a typed line names (:func:`spec` of its first word); :class:`CommandError`
    for a line too long, an empty one, or a name no command has."""
    if len(text) > MAX_INPUT:
        raise CommandError("too_long", length=len(text), limit=MAX_INPUT)
    first = head(text)
    if not first:
        raise CommandError("empty_command")
    found = spec(first)
    if found is None:
        raise CommandError("unknown_command", command=first)
    return found


def parse_as(found: Spec, text: str, state: rules.GameState | None) -> Command:
    """``text`` read as the command ``found`` (:func:`find`) names, with ``state`` as in
    :func:`parse`."""
    return found.parse(text, state)
