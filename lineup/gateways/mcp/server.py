"""The MCP server: the conversation's Inventory as MCP tools, ``pomodoro.start`` as an MCP task.

Built on the official SDK's low-level ``Server`` (tools are per conversation and carry their own JSON
Schemas, which the decorator-based ``MCPServer`` would derive from Python signatures instead). Every
handler is thin: read the request's ``Binding`` (set by ``lineup.gateways.mcp.endpoint``), call ``bridge`` in a
worker thread, shape the answer.

* ``tools/list``: the published Inventory; each tool's ``_meta`` carries its exact descriptor and the
  Inventory revision, its ``inputSchema`` the bounds the Router enforces beyond the frozen schema.
  ``call_model: operation`` tools declare ``execution.taskSupport: optional``; the others an
  ``outputSchema`` that their rejections validate against too.
* ``tools/call``: the Tool Router. A rejection is an ``isError`` result whose ``structuredContent`` is
  ``{code, detail}`` with the stable RejectionCode.
* Task-augmented ``tools/call`` (protocol 2025-11-25, ``params.task``): a ``CreateTaskResult`` whose
  task id is the operation id; ``tasks/get`` maps the operation state to the task status and
  ``tasks/result`` waits for the final result, returns it and acks the outbox entry. The SDK 2.3 treats
  tasks as types only, so the task-augmented call is answered by a server middleware (below the SDK's
  ``tools/call`` result sieve, which only knows ``CallToolResult``) and the ``tasks/*`` methods are
  registered as custom request handlers.
* Without tasks, ``pomodoro.start`` answers its receipt at once; the result is read from the resource
  ``lineup://operations/<operation_id>`` (or by calling again with the same idempotency key).
* MCP Apps (``lineup.gateways.mcp.apps``): the UI extension, ``_meta.ui`` on Surface apps' tools, the
  ``ui://lineup/<app>`` resources and the app-only status tool.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import mcp.types as types
import structlog
from django.utils import timezone
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types import methods
from mcp.types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from lineup.gateways.mcp import apps, bridge, holding
from lineup.gateways.mcp.admission import NOT_ADMITTED
from lineup.gateways.mcp.bridge import Binding, CallAnswer, OperationView
from lineup.gateways.mcp.schemas import result_or_rejection
from runtime import tracing
from runtime.after_commit import answer_first
from runtime.clock import isoformat
from runtime.db_threads import run_db
from runtime.manifests import ToolDescriptor
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import enforced_input_schema

logger = structlog.get_logger("lineup.mcp")

BINDING_SCOPE_KEY = "lineup.mcp.binding"
# Core MCP tasks exist only in this revision; 2026-07-28 moved them into an extension.
TASKS_PROTOCOL_VERSION = "2025-11-25"
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
DESCRIPTOR_META = "lineup/descriptor"
SOURCE_META = "lineup/source_tool_call_id"
REPLAYED_META = "lineup/replayed"
OPERATION_URI_TEMPLATE = bridge.OPERATION_URI_PREFIX + "{operation_id}"
JSON_MIME = "application/json"

# tasks/get suggests polling at the deadline, but at least this often (an interrupt ends a focus early)
# and no more often than the floor (a settlement lands within milliseconds of ends_at).
POLL_INTERVAL_MAX = timedelta(seconds=5)
POLL_INTERVAL_MIN = timedelta(milliseconds=250)
# A held tasks/result whose token was revoked (or whose user was deactivated) while it waited: the
# code of the endpoint's refusals before admission (the same token would now get a 401 there).
TOKEN_WITHDRAWN = NOT_ADMITTED

INSTRUCTIONS = (
    "These tools act on one LineUp conversation, the one named in this endpoint's URL. "
    "pomodoro.start is a long operation: it returns at once (as an MCP task when you ask for one) and "
    "reports its result once, when the focus is completed or interrupted. Send "
    f"_meta[{bridge.IDEMPOTENCY_KEY_META!r}] with every call you might retry: a retry with the same key "
    "returns the same operation instead of starting another."
)


class LineUpServer(Server[Any]):
    """The low-level server, advertising task-augmented ``tools/call`` on the handshake era."""

    def get_capabilities(self, *args: Any, **kwargs: Any) -> types.ServerCapabilities:
        capabilities = super().get_capabilities(*args, **kwargs)
        if kwargs.get("protocol_version") not in MODERN_PROTOCOL_VERSIONS:
            capabilities.tasks = types.ServerTasksCapability(
                requests=types.ServerTasksRequestsCapability(
                    tools=types.TasksToolsCapability(call=types.TasksCallCapability())
                )
            )
        return capabilities


def build_server() -> LineUpServer:
    server = LineUpServer(
        "lineup",
        version="1",
        title="LineUp",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
    )
    server.add_request_handler("tasks/get", types.GetTaskRequestParams, get_task)
    server.add_request_handler("tasks/result", types.GetTaskPayloadRequestParams, task_result)
    server.middleware.append(task_augmented_calls)
    apps.advertise(server)
    return server


def request_binding(ctx: ServerRequestContext[Any, Any]) -> Binding:
    binding = ctx.request.scope.get(BINDING_SCOPE_KEY) if ctx.request is not None else None
    if not isinstance(binding, Binding):  # only lineup.gateways.mcp.endpoint serves this server
        raise MCPError(code=types.INTERNAL_ERROR, message="request reached the MCP server unauthenticated")
    return binding


# --- tools ---------------------------------------------------------------------------------------


async def list_tools(
    ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
) -> types.ListToolsResult:
    inventory = bridge.inventory(request_binding(ctx))
    tools = [_tool(descriptor, inventory.revision) for descriptor in inventory.tools]
    tools.append(apps.status_tool())  # app-only: MCP Apps hosts keep it from the model
    return types.ListToolsResult(tools=tools, _meta={bridge.INVENTORY_REVISION_META: inventory.revision})


def _tool(descriptor: ToolDescriptor, revision: str) -> types.Tool:
    long_operation = descriptor.call_model == "operation"
    return types.Tool(
        name=descriptor.name,
        description=descriptor.description,
        input_schema=enforced_input_schema(descriptor.name, descriptor.input_schema),
        # A long tool's call answers its receipt, not the result_schema (that is the task's result).
        output_schema=None if long_operation else result_or_rejection(descriptor.result_schema),
        execution=types.ToolExecution(task_support="optional") if long_operation else None,
        _meta={
            DESCRIPTOR_META: descriptor.published(),
            bridge.INVENTORY_REVISION_META: revision,
            **apps.ui_meta(descriptor),
        },
    )


async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == apps.STATUS_TOOL:
        return await apps.call_status_tool(request_binding(ctx), params.arguments)
    answer = await _route(request_binding(ctx), params, task=False)
    return _call_result(answer)


async def task_augmented_calls(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Answer a task-augmented ``tools/call`` with a ``CreateTaskResult``; pass everything else on."""
    raw = ctx.params or {}
    if ctx.method != "tools/call" or ctx.protocol_version != TASKS_PROTOCOL_VERSION or raw.get("task") is None:
        return await call_next(ctx)
    try:
        methods.validate_client_request("tools/call", ctx.protocol_version, raw)
        params = types.CallToolRequestParams.model_validate(raw, by_name=False)
    except ValidationError:
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid request parameters") from None
    binding = request_binding(ctx)
    descriptor = bridge.inventory(binding).get(params.name)
    if (descriptor is not None and descriptor.call_model != "operation") or params.name == apps.STATUS_TOOL:
        # taskSupport is absent ("forbidden") on short tools.
        raise MCPError(code=types.METHOD_NOT_FOUND, message=f"{params.name} does not support task-augmented calls")
    answer = await _route(binding, params, task=True)
    result = _wire_call_result(_call_result(answer), ctx.protocol_version)
    if answer.operation is None:
        return result  # rejected: no task was created, there is nothing to poll
    # A CreateTaskResult; its content/structuredContent (the receipt) also keep it a valid
    # CallToolResult for clients (like the mcp 2.3 SDK's) that parse every tools/call answer as one.
    return {**result, "task": _task(answer.operation, timezone.now())}


