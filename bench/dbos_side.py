"""DBOS Transact's side of ``bench.peer_dbos``: run by the DBOS virtualenv's python, never by LineUp's.

It imports nothing from LineUp (DBOS is not a project dependency) and prints one JSON line. The
workload mirrors a Pomodoro focus: a workflow that takes a durable sleep (DBOS records the wake-up
time in its system database, as LineUp records ``ends_at``) and returns.

    pairs      --threads T --pairs P   closed loop per thread: ``start_workflow(focus, 600)`` (the
                                       status row and inputs durable on return) then
                                       ``cancel_workflow`` (the status row CANCELLED): pairs/s
    lateness   --count C --seconds S   C workflows sleeping S s, started over a spread; lateness =
                                       the in-process handle's result - (time before start + S)
    prepare    --count N --deadline E  N workflows sleeping until the epoch E; exits (os._exit, a
                                       crash) once every wake-up time is recorded
    recover    --count N               launch (DBOS recovers its executor's pending workflows):
                                       seconds from before launch until all N are SUCCESS, and
                                       the span from the first completion to the last

Usage: ``<dbos python> bench/dbos_side.py MODE --database-url postgresql://… [options]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time

from dbos import DBOS, DBOSConfig


def _focus_body(seconds: float) -> str:
    DBOS.sleep(seconds)
    return "completed"


def _until_body(deadline: float) -> str:
    # Recorded on first execution; on recovery the recorded wake-up time is used, not this one.
    DBOS.sleep(max(0.0, deadline - time.time()))
    return "completed"


focus = None
until = None


def _launch(url: str) -> None:
    global focus, until
    config: DBOSConfig = {"name": "lineup-peer", "system_database_url": url, "log_level": "WARNING"}
    DBOS(config=config)
    focus = DBOS.workflow(name="focus")(_focus_body)
    until = DBOS.workflow(name="until")(_until_body)
    DBOS.launch()


def _count(url: str, status: str | None = None, sleeps: bool = False) -> int:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        if sleeps:
            row = conn.execute("SELECT count(*) FROM dbos.operation_outputs WHERE function_name = 'DBOS.sleep'")
        else:
            row = conn.execute("SELECT count(*) FROM dbos.workflow_status WHERE status = %s", [status])
        return row.fetchone()[0]


def _completion_span(url: str) -> float:
    """Seconds from the first recovered workflow's completion to the last (DBOS's recovery loop alone)."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT (max(updated_at) - min(updated_at)) / 1000.0 FROM dbos.workflow_status WHERE status = 'SUCCESS'"
        ).fetchone()
        return float(row[0] or 0.0)


def backend_cpu(url: str) -> dict[int, float]:
    """utime + stime (seconds) of the PostgreSQL server processes on this database, but the asking one."""
    import psycopg

    with psycopg.connect(url) as conn:
        pids = [
            row[0]
            for row in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ]
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def pairs(args: argparse.Namespace) -> dict:
    per_thread = max(1, args.pairs // args.threads)
    warmed = threading.Barrier(args.threads + 1)
    ready = threading.Barrier(args.threads + 1)
    errors: list[str] = []

    def body() -> None:
        handle = DBOS.start_workflow(focus, 600)  # warm: connections, the registry
        DBOS.cancel_workflow(handle.workflow_id)
        warmed.wait()
        ready.wait()
        for _ in range(per_thread):
            handle = DBOS.start_workflow(focus, 600)
            DBOS.cancel_workflow(handle.workflow_id)
        if handle.get_status().status != "CANCELLED":
            errors.append(f"{handle.workflow_id} is {handle.get_status().status}")

    threads = [threading.Thread(target=body) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    warmed.wait()
    backends = backend_cpu(args.database_url)
    cpu = os.times()
    ready.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    cpu_after = os.times()
    postgres = cpu_delta(backends, backend_cpu(args.database_url))
    done = per_thread * args.threads
    return {
        "pairs": done,
        "seconds": elapsed,
        "pairs_per_s": done / elapsed,
        "process_cpu_ms_per_pair": ((cpu_after.user - cpu.user) + (cpu_after.system - cpu.system)) * 1000 / done,
        "postgres_cpu_ms_per_pair": postgres * 1000 / done,
        "errors": errors,
    }


def lateness(args: argparse.Namespace) -> dict:
    rng = random.Random(1)
    lags: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def one() -> None:
        time.sleep(rng.uniform(0, args.spread))
        before = time.time()
        handle = DBOS.start_workflow(focus, args.seconds)
        result = handle.get_result()
        arrived = time.time()
        with lock:
            if result != "completed":
                errors.append(f"{handle.workflow_id}: {result}")
            lags.append(arrived - (before + args.seconds))

    threads = [threading.Thread(target=one) for _ in range(args.count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"lags_s": lags, "errors": errors}


def prepare(args: argparse.Namespace) -> None:
    for _ in range(args.count):
        DBOS.start_workflow(until, args.deadline)
    while _count(args.database_url, sleeps=True) < args.count:
        if time.time() >= args.deadline:
            print(json.dumps({"errors": ["the deadline passed before every sleep was recorded: raise --hold"]}))
            sys.stdout.flush()
            os._exit(1)
        time.sleep(0.05)
    done = _count(args.database_url, status="SUCCESS")
    print(json.dumps({"prepared": args.count, "already_done": done, "errors": []}), flush=True)
    os._exit(0)  # a crash: nothing shuts down cleanly, the workflows stay PENDING


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["pairs", "lateness", "prepare", "recover"])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--spread", type=float, default=1.0)
    parser.add_argument("--deadline", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    started = time.perf_counter()
    _launch(args.database_url)
    if args.mode == "pairs":
        report = pairs(args)
    elif args.mode == "lateness":
        report = lateness(args)
    elif args.mode == "prepare":
        prepare(args)
        return 0
    else:
        errors = []
        while _count(args.database_url, status="SUCCESS") < args.count:
            if time.perf_counter() - started > args.timeout:
                errors.append("recovery timed out")
                break
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
        report = {
            "recovered": args.count,
            "seconds": elapsed,
            "per_s": args.count / elapsed,
            "span_seconds": _completion_span(args.database_url),
            "errors": errors,
        }
    print(json.dumps(report), flush=True)
    os._exit(0)  # the cancelled workflows' threads still sleep; nothing to wait for


if __name__ == "__main__":
    raise SystemExit(main())
