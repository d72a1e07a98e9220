"""Celery tasks: thin wake-up calls into the settlement services (safe to run twice)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from runtime.services.focus import settle_operation
from runtime.services.recovery import settle_due
from runtime.transitions import Trigger


@shared_task(name="runtime.tasks.settle_operation", acks_late=True)
def settle_operation_task(operation_id: str) -> str:
    """The eta task scheduled for ``ends_at``; a duplicate or early delivery settles nothing."""
    outcome = settle_operation(operation_id=operation_id, trigger=Trigger.DEADLINE, now=timezone.now())
    return type(outcome.decision).__name__


@shared_task(name="runtime.tasks.sweep_due")
def sweep_due() -> int:
    """The beat sweep: settle everything due, whatever happened to its eta task."""
    return len(settle_due(now=timezone.now()).settled)
