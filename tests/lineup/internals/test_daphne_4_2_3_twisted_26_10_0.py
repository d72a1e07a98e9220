"""lineup.internals.daphne, checked against Daphne 4.2.3 and Twisted 26.10.0: the classes and
methods its hooks replace are still there and still called as the hooks assume (decision 0052).
What the hooks do over a real socket is tests/lineup/test_http_limits.py's. An upgrade of either
fails here first; re-check each hook against the new source, then rename this file and update
``CHECKED_AGAINST``."""

from __future__ import annotations

import inspect

from daphne import http_protocol, ws_protocol
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
    # The WebSocket hook answers a close itself while the socket is open (Autobahn's state names).
    assert hasattr(socket, "STATE_OPEN") and _parameters(socket.sendClose)[:3] == ["self", "code", "reason"]


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
