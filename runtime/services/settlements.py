"""Settling deadline operations, for any MiniApp (SPEC §3): one operation or a batch, one code path.

Every service here runs in one durable transaction (``@decision``) that locks the conversation's
workspace row first and the operation second, decides with ``runtime.transitions.decide_settlement``
and applies the decision with a compare-and-set on the operation's state. The outbox row is written
in the same transaction; projections and deadline wake-ups leave only after commit.

Settlements are applied by ``settle_locked`` one statement per table, whether they are one (an
interrupt, an eta task, a lifecycle event) or a batch of due deadlines (the sweep, recovery): one
code path, so a batch settles each operation exactly as it would settle alone. Each reads what it
needs in the statement that locks the operation (``runtime.services.operation_rows``), so a
decision costs about ten statements whatever the conversation's history. Those statements are the
same on SQLite and PostgreSQL (decision 0056): there is no second implementation of a
settlement's writes (the PL/pgSQL ``runtime_settle_batch`` / ``runtime_settle_single`` of
decision 0030 are kept only for the previous release, and dropped in the next one).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import F

from runtime.clock import isoformat
from runtime.events import decision, record_event, write_event
from runtime.models import AppInstance, LifecycleEvent, Operation, OutboxEntry, ToolCall, ToolCallStatus, Workspace
from runtime.services.operation_rows import lock_operations_by_id
from runtime.services.operation_views import checked_result, event_ids, project_settled
from runtime.services.row_writes import EachRow, Returned, batch, insert_rows, update_rows
from runtime.services.workspace import Closing, close_instances
from runtime.services.workspace_locks import lock_workspace_of_operation, lock_workspaces_of_operations
from runtime.transitions import (
    RUNNING_STATES,
    AlreadyFinal,
    NotDue,
    OperationState,
    Settle,
    SettlementDecision,
    Trigger,
    decide_settlement,
)


def flag_invalid_results(operations: list[Operation], *, now: datetime) -> None:
    """Flag, for an operator, the operations a settlement ended with ``invalid_result`` (the
    admin's "needs an operator"): one statement, and only when there is one (an app's bug)."""
    for operation in operations:
        problem = getattr(operation, "result_problem", None)
        if problem is None:
            continue
        Operation.objects.filter(pk=operation.pk).update(
            settle_failures=F("settle_failures") + 1,
            next_settle_attempt_at=now,
            last_settle_error=problem,
            settle_flagged_at=now,
        )


def write_receipt(receipt: tuple[ToolCall, LifecycleEvent]) -> None:
    call, event = receipt
    insert_rows([call])
    write_event(event)


@dataclass(frozen=True)
class SettleOutcome:
    operation_id: uuid.UUID
    decision: SettlementDecision
    settled: bool  # this call won the compare-and-set and wrote the terminal state


@decision
def settle_operation(*, operation_id: uuid.UUID | str, trigger: Trigger, now: datetime) -> SettleOutcome:
    """Settle one operation if ``trigger`` ends it now; a no-op when it is final or not due.

    The entry point of the eta task and of a sweep's one-by-one retry (trigger ``deadline``); safe
    to call any number of times, concurrently. ``Operation.DoesNotExist`` when there is no such row.
    """
    workspace = lock_workspace_of_operation(operation_id, now=now)
    if workspace is None:
        raise Operation.DoesNotExist(f"no operation {operation_id}")
    [operation] = lock_operations_by_id([operation_id])
    [outcome] = settle_locked([(workspace, operation)], trigger=trigger, now=now)
    return outcome


@decision
def settle_due_batch(*, operation_ids: list[uuid.UUID], now: datetime) -> list[SettleOutcome]:
    """Settle a batch of due operations (trigger ``deadline``) in one transaction.

    The sweep's and recovery's set-based path: the batch's workspaces are locked in one statement
    (skipping any another decision holds: that one, or the next sweep, settles it), the operations
    in a second, and ``settle_locked`` decides and writes each exactly as ``settle_operation``
    would, one statement per table for the batch. Operations left out (locked elsewhere, settled
    or deleted meanwhile) have no outcome.
    """
    workspaces = lock_workspaces_of_operations(operation_ids, now=now)
    if not workspaces:
        return []
    operations = lock_operations_by_id(operation_ids, conversations=list(workspaces))
    return settle_locked(
        [(workspaces[operation.conversation_id], operation) for operation in operations],
        trigger=Trigger.DEADLINE,
        now=now,
    )


def settle_for_lifecycle(
    workspace: Workspace,
    operation: Operation,
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None = None,
) -> SettlementDecision:
    """Settle a running operation because of a lifecycle event (return / switch / close, R-3.8).

    For the lifecycle services, which already hold the workspace lock; no Agent tool call is
    faked: the start's result is the only result.
    """
    [operation] = lock_operations_by_id([operation.pk])
    [outcome] = settle_locked([(workspace, operation)], trigger=trigger, now=now, next_foreground=next_foreground)
    return outcome.decision


def settle_locked(
    held: list[tuple[Workspace, Operation]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None = None,
    receipt: tuple[ToolCall, LifecycleEvent] | None = None,
) -> list[SettleOutcome]:
    """Decide and write the settlement of operations read by ``lock_operations``, whose
    workspaces this transaction holds: one statement per table for all of them, on either engine.

    Order (R-4.2.4): the results and outbox entries first, then the instances close, their
    sub-sessions end and each workspace's previous foreground app (Interact) returns — all in the
    caller's transaction. ``receipt``: an interrupt's receipt call and its event, written after;
    when the interrupt settles its operation, the receipt is told in the settlement's event.

    Each settled operation gets ONE audit row, ``operation.<state>``, whose data names what the
    settlement did (decision 0035): ``outbox_id``, ``closed``, ``app_session_ended``,
    ``cancelled``, ``foreground``, ``receipt``.
    """
    if len({workspace.pk for workspace, _ in held}) < len(held):
        return _settle_in_rounds(held, trigger=trigger, now=now)
    outcomes, settling = _decide(held, trigger=trigger, now=now)
    told = None  # the receipt, told in the settlement's event (an interrupt settles one operation)
    if receipt is not None and settling:
        [_] = settling
        told = {"source_tool_call_id": receipt[1].source_tool_call_id, **receipt[1].data}
    _write_settlements(settling, trigger=trigger, now=now, next_foreground=next_foreground, told=told)
    if receipt is not None and told is not None:
        insert_rows([receipt[0]])
    elif receipt is not None:
        write_receipt(receipt)
    flag_invalid_results([operation for _, operation, _ in settling], now=now)
    return outcomes


def _decide(
    held: list[tuple[Workspace, Operation]], *, trigger: Trigger, now: datetime
) -> tuple[list[SettleOutcome], list[tuple[Workspace, Operation, Settle]]]:
    """Each held operation's verdict (``decide_settlement``), and those that settle now; one not
    due or already final is only logged."""
    outcomes: list[SettleOutcome] = []
    settling: list[tuple[Workspace, Operation, Settle]] = []
    for workspace, operation in held:
        verdict = decide_settlement(operation.state, trigger, ends_at=operation.ends_at, now=now)
        outcomes.append(SettleOutcome(operation_id=operation.id, decision=verdict, settled=isinstance(verdict, Settle)))
        if isinstance(verdict, NotDue):
            record_event(
                "operation.not_due",
                at=now,
                trigger=trigger.value,
                ends_at=isoformat(operation.ends_at),
                **event_ids(operation),
            )
        elif isinstance(verdict, AlreadyFinal):
            record_event(
                "operation.already_final",
                at=now,
                trigger=trigger.value,
                state=verdict.state,
                level="debug",
                **event_ids(operation),
            )
        else:
            settling.append((workspace, operation, verdict))
    return outcomes, settling


def _settle_in_rounds(
    held: list[tuple[Workspace, Operation]], *, trigger: Trigger, now: datetime
) -> list[SettleOutcome]:
    """A batch holding two or more operations of one conversation (recovery after a restart, a
    sweep behind): in rounds of at most one per conversation, as both engines close at most one
    instance per workspace at a time. Each later round reads its operations again, so what comes
    to the front is chosen among the instances still open (never one an earlier round closed)."""
    rounds: list[list[tuple[Workspace, Operation]]] = []
    for workspace, operation in held:
        round_ = next((r for r in rounds if all(w.pk != workspace.pk for w, _ in r)), None)
        if round_ is None:
            rounds.append(round_ := [])
        round_.append((workspace, operation))
    outcomes = settle_locked(rounds[0], trigger=trigger, now=now)
    for later in rounds[1:]:
        fresh = {operation.pk: operation for operation in lock_operations_by_id([o.pk for _, o in later])}
        outcomes += settle_locked([(w, fresh[o.pk]) for w, o in later if o.pk in fresh], trigger=trigger, now=now)
    return outcomes


def _write_settlements(
    settling: list[tuple[Workspace, Operation, Settle]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None,
    told: dict[str, Any] | None = None,
) -> None:
    """The settlement's writes, one statement per table in a fixed order, the same statements on
    both engines (decision 0056): the compare-and-set, the start calls' results, the outbox rows,
    the instances closed with their calls cancelled and sub-sessions ended, what comes to the
    front, then the audit rows (written with the decision's other events at its end)."""
    if not settling:
        return
    by_id = {operation.pk: (operation, verdict) for _, operation, verdict in settling}
    # PostgreSQL: the writes go in one round trip or two, not one each; through one cursor.
    with batch():
        won = _compare_and_set(by_id, now=now)
        entries = _write_results(settling, by_id, now=now, next_foreground=next_foreground, facts=(facts := {}))
        if len(won.rows()) != len(by_id):  # unreachable under the locks; the compare-and-set keeps it true anyway
            raise RuntimeError(f"compare-and-set settled {len(won.rows())} of {len(by_id)} locked running operations")
    _record_settled(entries, by_id, trigger=trigger, now=now, facts=facts, told=told)


def _write_results(
    settling: list[tuple[Workspace, Operation, Settle]],
    by_id: dict[uuid.UUID, tuple[Operation, Settle]],
    *,
    now: datetime,
    next_foreground: AppInstance | None,
    facts: dict[uuid.UUID, dict[str, Any]],
) -> list[OutboxEntry]:
    """After the compare-and-set: the start calls' results, the outbox rows, then the instances
    close (their calls cancelled, their sub-sessions ended) and what comes to the front."""
    results = {}
    for operation, verdict in by_id.values():
        operation.state, operation.ended_at = verdict.state, verdict.ended_at
        operation.interruption_reason, operation.settled_at = verdict.interruption_reason, now
        # Checked before anything about the result is written: a bad one becomes the error result.
        results[operation.tool_call_id] = checked_result(operation, now=now)
    update_rows(
        ToolCall, list(results), {"status": ToolCallStatus.SUCCEEDED, "result": EachRow(results), "finished_at": now}
    )
    entries = _write_outbox(by_id, results, now=now)
    for entry, (operation, _) in zip(entries, by_id.values(), strict=True):
        project_settled(operation, entry.id, results[operation.tool_call_id])

    close_instances(
        [
            Closing(
                workspace,
                operation.instance,
                verdict.interruption_reason or "completed",
                next_foreground=next_foreground,
                session_id=operation.app_session_id,
                previous=_previous_valid(operation),
                pending_calls=getattr(operation, "pending_calls", True),
            )
            for workspace, operation, verdict in settling
        ],
        now=now,
        facts=facts,
    )
    return entries


def _compare_and_set(by_id: dict[uuid.UUID, tuple[Operation, Settle]], *, now: datetime) -> Returned:
    """The operations' terminal state, in one statement, only where they still run; the rows it
    changed (read at the end of the writes: every one of them must have)."""
    returned = update_rows(
        Operation,
        list(by_id),
        {
            "state": EachRow({pk: v.state for pk, (_, v) in by_id.items()}),
            "ended_at": EachRow({pk: v.ended_at for pk, (_, v) in by_id.items()}),
            "interruption_reason": EachRow({pk: v.interruption_reason for pk, (_, v) in by_id.items()}),
            "settled_at": now,
        },
        where=f'"state" IN ({", ".join(["%s"] * len(RUNNING_STATES))})',
        where_params=list(RUNNING_STATES),
        returning=["id"],
    )
    assert isinstance(returned, Returned)
    return returned


def _write_outbox(
    by_id: dict[uuid.UUID, tuple[Operation, Settle]], results: dict[uuid.UUID, Any], *, now: datetime
) -> list[OutboxEntry]:
    """One outbox entry per settled operation: its result, for the start call's caller."""
    entries = [
        OutboxEntry(
            conversation_id=operation.conversation_id,
            operation=operation,
            tool_call_id=operation.tool_call_id,
            # The result is the start call's caller's, whatever settled it (deadline, lifecycle, interrupt).
            agent_id=operation.tool_call.agent_id,
            channel=operation.tool_call.channel,
            next_attempt_at=now,
            payload={
                "source_tool_call_id": operation.source_tool_call_id,
                # The start call's tool: a result is labelled with the call it answers.
                "tool": operation.tool_call.tool,
                "conversation_id": str(operation.conversation_id),
                "result": results[operation.tool_call_id],
            },
            created_at=now,
        )
        for operation, _ in by_id.values()
    ]
    insert_rows(entries)
    return entries


def _record_settled(
    entries: list[OutboxEntry],
    by_id: dict[uuid.UUID, tuple[Operation, Settle]],
    *,
    trigger: Trigger,
    now: datetime,
    facts: dict[uuid.UUID, dict[str, Any]],
    told: dict[str, Any] | None,
) -> None:
    """One audit row per settled operation, naming everything its settlement did (decision 0035)."""
    for entry, (operation, verdict) in zip(entries, by_id.values(), strict=True):
        record_event(
            f"operation.{verdict.state}",
            at=now,
            trigger=trigger.value,
            ended_at=isoformat(verdict.ended_at),
            interruption_reason=verdict.interruption_reason,
            lag_ms=round((now - operation.ends_at).total_seconds() * 1000)
            if verdict.state == OperationState.COMPLETED
            else None,
            outbox_id=entry.id,
            **facts.get(
                operation.instance_id, {"closed": None, "app_session_ended": None, "cancelled": [], "foreground": None}
            ),
            receipt=told,
            **event_ids(operation),
        )


def _previous_valid(operation: Operation) -> AppInstance | None:
    if getattr(operation, "previous_id", None) is None:
        return None
    return AppInstance(
        id=operation.previous_id,
        conversation_id=operation.conversation_id,
        app_id=operation.previous_app_id,
        lifecycle_state=operation.previous_lifecycle_state,
    )
