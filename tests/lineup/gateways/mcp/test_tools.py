"""``tools/list`` and ``tools/call`` over MCP: the published Inventory, the same Tool Router and services.

Driven with the official ``mcp`` client over real HTTP against a live Daphne on Postgres.
"""

from __future__ import annotations

import asyncio

import mcp.types as mcp_types
import pytest
from django.utils import timezone
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from lineup.gateways.mcp.schemas import REJECTION_SCHEMA
from runtime.clock import to_millis
from runtime.inventory import inventory_for_scope
from runtime.models import Agent, LifecycleEvent, Operation, ToolCall
from runtime.tool_router import enforced_input_schema
from runtime.transitions import OperationState
from tests.lineup.gateways.agent_socket.client import row_counts
from tests.lineup.gateways.mcp.client import INVENTORY_REVISION
from tests.support.factories import MAX_FOCUS_SECONDS, activity_of

LIFECYCLE = LifecycleEvent._meta.label


def _rejection(result) -> tuple[str, str]:
    assert result.is_error, result
    structured = result.structured_content
    assert set(structured) == {"code", "detail"} and structured["detail"], structured
    assert result.content[0].text == f"{structured['code']}: {structured['detail']}"
    return structured["code"], structured["detail"]


@pytest.mark.spec("R-3.11")
def test_tools_list_is_the_conversations_published_inventory(live, mcp, conversation):
    """Exactly the Inventory's tools, with its input schemas and the bounds the Router adds to them, each
    descriptor verbatim in ``_meta`` and the Inventory revision; the long tool declares optional task
    support, the short one its result schema or a rejection as output schema. The server advertises
    task-augmented tools/call. (After them comes the app-only status tool of MCP Apps views, and the
    tools' ``_meta.ui``: test_apps.py.)"""
    inventory = inventory_for_scope(conversation.scope)
    listed = mcp.list_tools()

    assert listed.meta == {INVENTORY_REVISION: inventory.revision}
    names = [t.name for t in listed.tools]
    assert (
        names[:-2]
        == [d.name for d in inventory.tools]
        == [
            "notes.append",
            "notes.read",
            "pomodoro.interrupt",
            "pomodoro.start",
            "quiz.start",
            "quiz.stop",
        ]
    )
    assert names[-2:] == ["lineup.conversation_state", "lineup.operation_status"]
    for tool, descriptor in zip(listed.tools[:-2], inventory.tools, strict=True):
        assert tool.input_schema == enforced_input_schema(descriptor.name, descriptor.input_schema)
        assert tool.description == descriptor.description
        meta = {key: value for key, value in tool.meta.items() if not key.startswith("ui")}
        assert meta == {"lineup/descriptor": descriptor.published(), INVENTORY_REVISION: inventory.revision}
    _, _, interrupt, start, quiz_start, quiz_stop, _, _ = listed.tools
    assert start.execution is not None and start.execution.task_support == "optional"
    assert start.output_schema is None  # its call answers a receipt; the result comes with the task
    assert interrupt.execution is None
    assert interrupt.output_schema == {
        "type": "object",
        "anyOf": [inventory.get("pomodoro.interrupt").result_schema, REJECTION_SCHEMA],
    }
    duration = start.input_schema["properties"]["duration_seconds"]
    assert duration == {"type": "integer", "minimum": 1, "maximum": MAX_FOCUS_SECONDS}  # the Router's bound
    # The quiz's tools are published the same way, with its own manifest's bound (1 h).
    assert quiz_start.execution is not None and quiz_start.execution.task_support == "optional"
    assert quiz_start.input_schema["properties"]["duration_seconds"]["maximum"] == 3600
    assert quiz_stop.execution is None
    assert quiz_stop.output_schema == {
        "type": "object",
        "anyOf": [inventory.get("quiz.stop").result_schema, REJECTION_SCHEMA],
    }

    tasks = mcp.initialize_result.capabilities.tasks
    assert tasks is not None and tasks.requests.tools.call is not None


@pytest.mark.spec("R-3.5", "R-3.3")
def test_a_valid_start_answers_its_receipt_at_once(live, mcp, conversation):
    """Without a task, pomodoro.start answers at once with the operation it started (id, ends_at, the
    resource to read its result from); the operation is the Runtime's, recorded as this Agent's call
    under the MCP idempotency key."""
    before = timezone.now()
    result = mcp.call("pomodoro.start", {"duration_seconds": 1500, "activity": "write"}, key="start-1")
    answered = timezone.now()

    assert not result.is_error, result
    receipt = result.structured_content
    operation = Operation.objects.get()
    assert receipt == {
        "app_id": "pomodoro",
        "activity": "write",  # the app's own field of its projection
        "operation_id": str(operation.id),
        "instance_id": str(operation.instance_id),
        "app_session_id": str(operation.app_session_id),
        "state": "focusing",
        "started_at": receipt["started_at"],
        "ends_at": receipt["ends_at"],
        "result_uri": f"lineup://operations/{operation.id}",
    }
    assert result.meta == {"lineup/source_tool_call_id": "mcp:start-1", "lineup/replayed": False}
    assert operation.state == OperationState.RUNNING and activity_of(operation) == "write"
    assert to_millis(before) <= operation.started_at <= answered  # the Runtime stores milliseconds
    assert (operation.ends_at - operation.started_at).total_seconds() == 1500
    call = ToolCall.objects.get()
    agent = Agent.objects.get()
    assert (call.source_tool_call_id, call.tool, call.caller) == ("mcp:start-1", "pomodoro.start", f"agent:{agent.id}")


