"""The Bot API client over aiohttp: a :class:`telegram.request.BaseRequest` for PTB 22.

Why: the client's CPU per call. PTB's default, :class:`telegram.request.HTTPXRequest` (httpx over
httpcore and h11, pure Python), spends most of a call's CPU building the request, walking
httpcore's pool and parsing the answer with h11; aiohttp parses HTTP in C and keeps a
keep-alive pool per host (bench/README.md, "Bot API client", for the figures). The setting
``MAFIA_REFEREE_TELEGRAM_HTTP=httpx`` goes back to PTB's own client.

The contract is HTTPXRequest's, call for call:

* **timeouts** (seconds, ``None``: no limit), each taken from the constructor unless the call
  passes its own (:attr:`BaseRequest.DEFAULT_NONE`: not passed): *pool* — the wait for a free
  connection when ``connection_pool_size`` requests are running (here a semaphore the size of
  the pool); *connect* — opening a new connection; *read* — the wait for each chunk of the
  answer; *write* — aiohttp has no write timeout of its own: an upload's write budget
  (``media_write_timeout`` unless the call passes one) is added to its read timeout, as its
  answer cannot start before the body is sent; a body without files is a few hundred bytes
  that the socket's buffer takes at once;
* **errors**: any timeout → :class:`telegram.error.TimedOut` (the pool's with PTB's message, the
  request not sent), any other transport failure (refused, reset, a broken answer) →
  :class:`telegram.error.NetworkError` ``"aiohttp.<Error>: …"``; the Bot API's own error
  answers (400, 403, 429 …) are returned as ``(status, body)`` and PTB raises its usual
  exceptions from them (:meth:`BaseRequest._request_wrapper`);
* **bodies**: parameters as one JSON object (``RequestData.json_payload``: strings as they
  are, every other value JSON-encoded, as in a form) when nothing is uploaded; with files,
  ``multipart/form-data``: the parameters as fields and each file as a part with its name and
  MIME type (``InputFile.field_tuple``);
* HTTP/1.1 with keep-alive, at most ``connection_pool_size`` connections; proxies from the
  environment (``HTTPS_PROXY`` …) as httpx reads them, read once at construction;
* :meth:`initialize` opens the session (again after a :meth:`shutdown`), :meth:`shutdown`
  closes it and its connections.
"""

from __future__ import annotations

import asyncio
import urllib.request
from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

POOL_TIMEOUT_MESSAGE = (
    "Pool timeout: All connections in the connection pool are occupied. Request was *not* sent "
    "to Telegram. Consider adjusting the connection pool size or the pool timeout.")
"""The message of HTTPXRequest's pool timeout, word for word."""

JSON = {"Content-Type": "application/json"}


class AiohttpRequest(BaseRequest):
    """PTB's request contract over one :class:`aiohttp.ClientSession`.

    Args (as :class:`telegram.request.HTTPXRequest`'s, same defaults except the pool):
        connection_pool_size: at most this many connections, and requests at once (≥ 1).
        read_timeout, write_timeout, connect_timeout, pool_timeout: seconds or ``None``.
        media_write_timeout: the write timeout of an upload (seconds or ``None``).

    Raises:
        ValueError: ``connection_pool_size`` below 1.
    """

    __slots__ = ("_connect", "_gate", "_media_write", "_pool", "_read", "_session", "_size",
                 "_trust_env", "_write")

    def __init__(self, connection_pool_size: int = 8, read_timeout: float | None = 5.0,
                 write_timeout: float | None = 5.0, connect_timeout: float | None = 5.0,
                 pool_timeout: float | None = 1.0, media_write_timeout: float | None = 20.0):
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._size = connection_pool_size
        self._read, self._write = read_timeout, write_timeout
        self._connect, self._pool = connect_timeout, pool_timeout
        self._media_write = media_write_timeout
        self._trust_env = bool(urllib.request.getproxies())  # as httpx: proxies from the environment
        self._session: aiohttp.ClientSession | None = None
        self._gate: asyncio.Semaphore | None = None

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (seconds; ``None``: none); ``getUpdates`` adds its poll's."""
        return self._read

    @property
    def connection_pool_size(self) -> int:
        return self._size

    async def initialize(self) -> None:
        """Open the session (a no-op while it is open)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._size, limit_per_host=self._size)
            self._session = aiohttp.ClientSession(
                connector=connector, trust_env=self._trust_env,
                headers={"User-Agent": self.USER_AGENT}, timeout=aiohttp.ClientTimeout())
            self._gate = asyncio.Semaphore(self._size)

    async def shutdown(self) -> None:
        """Close the session and its connections (a no-op when closed)."""
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """See :meth:`telegram.request.BaseRequest.do_request`: ``(status, body)``.

        Raises:
            RuntimeError: not initialised (or shut down).
            telegram.error.TimedOut: a timeout (pool, connect, read).
            telegram.error.NetworkError: any other transport failure.
        """
        session, gate = self._session, self._gate
        if session is None or gate is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        write = ((self._media_write if files else self._write)
                 if isinstance(write_timeout, DefaultValue) else write_timeout)
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        if files:  # an upload: its body may take a while to send before the answer can start
            read = None if read is None or write is None else read + write
        timeout = aiohttp.ClientTimeout(sock_connect=connect, sock_read=read)
        body: Any = None
        headers = None
        if request_data is not None:
            if files:
                body = aiohttp.FormData(request_data.json_parameters)
                for name, (filename, content, mime) in request_data.multipart_data.items():
                    body.add_field(name, content, filename=filename, content_type=mime)
            else:
                body, headers = request_data.json_payload, JSON
        if gate.locked():  # every connection busy: wait for one, at most the pool timeout
            try:
                async with asyncio.timeout(pool):
                    await gate.acquire()
            except TimeoutError as error:
                raise TimedOut(POOL_TIMEOUT_MESSAGE) from error
        else:
            await gate.acquire()
        try:
            async with session.request(method, url, data=body, headers=headers,
                                       timeout=timeout) as response:
                return response.status, await response.read()
        except (TimeoutError, aiohttp.ServerTimeoutError) as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error
        finally:
            gate.release()
