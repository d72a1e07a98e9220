"""The conversation workspace under its lock: foreground, focus stack, closing an instance.

Every function taking a ``workspace`` expects the caller to hold its row lock (``lock_workspace``,
runtime.services.workspace_locks) inside the deciding transaction; that is what makes them safe to compose.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Subquery

from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.models import (
    NON_FINAL_TOOL_CALL_STATUSES,
    AppInstance,
    AppSession,
    AppSessionState,
    Operation,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.projections import project_on_commit
from runtime.services.row_writes import EachRow, Returned, update_rows
from runtime.transitions import LifecycleState, can_transition


def take_focus_seq(workspace: Workspace) -> int:
    """The focus number for the next app brought to the front in this decision."""
    if getattr(workspace, "focus_seq_reserved", False):
        workspace.focus_seq_reserved = False
        return workspace.focus_seq
    workspace.focus_seq += 1
    update_rows(Workspace, [workspace.pk], {"focus_seq": workspace.focus_seq})
    return workspace.focus_seq


def system_instance(workspace: Workspace) -> AppInstance:
    return AppInstance.objects.get(conversation_id=workspace.conversation_id, is_system=True)


def foreground_instance(workspace: Workspace) -> AppInstance | None:
    return AppInstance.objects.filter(
        conversation_id=workspace.conversation_id, lifecycle_state=LifecycleState.FOREGROUND
    ).first()


def front_instance(workspace: Workspace) -> AppInstance | None:
    """The app in front: the foreground one, or the one suspended while the host was hidden."""
    return (
        AppInstance.objects.filter(conversation_id=workspace.conversation_id, lifecycle_state__in=IN_FRONT)
        .order_by("-focus_seq")
        .first()
    )


IN_FRONT = (LifecycleState.FOREGROUND, LifecycleState.SUSPENDED)


def record_move(instance: AppInstance, previous: str, target: str, *, now: datetime, **event_data: object) -> None:
    """The event and the projection of one lifecycle transition already written."""
    record_event(
        f"instance.{target}",
        at=now,
        conversation_id=instance.conversation_id,
        instance_id=instance.id,
        app_id=instance.app_id,
        previous=previous,
        **event_data,
    )
    project_move(instance, previous, target)


def project_move(instance: AppInstance, previous: str, target: str) -> None:
    """Tell the workspace, after commit, that ``instance`` moved from ``previous`` to ``target``."""
    project_on_commit(
        instance.conversation_id,
        "instance.lifecycle",
        {"instance_id": str(instance.id), "app_id": instance.app_id, "lifecycle_state": target, "previous": previous},
    )


def move_instance(
    instance: AppInstance,
    target: LifecycleState,
    *,
    now: datetime,
    also_save: tuple[str, ...] = (),
    **event_data: object,
) -> None:
    """Apply one lifecycle transition from the table in runtime.transitions.

    ``also_save`` names fields the caller set on ``instance`` that must land in the same UPDATE
    (the closed-iff-closed_at constraint is checked per statement).
    """
    previous = instance.lifecycle_state
    if previous == target:
        return
    _check_transition(instance, previous, target)
    instance.lifecycle_state = target
    instance.save(update_fields=["lifecycle_state", "focus_seq", *also_save])
    record_move(instance, previous, target, now=now, **event_data)


def _check_transition(instance: AppInstance, previous: str, target: str) -> None:
    if not can_transition(previous, target):
        raise Rejection(
            RejectionCode.NOT_ALLOWED,
            f"an instance can not move from {previous} to {target}",
            instance_id=str(instance.id),
        )


def bring_to_foreground(
    workspace: Workspace, instance: AppInstance, *, now: datetime, in_front: list[AppInstance] | None = None
) -> None:
    """Make ``instance`` the foreground app; whatever is in front goes to the background.

    ``in_front`` is what the caller already read as being in front (saves the query).
    """
    # Including one suspended while the host was hidden, so no instance is left "suspended" once
    # something else is in front.
    if in_front is None:
        in_front = list(
            AppInstance.objects.filter(conversation_id=workspace.conversation_id, lifecycle_state__in=IN_FRONT)
        )
    behind = [current for current in in_front if current.pk != instance.pk]
    for current in behind:
        _check_transition(current, current.lifecycle_state, LifecycleState.BACKGROUND)
    if behind:
        AppInstance.objects.filter(pk__in=[current.pk for current in behind]).update(
            lifecycle_state=LifecycleState.BACKGROUND
        )
        for current in behind:
            previous, current.lifecycle_state = current.lifecycle_state, LifecycleState.BACKGROUND
            record_move(current, previous, LifecycleState.BACKGROUND, now=now)
    instance.focus_seq = take_focus_seq(workspace)
    if instance.lifecycle_state == LifecycleState.FOREGROUND:
        instance.save(update_fields=["focus_seq"])
    else:
        move_instance(instance, LifecycleState.FOREGROUND, now=now)


def open_in_front(
    workspace: Workspace,
    *,
    app_id: str,
    in_front: list[AppInstance],
    opened_at: datetime,
    instance_id: uuid.UUID | None = None,
    session_id: uuid.UUID | None = None,
) -> tuple[AppInstance, AppSession]:
    """Open a new instance of ``app_id`` with its sub-session, straight into the foreground.

    ``in_front`` is what is in front now (read under the lock); it goes to the background first,
    so the new instance is inserted already in front: no second write to it. Records no event:
    the decision that opens it records one, naming what it opened and moved (``opened_in_front``).
    """
    for current in in_front:
        _check_transition(current, current.lifecycle_state, LifecycleState.BACKGROUND)
    if in_front:
        AppInstance.objects.filter(pk__in=[current.pk for current in in_front]).update(
            lifecycle_state=LifecycleState.BACKGROUND
        )
    instance = AppInstance.objects.create(
        **({"id": instance_id} if instance_id else {}),
        conversation_id=workspace.conversation_id,
        app_id=app_id,
        lifecycle_state=LifecycleState.FOREGROUND,
        focus_seq=take_focus_seq(workspace),
        opened_at=opened_at,
    )
    session = AppSession.objects.create(
        **({"id": session_id} if session_id else {}),
        instance=instance,
        conversation_id=workspace.conversation_id,
        opened_at=opened_at,
    )
    return instance, session


def opened_in_front(instance: AppInstance, in_front: list[AppInstance]) -> dict[str, object] | None:
    """Project, after commit, the moves of ``open_in_front``; what went to the background, for the
    decision's one event (None when nothing was in front)."""
    backgrounded = None
    for current in in_front:
        project_move(current, current.lifecycle_state, LifecycleState.BACKGROUND)
        backgrounded = {"instance_id": str(current.id), "app_id": current.app_id, "previous": current.lifecycle_state}
        current.lifecycle_state = LifecycleState.BACKGROUND
    project_move(instance, LifecycleState.LAUNCHING, LifecycleState.FOREGROUND)
    return backgrounded


