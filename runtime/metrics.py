"""Prometheus metrics: every instrument LineUp exposes, and the one place that updates them.

The rest of the code calls the small functions below, from as few places as possible: the event
log's after-commit line (``count_event``: decisions, settlements and their lag, failures), the
``@decision`` wrapper (``observe_decision``), the eta publish, the sweep, the outbox's send and the
workspace socket. ``render()`` is what ``/metrics`` answers (lineup.probes).

Several processes (several Daphne, Celery worker children, beat) share one set of figures through
prometheus-client's multi-process mode: with ``LINEUP_METRICS_DIR`` set (settings puts it in
``PROMETHEUS_MULTIPROC_DIR`` before this module is imported) every process writes its counters to
files there, and any Daphne's ``/metrics`` sums them. Without it (the embedded default, one process)
the process's own registry is exported. Backlogs — unacknowledged results, flagged operations, live
Agent connections — are read from the database at scrape time, never kept per process: the
database is the truth, and a process's memory would miss what the others did.

Labels are bounded sets (event kinds, rejection codes, triggers, channels): never a user, an
Agent or a conversation id.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MULTIPROC_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"

# Seconds. A decision is ~10 statements (docs/benchmarks.md): milliseconds, seconds when contended.
DECISION_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Seconds late: an eta task lands within tens of ms, the sweep within its period (2 s), recovery
# after however long everything was down.
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0)

DECISIONS = Counter(
    "lineup_decisions_total",
    "Decisions recorded in the event log, by event kind and outcome (ok, a rejection code or a receipt status).",
    ["kind", "outcome"],
)
DECISION_SECONDS = Histogram(
    "lineup_decision_duration_seconds",
    "Wall time of one deciding transaction, by service.",
    ["service"],
    buckets=DECISION_BUCKETS,
)
# ``trigger`` is the event log's and the log line's word (``deadline``, ``agent_interrupt``, ``switch_app``,
# ...); ``path`` says which part of LineUp did it (``PATHS``), the same field on the log line.
SETTLEMENTS = Counter(
    "lineup_settlements_total",
    "Operations settled, by final state, by trigger (as in the event log) and by the path that settled them.",
    ["state", "trigger", "path"],
)
SETTLEMENT_LAG = Histogram(
    "lineup_settlement_lag_seconds",
    "settled_at - ends_at of each completed operation, by trigger and by the path that settled it.",
    ["trigger", "path"],
    buckets=LAG_BUCKETS,
)
SETTLEMENT_FAILURES = Counter(
    "lineup_settlement_failures_total", "Settlements that raised and were rolled back (settlement.failed)."
)
# Named apart from the gauge lineup_operations_flagged: a counter's family name drops "_total", and
# two families of one name make an exposition that scrapers reject.
FLAGGINGS = Counter(
    "lineup_settlement_flaggings_total", "Operations newly flagged for an operator after repeated failures."
)
# OpenTelemetry's MCP convention: mcp.server.operation.duration, in seconds, with its advised buckets.
MCP_DURATION_BUCKETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300)
MCP_OPERATION_SECONDS = Histogram(
    "mcp_server_operation_duration_seconds",
    "Time to answer one /mcp/ request, by MCP method and error type (OpenTelemetry MCP convention).",
    ["mcp_method_name", "error_type"],
    buckets=MCP_DURATION_BUCKETS,
)
OUTBOX_SENDS = Counter(
    "lineup_outbox_sends_total",
    "tool.result deliveries written to an Agent, first sends and redeliveries of an unacknowledged result.",
    ["attempt"],
)
ETA_PUBLISHED = Counter("lineup_eta_tasks_published_total", "Celery eta settle tasks published to the broker.")
SWEEPS = Counter("lineup_sweeps_total", "Sweeps run (beat, embedded scheduler, recover_runtime).", ["path"])
SWEEP_BATCHES = Counter(
    "lineup_sweep_batches_total", "Batches of due operations a sweep or recovery settled.", ["path"]
)
RATE_LIMIT_REFUSALS = Counter(
    "lineup_rate_limit_refusals_total", "Requests or frames refused by a rate limit, by door.", ["door"]
)
# Every label value the dashboard and the alerts read exists from a process's start, at 0: a panel or a
# rule over a series that was never incremented shows "No data" on a healthy system, and an
# ``increase(...) == 0`` rule over it can not fire.
for _door in ("agent_socket", "workspace_socket", "mcp"):
    RATE_LIMIT_REFUSALS.labels(_door)
for _path in ("sweep", "recovery"):
    SWEEPS.labels(_path)
    SWEEP_BATCHES.labels(_path)
for _attempt in ("first", "redelivery"):
    OUTBOX_SENDS.labels(_attempt)
for _path in ("eta", "sweep", "recovery"):
    SETTLEMENT_LAG.labels("deadline", _path)

WORKSPACE_PAGES = Gauge(
    "lineup_workspace_pages",
    "Workspace pages connected on /ws/workspace/ (summed over live processes).",
    multiprocess_mode="livesum",
)

# What is settling in this context: the beat sweep and recovery say so; a deadline settled outside
# them is the eta task's (or the embedded scheduler's, its stand-in).
_settling_via: contextvars.ContextVar[str] = contextvars.ContextVar("lineup_settling_via", default="eta")


@contextlib.contextmanager
def settling_via(path: str) -> Iterator[None]:
    """Label the deadline settlements made inside the block with ``path`` (sweep, recovery)."""
    token = _settling_via.set(path)
    try:
        yield
    finally:
        _settling_via.reset(token)


def settlement_path() -> str:
    return _settling_via.get()


# What settled an operation, by its trigger: a deadline by whichever of eta, sweep or recovery was
# running (``settling_via``); the others name their path whatever ran them.
PATHS = ("eta", "sweep", "recovery", "interrupt", "lifecycle", "operator")
_PATH_BY_TRIGGER = {
    "agent_interrupt": "interrupt",
    "switch_app": "lifecycle",
    "close_app": "lifecycle",
    "return_to_interact": "lifecycle",
    "operator": "operator",
}


def path_of(trigger: str, *, via: str) -> str:
    """The ``path`` label and log field of a settlement with ``trigger``, decided while ``via`` ran."""
    return via if trigger == "deadline" else _PATH_BY_TRIGGER.get(trigger, trigger)


# --- what the code calls ------------------------------------------------------------------------


def count_event(kind: str, data: dict[str, Any], *, via: str) -> None:
    """One committed event-log entry (runtime.events): the decision, and a settlement's details;
    ``via`` is ``settlement_path()`` where the event was recorded."""
    count_events([(kind, data)], via=via)


def count_events(events: list[tuple[str, dict[str, Any]]], *, via: str) -> None:
    """``count_event`` for many entries (a batch settlement): each counter's label set is looked up
    and incremented once per batch, not once per entry."""
    tally: collections.Counter[tuple[Any, tuple[str, ...]]] = collections.Counter()
    for kind, data in events:
        outcome = data.get("code") or data.get("status") or "ok"
        tally[(DECISIONS, (kind, str(outcome)))] += 1
        if kind in ("operation.completed", "operation.interrupted"):  # runtime.events.SETTLEMENT_KINDS
            trigger = data.get("trigger") or "deadline"
            path = path_of(trigger, via=via)
            tally[(SETTLEMENTS, (kind.removeprefix("operation."), trigger, path))] += 1
            if data.get("lag_ms") is not None:
                SETTLEMENT_LAG.labels(trigger, path).observe(max(data["lag_ms"], 0) / 1000)
            _tally_settlement_facts(data, tally)
        elif kind == "settlement.failed":
            tally[(SETTLEMENT_FAILURES, ())] += 1
        elif kind == "settlement.flagged":
            tally[(FLAGGINGS, ())] += 1
    for (metric, labels), n in tally.items():
        (metric.labels(*labels) if labels else metric).inc(n)


def _tally_settlement_facts(data: dict[str, Any], tally: collections.Counter) -> None:
    """A settlement is one event whose data names what it did (decision 0035); the counts stay
    what they were when each of those facts was an event of its own."""
    if data.get("outbox_id") is not None:
        tally[(DECISIONS, ("outbox.written", "ok"))] += 1
    for kind, key in (("instance.closed", "closed"), ("app_session.ended", "app_session_ended")):
        if data.get(key) is not None:
            tally[(DECISIONS, (kind, "ok"))] += 1
    if data.get("cancelled"):
        tally[(DECISIONS, ("tool.cancelled", "ok"))] += len(data["cancelled"])
    if data.get("foreground") is not None:
        tally[(DECISIONS, ("instance.foreground", "ok"))] += 1
    if (receipt := data.get("receipt")) is not None:
        tally[(DECISIONS, ("tool.receipt", str(receipt.get("status") or "ok")))] += 1


def observe_decision(service: str, seconds: float) -> None:
    DECISION_SECONDS.labels(service).observe(seconds)


def count_outbox_sends(*, first: int, redelivered: int) -> None:
    if first:
        OUTBOX_SENDS.labels("first").inc(first)
    if redelivered:
        OUTBOX_SENDS.labels("redelivery").inc(redelivered)


def count_eta_published() -> None:
    ETA_PUBLISHED.inc()


def count_sweep(path: str) -> None:
    SWEEPS.labels(path).inc()


def count_sweep_batch(path: str) -> None:
    SWEEP_BATCHES.labels(path).inc()


def observe_mcp_operation(method: str, seconds: float, error_type: str = "") -> None:
    """One answered ``/mcp/`` request: ``method`` a known MCP method (or ``other``), ``error_type`` the
    JSON-RPC error code or ``tool_error`` (empty when it succeeded)."""
    MCP_OPERATION_SECONDS.labels(method, error_type).observe(seconds)


def count_rate_limit_refusal(door: str) -> None:
    """A rate limit refused a request or frame at ``door`` (a fixed name such as ``agent_socket``)."""
    RATE_LIMIT_REFUSALS.labels(door).inc()


def workspace_page_connected(delta: int) -> None:
    WORKSPACE_PAGES.inc(delta)


# --- what is read at scrape time --------------------------------------------------------------


class BacklogCollector(Collector):
    """Backlogs from the database, whichever process made them: read once per scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from django.db.models import Count, Min
        from django.utils import timezone

        from runtime.models import AgentConnection, DeliveryChannel, Operation, OutboxEntry
        from runtime.models.agents import liveness_window
        from runtime.transitions import RUNNING_STATES

        now = timezone.now()
        waiting = GaugeMetricFamily(
            "lineup_outbox_unacked", "Final results written and not yet acknowledged, by channel.", labels=["channel"]
        )
        oldest = GaugeMetricFamily(
            "lineup_outbox_oldest_unacked_age_seconds",
            "Age of the oldest unacknowledged result, by channel (0 when none waits).",
            labels=["channel"],
        )
        rows = {
            row["channel"]: row
            for row in OutboxEntry.objects.filter(acked_at__isnull=True)
            .values("channel")
            .annotate(count=Count("id"), oldest=Min("created_at"))
        }
        for channel in DeliveryChannel.values:
            row = rows.get(channel)
            waiting.add_metric([channel], row["count"] if row else 0)
            oldest.add_metric([channel], _age(now, row["oldest"]) if row else 0.0)
        yield waiting
        yield oldest
        running = Operation.objects.filter(state__in=RUNNING_STATES)
        yield GaugeMetricFamily(
            "lineup_operations_flagged",
            "Running operations flagged for an operator (settlement failed too often).",
            value=running.filter(settle_flagged_at__isnull=False).count(),
        )
        yield GaugeMetricFamily(
            "lineup_operations_overdue",
            "Running operations whose ends_at has passed (settled within seconds when all is well).",
            value=running.filter(ends_at__lte=now).count(),
        )
        yield GaugeMetricFamily(
            "lineup_agent_connections",
            "Live /ws/agent/ connections, on every process (runtime.AgentConnection).",
            value=AgentConnection.objects.filter(seen_at__gte=now - liveness_window()).count(),
        )


