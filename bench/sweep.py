"""The periodic sweep over many focusing operations that are not yet due vs the same sweep over none.

measured  ``runtime.services.recovery.sweep`` — what the beat task ``runtime.tasks.sweep_due`` runs
          every few seconds: ``settle_due`` (keyset pages of due operations, then the flagged
          count) and every registered sweeper (Interact times out its expired interactions) —
          with ``--rows`` focusing operations whose ``ends_at`` is an hour away: nothing is due, so
          a sweep that reads only what it has to costs what an empty sweep costs. p50 of
          ``--repeats`` sweeps.
baseline  the same sweep over empty tables: the same statements on a schema ``bench_sweep_empty``
          holding empty copies (``LIKE … INCLUDING ALL``: same indexes and checks) of the Runtime's
          and Interact's tables, put first on the ``search_path`` for the floor's sweeps. p50.

The two sides alternate sweep by sweep on the same connection, so drift hits both alike. The
embedded scheduler's ``next_deadline()`` is timed the same way and reported as a detail. The rows
are written by ``INSERT … SELECT generate_series`` as ``start_focus`` leaves them (conversation,
workspace, Interact and Pomodoro instances, sub-session, snapshot, tool call, operation), one
focusing operation per conversation as the schema demands. A sweep that settles or sweeps
anything is an error: nothing is due.
Run: ``python -m bench.sweep [--rows 1000000] [--repeats 300]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from django.db import connection
from django.utils import timezone

from bench import common

EMPTY_SCHEMA = "bench_sweep_empty"
FOCUS_SECONDS = 3600  # ends an hour after the setup: nothing falls due during the run

# Deterministic ids: the kind of row in the first group, the row number in the last, so that every
# table's rows can refer to the others' without reading them back.
_UUID = "('{kind}-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid"


def _uuid(kind: str) -> str:
    return _UUID.format(kind=kind)


def create_running_operations(rows: int, *, chunk: int = 250_000) -> None:
    """``rows`` focusing operations, each in its own conversation, ending an hour from now."""
    from django.contrib.auth import get_user_model

    from runtime.manifests import get_manifest, system_app_id

    user = get_user_model()(username="sweep")
    user.set_unusable_password()
    user.save()
    schema_version = get_manifest("pomodoro").instance_state.schema_version
    conversation, interact, pomodoro = _uuid("00000001"), _uuid("00000002"), _uuid("00000003")
    session, call, operation = _uuid("00000004"), _uuid("00000005"), _uuid("00000006")
    started = "(now() - interval '1 minute' + n * interval '1 microsecond')"
    statements = [
        "INSERT INTO runtime_conversation (id, owner_id, title, scope, is_default, created_at) "
        f"SELECT {conversation}, %(user)s, 'sweep ' || n, 'personal', false, {started} FROM series",
        f"INSERT INTO runtime_workspace (conversation_id, focus_seq, updated_at) SELECT {conversation}, 2, now() "
        "FROM series",
        "INSERT INTO runtime_appinstance (id, conversation_id, app_id, is_system, lifecycle_state, focus_seq, "
        "opened_at, close_reason) "
        f"SELECT {interact}, {conversation}, %(interact_app)s, true, 'background', 1, {started}, '' FROM series "
        f"UNION ALL SELECT {pomodoro}, {conversation}, 'pomodoro', false, 'foreground', 2, {started}, '' FROM series",
        "INSERT INTO runtime_appsession (id, instance_id, conversation_id, state, opened_at) "
        f"SELECT {session}, {pomodoro}, {conversation}, 'open', {started} FROM series",
        "INSERT INTO runtime_instancesnapshot (instance_id, schema_version, revision, size_bytes, updated_at) "
        f"SELECT {pomodoro}, %(schema_version)s, 0, 0, {started} FROM series",
        "INSERT INTO runtime_toolcall (id, conversation_id, source_tool_call_id, tool, arguments, caller, channel, "
        "status, instance_id, cancel_reason, created_at) "
        f"SELECT {call}, {conversation}, 'sweep-' || n, 'pomodoro.start', "
        f"jsonb_build_object('duration_seconds', {FOCUS_SECONDS}), 'agent:bench', 'agent_socket', 'accepted', "
        f"{pomodoro}, '', {started} FROM series",
        "INSERT INTO runtime_operation (id, conversation_id, instance_id, app_session_id, tool_call_id, "
        "source_tool_call_id, app_id, exclusive, details, started_at, ends_at, state, settle_failures, "
        "last_settle_error) "
        f"SELECT {operation}, {conversation}, {pomodoro}, {session}, {call}, 'sweep-' || n, 'pomodoro', true, "
        "jsonb_build_object('activity', null), "
        f"{started}, {started} + interval '{FOCUS_SECONDS} seconds', 'running', 0, '' FROM series",
    ]
    params = {"user": user.pk, "interact_app": system_app_id(), "schema_version": schema_version}
    with common.psycopg_connect(autocommit=True) as conn:
        for first in range(1, rows + 1, chunk):
            last = min(first + chunk - 1, rows)
            with conn.transaction():
                for statement in statements:
                    conn.execute(
                        f"WITH series AS (SELECT generate_series({first}, {last}) AS n) {statement}",
                        params,
                    )
        conn.execute("VACUUM ANALYZE")


def create_empty_schema() -> None:
    """Empty copies of every Runtime and Interact table, in a schema of their own."""
    from django.apps import apps

    tables = [
        m._meta.db_table
        for label in ("runtime", "interact")
        for m in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"DROP SCHEMA IF EXISTS {EMPTY_SCHEMA} CASCADE")
        cursor.execute(f"CREATE SCHEMA {EMPTY_SCHEMA}")
        for table in tables:
            cursor.execute(f"CREATE TABLE {EMPTY_SCHEMA}.{table} (LIKE public.{table} INCLUDING ALL)")
            cursor.execute(f"ANALYZE {EMPTY_SCHEMA}.{table}")


def _on(schema: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET search_path TO {schema}")


def time_alternating(
    repeats: int, sides: dict[str, str], action: Callable[[], object], check: Callable[[str, object], None]
) -> dict[str, list[float]]:
    """``action`` on each side's search_path in turn, ``repeats`` times each; seconds per call."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(repeats):
        for name, search_path in sides.items():
            _on(search_path)
            started = time.perf_counter()
            result = action()
            samples[name].append(time.perf_counter() - started)
            check(name, result)
    _on("public")
    return samples


