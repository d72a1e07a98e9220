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


def unacked_outbox(*, conversation_ids: list[uuid.UUID] | list[str]) -> list[OutboxEntry]:
    return list(
        OutboxEntry.objects.filter(conversation_id__in=conversation_ids, acked_at__isnull=True).order_by("created_at")
    )
