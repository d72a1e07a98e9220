"""Two live Daphne processes serving ``/mcp/``, shared by the package, and official-SDK clients for them.

``main`` runs the in-process deadline scheduler (``LINEUP_SCHEDULER=embedded``); ``remote`` settles
nothing itself (``LINEUP_SCHEDULER=none``), so a task that reaches ``completed`` when polled on it
can only have been read from Postgres. Every test gets its own transactional database state; every
client a test opened is closed at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.utils import timezone

from runtime.services.agents import create_agent_token
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.processes import (
    ManagedProcess,
    lineup_env,
    start_daphne,
    supervised_processes,
    wait_for,
)


@dataclass
class Daphne:
    name: str
    port: int
    process: ManagedProcess

    def url(self, conversation_id: object) -> str:
        return f"http://127.0.0.1:{self.port}/mcp/{conversation_id}/"


@dataclass
class Servers:
    main: Daphne
    remote: Daphne

    def describe(self) -> str:
        return "\n".join(f"--- {d.name} ---\n{d.process.tail(60)}" for d in (self.main, self.remote))

    def wait(self, probe, what: str, timeout: float = 10.0):
        return wait_for(probe, timeout=timeout, what=what, describe=self.describe)


@pytest.fixture(scope="package")
def servers(request, django_db_setup, tmp_path_factory) -> Iterator[Servers]:
    log_dir = tmp_path_factory.mktemp("mcp")
    with supervised_processes(request, log_dir) as processes:
        started = {}
        for name, scheduler in (("main", "embedded"), ("remote", "none")):
            env = lineup_env(LINEUP_SCHEDULER=scheduler, LINEUP_LOG_FORMAT="json", LINEUP_REFERENCE_AGENT_URL="")
            port, process = start_daphne(processes, f"daphne-{name}", env=env, timeout=30)
            started[name] = Daphne(name=name, port=port, process=process)
        yield Servers(**started)


@pytest.fixture
def live(servers, transactional_db) -> Servers:
    return servers


@pytest.fixture
def token_for() -> Callable[..., str]:
    """``token_for(user, name="mcp-agent")``: a new token of that user's Agent ``name``."""

    def issue(user, name: str = "mcp-agent") -> str:
        return create_agent_token(user=user, name=name, now=timezone.now())[1]

    return issue


@pytest.fixture
def token(user, conversation, token_for) -> str:
    return token_for(user)


@pytest.fixture
def connect(live) -> Iterator[Callable[..., McpClient]]:
    """``connect(token, conversation_id, server=live.main)``: an initialized client, closed at the end."""
    clients: list[McpClient] = []

    def open_client(token: str | None, conversation_id: object, server: Daphne | None = None) -> McpClient:
        client = McpClient((server or live.main).url(conversation_id), token)
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        client.close()


@pytest.fixture
def mcp(connect, token, conversation) -> McpClient:
    """The test user's Agent, connected to its default conversation on ``main``."""
    return connect(token, conversation.id)
