"""Daphne and the Celery worker keep their PostgreSQL connections, and outlive a PostgreSQL restart.

The database is a cluster of the test's own (``PostgresCluster``) so that it can be restarted under the
running servers; it logs every connection it accepts, which is how the test counts them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.live import Agent, private_cluster
from tests.support.processes import (
    PostgresCluster,
    ProcessSupervisor,
    manage_py_argv,
    start_celery_worker,
    start_daphne,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

DATABASE = "lineup_restart"


@pytest.fixture
def rig(request, tmp_path, django_db_setup) -> Iterator[tuple[PostgresCluster, ProcessSupervisor, dict[str, str]]]:
    with private_cluster(request, tmp_path, DATABASE, log_connections=True) as rig:
        yield rig


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

    # Five focuses settled by the worker's eta task: its children keep their connections too (Celery's
    # Django fixup closed them around every task, a backend start per settlement: decision 0039).
    before = postgres.connections_authorized(DATABASE)
    for _ in range(5):
        started = agent.call("pomodoro.start", duration_seconds=1, activity="short")
        assert started["type"] == "tool.accepted", started
        result = agent.wait_for_result()
        while result["result"]["operation_id"] != started["operation_id"]:  # one sent again: at least once
            result = agent.wait_for_result()
        assert result["result"]["state"] == "completed"
    agent.request({"type": "inventory.get", "conversation_id": agent.conversation_id})  # the acks are handled
    opened = postgres.connections_authorized(DATABASE) - before
    # At most the worker's two children's first, and one more Daphne database thread.
    assert opened <= 3, f"{opened} connections opened for 5 eta settlements"

    postgres.stop("fast")  # every connection terminated, open transactions rolled back
    postgres.start()

    started = agent.call("pomodoro.start", duration_seconds=2, activity="after the restart")
    assert started["type"] == "tool.accepted", started
    result = agent.wait_for_result()
    assert result["result"]["state"] == "completed"
    assert result["result"]["operation_id"] == started["operation_id"]
    # The same connection answered: no consumer died of a query that failed during the restart.
    assert "Exception inside application" not in processes.describe(400), processes.describe(400)
