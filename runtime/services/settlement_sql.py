"""A settlement's writes on PostgreSQL: one call of ``runtime_settle_batch`` (``runtime.sql.settle``,
decision 0030), or ``runtime_settle_single`` for one operation.

Python has decided (``runtime.services.settlements.settle_locked``) and shapes and checks each
result first; the function writes what the ORM path writes and returns the audit rows it wrote,
from which the projections the ORM path sends from ``close_instances`` are sent, in its order.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from django.db import connection

from runtime.clock import isoformat
from runtime.events import EventLine, announce_events, take_pending_events
from runtime.internals.django_db import related_is_cached
from runtime.models import AppInstance, LifecycleEvent, Operation, ToolCall, Workspace
from runtime.projections import project_on_commit
from runtime.services.operation_views import checked_result, project_settled
from runtime.services.workspace import IN_FRONT, bring_to_foreground
from runtime.sql import settle as settle_sql
from runtime.transitions import LifecycleState, Settle, Trigger


def _event_json(event: LifecycleEvent) -> dict[str, Any]:
    def text(value: object) -> str | None:
        return None if value is None else str(value)

    return {
        "at": event.at.isoformat(),
        "kind": event.kind,
        "conversation_id": text(event.conversation_id),
        "instance_id": text(event.instance_id),
        "app_session_id": text(event.app_session_id),
        "operation_id": text(event.operation_id),
        "source_tool_call_id": event.source_tool_call_id,
        "data": event.data,
    }


def _call_json(call: ToolCall) -> dict[str, Any]:
    fields = ("conversation_id", "instance_id", "agent_id")
    return {
        "id": str(call.id),
        **{name: None if getattr(call, name) is None else str(getattr(call, name)) for name in fields},
        "source_tool_call_id": call.source_tool_call_id,
        "tool": call.tool,
        "arguments": call.arguments,
        "caller": call.caller,
        "status": call.status,
        "receipt": call.receipt,
        "channel": call.channel,
        "created_at": call.created_at.isoformat(),
        "finished_at": call.finished_at.isoformat(),
    }


def settle_in_sql(
    settling: list[tuple[Workspace, Operation, Settle]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None,
    receipt: tuple[ToolCall, LifecycleEvent] | None,
    told: dict[str, Any] | None,
) -> None:
    """The settlement's writes as one call of ``runtime_settle_batch``; Python shapes and checks each
    result first (a bad one fails the settlement before anything is written)."""
    verdicts = _verdicts(settling, now=now, told=told)
    before = take_pending_events()  # announced already; written first, in this call
    after = [receipt[1]] if receipt and told is None else []
    rows = _call(
        settling,
        verdicts,
        trigger=trigger,
        now=now,
        next_foreground=next_foreground,
        events=(before, after),
        receipt=receipt,
    )
    own = rows[len(before) : len(rows) - len(after)]
    written = [
        EventLine(kind, conversation_id, instance_id, session_id, operation_id, call_id, _json(raw))
        for _, kind, conversation_id, instance_id, session_id, operation_id, call_id, raw, _ in own
    ]
    for (_, operation, _), verdict, line in zip(settling, verdicts, written, strict=True):
        project_settled(operation, line.data["outbox_id"], verdict["result"])
    workspaces = {workspace.pk: workspace for workspace, _, _ in settling}
    # The projections the Python path sends from close_instances, in its order: closes, ends, fronts.
    left_behind = _follow_closes(settling, written, now=now)
    for line in written:
        if line.data["app_session_ended"] is not None:
            project_on_commit(
                line.conversation_id,
                "app_session.ended",
                {"app_session_id": line.data["app_session_ended"], "instance_id": str(line.instance_id)},
            )
    _follow_fronts(workspaces, written, own, next_foreground=next_foreground)
    announce_events([*written, *after])
    if left_behind and next_foreground is not None:
        # The user's choice when what closed was not in front (the Python path does the same).
        [workspace] = workspaces.values()
        bring_to_foreground(workspace, next_foreground, now=now)


def _verdicts(
    settling: list[tuple[Workspace, Operation, Settle]], *, now: datetime, told: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Each operation's verdict as the function takes it, its checked result included; the
    operations in memory take their final state (their projection and result are shaped from it)."""
    verdicts = []
    reserved = set()
    for workspace, operation, verdict in settling:
        operation.state, operation.ended_at = verdict.state, verdict.ended_at
        operation.interruption_reason, operation.settled_at = verdict.interruption_reason, now
        # The focus number the workspace's lock reserved, for the app that comes to the front.
        seq = workspace.focus_seq if getattr(workspace, "focus_seq_reserved", False) else None
        if workspace.pk in reserved:
            seq = None
        reserved.add(workspace.pk)
        verdicts.append(
            {
                "state": str(verdict.state),
                "ended_at": verdict.ended_at.isoformat(),
                "ended_at_text": isoformat(verdict.ended_at),
                "interruption_reason": verdict.interruption_reason and str(verdict.interruption_reason),
                "result": checked_result(operation, now=now),
                "focus_seq": seq,
                "receipt": told,
            }
        )
    return verdicts


