"""Host mode under SIGKILL: tables of ten simulated players (in Telegram groups, or in the text
channels of a Discord server), run by ONE bot process (``python -m bot telegram`` or ``… discord``,
host mode, a scaled clock) that is killed at seeded random points and started again over the same
SQLite file. The players see their platform through its client (:mod:`killrig.platforms`); all
else here is the same for both.

The players' stream, the same in the reference run and in a killed run (it only uses inputs whose
effect does not depend on timing, so the two runs can be compared message for message):

* the host types ``/newgame`` (longer windows, the tests' ``FAST`` options; on Discord the slash
  command with them as its option); the ten players press «Записаться» one by one (acknowledged
  by the answer to the press; pressed again after a restart if unanswered: "already at the table"
  is an answer too);
* night 0 and every night step run out by time (nobody shoots or checks: a miss, F24 §4.5.5);
* on day 1 each speaker presses «Пас» when he gets the floor (acknowledged when his step message
  loses its buttons or a later step is posted: the floor moved on); #1 first nominates #7
  (F24 §4.4.2; acknowledged by the answer "Вы выставили …", which comes after the commit; one
  nominee on day 1 is not voted, F24 §4.4.10);
* the stream ends when the eleventh speaking step is posted (day 2 has begun).

Kills: half after a seeded number of acknowledged inputs and posted floors, half after a seeded
time (those land mostly in the night steps); from night 0 on unless ``lobby_kills``
(:data:`LOBBY_KILLS`); at most one inside #1's nomination (his two presses and the restarts must
fit in his minute, or it rightly runs out first and the stream is no longer the reference's).

A step running at a kill (a night step, night 0, a vote window, or a speech whose «Пас» was not in
flight — that speaker then lets his time run out) must close at its stored deadline, or at once if
that passed while the bot was down (the next step's ``opened_at`` in ``host_steps``). A step stored
with fewer events than the log holds is not checked: the event that ended it may be committed (a
«Пас» acknowledged, the next step not yet stored), and then it rightly closes at the restart.

Checked against the reference: the log is the same, event for event; every nomination and seat
acknowledged before a kill was in the store when the process died; each event of the stream has
the reference's outbox rows, stored with it (same transaction: same time), all sent; the group got
the same messages in the same order, at most one repeated per kill, just after it (Discord's live
countdown ``<t:…:R>`` left out of the texts: it is the run's clock)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .platforms import Client, KillDiscord, open_platform
from .rig import (BotProcess, KillFake, Seen, Window, bot_env, connect_ro, expected_ends, read_games,
                  read_host_tables, read_outbox)
from .sequences import Said, compare_announcements

HOST_SCALE = 0.06  # a 300 s speech (OPTIONS): 18 s; a 20 s night step: 1.2 s
HOST_SEED = 7  # the seating and the deal (MAFIA_REFEREE_HOST_SEED)
# Windows long enough for ten presses (support.host_table.FAST).
# A speech of 300 s (18 s here): #1's two presses for his nomination and a restart fit in it on a
# machine with both cores busy (at 90 s, 5.4 s, and at 150 s, 9 s, they did not always: a
# restart alone can take seconds there); only a speech a kill left running is let run out (its
# deadline is checked; the tables' speeches then run out together), so the length costs little.
OPTIONS = ("timers.vote_window=30 timers.mafia_meeting=20 timers.don_check=20 "
           "timers.sheriff_check=20 timers.best_move=20 shooting=20 timers.speech=300")
NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")
NOMINATOR, NOMINEE = 1, 7
FLOORS = 11  # the stream ends when this many speaking steps have been posted
TOLERANCE = 0.6
ACK_TIMEOUT = 25.0
PASS, JOIN, NOMINATE, BACK = "Пас", "Записаться", "Выставить", "Назад"
#: Whether kills may land in the lobby (the joins and the deal) too; False: only once every
#: table has started (night 0 posted). A kill there could leave a table that never started: the
#: three windows found (a join, a full lobby, a deal cut short) are fixed and pinned down
#: deterministically by tests/test_kill.py's lobby tests (and tests/test_host_controller.py's
#: restart of a full lobby), which keeps these random runs' timing simple. The bench passes True
#: and counts a stuck run as a failure.
LOBBY_KILLS = False


@dataclass
class HostKillPoint:
    kill: int
    table: int
    at: float
    acked: list[str]  # what the players had been told, as "join N" / "nominate"
    missing: list[str]  # of those, what the store did not hold


@dataclass
class StepCheck:
    table: int
    kill: int
    no: int
    kind: str
    deadline: float
    expected: float | None = None
    closed_at: float | None = None

    candidates: list[Window] = field(default_factory=list)

    @property
    def late(self) -> bool:
        return self.closed_at is None or \
            not any(w.holds(self.closed_at, TOLERANCE) for w in self.candidates)


@dataclass
class HostRun:
    seed: int
    tables: int
    kills: int
    platform: str = "telegram"
    points: list[HostKillPoint] = field(default_factory=list)
    steps: list[StepCheck] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    log_errors: list[str] = field(default_factory=list)
    half: list[str] = field(default_factory=list)  # outbox rows not the reference's, or unsent
    announcements: list[str] = field(default_factory=list)
    duplicates: int = 0
    repeats: int = 0
    resent: int = 0
    bot_errors: list[str] = field(default_factory=list)
    stale_floors: int = 0  # floors over whose message still shows «Пас» (reported, not failed)
    seconds: float = 0.0
    group_texts: dict[int, list[str]] = field(default_factory=dict)
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    outbox: dict[int, list[list[tuple[str, str]]]] = field(default_factory=dict)

    @property
    def kill_points(self) -> int:
        return len(self.points)

    @property
    def late_steps(self) -> int:
        return sum(1 for s in self.steps if s.late)

    def problems(self) -> list[str]:
        out = [*self.lost, *self.log_errors, *self.half, *self.announcements]
        out += [f"table {s.table}: step {s.no} ({s.kind}) running at kill {s.kill}: deadline "
                f"{s.deadline:.2f}, expected to close at {s.expected}, closed {s.closed_at}"
                for s in self.steps if s.late]
        if self.duplicates:
            out.append(f"{self.duplicates} announcement(s) repeated beyond one per kill")
        return out


STEP_MARKS = ("⏱", "🌙", "✋", "🔇")  # the step line under a step's group message (views.step_line)
FLOOR_MARKS = ("⏱", "🔇")  # a speech, a last word, a tie speech; a silenced minute (seed 4.4)


def _last_paragraph(text: str) -> str:
    return text.rsplit("\n\n", 1)[-1]


class Players:
    """One table: its host, its ten players (seat = order of joining), its group (or channel)."""

    def __init__(self, client: Client, n: int) -> None:
        self.client = client
        self.fake = client.fake
        self.n = n
        self.host, self.players, self.group = client.add_table(n, NAMES)
        self.acked: list[str] = []
        self.in_flight: str | None = None
        self.passing: int | None = None  # the step message whose «Пас» is in flight
        self.hold: set[int] = set()  # step messages whose speaker lets the time run out
        self.floors: list[int] = []  # speaking step messages seen, in order
        self.table_id: int | None = None
        self.nominated = False
        self.nominating = False  # #1 is nominating (two presses inside his minute)
        self.nomination_kills = 0  # kills that landed while he was
        self.end_events = 0  # events in the log when the stream ended
        self.answers: list[tuple[str, str | None, int]] = []  # (what, the answer, the bot's life)
        self._repeats: set[int] = set()

    # --- looking ----------------------------------------------------------------------------------
    def group_messages(self) -> list[Any]:
        return self.client.messages(self.group)

    def message(self, message_id: int) -> Any:
        return self.client.message(self.group, message_id)

    def has(self, message: Any, label: str) -> bool:
        return not self.client.deleted(message) and any(label in b for b in self.client.labels(message))

    def is_floor(self, message: Any) -> bool:
        """A speaking step's message with its buttons («Пас», or the nomination picker's «Назад»)."""
        return self.has(message, PASS) or self.has(message, BACK)

    def is_step(self, message: Any) -> bool:
        return _last_paragraph(self.client.texts(message)[-1]).startswith(STEP_MARKS)

    def speaker(self, message: Any) -> int | None:
        found = re.findall(r"№(\d+)", _last_paragraph(self.client.texts(message)[-1]))
        return int(found[0]) if found else None

    def lobby(self) -> Any | None:
        return next((m for m in reversed(self.group_messages()) if self.has(m, JOIN)), None)

    def floor(self) -> Any | None:
        """The newest speaking step's message while it has its buttons."""
        for m in reversed(self.group_messages()):
            if self.is_floor(m):
                return m
        return None

    def _note_floors(self) -> None:
        """Every speaking step's message, in order, by its step line in any version of its
        text (a floor that came and went between two looks is counted all the same)."""
        client = self.client
        for m in self.group_messages():
            message_id = client.message_id(m)
            texts = client.texts(m)
            if message_id in self.floors or not any(_last_paragraph(t).startswith(FLOOR_MARKS) for t in texts):
                continue
            if self.floors and client.texts(self.message(self.floors[-1]))[0] == texts[0]:
                self._repeats.add(message_id)  # the same step's message sent again after a kill
                continue
            if message_id not in self._repeats:
                self.floors.append(message_id)

    def _moved_on(self, message_id: int) -> bool:
        """The floor of ``message_id`` is over: its message lost its buttons, or a later step
        (a floor, a night step, a vote window) has been posted."""
        if not self.is_floor(self.message(message_id)):
            return True
        return any(self.client.message_id(m) > message_id and self.is_step(m) for m in self.group_messages())

    def stale_floors(self) -> list[int]:
        """Floors that are over (a later step was posted) and still show their buttons."""
        return [f for f in self.floors[:-1] if self.is_floor(self.message(f))]

    # --- acting ---------------------------------------------------------------------------------
    async def _press(self, user: Any, message: Any, label: str, bot: BotProcess,
                     run: HostRun, what: str, done: Any = None) -> str | None:
        """Press ``label`` until the press is answered (or ``done()`` holds): pressed again
        after each restart that left it unanswered (on Discord: whose session died with it).
        Returns the answer's text."""
        client = self.client
        self.in_flight = what
        press = await client.press(user, self.group, message, label)
        kills = bot.kills
        end = time.time() + ACK_TIMEOUT

        def answered() -> bool:
            return (done() if done is not None else client.answer(press) is not None)

        def again() -> bool:
            return bot.up and (bot.kills > kills or client.lost(press))

        while True:
            if answered():
                self.in_flight = None
                answer = None if done is not None else client.answer(press)
                self.answers.append((what, answer, self.fake.life))
                return answer
            if again():
                kills = bot.kills
                end = time.time() + ACK_TIMEOUT
                if done is None or not done():
                    run.resent += 1
                    press = await client.again(press)
                continue
            if time.time() > end:
                raise AssertionError(f"table {self.n}: no answer to {what}")
            await self.fake.wait_for(lambda: answered() or again(), ACK_TIMEOUT, f"table {self.n}: {what}")

    async def setup(self) -> None:
        sent = await self.client.type(self.host, self.group, f"/newgame {OPTIONS}")
        assert not self.client.lost(sent), "the bot is not there"  # no kill before the stream
        await self.fake.wait_for(lambda: self.lobby() is not None, ACK_TIMEOUT, f"table {self.n}: lobby")

    async def play(self, bot: BotProcess, run: HostRun) -> None:
        for seat, user in enumerate(self.players, 1):
            lobby = await self.fake.wait_for(self.lobby, ACK_TIMEOUT, f"table {self.n}: lobby")
            await self._press(user, lobby, JOIN, bot, run, f"join {seat}")
            self.acked.append(f"join {seat}")
        handled: set[int] = set()
        while True:
            self._note_floors()
            if len(self.floors) >= FLOORS:
                return  # play_tables notes the log's length now (later events come by time)
            floor = self.floor()
            if floor is None or self.client.message_id(floor) in handled:
                count = len(self.floors)
                await self.fake.wait_for(
                    lambda: (self._note_floors() or True) and (
                        len(self.floors) > count or
                        ((f := self.floor()) is not None and self.client.message_id(f) not in handled)),
                    60.0, f"table {self.n}: the next floor")
                continue
            handled.add(self.client.message_id(floor))
            await self._take_floor(floor, bot, run)

    async def _take_floor(self, floor: Any, bot: BotProcess, run: HostRun) -> None:
        """The speaker (#1 nominates first) passes, unless he lets his time run out (a kill
        left his step running: its deadline is checked)."""
        seat = self.speaker(floor)
        assert seat is not None, self.client.texts(floor)
        user = self.players[seat - 1]
        message_id = self.client.message_id(floor)
        if seat == NOMINATOR and not self.nominated:
            self.nominating = True
            try:
                await self._nominate(user, floor, bot, run)
            finally:
                self.nominating = False
            self.nominated = True
            self.acked.append("nominate")
        while message_id not in self.hold:
            message = self.message(message_id)
            if not self.is_floor(message):
                return  # the floor moved on
            if self.has(message, PASS):
                self.passing = message_id
                await self._press(user, message, PASS, bot, run, f"pass {seat}",
                                  done=lambda: self._moved_on(message_id))
                self.passing = None
                return
            # the nomination picker is still open (a restart came between the nomination and
            # the message's redraw): back to the speaker's buttons
            await self._press(user, message, BACK, bot, run, "back from the picker",
                              done=lambda: not self.has(self.message(message_id), BACK))

    async def _nominate(self, user: Any, floor: Any, bot: BotProcess, run: HostRun) -> None:
        """«Выставить ▸» then the seat; after a restart, whichever of the two the message shows."""
        message_id = self.client.message_id(floor)

        def picker() -> bool:
            return str(NOMINEE) in self.client.labels(self.message(message_id))

        while True:
            message = self.message(message_id)
            if self.has(message, str(NOMINEE)) and picker():
                answer = await self._press(user, message, str(NOMINEE), bot, run, "nominate")
                if answer is not None and "выставили" in answer:
                    return
                if answer and ("уже выставлена" in answer or "уже есть кандидатура" in answer):
                    return  # already nominated: the first press was committed
                continue
            if self.has(message, NOMINATE):
                kills = bot.kills
                await self._press(user, message, NOMINATE, bot, run, "the nomination picker")
                await self.fake.wait_for(lambda: picker() or bot.kills > kills, ACK_TIMEOUT,
                                         f"table {self.n}: the picker")
                continue
            raise AssertionError(f"table {self.n}: cannot nominate on {self.client.texts(message)[-1]!r}: "
                                 f"{self.client.labels(message)}")


