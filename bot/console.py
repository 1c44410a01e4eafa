"""The console adapter: a judge at a keyboard (``mafia-referee console``).

Every typed line is parsed by :func:`bot.commands.parse` and carried out by
:class:`bot.service.Service` on a :class:`storage.Store`; this module never applies a rule itself.
After an accepted command the console prints every notice (private ones too: the console user is
the judge) and what to do next; a refused one prints why and changes nothing.

A restart resumes the chat's current game, finished or not: a finished one stays current (``/undo``
takes back its last action; a game command acts on it or starts the next game, as at the bots'
desk: :func:`bot.judge.decide.game_for`) until ``/new``. ``--new`` over an
unfinished game asks first, as ``/new`` does. A command made stale by another writer on the same
database (a second console) is refused in the console's words, followed by the position.

At a terminal, Ctrl-C at the prompt quits at once with one line (every accepted command is already
saved) and exit status 130; the line being typed is dropped, nothing else is. When stdin is not a
terminal the commands are read line by line (blank lines and ``#`` comments
skipped) and echoed after ``"> "``, so the output reads as a transcript. ``--strict`` ends the run
with status 1 at the first refused command.

The same :class:`Session` with ``judge_view=False`` gives the group's view (public notices only,
F24 §4.4.13: roles stay hidden; a refused command prints nothing, its words kept in
:attr:`Reply.refusal` for the judge): the demo uses it.

The judge's view times every timed step as the bots do (:func:`rules.timing`, docs/rules.md §2.4):
when a step begins, its line says how long it runs and until when («до 20:31:15», the machine's
clock); ``/timer`` shows what is left, ``/timer pause|resume``, ``/timer next`` starts night 0's
Sheriff's look (F24 §4.2.3). At a terminal the 10-seconds-left warning and the end are printed as
they come (a thread's alarm: the prompt waits for the judge); a script runs at once, so it gets
none. The timer never moves the game on.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import signal
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Iterator, TextIO, Union
from zoneinfo import ZoneInfo

import rules

from . import audit, why
from . import commands as cmds
from .club.answers import Asker, ClubAnswers, roster_name
from .club.evening import MAX_TABLES, EveningDesk
from .club.evening import TYPED as EVENING_TYPED
from .club.tournament import TournamentDesk
from .commands import (
    Act, ClubCmd, CommandError, Explain, FixCmd, NewGame, Part, Quit, SetLang, Show, TimerCmd,
    UndoCmd,
)
from .front import Call, Entry, Front, Via
from .judge import decide
from .judge.controller import club_settings
from .judge.port import Reply as JudgeReply
from .i18n import DEFAULT_LANG, LANGS, Catalog, catalog
from .judge.routing import correction_texts, retold_changes, step_key, undo_texts
from .judge.timer import OVER, WARN_LEFT, WARNED, Timer, clock_time
from .render import (
    action_text, config_label, error_text, notice_text, points_text, result_text, status_text,
    undone_notices,
)
from .service import Outcome, Service, ServiceError, untouched

CHAT = "console:local"
JUDGE = "console:judge"
PROMPT = "> "
#: The exit status after Ctrl-C at the prompt (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130



class _EveningPort:
    """The evening's sign-up on the console (:class:`bot.club.evening.EveningPort`): what the
    club's chat would see, printed (:attr:`lines`), a private message with the player's mark."""

    max_text = 1 << 20  # a terminal: no message limit

    def __init__(self, session: "Session") -> None:
        self.session = session
        self.lines: list[str] = []
        self._ids = iter(range(1, 1 << 30))

    async def cat(self, chat: str) -> Catalog:
        return self.session.cat

    async def post(self, chat: str, text: str, rows: Any = None, *, private: bool = False) -> int | None:
        self.lines.append(self.session.cat.text("console-evening-private", text=text) if private else text)
        return next(self._ids)

    async def edit(self, chat: str, message_id: int, text: str, rows: Any = None, *,
                   private: bool = False) -> bool:
        self.lines.append(text)
        return True

    async def answer(self, handle: Any, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> None:
        if text:
            self.lines.append(text)

    def clock(self) -> float:
        return self.session.clock()

    def schedule(self, group: str, delay: float, callback: Any) -> None:
        return None  # the console runs no reminders

    def cancel(self, group: str) -> None:
        return None


@dataclass
class Reply:
    """What one command printed, and whether it was accepted."""

    lines: list[str] = field(default_factory=list)
    accepted: bool = True
    quit: bool = False
    outcome: Outcome | None = None
    #: in the group's view, a refusal's words, for the judge alone: the table is not told of a
    #: refused command, and a refusal may name a role (``/ppk 2 red``: «№2 is black», seed 4.3)
    refusal: list[str] = field(default_factory=list)


class Session:
    """One chat's seat at the service: typed commands in, lines of text out.

    ``judge_view`` shows everything to the judge (private notices, what to do next, the step's
    timer); without it only what a group may see is shown (public notices, seed 5.4 / F24
    §4.4.13). ``clock``: wall-clock seconds; ``alarm(delay, call)``: run ``call`` after ``delay``
    seconds (returns something with ``cancel()``; ``None``: no live warnings), and ``ring``
    prints what an alarm says."""

    def __init__(self, service: Service, cat: Catalog, *, chat: str = CHAT, user: str = JUDGE,
                 judge_view: bool = True, clock: Callable[[], float] = time.time,
                 alarm: Callable[[float, Callable[[], None]], Any] | None = None,
                 ring: Callable[[list[str]], None] | None = None) -> None:
        self.service = service
        self.cat = cat
        self.chat = chat
        self.user = user
        self.judge_view = judge_view
        self.clock = clock
        self._alarm = alarm
        self._ring = ring
        self._timer: Timer | None = None  # the running step's (stored with the game too)
        self._alarms: list[Any] = []
        self._pending_new = True  # no game yet: the first game command creates one
        self._confirm_new = False  # a /new over an unfinished game waits for a second /new
        self._confirmed = False  # the command being carried out is that second /new's turn
        self.refused_new = False  # ``open(new=True)`` kept an unfinished game (it asked first)
        self.club_tz = "UTC"  # the club's time zone (MAFIA_REFEREE_TIMEZONE): every clock time shown
        self._front: Front | None = None
        self._done: Reply | None = None  # what the routed command printed (handle reads it)

    @property
    def zone(self) -> dt.tzinfo:
        """:attr:`club_tz` as a ``tzinfo``: the clock of the timer's end and of ``/log all``."""
        return ZoneInfo(self.club_tz)

    # --- starting -------------------------------------------------------------------------------
    async def open(self, *, new: Union[bool, int] = False) -> list[str]:
        """Resume the chat's current game (its state is refolded from the store), or start a
        fresh one now (``new``) or at the first game command (no game yet).

        ``new`` over an unfinished game asks first, as ``/new`` does: the game is kept and
        resumed, and a ``/new`` typed next confirms (``refused_new`` is set); ``new=2`` (the
        flag given twice) replaces it at once. A finished game stays current, as it was before
        the restart: ``/undo`` takes back its last action, a game command acts on it (a name,
        a late penalty) or starts the next game (the roles), any other says it is over."""
        current = await self.service.current(self.chat)
        unfinished = current is not None and current.state.phase is not rules.Phase.GAME_OVER
        if new and (not unfinished or int(new) >= 2 or untouched(current)):
            return await self._new_game(NewGame())
        if current is None:
            missing = await self.service.missing(self.chat)  # its game set aside: said why
            return [error_text(missing, self.cat) if missing.code == "quarantined"
                    else self.cat.text("console-ready")]
        self._pending_new = False
        if not unfinished:
            return [self.cat.text("console-finished", game=current.game_id)]
        lines = [self.cat.text("console-resumed", game=current.game_id)]
        if new:
            self.refused_new = self._confirm_new = True
            lines.append(self.cat.text("console-new-confirm", game=current.game_id))
        stored = await self.service.timer(current.game_id)
        if stored is not None and stored.get("key") == step_key(current.state):
            self._timer = Timer.from_dict(stored)  # the step's timer goes on where it was
            self._arm()
        return lines + [action_text(current.state, self.cat), *self._timer_shown()]

    # --- one command: through the front door (bot.front) -------------------------------------------
    @property
    def front(self) -> Front:
        """The router the console's lines go through, as every platform's do: the console is
        the judge's desk (:attr:`bot.commands.Place.CONSOLE`); the router hands each command to
        its part (:class:`bot.commands.Part`): this session's judge (:meth:`run`), its club, its
        tournament desk, its own language."""
        if self._front is None:
            parts: dict[Part, Any] = {
                Part.JUDGE: self,
                Part.CLUB: Via(lambda call: self._carry(call, self._club)),
                Part.TOURNAMENT: Via(lambda call: self._carry(call, self._tournament)),
                Part.PLATFORM: Via(lambda call: self._carry(call, self._lang)),
            }
            self._front = Front(lambda: self.service, parts, self, self._chat_cat)
        return self._front

    async def _chat_cat(self, chat: str) -> Catalog:
        return self.cat

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool:
        return True  # the console's judge is its own club's admin

    def held(self, home: str) -> Any:
        return contextlib.nullcontext()  # one judge at one keyboard

    def state(self, current: Outcome | None, place: cmds.Place) -> rules.GameState | None:
        """What a line is parsed against: the chat's game (none before the first game command)."""
        return None if self._pending_new or current is None else current.state

    async def handle(self, text: str) -> Reply:
        """Parse and carry out one line (:meth:`bot.front.Front.enter`). A refusal (bad command,
        the service or the rules saying no) gives its message and ``accepted=False``; nothing
        is changed then. In the group's view the message is the judge's alone
        (:attr:`Reply.refusal`): the table's chat is not told of a refused command."""
        self._done = None
        answers = await self.front.enter(Entry("console", cmds.Place.CONSOLE, self.chat, self.user, text))
        done = self._done or Reply()
        lines = [line for answer in answers or () for line in answer.text.split("\n")] \
            if self._done is None else done.lines
        accepted = done.accepted and not any(answer.refused for answer in answers or ())
        if not accepted and not self.judge_view:  # the group is not told (F24 §4.4.13)
            return Reply([], accepted=False, quit=done.quit, refusal=lines)
        return Reply(lines, accepted=accepted, quit=done.quit, outcome=done.outcome)

    async def run(self, call: Call) -> list[JudgeReply]:
        """A judge's command routed to the console: carried out by :meth:`_run`."""
        return await self._carry(call, self._judge)

    async def _judge(self, call: Call) -> Reply:
        if cmds.next_in_shooting(call.command, self.state(call.current, call.place)):
            raise CommandError("shooting_first", command="next")
        return await self._run(call.command)

    async def _carry(self, call: Call, part: Callable[[Call], Awaitable[Reply]]) -> list[JudgeReply]:
        """Carry ``call`` out by ``part``; its :class:`Reply` kept for :meth:`handle`. A command
        made stale by another writer, or one the database could not record, is said in the
        console's words (nothing changed); any other refusal goes back to the router."""
        # only the command right after an asking /new may confirm it (whichever part runs it)
        self._confirmed, self._confirm_new = self._confirm_new, False
        try:
            done = await part(call)
        except ServiceError as error:
            if error.code != "stale":
                raise
            done = Reply(await self._stale_lines(), accepted=False)
        except sqlite3.OperationalError as error:
            # locked by another process, a full disk, a file turned read-only: this command is
            # not recorded (its transaction rolled back), the session goes on with the next
            from .health import fault

            done = Reply([self.cat.text("db-fault", code=fault(error), problem=str(error))],
                         accepted=False)
        self._done = done
        return [JudgeReply(line, refused=not done.accepted) for line in done.lines]

    async def _stale_lines(self) -> list[str]:
        """Another writer (a second console, a bot) changed the game since this one read it:
        nothing was done; say so in the console's words and show where the game stands now."""
        lines = [self.cat.text("console-stale")]
        current = await self.service.current(self.chat)
        if current is not None:
            lines.append(status_text(current.state, self.cat, for_judge=self.judge_view))
        return lines

    async def _run(self, command: cmds.Command) -> Reply:
        confirmed = self._confirmed
        if isinstance(command, Act):
            lines = await self._game_for(command.event)
            event, offered = await roster_name(self.service.store, self.chat, command.event, self.cat)
            outcome = await self.service.act(self.chat, self.user, event)
            return Reply(lines + self._after(outcome) + offered + await self._step_timer(outcome),
                         outcome=outcome)
        if isinstance(command, UndoCmd):
            if self._pending_new:  # a game not yet created has nothing to undo
                raise ServiceError("nothing_to_undo", steps=command.steps, available=0)
            outcome = await self.service.undo(self.chat, self.user, steps=command.steps)
            if not self.judge_view:  # what the group is told, as on the platforms
                _, public = undo_texts(outcome.state, outcome.undone, self.cat, self.cat, outcome.retold)
                return Reply(public.splitlines() if public else [], outcome=outcome)
            lines = [self.cat.text("console-undone", count=len(outcome.undone)),
                     *audit.undone_actions(outcome.state.config, outcome.undone, self.cat)]
            lines.extend(self._undone_lines(outcome))
            return Reply(lines + self._next_lines(outcome.state) + await self._step_timer(outcome),
                         outcome=outcome)
        if isinstance(command, FixCmd):
            if self._pending_new:
                raise await self.service.missing(self.chat)
            reply = await self._fix(command)
            assert reply.outcome is not None
            reply.lines.extend(await self._step_timer(reply.outcome))
            return reply
        if isinstance(command, TimerCmd):
            return Reply(await self._timer_command(command))
        if isinstance(command, NewGame):
            current = None if self._pending_new else await self.service.current(self.chat)
            if not confirmed and decide.asks_before_replacing(current):
                self._confirm_new = True
                return Reply([self.cat.text("console-new-confirm", game=current.game_id)])
            return Reply(await self._new_game(command))
        if isinstance(command, Show):
            return Reply(await self._show(command.what))
        if isinstance(command, Explain):
            return Reply(await self._explain(command))
        assert isinstance(command, Quit), command  # the router sends the judge's commands only
        return Reply(quit=True)

    # --- the console's other parts: its club, its tournament desk, its language -------------------
    async def _club(self, call: Call) -> Reply:
        """A club command (:attr:`bot.commands.Part.CLUB`): the console's own club is its chat
        (issue 17) and its judge the club's official; ``/evening new|close|cancel`` and a
        player's press typed for him (issue 33); ``/settings``, the club's rules."""
        command = call.command
        assert isinstance(command, ClubCmd), command
        if command.what == "evening" and command.args:
            return Reply(await self._evening(command))
        if command.what == "settings":
            return Reply(await club_settings(self.service, self.chat, self.user, command, self.cat))
        answers = ClubAnswers(self.service.store, tz=self.club_tz)
        return Reply(await answers.answer(self.chat, Asker(self.user, official=True), command,
                                          self.cat, self.clock()))

    async def _tournament(self, call: Call) -> Reply:
        """``/tournament``, ``/table`` (:attr:`bot.commands.Part.TOURNAMENT`): the console's one
        judge runs each table in turn (:meth:`_desk`)."""
        assert isinstance(call.command, ClubCmd), call.command
        return Reply((await self._desk().answer(self.chat, self.user, call.command, self.cat)).lines)

    async def _lang(self, call: Call) -> Reply:
        """``/lang ru|en`` (:attr:`bot.commands.Part.PLATFORM`): the console's language, stored."""
        command = call.command
        assert isinstance(command, SetLang), command
        await self.service.store.set_lang(self.chat, command.lang)
        self.cat = catalog(command.lang)
        return Reply([self.cat.text("console-lang", lang=command.lang)])

    async def _evening(self, command: ClubCmd) -> list[str]:
        """``/evening new|close|cancel …`` (its judge is the club's admin) and, with no buttons
        to press, a player's press typed for him: ``/evening go|no|reserve Аня``. What the chat
        would see (the post, each edit, a private message) is printed, then the answer. The
        console runs no reminders (no process waits for them); a sign-up whose start has passed
        is closed, as at its start, before the command is read."""
        port = _EveningPort(self)
        desk = EveningDesk(lambda: self.service, port, zone=self.club_tz, remind=False)
        await desk.catch_up(self.chat)  # its start passed: the sign-up closed, as in the bots
        if command.args[0].lower() in EVENING_TYPED:
            refused = await desk.typed(self.chat, command, port)
            return port.lines + ([self.cat.text(refused, most=MAX_TABLES)] if refused else [])
        said = await desk.command(self.chat, self.user, command, self.cat, admin=True)
        return port.lines + said

    def close(self) -> None:
        """No alarm rings after the console is gone."""
        for pending in self._alarms:
            pending.cancel()
        self._alarms = []

    # --- the step's timer -------------------------------------------------------------------------
    async def _step_timer(self, outcome: Outcome) -> list[str]:
        """After an action: a step that begins starts its timer (its first timed part) and says
        how long and until when; the same step keeps its timer; an untimed one has none."""
        key = step_key(outcome.state)
        if not self.judge_view or (self._timer is not None and self._timer.key == key):
            return []
        self._timer = None
        if key is not None:
            part = rules.timing(outcome.state)[0]
            self._timer = Timer.start(key, part, 1.0, self.clock())
        await self.service.set_timer(outcome.game_id, self._timer.to_dict() if self._timer else None)
        self._arm()
        return self._timer_shown()

    def _timer_shown(self) -> list[str]:
        """The running timer's line: the seconds left and the end as a clock time."""
        if self._timer is None:
            return []
        return [self._timer.countdown_line(self.cat, self.clock(), 1, self.zone)]

    def _arm(self) -> None:
        """The live warning (10 s left) and the end, printed when they come (at a terminal)."""
        for pending in self._alarms:
            pending.cancel()
        self._alarms = []
        timer = self._timer
        if self._alarm is None or timer is None or not timer.live or timer.deadline is None:
            return
        now = self.clock()
        if timer.stage != WARNED and timer.remaining(now) > WARN_LEFT:
            self._alarms.append(self._alarm(timer.deadline - WARN_LEFT - now,
                                            lambda: self._rings(timer, WARNED)))
        self._alarms.append(self._alarm(timer.deadline - now, lambda: self._rings(timer, OVER)))

    def _rings(self, timer: Timer, stage: str) -> None:
        """An alarm is due: if its timer still runs, print the warning or the end."""
        if timer is not self._timer or not timer.live or self._ring is None:
            return
        timer.stage = stage
        self._ring([timer.line(self.cat, self.clock())])

    async def _timer_command(self, command: TimerCmd) -> list[str]:
        """``/timer`` shows what is left; ``pause``, ``resume``, ``next`` (the step's next part,
        night 0's Sheriff's look) as the bots' panel buttons. The game never changes."""
        current = None if self._pending_new else await self.service.current(self.chat)
        if current is None:
            raise await self.service.missing(self.chat)
        timer = self._timer if self._timer is not None and \
            self._timer.key == step_key(current.state) else None
        if timer is None:
            return [self.cat.text("judge-timer-none")]
        now = self.clock()
        if command.what == "pause":
            timer.pause(now)
        elif command.what == "resume":
            timer.resume(now)
        elif command.what == "next":
            following = timer.next_part(current.state, now)
            if following is None:  # night 0's parts only: nothing moves
                return [self.cat.text("judge-timer-no-next")]
            self._timer = timer = following
        if command.what != "show":
            await self.service.set_timer(current.game_id, timer.to_dict())
            self._arm()
        return [timer.countdown_line(self.cat, now, 1, self.zone) if timer.live else timer.line(self.cat, now)]

    async def _fix(self, command: FixCmd) -> Reply:
        """``/fix 12 /foul 5 4.1.1``: the replacement read against the game as it stood before
        action 12; what it corrected and what changed as a result (the judge's view), or, in
        the group's view, what changed in the public announcements."""
        current = await self.service.current(self.chat)
        if current is None:
            raise await self.service.missing(self.chat)
        outcome = await self.service.fix(self.chat, self.user, command.seq,
                                         await decide.replacement(self.service, self.chat, current, command))
        assert outcome.correction is not None
        judge, public = correction_texts(outcome.state, outcome.correction, self.cat, self.cat)
        lines = (judge if self.judge_view else public or "").splitlines()
        return Reply(lines + self._next_lines(outcome.state), outcome=outcome)

    async def _game_for(self, event: rules.Event) -> list[str]:
        """A game command with no game in progress acts on the game just over or starts the
        next one, as at the bots' desk (:func:`bot.judge.decide.game_for`; refused otherwise,
        nothing created): the lines of the game it started."""
        current = None if self._pending_new else await self.service.current(self.chat)
        if decide.in_progress(current) is not None:
            return []
        config = await decide.game_for(self.service, self.chat, self.chat, current, event)
        if config is None:
            return []
        return await self._new_game(NewGame(), show_next=False, config=config)

    async def _new_game(self, command: NewGame, *, show_next: bool = True,
                        config: rules.RulesConfig | None = None) -> list[str]:
        current = await self.service.current(self.chat)
        lines: list[str] = []
        if current is not None and current.state.phase is not rules.Phase.GAME_OVER \
                and not untouched(current):  # an untouched game is replaced without a word
            lines.append(self.cat.text("console-replaced", game=current.game_id))
        desk = self._desk()
        seating = await desk.seating(self.user)  # a tournament's table: its next game's seats
        if config is None:  # the typed ones over the club's own rules
            config = await self.service.new_game_rules(self.chat, command)
        outcome = await self.service.new_game(self.chat, self.user, config,
                                              seating.names if seating is not None else None,
                                              replace=True,
                                              tournament=seating.place if seating is not None else None)
        self._pending_new = False
        lines.append(self.cat.text("console-new-game", game=outcome.game_id,
                                   preset=config_label(outcome.state.config, self.cat)))
        if seating is not None:
            lines.extend(await desk.started(seating, outcome.game_id, self.cat))
        if self.judge_view and show_next:
            lines.append(action_text(outcome.state, self.cat))
        return lines

    def _desk(self) -> TournamentDesk:
        """The console's tournament (issue 17, part 4): its one judge runs each table in turn
        (``/table N``), the club is the console's chat."""
        async def state_of(game_id: int) -> rules.GameState | None:
            current = await self.service.current(self.chat)
            return current.state if current is not None and current.game_id == game_id \
                and current.state.phase is not rules.Phase.GAME_OVER else None
        return TournamentDesk(self.service.store, state_of=state_of, clock=self.clock,
                              tz=self.club_tz)

    def _after(self, outcome: Outcome) -> list[str]:
        """The notices of an accepted action, then what comes next (or the result)."""
        lines = [text for text in self.notice_lines(outcome.notices) if text]
        return lines + self._next_lines(outcome.state)

    def notice_lines(self, notices: Iterable[rules.Notice]) -> list[str]:
        """The announcement lines; private notices only in the judge's view."""
        out: list[str] = []
        for notice in notices:
            if notice.private and not self.judge_view:
                continue
            text = notice_text(notice, self.cat)
            if text:
                out.append(text)
        return out

    def _undone_lines(self, outcome: Outcome) -> list[str]:
        """What the undo took back: the announcements of the undone events, as Telegram's
        correction shows them (private ones only in the judge's view)."""
        if outcome.retold is not None:  # a correction taken back: what stood changes back
            return retold_changes(outcome.retold, self.cat, public=not self.judge_view)
        taken = self.notice_lines(undone_notices(outcome.state, outcome.undone))
        return [self.cat.text("console-undone-what", what=text) for text in taken]

    def _next_lines(self, state: rules.GameState) -> list[str]:
        if not self.judge_view:
            return []
        if state.phase is rules.Phase.GAME_OVER:
            return [result_text(state, self.cat)]
        return [action_text(state, self.cat)]

    async def _show(self, what: str) -> list[str]:
        current = await self.service.current(self.chat)
        if what == "help":  # the reason codes of this game's rules (of the default ones before /new)
            return [self.cat.text("console-help"), self.cat.text("club-help"),
                    self.cat.text("commands-reasons", codes=decide.help_reasons(current))]
        if current is None:
            raise await self.service.missing(self.chat)
        state = current.state
        if what == "status":
            return [status_text(state, self.cat, for_judge=self.judge_view)]
        if what == "result":
            if not decide.result_shown(state, judge=self.judge_view):
                return [self.cat.text("result-not-over")]
            return [result_text(state, self.cat)]
        if what == "points":
            return [points_text(state, self.cat)]
        if what == "protocol":  # the files are written by the command line (bot.protocol_cli)
            if state.phase is not rules.Phase.GAME_OVER:
                return [self.cat.text("judge-protocol-none")]
            return [self.cat.text("console-protocol", game=str(current.game_id))]
        if what == "log_all" and self.judge_view:
            return await self._audit_lines(current)
        return await self._log_lines(current)

    async def _explain(self, command: Explain) -> list[str]:
        """``/rule`` (:mod:`bot.rulebook`) and ``/why`` (:mod:`bot.why`), under this game's
        rules; private rulings only in the judge's view."""
        if self._pending_new and command.what == "why":  # a game not yet created has no ruling
            raise await self.service.missing(self.chat)
        text, _ = await why.answer(self.service, self.chat, command, self.cat,
                                   judge=self.user if self.judge_view else None)
        return [text]

    async def _audit_lines(self, current: Outcome) -> list[str]:
        """``/log all``: the audit trail (:mod:`bot.audit`), the times in the club's time zone."""
        return await decide.audit_lines(self.service, current, self.cat, who=lambda actor: actor,
                                      when=lambda at: clock_time(at, self.zone))

    async def _log_lines(self, current: Outcome) -> list[str]:
        """The whole game replayed from its log as it was announced (undone events skipped)."""
        return await decide.log_lines(self.service, self.chat, current, self.cat, judge=self.judge_view)


