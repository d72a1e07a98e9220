"""Runtime decisions per second vs raw compare-and-set UPDATEs per second on the same Postgres.

measured  ``pomodoro.start`` + ``pomodoro.interrupt`` pairs through the Tool Router
          (``route_tool_call``, what ``/ws/agent/`` calls), in this process, with the production
          settings: each is one durable transaction (workspace lock, rows, audit events, outbox)
          plus its on-commit work (the eta task on Redis, projections on the channel layer).
baseline  the same number of single-row compare-and-set transactions through psycopg
          (``UPDATE … SET state=… WHERE id=… AND state=…``, autocommit), the floor of one atomic
          decision on this database.

Both sides run in ``--threads`` threads, each on its own conversation (or row), so they measure
work, not lock contention; they alternate in ``--rounds`` rounds so drift hits both alike.
Run: ``python -m bench.decision_throughput [--pairs 1000] [--threads 2]``.
"""

from __future__ import annotations

import argparse

from bench import common

FOCUS_SECONDS = 600  # within the eta horizon, so every start also enqueues its eta task


def _runtime_worker(agent: common.BenchAgent, conversation_id: str):
    from django.utils import timezone

    from bench.client import new_call_id
    from runtime.inventory import inventory_for_scope
    from runtime.tool_calls import Accepted, Receipt
    from runtime.tool_router import Caller, route_tool_call

    caller = Caller(label=f"agent:{agent.agent_id}", user_id=agent.user_id, conversation_ids=agent.conversation_ids)
    revision = inventory_for_scope("personal").revision

    def pair(_: int) -> None:
        start = route_tool_call(
            caller=caller,
            conversation_id=conversation_id,
            source_tool_call_id=new_call_id("start"),
            tool="pomodoro.start",
            arguments={"duration_seconds": FOCUS_SECONDS},
            inventory_revision=revision,
            now=timezone.now(),
        )
        if not isinstance(start, Accepted):
            raise common.BenchError(f"start: {start}")
        interrupt = route_tool_call(
            caller=caller,
            conversation_id=conversation_id,
            source_tool_call_id=new_call_id("interrupt"),
            tool="pomodoro.interrupt",
            arguments={},
            inventory_revision=revision,
            now=timezone.now(),
        )
        if not isinstance(interrupt, Receipt) or interrupt.receipt["status"] != "interrupted":
            raise common.BenchError(f"interrupt: {interrupt}")

    pair(0)  # warm: the connection, the workspace row, the manifests' compiled validators
    return pair


def main(args: argparse.Namespace) -> common.Report:
    from django.db import connections

    common.prepare_database()
    agent = common.create_agents(1, args.threads, prefix="decide")[0]
    common.create_cas_table(args.threads)
    per_round = max(1, args.pairs // (args.rounds * args.threads))
    runtime_seconds = raw_seconds = 0.0
    with common.Rig("decision-throughput"):  # no server: it purges the queue of the eta tasks sent
        for round_number in range(args.rounds):

            def runtime_worker(index: int):
                return _runtime_worker(agent, agent.conversation_ids[index])

            def cas_worker(index: int):
                return common.cas_updater(index)

            raw_seconds += common.run_threads(args.threads, 2 * per_round, cas_worker)
            runtime_seconds += common.run_threads(args.threads, per_round, runtime_worker)
            connections.close_all()
            print(f"round {round_number + 1}/{args.rounds} done", flush=True)
    common.drop_cas_table()
    decisions = 2 * per_round * args.threads * args.rounds
    raw_updates = decisions  # the same number
    runtime_rate = decisions / runtime_seconds
    raw_rate = raw_updates / raw_seconds
    return common.Report(
        bench="decision_throughput",
        params={"pairs": per_round * args.threads * args.rounds, "threads": args.threads, "rounds": args.rounds},
        measured=common.Figure("Runtime start/interrupt transactions", round(runtime_rate, 1), "tx/s"),
        baseline=common.Figure("raw compare-and-set UPDATEs", round(raw_rate, 1), "tx/s"),
        ratio=raw_rate / runtime_rate,
        ratio_meaning="raw CAS tx/s / Runtime tx/s: one Runtime decision costs this many bare atomic updates",
        details={
            "runtime_decisions": decisions,
            "runtime_seconds": round(runtime_seconds, 3),
            "raw_updates": raw_updates,
            "raw_seconds": round(raw_seconds, 3),
            "runtime_ms_per_decision": round(runtime_seconds * args.threads / decisions * 1000, 3),
        },
    )


def arguments() -> argparse.ArgumentParser:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000, help="start+interrupt pairs in all (2 decisions each)")
    parser.add_argument("--threads", type=int, default=2, help="threads per side, one conversation / row each")
    parser.add_argument("--rounds", type=int, default=4, help="alternations between the two sides")
    return parser


if __name__ == "__main__":
    raise SystemExit(common.run(main, arguments()))
