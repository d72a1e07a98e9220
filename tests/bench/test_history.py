"""The history checker's reading of process logs: the faults' own connection errors are expected,
anything else that raised or logged an error is a violation; and the crash-point judge
(``check_case``) on an instance without a deadline."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bench.history import LOCK_GRACE, Violations, _account, _check_logs, _lock_windows, check_case
from tests.support.factories import at


def _line(event: str, level: str = "error", **extra: str) -> str:
    return json.dumps({"event": event, "level": level, "logger": "x", **extra})


def test_connection_errors_of_the_faults_are_counted_and_anything_else_is_a_violation(tmp_path):
    """A restart's OperationalError and "Cannot connect to redis" are counted by type; the worker's
    kombu AttributeError, a raw traceback and an error line without a known cause are violations;
    Redis' and PostgreSQL's own logs are not read."""
    worker_trace = (
        "Traceback (most recent call last):\n  File ...\nAttributeError: 'NoneType' object has no attribute 'hostname'"
    )
    db_trace = "Traceback (most recent call last):\n  File ...\ndjango.db.utils.OperationalError: terminating connection due to administrator command"
    (tmp_path / "worker-1.log").write_text(
        "\n".join(
            [
                _line("Unrecoverable error: AttributeError(...)", "critical", exception=worker_trace),
                _line("consumer: Cannot connect to redis://127.0.0.1:1/0: Error 111. Trying again in 2.00 seconds..."),
                _line("settlement.failure_not_recorded", error="django.db.utils.OperationalError: connection failed"),
                _line("Task runtime.tasks.settle_operation succeeded", "info"),
            ]
        )
    )
    (tmp_path / "daphne-2.log").write_text(
        _line("Exception inside application", exception=db_trace)
        + "\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'operation_id'\n"
        + _line("agent.frame_failed")
    )
    (tmp_path / "redis-1.log").write_text("Traceback (most recent call last):\nValueError: not ours to read\n")
    violations, figures = Violations(), {}

    _check_logs(tmp_path, violations, figures)

    details = [item["detail"] for item in violations.items]
    assert violations.by_check == {"log_exception": 3}, details
    assert any("AttributeError" in d and d.startswith("worker-1.log") for d in details), details
    assert any("KeyError" in d for d in details) and any("agent.frame_failed" in d for d in details), details
    assert figures["expected_log_errors"] == {
        "connection message": 1,
        "django.db.utils.OperationalError": 2,
    }, figures


def test_sqlite_database_is_locked_is_the_lock_faults_only_inside_its_window(tmp_path):
    """On SQLite (``bench.soak --engine sqlite``) the embedded server's log is read; "database is
    locked" while another process held the write lock (until the busy timeout after the hold) is
    that fault's, the same error elsewhere, or on a raw traceback without a time, is a violation."""
    held_at = datetime(2026, 12, 6, 10, 0, 0, tzinfo=UTC).timestamp()
    trace = "Traceback (most recent call last):\n  File ...\ndjango.db.utils.OperationalError: database is locked"

    def stamped(seconds: float) -> str:
        when = datetime.fromtimestamp(held_at + seconds, tz=UTC).isoformat().replace("+00:00", "Z")
        return _line("scheduler.sweep_failed", exception=trace, timestamp=when)

    (tmp_path / "server-2.log").write_text(
        "\n".join([stamped(3), stamped(4 + LOCK_GRACE - 1), stamped(-60), stamped(4 + LOCK_GRACE + 30), trace])
    )
    record = {
        "faults": [
            {"kind": "agent_drop", "at": held_at - 60, "pause": 1.0},
            {"kind": "sqlite_lock", "at": held_at, "pause": 4.0},
        ]
    }
    violations, figures = Violations(), {}

    _check_logs(tmp_path, violations, figures, lock_windows=_lock_windows(record))

    details = [item["detail"] for item in violations.items]
    assert figures["expected_log_errors"] == {"database is locked": 2}, figures
    assert violations.by_check == {"log_exception": 3}, details
    assert all(d.startswith("server-2.log: database is locked") for d in details), details
    assert sum("no timestamp" in d for d in details) == 1, details


