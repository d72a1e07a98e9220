"""Request bodies over ``LINEUP_HTTP_MAX_BODY_BYTES`` never reach Django or ``/mcp/`` (ASGI middleware).

Under Daphne the same limit is kept earlier, before the body is buffered (``lineup.internals.daphne``);
this check keeps it under any ASGI server: a declared ``Content-Length`` over the limit is answered
413 before a byte is read, and a body that streams past it is cut off there (the application is told
the client went away, and the client gets the 413).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from django.conf import settings

logger = structlog.get_logger("lineup.doors")


async def send_413(send: Callable[[dict[str, Any]], Awaitable[None]], limit: int) -> None:
    body = json.dumps({"error": "payload_too_large", "detail": f"a request body may be at most {limit} bytes"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": [*headers, (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def declared_length(scope: dict[str, Any]) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            return int(value) if value.isdigit() else None
    return None


def bounded_body(app: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """``app``, refusing HTTP request bodies over the limit (read per request, so tests can change it)."""

    async def bounded(scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        limit = settings.LINEUP_HTTP_MAX_BODY_BYTES
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            logger.info("door.body_refused", limit=limit, declared=declared, path=scope.get("path"))
            await send_413(send, limit)
            return
        received = 0
        cut = False
        started = False

        async def receive_bounded() -> dict[str, Any]:
            nonlocal received, cut
            if cut:
                return {"type": "http.disconnect"}
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                cut = True
                logger.info("door.body_cut", limit=limit, path=scope.get("path"))
                return {"type": "http.disconnect"}
            return message

        async def send_tracked(message: dict[str, Any]) -> None:
            nonlocal started
            if cut and not started:
                return  # the 413 below answers this request
            started = started or message["type"] == "http.response.start"
            await send(message)

        await app(scope, receive_bounded, send_tracked)
        if cut and not started:
            await send_413(send, limit)

    return bounded
