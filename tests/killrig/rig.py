"""The pieces every kill run shares: a fake platform that notes what the bot did and when (the
fake Bot API, :class:`KillFake`; the fake Discord, :class:`killrig.platforms.KillDiscord`),
the bot as a child process (``python -m bot telegram`` or ``… discord``) that is killed with
SIGKILL and started again over the same SQLite file, and read-only looks at that file between two
lives.

The fake runs in the test's own event loop; the bot is a separate process talking HTTP (and, for
Discord, the gateway's WebSocket) to it on 127.0.0.1, exactly as in production (bench/e2e.py does
the same for its load). So a SIGKILL cuts the bot wherever it is — inside a handler, between a
commit and the send it queued, in the middle of a send — and nothing in the test process is cut
with it.

A fake the rig drives (:class:`Platform`) says which ``bot`` command runs against it, the
environment that points the bot at it, and when a new life is ready."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, TypeVar

from fakebot import FakeBotAPI

PROJECT = Path(__file__).resolve().parents[2]
REPLIES = frozenset({"sendmessage", "editmessagetext", "editmessagereplymarkup"})
T = TypeVar("T")


class Platform(Protocol):
    """What the rig needs of a fake platform (Telegram's :class:`KillFake`, Discord's
    :class:`killrig.platforms.KillDiscord`)."""

    command: str  # ``python -m bot <command>``
    life: int  # which life of the bot is running (tags what is seen)
    seen: list[Any]  # :class:`Seen`, in arrival order

    def platform_env(self) -> dict[str, str]:
        """The bot's settings that point it at this fake."""

    def ready_mark(self) -> Any:
        """A mark taken before a life starts, for :meth:`ready_since`."""

    def ready_since(self, mark: Any) -> bool:
        """The life started after ``mark`` is ready to take users' input."""

    def activity(self) -> int:
        """How many calls the bot has made but its idle ones (long polls, heartbeats)."""

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0,
                       what: str | None = None) -> T:
        """Until ``predicate()`` is truthy; its value."""


@dataclass
class Seen:
    """A call of the bot that the fake answered with success, as a user would see it."""

    method: str  # lower case
    chat: int
    at: float  # when it arrived (time.time)
    message_id: int | None
    text: str | None
    buttons: list[dict[str, Any]]
    params: dict[str, Any]
    life: int  # which life of the bot made it (0: the first process)


class KillFake(FakeBotAPI):  # type: ignore[misc]
    """The fake Bot API, also keeping every successful send/edit/answer in arrival order
    (:attr:`seen`), tagged with the life of the bot process that made it. A life is ready at its
    first long poll (its post_init has run: the store is open, the timers and the outbox are
    being re-armed and drained)."""

    command = "telegram"

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Seen] = []
        self.answers: dict[str, tuple[float, str | None]] = {}  # callback id -> (at, text)
        self.life = 0

    def platform_env(self) -> dict[str, str]:
        """The fake's token and URL; the rate limiter off (the fake has no flood limits here)."""
        return {"PTB_TIMEDELTA": "1", "MAFIA_REFEREE_TELEGRAM_TOKEN": self.token,
                "MAFIA_REFEREE_TELEGRAM_BASE_URL": self.base_url,
                "MAFIA_REFEREE_TELEGRAM_RATE_OVERALL": "0", "MAFIA_REFEREE_TELEGRAM_RATE_GROUP": "0",
                "MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE": "0"}

    def ready_mark(self) -> int:
        return len(self.calls_to("getUpdates"))

    def ready_since(self, mark: int) -> bool:
        return len(self.calls_to("getUpdates")) > mark

    def activity(self) -> int:
        return sum(1 for c in self.calls if c.method.lower() != "getupdates")

    async def _run_call(self, call: Any, method: str, params: Any) -> Any:
        try:
            return await super()._run_call(call, method, params)
        finally:
            self._observe(method.lower(), call)

    def _observe(self, key: str, call: Any) -> None:
        if not call.ok:
            return
        if key == "answercallbackquery":
            self.answers[str(call.params.get("callback_query_id"))] = (call.at, call.params.get("text"))
            return
        if key not in REPLIES or not isinstance(call.result, dict):
            return
        result = call.result
        markup = result.get("reply_markup") or {}
        buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
        chat = int(result.get("chat", {}).get("id", call.params.get("chat_id") or 0))
        self.seen.append(Seen(key, chat, call.at, result.get("message_id"), result.get("text"),
                              buttons, dict(call.params), self.life))

    def seen_in(self, chat: int, *methods: str) -> Iterator[Seen]:
        for item in self.seen:
            if item.chat == chat and (not methods or item.method in methods):
                yield item


