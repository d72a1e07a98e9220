"""No foreign-key index that another index covers (issue 16, item 5; the plans are in runtime 0010).

Checked with EXPLAIN ANALYZE on PostgreSQL 15, 100 conversations x 1 000 messages, deliveries and
interactions, after the drop:

* ``interact_message_conversation_id_62ffa49a``: the (conversation, created_at) index leads with it.
  The timeline (conversation, ORDER BY created_at DESC, id DESC LIMIT 50) is an Index Scan Backward
  of that index, 51 rows.
* ``interact_interaction_conversation_id_59a6b5f0``: ``unique_interaction_id`` (conversation,
  interaction_id) leads with it. The idempotency lookup reads that index (1 row); the timeline's
  interactions read the conversation's 1 000 through it and keep the top 50, as they did through
  the dropped one; the pending ones read ``pending_interaction_expiry``.
* ``interact_messagedelivery_message_id_f59cd3c1``: ``one_delivery_per_message_and_agent``
  (message, agent) leads with it; a message's deliveries are an index scan of it (1 row).

The unique constraints stay. RunSQL with the state change beside it, not AlterField, for the
reason given in runtime 0010.
"""

import django.db.models.deletion
from django.db import migrations, models


def _drop_covered_index(table: str, column: str, name: str, *, model: str, field: str, new_field):
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
        ("interact", "0006_superseded_language_preference"),
        ("runtime", "0010_indexes_match_queries"),
    ]

    operations = [
        _drop_covered_index(
            "interact_message",
            "conversation_id",
            "interact_message_conversation_id_62ffa49a",
            model="message",
            field="conversation",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="messages",
                to="runtime.conversation",
            ),
        ),
        _drop_covered_index(
            "interact_interaction",
            "conversation_id",
            "interact_interaction_conversation_id_59a6b5f0",
            model="interaction",
            field="conversation",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="interactions",
                to="runtime.conversation",
            ),
        ),
        _drop_covered_index(
            "interact_messagedelivery",
            "message_id",
            "interact_messagedelivery_message_id_f59cd3c1",
            model="messagedelivery",
            field="message",
            new_field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="deliveries",
                to="interact.message",
            ),
        ),
    ]
