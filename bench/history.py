"""The history checker: did a run keep every promise? From the database, the clients' records and the logs.

``check(record)`` takes what a run recorded (``bench.soak`` writes it as ``history.json``: every
Agent's deliveries, starts and receipts, every person's messages, the faults and when they ended,
the log directory) and reads the truth from the database the run used. It checks:

1. **One terminal state, one result.** Every operation is final, settled by exactly one settlement
   event, with exactly one outbox entry whose result is the operation's (``operation_result``).
2. **The trigger that committed first decided it** (the event log): a ``completed`` operation ended
   at its ``ends_at`` and was settled at or after it; an ``interrupted`` one was settled before its
   ``ends_at``, by the trigger its reason names; no other trigger saw it final before its settlement
   event; a receipt ``interrupted`` names an operation interrupted by the Agent.
3. **Every Agent got each of its own results**: at least once and, deduped by ``outbox_id``, exactly
   once with the stored result; never another Agent's; every entry acked. The MCP Agent read each
   of its results with ``tasks/result``. Each operation an Agent started is one it was told of.
4. **No person's message lost**: each message the page was told was stored exists, and every stored
   message reached every WebSocket Agent of its user and was acked.
5. **No focus left behind**: once the faults were over, every operation was settled within the
   sweep interval (+ ``lateness`` seconds) after ``max(ends_at, end of the faults)``.
6. **No unhandled exception in any process log** (Daphne, worker, beat; the embedded ``server``).
   Connection errors while PostgreSQL or Redis were down are the faults themselves: counted by type,
   not violations. SQLite's "database is locked" is the ``sqlite_lock`` fault's only while another
   process held the lock (until the busy timeout after it): elsewhere it is a violation.
7. The run itself: no harness error, no timeout, drained, no process that exited by itself, no
   unexpected answer at any client.

Standalone: ``python -m bench.history RUN_DIR [--database-url URL]`` checks a kept run (``bench.soak
--keep``) against its database (the soak's cluster must be running, or point at a copy). The
verdict is one line; the report is JSON; exit status 1 on any violation.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

FINAL_KINDS = ("operation.completed", "operation.interrupted")
REASON_BY_TRIGGER = {
    "agent_interrupt": "agent_interrupt",
    "return_to_interact": "returned_to_interact",
    "switch_app": "switched_app",
    "close_app": "app_closed",
}
# Exceptions a fault causes by itself (the database or Redis went away under a process): expected.
EXPECTED_EXCEPTIONS = frozenset(
    {
        "psycopg.OperationalError",
        "psycopg.InterfaceError",
        "psycopg.errors.AdminShutdown",
        "psycopg.errors.ConnectionFailure",
        "django.db.utils.OperationalError",
        "django.db.utils.InterfaceError",
        "redis.exceptions.ConnectionError",
        "redis.exceptions.TimeoutError",
        "redis.exceptions.BusyLoadingError",
        "kombu.exceptions.OperationalError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "BrokenPipeError",
    }
)
EXPECTED_EVENTS = re.compile(
    r"Cannot connect to redis|Connection to broker lost|beat: Connection error|connection refused|"
    r"server closed the connection|terminating connection|the database system is (shutting down|starting up)",
    re.IGNORECASE,
)
# SQLite's busy timeout ran out: expected only while another process held the file's write lock
# (the soak's ``sqlite_lock`` fault) or shortly after; anywhere else the server fought itself.
LOCKED = re.compile(r"database is locked|database table is locked", re.IGNORECASE)
SQLITE_BUSY_TIMEOUT = 20.0  # lineup/settings.py: OPTIONS timeout of a SQLite database
LOCK_GRACE = SQLITE_BUSY_TIMEOUT + 5.0  # a write that began waiting during the hold fails at most this later
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Shutdown|Failure|Warning|Interrupt)\b)")
LISTED = 40  # violations listed in full; the rest are counted per check


class Violations:
    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []
        self.by_check: Counter[str] = Counter()

    def add(self, check: str, detail: str) -> None:
        self.by_check[check] += 1
        if len(self.items) < LISTED:
            self.items.append({"check": check, "detail": detail[:600]})


def check(record: dict[str, Any]) -> dict[str, Any]:
    """Check one run's ``record`` against the database Django is connected to; return the report."""
    v = Violations()
    figures: dict[str, Any] = {}
    _check_run(record, v)
    operations, entries = _check_operations(record, v, figures)
    _check_agents(record, operations, entries, v, figures)
    _account(record, operations, entries, v, figures)
    _check_messages(record, v, figures)
    _check_lateness(record, operations, v, figures)
    _check_logs(Path(record["log_dir"]), v, figures, lock_windows=_lock_windows(record))
    figures.update(
        ops=record["ops"],
        ops_done=record["ops_done"],
        faults=len(record["faults"]),
        faults_by_kind=record["faults_by_kind"],
        self_exits=record["self_exits"],
        duration_seconds=record["duration_seconds"],
    )
    seed = record["seed"]
    engine = " --engine sqlite" if record.get("engine") == "sqlite" else ""
    return {
        "ok": not v.by_check,
        "seed": seed,
        "replay": f"python -m bench.soak{engine} --seed {seed} --ops {record['ops']} --cycles {record['cycles']}",
        "violations_by_check": dict(v.by_check),
        "violations": v.items,
        "figures": figures,
    }


