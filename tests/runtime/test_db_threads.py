"""The sockets' database threads (runtime.db_threads): calls of different connections run at once,
each thread on its own PostgreSQL connection, never more at once than ``LINEUP_DB_THREADS``, with
the caller's context; ``LINEUP_DB_THREADS=0`` keeps Channels' single thread (docs/decisions/0032)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction

from runtime.db_threads import pool_size, run_db
from runtime.internals.django_db import add_execute_wrapper, execute_wrappers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.spec("R-2.2.3", "R-2.2.8")]

WAIT = 30.0  # generous: a barrier that is never reached fails the test, it does not hang it

marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="unset")


def _meet(barrier: threading.Barrier) -> tuple[str, int, str]:
    """Wait for the other calls on their own threads, then name this thread, its backend and the context."""
    barrier.wait(WAIT)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    return threading.current_thread().name, backend, marker.get()


async def _gather_meetings(parties: int) -> list[tuple[str, int, str]]:
    barrier = threading.Barrier(parties)
    marker.set("from-the-frame")
    return await asyncio.gather(*(run_db(_meet, barrier) for _ in range(parties)))


def test_calls_of_different_connections_run_at_once_on_their_own_connections(settings):
    """Three calls meet at a barrier: only possible when they run on three threads at once (on
    Channels' single thread the first would wait forever); each has its own backend and sees the
    caller's context variables."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps Channels' single database thread")
    settings.LINEUP_DB_THREADS = 3
    met = asyncio.run(_gather_meetings(3))
    assert {name.startswith("lineup-db") for name, _, _ in met} == {True}
    assert len({backend for _, backend, _ in met}) == 3
    assert {seen for _, _, seen in met} == {"from-the-frame"}


def test_no_more_calls_run_at_once_than_the_pool_has_threads(settings):
    """Six calls on two threads: at most two are ever inside at once, and all finish."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps Channels' single database thread")
    settings.LINEUP_DB_THREADS = 2
    inside, most = 0, 0
    lock = threading.Lock()
    pair = threading.Barrier(2)

    def call() -> None:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        pair.wait(WAIT)  # two at a time meet here; a third inside would break the pairs
        with lock:
            inside -= 1

    async def main() -> None:
        await asyncio.gather(*(run_db(call) for _ in range(6)))

    asyncio.run(main())
    assert most == 2


def test_zero_threads_keeps_channels_single_thread(settings):
    settings.LINEUP_DB_THREADS = 0

    async def main() -> str:
        return await run_db(lambda: threading.current_thread().name)

    assert not asyncio.run(main()).startswith("lineup-db")


def test_a_call_pays_no_health_check_and_outlives_a_terminated_connection(settings):
    """No ``SELECT 1`` before a call's statements; when the thread's connection was terminated
    (as by a PostgreSQL restart) the call's first statement finds out, and the call runs once more
    on a new connection and is answered. A connection lost after the first statement is not retried."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps Channels' single database thread")
    settings.LINEUP_DB_THREADS = 1
    checks: list[int] = []
    runs: list[int] = []

    def watch() -> None:
        usable = connection.is_usable
        connection.is_usable = lambda: checks.append(1) or usable()

    def backend() -> int:
        runs.append(1)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    def lose_it_midway() -> None:
        runs.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 2")
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    async def call(func):
        return await run_db(func)

    asyncio.run(call(watch))
    first = {asyncio.run(call(backend)) for _ in range(3)}
    assert len(first) == 1 and checks == [] and len(runs) == 3
    [pid] = first
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
    runs.clear()
    after = asyncio.run(call(backend))
    assert after != pid and len(runs) == 2 and checks == []

    runs.clear()
    with pytest.raises(OperationalError):
        asyncio.run(call(lose_it_midway))
    assert len(runs) == 1
    assert asyncio.run(call(backend)) not in {pid, after}


def test_a_wrapper_added_during_a_call_stays_and_the_call_leaves_none(settings):
    """A connection opened during a call may get execute wrappers of its own (the crash-point
    harness adds one on ``connection_created``): the call's first-statement watch must not take
    such a wrapper away with it, nor stay behind."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps Channels' single database thread")
    settings.LINEUP_DB_THREADS = 1

    def added(execute, sql, params, many, context):
        return execute(sql, params, many, context)

    def add() -> None:
        add_execute_wrapper(connection, added)

    def wrappers() -> list:
        return execute_wrappers(connection)

    async def call(func):
        return await run_db(func)

    asyncio.run(call(add))
    assert len(asyncio.run(call(wrappers))) == 2  # this call's watch and the one added
    assert asyncio.run(call(wrappers))[1:] == [added]
    asyncio.run(call(lambda: connection.execute_wrappers.remove(added)))


def test_the_pool_size_is_read_without_building_a_connection(settings):
    """``pool_size`` runs on the event loop for every call; Django's connections there are per task,
    so reading ``connection.vendor`` built a DatabaseWrapper (and its helpers, in reference cycles)
    per /mcp/ request and per token look-up, garbage for the collector's full passes (decision 0059).
    In a fresh thread's tasks, as on Daphne's loop: no connection is initialised by asking."""
    settings.LINEUP_DB_THREADS = 3
    seen: list[tuple[int, list[str]]] = []

    async def one() -> tuple[int, list[str]]:
        size = pool_size()
        return size, [c.alias for c in connections.all(initialized_only=True)]

    async def many() -> list[tuple[int, list[str]]]:
        return await asyncio.gather(*(one() for _ in range(5)))

    thread = threading.Thread(target=lambda: seen.extend(asyncio.run(many())))
    thread.start()
    thread.join(WAIT)
    expected = 0 if connection.vendor == "sqlite" else 3
    assert seen == [(expected, [])] * 5
