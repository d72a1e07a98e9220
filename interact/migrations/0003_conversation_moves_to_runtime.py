"""The conversation becomes a Runtime model (docs/decisions/0010-layers.md).

Step 2 of 3, state only: messages and interactions point at ``runtime.Conversation`` (the same
table, so their foreign keys in the database do not change) and Interact forgets the model.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("interact", "0002_interaction_message"),
        ("runtime", "0005_conversation_moves_to_runtime"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="message",
                    name="conversation",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="messages",
                        to="runtime.conversation",
                    ),
                ),
                migrations.AlterField(
                    model_name="interaction",
                    name="conversation",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="interactions",
                        to="runtime.conversation",
                    ),
                ),
                migrations.DeleteModel(name="Conversation"),
            ],
        ),
    ]
