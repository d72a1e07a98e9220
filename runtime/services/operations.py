"""Deadline operations: starting, interrupting and settling them, for any MiniApp (SPEC §3).

A MiniApp's tool handler (``runtime.api``) calls ``start_operation`` or ``interrupt_operation``;
what is generic lives here: the instance, sub-session, operation, focus change and deadline; the
retries answered by the caller's call id; the exclusivity and end-on-leave policies of the
manifest (``deadline_operation``); the settlement. The app only shapes its result and projection
from a read-only ``OperationView``, and every result is checked against the start tool's frozen
``result_schema`` before the outbox row is written.

Every service here runs in one durable transaction (``@decision``) that locks the conversation's
workspace row first and the operation second, decides with ``runtime.transitions.decide_settlement``
and applies the decision with a compare-and-set on the operation's state. The outbox row is written
in the same transaction; projections and deadline wake-ups leave only after commit.

Settlements are applied by ``settle_locked`` one statement per table, whether they are one (an
interrupt, an eta task, a lifecycle event) or a batch of due deadlines (the sweep, recovery): one
code path, so a batch settles each operation exactly as it would settle alone. Each reads what it
needs in the statement that locks the operation (its instance, its start call, the previous valid
foreground app), so a decision costs about ten statements whatever the conversation's history.
On PostgreSQL those writes are one call of ``runtime_settle_batch`` instead (``runtime.sql.settle``,
decision 0030): Python still decides and shapes each result, and a settlement is three statements.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import F, Field, Q, Subquery

from runtime.clock import isoformat, to_millis
from runtime.deadlines import schedule_deadline_on_commit
from runtime.errors import Rejection, RejectionCode
from runtime.events import (
    EventLine,
    announce_events,
    announce_written,
    decision,
    event_data,
    event_row,
    record_event,
    take_pending_events,
    write_event,
)
from runtime.manifests import (
    OperationPolicy,
    conversation_exclusive_apps,
    first_error,
    get_manifest,
    get_tool,
    system_app_id,
)
from runtime.miniapps import registered
from runtime.models import (
    AppInstance,
    DeliveryChannel,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.projections import project_on_commit, result_delivery
from runtime.services.snapshots import encoded_size
from runtime.services.workspace import (
    IN_FRONT,
    Closing,
    bring_to_foreground,
    close_instances,
    lock_existing_workspace,
    lock_workspace,
    lock_workspace_of_operation,
    lock_workspaces_of_operations,
    open_in_front,
    opened_in_front,
    per_row,
    previous_valid_instance_of,
    reserve_focus_seq,
    workspace_created_in_sql,
)
from runtime.sql import settle as settle_sql
from runtime.sql import start as start_sql
from runtime.tool_calls import Accepted, Receipt, replay
from runtime.transitions import (
    RUNNING_STATES,
    AlreadyFinal,
    LifecycleState,
    NotDue,
    OperationState,
    Settle,
    SettlementDecision,
    Trigger,
    decide_settlement,
    is_running,
)


class OperationView:
    """A read-only view of one operation, for the app that shapes its result and projection.

    ``instance_state`` (the last snapshot of the app's instance) is read only when asked for, so
    an app that does not need it costs no query.
    """

    __slots__ = ("_operation", "_state", "_state_read")

    def __init__(self, operation: Operation) -> None:
        self._operation = operation
        self._state: dict[str, Any] | None = None
        self._state_read = False

    @property
    def operation_id(self) -> uuid.UUID:
        return self._operation.id

    @property
    def app_id(self) -> str:
        return self._operation.app_id

    @property
    def instance_id(self) -> uuid.UUID:
        return self._operation.instance_id

    @property
    def state(self) -> str:
        """The app's own word while it runs (its manifest's ``running_label``), then ``completed``
        or ``interrupted``: the app sees its words, never the Runtime's stored one."""
        return wire_state(self._operation)

    @property
    def started_at(self) -> datetime:
        return self._operation.started_at

    @property
    def ends_at(self) -> datetime:
        return self._operation.ends_at

    @property
    def ended_at(self) -> datetime | None:
        return self._operation.ended_at

    @property
    def interruption_reason(self) -> str | None:
        return self._operation.interruption_reason

    @property
    def duration_seconds(self) -> int:
        return round((self._operation.ends_at - self._operation.started_at).total_seconds())

    @property
    def details(self) -> dict[str, Any]:
        return dict(self._operation.details or {})

    @property
    def instance_state(self) -> dict[str, Any] | None:
        if not self._state_read:
            self._state = (
                InstanceSnapshot.objects.filter(instance_id=self._operation.instance_id)
                .values_list("state", flat=True)
                .first()
            )
            self._state_read = True
        return self._state


