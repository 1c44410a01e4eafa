"""The live updates: every open stream of every page, fed from the service's commits.

:meth:`Hub.watch` is a watcher of the service (:meth:`bot.service.Service.watch`): after each
commit of a game — the same transaction that queued its outbox rows — it notes which followed
chats changed and schedules one refresh per chat (a burst of commits is one refresh: a page shows
the newest committed game, never what is not committed). A refresh reads the chat's views
(:class:`.pages.Pages`) once and hands the same bytes to every follower:

* a *public* stream (the live page, the overlay) gets a view only when it differs from the last
  one it got — compared without the running countdown's seconds, which only say when it was
  read. A commit that changes only what is hidden (the roles entered, a check, a shot before the
  morning) changes no public view, so it sends nothing: the stream's count, order, sizes and
  timing are those of the public information (F24 §4.4.13, §4.5.4; seed 5.4);
* a *broadcast* stream gets its views ``delay`` seconds after they were read (the club's
  delay, as streams of sports mafia run behind the table);
* a *judge's* stream (the Mini App) is told the revision after every commit of his game, and
  reads his panel afresh over his authenticated API.

Each follower keeps only the newest view it has not written yet (a slow reader skips views, never
piles them up). Streams are bounded per client address and per chat (:class:`Refused`); a
stopped table (a hosted game's ``/stop``, a game abandoned) sends its last view and closes its
streams, and so does a rotation of its secrets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ..service import Committed, Relinked, TimerStored
from .pages import Pages

log = logging.getLogger(__name__)

KINDS = ("public", "broadcast", "judge")
#: seconds between two comment lines on an idle stream (proxies close silent connections)
KEEPALIVE = 15.0


class Refused(Exception):
    """A stream that may not be opened: ``why`` is ``"per_ip"`` or ``"per_table"``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def frame(view: dict[str, Any], event: str = "state") -> bytes:
    """One Server-Sent Event carrying ``view`` as one line of JSON."""
    data = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {data}\n\n".encode()


def _key(view: dict[str, Any]) -> str:
    """What a public view says, but the running countdown's seconds (when it was read)."""
    clock = view.get("clock")
    if clock and clock.get("running"):
        view = {**view, "clock": {**clock, "left": None}}
    return json.dumps(view, ensure_ascii=False, sort_keys=True)


class Follower:
    """One open stream: the newest frame it has not written yet, and whether it is closed."""

    def __init__(self, feed: "Feed", kind: str, address: str) -> None:
        self.feed = feed
        self.kind = kind
        self.address = address
        self._latest: bytes | None = None
        self._ready = asyncio.Event()
        self.closed = False

    def offer(self, payload: bytes) -> None:
        self._latest = payload
        self._ready.set()

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    async def next(self, timeout: float) -> bytes | None:
        """The next frame to write; ``None`` after ``timeout`` seconds without one (a keep-alive
        is due) or once closed."""
        if self._latest is None and not self.closed:
            try:
                await asyncio.wait_for(self._ready.wait(), timeout)
            except asyncio.TimeoutError:
                return None
        self._ready.clear()
        payload, self._latest = self._latest, None
        return payload


@dataclass
class Feed:
    """What the hub keeps of one followed chat."""

    chat: str
    followers: dict[str, set[Follower]] = field(default_factory=lambda: {k: set() for k in KINDS})
    home: str | None = None  # the home its game lives in, as last read
    game_id: int | None = None
    last: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # kind -> (key, frame)
    delay: float = 0.0  # the broadcast's
    delayed: deque[tuple[float, bytes]] = field(default_factory=deque)
    released: bytes | None = None  # the broadcast frame last due
    waiting: bool = False  # a refresh is scheduled or running
    again: bool = False  # another commit came during the refresh
    seq: int = 0  # the judge's stream: commits seen
    published: int = 0  # public frames handed to the followers (the tests count them)

    def count(self) -> int:
        return sum(len(f) for f in self.followers.values())


