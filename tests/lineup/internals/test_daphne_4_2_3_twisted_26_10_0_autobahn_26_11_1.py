"""lineup.internals.daphne, checked against Daphne 4.2.3, Twisted 26.10.0 and Autobahn 26.11.1: the
classes and methods its hooks replace are still there and still called as the hooks assume
(decision 0052), and the close frames its WebSocket hook writes are the bytes RFC 6455 says. What
the hooks do over a real socket is tests/lineup/test_http_limits.py's and test_socket_close.py's. An
upgrade of any fails here first; re-check each hook against the new source, then rename this file
and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import inspect
import struct

import pytest
from daphne import http_protocol, ws_protocol
from twisted.internet.testing import StringTransport
from twisted.web import http

from lineup.internals import daphne as daphne_internals
from tests.support.pins import assert_checked_against


def test_the_pinned_and_installed_daphne_and_twisted_are_the_ones_checked() -> None:
    assert_checked_against(daphne_internals.CHECKED_AGAINST, __file__)


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_hooked_methods_exist_with_the_signatures_the_hooks_take() -> None:
    daphne_internals.install()
    daphne_internals.install()  # once per process, however often
    request, factory, socket = http_protocol.WebRequest, http_protocol.HTTPFactory, ws_protocol.WebSocketProtocol
    replaced = {
        (request, "gotLength"): "got_length",
        (request, "handleContentChunk"): "handle_content_chunk",
        (request, "requestReceived"): "request_received",
        (factory, "buildProtocol"): "build_protocol",
        (socket, "handle_reply"): "handle_reply",
    }
    for (cls, name), hook in replaced.items():
        assert getattr(cls, name).__name__ == hook, (cls, name)
        # What each hook calls on: the method it replaced, as Twisted's base class declares it.
        original = getattr(http.Request, name, None) or getattr(http.HTTPFactory, name, None)
        if original is not None:
            assert _parameters(original) == _parameters(getattr(cls, name)), (cls, name)
    # The WebSocket hook sends a close frame itself while the socket is open (Autobahn's names).
    assert hasattr(socket, "STATE_OPEN") and hasattr(socket, "STATE_CLOSING")
    assert _parameters(socket.sendCloseFrame)[:4] == ["self", "code", "reasonUtf8", "isReply"]


def test_a_built_protocol_wraps_the_http_channel_the_header_clock_watches(settings) -> None:
    daphne_internals.install()
    protocol = http_protocol.HTTPFactory(server=None).buildProtocol(None)
    assert protocol.timeOut == settings.LINEUP_HTTP_IDLE_TIMEOUT_SECONDS
    channel = protocol._channel  # Twisted's _GenericHTTPChannelProtocol: the private name the hook reads
    assert isinstance(channel, http.HTTPChannel)
    for name in ("connectionMade", "lineReceived", "allHeadersReceived", "connectionLost", "requestDone"):
        assert getattr(channel, name).__name__ != getattr(http.HTTPChannel, name).__name__, name  # watched
        assert name in http.HTTPChannel.__dict__, name  # still a method of the channel itself
    assert protocol.requestFactory is http_protocol.WebRequest


def _open_socket() -> tuple[ws_protocol.WebSocketProtocol, StringTransport]:
    """A Daphne WebSocket protocol as its factory builds it, on a transport that keeps what is written,
    past its handshake (the state the hook acts in)."""
    daphne_internals.install()
    protocol = ws_protocol.WebSocketFactory(server_class=None).buildProtocol(("127.0.0.1", 40000))
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.state, protocol.websocket_version = protocol.STATE_OPEN, 13
    protocol.closeHandshakeTimeout = 0  # no timer left behind in the (not running) reactor
    transport.clear()
    return protocol, transport


def _close_frame(code: int, reason: bytes = b"") -> bytes:
    payload = struct.pack("!H", code) + reason
    return bytes([0x88, len(payload)]) + payload  # FIN + opcode 8, unmasked (the server's), short length


@pytest.mark.parametrize("code", [1000, 1001, 1008, 1011, 3000, 4401, 4999])
def test_a_close_is_sent_with_its_code_and_reason(code) -> None:
    """Autobahn's ``sendClose`` refused 1001, 1008 and 1011 ("invalid close code", nothing sent but
    the code Daphne fell back to); the hook writes the frame: the code, then the reason in UTF-8."""
    protocol, transport = _open_socket()
    protocol.handle_reply({"type": "websocket.close", "code": code, "reason": "server error"})
    assert transport.value() == _close_frame(code, b"server error")
    assert protocol.state == protocol.STATE_CLOSING


def test_a_close_without_reason_or_code_is_a_normal_close() -> None:
    protocol, transport = _open_socket()
    protocol.handle_reply({"type": "websocket.close"})
    assert transport.value() == _close_frame(1000)


def test_a_long_reason_is_cut_to_123_bytes_between_characters() -> None:
    """A control frame's payload is at most 125 bytes: the code and 123 of the reason; a character
    of two bytes that would straddle the cut goes whole."""
    protocol, transport = _open_socket()
    protocol.handle_reply({"type": "websocket.close", "code": 1011, "reason": "é" * 100})
    assert transport.value() == _close_frame(1011, ("é" * 61).encode())  # 122 bytes, not half a 62nd


def test_a_code_an_application_may_not_send_is_left_to_daphne() -> None:
    """1002 (protocol error) is the protocol's own: Daphne's reply path is taken, and Autobahn refuses it."""
    protocol, transport = _open_socket()
    with pytest.raises(Exception, match="invalid close code"):
        protocol.handle_reply({"type": "websocket.close", "code": 1002, "reason": "no"})
    assert transport.value() == b""
