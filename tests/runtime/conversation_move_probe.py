"""``python -m tests.runtime.conversation_move_probe``: the conversation's move, on a fresh database.

Run by tests/runtime/test_migrations.py in a subprocess whose ``DATABASE_URL`` names an empty
database (PostgreSQL) or none (the embedded SQLite under ``LINEUP_DATA_DIR``). It migrates to the
last migration before the move (runtime 0004, interact 0002), writes one conversation with a
workspace, an instance with its sub-session, a tool call, an operation, an outbox entry, a message
and an interaction, plus a permission granted on conversations, through the historical models;
migrates to the newest migrations; reads everything back through today's models; and prints both
readings as one JSON object. The test compares them: the probe only reports.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django.setup()

from django.db import IntegrityError, connection, transaction  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

BEFORE_THE_MOVE = [("runtime", "0004_operation_settle_permission"), ("interact", "0002_interaction_message")]
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def write_before(apps: Any) -> dict[str, str]:
    """Rows as they were written before the move, through the historical models."""
    user = apps.get_model("auth", "User").objects.create(username="ada", password="!")
    conversation = apps.get_model("interact", "Conversation").objects.create(
        owner=user, title="Main", is_default=True, scope="personal"
    )
    apps.get_model("runtime", "Workspace").objects.create(conversation=conversation, focus_seq=3)
    instance = apps.get_model("runtime", "AppInstance").objects.create(
        conversation=conversation, app_id="pomodoro", lifecycle_state="foreground", focus_seq=3, opened_at=T0
    )
    session = apps.get_model("runtime", "AppSession").objects.create(
        instance=instance, conversation=conversation, opened_at=T0
    )
    tool_call = apps.get_model("runtime", "ToolCall").objects.create(
        conversation=conversation,
        source_tool_call_id="call-1",
        tool="pomodoro.start",
        arguments={"duration_minutes": 25, "activity": "数学"},
        caller="agent:probe",
        status="succeeded",
        instance=instance,
        created_at=T0,
        finished_at=T0 + timedelta(minutes=25),
    )
    operation = apps.get_model("runtime", "Operation").objects.create(
        conversation=conversation,
        instance=instance,
        app_session=session,
        tool_call=tool_call,
        source_tool_call_id="call-1",
        activity="数学",
        duration_seconds=1500,
        started_at=T0,
        ends_at=T0 + timedelta(minutes=25),
        state="completed",
        ended_at=T0 + timedelta(minutes=25),
        settled_at=T0 + timedelta(minutes=25, seconds=1),
    )
    outbox = apps.get_model("runtime", "OutboxEntry").objects.create(
        conversation=conversation,
        operation=operation,
        tool_call=tool_call,
        payload={"source_tool_call_id": "call-1", "result": {"state": "completed"}},
        created_at=T0 + timedelta(minutes=25),
    )
    agent = apps.get_model("runtime", "Agent").objects.create(name="probe", user=user)
    message = apps.get_model("interact", "Message").objects.create(
        conversation=conversation,
        author_kind="human",
        author_user=user,
        app_session=session,
        text="专注 25 分钟",
        created_at=T0,
    )
    interaction = apps.get_model("interact", "Interaction").objects.create(
        conversation=conversation,
        interaction_id="again-1",
        agent=agent,
        app_session=session,
        kind="confirm",
        prompt="Another round?",
        created_at=T0 + timedelta(minutes=25),
    )
    content_type = apps.get_model("contenttypes", "ContentType").objects.create(
        app_label="interact", model="conversation"
    )
    permission = apps.get_model("auth", "Permission").objects.create(
        content_type=content_type, codename="view_conversation", name="Can view conversation"
    )
    apps.get_model("auth", "Group").objects.create(name="support").permissions.add(permission)
    return {
        "conversation": str(conversation.pk),
        "instance": str(instance.pk),
        "session": str(session.pk),
        "tool_call": str(tool_call.pk),
        "operation": str(operation.pk),
        "outbox": str(outbox.pk),
        "agent": str(agent.pk),
        "message": str(message.pk),
        "interaction": str(interaction.pk),
    }


def read_after(ids: dict[str, str]) -> dict[str, Any]:
    """The same rows read through today's models, with the relations that tie them together."""
    from django.contrib.auth.models import Group

    from interact.models import Interaction, Message
    from runtime.models import AppInstance, AppSession, Conversation, Operation, OutboxEntry, ToolCall, Workspace

    conversation = Conversation.objects.get(pk=ids["conversation"])
    operation = Operation.objects.get(pk=ids["operation"])
    message = Message.objects.get(pk=ids["message"])
    interaction = Interaction.objects.get(pk=ids["interaction"])
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
        message_fks = [
            c["foreign_key"]
            for c in connection.introspection.get_constraints(cursor, "interact_message").values()
            if c["foreign_key"] and c["columns"] == ["conversation_id"]
        ]
    try:  # the database, not only Django, still refuses a message of no conversation
        with transaction.atomic():
            Message.objects.create(conversation_id=uuid.uuid4(), author_kind="system", text="x", created_at=T0)
        orphan_refused = False
    except IntegrityError:
        orphan_refused = True
    return {
        "conversation": {
            "id": str(conversation.pk),
            "owner": conversation.owner.username,
            "title": conversation.title,
            "is_default": conversation.is_default,
            "scope": conversation.scope,
        },
        "workspace_focus_seq": Workspace.objects.get(conversation=conversation).focus_seq,
        "instance_conversation": str(AppInstance.objects.get(pk=ids["instance"]).conversation_id),
        "session_instance": str(AppSession.objects.get(pk=ids["session"]).instance_id),
        "tool_call_arguments": ToolCall.objects.get(pk=ids["tool_call"]).arguments,
        "operation": {
            "conversation": str(operation.conversation_id),
            "tool_call": str(operation.tool_call_id),
            "state": operation.state,
            "activity": operation.details.get("activity"),
        },
        "outbox": {
            "id": str(operation.outbox_entry.pk),
            "conversation": str(OutboxEntry.objects.get(pk=ids["outbox"]).conversation_id),
        },
        "message": {"conversation": str(message.conversation_id), "session": str(message.app_session_id)},
        "interaction": {"conversation": str(interaction.conversation_id), "agent": str(interaction.agent_id)},
        "conversation_rows": {
            "messages": conversation.messages.count(),
            "interactions": conversation.interactions.count(),
            "operations": conversation.operations.count(),
        },
        "group_permissions": sorted(
            f"{p.content_type.app_label}.{p.codename}" for p in Group.objects.get(name="support").permissions.all()
        ),
        "tables": sorted(t for t in tables if t.endswith("_conversation")),
        "message_conversation_fk": message_fks,
        "orphan_message_refused": orphan_refused,
    }


def main() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_THE_MOVE)
    apps = executor.loader.project_state(BEFORE_THE_MOVE).apps
    with transaction.atomic():
        ids = write_before(apps)
    executor = MigrationExecutor(connection)  # reload: the graph as it is after the writes
    executor.migrate(executor.loader.graph.leaf_nodes())
    print(json.dumps({"vendor": connection.vendor, "ids": ids, "after": read_after(ids)}))


if __name__ == "__main__":
    main()
