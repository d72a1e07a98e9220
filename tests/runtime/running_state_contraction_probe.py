"""The contract migrations 0026-0027 (decision 0053), probed on a fresh database.

Run as part of tests/runtime/generic_operation_probe.py (one migration from scratch serves both), or
alone as ``python -m tests.runtime.running_state_contraction_probe``. It migrates to runtime 0025 (the last migration under
which a release could write ``focusing``), writes five running operations in that word (one per
conversation, as the unique index wants) and one completed one through the historical models;
migrates to the newest migrations with 0026's batch size set to 2; and prints one JSON object:
each row's state, the rows each state update of 0026-0027 changed, whether the database still
holds v2026.12.2's functions and indexes, and whether a row in the old word is refused. The test compares: the probe only reports.
"""

from __future__ import annotations

import importlib
import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
django.setup()

from django.db import IntegrityError, connection, transaction  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

BEFORE = [("runtime", "0025_view_private_details")]
T0 = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
OLD_WORD = "focusing"
TITLE = "contraction-"  # its conversations' titles begin so


def write_before(apps: Any) -> dict[str, str]:
    user = apps.get_model("auth", "User").objects.create(username="contraction", password="!")
    model = lambda name: apps.get_model("runtime", name)  # noqa: E731
    rows: dict[str, str] = {}
    for n, state in enumerate([OLD_WORD] * 5 + ["completed"]):
        final = state != OLD_WORD
        started, ends = T0 + timedelta(minutes=n), T0 + timedelta(minutes=n + 25)
        conversation = model("Conversation").objects.create(owner=user, title=f"{TITLE}{n}", scope="personal")
        model("Workspace").objects.create(conversation=conversation, focus_seq=1)
        instance = model("AppInstance").objects.create(
            conversation=conversation,
            app_id="pomodoro",
            lifecycle_state="closed" if final else "foreground",
            focus_seq=1,
            opened_at=started,
            closed_at=ends if final else None,
        )
        session = model("AppSession").objects.create(instance=instance, conversation=conversation, opened_at=started)
        call = model("ToolCall").objects.create(
            conversation=conversation,
            source_tool_call_id=f"call-{n}",
            tool="pomodoro.start",
            arguments={"duration_seconds": 1500},
            caller="agent:probe",
            status="succeeded" if final else "accepted",
            instance=instance,
            created_at=started,
        )
        operation = model("Operation").objects.create(
            conversation=conversation,
            instance=instance,
            app_session=session,
            tool_call=call,
            source_tool_call_id=call.source_tool_call_id,
            app_id="pomodoro",
            exclusive=True,
            details={"activity": "reading"},
            started_at=started,
            ends_at=ends,
            state=state,
            ended_at=ends if final else None,
            settled_at=ends if final else None,
        )
        rows[str(operation.pk)] = state
    return rows


def old_leftovers() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "runtime_operation")
        functions: list[str] = []
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT proname FROM pg_proc WHERE proname IN"
                " ('runtime_settle', 'runtime_settle_one', 'lineup_start_operation') ORDER BY proname"
            )
            functions = [name for (name,) in cursor.fetchall()]
    return {
        "functions": functions,
        "indexes": sorted({"focusing_by_ends_at", "focusing_settle_retries"} & set(indexes)),
    }


def migrate_to_the_newest() -> list[int]:
    """Apply every migration left, 0026 in batches of 2; the rows each state update changed."""
    importlib.import_module("runtime.migrations.0026_running_rows").BATCH = 2
    updates: list[int] = []

    def record(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().upper().startswith('UPDATE "RUNTIME_OPERATION" SET "STATE"'):
            updates.append(context["cursor"].rowcount)
        return result

    executor = MigrationExecutor(connection)
    with connection.execute_wrapper(record):
        executor.migrate(executor.loader.graph.leaf_nodes())
    return updates


def report_after(written: dict[str, str], before: dict[str, list[str]], updates: list[int]) -> dict[str, Any]:
    from runtime.models import Operation

    states = {str(pk): state for pk, state in Operation.objects.filter(pk__in=written).values_list("pk", "state")}
    some = next(pk for pk, state in written.items() if state == OLD_WORD)
    try:
        with transaction.atomic():
            Operation.objects.filter(pk=some).update(state=OLD_WORD)
        old_word_refused = False
    except IntegrityError as exc:
        old_word_refused = "operation_final_iff_ended" in str(exc) or "CHECK constraint failed" in str(exc)
    return {
        "written": written,
        "after": states,
        "updates": updates,
        "before": before,
        "leftovers": old_leftovers(),
        "old_word_refused": old_word_refused,
    }


def main() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    with transaction.atomic():
        written = write_before(executor.loader.project_state(BEFORE).apps)
    before = old_leftovers()
    updates = migrate_to_the_newest()
    print(json.dumps({"vendor": connection.vendor, **report_after(written, before, updates)}))


if __name__ == "__main__":
    main()
