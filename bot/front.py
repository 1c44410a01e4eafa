"""The front door: every typed line of every platform enters here, once.

A platform hands :meth:`Front.enter` an :class:`Entry` — *where* (a :class:`Place`: Telegram's
private chat or group, a Discord channel or direct message, the console), *who*, *what* (the
line typed) and the platform's own handle and stamp. The router

1. finds the command the line names in the command table (:func:`bot.commands.spec`: its
   names in both languages); a command addressed to another bot (``/stop@OtherBot``), or a
   name no command has typed in a group, is not ours: ``None``, nothing answered;
2. finds the place it was typed in: a group or channel where a hosted table gathers or plays
   is :attr:`Place.TABLE` (host mode runs it: judge mode never acts on the bot's game);
3. routes it by the spec (:class:`bot.commands.Route`): a place without a route refuses it
   in the same words on every platform (:meth:`Front.not_here`);
4. under the part's lock, reads the game the chat acts on, parses the line once
   (:meth:`bot.commands.Spec.parse`: ``/nominate 7`` needs the speaker), checks the rights
   once (:class:`bot.commands.Who`), and hands the :class:`Call` to the part that carries it
   out (:class:`bot.commands.Part`): judge mode, host mode, the club, a tournament, or the
   platform itself (Telegram's ``/link``, Discord's ``/seat``, ``/lang``).

A line that is not a command goes to host mode: in a group or a channel a player's speech
(judged by the table: out of his minute, a foul), in a private chat a black's words at night 0
(relayed). At the judge's desk a line without ``/`` is a command too («фол 5»).

Every door of a group is judged the same way (issue 36), by host mode's one judge of a
message (:meth:`Lines.message`): an edited message (:attr:`Entry.edit`) is a line written at
the time of the edit, never a command carried out again; a Telegram group's command is a
message the whole group reads, so one that a seated player types out of his minute (or at
night) is judged and deleted like any message, and nothing is answered — whether or not it
names a command, or another bot; a message written in the name of a chat whose author the
platform could not name (:attr:`Entry.anonymous`) is nobody's speech and nobody's command at
a running table: host mode deletes it and tells the host. (A Discord slash command is seen by
its asker alone: not a message of the channel.)

The answers come back as :class:`bot.judge.port.Reply` for the one who asked; the platform
turns them into messages. Refusals — a line the table does not know, a place without a route,
rights missing, a command the rules refuse — are answered here, changing nothing.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, replace
from typing import Any, AsyncContextManager, Awaitable, Callable, Mapping, Protocol, cast

import rules

from . import commands as cmds
from .club.evening import is_press as is_evening_press
from .club.tournament import needs_admin
from .commands import ClubCmd, Command, CommandError, Part, Place, Route, Spec, Who
from .host import views as host_views
from .host.port import Player
from .i18n import Catalog
from .judge.port import Reply
from .render import error_text
from .service import Outcome, Service, ServiceError

log = logging.getLogger(__name__)

#: what a part may refuse with (the router answers it: nothing changed)
REFUSALS: tuple[type[Exception], ...] = (CommandError, ServiceError, rules.RuleError)
#: the commands that only read (``/status``, ``/rule``, ``/why``, ``/help``…): typed
#: where everyone reads the answer, it yields to the game (:func:`yields`)
READS: tuple[type, ...] = (cmds.Show, cmds.Explain)
#: where an answer is read by everyone, in a chat of its own budget (Telegram: ~20 messages a minute)
SHARED = (Place.GROUP, Place.TABLE)


def addressed_elsewhere(text: str, bot_username: str | None) -> bool:
    """Is ``text`` a command addressed to another bot than ``bot_username`` (``/cmd@Other``:
    Telegram adds the bot's name to a command picked from a group's menu, where several bots
    may read it)? A bare command, or one addressed to this bot, is ours; unknown username: ours."""
    first = cmds.head(text)
    if not first.startswith("/") or "@" not in first or not bot_username:
        return False
    return first.split("@", 1)[1].lower() != bot_username.lower()


#: the places each platform has
PLACES: Mapping[str, tuple[Place, ...]] = {
    "tg": (Place.DESK, Place.GROUP, Place.TABLE), "dc": (Place.CHANNEL, Place.TABLE, Place.DM),
    "console": (Place.CONSOLE,)}


def _where(places: tuple[Place, ...], platform: str) -> str:
    """Where a command works, as :meth:`Front.not_here` says it: its first place this
    platform has; else, on the console, ``"bots"`` for one of both bots' chats; else Discord
    when only Discord's chats have it (Discord's ``/seat`` typed in Telegram or the console:
    ``"discord"``); else its first place anywhere (``"table"``: a table either bot runs)."""
    here = [p for p in places if p in PLACES[platform]]
    if here:
        return here[0].value
    kinds = set(places)
    if platform == "console" and {Place.DESK, Place.GROUP} & kinds and {Place.CHANNEL, Place.DM} & kinds:
        return "bots"
    if kinds and kinds <= set(PLACES["dc"]) - set(PLACES["tg"]):  # Discord's own chats only
        return "discord"
    return places[0].value if places else "elsewhere"


@dataclass(frozen=True)
class Entry:
    """One typed line as a platform hands it in. ``chat``/``user``: the service's keys;
    ``place``: where it was typed (:attr:`Place.TABLE` is found by the router); ``handle``: the
    platform's object (the message, the interaction) its part may answer or read rights from;
    ``stamp``: when it was written by the platform's clock (seconds), host mode judges a speech
    by it; ``name``: the user's name as the table shows it; ``title`` and ``chat_type``: the
    chat's, as the platform knows them; ``bot``: the bot's own username (Telegram), whose
    commands are ours. ``edit``: an earlier message edited (``stamp``: when; only ever a line,
    judged as written then); ``anonymous``: written in the name of a chat (a group's anonymous
    admin, a channel) by someone the platform could not name — ``user`` is that chat's key."""

    platform: str  # "tg" | "dc" | "console"
    place: Place
    chat: str
    user: str
    text: str
    handle: Any = None
    stamp: float | None = None
    name: str = ""
    title: str = ""
    chat_type: str = ""
    bot: str | None = None
    edit: bool = False
    anonymous: bool = False


