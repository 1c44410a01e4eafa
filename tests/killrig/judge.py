"""Judge mode under SIGKILL: several judges play the shipped demo game (``bot/demo/club_game.txt``)
at once against ONE bot process that is killed at seeded random moments and started again over
the same SQLite file — on Telegram each in his private chat with a linked group, on Discord each
in a channel of the server with his panel in his direct messages (the judge's client:
:mod:`killrig.platforms`).

What a judge does (as a real one would):

* each line of the demo is typed (on Discord: the slash command's form filled in,
  :mod:`fakediscord.forms`), or — for ``/next`` and ``/vote N k`` — pressed on the panel (seeded
  choice); the action is **acknowledged** when the panel (sent or edited in his chat) carries the
  revision it makes (the buttons' data ``game:revision:…``; revision = rows in the log);
* the bot dies with an action in flight: when it is back, a press is simply pressed again (a
  press carries its revision: if the first one was committed the second is refused as outdated
  and the panel re-rendered, which then shows the new revision); a typed line is not repeated
  blindly — the judge asks ``/status`` and types it again only if the fresh panel shows it
  missing (per-chat order: an update Telegram delivers again after the restart is handled before
  the ``/status``; on Discord what was sent to the dying bot is lost, and the same rule holds);
* a speech timer running when the bot died: the judge waits for it to run out before going on.

What is checked afterwards (:class:`JudgeRun`), against an un-killed reference run of the same
games: every action acknowledged before a kill was in the store when the process died; the final
log is the script, each action once, in order, and folds to the demo's result; each action's
outbox rows were stored with it (same transaction: same time, same texts as in the reference) and
none is orphaned or left unsent; each group's announcements (and each judge's notices) are the
reference's, except at most one repeat per kill, sent again just after that kill; a timer running
at a kill ends at its stored deadline (or at once if that passed while the bot was down), not a
full speech after the restart (ENGINEERING.md §1)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from .platforms import Client, KillDiscord, open_platform
from .rig import BotProcess, KillFake, Seen, Window, bot_env, expected_ends, quiet, read_games, read_outbox
from .sequences import Said, compare_announcements

DEFAULT_SCALE = 0.03  # real seconds per timer second: a 60 s speech runs 1.8 s
TIMER_TOLERANCE = 0.6  # s: how far from its expected end a resumed timer may end
# s: how much later a resumed timer may end: a machine with both cores busy runs the bot's timer
# callbacks late (0.61 s was seen; more at load averages of 7+). Later still is accepted while it
# is before the earliest end of a timer restarted from its full length in that life (Window.holds),
# so such a restart is caught however busy the machine.
TIMER_LATE = 1.5
ACK_TIMEOUT = 20.0


@dataclass(frozen=True)
class Script:
    """The demo: ``lines[0]`` is ``/new seed``; ``events[i]`` is the event of ``lines[i + 1]``."""

    lines: list[str]
    events: list[dict[str, Any]]
    config: dict[str, Any]


def demo_script() -> Script:
    from bot import demo
    from bot.commands import Act, NewGame, parse

    lines = demo.commands()
    head = parse(lines[0], None)
    assert isinstance(head, NewGame), lines[0]
    config = head.config()
    state = rules.new_game(config)
    events: list[dict[str, Any]] = []
    for line in lines[1:]:
        command = parse(line, state)
        assert isinstance(command, Act), line  # the demo is actions only after /new
        state, _ = rules.apply(state, command.event)
        events.append(json.loads(json.dumps(rules.to_dict(command.event))))  # as stored
    return Script(lines, events, rules.config_to_dict(config))


def _revision(item: Seen) -> int | None:
    """The revision a panel carries in its buttons' data (``game:revision:action``)."""
    for button in item.buttons:
        parts = str(button.get("callback_data") or button.get("custom_id") or "").split(":")
        if len(parts) >= 3 and parts[0].isdigit() and parts[1].isdigit():
            return int(parts[1])
    return None