def standard_result(view: OperationView) -> dict[str, Any]:
    """The plain final result of a deadline operation: how and when it ended (SPEC §3.1)."""
    result = {
        "state": view.state,
        "operation_id": str(view.operation_id),
        "started_at": isoformat(view.started_at),
        "ends_at": isoformat(view.ends_at),
        "ended_at": isoformat(view.ended_at),
    }
    if view.interruption_reason:
        result["interruption_reason"] = view.interruption_reason
    return result


RESULT_INVALID = str(RejectionCode.RESULT_INVALID)  # the code of the error result an app's bad result becomes


def invalid_result(view: OperationView) -> dict[str, Any]:
    """The one final result of an operation whose app could not shape a valid one (decision 0041).

    The same for every app and outside any ``result_schema``: ``isError`` and a stable ``error``,
    with the Runtime's own facts of how and when the operation ended. The reason (an exception, a
    schema path) is the operator's, in the event log: it may quote what the Agent should not read.
    """
    return {
        "isError": True,
        "error": {"code": RESULT_INVALID, "detail": "the app could not shape this operation's result"},
        **standard_result(view),
    }


def is_invalid_result(result: object) -> bool:
    """Whether a stored final result is ``invalid_result``'s error shape."""
    return (
        isinstance(result, dict)
        and result.get("isError") is True
        and result.get("error", {}).get("code") == RESULT_INVALID
    )


def shaped_result(operation: Operation) -> tuple[dict[str, Any], str | None]:
    """The final result of a settled operation as its app shapes it (``standard_result`` by
    default), checked against its start tool's frozen ``result_schema``; ``(result, None)``, or
    ``(invalid_result, why)`` when the app's builder raised or its result breaks the schema."""
    miniapp = registered(operation.app_id)
    build = miniapp.result if miniapp and miniapp.result else standard_result
    view = OperationView(operation)
    descriptor = get_tool(operation.tool_call.tool)
    if descriptor is None:
        return invalid_result(
            view
        ), f"{operation.tool_call.tool!r} is no longer published; its result can not be checked"
    try:
        result = build(view)
    except Exception as exc:  # an app's bug: the operation still ends with one result
        return invalid_result(view), f"{descriptor.name} result builder raised {type(exc).__name__}: {exc}"[:2000]
    error = first_error(descriptor.result_validator, result)
    if error is not None:
        where, message = error
        return invalid_result(view), f"{descriptor.name} result {where or '(result)'}: {message}"[:2000]
    return result, None


def operation_result(operation: Operation) -> dict[str, Any]:
    """The final result of a settled operation, as its Agent receives it (``shaped_result``)."""
    return shaped_result(operation)[0]


def operation_projection(operation: Operation) -> dict[str, Any]:
    """What the workspace is told about an operation: the Runtime's ids and times, and the app's fields."""
    miniapp = registered(operation.app_id)
    extra = miniapp.projection(OperationView(operation)) if miniapp and miniapp.projection else {}
    projection = {
        "operation_id": str(operation.id),
        "instance_id": str(operation.instance_id),
        "app_session_id": str(operation.app_session_id),
        **extra,
        "state": wire_state(operation),
        "started_at": isoformat(operation.started_at),
        "ends_at": isoformat(operation.ends_at),
        # The manifest's policy, so the page warns that leaving ends it only when it does.
        "ends_when_left": _ends_when_left(operation),
    }
    if operation.ended_at is not None:
        projection["ended_at"] = isoformat(operation.ended_at)
    if operation.interruption_reason:
        projection["interruption_reason"] = operation.interruption_reason
    if _ended_with_invalid_result(operation):
        # The page shows that it ended with a problem, not a result that never came (decision 0041).
        projection["problem"] = RESULT_INVALID
    return projection


def _ended_with_invalid_result(operation: Operation) -> bool:
    if getattr(operation, "result_problem", None) is not None:  # this settlement's, in memory
        return True
    return Operation.tool_call.is_cached(operation) and is_invalid_result(operation.tool_call.result)