def trace_parent(meta: Any) -> dict[str, str]:
    """The W3C trace context a client put in a request's ``_meta`` (``traceparent``, ``tracestate``)."""
    meta = dict(meta or {})
    return {k: meta[k] for k in ("traceparent", "tracestate") if isinstance(meta.get(k), str)}


async def _route(binding: Binding, params: types.CallToolRequestParams, *, task: bool) -> CallAnswer:
    attributes = {"lineup.tool": params.name, "lineup.conversation_id": binding.conversation_id}
    with tracing.span("tool.call", parent=trace_parent(params.meta), attributes=attributes) as span:
        # Hints and the eta publish leave in a background task, not before this request's response.
        async with answer_first():
            answer = await run_db(
                bridge.call_tool,
                binding,
                name=params.name,
                arguments=params.arguments,
                meta=dict(params.meta or {}),
                now=timezone.now(),
            )
        tracing.annotate(span, operation_id=answer.operation.operation_id if answer.operation else None)
    outcome = answer.outcome
    logger.info(
        "mcp.tool_call",
        agent_id=binding.agent_id,
        conversation_id=binding.conversation_id,
        source_tool_call_id=answer.source_tool_call_id,
        tool=params.name,
        task=task,
        outcome=type(outcome).__name__,
        code=outcome.code if isinstance(outcome, Rejected) else None,
        replayed=getattr(outcome, "replayed", None),
    )
    return answer


