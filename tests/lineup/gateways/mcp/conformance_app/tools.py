"""The conformance suite's fixture tools, on the Runtime like any MiniApp's.

``conformance.slow_compute`` is a deadline operation of ``seconds`` (at least 1: an operation ends after it starts), so
over MCP it is a task like ``pomodoro.start``; ``conformance.failing_job`` is a deadline operation of
one second whose app can not shape its result, so it ends with the Runtime's error result (``isError``,
``result_invalid``): over MCP a task ``completed`` with an ``isError`` result, the suite's tool error;
``conformance.greet`` is a short tool. The suite calls them ``slow_compute``, ``failing_job`` and ``greet`` (MCP tool names of LineUp carry their app's prefix; the
test's forwarding door translates).
"""

from __future__ import annotations

from typing import Any

from runtime.api import Accepted, OperationView, Receipt, ToolRequest, standard_result, start_operation

APP_ID = "conformance"
SLOW_COMPUTE = "conformance.slow_compute"
GREET = "conformance.greet"
FAILING_JOB = "conformance.failing_job"
FAILS = "fails"  # the detail that marks a failing_job operation for ``result``


def slow_compute(request: ToolRequest) -> Accepted:
    label = request.arguments.get("label")
    return start_operation(request, duration_seconds=max(1, request.arguments["seconds"]), details={"label": label})


def failing_job(request: ToolRequest) -> Accepted:
    return start_operation(request, duration_seconds=request.arguments.get("seconds", 1), details={FAILS: True})


def result(view: OperationView) -> dict[str, Any]:
    if view.details.get(FAILS):
        # The tool's own failure, as an app's bug is one: the Runtime settles the operation with its
        # error result (runtime.services.operation_views.invalid_result) and flags it for an operator.
        raise RuntimeError("failing_job fails by design (the MCP conformance suite's tool error)")
    label = view.details.get("label")
    return {**standard_result(view), **({"label": label} if label else {})}


def greet(request: ToolRequest) -> Receipt:
    return Receipt(
        source_tool_call_id=request.source_tool_call_id, receipt={"greeting": f"Hello, {request.arguments['name']}!"}
    )
