"""The Telegram adapter of judge mode: a PTB 22 ``Application`` over :class:`bot.service.Service`.

A judge runs a game from his private chat with the bot (the game's *home*: service chat
``"tg:<chat_id>"``, judge ``"tg:<user_id>"``). A club's group may be linked to it (``/link`` typed
there: the group becomes an alias of the home and the game's announce chat). Then:

* every notice of an action goes to the judge as ONE message (private ones included); the public
  ones go to the group as one message; private notices never reach a group (:mod:`.routing`);
  both are rendered before the action commits and queued in the persistent outbox in the same
  transaction, then sent by :mod:`.outbox` (a 429 delays them in order, a crash before the send
  leaves them for the next start); panel and timer edits stay direct (edits of a stored message:
  repeating or losing one is harmless, the next change re-renders it);
* the panel (:mod:`.panel`) is one message in the judge's chat, edited in place; it is posted
  afresh at the bottom when the chat has moved on by more than ``telegram_panel_lag`` messages;
  its id is stored with the game, so a restart edits the same message;
* a press carries ``game:revision:action``: a press by anyone but the judge is refused with an
  alert, a press from an older revision is answered "outdated" and re-renders the panel; neither
  changes anything;
* the speech timer (:mod:`.timer`) is a deadline stored with the game, shown as a line on the panel
  and under the group's announcement, edited at the start, 10 s before the end and at the end by
  PTB's JobQueue (``misfire_grace_time=None``); it never moves the game on;
* typed commands (:mod:`bot.commands`, the console's language) do the same as the buttons.

Updates of one chat are handled in order, chats in parallel (:class:`PerChatUpdateProcessor`);
one :class:`asyncio.Lock` per home chat orders everything a game sends (handlers and timer jobs).
No rule lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Sequence

from telegram import (
    BotCommand, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update,
)
from telegram.constants import ChatMemberStatus
from telegram.error import (
    BadRequest, ChatMigrated, Forbidden, InvalidToken, NetworkError, TelegramError,
)
from telegram.ext import (
    Application, BaseUpdateProcessor, CallbackContext, CallbackQueryHandler, Job,
    MessageHandler, filters,
)

import rules
from rules import Phase
from storage import OutboxItem, Store

from .. import commands as cmds
from ..commands import Act, CommandError, NewGame, Quit, SetLang, Show, UndoCmd
from ..i18n import DEFAULT_LANG, LANGS, Catalog, catalog
from ..judge import panel as pn
from ..judge.callbacks import Press, decode
from ..judge.routing import judge_text, public_text, turn_key, undo_texts
from ..judge.timer import PAUSED, WARNED, Timer, pause_or_resume
from ..logs import configure_logging
from ..outbox import Outbox
from ..render import chunks, config_label, error_text, fit, notice_text, result_text, status_text
from ..service import Outcome, Render, Service, ServiceError, Staged
from ..settings import Settings
from .host import HostRateLimiter, TelegramHost
from .outbox import MAX_TEXT, TelegramTransport
from .webhook import START_RETRIES, start_heartbeat, webhook_available, webhook_options

log = logging.getLogger(__name__)

PREFIX = "tg:"
PANEL = "panel"  # the message slot of the judge's panel
ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
TELEGRAM_COMMANDS = ("start", "help", "link", "unlink", "takeover")
MENU = ("new", "next", "foul", "nominate", "undo", "status", "link", "takeover", "lang", "help")

_Refusal = (CommandError, ServiceError, rules.RuleError)
AnyApp = Application[Any, Any, Any, Any, Any, Any]
Context = CallbackContext[Any, Any, Any, Any]


def chat_key(chat_id: int) -> str:
    return f"{PREFIX}{chat_id}"


def chat_id_of(key: str) -> int:
    return int(key.removeprefix(PREFIX))


def _command_name(text: str) -> str:
    head = text.strip().split(None, 1)[0] if text.strip() else ""
    return head.lstrip("/").split("@", 1)[0].lower()


def _chat_of_update(update: object) -> int | None:
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Updates of one chat one after another, in order; different chats in parallel
    (ENGINEERING.md §2). An update delivered again (the same ``update_id``: a webhook retry, a
    poll repeated after a network error; or the same button press) is dropped: a typed command acts once, a toggle button
    (a host-mode hand) is not toggled back. ``done`` counts the updates handled or dropped
    (tests wait on it)."""

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


def _markup(panel: pn.Panel) -> InlineKeyboardMarkup | None:
    if not panel.rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=b.data) for b in row]
                                 for row in panel.rows])


