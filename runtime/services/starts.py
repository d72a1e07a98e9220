"""Starting a deadline operation, for any MiniApp (SPEC §3): its instance, sub-session, operation,
focus change and deadline in one durable transaction.

A MiniApp's tool handler (``runtime.api``) calls ``start_operation``: a retry is answered by the
caller's call id; the manifest's exclusivity and run-alone policies (``deadline_operation``) are
applied under the workspace lock. On PostgreSQL the writes are one call of
``runtime_start_operation`` (``runtime.sql.start``); on SQLite the ORM writes the same rows.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Q, Subquery

from runtime.clock import isoformat, to_millis
from runtime.deadlines import schedule_deadline_on_commit
from runtime.errors import Rejection
from runtime.events import (
    announce_written,
    decision,
    event_data,
    record_event,
)
from runtime.internals.django_db import in_transaction
from runtime.manifests import (
    conversation_exclusive_apps,
    first_error,
    get_manifest,
    system_app_id,
)
from runtime.models import (
    AppInstance,
    AppSession,
    DeliveryChannel,
    InstanceSnapshot,
    Operation,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.projections import project_on_commit
from runtime.services.operation_rows import lock_operations
from runtime.services.operation_views import busy_rejection, operation_projection, policy_of
from runtime.services.settlements import settle_locked
from runtime.services.snapshots import encoded_size
from runtime.services.workspace import (
    IN_FRONT,
    lock_existing_workspace,
    lock_workspace,
    open_in_front,
    opened_in_front,
    reserve_focus_seq,
    workspace_created_in_sql,
)
from runtime.sql import start as start_sql
from runtime.tool_calls import Accepted, replay
from runtime.transitions import (
    RUNNING_STATES,
    OperationState,
    Trigger,
)


def start_operation(**kwargs: Any) -> Accepted:
    """Start a deadline operation for ``tool`` (``_start``, whose arguments these are).

    On PostgreSQL, with no transaction open around it, the decision is one autocommit call of
    ``runtime_start_operation``: the function is atomic, so BEGIN and COMMIT would only be two more
    round trips; it changes nothing unless it writes. Otherwise (SQLite, or inside a caller's
    transaction) it is a ``@decision`` like the others.
    """
    alone = conversation_exclusive_apps() - {kwargs["tool"].split(".", 1)[0]}
    if alone:  # another app's operation may run alone: the start decides beside it (decision 0041)
        return _start_beside_alone(alone=alone, **kwargs)
    if not use_sql() or in_transaction(connection):
        return _start_in_transaction(**kwargs)
    return _start_in_autocommit(**kwargs)


def _start_beside(*, alone: frozenset[str], **kwargs: Any) -> Accepted:
    """A start in a conversation where an operation of another app (one of ``alone``) may be
    running that runs alone in its conversation (``conversation_exclusive``).

    Under the workspace lock: with none running, the start is the plain one. With one running, a
    retry is answered from the stored rows; else its manifest's ``when_another_app_starts``
    decides: ``refuse`` (its ``alone_rejection_code``, nothing written) or ``switch``: the start
    writes, then the running one settles ``interrupted(switched_app)`` (or ``completed`` if due)
    in the same transaction, exactly as when the person switches away from it (R-3.8).
    """
    conversation_id, now = kwargs["conversation_id"], kwargs["now"]
    workspace = lock_existing_workspace(conversation_id, now=now)
    if workspace is None:  # its first decision: nothing runs yet
        return _start(**kwargs)
    running = [
        operation
        for operation in Operation.objects.filter(
            conversation_id=conversation_id, app_id__in=alone, state__in=RUNNING_STATES
        )
        .select_related("tool_call")
        .order_by("started_at")
        # An app may have operation tools that run alone and others that do not.
        if policy_of(operation.tool_call.tool).conversation_exclusive
    ]
    if not running:
        return _start(**kwargs)
    retry = ToolCall.objects.filter(conversation_id=conversation_id, source_tool_call_id=kwargs["source_tool_call_id"])
    if retry.exists():
        return _start(**kwargs)  # answered from the stored rows
    for operation in running:
        policy = policy_of(operation.tool_call.tool)
        if policy.when_another_app_starts == "refuse":
            raise Rejection(
                policy.alone_rejection_code,
                f"a {operation.app_id} operation runs in this conversation and runs alone; stop it or wait for its result",
                operation_id=str(operation.id),
            )
    accepted = _start(**kwargs)
    # Read again after the start: it moved their apps to the background, which the settlement reads.
    for operation in lock_operations(Q(pk__in=[operation.pk for operation in running])):
        settle_locked([(workspace, operation)], trigger=Trigger.SWITCH_APP, now=now)  # one closing at a time
    return accepted


# Its crash points are the start's (the harness arms "start_operation" for either form).
_start_beside.__name__ = _start_beside.__qualname__ = "start_operation"
_start_beside_alone = decision(_start_beside)


def _start(
    *,
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    tool: str,
    arguments: dict[str, Any],
    duration_seconds: int,
    details: dict[str, Any] | None,
    caller: str,
    now: datetime,
    agent_id: uuid.UUID | None = None,
    channel: str = DeliveryChannel.AGENT_SOCKET,
    initial_state: dict[str, Any] | None = None,
) -> Accepted:
    """Start a deadline operation for ``tool``: its app's instance, sub-session and operation.

    Locks the workspace, so concurrent starts in one conversation are decided one at a time:
    a retry of the same call is answered from the stored rows; for an exclusive operation, any
    other start of the same app while one runs is rejected with the manifest's
    ``busy_rejection_code`` with nothing created (R-3.12). Brings the app to the foreground
    (Interact to the background) and, on commit, schedules the deadline and projects the new state.

    On PostgreSQL the decision is one call of the ``runtime_start_operation`` function
    (``runtime.sql.start``); elsewhere (SQLite) the ORM writes the same rows, statement by statement.
    Either way Python validates, applies the manifest's policy, chooses the ids and answers.
    """
    if duration_seconds < 1:
        # The app's own arithmetic (the Router already refused a caller's 0): its bug, said plainly.
        raise ValueError(f"{tool}: duration_seconds must be at least 1, not {duration_seconds}")
    app_id = tool.split(".", 1)[0]
    policy = policy_of(tool)
    plan = _StartPlan(
        conversation_id=uuid.UUID(str(conversation_id)),
        source_tool_call_id=source_tool_call_id,
        app_id=app_id,
        tool=tool,
        arguments=arguments,
        details=details or {},
        caller=caller,
        agent_id=agent_id,
        channel=channel,
        exclusive=policy.exclusive,
        now=now,
        started_at=to_millis(now),
        duration_seconds=duration_seconds,
    )
    _hold_initial_state(plan, initial_state)
    seen = _start_in_sql(plan) if use_sql() else _start_with_orm(plan)

    if seen.retry is not None:
        outcome = replay(seen.retry, caller=caller, tool=tool, arguments=arguments)
        assert isinstance(outcome, Accepted)
        return outcome
    if seen.busy_operation_id is not None:
        raise busy_rejection(policy, app_id, seen.busy_operation_id)
    if plan.refusal is not None:
        raise ValueError(plan.refusal)
    return _started(plan, seen)


# Which path starts an operation on PostgreSQL; a test switches it off to run both on one database.
# Its metrics, trace and crash-point name in either form (the harness arms "start_operation").
_start.__name__ = _start.__qualname__ = "start_operation"
_start_in_transaction = decision(_start)
_start_in_autocommit = decision(_start, autocommit=True)

START_IN_SQL = True


def use_sql() -> bool:
    return START_IN_SQL and connection.vendor == "postgresql"


def _hold_initial_state(plan: _StartPlan, initial_state: dict[str, Any] | None) -> None:
    """The instance_state snapshot the start writes, if the app's manifest has a contract for one.

    The app's own first state is held to its contract like any save; a bad one is its bug, raised
    only when the start would otherwise write (a retry or a busy answer comes first): ``refusal``."""
    manifest = get_manifest(plan.app_id)
    contract = manifest.instance_state if manifest else None
    if contract is None:
        return
    plan.snapshot = {"schema_version": contract.schema_version, "state": None, "size_bytes": 0, "revision": 0}
    if initial_state is not None:
        size = encoded_size(initial_state)
        error = first_error(contract.validator, initial_state)
        if error is not None or size > contract.max_bytes:
            plan.refusal = f"{plan.app_id}: initial_state breaks its contract: {error or f'{size} bytes'}"
        plan.snapshot.update(state=initial_state, size_bytes=size, revision=1)


def _started(plan: _StartPlan, seen: _Seen) -> Accepted:
    """A start that wrote: its audit event, what the workspace is told after commit, the deadline."""
    now = plan.now
    if seen.created_interact_id is not None:
        workspace_created_in_sql(plan.conversation_id, seen.created_interact_id, now=now)
    instance = AppInstance(
        id=plan.instance_id, conversation_id=plan.conversation_id, app_id=plan.app_id, opened_at=plan.started_at
    )
    backgrounded = opened_in_front(instance, seen.in_front)
    if use_sql():
        announce_written("operation.started", data=plan.event_data(backgrounded), **plan.event_ids())
    else:
        record_event("operation.started", at=now, **plan.event_ids(), **plan.event_data(backgrounded))
    operation = Operation(
        id=plan.operation_id,
        conversation_id=plan.conversation_id,
        instance_id=plan.instance_id,
        app_session_id=plan.session_id,
        tool_call=ToolCall(id=plan.call_id, tool=plan.tool),
        app_id=plan.app_id,
        details=plan.details,
        state=OperationState.RUNNING,
        started_at=plan.started_at,
        ends_at=plan.ends_at,
    )
    project_on_commit(plan.conversation_id, "operation.started", operation_projection(operation))
    schedule_deadline_on_commit(plan.operation_id, plan.ends_at)
    return Accepted(
        source_tool_call_id=plan.source_tool_call_id,
        operation_id=plan.operation_id,
        instance_id=plan.instance_id,
        app_session_id=plan.session_id,
    )


@dataclass
class _StartPlan:
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
class _Seen:
    """What a start read under the workspace lock, and whether it wrote."""

    retry: ToolCall | None = None
    busy_operation_id: uuid.UUID | None = None
    in_front: list[AppInstance] = field(default_factory=list)
    created_interact_id: uuid.UUID | None = None


def _start_with_orm(plan: _StartPlan) -> _Seen:
    """The start, statement by statement (SQLite; the specification of ``runtime.sql.start``)."""
    # Only the lock: the focus number is taken when the start writes (as the SQL function does).
    workspace = lock_workspace(plan.conversation_id, now=plan.now, reserve=False)
    # One read under the lock: a retry of this call, a running exclusive operation, the app in front.
    seen = _under_lock(
        plan.conversation_id, source_tool_call_id=plan.source_tool_call_id, front=True, app_id=plan.app_id
    )
    if seen["retry_call_id"] is not None:
        return _Seen(retry=ToolCall.objects.select_related("operation").get(pk=seen["retry_call_id"]))
    if plan.exclusive and seen["running_operation_id"] is not None:
        return _Seen(busy_operation_id=seen["running_operation_id"])
    if plan.refusal is not None:
        return _Seen()
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
    return _Seen(in_front=in_front)


def _write_call_and_operation(plan: _StartPlan, instance: AppInstance, session: AppSession) -> None:
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


def _start_parameters(plan: _StartPlan) -> dict[str, Any]:
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


def _start_in_sql(plan: _StartPlan) -> _Seen:
    """The start as one call of ``runtime_start_operation`` (PostgreSQL): lock, read, write, answer."""
    with connection.cursor() as cursor:
        cursor.execute(start_sql.CALL, _start_parameters(plan))
        [answer] = cursor.fetchone()
    if isinstance(answer, str | bytes):
        answer = json.loads(answer)
    if answer["outcome"] == "retry":
        return _Seen(retry=_stored_call(plan, answer["call"]))
    if answer["outcome"] == "busy":
        return _Seen(busy_operation_id=uuid.UUID(answer["operation_id"]))
    if answer["outcome"] == "refused":
        return _Seen()
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
    return _Seen(in_front=in_front, created_interact_id=plan.interact_id if answer["created_workspace"] else None)


def _stored_call(plan: _StartPlan, stored: dict[str, Any]) -> ToolCall:
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