def _call_result(answer: CallAnswer) -> types.CallToolResult:
    outcome = answer.outcome
    meta: dict[str, Any] = {SOURCE_META: answer.source_tool_call_id}
    if isinstance(outcome, Rejected):
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"{outcome.code}: {outcome.detail}")],
            structured_content={
                "code": str(outcome.code),
                "detail": outcome.detail,
                **({"candidates": outcome.candidates} if outcome.candidates is not None else {}),
            },
            is_error=True,
            _meta=meta,
        )
    meta[REPLAYED_META] = outcome.replayed
    if isinstance(outcome, Receipt):
        return _json_result(outcome.receipt, meta)
    assert isinstance(outcome, Accepted) and answer.operation is not None
    return _json_result(answer.operation.receipt(), meta)


def _json_result(structured: dict[str, Any], meta: dict[str, Any]) -> types.CallToolResult:
    # The JSON text too: structuredContent is newer than many clients (spec: SHOULD also serialize it).
    text = json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=structured, _meta=meta
    )


def _wire_call_result(result: types.CallToolResult, version: str) -> dict[str, Any]:
    """The wire form the SDK gives a ``tools/call`` result at ``version`` (for answers it does not shape)."""
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return methods.serialize_server_result("tools/call", version, dumped)


# --- tasks ---------------------------------------------------------------------------------------


def _task(view: OperationView, now: datetime) -> dict[str, Any]:
    """The MCP ``Task`` of an operation. Terminal ``completed`` for both business results: an
    interrupted focus is a result of the tool, not a failure of the request."""
    task: dict[str, Any] = {
        "taskId": view.operation_id,
        "createdAt": isoformat(view.started_at),
        "lastUpdatedAt": isoformat(view.settled_at or view.started_at),
        "ttl": None,  # the rows are kept: the task does not expire
    }
    if view.final:
        reason = (view.result or {}).get("interruption_reason")
        task["status"] = "completed"
        task["statusMessage"] = f"{view.state} ({reason})" if reason else view.state
    else:
        remaining = view.ends_at - now
        task["status"] = "working"
        task["statusMessage"] = f"{view.state} until {isoformat(view.ends_at)}"  # the app's word
        task["pollInterval"] = _millis(max(POLL_INTERVAL_MIN, min(POLL_INTERVAL_MAX, remaining)))
    return task


def _millis(delta: timedelta) -> int:
    return round(delta.total_seconds() * 1000)