def verdict_line(report: dict[str, Any]) -> str:
    f = report["figures"]
    overall = f.get("accounting", {}).get("overall")
    fractions = (
        ", ".join(f"{name} {overall[name]}/{overall['results']}" for name in ACCOUNTED) if overall else "no accounting"
    )
    summary = (
        f"{f['ops_done']}/{f['ops']} ops ({f.get('operations', 0)} operations, {f.get('messages', 0)} messages), "
        f"{f['faults']} faults {json.dumps(f['faults_by_kind'], sort_keys=True)}, lost {f.get('lost', '?')}, "
        f"duplicated {f.get('duplicated', '?')} (raw redeliveries {f.get('redeliveries', '?')}), "
        f"misdelivered {f.get('misdelivered', '?')}, messages lost {f.get('messages_lost', '?')}, "
        f"results: {fractions}, {f['duration_seconds']:.0f} s"
    )
    if report["ok"]:
        return f"soak seed={report['seed']}: PASS - {summary}"
    checks = ", ".join(f"{k} {n}" for k, n in sorted(report["violations_by_check"].items()))
    return f"soak seed={report['seed']}: FAIL ({checks}) - {summary} - replay: {report['replay']}"


# --- the checks ------------------------------------------------------------------------------------


def _check_run(record: dict[str, Any], v: Violations) -> None:
    for error in record["harness_errors"]:
        v.add("harness", error)
    if record["timed_out"]:
        v.add("harness", f"the run hit --max-seconds with {record['ops_done']}/{record['ops']} operations done")
    if not record["drained"]:
        v.add("drain", "results or messages still unacked when the drain timed out")
    for role, count in record["self_exits"].items():
        v.add("process_exit", f"{role} exited by itself {count} time(s) (a supervisor started it again)")
    for agent in record["agents"]:
        for anomaly in agent["anomalies"]:
            v.add("client_anomaly", f"{agent['name']}: {anomaly}")
        for frame in agent["unexpected"]:
            if frame.get("code") != "internal_error":  # a hello or inventory.get while the database was down
                v.add("client_anomaly", f"{agent['name']} got {frame}")
    for person in record["people"]:
        for anomaly in person["anomalies"]:
            v.add("client_anomaly", f"person {person['user_id']}: {anomaly}")


