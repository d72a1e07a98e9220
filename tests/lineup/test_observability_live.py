"""Operators see it live: ``/metrics`` and ``/readyz`` of real Daphne and Celery worker processes.

The processes share a metrics directory (``LINEUP_METRICS_DIR``, Prometheus multi-process mode),
so one Daphne's ``/metrics`` shows what the worker's children did too; the backlog gauges are read
from the database at scrape time. The database is a cluster of the test's own
(``PostgresCluster``), so that ``/readyz`` can be watched failing while it is stopped.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import psycopg
import pytest

from tests.support.live import Agent, private_cluster
from tests.support.processes import (
    PostgresCluster,
    ProcessSupervisor,
    manage_py_argv,
    start_celery_worker,
    start_daphne,
    wait_for,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

DATABASE = "lineup_observed"


def get(port: int, path: str, **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text`` (0 when absent)."""
    for line in text.splitlines():
        match = re.fullmatch(r"([a-zA-Z_:]+)(?:\{(.*)\})? (\S+)", line)
        if match is None or match[1] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', match[2] or ""))
        if all(found.get(k) == v for k, v in labels.items()) and (labels or not found):
            return float(match[3])
    return 0.0


@pytest.fixture
def rig(request, tmp_path, django_db_setup) -> Iterator[tuple[PostgresCluster, ProcessSupervisor, dict[str, str]]]:
    environment = {"LINEUP_METRICS_DIR": str(tmp_path / "metrics"), "LINEUP_LOG_FORMAT": "json"}
    with private_cluster(request, tmp_path, DATABASE, LINEUP_REFERENCE_AGENT_URL="", **environment) as rig:
        yield rig


def test_metrics_from_daphne_and_worker_and_readiness_through_a_postgresql_outage(rig) -> None:
    """After a start settled by the worker's eta task, a start interrupted by the Agent and one
    result left unacknowledged, one Daphne's /metrics shows the decisions, the settlements by
    trigger and path, the lag histogram (the worker's own figures), the eta publish, and a backlog equal to
    the database's; /readyz is 503 while PostgreSQL is stopped and 200 again after, and a probe by
    IP (a Host outside ALLOWED_HOSTS) is answered with no error in the log."""
    postgres, processes, env = rig
    token = processes.run("token", manage_py_argv("create_agent_token", "observer", "--user", "ada"), env=env)
    port, daphne = start_daphne(processes, "daphne", env=env)
    start_celery_worker(processes, env=env)

    status, body = get(port, "/metrics")
    assert status == 200, body
    assert sample(body, "lineup_agent_connections") == 0

    agent = Agent(f"ws://127.0.0.1:{port}/ws/agent/", token.strip().splitlines()[-1])
    started = agent.call("pomodoro.start", duration_seconds=1, activity="eta")
    assert started["type"] == "tool.accepted", started
    completed = agent.wait_for_result()  # settled by the worker's eta task, then acknowledged
    assert completed["result"]["state"] == "completed"
    assert agent.call("pomodoro.start", duration_seconds=600)["type"] == "tool.accepted"
    assert agent.call("pomodoro.interrupt")["receipt"]["status"] == "interrupted"
    # The interrupted focus's result: received, deliberately not acknowledged.
    while not agent.results:
        frame = json.loads(agent.ws.recv(timeout=15))
        if frame["type"] == "tool.result":
            agent.results.append(frame)
    assert agent.results[0]["result"]["state"] == "interrupted"

    def scraped() -> str | None:
        status, body = get(port, "/metrics")
        settled = sample(
            body, "lineup_settlements_total", state="interrupted", trigger="agent_interrupt", path="interrupt"
        )
        return body if status == 200 and settled == 1 else None

    body = wait_for(scraped, timeout=15, what="the interrupt in /metrics", describe=processes.describe)
    assert sample(body, "lineup_decisions_total", kind="operation.started", outcome="ok") == 2
    assert sample(body, "lineup_decisions_total", kind="tool.receipt", outcome="interrupted") == 1
    # The eta settlement was made in a worker child: its figures reach Daphne's /metrics.
    # One vocabulary with the log: the trigger is the event's (deadline), the path what settled it.
    assert sample(body, "lineup_settlements_total", state="completed", trigger="deadline", path="eta") == 1
    assert sample(body, "lineup_settlement_lag_seconds_count", trigger="deadline", path="eta") == 1
    assert sample(body, "lineup_settlement_lag_seconds_bucket", trigger="deadline", path="eta", le="5.0") == 1
    assert sample(body, "lineup_eta_tasks_published_total") == 2
    assert sample(body, "lineup_decision_duration_seconds_count", service="start_operation") == 2
    assert sample(body, "lineup_outbox_sends_total", attempt="first") >= 2
    assert sample(body, "lineup_agent_connections") == 1
    # The backlog is the database's, whichever process wrote it.
    with psycopg.connect(postgres.url(DATABASE)) as db:
        unacked, oldest = db.execute(
            "SELECT count(*), extract(epoch FROM now() - min(created_at)) FROM runtime_outboxentry"
            " WHERE acked_at IS NULL AND channel = 'agent_socket'"
        ).fetchone()
    assert unacked == 1
    assert sample(body, "lineup_outbox_unacked", channel="agent_socket") == unacked
    assert 0 < sample(body, "lineup_outbox_oldest_unacked_age_seconds", channel="agent_socket") <= float(oldest) + 1
    assert sample(body, "lineup_operations_flagged") == 0

    # A load balancer's probes, by IP.
    assert get(port, "/healthz", Host="10.11.12.13") == (200, "ok\n")
    status, body = get(port, "/readyz", Host="10.11.12.13")
    assert status == 200, body
    assert json.loads(body)["checks"] == {"database": "ok", "channel_layer": "ok", "broker": "ok"}

    postgres.stop("fast")
    status, body = get(port, "/readyz")
    assert status == 503, body
    assert json.loads(body)["checks"]["database"] != "ok"
    assert get(port, "/healthz") == (200, "ok\n")  # alive, only not ready
    postgres.start()
    wait_for(lambda: get(port, "/readyz")[0] == 200, timeout=20, what="/readyz to recover", describe=processes.describe)

    log = daphne.log_text()
    assert "Invalid HTTP_HOST" not in log and "Traceback" not in log, log[-4000:]
    assert '"event": "probe.not_ready"' in log  # the outage was logged once, as a warning