def previous_valid_instance(workspace: Workspace, *, excluding: AppInstance) -> AppInstance:
    """The most recently focused instance that is still open; Interact, which never closes, at worst."""
    return (
        AppInstance.objects.filter(conversation_id=workspace.conversation_id)
        .exclude(lifecycle_state=LifecycleState.CLOSED)
        .exclude(pk=excluding.pk)
        .order_by("-focus_seq")
        .first()
    ) or system_instance(workspace)


def previous_valid_instance_of(instance_field: str) -> dict[str, Subquery]:
    """Annotations naming the previous valid instance of each row's conversation, as of this read.

    For a query that already reads the closing instance (an operation being settled): its
    previous valid foreground app comes back in the same statement.
    """
    candidates = (
        AppInstance.objects.filter(conversation_id=OuterRef("conversation_id"))
        .exclude(lifecycle_state=LifecycleState.CLOSED)
        .exclude(pk=OuterRef(instance_field))
        .order_by("-focus_seq")
    )
    return {
        f"previous_{field}": Subquery(candidates.values(field)[:1]) for field in ("id", "app_id", "lifecycle_state")
    }


@dataclass
class Closing:
    """One instance to close, in a workspace this transaction holds.

    ``session_id`` is its open sub-session when the caller knows it (an operation's); ``previous``
    its previous valid instance when the caller read it already (``previous_valid_instance_of``).
    ``pending_calls`` False when the caller read that it has no call to cancel (the close then
    skips that statement).
    """

    workspace: Workspace
    instance: AppInstance
    reason: str
    next_foreground: AppInstance | None = None
    session_id: uuid.UUID | None = None
    previous: AppInstance | None = None
    pending_calls: bool = True  # False: the caller read, under the workspace lock, that it has none to cancel