class Hub:
    """Every stream of the process (see the module docstring). ``clock``: the broadcast's delay
    runs by it; ``per_ip``, ``per_table``: the bounds on open streams."""

    def __init__(self, pages: Pages, *, clock: Callable[[], float] = time.time,
                 per_ip: int = 20, per_table: int = 1000) -> None:
        self.pages = pages
        self.clock = clock
        self.per_ip = per_ip
        self.per_table = per_table
        self._feeds: dict[str, Feed] = {}
        self._by_address: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.refreshes = 0  # refreshes run (the bench counts them)

    # --- the service's watcher --------------------------------------------------------------------
    def watch(self, done: Committed | TimerStored | Relinked) -> None:
        """A commit (:meth:`bot.service.Service.watch`): refresh the feeds it concerns."""
        for feed in list(self._feeds.values()):
            if not feed.count():
                continue
            if isinstance(done, Committed):
                hit = done.home in (feed.home, feed.chat)
            elif isinstance(done, TimerStored):
                hit = done.game_id == feed.game_id
            else:
                hit = done.chat == feed.chat
            if hit:
                self.refresh(feed.chat)

    def refresh(self, chat: str) -> None:
        """Schedule one refresh of ``chat``'s feed (a refresh running now runs once more)."""
        feed = self._feeds.get(chat)
        if feed is None:
            return
        if feed.waiting:
            feed.again = True
            return
        feed.waiting = True
        task = asyncio.get_running_loop().create_task(self._refreshing(feed), name=f"web:{chat}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refreshing(self, feed: Feed) -> None:
        try:
            while True:
                feed.again = False
                try:
                    await self._refresh(feed)
                except Exception:  # noqa: BLE001 - the page catches up at the next commit
                    log.exception("the pages of %s could not be refreshed", feed.chat)
                if not feed.again:
                    return
        finally:
            feed.waiting = False

    async def _refresh(self, feed: Feed) -> None:
        self.refreshes += 1
        kinds = tuple(k for k in ("public", "broadcast") if feed.followers[k])
        feed.home = await self.pages.home(feed.chat)
        if kinds:
            game_id, views = await self.pages.views(feed.chat, kinds)
            feed.game_id = game_id
            for kind, view in views.items():
                self._publish(feed, kind, view)
            if any(v.get("stopped") for v in views.values()):
                self.close(feed.chat, keep_broadcast=bool(feed.delayed))
        else:
            current = await self.pages.current(feed.chat)
            feed.game_id = current.game_id if current is not None else None
        if feed.followers["judge"]:
            feed.seq += 1
            current = await self.pages.current(feed.chat)
            ping = frame({"kind": "judge", "seq": feed.seq,
                          "game": current.game_id if current is not None else None,
                          "revision": current.revision if current is not None else None}, "changed")
            for follower in list(feed.followers["judge"]):
                follower.offer(ping)

    def _publish(self, feed: Feed, kind: str, view: dict[str, Any]) -> None:
        key = _key(view)
        last = feed.last.get(kind)
        payload = frame(view)
        if kind == "public":
            if last is not None and last[0] == key:
                return  # nothing the table may see has changed: nothing is sent
            feed.last[kind] = (key, payload)
            feed.published += 1
            for follower in list(feed.followers[kind]):
                follower.offer(payload)
            return
        if last is not None and last[0] == key:
            return
        feed.last[kind] = (key, payload)
        feed.delayed.append((self.clock() + feed.delay, payload))
        self.release(feed.chat)

    def release(self, chat: str) -> None:
        """Hand the broadcast's frames that are due to its followers; arm the next one."""
        feed = self._feeds.get(chat)
        if feed is None:
            return
        now = self.clock()
        while feed.delayed and feed.delayed[0][0] <= now:
            _, payload = feed.delayed.popleft()
            feed.released = payload
            for follower in list(feed.followers["broadcast"]):
                follower.offer(payload)
        handle = self._timers.pop(chat, None)
        if handle is not None:
            handle.cancel()
        if feed.delayed:
            wait = max(0.0, feed.delayed[0][0] - now)
            self._timers[chat] = asyncio.get_running_loop().call_later(wait, self.release, chat)
        elif not feed.followers["broadcast"] and not feed.count():
            self._drop(feed)

    # --- streams ------------------------------------------------------------------------------------
    async def follow(self, chat: str, kind: str, address: str, *, delay: float = 0.0) -> Follower:
        """Open a stream of ``chat``'s ``kind`` page for a client at ``address``; its first frame
        is the page as it is now (the broadcast's: as it was ``delay`` seconds ago, or a
        waiting page). :class:`Refused` beyond the bounds."""
        if self._by_address.get(address, 0) >= self.per_ip:
            raise Refused("per_ip")
        feed = self._feeds.get(chat)
        if feed is None:
            feed = self._feeds[chat] = Feed(chat)
        if feed.count() >= self.per_table:
            raise Refused("per_table")
        if kind == "broadcast":
            feed.delay = float(delay)
        follower = Follower(feed, kind, address)
        feed.followers[kind].add(follower)
        self._by_address[address] = self._by_address.get(address, 0) + 1
        try:
            await self._first(feed, follower)
        except BaseException:
            self.unfollow(follower)
            raise
        return follower

    async def _first(self, feed: Feed, follower: Follower) -> None:
        kind = follower.kind
        if kind == "judge":
            self.refresh(feed.chat)
            return
        if kind == "broadcast" and feed.released is not None:
            follower.offer(feed.released)
            return
        feed.home = await self.pages.home(feed.chat)
        game_id, views = await self.pages.views(feed.chat, (kind,))
        feed.game_id = game_id
        view = views[kind]
        if kind == "public":
            payload = frame(view)
            feed.last.setdefault(kind, (_key(view), payload))
            follower.offer(payload)
        else:
            if feed.delay > 0:
                cat_labels = view.get("labels", {})
                follower.offer(frame({"kind": "broadcast", "waiting": feed.delay,
                                      "labels": cat_labels}, "waiting"))
            self._publish(feed, kind, view)
        if view.get("stopped"):
            follower.close()

    def unfollow(self, follower: Follower) -> None:
        feed = follower.feed
        followers = feed.followers[follower.kind]
        if follower in followers:
            followers.discard(follower)
            left = self._by_address.get(follower.address, 1) - 1
            if left > 0:
                self._by_address[follower.address] = left
            else:
                self._by_address.pop(follower.address, None)
        if not feed.count() and not feed.delayed:
            self._drop(feed)
        elif not followers:
            feed.last.pop(follower.kind, None)

    def _drop(self, feed: Feed) -> None:
        if self._feeds.get(feed.chat) is feed and not feed.count():
            del self._feeds[feed.chat]
            handle = self._timers.pop(feed.chat, None)
            if handle is not None:
                handle.cancel()
            if feed.home is not None:
                self.pages.forget(feed.home)

    def close(self, chat: str, *, keep_broadcast: bool = False) -> int:
        """Close every stream of ``chat`` (a stopped table, rotated secrets); with
        ``keep_broadcast`` the broadcast's streams stay until its last delayed frame is out.
        Returns how many were closed."""
        feed = self._feeds.get(chat)
        if feed is None:
            return 0
        closed = 0
        for kind, followers in feed.followers.items():
            if keep_broadcast and kind == "broadcast":
                continue
            for follower in list(followers):
                follower.close()
                closed += 1
        return closed

    def set_delay(self, chat: str, delay: float) -> None:
        """The broadcast's new delay (``/stream delay``), for the frames read from now on."""
        feed = self._feeds.get(chat)
        if feed is not None:
            feed.delay = float(delay)

    def published(self, chat: str) -> int:
        """How many public frames ``chat``'s followers were handed since it was first followed."""
        feed = self._feeds.get(chat)
        return feed.published if feed is not None else 0

    def streams(self, chat: str | None = None) -> int:
        """Open streams (of ``chat``, or all)."""
        if chat is not None:
            feed = self._feeds.get(chat)
            return feed.count() if feed is not None else 0
        return sum(f.count() for f in self._feeds.values())

    async def idle(self) -> None:
        """Wait until no refresh is running (tests, the bench)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def shutdown(self) -> None:
        for chat in list(self._feeds):
            self.close(chat)
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        await self.idle()
