"""``pomodoro.start`` as an MCP task: status from the Operation row, result from the tool call, on any
Daphne; and the fallback for clients without tasks.

``main`` settles deadlines (embedded scheduler); ``remote`` settles nothing, so what a client polling
``remote`` sees was read from Postgres.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.utils import timezone
from mcp.shared.exceptions import MCPError
from mcp.types import METHOD_NOT_FOUND, CallToolResult

from runtime.clock import isoformat
from runtime.models import AgentToken, Operation, OutboxEntry
from runtime.services.agents import revoke_agent_token
from runtime.services.operation_views import operation_result
from tests.lineup.gateways.agent_socket.client import AgentSocket

FOCUS_SECONDS = 1
# Long enough that a loaded machine still sees the task working before ends_at.
WORKING_CHECK_SECONDS = 2


def _acked(operation_id: str) -> bool:
    return OutboxEntry.objects.get(operation_id=operation_id).acked_at is not None


@pytest.mark.spec("R-3.5", "R-3.4", "R-2.2.8")
def test_the_task_is_working_until_ends_at_then_completed_with_the_result(live, connect, mcp, token, conversation):
    """A task-augmented start is a ``working`` task whose poll interval points at the deadline; after
    ``ends_at`` it is ``completed`` — on the process that settled it and on one that settles nothing —
    and ``tasks/result`` is the start's final result, which acks the outbox entry."""
    elsewhere = connect(token, conversation.id, server=live.remote)
    seconds = WORKING_CHECK_SECONDS
    created = mcp.call_as_task("pomodoro.start", {"duration_seconds": seconds}, key="task-1")
    task = created.task
    assert elsewhere.get_task(task.task_id).status == "working"  # read from the row, on the other process
    operation = Operation.objects.get()
    assert task.task_id == str(operation.id)
    assert (task.status, task.created_at, task.ttl) == ("working", isoformat(operation.started_at), None)
    assert task.status_message == f"focusing until {isoformat(operation.ends_at)}"
    assert 250 <= task.poll_interval <= seconds * 1000
    # The receipt rides along (here: the retry's answer read as a CallToolResult), so a client that
    # parses every tools/call answer as a CallToolResult still gets the operation.
    as_call = mcp.call_as_task("pomodoro.start", {"duration_seconds": seconds}, key="task-1", expect=CallToolResult)
    assert as_call.structured_content["operation_id"] == task.task_id and not as_call.is_error

    def completed():
        polled = elsewhere.get_task(task.task_id)
        return (polled, timezone.now()) if polled.status == "completed" else None

    polled, seen_at = live.wait(completed, "the task to complete (polled on remote)", timeout=seconds + 8)
    operation.refresh_from_db()
    assert seen_at >= operation.ends_at
    assert (polled.status_message, polled.last_updated_at) == ("completed", isoformat(operation.settled_at))
    assert polled.poll_interval is None
    assert mcp.get_task(task.task_id).status == "completed"

    assert not _acked(task.task_id)  # nobody collected it yet
    result = mcp.task_result(task.task_id)
    assert not result.is_error
    assert result.structured_content == operation_result(operation)
    assert result.structured_content["state"] == "completed"
    assert result.structured_content["ended_at"] == isoformat(operation.ends_at)
    assert _acked(task.task_id)
    assert elsewhere.task_result(task.task_id).structured_content == result.structured_content  # again, anywhere


@pytest.mark.spec("R-3.5", "R-2.2.8")
def test_tasks_result_waits_for_the_focus_to_end_on_a_process_that_does_not_settle_it(
    live, connect, mcp, token, conversation
):
    """``tasks/result`` asked right after the start blocks until the operation has settled, on a process
    with no scheduler: it watches the row, not an in-process timer."""
    task = mcp.call_as_task("pomodoro.start", {"duration_seconds": FOCUS_SECONDS}, key="block").task
    elsewhere = connect(token, conversation.id, server=live.remote)
    asked = time.monotonic()
    result = elsewhere.task_result(task.task_id, timeout=FOCUS_SECONDS + 10)
    answered_at = timezone.now()
    operation = Operation.objects.get(pk=task.task_id)
    assert result.structured_content == operation_result(operation)
    assert result.structured_content["state"] == "completed"
    assert answered_at >= operation.ends_at and time.monotonic() - asked < FOCUS_SECONDS + 5
    assert _acked(task.task_id)


