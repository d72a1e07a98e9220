"""Results belong to the Agent that asked (issue 15): the caller's Agent and channel on every tool
call and outbox entry, and a per-entry redelivery time.

Existing rows keep their results: a tool call's Agent is read from its stored caller
(``agent:<uuid>``), an outbox entry takes its tool call's, and an unacked entry is due at once
(its next attempt is its last attempt, or its creation).
"""

import uuid

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F, Q
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    db = schema_editor.connection.alias
    agent_model = apps.get_model("runtime", "Agent")
    tool_call_model = apps.get_model("runtime", "ToolCall")
    outbox_model = apps.get_model("runtime", "OutboxEntry")
    known = {str(pk) for pk in agent_model.objects.using(db).values_list("pk", flat=True)}
    for pk, caller in tool_call_model.objects.using(db).filter(caller__startswith="agent:").values_list("pk", "caller"):
        agent_id = caller.removeprefix("agent:")
        try:
            uuid.UUID(agent_id)
        except ValueError:
            continue
        if agent_id in known:
            tool_call_model.objects.using(db).filter(pk=pk).update(agent_id=agent_id)
    for entry in outbox_model.objects.using(db).select_related("tool_call").only("pk", "tool_call__agent_id"):
        outbox_model.objects.using(db).filter(pk=entry.pk).update(agent_id=entry.tool_call.agent_id)
    outbox_model.objects.using(db).update(next_attempt_at=Coalesce(F("last_attempt_at"), F("created_at")))


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
            field=models.DateTimeField(null=True, help_text="Not sent again before this (backoff per entry)."),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="outboxentry",
            name="next_attempt_at",
            field=models.DateTimeField(help_text="Not sent again before this (backoff per entry)."),
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