def _check_operations(
    record: dict[str, Any], v: Violations, figures: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    from runtime.clock import isoformat
    from runtime.models import LifecycleEvent, Operation, OutboxEntry
    from runtime.services.operation_views import operation_result

    operations = {str(op.id): op for op in Operation.objects.select_related("tool_call")}
    entries = {str(e.operation_id): e for e in OutboxEntry.objects.all()}
    events: dict[str, list[LifecycleEvent]] = defaultdict(list)
    for event in LifecycleEvent.objects.filter(
        kind__in=[*FINAL_KINDS, "operation.already_final", "tool.receipt"], operation_id__isnull=False
    ).order_by("id"):
        events[str(event.operation_id)].append(event)

    states: Counter[str] = Counter()
    for op_id, op in operations.items():
        states[op.interruption_reason or op.state] += 1
        if op.state not in ("completed", "interrupted"):
            v.add("lost", f"operation {op_id} is still {op.state} (ends_at {isoformat(op.ends_at)})")
            continue
        settlements = [e for e in events[op_id] if e.kind in FINAL_KINDS]
        if len(settlements) != 1:
            v.add("settled_once", f"operation {op_id} has {len(settlements)} settlement events")
            continue
        settled = settlements[0]
        entry = entries.get(op_id)
        if entry is None:
            v.add("lost", f"operation {op_id} is {op.state} without an outbox entry")
        elif entry.payload.get("result") != operation_result(op):
            v.add(
                "result",
                f"outbox entry of {op_id} says {entry.payload.get('result')}, the operation {operation_result(op)}",
            )
        trigger = settled.data.get("trigger")
        if op.state == "completed":
            if op.ended_at != op.ends_at:
                v.add(
                    "first_trigger",
                    f"{op_id} completed at {isoformat(op.ended_at)}, not its ends_at {isoformat(op.ends_at)}",
                )
            if settled.at < op.ends_at:
                v.add("first_trigger", f"{op_id} completed by {trigger} at {isoformat(settled.at)}, before its ends_at")
        else:
            if settled.at >= op.ends_at:
                v.add(
                    "first_trigger",
                    f"{op_id} interrupted ({trigger}) at {isoformat(settled.at)}, at or after its ends_at: the deadline came first",
                )
            if REASON_BY_TRIGGER.get(trigger) != op.interruption_reason:
                v.add("first_trigger", f"{op_id} interrupted with reason {op.interruption_reason} by trigger {trigger}")
            if op.ended_at != settled.at:
                v.add("first_trigger", f"{op_id} ended_at {isoformat(op.ended_at)} is not when it was settled")
        # An interrupt that settled its operation tells its receipt in the settlement's event (0035).
        receipts = [(e.id, e.data["receipt"]) for e in events[op_id] if e.kind in FINAL_KINDS and e.data.get("receipt")]
        receipts += [(e.id, e.data) for e in events[op_id] if e.kind == "tool.receipt"]
        for event_id, receipt in receipts:
            status = receipt.get("status")
            if status == "interrupted" and op.interruption_reason != "agent_interrupt":
                v.add(
                    "first_trigger",
                    f"{op_id}: receipt 'interrupted' but the operation is {op.state}/{op.interruption_reason}",
                )
            if status == "operation_already_final" and event_id < settled.id:
                v.add("first_trigger", f"{op_id}: receipt 'operation_already_final' before its settlement")
        for event in events[op_id]:
            if event.kind == "operation.already_final" and event.id < settled.id:
                v.add(
                    "first_trigger",
                    f"{op_id}: a {event.data.get('trigger')} saw it final before its settlement was logged",
                )
    for op_id in entries.keys() - operations.keys():
        v.add("result", f"outbox entry for unknown operation {op_id}")
    figures["operations"] = len(operations)
    figures["terminal_states"] = dict(states)
    return operations, entries


def _check_agents(
    record: dict[str, Any], operations: dict[str, Any], entries: dict[str, Any], v: Violations, figures: dict[str, Any]
) -> None:
    lost = duplicated = misdelivered = redeliveries = 0
    told: set[str] = set()
    ours = {agent["agent_id"] for agent in record["agents"]}
    for agent in record["agents"]:
        told |= set(agent["starts"].values())
        owned = {
            str(e.id): e
            for e in entries.values()
            if str(e.agent_id) == agent["agent_id"] and e.channel == agent["channel"]
        }
        if agent["channel"] == "mcp":
            for entry in owned.values():
                result = agent["mcp_results"].get(str(entry.operation_id))
                expected = entry.payload["result"]
                if result is None:
                    lost += 1
                    v.add("lost", f"{agent['name']} never read the result of {entry.operation_id}")
                elif any(
                    result.get(k) != expected.get(k)
                    for k in ("state", "operation_id", "ended_at", "interruption_reason")
                ):
                    v.add("result", f"{agent['name']} read {result} for {entry.operation_id}, stored {expected}")
            continue
        first: dict[str, dict[str, Any]] = {}
        by_call: dict[tuple[str, str], set[str]] = defaultdict(set)
        for delivery in agent["deliveries"]:
            first.setdefault(delivery["outbox_id"], delivery)
            by_call[(delivery["conversation_id"], delivery["source_tool_call_id"])].add(delivery["outbox_id"])
        redeliveries += len(agent["deliveries"]) - len(first)
        for outbox_id in owned.keys() - first.keys():
            lost += 1
            v.add("lost", f"{agent['name']} never received its result {outbox_id} ({owned[outbox_id].operation_id})")
        for outbox_id in first.keys() - owned.keys():
            misdelivered += 1
            v.add("misdelivered", f"{agent['name']} received {outbox_id}, which is not its own")
        for outbox_id in first.keys() & owned.keys():
            entry = owned[outbox_id]
            if (first[outbox_id]["source_tool_call_id"], first[outbox_id]["result"]) != (
                entry.payload["source_tool_call_id"],
                entry.payload["result"],
            ):
                v.add("result", f"{agent['name']} received {first[outbox_id]} for {outbox_id}, stored {entry.payload}")
        for call, outbox_ids in by_call.items():
            if len(outbox_ids) > 1:
                duplicated += 1
                v.add("duplicated", f"{agent['name']} received {len(outbox_ids)} different results for call {call}")
    for op_id, op in operations.items():
        if str(op.tool_call.agent_id) in ours and op_id not in told:
            v.add("untold", f"operation {op_id} ({op.source_tool_call_id}) was started but its Agent was never told")
        entry = entries.get(op_id)
        if entry is not None and entry.acked_at is None:
            v.add("unacked", f"outbox entry {entry.id} of {op_id} was never acked")
    for op_id in told - operations.keys():
        v.add("lost", f"an Agent was told of operation {op_id}, which is not in the database")
    figures.update(lost=lost, duplicated=duplicated, misdelivered=misdelivered, redeliveries=redeliveries)
    figures["agent_receipts"] = sum(len(a["receipts"]) for a in record["agents"])
    figures["duplicate_starts_sent"] = sum(a["duplicate_starts"] for a in record["agents"])
    figures["transient_client_errors"] = dict(
        sum((Counter(a["transient_errors"]) for a in record["agents"]), Counter())
    )
    figures["agent_connection_drops"] = sum(a["drops"] for a in record["agents"])
    for agent in record["agents"]:
        for receipt in agent["receipts"]:
            body = receipt["receipt"] or {}
            if body.get("status") == "interrupted":
                op = operations.get(body.get("operation_id"))
                if op is None or op.interruption_reason != "agent_interrupt":
                    v.add(
                        "first_trigger",
                        f"{agent['name']}'s receipt {receipt} names an operation not interrupted by an Agent",
                    )


ACCOUNTED = ("lost", "duplicated", "unexpected", "recovered")


def _account(
    record: dict[str, Any], operations: dict[str, Any], entries: dict[str, Any], v: Violations, figures: dict[str, Any]
) -> None:
    """Jepsen-style accounting of the results, per Agent and overall, after the final drain.

    Of the results each Agent was owed (the outbox entries of the operations its calls started):
    **lost** never reached it (never read, for the MCP Agent); **duplicated** calls answered by more
    than one different result (raw redeliveries of the same ``outbox_id`` are the protocol's at-least-
    once and are not counted); **unexpected** results it received for a call it never made, or that
    are not its own; **recovered** results first delivered only after a fault that came after their
    settlement (a dead server, worker, Redis or database, a dropped connection): the ones the recovery
    paths carried. Each also as a fraction of the results owed. Any lost or unexpected fails the run.
    """
    per_agent: dict[str, dict[str, Any]] = {}
    fault_times = sorted(f["at"] for f in record["faults"])
    for agent in record["agents"]:
        owned = {
            str(e.id): e
            for e in entries.values()
            if str(e.agent_id) == agent["agent_id"] and e.channel == agent["channel"]
        }
        counts = Counter({name: 0 for name in ACCOUNTED})
        if agent["channel"] == "mcp":
            counts["lost"] = sum(1 for e in owned.values() if str(e.operation_id) not in agent["mcp_results"])
            counts["unexpected"] = sum(
                1 for op_id in agent["mcp_results"] if op_id not in {str(e.operation_id) for e in owned.values()}
            )
        else:
            calls = {key.split(" ", 1)[1] if " " in key else key for key in agent["starts"]}
            first: dict[str, dict[str, Any]] = {}
            outboxes_by_call: dict[str, set[str]] = defaultdict(set)
            for delivery in agent["deliveries"]:
                first.setdefault(delivery["outbox_id"], delivery)
                outboxes_by_call[delivery["source_tool_call_id"]].add(delivery["outbox_id"])
            counts["lost"] = len(owned.keys() - first.keys())
            counts["duplicated"] = sum(1 for ids in outboxes_by_call.values() if len(ids) > 1)
            counts["unexpected"] = sum(
                1 for oid, d in first.items() if oid not in owned or d["source_tool_call_id"] not in calls
            )
            for oid in first.keys() & owned.keys():
                received = first[oid].get("received_at")
                op = operations.get(str(owned[oid].operation_id))
                if received is None or op is None or op.settled_at is None:
                    continue
                settled = op.settled_at.timestamp()
                if any(settled <= at <= received for at in fault_times):
                    counts["recovered"] += 1
        total = len(owned)
        per_agent[agent["name"]] = {
            "results": total,
            **counts,
            **{f"{name}_fraction": round(counts[name] / total, 4) if total else 0.0 for name in ACCOUNTED},
        }
        if counts["unexpected"]:
            v.add("unexpected", f"{agent['name']} received {counts['unexpected']} results for calls it never made")
    overall = Counter()
    for row in per_agent.values():
        overall.update({k: row[k] for k in ("results", *ACCOUNTED)})
    total = overall["results"]
    figures["accounting"] = {
        "overall": {
            "results": total,
            **{name: overall[name] for name in ACCOUNTED},
            **{f"{name}_fraction": round(overall[name] / total, 4) if total else 0.0 for name in ACCOUNTED},
        },
        "per_agent": per_agent,
    }


def _check_messages(record: dict[str, Any], v: Violations, figures: dict[str, Any]) -> None:
    from interact.models import AuthorKind, Message, MessageDelivery

    stored = {str(m.id): m for m in Message.objects.filter(author_kind=AuthorKind.HUMAN)}
    socket_agents_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for agent in record["agents"]:
        if agent["channel"] == "agent_socket":
            socket_agents_of[agent["user_id"]].append(agent)
    lost = 0
    # Sent again after a drop with the same client_message_id: stored once each, never doubled.
    for text, count in Counter(m.text for m in stored.values()).items():
        if count > 1:
            v.add("message_doubled", f"{count} stored messages read {text!r}")
    in_doubt: Counter[str] = Counter()  # not confirmed to the page: no answer, or internal_error
    for person in record["people"]:
        for message in person["messages"]:
            if message["message_id"] is None:
                stored_anyway = any(m.text == message["text"] for m in stored.values())
                in_doubt[f"{message.get('outcome', 'unanswered')}, {'stored' if stored_anyway else 'not stored'}"] += 1
                continue
            found = stored.get(message["message_id"])
            if (
                found is None
                or found.text != message["text"]
                or str(found.conversation_id) != message["conversation_id"]
            ):
                lost += 1
                v.add("message_lost", f"message {message} was confirmed to the page but is not stored as sent")
    acked = {
        (str(d.message_id), str(d.agent_id))
        for d in MessageDelivery.objects.filter(message_id__in=list(stored), acked_at__isnull=False)
    }
    for message_id, message in stored.items():
        for agent in socket_agents_of[message.author_user_id]:
            if message_id not in agent["user_messages"]:
                lost += 1
                v.add("message_lost", f"{agent['name']} never received message {message_id}")
            elif (message_id, agent["agent_id"]) not in acked:
                v.add("unacked", f"{agent['name']}'s delivery of message {message_id} was never acked")
    figures.update(messages=len(stored), messages_lost=lost, messages_in_doubt=dict(in_doubt))


def _check_lateness(record: dict[str, Any], operations: dict[str, Any], v: Violations, figures: dict[str, Any]) -> None:
    from django.utils import timezone

    if record["faults_ended_at"] is None:
        return
    faults_ended = datetime.fromtimestamp(record["faults_ended_at"], tz=timezone.get_current_timezone())
    allowance = timedelta(seconds=record["sweep_seconds"] + record["lateness_seconds"])
    worst = 0.0
    for op_id, op in operations.items():
        if op.settled_at is None:
            continue  # reported as lost
        due = max(op.ends_at, faults_ended)
        if op.settled_at > faults_ended and op.state == "completed":
            worst = max(worst, (op.settled_at - due).total_seconds())
        if op.settled_at > due + allowance:
            v.add(
                "late",
                f"{op_id} settled {(op.settled_at - due).total_seconds():.1f}s after max(ends_at, end of faults)",
            )
    figures["max_lateness_after_faults_seconds"] = round(worst, 3)


def _lock_windows(record: dict[str, Any]) -> list[tuple[float, float]]:
    """When a "database is locked" is the ``sqlite_lock`` fault's: from the hold's start until the
    busy timeout of a write that began waiting at its end has run out (``time.time()`` seconds)."""
    return [
        (f["at"], f["at"] + f["pause"] + LOCK_GRACE) for f in record.get("faults", []) if f["kind"] == "sqlite_lock"
    ]


def _check_logs(
    log_dir: Path, v: Violations, figures: dict[str, Any], lock_windows: Sequence[tuple[float, float]] = ()
) -> None:
    expected: Counter[str] = Counter()
    for path in sorted(log_dir.glob("*.log")):
        if not path.name.startswith(("daphne", "worker", "beat", "server")):
            continue  # redis' and PostgreSQL's own logs narrate the restarts (the lock holder's its hold)
        for kind, text, when, locked in _log_problems_at(path.read_text(errors="replace")):
            if locked:
                # SQLite's OperationalError is expected for a restart-free reason only: the lock fault.
                if when is not None and any(start <= when <= end for start, end in lock_windows):
                    expected["database is locked"] += 1
                else:
                    at = "no timestamp" if when is None else f"at {when:.1f}, outside every sqlite_lock fault"
                    v.add("log_exception", f"{path.name}: database is locked ({at}): {text}")
                continue
            if kind in EXPECTED_EXCEPTIONS or EXPECTED_EVENTS.search(text):
                expected[kind or "connection message"] += 1
            else:
                v.add("log_exception", f"{path.name}: {kind or 'error'}: {text}")
    figures["expected_log_errors"] = dict(expected)


def _log_problems(text: str) -> list[tuple[str, str]]:
    """Every error in a log: (exception type or "", the line), from JSON lines and raw tracebacks."""
    return [(kind, line) for kind, line, _, _ in _log_problems_at(text)]


def _log_problems_at(text: str) -> list[tuple[str, str, float | None, bool]]:
    """``_log_problems`` with when (a JSON line's timestamp, as ``time.time()``; None for a raw
    traceback) and whether it is SQLite's "database is locked"."""
    problems = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("{"):
            try:
                entry = json.loads(line)
            except ValueError:
                entry = None
            if isinstance(entry, dict):
                trace = entry.get("exception") or ""
                level = entry.get("level", "")
                error_text = str(entry.get("error") or "")
                when = _timestamp(entry.get("timestamp"))
                locked = bool(LOCKED.search(trace) or LOCKED.search(error_text))
                if trace:
                    problems.append((_last_exception(trace.splitlines()), str(entry.get("event"))[:300], when, locked))
                elif level in ("error", "critical"):
                    kind = _last_exception([error_text]) if error_text else ""
                    problems.append((kind, f"{entry.get('event')} {error_text}"[:300], when, locked))
                index += 1
                continue
        if line.startswith("Traceback (most recent call last)"):
            block = [line]
            index += 1
            while index < len(lines) and (lines[index].startswith((" ", "\t")) or not lines[index].strip()):
                block.append(lines[index])
                index += 1
            if index < len(lines):
                block.append(lines[index])
            problems.append((_last_exception(block), block[-1][:300], None, bool(LOCKED.search("\n".join(block)))))
        index += 1
    return problems


def _timestamp(value: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp() if value else None
    except ValueError:
        return None


def _last_exception(lines: list[str]) -> str:
    for line in reversed(lines):
        match = EXCEPTION_LINE.match(line.strip())
        if match:
            return match.group(1)
    return ""


# --- one crash-point case (tests/reliability/crashpoints.py) ---------------------------------------


def _instance_problems(instance: Any, session: Any, has_snapshot: bool, operation: Any) -> list[str]:
    """An instance of any app but Pomodoro (the instance without a deadline, issue 35): its
    sub-session (and its snapshot row, when the app keeps a state) written with it, or none of
    them; closed, its sub-session ended; open and running nothing, its sub-session not ended."""
    from runtime.manifests import get_manifest
    from runtime.transitions import LifecycleState

    if instance.is_system:  # Interact: no sub-session, no snapshot
        return []
    iid = str(instance.id)
    manifest = get_manifest(instance.app_id)
    needs_snapshot = manifest is not None and manifest.instance_state is not None
    if session is None or (needs_snapshot and not has_snapshot):
        return [f"half_written: {instance.app_id} instance {iid} session={session is not None} snapshot={has_snapshot}"]
    if instance.lifecycle_state == LifecycleState.CLOSED and session.ended_at is None:
        return [f"foreground: closed {instance.app_id} instance {iid} has a sub-session not ended"]
    if operation is None and instance.lifecycle_state != LifecycleState.CLOSED and session.ended_at is not None:
        return [f"foreground: open {instance.app_id} instance {iid} has an ended sub-session"]
    return []


def _snapshot_problems(instances: Sequence[Any]) -> list[str]:
    """Each instance's snapshot revision is reached one ``snapshot.saved`` event at a time, each
    revision saved once: nothing written twice, nothing written without its audit event. An
    operation's start writes its app's initial state as revision 1 in its own statement (its
    ``operation.started`` event), so an instance with an operation may start there."""
    from runtime.models import InstanceSnapshot, LifecycleEvent, Operation

    problems = []
    ids = [i.id for i in instances]
    saved: dict[str, list[int]] = defaultdict(list)
    for instance_id, data in LifecycleEvent.objects.filter(kind="snapshot.saved", instance_id__in=ids).values_list(
        "instance_id", "data"
    ):
        saved[str(instance_id)].append(data.get("revision"))
    started = {str(i) for i in Operation.objects.filter(instance_id__in=ids).values_list("instance_id", flat=True)}
    for snapshot in InstanceSnapshot.objects.filter(instance__in=instances):
        iid = str(snapshot.instance_id)
        revisions = sorted(saved[iid])
        base = snapshot.revision - len(revisions)
        if revisions != list(range(base + 1, snapshot.revision + 1)) or base not in (
            (0, 1) if iid in started else (0,)
        ):
            problems.append(
                f"snapshot: instance {iid} is at revision {snapshot.revision}, its snapshot.saved events name {revisions}"
            )
    return problems


def _receipt_problems(calls: Any) -> list[str]:
    """A stored receipt that names an instance and a revision names one that exists, at a revision
    it reached (an instance tool's receipt is written with the state it reports)."""
    from runtime.models import InstanceSnapshot

    problems = []
    for call in calls:
        receipt = call.receipt if isinstance(call.receipt, dict) else {}
        if "instance_id" not in receipt or not isinstance(receipt.get("revision"), int):
            continue
        snapshot = InstanceSnapshot.objects.filter(instance_id=receipt["instance_id"]).first()
        if snapshot is None or snapshot.revision < receipt["revision"]:
            problems.append(
                f"half_written: {call.source_tool_call_id}'s receipt names {receipt['instance_id']} at revision "
                f"{receipt['revision']}, stored {snapshot and snapshot.revision}"
            )
    return problems


def check_case(
    *,
    conversation_ids: list[str],
    agent_deliveries: list[dict[str, Any]],
    answers: dict[str, list[dict[str, Any]]],
    retries: dict[str, dict[str, Any]],
    delivered_after_ack: list[str],
    page_messages: Sequence[dict[str, Any]] = (),
    agent_messages: Sequence[str] = (),
) -> list[str]:
    """The invariants of one crash-point case, after its recovery and drain; the violations found.

    From the database, for the case's conversations: every operation final once (one settlement
    event, exactly one outbox entry, whose result is the operation's and its start call's),
    ``completed`` ones ended at ``ends_at``; no half-written rows (a Pomodoro instance without its
    sub-session, snapshot or operation, a start call without its operation, an outbox entry of an
    operation still focusing); the foreground consistent (exactly one instance in front, open;
    a final operation's instance closed and its sub-session ended). From the Agent: each result
    received, with the stored payload, one outbox entry per call, nothing that is not its own;
    every answer to a call names the stored operation (or receipt), the retries are answered from
    the stored rows (``replayed``), and nothing acked came again on a new connection.
    """
    from runtime.models import (
        AppInstance,
        AppSession,
        InstanceSnapshot,
        LifecycleEvent,
        Operation,
        OutboxEntry,
        ToolCall,
    )
    from runtime.services.operation_views import operation_result
    from runtime.transitions import LifecycleState, is_running

    problems: list[str] = []
    operations = {str(op.id): op for op in Operation.objects.filter(conversation_id__in=conversation_ids)}
    entries: dict[str, list[Any]] = defaultdict(list)
    for entry in OutboxEntry.objects.filter(conversation_id__in=conversation_ids):
        entries[str(entry.operation_id)].append(entry)
    settlements = Counter(
        str(op_id)
        for op_id in LifecycleEvent.objects.filter(kind__in=FINAL_KINDS, operation_id__in=list(operations)).values_list(
            "operation_id", flat=True
        )
    )
    calls = {c.source_tool_call_id: c for c in ToolCall.objects.filter(conversation_id__in=conversation_ids)}
    for op_id, op in operations.items():
        if op.state not in ("completed", "interrupted"):
            problems.append(f"lost: operation {op_id} is still {op.state}")
            continue
        if settlements[op_id] != 1:
            problems.append(f"settled_once: operation {op_id} has {settlements[op_id]} settlement events")
        if len(entries[op_id]) != 1:
            problems.append(f"outbox: operation {op_id} has {len(entries[op_id])} outbox entries")
        expected = operation_result(op)
        for entry in entries[op_id]:
            if entry.payload.get("result") != expected:
                problems.append(f"result: outbox of {op_id} says {entry.payload.get('result')}, operation {expected}")
        start = calls.get(op.source_tool_call_id)
        if start is None or start.result != expected or start.status != "succeeded":
            problems.append(f"half_written: the start call of {op_id} is {start and (start.status, start.result)}")
        if op.state == "completed" and op.ended_at != op.ends_at:
            problems.append(f"ended_at: {op_id} completed at {op.ended_at}, not its ends_at {op.ends_at}")
        if op.state == "interrupted" and not op.interruption_reason:
            problems.append(f"half_written: {op_id} interrupted without a reason")
    for op_id, rows in entries.items():
        if op_id not in operations:
            problems.append(f"half_written: outbox entries {[str(e.id) for e in rows]} of no operation here")
        if any(e.acked_at is None for e in rows):
            problems.append(f"unacked: the outbox entry of {op_id} was never acked")
    for call in calls.values():
        if (
            call.tool == "pomodoro.start"
            and call.status != "rejected"
            and not Operation.objects.filter(tool_call=call).exists()
        ):
            problems.append(f"half_written: start call {call.source_tool_call_id} has no operation")
    instances = list(AppInstance.objects.filter(conversation_id__in=conversation_ids))
    sessions = {str(s.instance_id): s for s in AppSession.objects.filter(conversation_id__in=conversation_ids)}
    snapshots = set(
        str(i) for i in InstanceSnapshot.objects.filter(instance__in=instances).values_list("instance_id", flat=True)
    )
    by_instance = {str(op.instance_id): op for op in operations.values()}
    for instance in instances:
        iid = str(instance.id)
        if instance.app_id == "pomodoro":
            if iid not in sessions or iid not in by_instance or iid not in snapshots:
                problems.append(
                    f"half_written: pomodoro instance {iid} session={iid in sessions} "
                    f"operation={iid in by_instance} snapshot={iid in snapshots}"
                )
                continue
            if not is_running(by_instance[iid].state) and (
                instance.lifecycle_state != LifecycleState.CLOSED or sessions[iid].ended_at is None
            ):
                problems.append(
                    f"foreground: {iid} of a final operation is {instance.lifecycle_state}, "
                    f"its sub-session ended_at {sessions[iid].ended_at}"
                )
        else:
            problems += _instance_problems(instance, sessions.get(iid), iid in snapshots, by_instance.get(iid))
    problems += _snapshot_problems(instances)
    for conversation_id in conversation_ids:
        front = [
            i
            for i in instances
            if str(i.conversation_id) == conversation_id and i.lifecycle_state == LifecycleState.FOREGROUND
        ]
        if len(front) != 1 or front[0].closed_at is not None:
            problems.append(f"foreground: conversation {conversation_id} has {len(front)} instances in front")
    # What the Agent saw.
    own = {str(e.id): e for rows in entries.values() for e in rows}
    first: dict[str, dict[str, Any]] = {}
    outboxes_by_call: dict[str, set[str]] = defaultdict(set)
    for delivery in agent_deliveries:
        first.setdefault(delivery["outbox_id"], delivery)
        outboxes_by_call[delivery["source_tool_call_id"]].add(delivery["outbox_id"])
    for outbox_id in own.keys() - first.keys():
        problems.append(f"lost: the Agent never received outbox entry {outbox_id}")
    for outbox_id in first.keys() - own.keys():
        problems.append(f"unexpected: the Agent received {outbox_id}, which is not one of its results")
    for outbox_id in first.keys() & own.keys():
        if first[outbox_id]["result"] != own[outbox_id].payload["result"]:
            problems.append(f"result: the Agent got {first[outbox_id]['result']} for {outbox_id}")
    for call_id, outbox_ids in outboxes_by_call.items():
        if len(outbox_ids) > 1:
            problems.append(f"duplicated: call {call_id} got {len(outbox_ids)} different results")
    for outbox_id in delivered_after_ack:
        problems.append(f"after_ack: {outbox_id} was delivered again on a new connection after its ack")
    for call_id, seen in answers.items():
        call = calls.get(call_id)
        if call is None:
            problems.append(f"lost: call {call_id} was answered {seen[0]} but is not stored")
            continue
        for answer in seen:
            if answer["type"] == "tool.accepted":
                op = Operation.objects.filter(tool_call=call).values_list("id", flat=True).first()
                if answer["operation_id"] != str(op):
                    problems.append(f"answer: {call_id} answered operation {answer['operation_id']}, stored {op}")
            elif answer["type"] == "tool.receipt":
                if answer["receipt"] != call.receipt:
                    problems.append(f"answer: {call_id} answered {answer['receipt']}, stored {call.receipt}")
            else:
                problems.append(f"answer: {call_id} answered {answer}")
    for call_id, answer in retries.items():
        if not answer.get("replayed"):
            problems.append(f"retry: the retry of {call_id} was not answered from the stored rows: {answer}")
    problems += _receipt_problems(calls.values())
    # The person's messages: each one the page was told is stored, each stored one reached the Agent.
    from interact.models import AuthorKind, Message, MessageDelivery

    stored = {
        str(m.id): m for m in Message.objects.filter(conversation_id__in=conversation_ids, author_kind=AuthorKind.HUMAN)
    }
    for message in page_messages:
        if message["message_id"] is not None and message["message_id"] not in stored:
            problems.append(f"message_lost: the page was told {message['message_id']} was stored; it is not")
    if len(stored) > len(page_messages):
        problems.append(f"message_duplicated: {len(stored)} messages stored for {len(page_messages)} sent")
    for message_id in stored:
        if message_id not in agent_messages:
            problems.append(f"message_lost: stored message {message_id} never reached the Agent")
    if MessageDelivery.objects.filter(message_id__in=list(stored), acked_at__isnull=True).exists():
        problems.append("unacked: a stored message's delivery to the Agent was never acked")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=Path, help="a soak's directory (history.json, logs/)")
    parser.add_argument("--database-url", help="the run's database (default: the one history.json names)")
    args = parser.parse_args(argv)
    record = json.loads((args.run_dir / "history.json").read_text())
    os.environ["DATABASE_URL"] = args.database_url or record["database_url"]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
    os.environ.setdefault("LINEUP_SECRET_KEY", "lineup-bench-only-not-a-secret-0123456789abcdefghijklmnopqrstuv")
    os.environ.setdefault("LINEUP_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    report = check(record)
    print(verdict_line(report))
    print(json.dumps(report, default=str))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
