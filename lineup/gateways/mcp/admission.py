"""What an HTTP request to ``/mcp/`` must be before the MCP SDK sees it, and the JSON-RPC refusals.

The endpoint is streamable HTTP in stateless JSON-response mode (decision 0008), so a request is one
``POST`` of one JSON-RPC message, answered with one JSON body. Everything else is refused here with a
JSON-RPC error body (never the SDK's plain text or a validation dump) and the HTTP status the MCP
transport specifies:

* not ``POST`` (``GET`` would open an event stream nothing is ever sent on): 405 with ``Allow: POST``;
* an ``Accept`` without ``application/json``: 406; a ``Content-Type`` other than it: 415;
* a body over ``MAX_FRAME_BYTES``: 413, read no further;
* not strict JSON: -32700 (400). The parser is the WebSocket's (``runtime.wire.loads_strict``), so both
  ways in refuse the same texts: duplicate keys, NaN, U+0000, lone surrogates, too deep;
* JSON that is not one JSON-RPC 2.0 message (a batch array, ``[]``, a bare value, no ``jsonrpc``, no
  ``method``, a bad ``id`` or ``params``): -32600 (400), echoing the request id when it had a usable one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable

from runtime.wire import FrameError, loads_strict

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
# Refusals made before the MCP server runs (host, origin, token, conversation): implementation-defined band.
NOT_ADMITTED = -32040
JSON = "application/json"
MAX_DETAIL = 200


@dataclass(frozen=True)
class Refusal(Exception):
    """An HTTP status with a JSON-RPC error body."""

    status: int
    message: str
    code: int = INVALID_REQUEST
    request_id: str | int | None = None
    data: dict[str, Any] | None = None
    headers: tuple[tuple[bytes, bytes], ...] = field(default=())


def check_method(method: str) -> None:
    if method != "POST":
        raise Refusal(
            405,
            "this endpoint answers POST only: one JSON-RPC message per request, no event stream and no sessions",
            headers=((b"allow", b"POST"),),
        )


def check_content_headers(headers: dict[str, str]) -> None:
    """406 unless the client accepts JSON; 415 unless it sends JSON (the SDK's own rules, answered in JSON-RPC)."""
    accepted = {part.split(";", 1)[0].strip().lower() for part in headers.get("accept", "").split(",")}
    if not accepted & {JSON, "application/*", "*/*"}:
        raise Refusal(406, "Not Acceptable: send Accept: application/json (answers are JSON bodies)")
    content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if content_type != JSON:
        raise Refusal(415, "Unsupported Media Type: send Content-Type: application/json")


async def read_body(receive: ASGIReceiveCallable, headers: dict[str, str], *, limit: int) -> bytes | None:
    """The whole body, or None when the client went away; 413 as soon as it is known to be over ``limit``."""
    too_large = Refusal(413, f"Payload Too Large: a request may be at most {limit} bytes")
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def parse_message(body: bytes, *, limit: int) -> dict[str, Any]:
    """The one JSON-RPC message in ``body``, or a Refusal (-32700 not strict JSON, -32600 not a message)."""
    try:
        value = loads_strict(body.decode("utf-8"), max_bytes=limit)
    except UnicodeDecodeError:
        raise Refusal(400, "Parse error: the body is not UTF-8", code=PARSE_ERROR) from None
    except FrameError as error:
        raise Refusal(400, f"Parse error: {error.detail[:MAX_DETAIL]}", code=PARSE_ERROR) from None
    problem = jsonrpc_problem(value)
    if problem is not None:
        request_id = value.get("id") if isinstance(value, dict) and is_request_id(value.get("id")) else None
        raise Refusal(400, f"Invalid Request: {problem}", request_id=request_id)
    assert isinstance(value, dict)
    return value


# SEP-2663 (routing headers): tasks/get, tasks/update and tasks/cancel carry Mcp-Name: <taskId>. The
# SDK checks Mcp-Name only for the core methods that name something (tools/call, resources/read...).
TASK_NAMED_METHODS = frozenset({"tasks/get", "tasks/update", "tasks/cancel"})
HEADER_MISMATCH = -32020


def check_task_name_header(message: dict[str, Any], headers: dict[str, str]) -> None:
    """On 2026-07-28, a ``tasks/*`` request's ``Mcp-Name`` header is its ``params.taskId`` (400, -32020)."""
    if message.get("method") not in TASK_NAMED_METHODS or "mcp-protocol-version" not in headers:
        return
    if headers["mcp-protocol-version"].strip() < "2026-07-28":  # dated revisions compare as text
        return
    params = message.get("params")
    task_id = params.get("taskId") if isinstance(params, dict) else None
    if headers.get("mcp-name", "").strip() != task_id:
        request_id = message.get("id") if is_request_id(message.get("id")) else None
        raise Refusal(
            400, "the Mcp-Name header must be the request's params.taskId", code=HEADER_MISMATCH, request_id=request_id
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_request_id(value: object) -> bool:
    return isinstance(value, str) or _is_int(value)


def jsonrpc_problem(message: object) -> str | None:
    """Why ``message`` is not one JSON-RPC 2.0 request, notification or response as MCP uses them; None if it is."""
    if isinstance(message, list):
        return "batches are not supported: send one JSON-RPC message per request"
    if not isinstance(message, dict):
        return "a request is one JSON-RPC 2.0 object"
    if message.get("jsonrpc") != "2.0":
        return 'the member "jsonrpc" must be "2.0"'
    if "method" in message:
        if not isinstance(message["method"], str):
            return 'the member "method" must be a string'
        if "result" in message or "error" in message:
            return 'a request has no "result" or "error"'
        if "id" in message and not is_request_id(message["id"]):
            return 'the member "id" must be a string or an integer'
        if "params" in message and not isinstance(message["params"], dict):
            return 'the member "params" must be an object'
        return None
    if "id" not in message:
        return 'a request needs a "method"'
    if ("result" in message) == ("error" in message):
        return 'a response has either "result" or "error"'
    if "result" in message:
        if not is_request_id(message["id"]):
            return 'the member "id" must be a string or an integer'
        return None if isinstance(message["result"], dict) else 'the member "result" must be an object'
    error = message["error"]
    if message["id"] is not None and not is_request_id(message["id"]):
        return 'the member "id" must be a string, an integer or null'
    if not (isinstance(error, dict) and _is_int(error.get("code")) and isinstance(error.get("message"), str)):
        return 'the member "error" must be an object with an integer "code" and a string "message"'
    return None


def replaying(body: bytes, receive: ASGIReceiveCallable) -> ASGIReceiveCallable:
    """A ``receive`` that hands the already-read body on once, then waits on the client as before."""
    pending = True

    async def replay() -> Any:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay  # type: ignore[return-value]


async def send_refusal(send: ASGISendCallable, refusal: Refusal) -> None:
    error: dict[str, Any] = {"code": refusal.code, "message": refusal.message}
    if refusal.data is not None:
        error["data"] = refusal.data
    # "id": null when the request's is unknown, as JSON-RPC 2.0 says (and the official SDK parses).
    body = json.dumps({"jsonrpc": "2.0", "id": refusal.request_id, "error": error}).encode()
    headers = [(b"content-type", JSON.encode()), (b"content-length", str(len(body)).encode()), *refusal.headers]
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})  # type: ignore[typeddict-item]
    await send({"type": "http.response.body", "body": body})  # type: ignore[typeddict-item]
