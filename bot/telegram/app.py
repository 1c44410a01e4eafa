"""The Telegram adapter: a PTB 22 ``Application`` over :class:`bot.service.Service`, for judge mode
(:class:`bot.judge.controller.JudgeController`) and host mode (:mod:`.host`).

Judge mode on Telegram: a judge runs a game from his private chat with the bot (the game's *home*:
service chat ``"tg:<chat_id>"``, judge ``"tg:<user_id>"``). A club's group may be linked to it
(``/link`` typed there: the group becomes an alias of the home and the game's announce chat), and
then the table's announcements go there. The flow — what goes where, the panel, its presses, the
timer, undo, a new game, a take over — is the controller's; here is Telegram's part only:

* :class:`TelegramJudgePort`: the panel as a text with an inline keyboard (posted afresh below
  ``telegram_panel_lag`` newer messages, the old one's keyboard taken off), a press answered with
  a toast or an alert, the deadlines on the monotonic clock (:mod:`.jobs`);
* the handlers: private messages (typed commands, ``/start``, ``/lang``), presses, the group's
  commands (``/link``, ``/unlink``, ``/takeover``, ``/lang``, ``/status``, ``/help``), a group
  upgraded to a supergroup;
* :func:`build_application`: the handlers, the per-chat update order
  (:class:`PerChatUpdateProcessor`), the rate limiter, the outbox's sender (:mod:`.outbox`).

Updates of one chat are handled in order, chats in parallel; one lock per chat
(:class:`bot.locks.ChatLocks`, shared with host mode) orders everything a game does. No rule
lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import json
import logging
import os
import time
from pathlib import Path
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Sequence

from telegram import (
    BotCommand, BotCommandScope, BotCommandScopeAllChatAdministrators, BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats, BotCommandScopeDefault, InlineKeyboardButton, InlineKeyboardMarkup,
    InputFile, MenuButtonWebApp, Message, Update, WebAppInfo,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import (
    BadRequest, ChatMigrated, Forbidden, InvalidToken, NetworkError, TelegramError,
)
from telegram.ext import (
    Application, ApplicationHandlerStop, BaseUpdateProcessor, CallbackContext, CallbackQueryHandler,
    MessageHandler, TypeHandler, filters,
)

import rules
from rules import Phase
from storage import Store

from .. import commands as cmds
from .. import gcpolicy, published
from ..commands import Link, Part, Place, SetChannel, SetLang, Unlink
from ..front import Call, Entry, Front, Via
from ..host import views as host_views
from ..host.table import TableStatus
from ..i18n import DEFAULT_LANG, LANGS, Catalog, catalog
from ..judge import panel as pn
from ..judge.controller import JudgeController
from ..judge.port import Reply, Target
from ..judge.timer import COUNTDOWN_SHARE, COUNTDOWN_STEP, Timer, clock_time, countdown_step
from ..locks import ChatLocks
from ..lru import Recent
from ..logs import configure_logging
from ..outbox import Outbox
from ..render import chunks, fit
from ..service import Service
from ..settings import Settings
from ..web.desk import StreamDesk
from .host import HostRateLimiter, SharedRateLimiter, TelegramHost
from .host.handlers import display_name
from . import http, senders
from .jobs import StoppingJobQueue
from .base import PREFIX, TelegramPortBase, chat_id_of, chat_key
from .outbox import MAX_CAPTION, MAX_TEXT, TelegramTransport, inline_keyboard
from .. import lifecycle
from ..access import Access
from .webhook import (
    START_RETRIES, start_heartbeat, webhook_options, webhook_ready, webhook_secret,
)

log = logging.getLogger(__name__)

#: ``edited_message``: an edit in a group is a message written at the time of the edit (issue 36)
ALLOWED_UPDATES = ("message", "edited_message", "callback_query", "my_chat_member")
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
GATE_GROUP = -100  # the allow-list's handler runs before every other
#: the share of a group's budget an answer that only reads leaves to the game's announcements
#: (5 of its 20 messages a minute): ``/status`` typed by many waits for none of them
GROUP_KEPT = 0.25
#: The command menus (``setMyCommands``): each scope lists the commands that work there, in
#: every language (``language_code``) and, for clients in another one, in the configured one.
#: The judge's private chat: recording the game. A group, for every member: host mode (a table,
#: a tournament lobby's seat by the plan's name, the speaker's «Пас» and nomination, the
#: protocol), the judge's /link, the public status. A
#: group's admins: also what only they (or the table's host) may do.
PRIVATE_MENU = ("new", "next", "nominate", "vote", "foul", "undo", "status", "lang", "help")
GROUP_MENU = ("newgame", "join", "pass", "nominate", "status", "protocol", "rule", "why", "link",
              "help")
ADMIN_MENU = (*GROUP_MENU[:-1], "stop", "foul", "warn", "unfoul", "dq", "takeover", "unlink",
              "channel", "lang", "help")
#: (scope, where: "private" or "group", the commands); a command's description is
#: ``tg-menu-group-<name>`` in a group when the catalog has one (``/status`` there is the game's
#: public status, not the judge's panel), else ``tg-menu-<name>``.
MENUS: tuple[tuple[BotCommandScope, str, tuple[str, ...]], ...] = (
    (BotCommandScopeDefault(), "private", PRIVATE_MENU),
    (BotCommandScopeAllPrivateChats(), "private", PRIVATE_MENU),
    (BotCommandScopeAllGroupChats(), "group", GROUP_MENU),
    (BotCommandScopeAllChatAdministrators(), "group", ADMIN_MENU),
)

AnyApp = Application[Any, Any, Any, Any, Any, Any]
Context = CallbackContext[Any, Any, Any, Any]


def _is_new_game(text: str) -> bool:
    """Whether a typed line starts a new game (``/new``, ``новая`` …)."""
    found = cmds.spec(cmds.head(text))
    return found is not None and found.name == "new"


def _chat_of_update(update: object) -> int | None:
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Updates of one chat one after another, in order; different chats in parallel
    (ARCHITECTURE.md, "One writer"). An update delivered again (the same ``update_id``: a webhook
    retry, a poll repeated after a network error; or the same button press) is dropped: a typed
    command acts once, a toggle button (a host-mode hand) is not toggled back. ``done`` counts the
    updates handled or dropped (tests wait on it)."""

    #: how many recent update ids are remembered (Telegram's ids grow one by one)
    REMEMBERED = 10_000

    def __init__(self, max_concurrent_updates: int = 64) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int | None, asyncio.Lock] = {}
        self._users: dict[int | None, int] = {}
        self._seen: OrderedDict[int | str, None] = OrderedDict()
        self.done = 0

    def _again(self, update: object) -> bool:
        """Whether this update (its id, or the id of the button press it carries) was seen
        before; remember it if not."""
        if not isinstance(update, Update):
            return False
        keys: list[int | str] = [update.update_id]
        if update.callback_query is not None:
            keys.append(f"press:{update.callback_query.id}")
        if any(k in self._seen for k in keys):
            return True
        for k in keys:
            self._seen[k] = None
        while len(self._seen) > self.REMEMBERED:
            self._seen.popitem(last=False)
        return False

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self._again(update):
            log.info("update %s delivered again: dropped", getattr(update, "update_id", "?"))
            if inspect.iscoroutine(coroutine):
                coroutine.close()  # never awaited: closed, so Python does not warn about it
            self.done += 1
            return
        key = _chat_of_update(update)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                self._locks.pop(key, None)
            self.done += 1

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""


