"""The judge's panel on a screen: the Mini App's API (``/api/app/…``).

The page signs in once — Telegram's ``initData`` (:func:`.auth.check_init_data`: the judge is the
Mini App's user, his game the one of his private chat with the bot) or a Discord judge's one-time
link (:meth:`.auth.Signer.use_ticket`: bound to him, the game's channel and the game) — and keeps
the session it gets in memory (``Authorization: Bearer``). Then:

* ``GET /api/app/state`` — :func:`.view.judge_view` of his game: the panel as his chat shows it,
  the seat grid, the countdown; only the game's judge reads it (anyone else gets no panel);
* ``GET /api/app/stream`` — an event after every commit of his game (then the page reads its
  state again);
* ``POST /api/app/press`` ``{"data": "game:revision:action"}`` — one tap: the panel's press data,
  handed to the platform's front door as the chat's button would be
  (:meth:`bot.front.Front.press`): the judge controller refuses anyone but the judge and an older
  revision ("outdated": the page is shown afresh), exactly as a stale button;
* ``POST /api/app/command`` ``{"line": "/fix 12 /foul 5 4.1.1"}`` — a typed command, entered at
  the judge's desk through the front door (:meth:`bot.front.Front.enter`) with his identity.

No rule and no routing live here: the router, the judge controller and the engine decide.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..commands import Place
from ..front import Entry
from . import view as vw
from .auth import AuthError, Session, check_init_data
from .hub import Refused

if TYPE_CHECKING:
    from .server import WebLayer

log = logging.getLogger(__name__)

#: the platform's desk where a judge types his commands
DESKS = {"tg": Place.DESK, "dc": Place.CHANNEL}


class WebPress:
    """A tap's handle, as a platform's press handle is answered (:meth:`answer`): what the
    judge controller said of it (a toast, or an alert for a refusal)."""

    def __init__(self) -> None:
        self.text: str | None = None
        self.alert = False
        self.answered = False

    async def answer(self, text: str | None = None, show_alert: bool = False, **_: Any) -> None:
        self.answered = True
        if text:
            self.text = text
            self.alert = self.alert or show_alert


class JudgeApi:
    """The ``/api/app/…`` handlers over a :class:`.server.WebLayer`."""

    def __init__(self, layer: "WebLayer") -> None:
        self.layer = layer

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/api/app/session", self.session)
        app.router.add_get("/api/app/state", self.state)
        app.router.add_get("/api/app/stream", self.stream)
        app.router.add_post("/api/app/press", self.press)
        app.router.add_post("/api/app/command", self.command)
        app.router.add_get("/api/app/words", self.words)

    # --- signing in -------------------------------------------------------------------------------
    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest(text="not JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="not an object")
        return body

    async def session(self, request: web.Request) -> web.Response:
        """Sign in: ``{"tg": initData}`` or ``{"dc": ticket}``; the session and the state."""
        body = await self._body(request)
        layer = self.layer
        hours = layer.settings.web_session_hours * 3600
        try:
            if "tg" in body and "tg" in layer.doors:
                token = layer.settings.telegram_token
                if token is None:
                    raise AuthError("missing")
                user = check_init_data(str(body["tg"]), token.get_secret_value(),
                                       max_age=layer.settings.web_auth_max_age, now=layer.clock())
                session = layer.signer.session("tg", user.user, user.user, hours)
            elif "dc" in body and "dc" in layer.doors:
                ticket = layer.signer.use_ticket(str(body["dc"]))
                current = await layer.service.current(ticket.home)
                if current is None or current.game_id != ticket.game_id or current.judge != ticket.judge:
                    raise AuthError("expired")  # another game now, or another judge
                session = layer.signer.session("dc", ticket.judge, ticket.home, hours)
            else:
                raise AuthError("missing")
        except AuthError as refusal:
            log.info("a judge's page was refused: %s", refusal.why)
            raise web.HTTPForbidden(text=refusal.why) from None
        signed = layer.signer.check_session(session)
        return self._json({"session": session, "state": await self._state(signed)})

    def _session(self, request: web.Request) -> Session:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        try:
            if scheme.lower() != "bearer":
                raise AuthError("missing")
            return self.layer.signer.check_session(token.strip())
        except (AuthError, ValueError) as refusal:
            raise web.HTTPUnauthorized(text=getattr(refusal, "why", "malformed")) from None

    async def words(self, request: web.Request) -> web.Response:
        """What a page not signed in says, in every language (it knows no table's yet)."""
        from ..i18n import LANGS, catalog

        return self._json({lang: catalog(lang).text("web-signed-out") for lang in LANGS})

    # --- reading ------------------------------------------------------------------------------------
    async def _state(self, session: Session) -> dict[str, Any]:
        """The judge's view of his game (no panel for a game he does not judge)."""
        layer = self.layer
        door = layer.doors[session.platform]
        service = layer.service
        home = await service.home(session.home)
        current = await service.current(home)
        cat = await door.cat(home)
        if current is None or current.judge != session.judge:
            return {**vw.empty_view(cat, "judge"), "mine": current is None}
        panel = await door.judge.panel_of(home, current)
        assert layer.pages is not None
        clock = await layer.pages.clock_of(home, current)
        return vw.judge_view(current.state, cat, game_id=current.game_id,
                             revision=current.revision, panel=panel, clock=clock)

    async def state(self, request: web.Request) -> web.Response:
        return self._json(await self._state(self._session(request)))

    async def stream(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        layer = self.layer
        assert layer.hub is not None
        home = await layer.service.home(session.home)
        try:
            follower = await layer.hub.follow(home, "judge", layer.address(request))
        except Refused as refusal:
            raise web.HTTPTooManyRequests(text=refusal.why) from None
        return await layer.serve(request, follower)

    # --- acting -------------------------------------------------------------------------------------
    async def press(self, request: web.Request) -> web.Response:
        """One tap: the panel's press data through the platform's front door."""
        session = self._session(request)
        data = str((await self._body(request)).get("data", ""))[:64]
        door = self.layer.doors[session.platform]
        home = await self.layer.service.home(session.home)
        handle = WebPress()
        entry = Entry(session.platform, DESKS[session.platform], home, session.judge, data,
                      handle=handle)
        await door.front.press(entry, home)
        return self._json({"answer": handle.text, "alert": handle.alert,
                           "state": await self._state(session)})

    async def command(self, request: web.Request) -> web.Response:
        """A typed command at the judge's desk, through the platform's front door."""
        session = self._session(request)
        line = str((await self._body(request)).get("line", "")).strip()
        door = self.layer.doors[session.platform]
        home = await self.layer.service.home(session.home)
        chat = session.judge if session.platform == "tg" else home  # Telegram: his private chat
        entry = Entry(session.platform, DESKS[session.platform], chat, session.judge, line)
        replies = await door.front.enter(entry) or []
        return self._json({"replies": [{"text": r.text, "refused": r.refused} for r in replies
                                       if r.text and r.chat is None],
                           "state": await self._state(session)})

    @staticmethod
    def _json(data: Any) -> web.Response:
        return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False,
                                                                  separators=(",", ":")))
