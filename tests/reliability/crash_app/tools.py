"""The crash rig's MiniApp's two tools, each one Runtime call (the package docstring says why)."""

from __future__ import annotations

from runtime.api import Receipt, ToolRequest, close_instance, open_instance

APP_ID = "crashpad"
OPEN = "crashpad.open"
CLOSE = "crashpad.close"


def open_pad(request: ToolRequest) -> Receipt:
    return open_instance(request, initial_state={"text": request.arguments["text"]})


def close_pad(request: ToolRequest) -> Receipt:
    return close_instance(request)
