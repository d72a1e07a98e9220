"""``manage.py startminiapp timer2`` in a fresh copy of the project makes a MiniApp that works end to end.

The copy (the repository's files, no database) gets ``timer2`` from the command alone — nothing in
``runtime/`` is edited — then boots the embedded server (SQLite, the in-process deadline
scheduler), issues an Agent token and drives the new app beside Pomodoro: over ``/ws/agent/`` and
over MCP, ``timer2.start`` gets one result at its deadline naming ``timer2.start``, and a second
start is stopped by ``timer2.stop`` with the stable receipt. A Pomodoro focus running when the first
``timer2.start`` comes ends ``interrupted(switched_app)``: Pomodoro's manifest rule, whoever starts
the other app.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.processes import ROOT, free_port

pytestmark = pytest.mark.spec("R-3.11", "R-2.2.8", "R-3.6")

# What a fresh clone would not have: history, local data, caches, installed node modules.
NOT_COPIED = shutil.ignore_patterns(
    ".git", "var", "node_modules", "__pycache__", ".venv", "*.sqlite3", ".pytest_cache", ".hypothesis", ".ruff_cache"
)
TIMER_SECONDS = 2


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env.update(LINEUP_DATA_DIR=str(data_dir), LINEUP_LOG_FORMAT="json", LINEUP_LOG_LEVEL="WARNING")
    return env


def _manage(project: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result


def _poll(predicate: Any, *, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=NOT_COPIED)
    return copy


def _tool_call(tool: str, conversation_id: str, call_id: str, arguments: dict[str, Any], revision: str) -> dict:
    return {
        "type": "tool.call",
        "conversation_id": conversation_id,
        "source_tool_call_id": call_id,
        "tool": tool,
        "arguments": arguments,
        "inventory_revision": revision,
    }


def test_startminiapp_timer2_runs_over_the_agent_socket_and_mcp_beside_pomodoro(project: Path, tmp_path: Path):
    env = _env(tmp_path / "data")
    made = _manage(project, "startminiapp", "timer2", env=env)
    assert 'changed  miniapps/bundled.py: added "miniapps.timer2"' in made.stdout
    assert (project / "miniapps" / "timer2" / "manifest.json").exists()
    assert (project / "tests" / "miniapps" / "test_timer2.py").exists()
    # Nothing of the Runtime was touched to plug it in.
    for path in (project / "runtime").rglob("*.py"):
        assert "timer2" not in path.read_text(encoding="utf-8"), path

    _manage(project, "migrate", "--noinput", env=env)
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
        cwd=project,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _poll(lambda: _http_ok(f"http://127.0.0.1:{port}/admin/login/"), timeout=60, what="the embedded server")
        issued = _manage(project, "create_agent_token", "e2e", "--user", "lineup", env=env)
        token = issued.stdout.strip().splitlines()[-1]
        mcp_url = next(line for line in issued.stderr.splitlines() if "MCP URL" in line).split(": ", 1)[1]
        mcp_url = mcp_url.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{port}").strip()
        conversation_id = mcp_url.rstrip("/").rsplit("/", 1)[1]

        sock = AgentSocket(f"ws://127.0.0.1:{port}/ws/agent/")
        sock.hello(token)
        inventory = sock.inventory(conversation_id)
        tools = {tool["name"] for tool in inventory["tools"]}
        assert {"timer2.start", "timer2.stop", "pomodoro.start", "pomodoro.interrupt"} <= tools
        revision = inventory["revision"]

        # Beside Pomodoro: a focus runs when timer2 starts.
        focus = sock.request(_tool_call("pomodoro.start", conversation_id, "p-1", {"duration_seconds": 600}, revision))
        assert focus["type"] == "tool.accepted", focus

        # Over /ws/agent/: one result at the deadline, naming timer2.start.
        first = sock.request(
            _tool_call("timer2.start", conversation_id, "t-1", {"duration_seconds": TIMER_SECONDS}, revision)
        )
        assert first["type"] == "tool.accepted", first
        # The focus runs alone in its conversation and switches (its manifest): timer2's start ends it.
        switched = sock.push("tool.result", source_tool_call_id="p-1")
        assert (switched["result"]["state"], switched["result"]["interruption_reason"]) == (
            "interrupted",
            "switched_app",
        )
        sock.ack(switched["outbox_id"], conversation_id)
        result = sock.push("tool.result", timeout=TIMER_SECONDS + 15, source_tool_call_id="t-1")
        assert (result["tool"], result["result"]["state"]) == ("timer2.start", "completed")
        assert result["result"]["ended_at"] == result["result"]["ends_at"]
        sock.ack(result["outbox_id"], conversation_id)

        # Started again, and stopped with timer2.stop: the stable receipt, then its one result.
        again = sock.request(_tool_call("timer2.start", conversation_id, "t-2", {"duration_seconds": 600}, revision))
        assert again["type"] == "tool.accepted", again
        busy = sock.request(_tool_call("timer2.start", conversation_id, "t-3", {"duration_seconds": 60}, revision))
        assert (busy["type"], busy["code"]) == ("tool.rejected", "timer2_running"), busy
        stopped = sock.request(_tool_call("timer2.stop", conversation_id, "s-1", {}, revision))
        assert stopped["type"] == "tool.receipt", stopped
        assert stopped["receipt"] == {"status": "interrupted", "operation_id": again["operation_id"]}
        interrupted = sock.push("tool.result", source_tool_call_id="t-2")
        assert (interrupted["tool"], interrupted["result"]["state"]) == ("timer2.start", "interrupted")
        sock.ack(interrupted["outbox_id"], conversation_id)

        # Over MCP: the same two tools, as a task and as a plain call.
        mcp = McpClient(mcp_url, token, timeout=TIMER_SECONDS + 20)
        try:
            listed = {tool.name for tool in mcp.list_tools().tools}
            assert {"timer2.start", "timer2.stop", "pomodoro.start"} <= listed
            task = mcp.call_as_task("timer2.start", {"duration_seconds": TIMER_SECONDS}, key="m-1").task
            final = mcp.task_result(task.task_id, timeout=TIMER_SECONDS + 20)
            assert not final.is_error, final
            assert (final.structured_content["state"], final.structured_content["operation_id"]) == (
                "completed",
                task.task_id,
            )
            mcp.call("timer2.start", {"duration_seconds": 600}, key="m-2")
            receipt = mcp.call("timer2.stop", {}, key="m-3")
            assert not receipt.is_error, receipt
            assert receipt.structured_content["status"] == "interrupted"
            assert mcp.call("timer2.stop", {}, key="m-4").structured_content["status"] == "operation_already_final"
        finally:
            mcp.close()

        # The focus ended once, when timer2 started: nothing of timer2's afterwards touched it again.
        ended = sock.request(_tool_call("pomodoro.interrupt", conversation_id, "p-2", {}, revision))
        assert ended["receipt"] == {"status": "operation_already_final", "operation_id": focus["operation_id"]}, ended
        sock.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