@dataclass
class Life:
    """One life of the bot process: when it started, became ready (:meth:`Platform.ready_since`:
    Telegram's first long poll, Discord's gateway session), died."""

    started: float
    ready: float | None = None
    killed: float | None = None


def bot_env(fake: Platform, db: Path, *, scale: float, host_seed: int | None = None,
            **extra: str) -> dict[str, str]:
    """The environment of ``python -m bot <fake.command>`` against the fake: its own settings
    only (nothing inherited from a developer's ``MAFIA_REFEREE_*`` or tokens), the timers at
    ``scale``, host mode's seating and deal seeded with ``host_seed``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAFIA_REFEREE_") and k not in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN")}
    env.update({
        "PYTHONPATH": os.pathsep.join(p for p in (str(PROJECT), os.environ.get("PYTHONPATH", "")) if p),
        "MAFIA_REFEREE_DB": str(db),
        "MAFIA_REFEREE_LANG": "ru",
        "MAFIA_REFEREE_TELEGRAM_TIMER_SCALE": repr(scale),
    })
    env.update(fake.platform_env())
    if host_seed is not None:
        env["MAFIA_REFEREE_HOST_SEED"] = str(host_seed)
    env.update(extra)
    return env


@dataclass
class BotProcess:
    """``python -m bot <fake.command>`` as a child of the test, started again after each kill.
    Its stderr (the bot's log) goes to ``<folder>/bot-<life>.log``."""

    fake: Platform
    folder: Path
    env: dict[str, str]
    lives: list[Life] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None and bool(self.lives) \
            and self.lives[-1].ready is not None

    @property
    def kills(self) -> int:
        return sum(1 for life in self.lives if life.killed is not None)

    async def start(self, timeout: float = 30.0) -> Life:
        """Start a new life and wait until it is ready (:meth:`Platform.ready_since`)."""
        assert self.proc is None or self.proc.poll() is not None, "the bot is still running"
        await asyncio.sleep(0.05)  # what the dead process had written is read (its life) first
        self.fake.life = len(self.lives)
        log = (self.folder / f"bot-{len(self.lives)}.log").open("wb")
        life = Life(started=time.time())
        mark = self.fake.ready_mark()
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "bot", self.fake.command], cwd=self.folder,
                                         env=self.env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=log)
        finally:
            log.close()
        self.lives.append(life)
        proc = self.proc

        def ready() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"the bot exited with {proc.returncode}: see {self.folder}")
            return self.fake.ready_since(mark)

        await self.fake.wait_for(ready, timeout, "the bot's new life to be ready")
        life.ready = time.time()
        return life

    def kill(self) -> float:
        """SIGKILL: no handler, no finally, no flush runs in the bot."""
        assert self.proc is not None
        at = time.time()
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.lives[-1].killed = at
        return at

    def close(self) -> None:
        """Kill the process if it still runs (always call this in ``finally``)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def errors(self) -> list[str]:
        """Tracebacks and ERROR lines in the bot's logs (a crash or a failed handler). The logs
        of a run with errors are kept (the run's folder is temporary): the first line says where."""
        out: list[str] = []
        for path in sorted(self.folder.glob("bot-*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if " ERROR " in line or line.startswith("Traceback"):
                    out.append(f"{path.name}: {line}")
        if out:
            kept = Path(tempfile.mkdtemp(prefix="killrig-logs-"))
            for path in self.folder.glob("bot-*.log"):
                shutil.copy(path, kept / path.name)
            out.insert(0, f"the bot's logs are kept in {kept}")
        return out


@dataclass(frozen=True)
class Window:
    """When a resumed timer may end: from ``start`` to ``end`` (seconds, ``time.time``);
    ``started``: when the life that resumes it started."""

    start: float
    end: float
    started: float = 0.0

    def holds(self, at: float, tolerance: float, late: float | None = None,
              length: float | None = None) -> bool:
        """``at`` is in the window, ``tolerance`` early or ``late`` (default: ``tolerance``) late.

        ``length`` (seconds: the whole turn's): also in when ``at`` is before the earliest end a
        timer restarted from its full length in this life could have — a machine so busy that
        the bot's callbacks run later than ``late`` still tells the two apart."""
        if at < self.start - tolerance:
            return False
        return at <= self.end + (tolerance if late is None else late) or \
            (length is not None and at < self.started + length)


def expected_ends(lives: list[Life], deadline: float, tolerance: float = 0.6) -> list[Window]:
    """Where a timer with a stored ``deadline``, running when the life before ``lives[0]`` was
    killed, may end: in the first life that lasts past the deadline, at the deadline — or, if the
    deadline had passed, at once when that life re-armed it: between its start and the moment it
    was ready (the bot re-arms its timers while it starts up; Discord's client only identifies on
    the gateway after that). A life killed within ``tolerance`` after that window may have cut the
    edit: then the next life's window counts too."""
    out: list[Window] = []
    for life in lives:
        if life.ready is None:
            continue
        end = max(deadline, life.ready)
        if life.killed is not None and life.killed <= end:
            continue  # killed before it was due in this life
        out.append(Window(max(deadline, life.started), end, life.started))
        if life.killed is None or life.killed > end + tolerance:
            break
    return out


# --- reading the store the bot left --------------------------------------------------------------

def connect_ro(db: Path) -> sqlite3.Connection:
    """The SQLite file opened read-only (no process writes it while we look: the bot is dead or
    has been stopped). WAL mode: the committed transactions in the ``-wal`` file are read too."""
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)


@dataclass(frozen=True)
class StoredGame:
    id: int
    chat: str
    config: dict[str, Any]
    names: dict[int, str]
    events: list[dict[str, Any]]  # in seq order
    event_at: list[float]  # each event's commit time (one transaction: one value)
    timer: dict[str, Any] | None
    result: str | None
    created_at: float = 0.0  # the game's creation (its news are queued in that transaction)


@dataclass(frozen=True)
class StoredOutbox:
    id: int
    chat: str
    game_id: int | None
    payload: dict[str, Any]
    created_at: float
    message_id: int | None
    state: str
    kind: str = "send"  # "edit": a status edit (a countdown shown ended), not an announcement


def read_games(db: Path) -> dict[int, StoredGame]:
    conn = connect_ro(db)
    try:
        games = {}
        for gid, chat, config, names, timer, result, created_at in conn.execute(
                "SELECT id, chat, config, names, timer, result, created_at FROM games ORDER BY id"):
            rows = conn.execute("SELECT event, at FROM events WHERE game_id = ? ORDER BY seq",
                                (gid,)).fetchall()
            games[gid] = StoredGame(
                gid, chat, json.loads(config), {int(k): v for k, v in json.loads(names or "{}").items()},
                [json.loads(r[0]) for r in rows], [r[1] for r in rows],
                json.loads(timer) if timer else None, result, created_at)
        return games
    finally:
        conn.close()


def read_outbox(db: Path) -> list[StoredOutbox]:
    conn = connect_ro(db)
    try:
        return [StoredOutbox(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7]) for r in conn.execute(
            "SELECT id, chat, game_id, payload, created_at, message_id, state, kind FROM outbox"
            " ORDER BY id")]
    finally:
        conn.close()


def read_host_tables(db: Path) -> list[dict[str, Any]]:
    conn = connect_ro(db)
    try:
        return [{"id": r[0], "chat": r[1], "game_id": r[2], "status": r[3],
                 "step": json.loads(r[4]) if r[4] else None,
                 "seats": {int(k): v for k, v in json.loads(r[5] or "{}").items()},
                 "players": json.loads(r[6] or "[]")}
                for r in conn.execute(
                    "SELECT id, chat, game_id, status, step, seats, players FROM host_tables ORDER BY id")]
    finally:
        conn.close()


async def quiet(fake: Platform, seconds: float = 0.3, timeout: float = 15.0) -> None:
    """Wait until the bot has made no call but idle ones for ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    count, since = -1, loop.time()
    while loop.time() < end:
        now_count = fake.activity()
        if now_count != count:
            count, since = now_count, loop.time()
        elif loop.time() - since >= seconds:
            return
        await asyncio.sleep(0.05)
