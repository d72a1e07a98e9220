"""Host lifecycle events: what the user does with apps in the workspace (SPEC R-3.8, §4.2).

Going back to Interact or switching to another app end a running operation whose manifest says
``ends_when_left``, and closing an app ends its operation, ``interrupted`` through the same
settlement rule as the Agent's interrupt — without faking an Agent tool call. Dimming, locking and reloading a Surface are not exits (R-4.2.2): they are
recorded, and only ``visibility`` moves the foreground app to ``suspended`` and back.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from runtime.errors import Rejection, RejectionCode
from runtime.events import decision, record_event, records_rejection
from runtime.manifests import get_manifest
from runtime.models import AppInstance, AppSession, InstanceSnapshot, Operation, Workspace
from runtime.services.operation_views import policy_of
from runtime.services.settlements import settle_for_lifecycle
from runtime.services.workspace import (
    bring_to_foreground,
    close_instance_locked,
    foreground_instance,
    front_instance,
    move_instance,
    system_instance,
)
from runtime.services.workspace_locks import lock_workspace
from runtime.transitions import RUNNING_STATES, LifecycleState, Trigger


def _open_instance(workspace: Workspace, instance_id: uuid.UUID | str) -> AppInstance:
    """The conversation's instance ``instance_id``, locked; only this conversation's, and open."""
    instance = (
        AppInstance.objects.select_for_update()
        .filter(pk=instance_id, conversation_id=workspace.conversation_id)
        .first()
    )
    if instance is None:
        raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation")
    if instance.lifecycle_state == LifecycleState.CLOSED:
        raise Rejection(RejectionCode.INSTANCE_CLOSED, "this app instance is closed")
    return instance


def _running_operation_of(instance: AppInstance) -> Operation | None:
    return Operation.objects.filter(instance=instance, state__in=RUNNING_STATES).select_related("tool_call").first()


def _leave(workspace: Workspace, leaving: AppInstance, *, trigger: Trigger, target: AppInstance, now: datetime) -> None:
    """Leave the foreground app for ``target``.

    An operation whose manifest says ``ends_when_left`` is not a background timer: leaving ends it.
    Any other keeps running on its ``ends_at`` while its app waits in the background.
    """
    operation = _running_operation_of(leaving)
    if operation is not None:
        if policy_of(operation.tool_call.tool).ends_when_left:
            # Settles interrupted (or completed, if already due), closes the app and brings ``target``.
            settle_for_lifecycle(workspace, operation, trigger=trigger, now=now, next_foreground=target)
        else:
            bring_to_foreground(workspace, target, now=now)
    elif Operation.objects.filter(instance=leaving).exists():
        # An app whose operation already ended has nothing left to show.
        close_instance_locked(workspace, leaving, reason="left", now=now, next_foreground=target)
    else:
        bring_to_foreground(workspace, target, now=now)


def leave_for(workspace: Workspace, leaving: AppInstance, *, target: AppInstance, now: datetime) -> None:
    """Switch from ``leaving`` (in front) to ``target`` for a decision holding the lock: the rule a
    person's switch follows (an operation that ends when left ends ``interrupted(switched_app)``)."""
    _leave(workspace, leaving, trigger=Trigger.SWITCH_APP, target=target, now=now)


@records_rejection("lifecycle.rejected")
@decision
def return_to_interact(*, conversation_id: uuid.UUID | str, now: datetime) -> AppInstance:
    """The user goes back to Interact; a running operation that ends when left ends ``interrupted(returned_to_interact)``."""
    workspace = lock_workspace(conversation_id, now=now)
    interact = system_instance(workspace)
    current = front_instance(workspace)
    record_event(
        "lifecycle.return_to_interact",
        at=now,
        conversation_id=conversation_id,
        instance_id=current.id if current else None,
    )
    if current is None or current.pk == interact.pk:
        bring_to_foreground(workspace, interact, now=now)
    else:
        _leave(workspace, current, trigger=Trigger.RETURN_TO_INTERACT, target=interact, now=now)
    return interact


@records_rejection("lifecycle.rejected")
@decision
def switch_app(*, conversation_id: uuid.UUID | str, instance_id: uuid.UUID | str, now: datetime) -> AppInstance:
    """The user switches to another open app; a running operation that ends when left ends ``interrupted(switched_app)``."""
    workspace = lock_workspace(conversation_id, now=now)
    target = _open_instance(workspace, instance_id)
    current = front_instance(workspace)
    record_event(
        "lifecycle.switch_app", at=now, conversation_id=conversation_id, instance_id=target.id, app_id=target.app_id
    )
    if current is None or current.pk == target.pk:
        bring_to_foreground(workspace, target, now=now)
    else:
        trigger = Trigger.RETURN_TO_INTERACT if target.is_system else Trigger.SWITCH_APP
        _leave(workspace, current, trigger=trigger, target=target, now=now)
    return target


