"""The JSON Schemas the MCP endpoint publishes around the Runtime's own: what every tool call may end in."""

from __future__ import annotations

from typing import Any

from runtime.errors import RejectionCode

# The structuredContent of an ``isError`` result: the Runtime's stable rejection.
REJECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["code", "detail"],
    "properties": {
        "code": {"enum": [str(code) for code in RejectionCode]},
        "detail": {"type": "string"},
        # ambiguous_operation only: the running operations the stop could have meant.
        "candidates": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["operation_id", "app_id", "started_at", "label"],
                "properties": {
                    "operation_id": {"type": "string"},
                    "app_id": {"type": "string"},
                    "started_at": {"type": "string"},
                    "label": {"type": "string"},
                },
            },
        },
    },
}


def result_or_rejection(result_schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's ``outputSchema``: its result, or the rejection every call may end in. Clients (the MCP
    Inspector, the TypeScript SDK) validate ``structuredContent`` against it on error results too."""
    return {"type": "object", "anyOf": [result_schema, REJECTION_SCHEMA]}
