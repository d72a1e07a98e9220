"""Structured logs and the event log (issue 3, item 8): each lifecycle, tool, rejection and
recovery decision is one ``LifecycleEvent`` row and one JSON log line carrying its ids.

The log lines are captured for real: a separate Python process runs the scenario through the
Tool Router and services against this test's database (PostgreSQL, or SQLite's file) with the project's LOGGING
(``structlog.stdlib.ProcessorFormatter`` rendering JSON), and the test parses what it wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from runtime.clock import isoformat
from runtime.models import LifecycleEvent, OutboxEntry, ToolCall
from runtime.services.recovery import recover_runtime
from runtime.tool_calls import Accepted
from tests.support.factories import AgentDriver, at
from tests.support.processes import subprocess_database_url

pytestmark = [pytest.mark.django_db(transaction=True)]

ID_FIELDS = ("conversation_id", "instance_id", "app_session_id", "operation_id", "source_tool_call_id")
SUBPROCESS_TIMEOUT_SECONDS = 120

# Imports and one Agent for a fresh user; ``out`` collects the ids the scenario produced and is
# printed as the last line of stdout (the log lines go to the logging handler's stream).
PRELUDE = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import return_to_interact
from runtime.services.recovery import recover_runtime
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import Caller
from tests.support.factories import AgentDriver, at

user = get_user_model().objects.create_user(username=sys.argv[1])
conversation = conversation_get_or_create_default(user=user)
agent = AgentDriver(caller=Caller(label="agent:events", user_id=user.id), conversation=conversation)
out = {"conversation_id": str(conversation.id)}

def accepted(outcome):
    assert isinstance(outcome, Accepted), outcome
    return {"operation_id": str(outcome.operation_id), "instance_id": str(outcome.instance_id),
            "app_session_id": str(outcome.app_session_id), "source_tool_call_id": outcome.source_tool_call_id}
"""

EVERY_KIND_OF_DECISION = """
out["interrupted"] = accepted(agent.start(60, "draft", now=at(0)))
busy = agent.start(60, now=at(1))
assert isinstance(busy, Rejected) and busy.code == "active_focusing_operation", busy
out["busy_call_id"] = busy.source_tool_call_id
receipt = agent.interrupt(now=at(10))
assert isinstance(receipt, Receipt) and receipt.receipt["status"] == "interrupted", receipt
out["interrupt_call_id"] = receipt.source_tool_call_id
out["completed"] = accepted(agent.start(60, now=at(20)))
out["recovery"] = recover_runtime(now=at(200)).counts()
stale = agent.call("pomodoro.start", {"duration_seconds": 60}, now=at(210), revision="stale-revision")
assert isinstance(stale, Rejected) and stale.code == "stale_inventory", stale
out["stale_call_id"] = stale.source_tool_call_id
out["returned"] = accepted(agent.start(60, now=at(300)))
return_to_interact(conversation_id=conversation.id, now=at(310))
print(json.dumps(out))
"""

