"""Sweeps and recovery: settling whatever is due, resuming whatever is not (SPEC §4.4).

``settle_due`` is what the beat sweep and the embedded scheduler run; ``recover_runtime`` is
what a process runs when it starts (and operators run with ``manage.py recover_runtime``). Both
go through ``settle_operation``, so they are safe to run concurrently and repeatedly: a due
operation settles once, ``completed`` at its ``ends_at``; a running one keeps its ``ends_at`` —
a restart never restarts the full duration.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from runtime.clock import isoformat
from runtime.events import record_event
from runtime.models import AppInstance, OutboxEntry
from runtime.scheduler import schedule_deadline_on_commit
from runtime.selectors import due_operation_ids, running_operations
from runtime.services.focus import settle_operation
from runtime.transitions import Trigger

SWEEP_BATCH = 500


@dataclass
class SweepSummary:
    settled: list[uuid.UUID] = field(default_factory=list)
    already_final: int = 0
    interactions_timed_out: int = 0


def settle_due(*, now: datetime, batch: int = SWEEP_BATCH) -> SweepSummary:
    """Settle every operation whose ``ends_at`` is at or before ``now``."""
    summary = SweepSummary()
    while True:
        ids = due_operation_ids(now=now, limit=batch)
        if not ids:
            return summary
        for operation_id in ids:
            if settle_operation(operation_id=operation_id, trigger=Trigger.DEADLINE, now=now).settled:
                summary.settled.append(operation_id)
            else:
                summary.already_final += 1
        if len(ids) < batch:
            return summary


def sweep(*, now: datetime) -> SweepSummary:
    """One periodic sweep: settle due deadlines and time out expired Interact interactions."""
    from interact.services.interactions import expire_due_interactions

    summary = settle_due(now=now)
    summary.interactions_timed_out = expire_due_interactions(now=now)
    return summary


@dataclass
class RecoverySummary:
    dry_run: bool
    due: list[dict] = field(default_factory=list)
    settled: list[uuid.UUID] = field(default_factory=list)
    resumed: list[dict] = field(default_factory=list)
    unacked_outbox: int = 0

    def counts(self) -> dict[str, int | bool]:
        return {
            "dry_run": self.dry_run,
            "due": len(self.due),
            "settled": len(self.settled),
            "resumed": len(self.resumed),
            "unacked_outbox": self.unacked_outbox,
        }


def recover_runtime(*, now: datetime, dry_run: bool = False) -> RecoverySummary:
    """Settle what is due, re-arm the deadlines of what is still running, report the outbox."""
    summary = RecoverySummary(dry_run=dry_run)
    summary.due = [{"operation_id": str(op_id)} for op_id in due_operation_ids(now=now, limit=10**9)]
    if not dry_run:
        summary.settled = settle_due(now=now).settled
    for operation in running_operations(now=now):
        summary.resumed.append(
            {
                "operation_id": str(operation.id),
                "ends_at": isoformat(operation.ends_at),
                "remaining_seconds": round((operation.ends_at - now).total_seconds(), 3),
            }
        )
        if not dry_run:
            _resume(operation.id, operation.instance_id, operation.conversation_id, operation.ends_at, now=now)
    summary.unacked_outbox = OutboxEntry.objects.filter(acked_at__isnull=True).count()
    if not dry_run:
        record_event("recovery.ran", at=now, **summary.counts())
    return summary


@transaction.atomic(durable=True)
def _resume(
    operation_id: uuid.UUID, instance_id: uuid.UUID, conversation_id: uuid.UUID, ends_at: datetime, *, now: datetime
) -> None:
    AppInstance.objects.filter(pk=instance_id).update(restored_at=now)
    record_event(
        "operation.resumed",
        at=now,
        conversation_id=conversation_id,
        instance_id=instance_id,
        operation_id=operation_id,
        ends_at=isoformat(ends_at),
    )
    schedule_deadline_on_commit(operation_id, ends_at)
