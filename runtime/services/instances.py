"""App instances an app's short tools open, write, read and close: no operation, no deadline.

A checklist the Agent creates, the person's notes the Agent appends to: an instance that lives
until someone closes it. What a deadline operation guarantees holds here too, through the same
parts (docs/miniapps.md, "Instances without a deadline"):

* every call is one durable decision under the workspace lock; a retry of the caller's call id
  is answered from the stored tool call (``runtime.tool_calls.replay``), never applied twice;
* the state is written only through ``runtime.services.snapshots.write_snapshot_locked``, the
  Surface's own path: the manifest's schema and byte quota, the revision compare-and-set, the
  ``snapshot.saved`` event. A refused state rolls the whole call back: nothing is written;
* the instance has its sub-session (``AppSession``), opens in the foreground or behind what is in
  front (the app's choice) and closes like any instance (``close_instances``);
* nothing here is due later, so a restart has nothing to recover: the rows are the state.

The app shapes its receipt from an ``InstanceView``; the Runtime stores it with the call. A
refusal is the Tool Router's one ``tool.rejected`` event, as for any tool call.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.errors import Rejection, RejectionCode
from runtime.events import decision, record_event
from runtime.manifests import InstanceStateContract, get_manifest
from runtime.models import AppInstance, AppSession, InstanceSnapshot, Operation, ToolCall, ToolCallStatus
from runtime.projections import project_on_commit
from runtime.services.lifecycle import leave_for
from runtime.services.snapshots import write_snapshot_locked
from runtime.services.workspace import Closing, bring_to_foreground, close_instances, front_instance, project_move
from runtime.services.workspace_locks import lock_workspace
from runtime.tool_calls import Receipt, replay
from runtime.transitions import RUNNING_STATES, LifecycleState


@dataclass(frozen=True)
class InstanceView:
    """One app instance and its state as last written, for the app shaping a receipt or a change."""

    instance_id: uuid.UUID
    app_id: str
    app_session_id: uuid.UUID | None
    lifecycle_state: str
    opened_at: datetime
    closed_at: datetime | None
    revision: int
    state: dict[str, Any] | None
    size_bytes: int
    max_bytes: int

    @property
    def is_open(self) -> bool:
        return self.lifecycle_state != LifecycleState.CLOSED


StateChange = Callable[[InstanceView | None], dict[str, Any]]
Answer = Callable[[InstanceView | None], dict[str, Any]]


@dataclass(frozen=True)
class Call:
    """The short tool call a service answers (``runtime.api.ToolRequest``, without the app's arguments' meaning)."""

    conversation_id: uuid.UUID
    source_tool_call_id: str
    tool: str
    arguments: dict[str, Any]
    caller: str
    agent_id: uuid.UUID | None
    channel: str
    now: datetime

    @property
    def app_id(self) -> str:
        return self.tool.split(".", 1)[0]


def _contract(app_id: str) -> InstanceStateContract:
    manifest = get_manifest(app_id)
    if manifest is None or manifest.instance_state is None:
        raise Rejection(RejectionCode.STATE_NOT_SUPPORTED, f"{app_id} declares no app.instance-state.v1")
    return manifest.instance_state


def _retry(call: Call) -> Receipt | None:
    """The stored answer to this call id, if this conversation already answered it (under the lock)."""
    stored = (
        ToolCall.objects.filter(conversation_id=call.conversation_id, source_tool_call_id=call.source_tool_call_id)
        .select_related("operation")
        .first()
    )
    if stored is None:
        return None
    outcome = replay(stored, caller=call.caller, tool=call.tool, arguments=call.arguments)
    if not isinstance(outcome, Receipt):  # the same id, the same tool and arguments: an operation start
        raise Rejection(RejectionCode.IDEMPOTENCY_KEY_REUSED, "that call id started an operation")
    return outcome


def _view(instance: AppInstance, snapshot: InstanceSnapshot | None, contract: InstanceStateContract) -> InstanceView:
    session_id = getattr(instance, "session_id", None)
    if session_id is None:
        session_id = AppSession.objects.filter(instance=instance).values_list("id", flat=True).first()
    return InstanceView(
        instance_id=instance.id,
        app_id=instance.app_id,
        app_session_id=session_id,
        lifecycle_state=instance.lifecycle_state,
        opened_at=instance.opened_at,
        closed_at=instance.closed_at,
        revision=snapshot.revision if snapshot else 0,
        state=snapshot.state if snapshot else None,
        size_bytes=snapshot.size_bytes if snapshot else 0,
        max_bytes=contract.max_bytes,
    )


def _target(call: Call, instance_id: uuid.UUID | str | None, *, open_only: bool) -> AppInstance | None:
    """The app's instance the call is about: ``instance_id`` (this conversation's and this app's), or
    else its open instance the person focused last (one the Agent opened behind, never focused,
    comes after), or else, unless ``open_only``, the one closed last (its state kept read-only)."""
    instances = AppInstance.objects.select_for_update().filter(conversation_id=call.conversation_id, app_id=call.app_id)
    if instance_id is not None:
        try:
            pk = uuid.UUID(str(instance_id))
        except ValueError:
            pk = None
        instance = instances.filter(pk=pk).first() if pk else None
        if instance is None:
            raise Rejection(
                RejectionCode.UNKNOWN_INSTANCE, f"no {call.app_id} instance {instance_id} in this conversation"
            )
        return instance
    open_now = instances.exclude(lifecycle_state=LifecycleState.CLOSED)
    found = open_now.order_by("-focus_seq", "-opened_at", "-id").first()
    if found is not None or open_only:
        return found
    return instances.order_by("-closed_at", "-opened_at", "-id").first()


def _snapshot(instance: AppInstance) -> InstanceSnapshot | None:
    return InstanceSnapshot.objects.select_for_update().filter(instance=instance).first()


def _answer(call: Call, instance: AppInstance | None, receipt: dict[str, Any]) -> Receipt:
    """Store the call with its receipt (what a retry is answered with) and its one event."""
    ToolCall.objects.create(
        conversation_id=call.conversation_id,
        source_tool_call_id=call.source_tool_call_id,
        tool=call.tool,
        arguments=call.arguments,
        caller=call.caller,
        agent_id=call.agent_id,
        channel=call.channel,
        status=ToolCallStatus.SUCCEEDED,
        # A closed instance takes no more tool calls: a call about it is not to it.
        instance=instance if instance is not None and instance.lifecycle_state != LifecycleState.CLOSED else None,
        receipt=receipt,
        created_at=call.now,
        finished_at=call.now,
    )
    record_event(
        "tool.receipt",
        at=call.now,
        conversation_id=call.conversation_id,
        instance_id=instance.id if instance is not None else None,
        source_tool_call_id=call.source_tool_call_id,
        tool=call.tool,
        status=receipt.get("status"),
        caller=call.caller,
    )
    return Receipt(source_tool_call_id=call.source_tool_call_id, receipt=receipt)


def _open(call: Call, workspace: Any, contract: InstanceStateContract, *, foreground: bool) -> AppInstance:
    """A new instance of the call's app with its sub-session and an empty snapshot (revision 0)."""
    now = call.now
    instance = AppInstance.objects.create(
        conversation_id=call.conversation_id,
        app_id=call.app_id,
        # Behind what is in front: focus number 0, so closing the app in front never brings it forward.
        lifecycle_state=LifecycleState.LAUNCHING if foreground else LifecycleState.BACKGROUND,
        opened_at=now,
    )
    session = AppSession.objects.create(instance=instance, conversation_id=call.conversation_id, opened_at=now)
    instance.session_id = session.id
    InstanceSnapshot.objects.create(instance=instance, schema_version=contract.schema_version, updated_at=now)
    ids = {"conversation_id": call.conversation_id, "instance_id": instance.id, "app_session_id": session.id}
    record_event(
        "instance.opened",
        at=now,
        source_tool_call_id=call.source_tool_call_id,
        app_id=call.app_id,
        caller=call.caller,
        lifecycle_state=LifecycleState.FOREGROUND if foreground else LifecycleState.BACKGROUND,
        **ids,
    )
    record_event("app_session.opened", at=now, **ids)
    if not foreground:
        project_move(instance, LifecycleState.LAUNCHING, LifecycleState.BACKGROUND)
        return instance
    current = front_instance(workspace)
    if current is None or current.is_system:
        bring_to_foreground(workspace, instance, now=now)
    else:  # opening an app in front is switching to it, by the same rule as a person's switch
        leave_for(workspace, current, target=instance, now=now)
    return instance


