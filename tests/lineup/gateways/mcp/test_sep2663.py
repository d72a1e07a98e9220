"""Protocol 2026-07-28 with the tasks extension ``io.modelcontextprotocol/tasks`` (SEP-2663), over raw
HTTP to live Daphne processes (decision 0044).

A client that declares the extension in its request's ``clientCapabilities`` gets every long tool's
call as a task (the server decides); ``tasks/get`` inlines the one result once the operation has
settled and acks its outbox entry; ``tasks/cancel`` interrupts through the Runtime's one settlement.
A client that does not declare it gets the receipt, as before, and ``-32021`` from ``tasks/*``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from runtime.models import Operation, OutboxEntry, ToolCall
from runtime.transitions import is_running
from tests.support.processes import lineup_env, start_daphne, supervised_processes, wait_for

VERSION = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
MISSING_CAPABILITY = -32021


class Modern:
    """JSON-RPC over plain HTTP at 2026-07-28: the per-request envelope and the routing headers."""

    def __init__(self, url: str, token: str, *, tasks: bool = True) -> None:
        self.url = url
        self.token = token
        self.capabilities: dict[str, Any] = {"extensions": {TASKS: {}}} if tasks else {}
        self.next_id = 0

    def post(self, method: str, params: dict[str, Any] | None = None) -> httpx2.Response:
        self.next_id += 1
        params = dict(params or {})
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        }
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self.token}",
            "MCP-Protocol-Version": VERSION,
            "Mcp-Method": method,
        }
        name = params.get("name") or params.get("taskId")
        if name is not None:
            headers["Mcp-Name"] = name
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        return httpx2.post(self.url, content=json.dumps(message), headers=headers, timeout=10)

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.post(method, params)
        assert response.status_code == 200, response.text
        body = response.json()
        assert "result" in body, body
        return body["result"]

    def error(self, method: str, params: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        response = self.post(method, params)
        body = response.json()
        assert "error" in body, body
        return response.status_code, body["error"]

    def get(self, task_id: str) -> dict[str, Any]:
        return self.request("tasks/get", {"taskId": task_id})


@pytest.fixture
def modern(live, conversation, token) -> Modern:
    return Modern(live.main.url(conversation.id), token)


def test_discover_advertises_the_tasks_extension_and_no_core_tasks(modern):
    discovered = modern.request("server/discover")
    assert TASKS in discovered["capabilities"]["extensions"]
    assert "tasks" not in discovered["capabilities"]


@pytest.mark.spec("R-3.11", "R-3.5")
def test_tasks_cancel_interrupts_the_focus_and_its_one_result_stays_the_truth(modern):
    """The start is a ``CreateTaskResult`` whose task ``tasks/get`` finds at once; ``tasks/cancel``
    acks empty and interrupts through the settlement (reason ``agent_interrupt``): ``cancelled``, with
    the interrupted result inlined; a second cancel acks the same and changes nothing."""
    created = modern.request("tools/call", {"name": "pomodoro.start", "arguments": {"duration_seconds": 600}})
    assert created["resultType"] == "task" and "task" not in created and "ttl" not in created, created
    task_id = created["taskId"]
    assert task_id == str(Operation.objects.get().id)
    assert created["status"] == "working" and isinstance(created["ttlMs"], int) and created["ttlMs"] >= 600_000
    working = modern.get(task_id)
    assert (working["status"], working["resultType"]) == ("working", "complete")
    assert "result" not in working and 250 <= working["pollIntervalMs"] <= 5000

    ack = modern.request("tasks/cancel", {"taskId": task_id})
    assert ack["resultType"] == "complete" and not {"taskId", "status", "result"} & set(ack), ack
    cancelled = modern.get(task_id)
    assert cancelled["status"] == "cancelled", cancelled
    result = cancelled["result"]["structuredContent"]
    assert (result["state"], result["interruption_reason"]) == ("interrupted", "agent_interrupt")
    assert "io.modelcontextprotocol/related-task" not in (cancelled["result"].get("_meta") or {})
    settled = Operation.objects.get()
    assert settled.state == "interrupted"
    assert OutboxEntry.objects.get(operation_id=settled.id).acked_at is not None  # the result reached the Agent

    again = modern.request("tasks/cancel", {"taskId": task_id})
    assert again["resultType"] == "complete" and not {"taskId", "status", "result"} & set(again)
    assert Operation.objects.get().settled_at == settled.settled_at
    assert modern.get(task_id)["result"] == cancelled["result"]

    status, error = modern.error("tasks/cancel", {"taskId": "00000000-0000-0000-0000-000000000000"})
    assert (status, error["code"]) == (400, -32602)  # the SDK answers an invalid-params error with 400


def test_without_the_extension_a_long_tool_answers_its_receipt_and_tasks_are_refused(live, conversation, token):
    plain = Modern(live.main.url(conversation.id), token, tasks=False)
    receipt = plain.request("tools/call", {"name": "pomodoro.start", "arguments": {"duration_seconds": 600}})
    assert receipt["resultType"] == "complete" and "taskId" not in receipt
    operation_id = receipt["structuredContent"]["operation_id"]
    for method in ("tasks/get", "tasks/cancel", "tasks/update"):
        status, error = plain.error(method, {"taskId": operation_id})
        assert (status, error["code"]) == (400, MISSING_CAPABILITY), (method, error)
        assert error["data"]["requiredCapabilities"] == {"extensions": {TASKS: {}}}
    assert is_running(Operation.objects.get().state)  # nothing was cancelled (stored: any running state)
    status, error = Modern(live.main.url(conversation.id), token).error("tasks/result", {"taskId": operation_id})
    assert error["code"] == -32601  # SEP-2663: the result is inlined in tasks/get


def test_a_tasks_name_header_must_be_its_task_id(modern):
    task_id = modern.request("tools/call", {"name": "pomodoro.start", "arguments": {"duration_seconds": 600}})["taskId"]
    message = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": task_id}}
    response = httpx2.post(
        modern.url,
        content=json.dumps(message),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {modern.token}",
            "MCP-Protocol-Version": VERSION,
            "Mcp-Method": "tasks/get",
            "Mcp-Name": "another-task",
        },
        timeout=10,
    )
    assert (response.status_code, response.json()["error"]["code"]) == (400, -32020)


@pytest.mark.spec("R-3.11", "R-4.4.1")
def test_a_task_gets_its_one_result_after_a_daphne_restart_in_the_middle(
    request, django_db_setup, transactional_db, conversation, token, tmp_path
):
    """A 2026-07-28 client starts a focus as a task on one Daphne, that Daphne is killed before the
    focus ends, and a new Daphne answers the task: ``completed`` with the one result inlined, the
    outbox entry acked by that answer, the same result on every later ``tasks/get``."""
    with supervised_processes(request, tmp_path) as processes:
        env = lineup_env(LINEUP_SCHEDULER="embedded", LINEUP_LOG_FORMAT="json", LINEUP_REFERENCE_AGENT_URL="")
        port, first = start_daphne(processes, "daphne-before", env=env, timeout=30)
        client = Modern(f"http://127.0.0.1:{port}/mcp/{conversation.id}/", token)
        created = client.request("tools/call", {"name": "pomodoro.start", "arguments": {"duration_seconds": 3}})
        task_id = created["taskId"]
        assert client.get(task_id)["status"] == "working"
        first.kill()  # a crash, in the middle of the focus

        port, _second = start_daphne(processes, "daphne-after", env=env, timeout=30)
        client.url = f"http://127.0.0.1:{port}/mcp/{conversation.id}/"

        def terminal() -> dict[str, Any] | None:
            task = client.get(task_id)
            return task if task["status"] != "working" else None

        done = wait_for(terminal, timeout=30, what="the task to end", describe=processes.describe)
    assert done["status"] == "completed", done
    result = done["result"]
    assert (
        result["structuredContent"]["state"] == "completed" and result["structuredContent"]["operation_id"] == task_id
    )
    assert result.get("isError") in (None, False)
    operation = Operation.objects.get()
    assert operation.state == "completed"
    assert ToolCall.objects.get(pk=operation.tool_call_id).result == result["structuredContent"]
    assert OutboxEntry.objects.get(operation_id=operation.id).acked_at is not None
