"""What a stranger's ``/ws/agent/`` connection costs beyond its hello (issue 38): no channel-layer
receive (with channels_redis, a blocking ``BZPOPMIN`` that is cancelled, and its Redis connection
dropped, when the connection ends) and no hop to Channels' sync thread at its disconnect. An
Agent's connection starts listening on its channel at ``welcome``, before it joins its groups.

In process (channels' WebsocketCommunicator on ``lineup.asgi.application``, tests/support/hostile.py),
so the test can count the channel layer's receives and the hops; the live-server side is
test_strangers.py.
"""

from __future__ import annotations

import secrets
import time

import pytest
from channels.layers import InMemoryChannelLayer

from lineup.gateways.agent_socket.frames import PROTOCOL
from tests.support.hostile import Closed, InProcessSocket, in_process

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def counted(monkeypatch) -> dict[str, list[str]]:
    """The channels the layer was asked to receive on, and Channels' disconnect hops."""
    seen: dict[str, list[str]] = {"receives": [], "hops": []}
    receive = InMemoryChannelLayer.receive

    async def counting_receive(self, channel: str):
        seen["receives"].append(channel)
        return await receive(self, channel)

    async def hop() -> None:
        seen["hops"].append("websocket_disconnect")

    monkeypatch.setattr(InMemoryChannelLayer, "receive", counting_receive)
    monkeypatch.setattr("channels.generic.websocket.aclose_old_connections", hop)
    return seen


def _hello(loop, token: str) -> tuple[InProcessSocket, dict]:
    sock = InProcessSocket(loop, "/ws/agent/", [])
    loop.sockets.append(sock)
    connected, code = sock.connect()
    assert connected, code
    sock.send_frame({"type": "hello", "token": token, "protocol": PROTOCOL})
    return sock, sock.receive()


@pytest.mark.spec("R-2.2.3")
def test_a_strangers_connection_never_listens_on_the_channel_layer(settings, counted, user, conversation):
    """Two strangers, each refused at its hello (a made-up token): told, closed 4401, and in all
    that time the layer was never asked to receive for them, nor Channels' sync thread hopped to
    at their disconnects."""
    with in_process(settings) as loop:
        for _ in range(2):
            sock, answer = _hello(loop, "lu_" + secrets.token_urlsafe(32))
            assert (answer["type"], answer["code"]) == ("error", "unauthorized"), answer
            with pytest.raises(Closed) as closed:
                sock.receive()
            assert closed.value.code == 4401
            sock.close()
        assert counted["receives"] == [] and counted["hops"] == [], counted


@pytest.mark.spec("R-2.2.3")
def test_an_agents_connection_listens_from_welcome(settings, counted, user, conversation, token_for):
    """The Agent's hello is welcomed and its connection receives on its channel from then on (its
    hints, and the pushes they wake, are tested in test_pushed_results.py and test_outbox_delivery.py); its
    disconnect makes no hop either: all its database work goes through ``run_db``."""
    token = token_for(user)
    with in_process(settings) as loop:
        sock, answer = _hello(loop, token)
        assert answer["type"] == "welcome", answer
        deadline = time.monotonic() + 5
        while not counted["receives"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(counted["receives"]) == 1, counted
        sock.close()
        assert counted["hops"] == [], counted