def _write(
    call: Call, instance: AppInstance, contract: InstanceStateContract, state: dict[str, Any]
) -> InstanceSnapshot:
    snapshot = _snapshot(instance)
    revision = snapshot.revision if snapshot else 0
    saved = write_snapshot_locked(instance, state, expected_revision=revision, now=call.now)
    project_on_commit(
        call.conversation_id,
        "instance.state",
        {"instance_id": str(instance.id), "app_id": instance.app_id, "revision": saved.revision},
    )
    return InstanceSnapshot(
        instance=instance,
        schema_version=contract.schema_version,
        revision=saved.revision,
        state=state,
        size_bytes=saved.size_bytes,
        updated_at=call.now,
    )


@decision
def open_instance(
    *,
    call: Call,
    initial_state: dict[str, Any] | None,
    foreground: bool,
    answer: Answer | None,
    now: datetime,
    conversation_id: uuid.UUID,
) -> Receipt:
    """Open a new instance of the call's app, with ``initial_state`` as its first snapshot (revision 1).

    Receipt ``{"status": "opened", "instance_id", "app_session_id", "revision"}`` unless the app's
    ``answer(view)`` shapes its own. A state its contract refuses is refused, nothing written.
    """
    workspace = lock_workspace(conversation_id, now=now)
    if (retried := _retry(call)) is not None:
        return retried
    contract = _contract(call.app_id)
    instance = _open(call, workspace, contract, foreground=foreground)
    snapshot = _write(call, instance, contract, initial_state) if initial_state is not None else _snapshot(instance)
    view = _view(instance, snapshot, contract)
    receipt = answer(view) if answer else _receipt("opened", view)
    return _answer(call, instance, receipt)


