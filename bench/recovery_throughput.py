"""``recover_runtime`` over many due operations vs raw row updates on an equivalent table copy.

measured  ``recover_runtime`` (what a process runs at start and ``manage.py recover_runtime``
          runs) over ``--count`` focusing operations whose ``ends_at`` has passed: operations
          settled per second. Each settles in its own durable transaction through
          ``settle_operation`` — locks, compare-and-set, result, outbox row, instance closed,
          sub-session ended, Interact back in front, audit events, projections.
baseline  the same rows copied into ``bench_operation_copy`` (``LIKE runtime_operation INCLUDING
          ALL``: same columns, indexes and checks) and settled by one raw
          ``UPDATE … WHERE state = 'running' AND ends_at <= now()``: rows per second. A second
          floor, one autocommit compare-and-set ``UPDATE`` per row, is reported as a detail.

The due operations are bulk-created as consistent rows, as ``start_focus`` would have left them
an hour ago (conversation, workspace, Interact and Pomodoro instances, sub-session, snapshot,
tool call, operation). After recovery every one of them is checked (completed, one outbox row,
instance closed, Interact in front); any mismatch is an error.

``--running N`` measures the other half of a restart instead: ``recover_runtime`` with N focusing
operations that are not due (an hour left), and none due. measured: its seconds; baseline: the
same call over empty tables (median of 5); details: the audit rows (``LifecycleEvent``) it wrote,
per running operation. Every operation must still be focusing, with its ``ends_at``, afterwards.
Run: ``python -m bench.recovery_throughput [--count 100000] [--workers 4] [--profile]``
or ``python -m bench.recovery_throughput --running 20000``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
import uuid
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from bench import common

COPY_TABLE = "bench_operation_copy"
FOCUS_SECONDS = 600
RUNNING_FOCUS_SECONDS = 3600  # --running: an hour left, so nothing falls due during the run


def create_due_operations(
    count: int, *, chunk: int, started_ago: timedelta = timedelta(hours=2), focus_seconds: int = FOCUS_SECONDS
) -> None:
    """``count`` focusing operations, each in its own conversation, written with bulk_create: due
    (by default: started two hours ago) or running (``started_ago`` < ``focus_seconds``)."""
    from django.contrib.auth import get_user_model

    from runtime.clock import to_millis
    from runtime.manifests import get_manifest, system_app_id
    from runtime.models import (
        AppInstance,
        AppSession,
        Conversation,
        InstanceSnapshot,
        Operation,
        ToolCall,
        ToolCallStatus,
        Workspace,
    )
    from runtime.transitions import LifecycleState

    user = get_user_model()(username="recovery")
    user.set_unusable_password()
    user.save()
    interact_app = system_app_id()
    schema_version = get_manifest("pomodoro").instance_state.schema_version
    base = to_millis(timezone.now() - started_ago)
    for offset in range(0, count, chunk):
        rows: dict[type, list] = {m: [] for m in (Conversation, Workspace, AppInstance, AppSession, InstanceSnapshot)}
        calls, operations = [], []
        for i in range(offset, min(offset + chunk, count)):
            started = base + timedelta(milliseconds=i)
            conversation = Conversation(id=uuid.uuid4(), owner_id=user.pk, title=f"recovery {i}")
            interact = AppInstance(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                app_id=interact_app,
                is_system=True,
                lifecycle_state=LifecycleState.BACKGROUND,
                focus_seq=1,
                opened_at=started,
            )
            pomodoro = AppInstance(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                app_id="pomodoro",
                lifecycle_state=LifecycleState.FOREGROUND,
                focus_seq=2,
                opened_at=started,
            )
            session = AppSession(
                id=uuid.uuid4(), instance_id=pomodoro.id, conversation_id=conversation.id, opened_at=started
            )
            call = ToolCall(
                id=uuid.uuid4(),
                conversation_id=conversation.id,
                source_tool_call_id=f"recovery-{i}",
                tool="pomodoro.start",
                arguments={"duration_seconds": focus_seconds},
                caller="agent:bench",
                status=ToolCallStatus.ACCEPTED,
                instance_id=pomodoro.id,
                created_at=started,
            )
            rows[Conversation].append(conversation)
            rows[Workspace].append(Workspace(conversation_id=conversation.id, focus_seq=2))
            rows[AppInstance] += [interact, pomodoro]
            rows[AppSession].append(session)
            rows[InstanceSnapshot].append(
                InstanceSnapshot(instance_id=pomodoro.id, schema_version=schema_version, updated_at=started)
            )
            calls.append(call)
            operations.append(
                Operation(
                    id=uuid.uuid4(),
                    conversation_id=conversation.id,
                    instance_id=pomodoro.id,
                    app_session_id=session.id,
                    tool_call_id=call.id,
                    source_tool_call_id=call.source_tool_call_id,
                    app_id="pomodoro",
                    details={"activity": None},
                    started_at=started,
                    ends_at=started + timedelta(seconds=focus_seconds),
                )
            )
        with transaction.atomic():
            for model, objects in rows.items():
                model.objects.bulk_create(objects, batch_size=2000)
            ToolCall.objects.bulk_create(calls, batch_size=2000)
            Operation.objects.bulk_create(operations, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _copy_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {COPY_TABLE}")
        cursor.execute(f"CREATE TABLE {COPY_TABLE} (LIKE runtime_operation INCLUDING ALL)")
        cursor.execute(f"INSERT INTO {COPY_TABLE} SELECT * FROM runtime_operation")
        cursor.execute(f"ANALYZE {COPY_TABLE}")


def _reset_copy(conn) -> None:
    conn.execute(f"UPDATE {COPY_TABLE} SET state = 'running', ended_at = NULL, settled_at = NULL")
    conn.execute(f"VACUUM ANALYZE {COPY_TABLE}")


def raw_bulk_update(count: int) -> float:
    """One set-based UPDATE of every due row of the copy; returns rows per second."""
    with common.psycopg_connect(autocommit=True) as conn:
        _reset_copy(conn)
        started = time.perf_counter()
        with conn.transaction():
            cursor = conn.execute(
                f"UPDATE {COPY_TABLE} SET state = 'completed', ended_at = ends_at, settled_at = now() "
                "WHERE state = 'running' AND ends_at <= now()"
            )
        elapsed = time.perf_counter() - started
    if cursor.rowcount != count:
        raise common.BenchError(f"the raw UPDATE changed {cursor.rowcount} rows, not {count}")
    return count / elapsed


def raw_row_updates(count: int) -> float:
    """One autocommit compare-and-set UPDATE per due row of the copy; returns rows per second."""
    with common.psycopg_connect(autocommit=True) as conn:
        _reset_copy(conn)
        ids = [row[0] for row in conn.execute(f"SELECT id FROM {COPY_TABLE} ORDER BY ends_at").fetchall()]
        started = time.perf_counter()
        for operation_id in ids:
            cursor = conn.execute(
                f"UPDATE {COPY_TABLE} SET state = 'completed', ended_at = ends_at, settled_at = now() "
                "WHERE id = %s AND state = 'running'",
                [operation_id],
            )
            if cursor.rowcount != 1:
                raise common.BenchError(f"compare-and-set lost on {operation_id}")
        elapsed = time.perf_counter() - started
    return count / elapsed


def verify(count: int) -> list[str]:
    """Every due operation settled exactly as ``settle_operation`` settles one."""
    from runtime.models import AppInstance, AppSession, Operation, OutboxEntry, ToolCall
    from runtime.transitions import LifecycleState, OperationState

    checks = {
        "operations completed": Operation.objects.filter(state=OperationState.COMPLETED).count(),
        "operations with ended_at = ends_at": Operation.objects.filter(ended_at=F("ends_at")).count(),
        "outbox entries": OutboxEntry.objects.count(),
        "tool calls succeeded with a result": ToolCall.objects.filter(status="succeeded", result__isnull=False).count(),
        "Pomodoro instances closed": AppInstance.objects.filter(
            app_id="pomodoro", lifecycle_state=LifecycleState.CLOSED
        ).count(),
        "Interact back in front": AppInstance.objects.filter(
            is_system=True, lifecycle_state=LifecycleState.FOREGROUND
        ).count(),
        "sub-sessions ended": AppSession.objects.filter(state="ended").count(),
    }
    return [f"{name}: {value} != {count}" for name, value in checks.items() if value != count]


def main(args: argparse.Namespace) -> common.Report:
    from runtime.models import LifecycleEvent
    from runtime.services.recovery import recover_runtime

    if args.running:
        return main_running(args)
    common.prepare_database()
    started = time.perf_counter()
    create_due_operations(args.count, chunk=args.chunk)
    _copy_table()
    setup_seconds = time.perf_counter() - started
    print(f"created {args.count} due operations in {setup_seconds:.1f} s", flush=True)

    with common.Rig("recovery-throughput"):  # no server; purges the queue around the run
        bulk_rate = raw_bulk_update(args.count)
        queries = [0]

        def count_query(execute, sql, params, many, context):
            queries[0] += 1
            return execute(sql, params, many, context)

        events_before = LifecycleEvent.objects.count()
        profiler = cProfile.Profile() if args.profile else None
        with connection.execute_wrapper(count_query):
            started = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            summary = recover_runtime(now=timezone.now(), workers=args.workers)
            if profiler is not None:
                profiler.disable()
            recovery_seconds = time.perf_counter() - started
        events = LifecycleEvent.objects.count() - events_before
        row_rate = raw_row_updates(args.count) if args.per_row_baseline else None
    errors = verify(args.count)
    if len(summary.settled) != args.count:
        errors.append(f"recover_runtime settled {len(summary.settled)}, not {args.count}")
    for error in errors:
        print(f"error: {error}")
    settled_rate = len(summary.settled) / recovery_seconds
    details = {
        "recovery_seconds": round(recovery_seconds, 2),
        "ms_per_settlement": round(recovery_seconds / max(1, len(summary.settled)) * 1000, 3),
        # Counted on this thread's connection only: with --workers the settlements run on others.
        "queries_per_settlement": round(queries[0] / max(1, len(summary.settled)), 1) if args.workers == 1 else None,
        "lifecycle_events_per_settlement": round(events / max(1, len(summary.settled)), 1),
        "setup_seconds": round(setup_seconds, 1),
    }
    if row_rate is not None:
        details["raw_per_row_cas_rows_per_s"] = round(row_rate, 1)
        details["ratio_vs_per_row_cas"] = round(row_rate / settled_rate, 2)
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.profile_lines)
        print(out.getvalue())
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {COPY_TABLE}")
    return common.Report(
        bench="recovery_throughput",
        params={
            "count": args.count,
            "workers": args.workers,
            "chunk": args.chunk,
            "per_row_baseline": args.per_row_baseline,
        },
        measured=common.Figure("recover_runtime settled", round(settled_rate, 1), "ops/s"),
        baseline=common.Figure("raw set-based UPDATE on the copy", round(bulk_rate, 1), "rows/s"),
        ratio=bulk_rate / settled_rate,
        ratio_meaning="raw UPDATE rows/s / recover_runtime ops/s",
        details=details,
        errors=len(errors),
    )


def main_running(args: argparse.Namespace) -> common.Report:
    """``recover_runtime`` with ``--running`` operations focusing and none due vs empty tables."""
    from runtime.models import LifecycleEvent, Operation
    from runtime.services.recovery import recover_runtime
    from runtime.transitions import OperationState

    common.prepare_database()
    with common.Rig("recovery-running"):  # no server; purges the queue (re-armed eta tasks) after
        floors = []
        for _ in range(5):
            started = time.perf_counter()
            recover_runtime(now=timezone.now(), workers=args.workers)
            floors.append(time.perf_counter() - started)
        common.empty_tables()
        started = time.perf_counter()
        create_due_operations(
            args.running,
            chunk=args.chunk,
            started_ago=timedelta(minutes=1),
            focus_seconds=RUNNING_FOCUS_SECONDS,
        )
        setup_seconds = time.perf_counter() - started
        print(f"created {args.running} running operations (none due) in {setup_seconds:.1f} s", flush=True)
        ends_before = dict(Operation.objects.values_list("id", "ends_at"))
        events_before = LifecycleEvent.objects.count()
        started = time.perf_counter()
        summary = recover_runtime(now=timezone.now(), workers=args.workers)
        recovery_seconds = time.perf_counter() - started
        events = LifecycleEvent.objects.count() - events_before
    errors = []
    ends_after = dict(Operation.objects.filter(state=OperationState.RUNNING).values_list("id", "ends_at"))
    if ends_after != ends_before:
        errors.append(f"{len(ends_before) - len(ends_after)} operations settled or moved their ends_at")
    due, resumed = (n if isinstance(n, int) else len(n) for n in (summary.due, summary.resumed))
    if summary.settled or due:
        errors.append(f"recover_runtime found {due} due and settled {len(summary.settled)}: none is due")
    if resumed != args.running:
        errors.append(f"recover_runtime resumed {resumed}, not {args.running}")
    for error in errors:
        print(f"error: {error}")
    floor = sorted(floors)[len(floors) // 2]
    return common.Report(
        bench="recovery_throughput",
        params={"running": args.running, "workers": args.workers, "chunk": args.chunk},
        measured=common.Figure(
            f"recover_runtime with {args.running} running, none due", round(recovery_seconds, 3), "s"
        ),
        baseline=common.Figure("recover_runtime over empty tables (median of 5)", round(floor, 4), "s"),
        ratio=recovery_seconds / floor,
        ratio_meaning="seconds with the running operations / seconds with none",
        details={
            "lifecycle_events_written": events,
            "lifecycle_events_per_running_operation": round(events / max(1, args.running), 3),
            "ms_per_running_operation": round(recovery_seconds / max(1, args.running) * 1000, 3),
            "target": "under 3 s with no per-operation rows written (issue 16)",
            "setup_seconds": round(setup_seconds, 1),
        },
        errors=len(errors),
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="due operations to recover")
    parser.add_argument("--workers", type=int, default=1, help="recover_runtime --workers")
    parser.add_argument(
        "--running", type=int, default=0, help="instead: recover_runtime with this many running operations, none due"
    )
    parser.add_argument("--chunk", type=int, default=5000, help="operations bulk-created per transaction")
    parser.add_argument(
        "--no-per-row-baseline", dest="per_row_baseline", action="store_false", help="skip the per-row CAS floor"
    )
    parser.add_argument("--profile", action="store_true", help="run recover_runtime under cProfile and print it")
    parser.add_argument("--profile-lines", type=int, default=40)
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
