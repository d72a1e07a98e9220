"""Requests held open (``tasks/result`` until its focus has settled): what they cost while they wait.

A held request costs its coroutine and its connection, nothing else. It registers its operation and
its token here and waits on a future. One watcher task per process reads, in **one** database hop per
step, the state of every held operation and the standing of every held token, and wakes the requests
whose operation is final or whose token was withdrawn. So 400 held requests cost one small query a
second, where each used to read on the process's database thread every second (and another user's
tool call queued behind them).

The step is ``STEP_SECONDS``, shorter when a held operation's deadline comes sooner (its settlement
lands within milliseconds of ``ends_at``), then ``AFTER_DEADLINE_SECONDS`` until it has settled. A
revoked token ends its held requests within one step. Nothing is kept for a request that left: its
entry goes with its coroutine (a cancelled wait removes it).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import datetime

import structlog
from django.utils import timezone

from lineup.gateways.mcp import bridge
from lineup.gateways.mcp.bridge import Binding, OperationView
from runtime.db_threads import run_db

logger = structlog.get_logger("lineup.mcp")

STEP_SECONDS = 1.0
AFTER_DEADLINE_SECONDS = 0.1


@dataclass(eq=False)
class _Held:
    binding: Binding
    operation_id: str
    ends_at: datetime
    future: asyncio.Future[OperationView] = field(repr=False)


class Watcher:
    """The held requests of this process and the one task that watches them."""

    def __init__(self) -> None:
        self._held: set[_Held] = set()
        self._changed: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._held)

    async def wait_final(self, binding: Binding, view: OperationView) -> OperationView:
        """``view``'s operation once final; raises ``bridge.TokenWithdrawn``, or ``LookupError``
        when it is no longer this Agent's in this conversation."""
        if view.final:
            return view
        loop = asyncio.get_running_loop()
        held = _Held(binding, view.operation_id, view.ends_at, loop.create_future())
        self._held.add(held)
        self._start(loop)
        try:
            return await held.future
        finally:
            self._held.discard(held)

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._changed is None:
            self._changed = asyncio.Event()
        self._changed.set()  # a new deadline may be sooner than the current wait
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._watch())

    async def _watch(self) -> None:
        assert self._changed is not None
        while self._held:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=self._step())
            held = [h for h in self._held if not h.future.done()]
            if not held:
                continue
            try:
                states = await run_db(bridge.held_states, [(h.binding, h.operation_id) for h in held])
            except Exception:  # the database is away: keep waiting, the next step reads again
                logger.exception("mcp.held_read_failed", held=len(held))
                continue
            for h, state in zip(held, states, strict=True):
                if h.future.done():
                    continue
                if isinstance(state, Exception):
                    h.future.set_exception(state)
                elif state.final:
                    h.future.set_result(state)

    def _step(self) -> float:
        now = timezone.now()
        soonest = min((h.ends_at for h in self._held), default=None)
        if soonest is None:
            return STEP_SECONDS
        remaining = (soonest - now).total_seconds()
        return min(STEP_SECONDS, remaining) if remaining > 0 else AFTER_DEADLINE_SECONDS


watcher = Watcher()
