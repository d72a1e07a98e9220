"""The conformance suite's fixture tools, on the Runtime like any MiniApp's.

``conformance.slow_compute`` is a deadline operation of ``seconds`` (at least 1: an operation ends after it starts), so
over MCP it is a task like ``pomodoro.start``; ``conformance.greet`` is a short tool. The suite
calls them ``slow_compute`` and ``greet`` (MCP tool names of LineUp carry their app's prefix; the
test's forwarding door translates).
"""

from __future__ import annotations

from typing import Any

from runtime.api import Accepted, OperationView, Receipt, ToolRequest, standard_result, start_operation

APP_ID = "conformance"
SLOW_COMPUTE = "conformance.slow_compute"
GREET = "conformance.greet"


def slow_compute(request: ToolRequest) -> Accepted:
    label = request.arguments.get("label")
    return start_operation(request, duration_seconds=max(1, request.arguments["seconds"]), details={"label": label})


def result(view: OperationView) -> dict[str, Any]:
    label = view.details.get("label")
    return {**standard_result(view), **({"label": label} if label else {})}


def greet(request: ToolRequest) -> Receipt:
    return Receipt(
        source_tool_call_id=request.source_tool_call_id, receipt={"greeting": f"Hello, {request.arguments['name']}!"}
    )
