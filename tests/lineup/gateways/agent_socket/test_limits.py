"""``/ws/agent/``'s limits before and after trust, through the real ASGI application in-process.

The first frame must be a valid hello, small, within the hello timeout, or the connection ends
with 4401 and a reason; one token (anyone can make one) holds at most
``LINEUP_AGENT_CONNECTIONS_PER_TOKEN`` connections and a user ``..._PER_USER``, the next refused
``too_many_connections`` and closed 4429; ``welcome.limits`` lists every limit the Agent must respect.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from lineup.gateways.agent_socket.frames import PROTOCOL
from tests.support.hostile import Closed, InProcessAgent, LoopThread, in_process

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def runner(settings) -> Iterator[LoopThread]:
    with in_process(settings) as loop:
        yield loop


def closed_with(agent: InProcessAgent) -> int | None:
    try:
        frame = agent.sock.receive(timeout=5)
    except Closed as closed:
        return closed.code
    raise AssertionError(f"expected the close, got {frame}")


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("first", "code"),
    [
        ({"type": "inventory.get", "conversation_id": "c"}, "not_authenticated"),
        ("not json", "malformed_frame"),
        ({"type": "hello", "token": "lu_x", "protocol": "lineup.agent.v0"}, "unsupported_protocol"),
        ({"type": "hello", "token": "lu_unknown", "protocol": PROTOCOL}, "unauthorized"),
        ("x" * 60_000, "frame_too_large"),  # junk before hello: refused unread, over hello_max_bytes
    ],
)
def test_anything_but_a_valid_hello_first_is_answered_then_closed_4401(runner, token, first, code):
    """One answer, then the close: an unknown client gets one frame's work, not a conversation."""
    stranger = InProcessAgent(runner)
    answer = stranger.request(first if isinstance(first, str) else json.dumps(first))
    assert (answer["type"], answer["code"]) == ("error", code), answer
    assert closed_with(stranger) == 4401


@pytest.mark.spec("R-2.2.3")
def test_no_hello_within_the_timeout_is_closed_4401(runner, settings):
    settings.LINEUP_WS_HELLO_TIMEOUT_SECONDS = 0.2
    stranger = InProcessAgent(runner)
    answer = stranger.answer()
    assert (answer["code"], answer["detail"]) == ("not_authenticated", "no hello within 0.2 s")
    assert closed_with(stranger) == 4401


@pytest.mark.spec("R-2.2.3")
def test_connections_per_token_and_per_user_are_capped(runner, settings, user, conversation, token, token_for):
    """The third connection of a token capped at two is refused ``too_many_connections`` and closed
    4429; another token of the same user still connects until the per-user cap; closing one frees a place."""
    settings.LINEUP_AGENT_CONNECTIONS_PER_TOKEN = 2
    settings.LINEUP_AGENT_CONNECTIONS_PER_USER = 3
    first, second = InProcessAgent(runner), InProcessAgent(runner)
    first.hello(token)
    second.hello(token)
    third = InProcessAgent(runner)
    refused = third.request({"type": "hello", "token": token, "protocol": PROTOCOL})
    assert (refused["type"], refused["code"]) == ("error", "too_many_connections"), refused
    assert closed_with(third) == 4429

    other_token = token_for(user, "second-agent")
    InProcessAgent(runner).hello(other_token)  # the user's third
    over_user = InProcessAgent(runner)
    refused = over_user.request({"type": "hello", "token": other_token, "protocol": PROTOCOL})
    assert refused["code"] == "too_many_connections"
    assert closed_with(over_user) == 4429

    second.sock.close()  # returns once its consumer has ended, which gives its place back
    assert InProcessAgent(runner).hello(token)["type"] == "welcome"


@pytest.mark.spec("R-2.2.3")
def test_welcome_lists_every_limit(runner, settings, token):
    welcome = InProcessAgent(runner).hello(token)
    assert welcome["limits"] == {
        "max_frame_bytes": settings.LINEUP_WS_MAX_FRAME_BYTES,
        "hello_max_bytes": settings.LINEUP_WS_HELLO_MAX_BYTES,
        "hello_timeout_seconds": settings.LINEUP_WS_HELLO_TIMEOUT_SECONDS,
        "frames_per_second": settings.LINEUP_AGENT_FRAMES_PER_SECOND,
        "frames_burst": settings.LINEUP_AGENT_FRAMES_BURST,
        "queued_frames": settings.LINEUP_WS_QUEUE_FRAMES,
        "queued_bytes": settings.LINEUP_WS_QUEUE_BYTES,
        "connections_per_token": settings.LINEUP_AGENT_CONNECTIONS_PER_TOKEN,
        "connections_per_user": settings.LINEUP_AGENT_CONNECTIONS_PER_USER,
        "mcp_requests_in_flight_per_token": settings.LINEUP_MCP_IN_FLIGHT_PER_TOKEN,
        "mcp_requests_in_flight_per_user": settings.LINEUP_MCP_IN_FLIGHT_PER_USER,
        "mcp_requests_per_second_per_token": settings.LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN,
        "mcp_requests_held_per_process": settings.LINEUP_MCP_HELD_PER_PROCESS,
        "max_body_bytes": settings.LINEUP_HTTP_MAX_BODY_BYTES,
        "outbox_redelivery_seconds": settings.LINEUP_OUTBOX_REDELIVERY_SECONDS,
    }
