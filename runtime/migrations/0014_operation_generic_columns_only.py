# The generic deadline operation, step 3 of 3: Pomodoro's columns go, and the partial unique
# index that kept one focusing operation per conversation becomes one running exclusive
# operation per app and conversation (the same rows for the only app that had operations).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0013_operation_details_from_pomodoro_columns"),
    ]

    operations = [
        migrations.AlterField(
            model_name="operation",
            name="app_id",
            field=models.CharField(help_text="The MiniApp whose tool started it.", max_length=64),
        ),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.UniqueConstraint(
                condition=models.Q(("exclusive", True), ("state", "focusing")),
                fields=("conversation", "app_id"),
                name="one_running_exclusive_operation_per_app",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="operation",
            name="one_focusing_operation_per_conversation",
        ),
        migrations.RemoveConstraint(
            model_name="operation",
            name="operation_duration_positive",
        ),
        migrations.RemoveField(
            model_name="operation",
            name="activity",
        ),
        migrations.RemoveField(
            model_name="operation",
            name="duration_seconds",
        ),
    ]
