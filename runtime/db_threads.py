"""The database threads of an ASGI process: where its sockets' synchronous work runs.

Channels' ``database_sync_to_async`` is thread-sensitive: every call of a Daphne process runs on
one shared thread, so a frame's decision queues behind every other connection's (six busy
conversations made a start wait ~120 ms p50). ``run_db`` runs the call on a small fixed pool
instead (``LINEUP_DB_THREADS``, default 4): each thread keeps its own Django connection (they are
thread-local), closed when old or broken before and after each call as Channels does, but with
no health check round trip: a call whose first statement finds its connection dead runs once more
on a new one (``_in_thread``).

Bounded: at most ``LINEUP_DB_THREADS`` calls run at once; the others wait on a semaphore, never
in an unbounded executor queue. A consumer handles one message at a time, so the waiters are at
most a few per open connection (its frame or hint, its redelivery round, its heartbeat), and the
doors bound the connections (lineup/doors/). One connection's frames keep their arrival order:
the consumer awaits each before it reads the next.

The caller's context variables (the held after-commit sends of ``answer_first``, the trace, the
log context) reach the call, as with ``database_sync_to_async``; changes it makes to them do not
come back (nothing relies on that). SQLite (the embedded default) keeps Channels' single thread:
one writer is all it has, and an in-memory test database is per connection; so does
``LINEUP_DB_THREADS=0``.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

from runtime.internals.django_db import first_execute_wrapper, skip_health_check

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_executors: dict[int, ThreadPoolExecutor] = {}  # by size: one in a process, unless a test changes it
_slots: dict[tuple[asyncio.AbstractEventLoop, int], asyncio.Semaphore] = {}


def pool_size() -> int:
    """Threads of the pool; 0 when calls go to Channels' single database thread instead."""
    # The engine from the settings, not ``connection.vendor``: on the event loop Django's connections
    # are per task (asgiref's Local), so reading it built a throw-away DatabaseWrapper, with helpers
    # in reference cycles for the collector, per /mcp/ request and per token look-up.
    if "sqlite" in settings.DATABASES["default"]["ENGINE"]:
        return 0
    return max(0, int(getattr(settings, "LINEUP_DB_THREADS", 4)))


def _pool(size: int) -> ThreadPoolExecutor:
    with _lock:
        executor = _executors.get(size)
        if executor is None:
            executor = _executors[size] = ThreadPoolExecutor(max_workers=size, thread_name_prefix="lineup-db")
        return executor


def _slots_of(loop: asyncio.AbstractEventLoop, size: int) -> asyncio.Semaphore:
    slots = _slots.get((loop, size))
    if slots is None:
        slots = _slots[(loop, size)] = asyncio.Semaphore(size)
    return slots


class _FirstStatement:
    """An execute wrapper that notes whether the call's first statement failed for want of a
    connection: then the server ran nothing of the call (a transaction's BEGIN goes with it)."""

    def __init__(self) -> None:
        self.seen = False
        self.connection_lost = False

    def __call__(self, execute, sql, params, many, context):
        first, self.seen = not self.seen, True
        try:
            return execute(sql, params, many, context)
        except (OperationalError, InterfaceError):
            self.connection_lost = first
            raise


def _in_thread(func: Callable[..., R], args: tuple, kwargs: dict) -> R:
    # No health check (a ``SELECT 1`` round trip before each call's first statement, ~1 of every
    # 3 statements a socket made): the first statement is the check. If it finds the connection
    # dead (a PostgreSQL restart, a cut), nothing of the call reached the server, so the call runs
    # once more on a new connection (tests/reliability/test_database_restart.py, decision 0036).
    close_old_connections()
    skip_health_check(connection)
    first = _FirstStatement()
    try:
        with first_execute_wrapper(connection, first):
            return func(*args, **kwargs)
    except (OperationalError, InterfaceError):
        if not first.connection_lost:
            raise
        connection.close()
    finally:
        close_old_connections()
    close_old_connections()
    skip_health_check(connection)
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


async def run_db(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``func(*args, **kwargs)`` on a database thread, awaited without blocking the event loop."""
    size = pool_size()
    if size == 0:
        return await database_sync_to_async(func)(*args, **kwargs)
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    async with _slots_of(loop, size):
        return await loop.run_in_executor(_pool(size), functools.partial(context.run, _in_thread, func, args, kwargs))
