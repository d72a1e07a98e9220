"""The outbox: final results waiting for the Agent's ack (SPEC R-2.2.8, R-4.2.7).

Entries are written by settlement in the deciding transaction; delivery is at least once (every
attempt is counted), the Agent dedupes by ``outbox_id`` and acks, and an ack is final.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import transaction
from django.db.models import F

from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.models import OutboxEntry


def mark_delivery_attempt(*, outbox_id: uuid.UUID | str, now: datetime) -> None:
    """Count one (re)delivery of an unacked entry."""
    OutboxEntry.objects.filter(pk=outbox_id, acked_at__isnull=True).update(
        attempts=F("attempts") + 1, last_attempt_at=now
    )


@transaction.atomic(durable=True)
def ack_outbox_entry(
    *, outbox_id: uuid.UUID | str, conversation_ids: list[uuid.UUID] | list[str], now: datetime
) -> bool:
    """Ack an entry of one of ``conversation_ids``; returns False when it was already acked."""
    entry = OutboxEntry.objects.select_for_update().filter(pk=outbox_id, conversation_id__in=conversation_ids).first()
    if entry is None:
        raise Rejection(RejectionCode.FORBIDDEN, "no such outbox entry for this Agent")
    if entry.acked_at is not None:
        return False
    entry.acked_at = now
    entry.save(update_fields=["acked_at"])
    record_event(
        "outbox.acked",
        at=now,
        conversation_id=entry.conversation_id,
        operation_id=entry.operation_id,
        source_tool_call_id=entry.payload.get("source_tool_call_id", ""),
        outbox_id=entry.id,
        attempts=entry.attempts,
    )
    return True
