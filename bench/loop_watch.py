"""Bench-only ASGI application: ``lineup.asgi`` timed from inside, for ``bench.abuse --watch-loop``.

``python -m daphne bench.loop_watch:application`` serves what ``lineup.asgi`` serves, and also times
every event-loop callback (``asyncio.Handle._run``: Daphne runs Twisted on the asyncio reactor, so
every request's work is one) and every garbage-collection pass (``gc.callbacks``). ``GET
/bench/loop-watch/`` answers what was seen since the last such request, as JSON, and starts again:
the bench reads it at each slice's start and end. It answers whether a slow callback was the
application's work or a collector pass inside it (decision 0059). It exists only here: production
runs ``lineup.asgi``, which has no such route and no timing.
"""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from typing import Any

from lineup.asgi import application as lineup_application

PATH = "/bench/loop-watch/"  # bench.abuse.LOOP_WATCH_PATH (importing this module would import lineup.asgi)
SLOW_CALLBACK_SECONDS = 0.1

_lock = threading.Lock()  # the collector runs in whichever thread allocates
_seen: dict[str, Any] = {}
_gc_started: dict[int, float] = {}  # by thread id


def _reset() -> dict[str, Any]:
    global _seen
    with _lock:
        seen, _seen = (
            _seen,
            {
                "since": time.monotonic(),
                "callbacks": 0,
                "callbacks_over_100ms": 0,
                "slowest_callback_ms": 0.0,
                "gc_passes": [0, 0, 0],  # by generation
                "gc2_ms_total": 0.0,
                "gc2_ms_max": 0.0,
                "slow_callbacks_with_gc2": 0,
            },
        )
    return seen


_gc2_on_loop = [0]  # full passes run on the main thread (the loop's): a callback compares before and after


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    me = threading.get_ident()
    if phase == "start":
        _gc_started[me] = time.perf_counter()
        return
    started = _gc_started.pop(me, None)
    if started is None:
        return
    seconds = time.perf_counter() - started
    generation = info.get("generation", 0)
    with _lock:
        _seen["gc_passes"][generation] += 1
        if generation == 2:
            _seen["gc2_ms_total"] += seconds * 1000
            _seen["gc2_ms_max"] = max(_seen["gc2_ms_max"], seconds * 1000)
    if generation == 2 and threading.current_thread() is threading.main_thread():
        _gc2_on_loop[0] += 1


def _watch_callbacks() -> None:
    run = asyncio.Handle._run

    def timed_run(self: asyncio.Handle) -> None:
        passes = _gc2_on_loop[0]
        started = time.perf_counter()
        try:
            run(self)
        finally:
            seconds = time.perf_counter() - started
            with _lock:
                _seen["callbacks"] += 1
                _seen["slowest_callback_ms"] = max(_seen["slowest_callback_ms"], seconds * 1000)
                if seconds > SLOW_CALLBACK_SECONDS:
                    _seen["callbacks_over_100ms"] += 1
                    if _gc2_on_loop[0] != passes:
                        _seen["slow_callbacks_with_gc2"] += 1

    asyncio.Handle._run = timed_run  # TimerHandle inherits it


_reset()
gc.callbacks.append(_on_gc)
_watch_callbacks()


def report() -> dict[str, Any]:
    """What was seen since the last report (rounded), and start again."""
    seen = _reset()
    seen["seconds"] = round(time.monotonic() - seen.pop("since"), 2)
    for key in ("slowest_callback_ms", "gc2_ms_total", "gc2_ms_max"):
        seen[key] = round(seen[key], 1)
    return seen


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope["path"] == PATH:
        body = json.dumps(report()).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
        return
    await lineup_application(scope, receive, send)