class TelegramReferee:
    """The adapter: PTB handlers over one :class:`Service`. With ``service=None`` the store at
    ``settings.db`` is opened in ``post_init`` and closed in ``post_shutdown``."""

    def __init__(self, settings: Settings, service: Service | None = None, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self._service = service
        self._own_store: Store | None = None
        self.clock = clock
        self.app: AnyApp | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._langs: dict[str, str] = {}
        self._latest: dict[int, int] = {}  # chat id -> the newest message id seen there
        self._views: dict[int, Press] = {}  # game id -> the panel's view (reset by any change)
        #: the persistent outbox's sender (ENGINEERING.md §1): the announcements of an action
        self.outbox = Outbox(lambda: self.service.store,
                             TelegramTransport(lambda: self.service.store, lambda: self._bot),
                             on_migrate=self.service_migrate,
                             on_sent=lambda chat, mid: self._seen(chat_id_of(chat), mid))
        self._confirm_new: set[str] = set()  # home chats whose judge typed /new over a live game
        self._timer_jobs: dict[int, Job] = {}  # game id -> its timer's scheduled job

    # --- life cycle -----------------------------------------------------------------------------
    @property
    def service(self) -> Service:
        if self._service is None:
            raise RuntimeError("the service is not open yet (post_init has not run)")
        return self._service

    def register(self, app: AnyApp) -> None:
        self.app = app
        new_messages = filters.UpdateType.MESSAGE
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        app.add_handler(CallbackQueryHandler(self.on_press))
        app.add_handler(MessageHandler(new_messages & filters.ChatType.PRIVATE & filters.TEXT,
                                       self.on_private))
        app.add_handler(MessageHandler(new_messages & filters.ChatType.GROUPS & filters.COMMAND,
                                       self.on_group))
        app.add_error_handler(self.on_error)

    async def post_init(self, app: AnyApp) -> None:
        if self._service is None:
            self._own_store = await Store.open(self.settings.db)
            self._service = Service(self._own_store)
        try:
            cat = catalog(self.settings.lang)
            await app.bot.set_my_commands(
                [BotCommand(name, cat.text(f"tg-menu-{name}")) for name in MENU])
        except TelegramError as error:
            log.warning("could not set the command menu: %s", error)
        if app.job_queue is not None:
            app.job_queue.run_once(self._rearm, 0, name="rearm",
                                   job_kwargs={"misfire_grace_time": None})

    async def post_shutdown(self, app: AnyApp) -> None:
        await self.outbox.close()
        if self._own_store is not None:
            await self._own_store.close()
            self._own_store = None
            self._service = None

    async def on_error(self, update: object, context: Context) -> None:
        log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)

    # --- small helpers --------------------------------------------------------------------------
    def _lock(self, home: str) -> asyncio.Lock:
        lock = self._locks.get(home)
        if lock is None:
            lock = self._locks[home] = asyncio.Lock()
        return lock

    async def cat(self, chat: str) -> Catalog:
        """The chat's catalog (``/lang``), else the configured language."""
        lang = self._langs.get(chat)
        if lang is None:
            lang = await self.service.store.lang(chat) or self.settings.lang
            self._langs[chat] = lang
        return catalog(lang if lang in LANGS else DEFAULT_LANG)

    async def _set_lang(self, chat: str, lang: str) -> None:
        await self.service.store.set_lang(chat, lang)
        self._langs[chat] = lang

    def _seen(self, chat_id: int, message_id: int) -> None:
        self._latest[chat_id] = max(self._latest.get(chat_id, 0), message_id)

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
        self._seen(target, sent.message_id)
        return sent

    async def _send_long(self, chat: str, text: str) -> None:
        for part in chunks(text, MAX_TEXT):
            await self._send(chat, part)

    async def _edit(self, chat: str, message_id: int, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> bool:
        """Edit in place; "message is not modified" counts as success (ENGINEERING.md §2)."""
        try:
            await self._bot.edit_message_text(fit(text, MAX_TEXT), chat_id=chat_id_of(chat),
                                              message_id=message_id, reply_markup=markup)
        except BadRequest as error:
            if "not modified" in str(error).lower():
                return True
            log.info("cannot edit %s/%s: %s", chat, message_id, error)
            return False
        except TelegramError as error:
            log.warning("editing %s/%s failed: %s", chat, message_id, error)
            return False
        return True

    async def _strip(self, chat: str, message_id: int) -> None:
        """Take the keyboard off an old panel (its buttons would only be stale)."""
        try:
            await self._bot.edit_message_reply_markup(chat_id=chat_id_of(chat),
                                                      message_id=message_id, reply_markup=None)
        except TelegramError as error:
            log.info("cannot strip %s/%s: %s", chat, message_id, error)

    async def _answer(self, query: CallbackQuery, text: str | None = None, *,
                      alert: bool = False) -> None:
        try:
            await query.answer(text=text, show_alert=alert)
        except TelegramError as error:  # too old: the press is still handled
            log.info("cannot answer a callback query: %s", error)

    async def _group(self, game_id: int, home: str) -> str | None:
        """The game's announce chat while it is still linked to ``home``."""
        announce = await self.service.announce(game_id)
        if announce is None or announce == home or await self.service.home(announce) != home:
            return None
        return announce

    # --- the panel ------------------------------------------------------------------------------
    async def _timer_view(self, game_id: int, state: rules.GameState, cat: Catalog) -> pn.TimerView | None:
        data = await self.service.timer(game_id)
        if data is None:
            return None
        timer = Timer.from_dict(data)
        if timer.key != turn_key(state):
            return None
        control = True if timer.live else (False if timer.stage == PAUSED else None)
        return pn.TimerView(timer.line(cat, self.clock()), control)

    async def _notes(self, outcome: Outcome, home: str, cat: Catalog) -> list[str]:
        if outcome.state.phase is not Phase.SETUP:
            return []
        group = await self._group(outcome.game_id, home)
        return [cat.text("tg-announce-group" if group else "tg-announce-here")]

    async def _show_panel(self, home: str, outcome: Outcome, *, fresh: bool = False,
                          repost: bool = True) -> None:
        """Edit the stored panel, or post it afresh (``fresh``; or the chat moved on; or the old
        one is gone) and take the keyboard off the old one. ``repost=False``: edit only."""
        game_id = outcome.game_id
        cat = await self.cat(home)
        view = self._views.get(game_id)
        if view is not None and view.revision != outcome.revision:
            view = None
        timer = await self._timer_view(game_id, outcome.state, cat)
        notes = await self._notes(outcome, home, cat)
        panel = pn.render_panel(outcome.state, game_id, outcome.revision, cat, view,
                                timer=timer, notes=notes)
        markup = _markup(panel)
        stored = await self.service.message(game_id, home, PANEL)
        if stored is not None and not fresh:
            lag = self._latest.get(chat_id_of(home), stored) - stored
            if lag <= self.settings.telegram_panel_lag or not repost:
                if await self._edit(home, stored, panel.text, markup) or not repost:
                    return
        if not repost:
            return
        if stored is not None:
            await self._strip(home, stored)
        sent = await self._send(home, panel.text, markup)
        if sent is not None:
            await self.service.set_message(game_id, home, PANEL, sent.message_id)

    async def _retire(self, game_id: int, home: str, text: str | None = None) -> None:
        """A game leaves this chat (replaced, taken over): its timer stops, its panel loses its
        keyboard (and gets ``text`` if given) and is forgotten."""
        await self._stop_timer(game_id)
        stored = await self.service.message(game_id, home, PANEL)
        if stored is None:
            return
        if text is not None:
            await self._edit(home, stored, text)
        else:
            await self._strip(home, stored)
        await self.service.set_message(game_id, home, PANEL, None)

    # --- after an action ------------------------------------------------------------------------
    def _renderer(self, home: str, before: rules.GameState, plan: dict[str, Any]) -> Render:
        """The ``render`` an action passes to the service: after ``rules.apply`` and before the
        commit it turns the outcome into the outbox messages (judge: everything; group: public,
        with the new speech's timer line), so they are stored in the same transaction as the
        event (ENGINEERING.md §1), and so is the timer of the speech that begins (or its end): a
        process killed after the commit finds both. What :meth:`_after_action` needs is left in
        ``plan``."""

        async def render(outcome: Outcome) -> Staged:
            judge_cat = await self.cat(home)
            group = await self._group(outcome.game_id, home)
            group_cat = await self.cat(group) if group else None
            if outcome.undone:
                judge, public = undo_texts(outcome.state, outcome.undone, judge_cat,
                                           group_cat or judge_cat)
                public_msg: str | None = public if group else None
            else:
                judge = judge_text(outcome.notices, judge_cat) or ""
                public_msg = (public_text(outcome.notices, outcome.state, group_cat)
                              if group_cat else None)
            timer = self._new_timer(before, outcome.state)
            items: list[OutboxItem] = []
            if judge:
                items.extend(OutboxItem(home, {"text": part}) for part in chunks(judge, MAX_TEXT))
            turned = turn_key(before) != turn_key(outcome.state)
            if turned:  # the speech that ends: its countdown shown stopped, queued with the action
                plan["ended"] = await self.service.timer(outcome.game_id)
                stopped = await self._stopped_item(plan["ended"])
                if stopped is not None:
                    items.append(stopped)
                    plan["ended"], plan["stopped"] = None, stopped.chat
            index: int | None = None
            if group and public_msg and group_cat is not None:
                text = (public_msg if timer is None
                        else f"{public_msg}\n\n{timer.line(group_cat, self.clock())}")
                plan["group"], index = group, len(items)
                items.append(OutboxItem(group, {"text": text}))
            plan["timer"] = timer
            if not turned:
                return Staged(items)  # the same speech goes on: its timer too

            def stored(ids: Sequence[int]) -> dict[str, Any] | None:
                if timer is None:
                    return None
                if index is not None:  # the countdown is edited into the group's announcement
                    timer.group_chat, timer.group_base = group, public_msg
                    timer.group_outbox = ids[index]  # its message id, once it is sent
                return timer.to_dict()

            return Staged(items, timer=stored)

        return render

    def _new_timer(self, before: rules.GameState, after: rules.GameState) -> Timer | None:
        """The timer of the speech that begins with this action, or ``None`` when the speech
        did not change or nobody speaks (a 0 s silence needs no timer)."""
        old, new = turn_key(before), turn_key(after)
        if old == new:
            return None
        turn = rules.current_turn(after)
        if new is None or turn is None or turn.seconds <= 0:
            return None
        return Timer.start(new, turn, self.settings.telegram_timer_scale, self.clock())

    async def _after_action(self, home: str, before: rules.GameState, outcome: Outcome,
                            plan: dict[str, Any]) -> None:
        """After the service has committed the action and its outbox messages (rendered by
        :meth:`_renderer` into ``plan``): move the timer along, send the queued messages (judge
        first, then the group), refresh the panel. Runs under the home's lock. A send that must
        wait (429) or fails never undoes anything: the sender retries it on its own."""
        game_id = outcome.game_id
        if turn_key(before) != turn_key(outcome.state):
            self._cancel_jobs(game_id)  # the store's timer changed with the action
            ended = plan.get("ended")
            if ended is not None:
                await self._show_stopped(Timer.from_dict(ended))
        timer: Timer | None = plan.get("timer")
        if timer is not None:
            self._arm(game_id, timer)
        await self.outbox.flush(home)
        for chat in dict.fromkeys(c for c in (plan.get("stopped"), plan.get("group")) if c):
            await self.outbox.flush(chat)
        self._views.pop(game_id, None)
        await self._show_panel(home, outcome)

    # --- the timer ------------------------------------------------------------------------------
    def _job_name(self, game_id: int) -> str:
        return f"timer:{game_id}"

    def _cancel_jobs(self, game_id: int) -> None:
        # A map of the one scheduled job per game: PTB's get_jobs_by_name scans every job, which
        # made re-arming thousands of timers at start-up quadratic (bench: 70 s for 7,800).
        job = self._timer_jobs.pop(game_id, None)
        if job is not None:
            job.schedule_removal()

    def _arm(self, game_id: int, timer: Timer) -> None:
        """Schedule the timer's next edit (misfire_grace_time=None: a late job still runs)."""
        self._cancel_jobs(game_id)
        following = timer.next_stage()
        if following is None or self.app is None or self.app.job_queue is None:
            return
        stage, at = following
        self._timer_jobs[game_id] = self.app.job_queue.run_once(
            self._tick, max(0.0, at - self.clock()), data=(game_id, timer.key, stage),
            name=self._job_name(game_id), job_kwargs={"misfire_grace_time": None})

    async def _stop_timer(self, game_id: int) -> None:
        self._cancel_jobs(game_id)
        data = await self.service.timer(game_id)
        if data is None:
            return
        await self.service.set_timer(game_id, None)
        await self._show_stopped(Timer.from_dict(data))

    async def _stopped_item(self, data: dict[str, Any] | None) -> OutboxItem | None:
        """The edit that shows an ended speech's countdown stopped (only one that said "10 s
        left" or "paused" needs it), for the outbox; ``None`` when none is due or the message
        carrying it is not known yet (:meth:`_show_stopped` does it after the commit)."""
        if data is None:
            return None
        timer = Timer.from_dict(data)
        if timer.stage not in (WARNED, PAUSED) or timer.group_chat is None \
                or timer.group_message is None:
            return None
        timer.stage = "stopped"
        cat = await self.cat(timer.group_chat)
        return OutboxItem(timer.group_chat, {"text": timer.group_text(cat, self.clock()),
                                             "message_id": timer.group_message}, kind="edit")

    async def _show_stopped(self, timer: Timer) -> None:
        """A speech's timer has stopped: a countdown left standing in the group would mislead."""
        if timer.stage in (WARNED, PAUSED):
            timer.stage = "stopped"
            await self._edit_group_timer(timer)

    async def _edit_group_timer(self, timer: Timer) -> None:
        """Edit the group's announcement that carries the timer line. Its id comes from the
        outbox once the announcement has left (a 429 may still hold it: then nothing to edit)."""
        if timer.group_message is None and timer.group_outbox is not None:
            row = await self.service.store.outbox_row(timer.group_outbox)
            if row is not None and row.message_id is not None:
                timer.group_chat, timer.group_message = row.chat, row.message_id
        if timer.group_chat is None or timer.group_message is None:
            return
        cat = await self.cat(timer.group_chat)
        await self._edit(timer.group_chat, timer.group_message, timer.group_text(cat, self.clock()))

    async def _tick(self, context: Context) -> None:
        """A timer edit is due (10 s left, or the end)."""
        assert context.job is not None
        game_id, key, stage = context.job.data  # type: ignore[misc]
        if self._timer_jobs.get(game_id) is context.job:
            del self._timer_jobs[game_id]  # it has run: nothing left to cancel
        row = await self.service.store.game(game_id)
        if row is None:
            return
        async with self._lock(row.chat):
            data = await self.service.timer(game_id)
            if data is None:
                return
            timer = Timer.from_dict(data)
            if timer.key != key or not timer.live:
                return
            current = await self.service.current(row.chat)
            if current is None or current.game_id != game_id or turn_key(current.state) != key:
                await self.service.set_timer(game_id, None)
                return
            timer.stage = stage
            # The edit before the store: a process killed between the two edits again after the
            # restart (the same text: harmless); stored first, the edit would be lost for good.
            await self._edit_group_timer(timer)
            await self.service.set_timer(game_id, timer.to_dict())
            await self._show_panel(row.chat, current, repost=False)
            self._arm(game_id, timer)

    async def _rearm(self, context: Context) -> None:
        """After a restart: every running timer of an open Telegram game is armed again (a
        deadline that passed meanwhile fires at once; other adapters' games sharing the store are
        left alone), and what the outbox still holds is sent."""
        for game_id, data in (await self.service.open_timers(prefix=PREFIX)).items():
            timer = Timer.from_dict(data)
            if timer.live:
                self._arm(game_id, timer)
        await self.outbox.drain_all()

    async def _timer_control(self, home: str, current: Outcome, resume: bool) -> None:
        """Pause or resume the running speech's timer (the judge's panel)."""
        timer = await pause_or_resume(self.service, current, resume, self.clock())
        if timer is None:
            return
        if timer.live:
            self._arm(current.game_id, timer)
        else:
            self._cancel_jobs(current.game_id)
        await self._edit_group_timer(timer)
        await self._show_panel(home, current)

    # --- games ----------------------------------------------------------------------------------
    async def _create(self, home: str, user: str, config: rules.RulesConfig, *,
                      previous: Outcome | None, names: dict[int, str] | None = None,
                      roles: tuple[str | None, ...] | None = None, quiet: bool = False) -> Outcome:
        """A new game in the judge's chat: an unfinished one of his is set aside, the linked
        group stays linked; ``roles`` (R1.1), if given, are entered at once, before anything is
        sent. Posts the news (judge and group); the caller shows the panel."""
        cat = await self.cat(home)
        lines: list[str] = []
        announce: str | None = None
        if previous is not None:
            if previous.state.phase is not Phase.GAME_OVER:
                if previous.judge != user:
                    raise ServiceError("not_judge", judge=previous.judge)
                if not quiet:
                    lines.append(cat.text("console-replaced", game=previous.game_id))
            announce = await self._group(previous.game_id, home)
            await self._retire(previous.game_id, home)
        outcome = await self.service.new_game(home, user, config, names, replace=True,
                                              announce=announce)
        if roles is not None:
            outcome = await self.service.act(home, user, rules.SetRoles(roles=roles))
        lines.append(cat.text("console-new-game", game=outcome.game_id,
                              preset=config_label(config, cat)))
        await self._send(home, "\n".join(lines))
        if announce is not None:
            group_cat = await self.cat(announce)
            await self._send(announce, group_cat.text(
                "tg-group-new-game", game=outcome.game_id,
                preset=config_label(config, group_cat)))
        self._views.pop(outcome.game_id, None)
        return outcome

    async def _act(self, home: str, user: str, before: Outcome, event: rules.Event,
                   revision: int | None = None) -> Outcome:
        plan: dict[str, Any] = {}
        outcome = await self.service.act(home, user, event, revision=revision,
                                         render=self._renderer(home, before.state, plan))
        await self._after_action(home, before.state, outcome, plan)
        return outcome

    async def _undo(self, home: str, user: str, before: Outcome, steps: int,
                    revision: int | None = None) -> Outcome:
        plan: dict[str, Any] = {}
        outcome = await self.service.undo(home, user, steps=steps, revision=revision,
                                          render=self._renderer(home, before.state, plan))
        await self._after_action(home, before.state, outcome, plan)
        return outcome

    # --- the judge's private chat ---------------------------------------------------------------
    async def on_private(self, update: Update, context: Context) -> None:
        message = update.message
        if message is None or message.text is None or update.effective_user is None:
            return
        chat = chat_key(message.chat.id)
        user = chat_key(update.effective_user.id)
        self._seen(message.chat.id, message.message_id)
        home = await self.service.home(chat)
        async with self._lock(home):
            await self._private(home, chat, user, message.text)

    async def _private(self, home: str, chat: str, user: str, text: str) -> None:
        cat = await self.cat(chat)
        name = _command_name(text)
        current = await self.service.current(home)
        live = current if current is not None and current.state.phase is not Phase.GAME_OVER else None
        if name == "start" and not (live is not None and live.state.phase is Phase.SETUP):
            await self._send(chat, cat.text("tg-welcome"))
            if live is not None and live.judge == user:
                await self._show_panel(home, live, fresh=True)
            return
        if name == "help":
            await self._send(chat, f"{cat.text('commands-help')}\n\n{cat.text('tg-help')}")
            return
        if name in ("link", "unlink", "takeover"):
            await self._send(chat, cat.text("tg-group-only", command=name))
            return
        try:
            command = cmds.parse(text, live.state if live is not None else None)
            await self._typed(home, chat, user, command, current, live)
        except _Refusal as error:
            await self._send(chat, error_text(error, cat))

    async def _typed(self, home: str, chat: str, user: str, command: cmds.Command,
                     current: Outcome | None, live: Outcome | None) -> None:
        cat = await self.cat(chat)
        confirmed = home in self._confirm_new
        self._confirm_new.discard(home)
        if isinstance(command, Act):
            if live is None:  # the first game command starts a game (as the console does)
                config = NewGame().config()
                refusal = rules.check(rules.new_game(config), command.event)
                if refusal is not None:
                    raise refusal
                live = await self._create(home, user, config, previous=current)
            await self._act(home, user, live, command.event)
        elif isinstance(command, UndoCmd):
            if live is None and current is None:
                raise ServiceError("nothing_to_undo", steps=command.steps, available=0)
            await self._undo(home, user, live or current, command.steps)  # type: ignore[arg-type]
        elif isinstance(command, NewGame):
            if live is not None and not confirmed:  # as the console: a second /new confirms
                self._confirm_new.add(home)
                await self._send(chat, cat.text("console-new-confirm", game=live.game_id))
                return
            outcome = await self._create(home, user, command.config(), previous=current)
            await self._show_panel(home, outcome, fresh=True)
        elif isinstance(command, SetLang):
            await self._set_lang(chat, command.lang)
            await self._send(chat, catalog(command.lang).text("console-lang"))
            if current is not None and current.judge == user:
                await self._show_panel(home, current)
        elif isinstance(command, Show):
            await self._show(home, chat, user, command.what, current)
        else:
            assert isinstance(command, Quit)
            await self._send(chat, cat.text("tg-no-quit"))

    async def _show(self, home: str, chat: str, user: str, what: str,
                    current: Outcome | None) -> None:
        cat = await self.cat(chat)
        if what == "help":
            await self._send(chat, f"{cat.text('commands-help')}\n\n{cat.text('tg-help')}")
            return
        if current is None:
            raise ServiceError("no_game")
        if what == "status":
            if current.judge == user:
                await self._show_panel(home, current, fresh=True)
            else:
                await self._send(chat, status_text(current.state, cat, for_judge=False))
        elif what == "result":
            await self._send(chat, result_text(current.state, cat))
        else:
            row = await self.service.store.game(current.game_id)
            names = row.names if row is not None else {}
            _, notices = rules.fold(current.state.config, await self.service.events(home), names)
            lines = [t for t in (notice_text(n, cat) for n in notices) if t]
            await self._send_long(chat, "\n".join(lines) or status_text(current.state, cat, for_judge=True))

    # --- button presses -------------------------------------------------------------------------
    async def on_press(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None or query.from_user is None:
            return
        message = query.message
        if message is None:
            await self._answer(query)
            return
        chat = chat_key(message.chat.id)
        user = chat_key(query.from_user.id)
        home = await self.service.home(chat)
        async with self._lock(home):
            await self._press(query, home, chat, user)

    async def _press(self, query: CallbackQuery, home: str, chat: str, user: str) -> None:
        cat = await self.cat(chat)
        press = decode(query.data)
        current = await self.service.current(home)
        if press is None or current is None or current.game_id != press.game_id:
            pressed = await self.service.store.game(press.game_id) if press is not None else None
            if pressed is not None and pressed.judge != user:  # e.g. the judge before a take over
                await self._answer(query, cat.text("tg-not-judge"), alert=True)
                return
            await self._answer(query, cat.text("tg-press-outdated"))
            if current is not None and current.judge == user and press is not None:
                await self._show_panel(home, current)
            return
        if user != current.judge:  # only the game's judge changes it
            await self._answer(query, cat.text("tg-not-judge"), alert=True)
            return
        if press.action == pn.INERT:
            await self._answer(query)
            return
        if press.revision != current.revision:  # stale or repeated: nothing changes
            await self._answer(query, cat.text("tg-press-outdated"))
            self._views.pop(current.game_id, None)
            await self._show_panel(home, current)
            return
        try:
            await self._pressed(query, home, user, press, current, cat)
        except _Refusal as error:
            await self._answer(query, fit(error_text(error, cat), 200), alert=True)
            if isinstance(error, ServiceError) and error.code == "stale":
                self._views.pop(current.game_id, None)
                fresh = await self.service.current(home)
                if fresh is not None:
                    await self._show_panel(home, fresh)
        except ValueError:
            await self._answer(query, cat.text("tg-press-outdated"))

    async def _pressed(self, query: CallbackQuery, home: str, user: str, press: Press,
                       current: Outcome, cat: Catalog) -> None:
        action = press.action
        if pn.is_view(press):
            self._views[current.game_id] = press
            await self._answer(query)
            await self._show_panel(home, current)
        elif action in (pn.PAUSE, pn.RESUME):
            await self._answer(query)
            await self._timer_control(home, current, resume=action == pn.RESUME)
        elif action == pn.UNDO:
            plan: dict[str, Any] = {}
            outcome = await self.service.undo(home, user, steps=1, revision=press.revision,
                                              render=self._renderer(home, current.state, plan))
            await self._answer(query, cat.text("tg-undone", count=1))
            await self._after_action(home, current.state, outcome, plan)
        elif action == pn.PRESET:
            await self._change_preset(query, home, user, press, current, cat)
        elif action == pn.NEW:
            await self._answer(query)
            outcome = await self._create(home, user, current.state.config, previous=current)
            await self._show_panel(home, outcome, fresh=True)
        elif action in pn.EVENT_ACTIONS:
            event = pn.event_for(current.state, press)
            plan = {}
            outcome = await self.service.act(home, user, event, revision=press.revision,
                                             render=self._renderer(home, current.state, plan))
            await self._answer(query)
            await self._after_action(home, current.state, outcome, plan)
        else:
            raise ValueError(action)

    async def _change_preset(self, query: CallbackQuery, home: str, user: str, press: Press,
                             current: Outcome, cat: Catalog) -> None:
        """Setup only: the game is created again under another preset (the rules are fixed at
        creation), keeping the names and the roles entered so far."""
        name = press.arg(0)
        state = current.state
        if name not in rules.PRESETS or state.phase is not Phase.SETUP:
            raise ValueError(name)
        if name == state.config.preset:
            await self._answer(query)
            return
        names = {s.number: s.name for s in state.seats if s.name}
        roles = tuple(s.role.value if s.role else None for s in state.seats) \
            if state.roles_known else None
        outcome = await self._create(home, user, rules.PRESETS[name], previous=current, names=names,
                                     roles=roles, quiet=True)
        await self._answer(query)  # after the new game and its roles are stored
        await self._show_panel(home, outcome, fresh=True)

    # --- the group ------------------------------------------------------------------------------
    async def on_group(self, update: Update, context: Context) -> None:
        message = update.message
        if message is None or message.text is None or update.effective_user is None:
            return
        name = _command_name(message.text)
        if name not in TELEGRAM_COMMANDS:
            try:
                cmds.parse(message.text, None)
            except CommandError as error:
                if error.code == "unknown_command":
                    return  # another bot's command
        group = chat_key(message.chat.id)
        user = chat_key(update.effective_user.id)
        home = await self.service.home(group)
        async with self._lock(home):
            await self._group_command(update, message, name, group, user, home)

    async def _group_command(self, update: Update, message: Message, name: str, group: str,
                             user: str, home: str) -> None:
        cat = await self.cat(group)
        current = await self.service.current(home) if home != group else None
        if name == "link":
            await self._link(update, group, user, home, current)
        elif name == "unlink":
            if current is None or current.judge != user:
                await self._send(group, cat.text("tg-only-judge"))
                return
            await self.service.unlink(group)
            await self.service.set_announce(current.game_id, None)
            await self._send(group, cat.text("tg-unlinked"))
            await self._show_panel(home, current)
        elif name == "takeover":
            await self._take_over(update, group, user, home, current)
        elif name == "lang":
            await self._group_lang(message.text or "", group, user, current)
        elif name == "status":
            if current is None:
                await self._send(group, cat.text("tg-not-linked"))
            else:
                await self._send(group, status_text(current.state, cat, for_judge=False))
        elif name in ("help", "start"):
            await self._send(group, cat.text("tg-help-group"))
        elif current is not None and current.judge == user:
            await self._send(group, cat.text("tg-group-use-private"))
        else:
            await self._send(group, cat.text("tg-only-judge"))

    async def _link(self, update: Update, group: str, user: str, home: str,
                    current: Outcome | None) -> None:
        """The judge links this group to his game: announcements go here from now on."""
        cat = await self.cat(group)
        judge_home = user  # his private chat: chat id == user id
        game = await self.service.current(judge_home)
        if game is None or game.judge != user or game.state.phase is Phase.GAME_OVER:
            await self._send(group, cat.text("tg-link-no-game"))
            return
        if current is not None and home != judge_home and current.judge != user \
                and current.state.phase is not Phase.GAME_OVER:
            await self._send(group, cat.text("tg-link-busy", game=current.game_id))
            return
        title = update.effective_chat.title if update.effective_chat is not None else None
        async with self._lock(judge_home) if judge_home != home else contextlib.nullcontext():
            previous = await self._group(game.game_id, judge_home)
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
                return
            await self._send(judge_home, judge_cat.text("tg-linked-private", title=title or group,
                                                        game=game.game_id))
            await self._show_panel(judge_home, game)

    async def _take_over(self, update: Update, group: str, user: str, home: str,
                         current: Outcome | None) -> None:
        """A chat admin takes the linked game over (the old judge is told); the panel moves to
        the new judge's private chat."""
        cat = await self.cat(group)
        if current is None or current.state.phase is Phase.GAME_OVER:
            await self._send(group, cat.text("tg-not-linked"))
            return
        if current.judge == user:
            await self._send(group, cat.text("tg-takeover-already"))
            return
        if not await self._is_admin(group, user):
            await self._send(group, cat.text("tg-takeover-not-admin"))
            return
        old_judge, old_home = current.judge, home
        new_home = user
        async with self._lock(new_home):
            try:
                outcome = await self.service.take_over(group, user, home=new_home)
            except ServiceError as error:
                if error.code == "home_busy":
                    await self._send(group, cat.text("tg-takeover-busy"))
                    return
                raise
            who = update.effective_user.full_name if update.effective_user else user
            old_cat = await self.cat(old_home)
            await self._retire_panel_only(current.game_id, old_home,
                                          old_cat.text("tg-panel-taken", game=current.game_id, judge=who))
            await self._send(old_judge, old_cat.text("tg-taken-over-old", game=current.game_id, judge=who))
            await self._send(group, cat.text("tg-taken-over-group", game=current.game_id, judge=who))
            self._views.pop(outcome.game_id, None)
            await self._show_panel(new_home, outcome, fresh=True)
            if await self.service.message(outcome.game_id, new_home, PANEL) is None:
                await self._send(group, cat.text("tg-takeover-start-bot"))

    async def _retire_panel_only(self, game_id: int, home: str, text: str) -> None:
        stored = await self.service.message(game_id, home, PANEL)
        if stored is not None:
            await self._edit(home, stored, text)
            await self.service.set_message(game_id, home, PANEL, None)

    async def _is_admin(self, group: str, user: str) -> bool:
        try:
            member = await self._bot.get_chat_member(chat_id_of(group), chat_id_of(user))
        except TelegramError as error:
            log.warning("getChatMember %s %s failed: %s", group, user, error)
            return False
        return member.status in ADMIN_STATUSES

    async def _group_lang(self, text: str, group: str, user: str, current: Outcome | None) -> None:
        cat = await self.cat(group)
        try:
            command = cmds.parse(text, None)
        except CommandError as error:
            await self._send(group, error_text(error, cat))
            return
        if not isinstance(command, SetLang):
            return
        allowed = (current is not None and current.judge == user) or await self._is_admin(group, user)
        if not allowed:
            await self._send(group, cat.text("tg-only-judge"))
            return
        await self._set_lang(group, command.lang)
        await self._send(group, catalog(command.lang).text("console-lang"))

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its link and language follow the new chat id."""
        message = update.effective_message
        if message is None or message.migrate_to_chat_id is None:
            return
        await self.service.migrate_chat(chat_key(message.chat.id), chat_key(message.migrate_to_chat_id))


# --- building and running ---------------------------------------------------------------------------

def build_application(settings: Settings, service: Service | None = None, *,
                      clock: Callable[[], float] = time.time) -> AnyApp:
    """The Application of judge mode and host mode (:mod:`.host`): handlers, per-chat ordering,
    ``AIORateLimiter`` (:class:`.host.HostRateLimiter`) with the settings' limits, the JobQueue
    for timers. ``service=None``: the store at ``settings.db`` is
    opened when the Application initialises and closed at shutdown."""
    if settings.telegram_token is None:
        raise ValueError("no Telegram token (MAFIA_REFEREE_TELEGRAM_TOKEN or TELEGRAM_BOT_TOKEN)")
    referee = TelegramReferee(settings, service, clock=clock)
    host = TelegramHost(settings, referee)  # host mode (bot/telegram/host): the bot runs a table

    async def post_init(app: AnyApp) -> None:
        await referee.post_init(app)
        await host.post_init(app)

    builder = (
        Application.builder()
        .token(settings.telegram_token.get_secret_value())
        .concurrent_updates(PerChatUpdateProcessor())
        .rate_limiter(HostRateLimiter(
            overall_max_rate=settings.telegram_rate_overall, overall_time_period=1,
            group_max_rate=settings.telegram_rate_group,
            group_time_period=settings.telegram_rate_group_period,
            max_retries=settings.telegram_max_retries))
        .post_init(post_init)
        .post_shutdown(referee.post_shutdown)
    )
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
    secret = settings.telegram_webhook_secret
    configure_logging(settings.telegram_token.get_secret_value(),
                      secret.get_secret_value() if secret is not None else "", fmt=settings.log_format)
    if settings.telegram_webhook_url and not webhook_available():
        log.error("webhook mode needs tornado: pip install 'python-telegram-bot[webhooks]'")
        return 2
    app = build_application(settings)
    start_heartbeat(app, settings)
    try:
        if settings.telegram_webhook_url:
            app.run_webhook(**webhook_options(settings, list(ALLOWED_UPDATES)))
        else:
            # a few tries with PTB's backoff before giving up to the service manager's restart
            app.run_polling(allowed_updates=list(ALLOWED_UPDATES), bootstrap_retries=START_RETRIES)
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
    return 0