#: a panel's Mini App button: its label and the Mini App's address (issue 30, :mod:`bot.web`)
AppButton = tuple[str, str]


def _markup(panel: pn.Panel, app: AppButton | None = None) -> InlineKeyboardMarkup | None:
    if not panel.rows:
        return None
    rows = [[InlineKeyboardButton(b.label, callback_data=b.data) for b in row] for row in panel.rows]
    if app is not None:  # the panel on a screen: a Web App button (private chats only)
        rows.append([InlineKeyboardButton(app[0], web_app=WebAppInfo(app[1]))])
    return InlineKeyboardMarkup(rows)


def _keyboard_json(rows: Sequence[Sequence[pn.Button]], app: AppButton | None = None) -> str:
    """A panel's keyboard as the Bot API's ``reply_markup`` (an ``InlineKeyboardMarkup`` in
    JSON), built straight from the panel's buttons (and its Mini App button)."""
    keyboard = inline_keyboard(rows)
    if app is not None:
        keyboard.append([{"text": app[0], "web_app": {"url": app[1]}}])
    return json.dumps({"inline_keyboard": keyboard})


class TelegramJudgePort(TelegramPortBase):
    """Judge mode's port on Telegram (:class:`bot.judge.port.JudgePort`): the judge reads in his
    private chat with the bot (the game's home), the table in the group linked with ``/link``; the
    panel is a text with an inline keyboard, posted afresh below ``telegram_panel_lag`` newer
    messages (the old one loses its keyboard); a press is answered with a toast or an alert."""

    live_countdown = False

    @property
    def countdown_step(self) -> int:
        """Timer seconds between the panel's countdown edits (:func:`.judge.timer.countdown_step`:
        every 5, never more often than once a real second)."""
        return countdown_step(self.scale)

    @property
    def panel_lag(self) -> int:
        return int(self.referee.settings.telegram_panel_lag)

    def judge_chat(self, home: str, judge: str) -> Target:
        return Target(home)

    async def public_chat(self, game_id: int | None, home: str) -> str | None:
        """The group linked to the game while it is still linked to ``home``."""
        service = self.referee.service
        announce = await service.announce(game_id) if game_id is not None else None
        if announce is None or announce == home or await service.home(announce) != home:
            return None
        return announce

    async def club_chat(self, game_id: int, home: str) -> str | None:
        """The club channel of the group linked to the game (``/channel`` there), if any."""
        group = await self.public_chat(game_id, home)
        if group is None:
            return None
        linked = await self.referee.service.club_channel(group)
        if linked is None or not linked[0].startswith(PREFIX) or linked[0] in (group, home):
            return None
        return linked[0]

    def mention(self, user: str) -> str:
        return ""

    def name_of(self, user: str) -> str | None:
        return self.referee.names.get(user)

    def place(self, chat: str) -> str | None:
        return self.referee.titles.get(chat)

    def message_link(self, chat: str, message_id: int) -> str | None:
        """A supergroup's or a channel's message (``t.me/c/…``, for its members); a private chat
        or a basic group has no link."""
        number = str(chat_id_of(chat))
        return f"https://t.me/c/{number[4:]}/{message_id}" if number.startswith("-100") else None
    def moment(self, at: float) -> str:
        return clock_time(at, self.referee.zone)

    async def panel_notes(self, state: rules.GameState, game_id: int, home: str,
                          cat: Catalog) -> list[str]:
        if state.phase is not Phase.SETUP:
            return []
        group = await self.public_chat(game_id, home)
        return [cat.text("tg-announce-group" if group else "tg-announce-here")]

    async def post_panel(self, target: Target, panel: pn.Panel, title: str) -> int | None:
        app = await self.referee.app_button(target.chat)
        sent = await self.referee._send(target.chat, panel.text, _markup(panel, app))
        return sent.message_id if sent is not None else None

    async def edit_panel(self, target: Target, message_id: int, panel: pn.Panel, title: str,
                         handle: Any = None) -> bool:
        return await self.referee._edit(target.chat, message_id, panel.text, panel.rows,
                                        app=await self.referee.app_button(target.chat))

    async def drop_panel(self, target: Target, message_id: int) -> None:
        """Take the keyboard off an old panel (its buttons would only be stale)."""
        try:
            await self.referee._bot.edit_message_reply_markup(
                chat_id=chat_id_of(target.chat), message_id=message_id, reply_markup=None)
        except TelegramError as error:
            log.info("cannot strip %s/%s: %s", target.chat, message_id, error)

    async def close_panel(self, target: Target, message_id: int, text: str | None) -> None:
        if text is not None:
            await self.referee._edit(target.chat, message_id, text)
        else:
            await self.drop_panel(target, message_id)

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False) -> None:
        try:
            await handle.answer(text=fit(text, 200) if text else text, show_alert=alert)
        except TelegramError as error:  # too old: the press is still handled
            log.info("cannot answer a callback query: %s", error)

    def timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        return timer.line(cat, now)

    def panel_timer_line(self, timer: Timer, cat: Catalog, now: float) -> str:
        """The judge's countdown: the seconds left, rounded up to :data:`COUNTDOWN_STEP`, and
        the end as a clock time in ``MAFIA_REFEREE_TIMEZONE`` (the group's line keeps its three
        edits: a group may get about 20 messages a minute)."""
        return timer.countdown_line(cat, now, COUNTDOWN_STEP, self.referee.zone)

    def has_room(self) -> bool:
        """Room for a countdown edit: it leaves at most :data:`COUNTDOWN_SHARE` of the bot's
        overall per-second budget in use (``MAFIA_REFEREE_TELEGRAM_RATE_OVERALL``, about 30
        messages a second per bot) and no flood wait runs (:meth:`.host.HostRateLimiter.has_room`).
        Each running timer's countdown asks 0.2 edits a second: 75 tables at once fill that share."""
        app = self.referee.app
        limiter = getattr(app.bot, "rate_limiter", None) if app is not None else None
        return not isinstance(limiter, HostRateLimiter) or limiter.has_room(COUNTDOWN_SHARE)

    async def edit(self, chat: str, message_id: int, text: str) -> bool:
        return await self.referee._edit(chat, message_id, text)

    voice_tables = False

    def desk_of(self, user: str) -> str | None:
        return user  # a game taken over moves into the new judge's private chat (chat id == user id)

    def new_game_notes(self, handle: Any, cat: Catalog) -> list[str]:
        return []

    async def bind_voice(self, handle: Any, home: str, voice: int, before: int | None) -> list[str]:
        return []  # no voice tables (voice_tables)

    async def sync_removed(self, game_id: int, home: str, judge: str, removed: set[int]) -> None:
        return None  # a live table: the judge removes the player from the room himself

    async def sync_floor(self, game_id: int, home: str, judge: str, state: Any) -> None:
        return None  # no voice tables here


