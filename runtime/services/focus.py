"""Focus: starting, interrupting and settling Pomodoro deadline operations (SPEC §3).

Every service here runs in one durable transaction that locks the conversation's workspace row
first and the operation second, decides with ``runtime.transitions.decide_settlement`` and
applies the decision with a compare-and-set on the operation's state. The outbox row is written
in the same transaction; projections and deadline wake-ups leave only after commit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from runtime.clock import isoformat, to_millis
from runtime.deadlines import schedule_deadline_on_commit
from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.manifests import get_manifest
from runtime.models import (
    AppInstance,
    AppSession,
    DeliveryChannel,
    InstanceSnapshot,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.projections import project_on_commit
from runtime.services.workspace import bring_to_foreground, close_instance_locked, lock_workspace
from runtime.tool_calls import Accepted, Receipt, replay
from runtime.transitions import (
    AlreadyFinal,
    NotDue,
    OperationState,
    SettlementDecision,
    Trigger,
    decide_settlement,
)

POMODORO_APP_ID = "pomodoro"
START_TOOL = "pomodoro.start"
INTERRUPT_TOOL = "pomodoro.interrupt"


def operation_result(operation: Operation) -> dict[str, Any]:
    """The final result of ``pomodoro.start`` (its frozen result_schema, SPEC §3.1)."""
    result = {
        "state": operation.state,
        "operation_id": str(operation.id),
        "started_at": isoformat(operation.started_at),
        "ends_at": isoformat(operation.ends_at),
        "ended_at": isoformat(operation.ended_at),
    }
    if operation.interruption_reason:
        result["interruption_reason"] = operation.interruption_reason
    return result


def operation_projection(operation: Operation) -> dict[str, Any]:
    projection = {
        "operation_id": str(operation.id),
        "instance_id": str(operation.instance_id),
        "app_session_id": str(operation.app_session_id),
        "activity": operation.activity,
        "state": operation.state,
        "started_at": isoformat(operation.started_at),
        "ends_at": isoformat(operation.ends_at),
    }
    if operation.ended_at is not None:
        projection["ended_at"] = isoformat(operation.ended_at)
    if operation.interruption_reason:
        projection["interruption_reason"] = operation.interruption_reason
    return projection


@transaction.atomic(durable=True)
def start_focus(
    *,
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    duration_seconds: int,
    activity: str | None,
    caller: str,
    now: datetime,
    agent_id: uuid.UUID | None = None,
    channel: str = DeliveryChannel.AGENT_SOCKET,
) -> Accepted:
    """Start a focus: create the Pomodoro instance, its sub-session and its deadline operation.

    Locks the workspace, so concurrent starts in one conversation are decided one at a time:
    a retry of the same call is answered from the stored rows; any other start while one is
    focusing is rejected ``active_focusing_operation`` with nothing created (R-3.12). Brings
    Pomodoro to the foreground (Interact to the background) and, on commit, schedules the
    deadline and projects the new state.
    """
    workspace = lock_workspace(conversation_id, now=now)
    arguments: dict[str, Any] = {"duration_seconds": duration_seconds}
    if activity is not None:
        arguments["activity"] = activity
    existing = ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id).first()
    if existing is not None:
        outcome = replay(existing, caller=caller, tool=START_TOOL, arguments=arguments)
        assert isinstance(outcome, Accepted)
        return outcome
    running = Operation.objects.filter(conversation_id=conversation_id, state=OperationState.FOCUSING).first()
    if running is not None:
        raise Rejection(
            RejectionCode.ACTIVE_FOCUSING_OPERATION,
            "this conversation already has a focusing operation; interrupt it or wait for its result",
            operation_id=str(running.id),
        )

    started_at = to_millis(now)
    ends_at = started_at + timedelta(seconds=duration_seconds)
    instance = AppInstance.objects.create(conversation_id=conversation_id, app_id=POMODORO_APP_ID, opened_at=started_at)
    session = AppSession.objects.create(instance=instance, conversation_id=conversation_id, opened_at=started_at)
    contract = get_manifest(POMODORO_APP_ID).instance_state
    InstanceSnapshot.objects.create(instance=instance, schema_version=contract.schema_version, updated_at=started_at)
    call = ToolCall.objects.create(
        conversation_id=conversation_id,
        source_tool_call_id=source_tool_call_id,
        tool=START_TOOL,
        arguments=arguments,
        caller=caller,
        agent_id=agent_id,
        channel=channel,
        status=ToolCallStatus.ACCEPTED,
        instance=instance,
        created_at=started_at,
    )
    operation = Operation.objects.create(
        conversation_id=conversation_id,
        instance=instance,
        app_session=session,
        tool_call=call,
        source_tool_call_id=source_tool_call_id,
        activity=activity,
        duration_seconds=duration_seconds,
        started_at=started_at,
        ends_at=ends_at,
    )
    ids = {
        "conversation_id": conversation_id,
        "instance_id": instance.id,
        "app_session_id": session.id,
        "operation_id": operation.id,
        "source_tool_call_id": source_tool_call_id,
    }
    record_event("instance.opened", at=now, app_id=POMODORO_APP_ID, **ids)
    record_event("app_session.opened", at=now, **ids)
    record_event(
        "operation.started",
        at=now,
        duration_seconds=duration_seconds,
        activity=activity,
        ends_at=isoformat(ends_at),
        caller=caller,
        **ids,
    )
    bring_to_foreground(workspace, instance, now=now)
    project_on_commit(conversation_id, "operation.started", operation_projection(operation))
    schedule_deadline_on_commit(operation.id, ends_at)
    return Accepted(
        source_tool_call_id=source_tool_call_id,
        operation_id=operation.id,
        instance_id=instance.id,
        app_session_id=session.id,
    )


@transaction.atomic(durable=True)
def interrupt_focus(
    *, conversation_id: uuid.UUID | str, source_tool_call_id: str, caller: str, now: datetime
) -> Receipt:
    """The Agent's ``pomodoro.interrupt``: settle the conversation's focusing operation.

    Takes no target: it binds the single focusing operation of ``conversation_id`` under the
    workspace lock (R-3.6). Receipts: ``interrupted``; ``operation_already_final`` when the
    conversation's latest operation had already ended (or reached ``ends_at``, in which case it
    settles ``completed`` here); ``no_active_focusing_operation`` when it never had one (R-3.7).
    """
    workspace = lock_workspace(conversation_id, now=now)
    existing = ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id).first()
    if existing is not None:
        outcome = replay(existing, caller=caller, tool=INTERRUPT_TOOL, arguments={})
        assert isinstance(outcome, Receipt)
        return outcome

    operations = Operation.objects.select_for_update().filter(conversation_id=conversation_id)
    # The focusing operation, whatever the clocks say: an earlier one started in the same
    # millisecond (or on a clock that stepped back) must not shadow it. Otherwise the latest.
    operation = operations.filter(state=OperationState.FOCUSING).first() or operations.order_by("-started_at").first()
    was_focusing = operation is not None and operation.state == OperationState.FOCUSING
    if operation is None:
        receipt: dict[str, Any] = {"status": "no_active_focusing_operation"}
    else:
        decision = decide_settlement(operation.state, Trigger.AGENT_INTERRUPT, ends_at=operation.ends_at, now=now)
        settled = _apply_settlement(workspace, operation, decision, trigger=Trigger.AGENT_INTERRUPT, now=now)
        status = (
            "interrupted" if settled and operation.state == OperationState.INTERRUPTED else "operation_already_final"
        )
        receipt = {"status": status, "operation_id": str(operation.id)}

    ToolCall.objects.create(
        conversation_id=conversation_id,
        source_tool_call_id=source_tool_call_id,
        tool=INTERRUPT_TOOL,
        arguments={},
        caller=caller,
        status=ToolCallStatus.SUCCEEDED,
        # A closed instance takes no more tool calls; a late interrupt is about it, not to it.
        instance_id=operation.instance_id if was_focusing else None,
        receipt=receipt,
        created_at=now,
        finished_at=now,
    )
    record_event(
        "tool.receipt",
        at=now,
        conversation_id=conversation_id,
        operation_id=operation.id if operation else None,
        source_tool_call_id=source_tool_call_id,
        tool=INTERRUPT_TOOL,
        status=receipt["status"],
        caller=caller,
    )
    return Receipt(source_tool_call_id=source_tool_call_id, receipt=receipt)


@dataclass(frozen=True)
class SettleOutcome:
    operation_id: uuid.UUID
    decision: SettlementDecision
    settled: bool  # this call won the compare-and-set and wrote the terminal state


@transaction.atomic(durable=True)
def settle_operation(*, operation_id: uuid.UUID | str, trigger: Trigger, now: datetime) -> SettleOutcome:
    """Settle one operation if ``trigger`` ends it now; a no-op when it is final or not due.

    The entry point of the eta task, the beat sweep and recovery (trigger ``deadline``); safe to
    call any number of times, concurrently.
    """
    conversation_id = Operation.objects.values_list("conversation_id", flat=True).get(pk=operation_id)
    workspace = lock_workspace(conversation_id, now=now)
    operation = Operation.objects.select_for_update().get(pk=operation_id)
    decision = decide_settlement(operation.state, trigger, ends_at=operation.ends_at, now=now)
    settled = _apply_settlement(workspace, operation, decision, trigger=trigger, now=now)
    return SettleOutcome(operation_id=operation.id, decision=decision, settled=settled)


def settle_for_lifecycle(
    workspace: Workspace,
    operation: Operation,
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None = None,
) -> SettlementDecision:
    """Settle a focusing operation because of a lifecycle event (return / switch / close, R-3.8).

    For the lifecycle services, which already hold the workspace lock; no Agent tool call is
    faked: the start's result is the only result.
    """
    operation = Operation.objects.select_for_update().get(pk=operation.pk)
    decision = decide_settlement(operation.state, trigger, ends_at=operation.ends_at, now=now)
    _apply_settlement(workspace, operation, decision, trigger=trigger, now=now, next_foreground=next_foreground)
    return decision


def _apply_settlement(
    workspace: Workspace,
    operation: Operation,
    decision: SettlementDecision,
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None = None,
) -> bool:
    """Write a settlement: compare-and-set the state, write the single outbox entry, then close.

    Order (R-4.2.4): the result and outbox first, then the instance closes, its sub-session ends
    and the previous foreground app (Interact) returns — all in the caller's transaction.
    Returns whether this call settled the operation.
    """
    ids = {
        "conversation_id": operation.conversation_id,
        "instance_id": operation.instance_id,
        "app_session_id": operation.app_session_id,
        "operation_id": operation.id,
        "source_tool_call_id": operation.source_tool_call_id,
    }
    if isinstance(decision, NotDue):
        record_event("operation.not_due", at=now, trigger=trigger.value, ends_at=isoformat(operation.ends_at), **ids)
        return False
    if isinstance(decision, AlreadyFinal):
        record_event(
            "operation.already_final", at=now, trigger=trigger.value, state=decision.state, level="debug", **ids
        )
        return False

    won = Operation.objects.filter(pk=operation.pk, state=OperationState.FOCUSING).update(
        state=decision.state,
        ended_at=decision.ended_at,
        interruption_reason=decision.interruption_reason,
        settled_at=now,
    )
    if won != 1:  # unreachable under the workspace lock; the compare-and-set keeps it true anyway
        return False
    operation.refresh_from_db()
    result = operation_result(operation)
    ToolCall.objects.filter(pk=operation.tool_call_id).update(
        status=ToolCallStatus.SUCCEEDED, result=result, finished_at=now
    )
    # The result is the start call's caller's, whatever settled it (deadline, lifecycle, interrupt).
    owner_id, channel = ToolCall.objects.values_list("agent_id", "channel").get(pk=operation.tool_call_id)
    entry = OutboxEntry.objects.create(
        conversation_id=operation.conversation_id,
        operation=operation,
        tool_call_id=operation.tool_call_id,
        agent_id=owner_id,
        channel=channel,
        next_attempt_at=now,
        payload={
            "source_tool_call_id": operation.source_tool_call_id,
            "tool": START_TOOL,
            "conversation_id": str(operation.conversation_id),
            "result": result,
        },
        created_at=now,
    )
    record_event(
        f"operation.{decision.state}",
        at=now,
        trigger=trigger.value,
        ended_at=result["ended_at"],
        interruption_reason=decision.interruption_reason,
        lag_ms=round((now - operation.ends_at).total_seconds() * 1000)
        if decision.state == OperationState.COMPLETED
        else None,
        **ids,
    )
    record_event("outbox.written", at=now, outbox_id=entry.id, **ids)
    project_on_commit(operation.conversation_id, "operation.settled", operation_projection(operation))

    instance = AppInstance.objects.get(pk=operation.instance_id)
    close_reason = decision.interruption_reason or "completed"
    close_instance_locked(workspace, instance, reason=close_reason, now=now, next_foreground=next_foreground)
    return True
