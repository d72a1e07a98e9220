"""JSON text frames over WebSockets: size limit, strict parsing, schema validation (pure).

Shared by the Agent protocol (``lineup.gateways.agent_socket``) and the workspace protocol
(``interact.consumers``). A frame is one text message holding one JSON object with a ``type``.
Anything else - over the size limit, not JSON, duplicate keys, NaN/Infinity (also a number too
large for a float, like ``1e309``), too deep, a string with U+0000 or an unpaired surrogate, an
unknown type, a missing or extra field, a wrong type - is a ``FrameError`` with a stable code
(``frame_too_large``, ``malformed_frame``, ``unknown_frame_type``, ``invalid_frame``). When the
frame was a JSON object, the error carries it (``body``), so a caller can echo a correlation id.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from runtime.manifests import StrictValidator, first_error

MAX_FRAME_BYTES = 64 * 1024
MAX_DEPTH = 32

ID_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 128}


def request_ids(body: object, fields: tuple[str, ...]) -> dict[str, str]:
    """The request ids a frame carries, to echo in its answer: only well-formed ones (``ID_SCHEMA``)."""
    if not isinstance(body, dict):
        return {}
    return {name: value for name in fields if _is_id(value := body.get(name))}


def _is_id(value: object) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= ID_SCHEMA["maxLength"] and not has_unstorable_string(value)


def encode(frame: dict[str, Any]) -> str:
    """A frame as sent: compact JSON, non-ASCII text as is (both sockets send the same way)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), default=str)


def frame_schema(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """A strict object schema: ``type`` plus exactly these fields."""
    properties = {"type": {"type": "string"}, **required, **(optional or {})}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *required],
        "properties": properties,
    }


def compile_schemas(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {name: StrictValidator(schema) for name, schema in schemas.items()}


class FrameError(Exception):
    def __init__(self, code: str, detail: str, *, body: dict[str, Any] | None = None, where: str | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.body = body  # the decoded object, if the frame got that far (not to be trusted)
        self.where = where  # the failing field's path (``a/b/0``) for invalid_frame, "" for the frame itself

    def correlation(self, fields: tuple[str, ...]) -> dict[str, str]:
        """The request ids the refused frame carried, to echo (``request_ids``)."""
        return request_ids(self.body, fields)


@dataclass(frozen=True)
class Frame:
    type: str
    body: dict[str, Any]


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise FrameError("malformed_frame", f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constants(name: str) -> None:
    raise FrameError("malformed_frame", f"{name} is not JSON")


def _finite_float(text: str) -> float:
    # ``1e309`` is valid JSON syntax but parses as Infinity, which the rest of the system (JSON
    # columns, the encoder) can not represent: refuse it like the ``Infinity`` literal (RFC 7493).
    value = float(text)
    if math.isinf(value):
        raise FrameError("malformed_frame", f"the number {text[:40]} is out of range")
    return value


def _depth(value: Any, limit: int) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def has_unstorable_string(value: Any) -> bool:
    """Whether a key or string holds U+0000 or an unpaired surrogate (forbidden by I-JSON, RFC 7493).

    Only JSON escapes (``\\u0000``, ``\\ud800``) produce them. PostgreSQL can not store the first
    and UTF-8 can not encode the second: unchecked, they surfaced as ``internal_error``.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if "\x00" in item:
                return True
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def loads_strict(text: str, *, max_bytes: int = MAX_FRAME_BYTES) -> Any:
    """One JSON value under the strict rules above, or ``FrameError`` (``frame_too_large``, ``malformed_frame``).

    The one parser of every JSON text an Agent or a page sends: the WebSocket frames here and the
    MCP request bodies (``lineup.gateways.mcp``), so both refuse the same texts.
    """
    # "surrogatepass": a str can hold a lone surrogate (not from a real socket, whose text is valid
    # UTF-8); it must be counted here and refused below, not raise UnicodeEncodeError.
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrameError("frame_too_large", f"a frame may be at most {max_bytes} bytes")
    try:
        data = json.loads(
            text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants, parse_float=_finite_float
        )
    except FrameError:
        raise
    except RecursionError:
        raise FrameError("malformed_frame", f"nesting deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise FrameError("malformed_frame", f"not JSON: {exc}") from None
    body = data if isinstance(data, dict) else None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise FrameError("malformed_frame", f"nesting deeper than {MAX_DEPTH} levels", body=body)
    if has_unstorable_string(data):
        raise FrameError("malformed_frame", "strings may not contain U+0000 or unpaired surrogates", body=body)
    return data


def parse_frame(text: str | None, *, validators: dict[str, Any], max_bytes: int = MAX_FRAME_BYTES) -> Frame:
    """Parse one frame against ``validators`` (type -> compiled schema) or raise FrameError."""
    if text is None:
        raise FrameError("malformed_frame", "frames are JSON text messages, not binary")
    data = loads_strict(text, max_bytes=max_bytes)
    if not isinstance(data, dict):
        raise FrameError("malformed_frame", "a frame is a JSON object")
    frame_type = data.get("type")
    if not isinstance(frame_type, str) or frame_type not in validators:
        raise FrameError("unknown_frame_type", f"unknown frame type {str(frame_type)[:64]!r}", body=data)
    error = first_error(validators[frame_type], data)
    if error is not None:
        where, message = error
        raise FrameError(
            "invalid_frame", f"{frame_type}: {where or '(frame)'}: {message[:300]}", body=data, where=where
        )
    return Frame(type=frame_type, body=data)
