"""What the running state's contraction (runtime 0026-0027, decision 0053) costs on a big table.

Usage: python -m bench.running_state_contraction [--rows 100000] [--batch 1000] [--dir DIR]

On a PostgreSQL cluster of its own (decision 0038: the machine's shared server measures its other
users too), it migrates a new database to runtime 0025, writes ``--rows`` operations in the old
running word (each in its own conversation, an hour from their end: nothing is due, as in
bench/sweep.py), then applies 0026 and 0027 while a reader, as the previous release's processes
would, runs a sweep's keyset page and a by-id read of ``runtime_operation`` in a loop. It reports:

- 0026: the time in all and per 100 000 rows, its batches (count, longest): the longest a write of
  one of those rows can wait for a batch's row locks;
- 0027: its time, the time its table lock is held (from its first DDL statement to its commit):
  what a concurrent read or write of ``runtime_operation`` waits at worst;
- the reader's longest wait in each migration;
- the plan and time of v2026.12.3's sweep page (``state IN ('focusing', 'running')``) before 0026 and
  after 0027, when the partial index it read over both words is narrowed to ``running``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import tempfile
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

OLD_SWEEP_PAGE = (
    "SELECT id, ends_at FROM runtime_operation WHERE state IN ('focusing', 'running') AND ends_at <= now()"
    " ORDER BY ends_at, id LIMIT 500"
)
BY_ID = "SELECT state FROM runtime_operation WHERE id = %s"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=None, help="0026's batch size (default: the migration's)")
    parser.add_argument("--dir", type=Path, default=None, help="where the cluster lives (default: a temporary one)")
    return parser.parse_args(argv)


def write_rows(apps, count: int, chunk: int = 5000) -> list[uuid.UUID]:
    from django.db import transaction
    from django.utils import timezone

    model = lambda name: apps.get_model("runtime", name)  # noqa: E731
    user = apps.get_model("auth", "User").objects.create(username="bench", password="!")
    now = timezone.now()
    ids: list[uuid.UUID] = []
    for offset in range(0, count, chunk):
        conversations, instances, sessions, calls, operations = [], [], [], [], []
        for i in range(offset, min(offset + chunk, count)):
            started = now - timedelta(minutes=10) + timedelta(microseconds=i)
            conversation = model("Conversation")(
                id=uuid.uuid4(), owner_id=user.pk, title=f"bench {i}", scope="personal"
            )
            instance = model("AppInstance")(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                app_id="pomodoro",
                lifecycle_state="foreground",
                focus_seq=1,
                opened_at=started,
            )
            session = model("AppSession")(
                id=uuid.uuid4(), instance_id=instance.id, conversation_id=conversation.id, opened_at=started
            )
            call = model("ToolCall")(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                source_tool_call_id=f"bench-{i}",
                tool="pomodoro.start",
                arguments={"duration_seconds": 4200},
                caller="agent:bench",
                status="accepted",
                instance_id=instance.id,
                created_at=started,
            )
            operation = model("Operation")(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                instance_id=instance.id,
                app_session_id=session.id,
                tool_call_id=call.id,
                source_tool_call_id=call.source_tool_call_id,
                app_id="pomodoro",
                exclusive=True,
                details={"activity": None},
                started_at=started,
                ends_at=started + timedelta(seconds=4200),
                state="focusing",
            )
            conversations.append(conversation)
            instances.append(instance)
            sessions.append(session)
            calls.append(call)
            operations.append(operation)
            ids.append(operation.id)
        with transaction.atomic():
            for name, objects in (
                ("Conversation", conversations),
                ("AppInstance", instances),
                ("AppSession", sessions),
                ("ToolCall", calls),
                ("Operation", operations),
            ):
                model(name).objects.bulk_create(objects, batch_size=2000)
    return ids


class Reader(threading.Thread):
    """The previous release's reads, in a loop on a connection of its own: the longest one is the
    longest a process of it waited for a migration's locks."""

    def __init__(self, url: str, ids: list[uuid.UUID]) -> None:
        super().__init__(daemon=True)
        self.url, self.ids = url, ids
        self.longest = 0.0
        self.reads = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            n = 0
            while not self.stopping.is_set():
                began = time.perf_counter()
                conn.execute(OLD_SWEEP_PAGE).fetchall()
                conn.execute(BY_ID, (self.ids[n % len(self.ids)],)).fetchone()
                self.longest = max(self.longest, time.perf_counter() - began)
                self.reads += 1
                n += 7919
                time.sleep(0.01)  # pacing: a process that reads now and then, not a second migration

    def measure(self):
        self.longest, self.reads = 0.0, 0
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.join()


