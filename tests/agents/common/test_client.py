"""agents.common.client: the reconnect backoff (the live behaviour is in test_end_to_end)."""

from __future__ import annotations

from agents.common.client import AgentClient
from agents.reference.agent import ReferenceAgent


def test_backoff_doubles_up_to_its_cap_with_jitter():
    """Reconnect delays double from the initial one, never exceed the cap, and are 50-100% jittered."""
    client = AgentClient(
        "ws://127.0.0.1:1/ws/agent/", "lu_x", initial_backoff=0.5, max_backoff=8.0, agent_factory=ReferenceAgent
    )
    for attempt, ceiling in enumerate([0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]):
        delays = [client.backoff(attempt) for _ in range(200)]
        assert all(ceiling * 0.5 <= d <= ceiling for d in delays), (attempt, min(delays), max(delays))
        assert max(delays) - min(delays) > ceiling * 0.2  # jittered, so many clients do not reconnect in step
