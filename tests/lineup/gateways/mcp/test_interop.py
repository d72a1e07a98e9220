"""Interop with a SEP-2663 requester: ``@modelcontextprotocol/ext-tasks`` (pinned in ``conformance/``,
run by its own Node 22) starts a Pomodoro focus as a task on protocol 2026-07-28, drives it to its
result, and cancels another. (The official Python ``mcp`` client 2.x, which speaks 2026-07-28 without
the extension, is ``test_tools.py``'s ``test_the_sdks_default_client_on_protocol_2026_is_served_without_tasks``.)
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from runtime.models import Operation, OutboxEntry
from tests.lineup.gateways.mcp.test_official_suite import BIN, SUITE_DIR


@pytest.mark.spec("R-3.11")
def test_the_ext_tasks_requester_gets_a_focus_as_a_task_and_cancels_another(live, conversation, token, tmp_path):
    assert (BIN / "node").exists(), f"{BIN / 'node'} is missing: npm ci --prefix {SUITE_DIR}"
    env = {"PATH": f"{BIN}:{os.environ['PATH']}", "HOME": str(tmp_path), "NO_COLOR": "1"}
    run = subprocess.run(
        [str(BIN / "node"), "interop.mjs", live.main.url(conversation.id), token],
        cwd=SUITE_DIR, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert Operation.objects.count() == 2, seen
    done, cancelled = Operation.objects.order_by("started_at")
    assert (seen["kind"], seen["taskId"], seen["status"]) == ("task", str(done.id), "completed"), seen
    assert seen["result"]["state"] == "completed" and seen["result"]["operation_id"] == str(done.id)
    assert (seen["cancelledKind"], seen["cancelledTaskId"], seen["cancelledStatus"]) == (
        "task", str(cancelled.id), "cancelled"
    ), seen  # fmt: skip
    assert (done.state, cancelled.state) == ("completed", "interrupted")
    assert cancelled.interruption_reason == "agent_interrupt"
    assert OutboxEntry.objects.filter(operation_id=done.id, acked_at__isnull=False).exists()
