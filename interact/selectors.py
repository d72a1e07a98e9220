"""Reads for the workspace: everything a page needs to rebuild itself (SPEC R-4.1.5, R-4.3).

``workspace_snapshot`` is the whole state of one conversation's workspace: the apps and their
lifecycle, the foreground, the running focus, and Interact's timeline in which each App
sub-session is one block. A block holds its person-Agent messages and its result; an interaction
still pending when its block ended is shown in the main IM, never inside the ended block (R-4.3.5).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db.models import F

from interact.models import Interaction, InteractionStatus, Message
from interact.services.interactions import interaction_payload
from interact.services.messages import message_payload
from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.manifests import get_manifest, get_tool
from runtime.models import AppInstance, AppSession, Conversation, InstanceSnapshot, Operation
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.operation_views import operation_projection, operation_result
from runtime.transitions import RUNNING_STATES, LifecycleState, is_running

TIMELINE_LIMIT = 200  # newest messages and blocks sent to a page; older history stays in the database
INSTANCE_LIMIT = 50


def user_conversations(user_id: int) -> list[Conversation]:
    return list(Conversation.objects.filter(owner_id=user_id))


def access_user_conversation(user: Any, conversation_id: object) -> Conversation:
    """The user's own conversation ``conversation_id``; unknown (or not theirs) otherwise."""
    try:
        conversation = Conversation.objects.filter(pk=uuid.UUID(str(conversation_id)), owner_id=user.id).first()
    except ValueError:
        conversation = None
    if conversation is None:
        raise Rejection(RejectionCode.UNKNOWN_CONVERSATION, "no such conversation")
    return conversation


def _instance_view(instance: AppInstance, snapshots: dict[uuid.UUID, InstanceSnapshot]) -> dict[str, Any]:
    manifest = get_manifest(instance.app_id)
    snapshot = snapshots.get(instance.id)
    return {
        "instance_id": str(instance.id),
        "app_id": instance.app_id,
        "name": manifest.name if manifest else instance.app_id,
        "is_system": instance.is_system,
        "lifecycle_state": instance.lifecycle_state,
        "restored": instance.restored_at is not None,
        "opened_at": isoformat(instance.opened_at),
        "closed_at": isoformat(instance.closed_at) if instance.closed_at else None,
        "close_reason": instance.close_reason or None,
        "surface": f"/surfaces/{instance.app_id}/" if manifest and manifest.surface_entry else None,
        "snapshot": (
            {"revision": snapshot.revision, "state": snapshot.state, "read_only": instance.closed_at is not None}
            if snapshot
            else None
        ),
    }


def _kept_text(manifest: Any, state: Any) -> list[str]:
    """The text a closed instance kept, read-only, for a person to read again from its block.

    Only for apps whose manifest keeps their state read-only after close, and only the top-level
    properties its state schema marks as words a person wrote (``"contentMediaType": "text/plain"``,
    Scratch notes' ``text``): Interact knows nothing else of an app's state (Pomodoro's ids and
    times stay out).
    """
    contract = getattr(manifest, "instance_state", None)
    if contract is None or contract.retention != "retain_readonly" or not isinstance(state, dict):
        return []
    properties = contract.schema.get("properties", {})
    readable = [key for key, spec in properties.items() if spec.get("contentMediaType") == "text/plain"]
    return [state[key] for key in readable if isinstance(state.get(key), str) and state[key].strip()]


def running_operation_view(operation: Operation) -> dict[str, Any]:
    """A running operation as the page and its Surface see it: the Runtime's projection plus which
    app runs it and how that app calls it (its manifest's name and ``running_label``, untranslated:
    the page translates what its catalog knows and shows the manifest's own words otherwise)."""
    manifest = get_manifest(operation.app_id)
    descriptor = get_tool(operation.tool_call.tool)
    policy = descriptor.operation if descriptor else None
    return {
        **operation_projection(operation),
        "app_id": operation.app_id,
        "app_name": manifest.name if manifest else operation.app_id,
        "running_label": policy.running_label if policy else "running",
    }


