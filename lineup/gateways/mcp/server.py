"""The MCP server: the conversation's Inventory as MCP tools, every long tool as an MCP task.

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
* Protocol 2026-07-28 with the tasks extension (SEP-2663, decision 0044): for a request that declares
  ``io.modelcontextprotocol/tasks``, every long tool's call is a flat ``CreateTaskResult`` (the server
  decides); ``tasks/get`` inlines the result once terminal (and acks the outbox entry), ``tasks/cancel``
  interrupts through the Runtime's settlement, ``tasks/update`` acks; without the extension,
  ``tasks/*`` answer -32021.
* Without tasks, ``pomodoro.start`` answers its receipt at once; the result is read from the resource
  ``lineup://operations/<operation_id>`` (or by calling again with the same idempotency key).
* MCP Apps (``lineup.gateways.mcp.apps``): the UI extension, ``_meta.ui`` on Surface apps' tools, the
  ``ui://lineup/<app>`` resources and the app-only status tool.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta
from typing import Any

import mcp.types as types
import structlog
from django.utils import timezone
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp.types import methods
from mcp.types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from lineup.gateways.mcp import apps, bridge, holding, reads
from lineup.gateways.mcp.admission import NOT_ADMITTED
from lineup.gateways.mcp.bridge import Binding, CallAnswer, OperationView
from lineup.gateways.mcp.schemas import result_or_rejection
from runtime import metrics, tracing
from runtime.after_commit import answer_first
from runtime.clock import isoformat
from runtime.db_threads import run_db
from runtime.manifests import ToolDescriptor
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import enforced_input_schema
from runtime.transitions import FINAL_OPERATION_STATES, InterruptionReason

logger = structlog.get_logger("lineup.mcp")

BINDING_SCOPE_KEY = "lineup.mcp.binding"
# Core MCP tasks exist only in this revision; 2026-07-28 moved them into an extension.
TASKS_PROTOCOL_VERSION = "2025-11-25"
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
# 2026-07-28: tasks are the extension SEP-2663, offered to the clients that declare it (decision 0044).
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TASK_RESULT_TTL = bridge.TASK_RESULT_TTL
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

AGENT_INTERRUPT = InterruptionReason.AGENT_INTERRUPT.value

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
        if kwargs.get("protocol_version") in MODERN_PROTOCOL_VERSIONS:
            capabilities.extensions = {**(capabilities.extensions or {}), TASKS_EXTENSION: {}}
        else:
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
    server.add_request_handler("tasks/cancel", types.GetTaskRequestParams, cancel_task)
    server.add_request_handler("tasks/update", types.GetTaskRequestParams, update_task)
    server.middleware.append(measured)
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
    tools.append(reads.state_tool())  # what runs in the conversation, for the model
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
    if params.name == reads.STATE_TOOL:
        return await reads.call_state_tool(request_binding(ctx), params.arguments)
    answer = await _route(ctx, request_binding(ctx), params, task=False)
    return _call_result(answer)


# The methods named in the duration metric's label; any other a client sends is "other" (bounded).
MEASURED_METHODS = frozenset(
    {
        "server/discover", "initialize", "ping", "tools/list", "tools/call", "resources/list",
        "resources/templates/list", "resources/read", "tasks/get", "tasks/result", "tasks/cancel", "tasks/update",
    }
)  # fmt: skip


async def measured(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Every request's duration, as the OpenTelemetry MCP convention's ``mcp.server.operation.duration``
    (``error.type``: the JSON-RPC error code, ``tool_error`` for a tool's ``isError`` result)."""
    started = time.perf_counter()
    error_type = ""
    try:
        result = await call_next(ctx)
        if _is_tool_error(result):
            error_type = "tool_error"
        return result
    except MCPError as error:
        error_type = str(error.error.code)
        raise
    except Exception as error:
        error_type = type(error).__qualname__
        raise
    finally:
        method = ctx.method if ctx.method in MEASURED_METHODS else "other"
        metrics.observe_mcp_operation(method, time.perf_counter() - started, error_type)


def _is_tool_error(result: object) -> bool:
    if isinstance(result, types.CallToolResult):
        return result.is_error is True
    return isinstance(result, dict) and result.get("isError") is True


