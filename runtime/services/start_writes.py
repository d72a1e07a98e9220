"""A start's writes: one implementation, the same statements on PostgreSQL and SQLite (decision 0055).

``write_start`` takes the plan Python chose (ids, snapshot, audit event) and runs, in this fixed
order, in two batches (on PostgreSQL each batch is one round trip, ``runtime.services.row_writes``):

1. under the workspace's row lock: lock it (creating it with Interact in front on the
   conversation's first decision) and read, in one statement after the lock, a retry of this call,
   the app's running exclusive operation and the app in front;
2. Python decides from what it read: a retry, busy, refused (nothing written) or a start, whose
   writes go in the second batch: the app in front to the background, the workspace's next focus
   number, the instance (in front), its sub-session, its snapshot, the start call, the operation
   and its one audit event (with ``COMMIT`` when the start opened its own transaction).

``runtime.services.starts`` validates, applies the manifest's policy and answers.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from runtime.clock import isoformat
from runtime.events import announce_event, event_data, event_row
from runtime.manifests import system_app_id
from runtime.models import (
    AppInstance,
    AppSession,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.services import row_writes as sql
from runtime.services.row_writes import Statement
from runtime.services.workspace import IN_FRONT
from runtime.services.workspace_locks import workspace_created_in_sql
from runtime.transitions import RUNNING_STATES, LifecycleState, OperationState


@dataclass
class StartPlan:
    """Everything a start writes, chosen before the decision: the ids are Python's (uuid4)."""

    conversation_id: uuid.UUID
    source_tool_call_id: str
    app_id: str
    tool: str
    arguments: dict[str, Any]
    details: dict[str, Any]
    caller: str
    agent_id: uuid.UUID | None
    channel: str
    exclusive: bool
    now: datetime
    started_at: datetime
    duration_seconds: int
    snapshot: dict[str, Any] | None = None  # the instance_state snapshot's columns, if the app has one
    refusal: str | None = None  # why the snapshot may not be written (a bad initial_state)
    operation_id: uuid.UUID = field(default_factory=uuid.uuid4)
    instance_id: uuid.UUID = field(default_factory=uuid.uuid4)
    session_id: uuid.UUID = field(default_factory=uuid.uuid4)
    call_id: uuid.UUID = field(default_factory=uuid.uuid4)
    interact_id: uuid.UUID = field(default_factory=uuid.uuid4)  # used if this is the conversation's first decision

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(seconds=self.duration_seconds)

    def event_ids(self) -> dict[str, Any]:
        return {
            "conversation_id": self.conversation_id,
            "instance_id": self.instance_id,
            "app_session_id": self.session_id,
            "operation_id": self.operation_id,
            "source_tool_call_id": self.source_tool_call_id,
        }

    def event_data(self, backgrounded: dict[str, Any] | None) -> dict[str, Any]:
        """The start's one audit event: what it opened and what it sent to the background."""
        return event_data(
            app_id=self.app_id,
            duration_seconds=self.duration_seconds,
            **self.details,
            ends_at=isoformat(self.ends_at),
            caller=self.caller,
            backgrounded=backgrounded,
        )


@dataclass
class Seen:
    """What a start read under the workspace lock, and whether it wrote."""

    retry: ToolCall | None = None
    busy_operation_id: uuid.UUID | None = None
    in_front: list[AppInstance] = field(default_factory=list)


def write_start(plan: StartPlan) -> Seen:
    """The start's statements, in their fixed order, on whichever engine this is."""
    owned = sql.owns_transaction()
    with sql.own_transaction(owned):
        created = False
        locked, reads = sql.run([*([sql.BEGIN] if owned else []), *_lock_and_read(plan)])[-2:]
        if not locked and plan.refusal is not None:  # no call was ever stored here, nothing runs
            if owned:
                sql.run([sql.COMMIT])
            return Seen()
        if not locked:  # the conversation's first decision: its workspace, then the lock again
            created = _create_workspace(plan)
            locked, reads = sql.run(_lock_and_read(plan))
        [(focus_seq,)] = locked
        [(retry_id, busy_id, front_id, front_app_id, front_state)] = reads
        seen = Seen()
        if retry_id is not None:
            seen.retry = ToolCall.objects.select_related("operation").get(pk=retry_id)
        elif busy_id is not None:
            seen.busy_operation_id = uuid.UUID(str(busy_id))
        if seen.retry is not None or seen.busy_operation_id is not None or plan.refusal is not None:
            if owned:  # nothing of the start is written
                sql.run([sql.COMMIT])
            return seen
        if front_id is not None:
            seen.in_front = [
                AppInstance(
                    id=uuid.UUID(str(front_id)),
                    conversation_id=plan.conversation_id,
                    app_id=front_app_id,
                    lifecycle_state=front_state,
                )
            ]
        event = _started_event(plan, seen.in_front)
        sql.run([*_writes(plan, focus_seq + 1, seen.in_front, event), *([sql.COMMIT] if owned else [])])
    # Told after COMMIT when the start owned its transaction, else on commit.
    if created:
        workspace_created_in_sql(plan.conversation_id, plan.interact_id, now=plan.now)
    announce_event(event)
    return seen


