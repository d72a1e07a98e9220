"""Logging pieces the settings' ``LOGGING`` names: what keeps the JSON log worth reading.

* ``QuietPeriodicSweep`` drops Celery's INFO bookkeeping lines about the beat sweep (sent, received,
  succeeded with nothing settled: three lines every ``LINEUP_SWEEP_SECONDS``, all day). A sweep that
  settled something keeps its ``succeeded`` line (with the count), its decisions are logged by the
  Runtime as usual, and its failures stay (WARNING and above are never dropped).
* ``access_log`` wraps the ASGI application: one JSON line per HTTP request (``http.access``: method,
  path, status, bytes, ms, client), instead of Daphne's plain-text NCSA lines on stdout — run Daphne
  with ``-v 0`` (its access log off; LineUp's logging is configured by the settings, not by ``-v``).
  Load balancer probes and scrapes (``/healthz``, ``/readyz``, ``/metrics``) are logged at DEBUG.
  Each request has a ``request_id``: the proxy's ``X-Request-Id`` (nginx's ``$request_id``,
  docs/operations/nginx.conf) when it is a plain token, else a new one. It is on the access line, on
  every log line of the request (structlog context), and sent back as ``X-Request-Id``, so a person's
  report, the proxy's log and LineUp's lines meet on one value.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import structlog

SWEEP_TASK_NAMES = ("runtime.tasks.sweep_due", "runtime.sweep_due")
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

access_logger = structlog.get_logger("lineup.access")
REQUEST_ID = re.compile(rb"[A-Za-z0-9._-]{8,64}")  # what nginx's $request_id (32 hex) and most proxies send


def request_id_of(scope: dict) -> str:
    """The proxy's ``X-Request-Id`` when it is a plain token (anything else could forge log text), else new."""
    for name, value in scope.get("headers") or ():
        if name == b"x-request-id" and REQUEST_ID.fullmatch(value):
            return value.decode()
    return uuid.uuid4().hex


class QuietPeriodicSweep(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or not record.name.startswith("celery"):
            return True
        try:
            message = record.getMessage()
        except Exception:
            return True
        if not any(name in message for name in SWEEP_TASK_NAMES):
            return True
        # "Task runtime.tasks.sweep_due[id] succeeded in 0.01s: N" — N operations settled.
        return " succeeded in " in message and not message.rstrip().endswith(": 0")


def access_log(app: Callable) -> Callable:
    """``app`` with one ``http.access`` log line per HTTP request, when its response has started."""

    async def logged(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": None, "bytes": 0}
        request_id = request_id_of(scope)

        async def watch(message: dict) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", request_id.encode())]}
            elif message["type"] == "http.response.body":
                seen["bytes"] += len(message.get("body", b""))
            await send(message)

        tokens = structlog.contextvars.bind_contextvars(request_id=request_id)
        try:
            await app(scope, receive, watch)
        finally:
            structlog.contextvars.reset_contextvars(**tokens)
            path = scope.get("path", "")
            log = access_logger.debug if path.rstrip("/") in QUIET_PATHS else access_logger.info
            client = scope.get("client") or ("", 0)
            log(
                "http.access",
                method=scope.get("method"),
                path=path,
                status=seen["status"],
                bytes=seen["bytes"],
                ms=round((time.perf_counter() - started) * 1000, 1),
                client=client[0],
                request_id=request_id,
            )

    return logged