# --- one run --------------------------------------------------------------------------------------

@dataclass
class HostReference:
    group_texts: dict[int, list[str]]
    events: dict[int, list[dict[str, Any]]]
    outbox: dict[int, list[list[tuple[str, str]]]]


def _cut(items: list[Seen], floors: list[int]) -> list[Seen]:
    """The group's messages up to the last floor of the stream (what comes later depends on
    when the bot was stopped)."""
    if len(floors) < FLOORS:
        return items
    last = floors[FLOORS - 1]
    for i, item in enumerate(items):
        if item.message_id == last:
            return items[: i + 1]
    return items


async def play_tables(folder: Path, *, seed: int, tables: int, kills: int,
                      platform: str = "telegram", scale: float = HOST_SCALE,
                      lobby_kills: bool = LOBBY_KILLS,
                      reference: HostReference | None = None) -> tuple[HostRun, HostReference]:
    """Play ``tables`` tables at once on ``platform`` (``telegram`` or ``discord``) against one
    bot process killed ``kills`` times; check the run against ``reference`` (made here first
    when not given: the same tables, no kill). Returns the run and the reference."""
    if reference is None and kills:
        _, reference = await play_tables(folder / "reference", seed=seed, tables=tables, kills=0,
                                         platform=platform, scale=scale)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    run = HostRun(seed=seed, tables=tables, kills=kills, platform=platform)
    started = time.perf_counter()
    db = folder / "referee.sqlite3"
    fake, client = open_platform(platform)
    async with fake:
        sides = [Players(client, n) for n in range(tables)]
        bot = BotProcess(fake, folder, bot_env(fake, db, scale=scale, host_seed=HOST_SEED))
        try:
            await bot.start()
            for side in sides:  # one after another: the same table ids in every run
                await side.setup()
            for table in read_host_tables(db):
                for side in sides:
                    if table["chat"] == client.chat_key(side.group):
                        side.table_id = table["id"]

            async def side_plays(side: Players) -> None:
                await side.play(bot, run)
                side.end_events = len(_stored(db, side)[1])  # the stream's end

            players = [asyncio.create_task(side_plays(s)) for s in sides]
            killer = asyncio.create_task(_killer(bot, sides, rng, kills, run, db, lobby_kills))
            try:
                await asyncio.gather(*players, killer)
            except Exception as error:  # a player got stuck: say first what the kills found
                _dump(folder / "dump.txt", fake, sides, bot)
                if run.lost:
                    raise AssertionError("acknowledged inputs lost at a kill: "
                                         + "; ".join(run.lost[:10])) from error
                raise
            finally:
                for task in (*players, killer):
                    task.cancel()
            await asyncio.sleep(0.3)  # the last floor's own calls
        finally:
            bot.close()
        run.bot_errors = bot.errors()
        run.stale_floors = sum(len(s.stale_floors()) for s in sides)
        groups = {s.n: [Said(client.normal(x.text), x.life) for x in _cut(
            list(fake.seen_in(client.chat_id(s.group), client.send)), s.floors)] for s in sides}
        _check_steps(run, bot, db, sides)
        if run.late_steps:
            _dump(folder / "dump.txt", fake, sides, bot)
    run.group_texts = {n: [x.text for x in items] for n, items in groups.items()}
    games = read_games(db)
    tables_ = {t["id"]: t for t in read_host_tables(db)}
    for s in sides:
        table = tables_.get(s.table_id or -1)
        game = games.get(table["game_id"]) if table and table["game_id"] else None
        run.events[s.n] = (game.events if game is not None else [])[: s.end_events]
    run.outbox = _outbox_by_event(db, sides, games, tables_, run)
    if reference is None:
        reference = HostReference(run.group_texts, run.events, run.outbox)
    else:
        for s in sides:
            errors, repeats, beyond = compare_announcements(groups[s.n], reference.group_texts[s.n])
            run.announcements += [f"table {s.n}, group: {e}" for e in errors]
            run.repeats += repeats
            run.duplicates += beyond
            got, want = run.events[s.n], reference.events[s.n]
            if got != want:
                first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                run.log_errors.append(f"table {s.n}: the log differs from the reference at event "
                                      f"{first + 1} ({len(got)} vs {len(want)} events): "
                                      f"{got[first] if first < len(got) else None} vs "
                                      f"{want[first] if first < len(want) else None}")
            for seq, (a, b) in enumerate(zip(run.outbox.get(s.n, []), reference.outbox.get(s.n, [])), 1):
                if a != b:
                    run.half.append(f"table {s.n}: event {seq} stored with outbox {a}, reference {b}")
    run.seconds = time.perf_counter() - started
    return run, reference


