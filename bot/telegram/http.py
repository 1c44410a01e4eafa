"""The Bot API's HTTP requests (PTB's :class:`~telegram.request.HTTPXRequest`), leaving no
reference cycle behind (issue 16: no GC stalls).

httpx binds each response's body stream to the response (``Response.stream`` → a
``BoundAsyncStream`` → the response, to stamp ``Response.elapsed`` when the stream closes): a
reference cycle of about 35 objects per request (the response, its request, URL, headers and
httpcore's pool request and streams), which only the cyclic collector frees. A request in flight
when :mod:`bot.gcpolicy` freezes — the long poll of ``getUpdates`` always is — was frozen with
it and kept until the next full collection of everything. A response hook reads the body (as
``AsyncClient.send`` would right after the hooks; a failure is handled and raised the same way)
and puts it in a plain byte stream, so the bound stream is dropped and the whole response is
freed by reference counting when PTB lets go of it.
"""

from __future__ import annotations

from typing import Any

import httpx
from telegram.request import HTTPXRequest


async def _unbind(response: httpx.Response) -> None:
    """A response hook: the body read now, the stream that points back at the response dropped."""
    content = await response.aread()  # closes the bound stream (Response.elapsed stamped)
    response.stream = httpx.ByteStream(content)


def request(**options: Any) -> HTTPXRequest:
    """PTB's HTTPXRequest with ``options`` (its keyword arguments), whose responses are freed by
    reference counting."""
    return HTTPXRequest(httpx_kwargs={"event_hooks": {"response": [_unbind]}}, **options)
