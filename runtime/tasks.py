"""Celery tasks: thin wake-up calls into the settlement services (safe to run twice)."""

from __future__ import annotations

import structlog
from celery import shared_task
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone

from runtime import tracing
from runtime.deadlines import enqueue_eta
from runtime.internals.django_db import first_execute_wrapper, skip_health_check
from runtime.models import Operation
from runtime.services.recovery import SettleFailure, settle_isolated, sweep
from runtime.services.settlements import SettleOutcome
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
            outcome = _settle_on_live_connection(operation_id)
    except Operation.DoesNotExist:
        logger.warning("deadline.unknown_operation", operation_id=operation_id)
        return "UnknownOperation"
    if isinstance(outcome, SettleFailure):
        return "SettleFailure"
    if isinstance(outcome.decision, NotDue):
        ends_at = Operation.objects.values_list("ends_at", flat=True).get(pk=operation_id)
        enqueue_eta(outcome.operation_id, ends_at)
    return type(outcome.decision).__name__


class _ConnectionLost(BaseException):
    """The settlement's first statement found the worker's kept connection dead: nothing of it ran.

    Not an ``Exception`` on purpose: ``settle_isolated`` counts every ``Exception`` as a failed
    settlement (written on a new connection, with a back-off), and this settlement never started.
    Only ``_settle_on_live_connection`` catches it; the decision's transaction rolls back (or drops
    the connection) on the way out as for any exception.
    """


class _FirstStatement:
    """An execute wrapper: the call's first statement failing for want of a connection raises
    ``_ConnectionLost``; a transaction's BEGIN goes with that statement, so the server ran nothing."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, execute, sql, params, many, context):
        if self.seen:
            return execute(sql, params, many, context)
        self.seen = True
        try:
            return execute(sql, params, many, context)
        except (OperationalError, InterfaceError) as error:
            raise _ConnectionLost from error


def _settle_on_live_connection(operation_id: str) -> SettleOutcome | SettleFailure:
    # No health check (Django's ``SELECT 1`` before the first query after each task's
    # close_old_connections, a round trip and a transaction per settlement once the worker keeps its
    # connection, decision 0039): the settlement's first statement is the check, as on the sockets'
    # database threads (decision 0036). If it finds the connection dead (a PostgreSQL restart, a
    # cut), the settlement runs once more on a new one, with the check; a failure at any later
    # statement is settle_isolated's, counted and backed off as before.
    skip_health_check(connection)
    try:
        with first_execute_wrapper(connection, _FirstStatement()):
            return settle_isolated(operation_id=operation_id, now=timezone.now())
    except _ConnectionLost:
        logger.info("deadline.connection_replaced", operation_id=operation_id)
        connection.close()
    return settle_isolated(operation_id=operation_id, now=timezone.now())


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