def _call(
    settling: list[tuple[Workspace, Operation, Settle]],
    verdicts: list[dict[str, Any]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None,
    events: tuple[list[LifecycleEvent], list[LifecycleEvent]],
    receipt: tuple[ToolCall, LifecycleEvent] | None,
) -> list[tuple[Any, ...]]:
    """Run the settlement function; the audit rows it wrote: ``events``' first ones, each
    operation's, then ``events``' last ones."""
    before, after = events
    ids: Any = [operation.id for _, operation, _ in settling]
    if len(settling) == 1:  # one operation: runtime_settle_single, statement by statement (decision 0030)
        call, ids, verdicts_json = settle_sql.CALL_ONE, ids[0], json.dumps(verdicts[0])
    else:
        call, verdicts_json = settle_sql.CALL, json.dumps(verdicts)
    with connection.cursor() as cursor:
        cursor.execute(
            call,
            [
                now,
                trigger.value,
                ids,
                verdicts_json,
                next_foreground.pk if next_foreground is not None else None,
                json.dumps([_event_json(e) for e in before]),
                json.dumps([_event_json(e) for e in after]),
                json.dumps(_call_json(receipt[0])) if receipt else None,
            ],
        )
        return cursor.fetchall()


def _follow_closes(
    settling: list[tuple[Workspace, Operation, Settle]], written: list[EventLine], *, now: datetime
) -> bool:
    """Project the instances the function closed, and close those the caller holds in memory;
    whether what closed was not in front (the user's next choice then comes to the front)."""
    # The instances the caller read with its operations, if it did (the SQL path's lock does not).
    instances = {o.instance_id: o.instance for _, o, _ in settling if related_is_cached(o, "instance")}
    left_behind = False
    for line in written:
        if (closed := line.data["closed"]) is not None:
            _project_written_move(line.conversation_id, line.instance_id, closed, LifecycleState.CLOSED)
            if line.instance_id in instances:  # what the caller holds in memory follows what was written
                instance = instances[line.instance_id]
                instance.lifecycle_state, instance.closed_at = LifecycleState.CLOSED, now
                instance.close_reason = closed["reason"]
                left_behind = closed["previous"] not in IN_FRONT
    return left_behind


def _follow_fronts(
    workspaces: dict[uuid.UUID, Workspace],
    written: list[EventLine],
    own: list[tuple[Any, ...]],
    *,
    next_foreground: AppInstance | None,
) -> None:
    """Project the apps the function brought to the front; the workspaces (and the caller's
    ``next_foreground``) in memory take the focus numbers it used."""
    for line, row in zip(written, own, strict=True):
        if (front := line.data["foreground"]) is not None:
            front_id, seq = uuid.UUID(front["instance_id"]), row[8]
            _project_written_move(line.conversation_id, front_id, front, LifecycleState.FOREGROUND)
            workspace = workspaces[line.conversation_id]
            workspace.focus_seq, workspace.focus_seq_reserved = seq, False
            if next_foreground is not None and next_foreground.pk == front_id:
                next_foreground.lifecycle_state, next_foreground.focus_seq = LifecycleState.FOREGROUND, seq


def _json(raw: Any) -> Any:
    return json.loads(raw) if isinstance(raw, str) else raw  # Django reads jsonb as text


def _project_written_move(
    conversation_id: uuid.UUID, instance_id: uuid.UUID, fact: dict[str, Any], target: str
) -> None:
    """The projection of a move a settlement's SQL wrote, as ``close_instances`` sends it."""
    project_on_commit(  # project_move's message, without a model instance per row (a batch is 500)
        conversation_id,
        "instance.lifecycle",
        {
            "instance_id": str(instance_id),
            "app_id": fact["app_id"],
            "lifecycle_state": target,
            "previous": fact["previous"],
        },
    )
