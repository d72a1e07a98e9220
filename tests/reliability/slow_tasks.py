"""A test-only Celery task that runs for a while, so a test can restart Redis while it runs.

A worker loads it with ``--include tests.reliability.slow_tasks``; like the Runtime's tasks it is
acked late (``CELERY_TASK_ACKS_LATE``): after it returns, on the connection it arrived on.
"""

from __future__ import annotations

import time

from celery import shared_task


@shared_task(name="tests.reliability.slow_tasks.pause", ignore_result=True)
def pause(seconds: float, marker: str) -> str:
    """Sleep ``seconds``, then return ``marker`` (which the worker logs with the task's success)."""
    time.sleep(seconds)
    return marker
