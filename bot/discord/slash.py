"""The slash commands: the judge's command language of the console and Telegram
(:mod:`bot.commands`) with Discord's typed options, plus the commands only a server needs.

Each game command keeps its name and its arguments' order; its options are joined back into the
typed line and parsed by :func:`bot.commands.parse`, so ``/foul seat:4 reason:4.1.3`` becomes the
same :class:`bot.commands.Act` as the typed ``/foul 4 4.1.3`` — one parser, one meaning. Seats
are integers 1–10 (Discord refuses anything else before the bot sees it); lists stay text, as
typed: ``/vote nominee:7 hands:1,2,3``, ``/shots shots:2:7 5:7``, ``/roles roles:D2 M5 M7 S8``.

Discord-only: ``/panel`` (the judge's panel afresh in his direct messages), ``/link`` and
``/unlink`` (a club channel for the results), ``/seat`` (a seat's member, for timeouts), and
``/takeover``. Every command works in a server's text channel only (the channel is the game's).

Descriptions come from the catalogs: English by default, Russian for Russian clients
(:class:`CatalogTranslator`); command and option names are never translated.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

import discord
from discord import app_commands
from discord.app_commands import Range, locale_str

from ..i18n import catalog

Seat = Range[int, 1, 10]
Preset = Literal["seed", "fiim2024", "fsm2024"]
Team = Literal["red", "black"]
Winner = Literal["red", "black", "draw"]
Lang = Literal["ru", "en"]
Hands = Range[str, 1, 40]
Reason = Range[str, 1, 12]
Seats = Range[str, 1, 40]
Text = Range[str, 1, 100]

_DEFAULT = catalog("en")


def _desc(name: str) -> locale_str:
    """A command's description: the English text, its catalog key riding along."""
    key = f"dc-cmd-{name}"
    return locale_str(_DEFAULT.text(f"dc-cmd-{name}"), key=key)


def _arg(name: str) -> locale_str:
    key = f"dc-arg-{name}"
    return locale_str(_DEFAULT.text(f"dc-arg-{name}"), key=key)


def line(name: str, *parts: object) -> str:
    """The typed line of a command: its name and the options given, in the typed order."""
    return " ".join([f"/{name}", *(str(p).strip() for p in parts if p is not None and str(p).strip())])


async def _run(interaction: discord.Interaction[Any], name: str, *parts: object) -> None:
    referee = getattr(interaction.client, "referee", None)
    if referee is not None:
        await referee.slash(interaction, line(name, *parts))


# --- the game commands (bot/commands.py) -------------------------------------------------------

@app_commands.command(name="new", description=_desc("new"))
@app_commands.describe(preset=_arg("preset"), options=_arg("options"), voice=_arg("voice"))
async def new(interaction: discord.Interaction[Any], preset: Optional[Preset] = None,
              options: Optional[Range[str, 1, 400]] = None,
              voice: Optional[discord.VoiceChannel] = None) -> None:
    await _run(interaction, "new", preset, options, f"voice={voice.id}" if voice else None)


@app_commands.command(name="name", description=_desc("name"))
@app_commands.describe(seat=_arg("seat"), name=_arg("name"))
async def name(interaction: discord.Interaction[Any], seat: Seat, name: Range[str, 1, 64]) -> None:
    await _run(interaction, "name", seat, name)


@app_commands.command(name="roles", description=_desc("roles"))
@app_commands.describe(roles=_arg("roles"))
async def roles(interaction: discord.Interaction[Any], roles: Text) -> None:
    await _run(interaction, "roles", roles)


@app_commands.command(name="start", description=_desc("start"))
async def start(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "start")


@app_commands.command(name="next", description=_desc("next"))
async def next_(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "next")


@app_commands.command(name="nominate", description=_desc("nominate"))
@app_commands.describe(target=_arg("target"), by=_arg("by"))
async def nominate(interaction: discord.Interaction[Any], target: Seat, by: Optional[Seat] = None) -> None:
    await _run(interaction, "nominate", by, target)


@app_commands.command(name="withdraw", description=_desc("withdraw"))
@app_commands.describe(by=_arg("by"))
async def withdraw(interaction: discord.Interaction[Any], by: Optional[Seat] = None) -> None:
    await _run(interaction, "withdraw", by)


@app_commands.command(name="vote", description=_desc("vote"))
@app_commands.describe(nominee=_arg("nominee"), hands=_arg("hands"))
async def vote(interaction: discord.Interaction[Any], nominee: Seat, hands: Hands) -> None:
    await _run(interaction, "vote", nominee, hands)


