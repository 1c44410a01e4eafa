"""The web layer's server: one ``aiohttp.web`` application in the bot's process (issue 30).

Off unless ``MAFIA_REFEREE_WEB_URL`` is set (:class:`bot.settings.Settings`); it listens on
``…_WEB_LISTEN:…_WEB_PORT`` behind the operator's TLS proxy and serves

* ``/live``, ``/overlay`` — a table's live page and its stream overlay (OBS's browser source:
  1920×1080, transparent); ``/tournament`` — a club's tournament page; ``/app`` — the judge's
  panel on a screen (Telegram's Mini App, a Discord judge's one-time link). Each is a static
  page of the package (:mod:`bot.web` ``static/``: plain ES modules and CSS, nothing loaded
  from elsewhere); what it shows comes over the API below. A page's secret rides in the
  address's *fragment* (``/live#<id>.<secret>``), which a browser never sends: it reaches the
  server only in a request header, never in a request line a proxy would log;
* ``/api/stream`` — a table's Server-Sent Events (:mod:`.hub`), ``/api/tournament`` — a
  tournament's tables and standings, ``/api/app/…`` — the judge's session, state, stream,
  presses and typed commands (:mod:`.judge`);
* ``/healthz`` — the process is up (open streams counted).

Every answer has a Content-Security-Policy (no inline script or style, nothing from another
origin; only the Mini App may be framed, by Telegram's web client), ``nosniff``, no referrer.
Requests are not logged (aiohttp's access log is off: a page's address is nobody's business);
secrets are compared in constant time (:mod:`.auth`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from importlib import resources
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import web

from ..i18n import DEFAULT_LANG, Catalog, catalog
from ..service import Service
from ..settings import Settings, WebUnavailable
from . import view as vw
from .auth import AuthError, Signer, same_secret
from .hub import KEEPALIVE, Follower, Hub, Refused, frame
from .pages import TOURNAMENT, Pages

log = logging.getLogger(__name__)

STATIC = resources.files("bot.web") / "static"
#: the static files a page may load, by name, and their content types
FILES = {"live.js": "text/javascript", "app.js": "text/javascript", "common.js": "text/javascript",
         "tournament.js": "text/javascript", "overlay.js": "text/javascript",
         "live.css": "text/css", "overlay.css": "text/css", "app.css": "text/css",
         "common.css": "text/css"}
PAGES = {"/live": "live.html", "/overlay": "overlay.html", "/app": "app.html",
         "/tournament": "tournament.html"}
LOGOS = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
#: the Mini App runs framed in Telegram's web client
TELEGRAM_FRAMES = "https://web.telegram.org https://*.telegram.org"
KEY_HEADER = "X-Page-Key"
MAX_BODY = 16 * 1024  # bytes of a request's body at most


def csp(frame: str = "'none'") -> str:
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors {frame}")


@web.middleware
async def _headers(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                   ) -> web.StreamResponse:
    """The security headers of every answer (a refusal's too)."""
    try:
        response = await handler(request)
    except web.HTTPException as refusal:
        response = refusal
    framed = request.path == "/app"
    response.headers.setdefault("Content-Security-Policy", csp(TELEGRAM_FRAMES if framed else "'none'"))
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    if not framed:
        response.headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    if isinstance(response, web.HTTPException):
        raise response
    return response


def _read(name: str) -> bytes:
    return (STATIC / name).read_bytes()


class WebLayer:
    """The process's web layer: its server, its :class:`.hub.Hub` and the platforms whose
    front doors its judge's pages knock on (``attach``: the Telegram and the Discord referee;
    ``mafia-referee both`` attaches both to one layer). ``clock``: unix seconds (the tests'
    Telegram signs ``initData`` by it)."""

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.time) -> None:
        assert settings.web_url, "the web layer is off without MAFIA_REFEREE_WEB_URL"
        self.settings = settings
        self.base = settings.web_url.rstrip("/")
        self.clock = clock
        self.signer = Signer(clock=clock)
        self.doors: dict[str, Any] = {}  # "tg" | "dc" -> the platform's referee
        self._service: Service | None = None
        self.pages: Pages | None = None
        self.hub: Hub | None = None
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # the port it listens on (0 in the settings: any free one)
        self._users = 0
        self._streams: set[asyncio.Task[Any]] = set()

    # --- the platforms --------------------------------------------------------------------------
    def attach(self, platform: str, referee: Any) -> None:
        """A platform's referee (its ``front``, ``judge``, ``cat``, ``service``) joins."""
        self.doors[platform] = referee

    def door(self, chat: str) -> Any:
        """The referee of the platform a chat key (``tg:…``, ``dc:…``) belongs to."""
        platform = chat.removeprefix(TOURNAMENT).split(":", 1)[0]
        door = self.doors.get(platform) or next(iter(self.doors.values()), None)
        if door is None:
            raise LookupError(chat)
        return door

    @property
    def service(self) -> Service:
        assert self._service is not None, "the web layer has not started"
        return self._service

    async def cat(self, chat: str) -> Catalog:
        """A chat's catalog, as its platform keeps its language."""
        try:
            return await self.door(chat).cat(chat.removeprefix(TOURNAMENT))
        except LookupError:
            return catalog(self.settings.lang or DEFAULT_LANG)

    # --- addresses --------------------------------------------------------------------------------
    def live_url(self, key: str) -> str:
        return f"{self.base}/live#{key}"

    def overlay_url(self, key: str) -> str:
        return f"{self.base}/overlay#{key}"

    def tournament_url(self, key: str) -> str:
        return f"{self.base}/tournament#{key}"

    def app_url(self) -> str:
        """The Mini App's address (Telegram adds ``initData`` to it in the fragment)."""
        return f"{self.base}/app"

    def link(self, judge: str, home: str, game_id: int) -> str:
        """A Discord judge's one-time link to his panel on a screen (expires in
        ``…_WEB_LINK_TTL`` seconds; bound to him, the channel and the game)."""
        ticket = self.signer.ticket(judge, home, game_id, self.settings.web_link_ttl)
        return f"{self.base}/app#dc={ticket}"

    # --- life cycle -------------------------------------------------------------------------------
    async def start(self, service: Service) -> None:
        """Listen (once: a second platform's start only counts); the hub watches ``service``.
        Raises :class:`WebUnavailable` when the address cannot be listened on."""
        self._users += 1
        if self._runner is not None:
            return
        self._service = service
        self.pages = Pages(lambda: self.service, self.cat, clock=self.clock,
                           scale=self.settings.telegram_timer_scale)
        self.hub = Hub(self.pages, clock=self.clock, per_ip=self.settings.web_max_per_ip,
                       per_table=self.settings.web_max_per_table)
        service.watch(self.hub.watch)
        app = self.application()
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_listen, self.settings.web_port)
        try:
            await site.start()
        except OSError as error:  # the port taken, an address not this machine's or no address
            await self._runner.cleanup()
            self._runner = None
            raise WebUnavailable(self.settings.web_listen, self.settings.web_port, error) from None
        sockets = getattr(site, "_server").sockets if getattr(site, "_server", None) else []
        self.port = sockets[0].getsockname()[1] if sockets else self.settings.web_port
        log.info("the web pages listen on %s:%s", self.settings.web_listen, self.port)
        logo = self.settings.web_logo
        if logo is not None and not logo.is_file():
            log.warning("the club's logo %s is not there (MAFIA_REFEREE_WEB_LOGO): the overlay "
                        "goes without it until it is", logo)

    async def stop(self) -> None:
        """Stop listening once the last platform stops; every stream is closed first."""
        self._users -= 1
        if self._users > 0 or self._runner is None:
            return
        if self.hub is not None:
            await self.hub.shutdown()
            self.service.unwatch(self.hub.watch)
        for task in list(self._streams):
            task.cancel()
        await self._runner.cleanup()
        self._runner = None

    def application(self) -> web.Application:
        from .judge import JudgeApi

        app = web.Application(middlewares=[_headers], client_max_size=MAX_BODY)
        for path, name in PAGES.items():
            app.router.add_get(path, self._page(name))
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/logo", self._logo)
        app.router.add_get("/healthz", self._health)
        app.router.add_get("/api/stream", self._stream)
        app.router.add_get("/api/tournament", self._tournament)
        JudgeApi(self).routes(app)
        return app

    # --- handlers ---------------------------------------------------------------------------------
    def _page(self, name: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        body = _read(name)

        async def page(request: web.Request) -> web.Response:
            return web.Response(body=body, content_type="text/html", charset="utf-8",
                                headers={"Cache-Control": "no-cache"})
        return page

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        return web.Response(body=_read(name), content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "public, max-age=300"})

    async def _logo(self, request: web.Request) -> web.Response:
        path: Path | None = self.settings.web_logo
        kind = LOGOS.get(path.suffix.lower()) if path is not None else None
        if path is None or kind is None or not path.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), content_type=kind)

    async def _health(self, request: web.Request) -> web.Response:
        streams = self.hub.streams() if self.hub is not None else 0
        return web.json_response({"ok": True, "streams": streams})

    def address(self, request: web.Request) -> str:
        """The client's address (behind a proxy, its ``X-Forwarded-For``'s first, when the
        settings trust it)."""
        if self.settings.web_forwarded:
            forwarded = request.headers.get("X-Forwarded-For", "")
            first = forwarded.split(",", 1)[0].strip()
            if first:
                return first
        return request.remote or "?"

    async def table_of(self, key: str, *, tournament: bool = False) -> tuple[Any, str]:
        """The stored pages and the kind (``"public"``, ``"broadcast"``) a page's key
        (``<id>.<secret>``) opens; ``HTTPNotFound`` for any other (the same answer whatever
        was wrong: an unknown id and a wrong secret look alike)."""
        number, _, secret = key.partition(".")
        row = await self.service.web_table_by_id(int(number)) if number.isdigit() \
            and len(number) <= 12 and secret else None
        if row is None:
            same_secret(secret, "x" * 22)  # the same work as a comparison
            raise web.HTTPNotFound()
        if row.chat.startswith(TOURNAMENT) != tournament:
            raise web.HTTPNotFound()
        if same_secret(secret, row.secret):
            return row, "public"
        if not tournament and same_secret(secret, row.broadcast):
            return row, "broadcast"
        raise web.HTTPNotFound()

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        """A table's live stream (the page's key in :data:`KEY_HEADER`)."""
        row, kind = await self.table_of(request.headers.get(KEY_HEADER, ""))
        assert self.hub is not None
        try:
            follower = await self.hub.follow(row.chat, kind, self.address(request),
                                             delay=row.delay if kind == "broadcast" else 0)
        except Refused as refusal:
            raise web.HTTPTooManyRequests(text=refusal.why) from None
        return await self.serve(request, follower)

    async def serve(self, request: web.Request, follower: Follower) -> web.StreamResponse:
        """Write ``follower``'s frames as Server-Sent Events until it closes or the client goes."""
        assert self.hub is not None
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        task = asyncio.current_task()
        if task is not None:
            self._streams.add(task)
        try:
            await response.prepare(request)
            await response.write(b"retry: 3000\n\n")
            while not follower.closed:
                payload = await follower.next(KEEPALIVE)
                await response.write(payload if payload is not None else b": keep-alive\n\n")
            payload = await follower.next(0)  # the last frame before the close
            if payload is not None:
                await response.write(payload)
            await response.write(b"event: closed\ndata: {}\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.unfollow(follower)
            if task is not None:
                self._streams.discard(task)
        return response

    async def _tournament(self, request: web.Request) -> web.Response:
        """A tournament page's data: every table's game now and the standings."""
        row, _ = await self.table_of(request.headers.get(KEY_HEADER, ""), tournament=True)
        from .tournament import tournament_view

        return web.json_response(await tournament_view(self, row.chat.removeprefix(TOURNAMENT)),
                                 dumps=_dumps)


def _dumps(data: Any) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


__all__ = ["WebLayer", "AuthError", "vw", "frame"]