@dataclass
class KillPoint:
    """One game at one kill: what its judge had been told, what the store held."""

    kill: int
    game: int
    at: float
    acked: int  # the highest revision acknowledged before the kill
    stored: int  # events in the store after the kill
    in_flight: str | None  # the line waiting for its acknowledgement


@dataclass
class TimerCheck:
    game: int
    kill: int
    kind: str
    key: str
    deadline: float  # stored
    length: float  # real seconds of the whole turn
    over_line: str
    ended_at: float | None = None
    expected: float | None = None
    skipped: str | None = None  # why it could not be checked (the judge ended the turn first)

    candidates: list[Window] = field(default_factory=list)  # where it may end (see expected_ends)

    @property
    def late(self) -> bool:
        if self.skipped is not None:
            return False
        return self.ended_at is None or \
            not any(w.holds(self.ended_at, TIMER_TOLERANCE, TIMER_LATE, self.length)
                    for w in self.candidates)


@dataclass
class JudgeRun:
    seed: int
    games: int
    kills: int
    points: list[KillPoint] = field(default_factory=list)
    timers: list[TimerCheck] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # acknowledged actions missing from the store
    log_errors: list[str] = field(default_factory=list)  # final log ≠ the script
    half: list[str] = field(default_factory=list)  # outbox rows missing / orphaned / unsent
    announcements: list[str] = field(default_factory=list)  # lost or reordered messages
    duplicates: int = 0  # repeats beyond one per kill (or not next to a kill)
    repeats: int = 0  # allowed repeats (a send cut by a kill)
    stale_presses: int = 0  # presses re-sent after a restart and refused as outdated
    resent: int = 0  # actions sent again after a restart
    bot_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    lives: list[tuple[float, float | None, float | None]] = field(default_factory=list)
    group_texts: dict[int, list[str]] = field(default_factory=dict)
    judge_texts: dict[int, list[str]] = field(default_factory=dict)
    outbox_texts: dict[int, list[list[tuple[str, str]]]] = field(default_factory=dict)

    @property
    def kill_points(self) -> int:
        return len(self.points)

    @property
    def late_timers(self) -> int:
        return sum(1 for t in self.timers if t.late)

    def problems(self) -> list[str]:
        out = [*self.lost, *self.log_errors, *self.half, *self.announcements]
        out += [f"timer of game {t.game} ({t.kind} {t.key}) at kill {t.kill}: deadline "
                f"{t.deadline:.2f}, expected end {t.expected}, ended {t.ended_at}; the bot's lives "
                f"(started, ready, killed): {self.lives}" for t in self.timers if t.late]
        if self.duplicates:
            out.append(f"{self.duplicates} announcement(s) repeated beyond one per kill")
        return out