# --- reading commands -------------------------------------------------------------------------

def script_lines(lines: Iterable[str]) -> Iterator[str]:
    """The commands of a script: blank lines and ``#`` comments skipped."""
    for raw in lines:
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


class Interrupted(Exception):
    """Ctrl-C at the prompt."""


def _read_tty(prompt: str) -> str | None:
    """One line typed at the terminal, ``None`` at end of input (Ctrl-D). Ctrl-C raises
    :class:`Interrupted` at once.

    ``input`` runs in the main thread, with Python's own SIGINT handler while it waits: in a
    worker thread (``asyncio.to_thread``) the signal reached only asyncio's handler, which
    cancelled the loop, and the process then waited for that thread's ``input`` to return — the
    next Enter — and dropped the line typed. Blocking the event loop is harmless here: nothing
    else runs in the console while it waits for the judge. readline (line editing) restores the
    terminal when the signal interrupts it. (Python's readline looks at signals only when its
    wait is interrupted: a Ctrl-C that lands in the instant before it waits is seen at the next
    key — a second Ctrl-C.)"""
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if in_main else None
    if in_main:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return input(prompt)
    except EOFError:
        return None
    except KeyboardInterrupt:
        raise Interrupted from None
    finally:
        if in_main:
            signal.signal(signal.SIGINT, previous)


