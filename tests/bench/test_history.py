"""The history checker's reading of process logs: the faults' own connection errors are expected,
anything else that raised or logged an error is a violation."""

from __future__ import annotations

import json

from bench.history import Violations, _check_logs


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