def close_instance_locked(
    workspace: Workspace,
    instance: AppInstance,
    *,
    reason: str,
    now: datetime,
    next_foreground: AppInstance | None = None,
) -> None:
    """Close one instance whose operation (if any) is already final (see ``close_instances``)."""
    close_instances([Closing(workspace, instance, reason, next_foreground=next_foreground)], now=now)


def close_instances(
    closings: list[Closing], *, now: datetime, facts: dict[uuid.UUID, dict[str, Any]] | None = None
) -> None:
    """Close instances whose operations (if any) are already final, one statement per table.

    Stops tool delivery to them, settles their other non-final ordinary tool calls as
    ``cancelled(app_closed)`` (never touching a final operation start), ends their sub-sessions,
    freezes their snapshots (a closed instance's snapshot is read-only), and restores each
    workspace's previous valid foreground app — or ``next_foreground`` when the user chose where to
    go (R-2.2.7, R-4.2.5, R-4.2.6, R-4.2.8). At most one closing per workspace.

    ``facts``: a settlement's collector. Given, nothing here records an event: what happened to
    each closing instance goes into ``facts[instance id]`` (``closed``, ``app_session_ended``,
    ``cancelled``, ``foreground``) for the settlement's one event (decision 0035); the
    projections are the same.
    """
    for closing in closings:
        if closing.instance.is_system:
            raise Rejection(RejectionCode.NOT_ALLOWED, "Interact is the system app and can not be closed")
    closings = [c for c in closings if c.instance.lifecycle_state != LifecycleState.CLOSED]
    if not closings:
        return
    by_id = {c.instance.pk: c for c in closings}
    if facts is not None:
        for pk in by_id:
            facts[pk] = {"closed": None, "app_session_ended": None, "cancelled": [], "foreground": None}
    _cancel_pending_calls([c.instance.pk for c in closings if c.pending_calls], now=now, facts=facts)

    was_in_front = _mark_closed(closings, now=now, facts=facts)

    _end_sessions(closings, now=now, facts=facts)

    restores: list[tuple[Workspace, AppInstance, uuid.UUID]] = []
    for closing in closings:
        if was_in_front[closing.instance.pk]:
            # What was in front is closed now, so nothing else is in front.
            target = (
                closing.next_foreground
                or closing.previous
                or previous_valid_instance(closing.workspace, excluding=closing.instance)
            )
            restores.append((closing.workspace, target, closing.instance.pk))
        elif closing.next_foreground is not None:
            bring_to_foreground(closing.workspace, closing.next_foreground, now=now)
    _restore_front(restores, now=now, facts=facts)


def _mark_closed(
    closings: list[Closing], *, now: datetime, facts: dict[uuid.UUID, dict[str, Any]] | None
) -> dict[uuid.UUID, bool]:
    """The instances closed, in one UPDATE, and in memory; whether each was in front."""
    for closing in closings:
        _check_transition(closing.instance, closing.instance.lifecycle_state, LifecycleState.CLOSED)
    update_rows(
        AppInstance,
        [c.instance.pk for c in closings],
        {
            "lifecycle_state": LifecycleState.CLOSED,
            "closed_at": now,
            "close_reason": EachRow({c.instance.pk: c.reason for c in closings}),
        },
    )
    was_in_front = {}
    for closing in closings:
        instance = closing.instance
        was_in_front[instance.pk] = instance.lifecycle_state in IN_FRONT
        previous, instance.lifecycle_state = instance.lifecycle_state, LifecycleState.CLOSED
        instance.closed_at, instance.close_reason = now, closing.reason
        if facts is None:
            record_move(instance, previous, LifecycleState.CLOSED, now=now, reason=closing.reason)
        else:
            facts[instance.pk]["closed"] = {"app_id": instance.app_id, "previous": previous, "reason": closing.reason}
            project_move(instance, previous, LifecycleState.CLOSED)
    return was_in_front


