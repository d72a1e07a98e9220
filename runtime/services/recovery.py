"""Sweeps and recovery: settling whatever is due, resuming whatever is not (SPEC §4.4).

``settle_due`` is what the beat sweep and the embedded scheduler run; ``recover_runtime`` is
what a process runs when it starts (and operators run with ``manage.py recover_runtime``). Both
settle through the same rule and the same writes as ``settle_operation``, so they are safe to run
concurrently and repeatedly: a due operation settles once, ``completed`` at its ``ends_at``; a
running one keeps its ``ends_at`` — a restart never restarts the full duration.

Set-based (decision 0015): due operations settle in batches, one transaction per batch
(``settle_due_batch``: one statement per table for the whole batch). Workspaces another process
holds are skipped (``SKIP LOCKED``), so sweeps on several processes share the work instead of
queueing behind each other. ``workers`` threads settle disjoint slices side by side, and every
batch logs ``recovery.progress`` so an operator can see how far it is and how fast it goes.
Resuming the running operations is one statement and one summary event, whatever their number.

Poison isolation (decision 0011): a batch that raises is rolled back and retried one operation at
a time (each ``settle_operation`` its own transaction), so one poisoned row holds up nothing but
itself and the sweep goes on. ``settle_isolated`` then
counts the failure on the operation in a transaction of its own, logs ``settlement.failed`` with its
ids, and sets the next attempt after a doubling backoff; after ``LINEUP_SETTLE_MAX_FAILURES`` the
operation is flagged (``settlement.flagged``). The beat sweep and the embedded scheduler's periodic
sweep retry a failed one once its backoff has passed and never a flagged one; ``recover_runtime``
and the admin's settle action are explicit retries: they try every due operation, flagged or not.
"""

from __future__ import annotations

import contextvars
import time
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import structlog
from django.conf import settings
from django.db import connection, transaction

from runtime import metrics
from runtime.clock import isoformat
from runtime.deadlines import schedule_deadline_on_commit
from runtime.events import decision, record_event
from runtime.extensions import sweepers
from runtime.models import AppInstance, Operation, OutboxEntry
from runtime.selectors import (
    DueKey,
    due_operation_ids,
    flagged_operation_count,
    flagged_operations,
    running_operations,
    settleable_operation_keys,
)
from runtime.services.settlements import SettleOutcome, settle_due_batch, settle_operation
from runtime.transitions import RUNNING_STATES, Trigger

logger = structlog.get_logger("lineup.recovery")

SWEEP_BATCH = 500


@dataclass(frozen=True)
class SettleFailure:
    """A settlement that raised and was rolled back; ``attempt`` is None when even counting it failed."""

    operation_id: uuid.UUID
    error: str
    attempt: int | None = None
    next_attempt_at: datetime | None = None
    flagged: bool = False

    def as_dict(self) -> dict:
        return {
            "operation_id": str(self.operation_id),
            "attempt": self.attempt,
            "error": self.error,
            "next_attempt_at": isoformat(self.next_attempt_at) if self.next_attempt_at else None,
            "flagged": self.flagged,
        }


@dataclass
class SweepSummary:
    settled: list[uuid.UUID] = field(default_factory=list)
    already_final: int = 0
    failed: list[SettleFailure] = field(default_factory=list)
    flagged: int = 0  # running operations left flagged for an operator after this sweep
    swept: dict[str, int] = field(default_factory=dict)  # per registered sweeper (runtime.extensions)


def settle_isolated(*, operation_id: uuid.UUID | str, now: datetime) -> SettleOutcome | SettleFailure:
    """``settle_operation`` (trigger ``deadline``) with the failure counted instead of raised.

    ``settle_operation`` alone decides the terminal state; when it raises its transaction is already
    rolled back, and the failure is written in a new one. ``Operation.DoesNotExist`` (the row went
    with its conversation) is raised: there is nothing left to settle or to count.
    """
    try:
        return settle_operation(operation_id=operation_id, trigger=Trigger.DEADLINE, now=now)
    except Operation.DoesNotExist:
        raise
    except Exception as error:
        return _count_failure(uuid.UUID(str(operation_id)), error, now=now)


def _count_failure(operation_id: uuid.UUID, error: Exception, *, now: datetime) -> SettleFailure:
    summary = "".join(traceback.format_exception_only(error)).strip()[:2000]
    try:
        return _record_settle_failure(operation_id, summary, "".join(traceback.format_exception(error)), now=now)
    except Exception:
        # The database may be what failed; the sweep still goes on, and the row (uncounted)
        # stays due for the next one.
        logger.exception("settlement.failure_not_recorded", operation_id=str(operation_id), error=summary)
        return SettleFailure(operation_id=operation_id, error=summary)


