"""runtime.internals.channels, checked against Channels 4.3.2: a consumer that overrides
``dispatch`` still handles each message as Channels would, minus the connection hop
(decision 0052). A Channels upgrade fails here first; re-check the override against the new
version's ``AsyncConsumer.dispatch``, then rename this file and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import asyncio
import inspect
import threading

import pytest
from channels.consumer import AsyncConsumer

from runtime.internals import channels as channels_internals
from runtime.internals.channels import NoConnectionHopPerMessage
from tests.support.pins import assert_checked_against


def test_the_pinned_and_installed_channels_is_the_one_checked() -> None:
    assert_checked_against(channels_internals.CHECKED_AGAINST, __file__)


def test_channels_own_dispatch_is_still_the_hop_and_the_handler() -> None:
    """What the override leaves out is only the hop: Channels' dispatch closes old connections,
    then calls the handler ``get_handler_name`` names, and nothing else."""
    source = inspect.getsource(AsyncConsumer.dispatch)
    assert "aclose_old_connections()" in source and "get_handler_name(message)" in source
    assert len([line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]) <= 10, (
        source
    )


def test_the_sockets_dispatch_a_message_without_a_connection_hop(monkeypatch):
    """Channels sends every message a consumer handles through a hop to its sync thread to close
    old connections (``aclose_old_connections``); the Agent and workspace sockets, whose database
    work all goes through ``run_db`` (which closes them on its own thread), dispatch without it."""
    from interact.consumers import WorkspaceConsumer
    from lineup.gateways.agent_socket.consumer import AgentConsumer

    hops = []

    async def hop() -> None:
        hops.append(threading.current_thread().name)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", hop)

    class Probe(NoConnectionHopPerMessage, AsyncConsumer):
        async def probe_seen(self, message: dict) -> None:
            handled.append(message["n"])

    handled: list[int] = []
    asyncio.run(Probe().dispatch({"type": "probe.seen", "n": 1}))
    assert handled == [1] and hops == []
    with pytest.raises(ValueError):
        asyncio.run(Probe().dispatch({"type": "probe.unknown"}))
    asyncio.run(AsyncConsumer.dispatch(Probe(), {"type": "probe.seen", "n": 2}))
    assert handled == [1, 2] and len(hops) == 1  # the probe above can see a hop: Channels' own makes one
    for consumer in (AgentConsumer, WorkspaceConsumer):
        assert consumer.dispatch is NoConnectionHopPerMessage.dispatch, consumer


def test_channels_starts_the_channel_receive_through_the_attribute_channel_on_demand_replaces() -> None:
    """``ChannelOnDemand`` relies on ``AsyncConsumer.__call__`` setting ``self.channel_receive``
    and handing that attribute (read after it was set) to ``await_many_dispatch``."""
    source = inspect.getsource(AsyncConsumer.__call__)
    assert "self.channel_receive = functools.partial(" in source, source
    assert "[receive, self.channel_receive]" in source, source


def test_a_consumer_on_demand_receives_from_its_channel_only_once_it_listens() -> None:
    """Messages from the client are handled before; the layer is asked to receive only after
    ``listen()``, and then what was sent to the channel meanwhile arrives."""
    from channels.exceptions import StopConsumer

    from runtime.internals.channels import ChannelOnDemand

    class Layer:
        def __init__(self) -> None:
            self.receives = 0
            self.queue: asyncio.Queue = asyncio.Queue()

        async def new_channel(self) -> str:
            return "specific.probe!1"

        async def receive(self, channel: str) -> dict:
            self.receives += 1
            return await self.queue.get()

    handled: list[str] = []

    class Probe(ChannelOnDemand, NoConnectionHopPerMessage, AsyncConsumer):
        async def probe_seen(self, message: dict) -> None:
            handled.append(message["n"])

        async def probe_listen(self, message: dict) -> None:
            self.listen()

        async def probe_stop(self, message: dict) -> None:
            raise StopConsumer()

    async def scenario() -> int:
        layer = Layer()
        inbox: asyncio.Queue = asyncio.Queue()
        probe = Probe()
        probe.channel_layer_alias = "probe"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("channels.consumer.get_channel_layer", lambda alias: layer)
            running = asyncio.ensure_future(probe({"type": "probe"}, inbox.get, inbox.put))
            await layer.queue.put({"type": "probe.seen", "n": "from the channel"})
            await inbox.put({"type": "probe.seen", "n": "from the client"})
            async with asyncio.timeout(5):
                while not handled:
                    await asyncio.sleep(0.001)
            before = layer.receives
            await inbox.put({"type": "probe.listen"})
            async with asyncio.timeout(5):
                while len(handled) < 2:
                    await asyncio.sleep(0.001)
            await inbox.put({"type": "probe.stop"})
            await asyncio.wait_for(running, 5)
        return before

    assert asyncio.run(scenario()) == 0
    assert handled == ["from the client", "from the channel"]


def test_channels_websocket_disconnect_is_the_groups_the_disconnect_and_the_hop() -> None:
    """What ``NoConnectionHopAtDisconnect`` repeats of Channels' ``websocket_disconnect``: leave
    ``groups``, call ``disconnect``, stop; the hop is the one thing it leaves out."""
    from channels.generic.websocket import AsyncWebsocketConsumer

    source = inspect.getsource(AsyncWebsocketConsumer.websocket_disconnect)
    for step in ("self.groups", "group_discard", 'await self.disconnect(message["code"])', "aclose_old_connections()"):
        assert step in source, source
    assert "raise StopConsumer()" in source
    code = [line for line in source.splitlines() if line.strip() and not line.strip().startswith(("#", '"""'))]
    assert len(code) <= 14, source