def _emit(out: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        print(line, file=out)
    out.flush()


def _thread_alarm(delay: float, call: Callable[[], None]) -> threading.Timer:
    """``call`` after ``delay`` seconds in a thread of its own: the prompt blocks the loop."""
    alarm = threading.Timer(max(0.0, delay), call)
    alarm.daemon = True
    alarm.start()
    return alarm


def _ring(out: TextIO, lines: list[str]) -> None:
    """A timer's warning or end, printed under the prompt the judge is at, then the prompt again
    (what he had typed stays in the line editor)."""
    out.write("\n" + "\n".join(lines) + "\n" + PROMPT)
    out.flush()


async def run_console(db: Path, *, new: Union[bool, int] = False, strict: bool = False,
                      lang: str | None = None, stdin: TextIO | None = None,
                      out: TextIO | None = None, default_lang: str = DEFAULT_LANG,
                      timezone: str = "UTC", club_rules: str | None = None) -> int:
    """The console loop. Returns the exit status: 0, or 1 when ``strict`` and a command was
    refused (``new`` over an unfinished game counts as refused: it only asked, see
    :meth:`Session.open`), or :data:`EXIT_INTERRUPTED` after Ctrl-C at a terminal's prompt.
    ``timezone``: the club's IANA time zone (the command line passes ``MAFIA_REFEREE_TIMEZONE``)
    for ``/stats month`` and the games' dates; ``club_rules``: ``MAFIA_REFEREE_RULES``, the
    rules a new game starts with unless the console's club has its own (:mod:`bot.club.defaults`)."""
    with _logs_off_the_console():
        return await _run_console(db, new=new, strict=strict, lang=lang, stdin=stdin, out=out,
                                  default_lang=default_lang, timezone=timezone,
                                  club_rules=club_rules)


@contextmanager
def _logs_off_the_console() -> Iterator[None]:
    """The console's user is the judge: the service's warnings (``the log moved under the
    cache`` when another writer changed the game) are for an operator's log, and the console
    already says what happened in its own words. Unless logging was set up by the caller, only
    errors reach stderr while the console runs."""
    root = logging.getLogger()
    if root.handlers:
        yield
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.ERROR)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