@pytest.mark.spec("R-3.5", "R-2.2.8")
def test_a_tasks_result_held_open_ends_refused_when_its_token_is_revoked(live, mcp, user, conversation):
    """A ``tasks/result`` asked before the revocation is waiting for a long focus; revoking the token
    ends it at once with a refusal, not with the result at the deadline, and nothing is acked."""
    task = mcp.call_as_task("pomodoro.start", {"duration_seconds": 60}, key="held").task
    row = AgentToken.objects.get(agent__user=user)
    used_before = row.last_used_at
    with ThreadPoolExecutor(max_workers=1) as pool:
        held = pool.submit(mcp.task_result, task.task_id, 50)
        # The request was admitted (its token checked) once the token's last use moves.
        live.wait(
            lambda: AgentToken.objects.get(pk=row.pk).last_used_at != used_before,
            "the tasks/result request to be admitted",
        )
        assert not held.done()
        revoke_agent_token(token_id=row.pk, now=timezone.now())
        revoked = time.monotonic()
        with pytest.raises(MCPError, match="revoked while the request waited") as refused:
            held.result(timeout=20)
    assert time.monotonic() - revoked < 10, "the held request outlived the token"
    assert refused.value.error.data == {"code": "revoked"}
    assert Operation.objects.get(pk=task.task_id).ends_at > timezone.now()  # ended long before the focus
    assert not OutboxEntry.objects.filter(operation_id=task.task_id, acked_at__isnull=False).exists()


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_results_of_mcp_calls_are_never_pushed_to_websocket_agents(live, mcp, user, conversation, token_for):
    """A result of an MCP-started operation is the MCP Agent's, read over MCP: one it collected
    (``tasks/result``) is acked; one it has not collected yet waits for it, and a WebSocket Agent
    of the same user — or the same Agent over the WebSocket — is sent neither."""
    collected = mcp.call_as_task("pomodoro.start", {"duration_seconds": FOCUS_SECONDS}, key="collected").task
    assert mcp.task_result(collected.task_id, timeout=FOCUS_SECONDS + 10).structured_content["state"] == "completed"
    left = mcp.call("pomodoro.start", {"duration_seconds": FOCUS_SECONDS}, key="left").structured_content
    live.wait(lambda: OutboxEntry.objects.filter(operation_id=left["operation_id"]).exists(), "the second result")

    sock = AgentSocket(f"ws://127.0.0.1:{live.main.port}/ws/agent/")
    try:
        sock.hello(token_for(user, "websocket-agent"))
        results = [f for f in sock.frames_within(1.0) if f["type"] == "tool.result"]
    finally:
        sock.close()
    assert results == []
    waiting = OutboxEntry.objects.get(operation_id=left["operation_id"])
    assert (waiting.channel, waiting.acked_at, waiting.attempts) == ("mcp", None, 0)
    assert OutboxEntry.objects.get(operation_id=collected.task_id).acked_at is not None


@pytest.mark.spec("R-3.5", "R-2.2.8")
def test_without_tasks_the_result_is_read_from_the_operations_resource(live, mcp, conversation):
    """The fallback: the plain call's receipt names ``lineup://operations/<id>``; reading it shows the
    focus, then — after ``ends_at`` — the final result, and that read acks the outbox entry."""
    templates = mcp.run(lambda s: s.list_resource_templates())
    assert [t.uri_template for t in templates.resource_templates] == ["lineup://operations/{operation_id}"]
    receipt = mcp.call("pomodoro.start", {"duration_seconds": FOCUS_SECONDS}, key="plain").structured_content
    uri = receipt["result_uri"]
    # After the MiniApps' ui:// Surfaces (tests/lineup/gateways/mcp/test_apps.py), the Agent's operations.
    assert [str(r.uri) for r in mcp.run(lambda s: s.list_resources()).resources] == [
        "ui://lineup/pomodoro",
        "ui://lineup/quiz",
        uri,
    ]

    def read() -> dict:
        contents = mcp.read_resource(uri).contents
        assert len(contents) == 1 and contents[0].mime_type == "application/json"
        return json.loads(contents[0].text)

    first = read()
    assert first == receipt  # focusing, no result yet
    final = live.wait(lambda: (r := read()).get("result") and r, "the resource to show the result", FOCUS_SECONDS + 8)
    operation = Operation.objects.get(pk=receipt["operation_id"])
    assert final["state"] == "completed" and final["result"] == operation_result(operation)
    assert _acked(receipt["operation_id"])
    with pytest.raises(MCPError, match="no such resource"):
        mcp.read_resource("lineup://operations/00000000-0000-4000-8000-000000000000")


@pytest.mark.spec("R-3.6")
def test_a_short_tool_refuses_task_augmentation(live, mcp, conversation):
    """pomodoro.interrupt declares no task support; asking for a task is a protocol error, not a call."""
    with pytest.raises(MCPError, match="does not support task-augmented calls") as refused:
        mcp.call_as_task("pomodoro.interrupt", {}, key="stop-task", expect=CallToolResult)
    assert refused.value.error.code == METHOD_NOT_FOUND
    assert not Operation.objects.exists()
    assert mcp.call("pomodoro.interrupt", key="stop-task").structured_content == {
        "status": "no_active_focusing_operation"
    }