class TelegramReferee:
    """The adapter: PTB handlers over one :class:`Service` and the judge mode's
    :class:`~bot.judge.controller.JudgeController`. With ``service=None`` the store at
    ``settings.db`` is opened in ``post_init`` and closed in ``post_shutdown``."""

    def __init__(self, settings: Settings, service: Service | None = None, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self._service = service
        self._own_store: Store | None = None
        self.clock = clock  # the wall clock: the deadlines as stored (a test may step it)
        self.monotonic: Callable[[], float] = time.monotonic  # what the deadlines wait on
        #: the time zone of the clock times the judge reads (``None``: the machine's local time)
        self.zone = settings.zone
        self.app: AnyApp | None = None
        self._langs: Recent[str, str] = Recent(settings.cache_chats)
        self.locks = ChatLocks(settings.cache_chats)  # one lock per chat, shared with host mode
        self.names: Recent[str, str] = Recent(settings.cache_chats)  # user -> name (the sheet's judge)
        self.titles: Recent[str, str] = Recent(settings.cache_chats)  # group -> title (the sheet's table)
        #: the persistent outbox's sender (bot.outbox): the announcements of an action
        self.outbox = Outbox.of(lambda: self.service,
                                TelegramTransport(lambda: self.service, lambda: self._bot,
                                                  sheet=settings.sheet),
                                on_migrate=self.service_migrate,
                                on_sent=lambda chat, mid: self.judge.seen(chat, mid),
                                cached=settings.cache_chats)
        self.port = TelegramJudgePort(self)
        self.judge = JudgeController(lambda: self.service, self.port, self.locks)
        self.judge.club_tz = settings.timezone  # /stats month, the games' dates (issue 17)
        self.access = Access(settings.allowed)  # MAFIA_REFEREE_ALLOWED_CHATS (bot/access.py)
        self.shared: Any = None  # MAFIA_REFEREE_WORKERS=shared: this worker's SharedWorker
        self.host: TelegramHost | None = None  # host mode, attached by build_application
        self.web: Any = None  # the table on a screen (bot.web.WebLayer), when it is on
        self.front = self._front()

    def _front(self) -> Front:
        """The router every typed line goes through (:mod:`bot.front`): judge mode, host mode
        (once attached), the club's and a tournament's commands, and this platform's own."""
        judge = self.judge
        parts: dict[Part, Any] = {Part.JUDGE: judge, Part.CLUB: Via(judge.club_call, judge.held),
                                  Part.TOURNAMENT: Via(judge.tournament_call, judge.held),
                                  Part.PLATFORM: self, Part.WEB: StreamDesk(lambda: self.web)}
        host = self.host.controller if self.host is not None else None
        if host is not None:
            parts[Part.HOST] = host
        return Front(lambda: self.service, parts, self, self.cat, lines=host, mention=self.port.mention,
                     evenings=self.host.evenings if self.host is not None else None)

    def attach(self, host: TelegramHost) -> None:
        """Host mode beside judge mode: its commands and the lines that are not commands, and
        the clubs' evening sign-up (its port)."""
        self.host = host
        self.judge.evenings = host.evenings
        self.front = self._front()

    # --- life cycle -----------------------------------------------------------------------------
    @property
    def service(self) -> Service:
        if self._service is None:
            raise RuntimeError("the service is not open yet (post_init has not run)")
        return self._service

    def register(self, app: AnyApp) -> None:
        self.app = app
        if not self.access.everyone:  # before host mode's handlers (group -1) and judge mode's
            app.add_handler(TypeHandler(Update, self.gate), group=GATE_GROUP)
        new_messages = filters.UpdateType.MESSAGE
        group_messages = filters.ChatType.GROUPS & ~filters.StatusUpdate.ALL
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        app.add_handler(CallbackQueryHandler(self.on_press))
        app.add_handler(MessageHandler(
            (new_messages & ((filters.ChatType.PRIVATE & filters.TEXT) | group_messages))
            | (filters.UpdateType.EDITED_MESSAGE & group_messages), self.on_text))
        app.add_error_handler(self.on_error)

    async def post_init(self, app: AnyApp) -> None:
        if self._service is None:
            self._own_store = await Store.open(self.settings.db)
            self._service = Service(self._own_store, cached=self.settings.cache_chats,
                                    club_rules=self.settings.rules)
        await set_menus(app.bot, self.settings.lang, published.state_file(self.settings.db, "menus"))
        if self.web is not None:  # the table on a screen: its server, the Mini App's menu button
            await self.web.start(self.service)
            await self._menu_button(app.bot)
        if app.job_queue is not None:
            # shared workers (bot/telegram/shared.py) arm and send for the chats they own only
            app.job_queue.run_once(self._share if self.settings.workers == "shared" else self._rearm,
                                   0, name="rearm", job_kwargs={"misfire_grace_time": None})
        lifecycle.ready("telegram")  # systemd: started (Type=notify), the watchdog's pings

    async def _rearm(self, context: Context) -> None:
        """After a restart: every running timer armed again, and what the outbox still holds
        sent."""
        await self.judge.rearm()
        await self.outbox.drain_all()
        gcpolicy.freeze()  # what start-up built lives as long as the process

    async def _share(self, context: Context) -> None:
        """Shared workers: take part in the chats' split once the Application runs."""
        from .shared import SharedWorker

        assert self.app is not None
        self.shared = SharedWorker(self.app, self)
        self.shared.start()
        gcpolicy.freeze()

    async def post_shutdown(self, app: AnyApp) -> None:
        lifecycle.stopping()
        if self.shared is not None:
            await self.shared.stop()
            self.shared = None
        if self.web is not None:
            await self.web.stop()
        await self.outbox.close()
        if self._own_store is not None:
            await self._own_store.close()
            self._own_store = None
            self._service = None

    async def on_error(self, update: object, context: Context) -> None:
        """An update a handler failed on (a bug, a full disk). The controllers answer their own
        failures ("not saved" / "saved, but not sent"); what escapes the rest (a ``/link`` on a
        full disk) is logged and answered here — a press with an alert, a private message or a
        group's command with a line — never left spinning or silent. A group's plain message
        (host mode's out-of-turn speech) gets no answer: the group would read it."""
        from storage.pg import AlreadyApplied
        from storage.shared import kept

        if isinstance(context.error, AlreadyApplied):  # another shared worker applied it: no answer
            log.warning("update %s was applied by another worker", getattr(update, "update_id", "?"))
            return
        if context.error is not None and kept(context.error):  # the database away: applied
            return  # again once it is back (the shared worker says so: bot/telegram/shared.py)
        log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)
        if not isinstance(update, Update):
            return
        chat = update.effective_chat
        message = update.effective_message
        try:
            cat = await self.cat(chat_key(chat.id)) if chat is not None else catalog(self.settings.lang)
        except Exception:  # noqa: BLE001 - the store itself may be what failed
            cat = catalog(self.settings.lang)
        text = cat.text("error-internal")
        try:
            if update.callback_query is not None:
                await self.port.answer(update.callback_query, text, alert=True)
            elif chat is not None and message is not None and message.text is not None and (
                    chat.type == ChatType.PRIVATE or message.text.startswith("/")):
                await self._send(chat_key(chat.id), text)
        except Exception:  # noqa: BLE001 - logged above; nothing more can be said
            log.exception("update %s: the failure could not be answered",
                          getattr(update, "update_id", "?"))

    # --- the table on a screen (bot.web) --------------------------------------------------------------
    @property
    def mini_app(self) -> bool:
        """Telegram opens a Mini App from an ``https://`` address only (a button with another
        would make the Bot API refuse the whole panel); another Bot API server
        (``…_TELEGRAM_BASE_URL``: a local one, the tests' fake) may be given any."""
        return self.web is not None and (self.web.base.lower().startswith("https://")
                                         or bool(self.settings.telegram_base_url))

    async def app_button(self, chat: str) -> AppButton | None:
        """The judge's panel's Mini App button (its label in the chat's language), when the web
        layer is on."""
        if not self.mini_app:
            return None
        return (await self.cat(chat)).text("web-app-button"), self.web.app_url()

    async def _menu_button(self, bot: Any) -> None:
        """Every private chat's menu button opens the Mini App (one warning if refused)."""
        if not self.mini_app:
            log.warning("MAFIA_REFEREE_WEB_URL is not https://: Telegram opens no Mini App there "
                        "(the live pages work; the judge's panel has no Mini App button)")
            return
        label = catalog(self.settings.lang).text("web-app-button")
        try:
            await bot.set_chat_menu_button(
                menu_button=MenuButtonWebApp(label, WebAppInfo(self.web.app_url())))
        except TelegramError as error:
            log.warning("could not set the menu button: %s", error)

    # --- small helpers --------------------------------------------------------------------------
    async def cat(self, chat: str) -> Catalog:
        """The chat's catalog (``/lang``), else the configured language. A group's (a negative
        chat id: a group, a supergroup, a channel) never repeats a user's words
        (:meth:`bot.i18n.Catalog.unquoting`): the whole group reads its answers, and a player
        who may not speak must not have the bot say his words for him (issue 36); a private
        chat's answer, read by the asker alone, quotes what he typed."""
        lang = self._langs.get(chat)
        if lang is None:
            lang = await self.service.lang(chat) or self.settings.lang
            self._langs[chat] = lang
        found = catalog(lang if lang in LANGS else DEFAULT_LANG)
        return found.unquoting() if chat.startswith(f"{PREFIX}-") else found

    async def _set_lang(self, chat: str, lang: str) -> None:
        await self.service.set_lang(chat, lang)
        self._langs[chat] = lang

    @property
    def _bot(self) -> Any:
        assert self.app is not None
        return self.app.bot

    async def service_migrate(self, old: str, new: str) -> None:
        """A chat moved (the outbox found out): its link, language and pending messages follow."""
        await self.service.migrate_chat(old, new)

    async def _send(self, chat: str, text: str, markup: InlineKeyboardMarkup | None = None,
                    *, retry: bool = True) -> Message | None:
        """Send; a chat that moved (group → supergroup) is followed; a chat the bot may not
        write to is logged and skipped (the game goes on)."""
        target = chat_id_of(chat)
        try:
            sent = await self._bot.send_message(target, fit(text, MAX_TEXT), reply_markup=markup)
        except ChatMigrated as moved:
            await self.service.migrate_chat(chat, chat_key(moved.new_chat_id))
            if retry:
                return await self._send(chat_key(moved.new_chat_id), text, markup, retry=False)
            return None
        except (Forbidden, BadRequest) as error:
            log.warning("cannot send to %s: %s", chat, error)
            return None
        except TelegramError as error:
            log.warning("sending to %s failed: %s", chat, error)
            return None
        self.judge.seen(chat, sent.message_id)
        return sent

    async def _replies(self, chat: str, replies: Sequence[Reply]) -> None:
        """A command's answers, in the chat where it was typed (split to Telegram's length); one
        for another chat (the evening's table for the club's channel) is posted there."""
        for reply in replies:
            where = reply.chat or chat
            if reply.optional and not self._group_room(where):
                log.info("%s is busy: an answer that only reads is left out", where)
                continue
            for part in chunks(reply.text, MAX_TEXT):
                if part:
                    await self._send(where, part)
            if reply.picture is not None:
                await self._photo(where, *reply.picture)

    def _group_room(self, chat: str) -> bool:
        """Whether group ``chat`` has room now for an answer it may go without
        (:attr:`~bot.judge.port.Reply.optional`): one that leaves :data:`GROUP_KEPT` of its
        budget to the game's announcements (:meth:`.host.HostRateLimiter.group_has_room`)."""
        limiter = getattr(self._bot, "rate_limiter", None)
        chat_id = chat_id_of(chat)
        return not isinstance(limiter, HostRateLimiter) or chat_id > 0 \
            or limiter.group_has_room(chat_id, GROUP_KEPT)

    async def _photo(self, chat: str, name: str, png: bytes, caption: str) -> None:
        """A picture (``/stats``' card) with its caption; one the chat refuses is logged and
        skipped (the text has been sent)."""
        try:
            await self._bot.send_photo(chat_id_of(chat), InputFile(io.BytesIO(png), filename=name),
                                       caption=fit(caption, MAX_CAPTION) or None)
        except TelegramError as error:
            log.warning("cannot send a picture to %s: %s", chat, error)

    async def _edit(self, chat: str, message_id: int, text: str,
                    keyboard: Sequence[Sequence[pn.Button]] = (), *,
                    app: AppButton | None = None) -> bool:
        """Edit a message's text in place, with ``keyboard`` under it (none: the message keeps
        no buttons); "message is not modified" (Telegram's answer to an edit that changes
        nothing) counts as success.

        The request is made from plain data (``Bot._post``, under the rate limiter as every call)
        rather than ``edit_message_text``: that one takes the keyboard as PTB objects, serialises
        them again and parses the edited message Telegram returns into a ``Message`` nobody reads:
        the client's CPU per panel edit 3.0–3.6 ms that way, 2.1–2.7 ms this way (issue 16; the
        fake Bot API in another process, three alternating passes), and the panel is edited
        after every action and at each timer tick."""
        data: dict[str, Any] = {"chat_id": chat_id_of(chat), "message_id": message_id,
                                "text": fit(text, MAX_TEXT)}
        if keyboard:
            data["reply_markup"] = _keyboard_json(keyboard, app)
        try:
            await self._bot._post("editMessageText", data)
        except BadRequest as error:
            if "not modified" in str(error).lower():
                return True
            log.info("cannot edit %s/%s: %s", chat, message_id, error)
            return False
        except TelegramError as error:
            log.warning("editing %s/%s failed: %s", chat, message_id, error)
            return False
        return True

    # --- typed lines: the front door (bot.front) -----------------------------------------------
    async def on_text(self, update: Update, context: Context) -> None:
        """A message in a private chat (its text) or a group (any message: host mode judges a
        sticker out of turn too; an edit, as written when it was edited), as an
        :class:`bot.front.Entry` for the router; its answers in the chat where it was written.
        A group's message in the name of a chat is its author's when he can be named
        (:func:`.senders.sender_of`), else nobody's (:attr:`bot.front.Entry.anonymous`); a
        linked channel's forwarded post is nobody's business. The lobby's deep link
        (``/start h<id>``) is Telegram's own protocol: handed to host mode here."""
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        edit = update.edited_message is not None
        chat = message.chat
        private = chat.type == ChatType.PRIVATE
        text = message.text or ""
        if private and (not text or edit):
            return
        key, who, name = chat_key(chat.id), chat_key(user.id), display_name(user)
        title = rules.clean_text(chat.title or "")
        if private:
            self.judge.seen(key, message.message_id)
        elif title:
            self.titles[key] = title
        found = None if private else await senders.sender_of(self._bot, message, lambda: self._seated(key))
        if found is not None and found.free:
            return  # the linked channel's post, forwarded: nobody speaks
        if found is not None:
            who, name = found.user, found.name
        else:
            self.names[who] = user.full_name
            if not private and user.is_bot and not text.startswith("/"):
                return  # another bot's message is nobody's speech
        if private and self.host is not None:
            table_id = host_views.start_payload(text)
            if table_id is not None:  # the lobby's deep link: his lobby may now write to him
                if await self.host.controller.private_start(who, table_id) is None:
                    await self._send(key, (await self.cat(key)).text("host-link-stale"))
                return
        when = message.edit_date if edit else message.date
        entry = Entry("tg", Place.DESK if private else Place.GROUP, key, who, text, handle=message,
                      stamp=when.timestamp() if when else None, name=name, title=title,
                      chat_type=chat.type or "", bot=getattr(self._bot, "username", None),
                      edit=edit, anonymous=found is not None and found.anonymous)
        replies = await self.front.enter(entry)
        if replies:
            await self._replies(key, replies)

    async def _seated(self, chat: str) -> list[str] | None:
        """The players seated at ``chat``'s running hosted table (``None``: none runs there)."""
        table = await self.host.controller.live(chat) if self.host is not None else None
        if table is None or table.status is not TableStatus.RUNNING:
            return None
        return list(table.seats.values())

    # --- button presses -------------------------------------------------------------------------
    async def on_press(self, update: Update, context: Context) -> None:
        """A button pressed, for the router (:meth:`bot.front.Front.press`): host mode's or the
        judge's panel, of the chat where its message is."""
        query = update.callback_query
        if query is None or query.from_user is None:
            return
        message = query.message
        user = query.from_user
        if message is None and not (query.data or "").startswith(f"{host_views.PREFIX}:"):
            await self.port.answer(query)  # a judge's panel too old to know where it was
            return
        self.names[chat_key(user.id)] = user.full_name
        chat = chat_key(message.chat.id) if message is not None else chat_key(user.id)
        await self.front.press(Entry("tg", Place.DESK, chat, chat_key(user.id), query.data or "",
                                     handle=query, name=display_name(user)))

    # --- the platform's own commands (the router's PLATFORM part) --------------------------------
    def held(self, home: str) -> Any:
        return self.locks.lock(home)

    def state(self, current: Any, place: Place) -> rules.GameState | None:
        return None

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool:
        return await self._is_admin(chat, entry.user)

    async def run(self, call: Call) -> list[Reply]:
        """``/start`` and ``/help`` (in a private chat the welcome — and in a game's setup, night
        0 —, in a group its help), ``/lang``, ``/link``, ``/unlink``, ``/channel``; the router
        has checked who may."""
        command = call.command
        if isinstance(command, SetLang):
            return await self._lang(call, command.lang)
        if isinstance(command, Link):
            return await self._link(call)
        if isinstance(command, Unlink):
            current = call.current
            assert current is not None  # the router's Who.JUDGE
            await self.service.unlink(call.chat)
            await self.service.set_announce(current.game_id, None)
            await self.judge.show_panel(call.home, current)
            return [Reply(call.cat.text("tg-unlinked"))]
        if isinstance(command, SetChannel):
            assert self.host is not None
            await self.host.set_channel(call.chat, command.target)
            return []
        if call.place is not Place.DESK:
            return [Reply(call.cat.text("tg-help-group"))]
        live = call.live
        if live is not None and live.state.phase is Phase.SETUP:  # /start: night 0 begins
            return await self.judge.run(call)
        if self.host is not None:  # «Старт»: the lobbies he is in may now write to him
            await self.host.controller.private_start(call.user)
        replies = [Reply(call.cat.text("tg-welcome"))]
        if live is not None and live.judge == call.user:
            await self.judge.show_panel(call.home, live, fresh=True)
        return replies

    async def _lang(self, call: Call, lang: str) -> list[Reply]:
        """The chat's language (in a group its judge's or an admin's, the router has checked);
        in a private chat the judge's panel follows."""
        await self._set_lang(call.chat, lang)
        live = call.live
        if call.place is Place.DESK and live is not None and live.judge == call.user:
            await self.judge.show_panel(call.home, live)
        return [Reply(catalog(lang).text("console-lang"))]

    async def _link(self, call: Call) -> list[Reply]:
        """The judge links this group to his game: announcements go here from now on."""
        group, user, home, current = call.chat, call.user, call.home, call.current
        cat = call.cat
        judge_home = user  # his private chat: chat id == user id
        game = await self.service.current(judge_home)
        if game is None or game.judge != user or game.state.phase is Phase.GAME_OVER:
            return [Reply(cat.text("tg-link-no-game"))]
        if current is not None and home != judge_home and current.judge != user \
                and current.state.phase is not Phase.GAME_OVER:
            return [Reply(cat.text("tg-link-busy", game=current.game_id))]
        title = call.entry.title or None
        async with self.locks.lock(judge_home) if judge_home != home else contextlib.nullcontext():
            previous = await self.port.public_chat(game.game_id, judge_home)
            if previous is not None and previous != group:  # one group per game
                await self.service.unlink(previous)
            await self.service.link(group, judge_home)
            await self.service.set_announce(game.game_id, group)
            sent = await self._send(group, cat.text("tg-linked-group", game=game.game_id))
            judge_cat = await self.cat(judge_home)
            if sent is None:  # the bot may not post there: say so, undo the link
                await self.service.unlink(group)
                await self.service.set_announce(game.game_id, None)
                await self._send(judge_home, judge_cat.text("tg-link-cannot-post", title=title or group))
                return []
            await self._send(judge_home, judge_cat.text("tg-linked-private", title=title or group,
                                                        game=game.game_id))
            await self.judge.show_panel(judge_home, game)
        return []

    async def gate(self, update: Update, context: Context) -> None:
        """The allow-list (:mod:`bot.access`): an update of a group that is not listed stops here
        (a command gets one answer naming the group's id); in a private chat, only ``/new`` by
        someone neither listed nor a member of a listed group is refused."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None:
            return
        message = update.message
        if chat.type == ChatType.PRIVATE:
            if user is None or message is None or not message.text or not _is_new_game(message.text):
                return
            if await self.access.may_start(chat_key(user.id), self._is_member):
                return
            cat = await self.cat(chat_key(chat.id))
            await self._send(chat_key(chat.id), cat.text("access-private", user=str(user.id)))
            raise ApplicationHandlerStop
        if self.access.chat(chat_key(chat.id)):
            return
        if message is not None and message.text and message.text.startswith("/"):
            cat = await self.cat(chat_key(chat.id))
            await self._send(chat_key(chat.id), cat.text("access-group", chat=f"tg:{chat.id}"))
        raise ApplicationHandlerStop

    async def _is_member(self, group: str, user: str) -> bool:
        try:
            member = await self._bot.get_chat_member(chat_id_of(group), chat_id_of(user))
        except TelegramError as error:
            log.info("getChatMember %s %s failed: %s", group, user, error)
            return False
        return member.status in (*ADMIN_STATUSES, ChatMemberStatus.MEMBER, ChatMemberStatus.RESTRICTED)

    async def _is_admin(self, group: str, user: str) -> bool:
        try:
            member = await self._bot.get_chat_member(chat_id_of(group), chat_id_of(user))
        except TelegramError as error:
            log.warning("getChatMember %s %s failed: %s", group, user, error)
            return False
        return member.status in ADMIN_STATUSES

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its link and language follow the new chat id."""
        message = update.effective_message
        if message is None or message.migrate_to_chat_id is None:
            return
        await self.service.migrate_chat(chat_key(message.chat.id), chat_key(message.migrate_to_chat_id))


