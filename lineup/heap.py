"""The start-up heap of an ASGI process, kept out of the garbage collector's full passes (decision 0059).

A Daphne serving ``lineup.asgi`` holds ~190k objects from start-up (Django, Twisted, the apps, the
MCP SDK once ``/mcp/`` is used) that live as long as the process. CPython's generation-2 pass walks
every one of them whenever enough new objects survived, and under a stranger flood (a fresh token
per request: many short-lived objects) those passes were every event-loop callback over 100 ms, the
whole p99 tail of ``/ws/agent/`` and ``/mcp/``. ``gc.freeze()`` moves the objects alive at that
moment into the permanent generation, which no pass walks; what is created later is collected as
before.

``freeze_startup`` runs once at the end of ``lineup.asgi`` (a full collection first, so what start-up
left as garbage is freed, not frozen); ``freeze_again`` after the MCP SDK's lazy import on the first
``/mcp/`` request (lineup.gateways.mcp.asgi): no collection there, it would be one more full pass on
the serving loop. ``LINEUP_GC_FREEZE=0`` turns both off (``bench.abuse --no-gc-freeze`` compares).
"""

from __future__ import annotations

import gc
import os

import structlog

logger = structlog.get_logger("lineup.heap")


def enabled() -> bool:
    # Read from the environment, not settings: bench.abuse sets it per Daphne it starts.
    return os.environ.get("LINEUP_GC_FREEZE", "1").strip().lower() not in {"0", "false", "no", "off"}


def freeze_startup() -> int:
    """Collect once, then freeze everything alive: the objects frozen in all (0 when turned off)."""
    if not enabled():
        return 0
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    logger.debug("heap.frozen", frozen=frozen, after="start-up")
    return frozen


def freeze_again(after: str) -> int:
    """Freeze what a lazy import added (no collection: this runs on the serving loop)."""
    if not enabled():
        return 0
    gc.freeze()
    frozen = gc.get_freeze_count()
    logger.debug("heap.frozen", frozen=frozen, after=after)
    return frozen