def _age(now: datetime, then: datetime | None) -> float:
    return max((now - then).total_seconds(), 0.0) if then else 0.0


def multiprocess_dir() -> Path | None:
    value = os.environ.get(MULTIPROC_DIR_ENV)
    return Path(value) if value else None


def _forget_dead_processes(directory: Path) -> None:
    """Drop the live gauges of processes that died without saying so (kill -9): their pages are gone."""
    for path in directory.glob("gauge_live*_*.db"):
        try:
            pid = int(path.stem.rsplit("_", 1)[1])
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, str(directory))
        except (ValueError, PermissionError):
            continue


def render() -> tuple[bytes, str]:
    """The Prometheus text exposition of every process's figures and the database's backlogs."""
    directory = multiprocess_dir()
    registry = CollectorRegistry()
    if directory is not None:
        _forget_dead_processes(directory)
        multiprocess.MultiProcessCollector(registry, path=str(directory))
        registry.register(BacklogCollector())
        return generate_latest(registry), CONTENT_TYPE_LATEST
    registry.register(BacklogCollector())
    return generate_latest(REGISTRY) + generate_latest(registry), CONTENT_TYPE_LATEST


def process_exited() -> None:
    """Forget this process's live gauges (called at a clean exit; the scrape covers the others)."""
    directory = multiprocess_dir()
    if directory is not None:
        multiprocess.mark_process_dead(os.getpid(), str(directory))
