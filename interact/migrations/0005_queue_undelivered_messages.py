"""Person messages no Agent received before deliveries existed are queued for every Agent of their user."""

from django.db import migrations


def queue_undelivered(apps, schema_editor):
    db = schema_editor.connection.alias
    message_model = apps.get_model("interact", "Message")
    agent_model = apps.get_model("runtime", "Agent")
    delivery_model = apps.get_model("interact", "MessageDelivery")
    waiting = message_model.objects.using(db).filter(author_kind="human", delivered_to_agent_at__isnull=True)
    for message in waiting.select_related("conversation").iterator():
        agents = agent_model.objects.using(db).filter(user_id=message.conversation.owner_id).values_list("pk", flat=True)
        delivery_model.objects.using(db).bulk_create(
            delivery_model(message_id=message.pk, agent_id=agent, next_attempt_at=message.created_at) for agent in agents
        )


class Migration(migrations.Migration):
    dependencies = [
        ("interact", "0004_message_delivery"),
    ]

    operations = [
        migrations.RunPython(queue_undelivered, migrations.RunPython.noop),
    ]