class Judge:
    """One judge, where his game lives (Telegram: his private chat, announced in his club's
    group; Discord: a channel, his panel in his direct messages)."""

    def __init__(self, client: Client, n: int, script: Script, rng: random.Random,
                 press_share: float) -> None:
        self.client = client
        self.fake = client.fake
        self.n = n
        self.script = script
        self.rng = rng
        self.press_share = press_share
        self.user, self.group = client.add_judge(n)
        self.group_id = client.chat_id(self.group)
        self.home = client.home(self.user, self.group)  # where his lines are typed
        self.game_id: int | None = None
        self._cursor = 0
        self._revision = -1
        self.panel_id: int | None = None
        self.panels = 0  # panels sent (not edits) so far
        self.ack_at: dict[int, float] = {}  # revision -> when first acknowledged
        self.in_flight: str | None = None
        self.hold: TimerCheck | None = None
        self.position = 0  # lines acknowledged (index into script.lines)

    @property
    def chat(self) -> int | None:
        """Where his panel and private notices are (on Discord once the bot opened his DMs)."""
        return self.client.private_chat(self.user)

    # --- what the judge sees --------------------------------------------------------------------
    def _scan(self) -> None:
        seen = self.fake.seen
        chat = self.chat
        while chat is not None and self._cursor < len(seen):
            item = seen[self._cursor]
            self._cursor += 1
            if item.chat != chat or not item.buttons:
                continue
            revision = _revision(item)
            if revision is None:
                continue
            if item.method == self.client.send:
                self.panels += 1
            self.panel_id = item.message_id
            if revision > self._revision:
                for r in range(self._revision + 1, revision + 1):
                    self.ack_at.setdefault(r, item.at)
                self._revision = revision

    @property
    def revision(self) -> int:
        self._scan()
        return self._revision

    def _button(self, line: str) -> str | None:
        """The callback data this line may be pressed as (seeded choice), else ``None``."""
        words = line.split()
        if words[0] == "/next":
            wanted: tuple[str, ...] = ("n",)
        elif words[0] == "/vote" and len(words) == 3 and words[2].isdigit():
            wanted = ("v", words[1], words[2])
        else:
            return None
        if self.rng.random() >= self.press_share:
            return None
        self._scan()
        if self.panel_id is None:
            return None
        message = self.client.panel(self.user, self.panel_id)
        for button in message.buttons:
            data = self.client.data(button)
            if tuple(data.split(":")[2:]) == wanted:
                return data
        return None

    # --- acting ---------------------------------------------------------------------------------
    async def setup(self) -> None:
        """``/new seed`` where the game lives, and on Telegram ``/link`` in the group (before any
        kill)."""
        await self.client.type(self.user, self.home, self.script.lines[0])
        await self.fake.wait_for(lambda: self.revision >= 0, ACK_TIMEOUT, f"judge {self.n}: /new")
        mark = len(self.fake.seen)
        if await self.client.link(self.user, self.group):
            def linked() -> bool:  # the group told, then the panel edited (ENGINEERING: _link)
                later = self.fake.seen[mark:]
                return any(s.chat == self.group_id for s in later) and \
                    any(s.chat == self.chat and s.buttons for s in later)

            await self.fake.wait_for(linked, ACK_TIMEOUT, f"judge {self.n}: /link")
        self.position = 1

    async def play(self, bot: BotProcess, run: JudgeRun) -> None:
        """The demo line by line. The judges start a little apart and pause a few milliseconds
        between lines (seeded), so that a kill finds each game at a different point."""
        await asyncio.sleep(self.rng.uniform(0.0, 0.3))
        for index in range(1, len(self.script.lines)):
            await self._wait_hold(bot)
            await self._act(index, bot, run)
            self.position = index + 1
            await asyncio.sleep(self.rng.uniform(0.0, 0.01))

    async def _wait_hold(self, bot: BotProcess) -> None:
        hold = self.hold
        if hold is None:
            return

        def over() -> bool:
            life = bot.lives[-1]
            return bot.up and life.ready is not None and \
                time.time() >= max(hold.deadline, life.ready) + TIMER_LATE + 0.2

        await self.fake.wait_for(over, 60.0, f"judge {self.n}: the timer to run out")
        self.hold = None

    async def _act(self, index: int, bot: BotProcess, run: JudgeRun) -> None:
        line = self.script.lines[index]
        self.in_flight = line
        data = self._button(line)
        panel = self.panel_id
        client = self.client
        kills = bot.kills  # before it is sent: a kill from here on may have cut it
        if data is not None and panel is not None:
            sent = await client.press_data(self.user, panel, data)
        else:
            sent = await client.type(self.user, self.home, line)

        def cut() -> bool:  # it died with the action in flight (on Discord: or got it dead)
            return bot.up and (bot.kills > kills or client.lost(sent))

        deadline = time.time() + ACK_TIMEOUT
        while self.revision < index:
            if time.time() > deadline:
                raise AssertionError(f"judge {self.n}: no acknowledgement of line {index} {line!r}")
            if cut():
                await self._wait_hold(bot)
                kills = bot.kills
                deadline = time.time() + ACK_TIMEOUT
                sent = await self._again(index, line, data, panel, bot, run, sent)
                continue
            await self.fake.wait_for(lambda: self.revision >= index or cut(),
                                     ACK_TIMEOUT, f"judge {self.n}: line {index} {line!r}")
        self.in_flight = None

    async def _again(self, index: int, line: str, data: str | None, panel: int | None,
                     bot: BotProcess, run: JudgeRun, sent: Any) -> Any:
        """After a restart with ``line`` unacknowledged: as a judge would. Returns what now
        stands for the line (sent again, or ``sent`` if it was not)."""
        if self.revision >= index:
            return sent
        client = self.client
        kills = bot.kills
        if data is not None and panel is not None:
            run.resent += 1
            press = await client.press_data(self.user, panel, data, again=True)
            await self.fake.wait_for(lambda: client.answer(press) is not None or self.revision >= index
                                     or bot.kills > kills or (bot.up and client.lost(press)),
                                     ACK_TIMEOUT, f"judge {self.n}: the press again")
            if client.answer(press):
                run.stale_presses += 1
            return press
        panels = self.panels
        status = await client.type(self.user, self.home, "/status")

        def shown() -> bool:
            self._scan()
            return self.panels > panels or bot.kills > kills or (bot.up and client.lost(status))

        await self.fake.wait_for(shown, ACK_TIMEOUT, f"judge {self.n}: /status")
        if bot.kills > kills or self.panels <= panels or self.revision >= index:
            return sent  # killed again or lost (the caller starts over), or the line was committed
        run.resent += 1
        return await client.type(self.user, self.home, line)


