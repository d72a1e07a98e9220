"""Sweeps and recovery: settling whatever is due, resuming whatever is not (SPEC §4.4).

``settle_due`` is what the beat sweep and the embedded scheduler run; ``recover_runtime`` is
what a process runs when it starts (and operators run with ``manage.py recover_runtime``). Both
go through ``settle_operation``, so they are safe to run concurrently and repeatedly: a due
operation settles once, ``completed`` at its ``ends_at``; a running one keeps its ``ends_at`` —
a restart never restarts the full duration.

After a long outage recovery can face many due operations (tens of thousands); each settles in
its own transaction, so ``workers`` threads settle disjoint slices of a batch side by side (each
due operation is in its own conversation, so they never wait on each other's workspace lock),
and every batch logs ``recovery.progress`` so an operator can see how far it is and how fast it goes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

import structlog
from django.db import connection, transaction

from runtime.clock import isoformat
from runtime.deadlines import schedule_deadline_on_commit
from runtime.events import record_event
from runtime.extensions import sweepers
from runtime.models import AppInstance, OutboxEntry
from runtime.selectors import due_operation_ids, running_operations
from runtime.services.focus import SettleOutcome, settle_operation
from runtime.transitions import Trigger

logger = structlog.get_logger("lineup.recovery")

SWEEP_BATCH = 500


@dataclass
class SweepSummary:
    settled: list[uuid.UUID] = field(default_factory=list)
    already_final: int = 0
    swept: dict[str, int] = field(default_factory=dict)  # per registered sweeper (runtime.extensions)


def settle_due(
    *,
    now: datetime,
    batch: int = SWEEP_BATCH,
    workers: int = 1,
    on_batch: Callable[[SweepSummary], None] | None = None,
) -> SweepSummary:
    """Settle every operation whose ``ends_at`` is at or before ``now``.

    ``workers`` > 1 settles each batch in that many threads, each on its own database connection
    (closed when its slice is done). ``on_batch`` is called with the running summary after each batch.
    """
    summary = SweepSummary()
    while True:
        ids = due_operation_ids(now=now, limit=batch)
        if not ids:
            return summary
        for outcome in _settle_each(ids, now=now, workers=workers):
            if outcome.settled:
                summary.settled.append(outcome.operation_id)
            else:
                summary.already_final += 1
        if on_batch is not None:
            on_batch(summary)
        if len(ids) < batch:
            return summary


def _settle_each(ids: list[uuid.UUID], *, now: datetime, workers: int) -> list[SettleOutcome]:
    if workers <= 1 or len(ids) == 1:
        return [settle_operation(operation_id=op_id, trigger=Trigger.DEADLINE, now=now) for op_id in ids]
    slices = [ids[k::workers] for k in range(min(workers, len(ids)))]
    with ThreadPoolExecutor(max_workers=len(slices), thread_name_prefix="recovery") as pool:
        return [outcome for part in pool.map(lambda part: _settle_slice(part, now), slices) for outcome in part]


def _settle_slice(ids: list[uuid.UUID], now: datetime) -> list[SettleOutcome]:
    try:
        return [settle_operation(operation_id=op_id, trigger=Trigger.DEADLINE, now=now) for op_id in ids]
    finally:
        connection.close()  # Django opened this thread's own connection; nothing else would close it


def sweep(*, now: datetime) -> SweepSummary:
    """One periodic sweep: settle due deadlines, then run every registered sweeper.

    A sweeper that raises is logged and skipped for this round; it must not hold up deadlines.
    """
    summary = settle_due(now=now)
    for name, sweeper in sweepers().items():
        try:
            summary.swept[name] = sweeper(now)
        except Exception:
            logger.exception("sweep.sweeper_failed", sweeper=name)
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


def recover_runtime(*, now: datetime, dry_run: bool = False, workers: int = 1) -> RecoverySummary:
    """Settle what is due, re-arm the deadlines of what is still running, report the outbox."""
    summary = RecoverySummary(dry_run=dry_run)
    summary.due = [{"operation_id": str(op_id)} for op_id in due_operation_ids(now=now, limit=10**9)]
    if not dry_run:
        summary.settled = settle_due(
            now=now, workers=workers, on_batch=_progress_logger(total=len(summary.due), workers=workers)
        ).settled
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


def _progress_logger(*, total: int, workers: int) -> Callable[[SweepSummary], None]:
    started = time.monotonic()

    def log_progress(summary: SweepSummary) -> None:
        done = len(summary.settled) + summary.already_final
        elapsed = time.monotonic() - started
        rate = done / elapsed if elapsed > 0 else 0.0
        logger.info(
            "recovery.progress",
            done=done,
            due=total,
            settled=len(summary.settled),
            already_final=summary.already_final,
            per_second=round(rate, 1),
            remaining_seconds=round((total - done) / rate) if rate and total > done else 0,
            workers=workers,
        )

    return log_progress


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