@app_commands.command(name="raise", description=_desc("raise"))
@app_commands.describe(hands=_arg("hands"))
async def raise_(interaction: discord.Interaction[Any], hands: Hands) -> None:
    await _run(interaction, "raise", hands)


@app_commands.command(name="kill", description=_desc("kill"))
@app_commands.describe(seat=_arg("seat"))
async def kill(interaction: discord.Interaction[Any], seat: Seat) -> None:
    await _run(interaction, "kill", seat)


@app_commands.command(name="miss", description=_desc("miss"))
async def miss(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "miss")


@app_commands.command(name="shots", description=_desc("shots"))
@app_commands.describe(shots=_arg("shots"))
async def shots(interaction: discord.Interaction[Any], shots: Text) -> None:
    await _run(interaction, "shots", shots)


@app_commands.command(name="don", description=_desc("don"))
@app_commands.describe(seat=_arg("seat"))
async def don(interaction: discord.Interaction[Any], seat: Seat) -> None:
    await _run(interaction, "don", seat)


@app_commands.command(name="sheriff", description=_desc("sheriff"))
@app_commands.describe(seat=_arg("seat"))
async def sheriff(interaction: discord.Interaction[Any], seat: Seat) -> None:
    await _run(interaction, "sheriff", seat)


@app_commands.command(name="bestmove", description=_desc("bestmove"))
@app_commands.describe(seats=_arg("seats"))
async def bestmove(interaction: discord.Interaction[Any], seats: Seats) -> None:
    await _run(interaction, "bestmove", seats)


@app_commands.command(name="foul", description=_desc("foul"))
@app_commands.describe(seat=_arg("seat"), reason=_arg("reason"))
async def foul(interaction: discord.Interaction[Any], seat: Seat, reason: Optional[Reason] = None) -> None:
    await _run(interaction, "foul", seat, reason)


@app_commands.command(name="warn", description=_desc("warn"))
@app_commands.describe(seat=_arg("seat"), reason=_arg("reason"))
async def warn(interaction: discord.Interaction[Any], seat: Seat, reason: Optional[Reason] = None) -> None:
    await _run(interaction, "warn", seat, reason)


@app_commands.command(name="dq", description=_desc("dq"))
@app_commands.describe(seat=_arg("seat"), reason=_arg("reason"))
async def dq(interaction: discord.Interaction[Any], seat: Seat, reason: Optional[Reason] = None) -> None:
    await _run(interaction, "dq", seat, reason)


@app_commands.command(name="ppk", description=_desc("ppk"))
@app_commands.describe(seat=_arg("seat"), reason=_arg("reason"), team=_arg("team"))
async def ppk(interaction: discord.Interaction[Any], seat: Seat, reason: Optional[Reason] = None,
              team: Optional[Team] = None) -> None:
    await _run(interaction, "ppk", seat, reason, team)


@app_commands.command(name="tech", description=_desc("tech"))
@app_commands.describe(seat=_arg("seat"))
async def tech(interaction: discord.Interaction[Any], seat: Seat) -> None:
    await _run(interaction, "tech", seat)


@app_commands.command(name="unfoul", description=_desc("unfoul"))
@app_commands.describe(seat=_arg("seat"))
async def unfoul(interaction: discord.Interaction[Any], seat: Seat) -> None:
    await _run(interaction, "unfoul", seat)


@app_commands.command(name="result", description=_desc("result"))
@app_commands.describe(winner=_arg("winner"))
async def result(interaction: discord.Interaction[Any], winner: Optional[Winner] = None) -> None:
    await _run(interaction, "result", winner)


@app_commands.command(name="extra", description=_desc("extra"))
@app_commands.describe(seat=_arg("seat"), points=_arg("points"), approved=_arg("approved"))
async def extra(interaction: discord.Interaction[Any], seat: Seat, points: Range[str, 1, 8],
                approved: Optional[bool] = None) -> None:
    await _run(interaction, "extra", seat, points, "+" if approved else None)


@app_commands.command(name="badplay", description=_desc("badplay"))
@app_commands.describe(seat=_arg("seat"), item=_arg("item"))
async def badplay(interaction: discord.Interaction[Any], seat: Seat, item: Reason) -> None:
    await _run(interaction, "badplay", seat, item)


@app_commands.command(name="points", description=_desc("points"))
async def points(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "points")


@app_commands.command(name="rule", description=_desc("rule"))
@app_commands.describe(rule=_arg("rule"))
async def rule(interaction: discord.Interaction[Any], rule: Optional[Range[str, 1, 30]] = None) -> None:
    await _run(interaction, "rule", rule)


