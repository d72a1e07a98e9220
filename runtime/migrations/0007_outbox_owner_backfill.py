"""Results belong to the Agent that asked (issue 15): existing rows keep their results.

A tool call's Agent is read from its stored caller (``agent:<uuid>``), an outbox entry takes its
tool call's Agent, and an unacked entry is due at once (its last attempt, or its creation).
"""

import uuid

from django.db import migrations
from django.db.models import F
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
    outbox_model.objects.using(db).filter(acked_at__isnull=True).update(
        next_attempt_at=Coalesce(F("last_attempt_at"), F("created_at"))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0007_outbox_owner"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
