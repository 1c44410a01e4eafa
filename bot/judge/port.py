"""What a platform gives judge mode: the transport port of
:class:`bot.judge.controller.JudgeController`.

The controller holds the judge's assistant once: typed commands, the panel and its presses, the
step timer, what an action announces and to whom, undo, a new game, a preset changed, a take
over. A platform (:mod:`bot.telegram.app`, :mod:`bot.discord.app`) implements :class:`JudgePort`
with its own API calls: where the judge reads (Telegram: his private chat, the game's home;
Discord: his direct messages) and where the table reads (Telegram: the group linked with
``/link``; Discord: the game's channel), how the panel looks (a text with an inline keyboard; an
embed with a view), a press's answer, the timer's words, deadlines. What an action announces goes
through the persistent outbox (:mod:`bot.outbox`), queued with the action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Protocol

import rules

from ..i18n import Catalog
from ..outbox import Outbox
from .panel import Panel
from .timer import Timer


@dataclass(frozen=True)
class Target:
    """Where something is written: a chat key, and whether it is a user's direct messages
    (Discord opens those by the user's id)."""

    chat: str
    private: bool = False


@dataclass(frozen=True)
class Reply:
    """An answer to the one who asked: ``private``, it is for his eyes only (a judge's full log,
    the result before the end) — a platform that answers in a shared chat sends it privately."""

    text: str
    private: bool = False
    #: a picture sent after the text where the platform can (``/stats``' card, issue 17): its
    #: file name, PNG bytes and caption
    picture: tuple[str, bytes, str] | None = None
    #: posted in this chat instead (the evening's table in the club's channel), not answered
    chat: str | None = None
    #: the command was refused: nothing changed (the console's ``--strict`` stops at one)
    refused: bool = False
    #: the chat may go without it when it is busy (an answer only read, typed in a group: the
    #: game's announcements there go first, :func:`bot.front.yields`)
    optional: bool = False


class JudgePort(Protocol):
    """The primitives of one platform (see the module docstring). Chats and users are the
    service's keys. ``handle`` is the platform's own object of the update being answered."""

    platform: str  # "tg" | "dc": the catalogs' wording of the platform's own words
    prefix: str  # the keys it serves: "tg:" | "dc:"
    outbox: Outbox
    #: newer messages allowed below the panel before it is posted afresh at the bottom
    panel_lag: int
    #: the timer's line counts down by itself (Discord's ``<t:…:R>``): a speech that ends
    #: always has its line edited, not only one that said "10 s left" or "paused"
    live_countdown: bool
    #: timer seconds between the countdown edits of the judge's panel (``None``: no such edits,
    #: the line counts down by itself): :meth:`bot.judge.timer.Timer.next_edit`
    countdown_step: int | None

    @property
    def scale(self) -> float:
        """Real seconds per timer second (1.0 in play; tests run it fast)."""

    def clock(self) -> float:
        """Wall-clock time in seconds (deadlines, as stored)."""

    def monotonic(self) -> float:
        """A clock nobody sets, in seconds (the one :meth:`schedule` waits on): a running timer
        counts on it (:mod:`bot.steady`), whatever the wall clock does."""

    async def cat(self, chat: str) -> Catalog:
        """The catalog of a chat (its language)."""

    # --- where things go ---------------------------------------------------------------------------
    def judge_chat(self, home: str, judge: str) -> Target:
        """Where the judge reads every notice and keeps his panel."""

    async def public_chat(self, game_id: int | None, home: str) -> str | None:
        """Where the table reads the public notices of game ``game_id`` (``None``: a game being
        created with none before it); ``None``: nowhere yet."""

    async def club_chat(self, game_id: int, home: str) -> str | None:
        """The club's channel for the result and the protocol (``None``: none)."""

    def mention(self, user: str) -> str:
        """A user in words the chat shows (a judge named in an announcement)."""

    def name_of(self, user: str) -> str | None:
        """A user's name as a person reads it (the judge's, on the score sheet); ``None``
        when the platform has not shown it."""

    def place(self, chat: str) -> str | None:
        """A chat's title as a person reads it (where the table played, on the score sheet)."""

    def message_link(self, chat: str, message_id: int) -> str | None:
        """A link that opens message ``message_id`` of ``chat`` (a game's protocol, from the
        club's ``/games``); ``None`` where the platform has none for that chat."""
    def moment(self, at: float) -> str:
        """A moment (unix seconds) as the judge reads it in the audit trail: a clock time."""

    # --- the panel ----------------------------------------------------------------------------------
    async def panel_notes(self, state: rules.GameState, game_id: int, home: str,
                          cat: Catalog) -> list[str]:
        """The panel's lines about where the game's words go."""

    async def post_panel(self, target: Target, panel: Panel, title: str) -> int | None:
        """Post the panel; its message id, ``None`` if the judge cannot be written to."""

    async def edit_panel(self, target: Target, message_id: int, panel: Panel, title: str,
                         handle: Any = None) -> bool:
        """Edit the panel in place (``handle``: the press on it, where the platform answers a
        press by editing its message)."""

    async def drop_panel(self, target: Target, message_id: int) -> None:
        """An old panel left behind when a fresh one is posted below: its buttons go."""

    async def close_panel(self, target: Target, message_id: int, text: str | None) -> None:
        """A panel that stops working (the game replaced or taken over): buttons off, ``text``."""

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False) -> None:
        """Answer a press (``None``: just acknowledge it)."""

    # --- the timer ----------------------------------------------------------------------------------
    def timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        """The timer's line (:meth:`Timer.line`), with the platform's live countdown if any."""

    def panel_timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        """The timer's line on the judge's panel: :meth:`timer_line`, or the countdown the
        panel's edits keep (:meth:`Timer.countdown_line`)."""

    def has_room(self) -> bool:
        """Whether the bot's sending budget has room now for an edit that may be skipped (the
        panel's countdown): a busy bot keeps its budget for what the game says."""

    async def edit(self, chat: str, message_id: int, text: str) -> bool:
        """Edit a message's text (the announcement that carries the timer line)."""

    def schedule(self, group: str, delay: float, callback: Callable[[], Awaitable[None]]) -> None:
        """Call ``callback`` after ``delay`` real seconds of :meth:`monotonic` (a late call
        still runs; a step of the wall clock moves none)."""

    def cancel(self, group: str) -> None:
        """Cancel every call scheduled under ``group`` (but the one running now)."""

    # --- what a platform adds to a command ---------------------------------------------------------
    #: the platform has voice tables (Discord's ``/new voice:#table``)
    voice_tables: bool

    def desk_of(self, user: str) -> str | None:
        """Where a game taken over by ``user`` moves (Telegram: his private chat with the bot);
        ``None``: it stays where it is (Discord: the channel is the game's)."""

    def new_game_notes(self, handle: Any, cat: Catalog) -> list[str]:
        """Lines for the judge of a new game about the platform (the bot's missing rights)."""

    async def bind_voice(self, handle: Any, home: str, voice: int, before: int | None) -> list[str]:
        """Bind the game just created in ``home`` (``before``: the game it replaced) to voice
        channel ``voice``; the lines that say how it went."""

    # --- removals -----------------------------------------------------------------------------------
    async def sync_removed(self, game_id: int, home: str, judge: str, removed: set[int]) -> None:
        """The seats the rules removed (seed 4.5, 4.2) now: a platform that can mute their
        players until the end does (Discord's ``/seat`` and timeouts); the others do nothing."""

    async def sync_floor(self, game_id: int, home: str, judge: str,
                         state: rules.GameState | None) -> None:
        """Who may speak now, after each action (``state``; ``None``: the game leaves the chat,
        replaced or taken over): a platform with voice tables mutes the seated players who may
        not (Discord's ``/new voice:``; the judge never) and lifts every mute when the game is
        over or gone; the others do nothing."""