@app_commands.command(name="why", description=_desc("why"))
async def why(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "why")


@app_commands.command(name="undo", description=_desc("undo"))
@app_commands.describe(steps=_arg("steps"))
async def undo(interaction: discord.Interaction[Any], steps: Optional[Range[int, 1, 100]] = None) -> None:
    await _run(interaction, "undo", steps)


@app_commands.command(name="fix", description=_desc("fix"))
@app_commands.describe(action=_arg("action"), command=_arg("command"))
async def fix(interaction: discord.Interaction[Any], action: Range[int, 1, 100_000],
              command: Range[str, 1, 200]) -> None:
    await _run(interaction, "fix", action, command)


@app_commands.command(name="timer", description=_desc("timer"))
@app_commands.describe(action=_arg("timer-action"))
async def timer(interaction: discord.Interaction[Any],
                action: Optional[Literal["pause", "resume", "next"]] = None) -> None:
    await _run(interaction, "timer", action)


@app_commands.command(name="status", description=_desc("status"))
async def status(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "status")


@app_commands.command(name="log", description=_desc("log"))
@app_commands.describe(scope=_arg("scope"))
async def log_(interaction: discord.Interaction[Any], scope: Optional[Literal["all"]] = None) -> None:
    await _run(interaction, "log", scope)


@app_commands.command(name="help", description=_desc("help"))
async def help_(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "help")


@app_commands.command(name="lang", description=_desc("lang"))
@app_commands.describe(lang=_arg("lang"))
async def lang(interaction: discord.Interaction[Any], lang: Lang) -> None:
    await _run(interaction, "lang", lang)


# --- the club's players across games (issue 17) --------------------------------------------------

@app_commands.command(name="games", description=_desc("games"))
@app_commands.describe(count=_arg("count"))
async def games(interaction: discord.Interaction[Any], count: Optional[Range[int, 1, 50]] = None) -> None:
    await _run(interaction, "games", count)


@app_commands.command(name="stats", description=_desc("stats"))
@app_commands.describe(player=_arg("player"), period=_arg("period"))
async def stats(interaction: discord.Interaction[Any], player: Optional[Range[str, 1, 64]] = None,
                period: Optional[Range[str, 1, 30]] = None) -> None:
    await _run(interaction, "stats", player, period)


@app_commands.command(name="top", description=_desc("top"))
@app_commands.describe(period=_arg("period"), order=_arg("order"), role=_arg("role"),
                       least=_arg("least"))
async def top(interaction: discord.Interaction[Any], period: Optional[Range[str, 1, 30]] = None,
              order: Optional[Literal["points", "wins", "winrate"]] = None,
              role: Optional[Literal["civilian", "sheriff", "mafia", "don"]] = None,
              least: Optional[Range[int, 0, 1000]] = None) -> None:
    await _run(interaction, "top", period, order, role, f"min={least}" if least is not None else None)


@app_commands.command(name="rating", description=_desc("rating"))
@app_commands.describe(period=_arg("period"), scheme=_arg("scheme"), least=_arg("least"))
async def rating(interaction: discord.Interaction[Any], period: Optional[Range[str, 1, 30]] = None,
                 scheme: Optional[Literal["fiim", "fsm"]] = None,
                 least: Optional[Range[int, 0, 1000]] = None) -> None:
    await _run(interaction, "rating", period, scheme, f"min={least}" if least is not None else None)


@app_commands.command(name="evening", description=_desc("evening"))
@app_commands.describe(action=_arg("evening-action"), start=_arg("evening-start"),
                       tables=_arg("evening-tables"))
async def evening(interaction: discord.Interaction[Any],
                  action: Optional[Literal["new", "close", "cancel"]] = None,
                  start: Optional[Range[str, 1, 30]] = None,
                  tables: Optional[Range[int, 1, 10]] = None) -> None:
    await _run(interaction, "evening", action, start, f"tables={tables}" if tables is not None else None)


@app_commands.command(name="seating", description=_desc("seating"))
@app_commands.describe(games=_arg("series-games"), players=_arg("players"))
async def seating(interaction: discord.Interaction[Any], games: Range[int, 1, 20],
                  players: Range[str, 1, 2000]) -> None:
    await _run(interaction, "seating", games, players)


@app_commands.command(name="tournament", description=_desc("tournament"))
@app_commands.describe(action=_arg("tournament-action"), games=_arg("series-games"),
                       scheme=_arg("scheme"), players=_arg("players"))
