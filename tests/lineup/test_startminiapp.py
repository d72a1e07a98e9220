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

from pathlib import Path

import pytest

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.project_copy import EmbeddedServer, copy_project, manage, project_env, tool_call

pytestmark = pytest.mark.spec("R-3.11", "R-2.2.8", "R-3.6")

TIMER_SECONDS = 2


def test_startminiapp_timer2_runs_over_the_agent_socket_and_mcp_beside_pomodoro(tmp_path: Path):
    project = copy_project(tmp_path / "project")
    env = project_env(tmp_path / "data")
    made = manage(project, "startminiapp", "timer2", env=env)
    assert 'changed  miniapps/bundled.py: added "miniapps.timer2"' in made.stdout
    assert (project / "miniapps" / "timer2" / "manifest.json").exists()
    assert (project / "tests" / "miniapps" / "test_timer2.py").exists()
    # Nothing of the Runtime was touched to plug it in.
    for path in (project / "runtime").rglob("*.py"):
        assert "timer2" not in path.read_text(encoding="utf-8"), path

    server = EmbeddedServer(project, env, tmp_path / "server.log").start()
    try:
        access = server.issue_agent_token("e2e")
        token, mcp_url, conversation_id = access.token, access.mcp_url, access.conversation_id

        sock = AgentSocket(f"ws://127.0.0.1:{server.port}/ws/agent/")
        sock.hello(token)
        inventory = sock.inventory(conversation_id)
        tools = {tool["name"] for tool in inventory["tools"]}
        assert {"timer2.start", "timer2.stop", "pomodoro.start", "pomodoro.interrupt"} <= tools
        revision = inventory["revision"]

        # Beside Pomodoro: a focus runs when timer2 starts.
        focus = sock.request(tool_call("pomodoro.start", conversation_id, "p-1", {"duration_seconds": 600}, revision))
        assert focus["type"] == "tool.accepted", focus

        # Over /ws/agent/: one result at the deadline, naming timer2.start.
        first = sock.request(
            tool_call("timer2.start", conversation_id, "t-1", {"duration_seconds": TIMER_SECONDS}, revision)
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
        again = sock.request(tool_call("timer2.start", conversation_id, "t-2", {"duration_seconds": 600}, revision))
        assert again["type"] == "tool.accepted", again
        busy = sock.request(tool_call("timer2.start", conversation_id, "t-3", {"duration_seconds": 60}, revision))
        assert (busy["type"], busy["code"]) == ("tool.rejected", "timer2_running"), busy
        stopped = sock.request(tool_call("timer2.stop", conversation_id, "s-1", {}, revision))
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
        ended = sock.request(tool_call("pomodoro.interrupt", conversation_id, "p-2", {}, revision))
        assert ended["receipt"] == {"status": "operation_already_final", "operation_id": focus["operation_id"]}, ended
        sock.close()
    finally:
        server.stop()