@transaction.atomic(durable=True)
def _record_settle_failure(operation_id: uuid.UUID, summary: str, detail: str, *, now: datetime) -> SettleFailure:
    # Only the operation row is locked, never the workspace: this holds nothing a settlement
    # could be waiting for, so it can not deadlock with one.
    row = (
        Operation.objects.select_for_update()
        .filter(pk=operation_id, state__in=RUNNING_STATES)
        .values("conversation_id", "settle_failures", "settle_flagged_at")
        .first()
    )
    if row is None:  # settled (or gone) since it failed: nothing to retry
        logger.warning("settlement.failed", operation_id=str(operation_id), error=summary, attempt=None)
        return SettleFailure(operation_id=operation_id, error=summary)
    attempt = row["settle_failures"] + 1
    delay = min(settings.LINEUP_SETTLE_BACKOFF_SECONDS * 2 ** (attempt - 1), settings.LINEUP_SETTLE_BACKOFF_MAX_SECONDS)
    next_attempt_at = now + timedelta(seconds=delay)
    newly_flagged = row["settle_flagged_at"] is None and attempt >= settings.LINEUP_SETTLE_MAX_FAILURES
    Operation.objects.filter(pk=operation_id).update(
        settle_failures=attempt,
        next_settle_attempt_at=next_attempt_at,
        # The exception first (what the admin and recover_runtime show), then its traceback.
        last_settle_error=f"{summary}\n\n{detail[-8000:]}",
        settle_flagged_at=now if newly_flagged else row["settle_flagged_at"],
    )
    flagged = newly_flagged or row["settle_flagged_at"] is not None
    ids = {"conversation_id": row["conversation_id"], "operation_id": operation_id}
    record_event(
        "settlement.failed",
        at=now,
        level="error",
        attempt=attempt,
        error=summary,
        next_attempt_at=isoformat(next_attempt_at),
        flagged=flagged,
        **ids,
    )
    if newly_flagged:
        record_event("settlement.flagged", at=now, level="error", attempt=attempt, error=summary, **ids)
    return SettleFailure(
        operation_id=operation_id, error=summary, attempt=attempt, next_attempt_at=next_attempt_at, flagged=flagged
    )


def settle_due(
    *,
    now: datetime,
    batch: int = SWEEP_BATCH,
    workers: int = 1,
    on_batch: Callable[[SweepSummary], None] | None = None,
    retry_flagged: bool = False,
) -> SweepSummary:
    """Settle every operation whose ``ends_at`` is at or before ``now``, each on its own.

    One that fails is counted and backed off (see the module docstring) and the others settle
    anyway; each due operation is tried at most once per call. Operations that failed before are
    retried once their backoff has passed and never once flagged, unless ``retry_flagged`` (an
    explicit retry: every due operation, now). ``workers`` > 1 settles each batch in that many
    threads, each on its own database connection (closed when its slice is done). ``on_batch`` is
    called with the running summary after each batch.
    """
    summary = SweepSummary()
    after: DueKey | None = None
    while True:
        keys = settleable_operation_keys(now=now, limit=batch, after=after, retry_flagged=retry_flagged)
        if not keys:
            # Nothing (more) is due: no settlement transaction. The sweep runs every second, and
            # an empty one still opened a transaction (SQLite: took the write lock) for nothing.
            break
        decided = 0
        for outcome in _settle_each([op_id for _, op_id in keys], now=now, workers=workers):
            if isinstance(outcome, SettleFailure):
                summary.failed.append(outcome)
                decided += 1
            elif outcome is not None and outcome.settled:
                summary.settled.append(outcome.operation_id)
                decided += 1
        # The rest: already final, not due after all, deleted with their conversation, or held by
        # another decision right now (which settles them, or the next sweep does).
        summary.already_final += len(keys) - decided
        metrics.count_sweep_batch(metrics.settlement_path())
        if on_batch is not None:
            on_batch(summary)
        if len(keys) < batch:
            break
        after = keys[-1]
    summary.flagged = flagged_operation_count()
    return summary


def _settle_one(operation_id: uuid.UUID, now: datetime) -> SettleOutcome | SettleFailure | None:
    try:
        return settle_isolated(operation_id=operation_id, now=now)
    except Operation.DoesNotExist:  # deleted with its conversation since it was listed
        return None


def _settle_batch(ids: list[uuid.UUID], now: datetime) -> list[SettleOutcome | SettleFailure | None]:
    """One batch in one transaction; if it raises, each of its operations on its own."""
    try:
        return list(settle_due_batch(operation_ids=ids, now=now))
    except Exception as error:
        logger.warning(
            "settlement.batch_failed",
            size=len(ids),
            error="".join(traceback.format_exception_only(error)).strip()[:500],
        )
        return [_settle_one(op_id, now) for op_id in ids]


