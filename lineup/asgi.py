"""ASGI entry point: ``python -m daphne lineup.asgi:application``.

HTTP goes to Django, except ``/mcp/<conversation_id>/``: the MCP endpoint for Agents (lineup.gateways.mcp,
Agent token as a bearer token). ``/ws/agent/`` authenticates with an Agent token in its first frame (no
cookies, so no Origin check); ``/ws/workspace/`` uses the Django session, so it only accepts
pages of the server's own origin: scheme, host and port (cross-site WebSocket hijacking, lineup.origins). In the embedded default this process
also serves static files and runs the in-process deadline scheduler and the reference Agent.
"""

import asyncio
import os
from collections.abc import Callable

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django_asgi_app = get_asgi_application()

# These imports need Django set up first.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path  # noqa: E402

from interact.consumers import WorkspaceConsumer  # noqa: E402
from lineup import heap  # noqa: E402
from lineup.doors import limits  # noqa: E402
from lineup.doors.http import bounded_body  # noqa: E402
from lineup.doors.static import StaticFiles  # noqa: E402
from lineup.doors.websocket import BoundedSocket, echo_of  # noqa: E402
from lineup.gateways.agent_socket.consumer import CORRELATION_FIELDS, AgentConsumer  # noqa: E402
from lineup.gateways.mcp.asgi import mount_mcp  # noqa: E402
from lineup.internals import daphne as daphne_internals  # noqa: E402
from lineup.logs import access_log  # noqa: E402
from lineup.origins import SameOriginWebSocket  # noqa: E402
from runtime.after_commit import use_server_loop  # noqa: E402
from runtime.embedded_scheduler import start_embedded_scheduler_if_configured  # noqa: E402
from runtime.tracing import configure as configure_tracing  # noqa: E402

# One process, nothing else installed: Daphne serves /static/ itself. Behind a reverse proxy
# (production) set LINEUP_SERVE_STATIC=0 and serve STATIC_ROOT from the proxy.
http_app = StaticFiles(django_asgi_app) if settings.LINEUP_SERVE_STATIC else django_asgi_app
http_app = bounded_body(mount_mcp(http_app))
daphne_internals.install()  # the body limit before Daphne buffers it, header and idle timeouts

# Every socket is bounded (lineup.doors.websocket) before anything else reads its frames; the
# workspace's limits apply after its origin and session checks, which read no frame.
websocket_app = URLRouter(
    [
        path(
            "ws/agent/",
            BoundedSocket(
                AgentConsumer.as_asgi(),
                limits.agent_socket,
                echo_of(CORRELATION_FIELDS),
                log_event="agent.frame_rejected",
            ),
        ),
        path(
            "ws/workspace/",
            SameOriginWebSocket(
                AuthMiddlewareStack(
                    BoundedSocket(
                        WorkspaceConsumer.as_asgi(),
                        limits.workspace_socket,
                        echo_of(("request_id",)),
                        log_event="workspace.frame_rejected",
                    )
                )
            ),
        ),
    ]
)


def with_server_loop(app: Callable) -> Callable:
    """``app``, telling runtime.after_commit that this process's synchronous code (views, the
    embedded scheduler) sends its channel-layer hints on the server's loop: one connection pool,
    and the loop the in-memory layer's consumers wait on."""

    async def on_server_loop(scope: dict, receive: Callable, send: Callable) -> None:
        use_server_loop(asyncio.get_running_loop())
        await app(scope, receive, send)

    return on_server_loop


application = access_log(with_server_loop(ProtocolTypeRouter({"http": http_app, "websocket": websocket_app})))

configure_tracing()  # only when the OTEL_* environment asks for traces
start_embedded_scheduler_if_configured()

if settings.LINEUP_REFERENCE_AGENT_URL:
    from interact.builtin_agents.supervisor import start_reference_agent_in_thread

    # An ordinary client of /ws/agent/ (it retries until this server listens), serving every
    # user's conversations, including users created later.
    start_reference_agent_in_thread(settings.LINEUP_REFERENCE_AGENT_URL)

# Last: everything this process imported and built at start-up leaves the collector's full passes
# (lineup/heap.py, decision 0059).
heap.freeze_startup()
