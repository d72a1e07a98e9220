"""The Runtime's public API for MiniApps: the only module of ``runtime`` a MiniApp imports.

A MiniApp (docs/miniapps.md) is a Django app that, from its ``AppConfig.ready()``, calls
``register_miniapp`` with its manifest's tool handlers. The Tool Router validates every call
(conversation, idempotency key, Inventory revision, input schema, the manifest's bounds) before
a handler sees it as a ``ToolRequest``. A handler then either starts a generic deadline
operation (``start_operation``) or answers a short tool's receipt, e.g. with
``interrupt_operation`` or, for an instance without a deadline, ``open_instance``,
``save_instance_state``, ``read_instance_state`` and ``close_instance``. The app shapes its final result and its projection from a read-only
``OperationView``; the Runtime checks the result against the start tool's frozen
``result_schema`` before writing it to the outbox.

An import-linter contract keeps every other part of ``runtime`` out of ``miniapps``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from runtime.errors import Rejection
from runtime.miniapps import MiniApp, ResultBuilder, ToolHandler, register
from runtime.services import instances as _instances
from runtime.services.instances import Answer, InstanceView, StateChange
from runtime.services.interrupts import interrupt_operation as _interrupt
from runtime.services.operation_views import OperationView, standard_result
from runtime.services.snapshots import encoded_size as state_size
from runtime.services.starts import start_operation as _start
from runtime.tool_calls import Accepted, Receipt, ToolRequest

__all__ = [
    "Accepted",
    "InstanceView",
    "OperationView",
    "Receipt",
    "Refusal",
    "ToolRequest",
    "close_instance",
    "interrupt_operation",
    "open_instance",
    "read_instance_state",
    "register_miniapp",
    "save_instance_state",
    "standard_result",
    "start_operation",
    "state_size",
]

# What a handler (or a ``change``) raises to refuse a call with its app's own stable code:
# ``raise Refusal("notes_full", "…")``. The Agent gets ``{code, detail}``; nothing is written.
Refusal = Rejection


def register_miniapp(
    app_id: str,
    *,
    tools: Mapping[str, ToolHandler],
    result: ResultBuilder | None = None,
    projection: ResultBuilder | None = None,
    private_details: Iterable[str] = (),
    detail_labels: Mapping[str, Any] | None = None,
) -> None:
    """Register a MiniApp's tool handlers (call it from its ``AppConfig.ready()``).

    ``result(view)`` shapes the final result of its operations (``standard_result`` when None);
    ``projection(view)`` gives its own fields of the operation the workspace is shown;
    ``private_details`` are keys whose values no admin page and no log line shows (e.g. an answer
    key): in its operations' details and, at any depth, in its tools' arguments and its events
    (``runtime.miniapps.redact_private``); staff with ``runtime.view_private_details`` see them.
    ``detail_labels`` name its details keys on the operator's pages (lazy translations: the admin
    shows them in the operator's language).
    """
    register(
        MiniApp(
            app_id=app_id,
            tools=dict(tools),
            result=result,
            projection=projection,
            private_details=frozenset(private_details),
            detail_labels=dict(detail_labels or {}),
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


def _call(request: ToolRequest) -> _instances.Call:
    return _instances.Call(
        conversation_id=request.conversation_id,
        source_tool_call_id=request.source_tool_call_id,
        tool=request.tool,
        arguments=request.arguments,
        caller=request.caller,
        agent_id=request.agent_id,
        channel=request.channel,
        now=request.now,
    )


def open_instance(
    request: ToolRequest,
    *,
    initial_state: dict[str, Any] | None = None,
    foreground: bool = False,
    answer: Answer | None = None,
) -> Receipt:
    """Open a new instance of the app, with no operation and no deadline; it lives until closed.

    ``initial_state`` is its first snapshot (revision 1), held to the manifest's ``instance_state``
    contract (a refused one writes nothing). ``foreground``: shown at once (leaving what is in
    front by the person's switch rule), or opened behind it (the default). A retry of the call id
    is answered from the stored receipt. ``answer(view)`` shapes the receipt (the default:
    ``{"status": "opened", "instance_id", "app_session_id", "revision"}``).
    """
    return _instances.open_instance(
        call=_call(request),
        initial_state=initial_state,
        foreground=foreground,
        answer=answer,
        now=request.now,
        conversation_id=request.conversation_id,
    )


def save_instance_state(
    request: ToolRequest,
    change: StateChange,
    *,
    instance_id: uuid.UUID | str | None = None,
    open_if_none: bool = False,
    foreground: bool = False,
    answer: Answer | None = None,
) -> Receipt:
    """Write ``change(view)`` as the state of the app's instance ``instance_id`` (or its open one the
    person focused last, else the one opened last).

    ``change`` gets the instance as it is under the workspace lock (None when ``open_if_none``
    opens a new one) and returns the whole new state, or raises ``Refusal``. The write is the
    Surface's own (schema, quota: ``state_too_large``, revision +1). Default receipt:
    ``{"status": "saved", "instance_id", "app_session_id", "revision", "opened"}``.
    """
    return _instances.save_instance_state(
        call=_call(request),
        change=change,
        instance_id=instance_id,
        open_if_none=open_if_none,
        foreground=foreground,
        answer=answer,
        now=request.now,
        conversation_id=request.conversation_id,
    )


def read_instance_state(
    request: ToolRequest, *, instance_id: uuid.UUID | str | None = None, answer: Answer | None = None
) -> Receipt:
    """Answer with the state of the app's instance ``instance_id``, or its open one the person focused
    last, or else the one closed last (its state kept read-only). ``answer(view or None)`` shapes the receipt (the
    default: ``{"status": "read", "instance_id", "app_session_id", "revision", "state"}`` or
    ``{"status": "no_instance"}``)."""
    return _instances.read_instance_state(
        call=_call(request),
        instance_id=instance_id,
        answer=answer,
        now=request.now,
        conversation_id=request.conversation_id,
    )


def close_instance(request: ToolRequest, *, instance_id: uuid.UUID | str | None = None) -> Receipt:
    """Close the app's instance ``instance_id`` (or its open one the person focused last) that runs no operation:
    ``closed``, ``already_closed`` or ``no_open_instance``. Its state stays, read-only."""
    return _instances.close_instance(
        call=_call(request), instance_id=instance_id, now=request.now, conversation_id=request.conversation_id
    )