def _legacy_operation(views: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not views:
        return None
    first = next((view for view in views if view["ends_when_left"]), views[0])
    return {key: value for key, value in first.items() if key not in ("app_id", "app_name", "running_label")}


def workspace_snapshot(*, user: Any, conversation_id: object | None, now: datetime) -> dict[str, Any]:
    """The whole workspace state of one of the user's conversations (their default one if None)."""
    conversation = (
        conversation_get_or_create_default(user=user)
        if conversation_id is None
        else access_user_conversation(user, conversation_id)
    )
    # Open instances first (the app bar), then the most recent closed ones (history). PostgreSQL
    # sorts NULLs last in ascending order, so "open first" has to be asked for explicitly: without
    # it the oldest closed instances came first and, past the limit, hid Interact and the open apps.
    instances = list(
        AppInstance.objects.filter(conversation=conversation).order_by(
            F("closed_at").desc(nulls_first=True), "-opened_at"
        )[:INSTANCE_LIMIT]
    )
    snapshots = {s.instance_id: s for s in InstanceSnapshot.objects.filter(instance__in=instances)}
    foreground = next((i for i in instances if i.lifecycle_state == LifecycleState.FOREGROUND), None)
    running = list(
        Operation.objects.filter(conversation=conversation, state__in=RUNNING_STATES)
        .select_related("tool_call")
        .order_by("started_at", "id")
    )
    running_views = [running_operation_view(operation) for operation in running]

    sessions = list(
        AppSession.objects.filter(conversation=conversation)
        .select_related("instance")
        .order_by("-opened_at")[:TIMELINE_LIMIT]
    )
    operations = {o.app_session_id: o for o in Operation.objects.filter(app_session__in=sessions)}
    # What a closed app kept (retention "retain_readonly"), readable from its ended block.
    kept = {
        s.instance_id: s.state
        for s in InstanceSnapshot.objects.filter(
            instance_id__in=[session.instance_id for session in sessions if session.state != "open"],
            instance__closed_at__isnull=False,
            state__isnull=False,
        )
    }
    messages = list(Message.objects.filter(conversation=conversation).order_by("-created_at", "-id")[:TIMELINE_LIMIT])
    interactions = list(Interaction.objects.filter(conversation=conversation).order_by("-created_at")[:TIMELINE_LIMIT])
    # Pending ones stay answerable until resolved, however much newer history there is.
    pending = list(
        Interaction.objects.filter(conversation=conversation, status=InteractionStatus.PENDING).order_by("created_at")[
            :TIMELINE_LIMIT
        ]
    )

    ended_at = {session.id: session.ended_at for session in sessions}
    blocks: dict[uuid.UUID, dict[str, Any]] = {}
    for session in sessions:
        operation = operations.get(session.id)
        manifest = get_manifest(session.instance.app_id)
        blocks[session.id] = {
            "type": "block",
            "app_session_id": str(session.id),
            "instance_id": str(session.instance_id),
            "app_id": session.instance.app_id,
            "app_name": manifest.name if manifest else session.instance.app_id,
            "state": session.state,
            "read_only": session.state != "open",
            "opened_at": isoformat(session.opened_at),
            "ended_at": isoformat(session.ended_at) if session.ended_at else None,
            "activity": (operation.details or {}).get("activity") if operation else None,
            "result": operation_result(operation) if operation and not is_running(operation.state) else None,
            "entries": [],
            "kept_text": _kept_text(manifest, kept.get(session.instance_id)),
            "sort_key": isoformat(session.opened_at),
        }

    timeline: list[dict[str, Any]] = list(blocks.values())
    for message in reversed(messages):
        entry = {"type": "message", **message_payload(message), "sort_key": isoformat(message.created_at)}
        block = blocks.get(message.app_session_id) if message.app_session_id else None
        (block["entries"] if block else timeline).append(entry)
    for interaction in reversed(interactions):
        entry = {
            "type": "interaction",
            **interaction_payload(interaction),
            "sort_key": isoformat(interaction.created_at),
        }
        block = blocks.get(interaction.app_session_id) if interaction.app_session_id else None
        block_end = ended_at.get(interaction.app_session_id)
        # Shown in its block only if it was settled while the block was open.
        inside_block = block is not None and (
            block_end is None or (interaction.resolved_at is not None and interaction.resolved_at <= block_end)
        )
        (block["entries"] if inside_block else timeline).append(entry)
    timeline.sort(key=lambda e: e["sort_key"])
    for block in blocks.values():
        block["entries"].sort(key=lambda e: e["sort_key"])

    return {
        "server_time": isoformat(now),
        "conversation": {"id": str(conversation.id), "title": conversation.title},
        "conversations": [{"id": str(c.id), "title": c.title} for c in user_conversations(user.id)],
        "foreground": {"instance_id": str(foreground.id), "app_id": foreground.app_id} if foreground else None,
        "instances": [_instance_view(i, snapshots) for i in instances],
        # Each running operation, under the instance it runs in (an instance has at most one):
        # several apps' operations run at once, and each Surface is handed its own (decision 0043).
        "operations": {view["instance_id"]: view for view in running_views},
        # The previous release's pages read one ``operation``: kept for one release so a page still
        # open across a rolling upgrade keeps its guard. The one that leaving ends comes first, since
        # those pages warn only for it. Remove once no page of that release can be open (0043).
        "operation": _legacy_operation(running_views),
        "timeline": timeline,
        "pending_interactions": [interaction_payload(i) for i in pending],
    }
