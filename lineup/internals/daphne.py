"""The HTTP limits Daphne can only keep itself: body size before it is buffered, header and idle timeouts.

Daphne (through Twisted) reads a request's whole body before the ASGI application is called, and
then puts all of it on the application's queue at once: a 300 MB ``POST`` to the sign-in page took
300 MB of memory before Django could refuse it, and kept it. ASGI middleware runs too late for
that, so these three hooks go into Daphne's request and channel classes when ``lineup.asgi`` is
imported, which every way of running LineUp does first (``run_embedded``, ``daphne
lineup.asgi:application``, the test servers):

* a ``Content-Length`` over ``LINEUP_HTTP_MAX_BODY_BYTES`` is answered 413 as soon as the headers
  are in, and the connection closed, without reading the body; a chunked body is cut off the same way
  the moment it passes the limit;
* a request's headers must be complete within ``LINEUP_HTTP_HEADER_TIMEOUT_SECONDS`` of its first
  byte (and a new connection must start one as soon), or the connection is dropped: half-sent
  requests can no longer hold connections for Twisted's one-minute idle timeout each;
* an idle connection is closed after ``LINEUP_HTTP_IDLE_TIMEOUT_SECONDS``;
* a WebSocket close carries the code and reason the application gave (Daphne 4.2 sends the code
  alone, and Autobahn's ``sendClose`` refuses 1001, 1008 and 1011).

The ASGI-level check (``lineup.doors.http``) stays in front of the application for any other server.

Checked against Daphne 4.2.3, Twisted 26.10.0 and Autobahn 26.11.1 (``CHECKED_AGAINST``;
tests/lineup/internals/test_daphne_4_2_3_twisted_26_10_0_autobahn_26_11_1.py fails on any other
version and exercises each hook). What is private here: Daphne's ``WebRequest``, ``HTTPFactory`` and
``WebSocketProtocol`` methods replaced at install, Twisted's ``_GenericHTTPChannelProtocol`` whose
``_channel`` is the HTTP/1.1 channel that parses a request, and Autobahn's ``sendCloseFrame`` (the
method under its ``sendClose`` that sends any code).
"""

from __future__ import annotations

import json
from typing import Any

import structlog
from django.conf import settings

logger = structlog.get_logger("lineup.doors")

CHECKED_AGAINST = {"daphne": "4.2.3", "Twisted": "26.10.0", "autobahn": "26.11.1"}

_installed = False


