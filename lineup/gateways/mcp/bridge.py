"""The synchronous side of the MCP endpoint: binding, tool calls and task state, read from the database.

Each function runs on a database thread (``runtime.db_threads.run_db``) and returns plain data. Nothing is
kept in the process between requests: an MCP task *is* the Operation row of the ``pomodoro.start``
that created it (the task id is the operation id), its status is the operation's state and its result
is the tool call's stored result, so any Daphne process answers ``tasks/get`` and ``tasks/result``.

Tool calls go through the one Tool Router with a Caller bound to exactly the conversation the URL
names. The idempotency key is the client's ``_meta["lineup/idempotency_key"]`` (stored as
``source_tool_call_id = "mcp:" + key``); without one every call gets a fresh key, because an MCP
request id is only unique within one client connection (decision 0008).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from runtime.clock import isoformat
from runtime.inventory import Inventory, inventory_for_scope
from runtime.models import DeliveryChannel, Operation, OutboxEntry
from runtime.services.agents import authenticate_agent, token_digest, token_refusal
from runtime.services.interrupts import cancel_operation
from runtime.services.operation_views import operation_projection, wire_state
from runtime.services.outbox import ack_lapsed_outbox_entries, ack_outbox_entry
from runtime.tool_calls import Accepted, ToolOutcome
from runtime.tool_router import Caller, access_conversation, route_tool_call
from runtime.transitions import FINAL_OPERATION_STATES

IDEMPOTENCY_KEY_META = "lineup/idempotency_key"
INVENTORY_REVISION_META = "lineup/inventory_revision"
SOURCE_PREFIX = "mcp:"  # keeps MCP keys apart from a WebSocket Agent's in the same conversation
OPERATION_URI_PREFIX = "lineup://operations/"
RECENT_OPERATIONS = 20


# The Runtime's own keys of an operation's projection; every other key is the app's.
RUNTIME_PROJECTION_KEYS = frozenset(
    {
        "operation_id",
        "instance_id",
        "app_session_id",
        "state",
        "started_at",
        "ends_at",
        "ended_at",
        "interruption_reason",
        "ends_when_left",
    }
)


def app_fields(operation: Operation) -> dict[str, Any]:
    """The app's own fields of its operation's projection (none of the Runtime's; no None values)."""
    return {
        key: value
        for key, value in operation_projection(operation).items()
        if key not in RUNTIME_PROJECTION_KEYS and value is not None
    }


class Unauthenticated(Exception):
    """No token, or one that is unknown or revoked."""


class TokenWithdrawn(Exception):
    """The request's token was revoked (or its user deactivated) while the request was held open."""


@dataclass(frozen=True)
class Binding:
    """One authenticated request: the Agent and the single conversation its URL names."""

    agent_id: str
    caller: Caller
    conversation_id: str
    conversation_scope: str
    token_digest: str  # re-read by requests held open (tasks/result): a revocation ends them too


@dataclass(frozen=True)
class OperationView:
    """An operation as its MCP task and fallback resource show it."""

    operation_id: str
    instance_id: str
    app_session_id: str
    state: str  # in the app's words (wire_state): its running_label while it runs
    started_at: datetime
    ends_at: datetime
    settled_at: datetime | None
    result: dict[str, Any] | None  # the final result of pomodoro.start, once settled
    app_id: str = ""
    fields: dict[str, Any] = field(default_factory=dict)  # the app's own projection fields (app_fields)

    @property
    def final(self) -> bool:
        return self.state in FINAL_OPERATION_STATES and self.result is not None

    @property
    def uri(self) -> str:
        return OPERATION_URI_PREFIX + self.operation_id

    def receipt(self) -> dict[str, Any]:
        """What a ``pomodoro.start`` call answers at once (and a retry of it, with the result once final)."""
        receipt: dict[str, Any] = {
            **self.fields,  # the app's own (Pomodoro: activity), under the Runtime's keys
            "app_id": self.app_id,
            "operation_id": self.operation_id,
            "instance_id": self.instance_id,
            "app_session_id": self.app_session_id,
            "state": self.state,
            "started_at": isoformat(self.started_at),
            "ends_at": isoformat(self.ends_at),
            "result_uri": self.uri,
        }
        if self.result is not None:
            receipt["result"] = self.result
        return receipt


@dataclass(frozen=True)
class CallAnswer:
    source_tool_call_id: str
    outcome: ToolOutcome
    operation: OperationView | None = None  # for an accepted pomodoro.start


def bind(*, token: str | None, conversation_id: str, now: datetime) -> Binding:
    """Authenticate the Agent and check it may act on ``conversation_id``.

    Raises ``Unauthenticated``, or the Rejection of ``access_conversation`` (``unknown_conversation`` /
    ``forbidden``). The token is checked on every request, so a revoked one stops working at once.
    """
    agent = authenticate_agent(token, now=now)
    if agent is None:
        raise Unauthenticated
    # Results of calls made here are read here (tasks/result), never pushed to a WebSocket.
    caller = Caller(
        label=f"agent:{agent.id}",
        user_id=agent.user_id,
        conversation_ids=[conversation_id],
        agent_id=agent.id,
        channel=DeliveryChannel.MCP,
    )
    conversation = access_conversation(caller, conversation_id)
    return Binding(
        agent_id=str(agent.id),
        caller=caller,
        conversation_id=str(conversation.id),
        conversation_scope=conversation.scope,
        token_digest=token_digest(token),  # type: ignore[arg-type]  # authenticate_agent checked it is a str
    )


def check_token(binding: Binding) -> None:
    """Raise ``TokenWithdrawn`` if the binding's token no longer authenticates (revoked, user deactivated).

    ``bind`` checks the token when a request arrives; a request that waits (``tasks/result`` until the
    focus ends) calls this before each read and before delivering, so it can not outlive the token.
    """
    reason = token_refusal(binding.token_digest)
    if reason is not None:
        raise TokenWithdrawn(reason)


def held_states(held: list[tuple[Binding, str]]) -> list[OperationView | Exception]:
    """For each held ``(binding, operation_id)``: the operation now, ``TokenWithdrawn`` if its token no
    longer authenticates, or ``LookupError`` if the operation is not its Agent's.

    One database hop for every request held in the process (``lineup.gateways.mcp.holding``): each
    distinct token is read once, the operations in one query.
    """
    refusals = {digest: token_refusal(digest) for digest in {binding.token_digest for binding, _ in held}}
    ids = {operation_id for _, operation_id in held if _is_uuid(operation_id)}
    rows = {str(row.id): row for row in Operation.objects.select_related("tool_call").filter(pk__in=ids)}
    states: list[OperationView | Exception] = []
    for binding, operation_id in held:
        reason = refusals[binding.token_digest]
        row = rows.get(operation_id)
        if reason is not None:
            states.append(TokenWithdrawn(reason))
        elif (
            row is None
            or str(row.conversation_id) != binding.conversation_id
            or row.tool_call.caller != binding.caller.label
        ):
            states.append(LookupError(operation_id))
        else:
            states.append(_view(row))
    return states


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def inventory(binding: Binding) -> Inventory:
    return inventory_for_scope(binding.conversation_scope)


def source_tool_call_id(meta: dict[str, Any]) -> object:
    """The idempotency key of one MCP tool call; an invalid key is passed on for the router to reject."""
    key = meta.get(IDEMPOTENCY_KEY_META)
    if key is None:
        return SOURCE_PREFIX + uuid.uuid4().hex
    if not isinstance(key, str) or not key:
        return key
    return SOURCE_PREFIX + key


def call_tool(
    binding: Binding, *, name: str, arguments: dict[str, Any] | None, meta: dict[str, Any], now: datetime
) -> CallAnswer:
    """Route one ``tools/call`` through the Tool Router; never raises a Rejection.

    The Inventory revision is the client's ``_meta["lineup/inventory_revision"]`` when it sends one
    (checked like the WebSocket's); a client that can not echo it is answered under the revision
    its own ``tools/list`` would show now.
    """
    source = source_tool_call_id(meta)
    revision = meta.get(INVENTORY_REVISION_META, inventory(binding).revision)
    outcome = route_tool_call(
        caller=binding.caller,
        conversation_id=binding.conversation_id,
        source_tool_call_id=source,
        tool=name,
        arguments={} if arguments is None else arguments,
        inventory_revision=revision,
        now=now,
    )
    if not isinstance(outcome, Accepted):
        return CallAnswer(source_tool_call_id=outcome.source_tool_call_id, outcome=outcome)
    view = operation(binding, str(outcome.operation_id))
    assert view is not None  # the router just accepted it for this caller
    if view.final:
        deliver_result(binding, view, now=now)  # a retry after the end carries the result
    return CallAnswer(source_tool_call_id=outcome.source_tool_call_id, outcome=outcome, operation=view)


def operation(binding: Binding, operation_id: str) -> OperationView | None:
    """An operation this Agent started in the bound conversation, or None (tasks are the caller's own)."""
    try:
        uuid.UUID(operation_id)
    except ValueError:
        return None
    row = (
        Operation.objects.select_related("tool_call")
        .filter(pk=operation_id, conversation_id=binding.conversation_id, tool_call__caller=binding.caller.label)
        .first()
    )
    return _view(row) if row is not None else None


def cancel(binding: Binding, operation_id: str, *, now: datetime) -> OperationView | None:
    """End this Agent's operation ``operation_id`` now (``tasks/cancel``), through the Runtime's one
    interrupt settlement; the operation as it stands after, or None when it is not this Agent's.
    A final operation is left as it is: its one result stays the truth."""
    view = operation(binding, operation_id)
    if view is None or view.final:
        return view
    try:
        cancel_operation(operation_id=view.operation_id, caller=binding.caller.label, now=now)
    except Operation.DoesNotExist:  # deleted meanwhile (its conversation was)
        return None
    return operation(binding, operation_id)


def recent_operations(binding: Binding) -> list[OperationView]:
    rows = (
        Operation.objects.select_related("tool_call")
        .filter(conversation_id=binding.conversation_id, tool_call__caller=binding.caller.label)
        .order_by("-started_at")[:RECENT_OPERATIONS]
    )
    return [_view(row) for row in rows]


def deliver_result(binding: Binding, view: OperationView, *, now: datetime, recheck: bool = False) -> bool:
    """Ack the operation's outbox entry: its result reached the Agent over MCP.

    ``recheck``: the request was held open, so its token is checked again first (``TokenWithdrawn``,
    nothing acked: the result is not handed to a token revoked while it waited).

    The WebSocket path then stops resending it. Nothing is lost by acking before the response is
    written: the result stays on the tool call, and the task answers again with it.
    """
    if recheck:
        check_token(binding)
    # Only this Agent's MCP-started results are delivered here; another caller's stay theirs.
    outbox_id = (
        OutboxEntry.objects.filter(
            operation_id=view.operation_id, agent_id=binding.agent_id, channel=DeliveryChannel.MCP
        )
        .values_list("id", flat=True)
        .first()
    )
    if outbox_id is None:
        return False
    return ack_outbox_entry(outbox_id=outbox_id, agent_id=binding.agent_id, now=now)


# How long after its deadline a task is promised to stay readable (its ttlMs counts from its start).
# The rows are kept longer (the Runtime's retention); the promise is what a client may rely on.
TASK_RESULT_TTL = timedelta(hours=24)
TASK_TTL_SWEEPER = "mcp_tasks_lapsed"
TASK_TTL_BATCH = 500  # entries acked per sweep at most: one sweep stays short whatever the backlog


def ack_lapsed_tasks(now: datetime) -> int:
    """The periodic sweep's part for MCP (decision 0044): ack the outbox entries of tasks whose
    ``ttlMs`` ran out unread. An Agent that polls acks its entry with the first ``tasks/get`` or
    ``tasks/result`` that returns the result; one that never does would leave it unacked for ever."""
    return ack_lapsed_outbox_entries(
        channel=DeliveryChannel.MCP, kept_for=TASK_RESULT_TTL, now=now, limit=TASK_TTL_BATCH
    )


def _view(row: Operation) -> OperationView:
    return OperationView(
        operation_id=str(row.id),
        instance_id=str(row.instance_id),
        app_session_id=str(row.app_session_id),
        state=wire_state(row),
        started_at=row.started_at,
        ends_at=row.ends_at,
        settled_at=row.settled_at,
        result=row.tool_call.result,
        app_id=row.app_id,
        fields=app_fields(row),
    )