@records_rejection("lifecycle.rejected")
@decision
def open_app(*, conversation_id: uuid.UUID | str, app_id: str, now: datetime) -> AppInstance:
    """The user opens a user-launchable MiniApp: a new instance and sub-session, in front.

    Opening an app is switching to it, so a running operation that ends when left ends ``interrupted(switched_app)``.
    """
    manifest = get_manifest(app_id)
    if manifest is None or manifest.is_system:
        raise Rejection(RejectionCode.UNKNOWN_APP, f"no app {app_id!r} can be opened")
    if not manifest.user_launchable:
        raise Rejection(RejectionCode.NOT_ALLOWED, f"{manifest.name} is started by the Agent, not opened by hand")
    workspace = lock_workspace(conversation_id, now=now)
    instance = AppInstance.objects.create(conversation_id=conversation_id, app_id=app_id, opened_at=now)
    session = AppSession.objects.create(instance=instance, conversation_id=conversation_id, opened_at=now)
    if manifest.instance_state is not None:
        InstanceSnapshot.objects.create(
            instance=instance, schema_version=manifest.instance_state.schema_version, updated_at=now
        )
    record_event(
        "instance.opened",
        at=now,
        conversation_id=conversation_id,
        instance_id=instance.id,
        app_session_id=session.id,
        app_id=app_id,
    )
    record_event(
        "app_session.opened",
        at=now,
        conversation_id=conversation_id,
        instance_id=instance.id,
        app_session_id=session.id,
    )
    current = front_instance(workspace)
    if current is None or current.is_system:
        bring_to_foreground(workspace, instance, now=now)
    else:
        _leave(workspace, current, trigger=Trigger.SWITCH_APP, target=instance, now=now)
    return instance


@records_rejection("lifecycle.rejected")
@decision
def close_instance(*, conversation_id: uuid.UUID | str, instance_id: uuid.UUID | str, now: datetime) -> None:
    """The user closes an app. A running operation first ends ``interrupted(app_closed)`` with its
    result committed; the close never rewrites a final start (R-4.2.6). Closing a closed
    instance again changes nothing.
    """
    workspace = lock_workspace(conversation_id, now=now)
    instance = AppInstance.objects.select_for_update().filter(pk=instance_id, conversation_id=conversation_id).first()
    if instance is None:
        raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation")
    record_event(
        "lifecycle.close", at=now, conversation_id=conversation_id, instance_id=instance.id, app_id=instance.app_id
    )
    if instance.lifecycle_state == LifecycleState.CLOSED:
        return
    operation = _running_operation_of(instance)
    if operation is not None:
        settle_for_lifecycle(workspace, operation, trigger=Trigger.CLOSE_APP, now=now)
    else:
        close_instance_locked(workspace, instance, reason="closed_by_user", now=now)


@records_rejection("lifecycle.rejected")
@decision
def close_workspace(*, conversation_id: uuid.UUID | str, now: datetime) -> int:
    """The host window closes: every open MiniApp of the conversation closes (Interact stays).

    Returns how many instances were closed.
    """
    workspace = lock_workspace(conversation_id, now=now)
    record_event("lifecycle.close_workspace", at=now, conversation_id=conversation_id)
    closed = 0
    instances = AppInstance.objects.select_for_update().filter(conversation_id=conversation_id, is_system=False)
    for instance in instances.exclude(lifecycle_state=LifecycleState.CLOSED).order_by("focus_seq"):
        operation = _running_operation_of(instance)
        if operation is not None:
            settle_for_lifecycle(workspace, operation, trigger=Trigger.CLOSE_APP, now=now)
        else:
            close_instance_locked(workspace, instance, reason="host_closed", now=now)
        closed += 1
    return closed


@records_rejection("lifecycle.rejected")
@decision
def set_visibility(*, conversation_id: uuid.UUID | str, visible: bool, now: datetime) -> None:
    """Dim / lock / hidden page (``visible=False``) and back: never an exit (R-4.2.2, R-4.4.5).

    The foreground app is marked ``suspended`` while nothing is shown and returns to the
    foreground after; its operation keeps running on ``ends_at``.
    """
    workspace = lock_workspace(conversation_id, now=now)
    record_event("lifecycle.visibility", at=now, conversation_id=conversation_id, visible=visible)
    if not visible:
        current = foreground_instance(workspace)
        if current is not None:
            move_instance(current, LifecycleState.SUSPENDED, now=now, cause="hidden")
        return
    if foreground_instance(workspace) is not None:
        return
    suspended = (
        AppInstance.objects.filter(conversation_id=conversation_id, lifecycle_state=LifecycleState.SUSPENDED)
        .order_by("-focus_seq")
        .first()
    )
    bring_to_foreground(workspace, suspended or system_instance(workspace), now=now)


@records_rejection("lifecycle.rejected")
@decision
def report_surface_reloaded(*, conversation_id: uuid.UUID | str, instance_id: uuid.UUID | str, now: datetime) -> None:
    """A Surface reloaded (R-4.2.2): recorded, never an exit; it restores from its snapshot."""
    workspace = lock_workspace(conversation_id, now=now)
    instance = _open_instance(workspace, instance_id)
    record_event(
        "surface.reloaded", at=now, conversation_id=conversation_id, instance_id=instance.id, app_id=instance.app_id
    )


@records_rejection("lifecycle.rejected")
@decision
def report_surface_failed(
    *, conversation_id: uuid.UUID | str, instance_id: uuid.UUID | str, message: str, now: datetime
) -> None:
    """A Surface's script threw (its SDK told the page): one warning event and log line naming the
    app, never an exit; the page shows that the app failed. The instance may be closed by now."""
    instance = AppInstance.objects.filter(pk=instance_id, conversation_id=conversation_id).first()
    if instance is None:
        raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation")
    record_event(
        "surface.failed",
        at=now,
        conversation_id=conversation_id,
        instance_id=instance.id,
        app_id=instance.app_id,
        message=message[:300],
        level="warning",
    )
