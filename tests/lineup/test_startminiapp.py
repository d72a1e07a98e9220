# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？) on purpose
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

import json
import re
from pathlib import Path

import pytest

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.project_copy import (
    EmbeddedServer,
    WorkspacePage,
    copy_project,
    copy_with_new_miniapp,
    manage,
    project_env,
)

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
        focus = sock.call(conversation_id, "p-1", "pomodoro.start", {"duration_seconds": 600}, revision)
        assert focus["type"] == "tool.accepted", focus

        # Over /ws/agent/: one result at the deadline, naming timer2.start.
        first = sock.call(conversation_id, "t-1", "timer2.start", {"duration_seconds": TIMER_SECONDS}, revision)
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
        again = sock.call(conversation_id, "t-2", "timer2.start", {"duration_seconds": 600}, revision)
        assert again["type"] == "tool.accepted", again
        busy = sock.call(conversation_id, "t-3", "timer2.start", {"duration_seconds": 60}, revision)
        assert (busy["type"], busy["code"]) == ("tool.rejected", "timer2_running"), busy
        stopped = sock.call(conversation_id, "s-1", "timer2.stop", {}, revision)
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
        ended = sock.call(conversation_id, "p-2", "pomodoro.interrupt", {}, revision)
        assert ended["receipt"] == {"status": "operation_already_final", "operation_id": focus["operation_id"]}, ended
        sock.close()
    finally:
        server.stop()


# --- people's words: the built-in reference Agent learns the new app from its declared phrasings ----------


@pytest.mark.spec("R-2.1.1")
def test_a_new_miniapp_is_started_asked_about_and_stopped_in_words_in_english_and_chinese(tmp_path: Path):
    """``startminiapp timer2`` writes a phrasings.json beside the manifest; with no Agent code edited, the
    embedded server's built-in reference Agent starts timer2, says how long is left and stops it from a
    person's words in English and in Chinese (sent from the page's /ws/workspace/), answers in timer2's
    declared words, and "help" lists timer2 in the person's language. No focus is started on the way."""
    project, env = copy_with_new_miniapp(tmp_path, "timer2")  # the Agent is not edited to learn timer2
    phrasings = json.loads((project / "miniapps" / "timer2" / "phrasings.json").read_text(encoding="utf-8"))
    assert phrasings["tools"] == {"start": "timer2.start", "stop": "timer2.stop"}

    server = EmbeddedServer(project, env, tmp_path / "server.log").start()
    try:
        with WorkspacePage(server) as page:

            def say(text: str, language: str, expected: str) -> str:
                pattern = re.compile(expected, re.DOTALL)
                return page.say(text, language, lambda t: bool(pattern.fullmatch(t)), timeout=20)[0]

            say(
                "start timer2 for 10 minutes",
                "en",
                re.escape("Timer2 started: 10 minutes. I'll tell you when it's done."),
            )
            say("how long is left on timer2?", "en", r"Timer2 is running: (10 minutes|9 min \d+ s|9 minutes) left\.")
            say("stop timer2", "en", r"Timer2 stopped after \d+ seconds?\.")
            say("help", "en", r"Here is what I can do:.*• Timer2: times something for you: .*")

            say("开始timer2 十分钟", "zh-hans", re.escape("Timer2开始：10分钟。结束时我会告诉你。"))
            say("timer2还剩多久？", "zh-hans", r"Timer2进行中，还剩(10分钟|9分钟\d+秒|9分钟)。")
            say("请停止timer2", "zh-hans", r"Timer2已停止：进行了\d+秒。")
            say("帮助", "zh-hans", r"我可以帮你：.*• Timer2：为你计时：.*")
        # Never a focus named "timer2" on the way.
        texts = [text for text, _ in page.agent_messages()]
        assert not [t for t in texts if t.startswith(("Focus started", "专注开始"))], texts
        tools = [row[0] for row in page.rows("SELECT tool FROM runtime_toolcall ORDER BY created_at")]
        assert tools == ["timer2.start", "timer2.stop", "timer2.start", "timer2.stop"], tools
    finally:
        server.stop()
