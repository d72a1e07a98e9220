"""Starting a deadline operation, for any MiniApp (SPEC §3): its instance, sub-session, operation,
focus change and deadline in one durable transaction.

A MiniApp's tool handler (``runtime.api``) calls ``start_operation``: a retry is answered by the
caller's call id; the manifest's exclusivity and run-alone policies (``deadline_operation``) are
applied under the workspace lock. The writes are ``start_writes.write_start``: the same
statements on PostgreSQL and SQLite (decision 0055).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db.models import Q

from runtime.clock import to_millis
from runtime.deadlines import schedule_deadline_on_commit
from runtime.errors import Rejection
from runtime.events import decision
from runtime.manifests import conversation_exclusive_apps, first_error, get_manifest
from runtime.models import AppInstance, DeliveryChannel, Operation, ToolCall
from runtime.projections import project_on_commit
from runtime.services.operation_rows import lock_operations
from runtime.services.operation_views import busy_rejection, operation_projection, policy_of
from runtime.services.row_writes import owns_transaction
from runtime.services.settlements import settle_locked
from runtime.services.snapshots import encoded_size
from runtime.services.start_writes import Seen, StartPlan, write_start
from runtime.services.workspace import opened_in_front
from runtime.services.workspace_locks import lock_existing_workspace
from runtime.tool_calls import Accepted, replay
from runtime.transitions import RUNNING_STATES, OperationState, Trigger


def start_operation(**kwargs: Any) -> Accepted:
    """Start a deadline operation for ``tool`` (``_start``, whose arguments these are).

    On PostgreSQL, with no transaction open around it, the start opens its own: its ``BEGIN``
    goes with its first batch of statements and its ``COMMIT`` with its last (two round trips in
    all, ``runtime.services.row_writes``), not Django's ``atomic`` (two more). Otherwise (SQLite,
    or inside a caller's transaction) it is a ``@decision`` like the others.
    """
    alone = conversation_exclusive_apps() - {kwargs["tool"].split(".", 1)[0]}
    if alone:  # another app's operation may run alone: the start decides beside it (decision 0041)
        return _start_beside_alone(alone=alone, **kwargs)
    if owns_transaction():
        return _start_in_autocommit(**kwargs)
    return _start_in_transaction(**kwargs)


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
    # Read again after the start: it moved their apps to the background, which the settlement reads,
    # and took the next focus number, which a bring-forward in the settlement must not take again.
    workspace = lock_existing_workspace(conversation_id, now=now)
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

    The writes are ``start_writes.write_start``, the same statements on either engine; Python
    validates, applies the manifest's policy, chooses the ids and answers.
    """
    if duration_seconds < 1:
        # The app's own arithmetic (the Router already refused a caller's 0): its bug, said plainly.
        raise ValueError(f"{tool}: duration_seconds must be at least 1, not {duration_seconds}")
    app_id = tool.split(".", 1)[0]
    policy = policy_of(tool)
    plan = StartPlan(
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
    seen = write_start(plan)

    if seen.retry is not None:
        outcome = replay(seen.retry, caller=caller, tool=tool, arguments=arguments)
        assert isinstance(outcome, Accepted)
        return outcome
    if seen.busy_operation_id is not None:
        raise busy_rejection(policy, app_id, seen.busy_operation_id)
    if plan.refusal is not None:
        raise ValueError(plan.refusal)
    return _started(plan, seen)


# Its metrics, trace and crash-point name in either form (the harness arms "start_operation").
_start.__name__ = _start.__qualname__ = "start_operation"
_start_in_transaction = decision(_start)
_start_in_autocommit = decision(_start, autocommit=True)


def _hold_initial_state(plan: StartPlan, initial_state: dict[str, Any] | None) -> None:
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


def _started(plan: StartPlan, seen: Seen) -> Accepted:
    """A start that wrote: what the workspace is told after commit, and the deadline."""
    instance = AppInstance(
        id=plan.instance_id, conversation_id=plan.conversation_id, app_id=plan.app_id, opened_at=plan.started_at
    )
    opened_in_front(instance, seen.in_front)  # the moves' projections (write_start wrote and announced the event)
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