def _outbox_by_event(db: Path, sides: list[Players], games: dict[int, Any], tables: dict[int, Any],
                     run: HostRun) -> dict[int, list[list[tuple[str, str]]]]:
    """For each table, the outbox rows stored with each event of the stream (matched by the
    commit time the event and its rows share), as (``group``|``player N``|…, text), by chat;
    rows of those events not sent are noted in ``run.half``."""
    rows = read_outbox(db)
    out: dict[int, list[list[tuple[str, str]]]] = {}
    for s in sides:
        table = tables.get(s.table_id or -1)
        game = games.get(table["game_id"]) if table and table["game_id"] else None
        if game is None:
            continue
        client = s.client
        roles = {client.chat_key(s.group): "group", client.user_key(s.host): "host",
                 **{client.user_key(p): f"player {i}" for i, p in enumerate(s.players, 1)}}
        stamps = game.event_at[: s.end_events]
        by_at: dict[float, list[tuple[str, str]]] = {at: [] for at in stamps}
        for r in rows:
            if r.game_id != game.id or r.created_at not in by_at:
                continue
            if r.kind == "send":
                by_at[r.created_at].append((roles.get(r.chat, r.chat), client.normal(str(r.payload.get("text")))))
            if r.state != "sent":
                run.half.append(f"table {s.n}: outbox row {r.id} of an event of the stream left "
                                f"{r.state}: {str(r.payload)[:120]}")
        # by chat (a stable sort: each chat's own order kept): the order across chats is not
        # the users' (a deal resumed after a kill queues the cards seat by seat as stored)
        out[s.n] = [sorted(by_at[at], key=lambda row: row[0]) for at in stamps]
    return out


