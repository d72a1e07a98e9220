"""Event-log retention: archive the events older than a cutoff to a file, then delete exactly those.

The event log is append-only (on PostgreSQL a trigger refuses UPDATE and DELETE, migration 0002), so
removing old rows is an operator's act with a record: ``events_archive_and_prune`` writes every event
before the cutoff to a gzipped JSON Lines file, and deletes rows only once that file is complete on disk.

No partial archive: the rows are written to ``<name>.partial`` in the archive's directory, flushed and
fsynced, read back and counted, and only then renamed to ``<name>`` (and the directory fsynced, so the
rename survives a crash). A write that fails (a full disk) or a process that dies leaves no file under
the final name, and nothing is deleted.

Delete only what was archived, in batches: the ids written to the archive are the ones deleted, by id,
``batch_size`` per transaction; each batch checks that it deleted as many rows as it was given. On
PostgreSQL each batch suspends the append-only trigger for its own transaction only (``ALTER TABLE ...
DISABLE TRIGGER`` is transactional and its lock keeps every other writer of the table out until the
batch commits, a few milliseconds), so no other session ever sees the log without its guard. A run that
dies between batches has deleted a prefix of the archive; the next run archives what is left again
(a row can be in two archives, never in none).
"""

from __future__ import annotations

import gzip
import json
import os
from array import array
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import structlog
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction

from runtime.models import LifecycleEvent
from runtime.services.row_writes import dialect

logger = structlog.get_logger("lineup.runtime")

TRIGGER = "runtime_lifecycleevent_append_only"
READ_CHUNK = 2000


class ArchiveError(Exception):
    """The archive could not be completed; nothing was deleted."""


@dataclass(frozen=True)
class PruneReport:
    archived: int
    deleted: int
    batches: int
    path: Path | None
    first_id: int | None
    last_id: int | None


def _archive_name(before: datetime, first_id: int, last_id: int) -> str:
    return f"lifecycle-events-before-{before:%Y%m%dT%H%M%SZ}-ids-{first_id}-{last_id}.jsonl.gz"


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _rows(before: datetime):
    fields = [f.attname for f in LifecycleEvent._meta.concrete_fields]
    return LifecycleEvent.objects.filter(at__lt=before).order_by("id").values(*fields).iterator(chunk_size=READ_CHUNK)


def events_archive(*, before: datetime, directory: Path) -> tuple[Path | None, array]:
    """Write every event before ``before`` to a complete archive in ``directory``; its path and ids."""
    directory.mkdir(parents=True, exist_ok=True)
    partial = directory / f"lifecycle-events-before-{before:%Y%m%dT%H%M%SZ}.partial"
    ids = array("q")
    try:
        # 0600: the log names people's conversations and tools; the archive is as private as a backup.
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
                for row in _rows(before):
                    out.write(json.dumps(row, cls=DjangoJSONEncoder, separators=(",", ":")).encode() + b"\n")
                    ids.append(row["id"])
            raw.flush()
            os.fsync(raw.fileno())
        if not ids:
            partial.unlink()
            return None, ids
        # Read it back: a file that does not decompress to exactly these ids is not an archive.
        with gzip.open(partial, "rb") as check:
            read = [json.loads(line)["id"] for line in check]
        if read != list(ids):
            raise ArchiveError(f"{partial} read back {len(read)} events of {len(ids)}; nothing was deleted")
        final = directory / _archive_name(before, ids[0], ids[-1])
        if final.exists():
            raise ArchiveError(f"{final} exists already; it is not overwritten and nothing was deleted")
        os.rename(partial, final)
        _fsync_directory(directory)
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise ArchiveError(f"writing the archive in {directory} failed: {error}; nothing was deleted") from error
        raise
    return final, ids


def _delete_batch(ids: list[int]) -> int:
    engine = dialect()
    condition, params = engine.in_ids("id", ids)
    with transaction.atomic(), connection.cursor() as cursor:
        table = connection.ops.quote_name(LifecycleEvent._meta.db_table)
        if engine.audit_guard:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {TRIGGER}")
        cursor.execute(f"DELETE FROM {table} WHERE {condition}", params)
        deleted = cursor.rowcount
        if engine.audit_guard:
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {TRIGGER}")
        if deleted != len(ids):
            # Rolled back: something else deleted archived rows meanwhile; stop and let a person look.
            raise ArchiveError(f"a batch deleted {deleted} of {len(ids)} archived events; rolled back")
    return deleted


def events_archive_and_prune(*, before: datetime, directory: Path, batch_size: int = 1000) -> PruneReport:
    """Archive the events before ``before`` to ``directory``, then delete exactly them in batches."""
    if batch_size < 1 or batch_size > 10000:
        raise ValueError("batch_size must be between 1 and 10000")
    path, ids = events_archive(before=before, directory=directory)
    if path is None:
        return PruneReport(0, 0, 0, None, None, None)
    logger.info("events.archived", path=str(path), events=len(ids), first_id=ids[0], last_id=ids[-1])
    deleted = batches = 0
    for start in range(0, len(ids), batch_size):
        try:
            deleted += _delete_batch(ids[start : start + batch_size].tolist())
        except ArchiveError as error:
            raise ArchiveError(f"{error}; {deleted} events were deleted before it, all of them in {path}") from error
        batches += 1
    logger.info("events.pruned", path=str(path), events=deleted, batches=batches)
    return PruneReport(len(ids), deleted, batches, path, ids[0], ids[-1])


def events_count_before(before: datetime) -> int:
    return LifecycleEvent.objects.filter(at__lt=before).count()
