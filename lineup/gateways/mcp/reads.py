"""What an Agent over MCP may read of its conversation: the tool ``lineup.conversation_state``.

The same read as the socket's ``conversation.state.get`` (``runtime.selectors.what_runs``): the
open app instances (with the state fields their manifests let an Agent read) and the running
operations (with their apps' own projection fields) of the conversation the endpoint's URL names.
It is not in the Inventory (it publishes no MiniApp tool, so the revision does not move); it reads
and writes nothing else, records no tool call, and is answered for the binding's conversation only.
"""

from __future__ import annotations

import json
from typing import Any

import mcp.types as types

from lineup.gateways.mcp.bridge import Binding
from lineup.gateways.mcp.schemas import result_or_rejection
from runtime.db_threads import run_db
from runtime.selectors import what_runs

STATE_TOOL = "lineup.conversation_state"

_ID = {"type": "string"}
_OPERATION = {
    "type": "object",
    "required": ["operation_id", "app_id", "tool", "state", "started_at", "ends_at"],
    "properties": {"operation_id": _ID, "app_id": _ID, "tool": _ID, "instance_id": _ID},
}
STATE_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["conversation_id", "instances", "operations", "truncated"],
    "properties": {
        "conversation_id": _ID,
        "instances": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["instance_id", "app_id", "app_name", "lifecycle_state", "opened_at"],
                "properties": {
                    "instance_id": _ID,
                    "app_id": _ID,
                    "app_name": _ID,
                    "lifecycle_state": _ID,
                    "opened_at": _ID,
                    "app_session_id": _ID,
                    "revision": {"type": "integer"},
                    "state": {"type": "object"},
                    "state_omitted": {"type": "boolean"},
                },
            },
        },
        "operations": {"type": "array", "items": _OPERATION},
        "recently_ended": {"type": "array", "items": _OPERATION},
        "truncated": {"type": "boolean"},
    },
}


def state_tool() -> types.Tool:
    return types.Tool(
        name=STATE_TOOL,
        title="What runs in this conversation",
        description=(
            "Read-only: the MiniApp instances open in this conversation (with the state each app lets "
            "you read, e.g. the text of the person's notes) and the operations running in it (a focus, "
            "a quiz: their app, times and the app's own fields), and the last few that ended. Changes nothing."
        ),
        input_schema={"type": "object", "additionalProperties": False},
        output_schema=result_or_rejection(STATE_OUTPUT_SCHEMA),
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
    )


async def call_state_tool(binding: Binding, arguments: dict[str, Any] | None) -> types.CallToolResult:
    if arguments:
        refusal = {"code": "invalid_arguments", "detail": f"{STATE_TOOL} takes no arguments"}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=refusal["detail"])], structured_content=refusal, is_error=True
        )
    state = await run_db(what_runs, conversation_id=binding.conversation_id)
    text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=state)
