"""The generic running state, ``running`` (decision 0040): the expand step of a rolling upgrade.

The previous release stores its own word for it and may run beside this one while and after this
applies, so nothing it reads or writes goes away here:

- the partial unique index and the check constraint that name the running state now accept both
  words (the same names; rebuilt in this migration's transaction);
- the sweep's and the retries' partial indexes over both words are new (``running_by_ends_at``,
  ``running_settle_retries``); the previous release's (``focusing_by_ends_at``,
  ``focusing_settle_retries``) stay in the database, out of the model's state, for its queries;
- on PostgreSQL this release's functions are new ones (``runtime_settle_batch``,
  ``runtime_settle_single``, ``runtime_start_operation``, frozen in ``_settle_0024`` and
  ``_start_0024``); the previous release's (``runtime_settle``, ``runtime_settle_one``,
  ``lineup_start_operation``) are left exactly as they were for it;
- no row is converted.

The contract release (docs/operations.md, "Contract later") converts the old word's rows, drops the
old indexes and functions and narrows the constraints to ``running``.
"""

from django.db import migrations, models

from runtime.migrations import _settle_0024, _start_0024

RUNNING_STATES = ("focusing", "running")


def create_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_0024.CREATE, params=None)
        schema_editor.execute(_settle_0024.CREATE_ONE, params=None)
        schema_editor.execute(_start_0024.FUNCTION, params=None)


def drop_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_0024.DROP, params=None)
        schema_editor.execute(_settle_0024.DROP_ONE, params=None)
        schema_editor.execute(_start_0024.DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0023_settle_one")]

    operations = [
        migrations.RemoveConstraint(model_name="operation", name="operation_final_iff_ended"),
        migrations.RemoveConstraint(model_name="operation", name="one_running_exclusive_operation_per_app"),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.UniqueConstraint(
                condition=models.Q(("exclusive", True), ("state__in", RUNNING_STATES)),
                fields=("conversation", "app_id"),
                name="one_running_exclusive_operation_per_app",
            ),
        ),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("ended_at__isnull", True), ("settled_at__isnull", True), ("state__in", RUNNING_STATES)),
                    models.Q(
                        models.Q(("state__in", RUNNING_STATES), _negated=True),
                        ("ended_at__isnull", False),
                        ("settled_at__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="operation_final_iff_ended",
            ),
        ),
        # The previous release's indexes leave the model's state only: it still reads through them.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="operation", name="focusing_by_ends_at"),
                migrations.RemoveIndex(model_name="operation", name="focusing_settle_retries"),
            ],
            database_operations=[],
        ),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(
                condition=models.Q(("state__in", RUNNING_STATES)), fields=["ends_at", "id"], name="running_by_ends_at"
            ),
        ),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(
                condition=models.Q(("settle_failures__gt", 0), ("state__in", RUNNING_STATES)),
                fields=["next_settle_attempt_at"],
                name="running_settle_retries",
            ),
        ),
        migrations.AlterField(
            model_name="operation",
            name="state",
            field=models.CharField(
                choices=[("running", "running"), ("completed", "completed"), ("interrupted", "interrupted")],
                default="running",
                max_length=16,
                verbose_name="state",
            ),
        ),
        migrations.RunPython(create_functions, drop_functions),
    ]
