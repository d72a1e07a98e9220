"""The decision log: one append-only ``LifecycleEvent`` row and one JSON log line per decision
(a batch of more than ``BATCH_LINE_ABOVE`` settled together logs one line with counts).

Inside a transaction the row is written with the decision and the log line leaves on commit,
so the log never reports a decision that was rolled back. Outside a transaction (rejections,
which change nothing) both happen at once.

A deciding service is wrapped in ``@decision``: one durable transaction whose events are written
together, in one multi-row INSERT just before it commits, instead of one INSERT per event (a
lifecycle move records a few; a settlement records one, decision 0035). Events recorded inside a savepoint of it are written at once,
so a rolled-back savepoint takes exactly its own events with it.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, ParamSpec, TypeVar, overload

import structlog
from django.db import connection, transaction

from runtime import crashpoints, metrics, projections, tracing
from runtime.errors import Rejection
from runtime.internals.django_db import in_transaction, note, savepoint_depth, set_note
from runtime.miniapps import redact_private
from runtime.models import LifecycleEvent

logger = structlog.get_logger("lineup.runtime")

P = ParamSpec("P")
R = TypeVar("R")


def _plain(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@overload
def decision(service: Callable[P, R], /, *, autocommit: bool = False) -> Callable[P, R]: ...


@overload
def decision(*, autocommit: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def decision(
    service: Callable[P, R] | None = None, /, *, autocommit: bool = False
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Run ``service`` as one durable transaction whose audit events are written in one statement.

    Either form keeps the decision's trace span, its duration metric and its crash-point scope.
    ``autocommit=True`` (``@decision(autocommit=True)``, or ``decision(f, autocommit=True)``): the
    service runs with no Django transaction open and ends its own (decision 0055: the start on
    PostgreSQL sends ``BEGIN`` and ``COMMIT`` with its pipelined statements), so there is no event
    buffer — what it records is written with its statements — and the crash-point harness sees
    ``after-last-statement`` instead of ``before-commit``. The caller chooses the form: inside a
    caller's transaction the service's own ``BEGIN`` would not be its own.
    """
    if service is None:
        return lambda service: decision(service, autocommit=autocommit)
    name = service.__name__
    scoped = crashpoints.scope(name)  # the crash-point harness counts its steps; unarmed: nothing

    if autocommit:
        body = scoped(service)
    else:

        @scoped
        def body(*args: P.args, **kwargs: P.kwargs) -> R:
            buffer: list[LifecycleEvent] = []
            # The decision's own block: under a test's transaction it is a savepoint itself.
            set_note(connection, "events", (buffer, savepoint_depth(connection)))
            try:
                result = service(*args, **kwargs)
                if buffer:
                    LifecycleEvent.objects.bulk_create(buffer)
            finally:
                set_note(connection, "events", None)
            return result

    @functools.wraps(service)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        block = contextlib.nullcontext() if autocommit else transaction.atomic(durable=True)
        try:
            # together(): a decision that commits its own transaction makes its hints after the
            # commit; they leave as one message per group, as a transaction's do.
            with tracing.span(f"decision {name}") as span, projections.together(), block:
                result = body(*args, **kwargs)
                tracing.annotate(span, operation_id=getattr(result, "operation_id", None))
        finally:
            metrics.observe_decision(name, time.perf_counter() - started)
        return result

    return wrapper


def record_event(
    kind: str,
    *,
    at: datetime,
    conversation_id: uuid.UUID | str | None = None,
    instance_id: uuid.UUID | str | None = None,
    app_session_id: uuid.UUID | str | None = None,
    operation_id: uuid.UUID | str | None = None,
    source_tool_call_id: str = "",
    level: str = "info",
    **data: Any,
) -> None:
    """Append a decision to the event log and emit its structured log line."""
    event = event_row(
        kind,
        at=at,
        conversation_id=conversation_id,
        instance_id=instance_id,
        app_session_id=app_session_id,
        operation_id=operation_id,
        source_tool_call_id=source_tool_call_id,
        **data,
    )
    write_event(event, level=level)


def write_event(event: LifecycleEvent, *, level: str = "info") -> None:
    """Write an ``event_row`` with the decision's events (at once outside one) and announce it."""
    pending = note(connection, "events")
    if pending is not None and in_transaction(connection) and savepoint_depth(connection) == pending[1]:
        pending[0].append(event)
    else:
        event.save(force_insert=True)
    announce_event(event, level=level)