@dataclass
class Call:
    """A command routed: the line's :class:`Entry`, its spec and route, where it was found
    (``place``), the home of the game the chat acts on (``home``; a hosted table's chat is its
    own), that game as read under the route's lock (``current``: ``None`` without a lock, or
    no game), the parsed ``command`` and the asker's catalog (``cat``)."""

    entry: Entry
    spec: Spec
    route: Route
    place: Place
    home: str
    current: Outcome | None
    command: Command
    cat: Catalog
    rights: "Rights | None" = None
    #: a right found by the router that the part applies in its own order
    #: (:attr:`bot.commands.Who.ADMIN_TO_OPEN`: the asker may open a tournament here)
    granted: bool = True

    async def admin(self) -> bool:
        """Whether the asker is an admin of the chat where he typed it."""
        return self.rights is not None and await self.rights.is_admin(self.entry, self.chat)

    @property
    def user(self) -> str:
        return self.entry.user

    @property
    def chat(self) -> str:
        return self.entry.chat

    @property
    def live(self) -> Outcome | None:
        """:attr:`current` while it is not over."""
        current = self.current
        return current if current is not None and current.state.phase is not rules.Phase.GAME_OVER else None


class Handler(Protocol):
    """A part of the bot as the router sees it: its lock for a chat's game, the state a line is
    parsed against there (of the chat's game as read under that lock), and the command carried
    out (the answers for the asker)."""

    def held(self, home: str) -> AsyncContextManager[Any]: ...

    def state(self, current: Outcome | None, place: Place) -> rules.GameState | None: ...

    async def run(self, call: Call) -> list[Reply]: ...


class Lines(Protocol):
    """A part that takes the lines that are not commands, and its own buttons: host mode."""

    async def live(self, chat: str) -> Any: ...

    async def press(self, who: Player, data: str | None, handle: Any) -> None: ...

    async def owns_protocol(self, chat: str) -> bool: ...

    async def message(self, chat: str, user: str, text: str, handle: Any, *,
                      written_at: float | None = None, command: bool = False,
                      anonymous: bool = False) -> bool: ...

    async def private_message(self, user: str, text: str) -> str | None: ...


class Evenings(Protocol):
    """The clubs' evening sign-up as a press reaches it (:class:`bot.club.evening.EveningDesk`)."""

    async def press(self, user: str, name: str, data: str | None, handle: Any) -> None: ...


