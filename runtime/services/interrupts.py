"""Stopping a running operation: an app's interrupt tool, an operator from the admin, its caller's
cancel (MCP ``tasks/cancel``). Each binds the operation under the workspace lock and settles it
as a deadline would (``runtime.services.settlements.settle_locked``), with the trigger that says
who stopped it; a stop that names none while two run is refused ``ambiguous_operation``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError

from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.events import decision, event_row, record_event
from runtime.manifests import get_manifest
from runtime.miniapps import registered
from runtime.models import Operation, ToolCall, ToolCallStatus
from runtime.services.operation_rows import lock_operations_by_id, lock_running_of_app
from runtime.services.operation_views import OperationView, check_receipt, event_ids
from runtime.services.settlements import SettleOutcome, settle_locked, write_receipt
from runtime.services.workspace_locks import lock_workspace, lock_workspace_of_operation
from runtime.tool_calls import Receipt, replay
from runtime.transitions import OperationState, Settle, Trigger, decide_settlement, is_running


# Long for its contract (a 13-line docstring, 8 arguments); the body, ~50 lines, is one stop read in order.
@decision
def interrupt_operation(
    *,
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    tool: str,
    caller: str,
    now: datetime,
    no_active_status: str = "no_active_operation",
    operation_id: uuid.UUID | str | None = None,
    arguments: dict[str, Any] | None = None,
) -> Receipt:
    """A short ``tool`` that stops a running operation of the tool's app in ``conversation_id``.

    ``operation_id`` names the one to stop (an app's tool may take it as an argument); without it
    the call binds the app's single running operation under the workspace lock (R-3.6), and when
    two or more run it is refused ``ambiguous_operation`` listing them, never guessed. Receipts:
    ``interrupted``; ``operation_already_final`` when the operation (the named one, or the app's
    latest) had already ended (or reached ``ends_at``, in which case it settles ``completed``
    here); ``no_active_status`` when the app never had one here (R-3.7). ``arguments``: the call's
    own, stored with it (a retry with other ones is ``idempotency_key_reused``). The receipt is
    checked against the tool's ``result_schema`` before anything is written.
    """
    app_id = tool.split(".", 1)[0]
    arguments = arguments or {}
    workspace = lock_workspace(conversation_id, now=now)
    retry = ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id)
    # The running operations (whatever the clocks say: an earlier one started in the same
    # millisecond, or on a clock that stepped back, must not shadow it), locked, with the retry check.
    running = lock_running_of_app(workspace.conversation_id, app_id, source_tool_call_id)
    retry_call_id = running[0].retry_call_id if running else retry.values_list("id", flat=True).first()
    if retry_call_id is not None:
        outcome = replay(ToolCall.objects.get(pk=retry_call_id), caller=caller, tool=tool, arguments=arguments)
        assert isinstance(outcome, Receipt)
        return outcome

    operation = _bound_operation(conversation_id, app_id, operation_id, running)
    was_running = operation is not None and is_running(operation.state)
    receipt = _receipt(operation, no_active_status=no_active_status, now=now)
    check_receipt(tool, receipt)
    call = ToolCall(
        conversation_id=workspace.conversation_id,
        source_tool_call_id=source_tool_call_id,
        tool=tool,
        arguments=arguments,
        caller=caller,
        status=ToolCallStatus.SUCCEEDED,
        # A closed instance takes no more tool calls; a late interrupt is about it, not to it.
        instance_id=operation.instance_id if was_running else None,
        receipt=receipt,
        created_at=now,
        finished_at=now,
    )
    event = event_row(
        "tool.receipt",
        at=now,
        conversation_id=conversation_id,
        operation_id=operation.id if operation else None,
        source_tool_call_id=source_tool_call_id,
        tool=tool,
        status=receipt["status"],
        caller=caller,
    )
    if operation is None:
        write_receipt((call, event))
    else:
        settle_locked([(workspace, operation)], trigger=Trigger.AGENT_INTERRUPT, now=now, receipt=(call, event))
    return Receipt(source_tool_call_id=source_tool_call_id, receipt=receipt)


def _bound_operation(
    conversation_id: uuid.UUID | str, app_id: str, operation_id: uuid.UUID | str | None, running: list[Operation]
) -> Operation | None:
    """The operation a stop is about: the named one, else the app's single running one (two or
    more: refused, never guessed), else the app's latest one, already final (None if it had none)."""
    if operation_id is not None:
        return _named_operation(conversation_id, app_id, operation_id, running)
    if len(running) > 1:
        raise _ambiguous_stop(running)
    if running:
        return running[0]
    return Operation.objects.filter(conversation_id=conversation_id, app_id=app_id).order_by("-started_at").first()


