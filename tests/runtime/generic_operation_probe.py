"""``python -m tests.runtime.generic_operation_probe``: Pomodoro's columns become generic operation details.

Run by tests/runtime/test_migrations.py in a subprocess on a fresh database (PostgreSQL, or the
embedded SQLite under ``LINEUP_DATA_DIR``). It migrates to runtime 0011 (the last migration with
Pomodoro's ``activity`` and ``duration_seconds`` columns), writes a focusing, a completed and an
interrupted operation (with and without an activity, one whose stored duration is not its
``ends_at - started_at``), their outbox entries and instance snapshots through the historical
models; migrates to the newest migrations; reads every row back through today's models; tries a
second running Pomodoro in the focusing one's conversation; and prints it all as one JSON object.
On the way it stops at runtime 0025 for the running state's contraction
(tests/runtime/running_state_contraction_probe.py), reported under ``contraction``.
The test compares: the probe only reports.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django.setup()

from django.db import IntegrityError, connection, transaction  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

from tests.runtime import running_state_contraction_probe as contraction  # noqa: E402

BEFORE = [("runtime", "0011_agent_connections_plain_help_texts")]
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

ROWS = {
    # name: (conversation, state, activity, stored duration, planned seconds, interruption reason)
    "focusing": ("b", "focusing", "reading", 1500, 1500, None),
    "completed": ("a", "completed", "数学", 1500, 1500, None),
    "interrupted": ("a", "interrupted", None, 600, 600, "agent_interrupt"),
    "odd": ("a", "completed", "", 60, 61, None),  # a legacy row whose duration disagrees with its times
}


def write_before(apps: Any) -> dict[str, Any]:
    user = apps.get_model("auth", "User").objects.create(username="ada", password="!")
    Conversation = apps.get_model("runtime", "Conversation")
    conversations = {
        key: Conversation.objects.create(owner=user, title=key, is_default=key == "a", scope="personal")
        for key in ("a", "b")
    }
    for conversation in conversations.values():
        apps.get_model("runtime", "Workspace").objects.create(conversation=conversation, focus_seq=1)
    written: dict[str, Any] = {"conversations": {k: str(c.pk) for k, c in conversations.items()}, "rows": {}}
    for n, (name, (key, state, activity, duration, planned, reason)) in enumerate(ROWS.items()):
        started = T0 + timedelta(hours=n)
        ends = started + timedelta(seconds=planned)
        final = state != "focusing"
        conversation = conversations[key]
        instance = apps.get_model("runtime", "AppInstance").objects.create(
            conversation=conversation,
            app_id="pomodoro",
            lifecycle_state="closed" if final else "foreground",
            focus_seq=n + 1,
            opened_at=started,
            closed_at=ends if final else None,
        )
        session = apps.get_model("runtime", "AppSession").objects.create(
            instance=instance, conversation=conversation, opened_at=started
        )
        snapshot_state = {"operation_id": name, "started_at": "x", "ends_at": "y", "display_state": state}
        apps.get_model("runtime", "InstanceSnapshot").objects.create(
            instance=instance, schema_version=1, revision=2, state=snapshot_state, size_bytes=80, updated_at=started
        )
        arguments = {"duration_seconds": duration, **({"activity": activity} if activity is not None else {})}
        call = apps.get_model("runtime", "ToolCall").objects.create(
            conversation=conversation,
            source_tool_call_id=f"call-{name}",
            tool="pomodoro.start",
            arguments=arguments,
            caller="agent:probe",
            status="succeeded" if final else "accepted",
            instance=instance,
            created_at=started,
            finished_at=ends if final else None,
        )
        operation = apps.get_model("runtime", "Operation").objects.create(
            conversation=conversation,
            instance=instance,
            app_session=session,
            tool_call=call,
            source_tool_call_id=call.source_tool_call_id,
            activity=activity,
            duration_seconds=duration,
            started_at=started,
            ends_at=ends,
            state=state,
            ended_at=ends if final else None,
            settled_at=ends if final else None,
            interruption_reason=reason,
        )
        row: dict[str, Any] = {"operation": str(operation.pk), "instance": str(instance.pk)}
        if final:
            payload = {
                "source_tool_call_id": call.source_tool_call_id,
                "tool": "pomodoro.start",
                "conversation_id": str(conversation.pk),
                "result": {"state": state, "operation_id": str(operation.pk)},
            }
            outbox = apps.get_model("runtime", "OutboxEntry").objects.create(
                conversation=conversation, operation=operation, tool_call=call, payload=payload, created_at=ends
            )
            row["outbox"] = str(outbox.pk)
            row["payload"] = payload
        row["snapshot"] = snapshot_state
        written["rows"][name] = row
    return written


def read_after(written: dict[str, Any]) -> dict[str, Any]:
    from runtime.models import AppInstance, AppSession, InstanceSnapshot, Operation, OutboxEntry, ToolCall

    rows = {}
    for name, ids in written["rows"].items():
        operation = Operation.objects.get(pk=ids["operation"])
        rows[name] = {
            "app_id": operation.app_id,
            "exclusive": operation.exclusive,
            "details": operation.details,
            "state": operation.state,
            "interruption_reason": operation.interruption_reason,
            "planned_seconds": (operation.ends_at - operation.started_at).total_seconds(),
            "instance": str(operation.instance_id),
            "snapshot": InstanceSnapshot.objects.get(instance_id=ids["instance"]).state,
            "payload": OutboxEntry.objects.get(pk=ids["outbox"]).payload if "outbox" in ids else None,
        }
    focusing = Operation.objects.get(pk=written["rows"]["focusing"]["operation"])
    second_refused = False
    try:
        with transaction.atomic():
            instance = AppInstance.objects.create(
                conversation_id=focusing.conversation_id, app_id="pomodoro", opened_at=T0
            )
            Operation.objects.create(
                conversation_id=focusing.conversation_id,
                instance=instance,
                app_session=AppSession.objects.create(
                    instance=instance, conversation_id=focusing.conversation_id, opened_at=T0
                ),
                tool_call=ToolCall.objects.create(
                    conversation_id=focusing.conversation_id,
                    source_tool_call_id="call-second",
                    tool="pomodoro.start",
                    caller="agent:probe",
                    status="accepted",
                    created_at=T0,
                ),
                source_tool_call_id="call-second",
                app_id="pomodoro",
                started_at=T0,
                ends_at=T0 + timedelta(minutes=1),
            )
    except IntegrityError as exc:
        # PostgreSQL names the index; SQLite names its columns.
        second_refused = "one_running_exclusive_operation_per_app" in str(exc) or "runtime_operation.app_id" in str(exc)
    operations = Operation.objects.exclude(conversation__title__startswith=contraction.TITLE).count()
    return {"rows": rows, "operations": operations, "second_running_refused": second_refused}


def main() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    with transaction.atomic():
        written = write_before(apps)
    # On the way, the running state's contraction (its own probe, sharing this migration from scratch).
    executor = MigrationExecutor(connection)
    executor.migrate(contraction.BEFORE)
    with transaction.atomic():
        contracted = contraction.write_before(executor.loader.project_state(contraction.BEFORE).apps)
    before = contraction.old_leftovers()
    updates = contraction.migrate_to_the_newest()
    print(
        json.dumps(
            {
                "vendor": connection.vendor,
                "written": written,
                "after": read_after(written),
                "contraction": contraction.report_after(contracted, before, updates),
            }
        )
    )


if __name__ == "__main__":
    main()
