# The generic deadline operation, step 1 of 3: the new columns next to the old ones.
# (Step 2 fills them from every stored row, step 3 drops Pomodoro's columns; three migrations,
# so that on PostgreSQL each runs in a transaction of its own and no ALTER TABLE follows the
# data update in one transaction.)

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0011_agent_connections_plain_help_texts"),
    ]

    operations = [
        migrations.AddField(
            model_name="operation",
            name="app_id",
            field=models.CharField(default="", help_text="The MiniApp whose tool started it.", max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="operation",
            name="details",
            field=models.JSONField(blank=True, default=dict, help_text="The app's own details of this operation."),
        ),
        migrations.AddField(
            model_name="operation",
            name="exclusive",
            field=models.BooleanField(
                default=True,
                help_text="At most one such operation runs per app and conversation (the app's manifest says).",
            ),
        ),
        # Nullable before it goes, so that migrating back can re-add it and fill it (step 2's reverse).
        migrations.AlterField(
            model_name="operation",
            name="duration_seconds",
            field=models.PositiveIntegerField(null=True),
        ),
    ]