@pytest.mark.spec("R-3.11", "R-2.2.3")
def test_invalid_calls_are_rejected_with_the_stable_code_and_change_nothing(live, mcp, conversation):
    """Arguments the input schema refuses (a string, a boolean or a float for the integer, zero, an
    extra field, none at all), an unknown tool, a stale Inventory revision and an unusable idempotency
    key are ``isError`` results carrying the RejectionCode — with a task requested or not — and write
    nothing but their decision-log entries."""
    before = row_counts()
    last_event = LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    cases = [
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": "25"}, {}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": True}, {}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": 1.5}, {}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": 0}, {}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": 60, "instance_id": "x"}, {}),
        ("invalid_arguments", "pomodoro.start", None, {}),
        ("invalid_arguments", "pomodoro.interrupt", {"operation_id": "x"}, {}),
        ("unknown_tool", "pomodoro.pause", {}, {}),
        ("stale_inventory", "pomodoro.start", {"duration_seconds": 60}, {INVENTORY_REVISION: "inv-old"}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": 60}, {"lineup/idempotency_key": 7}),
        ("invalid_arguments", "pomodoro.start", {"duration_seconds": 60}, {"lineup/idempotency_key": "k" * 125}),
    ]
    for code, tool, arguments, meta in cases:
        assert _rejection(mcp.call(tool, arguments, meta=meta))[0] == code, (tool, arguments, meta)
    for code, arguments in (("invalid_arguments", {"duration_seconds": "25"}), ("unknown_tool", {})):
        tool = "pomodoro.start" if code == "invalid_arguments" else "pomodoro.pause"
        rejected = mcp.call_as_task(tool, arguments, key=f"task-{code}", expect=mcp_types.CallToolResult)
        assert _rejection(rejected)[0] == code  # no task was created: nothing to poll

    after = row_counts()
    assert {k: v for k, v in after.items() if k != LIFECYCLE} == {k: v for k, v in before.items() if k != LIFECYCLE}
    new_events = LifecycleEvent.objects.filter(id__gt=last_event).values_list("kind", flat=True)
    assert list(new_events) == ["tool.rejected"] * (len(cases) + 2)
    # The endpoint is still usable, and the revision a client echoes is checked, not just accepted.
    revision = mcp.list_tools().meta[INVENTORY_REVISION]
    assert not mcp.call("pomodoro.start", {"duration_seconds": 60}, meta={INVENTORY_REVISION: revision}).is_error


@pytest.mark.spec("R-3.12")
def test_a_second_start_is_rejected_while_one_is_focusing(live, mcp, conversation):
    """A second pomodoro.start (another key), plain or as a task, is rejected ``active_focusing_operation``
    and creates nothing: the conversation keeps its one focusing operation."""
    first = mcp.call_as_task("pomodoro.start", {"duration_seconds": 600}, key="first")
    for rejected in (
        mcp.call("pomodoro.start", {"duration_seconds": 300}, key="second"),
        mcp.call_as_task("pomodoro.start", {"duration_seconds": 300}, key="third", expect=mcp_types.CallToolResult),
    ):
        code, detail = _rejection(rejected)
        assert code == "active_focusing_operation", detail
    operation = Operation.objects.get()
    assert str(operation.id) == first.task.task_id and operation.state == OperationState.RUNNING
    assert ToolCall.objects.count() == 1


@pytest.mark.spec("R-3.6", "R-3.7")
def test_interrupt_settles_the_focus_and_its_task(live, mcp, conversation):
    """pomodoro.interrupt (no target) answers ``interrupted`` for the focusing operation; the start's task
    is then ``completed`` with the interrupted result. A late interrupt only gets
    ``operation_already_final`` and writes no second result."""
    task = mcp.call_as_task("pomodoro.start", {"duration_seconds": 600}, key="long").task
    receipt = mcp.call("pomodoro.interrupt", key="stop-1")
    assert not receipt.is_error, receipt
    assert receipt.structured_content == {"status": "interrupted", "operation_id": task.task_id}

    settled = mcp.get_task(task.task_id)
    assert (settled.status, settled.status_message) == ("completed", "interrupted (agent_interrupt)")
    assert settled.poll_interval is None
    result = mcp.task_result(task.task_id)
    assert not result.is_error
    assert result.structured_content["state"] == "interrupted"
    assert result.structured_content["interruption_reason"] == "agent_interrupt"
    assert result.meta == {"io.modelcontextprotocol/related-task": {"taskId": task.task_id}}

    late = mcp.call("pomodoro.interrupt", key="stop-2")
    assert late.structured_content == {"status": "operation_already_final", "operation_id": task.task_id}
    operation = Operation.objects.get(pk=task.task_id)
    assert operation.state == OperationState.INTERRUPTED
    assert operation.outbox_entry.acked_at is not None  # tasks/result delivered it
    assert mcp.call("pomodoro.interrupt", key="stop-1").structured_content == receipt.structured_content


