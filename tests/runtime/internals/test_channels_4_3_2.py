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