class Presses(Protocol):
    """Judge mode as a press reaches it: the panel's buttons of the game of ``home``."""

    async def press(self, home: str, user: str, data: str | None, handle: Any) -> None: ...


class Rights(Protocol):
    """What the platform knows of its users' rights: whether ``user`` is an admin of ``chat``
    (Telegram: its owner or an administrator; Discord: Manage Channels there, or with
    ``server``, Manage Server)."""

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool: ...


@dataclass(frozen=True)
class Via:
    """A part carried out by one coroutine (the club's, a tournament's commands: the judge
    controller's), under ``lock`` of the game's home (``None``: none); its lines are parsed
    against no game (they name players and tables, not seats)."""

    runs: Callable[[Call], Awaitable[list[Reply]]]
    lock: Callable[[str], AsyncContextManager[Any]] | None = None

    def held(self, home: str) -> AsyncContextManager[Any]:
        return self.lock(home) if self.lock is not None else contextlib.nullcontext()

    def state(self, current: Outcome | None, place: Place) -> rules.GameState | None:
        return None

    async def run(self, call: Call) -> list[Reply]:
        return await self.runs(call)


def yields(call: Call, replies: list[Reply]) -> list[Reply]:
    """The answers of a command that only reads (:data:`READS`), typed in a group everyone
    reads (:data:`SHARED`), marked :attr:`~bot.judge.port.Reply.optional`: the platform leaves
    them out while the chat's budget is short, so that ten players typing ``/status`` do not
    hold up the game's announcements, which wait in the same budget (what the game says goes
    first; a status a minute late is stale anyway). Private answers stay as they are."""
    if call.place not in SHARED or not isinstance(call.command, READS):
        return replies
    return [replace(r, optional=True) if not r.private and r.chat is None else r for r in replies]