@pytest.mark.spec("R-3.5", "R-3.7")
def test_a_retry_with_the_same_key_is_the_same_call(live, connect, mcp, token, conversation):
    """The same ``lineup/idempotency_key`` — plain, as a task, from a new connection, on another Daphne —
    returns the same operation (the task id is its id) and creates nothing; the same key with other
    arguments is ``idempotency_key_reused``. Interrupt receipts replay the same way."""
    first = mcp.call("pomodoro.start", {"duration_seconds": 600}, key="retry-me")
    operation_id = first.structured_content["operation_id"]
    again = mcp.call("pomodoro.start", {"duration_seconds": 600}, key="retry-me")
    as_task = mcp.call_as_task("pomodoro.start", {"duration_seconds": 600}, key="retry-me")
    elsewhere = connect(token, conversation.id, server=live.remote)
    remote = elsewhere.call("pomodoro.start", {"duration_seconds": 600}, key="retry-me")

    assert again.structured_content == first.structured_content == remote.structured_content
    assert again.meta == {"lineup/source_tool_call_id": "mcp:retry-me", "lineup/replayed": True}
    assert as_task.task.task_id == operation_id and as_task.task.status == "working"
    assert (Operation.objects.count(), ToolCall.objects.count()) == (1, 1)

    code, _ = _rejection(mcp.call("pomodoro.start", {"duration_seconds": 601}, key="retry-me"))
    assert code == "idempotency_key_reused"

    stop = mcp.call("pomodoro.interrupt", key="stop")
    assert elsewhere.call("pomodoro.interrupt", key="stop").structured_content == stop.structured_content
    # Once final, a retry of the start carries the result: polling by retry works without tasks too.
    final = mcp.call("pomodoro.start", {"duration_seconds": 600}, key="retry-me").structured_content
    assert final["state"] == "interrupted" and final["result"]["interruption_reason"] == "agent_interrupt"
    assert (Operation.objects.count(), ToolCall.objects.count()) == (1, 2)


@pytest.mark.spec("R-3.5", "R-3.12")
def test_without_a_key_an_mcp_request_id_is_never_taken_for_a_retry(live, connect, token, conversation):
    """JSON-RPC request ids restart with every client connection, so they are no idempotency key: two
    connections making their first call alike without a key are two calls — the second start is
    rejected, not answered with the first one's receipt — and each is stored under its own key."""
    one = connect(token, conversation.id)
    two = connect(token, conversation.id, server=live.remote)
    accepted = one.call("pomodoro.start", {"duration_seconds": 600})
    assert not accepted.is_error
    assert _rejection(two.call("pomodoro.start", {"duration_seconds": 600}))[0] == "active_focusing_operation"
    stops = [one.call("pomodoro.interrupt"), two.call("pomodoro.interrupt")]
    assert [s.structured_content["status"] for s in stops] == ["interrupted", "operation_already_final"]
    keys = list(ToolCall.objects.values_list("source_tool_call_id", flat=True))
    assert len(keys) == len(set(keys)) == 3 and all(k.startswith("mcp:") for k in keys)


@pytest.mark.spec("R-3.11", "R-3.5")
def test_the_sdks_default_client_on_protocol_2026_is_served_without_tasks(live, token, conversation):
    """``mcp.Client`` negotiates 2026-07-28 (``server/discover``), where core tasks no longer exist: it
    gets the same tools and the receipt of a plain call, and no task capability is advertised."""
    url = live.main.url(conversation.id)

    async def session() -> tuple[str, object, list[str], mcp_types.CallToolResult]:
        async with (
            create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            tools = await client.list_tools()
            started = await client.call_tool(
                "pomodoro.start", {"duration_seconds": 600}, meta={"lineup/idempotency_key": "modern"}
            )
            return client.protocol_version, client.server_capabilities.tasks, [t.name for t in tools.tools], started

    version, tasks, names, started = asyncio.run(session())
    assert (version, tasks) == ("2026-07-28", None)
    published = sorted(t.name for t in inventory_for_scope("personal").tools)  # whatever apps are installed
    assert {"notes.append", "notes.read", "pomodoro.interrupt", "pomodoro.start", "quiz.start", "quiz.stop"} <= set(
        published
    )
    assert names == [*published, "lineup.conversation_state", "lineup.operation_status"]
    assert started.structured_content["operation_id"] == str(Operation.objects.get(source_tool_call_id="mcp:modern").id)
