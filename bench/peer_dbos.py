"""LineUp beside DBOS Transact on the same PostgreSQL, same run: start+interrupt pairs/s, lateness, recovery.

DBOS is the durable-execution library a Python developer would pick instead. It is never a LineUp
dependency: its side (``bench/dbos_side.py``) runs in a virtualenv of its own, whose python comes
from ``--dbos-python`` or ``LINEUP_DBOS_PYTHON`` (e.g. ``python3 -m venv ~/dbos-venv &&
~/dbos-venv/bin/pip install dbos``). Without one the bench says so and exits 0. DBOS gets its own
database next to the bench database (``<bench database>_dbos``, recreated per run).

What each side does (both in-process, no network transport in front of either):

pairs      LineUp: ``pomodoro.start`` (600 s) + ``pomodoro.interrupt`` through the Tool Router
           (``route_tool_call``: the workspace lock, the instance, the operation with its
           ``ends_at``, audit events, the outbox row, the eta task published to Redis and the
           projection hint after commit), ``--threads`` threads, one conversation each.
           DBOS: ``start_workflow(focus, 600)`` (the workflow's status row and inputs are durable
           when it returns; its thread then records the sleep's wake-up time) +
           ``cancel_workflow`` (the status row CANCELLED), ``--threads`` threads.
           ``--rounds`` alternations, LineUp first; every round and the medians reported.
lateness   a focus of ``--late-seconds``: LineUp ``bench.settlement_lag`` (start over /ws/agent/,
           the eta task settles it, ``tool.result`` arrives - ``ends_at``); DBOS: the workflow's
           result through its in-process handle - (the time before ``start_workflow`` + the sleep).
           LineUp's figure includes a WebSocket hop and a Redis hint that DBOS's does not.
recovery   ``--recover`` focuses already due when the process starts: LineUp
           ``bench.recovery_throughput`` (``recover_runtime`` over due operations, settled/s);
           DBOS: one process starts ``--recover`` workflows sleeping until a common deadline and
           dies (``os._exit``) once every wake-up time is recorded; after the deadline a fresh
           process launches and DBOS recovers them: workflows/s from its launch to the last SUCCESS
           (start-up included), and over the span from the first completion to the last.

Per pair, each round also reports the CPU-ms of the deciding process (os.times) and of the PostgreSQL
server processes on that side's database (/proc, read after every thread is connected and warm).
The ratio printed is DBOS pairs/s over LineUp pairs/s (median rounds): below 1 LineUp is ahead.
Run: ``python -m bench.peer_dbos --dbos-python ~/dbos-venv/bin/python [--pairs 300 --rounds 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench import common

ROOT = Path(__file__).resolve().parents[1]
DBOS_SIDE = ROOT / "bench" / "dbos_side.py"
SUBPROCESS_TIMEOUT = 1800


def _dbos_url() -> str:
    params = common._psycopg_params()
    auth = params.get("user", "")
    if params.get("password"):
        auth += f":{params['password']}"
    return f"postgresql://{auth}@{params['host']}:{params['port']}/{params['dbname']}_dbos"


def _recreate_dbos_database() -> None:
    import psycopg
    from psycopg import sql

    name = f"{common._psycopg_params()['dbname']}_dbos"
    with psycopg.connect(**common._psycopg_params(dbname="postgres"), autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _dbos(python: str, mode: str, *options: str) -> dict:
    argv = [python, str(DBOS_SIDE), mode, "--database-url", _dbos_url(), *options]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT, cwd=ROOT)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise common.BenchError(f"dbos_side {mode} printed no report (exit {run.returncode}): {run.stderr[-2000:]}")
    report = json.loads(lines[-1])
    if run.returncode != 0 or report.get("errors"):
        raise common.BenchError(f"dbos_side {mode}: exit {run.returncode}, {report.get('errors')}")
    return report


def _lineup_bench(module: str, *options: str) -> dict:
    """Another LineUp bench as a subprocess (it starts its own servers); its JSON report."""
    argv = [sys.executable, "-m", f"bench.{module}", *options, "--json"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT, cwd=ROOT)
    if run.returncode != 0:
        raise common.BenchError(f"bench.{module} failed: {run.stdout[-1500:]} {run.stderr[-1500:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def _settled_counters(conn) -> tuple[int, int]:
    """The counters once the closed connections' statistics have arrived (a backend flushes on exit)."""

    def counters() -> tuple[int, int]:
        usage = common.postgres_usage(conn)
        return usage.transactions, usage.rows_inserted

    last, deadline = counters(), time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = counters()
        if now == last:
            return now
        last = now
    return last