def _dump(path: Path, fake: KillFake | KillDiscord, sides: list[Players], bot: BotProcess) -> None:
    """What each group shows and when the bot lived (to read a failure)."""
    lines = [f"lives: {[(round(x.started, 2), x.ready and round(x.ready, 2), x.killed and round(x.killed, 2)) for x in bot.lives]}"]
    for s in sides:
        lines.append(f"== table {s.n} acked={s.acked} floors={s.floors} hold={s.hold}")
        lines += [f"  answered in life {life}: {what}: {answer!r}" for what, answer, life in s.answers]
        for seat, user in enumerate(s.players, 1):
            private = s.client.private_chat(user)
            lines += [f"  to #{seat} in life {x.life} {x.at:.2f} {x.method}: {(x.text or '')[:70]!r}"
                      for x in fake.seen_in(private if private is not None else -1)]
        for item in fake.seen_in(s.client.chat_id(s.group)):
            labels = [b.get("text") or b.get("label") for b in item.buttons]
            lines.append(f"  life {item.life} {item.at:.2f} {item.method} #{item.message_id} "
                         f"{(item.text or '')[-70:]!r} {labels}")
    path.write_text("\n".join(lines), encoding="utf-8")


def _stored(db: Path, side: Players) -> tuple[list[int], list[dict[str, Any]], dict[str, Any] | None]:
    """Who sits at the table (by join order), the game's log, the running step."""
    conn = connect_ro(db)
    try:
        row = conn.execute("SELECT players, game_id, step FROM host_tables WHERE id = ?",
                           (side.table_id,)).fetchone()
        if row is None:
            return [], [], None
        users = [p["user"] for p in json.loads(row[0] or "[]")]
        events = [json.loads(r[0]) for r in conn.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (row[1],))] if row[1] else []
        return ([seat for seat, p in enumerate(side.players, 1) if side.client.user_key(p) in users],
                events, json.loads(row[2]) if row[2] else None)
    except sqlite3.Error:
        return [], [], None
    finally:
        conn.close()