def test_the_agent_socket_stops_without_a_hop_at_disconnect(monkeypatch) -> None:
    from channels.exceptions import StopConsumer

    from lineup.gateways.agent_socket.consumer import AgentConsumer
    from runtime.internals.channels import ChannelOnDemand, NoConnectionHopAtDisconnect

    hops = []

    async def hop() -> None:
        hops.append(1)

    monkeypatch.setattr("channels.generic.websocket.aclose_old_connections", hop)
    disconnected = []

    class Probe(NoConnectionHopAtDisconnect, AsyncConsumer):
        groups: list[str] = []

        async def disconnect(self, code: int) -> None:
            disconnected.append(code)

    with pytest.raises(StopConsumer):
        asyncio.run(Probe().websocket_disconnect({"type": "websocket.disconnect", "code": 4401}))
    assert disconnected == [4401] and hops == []
    assert AgentConsumer.websocket_disconnect is NoConnectionHopAtDisconnect.websocket_disconnect
    assert issubclass(AgentConsumer, ChannelOnDemand)


def test_a_listening_consumer_outlives_a_redis_blip_in_its_channel_receive(monkeypatch) -> None:
    """After a Redis restart the first receive may meet a connection the server closed: the receive
    is tried again (a few times over ~3 s) instead of ending the consumer; a layer that stays down
    still ends it with the layer's error."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from runtime.internals.channels import ChannelOnDemand

    monkeypatch.setattr(channels_internals, "RECEIVE_RETRY_PAUSES", (0, 0, 0))
    failures = {"left": 2}

    async def flaky_receive() -> dict:
        if failures["left"]:
            failures["left"] -= 1
            raise RedisConnectionError("Connection closed by server.")
        return {"type": "hint"}

    async def down() -> dict:
        raise RedisConnectionError("Connection closed by server.")

    async def scenario() -> None:
        consumer = ChannelOnDemand()
        consumer.channel_receive = flaky_receive
        consumer.listen()
        assert await consumer.channel_receive() == {"type": "hint"}
        assert failures["left"] == 0
        consumer.channel_receive = down
        with pytest.raises(RedisConnectionError):
            await consumer.channel_receive()

    asyncio.run(scenario())
