"""Scale-out: decisions/s with K Daphne processes, CPU-ms per decision per process kind, efficiency.

The production topology on the loopback interface: ``--max-daphne`` Daphne processes (default: the
machine's cores), ``--workers`` Celery workers (prefork ``--concurrency``), beat, one PostgreSQL,
one Redis (broker and channel layer), ``LINEUP_SCHEDULER=celery``. For K = 1 … ``--max-daphne`` a
phase runs ``--agents-per-daphne`` x K closed-loop Agents (real ``/ws/agent/`` clients, Agents
spread over the first K Daphnes), each driving ``--conversations`` conversations: start a focus,
interrupt it at once (``--interrupt-share`` of them; the others run ``--focus`` seconds and are
settled by the worker), wait for its ``tool.result``, start the next. A decision is a start, an
interrupt or a settlement.

Each phase is preceded by its floor, at the same concurrency (one thread per conversation, each on
its own row and connection): autocommit compare-and-set ``UPDATE``s through psycopg for
``--floor-seconds`` — tx/s, p50, and PostgreSQL CPU-ms per update.

Measured inside a window (after ``--warmup`` seconds, for ``--duration`` seconds): decisions/s,
start latency p50/p99 (``pomodoro.start`` → ``tool.accepted``), and CPU time from /proc
(utime + stime) per decision for each process kind: the Daphnes, the workers (with their pool
children), beat, and PostgreSQL — the server backends connected to the bench database (a shared
cluster's other databases are not counted; a backend that exited inside the window is missed, which
the persistent connections of the servers make rare; their number is reported), and transactions
and rows inserted per decision from ``pg_stat_database`` (all processes, delivery and acks included). Efficiency of phase K is its decisions/s over
K x those of phase 1. CPU counts are the robust figure on a shared machine; the 1-minute load
average is recorded next to every phase.

After every phase the rows are checked: every operation final, exactly one outbox entry each, every
final operation's instance closed, as many operations as starts accepted, as many interrupted and
completed as the Agents were told. Errors make the exit status 1.
Run: ``python -m bench.scale [--duration 30 --max-daphne 2]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import threading
import time
from dataclasses import dataclass, field

from bench import common
from bench.client import AgentConnection, new_call_id

RESULT_TIMEOUT = 30.0  # seconds past a focus's end before a missing tool.result is an error
KINDS = ("daphne", "worker", "beat", "postgres")


class CpuMeter:
    """CPU seconds per process kind between ``start()`` and ``stop()``."""

    def __init__(self, roots: dict[str, list[int]]) -> None:
        self.roots = roots  # kind -> root pids (Daphnes, workers, beat)
        # On another database: its readings count in none of the bench database's figures.
        self.conn = common.stats_connection()
        self.usage: common.PostgresUsage | None = None
        self.counted = (0, 0)  # transactions and rows inserted inside the window
        self.before: dict[int, float] = {}
        self.kinds: dict[int, str] = {}
        self.backends = 0  # server processes on the bench database at the window's end

    def _snapshot(self) -> tuple[dict[int, float], common.PostgresUsage]:
        for kind, roots in self.roots.items():
            for root in roots:
                for pid in common.process_tree(root):
                    self.kinds[pid] = kind
        snapshot = {}
        for pid in self.kinds:
            seconds = common.cpu_seconds(pid)
            if seconds is not None:
                snapshot[pid] = seconds
        usage = common.postgres_usage(self.conn)
        self.backends = len(usage.cpu)
        for pid, seconds in usage.cpu.items():
            self.kinds[pid] = "postgres"
            snapshot[pid] = seconds
        return snapshot, usage

    def start(self) -> None:
        self.before, self.usage = self._snapshot()

    def stop(self) -> dict[str, float]:
        after, usage = self._snapshot()
        self.counted = usage.counted_since(self.usage)
        totals = dict.fromkeys(KINDS, 0.0)
        for pid, seconds in after.items():
            # A backend born inside the window spent all of its CPU inside it (near enough).
            totals[self.kinds[pid]] += seconds - self.before.get(pid, 0.0)
        return totals

    def close(self) -> None:
        self.conn.close()


# --- the floor: compare-and-set UPDATEs at the same concurrency ---------------------------------


def cas_floor(threads: int, seconds: float) -> dict[str, float]:
    """``threads`` connections doing autocommit compare-and-set UPDATEs for ``seconds``."""
    common.create_cas_table(threads)
    conns = [common.psycopg_connect(autocommit=True) for _ in range(threads)]
    pids = [conn.info.backend_pid for conn in conns]
    latencies: list[list[float]] = [[] for _ in range(threads)]
    ready = threading.Barrier(threads + 1)
    stop_at = [0.0]
    errors: list[str] = []

    def body(index: int) -> None:
        conn, states = conns[index], ("focusing", "interrupted")
        ready.wait()
        k = 0
        while time.perf_counter() < stop_at[0]:
            started = time.perf_counter()
            cursor = conn.execute(
                f"UPDATE {common.CAS_TABLE} SET state = %s, version = version + 1 WHERE id = %s AND state = %s",
                [states[(k + 1) % 2], index, states[k % 2]],
            )
            latencies[index].append(time.perf_counter() - started)
            if cursor.rowcount != 1:
                errors.append(f"compare-and-set lost on row {index}")
                return
            k += 1

    workers = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    cpu_before = sum(common.cpu_seconds(pid) or 0.0 for pid in pids)
    stop_at[0] = time.perf_counter() + seconds
    started = time.perf_counter()
    ready.wait()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    cpu_after = sum(common.cpu_seconds(pid) or 0.0 for pid in pids)
    for conn in conns:
        conn.close()
    common.drop_cas_table()
    if errors:
        raise common.BenchError(errors[0])
    flat = [s for per_thread in latencies for s in per_thread]
    return {
        "cas_tx_per_s": round(len(flat) / elapsed, 1),
        "cas_p50_ms": round(common.percentile(flat, 50) * 1000, 3),
        "cas_postgres_cpu_ms_each": round((cpu_after - cpu_before) * 1000 / len(flat), 4),
    }


# --- the Agents ----------------------------------------------------------------------------------


@dataclass
class Tally:
    window: tuple[float, float] = (0.0, 0.0)
    decisions_at: list[float] = field(default_factory=list)  # monotonic time each decision was answered
    starts: list[tuple[float, float]] = field(default_factory=list)  # (answered at, round trip)
    accepted: int = 0
    interrupted: int = 0
    completed: int = 0
    errors: list[str] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per process kind in the window
    backends: int = 0  # PostgreSQL server processes on the bench database at the window's end
    counted: tuple[int, int] = (0, 0)  # transactions and rows inserted on the bench database in the window


async def _conversation(
    connection: AgentConnection,
    conversation_id: str,
    revision: str,
    args: argparse.Namespace,
    rng: random.Random,
    tally: Tally,
) -> None:
    stop_at = tally.window[1]
    while time.monotonic() < stop_at and not tally.errors:
        call_id = new_call_id("scale")
        accepted, rtt = await connection.tool_call(
            conversation_id, call_id, "pomodoro.start", {"duration_seconds": args.focus}, revision
        )
        if accepted.get("type") != "tool.accepted":
            tally.errors.append(f"start answered {accepted}")
            return
        tally.accepted += 1
        now = time.monotonic()
        tally.decisions_at.append(now)
        tally.starts.append((now, rtt))
        interrupt = rng.random() < args.interrupt_share
        if interrupt:
            receipt, _ = await connection.tool_call(
                conversation_id, new_call_id("scale-int"), "pomodoro.interrupt", {}, revision
            )
            if receipt.get("type") != "tool.receipt" or receipt.get("receipt", {}).get("status") != "interrupted":
                tally.errors.append(f"interrupt answered {receipt}")
                return
            tally.decisions_at.append(time.monotonic())
        try:
            delivered = await asyncio.wait_for(connection.result_for(call_id), args.focus + RESULT_TIMEOUT)
        except TimeoutError:
            tally.errors.append(f"no tool.result for {call_id}")
            return
        state = delivered.frame["result"]["state"]
        if state == "interrupted" and interrupt:
            tally.interrupted += 1
        elif state == "completed" and not interrupt:
            tally.completed += 1
            tally.decisions_at.append(time.monotonic())  # the worker's settlement, seen by the Agent
        else:
            tally.errors.append(f"unexpected result {delivered.frame['result']}")


async def _phase(servers: list[common.Server], agents: list[common.BenchAgent], meter: CpuMeter, args) -> Tally:
    connections = [
        await AgentConnection(servers[i % len(servers)].url(), agent.token).open() for i, agent in enumerate(agents)
    ]
    tally = Tally()
    begin = time.monotonic() + args.warmup
    tally.window = (begin, begin + args.duration)
    rng = random.Random(args.seed)
    jobs = []
    for connection, agent in zip(connections, agents, strict=True):
        revision = await connection.inventory_revision(agent.conversation_ids[0])
        for conversation_id in agent.conversation_ids:
            jobs.append(_conversation(connection, conversation_id, revision, args, random.Random(rng.random()), tally))

    async def measure() -> dict[str, float]:
        await asyncio.sleep(max(0.0, begin - time.monotonic()))
        await asyncio.to_thread(meter.start)
        await asyncio.sleep(max(0.0, tally.window[1] - time.monotonic()))
        return await asyncio.to_thread(meter.stop)

    cpu, *_ = await asyncio.gather(measure(), *jobs)
    tally.cpu = cpu
    tally.backends = meter.backends
    tally.counted = meter.counted
    for connection in connections:
        tally.errors += [f"unexpected frame {frame}" for frame in connection.unexpected]
        await connection.close()
    return tally


def check_rows(expected: dict[str, int]) -> list[str]:
    """The database after a phase agrees with what every Agent was told (cumulative counts)."""
    from bench.load import database_errors
    from runtime.models import Operation
    from runtime.transitions import OperationState

    errors = database_errors()
    found = {
        "operations": Operation.objects.count(),
        "interrupted": Operation.objects.filter(state=OperationState.INTERRUPTED).count(),
        "completed": Operation.objects.filter(state=OperationState.COMPLETED).count(),
    }
    for key, count in expected.items():
        if found[key] != count:
            errors.append(f"{found[key]} {key} in the database, the Agents were told {count}")
    return errors


def _phase_row(k: int, tally: Tally, floor: dict[str, float], args: argparse.Namespace) -> dict:
    low, high = tally.window
    decisions = sum(1 for t in tally.decisions_at if low <= t < high)
    starts = [rtt for t, rtt in tally.starts if low <= t < high]
    row = {
        "daphne": k,
        "conversations": k * args.agents_per_daphne * args.conversations,
        "decisions": decisions,
        "decisions_per_s": round(decisions / args.duration, 1),
        "start_p50_ms": round(common.percentile(starts, 50) * 1000, 1) if starts else None,
        "start_p99_ms": round(common.percentile(starts, 99) * 1000, 1) if starts else None,
        **floor,
        "postgres_backends": tally.backends,
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    for kind, seconds in tally.cpu.items():
        row[f"cpu_ms_per_decision_{kind}"] = round(seconds * 1000 / decisions, 2) if decisions else None
    row["transactions_per_decision"] = round(tally.counted[0] / decisions, 2) if decisions else None
    row["rows_inserted_per_decision"] = round(tally.counted[1] / decisions, 2) if decisions else None
    row["cpu_ms_per_decision_total"] = round(sum(tally.cpu.values()) * 1000 / decisions, 2) if decisions else None
    return row


def table(rows: list[dict]) -> str:
    columns = [
        ("K", "daphne"),
        ("conv", "conversations"),
        ("dec/s", "decisions_per_s"),
        ("eff", "efficiency"),
        ("start p50", "start_p50_ms"),
        ("p99", "start_p99_ms"),
        *((f"cpu {kind}", f"cpu_ms_per_decision_{kind}") for kind in KINDS),
        ("cpu all", "cpu_ms_per_decision_total"),
        ("CAS tx/s", "cas_tx_per_s"),
        ("CAS p50", "cas_p50_ms"),
        ("CAS pg cpu", "cas_postgres_cpu_ms_each"),
        ("tx/dec", "transactions_per_decision"),
        ("ins/dec", "rows_inserted_per_decision"),
        ("pg conns", "postgres_backends"),
        ("load", "load_avg_1m"),
    ]
    widths = [max(len(title), *(len(f"{row.get(key)}") for row in rows)) for title, key in columns]
    lines = ["  ".join(title.rjust(w) for (title, _), w in zip(columns, widths, strict=True))]
    for row in rows:
        lines.append("  ".join(f"{row.get(key)}".rjust(w) for (_, key), w in zip(columns, widths, strict=True)))
    return "\n".join(lines) + "\n(latencies ms; cpu = CPU-ms per decision from /proc; CAS = same-run floor)"


def main(args: argparse.Namespace) -> common.Report:
    common.prepare_database()
    agents = common.create_agents(args.max_daphne * args.agents_per_daphne, args.conversations, prefix="scale")
    rows: list[dict] = []
    errors: list[str] = []
    expected = {"operations": 0, "interrupted": 0, "completed": 0}
    with common.Rig("scale") as rig:
        workers = [rig.worker(concurrency=args.concurrency) for _ in range(args.workers)]
        beat = rig.beat()
        servers = [rig.daphne(f"daphne-{n + 1}") for n in range(args.max_daphne)]
        meter = CpuMeter(
            {
                "daphne": [s.process.pid for s in servers],
                "worker": [w.pid for w in workers],
                "beat": [beat.pid],
            }
        )
        try:
            for k in range(1, args.max_daphne + 1):
                conversations = k * args.agents_per_daphne * args.conversations
                floor = cas_floor(conversations, args.floor_seconds)
                tally = asyncio.run(_phase(servers[:k], agents[: k * args.agents_per_daphne], meter, args))
                expected["operations"] += tally.accepted
                expected["interrupted"] += tally.interrupted
                expected["completed"] += tally.completed
                tally.errors += check_rows(expected)
                errors += [f"K={k}: {e}" for e in tally.errors]
                rows.append(_phase_row(k, tally, floor, args))
                print(f"phase K={k} done: {rows[-1]['decisions_per_s']} decisions/s", flush=True)
        finally:
            meter.close()
    base = rows[0]["decisions_per_s"]
    for row in rows:
        row["efficiency"] = round(row["decisions_per_s"] / (row["daphne"] * base), 2) if base else None
    print(table(rows))
    for error in errors[:10]:
        print(f"error: {error}")
    if not base:
        raise common.BenchError(f"no decisions; errors: {errors[:3]}")
    one = rows[0]
    return common.Report(
        bench="scale",
        params={
            "max_daphne": args.max_daphne,
            "agents_per_daphne": args.agents_per_daphne,
            "conversations": args.conversations,
            "duration": args.duration,
            "warmup": args.warmup,
            "focus": args.focus,
            "interrupt_share": args.interrupt_share,
            "workers": f"{args.workers} x prefork {args.concurrency}",
        },
        measured=common.Figure("decisions/s, one Daphne", one["decisions_per_s"], "decisions/s"),
        baseline=common.Figure("compare-and-set tx/s, same concurrency", one["cas_tx_per_s"], "tx/s"),
        ratio=one["cas_tx_per_s"] / one["decisions_per_s"],
        ratio_meaning="CAS tx/s / decisions/s with one Daphne: one decision costs this many bare atomic updates",
        details={"phases": rows, "efficiency_at_max": rows[-1]["efficiency"]},
        errors=len(errors),
        log_dir=str(rig.log_dir),
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--max-daphne", type=int, default=os.cpu_count() or 1, help="phases K = 1 … this")
    parser.add_argument("--agents-per-daphne", type=int, default=2, help="Agents (connections) per Daphne")
    parser.add_argument("--conversations", type=int, default=3, help="conversations per Agent, each a closed loop")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the window opens")
    parser.add_argument("--floor-seconds", type=float, default=3.0, help="seconds of compare-and-set per phase")
    parser.add_argument("--focus", type=int, default=600, help="focus length, seconds (a completed one lasts it)")
    parser.add_argument("--interrupt-share", type=float, default=1.0, help="share of focuses interrupted at once")
    parser.add_argument("--workers", type=int, default=1, help="Celery workers")
    parser.add_argument("--concurrency", type=int, default=2, help="prefork children per worker")
    parser.add_argument("--seed", type=int, default=1)
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