async def _task_operation(binding: Binding, task_id: str) -> OperationView:
    view = await run_db(bridge.operation, binding, task_id)
    if view is None:
        raise MCPError(code=types.INVALID_PARAMS, message="no such task for this Agent in this conversation")
    return view


async def get_task(ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams) -> dict[str, Any]:
    view = await _task_operation(request_binding(ctx), params.task_id)
    return _task(view, timezone.now())


async def task_result(ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams) -> dict[str, Any]:
    """The task's final ``tools/call`` result; blocks until the operation has settled (spec).

    While it waits it costs no database read of its own (``holding``: one read per step for every
    held request of the process). The token is re-checked at every step: revoked meanwhile, the
    request ends refused (within ``holding.STEP_SECONDS``) instead of returning the result to a
    withdrawn token.
    """
    binding = request_binding(ctx)
    try:
        view = await _task_operation(binding, params.task_id)
        try:
            view = await holding.watcher.wait_final(binding, view)
        except LookupError:
            raise MCPError(
                code=types.INVALID_PARAMS, message="no such task for this Agent in this conversation"
            ) from None
        with tracing.span(
            "tool.result", parent=trace_parent(params.meta), attributes={"lineup.operation_id": view.operation_id}
        ):
            acked = await run_db(bridge.deliver_result, binding, view, now=timezone.now(), recheck=True)
    except bridge.TokenWithdrawn as withdrawn:
        logger.info(
            "mcp.task_result_refused",
            agent_id=binding.agent_id,
            conversation_id=binding.conversation_id,
            operation_id=params.task_id,
            reason=str(withdrawn),
        )
        raise MCPError(
            code=TOKEN_WITHDRAWN,
            message=f"this Agent token was {withdrawn} while the request waited; the result is not returned",
            data={"code": str(withdrawn)},
        ) from None
    logger.info(
        "mcp.task_result",
        agent_id=binding.agent_id,
        conversation_id=binding.conversation_id,
        operation_id=view.operation_id,
        state=view.state,
        outbox_acked=acked,
    )
    meta = {RELATED_TASK_META: {"taskId": view.operation_id}}
    final = view.result or {}
    if final.get("isError") is True:
        # The app could not shape a valid result (decision 0041): an error result whose
        # structuredContent is the rejection shape the outputSchema allows; the text has it all.
        result = types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(final, ensure_ascii=False, separators=(",", ":")))],
            structured_content={"code": str(final["error"]["code"]), "detail": str(final["error"]["detail"])},
            is_error=True,
            _meta=meta,
        )
    else:
        result = _json_result(final, meta)
    return _wire_call_result(result, ctx.protocol_version)


# --- the fallback for clients without tasks: the operation as a resource ----------------------------


async def list_resources(
    ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
) -> types.ListResourcesResult:
    binding = request_binding(ctx)
    views = await run_db(bridge.recent_operations, binding)
    return types.ListResourcesResult(
        resources=[
            *apps.ui_resources(binding),
            *(
                types.Resource(uri=view.uri, name=f"operation {view.operation_id}", mime_type=JSON_MIME)
                for view in views
            ),
        ]
    )


async def list_resource_templates(
    ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(
        resource_templates=[
            types.ResourceTemplate(
                uri_template=OPERATION_URI_TEMPLATE,
                name="operation",
                description="A pomodoro.start operation: its state, and its final result once it has one.",
                mime_type=JSON_MIME,
            )
        ]
    )


async def read_resource(
    ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    binding = request_binding(ctx)
    uri = str(params.uri)
    if apps.is_ui_uri(uri):
        return apps.read_ui_resource(binding, uri)
    view = None
    if uri.startswith(bridge.OPERATION_URI_PREFIX):
        view = await run_db(bridge.operation, binding, uri.removeprefix(bridge.OPERATION_URI_PREFIX))
    if view is None:
        raise MCPError(code=types.INVALID_PARAMS, message="no such resource", data={"uri": uri})
    if view.final:
        await run_db(bridge.deliver_result, binding, view, now=timezone.now())
    text = json.dumps(view.receipt(), ensure_ascii=False, separators=(",", ":"))
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=JSON_MIME, text=text)])
