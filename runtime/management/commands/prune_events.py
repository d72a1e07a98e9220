"""``manage.py prune_events``: archive the event log before a cutoff to a file, then delete those rows.

See runtime/services/retention.py for what makes it safe (a complete archive or none; only archived rows
deleted, in batches) and docs/operations.md § 11 for when to run it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from runtime.services.retention import ArchiveError, events_archive_and_prune, events_count_before


def _cutoff(before: str | None, keep_days: int | None) -> datetime:
    if (before is None) == (keep_days is None):
        raise CommandError("give exactly one of --before YYYY-MM-DD[THH:MM[:SS]] and --keep-days N")
    if keep_days is not None:
        if keep_days < 1:
            raise CommandError("--keep-days must be at least 1")
        return timezone.now() - timedelta(days=keep_days)
    try:
        parsed = datetime.fromisoformat(before)
    except ValueError as error:
        raise CommandError(f"--before: {error}") from error
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


class Command(BaseCommand):
    help = (
        "Archive every lifecycle event before a cutoff to a gzipped JSON Lines file (written whole or not "
        "at all, mode 0600), then delete exactly the archived events in batches."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--before", help="the cutoff, UTC unless it names a zone (e.g. 2025-12-01)")
        parser.add_argument("--keep-days", type=int, help="keep this many days online instead of --before")
        parser.add_argument("--archive-dir", required=True, type=Path, help="where the archive file goes")
        parser.add_argument("--batch-size", type=int, default=1000, help="events deleted per transaction")
        parser.add_argument("--dry-run", action="store_true", help="count what would go; write and delete nothing")

    def handle(
        self,
        *args: object,
        before: str | None,
        keep_days: int | None,
        archive_dir: Path,
        batch_size: int,
        dry_run: bool,
        **options: object,
    ) -> None:
        cutoff = _cutoff(before, keep_days)
        if dry_run:
            self.stdout.write(f"{events_count_before(cutoff)} events before {cutoff.isoformat()} would be archived")
            return
        try:
            report = events_archive_and_prune(before=cutoff, directory=archive_dir, batch_size=batch_size)
        except (ArchiveError, ValueError) as error:
            raise CommandError(str(error)) from error
        if report.path is None:
            self.stdout.write(f"no events before {cutoff.isoformat()}: nothing archived, nothing deleted")
            return
        self.stdout.write(
            f"archived {report.archived} events (ids {report.first_id}-{report.last_id}) to {report.path}; "
            f"deleted {report.deleted} in {report.batches} batches"
        )