def lineup_pairs(agent: common.BenchAgent, threads: int, pairs: int) -> dict[str, float]:
    """pairs/s, this process's CPU-ms per pair (route_tool_call runs here) and PostgreSQL's."""
    from django.db import connections

    from bench.decision_throughput import _runtime_worker

    per_thread = max(1, pairs // threads)
    warmed = threading.Barrier(threads + 1)  # every thread connected and warm: CPU is read after
    ready = threading.Barrier(threads + 1)
    finished = threading.Event()
    done: list[int] = []
    errors: list[BaseException] = []

    def body(index: int) -> None:
        try:
            pair = _runtime_worker(agent, agent.conversation_ids[index])
        except BaseException as error:
            errors.append(error)
            warmed.abort()
            raise
        warmed.wait()
        ready.wait()
        try:
            for k in range(per_thread):
                pair(k)
            done.append(index)
        except BaseException as error:
            errors.append(error)
            raise
        finally:
            finished.wait()  # the connection stays open until its backend's CPU is read
            connections.close_all()

    workers = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    # Connected to another database, so its own readings move none of the bench database's counters.
    with common.stats_connection() as conn:
        counters = _settled_counters(conn)  # before any thread connects: its warm-up pair is counted too
        for worker in workers:
            worker.start()
        try:
            warmed.wait()
        except threading.BrokenBarrierError:
            ready.abort()
        backends = common.postgres_usage(conn)
        cpu = os.times()
        try:
            ready.wait()
        except threading.BrokenBarrierError:
            pass
        started = time.perf_counter()
        while any(worker.is_alive() for worker in workers) and len(done) + len(errors) < threads:
            time.sleep(0.005)  # a 5 ms resolution on runs of seconds
        seconds = time.perf_counter() - started
        after = os.times()
        postgres = common.postgres_usage(conn).cpu_since(backends)
        finished.set()
        for worker in workers:
            worker.join()
        counted = [after_ - before_ for after_, before_ in zip(_settled_counters(conn), counters, strict=True)]
    if errors:
        raise common.BenchError(f"{len(errors)} thread(s) failed: {errors[0]!r}") from errors[0]
    count = per_thread * threads
    return {
        "pairs_per_s": count / seconds,
        "process_cpu_ms_per_pair": ((after.user - cpu.user) + (after.system - cpu.system)) * 1000 / count,
        "postgres_cpu_ms_per_pair": postgres * 1000 / count,
        # From pg_stat_database, over the timed pairs plus each thread's warm-up pair and connection
        # set-up: the "transactions and rows inserted per pair".
        "transactions_per_pair": counted[0] / (count + threads),
        "rows_inserted_per_pair": counted[1] / (count + threads),
    }


def main(args: argparse.Namespace) -> common.Report:
    python = args.dbos_python or os.environ.get("LINEUP_DBOS_PYTHON", "")
    if not python or not Path(python).exists():
        print("skipped: no DBOS python (give --dbos-python or LINEUP_DBOS_PYTHON: a virtualenv with dbos installed)")
        raise SystemExit(0)
    common.prepare_database()
    _recreate_dbos_database()
    agent = common.create_agents(1, args.threads, prefix="peer")[0]
    rounds: list[dict] = []
    with common.Rig("peer-dbos"):  # no server: it purges the queue of the eta tasks the starts sent
        for number in range(args.rounds):
            lineup = lineup_pairs(agent, args.threads, args.pairs)
            dbos = _dbos(python, "pairs", "--threads", str(args.threads), "--pairs", str(args.pairs))
            rounds.append(
                {
                    "lineup_pairs_per_s": round(lineup["pairs_per_s"], 1),
                    "dbos_pairs_per_s": round(dbos["pairs_per_s"], 1),
                    "lineup_process_cpu_ms_per_pair": round(lineup["process_cpu_ms_per_pair"], 2),
                    "dbos_process_cpu_ms_per_pair": round(dbos["process_cpu_ms_per_pair"], 2),
                    "lineup_postgres_cpu_ms_per_pair": round(lineup["postgres_cpu_ms_per_pair"], 2),
                    "lineup_transactions_per_pair": round(lineup["transactions_per_pair"], 1),
                    "lineup_rows_inserted_per_pair": round(lineup["rows_inserted_per_pair"], 1),
                    "dbos_postgres_cpu_ms_per_pair": round(dbos["postgres_cpu_ms_per_pair"], 2),
                    "load_avg_1m": round(os.getloadavg()[0], 2),
                }
            )
            print(f"round {number + 1}/{args.rounds}: {rounds[-1]}", flush=True)
    lineup_median = statistics.median(r["lineup_pairs_per_s"] for r in rounds)
    dbos_median = statistics.median(r["dbos_pairs_per_s"] for r in rounds)
    details: dict = {"rounds": rounds}

    if args.late_count:
        lag = _lineup_bench(
            "settlement_lag",
            *("--agents", "1", "--conversations", str(args.late_count), "--rounds", "1"),
            *("--focus-seconds", str(args.late_seconds), "--spread", "1"),
        )
        dbos_late = _dbos(python, "lateness", "--count", str(args.late_count), "--seconds", str(args.late_seconds))
        dbos_lags = common.latency_summary(dbos_late["lags_s"])
        details["lateness"] = {
            "focus_seconds": args.late_seconds,
            "lineup_p50_ms": lag["details"]["tool_result_lag"]["p50_ms"],
            "lineup_p99_ms": lag["details"]["tool_result_lag"]["p99_ms"],
            "lineup_noop_eta_p99_ms": lag["details"]["noop_eta_lag"]["p99_ms"],
            "dbos_p50_ms": dbos_lags["p50_ms"],
            "dbos_p99_ms": dbos_lags["p99_ms"],
            "load_avg_1m": round(os.getloadavg()[0], 2),
        }
        print(f"lateness: {details['lateness']}", flush=True)

    if args.recover:
        recovered = _lineup_bench("recovery_throughput", "--count", str(args.recover), "--workers", "1")
        _recreate_dbos_database()
        deadline = time.time() + args.hold
        prepared = _dbos(python, "prepare", "--count", str(args.recover), "--deadline", str(deadline))
        if prepared["already_done"]:
            raise common.BenchError(f"{prepared['already_done']} DBOS workflows finished before the crash")
        time.sleep(max(0.0, deadline - time.time()) + 0.5)  # until every recorded wake-up time is past
        dbos_recovery = _dbos(python, "recover", "--count", str(args.recover))
        details["recovery"] = {
            "due": args.recover,
            "lineup_per_s": recovered["measured"]["value"],
            "dbos_per_s": round(dbos_recovery["per_s"], 1),
            "dbos_seconds_from_launch": round(dbos_recovery["seconds"], 2),
            # The first completion to the last: DBOS's recovery loop without its process start-up,
            # the closer match to recover_runtime's own figure.
            "dbos_per_s_completion_span": round(args.recover / max(dbos_recovery["span_seconds"], 1e-3), 1),
            "load_avg_1m": round(os.getloadavg()[0], 2),
        }
        print(f"recovery: {details['recovery']}", flush=True)

    return common.Report(
        bench="peer_dbos",
        params={"pairs": args.pairs, "threads": args.threads, "rounds": args.rounds, "dbos_python": python},
        measured=common.Figure("LineUp start+interrupt pairs (median round)", lineup_median, "pairs/s"),
        baseline=common.Figure("DBOS start_workflow+cancel_workflow pairs (median round)", dbos_median, "pairs/s"),
        ratio=dbos_median / lineup_median,
        ratio_meaning="DBOS pairs/s / LineUp pairs/s: below 1 LineUp is ahead",
        details=details,
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--dbos-python", default="", help="python of a virtualenv with dbos (or LINEUP_DBOS_PYTHON)")
    parser.add_argument("--pairs", type=int, default=300, help="start+interrupt pairs per side per round")
    parser.add_argument("--threads", type=int, default=2, help="threads per side")
    parser.add_argument("--rounds", type=int, default=3, help="alternations, LineUp then DBOS")
    parser.add_argument("--late-count", type=int, default=20, help="focuses for lateness per side (0: skip)")
    parser.add_argument("--late-seconds", type=int, default=2, help="focus length for lateness")
    parser.add_argument("--recover", type=int, default=2000, help="due focuses recovered per side (0: skip)")
    parser.add_argument("--hold", type=float, default=60.0, help="seconds DBOS has to record every sleep")
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