# --- one run --------------------------------------------------------------------------------------

@dataclass
class Reference:
    """An un-killed run of the same stream (one game: every game plays the same script): what
    its group, its judge and its outbox got, with the game's number and the group's title
    normalised (:func:`_normal`)."""

    group_texts: list[str]
    judge_texts: list[str]
    outbox_texts: list[list[tuple[str, str]]]


GAME_NO = re.compile(r"(?i)\b(игр[аеуы]) №\s?\d+")


def _normal(text: str | None, j: "Judge") -> str:
    """The text with what differs between games of one run taken out: the game's number (its
    id: "Игра №3 привязана…") and the group's title (Discord: the channel's and the judge's
    mentions, the live countdown)."""
    return GAME_NO.sub(r"\1 №G", j.client.judge_normal(text, j.user, j.group))


def _texts(fake: KillFake | KillDiscord, judges: list[Judge]) -> tuple[dict[int, list[Said]], dict[int, list[Said]]]:
    groups = {j.n: [Said(_normal(s.text, j), s.life) for s in fake.seen_in(j.group_id, j.client.send)]
              for j in judges}
    private = {j.n: [Said(_normal(s.text, j), s.life) for s in fake.seen_in(j.chat or -1, j.client.send)
                     if not s.buttons] for j in judges}
    return groups, private


def _outbox_by_event(db: Path, judges: list[Judge]) -> tuple[dict[int, list[list[tuple[str, str]]]], list[str]]:
    """For each game, the outbox rows stored with each of its events (matched by the commit
    time the event and its rows share), as (``judge``|``group``, text); and what does not fit."""
    games = read_games(db)
    rows = read_outbox(db)
    out: dict[int, list[list[tuple[str, str]]]] = {}
    problems: list[str] = []
    for j in judges:
        game = games.get(j.game_id or -1)
        if game is None:
            problems.append(f"judge {j.n}: no game stored")
            continue
        roles = {j.client.user_key(j.user): "judge", j.client.chat_key(j.group): "group"}
        mine = [r for r in rows if r.game_id == game.id]
        by_at: dict[float, list[tuple[str, str]]] = {}
        for r in mine:
            if r.kind == "edit" and r.payload.get("of_row"):
                # a countdown whose announcement was still queued when its stage came (after a
                # restart): its edit is queued behind that row, outside any event (bot.outbox)
                if r.state != "sent":
                    problems.append(f"judge {j.n}: outbox row {r.id} left {r.state}: {r.payload}")
                continue
            texts = by_at.setdefault(r.created_at, [])
            if r.kind == "send":  # an edit (a countdown shown ended) depends on the timer's stage
                texts.append((roles.get(r.chat, r.chat), _normal(str(r.payload.get("text")), j)))
            if r.state != "sent":
                problems.append(f"judge {j.n}: outbox row {r.id} left {r.state}: {r.payload}")
        stamps = {*game.event_at, game.created_at}  # the events' rows and the creation's news
        for at in by_at:
            if at not in stamps:
                problems.append(f"judge {j.n}: outbox rows at {at} belong to no event (orphaned)")
        out[j.n] = [by_at.get(at, []) for at in game.event_at]
    return out, problems