# --- building and running ---------------------------------------------------------------------------

def rate_limiter(settings: Settings, referee: TelegramReferee) -> HostRateLimiter:
    """The Bot API's limits (``MAFIA_REFEREE_TELEGRAM_RATE_*``: overall, per group, per private
    chat): this process's :class:`.host.HostRateLimiter`; shared workers take the overall limit from one budget in the
    database (:class:`.host.SharedRateLimiter`: the limit is the bot's, whichever worker sends),
    each the group limit of the groups it owns."""
    groups = {"group_max_rate": settings.telegram_rate_group,
              "group_time_period": settings.telegram_rate_group_period,
              "private_max_rate": settings.telegram_rate_private,
              "private_time_period": settings.telegram_rate_private_period,
              "max_retries": settings.telegram_max_retries}
    if settings.workers != "shared" or not settings.telegram_rate_overall:
        return HostRateLimiter(overall_max_rate=settings.telegram_rate_overall,
                               overall_time_period=1, **groups)
    from storage.shared import SendBudget

    assert settings.telegram_token is not None
    bot = settings.telegram_token.get_secret_value().split(":", 1)[0]
    budget = SendBudget(lambda: referee.service.shared_pool(), f"tg:{bot}",
                        settings.telegram_rate_overall)
    return SharedRateLimiter(budget, **groups)


