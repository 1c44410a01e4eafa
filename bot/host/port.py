"""What a platform gives host mode: the transport port of :class:`bot.host.controller.HostController`.

The controller holds the only copy of the table flow; a platform (:mod:`bot.telegram.host`,
:mod:`bot.discord.host`) implements :class:`HostPort` with its own API calls and nothing else:
messages it edits in place (the lobby, a step's buttons, the night prompts), a press's answer, a
deleted message, a member muted for the turn or removed until the end, the bot's rights, the
countdown's words, a deadline armed. What an action announces does not go through the port: it is
queued in the persistent outbox (:mod:`bot.outbox`) with the action and sent by the platform's
transport.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Protocol

from ..i18n import Catalog
from ..outbox import Outbox
from .plain import plain
from .views import Rows


class MuteMode(str, enum.Enum):
    """How "only the speaker writes" is kept (seed 4.1.1): ``restrict`` (Telegram: restricted
    members) and ``overwrite`` (Discord: the channel's Send Messages denied to the member) mute
    everyone but the speaker for the whole game; ``timeout`` (Discord: member timeouts, which
    also stop a member's presses) mutes them during the speeches only, so that every hand can be
    raised; ``voice`` (Discord: a voice table, the option ``voice``) server-mutes everyone but
    the speaker in the table's voice channel for the whole game (the chat is judged as with
    ``foul``); ``foul``: nobody is muted, a message out of one's minute is a foul."""

    RESTRICT = "restrict"
    OVERWRITE = "overwrite"
    TIMEOUT = "timeout"
    VOICE = "voice"
    FOUL = "foul"

    @property
    def whole_game(self) -> bool:
        return self in (MuteMode.RESTRICT, MuteMode.OVERWRITE, MuteMode.VOICE)


class Mute(enum.Enum):
    """What muting (or unmuting) one member came to."""

    DONE = "done"
    UNMUTABLE = "unmutable"  # the platform refuses it for this member (a chat admin): fouls cover him
    NO_RIGHT = "no_right"  # the bot has lost the right: the table falls back to fouls
    LATER = "later"  # a passing failure: the next step tries again


@dataclass(frozen=True)
class Rights:
    """What the bot may do where the table plays: ``mute`` a member for the turn (Telegram:
    restrict members, a supergroup; Discord: Manage Permissions), ``timeout`` a member (Discord's
    Moderate Members: a removed player until the end), ``delete`` messages, ``read`` every
    message (Telegram: an admin or privacy mode off), ``basic``: see, post and attach files,
    ``voice``: server-mute members in a voice channel (Discord's Mute Members)."""

    mute: bool = False
    timeout: bool = False
    delete: bool = False
    read: bool = True
    basic: bool = True
    voice: bool = False

    def to_dict(self) -> dict[str, bool]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rights":
        """Also the names stored before this class: Telegram's ``restrict``, Discord's
        ``overwrite``."""
        return cls(mute=bool(data.get("mute", data.get("restrict", data.get("overwrite", False)))),
                   timeout=bool(data.get("timeout", False)), delete=bool(data.get("delete", False)),
                   read=bool(data.get("read", True)), basic=bool(data.get("basic", True)),
                   voice=bool(data.get("voice", False)))


@dataclass
class TableFlags:
    """The table's bookkeeping beside its players and its step (stored as ``host_tables.data``,
    JSON): the bot's rights, how the table is kept quiet and who is muted, the silent speeches
    counted for ``absent`` (seed 4.2.1), a stop in progress, the last steps' times (a message
    read late is judged by when it was written)."""

    rights: Rights = field(default_factory=Rights)
    host_name: str = ""  # who opened the table, as the group sees him
    title: str = ""  # the group's title
    chat_type: str = ""  # Telegram: group or supergroup (restricting needs a supergroup)
    mode: MuteMode = MuteMode.FOUL
    muted: list[str] = field(default_factory=list)  # muted for the turn now
    unmutable: list[str] = field(default_factory=list)  # the platform refuses to mute them
    removed: list[str] = field(default_factory=list)  # muted until the end: removed by the rules
    silent: dict[str, int] = field(default_factory=dict)  # seat -> own silent speeches in a row
    absent_due: int | None = None  # a seat whose silence has removed him, not yet penalised
    away: dict[str, float] = field(default_factory=dict)  # voice table: user -> his grace's end
    stopped_by: str | None = None  # a stop in progress: who stopped the table
    recent: list[dict[str, Any]] = field(default_factory=list)  # the last steps' times (steps.recent_record)
    #: a tournament's table (issue 17): {"id", "club", "table", "game", "games", "names": {"1": name}}
    tournament: dict[str, Any] | None = None
    #: the club's evening whose list gathers here (issue 33): {"id", "names": {account: name},
    #: "only": only they join (a list of ten or more)}
    evening: dict[str, Any] | None = None

    def to_dict(self, *, copied: bool = True) -> dict[str, Any]:
        """The flags as stored (``copied=False``: to be serialised at once, :func:`.plain.plain`)."""
        out = plain(self, copied=copied)
        out["rights"] = self.rights.to_dict()
        out["mode"] = self.mode.value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TableFlags":
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        values["rights"] = Rights.from_dict(data.get("rights") or {})
        values["mode"] = MuteMode(data.get("mode") or MuteMode.FOUL.value)
        values["silent"] = {str(k): int(v) for k, v in (data.get("silent") or {}).items()}
        values["away"] = {str(k): float(v) for k, v in (data.get("away") or {}).items()}
        return cls(**values)


@dataclass(frozen=True)
class Player:
    """Who pressed or wrote: the service's key of the user and his name for the table."""

    user: str
    name: str


class HostPort(Protocol):
    """The primitives of one platform (see the module docstring). Chats and users are the
    service's keys (``"tg:-100…"``, ``"dc:…"``). ``handle`` is the platform's own object of the
    update being answered (a callback query, an interaction, a message): the controller only
    passes it back."""

    platform: str  # "tg" | "dc": the catalogs' wording of the platform's own words
    prefix: str  # the keys it serves: "tg:" | "dc:"
    outbox: Outbox  # the platform's sender of the persistent outbox
    voice_tables: bool  # a table may be bound to a voice channel (the option ``voice``: Discord)
    max_text: int  # characters a message's text holds (Telegram 4096, Discord 2000)

    @property
    def judge(self) -> str:
        """The judge of every hosted game: the bot itself."""

    @property
    def scale(self) -> float:
        """Real seconds per timer second (1.0 in play; tests run it fast)."""

    def clock(self) -> float:
        """Wall-clock time in seconds (deadlines, as stored)."""

    def monotonic(self) -> float:
        """A clock nobody sets, in seconds (the one :meth:`schedule` waits on): a running step
        counts on it (:mod:`bot.steady`), whatever the wall clock does."""

    async def cat(self, chat: str) -> Catalog:
        """The catalog of a chat (its language)."""

    async def private_cat(self, table_chat: str, user: str) -> Catalog:
        """The catalog of a player's private messages at a table in ``table_chat``."""

    # --- messages edited in place ----------------------------------------------------------------
    async def post(self, chat: str, text: str, rows: Rows | None = None, *,
                   private: bool = False) -> int | None:
        """Post (``private``: in the user's direct messages); the new message's id, ``None`` if
        it cannot be posted (logged)."""

    async def edit(self, chat: str, message_id: int, text: str, rows: Rows | None = None, *,
                   private: bool = False) -> bool:
        """Edit in place, the buttons replaced by ``rows`` (``None``: none). "Not modified" is a
        success; ``False`` when it cannot be edited (logged)."""

    async def delete(self, handle: Any) -> None:
        """Delete the message ``handle`` (a message a player wrote out of his minute)."""

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None:
        """Answer a press (``text`` ``None``: just acknowledge it; ``url``: a link to open)."""

    # --- the table ---------------------------------------------------------------------------------
    async def rights(self, chat: str, handle: Any = None, *, chat_type: str = "") -> Rights | None:
        """What the bot may do in ``chat`` now (``handle``: the command that asks, where the
        platform tells the rights with it; ``chat_type``: Telegram's group or supergroup).
        ``None``: it cannot tell now (the rights known before stand)."""

    async def may_direct(self, chat: str, user: str, handle: Any = None) -> bool:
        """Is ``user`` a chat admin (Telegram) or a member with Manage Channels (Discord)?"""

    def mute_mode(self, rights: Rights) -> MuteMode:
        """The whole-game mute this platform gives with ``rights`` (``restrict``, ``overwrite``)."""

    async def mute(self, table_chat: str, user: str, mode: MuteMode, on: bool, *,
                   table_id: int = 0) -> Mute:
        """Mute ``user`` for the turn (``on``) or let him write again, in ``mode``."""

    async def remove(self, table_chat: str, user: str, on: bool, reason: str) -> bool | None:
        """Keep a player the rules removed (seed 4.5, 4.2) muted until the end (``on``), or lift
        it. ``None``: this platform has no such mute (its turn mutes cover him)."""

    def countdown(self, deadline: float, cat: Catalog) -> str:
        """A live countdown to ``deadline`` to put after a running step's line ("" if none)."""

    def where(self, table_chat: str, title: str) -> str:
        """How the table's chat is named in the club channel."""

    def seat_lines(self, seats: Mapping[int, str], state: Any, cat: Catalog) -> str:
        """The table as the group sees it at the start: one seat a line."""

    def lobby_notes(self, rights: Rights, mode_option: str, unreachable: bool, table_id: int,
                    cat: Catalog) -> tuple[list[str], Rows]:
        """The lobby's lines about reaching the players and the bot's missing rights, and its
        extra buttons. ``mode_option``: the option ``mute`` (``auto``, ``restrict``, ``foul``),
        or ``voice`` for a voice table."""

    def unreachable(self, table_id: int, cat: Catalog) -> tuple[str, str | None]:
        """The answer to a player the bot cannot write to privately, and a link to open."""

    # --- deadlines -----------------------------------------------------------------------------------
    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        """Call ``callback`` after ``delay`` real seconds of :meth:`monotonic` (a late call
        still runs; a step of the wall clock moves none)."""

    def cancel(self, group: str) -> None:
        """Cancel every call scheduled under ``group`` (but the one running now)."""