def _lock_and_read(plan: StartPlan) -> list[Statement]:
    """The row lock, then the reads in a statement of their own: a statement that started before
    the lock was granted would read with a snapshot missing what the previous holder committed."""
    conversation = sql.value(Workspace, "conversation", plan.conversation_id)
    lock = Statement(
        f"SELECT focus_seq FROM {sql.table(Workspace)} WHERE conversation_id = %s{sql.dialect().lock()}",
        [conversation],
        rows=True,
    )
    running = ", ".join(["%s"] * len(RUNNING_STATES))
    busy = (
        f"SELECT id FROM {sql.table(Operation)} WHERE conversation_id = %s AND app_id = %s AND exclusive = %s "
        f"AND state IN ({running}) LIMIT 1"
        if plan.exclusive
        else "SELECT NULL"
    )
    busy_params = [conversation, plan.app_id, True, *RUNNING_STATES] if plan.exclusive else []
    # The app in front (foreground, or suspended while the host was hidden): it goes to the background.
    front = (
        f"FROM {sql.table(AppInstance)} WHERE conversation_id = %s AND lifecycle_state IN (%s, %s) "
        "ORDER BY focus_seq DESC LIMIT 1"
    )
    read = Statement(
        f"SELECT (SELECT id FROM {sql.table(ToolCall)} WHERE conversation_id = %s AND source_tool_call_id = %s "
        f"LIMIT 1), ({busy}), (SELECT id {front}), (SELECT app_id {front}), (SELECT lifecycle_state {front})",
        [conversation, plan.source_tool_call_id, *busy_params, *[conversation, *IN_FRONT] * 3],
        rows=True,
    )
    return [lock, read]


def _create_workspace(plan: StartPlan) -> bool:
    """The conversation's workspace and Interact, in front, as ``workspace_locks.lock_workspace``
    creates them; False when a concurrent first decision made it first (the lock then waits for it)."""
    [created] = sql.run(
        [
            Statement(
                f"INSERT INTO {sql.table(Workspace)} (conversation_id, focus_seq, updated_at) VALUES (%s, 1, %s) "
                "ON CONFLICT (conversation_id) DO NOTHING RETURNING conversation_id",
                [
                    sql.value(Workspace, "conversation", plan.conversation_id),
                    sql.value(Workspace, "updated_at", plan.now),
                ],
                rows=True,
            )
        ]
    )
    if not created:
        return False
    interact = AppInstance(
        id=plan.interact_id,
        conversation_id=plan.conversation_id,
        app_id=system_app_id(),
        is_system=True,
        lifecycle_state=LifecycleState.FOREGROUND,
        focus_seq=1,
        opened_at=plan.now,
    )
    ids = {"conversation_id": plan.conversation_id, "instance_id": plan.interact_id}
    opened = event_row("instance.opened", at=plan.now, **ids, app_id=interact.app_id)
    moved = event_row(
        f"instance.{LifecycleState.FOREGROUND}",
        at=plan.now,
        **ids,
        app_id=interact.app_id,
        previous=LifecycleState.LAUNCHING,
    )
    sql.run([sql.insert_statement([interact]), sql.insert_statement([opened]), sql.insert_statement([moved])])
    return True


def _started_event(plan: StartPlan, in_front: list[AppInstance]) -> LifecycleEvent:
    backgrounded = None
    for current in in_front:
        backgrounded = {"instance_id": str(current.id), "app_id": current.app_id, "previous": current.lifecycle_state}
    return event_row("operation.started", at=plan.now, **plan.event_ids(), **plan.event_data(backgrounded))


def _writes(plan: StartPlan, focus_seq: int, in_front: list[AppInstance], event: LifecycleEvent) -> list[Statement]:
    """What a start writes, in order. Foreground and suspended may both go to the background
    (runtime.transitions), so the one in front needs no check."""
    writes = [
        Statement(
            f"UPDATE {sql.table(AppInstance)} SET lifecycle_state = %s WHERE id = %s",
            [LifecycleState.BACKGROUND.value, sql.value(AppInstance, "id", current.id)],
        )
        for current in in_front
    ]
    # The focus number of the new instance, and the workspace's updated_at (lock_workspace's reservation).
    writes.append(
        Statement(
            f"UPDATE {sql.table(Workspace)} SET focus_seq = %s, updated_at = %s WHERE conversation_id = %s",
            [
                focus_seq,
                sql.value(Workspace, "updated_at", plan.now),
                sql.value(Workspace, "conversation", plan.conversation_id),
            ],
        )
    )
    writes.append(
        sql.insert(
            AppInstance,
            id=plan.instance_id,
            conversation_id=plan.conversation_id,
            app_id=plan.app_id,
            lifecycle_state=LifecycleState.FOREGROUND,
            focus_seq=focus_seq,
            opened_at=plan.started_at,
        )
    )
    writes.append(
        sql.insert(
            AppSession,
            id=plan.session_id,
            instance_id=plan.instance_id,
            conversation_id=plan.conversation_id,
            opened_at=plan.started_at,
        )
    )
    if plan.snapshot is not None:
        writes.append(
            sql.insert(InstanceSnapshot, instance_id=plan.instance_id, updated_at=plan.started_at, **plan.snapshot)
        )
    writes.append(
        sql.insert(
            ToolCall,
            id=plan.call_id,
            conversation_id=plan.conversation_id,
            source_tool_call_id=plan.source_tool_call_id,
            tool=plan.tool,
            arguments=plan.arguments,
            caller=plan.caller,
            agent_id=plan.agent_id,
            channel=plan.channel,
            status=ToolCallStatus.ACCEPTED,
            instance_id=plan.instance_id,
            created_at=plan.started_at,
        )
    )
    writes.append(
        sql.insert(
            Operation,
            id=plan.operation_id,
            conversation_id=plan.conversation_id,
            instance_id=plan.instance_id,
            app_session_id=plan.session_id,
            tool_call_id=plan.call_id,
            source_tool_call_id=plan.source_tool_call_id,
            app_id=plan.app_id,
            exclusive=plan.exclusive,
            details=plan.details,
            state=OperationState.RUNNING,
            started_at=plan.started_at,
            ends_at=plan.ends_at,
        )
    )
    writes.append(sql.insert_statement([event]))
    return writes