def wire_state(operation: Operation) -> str:
    """The operation's state in its app's words, as every wire says it: while it runs (whichever
    release stored it) the manifest's ``running_label``, then ``completed`` or ``interrupted``.

    Readers load the start call with the operation (select_related), so this costs no query."""
    if not is_running(operation.state):
        return operation.state
    descriptor = get_tool(operation.tool_call.tool)
    return descriptor.operation.running_label if descriptor and descriptor.operation else OperationState.RUNNING.value


def _ends_when_left(operation: Operation) -> bool:
    # Readers load the start call with the operation (select_related), so this costs no query.
    descriptor = get_tool(operation.tool_call.tool)
    return descriptor.operation.ends_when_left if descriptor and descriptor.operation else True


def policy_of(tool: str) -> OperationPolicy:
    descriptor = get_tool(tool)
    if descriptor is None or descriptor.operation is None:
        raise LookupError(f"{tool!r} is not a published operation tool")
    return descriptor.operation


def _checked_result(operation: Operation, *, now: datetime) -> dict[str, Any]:
    """The result a settlement writes. A bad one becomes ``invalid_result``: the Agent still gets
    its one result, the operation is marked (``result_problem``: its projection says so and
    ``flag_invalid_results`` flags it for an operator) and the reason is logged at error level."""
    result, problem = shaped_result(operation)
    if problem is not None:
        operation.result_problem = problem
        record_event(
            "operation.result_invalid",
            at=now,
            level="error",
            reason=problem,
            tool=operation.tool_call.tool,
            **_ids(operation),
        )
    return result


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