def started(side: Players) -> bool:
    """Night 0's step is posted: the lobby is over (see :data:`LOBBY_KILLS`)."""
    return any("Договорка" in side.client.texts(m)[-1] for m in side.group_messages())


STREAM_SECONDS = 5.0  # about how long the stream runs from night 0 at HOST_SCALE (no kill)


async def _killer(bot: BotProcess, sides: list[Players], rng: random.Random, kills: int,
                  run: HostRun, db: Path, lobby_kills: bool) -> None:
    """SIGKILL the bot ``kills`` times at seeded points of the stream: the even kills after a
    number of acknowledged inputs and posted floors (they land in the speeches), the odd ones
    after a time (they land mostly in night steps, which run by time), plus a few milliseconds."""
    fake = bot.fake
    if not lobby_kills:
        await fake.wait_for(lambda: all(started(s) for s in sides), 60.0, "every table started")

    def count() -> int:
        for s in sides:
            s._note_floors()
        return sum(len(s.acked) + len(s.floors) for s in sides)

    base, begun = count(), time.time()
    span = len(sides) * (FLOORS + 1 + (10 if lobby_kills else 0))
    marks = sorted(rng.uniform(0.02, 0.9) * span for _ in range(kills))
    times = sorted(rng.uniform(0.1, STREAM_SECONDS) for _ in range(kills))
    def over() -> bool:
        return all(len(s.floors) >= FLOORS for s in sides)

    for k in range(kills):
        if k % 2 == 0:
            await fake.wait_for(lambda: count() - base >= marks[k] or over(), 120.0, f"host kill {k}")
        else:
            await fake.wait_for(lambda: time.time() - begun >= times[k] or over(), 120.0, f"host kill {k}")
        if over():
            return  # the stream is over
        # One kill at most inside #1's nomination: his two presses and the restarts must fit in
        # his minute, or it runs out first (rightly) and the stream is not the reference's.
        await fake.wait_for(lambda: not any(s.nominating and s.nomination_kills for s in sides),
                            120.0, f"host kill {k}: a nomination to finish")
        await asyncio.sleep(rng.uniform(0.0, 0.05))
        if over():
            return
        acked = {s.n: list(s.acked) for s in sides}
        passing = {s.n: s.passing for s in sides}
        at = bot.kill()
        for s in sides:
            s.nomination_kills += s.nominating
            acked[s.n] = list(s.acked)
            seats, events, step = _stored(db, s)
            missing = [a for a in acked[s.n] if a.startswith("join ") and int(a.split()[1]) not in seats]
            if "nominate" in acked[s.n] and not any(e.get("type") == "nominate" for e in events):
                missing.append("nominate")
            run.points.append(HostKillPoint(k, s.n, at, acked[s.n], missing))
            run.lost += [f"kill {k}, table {s.n}: {m} acknowledged, not stored" for m in missing]
            if step is None or step.get("deadline") is None or len(s.floors) >= FLOORS:
                continue
            if not step.get("started", True):
                continue  # shown, not yet known to be: its window opens when the next life shows it
            if len(events) > int(step.get("revision", 0)):
                continue  # an event came after the step last changed: its end may be committed
            floor = s.floor()
            if step["kind"] in ("speech", "last_word", "tie_speech", "silenced"):
                floor_id = s.client.message_id(floor) if floor is not None else None
                if floor_id is None or passing[s.n] == floor_id or step.get("message") != floor_id:
                    continue  # his «Пас» was in flight: the step may close at once
                s.hold.add(floor_id)
            run.steps = [c for c in run.steps if not (c.table == s.n and c.no == step["no"])]
            run.steps.append(StepCheck(s.n, k, step["no"], step["kind"], step["deadline"]))
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        await bot.start()


def _check_steps(run: HostRun, bot: BotProcess, db: Path, sides: list[Players]) -> None:
    """When did each step running at a kill close: the next step's ``opened_at``."""
    conn = connect_ro(db)
    try:
        opened = {(t, no): at for t, no, at in conn.execute("SELECT table_id, no, opened_at FROM host_steps")}
    finally:
        conn.close()
    ids = {s.n: s.table_id for s in sides}
    for check in run.steps:
        check.closed_at = opened.get((ids.get(check.table), check.no + 1))
        check.candidates = expected_ends(bot.lives[check.kill + 1:], check.deadline, TOLERANCE)
        check.expected = check.candidates[-1].end if check.candidates else None
