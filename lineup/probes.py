"""What load balancers and Prometheus ask a process: ``/healthz``, ``/readyz`` and ``/metrics``.

Answered by the first middleware, before anything reads the Host header (a load balancer probes
by IP, which ``ALLOWED_HOSTS`` would refuse with an error line and a traceback), redirects to HTTPS
or opens a session:

* ``/healthz`` — 200 while the process answers at all (liveness: restart it when this fails).
* ``/readyz`` — 200 when the database answers with every migration applied and, in the production
  topology, Redis (the channel layer and the Celery broker) answers; 503 otherwise (readiness:
  send it no traffic meanwhile). What failed (``checks``: its error text may name an internal
  address) only to the clients that may read ``/metrics``; anyone else is told ready or not ready.
  A change of readiness is logged once.
* ``/metrics`` — the Prometheus text format (runtime.metrics) to clients with ``Authorization:
  Bearer $LINEUP_METRICS_TOKEN``, to ``LINEUP_METRICS_NETWORKS`` and to loopback clients unless
  ``LINEUP_METRICS_LOOPBACK=0``; 403 to anyone else. The client's address is the one
  ``LINEUP_TRUSTED_PROXY_HOPS`` lets us believe (lineup.client_address), and a request a proxy
  forwarded (``X-Forwarded-For`` / ``Forwarded``) is never taken for a loopback one, even when the
  proxy connects from loopback. A proxy on the same host that forwards *without* such a header
  looks like a local client: set ``LINEUP_METRICS_LOOPBACK=0`` there (docs/operations.md).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Callable

import redis
import structlog
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse

from lineup.client_address import client_ip
from runtime import metrics

logger = structlog.get_logger("lineup.probes")

PING_TIMEOUT_SECONDS = 1.0  # a probe must answer well inside a load balancer's timeout (often 2-5 s)

_migrated = False  # once every migration is applied it stays so for this process's code
_last_ready: bool | None = None
_clients: dict[str, redis.Redis] = {}


class ProbeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.routes = {
            "/healthz": healthz,
            "/readyz": readyz,
            "/metrics": metrics_view,
        }

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = self.routes.get(request.path_info.rstrip("/"))
        if view is None or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        return view(request)


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok\n", content_type="text/plain")


def readyz(request: HttpRequest) -> HttpResponse:
    global _last_ready
    checks = readiness()
    ready = all(value == "ok" for value in checks.values())
    if ready != _last_ready:
        _last_ready = ready
        (logger.info if ready else logger.warning)("probe.ready" if ready else "probe.not_ready", **checks)
    answer: dict[str, object] = {"status": "ready" if ready else "not ready"}
    if metrics_allowed(request):
        answer["checks"] = checks
    body = json.dumps(answer)
    return HttpResponse(body + "\n", status=200 if ready else 503, content_type="application/json")


def readiness() -> dict[str, str]:
    """Each dependency of this process: ``ok`` or why not."""
    checks = {"database": _database()}
    if settings.REDIS_URL:
        layer = _redis(settings.REDIS_URL)
        checks["channel_layer"] = layer
        broker = settings.CELERY_BROKER_URL
        checks["broker"] = layer if broker == settings.REDIS_URL else _redis(broker)
    return checks


def _database() -> str:
    global _migrated
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        if not _migrated:
            executor = MigrationExecutor(connection)
            pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
            if pending:
                return f"{len(pending)} migrations not applied"
            _migrated = True
    except Exception as error:
        return _short(error)
    return "ok"


def _redis(url: str) -> str:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return "ok"  # an in-process broker (memory://): nothing to reach
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(
            url, socket_timeout=PING_TIMEOUT_SECONDS, socket_connect_timeout=PING_TIMEOUT_SECONDS
        )
    try:
        client.ping()
    except Exception as error:
        return _short(error)
    return "ok"


def _short(error: Exception) -> str:
    return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"[:200]


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    body, content_type = metrics.render()
    return HttpResponse(body, content_type=content_type)


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether this client may read /metrics and /readyz's details (the module's docstring)."""
    token = settings.LINEUP_METRICS_TOKEN
    offered = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(offered.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    forwarded = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    if address.is_loopback and not forwarded and settings.LINEUP_METRICS_LOOPBACK:
        return True
    return any(address in ipaddress.ip_network(network, strict=False) for network in settings.LINEUP_METRICS_NETWORKS)
