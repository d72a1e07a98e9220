"""``/healthz``, ``/readyz`` and ``/metrics`` in-process: who may read the metrics, probes by IP,
and the counters that the decisions themselves move."""

from __future__ import annotations

import logging

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from lineup.probes import ProbeMiddleware
from miniapps.pomodoro.tools import interrupt_focus, start_focus
from runtime import metrics
from runtime.services.recovery import recover_runtime
from runtime.transitions import Trigger

pytestmark = pytest.mark.django_db


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.parametrize(
    ("address", "headers", "status"),
    [
        ("127.0.0.1", {}, 200),
        ("::1", {}, 200),
        ("10.0.0.7", {}, 403),
        ("127.0.0.1", {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}, 403),  # a proxy on loopback forwarded it
        ("10.0.0.7", {"HTTP_AUTHORIZATION": "Bearer right-token"}, 200),
        ("10.0.0.7", {"HTTP_AUTHORIZATION": "Bearer wrong-token"}, 403),
        ("192.168.5.20", {}, 200),  # inside LINEUP_METRICS_NETWORKS
    ],
)
def test_metrics_answer_loopback_the_token_and_configured_networks_only(client, settings, address, headers, status):
    """Loopback reads /metrics without credentials; anyone else needs the bearer token or a
    configured network; a request a proxy forwarded is never taken for a loopback one."""
    settings.LINEUP_METRICS_TOKEN = "right-token"
    settings.LINEUP_METRICS_NETWORKS = ["192.168.5.0/24"]
    response = client.get("/metrics", REMOTE_ADDR=address, **headers)
    assert response.status_code == status
    if status == 200:
        assert b"lineup_outbox_unacked" in response.content
        assert response["Content-Type"].startswith("text/plain; version=")


def test_probes_by_ip_are_answered_and_log_no_error(client, caplog):
    """A load balancer probing by IP (a Host not in ALLOWED_HOSTS) gets its answer, and nothing is
    logged at error level (it used to be a DisallowedHost error with a traceback)."""
    caplog.set_level(logging.INFO)
    assert client.get("/healthz", HTTP_HOST="10.9.8.7").content == b"ok\n"
    response = client.get("/readyz", HTTP_HOST="10.9.8.7")
    assert response.status_code == 200, response.content
    assert response.json()["checks"]["database"] == "ok"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert client.get("/accounts/login/", HTTP_HOST="10.9.8.7").status_code == 400  # only the probes


def test_readyz_is_503_with_what_failed(client, monkeypatch):
    monkeypatch.setattr("lineup.probes._database", lambda: "OperationalError: connection refused")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["status"] == "not ready"
    assert response.json()["checks"]["database"] == "OperationalError: connection refused"


def test_probe_paths_only_for_get(client):
    assert ProbeMiddleware(lambda request: None).routes.keys() == {"/healthz", "/readyz", "/metrics"}
    assert client.post("/healthz").status_code == 404


def test_decisions_settlements_and_lag_are_counted_once_committed(
    conversation, django_capture_on_commit_callbacks, caplog
):
    """A start, an interrupt and a recovery settlement move the decision counters, the settlement
    counter by trigger and path and the lag histogram of the path that settled it; each settlement's
    log line says the same trigger and path as its metric (one vocabulary, issue 41)."""
    caplog.set_level(logging.INFO)
    now = timezone.now()
    interrupted_labels = {"state": "interrupted", "trigger": "agent_interrupt", "path": "interrupt"}
    recovered_labels = {"state": "completed", "trigger": "deadline", "path": "recovery"}
    before = {
        "started": value("lineup_decisions_total", kind="operation.started", outcome="ok"),
        "interrupted": value("lineup_settlements_total", **interrupted_labels),
        "recovered": value("lineup_settlements_total", **recovered_labels),
        "lag": value("lineup_settlement_lag_seconds_count", trigger="deadline", path="recovery"),
        "lag_sum": value("lineup_settlement_lag_seconds_sum", trigger="deadline", path="recovery"),
        "duration": value("lineup_decision_duration_seconds_count", service="start_operation"),
    }
    common = {"conversation_id": conversation.id, "activity": None, "caller": "test"}
    with django_capture_on_commit_callbacks(execute=True):
        start_focus(source_tool_call_id="a", duration_seconds=60, now=now, **common)
    assert value("lineup_decisions_total", kind="operation.started", outcome="ok") == before["started"] + 1
    with django_capture_on_commit_callbacks(execute=True):
        interrupt_focus(conversation_id=conversation.id, source_tool_call_id="b", caller="test", now=now)
        start_focus(source_tool_call_id="c", duration_seconds=60, now=now, **common)
        recover_runtime(now=now + timezone.timedelta(seconds=63))

    assert value("lineup_decisions_total", kind="operation.started", outcome="ok") == before["started"] + 2
    assert value("lineup_decision_duration_seconds_count", service="start_operation") == before["duration"] + 2
    assert value("lineup_settlements_total", **interrupted_labels) == before["interrupted"] + 1
    assert value("lineup_settlements_total", **recovered_labels) == before["recovered"] + 1
    assert value("lineup_settlement_lag_seconds_count", trigger="deadline", path="recovery") == before["lag"] + 1
    lag_sum = value("lineup_settlement_lag_seconds_sum", trigger="deadline", path="recovery")
    assert lag_sum == pytest.approx(before["lag_sum"] + 3, 0.01)
    lines = [r.msg for r in caplog.records if isinstance(r.msg, dict) and r.msg["event"].startswith("operation.")]
    settled = {line["event"]: (line["trigger"], line["path"]) for line in lines if "trigger" in line}
    assert settled == {
        "operation.interrupted": ("agent_interrupt", "interrupt"),
        "operation.completed": ("deadline", "recovery"),
    }


