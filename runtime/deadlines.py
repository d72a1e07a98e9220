"""Deadline wake-ups: what the deciding services arrange when a deadline is armed.

The persisted ``ends_at`` is the truth and settlement is idempotent, so everything here is only
a wake-up call, safe to lose or repeat (docs/decisions/0005-deadlines-eta-sweep-recovery.md):

* ``celery`` — on commit of a start (after the answer to its caller: runtime.after_commit), the
  eta task ``runtime.tasks.settle_operation`` for ``ends_at`` (when within the broker's redelivery
  horizon); the beat sweep catches anything a lost task, a crash between commit and enqueue, or a
  broker restart left behind.
* ``embedded`` — on commit, the in-process runner (``runtime.embedded_scheduler``) is woken to
  recompute its next deadline.
* ``none`` — nothing is scheduled (tests that drive the clock themselves).

This module imports no service and no task: the eta task is sent by name, and the embedded
runner subscribes with ``add_wake_listener``, so the services that arm deadlines and the runners
that settle them depend on this module, never on each other.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import structlog
from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from runtime import metrics, tracing
from runtime.after_commit import hand_on_call

logger = structlog.get_logger("lineup.runtime")

SETTLE_OPERATION_TASK = "runtime.tasks.settle_operation"

_wake_listeners: list[Callable[[], None]] = []


def add_wake_listener(listener: Callable[[], None]) -> None:
    """Call ``listener`` after every commit that armed a deadline (embedded mode)."""
    if listener not in _wake_listeners:
        _wake_listeners.append(listener)


def schedule_deadline_on_commit(operation_id: uuid.UUID, ends_at: datetime) -> None:
    """After the deciding transaction commits, arrange for the deadline to be settled at ``ends_at``."""
    mode = settings.LINEUP_SCHEDULER
    if mode == "celery":
        # After the answer when there is one: a lost or late publish only leaves it to the sweep.
        # The trace is the deciding one's, taken now: the publish happens outside its span.
        headers = tracing.carrier()
        transaction.on_commit(lambda: hand_on_call(lambda: enqueue_eta(operation_id, ends_at, headers=headers)))
    elif mode == "embedded":
        transaction.on_commit(_wake)


def _wake() -> None:
    for listener in list(_wake_listeners):
        listener()


def enqueue_eta(operation_id: uuid.UUID, ends_at: datetime, *, headers: dict[str, str] | None = None) -> None:
    """Send the eta task for ``ends_at`` now (outside a transaction: the row must be committed);
    ``headers`` (a ``tracing.carrier()``) travel in its message, so the worker's span continues the trace."""
    if ends_at - timezone.now() > timedelta(seconds=settings.LINEUP_ETA_HORIZON_SECONDS):
        logger.info("deadline.left_to_sweep", operation_id=str(operation_id), ends_at=ends_at.isoformat())
        return
    try:
        current_app.send_task(SETTLE_OPERATION_TASK, args=[str(operation_id)], eta=ends_at, headers=headers or None)
    except Exception:  # the broker is down: the beat sweep / recover_runtime settle it instead
        logger.warning("deadline.enqueue_failed", operation_id=str(operation_id), exc_info=True)
    else:
        metrics.count_eta_published()