async def play_games(folder: Path, *, seed: int, games: int, kills: int, platform: str = "telegram",
                     scale: float = DEFAULT_SCALE, press_share: float = 0.5,
                     reference: Reference | None = None) -> tuple[JudgeRun, Reference]:
    """Play ``games`` demo games at once on ``platform`` (``telegram`` or ``discord``) against
    one bot process killed ``kills`` times; check the run against ``reference`` (made here first
    when not given: the same games, no kill). Returns the run and the reference."""
    if reference is None and kills:
        _, reference = await play_games(folder / "reference", seed=seed, games=1, kills=0,
                                        platform=platform, scale=scale, press_share=press_share)
    folder.mkdir(parents=True, exist_ok=True)
    script = demo_script()
    rng = random.Random(seed)
    run = JudgeRun(seed=seed, games=games, kills=kills)
    started = time.perf_counter()
    db = folder / "referee.sqlite3"
    fake, client = open_platform(platform)
    async with fake:
        judges = [Judge(client, n, script, random.Random(rng.random()), press_share) for n in range(games)]
        bot = BotProcess(fake, folder, bot_env(fake, db, scale=scale))
        try:
            await bot.start()
            for j in judges:  # one after another: the game ids are the same in every run
                await j.setup()
            for j in judges:
                assert j.panel_id is not None
                j.game_id = int(client.data(client.panel(j.user, j.panel_id).buttons[0]).split(":")[0])
            players = [asyncio.create_task(j.play(bot, run)) for j in judges]
            killer = asyncio.create_task(_killer(bot, judges, script, rng, kills, run, db, scale))
            try:
                await asyncio.gather(*players, killer)
            except Exception as error:  # a judge got stuck: say first what the kills found
                if run.lost:
                    raise AssertionError("acknowledged actions lost at a kill: "
                                         + "; ".join(run.lost[:10])) from error
                raise
            finally:
                for task in (*players, killer):
                    task.cancel()
            try:
                await _settle(fake, db)
            except AssertionError as error:  # FakeTimeout: still check what the store holds
                run.half.append(f"the outbox was not drained: {str(error)[:200]}")
        finally:
            bot.close()
        run.bot_errors = bot.errors()
        run.lives = [(round(x.started, 2), x.ready and round(x.ready, 2), x.killed and round(x.killed, 2))
                     for x in bot.lives]
        groups, private = _texts(fake, judges)
        _check_timers(run, judges, fake, bot, db)
        if run.late_timers:
            _dump(folder / "dump.txt", fake, [j for j in judges if any(t.late and t.game == j.n for t in run.timers)])
    run.group_texts = {n: [s.text for s in items] for n, items in groups.items()}
    run.judge_texts = {n: [s.text for s in items] for n, items in private.items()}
    run.outbox_texts, run.half = _outbox_by_event(db, judges)
    _check_log(run, judges, script, db)
    if reference is None:
        reference = Reference(run.group_texts[0], run.judge_texts[0], run.outbox_texts.get(0, []))
    else:
        for j in judges:
            for what, got, want in (("group", groups[j.n], reference.group_texts),
                                    ("judge", private[j.n], reference.judge_texts)):
                errors, repeats, beyond = compare_announcements(got, want)
                run.announcements += [f"judge {j.n}, {what}: {e}" for e in errors]
                run.repeats += repeats
                run.duplicates += beyond
            got_rows, want_rows = run.outbox_texts.get(j.n, []), reference.outbox_texts
            for seq, (a, b) in enumerate(zip(got_rows, want_rows), 1):
                if a != b:
                    run.half.append(f"judge {j.n}: event {seq} stored with outbox {a}, reference {b}")
    run.seconds = time.perf_counter() - started
    return run, reference