async def tournament(interaction: discord.Interaction[Any],
                     action: Optional[Literal["open", "close"]] = None,
                     games: Optional[Range[int, 1, 20]] = None,
                     scheme: Optional[Literal["fiim", "fsm"]] = None,
                     players: Optional[Range[str, 1, 2000]] = None) -> None:
    await _run(interaction, "tournament", action, games, scheme, players)


@app_commands.command(name="table", description=_desc("table"))
@app_commands.describe(number=_arg("table-number"), host=_arg("table-host"),
                       aside=_arg("table-aside"))
async def table_(interaction: discord.Interaction[Any], number: Range[int, 1, 20],
                 host: Optional[bool] = None, aside: Optional[bool] = None) -> None:
    await _run(interaction, "table", number, "host" if host else None, "aside" if aside else None)


@app_commands.command(name="roster", description=_desc("roster"))
@app_commands.describe(name=_arg("name-start"))
async def roster(interaction: discord.Interaction[Any], name: Optional[Range[str, 1, 64]] = None) -> None:
    await _run(interaction, "roster", name)


@app_commands.command(name="rename", description=_desc("rename"))
@app_commands.describe(player=_arg("player"), new=_arg("new-name"))
async def rename(interaction: discord.Interaction[Any], player: Range[str, 1, 64],
                 new: Range[str, 1, 64]) -> None:
    await _run(interaction, "rename", player, "=", new)


@app_commands.command(name="merge", description=_desc("merge"))
@app_commands.describe(player=_arg("merged"), into=_arg("into"))
async def merge(interaction: discord.Interaction[Any], player: Range[str, 1, 64],
                into: Range[str, 1, 64]) -> None:
    await _run(interaction, "merge", player, "=", into)


@app_commands.command(name="forget", description=_desc("forget"))
@app_commands.describe(confirm=_arg("confirm"))
async def forget(interaction: discord.Interaction[Any], confirm: Optional[bool] = None) -> None:
    await _run(interaction, "forget", "yes" if confirm else None)


@app_commands.command(name="settings", description=_desc("settings"))
@app_commands.describe(rules=_arg("club-rules"), off=_arg("settings-off"))
async def settings(interaction: discord.Interaction[Any], rules: Optional[Range[str, 1, 400]] = None,
                   off: Optional[bool] = None) -> None:
    await _run(interaction, "settings", "off" if off else rules)


StreamWhat = Literal["new", "delay", "tournament"]


@app_commands.command(name="stream", description=_desc("stream"))
@app_commands.describe(what=_arg("stream-what"), seconds=_arg("stream-seconds"))
async def stream(interaction: discord.Interaction[Any], what: Optional[StreamWhat] = None,
                 seconds: Optional[Range[int, 0, 21600]] = None) -> None:
    await _run(interaction, "stream", what, seconds)


# --- Discord only -------------------------------------------------------------------------------

@app_commands.command(name="panel", description=_desc("panel"))
async def panel(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "panel")


@app_commands.command(name="link", description=_desc("link"))
@app_commands.describe(channel=_arg("channel"))
async def link(interaction: discord.Interaction[Any], channel: discord.TextChannel) -> None:
    await _run(interaction, "link", channel.id)


@app_commands.command(name="unlink", description=_desc("unlink"))
async def unlink(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "unlink")


@app_commands.command(name="seat", description=_desc("seat"))
@app_commands.describe(seat=_arg("seat"), member=_arg("member"))
async def seat(interaction: discord.Interaction[Any], seat: Seat,
               member: Optional[discord.Member] = None) -> None:
    await _run(interaction, "seat", seat, member.id if member is not None else None)


@app_commands.command(name="takeover", description=_desc("takeover"))
@app_commands.default_permissions(manage_channels=True)  # _take_over refuses others a live game
async def takeover(interaction: discord.Interaction[Any]) -> None:
    await _run(interaction, "takeover")


GAME_COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    new, name, roles, start, next_, nominate, withdraw, vote, raise_, kill, miss, shots, don,
    sheriff, bestmove, foul, warn, dq, ppk, tech, unfoul, result, extra, badplay, points, rule, why,
    undo, fix, timer, status, log_, help_, lang, games, stats, top, rating, evening, seating,
    tournament, table_, roster, rename, merge, forget, settings, stream,
)
DISCORD_COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    panel, link, unlink, seat, takeover,
)
COMMANDS = GAME_COMMANDS + DISCORD_COMMANDS
DISCORD_ONLY = frozenset(c.name for c in DISCORD_COMMANDS)

for _command in COMMANDS:
    app_commands.guild_only()(_command)


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
