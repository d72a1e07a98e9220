"""Taking the conversation workspace's row lock: what every decision does first.

One statement each (``UPDATE … RETURNING`` or ``SELECT … FOR UPDATE``), in standard SQL that
PostgreSQL and SQLite both accept; the first decision of a conversation creates its workspace
with Interact in front. What a decision then does under the lock is runtime.services.workspace's.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import connection

from runtime.events import announce_written, event_data, record_event
from runtime.manifests import system_app_id
from runtime.models import AppInstance, Operation, Workspace
from runtime.services.row_writes import dialect, prep, value
from runtime.services.workspace import project_move, record_move
from runtime.transitions import LifecycleState


def lock_workspace(conversation_id: uuid.UUID | str, *, now: datetime) -> Workspace:
    """Lock the conversation's workspace row, creating it (with Interact in front) on first use.

    One statement: an ``UPDATE … RETURNING`` that takes the row lock and reserves the next focus
    number (``workspace.focus_seq``) for whatever this decision brings to the front, so bringing an
    app forward costs no further write to this row. Numbers a decision reserves and does not use
    are gaps, which is fine: only their order means anything.
    """
    row = _lock_and_reserve(_BY_CONVERSATION, [_key(conversation_id)], now=now)
    if not row:
        _create_workspace(conversation_id, now=now)
        row = _lock_and_reserve(_BY_CONVERSATION, [_key(conversation_id)], now=now)
    [(_, focus_seq)] = row
    return _locked(conversation_id, focus_seq)


def lock_existing_workspace(conversation_id: uuid.UUID | str, *, now: datetime) -> Workspace | None:
    """Lock the conversation's workspace row if it has one, reserving nothing (``SELECT … FOR
    UPDATE``); None, creating nothing, before its first decision: that decision creates it in its
    own way (the start's writes)."""
    row = _lock_only(_BY_CONVERSATION, [_key(conversation_id)])
    if not row:
        return None
    [(_, focus_seq)] = row
    workspace = _locked(conversation_id, focus_seq)
    workspace.focus_seq_reserved = False
    return workspace


def lock_workspace_of_operation(operation_id: uuid.UUID | str, *, now: datetime) -> Workspace | None:
    """Lock the workspace of the operation's conversation, in one statement; None if it is gone.

    The operation's ``conversation_id`` never changes, so reading it inside the locking statement
    is safe whatever snapshot that read uses.
    """
    row = _lock_and_reserve(f"{_WS} = (SELECT conversation_id FROM {_OP} WHERE id = %s)", [_key(operation_id)], now=now)
    if not row:
        return None
    [(conversation_id, focus_seq)] = row
    return _locked(conversation_id, focus_seq)


def lock_workspaces_of_operations(operation_ids: list[uuid.UUID], *, now: datetime) -> dict[uuid.UUID, Workspace]:
    """Lock the workspaces of these operations' conversations that no one else holds, in one statement.

    ``SKIP LOCKED``: a workspace another decision (or another sweeper) holds is left out, so sweeps
    on several processes share the due work and never wait on each other; what is left out is that
    decision's to settle, or the next sweep's. Locks are taken in conversation order.
    """
    if not operation_ids:
        return {}
    engine = dialect()
    among, params = engine.in_ids("id", [_key(op_id) for op_id in operation_ids])
    locked = (
        f"SELECT w.conversation_id FROM {_WS_TABLE} w WHERE w.conversation_id IN "
        f"(SELECT conversation_id FROM {_OP} WHERE {among}) ORDER BY w.conversation_id{engine.lock(skip_locked=True)}"
    )
    rows = _lock_and_reserve(engine.in_select(_WS, locked), params, now=now)
    return {uuid.UUID(str(conv)): _locked(conv, seq) for conv, seq in rows}


# Standard SQL quoting, the same on PostgreSQL and SQLite.
_WS_TABLE = f'"{Workspace._meta.db_table}"'
_WS = "conversation_id"
_OP = f'"{Operation._meta.db_table}"'


_BY_CONVERSATION = f"{_WS} = %s"


def _key(id_: uuid.UUID | str) -> object:
    # Both tables' keys are uuids, stored as the engine stores a UUIDField.
    return prep(Workspace._meta.pk, uuid.UUID(str(id_)))


def _lock_and_reserve(where: str, params: list, *, now: datetime) -> list[tuple]:
    # The ORM has no UPDATE … RETURNING; PostgreSQL and SQLite (3.35+) both have it.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_WS_TABLE} SET focus_seq = focus_seq + 1, updated_at = %s WHERE {where} "
            "RETURNING conversation_id, focus_seq",
            [value(Workspace, "updated_at", now), *params],
        )
        return cursor.fetchall()


def _lock_only(where: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT conversation_id, focus_seq FROM {_WS_TABLE} WHERE {where}{dialect().lock()}", params)
        return cursor.fetchall()


def _locked(conversation_id: object, focus_seq: int) -> Workspace:
    workspace = Workspace(conversation_id=uuid.UUID(str(conversation_id)), focus_seq=focus_seq)
    workspace.focus_seq_reserved = True  # this decision's number is free for the first bring-forward
    return workspace


def _create_workspace(conversation_id: uuid.UUID | str, *, now: datetime) -> None:
    """The first decision of a conversation: its workspace row and Interact, in front."""
    workspace, created = Workspace.objects.get_or_create(conversation_id=conversation_id)
    if not created:  # a concurrent first decision made it; the caller's lock waits for that one
        return
    interact = AppInstance.objects.create(
        conversation_id=conversation_id,
        app_id=system_app_id(),
        is_system=True,
        lifecycle_state=LifecycleState.FOREGROUND,
        focus_seq=1,
        opened_at=now,
    )
    workspace.focus_seq = 1
    workspace.save(update_fields=["focus_seq", "updated_at"])
    record_event(
        "instance.opened", at=now, conversation_id=conversation_id, instance_id=interact.id, app_id=interact.app_id
    )
    record_move(interact, LifecycleState.LAUNCHING, LifecycleState.FOREGROUND, now=now)


def workspace_created_in_sql(conversation_id: uuid.UUID, interact_id: uuid.UUID, *, now: datetime) -> None:
    """What ``_create_workspace`` tells after commit, for SQL that wrote the same rows and events."""
    interact = AppInstance(id=interact_id, conversation_id=conversation_id, app_id=system_app_id())
    ids = {"conversation_id": conversation_id, "instance_id": interact_id}
    announce_written("instance.opened", data=event_data(app_id=interact.app_id), **ids)
    data = event_data(app_id=interact.app_id, previous=LifecycleState.LAUNCHING)
    announce_written(f"instance.{LifecycleState.FOREGROUND}", data=data, **ids)
    project_move(interact, LifecycleState.LAUNCHING, LifecycleState.FOREGROUND)
