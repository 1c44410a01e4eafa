"""A minimal HTTP/1.1 server on asyncio streams, enough for a Bot API client.

Why not aiohttp: the fake needs four things, keep-alive, ``Content-Length`` or chunked bodies,
``application/x-www-form-urlencoded`` / JSON / ``multipart/form-data`` bodies and JSON answers,
and the standard library covers them without a new test dependency.

python-telegram-bot (httpx) sends every call as ``POST {base_url}{token}/{method}``: parameters as
form fields where strings go as they are and every other value is JSON-encoded
(``telegram.request.RequestParameter.json_value``), and as ``multipart/form-data`` when a file is
uploaded. Other clients send JSON bodies or query strings; all three are decoded here.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qsl, unquote, urlsplit

MAX_BODY = 64 * 1024 * 1024
"""Bot API uploads are capped at 50 MB; anything larger is refused outright."""


class BadHttpRequest(Exception):
    """The bytes on the wire are not an HTTP request this server understands."""


@dataclass(frozen=True)
class UploadedFile:
    """One file part of a multipart request, bytes kept as received."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class HttpRequest:
    """A parsed request: method, path, query and body fields (strings or JSON values)."""

    method: str
    path: str
    headers: dict[str, str]
    fields: dict[str, Any] = field(default_factory=dict)
    files: dict[str, UploadedFile] = field(default_factory=dict)
    body_kind: str = "empty"  # "empty" | "form" | "json" | "multipart" | "query"

    @property
    def keep_alive(self) -> bool:
        return self.headers.get("connection", "").lower() != "close"


@dataclass(frozen=True)
class HttpResponse:
    status: int
    body: bytes
    content_type: str = "application/json"


Handler = Callable[[HttpRequest], Awaitable[HttpResponse | None]]
"""Returns the response, or None to drop the connection without answering (fault injection)."""


def json_response(status: int, payload: Any) -> HttpResponse:
    return HttpResponse(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"))


async def read_request(reader: asyncio.StreamReader) -> HttpRequest | None:
    """Read one request from a keep-alive connection; None at a clean end of stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if exc.partial.strip():
            raise BadHttpRequest("truncated request head") from exc
        return None
    except asyncio.LimitOverrunError as exc:
        raise BadHttpRequest("request head too long") from exc
    lines = head.decode("latin-1").split("\r\n")
    try:
        method, target, _version = lines[0].split(" ", 2)
    except ValueError as exc:
        raise BadHttpRequest(f"bad request line {lines[0]!r}") from exc
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await _read_body(reader, headers)
    url = urlsplit(target)
    request = HttpRequest(method=method.upper(), path=unquote(url.path), headers=headers)
    if url.query:
        request.fields.update(parse_qsl(url.query, keep_blank_values=True))
        request.body_kind = "query"
    _decode_body(request, body)
    return request


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return await _read_chunked(reader)
    length = int(headers.get("content-length", "0") or 0)
    if length > MAX_BODY:
        raise BadHttpRequest("body too large")
    return await reader.readexactly(length) if length else b""


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                pass
            return b"".join(chunks)
        total += size
        if total > MAX_BODY:
            raise BadHttpRequest("body too large")
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)


def _decode_body(request: HttpRequest, body: bytes) -> None:
    if not body:
        return
    ctype = request.headers.get("content-type", "")
    main = ctype.split(";", 1)[0].strip().lower()
    if main == "application/json":
        try:
            decoded = json.loads(body.decode("utf-8"))
        except ValueError as exc:
            raise BadHttpRequest("body is not JSON") from exc
        if not isinstance(decoded, dict):
            raise BadHttpRequest("JSON body is not an object")
        request.fields.update(decoded)
        request.body_kind = "json"
    elif main == "multipart/form-data":
        match = re.search(r'boundary="?([^";]+)"?', ctype)
        if not match:
            raise BadHttpRequest("multipart body without boundary")
        _decode_multipart(request, body, match.group(1).encode("latin-1"))
        request.body_kind = "multipart"
    else:  # application/x-www-form-urlencoded, and what clients send without a type
        text = body.decode("utf-8", "replace")
        request.fields.update(parse_qsl(text, keep_blank_values=True))
        request.body_kind = "form"


_DISPOSITION_PARAM = re.compile(r'(\w+\*?)=(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))')


def _decode_multipart(request: HttpRequest, body: bytes, boundary: bytes) -> None:
    delimiter = b"--" + boundary
    for raw in body.split(delimiter)[1:]:
        if raw.startswith(b"--"):
            break
        part = raw[2:] if raw.startswith(b"\r\n") else raw
        head, sep, content = part.partition(b"\r\n\r\n")
        if not sep:
            raise BadHttpRequest("multipart part without headers")
        if content.endswith(b"\r\n"):
            content = content[:-2]
        part_headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            header, _, value = line.partition(":")
            part_headers[header.strip().lower()] = value.strip()
        params = _disposition_params(part_headers.get("content-disposition", ""))
        name = params.get("name")
        if name is None:
            raise BadHttpRequest("multipart part without a name")
        filename = params.get("filename")
        # a field is a part without a file name (RFC 7578 §4.2); aiohttp labels its text fields
        # text/plain, httpx leaves them unlabelled
        if filename is None and part_headers.get("content-type", "text/plain").startswith("text/plain"):
            request.fields[name] = content.decode("utf-8", "replace")
        else:
            request.files[name] = UploadedFile(
                field=name,
                filename=filename,
                content_type=part_headers.get("content-type"),
                data=content,
            )


def _disposition_params(value: str) -> dict[str, str]:
    params: dict[str, str] = {}
    for key, quoted, bare in _DISPOSITION_PARAM.findall(value):
        text = quoted.replace('\\"', '"') if quoted else bare
        if key.endswith("*"):  # RFC 5987: utf-8''percent-encoded
            key = key[:-1]
            text = unquote(text.split("''", 1)[-1])
        params[key.lower()] = unquote(text) if "%" in text and key == "filename" else text
    return params


async def write_response(writer: asyncio.StreamWriter, response: HttpResponse, keep_alive: bool) -> None:
    try:
        phrase = HTTPStatus(response.status).phrase
    except ValueError:
        phrase = "Unknown"
    head = (
        f"HTTP/1.1 {response.status} {phrase}\r\n"
        f"Content-Type: {response.content_type}\r\n"
        f"Content-Length: {len(response.body)}\r\n"
        f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
        "\r\n"
    )
    writer.write(head.encode("latin-1") + response.body)
    await writer.drain()


class HttpServer:
    """Serves ``handler`` on 127.0.0.1; every connection is a task that ``close()`` cancels."""

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self.port: int = 0

    async def start(self, port: int = 0) -> int:
        self._server = await asyncio.start_server(
            self._serve_connection, "127.0.0.1", port, limit=1024 * 1024
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while True:
                try:
                    request = await read_request(reader)
                except BadHttpRequest as exc:
                    payload = {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
                    await write_response(writer, json_response(400, payload), keep_alive=False)
                    break
                if request is None:
                    break
                response = await self._handler(request)
                if response is None:  # injected fault: drop the connection without an answer
                    break
                await write_response(writer, response, request.keep_alive)
                if not request.keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            # close() cancelled this connection; ending normally keeps asyncio's stream
            # callback from logging the cancelled task as an error.
            pass
        finally:
            self._connections.discard(task)
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                pass
