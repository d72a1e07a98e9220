"""Reads of Runtime state. Services write; consumers, views and commands read through here."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db.models import Min

from runtime.models import AppInstance, Operation, OutboxEntry, ToolCall
from runtime.transitions import LifecycleState, OperationState


def find_tool_call(*, conversation_id: uuid.UUID | str, source_tool_call_id: str) -> ToolCall | None:
    return (
        ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id)
        .select_related("operation", "operation__outbox_entry")
        .first()
    )


def focusing_operation(*, conversation_id: uuid.UUID | str) -> Operation | None:
    return Operation.objects.filter(conversation_id=conversation_id, state=OperationState.FOCUSING).first()


def latest_operation(*, conversation_id: uuid.UUID | str) -> Operation | None:
    return Operation.objects.filter(conversation_id=conversation_id).order_by("-started_at").first()


def next_deadline() -> datetime | None:
    return Operation.objects.filter(state=OperationState.FOCUSING).aggregate(m=Min("ends_at"))["m"]


def due_operation_ids(*, now: datetime, limit: int) -> list[uuid.UUID]:
    return list(
        Operation.objects.filter(state=OperationState.FOCUSING, ends_at__lte=now)
        .order_by("ends_at")
        .values_list("id", flat=True)[:limit]
    )


def running_operations(*, now: datetime) -> list[Operation]:
    return list(Operation.objects.filter(state=OperationState.FOCUSING, ends_at__gt=now).order_by("ends_at"))


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