@pytest.mark.parametrize(
    ("trigger", "via", "path"),
    [
        ("deadline", "eta", "eta"),
        ("deadline", "sweep", "sweep"),
        ("deadline", "recovery", "recovery"),
        ("agent_interrupt", "eta", "interrupt"),
        ("switch_app", "eta", "lifecycle"),
        ("close_app", "sweep", "lifecycle"),
        ("return_to_interact", "eta", "lifecycle"),
        ("operator", "eta", "operator"),
    ],
)
def test_every_trigger_has_one_of_the_documented_paths(trigger, via, path):
    assert metrics.path_of(trigger, via=via) == path
    assert {metrics.path_of(t.value, via=via) for t in Trigger} <= set(metrics.PATHS)


def test_rate_limit_refusals_have_a_counter_for_any_door():
    before = value("lineup_rate_limit_refusals_total", door="agent_socket")
    metrics.count_rate_limit_refusal("agent_socket")
    assert value("lineup_rate_limit_refusals_total", door="agent_socket") == before + 1


@pytest.mark.parametrize(
    ("logger", "level", "message", "kept"),
    [
        ("celery.beat", logging.INFO, "Scheduler: Sending due task runtime.sweep_due (runtime.tasks.sweep_due)", False),
        ("celery.worker.strategy", logging.INFO, "Task runtime.tasks.sweep_due[1b2c] received", False),
        ("celery.app.trace", logging.INFO, "Task runtime.tasks.sweep_due[1b2c] succeeded in 0.004s: 0", False),
        ("celery.app.trace", logging.INFO, "Task runtime.tasks.sweep_due[1b2c] succeeded in 0.02s: 3", True),
        ("celery.app.trace", logging.ERROR, "Task runtime.tasks.sweep_due[1b2c] raised unexpected: X", True),
        (
            "celery.app.trace",
            logging.INFO,
            "Task runtime.tasks.settle_operation[1b2c] succeeded in 0.04s: 'Settle'",
            True,
        ),
        ("lineup.runtime", logging.INFO, "runtime.tasks.sweep_due", True),
    ],
)
def test_the_idle_sweep_leaves_no_line_at_info(logger, level, message, kept):
    from lineup.logs import QuietPeriodicSweep

    record = logging.LogRecord(logger, level, __file__, 1, message, None, None)
    assert QuietPeriodicSweep().filter(record) is kept


def test_every_metric_family_has_a_name_of_its_own(client):
    """A counter's family name drops ``_total``: ``lineup_operations_flagged_total`` (a counter) and
    ``lineup_operations_flagged`` (a gauge) were one family name twice, which scrapers refuse."""
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    types = [line.split()[2:4] for line in response.content.decode().splitlines() if line.startswith("# TYPE ")]
    # OpenMetrics names a counter's family without "_total" (the text format 0.0.4 keeps it on the line).
    families = [name.removesuffix("_total") if kind == "counter" else name for name, kind in types]
    assert len(families) == len(set(families)), sorted(f for f in families if families.count(f) > 1)
    assert "lineup_settlement_flaggings" in families and "lineup_operations_flagged" in families
    assert "mcp_server_operation_duration_seconds" in families


def test_readyz_tells_outsiders_only_ready_or_not(client, settings, monkeypatch):
    """What failed may name an internal address: only clients that may read /metrics get it."""
    from lineup import probes

    monkeypatch.setattr(probes, "readiness", lambda: {"database": "ok", "broker": "ConnectionError: redis at 10.1.2.3"})
    outsider = client.get("/readyz", REMOTE_ADDR="203.0.113.9")
    assert outsider.status_code == 503
    assert outsider.json() == {"status": "not ready"}
    insider = client.get("/readyz", REMOTE_ADDR="127.0.0.1")
    assert insider.json()["checks"]["broker"].endswith("10.1.2.3")


@pytest.mark.parametrize(
    ("hops", "loopback", "address", "headers", "status"),
    [
        (0, False, "127.0.0.1", {}, 403),  # the operator said loopback is a proxy's
        (1, True, "127.0.0.1", {"HTTP_X_FORWARDED_FOR": "10.0.0.1, 203.0.113.9"}, 403),
        (1, True, "127.0.0.1", {}, 200),  # came through no proxy: a local scraper
        (1, True, "127.0.0.1", {"HTTP_X_FORWARDED_FOR": "192.168.5.7"}, 200),  # the believed client, in the network
    ],
)
def test_metrics_believe_only_the_trusted_proxy_and_loopback_only_when_allowed(
    client, settings, hops, loopback, address, headers, status
):
    settings.LINEUP_TRUSTED_PROXY_HOPS = hops
    settings.LINEUP_METRICS_LOOPBACK = loopback
    settings.LINEUP_METRICS_NETWORKS = ["192.168.5.0/24"]
    assert client.get("/metrics", REMOTE_ADDR=address, **headers).status_code == status
