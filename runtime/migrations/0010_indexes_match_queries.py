"""Indexes that match the queries (issue 16, item 5): a partial index on open instances, a
(conversation, started_at) index for operations, and no foreign-key index that another covers.

Checked with EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL 15 with 1 001 conversations: 1 000 closed
Pomodoro instances in each (5 000 in one), an open Pomodoro in front and Interact behind, 100 100
completed and 1 001 focusing operations (1 007 002 instances), ANALYZEd. Per conversation, before ->
after (the conversation with 5 000 closed; the 1 000 one scales the same way):

* previous valid instance (open, not the leaving one, ORDER BY focus_seq DESC LIMIT 1): bitmap scan
  of the conversation_id index, 5 002 rows read, 5 001 removed by filter, then a sort, 1.4 ms ->
  Index Scan Backward using open_instances_by_focus, 1 row removed (the leaving one), 0.10 ms.
* open instances (selectors.open_instances) and the host closing (close_workspace, FOR UPDATE):
  same as above, 5 000 removed by filter, 1.1-1.3 ms -> open_instances_by_focus, 2 rows, 0.09 ms.
* the app in front (lifecycle_state IN (foreground, suspended) ORDER BY focus_seq DESC LIMIT 1),
  bring_to_foreground's "whatever is in front", set_visibility's suspended one: used
  runtime_app_convers_2ed0ae_idx (conversation, lifecycle_state), 0.03-0.1 ms -> use
  open_instances_by_focus (PostgreSQL proves IN (foreground, suspended) implies <> closed), 2 rows
  read, 0.03-0.06 ms. Nothing else used (conversation, lifecycle_state): it is dropped. The
  foreground one alone keeps one_foreground_instance_per_conversation (unique, R-4.1.1).
* an interrupt's latest operation (conversation, ORDER BY started_at DESC LIMIT 1): bitmap scan of
  the conversation_id index, all 101 operations read and sorted, 1.1 ms -> Index Scan Backward
  using operations_by_conversation, 1 row, 0.06 ms. It leads with conversation_id, so the foreign
  key's own index runtime_operation_conversation_id_126d88b6 is dropped; the focusing operation of
  a conversation reads one_focusing_operation_per_conversation (unique, R-3.12), before and after.
* a tool call by (conversation, source_tool_call_id): unique_source_tool_call_id, before and after
  (1 row); runtime_toolcall_conversation_id_cc35101e, which it covers, was never used: dropped.
* non-final tool calls of an instance (instance, status IN …): used runtime_toolcall_instance_id_816dc028
  -> runtime_too_instanc_233b92_idx (instance, status), 1 row, same cost: the former is dropped.
* runtime_agent_user_id_b574edc9: unique_agent_name_per_user (user, name) leads with user_id.

The sweep's own reads already matched their partial indexes and do not change: the due page reads
focusing_by_ends_at up to now (0 rows when nothing is due, whatever the number focusing);
next_deadline's MIN(ends_at) is one entry of focusing_by_ends_at; its retry MIN and the flagged
count read focusing_settle_retries (only focusing rows with settle_failures > 0); recovery's unacked
count reads outbox_unacked. bench/sweep.py measures it with 1 000 000 focusing operations.

Kept, though partly covered: the plain conversation_id index of instances (the Interact page lists
a conversation's whole history, and deleting a conversation cascades through it); the outbox's
conversation and agent indexes (the partial outbox indexes hold only unacked rows). Every unique
constraint stays.
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
