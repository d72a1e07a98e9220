"""Mounting the MCP endpoint in front of Django's HTTP app (lineup/asgi.py).

The endpoint (lineup.gateways.mcp.endpoint) imports the MCP SDK, which costs about half a second; it is
imported by the first ``/mcp/`` request, so processes that never serve one do not pay for it; what that
import built is then frozen like the rest of start-up (lineup/heap.py).
"""

from __future__ import annotations

from typing import Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope

from lineup import heap

PATH_PREFIX = "/mcp"


def is_mcp_path(path: str) -> bool:
    return path == PATH_PREFIX or path.startswith(PATH_PREFIX + "/")


def mount_mcp(http_app: Any) -> Any:
    """``http_app`` with the MCP endpoint in front of it under ``/mcp/``."""
    endpoint: Any = None

    async def app(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        nonlocal endpoint
        if scope["type"] != "http" or not is_mcp_path(scope["path"]):
            await http_app(scope, receive, send)
            return
        if endpoint is None:
            from lineup.gateways.mcp.endpoint import McpEndpoint

            endpoint = McpEndpoint()
            heap.freeze_again(after="mcp import")
        await endpoint(scope, receive, send)

    return app