def _receipt(operation: Operation | None, *, no_active_status: str, now: datetime) -> dict[str, Any]:
    """What the stop answers; it follows from the same rule the settlement applies (so it can be
    written with it)."""
    if operation is None:
        return {"status": no_active_status}
    verdict = decide_settlement(operation.state, Trigger.AGENT_INTERRUPT, ends_at=operation.ends_at, now=now)
    interrupted = isinstance(verdict, Settle) and verdict.state == OperationState.INTERRUPTED
    return {"status": "interrupted" if interrupted else "operation_already_final", "operation_id": str(operation.id)}


def _named_operation(
    conversation_id: uuid.UUID | str, app_id: str, operation_id: uuid.UUID | str, running: list[Operation]
) -> Operation:
    """The operation a stop names: one of the app's in this conversation, else ``unknown_operation``."""
    for operation in running:
        if str(operation.id) == str(operation_id):
            return operation
    try:
        named = Operation.objects.filter(pk=operation_id, conversation_id=conversation_id, app_id=app_id).first()
    except (ValueError, ValidationError):
        named = None
    if named is None:
        raise Rejection(
            RejectionCode.UNKNOWN_OPERATION,
            f"no {app_id} operation {str(operation_id)[:64]!r} in this conversation",
            operation_id=None,
        )
    return named


def _ambiguous_stop(running: list[Operation]) -> Rejection:
    """Two or more of the app's operations run: the stop names none, so none is guessed."""
    candidates = [_candidate(operation) for operation in sorted(running, key=lambda o: (o.started_at, str(o.id)))]
    return Rejection(
        RejectionCode.AMBIGUOUS_OPERATION,
        f"{len(candidates)} operations of this app are running; name the one to stop by its operation_id",
        candidates=candidates,
    )


def _candidate(operation: Operation) -> dict[str, Any]:
    """How an ambiguous stop lists one running operation: its id, app, start and a label (the
    app's own ``label`` projection field, else its manifest's name)."""
    miniapp = registered(operation.app_id)
    extra = miniapp.projection(OperationView(operation)) if miniapp and miniapp.projection else {}
    manifest = get_manifest(operation.app_id)
    label = extra.get("label") if isinstance(extra.get("label"), str) else None
    return {
        "operation_id": str(operation.id),
        "app_id": operation.app_id,
        "started_at": isoformat(operation.started_at),
        "label": label or (manifest.name if manifest else operation.app_id),
    }


@decision
def interrupt_for_operator(
    *, operation_id: uuid.UUID | str, operator: str, reason: str, now: datetime
) -> SettleOutcome:
    """An operator ends a running operation from the admin (an incident), with the reason they typed.

    The same settlement as an Agent's interrupt (``settle_locked`` under the workspace lock): the
    start call's caller gets its one result, the instance closes, a late one settles ``completed``
    and a final one is left alone. The trigger is ``operator``, so the Agent's result says
    ``interruption_reason: "operator"`` (the start tool's frozen result_schema takes any string);
    who did it and why stay in the event log (``operator.interrupt``), never in an Agent's result,
    since an operator's note may name things that person should not read.
    """
    reason = reason.strip()
    if not reason:  # the admin's form refuses it first; an audit entry without a why is no audit
        raise ValueError("an operator interrupt needs a reason")
    workspace = lock_workspace_of_operation(operation_id, now=now)
    if workspace is None:
        raise Operation.DoesNotExist(f"no operation {operation_id}")
    [operation] = lock_operations_by_id([operation_id])
    [outcome] = settle_locked([(workspace, operation)], trigger=Trigger.OPERATOR, now=now)
    record_event(
        "operator.interrupt",
        at=now,
        operator=operator,
        reason=reason,
        # Bounded (the metrics' outcome label): what this request did to the operation.
        status=operation.state if outcome.settled else "already_final",
        **event_ids(operation),
    )
    return outcome


@decision
def cancel_operation(*, operation_id: uuid.UUID | str, caller: str, now: datetime) -> SettleOutcome:
    """The caller that started an operation ends it by its id (MCP ``tasks/cancel``, SEP-2663).

    The same settlement as the app's interrupt tool (trigger ``agent_interrupt``, under the
    workspace lock): the start call gets its one result (``interrupted``, reason
    ``agent_interrupt``), a late one settles ``completed`` and a final one is left alone, so a
    repeated cancel is a no-op. ``Operation.DoesNotExist`` when there is no such operation of
    ``caller``'s (another caller's operation is not theirs to end).
    """
    workspace = lock_workspace_of_operation(operation_id, now=now)
    if workspace is None:
        raise Operation.DoesNotExist(f"no operation {operation_id}")
    [operation] = lock_operations_by_id([operation_id])
    if operation.tool_call.caller != caller:
        raise Operation.DoesNotExist(f"no operation {operation_id} of {caller}")
    [outcome] = settle_locked([(workspace, operation)], trigger=Trigger.AGENT_INTERRUPT, now=now)
    return outcome
