"""The web layer in tests (no tests here): a :class:`bot.web.WebLayer` over a service on a free
port of 127.0.0.1, and a reader of a page's raw Server-Sent Events stream, as a browser's
fetch reads it (every byte kept: the secrecy tests read the stream itself)."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import aiohttp

from bot.i18n import catalog
from bot.service import Service
from bot.settings import Settings
from bot.web.server import WebLayer
from storage import Store

WAIT = 20.0  # s: how long a stream may take to show a commit (generous: a busy machine)


def web_settings(**more: Any) -> Settings:
    return Settings(web_url="http://127.0.0.1", web_port=0, _env_file=None,  # type: ignore[call-arg]
                    **more)


class CatOnly:
    """A platform as the public pages read it: only its catalogs (Russian)."""

    def __init__(self, lang: str = "ru") -> None:
        self.lang = lang

    async def cat(self, chat: str) -> Any:
        return catalog(self.lang)


@dataclass
class Frame:
    event: str
    raw: bytes  # the frame's bytes as they came
    data: dict[str, Any]


@dataclass
class Reader:
    """One open stream: its frames as they came, and its HTTP status."""

    status: int = 0
    frames: list[Frame] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    closed: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def states(self) -> list[dict[str, Any]]:
        return [f.data for f in self.frames if f.event == "state"]

    async def wait(self, ok: Callable[["Reader"], bool], what: str, timeout: float = WAIT) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not ok(self):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}; frames: "
                                     f"{[f.event for f in self.frames]}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
            except asyncio.TimeoutError:
                pass

    async def count(self, n: int, what: str = "") -> None:
        await self.wait(lambda r: len(r.states()) >= n, what or f"{n} states")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass


async def open_stream(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> Reader:
    """Open ``url`` and read it in the background; returns once the status is known."""
    reader = Reader()
    known = asyncio.Event()

    async def run() -> None:
        try:
            async with http.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=None)) as response:
                reader.status = response.status
                known.set()
                if response.status != 200:
                    return
                buffer = b""
                async for chunk in response.content.iter_any():
                    reader.raw.extend(chunk)
                    buffer += chunk
                    while b"\n\n" in buffer:
                        block, buffer = buffer.split(b"\n\n", 1)
                        event, data = "message", b""
                        for line in block.split(b"\n"):
                            if line.startswith(b"event: "):
                                event = line[7:].decode()
                            elif line.startswith(b"data: "):
                                data = line[6:]
                        if event == "closed":
                            reader.closed = True
                        if data:
                            reader.frames.append(Frame(event, block + b"\n\n", json.loads(data)))
                        reader.changed.set()
        finally:
            known.set()
            reader.closed = True
            reader.changed.set()

    reader.task = asyncio.create_task(run())
    await asyncio.wait_for(known.wait(), WAIT)
    return reader


@asynccontextmanager
async def web_over(service: Service, settings: Settings | None = None, *, door: Any = None,
                   clock: Callable[[], float] | None = None) -> AsyncIterator[WebLayer]:
    """A web layer over ``service``, listening on a free port, stopped after."""
    layer = WebLayer(settings or web_settings(), **({"clock": clock} if clock else {}))
    layer.attach("tg", door or CatOnly())
    await layer.start(service)
    try:
        yield layer
    finally:
        await layer.stop()


@asynccontextmanager
async def service_at(db: Path) -> AsyncIterator[Service]:
    store = await Store.open(db)
    try:
        yield Service(store)
    finally:
        await store.close()


def base(layer: WebLayer) -> str:
    return f"http://127.0.0.1:{layer.port}"
