"""A start's writes, on either engine: the plan Python chose (ids, snapshot, audit event) and
what the start read under the workspace lock and whether it wrote.

``start_with_orm`` writes the rows statement by statement (SQLite; the specification);
``start_in_sql`` is one call of ``runtime_start_operation`` (PostgreSQL, ``runtime.sql.start``).
``runtime.services.starts`` decides which, applies the manifest's policy and answers.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Subquery

from runtime.clock import isoformat
from runtime.events import event_data
from runtime.manifests import system_app_id
from runtime.models import AppInstance, AppSession, InstanceSnapshot, Operation, ToolCall, ToolCallStatus, Workspace
from runtime.services.workspace import IN_FRONT, open_in_front
from runtime.services.workspace_locks import lock_workspace, reserve_focus_seq
from runtime.sql import start as start_sql
from runtime.transitions import RUNNING_STATES


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
    created_interact_id: uuid.UUID | None = None


def start_with_orm(plan: StartPlan) -> Seen:
    """The start, statement by statement (SQLite; the specification of ``runtime.sql.start``)."""
    # Only the lock: the focus number is taken when the start writes (as the SQL function does).
    workspace = lock_workspace(plan.conversation_id, now=plan.now, reserve=False)
    # One read under the lock: a retry of this call, a running exclusive operation, the app in front.
    seen = _under_lock(
        plan.conversation_id, source_tool_call_id=plan.source_tool_call_id, front=True, app_id=plan.app_id
    )
    if seen["retry_call_id"] is not None:
        return Seen(retry=ToolCall.objects.select_related("operation").get(pk=seen["retry_call_id"]))
    if plan.exclusive and seen["running_operation_id"] is not None:
        return Seen(busy_operation_id=seen["running_operation_id"])
    if plan.refusal is not None:
        return Seen()
    reserve_focus_seq(workspace, now=plan.now)
    in_front = []
    if seen["front_id"] is not None:
        in_front = [
            AppInstance(
                id=seen["front_id"],
                conversation_id=workspace.conversation_id,
                app_id=seen["front_app_id"],
                lifecycle_state=seen["front_lifecycle_state"],
            )
        ]
    instance, session = open_in_front(
        workspace,
        app_id=plan.app_id,
        in_front=in_front,
        opened_at=plan.started_at,
        instance_id=plan.instance_id,
        session_id=plan.session_id,
    )
    if plan.snapshot is not None:
        InstanceSnapshot.objects.create(instance=instance, updated_at=plan.started_at, **plan.snapshot)
    _write_call_and_operation(plan, instance, session)
    return Seen(in_front=in_front)


def _write_call_and_operation(plan: StartPlan, instance: AppInstance, session: AppSession) -> None:
    """The start call (answered ``accepted``; its result comes at settlement) and its operation."""
    call = ToolCall.objects.create(
        id=plan.call_id,
        conversation_id=plan.conversation_id,
        source_tool_call_id=plan.source_tool_call_id,
        tool=plan.tool,
        arguments=plan.arguments,
        caller=plan.caller,
        agent_id=plan.agent_id,
        channel=plan.channel,
        status=ToolCallStatus.ACCEPTED,
        instance=instance,
        created_at=plan.started_at,
    )
    Operation.objects.create(
        id=plan.operation_id,
        conversation_id=plan.conversation_id,
        instance=instance,
        app_session=session,
        tool_call=call,
        source_tool_call_id=plan.source_tool_call_id,
        app_id=plan.app_id,
        exclusive=plan.exclusive,
        details=plan.details,
        started_at=plan.started_at,
        ends_at=plan.ends_at,
    )


def _start_parameters(plan: StartPlan) -> dict[str, Any]:
    """The arguments of ``runtime_start_operation``: the plan, its snapshot and its audit event."""
    snapshot = plan.snapshot or {}
    return {
        "conversation_id": str(plan.conversation_id),
        "source_tool_call_id": plan.source_tool_call_id,
        "app_id": plan.app_id,
        "exclusive": plan.exclusive,
        "refuse": plan.refusal is not None,
        "now": plan.now,
        "started_at": plan.started_at,
        "ends_at": plan.ends_at,
        "operation_id": str(plan.operation_id),
        "instance_id": str(plan.instance_id),
        "session_id": str(plan.session_id),
        "call_id": str(plan.call_id),
        "interact_id": str(plan.interact_id),
        "system_app_id": system_app_id(),
        "tool": plan.tool,
        "arguments": json.dumps(plan.arguments),
        "caller": plan.caller,
        "agent_id": str(plan.agent_id) if plan.agent_id else None,
        "channel": plan.channel,
        "details": json.dumps(plan.details),
        "snapshot_schema_version": snapshot.get("schema_version"),
        "snapshot_state": json.dumps(snapshot["state"]) if snapshot.get("state") is not None else None,
        "snapshot_size_bytes": snapshot.get("size_bytes", 0),
        "snapshot_revision": snapshot.get("revision", 0),
        "event_data": json.dumps(plan.event_data(None)),
    }


def start_in_sql(plan: StartPlan) -> Seen:
    """The start as one call of ``runtime_start_operation`` (PostgreSQL): lock, read, write, answer."""
    with connection.cursor() as cursor:
        cursor.execute(start_sql.CALL, _start_parameters(plan))
        [answer] = cursor.fetchone()
    if isinstance(answer, str | bytes):
        answer = json.loads(answer)
    if answer["outcome"] == "retry":
        return Seen(retry=_stored_call(plan, answer["call"]))
    if answer["outcome"] == "busy":
        return Seen(busy_operation_id=uuid.UUID(answer["operation_id"]))
    if answer["outcome"] == "refused":
        return Seen()
    front = answer["backgrounded"]
    in_front = []
    if front is not None:
        in_front = [
            AppInstance(
                id=uuid.UUID(front["instance_id"]),
                conversation_id=plan.conversation_id,
                app_id=front["app_id"],
                lifecycle_state=front["previous"],
            )
        ]
    return Seen(in_front=in_front, created_interact_id=plan.interact_id if answer["created_workspace"] else None)


def _stored_call(plan: StartPlan, stored: dict[str, Any]) -> ToolCall:
    """The retried call as ``runtime_start_operation`` answered it, with its operation's ids (for ``replay``)."""
    call = ToolCall(
        id=stored["id"],
        source_tool_call_id=plan.source_tool_call_id,
        tool=stored["tool"],
        arguments=stored["arguments"],
        caller=stored["caller"],
        result=stored["result"],
        receipt=stored["receipt"],
    )
    if stored["operation_id"] is not None:
        call.operation = Operation(
            id=uuid.UUID(stored["operation_id"]),
            instance_id=uuid.UUID(stored["instance_id"]),
            app_session_id=uuid.UUID(stored["app_session_id"]),
        )
    return call


def _under_lock(
    conversation_id: uuid.UUID | str, *, source_tool_call_id: str, front: bool, app_id: str
) -> dict[str, Any]:
    """What a decision reads about its conversation, in one statement after taking the lock.

    After, not inside, the locking statement: a statement that waited for the lock still reads
    with the snapshot it started with, and would miss what the previous holder committed.
    """
    reads: dict[str, Subquery] = {
        "retry_call_id": Subquery(
            ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=source_tool_call_id).values(
                "id"
            )[:1]
        ),
        "running_operation_id": Subquery(
            Operation.objects.filter(
                conversation_id=conversation_id, app_id=app_id, exclusive=True, state__in=RUNNING_STATES
            ).values("id")[:1]
        ),
    }
    if front:
        in_front = AppInstance.objects.filter(conversation_id=conversation_id, lifecycle_state__in=IN_FRONT).order_by(
            "-focus_seq"
        )
        for field in ("id", "app_id", "lifecycle_state"):
            reads[f"front_{field}"] = Subquery(in_front.values(field)[:1])
    return Workspace.objects.filter(pk=conversation_id).values(**reads).get()
