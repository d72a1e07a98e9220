"""``manage.py recover_runtime``: settle what is due, resume what is running, print a summary."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from runtime.services.recovery import recover_runtime


class Command(BaseCommand):
    help = (
        "Settle every focusing operation whose ends_at has passed (completed, exactly once), re-arm "
        "the deadlines of the ones still running, and report unacked outbox entries. An explicit "
        "retry: operations whose settlement failed (backed off, or flagged for an operator) are tried "
        "now too; those still failing are reported. Safe to run at any time, repeatedly and "
        "concurrently with workers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="report what would be settled; change nothing")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print the summary as one JSON object")
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="threads settling due operations side by side, each with its own database connection "
            "(after a long outage; progress is logged as recovery.progress after every 500)",
        )

    def handle(self, *args: object, dry_run: bool, as_json: bool, workers: int, **options: object) -> None:
        if workers < 1:
            raise CommandError("--workers must be at least 1")
        summary = recover_runtime(now=timezone.now(), dry_run=dry_run, workers=workers)
        counts = summary.counts()
        if as_json:
            payload = {
                **counts,
                "due_ids": [item["operation_id"] for item in summary.due],
                "settled_ids": [str(i) for i in summary.settled],
                "resumed": summary.resumed,
                "failed_operations": summary.failed,
                "flagged_operations": summary.flagged,
            }
            self.stdout.write(json.dumps(payload, sort_keys=True))
            return
        verb = "would settle" if dry_run else "settled"
        self.stdout.write(
            f"{'DRY RUN: ' if dry_run else ''}{verb} {len(summary.due) if dry_run else len(summary.settled)} due operation(s)"
        )
        for item in summary.failed:
            self.stdout.write(f"  FAILED {item['operation_id']} attempt={item['attempt']}: {item['error']}")
        if summary.flagged:
            self.stdout.write(
                f"{len(summary.flagged)} operation(s) flagged for an operator (settlement failed "
                "LINEUP_SETTLE_MAX_FAILURES times; the sweep no longer retries them, this command does):"
            )
        for item in summary.flagged:
            self.stdout.write(
                f"  FLAGGED {item['operation_id']} conversation={item['conversation_id']} "
                f"failures={item['settle_failures']} since={item['flagged_at']}: {item['last_error']}"
            )
        for item in summary.resumed:
            self.stdout.write(
                f"  running {item['operation_id']} ends_at={item['ends_at']} remaining={item['remaining_seconds']}s"
            )
        self.stdout.write(
            f"resumed {len(summary.resumed)} running operation(s); {summary.unacked_outbox} unacked outbox entr(y/ies)"
        )