@dataclass
class Front:
    """The router of one platform: ``service`` (the game per chat), the ``parts`` that carry
    commands out, host mode for the lines that are not commands (``lines``; ``None``: no host
    mode here), the platform's ``rights`` and its catalogs (``cat``: the chat's language),
    ``mention`` (how a user is named: the judge in a refusal) and ``evenings``, the clubs'
    evening sign-up whose buttons (``e:…``) it takes (``None``: none here)."""

    service: Callable[[], Service]
    parts: Mapping[Part, Handler]
    rights: Rights
    cat: Callable[[str], Awaitable[Catalog]]
    lines: Lines | None = None
    mention: Callable[[str], str] = str
    evenings: Evenings | None = None

    # --- a typed line -----------------------------------------------------------------------------
    async def enter(self, entry: Entry) -> list[Reply] | None:
        """Carry out one typed line; the answers for the asker, or ``None`` when the line is not
        the bot's business (another bot's command, a group's chat without a table). An edit is
        a line (:meth:`line`); a group's command is first judged as the message it is
        (:meth:`judged`)."""
        text = entry.text
        if entry.edit:
            return await self.line(entry)
        if await self.judged(entry):
            return []
        if addressed_elsewhere(text, entry.bot):
            return None
        if not text.lstrip().startswith("/"):
            handled = await self.line(entry)
            if handled is not None or entry.place not in cmds.DESKS:
                return handled
        try:
            found = cmds.find(text)
        except CommandError as error:
            if entry.place in (Place.GROUP, Place.DM) and (
                    error.code in ("unknown_command", "empty_command")
                    or cmds.spec(cmds.head(text)) is None):  # however long
                return None  # another bot's command: not ours to answer
            return [Reply(error_text(error, await self.cat(entry.chat)), refused=True)]
        return await self.command(entry, found)

    async def line(self, entry: Entry) -> list[Reply] | None:
        """A line that is not a command, for host mode: a player's speech in a table's chat (no
        answer: the table is told what the rules say), a black's words at night 0 in private
        (a player seated at a running table is told his words go nowhere). ``None``: nobody
        took it (at the judge's desk it is then read as a command)."""
        host = self.lines
        if host is None:
            return None
        if entry.place in (Place.GROUP, Place.CHANNEL):
            await host.message(entry.chat, entry.user, entry.text, entry.handle,
                               written_at=entry.stamp, anonymous=entry.anonymous)
            return []
        if entry.edit:  # a private message edited: nothing to judge, nothing relayed again
            return None
        if entry.place in (Place.DESK, Place.DM):
            found = await host.private_message(entry.user, entry.text)
            if found == "seated":  # a player's stray message: his words go nowhere
                return [Reply((await self.cat(entry.user)).text("host-private-closed"), private=True)]
            if found is not None or entry.place is Place.DM:
                return []
        return None

    async def judged(self, entry: Entry) -> bool:
        """Whether a command typed in a group (a message the whole group reads: Telegram's) was
        judged by host mode as the message it is — a seated player's out of his minute or at
        night (a foul, seed 4.1.1; night talk, seed 4.2.6), a departed player's, an unnamed
        sender's at a running table: deleted where allowed, not carried out, nothing answered
        (a refusal would repeat his words). ``False``: carry it out (nobody's speech there, or
        the speaker's own minute: his ``/nominate``)."""
        if self.lines is None or entry.place is not Place.GROUP or not entry.text.lstrip().startswith("/"):
            return False
        return await self.lines.message(entry.chat, entry.user, entry.text, entry.handle,
                                        written_at=entry.stamp, command=True,
                                        anonymous=entry.anonymous)

    async def command(self, entry: Entry, found: Spec) -> list[Reply]:
        """A command the table knows (``found``), typed at ``entry``'s place: routed, parsed,
        its rights checked, carried out."""
        place = await self.place(entry)
        route = await self.route(found, place, entry)
        cat = await self.cat(entry.chat)
        if route is None:
            return [Reply(await self.not_here(found, place, entry, cat), refused=True)]
        part = self.parts[route.part]
        service = self.service()
        home = entry.chat if place is Place.TABLE else await service.home(entry.chat)
        held = part.held(home) if route.locked else contextlib.nullcontext()
        async with held:
            try:
                # one read of the game serves the parse, the rights and the part (the service's
                # own state, read only: an action makes a new one)
                current = await service.current(home, copy=False) if route.locked else None
                command = found.parse(entry.text, part.state(current, place))
                call = Call(entry, found, route, place, home, current, command, cat, self.rights)
                refusal = await self.refusal(call)
                if refusal is not None:
                    return [Reply(refusal, refused=True)]
                return yields(call, await part.run(call))
            except REFUSALS as error:
                return [Reply(error_text(error, cat), refused=True)]

    async def place(self, entry: Entry) -> Place:
        """Where the line was typed: a group or channel whose hosted table gathers or plays is
        :attr:`Place.TABLE`."""
        if entry.place in (Place.GROUP, Place.CHANNEL) and self.lines is not None \
                and await self.lines.live(entry.chat) is not None:
            return Place.TABLE
        return entry.place

    async def route(self, found: Spec, place: Place, entry: Entry) -> Route | None:
        """The first route of ``found`` at ``place`` on this platform whose condition holds."""
        for route in found.routes_at(place, entry.platform):
            if route.when is None or await self._holds(route.when, entry):
                return route
        return None

    async def _holds(self, when: str, entry: Entry) -> bool:
        if when == "host_protocol":  # the chat's last game was a hosted table's
            return self.lines is not None and await self.lines.owns_protocol(entry.chat)
        raise ValueError(when)

    # --- a button pressed -------------------------------------------------------------------------
    async def press(self, entry: Entry, home: str | None = None) -> None:
        """A button pressed (``entry.text``: its data): host mode's (``h:…``: its own table, a
        night prompt pressed in a player's private chat) go to host mode; the judge's panel to
        judge mode, acting on the game of ``home`` (else the home of the chat where the panel
        is); an evening's sign-up (``e:…``) to the clubs' sign-up. Each part answers the press
        itself (outdated, not yours: nothing changes)."""
        if self.evenings is not None and is_evening_press(entry.text):
            await self.evenings.press(entry.user, entry.name or entry.user, entry.text, entry.handle)
            return
        if self.lines is not None and entry.text.startswith(f"{host_views.PREFIX}:"):
            await self.lines.press(Player(entry.user, entry.name or entry.user), entry.text, entry.handle)
            return
        judge = cast(Presses, self.parts[Part.JUDGE])
        await judge.press(home or await self.service().home(entry.chat), entry.user, entry.text,
                          entry.handle)

    # --- refusals ---------------------------------------------------------------------------------
    @staticmethod
    def _text(cat: Catalog, key: str, entry: Entry, **params: Any) -> str:
        """A refusal's words: every refusal may name the platform (its ``platform`` variant)
        and the bot (``bot``: its @name, where it has one)."""
        return cat.text(key, platform=entry.platform, bot="@" + (entry.bot or "bot"), **params)

    async def not_here(self, found: Spec, place: Place, entry: Entry, cat: Catalog) -> str:
        """The refusal of a command typed where it has no route, the same on every platform: at
        a hosted table, "this table is mine"; in a group, a judge's game command goes to his
        private chat (the judge is told where, anyone else that it is the judge's); elsewhere,
        where it works."""
        name = found.name
        if place is Place.TABLE:
            return self._text(cat, "host-table-command", entry, command=name)
        if place is Place.GROUP and found.routes_at(Place.DESK, entry.platform):
            home = await self.service().home(entry.chat)
            linked = home != entry.chat
            current = await self.service().current(home) if linked else None
            if current is not None and current.judge == entry.user:
                return self._text(cat, "tg-group-use-private", entry)
            # no game linked here: nobody's the judge of it, game commands go to a private chat
            return self._text(cat, found.group_refusal or (
                "tg-only-judge" if linked else "tg-group-use-private"), entry)
        return self._text(cat, "front-not-here", entry, command=name,
                          where=_where(found.places(), entry.platform))

    async def refusal(self, call: Call) -> str | None:
        """Why ``call.user`` may not give ``call``'s command there (:class:`bot.commands.Who`);
        ``None``: he may. A command that needs the game's judge where there is no game is
        refused by the service's words for that (:meth:`bot.service.Service.missing`)."""
        who = call.route.who
        entry = call.entry
        if who is Who.ANYONE:
            return None
        current = call.current
        if who is Who.JUDGE:
            if current is None and call.place is Place.GROUP and call.home == entry.chat:
                return self._text(call.cat, "tg-not-linked", entry)  # a group: nothing linked
            if current is None:
                raise await self.service().missing(call.home)
            if current.judge == call.user:
                return None
            return self._refuse(call, "judge-not-judge", judge=self.mention(current.judge))
        judge = current is not None and current.judge == call.user
        if who is Who.ADMIN:
            allowed = await self.rights.is_admin(entry, entry.chat)
        elif who is Who.JUDGE_OR_ADMIN:
            allowed = judge or await self.rights.is_admin(entry, entry.chat)
        elif who is Who.JUDGE_OR_SERVER_ADMIN:
            allowed = judge or await self.rights.is_admin(entry, entry.chat, server=True)
        elif who is Who.ADMIN_TO_OPEN:  # a grant: the tournament's desk refuses in its order
            call.granted = not (isinstance(call.command, ClubCmd) and needs_admin(call.command)) \
                or await self._club_admin(call)
            return None
        elif who is Who.ADMIN_TO_TAKE:
            live = call.live if call.route.locked else await self._live(call.home)
            allowed = live is None or live.judge == call.user \
                or await self.rights.is_admin(entry, entry.chat)
        else:  # pragma: no cover - every Who is above
            raise ValueError(who)
        return None if allowed else self._refuse(call, "front-not-allowed")

    async def _live(self, home: str) -> Outcome | None:
        current = await self.service().current(home)
        return current if current is not None and current.state.phase is not rules.Phase.GAME_OVER else None

    async def _club_admin(self, call: Call) -> bool:
        """Whether the asker is an admin of the club the command acts on: at a desk, the group
        the game is linked to (his own chat is his); elsewhere the chat itself (the console's
        judge is its own admin)."""
        entry = call.entry
        if entry.place is Place.CONSOLE:
            return True
        if call.place is Place.DESK:
            current = call.current
            club = (await self.service().announce(current.game_id) if current is not None else None) \
                or call.home
            return club == call.home or await self.rights.is_admin(entry, club)
        return await self.rights.is_admin(entry, entry.chat)

    def _refuse(self, call: Call, default: str, **params: Any) -> str:
        key = call.route.refusal or default
        if "{what}" in key:
            key = key.format(what=getattr(call.command, "what", ""))
        return self._text(call.cat, key, call.entry, command=call.spec.name, **params)