# The start's transaction fails after its decision was recorded: a trigger refuses the
# workspace UPDATE that follows ``operation.started`` (bring_to_foreground), so the whole start
# rolls back. Scoped to this conversation and dropped again at once.
ROLLED_BACK_START = """
out["before"] = accepted(agent.start(60, now=at(0)))
agent.interrupt(now=at(5))
with connection.cursor() as cursor:
    cursor.execute(
        "CREATE FUNCTION lineup_test_refuse_workspace() RETURNS trigger AS $$ BEGIN "
        "RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql"
    )
    cursor.execute(
        "CREATE TRIGGER lineup_test_refuse_workspace BEFORE UPDATE ON runtime_workspace FOR EACH ROW "
        f"WHEN (NEW.conversation_id = '{conversation.id}'::uuid) EXECUTE FUNCTION lineup_test_refuse_workspace()"
    )
try:
    out["rolled_back_call_id"] = "start-that-rolls-back"
    agent.start(60, now=at(10), call_id=out["rolled_back_call_id"])
    out["error"] = None
except DatabaseError as error:
    out["error"] = str(error)
finally:
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER lineup_test_refuse_workspace ON runtime_workspace")
        cursor.execute("DROP FUNCTION lineup_test_refuse_workspace()")
out["after"] = accepted(agent.start(60, now=at(20)))
print(json.dumps(out))
"""


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # Passwords are not under test here; the default PBKDF2 costs ~0.6 s per user.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def run_scenario(body: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run ``body`` in a new process with the project's LOGGING; return its ``out`` and its log lines.

    Every line the process logged must be one JSON object (no other output shares the stream).
    """
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "lineup.settings",
        "DATABASE_URL": subprocess_database_url(sqlite=True),
        "LINEUP_SCHEDULER": "none",  # the scenario drives the clock itself
        "LINEUP_LOG_LEVEL": "DEBUG",
        "LINEUP_LOG_FORMAT": "json",
    }
    proc = subprocess.run(
        [sys.executable, "-c", PRELUDE + body, f"events-{uuid.uuid4().hex[:12]}"],
        cwd=Path(settings.BASE_DIR),
        env=env,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_SECONDS,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    stdout_lines = proc.stdout.strip().splitlines()
    out = json.loads(stdout_lines[-1])
    # Where the handler writes (stdout or stderr) is configuration; either way a line is JSON.
    log_text = proc.stderr + "\n".join(stdout_lines[:-1])
    lines = []
    for raw in log_text.splitlines():
        if raw.strip():
            try:
                lines.append(json.loads(raw))
            except json.JSONDecodeError:
                pytest.fail(f"a log line is not JSON: {raw!r}")
    return out, lines


def runtime_lines(lines: list[dict[str, Any]], conversation_id: str | None = None) -> list[dict[str, Any]]:
    picked = [line for line in lines if line.get("logger") == "lineup.runtime"]
    if conversation_id is not None:
        picked = [line for line in picked if line.get("conversation_id") in (None, conversation_id)]
    return picked


def one(lines: list[dict[str, Any]], kind: str, **match: Any) -> dict[str, Any]:
    found = [line for line in lines if line["event"] == kind and all(line.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (kind, match, found)
    return found[0]


def row_ids(event: LifecycleEvent) -> dict[str, str]:
    return {field: str(getattr(event, field)) for field in ID_FIELDS if getattr(event, field)}


def line_ids(line: dict[str, Any]) -> dict[str, str]:
    return {field: line[field] for field in ID_FIELDS if line.get(field)}


@pytest.mark.spec("R-2.2.3", "R-3.6", "R-3.12", "R-4.4.1", "R-4.2.4")
def test_every_decision_is_one_json_log_line_with_its_ids():
    """Starts, the rejection of a second start, the Agent's interrupt, recovery, a stale call and a
    return to Interact each leave exactly one JSON line per event-log row, in commit order, with
    the same ids and data."""
    before = LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    out, lines = run_scenario(EVERY_KIND_OF_DECISION)
    logged = runtime_lines(lines)
    rows = list(LifecycleEvent.objects.filter(id__gt=before).order_by("id"))

    assert [line["event"] for line in logged] == [row.kind for row in rows]
    for line, row in zip(logged, rows, strict=True):
        assert line_ids(line) == row_ids(row), row.kind
        assert {k: line.get(k) for k in row.data} == row.data, row.kind
        assert line["level"] in {"debug", "info", "warning"} and line["timestamp"].endswith("Z")

    conversation_id = out["conversation_id"]
    for name in ("interrupted", "completed", "returned"):
        started = one(logged, "operation.started", operation_id=out[name]["operation_id"])
        assert line_ids(started) == {"conversation_id": conversation_id, **out[name]}
        assert started["duration_seconds"] == 60 and started["caller"] == "agent:events"

    busy = one(logged, "tool.rejected", source_tool_call_id=out["busy_call_id"])
    assert busy["code"] == "active_focusing_operation" and busy["level"] == "warning"
    assert busy["conversation_id"] == conversation_id
    assert busy["operation_id"] == out["interrupted"]["operation_id"]  # the focus it collided with
    stale = one(logged, "tool.rejected", source_tool_call_id=out["stale_call_id"])
    assert stale["code"] == "stale_inventory" and stale["tool"] == "pomodoro.start"
    # A rejected start created nothing, so nothing was started for it.
    rejected_ids = {out["busy_call_id"], out["stale_call_id"]}
    assert [line["event"] for line in logged if line.get("source_tool_call_id") in rejected_ids] == [
        "tool.rejected"
    ] * 2

    # The interrupt settled its focus: its receipt is told in the settlement's one line (decision 0035).
    assert not [line for line in logged if line["event"] == "tool.receipt"]
    receipt = one(logged, "operation.interrupted", operation_id=out["interrupted"]["operation_id"])["receipt"]
    assert receipt["status"] == "interrupted" and receipt["source_tool_call_id"] == out["interrupt_call_id"]
    # Each settlement's line says its trigger and path as its metrics' labels do (operations § 7).
    for name, reason, trigger, path in (
        ("interrupted", "agent_interrupt", "agent_interrupt", "interrupt"),
        ("returned", "returned_to_interact", "return_to_interact", "lifecycle"),
    ):
        line = one(logged, "operation.interrupted", operation_id=out[name]["operation_id"])
        assert line_ids(line) == {"conversation_id": conversation_id, **out[name]}
        assert (line["interruption_reason"], line["trigger"], line["path"]) == (reason, trigger, path)

    completed = out["completed"]
    line = one(logged, "operation.completed", operation_id=completed["operation_id"])
    assert line_ids(line) == {"conversation_id": conversation_id, **completed}
    assert (line["trigger"], line["ended_at"]) == ("deadline", isoformat(at(80)))  # completed at ends_at
    assert line["path"] == "recovery"  # the scenario's recover_runtime settled it
    # One line per settlement: what it did is in its data, not in lines of its own (decision 0035).
    for kind in ("outbox.written", "instance.closed", "app_session.ended"):
        assert not [line for line in logged if line["event"] == kind], kind
    for name in ("interrupted", "completed", "returned"):
        [settled] = [
            line
            for line in logged
            if line["event"] in ("operation.completed", "operation.interrupted")
            and line["operation_id"] == out[name]["operation_id"]
        ]
        assert OutboxEntry.objects.get(pk=settled["outbox_id"]).operation_id == uuid.UUID(out[name]["operation_id"])
        assert settled["closed"]["app_id"] == "pomodoro"
        assert settled["app_session_ended"] == out[name]["app_session_id"]
    one(logged, "lifecycle.return_to_interact", instance_id=out["returned"]["instance_id"])

    recovery = one(logged, "recovery.ran")
    assert {k: recovery[k] for k in out["recovery"]} == out["recovery"]
    assert out["recovery"] == {
        "dry_run": False,
        "due": 1,
        "settled": 1,
        "failed": 0,
        "flagged": 0,
        "resumed": 0,
        "unacked_outbox": 2,
    }


@pytest.mark.spec("R-3.12", "R-2.2.5")
@pytest.mark.postgres(reason="the refusing trigger is PL/pgSQL")
def test_a_start_that_rolled_back_leaves_no_log_line_and_no_event():
    """When a start's transaction fails after its decision was recorded, neither the log nor the
    event log reports it: lines leave only on commit. The next start is logged as usual."""
    before = LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    out, lines = run_scenario(ROLLED_BACK_START)
    assert "injected failure" in (out["error"] or "")  # the start really failed, inside the database
    call_id = out["rolled_back_call_id"]
    logged = runtime_lines(lines)

    assert [line for line in logged if line.get("source_tool_call_id") == call_id] == []
    assert not LifecycleEvent.objects.filter(source_tool_call_id=call_id).exists()
    assert not ToolCall.objects.filter(source_tool_call_id=call_id).exists()
    started = [line["operation_id"] for line in logged if line["event"] == "operation.started"]
    assert started == [out["before"]["operation_id"], out["after"]["operation_id"]]
    rows = LifecycleEvent.objects.filter(id__gt=before).order_by("id")
    assert [line["event"] for line in logged] == [row.kind for row in rows]


def _kinds_with_ids(conversation_id: uuid.UUID) -> list[tuple[str, dict[str, str]]]:
    events = LifecycleEvent.objects.filter(conversation_id=conversation_id).order_by("id")
    return [(event.kind, row_ids(event)) for event in events]


def _position(events: list[tuple[str, dict[str, str]]], kind: str, **ids: object) -> int:
    wanted = {k: str(v) for k, v in ids.items()}
    found = [i for i, (k, have) in enumerate(events) if k == kind and wanted.items() <= have.items()]
    assert len(found) >= 1, (kind, wanted)
    return found[0]


@pytest.mark.django_db  # rows only, in-process: no other process needs to see them
@pytest.mark.spec("R-4.2.4", "R-4.2.8", "R-3.2")
@pytest.mark.parametrize("ending", ["deadline", "agent_interrupt"])
def test_settlement_events_follow_the_order_of_r_4_2_4(agent: AgentDriver, ending: str):
    """The event log records the start before its end, and the end as ONE row (decision 0035) whose
    data names, in the order of R-4.2.4, the outbox entry, the instance closed, the sub-session
    ended and Interact back in the foreground (and, for an interrupt, the receipt)."""
    outcome = agent.start(60, now=at(0))
    assert isinstance(outcome, Accepted)
    if ending == "deadline":
        assert recover_runtime(now=at(61)).counts()["settled"] == 1
        end_kind = "operation.completed"
    else:
        agent.interrupt(now=at(30))
        end_kind = "operation.interrupted"

    events = _kinds_with_ids(agent.conversation.id)
    interact_id = next(
        ids["instance_id"] for kind, ids in events if kind == "instance.opened" and "operation_id" not in ids
    )
    op = {"operation_id": outcome.operation_id}
    started = _position(events, "operation.started", **op)
    ended = _position(events, end_kind, **op)
    assert started < ended
    assert [kind for kind, _ in events[ended:]] == [end_kind]
    settled = LifecycleEvent.objects.get(kind=end_kind, operation_id=outcome.operation_id)
    entry = OutboxEntry.objects.get(operation_id=outcome.operation_id)
    assert settled.data["outbox_id"] == str(entry.id)
    assert settled.data["closed"] == {
        "app_id": "pomodoro",
        "previous": "foreground",
        "reason": entry.payload["result"].get("interruption_reason") or "completed",
    }
    assert settled.data["app_session_ended"] == str(outcome.app_session_id)
    assert settled.data["cancelled"] == []
    assert settled.data["foreground"] == {"instance_id": interact_id, "app_id": "interact", "previous": "background"}
    if ending == "agent_interrupt":
        assert settled.data["receipt"]["status"] == "interrupted"
    else:
        assert settled.data["receipt"] is None
