"""Bounded load: N Agents x M conversations doing start / interrupt / short focuses through ``/ws/agent/``.

The production topology on the loopback interface: two Daphne processes (Agents alternate between
them), one Celery worker, beat, Postgres, Redis. Every conversation loops until ``--duration`` has
passed: start a focus of 1…``--max-focus`` seconds; for a share (``--interrupt-share``) of them,
interrupt it after a random pause well inside its duration; then wait for its ``tool.result``.

It stops by itself: no start after ``--duration``, and a missing result is given up on (an error)
``RESULT_GRACE`` seconds after its ``ends_at``. It then checks the database: every operation final,
exactly one outbox entry each, no instance of a final operation still open.

Reported: throughput (focuses started and results delivered per second), tool-call latency
p50/p99 (start → ``tool.accepted``, interrupt → ``tool.receipt``), settlement lag (``tool.result``
arrival - ``ends_at``, completed focuses), and errors, which must be 0 (exit status 1 otherwise).
The ratio printed is the settlement lag p99 against the start latency p99 of the same run: how many
"tool calls" a deadline's result trails behind. Run:
``python -m bench.load [--agents 4 --conversations 3 --duration 30]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from dataclasses import dataclass, field

from bench import common
from bench.client import AgentConnection, new_call_id, parse_time

RESULT_GRACE = 30.0  # seconds after ends_at before a missing tool.result counts as lost
INTERRUPT_MARGIN = 0.3  # an interrupt is sent at least this long before ends_at (else it races the deadline)


@dataclass
class Tally:
    starts: list[float] = field(default_factory=list)  # tool-call round trips, seconds
    interrupts: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # tool.result arrival - ends_at, completed only
    completed: int = 0
    interrupted: int = 0
    interrupt_too_late: int = 0  # receipt operation_already_final: the deadline won; not an error
    errors: list[str] = field(default_factory=list)


async def _conversation(
    connection: AgentConnection,
    conversation_id: str,
    revision: str,
    args: argparse.Namespace,
    rng: random.Random,
    stop_at: float,
    tally: Tally,
) -> None:
    while time.monotonic() < stop_at and not tally.errors:
        seconds = rng.randint(1, args.max_focus)
        call_id = new_call_id("load")
        accepted, rtt = await connection.tool_call(
            conversation_id, call_id, "pomodoro.start", {"duration_seconds": seconds}, revision
        )
        if accepted.get("type") != "tool.accepted":
            tally.errors.append(f"start answered {accepted}")
            return
        tally.starts.append(rtt)
        interrupt = rng.random() < args.interrupt_share
        if interrupt:
            await asyncio.sleep(rng.uniform(0, max(0.0, seconds - INTERRUPT_MARGIN)))  # the Agent "decides"
            receipt, rtt = await connection.tool_call(
                conversation_id, new_call_id("load-int"), "pomodoro.interrupt", {}, revision
            )
            status = receipt.get("receipt", {}).get("status")
            if receipt.get("type") != "tool.receipt" or status not in ("interrupted", "operation_already_final"):
                tally.errors.append(f"interrupt answered {receipt}")
                return
            tally.interrupts.append(rtt)
            tally.interrupt_too_late += status == "operation_already_final"
        try:
            delivered = await asyncio.wait_for(connection.result_for(call_id), seconds + RESULT_GRACE)
        except TimeoutError:
            tally.errors.append(f"no tool.result for {call_id} within {seconds + RESULT_GRACE:.0f} s")
            return
        result = delivered.frame["result"]
        if result["state"] == "completed":
            tally.completed += 1
            tally.lags.append(delivered.received_at - parse_time(result["ends_at"]))
        elif result["state"] == "interrupted" and interrupt:
            tally.interrupted += 1
        else:
            tally.errors.append(f"unexpected result {result}")


async def _drive(servers: list[common.Server], agents: list[common.BenchAgent], args: argparse.Namespace) -> Tally:
    connections = [
        await AgentConnection(servers[i % len(servers)].url(), agent.token).open() for i, agent in enumerate(agents)
    ]
    tally = Tally()
    rng = random.Random(args.seed)
    stop_at = time.monotonic() + args.duration
    jobs = []
    for connection, agent in zip(connections, agents, strict=True):
        revision = await connection.inventory_revision(agent.conversation_ids[0])
        for conversation_id in agent.conversation_ids:
            child = random.Random(rng.random())  # one stream per conversation: runs repeat with --seed
            jobs.append(_conversation(connection, conversation_id, revision, args, child, stop_at, tally))
    await asyncio.gather(*jobs)
    for connection in connections:
        tally.errors += [f"unexpected frame {frame}" for frame in connection.unexpected]
        await connection.close()
    return tally


def database_errors() -> list[str]:
    """What the rows say after the run: every operation final with one outbox entry, instances closed."""
    from runtime.models import Operation
    from runtime.transitions import LifecycleState, OperationState

    errors = []
    open_operations = Operation.objects.filter(state=OperationState.RUNNING).count()
    if open_operations:
        errors.append(f"{open_operations} operation(s) still focusing after the run")
    # At most one is a constraint (one-to-one); at least one is what a lost result would break.
    without_outbox = Operation.objects.filter(outbox_entry__isnull=True).count()
    if without_outbox:
        errors.append(f"{without_outbox} operation(s) without an outbox entry")
    unclosed = (
        Operation.objects.exclude(state=OperationState.RUNNING)
        .exclude(instance__lifecycle_state=LifecycleState.CLOSED)
        .count()
    )
    if unclosed:
        errors.append(f"{unclosed} instance(s) of a final operation not closed")
    return errors


def main(args: argparse.Namespace) -> common.Report:
    common.prepare_database()
    agents = common.create_agents(args.agents, args.conversations, prefix="load")
    with common.Rig("load") as rig:
        rig.worker()
        rig.beat()
        servers = [rig.daphne("daphne-1"), rig.daphne("daphne-2")]
        started = time.perf_counter()
        tally = asyncio.run(_drive(servers, agents, args))
        elapsed = time.perf_counter() - started
        tally.errors += database_errors()
    for error in tally.errors[:10]:
        print(f"error: {error}")
    if not tally.starts or not tally.lags:
        raise common.BenchError(f"no samples; errors: {tally.errors[:3]}")
    start = common.latency_summary(tally.starts)
    lag = common.latency_summary(tally.lags)
    delivered = tally.completed + tally.interrupted
    return common.Report(
        bench="load",
        params={
            "agents": args.agents,
            "conversations": args.conversations,
            "duration": args.duration,
            "max_focus": args.max_focus,
            "interrupt_share": args.interrupt_share,
            "seed": args.seed,
            "topology": "2 daphne, 1 worker (prefork 2), beat",
        },
        measured=common.Figure("settlement lag p99 (tool.result - ends_at)", lag["p99_ms"], "ms"),
        baseline=common.Figure("tool call p99 (start -> tool.accepted)", start["p99_ms"], "ms"),
        ratio=lag["p99_ms"] / start["p99_ms"],
        ratio_meaning="settlement lag p99 / tool-call p99 in the same run",
        details={
            "throughput_starts_per_s": round(len(tally.starts) / elapsed, 2),
            "throughput_results_per_s": round(delivered / elapsed, 2),
            "focuses": {
                "started": len(tally.starts),
                "completed": tally.completed,
                "interrupted": tally.interrupted,
                "interrupt_after_deadline": tally.interrupt_too_late,
            },
            "start_latency": start,
            "interrupt_latency": common.latency_summary(tally.interrupts) if tally.interrupts else {},
            "settlement_lag": lag,
            "wall_seconds": round(elapsed, 1),
        },
        errors=len(tally.errors),
        log_dir=str(rig.log_dir),
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=4, help="Agents (users), alternating between the two Daphnes")
    parser.add_argument("--conversations", type=int, default=3, help="conversations per Agent, each its own loop")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds during which new focuses start")
    parser.add_argument("--max-focus", type=int, default=3, help="each focus lasts 1..this many seconds")
    parser.add_argument("--interrupt-share", type=float, default=0.3, help="share of focuses the Agent interrupts")
    parser.add_argument("--seed", type=int, default=1)
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
