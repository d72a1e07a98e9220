"""Getting ``settle_operation`` / ``settle_due`` called when deadlines pass.

The persisted ``ends_at`` is the truth and settlement is idempotent, so everything here is only
a wake-up call, safe to lose or repeat:

* ``celery`` — on commit of a start, a Celery task with ``eta=ends_at`` (when within the
  broker's redelivery horizon); the beat sweep (``runtime.tasks.sweep_due``) catches anything a
  lost task, a crash between commit and enqueue, or a broker restart left behind.
* ``embedded`` — a thread in the ASGI process sleeps until the next ``ends_at`` (or a short poll
  interval, so writes from other processes are seen) and calls ``settle_due``; it runs recovery
  when it starts.
* ``none`` — nothing is scheduled (tests that drive the clock themselves).
"""

from __future__ import annotations

import threading
import uuid
from datetime import datetime, timedelta

import structlog
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

logger = structlog.get_logger("lineup.runtime")

EMBEDDED_POLL_SECONDS = 1.0  # bounds how late the embedded scheduler notices other processes' writes


def schedule_deadline_on_commit(operation_id: uuid.UUID, ends_at: datetime) -> None:
    """After the start commits, arrange for the deadline to be settled at ``ends_at``."""
    mode = settings.LINEUP_SCHEDULER
    if mode == "celery":
        transaction.on_commit(lambda: enqueue_eta(operation_id, ends_at))
    elif mode == "embedded":
        transaction.on_commit(embedded_scheduler.wake)


def enqueue_eta(operation_id: uuid.UUID, ends_at: datetime) -> None:
    """Send the eta task for ``ends_at`` now (outside a transaction: the row must be committed)."""
    from runtime.tasks import settle_operation_task

    if ends_at - timezone.now() > timedelta(seconds=settings.LINEUP_ETA_HORIZON_SECONDS):
        logger.info("deadline.left_to_sweep", operation_id=str(operation_id), ends_at=ends_at.isoformat())
        return
    try:
        settle_operation_task.apply_async(args=[str(operation_id)], eta=ends_at)
    except Exception:  # the broker is down: the beat sweep / recover_runtime settle it instead
        logger.warning("deadline.enqueue_failed", operation_id=str(operation_id), exc_info=True)


class EmbeddedScheduler:
    """One daemon thread per process that settles due operations in the embedded default."""

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="lineup-deadlines", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        from runtime.selectors import next_deadline
        from runtime.services.recovery import recover_runtime, sweep

        logger.info("scheduler.started", mode="embedded")
        try:
            summary = recover_runtime(now=timezone.now())
            logger.info("scheduler.recovered", **summary.counts())
        except Exception:
            logger.exception("scheduler.recovery_failed")
        while not self._stop.is_set():
            try:
                close_old_connections()
                sweep(now=timezone.now())
                upcoming = next_deadline()
            except Exception:
                logger.exception("scheduler.sweep_failed")
                upcoming = None
            wait = EMBEDDED_POLL_SECONDS
            if upcoming is not None:
                wait = max(0.0, min(wait, (upcoming - timezone.now()).total_seconds()))
            self._wake.wait(wait)
            self._wake.clear()
        connection.close()
        logger.info("scheduler.stopped", mode="embedded")


embedded_scheduler = EmbeddedScheduler()


def start_embedded_scheduler_if_configured() -> None:
    if settings.LINEUP_SCHEDULER == "embedded":
        embedded_scheduler.start()
