"""The Bot API client over aiohttp (``bot/telegram/request.py``, issue 16): PTB's request
contract as :class:`telegram.request.HTTPXRequest` keeps it — timeouts map to ``TimedOut``, a
transport failure to ``NetworkError``, the Bot API's error answers to PTB's usual exceptions, a
multipart upload arrives intact, ``shutdown`` closes the session — and the setting that chooses
it (``MAFIA_REFEREE_TELEGRAM_HTTP``).

Servers here are tiny asyncio ones on 127.0.0.1 (one that never answers, one that answers a
fixed status and body) or the tests' fake Bot API. No test depends on speed: a timeout is
provoked by a server that never answers, and the bounds are generous.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import socket
import warnings
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable

import pytest
from telegram import Bot
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.request import HTTPXRequest, RequestData
from telegram.request._requestparameter import RequestParameter

from bot.settings import Settings
from bot.telegram.app import build_application
from bot.telegram.request import POOL_TIMEOUT_MESSAGE, AiohttpRequest
from fakebot import FakeBotAPI

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _serve(handler: Handler) -> tuple[asyncio.Server, str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/botTOKEN/"


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    return await reader.readexactly(length)


@pytest.fixture
async def silent() -> AsyncIterator[tuple[str, list[bytes]]]:
    """A server that reads each request and never answers: (its base URL, the bodies read)."""
    bodies: list[bytes] = []
    hold = asyncio.Event()

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        bodies.append(await _read_request(reader))
        await hold.wait()
        writer.close()

    server, url = await _serve(handler)
    yield url, bodies
    hold.set()
    server.close()
    await server.wait_closed()


def _answering(status: int, answer: dict) -> Handler:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while not reader.at_eof():
            try:
                await _read_request(reader)
            except asyncio.IncompleteReadError:
                break
            body = json.dumps(answer).encode()
            writer.write(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (status, len(body), body))
            await writer.drain()
        writer.close()
    return handler


def _data(**params: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in params.items()])


async def test_a_server_that_does_not_answer_is_a_timed_out(silent: tuple[str, list[bytes]]) -> None:
    url, bodies = silent
    async with AiohttpRequest(read_timeout=0.2) as request:
        with pytest.raises(TimedOut):
            await request.post(url + "sendMessage", _data(chat_id=1, text="hi"))
        with pytest.raises(TimedOut):  # the call's own read timeout wins over the default
            await request.post(url + "sendMessage", _data(chat_id=1, text="hi"),
                               read_timeout=0.1)
    assert [json.loads(b) for b in bodies] == [{"chat_id": "1", "text": "hi"}] * 2


async def test_a_full_pool_is_a_timed_out_with_ptbs_message(silent: tuple[str, list[bytes]]) -> None:
    url, _ = silent
    async with AiohttpRequest(connection_pool_size=1, read_timeout=None) as request:
        first = asyncio.ensure_future(request.post(url + "getMe"))
        await asyncio.sleep(0)  # the first takes the only connection
        with pytest.raises(TimedOut, match="Pool timeout"):
            await request.post(url + "getMe", pool_timeout=0.1)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
    assert "Pool timeout: All connections in the connection pool are occupied" in POOL_TIMEOUT_MESSAGE


async def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with AiohttpRequest() as request:
        with pytest.raises(NetworkError, match=r"^aiohttp\.ClientConnectorError") as caught:
            await request.post(f"http://127.0.0.1:{port}/botTOKEN/getMe")
    assert not isinstance(caught.value, TimedOut)


@pytest.mark.parametrize("status, answer, error", [
    (400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
     BadRequest),
    (403, {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"},
     Forbidden),
    (429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 7",
           "parameters": {"retry_after": 7}}, RetryAfter),
])
async def test_the_bot_apis_error_answers_give_ptbs_exceptions(status: int, answer: dict,
                                                               error: type) -> None:
    server, url = await _serve(_answering(status, answer))
    try:
        async with AiohttpRequest() as request:
            with pytest.raises(error) as caught:
                await request.post(url + "sendMessage", _data(chat_id=1, text="hi"))
    finally:
        server.close()
        await server.wait_closed()
    if error is RetryAfter:
        assert caught.value.retry_after.total_seconds() == 7
    else:
        assert answer["description"].split(": ", 1)[1].lower() in str(caught.value).lower()


async def test_a_multipart_upload_arrives_intact() -> None:
    png = bytes(range(256)) * 40 + b"\r\n--not-a-boundary\r\n"  # every byte value, CRLFs
    async with FakeBotAPI() as fake:
        judge = fake.add_user("Судья", "judge", id=100, started=True)
        request = AiohttpRequest()
        async with Bot(fake.token, base_url=fake.base_url, request=request) as bot:
            sent = await bot.send_document(judge.id, io.BytesIO(png), filename="протокол.png",
                                           caption="Протокол №1")
            text = await bot.send_message(judge.id, "без файла")
        [call] = fake.calls_to("sendDocument")
    stored = fake.files[sent.document.file_id]
    assert stored.data == png and stored.file_name == "протокол.png"
    assert sent.caption == "Протокол №1" and sent.chat.id == judge.id
    assert call.params["caption"] == "Протокол №1" and str(call.params["chat_id"]) == "100"
    assert call.files["document"].data == png
    assert text.text == "без файла"


async def test_shutdown_closes_the_session_and_initialize_opens_it_again() -> None:
    server, url = await _serve(_answering(200, {"ok": True, "result": True}))
    request = AiohttpRequest()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(NetworkError, match="not initialized"):  # PTB wraps it
                await request.post(url + "close")
            await request.initialize()
            session = request._session
            assert await request.post(url + "close") is True
            await request.shutdown()
            assert session is not None and session.closed
            with pytest.raises(NetworkError, match="not initialized"):  # PTB wraps it
                await request.post(url + "close")
            await request.shutdown()  # twice is harmless
            await request.initialize()
            assert await request.post(url + "close") is True
            await request.shutdown()
            del session
            gc.collect()
        assert not [w for w in caught if "Unclosed" in str(w.message)]
    finally:
        server.close()
        await server.wait_closed()


def _settings(tmp_path: Path, **more: object) -> Settings:
    return Settings(telegram_token="1:x", db=tmp_path / "db.sqlite", telegram_connections=5,
                    **more)


def test_the_application_uses_aiohttp_for_calls_and_the_long_poll(tmp_path: Path) -> None:
    app = build_application(_settings(tmp_path))
    calls, updates = app.bot._request[1], app.bot._request[0]
    assert isinstance(calls, AiohttpRequest) and calls.connection_pool_size == 5
    assert isinstance(updates, AiohttpRequest) and updates.connection_pool_size == 1
    assert updates.read_timeout == 5.0  # PTB adds the poll's timeout to it at each getUpdates


def test_the_escape_hatch_is_ptbs_httpx_client(tmp_path: Path) -> None:
    app = build_application(_settings(tmp_path, telegram_http="httpx"))
    assert isinstance(app.bot._request[1], HTTPXRequest)
    assert isinstance(app.bot._request[0], HTTPXRequest)


async def test_the_long_poll_gets_its_read_timeout_stretched() -> None:
    """PTB's ``getUpdates(timeout=T)`` reads for T + the request's read timeout: a server that
    answers the poll after 0.5 s, with a read timeout of 0.2 s, is still heard."""
    me = {"id": 1, "is_bot": True, "first_name": "Bot", "username": "bot"}

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while not reader.at_eof():
            try:
                line = await reader.readuntil(b"\r\n")
                await _read_request(reader)
            except asyncio.IncompleteReadError:
                break
            polled = b"getUpdates" in line
            if polled:
                await asyncio.sleep(0.5)
            body = json.dumps({"ok": True, "result": [] if polled else me}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
        writer.close()

    server, url = await _serve(handler)
    try:
        async with Bot("1:x", base_url=url.rsplit("TOKEN/", 1)[0],
                       request=AiohttpRequest(read_timeout=0.2),
                       get_updates_request=AiohttpRequest(read_timeout=0.2)) as bot:
            assert await bot.get_updates(timeout=10) == ()
            with pytest.raises(TimedOut):  # without the poll's timeout, 0.2 s is too short
                await bot.get_updates(timeout=0)
    finally:
        server.close()
        await server.wait_closed()
