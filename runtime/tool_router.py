"""The Tool Router: every Agent tool call enters the Runtime here (SPEC R-2.2.3, R-3.11).

In order, a call must name a conversation the caller may act on, be a retry (answered from the
stored rows) or name a tool published to that conversation, carry the current Inventory
revision and arguments that satisfy the tool's input schema. Only then is the tool's service
called. Any failure is a stable ``Rejected`` that changed nothing and never starts or wakes an
app; each rejection is one event and one log line.
"""

from __future__ import annotations

import contextlib
import copy
import uuid
from collections.abc import Collection, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError

from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.inventory import inventory_for_scope
from runtime.manifests import ToolDescriptor, first_error, get_tool
from runtime.miniapps import handler
from runtime.models import Conversation, DeliveryChannel, Operation
from runtime.selectors import conversation_by_id, find_tool_call
from runtime.services.operation_views import busy_rejection, check_receipt
from runtime.tool_calls import Accepted, Receipt, Rejected, ToolOutcome, ToolRequest, replay
from runtime.transitions import RUNNING_STATES

MAX_SOURCE_TOOL_CALL_ID_LENGTH = 128


def enforced_input_schema(tool: str, input_schema: dict[str, Any]) -> dict[str, Any]:
    """``input_schema`` with the Router's own bounds written in: exactly what a call may send.

    A frozen schema may set no upper bound on an operation's duration; the manifest's
    ``deadline_operation.max_duration_seconds`` does, so a typo can not book a year. The Inventory
    keeps publishing the frozen schema (its revision is a digest of it); a gateway whose clients
    read bounds only from the schema (MCP's ``inputSchema``) publishes this one.
    """
    descriptor = get_tool(tool)
    policy = descriptor.operation if descriptor else None
    if policy is None:
        return input_schema
    schema = copy.deepcopy(input_schema)
    bounds = schema["properties"][policy.duration_argument]
    bounds["maximum"] = policy.max_duration_seconds
    bounds["minimum"] = max(bounds.get("minimum", 1), 1)
    return schema


@dataclass(frozen=True)
class Caller:
    """Who is calling: the user the Agent acts for, and the conversations it is bound to."""

    label: str  # "agent:<id>" — recorded on the tool call
    user_id: int
    conversation_ids: Collection[str] | None = None  # None: every conversation of the user
    agent_id: uuid.UUID | None = None  # the Agent whose results these calls' operations are
    channel: str = DeliveryChannel.AGENT_SOCKET  # how that Agent reads them (pushed, or over MCP)


_read_in_this_call: ContextVar[Conversation | None] = ContextVar("conversation_read_in_this_call", default=None)


@contextlib.contextmanager
def conversation_read(conversation: Conversation | None) -> Iterator[None]:
    """Within the block, ``access_conversation`` takes this row instead of reading it again: a
    gateway that read it in the same database call (with the frame's credential) passes it on."""
    token = _read_in_this_call.set(conversation)
    try:
        yield
    finally:
        _read_in_this_call.reset(token)


def access_conversation(caller: Caller, conversation_id: object) -> Conversation:
    """The conversation, if ``caller`` may act on it; ``unknown_conversation`` / ``forbidden`` otherwise."""
    conversation = _read_in_this_call.get()
    try:
        if conversation is None or conversation.id != uuid.UUID(str(conversation_id)):
            conversation = conversation_by_id(uuid.UUID(str(conversation_id)))
    except ValueError:
        conversation = None
    if conversation is None:
        raise Rejection(RejectionCode.UNKNOWN_CONVERSATION, "no such conversation")
    bound = caller.conversation_ids is None or str(conversation.id) in {str(c) for c in caller.conversation_ids}
    if conversation.owner_id != caller.user_id or not bound:
        raise Rejection(RejectionCode.FORBIDDEN, "this Agent may not act on that conversation")
    return conversation


def route_tool_call(
    *,
    caller: Caller,
    conversation_id: object,
    source_tool_call_id: object,
    tool: object,
    arguments: object,
    inventory_revision: object,
    now: datetime,
) -> ToolOutcome:
    """Validate one Agent tool call and hand it to its service. Never raises a Rejection."""
    call_id = source_tool_call_id if isinstance(source_tool_call_id, str) else ""
    try:
        return _route(caller, conversation_id, source_tool_call_id, tool, arguments, inventory_revision, now)
    except Rejection as rejection:
        record_event(
            "tool.rejected",
            at=now,
            conversation_id=_uuid_or_none(conversation_id),
            source_tool_call_id=call_id[:MAX_SOURCE_TOOL_CALL_ID_LENGTH],
            operation_id=rejection.context.get("operation_id"),
            # An app's bad receipt is a bug for its author to fix, not a caller's mistake.
            level="error" if rejection.code == RejectionCode.RECEIPT_INVALID else "warning",
            tool=str(tool)[:128],
            code=rejection.code,
            detail=rejection.detail,
            caller=caller.label,
        )
        return Rejected(
            source_tool_call_id=call_id,
            code=rejection.code,
            detail=rejection.detail,
            candidates=rejection.context.get("candidates"),  # type: ignore[arg-type]
        )


