"""Two live Daphne processes on the channels_redis layer, shared by the whole package.

``main`` runs the in-process deadline scheduler (``LINEUP_SCHEDULER=embedded``) and resends an
unacked result every second; ``remote`` settles nothing itself (``LINEUP_SCHEDULER=none``) and
waits 30 s before a resend, so a result reaching an Agent on it promptly can only have come
through the Redis layer's hint from the process that settled it.

Starting Daphne costs ~2 s, so the processes live for the package; every test still gets its own
transactional database state (pytest-django truncates the tables after it), and every socket a
test opened is closed at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.utils import timezone

from runtime.services.agents import create_agent_token
from tests.lineup.gateways.agent_socket.client import AgentSocket, Daphne
from tests.support.processes import lineup_env, start_daphne, supervised_processes, wait_for

REMOTE_REDELIVERY_SECONDS = 30.0
HEARTBEAT_SECONDS = 1.0  # connection rows refreshed every second, to see the heartbeat within a test


@dataclass
class Servers:
    main: Daphne
    remote: Daphne

    def describe(self) -> str:
        return "\n".join(f"--- {d.name} ---\n{d.process.tail(60)}" for d in (self.main, self.remote))

    def wait(self, probe, what: str, timeout: float = 15.0):
        return wait_for(probe, timeout=timeout, what=what, describe=self.describe)


@pytest.fixture(scope="package")
def servers(request, django_db_setup, tmp_path_factory) -> Iterator[Servers]:
    log_dir = tmp_path_factory.mktemp("agent-protocol")
    with supervised_processes(request, log_dir) as processes:
        started = {}
        for name, scheduler, redelivery in (
            ("main", "embedded", "1"),
            ("remote", "none", str(REMOTE_REDELIVERY_SECONDS)),
        ):
            env = lineup_env(
                LINEUP_SCHEDULER=scheduler,
                LINEUP_OUTBOX_REDELIVERY_SECONDS=redelivery,
                LINEUP_LOG_FORMAT="json",
                LINEUP_REFERENCE_AGENT_URL="",
                LINEUP_AGENT_HEARTBEAT_SECONDS=str(HEARTBEAT_SECONDS),
            )
            port, process = start_daphne(processes, f"daphne-{name}", env=env, timeout=30)
            started[name] = Daphne(name=name, port=port, process=process)
        yield Servers(**started)


@pytest.fixture
def live(servers, transactional_db) -> Servers:
    return servers


@pytest.fixture
def connect(live) -> Iterator[Callable[..., AgentSocket]]:
    """``connect(server=live.main)``: a new socket, closed when the test ends."""
    sockets: list[AgentSocket] = []

    def open_socket(server: Daphne | None = None) -> AgentSocket:
        sock = AgentSocket((server or live.main).url)
        sockets.append(sock)
        return sock

    yield open_socket
    for sock in sockets:
        sock.close()
    # The servers outlive the test: let them finish closing (their last write is the connection
    # row's delete) before the test's tables are truncated, or the TRUNCATE may deadlock with it.
    from runtime.models import AgentConnection

    live.wait(lambda: not AgentConnection.objects.exists(), "the servers to close the test's connections")


@pytest.fixture
def token_for() -> Callable[..., str]:
    """``token_for(user, name="test-agent")``: a new token of that user's Agent ``name``."""

    def issue(user, name: str = "test-agent") -> str:
        return create_agent_token(user=user, name=name, now=timezone.now())[1]

    return issue


@pytest.fixture
def token(user, conversation, token_for) -> str:
    return token_for(user)
