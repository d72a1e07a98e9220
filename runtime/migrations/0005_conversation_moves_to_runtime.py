"""The conversation becomes a Runtime model (docs/decisions/0010-layers.md).

Step 1 of 3, state only: the Runtime's model state takes over ``Conversation`` on its existing
table ``interact_conversation``, and the Runtime's foreign keys point at it. Nothing in the
database changes here, so every row and every id stays as it is. ``interact`` 0003 then drops
the model from Interact's state, and 0006 renames the table.
"""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def conversation_fk(related_name, **kwargs):
    return models.ForeignKey(
        on_delete=django.db.models.deletion.CASCADE, related_name=related_name, to="runtime.conversation", **kwargs
    )


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0004_operation_settle_permission"),
        ("interact", "0002_interaction_message"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Conversation",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ("title", models.CharField(default="Conversation", max_length=200)),
                        (
                            "scope",
                            models.CharField(choices=[("personal", "Personal")], default="personal", max_length=32),
                        ),
                        ("is_default", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="conversations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "interact_conversation",
                        "ordering": ["created_at"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("is_default", True)),
                                fields=("owner",),
                                name="one_default_conversation_per_user",
                            )
                        ],
                    },
                ),
                migrations.AlterField(
                    model_name="workspace",
                    name="conversation",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="workspace",
                        serialize=False,
                        to="runtime.conversation",
                    ),
                ),
                migrations.AlterField(
                    model_name="appinstance", name="conversation", field=conversation_fk("app_instances")
                ),
                migrations.AlterField(model_name="appsession", name="conversation", field=conversation_fk("app_sessions")),
                migrations.AlterField(model_name="toolcall", name="conversation", field=conversation_fk("tool_calls")),
                migrations.AlterField(model_name="operation", name="conversation", field=conversation_fk("operations")),
                migrations.AlterField(
                    model_name="outboxentry", name="conversation", field=conversation_fk("outbox_entries")
                ),
            ],
        ),
    ]