def _dump(path: Path, fake: KillFake | KillDiscord, judges: list[Judge]) -> None:
    """Every send and edit in these judges' chats, by life (to read a failure)."""
    lines: list[str] = []
    for j in judges:
        lines.append(f"== judge {j.n}: chat {j.chat}, group {j.group_id}, game {j.game_id}")
        for s in fake.seen:
            if s.chat in (j.chat, j.group_id):
                where = "judge" if s.chat == j.chat else "group"
                text = (s.text or "").replace("\n", " | ")
                lines.append(f"  life {s.life} {s.at:.2f} {where} {s.method} #{s.message_id} "
                             f"rev={_revision(s)} {text[-110:]!r}")
    path.write_text("\n".join(lines), encoding="utf-8")


async def _settle(fake: KillFake | KillDiscord, db: Path) -> None:
    """Wait until the outbox is drained and the bot quiet (its last sends and edits made)."""
    def drained() -> bool:
        return all(r.state != "pending" for r in read_outbox(db))

    await fake.wait_for(drained, 15.0, "the outbox drained")
    await quiet(fake, 0.3)


async def _killer(bot: BotProcess, judges: list[Judge], script: Script, rng: random.Random,
                  kills: int, run: JudgeRun, db: Path, scale: float) -> None:
    """SIGKILL the bot ``kills`` times, spread over the games (after a seeded number of
    acknowledged actions, plus a few milliseconds so that it lands inside a handler)."""
    total = len(judges) * (len(script.lines) - 1)
    marks = sorted(rng.uniform(0.03, 0.97) * total for _ in range(kills))
    fake = bot.fake
    for k, mark in enumerate(marks):
        def reached() -> bool:
            return sum(max(0, j.revision) for j in judges) >= mark

        await fake.wait_for(reached, 120.0, f"kill {k}: {mark:.0f} acknowledged actions")
        await asyncio.sleep(rng.uniform(0.0, 0.03))
        acked = {j.n: j.revision for j in judges}  # before the kill: every call seen so far
        flight = {j.n: j.in_flight for j in judges}
        at = bot.kill()
        acked = {j.n: max(acked[j.n], j.revision) for j in judges}  # calls answered until the kill
        stored = read_games(db)
        for j in judges:
            game = stored[j.game_id]  # type: ignore[index]
            run.points.append(KillPoint(k, j.n, at, acked[j.n], len(game.events), flight[j.n]))
            if len(game.events) < acked[j.n]:
                run.lost.append(f"kill {k}, judge {j.n}: revision {acked[j.n]} acknowledged, "
                                f"{len(game.events)} events stored")
            if game.events != script.events[:len(game.events)]:
                run.lost.append(f"kill {k}, judge {j.n}: the stored log is not the script's prefix")
            check = _live_timer(j, game, script, scale, k)
            if check is not None:  # the same timer seen at an earlier kill: checked once
                run.timers = [t for t in run.timers if not (t.game == j.n and t.key == check.key)]
                run.timers.append(check)
                j.hold = check
        await asyncio.sleep(rng.uniform(0.0, 0.3))  # down a while: updates queue at "Telegram"
        await bot.start()


def _live_timer(j: Judge, game: Any, script: Script, scale: float, kill: int) -> TimerCheck | None:
    """The step timer stored as running for the step the stored log is in, if any (a speech, a
    night step, night 0)."""
    from bot.i18n import catalog
    from bot.judge.routing import step_key
    from bot.judge.timer import OVER, Timer

    data = game.timer
    if data is None:
        return None
    timer = Timer.from_dict(data)
    if not timer.live or timer.deadline is None:
        return None
    state, _ = rules.fold(rules.config_from_dict(game.config),
                          [rules.from_dict(e) for e in game.events], game.names)
    if step_key(state) != timer.key:
        return None  # the step had ended (the stop not stored yet): no edit is due
    timer.stage = OVER
    return TimerCheck(j.n, kill, timer.kind, timer.key, timer.deadline, timer.seconds * scale,
                      timer.line(catalog("ru"), 0.0))


