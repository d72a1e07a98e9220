"""The conversation workspace under its lock: foreground, focus stack, closing an instance.

Every function taking a ``workspace`` expects the caller to hold its row lock (from
``lock_workspace``) inside the deciding transaction; that is what makes them safe to compose.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.manifests import system_app_id
from runtime.models import (
    NON_FINAL_TOOL_CALL_STATUSES,
    AppInstance,
    AppSession,
    AppSessionState,
    ToolCall,
    ToolCallStatus,
    Workspace,
)
from runtime.projections import project_on_commit
from runtime.transitions import LifecycleState, can_transition


def lock_workspace(conversation_id: uuid.UUID | str, *, now: datetime) -> Workspace:
    """Lock the conversation's workspace row, creating it (with Interact in front) on first use."""
    Workspace.objects.get_or_create(conversation_id=conversation_id)
    workspace = Workspace.objects.select_for_update().get(pk=conversation_id)
    if not AppInstance.objects.filter(conversation_id=conversation_id, is_system=True).exists():
        interact = AppInstance.objects.create(
            conversation_id=conversation_id,
            app_id=system_app_id(),
            is_system=True,
            opened_at=now,
        )
        record_event(
            "instance.opened", at=now, conversation_id=conversation_id, instance_id=interact.id, app_id=interact.app_id
        )
        bring_to_foreground(workspace, interact, now=now)
    return workspace


def system_instance(workspace: Workspace) -> AppInstance:
    return AppInstance.objects.get(conversation_id=workspace.conversation_id, is_system=True)


def foreground_instance(workspace: Workspace) -> AppInstance | None:
    return AppInstance.objects.filter(
        conversation_id=workspace.conversation_id, lifecycle_state=LifecycleState.FOREGROUND
    ).first()


def front_instance(workspace: Workspace) -> AppInstance | None:
    """The app in front: the foreground one, or the one suspended while the host was hidden."""
    return (
        AppInstance.objects.filter(
            conversation_id=workspace.conversation_id,
            lifecycle_state__in=(LifecycleState.FOREGROUND, LifecycleState.SUSPENDED),
        )
        .order_by("-focus_seq")
        .first()
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
    if not can_transition(previous, target):
        raise Rejection(
            RejectionCode.NOT_ALLOWED,
            f"an instance can not move from {previous} to {target}",
            instance_id=str(instance.id),
        )
    instance.lifecycle_state = target
    instance.save(update_fields=["lifecycle_state", "focus_seq", *also_save])
    record_event(
        f"instance.{target}",
        at=now,
        conversation_id=instance.conversation_id,
        instance_id=instance.id,
        app_id=instance.app_id,
        previous=previous,
        **event_data,
    )
    project_on_commit(
        instance.conversation_id,
        "instance.lifecycle",
        {"instance_id": str(instance.id), "app_id": instance.app_id, "lifecycle_state": target, "previous": previous},
    )


def bring_to_foreground(workspace: Workspace, instance: AppInstance, *, now: datetime) -> None:
    """Make ``instance`` the foreground app; the current one goes to the background."""
    # Whatever was in front goes behind, including one suspended while the host was hidden, so
    # no instance is left "suspended" once something else is in front.
    in_front = AppInstance.objects.filter(
        conversation_id=workspace.conversation_id,
        lifecycle_state__in=(LifecycleState.FOREGROUND, LifecycleState.SUSPENDED),
    ).exclude(pk=instance.pk)
    for current in in_front:
        move_instance(current, LifecycleState.BACKGROUND, now=now)
    workspace.focus_seq += 1
    workspace.save(update_fields=["focus_seq", "updated_at"])
    instance.focus_seq = workspace.focus_seq
    if instance.lifecycle_state == LifecycleState.FOREGROUND:
        instance.save(update_fields=["focus_seq"])
    else:
        move_instance(instance, LifecycleState.FOREGROUND, now=now)


def previous_valid_instance(workspace: Workspace, *, excluding: AppInstance) -> AppInstance:
    """The most recently focused instance that is still open; Interact, which never closes, at worst."""
    return (
        AppInstance.objects.filter(conversation_id=workspace.conversation_id)
        .exclude(lifecycle_state=LifecycleState.CLOSED)
        .exclude(pk=excluding.pk)
        .order_by("-focus_seq")
        .first()
    ) or system_instance(workspace)


def close_instance_locked(
    workspace: Workspace,
    instance: AppInstance,
    *,
    reason: str,
    now: datetime,
    next_foreground: AppInstance | None = None,
) -> None:
    """Close an instance whose operation (if any) is already final.

    Stops tool delivery to it, settles its other non-final ordinary tool calls as
    ``cancelled(app_closed)`` (never touching a final ``pomodoro.start``), ends its sub-session,
    freezes its snapshot (a closed instance's snapshot is read-only), and restores the previous
    valid foreground app — or ``next_foreground`` when the user chose where to go (R-2.2.7,
    R-4.2.5, R-4.2.6, R-4.2.8).
    """
    if instance.is_system:
        raise Rejection(RejectionCode.NOT_ALLOWED, "Interact is the system app and can not be closed")
    if instance.lifecycle_state == LifecycleState.CLOSED:
        return
    was_in_front = instance.lifecycle_state in (LifecycleState.FOREGROUND, LifecycleState.SUSPENDED)

    for call in ToolCall.objects.filter(instance=instance, status__in=NON_FINAL_TOOL_CALL_STATUSES).exclude(
        operation__isnull=False
    ):
        call.status = ToolCallStatus.CANCELLED
        call.cancel_reason = "app_closed"
        call.result = {"status": "cancelled", "reason": "app_closed"}
        call.finished_at = now
        call.save(update_fields=["status", "cancel_reason", "result", "finished_at"])
        record_event(
            "tool.cancelled",
            at=now,
            conversation_id=instance.conversation_id,
            instance_id=instance.id,
            source_tool_call_id=call.source_tool_call_id,
            tool=call.tool,
            reason="app_closed",
        )

    instance.closed_at = now
    instance.close_reason = reason
    move_instance(instance, LifecycleState.CLOSED, now=now, also_save=("closed_at", "close_reason"), reason=reason)

    session = AppSession.objects.filter(instance=instance, state=AppSessionState.OPEN).first()
    if session is not None:
        session.state = AppSessionState.ENDED
        session.ended_at = now
        session.save(update_fields=["state", "ended_at"])
        record_event(
            "app_session.ended",
            at=now,
            conversation_id=instance.conversation_id,
            instance_id=instance.id,
            app_session_id=session.id,
        )
        project_on_commit(
            instance.conversation_id,
            "app_session.ended",
            {"app_session_id": str(session.id), "instance_id": str(instance.id)},
        )

    if next_foreground is not None:
        bring_to_foreground(workspace, next_foreground, now=now)
    elif was_in_front:
        bring_to_foreground(workspace, previous_valid_instance(workspace, excluding=instance), now=now)
