"""Reads of Runtime state. Services write; consumers, views and commands read through here."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Min, Prefetch, Q

from runtime.clock import isoformat
from runtime.internals.django_db import model_from_row
from runtime.manifests import get_manifest
from runtime.models import Agent, AgentToken, AppInstance, Conversation, Operation, OutboxEntry, ToolCall
from runtime.services.operation_views import operation_projection
from runtime.services.snapshots import encoded_size
from runtime.transitions import RUNNING_STATES, LifecycleState


def find_tool_call(*, conversation_id: uuid.UUID | str, source_tool_call_id: str) -> ToolCall | None:
    return (
        ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id)
        .select_related("operation", "operation__outbox_entry")
        .first()
    )


@functools.cache
def _conversation_select(vendor: str) -> tuple[str, list[str], list[tuple[Any, list[Any]]]]:
    """The constant SELECT of one conversation by id, its columns' attnames, and for each column
    the converters the ORM would run on it on ``vendor`` (none on PostgreSQL, whose driver gives
    uuid and datetime; text to uuid and datetime on SQLite)."""
    meta = Conversation._meta
    fields = list(meta.concrete_fields)
    sql = (
        "SELECT "
        + ", ".join(f'"{field.column}"' for field in fields)
        + f' FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s'
    )
    converters = []
    for field in fields:
        expression = field.get_col(meta.db_table)
        converters.append(
            (expression, connection.ops.get_db_converters(expression) + field.get_db_converters(connection))
        )
    return sql, [field.attname for field in fields], converters


def conversation_by_id(conversation_id: uuid.UUID) -> Conversation | None:
    """The conversation with ``conversation_id``, or None: one hand-written SELECT by primary key.

    What every Agent tool call reads first (the Tool Router's ``access_conversation``); the
    equivalent ``filter(pk=...).first()`` compiled its query anew each call (~0.6 ms of Python,
    two a start+interrupt pair), the statement itself is one index lookup."""
    sql, attnames, converters = _conversation_select(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [Conversation._meta.pk.get_db_prep_value(conversation_id, connection)])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for n, (expression, convert_all) in enumerate(converters):
        for convert in convert_all:
            values[n] = convert(values[n], expression, connection)
    return model_from_row(Conversation, connection, attnames, values)


def running_operation(*, conversation_id: uuid.UUID | str) -> Operation | None:
    return Operation.objects.filter(conversation_id=conversation_id, state__in=RUNNING_STATES).first()


def latest_operation(*, conversation_id: uuid.UUID | str) -> Operation | None:
    return Operation.objects.filter(conversation_id=conversation_id).order_by("-started_at").first()


def next_deadline() -> datetime | None:
    """When the sweep next has something to try: the earliest ``ends_at`` of a running operation
    that never failed, or the earliest retry of one that did. A flagged one waits for an operator,
    and a backed-off one for its retry, so neither makes the embedded scheduler spin."""
    running = Operation.objects.filter(state__in=RUNNING_STATES)
    first = running.filter(settle_failures=0).aggregate(m=Min("ends_at"))["m"]
    retry = running.filter(settle_failures__gt=0, settle_flagged_at__isnull=True).aggregate(
        m=Min("next_settle_attempt_at")
    )["m"]
    return min((t for t in (first, retry) if t is not None), default=None)


def due_operation_ids(*, now: datetime, limit: int) -> list[uuid.UUID]:
    """Every running operation past its ``ends_at``, flagged and backed-off ones included."""
    return list(
        Operation.objects.filter(state__in=RUNNING_STATES, ends_at__lte=now)
        .order_by("ends_at")
        .values_list("id", flat=True)[:limit]
    )


DueKey = tuple[datetime, uuid.UUID]


def settleable_operation_keys(
    *, now: datetime, limit: int, after: DueKey | None = None, retry_flagged: bool = False
) -> list[DueKey]:
    """The next page of due operations to try, as ``(ends_at, id)``, oldest deadline first.

    A keyset page (after ``after``) rather than "the first ``limit`` still running": an operation
    whose settlement fails stays running, and must not come back within one sweep. Operations that
    failed before are tried once their backoff has passed and never once flagged, unless
    ``retry_flagged`` (an operator's explicit retry: every due one, now). Uses the partial index
    ``running_by_ends_at``; the rows it filters out are the few failed ones.
    """
    due = Operation.objects.filter(state__in=RUNNING_STATES, ends_at__lte=now)
    if not retry_flagged:
        due = due.filter(Q(settle_failures=0) | Q(settle_flagged_at__isnull=True, next_settle_attempt_at__lte=now))
    if after is not None:
        ends_at, op_id = after
        # ends_at >= bounds the index scan; the OR only sorts out ties on ends_at.
        due = due.filter(Q(ends_at__gt=ends_at) | Q(ends_at=ends_at, id__gt=op_id), ends_at__gte=ends_at)
    return list(due.order_by("ends_at", "id").values_list("ends_at", "id")[:limit])


def flagged_operations() -> list[Operation]:
    """Running operations whose settlement failed ``LINEUP_SETTLE_MAX_FAILURES`` times."""
    return list(
        Operation.objects.filter(
            state__in=RUNNING_STATES, settle_failures__gt=0, settle_flagged_at__isnull=False
        ).order_by("settle_flagged_at", "id")
    )


def flagged_operation_count() -> int:
    return Operation.objects.filter(
        state__in=RUNNING_STATES, settle_failures__gt=0, settle_flagged_at__isnull=False
    ).count()


def running_operations(*, now: datetime, until: datetime | None = None) -> list[tuple[uuid.UUID, datetime]]:
    """``(id, ends_at)`` of every running operation not yet due (due by ``until``, if given)."""
    running = Operation.objects.filter(state__in=RUNNING_STATES, ends_at__gt=now)
    if until is not None:
        running = running.filter(ends_at__lte=until)
    return list(running.order_by("ends_at", "id").values_list("id", "ends_at"))


def open_instances(*, conversation_id: uuid.UUID | str) -> list[AppInstance]:
    return list(
        AppInstance.objects.filter(conversation_id=conversation_id)
        .exclude(lifecycle_state=LifecycleState.CLOSED)
        .order_by("-focus_seq")
    )


def due_outbox_page(
    *, agent_id: uuid.UUID | str, channel: str, due_by: datetime | None, limit: int
) -> list[OutboxEntry]:
    """One page of an Agent's unacked entries whose next attempt is due by ``due_by`` (any, if None).

    Ordered by next attempt, so the page is a range scan of ``outbox_due_by_agent``: its cost does
    not grow with the backlog. New entries are due at their creation, so they come before the
    backed-off ones.
    """
    entries = OutboxEntry.objects.filter(agent_id=agent_id, channel=channel, acked_at__isnull=True)
    if due_by is not None:
        entries = entries.filter(next_attempt_at__lte=due_by)
    return list(entries.order_by("next_attempt_at", "id")[:limit])


@dataclass(frozen=True)
class AgentSummary:
    """One Agent of a user as the Agents page shows it."""

    agent: Agent
    active_tokens: list[AgentToken]
    live_connections: int  # open /ws/agent/ connections, on any server process
    last_seen_at: datetime | None  # its last request (MCP), hello, heartbeat or close


def agents_of_user(*, user_id: int, now: datetime, window: timedelta) -> list[AgentSummary]:
    """The user's Agents, oldest first, with their active tokens and what the database says of their
    connections: rows refreshed within ``window`` are live (``runtime.services.agents.liveness_window``)."""
    agents = (
        Agent.objects.filter(user_id=user_id)
        .annotate(
            live=Count("connections", filter=Q(connections__seen_at__gte=now - window), distinct=True),
            connection_seen=Max("connections__seen_at", filter=Q(connections__seen_at__gte=now - window)),
            token_used=Max("tokens__last_used_at"),
        )
        .prefetch_related(
            Prefetch("tokens", queryset=AgentToken.objects.filter(revoked_at__isnull=True), to_attr="active")
        )
        .order_by("created_at")
    )
    return [
        AgentSummary(
            agent=agent,
            active_tokens=agent.active,
            live_connections=agent.live,
            last_seen_at=max((t for t in (agent.connection_seen, agent.token_used) if t is not None), default=None),
        )
        for agent in agents
    ]


def conversations_of_user(*, user_id: int) -> list[Conversation]:
    """The user's conversations, the default one first."""
    return list(Conversation.objects.filter(owner_id=user_id).order_by("-is_default", "created_at"))


def operations_dashboard(*, now: datetime) -> dict[str, int]:
    """The admin index's counts, in one query: running operations whose end time is ahead
    (``running``), those past it and not settled yet (``due``; normally seconds at most), and of
    those the ones flagged for an operator (``flagged``)."""
    running = Q(state__in=RUNNING_STATES)
    return Operation.objects.aggregate(
        running=Count("pk", filter=running & Q(ends_at__gt=now)),
        due=Count("pk", filter=running & Q(ends_at__lte=now)),
        flagged=Count("pk", filter=running & Q(settle_flagged_at__isnull=False)),
    )


# What an Agent may learn of its conversation (``what_runs``), bounded whatever the conversation holds.
WHAT_RUNS_MAX_INSTANCES = 16
WHAT_RUNS_MAX_OPERATIONS = 16
WHAT_RUNS_RECENTLY_ENDED = 8
# Bytes of readable state in one answer (past it, states are left out): with 16 instances' and 16
# operations' ids and times, an answer stays within the 64 KiB a socket client is told frames are.
WHAT_RUNS_STATE_BUDGET = 40 * 1024


def what_runs(*, conversation_id: uuid.UUID | str) -> dict[str, Any]:
    """The open app instances and running operations of a conversation, as an Agent may read them.

    Each instance carries only the top-level state fields its manifest lists in
    ``instance_state.agent_readable`` (none unless declared); each operation its projection (the
    Runtime's ids and times and the app's own fields, which the Surface is shown too): never the
    operation's details, which may be private (a quiz's answer key). At most 16 of each (the most
    recently focused first), and at most 40 KiB of state: what is left out is said
    (``truncated``, ``state_omitted``), never silently dropped.
    """
    open_now = (
        AppInstance.objects.filter(conversation_id=conversation_id, is_system=False)
        .exclude(lifecycle_state=LifecycleState.CLOSED)
        .select_related("snapshot", "app_session")
        .order_by("-focus_seq", "-opened_at")
    )
    rows = list(open_now[: WHAT_RUNS_MAX_INSTANCES + 1])
    running = list(
        Operation.objects.filter(conversation_id=conversation_id, state__in=RUNNING_STATES)
        .select_related("tool_call")
        .order_by("-started_at")[: WHAT_RUNS_MAX_OPERATIONS + 1]
    )
    budget = WHAT_RUNS_STATE_BUDGET
    instances = []
    for row in rows[:WHAT_RUNS_MAX_INSTANCES]:
        item, budget = _instance_view(row, budget)
        instances.append(item)
    # The last few that ended: an Agent that was down when one ended can still say what it was for
    # (its result names no activity, topic or title: those are the app's own projected fields).
    ended = (
        Operation.objects.filter(conversation_id=conversation_id)
        .exclude(state__in=RUNNING_STATES)
        .select_related("tool_call")
        .order_by("-started_at")[:WHAT_RUNS_RECENTLY_ENDED]
    )
    return {
        "conversation_id": str(conversation_id),
        "instances": instances,
        "operations": [_agent_view(op) for op in running[:WHAT_RUNS_MAX_OPERATIONS]],
        "recently_ended": [_agent_view(op) for op in ended],
        "truncated": len(rows) > WHAT_RUNS_MAX_INSTANCES or len(running) > WHAT_RUNS_MAX_OPERATIONS,
    }


def _instance_view(row: AppInstance, budget: int) -> tuple[dict[str, Any], int]:
    """One open instance as ``what_runs`` shows it, its readable state within what is left of
    the state ``budget``; the view and the budget left."""
    manifest = get_manifest(row.app_id)
    item: dict[str, Any] = {
        "instance_id": str(row.id),
        "app_id": row.app_id,
        "app_name": manifest.name if manifest else row.app_id,
        "lifecycle_state": row.lifecycle_state,
        "opened_at": isoformat(row.opened_at),
    }
    # Read with the instance (select_related); an app without one has None here, never a query.
    session = getattr(row, "app_session", None)
    if session is not None:
        item["app_session_id"] = str(session.id)
    readable = manifest.instance_state.agent_readable if manifest and manifest.instance_state else ()
    snapshot = getattr(row, "snapshot", None)  # none for an app without app.instance-state.v1
    if readable and snapshot is not None:
        state = {k: v for k, v in (snapshot.state or {}).items() if k in readable}
        size = encoded_size(state)
        item["revision"] = snapshot.revision
        if size <= budget:
            item["state"], budget = state, budget - size
        else:
            item["state_omitted"] = True
    return item, budget


def _agent_view(operation: Operation) -> dict[str, Any]:
    return {**operation_projection(operation), "app_id": operation.app_id, "tool": operation.tool_call.tool}
