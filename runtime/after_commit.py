"""What a committed decision hands on: channel-layer hints and deadline wake-ups, and when they leave.

Both are hints (the database is the truth: a lost hint costs a page a resync, a lost eta task costs
the beat sweep's interval), so neither may hold up the answer to the caller that asked:

* Inside ``answer_first()`` — the Agent socket, the workspace socket and the MCP endpoint wrap each
  request in it — what committed transactions hand on is held, and leaves in one background task
  after the request's answer was sent.
* Anywhere else (a Celery task, ``recover_runtime``, the embedded scheduler, an HTTP view) it leaves
  at commit, as before.

Channel-layer sends need an event loop, and channels_redis keeps one connection pool per loop: inside
an ASGI server they run on the server's own loop (``use_server_loop``, called by ``lineup.asgi``), so
a process has one pool; elsewhere on one long-lived loop thread per process, started on first use —
after a fork, too: a Celery worker's children each start their own. Before, every transaction outside
ASGI started an event loop and opened a Redis connection of its own (~5 ms each).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar

import structlog

from runtime import crashpoints

logger = structlog.get_logger("lineup.runtime")

Send = Callable[[], Awaitable[None]]

# A hint that can not be sent within this long is given up (logged): Redis is down or the loop is stuck.
SEND_TIMEOUT_SECONDS = 5.0

_held: ContextVar[list[Send] | None] = ContextVar("lineup_after_answer", default=None)
_background: set[asyncio.Task] = set()  # strong references: the loop keeps only weak ones


@contextlib.asynccontextmanager
async def answer_first() -> AsyncIterator[None]:
    """Hold what transactions committed inside hand on; send it after the block (the answer) ends.

    The held list reaches the worker threads of ``database_sync_to_async`` through the copied
    context, so the on-commit hooks that run there append to it.
    """
    held: list[Send] = []
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
        if held:
            task = asyncio.get_running_loop().create_task(_send_all(held))
            _background.add(task)
            task.add_done_callback(_background.discard)


async def _send_all(held: list[Send]) -> None:
    for send in held:
        try:
            await send()
        except Exception:  # a hint lost is harmless: the database is the truth
            logger.warning("after_commit.dropped", exc_info=True)
        else:
            crashpoints.point("after-publish")


def hand_on_send(send: Send) -> None:
    """From an on-commit hook: run the coroutine function ``send`` after the answer, or now."""
    held = _held.get()
    if held is not None:
        held.append(send)
    else:
        run_on_layer_loop(send)


def hand_on_call(call: Callable[[], None]) -> None:
    """From an on-commit hook: run the blocking ``call`` (e.g. a broker publish) after the answer
    in a worker thread, or now in this one."""
    held = _held.get()
    if held is not None:
        held.append(lambda: asyncio.to_thread(call))
    else:
        call()


# --- the loop channel-layer sends run on ----------------------------------------------------


_server_loop: asyncio.AbstractEventLoop | None = None


def use_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Send hints from this process's synchronous code on the ASGI server's ``loop``."""
    global _server_loop
    _server_loop = loop


class _LoopThread:
    """An event loop running forever in a daemon thread of the process that created it."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="lineup-after-commit", daemon=True).start()


_own: _LoopThread | None = None
_own_lock = threading.Lock()


def _own_loop() -> asyncio.AbstractEventLoop:
    global _own
    with _own_lock:
        if _own is None or _own.pid != os.getpid():  # none yet, or inherited through a fork (dead thread)
            _own = _LoopThread()
        return _own.loop


def run_on_layer_loop(send: Send) -> None:
    """Run ``send()`` on the process's channel-layer loop and wait for it (bounded)."""
    loop = _server_loop if _server_loop is not None and _server_loop.is_running() else _own_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # already on that loop's thread: it can not be waited for here
        task = loop.create_task(_send_all([send]))
        _background.add(task)
        task.add_done_callback(_background.discard)
        return
    future = asyncio.run_coroutine_threadsafe(_send_all([send]), loop)
    try:
        future.result(timeout=SEND_TIMEOUT_SECONDS)
    except TimeoutError:
        future.cancel()
        logger.warning("after_commit.timed_out", seconds=SEND_TIMEOUT_SECONDS)
