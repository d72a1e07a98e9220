"""Pomodoro's tools on the Runtime's generic deadline operation (SPEC §3.1).

``pomodoro.start`` starts one exclusive operation (its manifest's ``deadline_operation``: refused
``active_focusing_operation`` while one runs, ended by leaving the app, at most 24 h); its
``activity`` is the operation's detail. ``pomodoro.interrupt`` stops it, with the stable receipts
``interrupted``, ``operation_already_final`` and ``no_active_focusing_operation``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from runtime.api import (
    Accepted,
    OperationView,
    Receipt,
    ToolRequest,
    interrupt_operation,
    standard_result,
    start_operation,
)

APP_ID = "pomodoro"
START_TOOL = "pomodoro.start"
INTERRUPT_TOOL = "pomodoro.interrupt"
NO_ACTIVE = "no_active_focusing_operation"


def start(request: ToolRequest) -> Accepted:
    return start_operation(
        request,
        duration_seconds=request.arguments["duration_seconds"],
        details={"activity": request.arguments.get("activity")},
    )


def interrupt(request: ToolRequest) -> Receipt:
    return interrupt_operation(request, no_active_status=NO_ACTIVE)


def result(view: OperationView) -> dict[str, Any]:
    """``pomodoro.start``'s final result: how and when the focus ended (its frozen result_schema)."""
    return standard_result(view)


def projection(view: OperationView) -> dict[str, Any]:
    """What the workspace shows of a focus beyond its times: what the person is doing."""
    return {"activity": view.details.get("activity")}


def start_focus(
    *,
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    duration_seconds: int,
    activity: str | None,
    caller: str,
    now: datetime,
    agent_id: uuid.UUID | None = None,
    channel: str = "agent_socket",
) -> Accepted:
    """``pomodoro.start`` without the Tool Router's checks (for tests and tools that already made them)."""
    arguments: dict[str, Any] = {"duration_seconds": duration_seconds}
    if activity is not None:
        arguments["activity"] = activity
    return start(_request(conversation_id, source_tool_call_id, START_TOOL, arguments, caller, now, agent_id, channel))


def interrupt_focus(
    *, conversation_id: uuid.UUID | str, source_tool_call_id: str, caller: str, now: datetime
) -> Receipt:
    """``pomodoro.interrupt`` without the Tool Router's checks."""
    return interrupt(
        _request(conversation_id, source_tool_call_id, INTERRUPT_TOOL, {}, caller, now, None, "agent_socket")
    )


def _request(
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    tool: str,
    arguments: dict[str, Any],
    caller: str,
    now: datetime,
    agent_id: uuid.UUID | None,
    channel: str,
) -> ToolRequest:
    return ToolRequest(
        conversation_id=uuid.UUID(str(conversation_id)),
        source_tool_call_id=source_tool_call_id,
        tool=tool,
        arguments=arguments,
        now=now,
        caller=caller,
        agent_id=agent_id,
        channel=channel,
    )
