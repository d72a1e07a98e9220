"""Contract step 2 of 2 for the running state (decision 0053): only ``running`` means running.

After 0026 converted the rows, and once no v2026.12.2 process runs (v2026.12.3 writes and calls
none of what goes here), in one transaction:

- any ``focusing`` row left (one a v2026.12.2 process wrote after 0026: there should be none) is
  converted first, so the narrowed check holds;
- on PostgreSQL the functions v2026.12.3 calls (``runtime_settle_batch``, ``runtime_settle_single``,
  ``runtime_start_operation``) are replaced by their text with the running set ``('running')``
  (frozen in ``_settle_0027`` / ``_start_0027``), and v2026.12.2's (``runtime_settle``,
  ``runtime_settle_one``, ``lineup_start_operation``) are dropped;
- v2026.12.2's indexes ``focusing_by_ends_at`` and ``focusing_settle_retries`` are dropped (already
  gone on SQLite, whose table 0024 rebuilt);
- ``operation_final_iff_ended``, ``one_running_exclusive_operation_per_app``, ``running_by_ends_at``
  and ``running_settle_retries`` are rebuilt over ``running`` alone (a write lock on
  ``runtime_operation`` while they build: docs/releases.md says how long).

Backwards restores 0025's schema and both releases' functions as 0024 left them.
"""

from django.db import migrations, models

from runtime.migrations import (
    _settle_0021,
    _settle_0024,
    _settle_0027,
    _settle_one_0023,
    _start_0020,
    _start_0024,
    _start_0027,
)

PREVIOUS = "focusing"
RUNNING = ("running",)


def convert_stragglers(apps, schema_editor) -> None:
    Operation = apps.get_model("runtime", "Operation")
    Operation.objects.using(schema_editor.connection.alias).filter(state=PREVIOUS).update(state=RUNNING[0])


def narrow_functions(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in (_settle_0027.CREATE, _settle_0027.CREATE_ONE, _start_0027.FUNCTION):
            schema_editor.execute(sql, params=None)
        for sql in (_settle_0021.DROP, _settle_one_0023.DROP, _start_0020.DROP):
            schema_editor.execute(sql, params=None)


def widen_functions(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in (
            _settle_0021.CREATE,
            _settle_one_0023.CREATE,
            _start_0020.FUNCTION,
            _settle_0024.CREATE,
            _settle_0024.CREATE_ONE,
            _start_0024.FUNCTION,
        ):
            schema_editor.execute(sql, params=None)


OLD_INDEXES = [
    (
        "DROP INDEX IF EXISTS focusing_by_ends_at",
        "CREATE INDEX focusing_by_ends_at ON runtime_operation (ends_at, id) WHERE state = 'focusing'",
    ),
    (
        "DROP INDEX IF EXISTS focusing_settle_retries",
        "CREATE INDEX focusing_settle_retries ON runtime_operation (next_settle_attempt_at)"
        " WHERE settle_failures > 0 AND state = 'focusing'",
    ),
]


class Migration(migrations.Migration):
    dependencies = [("runtime", "0026_running_rows")]

    operations = [
        migrations.RunPython(convert_stragglers, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(narrow_functions, widen_functions, elidable=False),
        *(migrations.RunSQL(drop, create, elidable=False) for drop, create in OLD_INDEXES),
        migrations.RemoveConstraint(model_name="operation", name="one_running_exclusive_operation_per_app"),
        migrations.RemoveConstraint(model_name="operation", name="operation_final_iff_ended"),
        migrations.RemoveIndex(model_name="operation", name="running_by_ends_at"),
        migrations.RemoveIndex(model_name="operation", name="running_settle_retries"),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(condition=models.Q(("state__in", RUNNING)), fields=["ends_at", "id"], name="running_by_ends_at"),
        ),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(
                condition=models.Q(("settle_failures__gt", 0), ("state__in", RUNNING)),
                fields=["next_settle_attempt_at"],
                name="running_settle_retries",
            ),
        ),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.UniqueConstraint(
                condition=models.Q(("exclusive", True), ("state__in", RUNNING)),
                fields=("conversation", "app_id"),
                name="one_running_exclusive_operation_per_app",
            ),
        ),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("ended_at__isnull", True), ("settled_at__isnull", True), ("state__in", RUNNING)),
                    models.Q(
                        models.Q(("state__in", RUNNING), _negated=True),
                        ("ended_at__isnull", False),
                        ("settled_at__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="operation_final_iff_ended",
            ),
        ),
    ]
