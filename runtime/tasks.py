"""Celery tasks: thin wake-up calls into the settlement services (safe to run twice)."""

from __future__ import annotations

import structlog
from celery import shared_task
from django.utils import timezone

from runtime import tracing
from runtime.deadlines import enqueue_eta
from runtime.models import Operation
from runtime.services.recovery import SettleFailure, settle_isolated, sweep
from runtime.transitions import NotDue

logger = structlog.get_logger("lineup.runtime")


@shared_task(name="runtime.tasks.settle_operation", acks_late=True)
def settle_operation_task(operation_id: str) -> str:
    """The eta task scheduled for ``ends_at``; a duplicate or early delivery settles nothing.

    An early delivery (an eta timer firing a moment early, clocks of two hosts apart) re-arms
    the task at ``ends_at`` rather than waiting for the next sweep. An unknown operation (a task
    that outlived its row, e.g. a test database flushed under a queue) is logged and dropped:
    retrying could never succeed. A settlement that raises is counted and backed off like the
    sweep's (``settle_isolated``); the sweep retries it.
    """
    parent = _trace_headers(settle_operation_task.request)
    try:
        with tracing.span(
            "task runtime.tasks.settle_operation", parent=parent, attributes={"lineup.operation_id": operation_id}
        ):
            outcome = settle_isolated(operation_id=operation_id, now=timezone.now())
    except Operation.DoesNotExist:
        logger.warning("deadline.unknown_operation", operation_id=operation_id)
        return "UnknownOperation"
    if isinstance(outcome, SettleFailure):
        return "SettleFailure"
    if isinstance(outcome.decision, NotDue):
        ends_at = Operation.objects.values_list("ends_at", flat=True).get(pk=operation_id)
        enqueue_eta(outcome.operation_id, ends_at)
    return type(outcome.decision).__name__


def _trace_headers(request: object) -> dict[str, str]:
    """The W3C trace context the publisher put in the message's headers (enqueue_eta), if any."""
    found = {}
    for key in ("traceparent", "tracestate"):
        # A worker puts custom headers on the request itself; Task.apply(headers=...) under .headers.
        value = getattr(request, key, None) or (getattr(request, "headers", None) or {}).get(key)
        if isinstance(value, str):
            found[key] = value
    return found


@shared_task(name="runtime.tasks.sweep_due")
def sweep_due() -> int:
    """The beat sweep: settle everything due, whatever happened to its eta task."""
    return len(sweep(now=timezone.now()).settled)
