"""Instance-state snapshots (``app.instance-state.v1``, SPEC §3.2, R-3.13).

A Surface saves the state it needs to redraw itself; the Runtime checks it against the app's
declared schema and byte quota and writes it with a revision compare-and-set. Once the instance
is closed the snapshot is read-only history (``retain_readonly``): it can not be written, so it
can not return to a running state or become the running state of a new round.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from runtime import crashpoints
from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event, records_rejection, uuid_or_none
from runtime.manifests import first_error, get_manifest
from runtime.models import AppInstance, InstanceSnapshot
from runtime.services.workspace_locks import lock_workspace
from runtime.transitions import LifecycleState


def encoded_size(state: Any) -> int:
    """The quota counts the UTF-8 bytes of the state's compact JSON encoding."""
    return len(json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8"))


@dataclass(frozen=True)
class SnapshotSaved:
    instance_id: uuid.UUID
    revision: int
    size_bytes: int


@records_rejection("snapshot.rejected")
@transaction.atomic(durable=True)
@crashpoints.scope("save_snapshot")  # inside the transaction: the crash-point harness counts its statements
def save_snapshot(
    *,
    conversation_id: uuid.UUID | str,
    instance_id: uuid.UUID | str,
    state: Any,
    expected_revision: int,
    now: datetime,
) -> SnapshotSaved:
    """Replace the instance's snapshot if ``expected_revision`` is still the current revision.

    A rejection changed nothing; its ``snapshot.rejected`` event is written after the rollback.
    """
    lock_workspace(conversation_id, now=now)
    instance = AppInstance.objects.filter(pk=uuid_or_none(instance_id), conversation_id=conversation_id).first()
    if instance is None:
        raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation")
    return write_snapshot_locked(instance, state, expected_revision=expected_revision, now=now)


def write_snapshot_locked(instance: AppInstance, state: Any, *, expected_revision: int, now: datetime) -> SnapshotSaved:
    """The one write of an instance's snapshot, for a decision holding its workspace's lock.

    A Surface's save (``save_snapshot``) and an app's tool (``runtime.services.instances``) both
    come here: the contract (schema, byte quota, closed instances read-only), the revision
    compare-and-set and the ``snapshot.saved`` event are the same whoever writes.
    """
    _check_write(instance, state, expected_revision)
    size = encoded_size(state)
    updated = InstanceSnapshot.objects.filter(instance=instance, revision=expected_revision).update(
        revision=expected_revision + 1, state=state, size_bytes=size, updated_at=now
    )
    if updated != 1:  # unreachable under the workspace lock; the CAS keeps it true anyway
        raise Rejection(RejectionCode.STALE_REVISION, "the snapshot changed since it was read")
    ids = {"conversation_id": instance.conversation_id, "instance_id": instance.id}
    record_event("snapshot.saved", at=now, revision=expected_revision + 1, size_bytes=size, **ids)
    return SnapshotSaved(instance_id=instance.id, revision=expected_revision + 1, size_bytes=size)


def _check_write(instance: AppInstance, state: Any, expected_revision: int) -> None:
    manifest = get_manifest(instance.app_id)
    contract = manifest.instance_state if manifest else None
    if contract is None:
        raise Rejection(RejectionCode.STATE_NOT_SUPPORTED, f"{instance.app_id} declares no app.instance-state.v1")
    if instance.lifecycle_state == LifecycleState.CLOSED:
        raise Rejection(
            RejectionCode.INSTANCE_CLOSED, "the instance is closed; its snapshot is read-only history (retain_readonly)"
        )
    size = encoded_size(state)
    if size > contract.max_bytes:
        raise Rejection(RejectionCode.STATE_TOO_LARGE, f"state is {size} bytes; the limit is {contract.max_bytes}")
    error = first_error(contract.validator, state)
    if error is not None:
        where, message = error
        raise Rejection(RejectionCode.STATE_SCHEMA_VIOLATION, f"{where or '(root)'}: {message}")
    current = InstanceSnapshot.objects.select_for_update().get(instance=instance).revision
    if current != expected_revision:
        raise Rejection(
            RejectionCode.STALE_REVISION, f"expected revision {expected_revision}, the snapshot is at {current}"
        )