async def task_augmented_calls(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Answer a ``tools/call`` of a long tool as a task when the client speaks tasks; pass everything
    else on.

    2025-11-25: the client asks with ``params.task`` (core tasks). 2026-07-28: the server decides
    (SEP-2663): every long tool's call is a task for a client that declared the extension, in its
    request's ``clientCapabilities``; for one that did not, the call answers its receipt at once.
    """
    raw = ctx.params or {}
    if ctx.method != "tools/call":
        return await call_next(ctx)
    legacy = ctx.protocol_version == TASKS_PROTOCOL_VERSION and raw.get("task") is not None
    extension = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and declares_tasks(ctx)
    if not (legacy or extension):
        return await call_next(ctx)
    try:
        methods.validate_client_request("tools/call", ctx.protocol_version, raw)
        params = types.CallToolRequestParams.model_validate(raw, by_name=False)
    except ValidationError:
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid request parameters") from None
    binding = request_binding(ctx)
    descriptor = bridge.inventory(binding).get(params.name)
    short = (descriptor is not None and descriptor.call_model != "operation") or params.name == apps.STATUS_TOOL
    if short and extension:
        return await call_next(ctx)  # the server decides: a short tool answers its result
    if short:
        # taskSupport is absent ("forbidden") on short tools.
        raise MCPError(code=types.METHOD_NOT_FOUND, message=f"{params.name} does not support task-augmented calls")
    answer = await _route(ctx, binding, params, task=True)
    result = _wire_call_result(_call_result(answer), ctx.protocol_version)
    if answer.operation is None:
        return result  # rejected (or an unknown tool): no task was created, there is nothing to poll
    if extension:
        # The operation row is committed (the router's decision returned): tasks/get finds it at once.
        return {"resultType": "task", **_extension_task(answer.operation, timezone.now())}
    # A CreateTaskResult; its content/structuredContent (the receipt) also keep it a valid
    # CallToolResult for clients (like the mcp 2.3 SDK's) that parse every tools/call answer as one.
    return {**result, "task": _task(answer.operation, timezone.now())}


def declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """The request's client declared the tasks extension (2026-07-28: in this request's envelope)."""
    capabilities = ctx.session.client_capabilities
    return bool(capabilities and capabilities.extensions and TASKS_EXTENSION in capabilities.extensions)


def trace_parent(meta: Any) -> dict[str, str]:
    """The W3C trace context a client put in a request's ``_meta`` (``traceparent``, ``tracestate``)."""
    meta = dict(meta or {})
    return {k: meta[k] for k in ("traceparent", "tracestate") if isinstance(meta.get(k), str)}


def semconv(ctx: ServerRequestContext[Any, Any], **more: str) -> dict[str, str]:
    """The OpenTelemetry MCP convention's attributes of this request, beside LineUp's own ``lineup.*``
    (added, not renamed: dashboards read both)."""
    attributes = {"mcp.method.name": ctx.method, "mcp.protocol.version": ctx.protocol_version, **more}
    if ctx.request_id is not None:
        attributes["jsonrpc.request.id"] = str(ctx.request_id)
    return attributes


async def _route(
    ctx: ServerRequestContext[Any, Any], binding: Binding, params: types.CallToolRequestParams, *, task: bool
) -> CallAnswer:
    attributes = {
        "lineup.tool": params.name,
        "lineup.conversation_id": binding.conversation_id,
        **semconv(ctx, **{"gen_ai.tool.name": params.name, "gen_ai.operation.name": "execute_tool"}),
    }
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
        if span is not None and isinstance(answer.outcome, Rejected):
            span.set_attribute("error.type", "tool_error")  # the convention's name for an isError result
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
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return await _get_extension_task(ctx, params)
    view = await _task_operation(request_binding(ctx), params.task_id)
    return _task(view, timezone.now())


# --- tasks, 2026-07-28: the extension io.modelcontextprotocol/tasks (SEP-2663) ----------------------


def _extension_task(view: OperationView, now: datetime) -> dict[str, Any]:
    """The SEP-2663 ``Task`` of an operation (without its result).

    ``cancelled`` when the Agent ended it (``tasks/cancel``, or the app's interrupt tool: both are the
    requester's interrupt); ``completed`` for every other end — a focus the person ended, or the
    operator, is a result of the tool. ``failed`` is for an operation whose result can not be read.
    """
    task: dict[str, Any] = {
        "taskId": view.operation_id,
        "createdAt": isoformat(view.started_at),
        "lastUpdatedAt": isoformat(view.settled_at or view.started_at),
        "ttlMs": _millis(view.ends_at - view.started_at + TASK_RESULT_TTL),
    }
    if view.final:
        reason = (view.result or {}).get("interruption_reason")
        task["status"] = "cancelled" if reason == AGENT_INTERRUPT else "completed"
        task["statusMessage"] = f"{view.state} ({reason})" if reason else view.state
    elif view.state in FINAL_OPERATION_STATES:  # ended, but with no result to give: the task failed
        task["status"] = "failed"
    else:
        remaining = view.ends_at - now
        task["status"] = "working"
        task["statusMessage"] = f"{view.state} until {isoformat(view.ends_at)}"
        task["pollIntervalMs"] = _millis(max(POLL_INTERVAL_MIN, min(POLL_INTERVAL_MAX, remaining)))
    return task


