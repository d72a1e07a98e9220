"""``/mcp/<conversation_id>/``: admission, Agent authentication, conversation binding and the SDK's transport.

Every request is checked here before the SDK sees it, in this order: the Host against ``ALLOWED_HOSTS``
(this path bypasses Django; 400), a present ``Origin`` against the request's own origin (a browser page
of another site; 403 — non-browser clients send none, and none is let through), the conversation in the
path (404), the method (``POST`` only; 405), ``Authorization: Bearer <Agent token>`` (401 when missing,
unknown or revoked — the same tokens as ``/ws/agent/``, checked on every request), the conversation's
owner (403; 404 when it does not exist), then the body (``admission``: 406, 415, 413, -32700, -32600).
Every refusal is a JSON-RPC error body. There is no default conversation.

The transport is the SDK's streamable HTTP in **stateless, JSON-response** mode: no MCP session lives
in a process, so any Daphne behind a load balancer answers any request (decision 0008), and no request
holds a connection open beyond its own answer (``GET`` streams are refused). Daphne runs no ASGI
lifespan, so the session manager's task group is started by the first request, in a task of the
serving event loop that lives as long as the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

import structlog
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from django.utils import timezone
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from lineup.client_address import scope_client_ip
from lineup.doors import strangers
from lineup.gateways.mcp import bridge, fairness
from lineup.gateways.mcp.admission import (
    NOT_ADMITTED,
    Refusal,
    check_content_headers,
    check_method,
    check_task_name_header,
    is_request_id,
    parse_message,
    read_body,
    replaying,
    send_refusal,
)
from lineup.gateways.mcp.server import BINDING_SCOPE_KEY, LineUpServer, build_server
from lineup.origins import allowed_host, header_map, is_same_origin
from runtime import metrics
from runtime.db_threads import run_db
from runtime.errors import Rejection, RejectionCode
from runtime.services.agents import token_digest
from runtime.wire import MAX_FRAME_BYTES

logger = structlog.get_logger("lineup.mcp")
# In stateless mode the SDK's transport logs "Terminating session: None" at INFO for every request.
logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)

_CONVERSATION_PATH = re.compile(r"^/mcp/(?P<conversation_id>[^/]+)/?$")
_BEARER = re.compile(r"^Bearer +(?P<token>\S+)$", re.IGNORECASE)


def readable_id(body: bytes) -> str | int | None:
    """The JSON-RPC id of a request body, when it is readable; None otherwise."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if is_request_id(request_id) else None


async def with_readable_id(refusal: Refusal, scope: Scope, receive: ASGIReceiveCallable) -> Refusal:
    """``refusal`` echoing the request's id: a refusal made before the body was read (401, 403,
    404, 429) reads it now, within the size limit, so a client with several requests out can tell which."""
    if refusal.request_id is not None or refusal.status not in (401, 403, 404, 429) or scope.get("method") != "POST":
        return refusal
    try:
        body = await read_body(receive, header_map(scope), limit=MAX_FRAME_BYTES)
    except Refusal:
        return refusal
    request_id = readable_id(body) if body else None
    return refusal if request_id is None else dataclasses.replace(refusal, request_id=request_id)


async def _refuse_busy(
    scope: Scope,
    receive: ASGIReceiveCallable,
    send: ASGISendCallable,
    message: str,
    key: str,
    request_id: str | int | None = None,
) -> None:
    """429 with the request's id and ``Retry-After``, answered after that wait (``fairness``) unless
    the client left meanwhile."""
    logger.info("mcp.too_many_in_flight", message=message)
    metrics.count_rate_limit_refusal("mcp")
    too_many = Refusal(
        429,
        message,
        code=NOT_ADMITTED,
        request_id=request_id,
        data={"code": "too_many_requests"},
        headers=((b"retry-after", str(fairness.RETRY_AFTER_SECONDS).encode()),),
    )
    refusal = await with_readable_id(too_many, scope, receive)
    if await fairness.answer_later(key, receive):
        return  # the client left while its refusal waited
    await send_refusal(send, refusal)