def _settle_each(ids: list[uuid.UUID], *, now: datetime, workers: int) -> list[SettleOutcome | SettleFailure | None]:
    if workers <= 1 or len(ids) <= 1:
        return _settle_batch(ids, now)
    slices = [ids[k::workers] for k in range(min(workers, len(ids)))]
    # Each thread in a copy of this context: settlements there are labelled like this one's (metrics).
    contexts = [contextvars.copy_context() for _ in slices]
    with ThreadPoolExecutor(max_workers=len(slices), thread_name_prefix="recovery") as pool:
        parts = pool.map(lambda context, part: context.run(_settle_slice, part, now), contexts, slices)
        return [outcome for part in parts for outcome in part]


def _settle_slice(ids: list[uuid.UUID], now: datetime) -> list[SettleOutcome | SettleFailure | None]:
    try:
        return _settle_batch(ids, now)
    finally:
        connection.close()  # Django opened this thread's own connection; nothing else would close it


def sweep(*, now: datetime) -> SweepSummary:
    """One periodic sweep: settle due deadlines, then run every registered sweeper.

    A sweeper that raises is logged and skipped for this round; it must not hold up deadlines.
    """
    metrics.count_sweep("sweep")
    with metrics.settling_via("sweep"):
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
    failed: list[dict] = field(default_factory=list)  # settlements that raised in this run
    flagged: list[dict] = field(default_factory=list)  # still running and flagged after this run

    def counts(self) -> dict[str, int | bool]:
        return {
            "dry_run": self.dry_run,
            "due": len(self.due),
            "settled": len(self.settled),
            "failed": len(self.failed),
            "flagged": len(self.flagged),
            "resumed": len(self.resumed),
            "unacked_outbox": self.unacked_outbox,
        }


def recover_runtime(*, now: datetime, dry_run: bool = False, workers: int = 1) -> RecoverySummary:
    """Settle what is due, re-arm the deadlines of what is still running, report the outbox.

    An explicit retry: flagged and backed-off operations are tried too. Those still flagged
    afterwards are listed in ``flagged`` (and counted in ``due``), never left out.
    """
    summary = RecoverySummary(dry_run=dry_run)
    summary.due = [{"operation_id": str(op_id)} for op_id in due_operation_ids(now=now, limit=10**9)]
    if not dry_run:
        metrics.count_sweep("recovery")
        with metrics.settling_via("recovery"):
            settled = settle_due(
                now=now,
                workers=workers,
                on_batch=_progress_logger(total=len(summary.due), workers=workers),
                retry_flagged=True,
            )
        summary.settled = settled.settled
        summary.failed = [failure.as_dict() for failure in settled.failed]
    summary.flagged = [_flagged_item(operation) for operation in flagged_operations()]
    summary.resumed = [
        {
            "operation_id": str(op_id),
            "ends_at": isoformat(ends_at),
            "remaining_seconds": round((ends_at - now).total_seconds(), 3),
        }
        for op_id, ends_at in running_operations(now=now)
    ]
    if not dry_run and summary.resumed:
        _resume_running(now=now, count=len(summary.resumed))
    summary.unacked_outbox = OutboxEntry.objects.filter(acked_at__isnull=True).count()
    if not dry_run:
        record_event("recovery.ran", at=now, **summary.counts())
    return summary


def _flagged_item(operation: Operation) -> dict:
    return {
        "operation_id": str(operation.id),
        "conversation_id": str(operation.conversation_id),
        "ends_at": isoformat(operation.ends_at),
        "settle_failures": operation.settle_failures,
        "flagged_at": isoformat(operation.settle_flagged_at),
        "last_error": operation.last_settle_error.partition("\n")[0][:500],
    }


def _progress_logger(*, total: int, workers: int) -> Callable[[SweepSummary], None]:
    started = time.monotonic()

    def log_progress(summary: SweepSummary) -> None:
        done = len(summary.settled) + summary.already_final + len(summary.failed)
        elapsed = time.monotonic() - started
        rate = done / elapsed if elapsed > 0 else 0.0
        logger.info(
            "recovery.progress",
            done=done,
            due=total,
            settled=len(summary.settled),
            already_final=summary.already_final,
            failed=len(summary.failed),
            per_second=round(rate, 1),
            remaining_seconds=round((total - done) / rate) if rate and total > done else 0,
            workers=workers,
        )

    return log_progress


@decision
def _resume_running(*, now: datetime, count: int) -> None:
    """Mark every instance whose operation is still running as restored, in one statement and one
    summary event, and re-arm the deadlines that fall within the eta horizon (the sweep takes
    the later ones when they come due)."""
    AppInstance.objects.filter(operation__state__in=RUNNING_STATES, operation__ends_at__gt=now).update(restored_at=now)
    horizon = now + timedelta(seconds=settings.LINEUP_ETA_HORIZON_SECONDS)
    rearmed = 0
    for op_id, ends_at in running_operations(now=now, until=horizon):
        schedule_deadline_on_commit(op_id, ends_at)
        rearmed += 1
    record_event("operations.resumed", at=now, count=count, rearmed=rearmed, horizon=isoformat(horizon))