@decision
def save_instance_state(
    *,
    call: Call,
    change: StateChange,
    instance_id: uuid.UUID | str | None,
    open_if_none: bool,
    foreground: bool,
    answer: Answer | None,
    now: datetime,
    conversation_id: uuid.UUID,
) -> Receipt:
    """Write ``change(view)`` as the state of the app's instance (``instance_id``, or its open one the
    person focused last, ``_target``).

    ``change`` reads the state as it is under the lock, so two calls never lose each other's
    write; it may raise a ``Rejection`` with the app's own stable code (nothing is written). With
    ``open_if_none`` and no open instance, one is opened first and ``change(None)`` is its state.
    Receipt ``{"status": "saved", "instance_id", "app_session_id", "revision", "opened"}`` unless
    ``answer(view)`` shapes the app's own.
    """
    workspace = lock_workspace(conversation_id, now=now)
    if (retried := _retry(call)) is not None:
        return retried
    contract = _contract(call.app_id)
    instance = _target(call, instance_id, open_only=True)
    opened = instance is None
    if instance is None:
        if not open_if_none:
            raise Rejection(RejectionCode.UNKNOWN_INSTANCE, f"no open {call.app_id} instance in this conversation")
        instance, before = _open(call, workspace, contract, foreground=foreground), None
    else:
        before = _view(instance, _snapshot(instance), contract)
    snapshot = _write(call, instance, contract, change(before))
    view = _view(instance, snapshot, contract)
    receipt = answer(view) if answer else {**_receipt("saved", view), "opened": opened}
    return _answer(call, instance, receipt)


@decision
def read_instance_state(
    *,
    call: Call,
    instance_id: uuid.UUID | str | None,
    answer: Answer | None,
    now: datetime,
    conversation_id: uuid.UUID,
) -> Receipt:
    """Answer with the state of the app's instance: ``instance_id``, or its open one the person
    focused last, or else the one closed last (kept read-only). Receipt ``{"status": "read", …, "state"}`` or
    ``{"status": "no_instance"}`` unless ``answer(view or None)`` shapes the app's own.

    A read is stored like any call, so its retry is answered with what it read then.
    """
    lock_workspace(conversation_id, now=now)
    if (retried := _retry(call)) is not None:
        return retried
    contract = _contract(call.app_id)
    instance = _target(call, instance_id, open_only=False)
    view = _view(instance, _snapshot(instance), contract) if instance is not None else None
    if answer is not None:
        receipt = answer(view)
    elif view is None:
        receipt = {"status": "no_instance"}
    else:
        receipt = {**_receipt("read", view), "state": view.state}
    return _answer(call, instance, receipt)


@decision
def close_instance(
    *,
    call: Call,
    instance_id: uuid.UUID | str | None,
    now: datetime,
    conversation_id: uuid.UUID,
) -> Receipt:
    """Close the app's instance (``instance_id``, or its open one the person focused last) that runs no operation.

    Receipts: ``closed``, ``already_closed``, ``no_open_instance``. An instance whose operation
    still runs is refused ``not_allowed``: the operation's own stop tool ends it (one result).
    """
    workspace = lock_workspace(conversation_id, now=now)
    if (retried := _retry(call)) is not None:
        return retried
    instance = _target(call, instance_id, open_only=True)
    if instance is None:
        return _answer(call, None, {"status": "no_open_instance"})
    if instance.lifecycle_state == LifecycleState.CLOSED:
        return _answer(call, instance, {"status": "already_closed", "instance_id": str(instance.id)})
    if Operation.objects.filter(instance=instance, state__in=RUNNING_STATES).exists():
        raise Rejection(RejectionCode.NOT_ALLOWED, "an operation runs in this instance; stop the operation instead")
    close_instances([Closing(workspace, instance, "closed_by_agent")], now=now)
    return _answer(call, instance, {"status": "closed", "instance_id": str(instance.id)})


def _receipt(status: str, view: InstanceView) -> dict[str, Any]:
    return {
        "status": status,
        "instance_id": str(view.instance_id),
        "app_session_id": str(view.app_session_id) if view.app_session_id else None,
        "revision": view.revision,
    }
