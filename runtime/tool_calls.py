"""What a tool call is (``ToolRequest``), what it gets back, and how a retried call is answered
from what is stored. ``runtime.api`` re-exports the MiniApps' part of it; the Tool Router and the
services import it from here, below the façade.

``source_tool_call_id`` is the idempotency key within a conversation: a retry of the same call
(same tool, same arguments) returns the existing operation, receipt or final result and changes
nothing (SPEC R-3.5, R-3.7). The same key with another tool or other arguments is a client bug,
rejected ``idempotency_key_reused`` rather than silently answered with someone else's result.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.errors import Rejection, RejectionCode
from runtime.models import ToolCall


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


@dataclass(frozen=True)
class Accepted:
    """A long operation runs (or ran); ``result`` is its final result once there is one."""

    source_tool_call_id: str
    operation_id: uuid.UUID
    instance_id: uuid.UUID
    app_session_id: uuid.UUID
    replayed: bool = False
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class Receipt:
    """A short tool's receipt."""

    source_tool_call_id: str
    receipt: dict[str, Any]
    replayed: bool = False


@dataclass(frozen=True)
class Rejected:
    source_tool_call_id: str
    code: RejectionCode
    detail: str
    # An ambiguous stop's running operations (ids, app, started_at, label): the Agent picks one.
    candidates: list[dict[str, Any]] | None = None


ToolOutcome = Accepted | Receipt | Rejected


def _same_json(stored: Any, given: Any) -> bool:
    # Python's == says True == 1 == 1.0, but as JSON they are different calls (and only the int
    # passes the input schema), so compare the canonical JSON texts instead.
    def canonical(value: Any) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)

    return canonical(stored) == canonical(given)


def replay(call: ToolCall, *, caller: str, tool: str, arguments: dict[str, Any]) -> Accepted | Receipt:
    """Answer a retry of ``call`` from the stored rows.

    A retry is the same caller sending the same call. Another Agent of the user re-using the id is
    refused like different arguments, with the same detail: a replay would hand it the other
    Agent's operation ids and receipt.
    """
    if call.caller != caller or call.tool != tool or not _same_json(call.arguments, arguments):
        raise Rejection(
            RejectionCode.IDEMPOTENCY_KEY_REUSED,
            f"source_tool_call_id {call.source_tool_call_id!r} was already used for another call in this conversation",
        )
    operation = getattr(call, "operation", None)
    if operation is not None:
        return Accepted(
            source_tool_call_id=call.source_tool_call_id,
            operation_id=operation.id,
            instance_id=operation.instance_id,
            app_session_id=operation.app_session_id,
            replayed=True,
            result=call.result,
        )
    return Receipt(source_tool_call_id=call.source_tool_call_id, receipt=call.receipt or {}, replayed=True)
