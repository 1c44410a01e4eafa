"""Judge mode written once for every platform: the judge's assistant at a live table.

A judge records the game — by typed commands (:mod:`bot.commands`, the console's language) or by
the buttons of his panel (:mod:`.panel`) — and the controller carries it out through the same
:class:`bot.service.Service` as every adapter; a platform gives only its primitives
(:class:`.port.JudgePort`: :mod:`bot.telegram.app`, :mod:`bot.discord.app`) and hands its updates to
the public methods here.

* **Who reads what** (:mod:`.routing`): every notice of an action (private ones included) is
  shown to the judge at the top of his panel, which the action edits: one message, one call (a
  removal by a penalty also comes as a one-line message, :func:`.routing.attention_text`); the
  public ones go to the table's chat as one message; a private notice never reaches it (F24
  §4.4.13, §4.5.4; seed 5.4). At the end the protocol (the score sheet and the JSON files)
  follows the result into the table's chat and the club's channel.
* **The outbox.** The table's message (and the judge's removal line) are rendered after
  ``rules.apply`` and before the commit and queued in the persistent outbox in the SAME
  transaction as the event (:mod:`bot.outbox`), and so is the timer of the step that begins: a
  process killed after the commit finds both. Nothing is sent before the commit; everything
  queued is sent at least once. The panel is edited after the commit (a process killed before
  it shows the action's notices nowhere; the panel the judge asks for shows the game as stored).
* **The panel** is one message where the judge reads, edited in place as the game moves; posted
  afresh at the bottom once the chat has moved on by more than the platform's ``panel_lag``
  messages (the old one loses its buttons); its id is stored with the game, so a restart edits
  the same message. A press carries ``game:revision:action``: a press by anyone but the judge is
  refused, a press from an older revision is answered "outdated" and re-renders the panel; neither
  changes anything.
* **The step timer** (:mod:`.timer`) times every timed step (:func:`rules.timing`: speeches,
  night 0, the shooting, the checks, the best move; docs/rules.md §2.4). It is a deadline stored
  with the game, shown as a line on the panel and under the table's announcement, edited at the
  start, 10 s before the end and at the end; the judge pauses and resumes it, and starts night
  0's second part (the Sheriff's look, F24 §4.2.3) from the panel. It never moves the game on:
  the judge does.
* **One lock per game's home** (:class:`bot.locks.ChatLocks`, shared with host mode): commands,
  presses and timer edits of a game run one at a time.

No rule lives here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import rules
from rules import Phase
from storage import OutboxItem
from storage.shared import kept

from .. import commands as cmds
from .. import outbox as ob
from .. import why
from ..club.answers import Asker, ClubAnswers, mapped_accounts, roster_name, same_player
from ..club.evening import EveningDesk
from ..club.tournament import TOURNAMENT_COMMANDS, DeskAnswer, TournamentDesk
from ..commands import (
    Act, ClubCmd, Command, CommandError, Explain, FixCmd, NewGame, Place, Quit, SetLang, Show,
    TakeOver, TimerCmd, UndoCmd,
)
from ..front import Call
from ..i18n import DEFAULT_LANG, Catalog, catalog
from ..locks import ChatLocks
from ..lru import Recent
from ..render import (
    chunks, config_label, error_text, points_text, result_text, status_text,
)
from ..service import Outcome, Render, Service, ServiceError, Staged
from ..steady import Steady
from . import decide
from . import panel as pn
from .callbacks import Press, decode
from .port import JudgePort, Reply, Target
from .routing import (
    attention_text, correction_texts, judge_text, public_text, step_key, undo_texts,
)
from .timer import COUNTDOWN_GAP, PAUSED, RUNNING, WARNED, Timer, pause_or_resume

log = logging.getLogger(__name__)

PANEL = "panel"  # the message slot of the judge's panel (in the judge's chat)
_TIMER_LINE = "\x00timer\x00"  # where a kept panel's timer line goes (no text has a NUL)
MAX_TEXT = 4096  # the longest text put in one outbox row (a platform splits it further)

Refusal = (CommandError, ServiceError, rules.RuleError)


@dataclass
class _Plan:
    """What an action's render leaves for :meth:`JudgeController._after`."""

    timer: Timer | None = None  # the timer of the step that begins (already in the transaction)
    ended: dict[str, Any] | None = None  # the ended step's timer whose line is still to edit
    chats: list[str] = field(default_factory=list)  # the chats something was queued for
    said: str | None = None  # every notice of the action, for the judge's panel
    turned: bool | None = None  # another step began (the steps' keys compared once, in render)


async def club_settings(service: Service, club: str, user: str, command: ClubCmd,
                        cat: Catalog) -> list[str]:
    """``/settings`` (the club's admin): with no words, the rules the club's new games start
    with and where they come from (its own, the bot's setting, the seed preset); with the words
    of ``/new`` (``fiim2024 timers.speech=45``), the club's own rules — checked as ``/new``
    checks them (:class:`bot.commands.CommandError`, nothing stored); ``off`` forgets them
    (:meth:`bot.service.Service.set_club_rules`)."""
    if command.rest.lower() in ("off", "нет", "-", "reset"):
        await service.set_club_rules(club, None, by=user)
        return [cat.text("club-settings-reset"), *await club_settings(service, club, user,
                                                                      ClubCmd("settings"), cat)]
    if command.rest:
        rules_now = await service.set_club_rules(club, command.rest, by=user)
        assert rules_now is not None
        return [cat.text("club-settings-set", words=rules_now.words)]
    rules_now = await service.club_rules(club)
    if rules_now is None:
        return [cat.text("club-settings-seed")]
    return [cat.text("club-settings-own" if rules_now.own else "club-settings-default",
                     words=rules_now.words)]