def http_client(builder: Any, kind: str, connections: int) -> Any:
    """The Bot API client of ``builder`` (an ``ApplicationBuilder``), returned: HTTP/1.1 with
    keep-alive, a pool of ``connections`` (a request waits up to 30 s for one), PTB's timeouts
    otherwise. ``kind`` ``"aiohttp"``: :class:`.request.AiohttpRequest` for the calls and
    another (one connection, as PTB's own) for the ``getUpdates`` long poll, whose read timeout
    PTB stretches by the poll's; ``"httpx"``: PTB's ``HTTPXRequest`` with the same pool — a small
    one: httpcore scans every pooled connection at each request, so a pool of 256 that bursts
    have filled costs more CPU than the waits a few connections cause (bench/README.md, "Bot API
    client")."""
    if kind == "httpx":  # its responses freed by reference counting (bot/telegram/http.py)
        return (builder.request(http.request(connection_pool_size=connections, pool_timeout=30.0))
                .get_updates_request(http.request(connection_pool_size=1)))
    from .request import AiohttpRequest

    return (builder.request(AiohttpRequest(connection_pool_size=connections, pool_timeout=30.0))
            .get_updates_request(AiohttpRequest(connection_pool_size=1)))


def build_application(settings: Settings, service: Service | None = None, *,
                      clock: Callable[[], float] = time.time, web: Any = None) -> AnyApp:
    """The Application of judge mode and host mode (:mod:`.host`): handlers, per-chat ordering,
    ``AIORateLimiter`` (:class:`.host.HostRateLimiter`) with the settings' limits, the JobQueue
    for its start-up jobs (the timers: :class:`.jobs.JobScheduler`); ``clock``: the wall clock
    the deadlines are stored in. ``service=None``: the store at ``settings.db`` is
    opened when the Application initialises and closed at shutdown."""
    if settings.telegram_token is None:
        raise ValueError("no Telegram token (MAFIA_REFEREE_TELEGRAM_TOKEN or TELEGRAM_BOT_TOKEN)")
    referee = TelegramReferee(settings, service, clock=clock)
    host = TelegramHost(settings, referee, referee.locks)  # host mode: the bot runs a table
    referee.attach(host)
    if web is None and settings.web:  # the table on a screen (bot.web); `both` shares one
        from ..web.server import WebLayer

        web = WebLayer(settings, clock=clock)
    if web is not None:
        web.attach("tg", referee)
        referee.web = web

    async def post_init(app: AnyApp) -> None:
        await referee.post_init(app)
        await host.post_init(app)

    builder = (
        Application.builder()
        .token(settings.telegram_token.get_secret_value())
        .concurrent_updates(PerChatUpdateProcessor(settings.telegram_concurrent_updates))
        .rate_limiter(rate_limiter(settings, referee))
        .job_queue(StoppingJobQueue())
        .post_init(post_init)
        .post_shutdown(referee.post_shutdown)
    )
    builder = http_client(builder, settings.telegram_http, settings.telegram_connections)
    if settings.workers == "shared":  # updates go to the inbox, their chat's owner handles them
        from .shared import InboxQueue

        builder = builder.update_queue(InboxQueue(referee, host.home_of))
    if settings.telegram_base_url:
        base = settings.telegram_base_url
        files = settings.telegram_base_file_url or (
            base[: -len("/bot")] + "/file/bot" if base.endswith("/bot") else base)
        builder = builder.base_url(base).base_file_url(files)
    app = builder.build()
    referee.register(app)
    app.bot_data["referee"] = referee
    host.register(app)  # its handlers run first (group -1); what is not host business falls through
    app.bot_data["host"] = host
    return app


