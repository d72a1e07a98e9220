"""``/mcp/<conversation_id>/``: Agent authentication, conversation binding and the SDK's HTTP transport.

Every request is checked here before the SDK sees it: the Host against ``ALLOWED_HOSTS`` (this path
bypasses Django), ``Authorization: Bearer <Agent token>`` (401 when missing, unknown or revoked — the
same tokens as ``/ws/agent/``, checked on every request), and the conversation in the path (404 when
it does not exist, 403 when it is not the token's user's). There is no default conversation.

The transport is the SDK's streamable HTTP in **stateless, JSON-response** mode: no MCP session lives
in a process, so any Daphne behind a load balancer answers any request (decision 0008). Daphne runs no
ASGI lifespan, so the session manager's task group is started by the first request, in a task of the
serving event loop that lives as long as the process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import uuid
from typing import Any

import structlog
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from channels.db import database_sync_to_async
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from lineup.gateways.mcp import bridge
from lineup.gateways.mcp.server import BINDING_SCOPE_KEY, LineUpServer, build_server
from runtime.errors import Rejection, RejectionCode
from runtime.wire import MAX_FRAME_BYTES

logger = structlog.get_logger("lineup.mcp")
# In stateless mode the SDK's transport logs "Terminating session: None" at INFO for every request.
logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)

_CONVERSATION_PATH = re.compile(r"^/mcp/(?P<conversation_id>[^/]+)/?$")
_BEARER = re.compile(r"^Bearer +(?P<token>\S+)$", re.IGNORECASE)
# JSON-RPC error code for refusals made before the MCP server runs (implementation-defined band).
NOT_ADMITTED = -32040


class McpEndpoint:
    """The ASGI app behind ``/mcp/``: admit the request, then hand it to the SDK's session manager."""

    def __init__(self, server: LineUpServer | None = None) -> None:
        self.server = server or build_server()
        self._manager: StreamableHTTPSessionManager | None = None
        self._running: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        host, _ = split_domain_port(headers.get("host", ""))
        if not host or not validate_host(host, settings.ALLOWED_HOSTS):
            await _refuse(send, 400, "this host is not in LINEUP_ALLOWED_HOSTS")
            return
        match = _CONVERSATION_PATH.match(scope["path"])
        conversation_id = _uuid_text(match.group("conversation_id")) if match else None
        if conversation_id is None:
            await _refuse(send, 404, "name the conversation in the URL: /mcp/<conversation_id>/")
            return
        bearer = _BEARER.match(headers.get("authorization", ""))
        try:
            binding = await database_sync_to_async(bridge.bind)(
                token=bearer.group("token") if bearer else None, conversation_id=conversation_id, now=timezone.now()
            )
        except bridge.Unauthenticated:
            logger.info("mcp.unauthorized", conversation_id=conversation_id, had_token=bearer is not None)
            await _refuse(
                send, 401, "send Authorization: Bearer <Agent token>; this one is missing, unknown or revoked"
            )
            return
        except Rejection as rejection:
            status = 404 if rejection.code == RejectionCode.UNKNOWN_CONVERSATION else 403
            logger.info("mcp.refused", conversation_id=conversation_id, code=str(rejection.code))
            await _refuse(send, status, rejection.detail, code=str(rejection.code))
            return
        manager = await self._session_manager()
        await manager.handle_request({**scope, BINDING_SCOPE_KEY: binding}, receive, send)

    async def _session_manager(self) -> StreamableHTTPSessionManager:
        """The running session manager; started on first use (and again if its task ever ended)."""
        if self._manager is not None and self._running is not None and not self._running.done():
            return self._manager
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._running is None or self._running.done():
                manager = StreamableHTTPSessionManager(
                    app=self.server,
                    stateless=True,
                    json_response=True,
                    # Checked above (Host) or not applicable: a bearer token is no ambient credential
                    # a rebinding page could ride on, so the SDK's Origin/Host guard adds nothing.
                    security_settings=None,
                    max_request_body_size=MAX_FRAME_BYTES,
                )
                started = asyncio.Event()
                running = asyncio.ensure_future(_run(manager, started))
                waiter = asyncio.ensure_future(started.wait())
                await asyncio.wait({running, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if not started.is_set():
                    waiter.cancel()
                    running.result()  # raises why it could not start
                self._manager, self._running = manager, running
        assert self._manager is not None
        return self._manager


async def _run(manager: StreamableHTTPSessionManager, started: asyncio.Event) -> None:
    async with manager.run():
        started.set()
        await asyncio.Event().wait()  # as long as the event loop (the process) runs


def _uuid_text(value: str) -> str | None:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


async def _refuse(send: ASGISendCallable, status: int, message: str, *, code: str | None = None) -> None:
    """A JSON-RPC error body (no request id: the body was not read) with an HTTP status."""
    error: dict[str, Any] = {"code": NOT_ADMITTED, "message": message}
    if code is not None:
        error["data"] = {"code": code}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="lineup"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
