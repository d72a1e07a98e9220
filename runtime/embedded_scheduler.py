"""The embedded default's deadline runner: one daemon thread per process that settles what is due.

It runs recovery when it starts, then sleeps until the next ``ends_at`` (or a short poll interval,
so writes from other processes are seen) and runs the periodic sweep. Services wake it through
``runtime.deadlines`` when they arm a deadline; it is started by the ASGI entry point
(``lineup.asgi``) when ``LINEUP_SCHEDULER`` is ``embedded``.
"""

from __future__ import annotations

import threading

import structlog
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from runtime.deadlines import add_wake_listener
from runtime.selectors import next_deadline
from runtime.services.recovery import recover_runtime, sweep

logger = structlog.get_logger("lineup.runtime")

EMBEDDED_POLL_SECONDS = 1.0  # bounds how late the embedded scheduler notices other processes' writes


class EmbeddedScheduler:
    """Settles due operations in this process until stopped."""

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        add_wake_listener(self.wake)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="lineup-deadlines", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        logger.info("scheduler.started", mode="embedded")
        try:
            summary = recover_runtime(now=timezone.now())
            logger.info("scheduler.recovered", **summary.counts())
        except Exception:
            logger.exception("scheduler.recovery_failed")
        while not self._stop.is_set():
            try:
                close_old_connections()
                sweep(now=timezone.now())
                upcoming = next_deadline()
            except Exception:
                logger.exception("scheduler.sweep_failed")
                upcoming = None
            wait = EMBEDDED_POLL_SECONDS
            if upcoming is not None:
                wait = max(0.0, min(wait, (upcoming - timezone.now()).total_seconds()))
            self._wake.wait(wait)
            self._wake.clear()
        connection.close()
        logger.info("scheduler.stopped", mode="embedded")


embedded_scheduler = EmbeddedScheduler()


def start_embedded_scheduler_if_configured() -> None:
    if settings.LINEUP_SCHEDULER == "embedded":
        embedded_scheduler.start()