async def set_menus(bot: Any, default_lang: str, state: Path | None = None) -> list[str]:
    """Every command menu of :data:`MENUS`: per scope, once per language (``language_code``) and
    once without one, in ``default_lang`` (a client in a third language). With ``state`` (a file
    beside the database, :mod:`bot.published`) only when they differ from what this bot last
    set: a restart makes no call. Returns the scopes set (their Bot API type). A failure is one
    warning: the bot works without its menus (and tries again at the next start)."""
    def described(name: str, where: str, cat: Catalog) -> BotCommand:
        key = f"tg-menu-{where}-{name}"
        return BotCommand(name, cat.text(key if cat.has(key) else f"tg-menu-{name}"))

    menus = [(scope, lang, [described(name, where, catalog(lang or default_lang)) for name in names])
             for scope, where, names in MENUS for lang in (None, *LANGS)]
    key = f"bot:{getattr(bot, 'id', None)}"  # another bot on this database sets its own
    known = published.read(state) if state is not None else {}
    wanted = published.digest([(scope.to_dict(), lang, [c.to_dict() for c in commands])
                               for scope, lang, commands in menus])
    if known.get(key) == wanted:
        return []
    try:
        for scope, lang, commands in menus:
            await bot.set_my_commands(commands, scope=scope, language_code=lang)
    except TelegramError as error:
        log.warning("could not set the command menus: %s", error)
        return []
    if state is not None:
        published.write(state, {**known, key: wanted})
    return sorted({scope.type for scope, _, _ in menus})


