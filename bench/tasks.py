"""Bench-only Celery task: the floor of an eta task's lag (the worker loads it with ``--include``).

``noop_at`` does nothing but note when it started, so ``ran_at - eta`` is what Celery alone adds
between a task's eta and its execution on this broker, worker and machine. It must not import
``bench.common`` (which would point the worker at the bench's default services).
"""

from __future__ import annotations

import functools
import json
import time

import redis
from celery import shared_task
from django.conf import settings


@functools.cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@shared_task(name="bench.tasks.noop_at", ignore_result=True)
def noop_at(key: str, eta: float) -> None:
    """Record (eta, start time) in the Redis list ``key``; ``eta`` is a POSIX time."""
    ran_at = time.time()
    _redis().rpush(key, json.dumps({"eta": eta, "ran_at": ran_at}))