def _unauthorized() -> Refusal:
    return Refusal(
        401,
        "send Authorization: Bearer <Agent token>; this one is missing, unknown or revoked",
        code=NOT_ADMITTED,
        headers=((b"www-authenticate", b'Bearer realm="lineup"'),),
    )


async def _refuse_stranger(
    scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable, refusal: Refusal
) -> None:
    """A stranger's 401 or 429, answered late (``lineup.doors.strangers``) unless the client left meanwhile."""
    metrics.count_rate_limit_refusal("mcp_unauthenticated")
    refusal = await with_readable_id(refusal, scope, receive)
    with strangers.refusal_wait(scope_client_ip(scope)) as delay:
        try:
            async with asyncio.timeout(delay):
                while (await receive())["type"] != "http.disconnect":
                    pass  # the rest of a body nobody will read
            return  # the client left: nothing to answer
        except TimeoutError:
            pass
    await send_refusal(send, refusal)


def _check_request_line(scope: Scope) -> str:
    """The conversation the path names, once host, origin, path and method are acceptable (no database)."""
    headers = header_map(scope)
    if allowed_host(headers) is None:
        raise Refusal(400, "this host is not in LINEUP_ALLOWED_HOSTS", code=NOT_ADMITTED)
    if "origin" in headers and not is_same_origin(headers["origin"], scope, headers):
        # A browser page of another site (or a DNS-rebinding one): MCP's transport requires 403.
        logger.info("mcp.foreign_origin", origin=headers["origin"][:200])
        raise Refusal(403, "requests from another origin are refused", code=NOT_ADMITTED)
    match = _CONVERSATION_PATH.match(scope["path"])
    conversation_id = _uuid_text(match.group("conversation_id")) if match else None
    if conversation_id is None:
        raise Refusal(404, "name the conversation in the URL: /mcp/<conversation_id>/", code=NOT_ADMITTED)
    check_method(scope["method"])
    return conversation_id


