"""``manage.py recover_runtime``: settle what is due, resume what is running, print a summary."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import ngettext

from runtime.services.recovery import recover_runtime


class Command(BaseCommand):
    help = (
        "Settle every running operation whose ends_at has passed (completed, exactly once), re-arm "
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
        if dry_run:
            n = len(summary.due)
            line = ngettext(
                "DRY RUN: would settle %(n)d due operation", "DRY RUN: would settle %(n)d due operations", n
            )
        else:
            n = len(summary.settled)
            line = ngettext("settled %(n)d due operation", "settled %(n)d due operations", n)
        self.stdout.write(line % {"n": n})
        for item in summary.failed:
            self.stdout.write(f"  FAILED {item['operation_id']} attempt={item['attempt']}: {item['error']}")
        if summary.flagged:
            n = len(summary.flagged)
            line = ngettext(
                "%(n)d operation is flagged for an operator (settling it failed LINEUP_SETTLE_MAX_FAILURES "
                "times; the periodic sweep no longer retries it, this command does):",
                "%(n)d operations are flagged for an operator (settling them failed LINEUP_SETTLE_MAX_FAILURES "
                "times; the periodic sweep no longer retries them, this command does):",
                n,
            )
            self.stdout.write(line % {"n": n})
        for item in summary.flagged:
            self.stdout.write(
                f"  FLAGGED {item['operation_id']} conversation={item['conversation_id']} "
                f"failures={item['settle_failures']} since={item['flagged_at']}: {item['last_error']}"
            )
        for item in summary.resumed:
            self.stdout.write(
                f"  running {item['operation_id']} ends_at={item['ends_at']} remaining={item['remaining_seconds']}s"
            )
        if dry_run:  # a dry run changes nothing: it says what a real run would do
            resumed = ngettext(
                "would resume %(n)d running operation", "would resume %(n)d running operations", len(summary.resumed)
            )
        else:
            resumed = ngettext(
                "resumed %(n)d running operation", "resumed %(n)d running operations", len(summary.resumed)
            )
        unacked = ngettext(
            "%(n)d outbox entry not acked yet", "%(n)d outbox entries not acked yet", summary.unacked_outbox
        )
        self.stdout.write(f"{resumed % {'n': len(summary.resumed)}}; {unacked % {'n': summary.unacked_outbox}}")
