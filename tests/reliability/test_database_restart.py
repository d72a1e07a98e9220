"""Daphne and the Celery worker keep their PostgreSQL connections, and outlive a PostgreSQL restart.

The database is a cluster of the test's own (``PostgresCluster``) so that it can be restarted under the
running servers; it logs every connection it accepts, which is how the test counts them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from lineup.gateways.agent_socket.frames import PROTOCOL
from tests.support.processes import (
    PostgresCluster,
    ProcessSupervisor,
    lineup_env,
    manage_py_argv,
    purge_celery_queue,
    start_celery_worker,
    start_daphne,
    supervised_processes,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

DATABASE = "lineup_restart"
CREATE_USER = (
    "from django.contrib.auth import get_user_model; "
    "get_user_model().objects.create_user(username='ada', password='pw-ada-123')"
)


class Agent:
    """A bare ``lineup.agent.v1`` client: one request at a time, pushed results kept aside."""

    def __init__(self, url: str, token: str) -> None:
        self.ws: ClientConnection = connect(url, open_timeout=10)
        self.results: list[dict[str, Any]] = []
        welcome = self.request({"type": "hello", "protocol": PROTOCOL, "token": token})
        assert welcome["type"] == "welcome", welcome
        self.conversation_id = welcome["conversations"][0]
        inventory = self.request({"type": "inventory.get", "conversation_id": self.conversation_id})
        self.revision = inventory["revision"]

    def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.ws.send(json.dumps(frame))
        while True:
            answer = json.loads(self.ws.recv(timeout=20))
            if answer["type"] != "tool.result":
                return answer
            self.results.append(answer)

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.request(
            {
                "type": "tool.call",
                "conversation_id": self.conversation_id,
                "source_tool_call_id": f"call-{uuid.uuid4()}",
                "tool": tool,
                "arguments": arguments,
                "inventory_revision": self.revision,
            }
        )

    def wait_for_result(self) -> dict[str, Any]:
        while not self.results:
            answer = json.loads(self.ws.recv(timeout=30))
            if answer["type"] == "tool.result":
                self.results.append(answer)
        result = self.results.pop(0)
        self.ws.send(json.dumps({"type": "outbox.ack", "outbox_id": result["outbox_id"]}))
        return result


@pytest.fixture
def rig(request, tmp_path, django_db_setup) -> Iterator[tuple[PostgresCluster, ProcessSupervisor, dict[str, str]]]:
    postgres = PostgresCluster.create(tmp_path)
    postgres.log_connections = True
    postgres.start()
    try:
        env = lineup_env(DATABASE_URL=postgres.create_database(DATABASE))
        purge_celery_queue(env["LINEUP_CELERY_QUEUE"])
        with supervised_processes(request, tmp_path) as processes:
            processes.run("migrate", manage_py_argv("migrate", "--noinput"), env=env, timeout=180)
            processes.run("user", manage_py_argv("shell", "-c", CREATE_USER), env=env)
            yield postgres, processes, env
    finally:
        postgres.destroy()


def test_decisions_reuse_their_connections_and_survive_a_postgresql_restart(rig) -> None:
    """Twenty decisions open no connection per decision; after a fast restart of PostgreSQL (every
    connection terminated) the next tool call is answered normally, and the worker still settles
    the focus at its deadline with the one result."""
    postgres, processes, env = rig
    token = processes.run("token", manage_py_argv("create_agent_token", "restart-test", "--user", "ada"), env=env)
    port, _ = start_daphne(processes, "daphne", env=env)
    start_celery_worker(processes, env=env)
    agent = Agent(f"ws://127.0.0.1:{port}/ws/agent/", token.strip().splitlines()[-1])

    before = postgres.connections_authorized(DATABASE)
    for _ in range(10):
        assert agent.call("pomodoro.start", duration_seconds=600, activity="reading")["type"] == "tool.accepted"
        assert agent.call("pomodoro.interrupt")["type"] == "tool.receipt"
    for _ in range(10):
        assert agent.wait_for_result()["result"]["state"] == "interrupted"
    agent.request({"type": "inventory.get", "conversation_id": agent.conversation_id})  # the acks are handled
    opened = postgres.connections_authorized(DATABASE) - before
    # With a connection per database_sync_to_async call this was ~9 per start/interrupt pair (~90);
    # kept connections: Daphne's one database thread and the worker's children, a handful in all.
    assert opened <= 6, f"{opened} connections opened for 20 decisions"

    postgres.stop("fast")  # every connection terminated, open transactions rolled back
    postgres.start()

    started = agent.call("pomodoro.start", duration_seconds=2, activity="after the restart")
    assert started["type"] == "tool.accepted", started
    result = agent.wait_for_result()
    assert result["result"]["state"] == "completed"
    assert result["result"]["operation_id"] == started["operation_id"]
    # The same connection answered: no consumer died of a query that failed during the restart.
    assert "Exception inside application" not in processes.describe(400), processes.describe(400)