class McpEndpoint:
    """The ASGI app behind ``/mcp/``: admit the request, then hand it to the SDK's session manager."""

    def __init__(self, server: LineUpServer | None = None) -> None:
        self.server = server or build_server()
        self._manager: StreamableHTTPSessionManager | None = None
        self._running: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        # Fair share (lineup.gateways.mcp.fairness): a token's requests at once, in this process,
        # counted from before their admission (its database read is itself a cost). The digest
        # needs no database.
        try:
            _check_request_line(scope)  # what costs nothing to refuse is refused before any count
        except Refusal as refusal:
            await send_refusal(send, await with_readable_id(refusal, scope, receive))
            return
        bearer = _BEARER.match(header_map(scope).get("authorization", ""))
        token = bearer.group("token") if bearer else None
        # Strangers (lineup.doors.strangers): a credential known to be no Agent's, or one more
        # look-up than the budgets allow, is refused here, before any database work or count.
        stranger = strangers.check(token, scope_client_ip(scope))
        if stranger is not None:
            busy = Refusal(
                429,
                "too many attempts with tokens this server does not know; try again later",
                code=NOT_ADMITTED,
                data={"code": "too_many_requests"},
                headers=((b"retry-after", str(strangers.RETRY_AFTER_SECONDS).encode()),),
            )
            await _refuse_stranger(
                scope, receive, send, _unauthorized() if stranger == strangers.UNAUTHORIZED else busy
            )
            return
        assert token is not None  # strangers.check refuses a missing one
        key = token_digest(token)
        cap = fairness.token_busy(key)
        if cap is not None:
            await _refuse_busy(
                scope,
                receive,
                send,
                f"too many requests in flight for this token (at most {cap}); wait for an answer first",
                key,
            )
            return
        with fairness.counted(fairness.in_flight, key):
            await fairness.take_turn(key)
            await self._handle(scope, receive, send)

    async def _handle(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        try:
            admitted = await self._admit(scope, receive)
        except Refusal as refusal:
            if refusal.status == 401:
                await _refuse_stranger(scope, receive, send, refusal)
                return
            await send_refusal(send, await with_readable_id(refusal, scope, receive))
            return
        if admitted is None:
            return  # the client went away while sending its request
        binding, body, method = admitted
        user_id = binding.caller.user_id
        cap = fairness.user_busy(user_id)
        may_hold = method in fairness.HELD_METHODS
        if cap is None and may_hold and (cap := fairness.process_holding_full()) is not None:
            # Many people's held requests together: the process's connections are the limit.
            await _refuse_busy(
                scope,
                receive,
                send,
                f"too many requests held open in this server process (at most {cap}); try again later",
                f"user:{user_id}",
                readable_id(body),
            )
            return
        if cap is not None:
            await _refuse_busy(
                scope,
                receive,
                send,
                f"too many requests in flight for this person (at most {cap}); wait for an answer first",
                f"user:{user_id}",
                readable_id(body),
            )
            return
        held = fairness.counted(fairness.held, fairness.PROCESS) if may_hold else contextlib.nullcontext()
        # Counted before the next await, so that requests arriving together can not all pass the checks.
        with fairness.counted(fairness.in_flight_by_user, user_id), held:
            manager = await self._session_manager()
            scope = {**scope, BINDING_SCOPE_KEY: binding}  # type: ignore[assignment]
            await _until_client_leaves(lambda rest: manager.handle_request(scope, replaying(body, rest), send), receive)

    async def _admit(self, scope: Scope, receive: ASGIReceiveCallable) -> tuple[bridge.Binding, bytes, str] | None:
        """The request's binding, its checked body and its method (None if the client left), or the
        ``Refusal`` to answer."""
        headers = header_map(scope)
        conversation_id = _check_request_line(scope)
        bearer = _BEARER.match(headers.get("authorization", ""))
        try:
            binding = await run_db(
                bridge.bind,
                token=bearer.group("token") if bearer else None,
                conversation_id=conversation_id,
                now=timezone.now(),
            )
        except bridge.Unauthenticated:
            logger.info("mcp.unauthorized", conversation_id=conversation_id, had_token=bearer is not None)
            raise _unauthorized() from None
        except Rejection as rejection:
            strangers.trust(bearer.group("token"))  # type: ignore[union-attr]  # the token is an Agent's
            status = 404 if rejection.code == RejectionCode.UNKNOWN_CONVERSATION else 403
            logger.info("mcp.refused", conversation_id=conversation_id, code=str(rejection.code))
            raise Refusal(status, rejection.detail, code=NOT_ADMITTED, data={"code": str(rejection.code)}) from None
        strangers.trust(bearer.group("token"))  # type: ignore[union-attr]  # bind checked there is one
        check_content_headers(headers)
        body = await read_body(receive, headers, limit=MAX_FRAME_BYTES)
        if body is None:
            return None
        message = parse_message(body, limit=MAX_FRAME_BYTES)
        check_task_name_header(message, headers)
        method = message.get("method")
        return binding, body, method if isinstance(method, str) else ""

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
                    # Host and Origin are checked in _admit, before the token (and answered in JSON-RPC).
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


async def _until_client_leaves(
    handle: Callable[[ASGIReceiveCallable], Coroutine[Any, Any, None]], receive: ASGIReceiveCallable
) -> None:
    """Run ``handle(receive)``; if the client disconnects first, stop it there (no orphan work: a held
    ``tasks/result`` whose client left ends at once, not at Daphne's close timeout).

    The body has been read, so the one message left on ``receive`` is ``http.disconnect``: it is read
    once here and handed to the handler too, should it ask."""
    left = asyncio.ensure_future(receive())

    async def next_message() -> Any:
        return await asyncio.shield(left)

    task = asyncio.ensure_future(handle(next_message))  # type: ignore[arg-type]
    try:
        await asyncio.wait({task, left}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()
            logger.info("mcp.client_left")
        left.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _uuid_text(value: str) -> str | None:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None