async def _run_console(db: Path, *, new: Union[bool, int], strict: bool, lang: str | None,
                       stdin: TextIO | None, out: TextIO | None, default_lang: str,
                       timezone: str, club_rules: str | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    from .opening import open_database  # PostgreSQL down, a read-only folder: one line (bot.entry)

    store = await open_database(db)
    session: Session | None = None
    try:
        service = Service(store, club_rules=club_rules)
        chosen = lang or await store.lang(CHAT) or default_lang
        interactive = stdin.isatty()
        session = Session(service, catalog(chosen if chosen in LANGS else DEFAULT_LANG),
                          alarm=_thread_alarm if interactive else None,
                          ring=lambda lines: _ring(out, lines))
        session.club_tz = timezone
        if lang:
            await store.set_lang(CHAT, lang)
        _emit(out, await session.open(new=new))
        if strict and session.refused_new:
            return 1
        if interactive:
            _enable_history()
        pending = None if interactive else script_lines(stdin)
        while True:
            if pending is None:
                try:
                    line = _read_tty(PROMPT)
                except Interrupted:
                    print(file=out)
                    _emit(out, [session.cat.text("console-interrupted")])
                    return EXIT_INTERRUPTED
                if line is None:
                    print(file=out)
                    return 0
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
            else:
                line = next(pending, None)
                if line is None:
                    return 0
                print(PROMPT + line, file=out)
            reply = await session.handle(line)
            _emit(out, reply.lines)
            if reply.quit:
                return 0
            if strict and not reply.accepted:
                return 1
    finally:
        if session is not None:
            session.close()
        await store.close()


def _enable_history() -> None:
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:  # pragma: no cover - not on every platform
        pass
