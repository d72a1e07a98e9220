"""Results belong to the Agent that asked (issue 15): the caller's Agent and channel on every tool
call and outbox entry, and a per-entry redelivery time.

The schema; 0007_outbox_owner_backfill fills it in for existing rows (apart, because PostgreSQL
refuses the deferred index and constraint statements of this migration after row updates).
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0006_conversation_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="toolcall",
            name="agent",
            field=models.ForeignKey(
                blank=True,
                help_text="The caller.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="runtime.agent",
            ),
        ),
        migrations.AddField(
            model_name="toolcall",
            name="channel",
            field=models.CharField(
                choices=[("agent_socket", "Agent Socket"), ("mcp", "Mcp")], default="agent_socket", max_length=16
            ),
        ),
        migrations.AddField(
            model_name="outboxentry",
            name="agent",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="outbox_entries",
                to="runtime.agent",
            ),
        ),
        migrations.AddField(
            model_name="outboxentry",
            name="channel",
            field=models.CharField(
                choices=[("agent_socket", "Agent Socket"), ("mcp", "Mcp")], default="agent_socket", max_length=16
            ),
        ),
        migrations.AddField(
            model_name="outboxentry",
            name="next_attempt_at",
            # Existing rows get the migration's time, then the backfill below sets the unacked ones.
            field=models.DateTimeField(
                default=django.utils.timezone.now,
                help_text="Not sent again before this (backoff per entry); due when written.",
            ),
        ),
        migrations.AddIndex(
            model_name="outboxentry",
            index=models.Index(
                condition=Q(("acked_at__isnull", True)),
                fields=["agent", "channel", "next_attempt_at"],
                name="outbox_due_by_agent",
            ),
        ),
    ]