def _route(
    caller: Caller,
    conversation_id: object,
    source_tool_call_id: object,
    tool: object,
    arguments: object,
    inventory_revision: object,
    now: datetime,
) -> Accepted | Receipt:
    if not isinstance(source_tool_call_id, str) or not 1 <= len(source_tool_call_id) <= MAX_SOURCE_TOOL_CALL_ID_LENGTH:
        raise Rejection(
            RejectionCode.INVALID_ARGUMENTS,
            f"source_tool_call_id must be a string of 1 to {MAX_SOURCE_TOOL_CALL_ID_LENGTH} characters",
        )
    conversation = access_conversation(caller, conversation_id)
    if not isinstance(tool, str):
        raise Rejection(RejectionCode.UNKNOWN_TOOL, "tool must be a tool name")
    if not isinstance(arguments, dict):
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, "arguments must be a JSON object")

    try:
        descriptor = _validate(conversation, tool, arguments, inventory_revision)
    except Rejection:
        # A retry is answered from what is stored, even if the Inventory moved on since. (A valid
        # call's service looks for its retry itself, once, under the workspace lock.)
        existing = find_tool_call(conversation_id=conversation.id, source_tool_call_id=source_tool_call_id)
        if existing is not None:
            return replay(existing, caller=caller.label, tool=tool, arguments=arguments)
        raise

    request = ToolRequest(
        conversation_id=conversation.id,
        source_tool_call_id=source_tool_call_id,
        tool=tool,
        arguments=arguments,
        now=now,
        caller=caller.label,
        agent_id=caller.agent_id,
        channel=caller.channel,
    )
    run = handler(tool)
    if run is None:  # unreachable: a manifest can not publish a tool without a handler
        raise Rejection(RejectionCode.UNKNOWN_TOOL, f"{tool!r} has no handler in this process")
    try:
        outcome = run(request)
    except IntegrityError:
        # A constraint caught a race the workspace lock did not (e.g. SQLite without row locks):
        # answer as the winner's rows say.
        answer = _after_lost_race(conversation.id, descriptor, caller, source_tool_call_id, tool, arguments)
        if answer is None:
            raise
        return answer
    if isinstance(outcome, Receipt) and not outcome.replayed:
        # The Runtime's own short services check before writing; this holds a handler's own
        # Receipt (nothing the Runtime wrote) to the same result_schema (decision 0041).
        check_receipt(tool, outcome.receipt)
    return outcome


def _after_lost_race(
    conversation_id: object,
    descriptor: ToolDescriptor,
    caller: Caller,
    source_tool_call_id: str,
    tool: str,
    arguments: dict[str, Any],
) -> Accepted | Receipt | None:
    """The answer to a call that lost a race to a constraint: a retry's stored answer, or the busy
    rejection of the exclusive operation that won; None when neither explains it."""
    existing = find_tool_call(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id)
    if existing is not None:
        return replay(existing, caller=caller.label, tool=tool, arguments=arguments)
    policy = descriptor.operation
    running = (
        Operation.objects.filter(
            conversation_id=conversation_id, app_id=descriptor.app_id, exclusive=True, state__in=RUNNING_STATES
        ).first()
        if policy is not None and policy.exclusive
        else None
    )
    if policy is not None and running is not None:
        raise busy_rejection(policy, descriptor.app_id, running.id) from None
    return None


def _validate(
    conversation: Conversation, tool: str, arguments: dict[str, Any], inventory_revision: object
) -> ToolDescriptor:
    """The call names a tool published to the conversation, at its current revision, with valid
    arguments (within its manifest's bounds); its descriptor."""
    inventory = inventory_for_scope(conversation.scope)
    descriptor = inventory.get(tool)
    if descriptor is None:
        raise Rejection(RejectionCode.UNKNOWN_TOOL, f"{tool!r} is not in this conversation's Inventory")
    if inventory_revision != inventory.revision:
        raise Rejection(
            RejectionCode.STALE_INVENTORY,
            f"the Inventory is at revision {inventory.revision}; fetch it again before calling",
        )
    error = first_error(descriptor.input_validator, arguments)
    if error is not None:
        where, message = error
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, f"{where or '(arguments)'}: {message}")
    policy = descriptor.operation
    if policy is not None:
        duration = arguments.get(policy.duration_argument)
        if isinstance(duration, int) and duration > policy.max_duration_seconds:
            raise Rejection(
                RejectionCode.INVALID_ARGUMENTS,
                f"{policy.duration_argument}: {duration} is more than the limit of {policy.max_duration_seconds}",
            )
        # A schema without a minimum would let 0 through to a deadline at its own start, which the
        # database refuses (operation_ends_after_start): say so to the caller instead.
        if isinstance(duration, int) and duration < 1:
            raise Rejection(
                RejectionCode.INVALID_ARGUMENTS, f"{policy.duration_argument}: {duration} is less than the minimum of 1"
            )
    return descriptor


def _uuid_or_none(value: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None