def explain(connection) -> tuple[str, float]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT TEXT) " + OLD_SWEEP_PAGE)
        lines = [row[0] for row in cursor.fetchall()]
    plan = " / ".join(line.strip() for line in lines if "Scan" in line or "Sort" in line)
    took = float(lines[-1].split(":")[1].split()[0])  # "Execution Time: x ms"
    return plan, took


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    run_dir = args.dir or Path(tempfile.mkdtemp(prefix="lineup-contraction-"))
    from tests.support.processes import PostgresCluster

    cluster = PostgresCluster.create(run_dir)
    cluster.start()
    try:
        cluster.create_database("lineup_contraction")
        url = cluster.url("lineup_contraction")
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("LINEUP_SECRET_KEY", "lineup-bench-only-not-a-secret-0123456789abcdefghijklmnopqrstuv")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
        os.environ.setdefault("LINEUP_LOG_LEVEL", "WARNING")
        os.environ["LINEUP_SCHEDULER"] = "none"
        import django

        django.setup()
        from django.db import connection
        from django.db.migrations.executor import MigrationExecutor

        before = [("runtime", "0025_view_private_details")]
        executor = MigrationExecutor(connection)
        executor.migrate(before)
        began = time.perf_counter()
        ids = write_rows(executor.loader.project_state(before).apps, args.rows)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE runtime_operation")
        print(f"wrote {args.rows} operations in the old running word in {time.perf_counter() - began:.1f} s")
        plan_before, took_before = explain(connection)

        rows_migration = importlib.import_module("runtime.migrations.0026_running_rows")
        if args.batch:
            rows_migration.BATCH = args.batch
        batches: list[float] = []
        ddl_started: list[float] = []

        def record(execute, sql, params, many, context):
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                text = sql.lstrip().upper()
                if text.startswith('UPDATE "RUNTIME_OPERATION" SET "STATE"'):
                    batches.append(time.perf_counter() - began)
                elif text.startswith(("DROP INDEX", "ALTER TABLE", "CREATE INDEX", "CREATE UNIQUE")):
                    if not ddl_started:
                        ddl_started.append(began)

        reader = Reader(url, ids)
        reader.start()
        timings = {}
        for name in ("0026_running_rows", "0027_running_only"):
            reader.measure()
            executor = MigrationExecutor(connection)
            began = time.perf_counter()
            with connection.execute_wrapper(record):
                executor.migrate([("runtime", name)])
            ended = time.perf_counter()
            timings[name] = (ended - began, reader.longest, reader.reads)
            if name == "0027_running_only":
                lock_held = ended - ddl_started[0]
        reader.stop()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE runtime_operation")
        plan_after, took_after = explain(connection)

        seconds, longest, reads = timings["0026_running_rows"]
        converted = sum(1 for _ in batches[:-1])  # the last UPDATE is 0027's sweep-up
        print(
            f"0026: {seconds:.2f} s for {args.rows} rows ({seconds / args.rows * 100_000:.2f} s per 100 000),"
            f" {converted} batches of {rows_migration.BATCH}, the longest {max(batches[:-1]) * 1000:.0f} ms"
            f" (first three {[round(b * 1000) for b in batches[:3]]} ms, last three"
            f" {[round(b * 1000) for b in batches[-4:-1]]} ms);"
            f" a concurrent reader's longest round {longest * 1000:.0f} ms over {reads} rounds"
        )
        seconds, longest, reads = timings["0027_running_only"]
        print(
            f"0027: {seconds:.2f} s, the table lock held {lock_held:.2f} s;"
            f" a concurrent reader's longest round {longest * 1000:.0f} ms over {reads} rounds"
        )
        print(f"v2026.12.3's sweep page at 0025: {took_before:.2f} ms ({plan_before})")
        print(f"v2026.12.3's sweep page at 0027: {took_after:.2f} ms ({plan_after})")
    finally:
        cluster.stop("fast")
        cluster.destroy()
        if args.dir is None:
            shutil.rmtree(run_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