async def _get_extension_task(
    ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams
) -> dict[str, Any]:
    """``tasks/get`` (SEP-2663): the task, with its ``tools/call`` result inlined once it has one.

    The first answer that carries the result acks the operation's outbox entry (decision 0044):
    SEP-2663 has no acknowledgement, and this is the moment the result reached the Agent. Later
    ``tasks/get`` answer the same result again from the tool call row.
    """
    require_client_extension(ctx, TASKS_EXTENSION)
    binding = request_binding(ctx)
    view = await _task_operation(binding, params.task_id)
    task = _extension_task(view, timezone.now())
    if task["status"] == "failed":
        task["error"] = {"code": types.INTERNAL_ERROR, "message": "the operation ended without a result"}
    elif view.final:
        with tracing.span(
            "tool.result",
            parent=trace_parent(params.meta),
            attributes={"lineup.operation_id": view.operation_id, **semconv(ctx)},
        ):
            acked = await run_db(bridge.deliver_result, binding, view, now=timezone.now())
        logger.info(
            "mcp.task_result",
            agent_id=binding.agent_id,
            conversation_id=binding.conversation_id,
            operation_id=view.operation_id,
            state=view.state,
            outbox_acked=acked,
        )
        # An app's error result stays a result of the tool: completed with isError (SEP-2663).
        task["result"] = _wire_call_result(_final_call_result(view.result or {}, {}), ctx.protocol_version)
    return task


async def cancel_task(ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams) -> dict[str, Any]:
    """``tasks/cancel`` (SEP-2663): interrupt the operation; an empty ack, the same for a task that
    had already ended (its one result stays the truth), -32602 for a task that is not this Agent's."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        raise MCPError(code=types.METHOD_NOT_FOUND, message="Method not found", data="tasks/cancel")
    require_client_extension(ctx, TASKS_EXTENSION)
    binding = request_binding(ctx)
    with tracing.span(
        "task.cancel",
        parent=trace_parent(params.meta),
        attributes={"lineup.operation_id": params.task_id, **semconv(ctx)},
    ):
        async with answer_first():
            view = await run_db(bridge.cancel, binding, params.task_id, now=timezone.now())
    if view is None:
        raise MCPError(code=types.INVALID_PARAMS, message="no such task for this Agent in this conversation")
    logger.info("mcp.task_cancel", agent_id=binding.agent_id, operation_id=view.operation_id, state=view.state)
    return {}


async def update_task(ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams) -> dict[str, Any]:
    """``tasks/update`` (SEP-2663): LineUp's tasks never wait for the client's input, so there is
    nothing to deliver; an empty ack for a task of this Agent's, -32602 otherwise."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        raise MCPError(code=types.METHOD_NOT_FOUND, message="Method not found", data="tasks/update")
    require_client_extension(ctx, TASKS_EXTENSION)
    await _task_operation(request_binding(ctx), params.task_id)
    return {}


async def task_result(ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams) -> dict[str, Any]:
    """The task's final ``tools/call`` result; blocks until the operation has settled (spec).

    While it waits it costs no database read of its own (``holding``: one read per step for every
    held request of the process). The token is re-checked at every step: revoked meanwhile, the
    request ends refused (within ``holding.STEP_SECONDS``) instead of returning the result to a
    withdrawn token.
    """
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:  # SEP-2663: the result is inlined in tasks/get
        raise MCPError(code=types.METHOD_NOT_FOUND, message="Method not found", data="tasks/result")
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
            "tool.result",
            parent=trace_parent(params.meta),
            attributes={"lineup.operation_id": view.operation_id, **semconv(ctx)},
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
    result = _final_call_result(view.result or {}, {RELATED_TASK_META: {"taskId": view.operation_id}})
    return _wire_call_result(result, ctx.protocol_version)


def _final_call_result(final: dict[str, Any], meta: dict[str, Any]) -> types.CallToolResult:
    """An operation's one final result as the ``tools/call`` result its task ends with (both tasks
    revisions)."""
    if final.get("isError") is True:
        # The app could not shape a valid result (decision 0041): an error result whose
        # structuredContent is the rejection shape the outputSchema allows; the text has it all.
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(final, ensure_ascii=False, separators=(",", ":")))],
            structured_content={"code": str(final["error"]["code"]), "detail": str(final["error"]["detail"])},
            is_error=True,
            _meta=meta,
        )
    return _json_result(final, meta)


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