def busy_rejection(policy: OperationPolicy, app_id: str, operation_id: object) -> Rejection:
    return Rejection(
        policy.busy_rejection_code,  # the manifest's public code
        # In the app's words (its running_label), as its projection and results say it.
        f"this conversation already has a {policy.running_label} operation; interrupt it or wait for its result",
        operation_id=str(operation_id),
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
    if not use_sql() or connection.in_atomic_block:
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
    for operation in _lock_operations(Q(pk__in=[operation.pk for operation in running])):
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
    manifest = get_manifest(app_id)
    contract = manifest.instance_state if manifest else None
    if contract is not None:
        plan.snapshot = {"schema_version": contract.schema_version, "state": None, "size_bytes": 0, "revision": 0}
        if initial_state is not None:
            # The app's own first state: held to its contract like any save (a bad one is its bug,
            # raised only when the start would otherwise write: a retry or a busy answer comes first).
            size = encoded_size(initial_state)
            error = first_error(contract.validator, initial_state)
            if error is not None or size > contract.max_bytes:
                plan.refusal = f"{app_id}: initial_state breaks its contract: {error or f'{size} bytes'}"
            plan.snapshot.update(state=initial_state, size_bytes=size, revision=1)
    seen = _start_in_sql(plan) if use_sql() else _start_with_orm(plan)

    if seen.retry is not None:
        outcome = replay(seen.retry, caller=caller, tool=tool, arguments=arguments)
        assert isinstance(outcome, Accepted)
        return outcome
    if seen.busy_operation_id is not None:
        raise busy_rejection(policy, app_id, seen.busy_operation_id)
    if plan.refusal is not None:
        raise ValueError(plan.refusal)
    # Written: what the workspace is told after commit, and the deadline.
    if seen.created_interact_id is not None:
        workspace_created_in_sql(plan.conversation_id, seen.created_interact_id, now=now)
    instance = AppInstance(
        id=plan.instance_id, conversation_id=plan.conversation_id, app_id=app_id, opened_at=plan.started_at
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
        tool_call=ToolCall(id=plan.call_id, tool=tool),
        app_id=app_id,
        details=plan.details,
        state=OperationState.RUNNING,
        started_at=plan.started_at,
        ends_at=plan.ends_at,
    )
    project_on_commit(plan.conversation_id, "operation.started", operation_projection(operation))
    schedule_deadline_on_commit(plan.operation_id, plan.ends_at)
    return Accepted(
        source_tool_call_id=source_tool_call_id,
        operation_id=plan.operation_id,
        instance_id=plan.instance_id,
        app_session_id=plan.session_id,
    )


# Which path starts an operation on PostgreSQL; a test switches it off to run both on one database.
# Its metrics, trace and crash-point name in either form (the harness arms "start_operation").
_start.__name__ = _start.__qualname__ = "start_operation"
_start_in_transaction = decision(_start)
_start_in_autocommit = decision(_start, autocommit=True)

START_IN_SQL = True


def use_sql() -> bool:
    return START_IN_SQL and connection.vendor == "postgresql"


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
    return _Seen(in_front=in_front)


def _start_in_sql(plan: _StartPlan) -> _Seen:
    """The start as one call of ``runtime_start_operation`` (PostgreSQL): lock, read, write, answer."""
    snapshot = plan.snapshot or {}
    with connection.cursor() as cursor:
        cursor.execute(
            start_sql.CALL,
            {
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
            },
        )
        [answer] = cursor.fetchone()
    if isinstance(answer, str | bytes):
        answer = json.loads(answer)
    if answer["outcome"] == "retry":
        stored = answer["call"]
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
        return _Seen(retry=call)
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
    if settles_in_sql():
        running = _lock_running_for_interrupt(workspace.conversation_id, app_id, source_tool_call_id)
    else:
        running = _lock_operations(
            Q(conversation_id=conversation_id, app_id=app_id, state__in=RUNNING_STATES),
            retry_call_id=Subquery(retry.values("id")[:1]),
        )
    retry_call_id = running[0].retry_call_id if running else retry.values_list("id", flat=True).first()
    if retry_call_id is not None:
        outcome = replay(ToolCall.objects.get(pk=retry_call_id), caller=caller, tool=tool, arguments=arguments)
        assert isinstance(outcome, Receipt)
        return outcome

    if operation_id is not None:
        operation = _named_operation(conversation_id, app_id, operation_id, running)
    elif len(running) > 1:
        raise _ambiguous_stop(running)
    else:
        operation = running[0] if running else None
    if operation is None:  # none running: the app's latest one, already final, if there is one
        operation = (
            Operation.objects.filter(conversation_id=conversation_id, app_id=app_id).order_by("-started_at").first()
        )
    was_running = operation is not None and is_running(operation.state)
    if operation is None:
        receipt: dict[str, Any] = {"status": no_active_status}
    else:
        # The receipt follows from the same rule the settlement applies (so it can be written with it).
        verdict = decide_settlement(operation.state, Trigger.AGENT_INTERRUPT, ends_at=operation.ends_at, now=now)
        interrupted = isinstance(verdict, Settle) and verdict.state == OperationState.INTERRUPTED
        receipt = {
            "status": "interrupted" if interrupted else "operation_already_final",
            "operation_id": str(operation.id),
        }
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
        _write_receipt((call, event))
    else:
        settle_locked([(workspace, operation)], trigger=Trigger.AGENT_INTERRUPT, now=now, receipt=(call, event))
    return Receipt(source_tool_call_id=source_tool_call_id, receipt=receipt)


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


class ReceiptInvalid(Rejection):
    """A short tool's receipt breaks its frozen ``result_schema``: an app's bug, refused before
    anything is written (the call is answered ``receipt_invalid`` and logged at error level)."""


def check_receipt(tool: str, receipt: dict[str, Any]) -> None:
    """Hold a short tool's receipt to its ``result_schema`` (decision 0041); raise ``ReceiptInvalid``."""
    descriptor = get_tool(tool)
    error = first_error(descriptor.result_validator, receipt) if descriptor is not None else ("", "not published")
    if error is not None:
        where, message = error
        raise ReceiptInvalid(
            RejectionCode.RECEIPT_INVALID, f"the app's receipt of {tool} is invalid ({where or 'receipt'}: {message})"
        )


def _write_receipt(receipt: tuple[ToolCall, LifecycleEvent]) -> None:
    call, event = receipt
    call.save(force_insert=True)
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
    [operation] = _lock_operations(Q(pk=operation_id))
    [outcome] = settle_locked([(workspace, operation)], trigger=trigger, now=now)
    return outcome


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
    [operation] = _lock_operations(Q(pk=operation_id))
    [outcome] = settle_locked([(workspace, operation)], trigger=Trigger.OPERATOR, now=now)
    record_event(
        "operator.interrupt",
        at=now,
        operator=operator,
        reason=reason,
        # Bounded (the metrics' outcome label): what this request did to the operation.
        status=operation.state if outcome.settled else "already_final",
        **_ids(operation),
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
    [operation] = _lock_operations(Q(pk=operation_id))
    if operation.tool_call.caller != caller:
        raise Operation.DoesNotExist(f"no operation {operation_id} of {caller}")
    [outcome] = settle_locked([(workspace, operation)], trigger=Trigger.AGENT_INTERRUPT, now=now)
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
    operations = _lock_operations(Q(pk__in=operation_ids, conversation_id__in=list(workspaces)))
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
    [operation] = _lock_operations(Q(pk=operation.pk))
    [outcome] = settle_locked([(workspace, operation)], trigger=trigger, now=now, next_foreground=next_foreground)
    return outcome.decision


def _lock_operations(which: Q, **also: Subquery) -> list[Operation]:
    """Lock the operations ``which`` selects, reading in the same statement their instance, their
    start call (whose caller owns the result) and their conversation's previous valid foreground app."""
    if settles_in_sql():  # runtime_settle_batch reads the instance and the previous foreground app itself
        locking = Operation.objects.select_for_update(of=("self",)).select_related("tool_call").filter(which)
        return list(locking.annotate(**also).order_by("conversation_id"))
    return list(
        Operation.objects.select_for_update(of=("self",))
        .select_related("instance", "tool_call")
        .filter(which)
        .annotate(**previous_valid_instance_of("instance_id"), **also)
        .order_by("conversation_id")
    )


@functools.cache
def _interrupt_lock_statement() -> tuple[str, list[Field], list[Field]]:
    """The statement ``_lock_running_for_interrupt`` runs, and the fields its columns fill."""
    op, call = Operation._meta, ToolCall._meta
    op_fields, call_fields = list(op.concrete_fields), list(call.concrete_fields)
    o, t = op.db_table, call.db_table

    def column(name: str, meta: Any = op) -> str:
        return f'"{meta.get_field(name).column}"'

    sql = (
        "SELECT "
        + ", ".join(f'o."{f.column}"' for f in op_fields)
        + f', (SELECT r."id" FROM "{t}" r WHERE r.{column("conversation", call)} = %s'
        f" AND r.{column('source_tool_call_id', call)} = %s ORDER BY r.{column('created_at', call)} LIMIT 1), "
        + ", ".join(f't."{f.column}"' for f in call_fields)
        + f' FROM "{o}" o JOIN "{t}" t ON t."id" = o.{column("tool_call")}'
        f" WHERE o.{column('conversation')} = %s AND o.{column('app_id')} = %s"
        f" AND o.{column('state')} IN ({', '.join(['%s'] * len(RUNNING_STATES))})"
        " FOR UPDATE OF o"
    )
    return sql, op_fields, call_fields


def _from_row(model: type[Any], fields: list[Field], values: tuple[Any, ...]) -> Any:
    """A model instance from one row's columns, converted as the ORM converts them (JSON text)."""
    converted = []
    for f, value in zip(fields, values, strict=True):
        for convert in f.get_db_converters(connection):
            value = convert(value, f, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def _lock_running_for_interrupt(conversation_id: uuid.UUID, app_id: str, source_tool_call_id: str) -> list[Operation]:
    """``_lock_operations`` for an interrupt on the SQL settlement path: the app's running
    operations in the conversation, locked, with their start call and ``retry_call_id`` (the
    interrupt's own call id, if it was already answered) — the same rows and the same lock, one
    constant statement instead of the ORM building it per frame (~1 ms of Python, 27h's profile)."""
    sql, op_fields, call_fields = _interrupt_lock_statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, [conversation_id, source_tool_call_id, conversation_id, app_id, *RUNNING_STATES])
        rows = cursor.fetchall()
    n = len(op_fields)
    locked = []
    for row in rows:
        operation = _from_row(Operation, op_fields, row[:n])
        operation.retry_call_id = row[n]
        call = _from_row(ToolCall, call_fields, row[n + 1 :])
        relation = Operation._meta.get_field("tool_call")
        relation.set_cached_value(operation, call)  # as select_related("tool_call") leaves them
        relation.remote_field.set_cached_value(call, operation)
        locked.append(operation)
    return locked


def settle_locked(
    held: list[tuple[Workspace, Operation]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None = None,
    receipt: tuple[ToolCall, LifecycleEvent] | None = None,
) -> list[SettleOutcome]:
    """Decide and write the settlement of operations read by ``_lock_operations``, whose
    workspaces this transaction holds: one statement per table for all of them, or on PostgreSQL
    one call of ``runtime_settle_batch`` (``runtime.sql.settle``) for all of them.

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
                **_ids(operation),
            )
        elif isinstance(verdict, AlreadyFinal):
            record_event(
                "operation.already_final",
                at=now,
                trigger=trigger.value,
                state=verdict.state,
                level="debug",
                **_ids(operation),
            )
        else:
            settling.append((workspace, operation, verdict))
    told = None  # the receipt, told in the settlement's event (an interrupt settles one operation)
    if receipt is not None and settling:
        [_] = settling
        told = {"source_tool_call_id": receipt[1].source_tool_call_id, **receipt[1].data}
    if settling and settles_in_sql():
        _settle_in_sql(settling, trigger=trigger, now=now, next_foreground=next_foreground, receipt=receipt, told=told)
    else:
        _settle_in_python(settling, trigger=trigger, now=now, next_foreground=next_foreground, told=told)
        if receipt is not None and told is not None:
            receipt[0].save(force_insert=True)
        elif receipt is not None:
            _write_receipt(receipt)
    flag_invalid_results([operation for _, operation, _ in settling], now=now)
    return outcomes


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
        fresh = {operation.pk: operation for operation in _lock_operations(Q(pk__in=[o.pk for _, o in later]))}
        outcomes += settle_locked([(w, fresh[o.pk]) for w, o in later if o.pk in fresh], trigger=trigger, now=now)
    return outcomes


def _settle_in_python(
    settling: list[tuple[Workspace, Operation, Settle]],
    *,
    trigger: Trigger,
    now: datetime,
    next_foreground: AppInstance | None,
    told: dict[str, Any] | None = None,
) -> None:
    """The settlement's writes through the ORM, one statement per table (SQLite; the specification
    ``runtime_settle_batch`` mirrors)."""
    if not settling:
        return
    by_id = {operation.pk: (operation, verdict) for _, operation, verdict in settling}
    won = Operation.objects.filter(pk__in=list(by_id), state__in=RUNNING_STATES).update(
        state=per_row(Operation, "state", {pk: v.state for pk, (_, v) in by_id.items()}),
        ended_at=per_row(Operation, "ended_at", {pk: v.ended_at for pk, (_, v) in by_id.items()}),
        interruption_reason=per_row(
            Operation, "interruption_reason", {pk: v.interruption_reason for pk, (_, v) in by_id.items()}
        ),
        settled_at=now,
    )
    if won != len(by_id):  # unreachable under the locks; the compare-and-set keeps it true anyway
        raise RuntimeError(f"compare-and-set settled {won} of {len(by_id)} locked running operations")
    results = {}
    for operation, verdict in by_id.values():
        operation.state, operation.ended_at = verdict.state, verdict.ended_at
        operation.interruption_reason, operation.settled_at = verdict.interruption_reason, now
        # Checked before anything about the result is written: a bad one becomes the error result.
        results[operation.tool_call_id] = _checked_result(operation, now=now)
    ToolCall.objects.filter(pk__in=list(results)).update(
        status=ToolCallStatus.SUCCEEDED, result=per_row(ToolCall, "result", results), finished_at=now
    )
    entries = OutboxEntry.objects.bulk_create(
        [
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
    )
    for entry, (operation, _) in zip(entries, by_id.values(), strict=True):
        _project_settled(operation, entry.id, results[operation.tool_call_id])

    facts: dict[uuid.UUID, dict[str, Any]] = {}
    close_instances(
        [
            Closing(
                workspace,
                operation.instance,
                verdict.interruption_reason or "completed",
                next_foreground=next_foreground,
                session_id=operation.app_session_id,
                previous=_previous_valid(operation),
            )
            for workspace, operation, verdict in settling
        ],
        now=now,
        facts=facts,
    )
    # One audit row per settled operation, naming everything its settlement did (decision 0035).
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
            **_ids(operation),
        )


_SQL_SETTLEMENT = contextvars.ContextVar("sql_settlement", default=True)


def settles_in_sql() -> bool:
    """Whether settlements here go through ``runtime_settle_batch`` (PostgreSQL, unless turned off)."""
    return connection.vendor == "postgresql" and _SQL_SETTLEMENT.get()


@contextlib.contextmanager
def python_settlement() -> Iterator[None]:
    """Settle through the Python path even on PostgreSQL (the property test compares the two)."""
    token = _SQL_SETTLEMENT.set(False)
    try:
        yield
    finally:
        _SQL_SETTLEMENT.reset(token)


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


def _settle_in_sql(
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
                "result": _checked_result(operation, now=now),
                "focus_seq": seq,
                "receipt": told,
            }
        )
    before = take_pending_events()  # announced already; written first, in this call
    after = [receipt[1]] if receipt and told is None else []
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
        rows = cursor.fetchall()
    own = rows[len(before) : len(rows) - len(after)]
    written = [
        EventLine(kind, conversation_id, instance_id, session_id, operation_id, call_id, _json(raw))
        for _, kind, conversation_id, instance_id, session_id, operation_id, call_id, raw, _ in own
    ]
    for (_, operation, _), verdict, line in zip(settling, verdicts, written, strict=True):
        _project_settled(operation, line.data["outbox_id"], verdict["result"])
    workspaces = {workspace.pk: workspace for workspace, _, _ in settling}
    # The instances the caller read with its operations, if it did (the SQL path's lock does not).
    instances = {o.instance_id: o.instance for _, o, _ in settling if Operation.instance.is_cached(o)}
    left_behind = False
    # The projections the Python path sends from close_instances, in its order: closes, ends, fronts.
    for line in written:
        if (closed := line.data["closed"]) is not None:
            _project_written_move(line.conversation_id, line.instance_id, closed, LifecycleState.CLOSED)
            if line.instance_id in instances:  # what the caller holds in memory follows what was written
                instance = instances[line.instance_id]
                instance.lifecycle_state, instance.closed_at = LifecycleState.CLOSED, now
                instance.close_reason = closed["reason"]
                left_behind = closed["previous"] not in IN_FRONT
    for line in written:
        if line.data["app_session_ended"] is not None:
            project_on_commit(
                line.conversation_id,
                "app_session.ended",
                {"app_session_id": line.data["app_session_ended"], "instance_id": str(line.instance_id)},
            )
    for line, row in zip(written, own, strict=True):
        if (front := line.data["foreground"]) is not None:
            front_id, seq = uuid.UUID(front["instance_id"]), row[8]
            _project_written_move(line.conversation_id, front_id, front, LifecycleState.FOREGROUND)
            workspace = workspaces[line.conversation_id]
            workspace.focus_seq, workspace.focus_seq_reserved = seq, False
            if next_foreground is not None and next_foreground.pk == front_id:
                next_foreground.lifecycle_state, next_foreground.focus_seq = LifecycleState.FOREGROUND, seq
    announce_events([*written, *after])
    if left_behind and next_foreground is not None:
        # The user's choice when what closed was not in front (the Python path does the same).
        [workspace] = workspaces.values()
        bring_to_foreground(workspace, next_foreground, now=now)


def _project_settled(operation: Operation, outbox_id: uuid.UUID | str, result: Any) -> None:
    """The ``operation.settled`` hint of either settlement path, carrying the outbox entry it wrote
    (the start call's caller's: agent, channel) so the caller's socket writes it without a read."""
    project_on_commit(
        operation.conversation_id,
        "operation.settled",
        operation_projection(operation),
        delivery=result_delivery(
            outbox_id=outbox_id,
            agent_id=operation.tool_call.agent_id,
            channel=operation.tool_call.channel,
            conversation_id=operation.conversation_id,
            source_tool_call_id=operation.source_tool_call_id,
            tool=operation.tool_call.tool,
            result=result,
        ),
    )


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


def _previous_valid(operation: Operation) -> AppInstance | None:
    if getattr(operation, "previous_id", None) is None:
        return None
    return AppInstance(
        id=operation.previous_id,
        conversation_id=operation.conversation_id,
        app_id=operation.previous_app_id,
        lifecycle_state=operation.previous_lifecycle_state,
    )


def _ids(operation: Operation) -> dict[str, Any]:
    return {
        "conversation_id": operation.conversation_id,
        "instance_id": operation.instance_id,
        "app_session_id": operation.app_session_id,
        "operation_id": operation.id,
        "source_tool_call_id": operation.source_tool_call_id,
    }
