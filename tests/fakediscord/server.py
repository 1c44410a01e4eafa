"""The fake Discord over the wire: :class:`FakeDiscord`'s REST API and a gateway WebSocket,
served by aiohttp on 127.0.0.1, so that an unpatched discord.py client (in this process or in a
child process) connects to it as to Discord, given ``MAFIA_REFEREE_DISCORD_BASE_URL`` =
:attr:`FakeDiscordServer.base_url` (:mod:`bot.discord.endpoint`).

REST (``/api/v10/…``): the routes :meth:`FakeDiscord.rest` knows, matched to discord.py's route
templates; ``GET /gateway/bot`` names the gateway. Requests must carry ``Authorization: Bot
<token>`` (401 otherwise); interaction callbacks and follow-ups carry no token, as on Discord. A
refusal is Discord's status and JSON error; a route the fake does not know is 404 and a handler
that fails is 400 (never 5xx, which discord.py would retry for seconds), both noted in
:attr:`FakeDiscord.errors`.

The gateway (``/gateway``, JSON text frames, one session at a time as for one unsharded bot):

* on connect HELLO (op 10); a heartbeat (op 1) is ACKed (op 11);
* IDENTIFY (op 2) with the right token starts a new session: READY (the bot user, the guild as
  unavailable, ``resume_gateway_url``) then GUILD_CREATE with the guild's channels; a wrong
  token closes with 4004 (Authentication failed);
* RESUME (op 6) of the current session replays the events it missed and sends RESUMED; of any
  other session, INVALID_SESSION (op 9, not resumable): the client identifies again;
* :meth:`FakeDiscordServer.dispatch` sends an event (INTERACTION_CREATE, MESSAGE_CREATE, …) with
  the session's next sequence number; with the socket down the session keeps it for a RESUME, with no
  session (the bot never connected, or a new process identified) it is lost, as on Discord;
* :meth:`~FakeDiscordServer.drop` closes the socket (the client resumes),
  :meth:`~FakeDiscordServer.forget` drops the session too (the client identifies again).

Faults: :meth:`~FakeDiscordServer.lose_answers` — the next matching REST calls are carried out and
their connection is then dropped without an answer (the client sees a disconnect: "sent, but the
answer was lost"); :meth:`~FakeDiscordServer.drop_calls` — their connection is dropped before they
are carried out (a proxy's failure: nothing was done).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from aiohttp import WSMsgType, web

from .world import APP_ID, Call, FakeDiscord, FakeError

API = "/api/v10"
T = TypeVar("T")

# discord.py's route templates (discord.http.Route paths) the fake serves.
TEMPLATES = (
    "/users/@me",
    "/users/@me/channels",
    "/oauth2/applications/@me",
    "/gateway/bot",
    "/channels/{channel_id}",
    "/channels/{channel_id}/messages",
    "/channels/{channel_id}/messages/{message_id}",
    "/channels/{channel_id}/permissions/{target}",
    "/guilds/{guild_id}",
    "/guilds/{guild_id}/members/{user_id}",
    "/applications/{application_id}/commands",
    "/applications/{application_id}/guilds/{guild_id}/commands",
    "/interactions/{webhook_id}/{webhook_token}/callback",
    "/webhooks/{webhook_id}/{webhook_token}",
)
WEBHOOKS = ("/interactions/", "/webhooks/")


def _json(payload: Any, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py decodes JSON only when it
    reads ``application/json``, no charset)."""
    return web.Response(body=json.dumps(payload).encode("utf-8"), status=status,
                        headers={"Content-Type": "application/json"})


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[a-z_]+\})", template)
    return re.compile("".join(f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") else re.escape(p)
                              for p in parts))


ROUTES = [(t, _pattern(t)) for t in TEMPLATES]

# gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 7, 9, 10, 11


@dataclass
class Session:
    id: str
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)  # dispatched frames, for a RESUME


@dataclass
class Fault:
    """A 429 injected into the next ``times`` calls that ``match(call)``: Discord's answer
    (``retry_after`` seconds, with the ``Via`` header of a real API answer), which discord.py
    waits out itself and retries."""

    match: Callable[[Call], bool]
    times: int
    retry_after: float
    hits: int = 0


def match_safely(match: Callable[[Call], bool], call: Call) -> bool:
    try:
        return bool(match(call))
    except (KeyError, TypeError, AttributeError):
        return False


