"""The decision log: one append-only ``LifecycleEvent`` row and one JSON log line per decision.

Inside a transaction the row is written with the decision and the log line leaves on commit,
so the log never reports a decision that was rolled back. Outside a transaction (rejections,
which change nothing) both happen at once.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import structlog
from django.db import connection, transaction

from runtime.models import LifecycleEvent

logger = structlog.get_logger("lineup.runtime")


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
    ids = {
        "conversation_id": conversation_id,
        "instance_id": instance_id,
        "app_session_id": app_session_id,
        "operation_id": operation_id,
        "source_tool_call_id": source_tool_call_id,
    }
    data = _plain(data)
    LifecycleEvent.objects.create(kind=kind, at=at, data=data, **ids)
    line = {k: _plain(v) for k, v in ids.items() if v}

    def emit() -> None:
        getattr(logger, level)(kind, **line, **data)

    if connection.in_atomic_block:
        transaction.on_commit(emit)
    else:
        emit()