class JudgeController:
    """Judge mode over a platform's :class:`.port.JudgePort` (see the module docstring)."""

    def __init__(self, service: Callable[[], Service], port: JudgePort, locks: ChatLocks) -> None:
        self._service = service
        self.port = port
        self.locks = locks
        # per game or chat, as many as the chats' locks keep (bot.lru):
        # game id -> the panel's view (reset by any change)
        self._views: Recent[int, Press] = Recent(locks.limit)
        # chat -> the newest message id seen there
        self._latest: Recent[str, int] = Recent(locks.limit)
        # home -> the judge whose /new awaits a second
        self._confirm_new: Recent[str, str] = Recent(locks.limit)
        # game id -> when its panel was last edited (port.monotonic)
        self._edited: Recent[int, float] = Recent(locks.limit)
        # game id -> its running timer's deadline on the monotonic clock (issue 32: a step of
        # the wall clock moves no timer; the stored deadline stays the wall clock's)
        self._steady: Steady[int] = Steady(port.clock, port.monotonic, limit=locks.limit)
        # game id -> (the panel's message id, a hash of what it was last written with): an edit
        # that would write the same again is not made (a stale press re-showing the panel)
        self._shown: Recent[int, tuple[int, int]] = Recent(locks.limit)
        # game id -> (revision, what that revision's action said): the panel's first lines
        self._said: Recent[int, tuple[int, str]] = Recent(locks.limit)
        # game id -> (what the panel was rendered from, the panel with the timer's line left
        # out): a timer's tick renders only that line (:meth:`_render`)
        self._rendered: Recent[int, tuple[Any, pn.Panel]] = Recent(locks.limit)
        # game id -> its home chat when its timer was last armed (a hint the timer's tick checks:
        # the store's row is read only without one, or when the game has moved since)
        self._homes: Recent[int, str] = Recent(locks.limit)
        self._answered: set[int] = set()  # the presses being handled that were answered (ids)
        self.club_tz = "UTC"  # the club's time zone (settings.timezone): /stats month, dates
        #: the clubs' evening sign-up (``/evening new``), where the platform runs one
        self.evenings: EveningDesk | None = None

    @property
    def service(self) -> Service:
        return self._service()

    def seen(self, chat: str, message_id: int) -> None:
        """A message appeared in ``chat`` (sent by the bot, or by the judge): the panel is
        posted afresh once it has gone that far up."""
        self._latest[chat] = max(self._latest.get(chat, 0), message_id)

    def forget_view(self, game_id: int) -> None:
        self._views.pop(game_id, None)

    async def _cat(self, chat: str) -> Catalog:
        return await self.port.cat(chat)

    def _t(self, cat: Catalog, key: str, **args: Any) -> str:
        """A text whose wording depends on the platform (``platform`` selects the variant)."""
        return cat.text(key, platform=self.port.platform, **args)

    async def _queue(self, *items: OutboxItem, game_id: int | None = None) -> None:
        """Queue messages that no action carries (a take over's, a new game's) and send them."""
        if items:
            await self.service.store.enqueue(list(items), game_id=game_id)
            await self.port.outbox.flush(*(item.chat for item in items))

    async def _answer(self, handle: Any, text: str | None = None, *, alert: bool = False) -> None:
        """Answer a press (noted: a press answered once is told anything more in the chat)."""
        self._answered.add(id(handle))
        await self.port.answer(handle, text, alert=alert)

    async def _mark(self, home: str) -> tuple[int, int] | None:
        """The home's current game and its revision: what an action that is stored moves on."""
        current = await self.service.current(home)
        return None if current is None else (current.game_id, current.revision)

    async def _failed(self, home: str, mark: tuple[int, int] | None) -> str:
        """What the judge is told when an action fails inside (a bug, a full disk): "not saved,
        try again" when the game's log has not moved since ``mark`` (the service dropped what it
        held, so the game is as stored), else "saved, but the message could not be sent" — and
        then the stored timer is armed again and the panel shown, as far as they can be."""
        try:
            now = await self._mark(home)
        except Exception:  # noqa: BLE001 - the store cannot even be read: nothing was stored
            log.exception("judge: %s cannot be read", home)
            now = mark
        if mark is not None:
            self._views.pop(mark[0], None)
        try:
            cat = await self._cat(home)
        except Exception:  # noqa: BLE001
            cat = catalog(DEFAULT_LANG)
        if now == mark or now is None:
            return cat.text("error-not-saved")
        try:
            data = await self.service.timer(now[0])
            if data is not None and Timer.from_dict(data).live:
                self._arm(now[0], Timer.from_dict(data), home)
            current = await self.service.current(home)
            if current is not None:
                await self.show_panel(home, current)
        except Exception:  # noqa: BLE001 - said below; the next action shows it
            log.exception("judge: %s cannot show the stored game", home)
        return cat.text("error-saved-not-sent")

    async def _tell(self, target: Target, text: str) -> None:
        """A word for the judge in his chat, outside any action (best effort: it is logged when
        even that fails)."""
        try:
            await self._queue(*self._post(target, text))
        except Exception:  # noqa: BLE001
            log.exception("judge: cannot tell %s", target.chat)

    def _post(self, target: Target, text: str, **extra: Any) -> list[OutboxItem]:
        return [ob.post(target.chat, part, private=target.private, **extra)
                for part in chunks(text, MAX_TEXT)]

    # --- the panel ---------------------------------------------------------------------------------
    async def _timer_view(self, game_id: int, state: rules.GameState, cat: Catalog,
                          timer: Timer | None = None) -> pn.TimerView | None:
        """The panel's timer: the stored one's (``timer``: that one, already read by the caller)."""
        if timer is None:
            data = await self.service.timer(game_id)
            if data is None:
                return None
            timer = Timer.from_dict(data)
        if timer.key != step_key(state):
            return None
        control = True if timer.live else (False if timer.stage == PAUSED else None)
        parts = rules.timing(state)
        following = parts[timer.part + 1].kind if timer.part + 1 < len(parts) else None
        line = self.port.panel_timer_line(timer, cat, self._now(game_id, timer))
        return pn.TimerView(line, control, following)

    def _render(self, outcome: Outcome, cat: Catalog, view: Press | None,
                timer: pn.TimerView | None, notes: list[str]) -> pn.Panel:
        """:func:`.panel.render_panel` of the game at ``outcome``'s revision. Kept per game
        until anything it shows but the timer's line changes: a timer's tick (its countdown,
        10 s left, the end) re-renders only that line."""
        said = self._said.get(outcome.game_id)
        text = said[1] if said is not None and said[0] == outcome.revision else None
        key = (outcome.revision, view, cat.lang, text, tuple(notes),
               None if timer is None else (timer.running, timer.next_part))
        kept = self._rendered.get(outcome.game_id)
        if kept is None or kept[0] != key:
            shown = None if timer is None else replace(timer, line=_TIMER_LINE)
            kept = (key, pn.render_panel(outcome.state, outcome.game_id, outcome.revision, cat,
                                         view, timer=shown, notes=notes, said=text))
            self._rendered[outcome.game_id] = kept
        panel = kept[1]
        if timer is None:
            return panel
        return pn.Panel(panel.text.replace(_TIMER_LINE, timer.line, 1), panel.rows)

    async def panel_of(self, home: str, outcome: Outcome, *, timer: Timer | None = None) -> pn.Panel:
        """The judge's panel of ``outcome`` as it is shown now (its view, what the last action
        said, the timer's line, the platform's notes) — in his chat, and on the screen of his
        Mini App (:mod:`bot.web`), whose taps are this panel's presses."""
        cat = await self._cat(home)
        view = self._views.get(outcome.game_id)
        if view is not None and view.revision != outcome.revision:
            view = None
        shown = await self._timer_view(outcome.game_id, outcome.state, cat, timer)
        notes = await self.port.panel_notes(outcome.state, outcome.game_id, home, cat)
        return self._render(outcome, cat, view, shown, notes)

    async def show_panel(self, home: str, outcome: Outcome, *, fresh: bool = False,
                         repost: bool = True, handle: Any = None,
                         timer: Timer | None = None) -> bool:
        """The judge's panel: edited in place (by the press's own answer where the platform does
        so), else (``fresh``; or the chat moved on below it; or it is gone) posted afresh, the old
        one's buttons taken off. ``repost=False``: edit only. ``False`` when the judge cannot be
        written to. An edit that would leave the panel as this process last wrote it is not made
        (no Bot API call), unless it answers a press (``handle``). ``timer``: the game's stored
        timer, when the caller has just read it (a timer's tick)."""
        game_id = outcome.game_id
        target = self.port.judge_chat(home, outcome.judge)
        cat = await self._cat(home)
        panel = await self.panel_of(home, outcome, timer=timer)
        title = cat.text("judge-panel-title", game=game_id)
        written = hash((panel, title))
        stored = await self.service.message(game_id, target.chat, PANEL)
        if stored is not None and not fresh:
            lag = self._latest.get(target.chat, stored) - stored
            if lag <= self.port.panel_lag or not repost:
                if handle is None and self._shown.get(game_id) == (stored, written):
                    return True  # the judge reads exactly this already
                self._edited[game_id] = self.port.monotonic()
                if await self.port.edit_panel(target, stored, panel, title, handle):
                    self._shown[game_id] = (stored, written)
                    return True
                self._shown.pop(game_id, None)
                if not repost:
                    return True
        if not repost:
            return True
        self._shown.pop(game_id, None)
        self._edited[game_id] = self.port.monotonic()
        if stored is not None:
            await self.port.drop_panel(target, stored)
        sent = await self.port.post_panel(target, panel, title)
        if sent is None:
            await self.service.set_message(game_id, target.chat, PANEL, None)
            return False
        self.seen(target.chat, sent)
        await self.service.set_message(game_id, target.chat, PANEL, sent)
        self._shown[game_id] = (sent, written)
        return True

    async def close_panel(self, game_id: int, home: str, judge: str, text: str | None = None) -> None:
        """A judge's panel of this game stops working: its buttons go (it says ``text``)."""
        target = self.port.judge_chat(home, judge)
        stored = await self.service.message(game_id, target.chat, PANEL)
        if stored is None:
            return
        self._shown.pop(game_id, None)
        await self.port.close_panel(target, stored, text)
        await self.service.set_message(game_id, target.chat, PANEL, None)

    async def retire(self, previous: Outcome, home: str, text: str | None = None) -> None:
        """A game leaves the chat (replaced, taken over): its timer stops, its removed players
        are let go, its panel loses its buttons (and says ``text``)."""
        await self._stop_timer(previous.game_id)
        await self.port.sync_removed(previous.game_id, home, previous.judge, set())
        await self.port.sync_floor(previous.game_id, home, previous.judge, None)
        await self.close_panel(previous.game_id, home, previous.judge, text)

    # --- after an action -----------------------------------------------------------------------------
    def _renderer(self, home: str, before: rules.GameState, plan: _Plan) -> Render:
        """The ``render`` an action passes to the service: after ``rules.apply`` and before the
        commit it turns the outcome into the outbox messages (the judge: everything; the table:
        the public notices, with the new step's timer line; at the end the protocol), so they
        are stored in the same transaction as the event, and so is the timer of the step that
        begins (or its end). What :meth:`_after` needs is left in ``plan``."""

        async def render(outcome: Outcome) -> Staged:
            judge_cat = await self._cat(home)
            target = self.port.judge_chat(home, outcome.judge)
            public = await self.port.public_chat(outcome.game_id, home)
            club = await self.port.club_chat(outcome.game_id, home)
            public_cat = await self._cat(public) if public else None
            if outcome.undone:
                judge, said = undo_texts(outcome.state, outcome.undone, judge_cat,
                                         public_cat or judge_cat, outcome.retold)
                public_msg: str | None = said if public else None
            elif outcome.correction is not None:
                judge, fixed = correction_texts(outcome.state, outcome.correction, judge_cat,
                                                public_cat or judge_cat)
                public_msg = fixed if public else None
            else:
                judge = judge_text(outcome.notices, judge_cat) or ""
                public_msg = (public_text(outcome.notices, outcome.state, public_cat)
                              if public_cat else None)
            keys = step_key(before), step_key(outcome.state)  # ~10 µs each: once per action
            timer = self._new_timer(outcome.game_id, outcome.state, *keys)
            items: list[OutboxItem] = []
            plan.said = judge or None  # shown at the top of the panel (:meth:`_after`)
            ping = (None if outcome.undone or outcome.correction is not None
                    else attention_text(outcome.notices, judge_cat))
            if ping:  # the one message of its own the judge gets for an action
                items.extend(self._post(target, ping))
            turned = plan.turned = keys[0] != keys[1]
            if turned:  # the step that ends: its countdown shown stopped, queued with the action
                plan.ended = await self.service.timer(outcome.game_id)
                stopped = await self._stopped_item(plan.ended)
                if stopped is not None:
                    items.append(stopped)
                    plan.ended = None
            index: int | None = None
            if public and public_msg and public_cat is not None:
                text = (public_msg if timer is None else f"{public_msg}\n\n"
                        f"{self.port.timer_line(timer, public_cat, self._now(outcome.game_id, timer))}")
                index = len(items)
                items.append(ob.post(public, text))
            was_over, over = before.phase is Phase.GAME_OVER, outcome.state.phase is Phase.GAME_OVER
            # a correction of a game over that changes its result: the end is told again
            rejudged = was_over and over and before.result != outcome.state.result
            ended = (not was_over and over) or rejudged
            reopened = was_over and not over
            if club and (reopened or rejudged) and public_msg:  # the end taken back: the club
                items.append(ob.post(club, public_msg))  # is told
            if club and before.phase is Phase.SETUP and outcome.state.phase is not Phase.SETUP:
                items.append(await self._club_start_item(outcome, home, public, club))  # as host mode
            if ended:
                items.extend(await self._end_items(outcome, home, public, club))
            plan.timer = timer
            plan.chats = list(dict.fromkeys(item.chat for item in items))
            if not turned:
                return Staged(items)  # the same step goes on: its timer too

            def stored(ids: Sequence[int]) -> dict[str, Any] | None:
                if timer is None:
                    return None
                if index is not None:  # the countdown is edited into the table's announcement
                    timer.group_chat, timer.group_base = public, public_msg
                    timer.group_outbox = ids[index]  # its message id, once it is sent
                return timer.to_dict()

            return Staged(items, timer=stored)

        return render

    async def _club_start_item(self, outcome: Outcome, home: str, public: str | None,
                               club: str) -> OutboxItem:
        """The club channel's note of a game's start (night 0 begins), as host mode posts its
        tables' (``host-channel-start``): the game, its table (the linked group) and its judge."""
        cat = await self._cat(club)
        return ob.post(club, cat.text(
            "judge-club-start", game=outcome.game_id,
            where=self.port.place(public or home) or "none",  # its title: a place is no user
            judge=self.port.name_of(outcome.judge) or self.port.mention(outcome.judge) or "none"))

    async def _end_items(self, outcome: Outcome, home: str, public: str | None,
                         club: str | None) -> list[OutboxItem]:
        """The game is over (F24 §1.4): the protocol (the score sheet and the JSON files) to the
        judge, to the table's chat and, with the result, to the club's channel."""
        return await self.protocol_items(outcome.game_id, home, outcome.judge, public=public,
                                         club=club, state=outcome.state)

    async def protocol_items(self, game_id: int, home: str, judge: str, *,
                             public: str | None, club: str | None, only: str | None = None,
                             state: rules.GameState | None = None) -> list[OutboxItem]:
        """The protocol of finished game ``game_id`` for the judge's chat, the table's chat
        (``public``) and the club's channel (``club``, with the result of ``state``, the game's
        final state); ``only``: just for that chat (``/protocol`` asked there). The sheet names
        the judge and the table. Called while the service holds the game's lock (an action's
        render): it never asks the service."""
        meta = {"judge": self.port.name_of(judge),
                "table": self.port.place(public) if public else self.port.place(home)}
        target = self.port.judge_chat(home, judge)
        items: list[OutboxItem] = []
        for chat, private in ((target.chat, target.private), (public, False)):
            if chat is None or (only is not None and chat != only) \
                    or any(item.chat == chat for item in items):
                continue
            cat = await self._cat(chat if not private else home)
            items.append(ob.protocol(chat, game_id, cat.text("judge-protocol", game=game_id),
                                     lang=cat.lang, private=private, **meta))
        if club and (only is None or only == club):  # one message: the result with the files
            cat = await self._cat(club)
            where = self.port.mention(home) or meta["table"] or "none"  # the table, never «()»
            lines = [cat.text("judge-club-result", game=game_id, where=where)]
            if state is not None:
                lines.append(result_text(state, cat))
            items.append(ob.protocol(club, game_id, "\n".join(lines), lang=cat.lang, **meta))
        return items

    async def send_protocol(self, home: str, user: str, chat: str) -> list[Reply]:
        """``/protocol``: the last game's protocol sent again, to ``chat`` (where it was asked:
        the judge's chat or the table's), if that game is over."""
        cat = await self._cat(chat)
        current = await self.service.current(home)
        if current is None or current.state.phase is not Phase.GAME_OVER:
            return [Reply(cat.text("judge-protocol-none"))]
        public = await self.port.public_chat(current.game_id, home)
        if chat not in (self.port.judge_chat(home, current.judge).chat, public):
            chat = public or home
        items = await self.protocol_items(current.game_id, home, current.judge, public=public,
                                          club=None, only=chat)
        await self._queue(*items, game_id=current.game_id)
        return []

    def _new_timer(self, game_id: int, after: rules.GameState, old: str | None,
                   new: str | None) -> Timer | None:
        """The timer of the step that begins with this action (its first timed part,
        :func:`rules.timing`), or ``None`` when the step did not change or is not timed (a vote;
        a 0 s silence needs no timer). ``old``, ``new``: the :func:`step_key` before and after.
        Its deadline is anchored on the monotonic clock at once (:meth:`_started`)."""
        if old == new or new is None:
            return None
        return self._started(game_id, Timer.start(new, rules.timing(after)[0], self.port.scale,
                                                  self.port.clock()))

    def _started(self, game_id: int, timer: Timer) -> Timer:
        """``timer`` has just started running (or resumed) its full length, or what was left:
        its deadline is kept on the monotonic clock from now (:mod:`bot.steady`)."""
        if timer.deadline is not None:
            left = timer.seconds if timer.run_from is None else timer.run_from
            self._steady.set(game_id, timer.deadline, left * timer.scale)
        return timer

    def _now(self, game_id: int, timer: Timer) -> float:
        """The moment ``timer`` (game ``game_id``'s) is at, as :class:`.timer.Timer` takes it: a
        running one's from its deadline on the monotonic clock (its deadline less the seconds
        left, whatever the wall clock did since it was armed: :mod:`bot.steady`); a paused or an
        ended one's is the wall clock's."""
        if timer.deadline is None or not timer.live:
            return self.port.clock()
        return self._steady.now(game_id, timer.deadline)

    async def _after(self, home: str, before: rules.GameState, outcome: Outcome,
                     plan: _Plan) -> bool:
        """After the service has committed the action and its outbox messages (rendered by
        :meth:`_renderer` into ``plan``): move the timer along, send the queued messages (the
        judge first, then the table), let the removed players' mutes follow, refresh the panel.
        Runs under the home's lock. A send that must wait or fails never undoes anything: the
        sender retries it on its own. Returns whether the panel reached the judge."""
        game_id = outcome.game_id
        turned = plan.turned if plan.turned is not None else step_key(before) != step_key(outcome.state)
        if turned:
            self.port.cancel(self._group(game_id))  # the store's timer changed with the action
            if plan.ended is not None:
                await self._show_stopped(Timer.from_dict(plan.ended))
        if plan.timer is not None:
            self._arm(game_id, plan.timer, home)
        target = self.port.judge_chat(home, outcome.judge)
        await self.port.outbox.flush(target.chat, *plan.chats, defer_files=True)
        removed: set[int] = set()
        if outcome.state.phase is not Phase.GAME_OVER:
            removed = {n for n, d in outcome.state.departures()
                       if d.cause in (rules.Cause.FOULS, rules.Cause.DISQUALIFICATION)}
        await self.port.sync_removed(game_id, home, outcome.judge, removed)
        await self.port.sync_floor(game_id, home, outcome.judge, outcome.state)
        self._views.pop(game_id, None)
        if plan.said:
            self._said[game_id] = (outcome.revision, plan.said)
        else:
            self._said.pop(game_id, None)
        return await self.show_panel(home, outcome)

    def _reached(self, cat: Catalog, reached: bool) -> list[Reply]:
        """After a typed action: nothing to say, unless the judge's panel could not reach him."""
        return [] if reached else [Reply(self._t(cat, "judge-unreachable"))]

    async def act(self, home: str, user: str, before: Outcome, event: rules.Event, *,
                  revision: int | None = None, handle: Any = None) -> bool:
        """The judge does ``event`` (the service may refuse it: nothing changes); ``handle``: the
        press that asked, answered once the action is committed. Returns whether the judge's
        panel reached him."""
        plan = _Plan()
        outcome = await self.service.act(home, user, event, revision=revision,
                                         render=self._renderer(home, before.state, plan))
        if handle is not None:
            await self._answer(handle)
        return await self._after(home, before.state, outcome, plan)

    async def undo(self, home: str, user: str, before: Outcome, steps: int, *,
                   revision: int | None = None, handle: Any = None) -> bool:
        """Take back the last ``steps`` actions (:meth:`bot.service.Service.undo`): the judge is
        told what was taken back, the table what it had been told."""
        plan = _Plan()
        outcome = await self.service.undo(home, user, steps=steps, revision=revision,
                                          render=self._renderer(home, before.state, plan))
        if handle is not None:
            await self._answer(handle, (await self._cat(home)).text("judge-undone", count=steps))
        return await self._after(home, before.state, outcome, plan)

    async def timer_command(self, home: str, current: Outcome | None,
                            command: TimerCmd) -> list[Reply]:
        """``/timer``: the running step's timer as the panel shows it; ``/timer pause``,
        ``resume``, ``next``: as the panel's buttons (the game never changes)."""
        cat = await self._cat(home)
        if current is None:
            raise await self.service.missing(home)
        if command.what == "show":
            view = await self._timer_view(current.game_id, current.state, cat)
            return [Reply(view.line if view is not None else cat.text("judge-timer-none"))]
        if command.what == "next":
            data = await self.service.timer(current.game_id)
            if data is None or Timer.from_dict(data).next_part(current.state, self.port.clock()) is None:
                return [Reply(cat.text("judge-timer-no-next"))]  # night 0's parts only
            await self._next_part(home, current)
        else:
            await self._timer_control(home, current, resume=command.what == "resume")
        return []

    async def fix(self, home: str, user: str, before: Outcome, command: FixCmd) -> bool:
        """Correct an earlier action (:meth:`bot.service.Service.fix`; docs/rules.md §2.6): the
        replacement is read against the game as it stood before that action; the judge is told
        what it corrected and what changed as a result, the table what changed in what it had
        been told. A refusal (the first later action it would break) changes nothing."""
        replacement = await decide.replacement(self.service, home, before, command)
        plan = _Plan()
        outcome = await self.service.fix(home, user, command.seq, replacement,
                                         render=self._renderer(home, before.state, plan))
        return await self._after(home, before.state, outcome, plan)

    # --- the timer -----------------------------------------------------------------------------------
    def _group(self, game_id: int) -> str:
        return f"timer:{game_id}"

    def _arm(self, game_id: int, timer: Timer, home: str | None = None) -> None:
        """Schedule the timer's next edit (a late call still runs): its next stage, or the
        panel's countdown where the platform has one (``port.countdown_step``). ``home``: the
        game's home chat, when the caller knows it (the tick then need not read the store)."""
        if home is not None:
            self._homes[game_id] = home
        self.port.cancel(self._group(game_id))
        now = self._now(game_id, timer)
        following = timer.next_edit(now, self.port.countdown_step)
        if following is None:
            return
        stage, at = following
        self._schedule_tick(game_id, timer.key, stage, at - now,
                            timer if stage == timer.stage else None)

    def _schedule_tick(self, game_id: int, key: str, stage: str, delay: float,
                       countdown: Timer | None = None) -> None:
        """``countdown``: the timer as armed, when the tick is only the panel's countdown."""
        self.port.schedule(self._group(game_id), max(0.0, delay),
                           lambda: self._tick(game_id, key, stage, countdown))

    async def _stop_timer(self, game_id: int) -> None:
        self.port.cancel(self._group(game_id))
        data = await self.service.timer(game_id)
        if data is None:
            return
        await self.service.set_timer(game_id, None)
        await self._show_stopped(Timer.from_dict(data))

    async def _stopped_item(self, data: dict[str, Any] | None) -> OutboxItem | None:
        """The edit that shows an ended step's countdown stopped (only one whose line still
        counts needs it: :meth:`_standing`), for the outbox; ``None`` when none is due or the message
        carrying it is not known yet (:meth:`_show_stopped` does it after the commit)."""
        if data is None:
            return None
        timer = Timer.from_dict(data)
        if not self._standing(timer) or timer.group_chat is None or timer.group_message is None:
            return None
        timer.stage = "stopped"
        cat = await self._cat(timer.group_chat)
        return ob.edit(timer.group_chat, self._group_text(timer, cat), message_id=timer.group_message)

    def _group_text(self, timer: Timer, cat: Catalog) -> str:
        base = timer.group_base or ""
        line = self.port.timer_line(timer, cat, self.port.clock())
        return f"{base}\n\n{line}" if base else line

    def _standing(self, timer: Timer) -> bool:
        """Would the timer's line mislead once its step is over? "10 s left", "paused", "resumed,
        20 s left", and any running one where the platform's countdown goes on by itself; the
        first line ("60 seconds") only states the length."""
        if timer.stage in (WARNED, PAUSED):
            return True
        return timer.stage == RUNNING and (self.port.live_countdown or timer.run_from is not None)

    async def _show_stopped(self, timer: Timer) -> None:
        """A step's timer has stopped: a countdown left standing in the group would mislead."""
        if self._standing(timer):
            timer.stage = "stopped"
            await self._edit_group_timer(timer)

    async def _edit_group_timer(self, timer: Timer) -> None:
        """Edit the table's announcement that carries the timer line. Its id comes from the
        outbox once the announcement has left; while the outbox still holds it (a long flood
        limit, a restart), the edit is queued behind it, so that a countdown whose deadline
        passed meanwhile is shown ended as soon as it is out, not «60 секунд» for ever."""
        row = None
        if timer.group_message is None and timer.group_outbox is not None:
            row = await self.service.store.outbox_row(timer.group_outbox)
            if row is not None and row.message_id is not None:
                timer.group_chat, timer.group_message = row.chat, row.message_id
        if timer.group_chat is None:
            return
        cat = await self._cat(timer.group_chat)
        if timer.group_message is not None:
            await self.port.edit(timer.group_chat, timer.group_message, self._group_text(timer, cat))
        elif row is not None and row.state == "pending":
            await self._queue(ob.edit(row.chat, self._group_text(timer, cat), of_row=row.id),
                              game_id=row.game_id)

    async def _tick(self, game_id: int, key: str, stage: str, countdown: Timer | None = None) -> None:
        """A timer edit is due: 10 s left, or the end (the table's line and the panel); or only
        the panel's countdown (``countdown``: the timer as armed; ``stage`` is its own), which
        waits until :data:`.timer.COUNTDOWN_GAP` after the panel's last edit and is skipped
        while the bot is busy (``port.has_room``: the next one comes a step later; the end the
        panel shows as a clock time stays right). A skipped countdown reads nothing: with many
        tables timing at once most of them are skipped, and each read of the store costs.

        The game's home chat is the one it was armed in (:attr:`_homes`), checked under that
        chat's lock (its current game must be this one); the store's row is read only without
        one, or when the game has moved since (a take-over into the new judge's chat)."""
        room: bool | None = None
        if countdown is not None:
            room = self.port.has_room()
            if not room:
                self._arm(game_id, countdown)  # the timer as armed: a change since cancelled this
                return
        home = self._homes.get(game_id)
        if home is not None and await self._tick_in(home, game_id, key, stage, countdown, room,
                                                    hinted=True):
            return
        row = await self.service.store.game(game_id)
        if row is None or not row.chat.startswith(self.port.prefix):
            return
        self._homes[game_id] = row.chat
        await self._tick_in(row.chat, game_id, key, stage, countdown, room, hinted=False)

    async def _tick_in(self, home: str, game_id: int, key: str, stage: str,
                       countdown: Timer | None, room: bool | None, *, hinted: bool) -> bool:
        """:meth:`_tick` in game ``game_id``'s home chat ``home`` (under its lock). Returns
        ``False`` only when ``hinted`` (``home`` was remembered, not read from the store) and
        the game is no longer ``home``'s current one: nothing was done, the caller reads the
        store. A game no longer its (stored) home's current one has its timer cleared."""
        async with self.locks.lock(home):
            data = await self.service.timer(game_id)
            if data is None:
                return True
            timer = Timer.from_dict(data)
            if timer.key != key or not timer.live:
                return True
            current = await self.service.current(home, copy=False)  # read only (the panel)
            if hinted and (current is None or current.game_id != game_id):
                self._homes.pop(game_id, None)
                return False
            if current is None or current.game_id != game_id or step_key(current.state) != key:
                await self.service.set_timer(game_id, None)
                return True
            if stage == timer.stage:  # the panel's countdown only
                edited = self._edited.get(game_id)
                wait = 0.0 if edited is None else \
                    edited + COUNTDOWN_GAP * timer.scale - self.port.monotonic()
                if wait > 0:  # the panel was edited a moment ago: not twice in a row
                    self._schedule_tick(game_id, key, stage, wait, timer)
                    return True
                if room or (room is None and self.port.has_room()):
                    await self.show_panel(home, current, repost=False, timer=timer)
                self._arm(game_id, timer)
                return True
            timer.stage = stage
            # The edit before the store: a process killed between the two edits again after the
            # restart (the same text: harmless); stored first, the edit would be lost for good.
            # The stage is stored, not only kept here: a restart re-arms from it (a timer that ran
            # out would otherwise edit «10 s left» and «over» again, for every game at once), and
            # the next action's "stopped" edit is due only for a standing stage (_stopped_item).
            await self._edit_group_timer(timer)
            await self.service.set_timer(game_id, timer.to_dict())
            await self.show_panel(home, current, repost=False, timer=timer)
            self._arm(game_id, timer)
            return True

    async def rearm(self, home: str | None = None) -> None:
        """After a restart: every running timer of an open game of this platform is armed again
        (a deadline that passed meanwhile fires at once; other platforms' games sharing the store
        are left alone). With ``home``: that home chat's current game's only (a shared worker
        taking the chat over, :mod:`bot.telegram.shared`)."""
        if home is not None:
            current = await self.service.current(home)
            data = await self.service.timer(current.game_id) if current is not None else None
            timers = {current.game_id: data} if current is not None and data else {}
        else:
            timers = await self.service.open_timers(prefix=self.port.prefix)
        for game_id, data in timers.items():
            timer = Timer.from_dict(data)
            if timer.live:
                self._arm(game_id, timer, home)

    def disarm(self, game_id: int) -> None:
        """Stop this process's timer of game ``game_id`` (another worker owns its chat now)."""
        self._homes.pop(game_id, None)
        self._shown.pop(game_id, None)  # the other worker may write the panel meanwhile
        self._steady.drop(game_id)  # it re-arms from the stored deadline if it takes it back
        self.port.cancel(self._group(game_id))

    async def _timer_control(self, home: str, current: Outcome, resume: bool,
                             handle: Any = None) -> None:
        """Pause or resume the running step's timer (the judge's panel)."""
        timer = await pause_or_resume(self.service, current, resume,
                                      lambda paused: self._now(current.game_id, paused))
        if timer is not None:
            if timer.live:
                self._started(current.game_id, timer)
                self._arm(current.game_id, timer, home)
            else:
                self.port.cancel(self._group(current.game_id))
            await self._edit_group_timer(timer)
        await self.show_panel(home, current, handle=handle)

    async def _next_part(self, home: str, current: Outcome, handle: Any = None) -> None:
        """The judge starts the running step's next timed part (night 0: the Sheriff's look
        after the meeting, F24 §4.2.3; the free seating, S24 §4.2.3): the part before stops
        where it is, the new one runs its full length in the same lines. Nothing in the game
        changes. A press with no next part left (outdated) only shows the panel again."""
        data = await self.service.timer(current.game_id)
        following = Timer.from_dict(data).next_part(current.state, self.port.clock()) \
            if data is not None else None
        if following is not None:
            after = self._started(current.game_id, following)
            await self.service.set_timer(current.game_id, after.to_dict())
            self._arm(current.game_id, after, home)
            await self._edit_group_timer(after)
        await self.show_panel(home, current, handle=handle)

    # --- games ---------------------------------------------------------------------------------------
    async def create(self, home: str, user: str, config: rules.RulesConfig, *,
                     previous: Outcome | None, names: dict[int, str] | None = None,
                     roles: tuple[str | None, ...] | None = None, quiet: bool = False,
                     tournament: tuple[int, int] | None = None) -> Outcome:
        """A new game in ``home``: an unfinished one is set aside by its own judge only (it is
        recorded as abandoned); the table's chat stays where it was; ``roles`` (F24 §1.1), if given,
        are entered at once, before anything is sent; ``tournament``: ``(tournament id, table)``,
        the game is that table's next one of the plan (recorded with its creation). The news
        goes to the judge and the table; the caller shows the panel."""
        cat = await self._cat(home)
        lines: list[str] = []
        announce: str | None = None
        public: str | None = await self.port.public_chat(None, home)
        if previous is not None:
            if previous.state.phase is not Phase.GAME_OVER:
                if previous.judge != user:
                    raise ServiceError("not_judge", judge=previous.judge)
                if not quiet:
                    lines.append(cat.text("console-replaced", game=previous.game_id))
            announce = await self.service.announce(previous.game_id)
            public = await self.port.public_chat(previous.game_id, home)
            await self.retire(previous, home)
        public_cat = await self._cat(public) if public is not None else None
        target = self.port.judge_chat(home, user)

        def news(game_id: int) -> list[OutboxItem]:
            """The new game's news (queued with its creation): the judge's and the table's."""
            if quiet:
                return []
            preset = config_label(config, cat)  # the preset and the club's options in force
            items = self._post(target, "\n".join(
                [*lines, cat.text("console-new-game", game=game_id, preset=preset)]))
            if public is not None and public_cat is not None:
                items.append(ob.post(public, self._t(
                    public_cat, "judge-new-game-public", game=game_id,
                    preset=config_label(config, public_cat), judge=self.port.mention(user))))
            return items

        outcome = await self.service.new_game(home, user, config, names, replace=True,
                                              announce=announce, news=news, tournament=tournament)
        await self.port.outbox.flush(target.chat, *([public] if public else []))
        if roles is not None:
            outcome = await self.service.act(home, user, rules.SetRoles(roles=roles))
        self._views.pop(outcome.game_id, None)
        return outcome

    async def change_preset(self, home: str, user: str, name: str, current: Outcome) -> Outcome | None:
        """Setup only: the game is created again under another preset (the rules are fixed at
        creation), keeping the names and the roles entered so far, and how the hands are recorded
        (``record_voters``). ``ValueError`` for an unknown preset or a game past its setup;
        ``None`` when it is the preset already."""
        if name not in rules.PRESETS or current.state.phase is not Phase.SETUP:
            raise ValueError(name)
        if name == current.state.config.preset:
            return None
        config = rules.PRESETS[name].with_options(record_voters=current.state.config.record_voters)
        outcome = await self._recreate(home, user, config, current)
        public = await self.port.public_chat(outcome.game_id, home)
        if public is not None and public != self.port.judge_chat(home, user).chat:
            cat = await self._cat(public)
            await self._queue(ob.post(public, cat.text(
                "judge-preset", game=outcome.game_id, preset=cat.text(f"preset-{name}"))),
                game_id=outcome.game_id)
        return outcome

    async def toggle_voters(self, home: str, user: str, current: Outcome) -> Outcome:
        """Setup only: the game is created again with the hands recorded by seat instead of as
        counts, or back (``record_voters``; not a rule: the table is not told). ``ValueError``
        for a game past its setup."""
        config = current.state.config
        return await self._recreate(home, user, config.with_options(record_voters=not config.record_voters),
                                    current)

    async def _recreate(self, home: str, user: str, config: rules.RulesConfig,
                        current: Outcome) -> Outcome:
        """The game in setup created again under ``config``, with its names and roles so far."""
        state = current.state
        if state.phase is not Phase.SETUP:
            raise ValueError(state.phase)
        names = {s.number: s.name for s in state.seats if s.name}
        roles = tuple(s.role.value if s.role else None for s in state.seats) \
            if state.roles_known else None
        return await self.create(home, user, config, previous=current, names=names, roles=roles,
                                 quiet=True,  # a tournament's game keeps its place in the plan
                                 tournament=await self.service.store.tournament_place(current.game_id))

    # --- typed commands: the front door's judge part (bot.front) ---------------------------------
    def held(self, home: str) -> Any:
        """The lock of ``home``'s game, held while a routed command runs (:class:`bot.front.Front`)."""
        return self.locks.lock(home)

    @staticmethod
    def state(current: Outcome | None, place: Place) -> rules.GameState | None:
        """What a command is parsed against: the home's game (``/nominate 7``: its speaker; the
        penalties: its preset's reasons — after the end too, a penalty recorded then, F24 §7.9)."""
        return current.state if current is not None else None

    async def run(self, call: Call) -> list[Reply]:
        """A command routed to judge mode (:mod:`bot.front`), under the home's lock (but
        ``/takeover``, which takes its locks itself): the answers for the asker. In a group, the
        linked game's public status, protocol and rulings; at the desk, the judge's commands. An
        internal error is answered too (:meth:`_failed`); a refusal goes back to the router."""
        command = call.command
        if isinstance(command, TakeOver):
            return await self.take_over(call.chat, call.user, call.entry.name or self.port.mention(call.user),
                                        home=self.port.desk_of(call.user))
        if call.place is Place.GROUP:
            return await self._for_group(call)
        current = call.current
        mark = None if current is None else (current.game_id, current.revision)
        try:
            return await self._typed(call.home, call.user, command, current,
                                     notes=lambda: self.port.new_game_notes(call.entry.handle, call.cat),
                                     handle=call.entry.handle)
        except Refusal:
            raise
        except Exception as error:  # a bug, a full disk: said, never silent
            if kept(error):  # the database away: applied again once it is back
                return []
            log.exception("judge: %r in %s failed", call.entry.text, call.home)
            return [Reply(await self._failed(call.home, mark))]

    async def _for_group(self, call: Call) -> list[Reply]:
        """``/status``, ``/protocol``, ``/rule``, ``/why`` in a group: the linked game's, for the
        whole group (a private ruling never: the group sees only the public)."""
        cat, home, group = call.cat, call.home, call.chat
        command = call.command
        if isinstance(command, Explain) and (command.what == "rule" or home != group
                                             or call.current is not None):
            # a rule is no game's; a ruling is the linked game's (or the group's own hosted
            # table's, over)
            return await self.explain(home, call.user, command, group, private=False)
        if home == group:  # no game linked here
            return [Reply(cat.text("tg-not-linked"))]
        if isinstance(command, Show) and command.what == "protocol":
            return await self.send_protocol(home, call.user, group)
        assert isinstance(command, Show) and command.what == "status", command
        current = call.current
        if current is None:
            missing = await self.service.missing(home)
            if missing.code == "quarantined":  # its game set aside: why
                raise missing
            return [Reply(cat.text("tg-not-linked"))]
        return [Reply(status_text(current.state, cat, for_judge=False))]

    async def club_call(self, call: Call) -> list[Reply]:
        """A club command routed here (:data:`bot.commands.CLUB_COMMANDS`): the club is the chat
        it is typed in (a group, a channel, a table), or at the judge's desk the group his game
        is linked to (else his own chat). The judge of the chat's game is official (he may
        change the roster), and so is a chat admin for ``/rename``, ``/merge`` and ``/evening``;
        the official's ``/evening`` goes to the club's channel when it has one (``/channel``:
        README, «by the judge or an admin»)."""
        command = call.command
        assert isinstance(command, ClubCmd)
        current = call.current
        club = call.chat if call.place in (Place.GROUP, Place.TABLE) else \
            await self._club_of(call.home, current)
        if command.what == "evening" and command.args:  # the sign-up: the chat is the club
            return [Reply(line) for line in await self._evening(call, command)]
        if command.what == "settings":  # the router has checked: the chat's admin
            return [Reply(line) for line in await club_settings(self.service, club, call.user,
                                                                command, call.cat)]
        # the judge or the chat's admin: changes the roster, posts /evening to the club's
        # channel (README, «A club's players across games»)
        official = (current is not None and current.judge == call.user) or (
            call.place in (Place.GROUP, Place.TABLE) and command.what in ("rename", "merge", "evening")
            and await call.admin())
        replies = await self.club_replies(club, call.user, command, official=official)
        channel = await self.service.store.host_channel(club) if command.what == "evening" else None
        if channel is None or not official or call.place not in (Place.GROUP, Place.TABLE):
            return replies
        # the evening's table and the season's top, posted in the club's channel
        posted = Reply("\n".join(r.text for r in replies), chat=channel[0],
                       picture=next((r.picture for r in replies if r.picture is not None), None))
        return [posted, Reply(call.cat.text("club-evening-posted", channel=channel[1] or channel[0]))]

    async def _evening(self, call: Call, command: ClubCmd) -> list[str]:
        """``/evening new|close|cancel …``: in a group or a channel (the club is that chat), by
        its admin (:meth:`bot.club.evening.EveningDesk.command`); at a private desk, refused."""
        if self.evenings is None or call.place not in (Place.GROUP, Place.TABLE, Place.CHANNEL):
            return [call.cat.text("evening-in-group")]
        return await self.evenings.command(call.chat, call.user, command, call.cat,
                                           admin=await call.admin())

    async def tournament_call(self, call: Call) -> list[Reply]:
        """``/tournament`` or ``/table`` routed here (the router has checked who may open one):
        in a group (no lock held) the group is the club and a table taken over moves its game
        into the chief judge's own chat; at a desk the club of the judge's game."""
        command = call.command
        assert isinstance(command, ClubCmd)
        if call.place in (Place.GROUP, Place.TABLE):
            return await self.tournament_replies(call.chat, call.user, command, move=True,
                                                 may_open=call.granted)
        return await self.tournament_replies(await self._club_of(call.home, call.current), call.user,
                                             command, may_open=call.granted)

    async def _club_of(self, home: str, current: Outcome | None) -> str:
        """The club a command typed at the judge's desk acts on: the group his game is linked
        to, else the desk's own chat."""
        return (await self.service.announce(current.game_id) if current is not None else None) or home

    async def typed(self, home: str, user: str, text: str, *,
                    notes: Callable[[], list[str]] | None = None) -> list[Reply]:
        """A command typed at the judge's desk by ``user``, acting on ``home``'s game, under the
        home's lock: parsed, then carried out as :meth:`run` does. The answers for him (a
        refusal says why; nothing changed). ``notes()``: extra lines for a new game (the bot's
        missing rights). An internal error is answered too (:meth:`_failed`)."""
        async with self.locks.lock(home):
            mark: tuple[int, int] | None = None
            try:
                # one read serves the whole command; the service's own state, read only (an
                # action makes a new one): no copy (~25 µs)
                current = await self.service.current(home, copy=False)
                mark = None if current is None else (current.game_id, current.revision)
                live = current if current is not None and current.state.phase is not Phase.GAME_OVER \
                    else None
                command = cmds.parse(text, live.state if live is not None else None)
                return await self._typed(home, user, command, current, notes=notes)
            except Refusal as error:
                return [Reply(error_text(error, await self._cat(home)))]
            except Exception as error:  # a bug, a full disk: said, never silent
                if kept(error):  # the database away: applied again once it is back
                    return []
                log.exception("judge: %r in %s failed", text, home)
                return [Reply(await self._failed(home, mark))]

    async def _typed(self, home: str, user: str, command: Command, current: Outcome | None, *,
                     notes: Callable[[], list[str]] | None = None, handle: Any = None) -> list[Reply]:
        cat = await self._cat(home)
        live = decide.in_progress(current)
        confirmed = self._confirm_new.pop(home, None) == user
        if cmds.next_in_shooting(command, live.state if live is not None else None):
            raise CommandError("shooting_first", command="next")
        if isinstance(command, Explain):  # anyone may ask; nothing changes
            return await self.explain(home, user, command, home, private=True)
        opening: rules.RulesConfig | None = None
        if isinstance(command, Act) and live is None:  # the game just over, or the next one
            club = (await self.service.announce(current.game_id) if current is not None else None) or home
            opening = await decide.game_for(self.service, home, club, current, command.event)
            live = current if opening is None else None
        if isinstance(command, (Act, UndoCmd, FixCmd, TimerCmd)):
            game = live or current
            if game is not None and game.judge != user and (live is not None or not isinstance(command, Act)):
                return [Reply(self._t(cat, "judge-not-judge", judge=self.port.mention(game.judge)))]
        if isinstance(command, Act):
            seated: list[str] = []
            if live is None:  # the command starts the next game (decide.game_for)
                assert opening is not None
                live, seated = await self._create_seated(home, user, opening, current, cat)
            club = await self.service.announce(live.game_id) or home
            event, offered = await roster_name(self.service.store, club, command.event, cat)
            clash = await self._same_player(home, club, live, event)
            if clash is not None:
                return [Reply(cat.text("club-seat-same-player", seat=event.seat, other=clash))]
            return [*(Reply(line) for line in seated),
                    *self._reached(cat, await self.act(home, user, live, event)),
                    *(Reply(line) for line in offered)]
        if isinstance(command, UndoCmd):
            game = live or current
            if game is None:
                raise ServiceError("nothing_to_undo", steps=command.steps, available=0)
            return self._reached(cat, await self.undo(home, user, game, command.steps))
        if isinstance(command, FixCmd):
            game = live or current
            if game is None:
                raise await self.service.missing(home)
            return self._reached(cat, await self.fix(home, user, game, command))
        if isinstance(command, TimerCmd):
            return await self.timer_command(home, live or current, command)
        if isinstance(command, NewGame):
            if command.voice is not None and not self.port.voice_tables:
                raise CommandError("unknown_option", option="voice")
            if live is not None and live.judge != user:
                return [Reply(self._t(cat, "judge-busy", game=live.game_id,
                                      judge=self.port.mention(live.judge)))]
            if not confirmed and decide.asks_before_replacing(live):  # a second /new confirms
                self._confirm_new[home] = user
                return [Reply(cat.text("console-new-confirm", game=live.game_id))]
            club = (await self.service.announce(current.game_id) if current is not None else None) or home
            config = await self.service.new_game_rules(club, command)  # typed over the club's rules
            outcome, seated = await self._create_seated(home, user, config, current, cat)
            replies = [Reply(self._t(cat, "judge-created", game=outcome.game_id)),
                       *(Reply(line) for line in seated)]
            replies.extend(Reply(line) for line in (notes() if notes is not None else []))
            if not await self.show_panel(home, outcome, fresh=True):
                replies.append(Reply(self._t(cat, "judge-unreachable")))
            if command.voice is not None:  # /new voice:#table: the game's voice channel
                lines = await self.port.bind_voice(handle, home, command.voice,
                                                   current.game_id if current is not None else None)
                replies.extend(Reply(line) for line in lines)
            return [r for r in replies if r.text]
        if isinstance(command, SetLang):  # the platform's (see typed)
            return []
        if isinstance(command, Show):
            return await self.show(home, user, command.what, current)
        if isinstance(command, ClubCmd):  # the club of the game's group, or of this chat
            official = current is not None and current.judge == user
            return await self.club_replies(await self._club_of(home, current), user, command,
                                           official=official)
        if isinstance(command, Quit):
            return [Reply(cat.text("judge-no-quit"))]
        # not the judge's (a host's /newgame, a platform's /link …): the router never sends one here
        raise CommandError("unknown_command", command=type(command).__name__)

    async def _same_player(self, home: str, club: str, live: Outcome, event: Any) -> int | None:
        """A name that would make seat ``event.seat`` the club player of a seat mapped to a
        member (Discord's ``/seat``): the other seat, else ``None``
        (:func:`bot.club.answers.same_player`)."""
        if not isinstance(event, rules.SetName):
            return None
        accounts = mapped_accounts(home, await self.service.messages(live.game_id))
        if not accounts:
            return None
        names = {s.number: s.name for s in live.state.seats if s.name is not None}
        names[event.seat] = event.name
        return await self.same_player(club, event.seat, names, accounts)

    async def same_player(self, club: str, seat: int, names: dict[int, str],
                          accounts: dict[int, str]) -> int | None:
        """Another seat of ``club``'s roster entry that ``seat`` would be, by ``names`` (seat →
        name) and ``accounts`` (seat → the member mapped to it): one player, one seat
        (:func:`bot.club.answers.same_player`); ``None``: none."""
        return await same_player(self.service.store, club, seat, names, accounts)

    async def _create_seated(self, home: str, user: str, config: rules.RulesConfig,
                             current: Outcome | None, cat: Catalog) -> tuple[Outcome, list[str]]:
        """:meth:`create`; a judge running a tournament's table (issue 17, part 4) gets his
        table's next game with its seats named by the plan, and the line that says so."""
        desk = self._desk(cat)
        seating = await desk.seating(user)
        outcome = await self.create(home, user, config, previous=current,
                                    names=seating.names if seating is not None else None,
                                    tournament=seating.place if seating is not None else None)
        if seating is None:
            return outcome, []
        return outcome, await desk.started(seating, outcome.game_id, cat)

    def tournament_desk(self, cat: Catalog) -> TournamentDesk:
        """The tournament commands' desk of this platform (the web's tournament page reads it)."""
        return self._desk(cat)

    def _named(self, user: str, cat: Catalog) -> str:
        """A user as a message names him: his name as the platform shows it literally
        (:meth:`~bot.i18n.Catalog.name`), else the platform's mention of him."""
        name = self.port.name_of(user)
        return cat.name(name) if name else self.port.mention(user)

    def _desk(self, cat: Catalog) -> TournamentDesk:
        """The tournament desk, naming people and chats in ``cat``'s messages literally."""
        async def state_of(game_id: int) -> rules.GameState | None:
            row = await self.service.store.game(game_id)
            current = await self.service.current(row.chat) if row is not None else None
            return current.state if current is not None and current.game_id == game_id \
                and current.state.phase is not Phase.GAME_OVER else None
        return TournamentDesk(self.service.store, state_of=state_of,
                              who=lambda user: self._named(user, cat),
                              where=lambda chat: cat.name(self.port.place(chat) or "") or None,
                              hosting=True, clock=self.port.clock, tz=self.club_tz)

    async def tournament_replies(self, club: str, user: str, command: ClubCmd, *,
                                 move: bool = False, may_open: bool = True) -> list[Reply]:
        """``/tournament`` or ``/table`` in ``club`` (:mod:`bot.club.tournament`); ``may_open``:
        ``user`` may open a tournament there (the group's admin). With ``move`` (no chat's
        lock held: the platform's group handler) a table's running game moves to the chief
        judge who takes the table over (:meth:`take_over`, into his own chat). A closed
        tournament's standings go to the club's channel with its games' protocols, when the
        club has one (``/channel``)."""
        cat = await self._cat(club)
        own = await self.service.current(user) if move and command.what == "table" else None
        answer = await self._desk(cat).answer(
            club, user, command, cat, may_open=may_open, platform=self.port.platform,
            busy=own is not None and own.state.phase is not Phase.GAME_OVER)
        replies = [Reply("\n".join(answer.lines))]  # one message: the plan, the view
        for game_id, line in answer.aside.items():  # its judge records it in the game's own chat
            row = await self.service.store.game(game_id)
            if row is not None and row.chat not in (club, user):
                await self._queue(ob.post(row.chat, line))
        if answer.taken is not None and move:
            row = await self.service.store.game(answer.taken)
            if row is not None:
                replies.extend(await self.take_over(row.chat, user,
                                                    self._named(user, cat) or user, home=user))
        if answer.closed is not None:
            channel = await self.service.store.host_channel(club)
            if channel is not None:
                await self._post_standings(channel[0], answer)
                replies.append(Reply(cat.text("tournament-posted", channel=channel[1] or channel[0])))
        return replies

    async def _post_standings(self, channel: str, answer: DeskAnswer) -> None:
        """A closed tournament's standings, then each of its games' protocol, to ``channel``."""
        closed = answer.closed
        assert closed is not None
        cat = await self._cat(channel)
        items = [ob.post(channel, "\n".join(answer.posted))]
        for (table, number), game_id in sorted(closed.played.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if game_id not in closed.finished:
                continue
            row = await self.service.store.game(game_id)
            items.append(ob.protocol(
                channel, game_id, cat.text("tournament-protocol", game=game_id), lang=cat.lang,
                judge=self.port.name_of(row.judge) if row is not None else None,
                table=cat.text("tournament-sheet-table", number=closed.id, table=table, game=number)))
        await self._queue(*items)

    async def club_replies(self, club: str, user: str, command: ClubCmd, *,
                           official: bool) -> list[Reply]:
        """:meth:`club` as replies; ``/stats`` brings the player's card, ``/top`` and
        ``/evening`` their table (PNGs, issue 17, part 2), on the last line, for a platform that can
        send a picture."""
        if command.what in TOURNAMENT_COMMANDS:
            return await self.tournament_replies(club, user, command)
        answers = ClubAnswers(self.service.store, tz=self.club_tz, link=self.port.message_link)
        if command.what == "stats":
            draw = answers.stats_card
        elif command.what in ("top", "evening"):
            draw = answers.table_picture
        else:
            return [Reply(line) for line in await self.club(club, user, command, official=official)]
        lines, picture, caption = await draw(club, Asker(user, official), command,
                                             await self._cat(club), self.port.clock())
        replies = [Reply(line) for line in lines]
        if picture is not None and replies:
            replies[-1] = Reply(replies[-1].text, picture=(*picture, caption))
        return replies

    async def club(self, club: str, user: str, command: ClubCmd, *, official: bool) -> list[str]:
        """A club command (``/stats``, ``/top``, ``/games``, the roster; issue 17) in ``club``
        (a group's chat key) asked by ``user``; ``official``: the judge or a chat admin, who may
        change the roster."""
        answers = ClubAnswers(self.service.store, tz=self.club_tz, link=self.port.message_link)
        return await answers.answer(club, Asker(user, official), command, await self._cat(club),
                                    self.port.clock())

    async def show(self, home: str, user: str, what: str, current: Outcome | None) -> list[Reply]:
        """``/status`` (the judge: his panel, afresh; anyone else: the public status), ``/result``
        (the roles only for the judge before the end, privately), ``/log`` (the judge: every
        notice, privately; anyone else: the public ones), ``/log all`` (the judge: the audit
        trail, privately; anyone else: as ``/log``), ``/points`` (F24/S24 §8), ``/protocol``
        (the last game's files again, here), ``/help``."""
        cat = await self._cat(home)
        if what == "help":
            return [Reply(f"{cat.text('commands-help')}\n{cat.text('club-help')}"
                          f"\n{cat.text('commands-reasons', codes=decide.help_reasons(current))}"
                          f"\n\n{self._t(cat, 'judge-help')}")]
        if current is None:
            raise await self.service.missing(home)
        judge = current.judge == user
        over = current.state.phase is Phase.GAME_OVER
        if what == "status":
            if judge:
                if not await self.show_panel(home, current, fresh=True):
                    return [Reply(self._t(cat, "judge-unreachable"))]
                return [r for r in [Reply(self._t(cat, "judge-panel-sent"))] if r.text]
            return [Reply(status_text(current.state, cat, for_judge=False))]
        if what == "points":
            return [Reply(points_text(current.state, cat))]
        if what == "protocol":
            return await self.send_protocol(home, user, home)
        if what == "result":
            if not decide.result_shown(current.state, judge=judge):
                return [Reply(cat.text("result-not-over"))]
            return [Reply(result_text(current.state, cat), private=not over)]
        if what == "log_all" and judge:
            return [Reply(await self.audit_text(home, current), private=True)]
        lines = await decide.log_lines(self.service, home, current, cat, judge=judge)
        return [Reply("\n".join(lines), private=judge)]

    async def explain(self, home: str, user: str, command: Explain, chat: str, *,
                      private: bool) -> list[Reply]:
        """``/rule`` (what a rule says under the game's preset, :mod:`bot.rulebook`) and
        ``/why`` (the last ruling's reason, :mod:`bot.why`), asked by ``user`` in ``chat`` (its
        language). Only the judge, asking where a private answer can reach him alone
        (``private``), hears of a private ruling (a check, a night removal's reason). Reads only:
        the caller holds the home's lock."""
        text, private = await why.answer(self.service, home, command, await self._cat(chat),
                                         judge=user if private else None)
        return [Reply(text, private=private)]

    async def audit_text(self, home: str, current: Outcome) -> str:
        """The game's audit trail for its judge (:mod:`bot.audit`): every logged action, who
        recorded it and when (the platform's words for both), what was undone and by whom."""
        return "\n".join(await decide.audit_lines(
            self.service, current, await self._cat(home),
            who=lambda actor: self.port.mention(actor) or actor, when=self.port.moment))

    # --- presses -------------------------------------------------------------------------------------
    async def press(self, home: str, user: str, data: str | None, handle: Any) -> None:
        """A panel button (``game:revision:action``), under the home's lock. Anyone but the
        judge is refused; an older revision is "outdated" and the panel is shown again; a
        malformed press is outdated. Nothing changes in any of these. An internal error (a bug,
        a full disk) is answered too (:meth:`_failed`), never left spinning."""
        async with self.locks.lock(home):
            mark: tuple[int, int] | None = None
            try:
                current = await self.service.current(home, copy=False)  # read only, as in typed
                mark = None if current is None else (current.game_id, current.revision)
                await self._press(home, user, data, handle, current)
            except Exception as error:
                if kept(error):  # the database away: applied again once it is back
                    return
                log.exception("judge: a press in %s failed", home)
                text = await self._failed(home, mark)
                if id(handle) not in self._answered:
                    await self._answer(handle, text, alert=True)
                else:  # answered once its action was stored: say it in his chat
                    await self._tell(self.port.judge_chat(home, user), text)
            finally:
                self._answered.discard(id(handle))

    async def _press(self, home: str, user: str, data: str | None, handle: Any,
                     current: Outcome | None) -> None:
        cat = await self._cat(home)
        press = decode(data)
        if press is None or current is None or current.game_id != press.game_id:
            pressed = await self.service.store.game(press.game_id) if press is not None else None
            if pressed is not None and pressed.judge != user:  # the judge before a take over
                await self._answer(handle, cat.text("judge-press-not-judge"), alert=True)
                return
            refresh = current is not None and current.judge == user and press is not None
            # "the panel is refreshed" only where it is; a hand-made or foreign press is told
            # that nothing changed
            await self._answer(handle, cat.text("judge-press-outdated" if refresh else "judge-press-unknown"))
            if refresh:
                await self.show_panel(home, current)
            return
        if user != current.judge:  # only the game's judge changes it
            await self._answer(handle, cat.text("judge-press-not-judge"), alert=True)
            return
        if press.action == pn.INERT:
            await self._answer(handle)
            return
        if press.revision != current.revision:  # stale or repeated: nothing changes
            await self._answer(handle, cat.text("judge-press-outdated"))
            self._views.pop(current.game_id, None)
            await self.show_panel(home, current)
            return
        try:
            await self._pressed(handle, home, user, press, current)
        except Refusal as error:
            await self._answer(handle, error_text(error, cat)[:200], alert=True)
            if isinstance(error, ServiceError) and error.code == "stale":
                self._views.pop(current.game_id, None)
                fresh = await self.service.current(home)
                if fresh is not None:
                    await self.show_panel(home, fresh)
        except ValueError:  # a button with arguments no panel makes
            await self._answer(handle, cat.text("judge-press-unknown"))

    async def _pressed(self, handle: Any, home: str, user: str, press: Press,
                       current: Outcome) -> None:
        action = press.action
        if pn.is_view(press):
            self._views[current.game_id] = press
            await self.show_panel(home, current, handle=handle)
            await self._answer(handle)
        elif action in (pn.PAUSE, pn.RESUME):
            await self._timer_control(home, current, resume=action == pn.RESUME, handle=handle)
            await self._answer(handle)
        elif action == pn.LOG:  # the audit trail, as a message of its own below the panel
            await self._answer(handle)
            target = self.port.judge_chat(home, current.judge)
            await self._queue(*self._post(target, await self.audit_text(home, current)),
                              game_id=current.game_id)
        elif action == pn.WHY:  # /why, as a message of its own below the panel
            await self._answer(handle)
            target = self.port.judge_chat(home, current.judge)
            replies = await self.explain(home, user, Explain("why"), target.chat, private=True)
            await self._queue(*self._post(target, "\n".join(r.text for r in replies)),
                              game_id=current.game_id)
        elif action == pn.NEXT_PART:
            await self._next_part(home, current, handle=handle)
            await self._answer(handle)
        elif action == pn.UNDO:
            await self.undo(home, user, current, 1, revision=press.revision, handle=handle)
        elif action == pn.PRESET:
            outcome = await self.change_preset(home, user, press.arg(0), current)
            await self._answer(handle)  # after the new game and its roles are stored
            if outcome is not None:
                await self.show_panel(home, outcome, fresh=True)
        elif action == pn.HANDS_MODE:
            outcome = await self.toggle_voters(home, user, current)
            await self._answer(handle)
            await self.show_panel(home, outcome, fresh=True)
        elif action == pn.NEW:
            await self._answer(handle)
            outcome = await self.create(home, user, current.state.config, previous=current)
            await self.show_panel(home, outcome, fresh=True)
        elif action in pn.EVENT_ACTIONS:
            event = pn.event_for(current.state, press)
            await self.act(home, user, current, event, revision=press.revision, handle=handle)
        else:
            raise ValueError(action)

    # --- taking a game over ---------------------------------------------------------------------------
    async def take_over(self, chat: str, user: str, name: str, *, home: str | None = None) -> list[Reply]:
        """``user`` (a chat admin: the platform has checked) becomes the judge of the game ``chat``
        acts on; with ``home`` the game moves there (his own chat). The old judge is told, his
        panel stops working; the table is told; the new judge gets the panel. Under the locks of
        the game's home and of ``home``."""
        cat = await self._cat(chat)
        old_home = await self.service.home(chat)
        async with self.locks.lock(old_home):
            current = await self.service.current(old_home)
            if current is None or current.state.phase is Phase.GAME_OVER:
                return [Reply(self._t(cat, "judge-takeover-no-game"))]
            if current.judge == user:
                return [Reply(cat.text("judge-takeover-already"))]
            new_home = home or old_home
            lock = self.locks.lock(new_home) if new_home != old_home else None
            if lock is not None:
                await lock.acquire()
            try:
                try:
                    outcome = await self.service.take_over(chat, user, home=home)
                except ServiceError as error:
                    if error.code == "home_busy":
                        return [Reply(cat.text("judge-takeover-busy"))]
                    raise
                old_cat = await self._cat(old_home)
                await self.close_panel(current.game_id, old_home, current.judge,
                                       old_cat.text("judge-panel-taken", game=current.game_id, judge=name))
                told = self.port.judge_chat(current.judge, current.judge)
                items = [*self._post(told, self._t(old_cat, "judge-taken-over-old", game=current.game_id,
                                                   judge=name, where=self.port.mention(old_home)))]
                if chat != told.chat:  # a tournament table's game lives in its judge's own chat: told once
                    items.append(ob.post(chat, cat.text("judge-taken-over-group", game=current.game_id,
                                                        judge=name)))
                await self._queue(*items, game_id=current.game_id)
                self._views.pop(outcome.game_id, None)
                if not await self.show_panel(new_home, outcome, fresh=True):
                    return [Reply(self._t(cat, "judge-unreachable"))]
                done = self._t(cat, "judge-takeover-done", game=current.game_id)
                return [Reply(done)] if done else []
            finally:
                if lock is not None:
                    lock.release()
