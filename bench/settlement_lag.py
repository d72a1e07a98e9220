"""Settlement lag of ``tool.result`` vs the lag of a no-op Celery eta task due at the same instant.

measured  for each completed focus, when its ``tool.result`` reached the Agent minus its
          ``ends_at``: the eta task firing, the settling transaction, the hint over the Redis
          layer, the consumer reading the outbox and the frame on the wire.
baseline  for each focus, a no-op task (bench/tasks.py) sent with ``eta = ends_at`` to the same
          queue and worker: when it started minus its eta — what Celery alone adds.

Production topology: one Daphne, one Celery worker (prefork, 2 children; ``--include
bench.tasks``), beat, Postgres, Redis. ``--agents`` connections with ``--conversations`` each run
``--rounds`` focuses of ``--focus-seconds``, each round starting after a random pause up to
``--spread`` seconds so deadlines do not all fall on one instant.
Run: ``python -m bench.settlement_lag [--agents 2 --conversations 5 --rounds 10]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis

from bench import common
from bench.client import AgentConnection, new_call_id, parse_time
from tests.support.processes import wait_for


def _ends_at(operation_id: str) -> float:
    from runtime.models import Operation

    return Operation.objects.values_list("ends_at", flat=True).get(pk=operation_id).timestamp()


def _send_noop(key: str, eta: float) -> None:
    from datetime import UTC, datetime

    from lineup.celery import app

    app.send_task("bench.tasks.noop_at", args=[key, eta], eta=datetime.fromtimestamp(eta, UTC), queue=common.QUEUE)


async def _measure(server: common.Server, agents: list[common.BenchAgent], args: argparse.Namespace, key: str):
    side = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bench-side")  # ORM and broker calls off the loop
    loop = asyncio.get_running_loop()
    connections = [await AgentConnection(server.url(), agent.token).open() for agent in agents]
    revision = await connections[0].inventory_revision(agents[0].conversation_ids[0])
    lags: list[float] = []
    errors: list[str] = []
    rng = random.Random(args.seed)

    async def conversation(connection: AgentConnection, conversation_id: str) -> None:
        for _ in range(args.rounds):
            await asyncio.sleep(rng.uniform(0, args.spread))  # spreads deadlines; not a synchronisation
            call_id = new_call_id("lag")
            accepted, _ = await connection.tool_call(
                conversation_id, call_id, "pomodoro.start", {"duration_seconds": args.focus_seconds}, revision
            )
            if accepted.get("type") != "tool.accepted":
                errors.append(f"start answered {accepted}")
                return
            ends_at = await loop.run_in_executor(side, _ends_at, accepted["operation_id"])
            await loop.run_in_executor(side, _send_noop, key, ends_at)
            try:
                delivered = await asyncio.wait_for(connection.result_for(call_id), args.focus_seconds + 30)
            except TimeoutError:
                errors.append(f"no tool.result for {call_id} within {args.focus_seconds + 30} s")
                return
            result = delivered.frame["result"]
            if result["state"] != "completed" or parse_time(result["ends_at"]) != ends_at:
                errors.append(f"unexpected result {result}")
            lags.append(delivered.received_at - ends_at)

    await asyncio.gather(
        *(
            conversation(c, conversation_id)
            for c, a in zip(connections, agents, strict=True)
            for conversation_id in a.conversation_ids
        )
    )
    for connection in connections:
        errors += [f"unexpected frame {frame}" for frame in connection.unexpected]
        await connection.close()
    side.shutdown()
    return lags, errors


def _noop_lags(key: str, expected: int) -> list[float]:
    client = redis.Redis.from_url(common.REDIS_URL)
    wait_for(lambda: client.llen(key) >= expected, timeout=60, what=f"{expected} no-op eta tasks to run")
    records = [json.loads(raw) for raw in client.lrange(key, 0, -1)]
    client.delete(key)
    return [r["ran_at"] - r["eta"] for r in records]


def main(args: argparse.Namespace) -> common.Report:
    common.prepare_database()
    agents = common.create_agents(args.agents, args.conversations, prefix="lag")
    key = f"lineup-bench:noop:{uuid.uuid4().hex}"
    with common.Rig("settlement-lag") as rig, common.stats_connection() as stats:
        worker = rig.worker(include=["bench.tasks"])
        rig.beat()
        server = rig.daphne()
        worker_pids = common.process_tree(worker.pid)  # the main process and its prefork children
        worker_before = sum(common.cpu_seconds(pid) or 0.0 for pid in worker_pids)
        postgres_before = common.postgres_usage(stats)
        started = time.perf_counter()
        lags, errors = asyncio.run(_measure(server, agents, args, key))
        elapsed = time.perf_counter() - started
        noop = _noop_lags(key, len(lags)) if lags else []
        worker_cpu = sum(common.cpu_seconds(pid) or 0.0 for pid in worker_pids) - worker_before
        postgres_after = common.postgres_usage(stats)
    for error in errors[:10]:
        print(f"error: {error}")
    if not lags or not noop:
        raise common.BenchError(f"no samples; errors: {errors[:3]}")
    result = common.latency_summary(lags)
    floor = common.latency_summary(noop)
    return common.Report(
        bench="settlement_lag",
        params={
            "agents": args.agents,
            "conversations": args.conversations,
            "rounds": args.rounds,
            "focus_seconds": args.focus_seconds,
            "spread": args.spread,
        },
        measured=common.Figure("tool.result delivery - ends_at p99", result["p99_ms"], "ms"),
        baseline=common.Figure("no-op eta task start - eta p99", floor["p99_ms"], "ms"),
        ratio=result["p99_ms"] / floor["p99_ms"],
        ratio_meaning="tool.result lag p99 / no-op eta task lag p99",
        details={
            "ratio_p50": round(result["p50_ms"] / floor["p50_ms"], 2),
            "p99_over_floor_ms": round(result["p99_ms"] - floor["p99_ms"], 1),  # target: <= 50
            "tool_result_lag": result,
            "noop_eta_lag": floor,
            "wall_seconds": round(elapsed, 1),
            # Per focus, over the whole run: the worker's CPU (the eta settlement, its no-op twin and
            # the beat's sweeps), PostgreSQL's (every backend on the bench database: the start, the
            # settlement, the ack; a backend that exited inside the run is missed) and transactions.
            "worker_cpu_ms_per_focus": round(worker_cpu * 1000 / len(lags), 2),
            "postgres_cpu_ms_per_focus": round(postgres_after.cpu_since(postgres_before) * 1000 / len(lags), 2),
            "transactions_per_focus": round(postgres_after.counted_since(postgres_before)[0] / len(lags), 2),
        },
        errors=len(errors),
        log_dir=str(rig.log_dir),
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=2, help="Agent connections")
    parser.add_argument("--conversations", type=int, default=5, help="conversations per Agent, focusing at once")
    parser.add_argument("--rounds", type=int, default=10, help="focuses per conversation, one after another")
    parser.add_argument("--focus-seconds", type=int, default=1, help="duration_seconds of every focus")
    parser.add_argument("--spread", type=float, default=1.0, help="random pause before each start, up to this")
    parser.add_argument("--seed", type=int, default=1)
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
