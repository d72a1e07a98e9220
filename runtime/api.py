"""The Runtime's public API for MiniApps: the only module of ``runtime`` a MiniApp imports.

A MiniApp (docs/miniapps.md) is a Django app that, from its ``AppConfig.ready()``, calls
``register_miniapp`` with its manifest's tool handlers. The Tool Router validates every call
(conversation, idempotency key, Inventory revision, input schema, the manifest's bounds) before
a handler sees it as a ``ToolRequest``. A handler then either starts a generic deadline
operation (``start_operation``) or answers a short tool's receipt, e.g. with
``interrupt_operation``. The app shapes its final result and its projection from a read-only
``OperationView``; the Runtime checks the result against the start tool's frozen
``result_schema`` before writing it to the outbox.

An import-linter contract keeps every other part of ``runtime`` out of ``miniapps``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.miniapps import MiniApp, ResultBuilder, ToolHandler, register
from runtime.services.operations import OperationView, standard_result
from runtime.services.operations import interrupt_operation as _interrupt
from runtime.services.operations import start_operation as _start
from runtime.tool_calls import Accepted, Receipt

__all__ = [
    "Accepted",
    "OperationView",
    "Receipt",
    "ToolRequest",
    "interrupt_operation",
    "register_miniapp",
    "standard_result",
    "start_operation",
]


@dataclass(frozen=True)
class ToolRequest:
    """One validated tool call, as a MiniApp's handler receives it."""

    conversation_id: uuid.UUID
    source_tool_call_id: str  # the caller's call id: its retries are answered from what is stored
    tool: str
    arguments: dict[str, Any]
    now: datetime
    caller: str  # "agent:<id>", recorded with the call
    agent_id: uuid.UUID | None  # whose result the operation's final result is
    channel: str  # how that Agent reads it

    @property
    def app_id(self) -> str:
        return self.tool.split(".", 1)[0]


def register_miniapp(
    app_id: str,
    *,
    tools: Mapping[str, ToolHandler],
    result: ResultBuilder | None = None,
    projection: ResultBuilder | None = None,
    private_details: Iterable[str] = (),
) -> None:
    """Register a MiniApp's tool handlers (call it from its ``AppConfig.ready()``).

    ``result(view)`` shapes the final result of its operations (``standard_result`` when None);
    ``projection(view)`` gives its own fields of the operation the workspace is shown;
    ``private_details`` are keys of its details that the admin masks (e.g. an answer key).
    """
    register(
        MiniApp(
            app_id=app_id,
            tools=dict(tools),
            result=result,
            projection=projection,
            private_details=frozenset(private_details),
        )
    )


def start_operation(
    request: ToolRequest,
    *,
    duration_seconds: int,
    details: dict[str, Any] | None = None,
    initial_state: dict[str, Any] | None = None,
) -> Accepted:
    """Start the deadline operation of ``request``'s tool, ending ``duration_seconds`` from now.

    The Runtime creates the app's instance (with ``initial_state`` as its first snapshot), its
    sub-session, the operation and its deadline, brings the app to the foreground and answers a
    retry of the same call from the stored rows. The manifest's ``deadline_operation`` policy
    decides whether another start of the app is refused while this one runs, and whether leaving
    the app ends it. ``details`` are the app's own (JSON) and come back in the ``OperationView``.
    """
    return _start(
        conversation_id=request.conversation_id,
        source_tool_call_id=request.source_tool_call_id,
        tool=request.tool,
        arguments=request.arguments,
        duration_seconds=duration_seconds,
        details=details,
        caller=request.caller,
        agent_id=request.agent_id,
        channel=request.channel,
        now=request.now,
        initial_state=initial_state,
    )


def interrupt_operation(
    request: ToolRequest, *, no_active_status: str = "no_active_operation", operation_id: str | None = None
) -> Receipt:
    """Stop a running operation of ``request``'s app in its conversation: receipt ``interrupted``,
    ``operation_already_final``, or ``no_active_status`` when the app never ran one here.

    ``operation_id`` names the one to stop (an app's own tool may take it as an argument); without
    it the call binds the app's single running operation, and is refused ``ambiguous_operation``
    (listing the candidates) when two or more run. The receipt is held to the tool's
    ``result_schema`` before anything is written.
    """
    return _interrupt(
        conversation_id=request.conversation_id,
        source_tool_call_id=request.source_tool_call_id,
        tool=request.tool,
        caller=request.caller,
        now=request.now,
        no_active_status=no_active_status,
        operation_id=operation_id,
        arguments=request.arguments,
    )
