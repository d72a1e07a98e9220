"""One OpenTelemetry trace from an Agent's ``tool.call`` to its ``tool.result`` (runtime.tracing).

In-process, with the SDK's in-memory exporter: the real consumer (channels' communicator on
``lineup.asgi.application``), the real deciding services, the eta task's message as the broker
would carry it (its headers captured at publish, then run by Celery's ``apply`` with them), and the
settlement's hint to the consumer, which delivers the result.

Not in tests/lineup/gateways/: the live Daphnes those packages keep for their tests run an embedded
scheduler on the same database, which would settle this test's focus before its eta task does.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.utils import timezone
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from runtime import deadlines, tracing
from runtime.models import Operation
from runtime.services.agents import create_agent_token
from runtime.tasks import settle_operation_task
from tests.support.hostile import InProcessAgent, in_process
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    tracing.use_provider(provider)  # this module's tracer only: the process's global provider is left alone
    yield spans
    tracing.use_provider(None)


@pytest.fixture
def token(user) -> str:
    return create_agent_token(user=user, name="traced-agent", now=timezone.now())[1]


class Broker:
    """Stands in for Celery's ``send_task`` in runtime.deadlines: keeps what would be published."""

    def __init__(self) -> None:
        self.published: list[dict] = []

    def send_task(self, name: str, *, args: list, eta: object, headers: dict | None = None) -> None:
        self.published.append({"name": name, "args": args, "eta": eta, "headers": headers})


def by_name(spans: tuple[ReadableSpan, ...], name: str) -> ReadableSpan:
    [found] = [s for s in spans if s.name == name]
    return found


def test_one_trace_from_tool_call_through_decision_eta_task_and_settlement_to_tool_result(
    settings, exporter, token, conversation, monkeypatch
):
    """tool.call → decision start_operation → the eta task (its parent in the message headers) →
    decision settle_operation → tool.result (its parent in the settlement's hint): one trace, each
    span the child of the one before, the operation id on each."""
    settings.LINEUP_SCHEDULER = "celery"
    broker = Broker()
    monkeypatch.setattr(deadlines, "current_app", broker)
    with in_process(settings) as runner:
        agent = InProcessAgent(runner)
        agent.hello(token)
        cid = str(conversation.id)
        revision = agent.request({"type": "inventory.get", "conversation_id": cid})["revision"]
        accepted = agent.request(
            {
                "type": "tool.call",
                "conversation_id": cid,
                "source_tool_call_id": f"call-{uuid.uuid4()}",
                "tool": "pomodoro.start",
                "arguments": {"duration_seconds": 1},
                "inventory_revision": revision,
            }
        )
        assert accepted["type"] == "tool.accepted", accepted
        operation_id = accepted["operation_id"]
        wait_for(lambda: broker.published, timeout=5, what="the eta task's publish (after the answer)")
        [task] = broker.published
        assert task["headers"]["traceparent"]
        ends_at = Operation.objects.get(pk=operation_id).ends_at
        wait_for(lambda: timezone.now() >= ends_at, timeout=5, what="the deadline")

        # What a worker does with the message: the task, with the headers it carried.
        assert settle_operation_task.apply(args=task["args"], headers=task["headers"]).get() == "Settle"
        result = agent.sock.receive()
        assert (result["type"], result["result"]["operation_id"]) == ("tool.result", operation_id)
        wait_for(
            lambda: any(s.name == "tool.result" for s in exporter.get_finished_spans()),
            timeout=5,
            what="the tool.result span",
        )

    spans = exporter.get_finished_spans()
    call = by_name(spans, "tool.call")
    start = by_name(spans, "decision start_operation")
    task_span = by_name(spans, "task runtime.tasks.settle_operation")
    settle = by_name(spans, "decision settle_operation")
    delivery = by_name(spans, "tool.result")
    chain = [call, start, task_span, settle, delivery]
    assert {s.context.trace_id for s in chain} == {call.context.trace_id}
    assert call.parent is None
    for parent, child in itertools.pairwise(chain):
        assert child.parent.span_id == parent.context.span_id, (child.name, parent.name)
    for span in chain:
        assert span.attributes["lineup.operation_id"] == operation_id, span.name
    assert call.attributes["lineup.tool"] == "pomodoro.start"


def test_tracing_is_off_without_the_otel_environment(monkeypatch):
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER"):
        monkeypatch.delenv(name, raising=False)
    assert not tracing.wanted()
    assert tracing.carrier() == {}
    with tracing.span("anything") as span:
        assert span is None
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
    assert tracing.wanted()
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert not tracing.wanted()


def test_an_mcp_tool_call_continues_the_traceparent_in_its_meta(exporter, token, conversation):
    """An MCP ``tools/call`` whose ``_meta`` carries a W3C ``traceparent`` is a span of that trace
    (the client's span its parent), and its decision a child of it."""
    import asyncio

    from mcp import types

    from lineup.gateways.mcp import bridge, server

    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    binding = bridge.bind(token=token, conversation_id=str(conversation.id), now=timezone.now())
    params = types.CallToolRequestParams.model_validate(
        {
            "name": "pomodoro.start",
            "arguments": {"duration_seconds": 600},
            "_meta": {"traceparent": f"00-{trace_id}-{parent_id}-01"},
        }
    )
    from channels.db import database_sync_to_async
    from django.db import connections

    # The request's facts the SDK's context carries (method, revision, JSON-RPC id).
    ctx = SimpleNamespace(method="tools/call", protocol_version="2026-07-28", request_id=7)

    async def call() -> server.CallAnswer:
        try:
            return await server._route(ctx, binding, params, task=True)
        finally:  # the worker thread's own connection, or the test database can not be dropped
            await database_sync_to_async(connections.close_all)()

    answer = asyncio.run(call())
    assert answer.operation is not None, answer.outcome

    spans = exporter.get_finished_spans()
    call = by_name(spans, "tool.call")
    decision = by_name(spans, "decision start_operation")
    assert format(call.context.trace_id, "032x") == trace_id
    assert format(call.parent.span_id, "016x") == parent_id
    assert decision.parent.span_id == call.context.span_id
    assert call.attributes["lineup.operation_id"] == answer.operation.operation_id
    # OpenTelemetry's MCP convention, beside LineUp's own attributes.
    assert {k: call.attributes[k] for k in call.attributes if not k.startswith("lineup.")} == {
        "mcp.method.name": "tools/call",
        "mcp.protocol.version": "2026-07-28",
        "jsonrpc.request.id": "7",
        "gen_ai.tool.name": "pomodoro.start",
        "gen_ai.operation.name": "execute_tool",
    }
    assert call.attributes["lineup.tool"] == "pomodoro.start"