def refusal_413(limit: int) -> bytes:
    body = json.dumps({"error": "payload_too_large", "detail": f"a request body may be at most {limit} bytes"}).encode()
    head = (
        b"HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    return head + body


# Close codes an application may send (RFC 6455 7.4): normal, going away, policy violation, server
# error, and the registered and private ranges. 1002/1003/1007/1009/1010 are the protocol's own.
APPLICATION_CLOSE_CODES = frozenset({1000, 1001, 1008, 1011})
MAX_CLOSE_REASON_BYTES = 123  # a control frame's payload is at most 125 bytes, two of them the code


def close_code_sendable(code: int) -> bool:
    return code in APPLICATION_CLOSE_CODES or 3000 <= code <= 4999


def close_reason_bytes(reason: Any) -> bytes:
    """The reason in UTF-8, cut to ``MAX_CLOSE_REASON_BYTES`` without splitting a character."""
    encoded = str(reason).encode()[:MAX_CLOSE_REASON_BYTES]
    return encoded.decode(errors="ignore").encode()


def install() -> None:
    """Hook the limits into Daphne's classes, once per process (a no-op without Daphne)."""
    global _installed  # the hooks are process-wide, like the classes they change
    if _installed:
        return
    try:
        from daphne import http_protocol
        from twisted.internet import reactor
    except ImportError:  # another ASGI server: lineup.doors.http still refuses large bodies
        return
    _installed = True
    request_class: Any = http_protocol.WebRequest
    factory_class: Any = http_protocol.HTTPFactory

    original_got_length = request_class.gotLength
    original_chunk = request_class.handleContentChunk
    original_received = request_class.requestReceived

    def refuse(request: Any) -> None:
        request.lineup_refused = True
        limit = settings.LINEUP_HTTP_MAX_BODY_BYTES
        transport = request.channel.transport if request.channel is not None else None
        logger.info("door.body_refused", limit=limit, declared=request.lineup_declared)
        if transport is not None:
            transport.write(refusal_413(limit))
            transport.loseConnection()

    def got_length(self: Any, length: int | None) -> None:
        self.lineup_refused = False
        self.lineup_received = 0
        self.lineup_declared = length
        if length is not None and length > settings.LINEUP_HTTP_MAX_BODY_BYTES:
            original_got_length(self, 0)  # an empty body file: nothing of it will be kept
            refuse(self)
            return
        original_got_length(self, length)

    def handle_content_chunk(self: Any, data: bytes) -> None:
        if getattr(self, "lineup_refused", False):
            return
        self.lineup_received = getattr(self, "lineup_received", 0) + len(data)
        if self.lineup_received > settings.LINEUP_HTTP_MAX_BODY_BYTES:  # a chunked body that grew too large
            refuse(self)
            return
        original_chunk(self, data)

    def request_received(self: Any, command: bytes, path: bytes, version: bytes) -> None:
        if getattr(self, "lineup_refused", False):
            return  # answered already; the application never sees it
        original_received(self, command, path, version)

    request_class.gotLength = got_length
    request_class.handleContentChunk = handle_content_chunk
    request_class.requestReceived = request_received

    from daphne import ws_protocol

    socket_class: Any = ws_protocol.WebSocketProtocol
    original_reply = socket_class.handle_reply

    def handle_reply(self: Any, message: dict[str, Any]) -> None:
        # Daphne 4.2 drops the close reason the ASGI message carries, and Autobahn's ``sendClose``
        # refuses every code but 1000 and 3000-4999: the doors' 1011 reached clients with no reason
        # and Daphne logged "invalid close code". So the close frame is sent here, code and reason.
        if message.get("type") == "websocket.close" and self.state == self.STATE_OPEN:
            code = message.get("code") or 1000
            if close_code_sendable(code):
                reason = message.get("reason")
                self.sendCloseFrame(code=code, reasonUtf8=close_reason_bytes(reason) if reason else None, isReply=False)
                return
        original_reply(self, message)

    socket_class.handle_reply = handle_reply

    original_build = factory_class.buildProtocol

    def build_protocol(self: Any, addr: Any) -> Any:
        protocol = original_build(self, addr)
        protocol.timeOut = settings.LINEUP_HTTP_IDLE_TIMEOUT_SECONDS
        # Twisted wraps the HTTP/1.1 channel for protocol negotiation; the channel parses the request.
        _watch_headers(getattr(protocol, "_channel", protocol), reactor)
        return protocol

    factory_class.buildProtocol = build_protocol


def _watch_headers(channel: Any, reactor: Any) -> None:
    """Drop the connection when a request's headers are not complete in time."""
    timeout = settings.LINEUP_HTTP_HEADER_TIMEOUT_SECONDS
    state: dict[str, Any] = {"call": None}

    def expire() -> None:
        state["call"] = None
        logger.info("door.header_timeout", timeout=timeout)
        if channel.transport is not None:
            channel.transport.abortConnection()

    def arm() -> None:
        if state["call"] is None:
            state["call"] = reactor.callLater(timeout, expire)

    def disarm() -> None:
        if state["call"] is not None and state["call"].active():
            state["call"].cancel()
        state["call"] = None

    made, line, headers_done, lost, done = (
        channel.connectionMade,
        channel.lineReceived,
        channel.allHeadersReceived,
        channel.connectionLost,
        channel.requestDone,
    )

    def connection_made() -> None:
        made()
        arm()

    def line_received(data: bytes) -> None:
        arm()  # the first line of a request starts its clock (no-op while it runs)
        line(data)

    def all_headers_received() -> None:
        disarm()
        headers_done()

    def connection_lost(reason: Any) -> None:
        disarm()
        lost(reason)

    def request_done(request: Any) -> None:
        done(request)
        disarm()

    channel.connectionMade = connection_made
    channel.lineReceived = line_received
    channel.allHeadersReceived = all_headers_received
    channel.connectionLost = connection_lost
    channel.requestDone = request_done