def event_row(
    kind: str,
    *,
    at: datetime,
    conversation_id: uuid.UUID | str | None = None,
    instance_id: uuid.UUID | str | None = None,
    app_session_id: uuid.UUID | str | None = None,
    operation_id: uuid.UUID | str | None = None,
    source_tool_call_id: str = "",
    **data: Any,
) -> LifecycleEvent:
    """The event-log row of a decision, not yet written (for a caller that writes it in SQL)."""
    return LifecycleEvent(
        kind=kind,
        at=at,
        data=_plain(data),
        conversation_id=conversation_id,
        instance_id=instance_id,
        app_session_id=app_session_id,
        operation_id=operation_id,
        source_tool_call_id=source_tool_call_id,
    )


def announce_event(event: LifecycleEvent, *, level: str = "info") -> None:
    """The structured log line (and metrics) of an event-log row written in this transaction,
    sent once it commits (at once outside a transaction)."""
    announce_events([event], level=level)


_ID_FIELDS = ("conversation_id", "instance_id", "app_session_id", "operation_id", "source_tool_call_id")


class EventLine(NamedTuple):
    """What a log line says about an event-log row written in SQL (no model instance needed)."""

    kind: str
    conversation_id: uuid.UUID | None
    instance_id: uuid.UUID | None
    app_session_id: uuid.UUID | None
    operation_id: uuid.UUID | None
    source_tool_call_id: str
    data: dict[str, Any]


# More rows than this announced together (a sweep's or recovery's batch) log one line with counts
# instead of a line each; the metrics count each row as before.
BATCH_LINE_ABOVE = 32
# The events that settle an operation: their line and their count carry the settlement's ``path``.
SETTLEMENT_KINDS = frozenset({"operation.completed", "operation.interrupted"})


def announce_events(events: list[LifecycleEvent | EventLine], *, level: str = "info") -> None:
    """``announce_event`` for many rows, in order, with one on-commit hook (a batch settlement)."""
    via = metrics.settlement_path()  # what is deciding now; the hook below may run elsewhere
    log = getattr(logger, level)

    def emit() -> None:
        if len(events) > BATCH_LINE_ABOVE:
            # A batch settlement (sweep, recovery): one line with counts; each decision is its row.
            kinds = collections.Counter(event.kind for event in events)
            log("events.batch", count=len(events), kinds=dict(kinds), via=via)
        else:
            for event in events:
                line = {k: _plain(v) for k in _ID_FIELDS if (v := getattr(event, k))}
                if event.kind in SETTLEMENT_KINDS:  # the metrics' path label, under the same name
                    line["path"] = metrics.path_of(event.data.get("trigger") or "deadline", via=via)
                # A MiniApp's private details (a quiz's answer key) stay in the row, never in a log line.
                log(event.kind, **line, **redact_private(event.data))
        metrics.count_events([(e.kind, e.data) for e in events], via=via)  # once committed, like the line

    if in_transaction(connection):
        transaction.on_commit(emit)
    else:
        emit()


def event_data(**data: Any) -> dict[str, Any]:
    """``data`` as an event row stores it (JSON-plain), for SQL that writes the row itself."""
    return _plain(data)


def announce_written(kind: str, *, data: dict[str, Any], level: str = "info", **ids: Any) -> None:
    """The log line and count of one event whose row the decision's SQL wrote (``event_data``)."""
    line = EventLine(
        kind,
        ids.get("conversation_id"),
        ids.get("instance_id"),
        ids.get("app_session_id"),
        ids.get("operation_id"),
        ids.get("source_tool_call_id") or "",
        data,
    )
    announce_events([line], level=level)


def take_pending_events() -> list[LifecycleEvent]:
    """The events this decision recorded so far and has not written, for a caller that writes
    them in its own statement (in order, before its own); empty inside a nested savepoint."""
    pending = note(connection, "events")
    if pending is None or not in_transaction(connection) or savepoint_depth(connection) != pending[1]:
        return []
    taken = list(pending[0])
    pending[0].clear()
    return taken


def uuid_or_none(value: object) -> uuid.UUID | None:
    """``value`` as a UUID, or None when it is not one (rejected input may hold anything)."""
    if value is None:
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def records_rejection(kind: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Record a ``Rejection`` raised by a transactional service *after* its rollback.

    Inside the deciding transaction the event row would be rolled back with everything else and its
    log line never sent; out here it stays. The service's ``now``, ``conversation_id`` and
    ``instance_id`` keyword arguments name the event.
    """

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(service)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return service(*args, **kwargs)
            except Rejection as rejection:
                record_event(
                    kind,
                    at=kwargs["now"],  # type: ignore[arg-type]
                    conversation_id=uuid_or_none(kwargs.get("conversation_id")),
                    instance_id=uuid_or_none(kwargs.get("instance_id")),
                    level="warning",
                    service=service.__name__,
                    code=rejection.code,
                    detail=rejection.detail,
                )
                raise

        return wrapper

    return decorate