class FakeDiscordServer:
    """:class:`FakeDiscord` served on 127.0.0.1 (REST and the gateway)::

        async with FakeDiscordServer(FakeDiscord()) as server:
            settings = Settings(discord_token=server.fake.token, discord_base_url=server.base_url, …)
    """

    def __init__(self, fake: FakeDiscord | None = None, *, heartbeat_interval: float = 41.25) -> None:
        self.fake = fake or FakeDiscord()
        self.heartbeat_interval = heartbeat_interval  # seconds, as HELLO gives it (in ms)
        self.port = 0
        self.session: Session | None = None
        self.identified = 0  # IDENTIFYs answered with READY
        self.shards: list[list[int]] = []  # the [shard, count] each IDENTIFY named
        self.resumed = 0  # RESUMEs answered with RESUMED
        self.invalidated = 0  # RESUMEs refused (INVALID_SESSION)
        self.heartbeats: list[int | None] = []  # the sequence each heartbeat carried
        self._sessions = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._send_lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._lose: list[list[Any]] = []  # [method, template, times left, match(body)]
        self.lost: list[Call] = []  # the calls carried out whose answer was dropped
        self._drop: list[list[Any]] = []  # [method, template, times left, match(body)]
        self.dropped: list[Call] = []  # the calls dropped before they were carried out
        self.faults: list[Fault] = []
        self.latencies: list[tuple[Callable[[Call], bool], float]] = []

    # --- faults -------------------------------------------------------------------------------------
    def rate_limit(self, match: Callable[[Call], bool], *, times: int = 1,
                   retry_after: float = 1.0) -> Fault:
        """Answer the next ``times`` calls that ``match(call)`` with a 429."""
        fault = Fault(match, times, retry_after)
        self.faults.append(fault)
        return fault

    def slow(self, seconds: float, match: Callable[[Call], bool]) -> None:
        """Answer every later call that ``match(call)`` ``seconds`` late (a slow channel)."""
        self.latencies.append((match, seconds))

    # --- life cycle ---------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def connected(self) -> bool:
        """A session is identified (or resumed) and its socket is open."""
        return self.session is not None and self.session.ws is not None and not self.session.ws.closed

    async def start(self) -> "FakeDiscordServer":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscordServer":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- REST -----------------------------------------------------------------------------------
    @staticmethod
    def match(path: str) -> tuple[str, dict[str, str]] | None:
        for template, pattern in ROUTES:
            found = pattern.fullmatch(path)
            if found is not None:
                return template, found.groupdict()
        return None

    @staticmethod
    async def _read(request: web.Request) -> tuple[Any, dict[str, bytes]]:
        """The JSON body and the files of a request (a multipart form when files are sent)."""
        if not request.can_read_body:
            return None, {}
        if request.content_type.startswith("multipart/"):
            body: Any = {}
            files: dict[str, bytes] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(data.decode("utf-8"))
                else:
                    files[part.filename or part.name or ""] = bytes(data)  # type: ignore[union-attr]
            return body, files
        text = await request.text()
        return (json.loads(text) if text.strip() else None), {}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        found = self.match(path)
        body, files = await self._read(request)
        call = Call(request.method, found[0] if found else path, str(request.url.with_query(None)),
                    body, time.time())
        self.fake.calls.append(call)
        for match, seconds in self.latencies:
            if match(call):
                await asyncio.sleep(seconds)
        fault = next((f for f in self.faults if f.hits < f.times and match_safely(f.match, call)), None)
        if fault is not None:
            fault.hits += 1
            call.status = 429
            self._changed.set()
            return web.json_response({"message": "You are being rate limited.", "code": 0,
                                      "retry_after": fault.retry_after, "global": False},
                                     status=429, headers={"Via": "1.1 google"})
        if found is not None and self._matched(self._drop, call):
            self.dropped.append(call)
            self._changed.set()
            assert request.transport is not None
            request.transport.close()  # nothing carried out, nothing answered
            return web.Response(status=502)
        response = self._answer(request, call, found, body, files)
        call.status = response.status
        events, self.fake.events[:] = list(self.fake.events), []
        for event, data in events:  # what the call caused (a server mute's VOICE_STATE_UPDATE)
            await self.dispatch(event, data)
        self._changed.set()
        if found is not None and self._lost(call):
            self.lost.append(call)
            assert request.transport is not None
            request.transport.close()  # carried out; the answer never leaves
        return response

    def lose_answers(self, method: str, template: str, *, times: int = 1,
                     match: Callable[[Call], bool] | None = None) -> None:
        """The next ``times`` calls of ``method`` ``template`` (discord.py's route template, e.g.
        ``/channels/{channel_id}/messages``) that ``match`` accepts (the :class:`Call`: its URL,
        its JSON body) are carried out, then their connection is dropped before the answer."""
        self._lose.append([method.upper(), template, times, match or (lambda call: True)])

    def drop_calls(self, method: str, template: str, *, times: int = 1,
                   match: Callable[[Call], bool] | None = None) -> None:
        """The next ``times`` calls of ``method`` ``template`` that ``match`` accepts are not
        carried out: their connection is dropped first (the client sees a disconnect)."""
        self._drop.append([method.upper(), template, times, match or (lambda call: True)])

    def _lost(self, call: Call) -> bool:
        return self._matched(self._lose, call)

    @staticmethod
    def _matched(faults: list[list[Any]], call: Call) -> bool:
        """Whether one of ``faults`` (``[method, template, times left, match]``) takes
        ``call`` (and counts it)."""
        for fault in faults:
            if fault[0] == call.method and fault[1] == call.path and fault[2] > 0 and fault[3](call):
                fault[2] -= 1
                return True
        return False

    def _answer(self, request: web.Request, call: Call, found: tuple[str, dict[str, str]] | None,
                body: Any, files: dict[str, bytes]) -> web.Response:
        if found is None:
            self.fake.errors.append(f"no route: {call.method} {call.path}")
            return _json({"message": "404: Not Found", "code": 0}, status=404)
        template, params = found
        webhook = template.startswith(WEBHOOKS)
        if not webhook and request.headers.get("Authorization") != f"Bot {self.fake.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        try:
            if template == "/gateway/bot":
                result: Any = {"url": self.gateway_url, "shards": 1, "session_start_limit": {
                    "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}
            elif webhook:
                result = self.fake.webhook(call.method, template, params["webhook_token"],
                                           dict(body or {}), files)
            else:
                ids = [int(v) for v in params.values() if v.isdigit()]
                result = self.fake.rest(call.method, template, ids, body, files)
        except FakeError as error:
            return _json({"message": error.message, "code": error.code}, status=error.status)
        except Exception as error:  # noqa: BLE001 - a fake's gap: the test must see it
            self.fake.errors.append(f"{call.method} {call.path}: {type(error).__name__}: {error}")
            return _json({"message": f"the fake failed: {error}", "code": 0}, status=400)
        if result is None:
            return web.Response(status=204)
        return _json(result)

    # --- the gateway -----------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    self.heartbeats.append(data)
                    await ws.send_json({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    await self._identify(ws, data or {})
                elif op == RESUME:
                    await self._resume(ws, data or {})
        finally:
            self._sockets.discard(ws)
            if self.session is not None and self.session.ws is ws:
                self.session.ws = None
            self._changed.set()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        async with self._send_lock:
            self.session = session = Session(f"session-{next(self._sessions)}", ws=ws)
            await self._send(session, "READY", {
                "v": 10, "user": self.fake.bot, "guilds": [{"id": str(self.fake.guild_id), "unavailable": True}],
                "session_id": session.id, "resume_gateway_url": self.gateway_url,
                "shard": list(data.get("shard") or [0, 1]),
                "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                "relationships": [], "presences": [], "user_settings": {}, "guild_join_requests": [],
                "geo_ordered_rtc_regions": []})
            await self._send(session, "GUILD_CREATE", self.fake.guild_payload())
            self.identified += 1
            self.shards.append(list(data.get("shard") or [0, 1]))
        self._changed.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = self.session
        if session is None or data.get("session_id") != session.id or data.get("token") != self.fake.token:
            self.invalidated += 1
            await ws.send_json({"op": INVALID_SESSION, "d": False})
            return
        async with self._send_lock:
            session.ws = ws
            after = int(data.get("seq") or 0)
            for frame in session.sent:
                if frame["s"] > after:
                    await ws.send_json(frame)
            await self._send(session, "RESUMED", {})
            self.resumed += 1
        self._changed.set()

    async def _send(self, session: Session, event: str, data: Any) -> int:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_json(frame)
            except (ConnectionError, RuntimeError):
                session.ws = None  # gone: kept for a RESUME
        return session.seq

    async def dispatch(self, event: str, data: Any) -> tuple[str, int] | None:
        """Send ``event`` to the bot: the session it went to and its sequence number there, or
        ``None`` when no session would ever get it (the bot is not connected and cannot resume:
        lost, as on Discord)."""
        async with self._send_lock:
            session = self.session
            if session is None:
                return None
            return session.id, await self._send(session, event, data)

    async def drop(self, code: int = 4000) -> None:
        """Close the gateway socket as Discord does when it restarts a node: the client
        reconnects and resumes."""
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.close(code=code)

    async def reconnect(self) -> None:
        """Ask the client to reconnect (op 7 RECONNECT): it resumes."""
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.send_json({"op": RECONNECT, "d": None})

    async def forget(self) -> None:
        """The session is gone (events sent to it are lost) and its socket closed: the client's
        RESUME gets INVALID_SESSION and it identifies again."""
        session, self.session = self.session, None
        if session is not None and session.ws is not None:
            await session.ws.close(code=4000)

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 10.0, what: str | None = None) -> T:
        """Until ``predicate()`` is truthy, re-checked after every request and gateway change
        (and every 0.1 s, for what no request announces: the bot's store); its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"the fake Discord timed out after {timeout} s waiting for "
                                     f"{what or predicate}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.1))
            except asyncio.TimeoutError:
                pass