def test_accounting_counts_lost_duplicated_unexpected_and_recovered_results_per_agent():
    """Of three results owed to an Agent: one arrived at once, one only after a fault that came after
    its settlement (recovered), one never (lost); a second result for one call is a duplicate and a
    result for a call never made is unexpected, which fails the run like a lost one does."""
    settled = datetime(2026, 12, 5, 10, 0, 0, tzinfo=UTC)
    t0 = settled.timestamp()
    operations = {f"op{i}": SimpleNamespace(settled_at=settled) for i in range(3)}
    entries = {
        f"op{i}": SimpleNamespace(id=f"e{i}", operation_id=f"op{i}", agent_id="a1", channel="agent_socket")
        for i in range(3)
    }
    deliveries = [
        {"outbox_id": "e0", "source_tool_call_id": "c0", "received_at": t0 + 0.1},
        {"outbox_id": "e0", "source_tool_call_id": "c0", "received_at": t0 + 0.2},  # a raw redelivery: fine
        {"outbox_id": "e1", "source_tool_call_id": "c1", "received_at": t0 + 5},  # after the fault at t0 + 2
        {"outbox_id": "x9", "source_tool_call_id": "c1", "received_at": t0 + 6},  # another result for c1
        {"outbox_id": "x8", "source_tool_call_id": "never", "received_at": t0 + 7},
    ]
    record = {
        "faults": [{"kind": "daphne", "at": t0 + 2}],
        "agents": [
            {
                "agent_id": "a1",
                "name": "agent-1",
                "channel": "agent_socket",
                "starts": {"conv c0": "op0", "conv c1": "op1", "conv c2": "op2"},
                "deliveries": deliveries,
            }
        ],
    }
    violations, figures = Violations(), {}
    _account(record, operations, entries, violations, figures)
    row = figures["accounting"]["per_agent"]["agent-1"]
    assert (row["results"], row["lost"], row["duplicated"], row["unexpected"], row["recovered"]) == (3, 1, 1, 2, 1)
    assert row["lost_fraction"] == round(1 / 3, 4)
    assert figures["accounting"]["overall"]["unexpected"] == 2
    assert violations.by_check["unexpected"] == 1


@pytest.mark.django_db
def test_the_crash_judge_finds_a_notes_line_saved_twice_a_revision_without_its_event_and_a_lost_session(conversation):
    """``check_case`` on an instance without a deadline (issue 35): clean after two appends; then each
    damage a crash could leave is named."""
    from miniapps.notes.tools import append
    from runtime.api import ToolRequest
    from runtime.models import AppSession, InstanceSnapshot, LifecycleEvent, ToolCall

    def notes_append(call_id: str, text: str, minute: int) -> None:
        append(
            ToolRequest(
                conversation_id=conversation.id,
                source_tool_call_id=call_id,
                tool="notes.append",
                arguments={"text": text},
                now=at(minute),
                caller="agent:test",
                agent_id=None,
                channel="agent_socket",
            )
        )

    notes_append("a", "first", 1)
    notes_append("b", "second", 2)
    answers = {c.source_tool_call_id: [{"type": "tool.receipt", "receipt": c.receipt}] for c in ToolCall.objects.all()}

    def judge() -> list[str]:
        return check_case(
            conversation_ids=[str(conversation.id)],
            agent_deliveries=[],
            answers=answers,
            retries={},
            delivered_after_ack=[],
        )

    assert judge() == []
    snapshot = InstanceSnapshot.objects.get(instance__app_id="notes")

    def found(prefix: str) -> list[str]:
        return [p for p in judge() if p.startswith(prefix)]

    InstanceSnapshot.objects.filter(pk=snapshot.pk).update(revision=3)  # a write without its event
    assert found("snapshot:"), judge()
    InstanceSnapshot.objects.filter(pk=snapshot.pk).update(revision=1)  # the second receipt names revision 2
    assert [p for p in judge() if "receipt names" in p], judge()
    InstanceSnapshot.objects.filter(pk=snapshot.pk).update(revision=2)
    assert not found("snapshot:") and not found("half_written"), judge()
    AppSession.objects.filter(instance_id=snapshot.instance_id).delete()  # the instance without its sub-session
    assert found("half_written: notes instance"), judge()
    twice = LifecycleEvent.objects.filter(kind="snapshot.saved", instance_id=snapshot.instance_id).latest("id")
    twice.pk = None
    twice.save()  # the second line's write recorded twice (events are append-only: this one last)
    assert found("snapshot:"), judge()
