"""Poison isolation (decision 0011): failed settlements are counted on the operation, backed off
and, after LINEUP_SETTLE_MAX_FAILURES, flagged for an operator. Existing rows have no failures."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0007_outbox_owner_backfill"),
    ]

    operations = [
        migrations.AddField(
            model_name="operation",
            name="settle_failures",
            field=models.PositiveIntegerField(default=0, help_text="Settlements of it that raised."),
        ),
        migrations.AddField(
            model_name="operation",
            name="next_settle_attempt_at",
            field=models.DateTimeField(
                blank=True, null=True, help_text="The sweep does not retry a failed settlement before this."
            ),
        ),
        migrations.AddField(
            model_name="operation",
            name="last_settle_error",
            field=models.TextField(blank=True, default="", help_text="The last failed settlement's exception."),
        ),
        migrations.AddField(
            model_name="operation",
            name="settle_flagged_at",
            field=models.DateTimeField(
                blank=True,
                null=True,
                help_text="When it reached LINEUP_SETTLE_MAX_FAILURES: the sweep leaves it to an operator's explicit retry.",
            ),
        ),
        # The sweep pages by keyset on (ends_at, id); with id in the index the page is read in
        # order instead of sorting every due row for each page.
        migrations.RemoveIndex(model_name="operation", name="focusing_by_ends_at"),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(
                condition=models.Q(("state", "focusing")), fields=["ends_at", "id"], name="focusing_by_ends_at"
            ),
        ),
        migrations.AddIndex(
            model_name="operation",
            index=models.Index(
                condition=models.Q(("settle_failures__gt", 0), ("state", "focusing")),
                fields=["next_settle_attempt_at"],
                name="focusing_settle_retries",
            ),
        ),
        migrations.AddConstraint(
            model_name="operation",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("last_settle_error", ""),
                        ("next_settle_attempt_at__isnull", True),
                        ("settle_failures", 0),
                        ("settle_flagged_at__isnull", True),
                    ),
                    models.Q(
                        ("next_settle_attempt_at__isnull", False),
                        ("settle_failures__gte", 1),
                        models.Q(("last_settle_error", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="operation_settle_failure_recorded",
            ),
        ),
    ]
