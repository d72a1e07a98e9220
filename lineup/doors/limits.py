"""Every limit of the doors, read from the settings when used (never at import time)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class SocketLimits:
    """One WebSocket door's limits (``/ws/agent/`` or ``/ws/workspace/``)."""

    max_frame_bytes: int
    rate_per_second: float  # token bucket: frames a connection may send per second, sustained
    burst: int  # ... and at once
    queue_frames: int  # frames received but not yet handled, per connection
    queue_bytes: int
    hello_max_bytes: int | None = None  # the first frame's size before the connection is trusted
    hello_timeout_seconds: float | None = None


def agent_socket() -> SocketLimits:
    return SocketLimits(
        max_frame_bytes=settings.LINEUP_WS_MAX_FRAME_BYTES,
        rate_per_second=settings.LINEUP_AGENT_FRAMES_PER_SECOND,
        burst=settings.LINEUP_AGENT_FRAMES_BURST,
        queue_frames=settings.LINEUP_WS_QUEUE_FRAMES,
        queue_bytes=settings.LINEUP_WS_QUEUE_BYTES,
        hello_max_bytes=settings.LINEUP_WS_HELLO_MAX_BYTES,
        hello_timeout_seconds=settings.LINEUP_WS_HELLO_TIMEOUT_SECONDS,
    )


def workspace_socket() -> SocketLimits:
    return SocketLimits(
        max_frame_bytes=settings.LINEUP_WS_MAX_FRAME_BYTES,
        rate_per_second=settings.LINEUP_WORKSPACE_FRAMES_PER_SECOND,
        burst=settings.LINEUP_WORKSPACE_FRAMES_BURST,
        queue_frames=settings.LINEUP_WS_QUEUE_FRAMES,
        queue_bytes=settings.LINEUP_WS_QUEUE_BYTES,
    )


def published() -> dict[str, Any]:
    """The limits an Agent must respect, as sent in ``welcome.limits`` (docs/agent-protocol.md)."""
    agent = agent_socket()
    return {
        "max_frame_bytes": agent.max_frame_bytes,
        "hello_max_bytes": agent.hello_max_bytes,
        "hello_timeout_seconds": agent.hello_timeout_seconds,
        "frames_per_second": agent.rate_per_second,
        "frames_burst": agent.burst,
        "queued_frames": agent.queue_frames,
        "queued_bytes": agent.queue_bytes,
        "connections_per_token": settings.LINEUP_AGENT_CONNECTIONS_PER_TOKEN,
        "connections_per_user": settings.LINEUP_AGENT_CONNECTIONS_PER_USER,
        "mcp_requests_in_flight_per_token": settings.LINEUP_MCP_IN_FLIGHT_PER_TOKEN,
        "mcp_requests_in_flight_per_user": settings.LINEUP_MCP_IN_FLIGHT_PER_USER,
        "mcp_requests_per_second_per_token": settings.LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN,
        "mcp_requests_held_per_process": settings.LINEUP_MCP_HELD_PER_PROCESS,
        "max_body_bytes": settings.LINEUP_HTTP_MAX_BODY_BYTES,
        "outbox_redelivery_seconds": settings.LINEUP_OUTBOX_REDELIVERY_SECONDS,
    }
