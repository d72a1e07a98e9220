"""Indexes that match the queries (issue 16, item 5): a partial index on open instances, a
(conversation, started_at) index for operations, and no foreign-key index that another covers.

EVIDENCE_PLACEHOLDER
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _drop_covered_index(table: str, column: str, name: str, *, model: str, field: str, new_field):
    """The foreign key loses its own index; its constraint stays as it is.

    Not an AlterField: on PostgreSQL Django's AlterField(db_index=False) drops *every* one-column
    index on the column that is not a Meta index, and would take the partial unique index
    ``one_focusing_operation_per_conversation`` (R-3.12) with it (it also re-validates the foreign
    key for nothing). Index names are the same on PostgreSQL and SQLite.
    """
    return migrations.SeparateDatabaseAndState(
        database_operations=[
            migrations.RunSQL(
                f'DROP INDEX IF EXISTS "{name}"',
                reverse_sql=f'CREATE INDEX "{name}" ON "{table}" ("{column}")',
            )
        ],
        state_operations=[migrations.AlterField(model_name=model, name=field, field=new_field)],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0009_builtin_agent_token"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="appinstance",
            index=models.Index(
                condition=models.Q(("lifecycle_state", "closed"), _negated=True),
                fields=["conversation", "focus_seq"],
                name="open_instances_by_focus",
            ),
        ),
        migrations.RemoveIndex(model_name="appinstance", name="runtime_app_convers_2ed0ae_idx"),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(fields=["conversation", "started_at"], name="operations_by_conversation"),
        ),
        _drop_covered_index(
            "runtime_operation",
            "conversation_id",
            "runtime_operation_conversation_id_126d88b6",
            model="operation",
            field="conversation",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="operations",
                to="runtime.conversation",
            ),
        ),
        _drop_covered_index(
            "runtime_toolcall",
            "conversation_id",
            "runtime_toolcall_conversation_id_cc35101e",
            model="toolcall",
            field="conversation",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tool_calls",
                to="runtime.conversation",
            ),
        ),
        _drop_covered_index(
            "runtime_toolcall",
            "instance_id",
            "runtime_toolcall_instance_id_816dc028",
            model="toolcall",
            field="instance",
            new_field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="tool_calls",
                to="runtime.appinstance",
            ),
        ),
        _drop_covered_index(
            "runtime_agent",
            "user_id",
            "runtime_agent_user_id_b574edc9",
            model="agent",
            field="user",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="agents",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