def _check_timers(run: JudgeRun, judges: list[Judge], fake: KillFake | KillDiscord, bot: BotProcess,
                  db: Path) -> None:
    by_n = {j.n: j for j in judges}
    games = read_games(db)
    for check in run.timers:
        j = by_n[check.game]
        check.candidates = expected_ends(bot.lives[check.kill + 1:], check.deadline, TIMER_LATE)
        if not check.candidates:
            check.skipped = "no life lasted past the deadline"
            continue
        check.expected = check.candidates[-1].end
        killed_at = bot.lives[check.kill].killed or 0.0
        # When the turn's end was committed (the judge's action, in the final log). Before the
        # timer was due (an action in flight at the kill, delivered again after the restart):
        # no "time is up" edit is due, nothing to check. Edits after it belong to a later turn
        # with the same line (the same seat's speech on another day).
        ended = _turn_end_revision(j.script, check.key)
        game = games.get(j.game_id or -1)
        committed = game.event_at[ended - 1] if game is not None and ended is not None \
            and ended <= len(game.event_at) else None
        if committed is not None and committed < check.candidates[0].end + TIMER_LATE:
            check.skipped = f"the judge ended the turn at {committed:.2f}"
            continue
        until = committed if committed is not None else float("inf")
        ends = [s.at for s in fake.seen if s.chat in (j.chat, j.group_id) and killed_at < s.at <= until
                and s.method == j.client.edit and check.over_line in (s.text or "")]
        check.ended_at = ends[0] if ends else None


def _turn_end_revision(script: Script, key: str) -> int | None:
    """The revision (log length) at which the step ``key`` ends in the script."""
    from bot.judge.routing import step_key

    state = rules.new_game(rules.config_from_dict(script.config))
    inside = False
    for i, event in enumerate(script.events, 1):
        state, _ = rules.apply(state, rules.from_dict(event))
        now = step_key(state)
        if now == key:
            inside = True
        elif inside:
            return i
    return None


def _check_log(run: JudgeRun, judges: list[Judge], script: Script, db: Path) -> None:
    """The final log of each game is the script, once, in order, and folds to the demo's end."""
    from bot.demo import WINNER

    games = read_games(db)
    for j in judges:
        game = games.get(j.game_id or -1)
        if game is None:
            run.log_errors.append(f"judge {j.n}: no game")
            continue
        if game.events != script.events:
            first = next((i for i, (a, b) in enumerate(zip(game.events, script.events)) if a != b),
                         min(len(game.events), len(script.events)))
            run.log_errors.append(
                f"judge {j.n}: the log differs from the script at event {first + 1} "
                f"({len(game.events)} stored, {len(script.events)} in the script): "
                f"{game.events[first] if first < len(game.events) else None} vs "
                f"{script.events[first] if first < len(script.events) else None}")
            continue
        state, _ = rules.fold(rules.config_from_dict(game.config),
                              [rules.from_dict(e) for e in game.events], game.names)
        winner = state.result.winner.value if state.result and state.result.winner else None
        if state.phase is not rules.Phase.GAME_OVER or winner != WINNER or game.result != WINNER:
            run.log_errors.append(f"judge {j.n}: the log folds to {state.phase} {winner}, "
                                  f"stored result {game.result}")


def run_sync(seed: int, games: int, kills: int, **options: Any) -> JudgeRun:
    """:func:`play_games` in a temporary folder (for the bench)."""
    with tempfile.TemporaryDirectory(prefix="killrig-") as folder:
        run, _ = asyncio.run(play_games(Path(folder), seed=seed, games=games, kills=kills, **options))
        return run
