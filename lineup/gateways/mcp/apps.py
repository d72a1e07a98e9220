"""MCP Apps (the ``io.modelcontextprotocol/ui`` extension) on the MCP endpoint: MiniApp Surfaces as ``ui://`` resources.

What this adds to the endpoint (docs/agents.md, "MiniApps in MCP Apps hosts"; decision 0021):

* the extension in the server's capabilities;
* on every published tool of a MiniApp whose manifest declares a Surface, ``_meta.ui.resourceUri``
  ``ui://lineup/<app_id>`` (and the flat ``_meta["ui/resourceUri"]`` older hosts read);
* ``resources/list`` and ``resources/read`` of those URIs: the Surface as one self-contained HTML
  document (``interact.surface_document``), ``text/html;profile=mcp-app``, whose ``_meta.ui.csp`` declares no
  connect, resource, frame or base-URI domain;
* the app-only tool ``lineup.operation_status`` (``_meta.ui.visibility: ["app"]``): the Runtime's
  state of one operation of the bound conversation (with the app's own fields from its projection),
  which is how a rendered Surface learns that its operation was completed or interrupted. It only reads the Operation row: it acks nothing, records no
  tool call and changes no state, so a host that renders the app never, twice or after a reload
  changes nothing the Runtime guarantees.

A MiniApp without an operation tool (Scratch notes: ``notes.append`` and ``notes.read`` are short)
has no ``ui://`` resource: its Surface keeps its text in an instance snapshot, which exists only in
the workspace, and a host's Surface can learn nothing but an operation's status.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import mcp.types as types
from django.utils import timezone
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, ResourceCsp
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from interact.surface_document import MCP_APPS_SDK, surface_document
from lineup.gateways.mcp import bridge
from lineup.gateways.mcp.bridge import Binding, app_fields
from lineup.gateways.mcp.schemas import result_or_rejection
from runtime.clock import isoformat
from runtime.db_threads import run_db
from runtime.errors import RejectionCode
from runtime.manifests import ToolDescriptor, get_manifest, running_label_of
from runtime.models import Operation
from runtime.services.operation_views import wire_state

UI_SCHEME = "ui://"
URI_PREFIX = "ui://lineup/"
LEGACY_RESOURCE_URI_META = "ui/resourceUri"
EXTENSION_SETTINGS: dict[str, Any] = {"mimeTypes": [APP_MIME_TYPE]}
STATUS_TOOL = "lineup.operation_status"
# No domain of any kind: the Surface has no network in a host either.
RESOURCE_UI_META: dict[str, Any] = {
    "csp": ResourceCsp(connect_domains=[], resource_domains=[], frame_domains=[], base_uri_domains=[]).model_dump(
        by_alias=True
    ),
    "prefersBorder": False,
}

STATUS_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    # Beyond the Runtime's fields, the app's own fields of its projection (Pomodoro: activity; the
    # quiz: title), whatever the app: the status of any MiniApp's operation, in its own fields.
    "additionalProperties": True,
    "required": ["operation_id", "state", "started_at", "ends_at", "server_time"],
    "properties": {
        "operation_id": {"type": "string"},
        "app_id": {"type": "string"},
        # The app's own word while it runs (its manifest's running_label), then completed or interrupted.
        "state": {"type": "string"},
        "started_at": {"type": "string"},
        "ends_at": {"type": "string"},
        "ended_at": {"type": "string"},
        "interruption_reason": {"type": "string"},
        "server_time": {"type": "string"},
    },
}


def advertise(server: Server[Any]) -> None:
    """Put the extension in ``server``'s capabilities (``capabilities.extensions``), on every protocol.

    The SDK advertises ``server.extensions`` where the protocol revision defines them (2026-07-28);
    the handshake revisions' wire schema has no ``extensions``, and their ``initialize`` answer is
    sieved down to it. MCP Apps hosts negotiate those revisions and read the field all the same
    (the extension's spec shows it on ``2024-11-05``), so a middleware puts it back.
    """
    server.extensions[EXTENSION_ID] = EXTENSION_SETTINGS
    server.middleware.append(_extension_on_handshake)


async def _extension_on_handshake(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    result = await call_next(ctx)
    if ctx.method == "initialize" and isinstance(result, dict) and isinstance(result.get("capabilities"), dict):
        extensions = result["capabilities"].setdefault("extensions", {})
        extensions.setdefault(EXTENSION_ID, EXTENSION_SETTINGS)
    return result


def resource_uri(app_id: str) -> str:
    return URI_PREFIX + app_id


def ui_meta(descriptor: ToolDescriptor) -> dict[str, Any]:
    """The ``_meta`` keys that link a published tool to its app's Surface, or none."""
    manifest = get_manifest(descriptor.app_id)
    # A host's Surface learns only the state of an operation (the status tool): an app with no
    # operation tool (Scratch notes, whose Surface needs the instance state only the workspace
    # keeps) has nothing to show there.
    if manifest is None or not manifest.surface_entry or not any(t.call_model == "operation" for t in manifest.tools):
        return {}
    uri = resource_uri(descriptor.app_id)
    return {"ui": {"resourceUri": uri}, LEGACY_RESOURCE_URI_META: uri}


def status_tool() -> types.Tool:
    return types.Tool(
        name=STATUS_TOOL,
        title="Operation status (for MiniApp views)",
        description=(
            "The Runtime's state of one operation of this conversation, for a rendered MiniApp view: "
            "running (in the app's own word), completed or interrupted, with its times. Read-only; not for the model."
        ),
        input_schema={
            "type": "object",
            "additionalProperties": False,
            "required": ["operation_id"],
            "properties": {"operation_id": {"type": "string"}},
        },
        output_schema=result_or_rejection(STATUS_OUTPUT_SCHEMA),
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
        _meta={"ui": {"visibility": ["app"]}},
    )


def _surface_apps(binding: Binding) -> list[str]:
    """The apps whose Surface this conversation's Inventory links a tool to, in Inventory order."""
    apps: list[str] = []
    for descriptor in bridge.inventory(binding).tools:
        if ui_meta(descriptor) and descriptor.app_id not in apps:
            apps.append(descriptor.app_id)
    return apps


def ui_resources(binding: Binding) -> list[types.Resource]:
    resources = []
    for app_id in _surface_apps(binding):
        manifest = get_manifest(app_id)
        assert manifest is not None
        resources.append(
            types.Resource(
                uri=resource_uri(app_id),
                name=app_id,
                title=manifest.name,
                description=f"{manifest.name}'s Surface, for the results of its tools (MCP Apps).",
                mime_type=APP_MIME_TYPE,
                _meta={"ui": RESOURCE_UI_META},
            )
        )
    return resources


def read_ui_resource(binding: Binding, uri: str) -> types.ReadResourceResult:
    app_id = uri.removeprefix(URI_PREFIX) if uri.startswith(URI_PREFIX) else None
    if app_id not in _surface_apps(binding):
        raise MCPError(
            code=types.INVALID_PARAMS,
            message="no such resource: only MiniApps with tools in this conversation have a ui:// Surface",
            data={"uri": uri},
        )
    text = surface_document(app_id, sdk=MCP_APPS_SDK, extra_head=_config_element(app_id)).html
    return types.ReadResourceResult(
        contents=[
            types.TextResourceContents(uri=uri, mime_type=APP_MIME_TYPE, text=text, _meta={"ui": RESOURCE_UI_META})
        ]
    )


CONFIG_ELEMENT_ID = "lineup-mcp-app"  # read by miniapps/sdk/lineup-sdk-mcp-apps.js


def _config_element(app_id: str) -> str:
    """What the MCP Apps SDK reads first: the app, the status tool and the app's word for a running
    operation (what the status tool says while it runs), as inert JSON."""
    config = {"app_id": app_id, "status_tool": STATUS_TOOL, "running_label": running_label_of(app_id)}
    text = json.dumps(config).replace("<", "\\u003c")
    return f'\n  <script type="application/json" id="{CONFIG_ELEMENT_ID}">{text}</script>'


def operation_status(binding: Binding, operation_id: object) -> dict[str, Any] | None:
    """The state of one operation of the bound conversation, or None. Reads one row; writes nothing."""
    try:
        pk = uuid.UUID(str(operation_id)) if isinstance(operation_id, str) else None
    except ValueError:
        pk = None
    rows = Operation.objects.filter(pk=pk, conversation_id=binding.conversation_id).select_related("tool_call")
    row = rows.first() if pk else None
    if row is None:
        return None
    status: dict[str, Any] = {
        "operation_id": str(row.id),
        "state": wire_state(row),
        "started_at": isoformat(row.started_at),
        "ends_at": isoformat(row.ends_at),
        "server_time": isoformat(timezone.now()),
    }
    # The app's own words about it (Pomodoro: the activity), from its projection, whatever the app.
    status = {**app_fields(row), **status, "app_id": row.app_id}
    if row.ended_at is not None:
        status["ended_at"] = isoformat(row.ended_at)
    if row.interruption_reason:
        status["interruption_reason"] = row.interruption_reason
    return status


async def call_status_tool(binding: Binding, arguments: dict[str, Any] | None) -> types.CallToolResult:
    arguments = arguments or {}
    status = None
    if set(arguments) == {"operation_id"}:
        status = await run_db(operation_status, binding, arguments["operation_id"])
    if status is None:
        refusal = {"code": str(RejectionCode.INVALID_ARGUMENTS), "detail": "no such operation in this conversation"}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=refusal["detail"])], structured_content=refusal, is_error=True
        )
    text = json.dumps(status, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=status)


def is_ui_uri(uri: str) -> bool:
    return uri.startswith(UI_SCHEME)
