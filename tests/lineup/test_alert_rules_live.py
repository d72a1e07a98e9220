"""The alert rules and the dashboard fed by a real Prometheus scraping real processes, through incidents.

tests/lineup/test_alert_rules.py runs the rules on hand-written series (promtool); here Prometheus
(Debian's ``prometheus``) scrapes two real Daphnes' ``/metrics`` (one host, as the docs scrape it: each
shows the host's sums) while a real Celery worker and beat settle, and evaluates
docs/operations/prometheus-alerts.yml rendered by ``scaled_rules``: the same expressions, so a wrong
selector or label fails here too, with every duration in minutes made ``SECONDS_PER_MINUTE`` seconds
(range selectors, ``for:``, and the one threshold that is a waiting time, an ``*_age_seconds`` one).
The lag threshold is not scaled: a lag is measured, not waited for.

One Prometheus and one set of processes serve the module (``rig``); each test starts from a quiet
system (no rule pending or firing) and leaves every process it stopped running again:

- healthy: after one focus settled and acknowledged, no rule fires for the longest rule's window
  and ``for``, and every dashboard query returns data;
- an Agent that never acknowledges its result: LineUpResultUnacknowledged (cleared by the ack);
- a worker that stalls (SIGSTOP for a few seconds, again and again) while focuses fall due:
  LineUpSettlementLagHigh fires, and clears a window after the last late settlement;
- a scraped Daphne SIGKILLed: LineUpNotReady for that one, no false LineUpWorkerStopped; both
  SIGKILLed: LineUpTargetsMissing;
- the worker SIGKILLed with a focus falling due: LineUpWorkerStopped and LineUpOverdue, both
  cleared once a new worker runs.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from runtime.models import Operation
from runtime.services.agents import create_agent_token
from runtime.transitions import RUNNING_STATES
from tests.support.live import Agent
from tests.support.processes import (
    BEAT_READY,
    WORKER_READY,
    ManagedProcess,
    ProcessSupervisor,
    free_port,
    lineup_env,
    manage_py_argv,
    purge_celery_queue,
    start_celery_beat,
    start_celery_worker,
    start_daphne,
    supervised_processes,
    wait_for,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations"
RULES = OPERATIONS / "prometheus-alerts.yml"
DASHBOARD = OPERATIONS / "grafana-dashboard.json"
SECONDS_PER_MINUTE = 2  # a rule's minute here: scrapes and evaluations every second, sweeps every 0.5 s


def scaled(minutes: float) -> float:
    return minutes * SECONDS_PER_MINUTE


def scaled_rules(text: str) -> str:
    """The rules with each duration in minutes (range selectors ``[3m]``, ``for: 1m``) made that many
    times ``SECONDS_PER_MINUTE`` seconds, and a threshold on an age (``..._age_seconds) > 300``, five
    minutes of waiting) scaled alike; nothing else changes."""
    out = re.sub(r"\[(\d+)m\]", lambda m: f"[{scaled(int(m[1])):g}s]", text)
    out = re.sub(r"for: (\d+)m\b", lambda m: f"for: {scaled(int(m[1])):g}s", out)
    out = re.sub(r"(_age_seconds\)) > (\d+)\b", lambda m: f"{m[1]} > {scaled(int(m[2]) / 60):g}", out)
    assert "m]" not in out and not re.search(r"for: \d+m\b", out), "a duration the scaling missed"
    assert out.count("_age_seconds) > ") == text.count("_age_seconds) > ") == 1
    return out


# --- the rig: Prometheus, two Daphnes, a worker and the beat, for the module ----------------------


@dataclass
class Rig:
    processes: ProcessSupervisor
    env: dict[str, str]
    prometheus: int  # its port
    daphnes: dict[str, int]  # name -> port (each a scrape target)
    worker: ManagedProcess

    @property
    def port(self) -> int:
        """The Daphne the Agents use (the first one)."""
        return self.daphnes["daphne"]

    def describe(self) -> str:
        return self.processes.describe()


def start_prometheus(processes: ProcessSupervisor, tmp_path: Path, *, targets: list[str]) -> int:
    """A real Prometheus scraping ``targets`` as the docs' job (``job="lineup"``, a ``host`` label)."""
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.fail("prometheus is missing: apt-get install prometheus (.ci/run installs it)", pytrace=False)
    (tmp_path / "rules.yml").write_text(scaled_rules(RULES.read_text()))
    config = {
        "global": {"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(tmp_path / "rules.yml")],
        "scrape_configs": [{"job_name": "lineup", "static_configs": [{"targets": targets, "labels": {"host": "h1"}}]}],
    }
    (tmp_path / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
    port = free_port()
    processes.start(
        "prometheus",
        [
            binary,
            f"--config.file={tmp_path / 'prometheus.yml'}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        env={"PATH": "/usr/bin:/bin"},
        ready="Server is ready to receive web requests",
    )
    return port


@pytest.fixture(scope="module")
def rig(request, tmp_path_factory, django_db_setup) -> Iterator[Rig]:
    tmp_path = tmp_path_factory.mktemp("alerts")
    env = lineup_env(
        LINEUP_METRICS_DIR=str(tmp_path / "metrics"),
        LINEUP_SWEEP_SECONDS="0.5",
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",
        # A settlement that keeps failing is flagged after two tries half a second apart, not five
        # over minutes (LineUpOperationsFlagged's test).
        LINEUP_SETTLE_MAX_FAILURES="2",
        LINEUP_SETTLE_BACKOFF_SECONDS="0.5",
    )
    purge_celery_queue(settings.CELERY_TASK_DEFAULT_QUEUE)
    with supervised_processes(request, tmp_path) as processes:
        # Worker and beat start while the Daphnes do (each import of Django costs seconds on a busy machine).
        worker = start_celery_worker(processes, env=env, wait=False)
        beat = start_celery_beat(processes, env=env, wait=False)
        daphnes = {name: start_daphne(processes, name, env=env)[0] for name in ("daphne", "daphne-2")}
        worker.wait_for_log(WORKER_READY, timeout=60)
        beat.wait_for_log(BEAT_READY, timeout=60)
        targets = [f"127.0.0.1:{port}" for port in daphnes.values()]
        prometheus = start_prometheus(processes, tmp_path, targets=targets)
        rig = Rig(processes=processes, env=env, prometheus=prometheus, daphnes=daphnes, worker=worker)
        wait_for(lambda: sweeping(rig), timeout=60, what="Prometheus to see the sweeps", describe=rig.describe)
        yield rig


@pytest.fixture
def quiet(rig: Rig) -> Rig:
    """The rig once no rule is pending or firing (what an earlier test's incident left has cleared)."""
    since = time.time()

    def calm() -> bool:
        states = rule_states(rig.prometheus)
        return all(at > since and state == "inactive" for state, at in states.values())

    wait_for(calm, timeout=60, interval=0.5, what="every rule inactive", describe=lambda: _active(rig))
    return rig


# --- Prometheus' API ------------------------------------------------------------------------------


def api(port: int, path: str, **params: str) -> dict:
    query = f"?{urllib.parse.urlencode(params)}" if params else ""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/{path}{query}", timeout=5) as response:
        body = json.loads(response.read())
    assert body["status"] == "success", body
    return body["data"]


def rule_states(port: int) -> dict[str, tuple[str, float]]:
    """Each alert's state (inactive, pending, firing) and when Prometheus last evaluated it."""
    return {
        rule["name"]: (rule["state"], _unix(rule["lastEvaluation"]))
        for group in api(port, "rules", type="alert")["groups"]
        for rule in group["rules"]
    }


def _unix(stamp: str) -> float:
    whole, _, fraction = stamp.rstrip("Z").partition(".")
    return datetime.fromisoformat(whole + "+00:00").timestamp() + float(f"0.{fraction or 0}")


def alerts(rig: Rig, alertname: str, state: str = "firing") -> list[dict]:
    return [
        a
        for a in api(rig.prometheus, "alerts")["alerts"]
        if a["labels"]["alertname"] == alertname and a["state"] == state
    ]


def firing(rig: Rig, alertname: str) -> dict | None:
    return next(iter(alerts(rig, alertname)), None)


def _active(rig: Rig) -> str:
    return "active alerts: " + json.dumps(
        [(a["labels"]["alertname"], a["state"], a.get("value")) for a in api(rig.prometheus, "alerts")["alerts"]]
    )


def wait_firing(rig: Rig, alertname: str, *, timeout: float = 60) -> dict:
    return wait_for(
        lambda: firing(rig, alertname),
        timeout=timeout,
        interval=0.2,
        what=f"{alertname} to fire",
        describe=lambda: f"{_active(rig)}\n{rig.describe()}",
    )


def wait_inactive(rig: Rig, alertname: str, *, since: float, timeout: float = 60) -> float:
    """Wait for an evaluation after ``since`` that finds ``alertname`` inactive; return when it was."""

    def cleared() -> float | None:
        state, at = rule_states(rig.prometheus)[alertname]
        return at if at > since and state == "inactive" else None

    return wait_for(
        cleared,
        timeout=timeout,
        interval=0.2,
        what=f"{alertname} to clear",
        describe=lambda: f"{_active(rig)}\n{rig.describe()}",
    )


def evaluated_until(rig: Rig, until: float, *, what: str, timeout: float = 60) -> dict[str, str]:
    """Wait until Prometheus has evaluated every alert rule after ``until``; return each rule seen pending
    or firing meanwhile (its last such state). Polled several times per 1 s evaluation: none is missed."""
    seen: dict[str, str] = {}

    def done() -> bool:
        states = rule_states(rig.prometheus)
        seen.update({name: state for name, (state, _) in states.items() if state != "inactive"})
        return min(at for _, at in states.values()) > until

    wait_for(done, timeout=timeout, interval=0.2, what=what, describe=rig.describe)
    return seen


def query(rig: Rig, expr: str) -> list[dict]:
    return api(rig.prometheus, "query", query=expr)["result"]


def sweeping(rig: Rig) -> bool:
    window = scaled(3)  # LineUpWorkerStopped's [3m]
    result = query(rig, f'sum(max without (instance) (increase(lineup_sweeps_total{{path="sweep"}}[{window:g}s])))')
    return bool(result) and float(result[0]["value"][1]) > 0


def dashboard_queries() -> list[tuple[str, str]]:
    dashboard = json.loads(DASHBOARD.read_text())
    found: list[tuple[str, str]] = []

    def walk(panel: dict) -> None:
        for target in panel.get("targets", []):
            found.append((panel["title"], target["expr"]))
        for child in panel.get("panels", []):
            walk(child)

    walk(dashboard)
    return found


# --- an Agent of the test's own -------------------------------------------------------------------


def connect_agent(rig: Rig, username: str) -> Agent:
    """A new person with an Agent connected to the first Daphne over ``/ws/agent/``."""
    user = get_user_model().objects.create_user(username=username, password="pw-123-alerts")
    _, token = create_agent_token(user=user, name="watcher", now=timezone.now())
    return Agent(f"ws://127.0.0.1:{rig.port}/ws/agent/", token)


@dataclass
class Focus:
    call_id: str  # the start call's source_tool_call_id, which its tool.result carries
    operation_id: str


def start_focus(agent: Agent, seconds: int = 1) -> Focus:
    call_id = f"call-{uuid.uuid4()}"
    started = agent.request(
        {
            "type": "tool.call",
            "conversation_id": agent.conversation_id,
            "source_tool_call_id": call_id,
            "tool": "pomodoro.start",
            "arguments": {"duration_seconds": seconds},
            "inventory_revision": agent.revision,
        }
    )
    assert started["type"] == "tool.accepted", started
    operation = Operation.objects.filter(conversation_id=agent.conversation_id).latest("started_at")
    return Focus(call_id=call_id, operation_id=str(operation.pk))


def result_of(agent: Agent, focus: Focus, *, ack: bool = True) -> dict:
    """``focus``'s ``tool.result``, acknowledged unless ``ack`` is false; another one's (a redelivery of an
    earlier result that crossed its ack) is passed over."""
    while True:
        while agent.results:
            frame = agent.results.pop(0)
            if frame["source_tool_call_id"] == focus.call_id:
                if ack:
                    agent.ws.send(json.dumps({"type": "outbox.ack", "outbox_id": frame["outbox_id"]}))
                return frame
        frame = json.loads(agent.ws.recv(timeout=30))
        if frame["type"] == "tool.result":
            agent.results.append(frame)


def lag_of(focus: Focus) -> float:
    operation = Operation.objects.get(pk=focus.operation_id)
    assert operation.settled_at is not None, operation
    return (operation.settled_at - operation.ends_at).total_seconds()


# --- the tests --------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_healthy_system_alerts_nothing_and_every_dashboard_query_returns_data(quiet: Rig) -> None:
    rig = quiet
    agent = connect_agent(rig, "healthy")
    focus = start_focus(agent)
    assert result_of(agent, focus)["result"]["state"] == "completed"  # settled by the eta task, acknowledged
    assert lag_of(focus) < 1
    since = time.time()

    panels = dashboard_queries()
    assert len(panels) >= 19

    def empty() -> list[str]:
        return [f"{title}: {expr}" for title, expr in panels if not query(rig, expr)]

    # A panel over a series that does not exist shows "No data"; each must answer within a few scrapes.
    wait_for(lambda: not empty(), timeout=30, interval=0.5, what="every dashboard query to return data", describe=empty)
    # What the healthy system did shows as a number, not NaN: the eta settlement's lag, the decisions.
    # Their rates span 10 s here (5m scaled), and an idle sweep decides nothing (with nothing due it
    # opens no settlement), so a second focus makes fresh samples to read.
    again = start_focus(agent)
    assert result_of(agent, again)["result"]["state"] == "completed"
    lag_expr = next(e for t, e in panels if t.startswith("Settlement lag p99") and "0.99" in e)
    latency_expr = next(e for t, e in panels if t.startswith("Decision latency") and "0.99" in e)

    def read() -> tuple[list[dict], list[dict]]:
        return query(rig, lag_expr), query(rig, latency_expr)

    def shown() -> bool:
        lag, latency = read()
        eta_lag = any(r["metric"].get("path") == "eta" and float(r["value"][1]) < 5 for r in lag)
        return eta_lag and bool(latency) and float(latency[0]["value"][1]) > 0

    wait_for(shown, timeout=15, interval=0.5, what="the eta lag and decision latency p99", describe=read)

    # Nothing pending or firing for the longest rule's window and `for` (LineUpSettlementLagHigh's 5m + 5m).
    seen = evaluated_until(rig, since + scaled(5 + 5), what="healthy evaluations")
    assert seen == {}, f"alerts on a healthy system: {seen}"
    agent.ws.close()


@pytest.mark.django_db(transaction=True)
def test_result_unacknowledged_fires_for_an_agent_that_never_acks_and_clears_on_its_ack(quiet: Rig) -> None:
    rig = quiet
    agent = connect_agent(rig, "silent")
    focus = start_focus(agent)
    result = result_of(agent, focus, ack=False)  # received, deliberately not acknowledged (it is sent again meanwhile)
    received_at = time.time()
    alert = wait_firing(rig, "LineUpResultUnacknowledged")
    waited = time.time() - received_at
    threshold, pending = scaled(5), scaled(2)  # > 300 s of age, for 2m
    assert waited >= threshold + pending - 1, f"fired {waited:.1f} s after the result was written"
    assert alert["labels"]["channel"] == "agent_socket" and alert["labels"]["severity"] == "warning", alert
    assert firing(rig, "LineUpOverdue") is None  # settled; only the Agent is behind

    agent.ws.send(json.dumps({"type": "outbox.ack", "outbox_id": result["outbox_id"]}))
    acked_at = time.time()
    cleared_at = wait_inactive(rig, "LineUpResultUnacknowledged", since=acked_at, timeout=15)
    assert cleared_at - acked_at < 5
    agent.ws.close()


STALL_SECONDS = 7.5  # the worker frozen this long per cycle: a 1 s focus started at its start is ~6 s late


@pytest.mark.django_db(transaction=True)
def test_settlement_lag_high_fires_while_the_worker_stalls_and_clears_a_window_after_it_runs_again(
    quiet: Rig,
) -> None:
    """The incident: the worker (main process and pool) is frozen for 7.5 s, runs, is frozen again (a
    swapping host, a stuck process), while the Agent's 1 s focuses fall due. Every one settles ~6 s late,
    a late settlement every ~8 s, less than the rule's scaled 5 minute window apart: the p99 stays above
    5 s and the rule fires after its `for`. Then the worker runs freely, focuses keep settling on time, and
    the rule clears about one window after the last late settlement (it stayed pending 10 minutes after
    an incident when its window was 10 minutes)."""
    rig = quiet
    agent = connect_agent(rig, "stalled")
    window = scaled(5)
    lags: list[float] = []
    fired: dict | None = None
    fired_after = 0.0
    incident_started = time.time()

    def watch() -> dict | None:
        nonlocal fired_after
        alert = firing(rig, "LineUpSettlementLagHigh")
        if alert is not None and not fired_after:
            fired_after = time.time() - incident_started
        return alert

    try:
        while fired is None:
            assert time.time() - incident_started < 90, f"not fired after lags {lags}\n{_active(rig)}"
            rig.worker.signal_group(signal.SIGSTOP)
            stalled_at = time.monotonic()
            focus = start_focus(agent)  # through Daphne, which still answers: the eta task waits in Redis
            # The stall is the incident, not a wait for something: watch the alert while it lasts.
            while time.monotonic() - stalled_at < STALL_SECONDS:
                fired = fired or watch()
                time.sleep(0.2)
            rig.worker.signal_group(signal.SIGCONT)
            assert result_of(agent, focus)["result"]["state"] == "completed"
            last_late = time.time()
            lags.append(lag_of(focus))
            fired = fired or watch()
    finally:
        rig.worker.signal_group(signal.SIGCONT)
    assert min(lags) > 5, f"the incident's settlements were not late enough: {lags}"
    assert fired["labels"]["severity"] == "warning", fired
    assert re.fullmatch(
        r"Settlement lag p99 is [\d.]+s \(eta tasks or the sweep are late\)", fired["annotations"]["summary"]
    )

    # Fixed: the worker runs; the Agent keeps starting focuses, which settle on time.
    on_time: list[float] = []
    while True:
        focus = start_focus(agent)
        assert result_of(agent, focus)["result"]["state"] == "completed"
        on_time.append(lag_of(focus))
        state, _ = rule_states(rig.prometheus)["LineUpSettlementLagHigh"]
        if state == "inactive":
            break
        assert time.time() - last_late < window + 30, f"still {state} {time.time() - last_late:.1f} s after the fix"
    cleared_after = wait_inactive(rig, "LineUpSettlementLagHigh", since=last_late) - last_late
    assert max(on_time) < 1, on_time
    # About one window after the last late settlement (plus scrapes and evaluations), never 2 windows.
    assert cleared_after <= window + scaled(2), f"cleared {cleared_after:.1f} s after the last late settlement"
    agent.ws.close()
    print(
        f"lag incident: lags {[round(x, 2) for x in lags]}, fired after {fired_after:.1f} s, cleared {cleared_after:.1f} s after"
    )


@contextmanager
def poisoned(operation_id: str) -> Iterator[None]:
    """Every settlement of ``operation_id`` fails inside PostgreSQL until the block ends (a trigger
    refuses its state change, as a broken row or a bug would: tests/runtime/test_poison.py); the
    trigger is dropped even when the test fails (a transactional test's flush would not)."""
    table = Operation._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION lineup_test_poison_live() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'poisoned operation % (test trigger)', OLD.id; END $$"
        )
        cursor.execute(
            f"CREATE TRIGGER lineup_test_poison_live BEFORE UPDATE ON {table} FOR EACH ROW "
            f"WHEN (OLD.id = '{operation_id}' AND NEW.state IS DISTINCT FROM OLD.state) "
            "EXECUTE FUNCTION lineup_test_poison_live()"
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS lineup_test_poison_live ON {table}")
            cursor.execute("DROP FUNCTION IF EXISTS lineup_test_poison_live()")


@pytest.mark.django_db(transaction=True)
def test_operations_flagged_fires_for_a_settlement_that_keeps_failing_and_clears_after_the_retry(quiet: Rig) -> None:
    """The worker's settlement of one focus fails in PostgreSQL (eta task, then the sweep after its
    back-off): flagged, LineUpOperationsFlagged fires. The operator fixes the cause and runs the
    runbook's ``manage.py recover_runtime``: settled, the Agent gets its result, the alert clears."""
    rig = quiet
    agent = connect_agent(rig, "poisoned")
    focus = start_focus(agent, seconds=2)
    with poisoned(focus.operation_id):
        flagged = wait_firing(rig, "LineUpOperationsFlagged")
        row = Operation.objects.get(pk=focus.operation_id)
        assert row.settle_flagged_at is not None and row.settle_failures == 2, row.__dict__
        assert row.state in RUNNING_STATES
    assert flagged["labels"]["severity"] == "critical" and float(flagged["value"]) == 1, flagged
    retried_at = time.time()
    rig.processes.run("recover", manage_py_argv("recover_runtime"), env=rig.env)
    assert result_of(agent, focus)["result"]["state"] == "completed"
    assert Operation.objects.get(pk=focus.operation_id).state not in RUNNING_STATES
    wait_inactive(rig, "LineUpOperationsFlagged", since=retried_at)
    agent.ws.close()


@pytest.mark.django_db(transaction=True)
def test_killed_daphnes_raise_not_ready_for_each_and_targets_missing_for_all(quiet: Rig) -> None:
    rig = quiet
    by_name = {p.name: p for p in rig.processes.processes if p.alive}
    by_name["daphne-2"].kill()  # one scraped Daphne gone: that target is down, the other still shows the sums
    killed_at = time.time()
    not_ready = wait_firing(rig, "LineUpNotReady")
    assert not_ready["labels"]["instance"] == f"127.0.0.1:{rig.daphnes['daphne-2']}"
    assert not_ready["labels"]["severity"] == "critical"
    # A full window after the kill the sweeps still show through the first Daphne: no false stop.
    seen = evaluated_until(rig, killed_at + scaled(3 + 1), what="evaluations after the Daphne's death")
    assert seen == {"LineUpNotReady": "firing"}, seen

    by_name["daphne"].kill()  # every target gone: every lineup_* series with them; only absent() sees it
    blind = wait_firing(rig, "LineUpTargetsMissing")
    assert blind["labels"]["severity"] == "critical"
    assert len(alerts(rig, "LineUpNotReady")) == 2

    restarted_at = time.time()
    for name, port in rig.daphnes.items():  # back on their ports: the scrape targets are the same
        start_daphne(rig.processes, f"{name}-again", env=rig.env, port=port)
    for alertname in ("LineUpTargetsMissing", "LineUpNotReady"):
        wait_inactive(rig, alertname, since=restarted_at)


@pytest.mark.django_db(transaction=True)
def test_killed_worker_raises_worker_stopped_and_overdue_and_both_clear_with_a_new_worker(quiet: Rig) -> None:
    rig = quiet
    agent = connect_agent(rig, "waiting")
    rig.worker.kill()  # SIGKILL, children too: its counter files stay, the sweep tasks pile up in Redis
    killed_at = time.time()
    focus = start_focus(agent)  # accepted by Daphne; nothing will settle it
    overdue = wait_firing(rig, "LineUpOverdue")
    overdue_after = time.time() - killed_at
    assert overdue_after >= 1 + scaled(2) - 0.5, f"fired {overdue_after:.1f} s after the kill"  # due, then `for: 2m`
    assert overdue["labels"]["severity"] == "critical" and float(overdue["value"]) == 1, overdue
    stopped = wait_firing(rig, "LineUpWorkerStopped")
    stopped_after = time.time() - killed_at
    # The window must empty of sweeps, then the `for` must pass: about 3 + 1 scaled minutes.
    assert stopped_after >= scaled(3), f"fired {stopped_after:.1f} s after the kill, before the window emptied"
    assert stopped["labels"]["severity"] == "critical"
    assert firing(rig, "LineUpTargetsMissing") is None  # the Daphnes still answer
    assert Operation.objects.get(pk=focus.operation_id).state in RUNNING_STATES

    rig.worker = start_celery_worker(rig.processes, env=rig.env, name="worker-again")
    restarted_at = time.time()
    result = result_of(agent, focus)  # the new worker settles it (the sweep or the waiting eta task)
    assert result["result"]["state"] == "completed"
    assert lag_of(focus) > scaled(3)
    for alertname in ("LineUpOverdue", "LineUpWorkerStopped"):
        wait_inactive(rig, alertname, since=restarted_at)
    agent.ws.close()
    print(f"killed worker: LineUpOverdue after {overdue_after:.1f} s, LineUpWorkerStopped after {stopped_after:.1f} s")
