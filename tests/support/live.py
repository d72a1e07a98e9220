"""Live-process test rigs: a PostgreSQL cluster of the test's own under real LineUp processes,
and a bare ``lineup.agent.v1`` client to drive them.

For the tests that must stop or restart the database under running servers (a database restart,
``/readyz`` through an outage) or start the documented processes: the cluster is created, migrated
and given one user (``ada`` / ``pw-ada-123``) before the test's processes start.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from lineup.gateways.agent_socket.frames import PROTOCOL
from tests.support.processes import (
    PostgresCluster,
    ProcessSupervisor,
    lineup_env,
    manage_py_argv,
    purge_celery_queue,
    supervised_processes,
)

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


@contextmanager
def private_cluster(
    request: Any, tmp_path: Path, database: str, *, log_connections: bool = False, **env: str
) -> Iterator[tuple[PostgresCluster, ProcessSupervisor, dict[str, str]]]:
    """A migrated database with one user on a cluster of this test's own, the LineUp environment
    pointing at it (plus ``env``), and the supervisor the test starts its processes with."""
    postgres = PostgresCluster.create(tmp_path)
    postgres.log_connections = log_connections
    postgres.start()
    try:
        environment = lineup_env(DATABASE_URL=postgres.create_database(database), **env)
        purge_celery_queue(environment["LINEUP_CELERY_QUEUE"])
        with supervised_processes(request, tmp_path) as processes:
            processes.run("migrate", manage_py_argv("migrate", "--noinput"), env=environment, timeout=180)
            processes.run("user", manage_py_argv("shell", "-c", CREATE_USER), env=environment)
            yield postgres, processes, environment
    finally:
        postgres.destroy()