def _restore_front(
    restores: list[tuple[Workspace, AppInstance, uuid.UUID]],
    *,
    now: datetime,
    facts: dict[uuid.UUID, dict[str, Any]] | None,
) -> None:
    """Bring each target to the front of a workspace that has nothing in front: one UPDATE for all."""
    if not restores:
        return
    for _, target, _ in restores:
        _check_transition(target, target.lifecycle_state, LifecycleState.FOREGROUND)
    for workspace, target, _ in restores:
        target.focus_seq = take_focus_seq(workspace)
    update_rows(
        AppInstance,
        [target.pk for _, target, _ in restores],
        {
            "lifecycle_state": LifecycleState.FOREGROUND,
            "focus_seq": EachRow({target.pk: target.focus_seq for _, target, _ in restores}),
        },
    )
    for _, target, closed in restores:
        previous, target.lifecycle_state = target.lifecycle_state, LifecycleState.FOREGROUND
        if facts is None:
            record_move(target, previous, LifecycleState.FOREGROUND, now=now)
        else:
            facts[closed]["foreground"] = {"instance_id": str(target.pk), "app_id": target.app_id, "previous": previous}
            project_move(target, previous, LifecycleState.FOREGROUND)


def _cancel_pending_calls(
    instance_ids: list[uuid.UUID], *, now: datetime, facts: dict[uuid.UUID, dict[str, Any]] | None
) -> None:
    """Their non-final ordinary calls become ``cancelled(app_closed)``, never an operation's start
    call: one ``UPDATE … RETURNING`` (both engines) says which."""
    if not instance_ids:
        return
    cancelled = update_rows(
        ToolCall,
        instance_ids,
        {
            "status": ToolCallStatus.CANCELLED,
            "cancel_reason": "app_closed",
            "result": {"status": "cancelled", "reason": "app_closed"},
            "finished_at": now,
        },
        key="instance",
        where=f'"status" IN ({", ".join(["%s"] * len(NON_FINAL_TOOL_CALL_STATUSES))})'
        f' AND NOT EXISTS (SELECT 1 FROM "{Operation._meta.db_table}" o'
        f' WHERE o."tool_call_id" = "{ToolCall._meta.db_table}"."id")',
        where_params=list(NON_FINAL_TOOL_CALL_STATUSES),
        returning=["source_tool_call_id", "instance", "conversation", "tool"],
    )
    assert isinstance(cancelled, Returned)
    for source_tool_call_id, instance_id, conversation_id, tool in sorted(cancelled.rows()):
        if facts is not None:
            facts[instance_id]["cancelled"].append({"source_tool_call_id": source_tool_call_id, "tool": tool})
            continue
        record_event(
            "tool.cancelled",
            at=now,
            conversation_id=conversation_id,
            instance_id=instance_id,
            source_tool_call_id=source_tool_call_id,
            tool=tool,
            reason="app_closed",
        )


def _end_sessions(closings: list[Closing], *, now: datetime, facts: dict[uuid.UUID, dict[str, Any]] | None) -> None:
    known = {c.session_id: c.instance for c in closings if c.session_id is not None}
    unknown = [c.instance.pk for c in closings if c.session_id is None]
    if unknown:  # instances without an operation: read which sub-sessions are open
        for session_id, instance_id in AppSession.objects.filter(
            instance_id__in=unknown, state=AppSessionState.OPEN
        ).values_list("id", "instance_id"):
            known[session_id] = next(c.instance for c in closings if c.instance.pk == instance_id)
    if not known:
        return
    # An operation's sub-session is open while it is not final: it ends only when its instance closes.
    update_rows(
        AppSession,
        list(known),
        {"state": AppSessionState.ENDED, "ended_at": now},
        where='"state" = %s',
        where_params=[AppSessionState.OPEN],
    )
    for session_id, instance in known.items():
        if facts is not None:
            facts[instance.id]["app_session_ended"] = str(session_id)
        else:
            record_event(
                "app_session.ended",
                at=now,
                conversation_id=instance.conversation_id,
                instance_id=instance.id,
                app_session_id=session_id,
            )
        project_on_commit(
            instance.conversation_id,
            "app_session.ended",
            {"app_session_id": str(session_id), "instance_id": str(instance.id)},
        )