def main(args: argparse.Namespace) -> common.Report:
    from runtime.models import Operation
    from runtime.selectors import next_deadline
    from runtime.services.recovery import sweep
    from runtime.transitions import RUNNING_STATES

    common.prepare_database()
    started = time.perf_counter()
    create_running_operations(args.rows)
    create_empty_schema()
    setup_seconds = time.perf_counter() - started
    print(f"created {args.rows} focusing operations, none due, in {setup_seconds:.1f} s", flush=True)

    sides = {"full": "public", "empty": f"{EMPTY_SCHEMA}, public"}
    problems: list[str] = []

    def check_sweep(side: str, summary: object) -> None:
        done = len(summary.settled) + summary.already_final + len(summary.failed) + sum(summary.swept.values())
        if done:
            problems.append(f"a sweep on the {side} side did something ({done}): nothing is due")

    def check_deadline(side: str, deadline: object) -> None:
        if (deadline is None) != (side == "empty"):
            problems.append(f"next_deadline on the {side} side was {deadline}")

    with common.Rig("sweep"):  # no server; purges the queue around the run
        # Warm both sides up (connection, plan caches, the sweepers' imports) before the clock.
        time_alternating(3, sides, lambda: sweep(now=timezone.now()), check_sweep)
        sweeps = time_alternating(args.repeats, sides, lambda: sweep(now=timezone.now()), check_sweep)
        deadlines = time_alternating(args.repeats, sides, next_deadline, check_deadline)
    running = Operation.objects.filter(state__in=RUNNING_STATES).count()
    if running != args.rows:
        problems.append(f"{running} operations running after the run, not {args.rows}")
    for problem in sorted(set(problems)):
        print(f"error: {problem}")
    full, empty = common.latency_summary(sweeps["full"]), common.latency_summary(sweeps["empty"])
    deadline_full = common.latency_summary(deadlines["full"])
    deadline_empty = common.latency_summary(deadlines["empty"])
    with connection.cursor() as cursor:
        cursor.execute(f"DROP SCHEMA IF EXISTS {EMPTY_SCHEMA} CASCADE")
    return common.Report(
        bench="sweep",
        params={"rows": args.rows, "repeats": args.repeats},
        measured=common.Figure(f"sweep p50 over {args.rows} focusing, none due", full["p50_ms"], "ms"),
        baseline=common.Figure("sweep p50 over empty tables", empty["p50_ms"], "ms"),
        ratio=full["p50_ms"] / empty["p50_ms"],
        ratio_meaning="sweep p50 with the rows / sweep p50 without",
        details={
            "sweep_full": full,
            "sweep_empty": empty,
            "ratio_p99": round(full["p99_ms"] / empty["p99_ms"], 2),
            "next_deadline_full": deadline_full,
            "next_deadline_empty": deadline_empty,
            "next_deadline_ratio_p50": round(deadline_full["p50_ms"] / deadline_empty["p50_ms"], 2),
            "setup_seconds": round(setup_seconds, 1),
        },
        errors=len(set(problems)),
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="focusing operations, none due")
    parser.add_argument("--repeats", type=int, default=300, help="sweeps on each side, alternating")
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
