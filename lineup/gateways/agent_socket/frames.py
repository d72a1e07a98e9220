"""``lineup.agent.v1`` client frames and their schemas (docs/agent-protocol.md)."""

from __future__ import annotations

from typing import Any

from runtime.wire import ID_SCHEMA, Frame, compile_schemas, frame_schema, parse_frame

PROTOCOL = "lineup.agent.v1"

CLIENT_FRAMES: dict[str, dict[str, Any]] = {
    "hello": frame_schema({"token": {"type": "string", "maxLength": 256}, "protocol": {"type": "string"}}),
    "inventory.get": frame_schema({"conversation_id": ID_SCHEMA}),
    "conversation.state.get": frame_schema({"conversation_id": ID_SCHEMA}),
    "tool.call": frame_schema(
        {
            "conversation_id": ID_SCHEMA,
            "source_tool_call_id": ID_SCHEMA,
            "tool": {"type": "string", "maxLength": 128},
            "arguments": {"type": "object"},
            "inventory_revision": {"type": "string", "maxLength": 64},
        }
    ),
    "message.send": frame_schema(
        {"conversation_id": ID_SCHEMA, "text": {"type": "string", "maxLength": 4000}},
        {"app_session_id": ID_SCHEMA},
    ),
    "interaction.request": frame_schema(
        {
            "conversation_id": ID_SCHEMA,
            "interaction_id": ID_SCHEMA,
            "kind": {"enum": ["notice", "choice", "confirm", "input"]},
            "prompt": {"type": "string", "minLength": 1, "maxLength": 1000},
        },
        {
            "options": {"type": "array", "maxItems": 10},
            "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 86400},
            "app_session_id": ID_SCHEMA,
        },
    ),
    "interaction.withdraw": frame_schema({"conversation_id": ID_SCHEMA, "interaction_id": ID_SCHEMA}),
    "outbox.ack": frame_schema({"outbox_id": ID_SCHEMA}),
    "message.ack": frame_schema({"message_id": ID_SCHEMA}),
    "interaction.ack": frame_schema({"conversation_id": ID_SCHEMA, "interaction_id": ID_SCHEMA}),
}

_VALIDATORS = compile_schemas(CLIENT_FRAMES)


def parse_agent_frame(text: str | None) -> Frame:
    return parse_frame(text, validators=_VALIDATORS)
