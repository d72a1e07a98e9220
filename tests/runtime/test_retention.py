"""``manage.py prune_events``: a complete archive or none, then exactly the archived events deleted.

On the suite's database (PostgreSQL in CI: the append-only trigger stays on for everyone else) and on
the embedded SQLite (a subprocess with its own data directory). A full disk is a real one: a 64 KiB
tmpfs (root only; CI runs as root).
"""

from __future__ import annotations

import gzip
import json
import os
import secrets
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from runtime.models import LifecycleEvent

ROOT = Path(__file__).resolve().parents[2]
CUTOFF = datetime(2025, 12, 1, tzinfo=UTC)


def _events(old: int, new: int, *, payload: int = 16) -> list[int]:
    """``old`` events before the cutoff and ``new`` after it, interleaved by id; the old ones' ids."""
    order: list[bool] = []
    while len(order) < old + new:
        if order.count(True) < old:
            order.append(True)
        if order.count(False) < new:
            order.append(False)
    old_ids = []
    for i, is_old in enumerate(order):
        at = CUTOFF - timedelta(days=30, seconds=-i) if is_old else CUTOFF + timedelta(seconds=i)
        event = LifecycleEvent.objects.create(
            at=at, kind="operation.started", data={"n": i, "x": secrets.token_hex(payload)}
        )
        if is_old:
            old_ids.append(event.id)
    return old_ids


def _archived(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as lines:
        return [json.loads(line) for line in lines]


@pytest.mark.django_db(transaction=True)
def test_archives_then_deletes_exactly_the_old_events_in_batches(tmp_path, capsys) -> None:
    old_ids = _events(23, 10)
    call_command("prune_events", "--before", "2025-12-01", "--archive-dir", str(tmp_path), "--batch-size", "5")
    out = capsys.readouterr().out
    (path,) = tmp_path.iterdir()
    assert path.name == f"lifecycle-events-before-20251201T000000Z-ids-{old_ids[0]}-{old_ids[-1]}.jsonl.gz"
    assert path.stat().st_mode & 0o777 == 0o600
    rows = _archived(path)
    assert [r["id"] for r in rows] == old_ids
    assert {r["kind"] for r in rows} == {"operation.started"} and all("x" in r["data"] for r in rows)
    assert f"archived 23 events (ids {old_ids[0]}-{old_ids[-1]})" in out and "deleted 23 in 5 batches" in out
    assert not LifecycleEvent.objects.filter(at__lt=CUTOFF).exists()
    assert LifecycleEvent.objects.filter(at__gte=CUTOFF).count() == 10

    call_command("prune_events", "--before", "2025-12-01", "--archive-dir", str(tmp_path))
    assert "nothing archived, nothing deleted" in capsys.readouterr().out
    assert len(list(tmp_path.iterdir())) == 1

    if connection.vendor == "postgresql":  # the guard is back on for everyone
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            LifecycleEvent.objects.filter(at__gte=CUTOFF).delete()


@pytest.mark.django_db(transaction=True)
def test_dry_run_counts_and_changes_nothing(tmp_path, capsys) -> None:
    _events(4, 3)
    call_command("prune_events", "--before", "2025-12-01", "--archive-dir", str(tmp_path), "--dry-run")
    assert "4 events before 2025-12-01T00:00:00+00:00 would be archived" in capsys.readouterr().out
    assert LifecycleEvent.objects.count() == 7
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def tiny_disk(tmp_path) -> Path:
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs needs root: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.django_db(transaction=True)
def test_a_full_disk_leaves_no_archive_and_deletes_nothing(tiny_disk) -> None:
    _events(600, 5, payload=200)  # ~250 KB of random text: more than the disk holds, even gzipped
    with pytest.raises(CommandError, match="No space left on device; nothing was deleted"):
        call_command("prune_events", "--before", "2025-12-01", "--archive-dir", str(tiny_disk))
    assert list(tiny_disk.iterdir()) == []  # neither the archive nor its .partial
    assert LifecycleEvent.objects.filter(at__lt=CUTOFF).count() == 600


@pytest.mark.django_db(transaction=True)
def test_an_existing_archive_is_not_overwritten(tmp_path) -> None:
    old_ids = _events(3, 1)
    name = f"lifecycle-events-before-20251201T000000Z-ids-{old_ids[0]}-{old_ids[-1]}.jsonl.gz"
    (tmp_path / name).write_text("an earlier run's")
    with pytest.raises(CommandError, match="exists already"):
        call_command("prune_events", "--before", "2025-12-01", "--archive-dir", str(tmp_path))
    assert (tmp_path / name).read_text() == "an earlier run's"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert LifecycleEvent.objects.count() == 4


INSERT = """
from datetime import UTC, datetime, timedelta
from runtime.models import LifecycleEvent
cutoff = datetime(2025, 12, 1, tzinfo=UTC)
for i in range(12):
    LifecycleEvent.objects.create(at=cutoff + timedelta(days=-40 + i * 7), kind="k", data={"i": i})
"""


def test_on_the_embedded_sqlite(tmp_path) -> None:
    """The same command on SQLite, in a process of the embedded default (no DATABASE_URL)."""
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env["LINEUP_DATA_DIR"] = str(data)

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    manage("migrate", "--noinput")
    manage("shell", "-c", INSERT)
    out = manage(
        "prune_events", "--before", "2025-12-01", "--archive-dir", str(tmp_path / "archive"), "--batch-size", "2"
    )
    assert "deleted 6 in 3 batches" in out, out
    (path,) = (tmp_path / "archive").iterdir()
    assert [r["data"]["i"] for r in _archived(path)] == [0, 1, 2, 3, 4, 5]
    with sqlite3.connect(data / "db.sqlite3") as db:
        left = [json.loads(d)["i"] for (d,) in db.execute("SELECT data FROM runtime_lifecycleevent ORDER BY id")]
    assert left == [6, 7, 8, 9, 10, 11]