def referee_of(app: AnyApp) -> TelegramReferee:
    return app.bot_data["referee"]  # type: ignore[no-any-return]


def run(settings: Settings) -> int:
    """``mafia-referee telegram``: long polling, or a webhook server when
    ``MAFIA_REFEREE_TELEGRAM_WEBHOOK_URL`` is set (:mod:`.webhook`), until interrupted; logs
    through :func:`bot.logs.configure_logging` (text or JSON, the token and the webhook secret
    redacted). Returns the exit status: 0 interrupted, 1 no route to the Bot API at start-up
    (the service manager retries), 2 the token is refused or webhook mode cannot run."""
    assert settings.telegram_token is not None
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    secret, generated = webhook_secret(settings) if settings.telegram_webhook_url else ("", False)
    configure_logging(settings.telegram_token.get_secret_value(), secret, fmt=settings.log_format)
    if not webhook_ready(settings, generated):
        return 2
    app = build_application(settings)
    start_heartbeat(app, settings)
    try:
        if settings.telegram_webhook_url:
            app.run_webhook(**webhook_options(settings, list(ALLOWED_UPDATES), secret),
                            close_loop=False)
        else:
            # a few tries with PTB's backoff before giving up to the service manager's restart
            app.run_polling(allowed_updates=list(ALLOWED_UPDATES), bootstrap_retries=START_RETRIES,
                            close_loop=False)
    except InvalidToken:
        # A wrong or revoked token: restarting will not help (exit 2 stops systemd's
        # RestartPreventExitStatus=2 loop); one line, the token never in it.
        log.error("%s", catalog(settings.lang).text("cli-telegram-bad-token"))
        return 2
    except NetworkError as error:  # TimedOut too: no route to the Bot API at start-up
        log.error("cannot reach the Telegram Bot API at %s: %s (the service manager restarts "
                  "the bot; nothing stored is lost)", settings.telegram_base_url or
                  "https://api.telegram.org", error)
        return 1
    finally:
        _close_loop(app)
    return 0


def _close_loop(app: AnyApp) -> None:
    """After :meth:`Application.run_polling` (``close_loop=False``): close the Bot API
    clients, then the loop. PTB shuts the clients down only after a start-up that succeeded; a
    refused token or no route leaves their sessions open (aiohttp would log "Unclosed client
    session" at exit). Closing a closed client is a no-op."""
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:  # no loop was ever set: nothing ran, nothing to close
        return
    if loop.is_closed():
        return
    requests = getattr(app.bot, "_request", ())  # PTB keeps (getUpdates', the calls') there
    with contextlib.suppress(Exception):
        loop.run_until_complete(asyncio.gather(*(r.shutdown() for r in requests)))
    loop.close()
