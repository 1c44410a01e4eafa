"""Where one Discord client connects: Discord itself, or another server that speaks its API
(``MAFIA_REFEREE_DISCORD_BASE_URL``, e.g. the tests' fake Discord on 127.0.0.1).

discord.py builds every REST URL from the class attribute ``discord.http.Route.BASE``
(``https://discord.com/api/v10``), sends interaction answers through the webhook adapter held in
the context variable ``discord.webhook.async_.async_context``, and opens the gateway at
``wss://gateway.discord.gg`` (later at the READY's ``resume_gateway_url``). Setting the class
attribute would move every client of the process; instead :func:`reroute` gives ONE client:

* an HTTP client (:class:`RoutedHTTPClient`) that rewrites its own requests' URLs from
  ``Route.BASE`` to the base URL, and opens the gateway the server names in ``GET /gateway/bot``
  (Discord's documented way to learn it) instead of discord.py's built-in one;
* a webhook adapter (:class:`RoutedWebhookAdapter`) doing the same for interaction callbacks
  and follow-ups, set by :func:`routed_context` in the client's own task context only (the tasks
  it spawns inherit it; another client in the same process is not affected).

The token travels in the ``Authorization`` header as it does to Discord; nothing here logs it.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import discord
import yarl
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

DISCORD_GATEWAY_HOST = "gateway.discord.gg"


def rebased(url: str, base: str) -> str:
    """``url`` with Discord's REST base (``Route.BASE``) replaced by ``base``; any other URL
    unchanged."""
    default = Route.BASE
    if url.startswith(default):
        return base + url[len(default):]
    return url


class RoutedHTTPClient(HTTPClient):
    """discord.py's HTTP client sending to ``base`` (the REST API's root, the counterpart of
    ``https://discord.com/api/v10``) instead of Discord."""

    def __init__(self, base: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.base = base.rstrip("/")

    async def request(self, route: Route, **kwargs: Any) -> Any:
        route.url = rebased(route.url, self.base)  # a Route is built for each request
        return await super().request(route, **kwargs)

    async def ws_connect(self, url: str, *, compress: int = 0) -> Any:
        """discord.py opens ``wss://gateway.discord.gg/?v=10&…`` for a new session: ask the
        server where its gateway is and keep discord.py's query (a resume URL the server gave
        in READY is used as it is)."""
        wanted = yarl.URL(url)
        if wanted.host == DISCORD_GATEWAY_HOST:
            data = await self.request(Route("GET", "/gateway/bot"))
            url = str(yarl.URL(str(data["url"])).with_query(wanted.query))
        return await super().ws_connect(url, compress=compress)


class RoutedWebhookAdapter(AsyncWebhookAdapter):
    """Interaction callbacks and follow-ups sent to ``base`` instead of Discord."""

    def __init__(self, base: str) -> None:
        super().__init__()
        self.base = base.rstrip("/")

    async def request(self, route: Route, session: Any, **kwargs: Any) -> Any:
        route.url = rebased(route.url, self.base)
        return await super().request(route, session, **kwargs)


def reroute(client: discord.Client, base: str) -> None:
    """Send ``client``'s REST calls and gateway connections to ``base``. Call it before the
    client starts (before its command tree is built, which keeps the HTTP client it finds)."""
    old = client.http
    http = RoutedHTTPClient(base, old.loop, old.connector, proxy=old.proxy, proxy_auth=old.proxy_auth,
                            unsync_clock=not old.use_clock, http_trace=old.http_trace,
                            max_ratelimit_timeout=old.max_ratelimit_timeout)
    client.http = http
    client._connection.http = http


@contextlib.contextmanager
def routed_context(base: str | None) -> Iterator[None]:
    """Inside: interaction answers go to ``base`` (nothing changes with ``None``). The
    context variable is set in the current task's context and restored on the way out."""
    if base is None:
        yield
        return
    token = async_context.set(RoutedWebhookAdapter(base))
    try:
        yield
    finally:
        async_context.reset(token)
