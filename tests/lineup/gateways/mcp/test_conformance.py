"""``/mcp/`` against the MCP specification, over raw HTTP to a live Daphne, so the exact bodies are checked.

Every answer is validated with ``jsonschema`` against the specification's published schema (revision
2025-11-25, vendored in ``vendor/``): results against their method's result type, refusals against
``JSONRPCErrorResponse``; every ``structuredContent`` against its tool's ``outputSchema``, error results
included (the MCP Inspector and the TypeScript SDK check those too). The transport's refusals are
JSON-RPC bodies with the statuses the specification gives, and the body is parsed as strictly as a
WebSocket frame, by the same parser.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from jsonschema import Draft202012Validator

from runtime.wire import FrameError, loads_strict
from tests.lineup.gateways.agent_socket.client import row_counts
from tests.support.factories import MAX_FOCUS_SECONDS

SCHEMA = json.loads((Path(__file__).parent / "vendor" / "mcp-2025-11-25.schema.json").read_text())
VERSION = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def conforms(body: object, definition: str) -> None:
    """``body`` is valid as the specification's ``definition``; the failure names every violation."""
    validator = Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{definition}"})
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(body)]
    assert not errors, (definition, errors, body)


class Raw:
    """JSON-RPC over plain HTTP to one conversation's endpoint, as a non-SDK client would speak it."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.auth = {"Authorization": f"Bearer {token}", "MCP-Protocol-Version": VERSION}
        self.next_id = 0

    def post(self, content: bytes | str, **headers: str) -> httpx2.Response:
        return httpx2.post(self.url, content=content, headers={**HEADERS, **self.auth, **headers}, timeout=10)

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        response = self.post(json.dumps(message))
        assert response.status_code == 200, response.text
        body = response.json()
        conforms(body, "JSONRPCResultResponse")
        assert body["id"] == self.next_id
        return body["result"]


@pytest.fixture
def raw(live, conversation, token) -> Raw:
    return Raw(live.main.url(conversation.id), token)


def refused(response: httpx2.Response, status: int, code: int) -> dict[str, Any]:
    """The response is a JSON-RPC error body with this HTTP status and error code; its ``error``."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    # JSON-RPC 2.0 answers an unreadable request with "id": null, which the official SDK requires and
    # the MCP schema (id optional, never null) does not list: checked as the absent id it stands for.
    conforms({k: v for k, v in body.items() if not (k == "id" and v is None)}, "JSONRPCErrorResponse")
    assert body["error"]["code"] == code, body
    return body["error"]


INITIALIZE = {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}


@pytest.mark.spec("R-3.11", "R-2.2.3")
def test_every_answer_conforms_to_the_schema_and_each_result_to_its_tools_output_schema(live, raw):
    """initialize, tools/list, plain and task-augmented calls, accepted and rejected, tasks/get: each body
    is valid MCP; each tool's ``outputSchema`` is a schema every one of its results meets, rejections
    included; the ``inputSchema`` publishes the maximum the Router enforces."""
    conforms(raw.request("initialize", INITIALIZE), "InitializeResult")
    listed = raw.request("tools/list")
    conforms(listed, "ListToolsResult")
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert tools["pomodoro.start"]["inputSchema"]["properties"]["duration_seconds"]["maximum"] == MAX_FOCUS_SECONDS
    output = {name: Draft202012Validator(t["outputSchema"]) for name, t in tools.items() if "outputSchema" in t}
    assert set(output) == {
        "notes.append",
        "notes.read",
        "pomodoro.interrupt",
        "quiz.stop",
        "lineup.conversation_state",
        "lineup.operation_status",
    }
    for validator in output.values():
        Draft202012Validator.check_schema(validator.schema)

    checked: list[tuple[str, bool]] = []

    def call(name: str, arguments: dict[str, Any], *, task: bool = False) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments, **({"task": {}} if task else {})}
        result = raw.request("tools/call", params)
        conforms(result, "CreateTaskResult" if task and "task" in result else "CallToolResult")
        if name in output:
            assert "structuredContent" in result, result
            errors = [e.message for e in output[name].iter_errors(result["structuredContent"])]
            assert not errors, (name, result, errors)
        checked.append((name, result.get("isError", False)))
        return result

    assert call("pomodoro.interrupt", {})["structuredContent"] == {"status": "no_active_focusing_operation"}
    rejected = call("pomodoro.interrupt", {"operation_id": "x"})
    assert rejected["isError"] and rejected["structuredContent"]["code"] == "invalid_arguments"
    assert call("pomodoro.start", {"duration_seconds": MAX_FOCUS_SECONDS + 1})["isError"]
    assert call("pomodoro.start", {"duration_seconds": "25"})["isError"]
    assert call("pomodoro.nope", {})["structuredContent"]["code"] == "unknown_tool"
    task = call("pomodoro.start", {"duration_seconds": MAX_FOCUS_SECONDS}, task=True)["task"]
    assert call("lineup.operation_status", {"operation_id": task["taskId"]})["structuredContent"]["state"] == "focusing"
    unknown = call("lineup.operation_status", {"operation_id": "nope"})
    assert unknown["isError"] and unknown["structuredContent"]["code"] == "invalid_arguments"
    conforms(raw.request("tasks/get", {"taskId": task["taskId"]}), "GetTaskResult")
    assert call("pomodoro.start", {"duration_seconds": 60})["structuredContent"]["code"] == "active_focusing_operation"
    assert call("pomodoro.interrupt", {})["structuredContent"]["status"] == "interrupted"
    conforms(raw.request("tasks/result", {"taskId": task["taskId"]}), "CallToolResult")
    assert call("pomodoro.interrupt", {})["structuredContent"]["status"] == "operation_already_final"
    assert ("pomodoro.interrupt", True) in checked and ("pomodoro.interrupt", False) in checked


@pytest.mark.spec("R-2.2.3")
def test_a_present_foreign_origin_is_refused_403(live, raw):
    """A browser page of another origin — another site, another port of this host, an opaque origin —
    is refused 403 before the token is even read, and writes nothing; a request with no ``Origin`` (any
    non-browser client) or with the endpoint's own is served."""
    before = row_counts()
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE})
    for origin in ("http://evil.example", "http://127.0.0.1:18899", "null", f"https://127.0.0.1:{live.main.port}"):
        error = refused(raw.post(initialize, Origin=origin), 403, -32040)
        assert error["message"] == "requests from another origin are refused", origin
    assert row_counts() == before
    assert raw.post(initialize).status_code == 200
    assert raw.post(initialize, Origin=f"http://127.0.0.1:{live.main.port}").status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_only_post_is_served(live, raw):
    """No event stream and no sessions: GET, DELETE and the rest are 405 with ``Allow: POST``, as a
    JSON-RPC error body (the MCP transport allows 405 for GET)."""
    for method in ("GET", "DELETE", "PUT", "PATCH", "OPTIONS"):
        response = httpx2.request(method, raw.url, headers={**HEADERS, **raw.auth}, timeout=10)
        refused(response, 405, -32600)
        assert response.headers["allow"] == "POST", method


@pytest.mark.spec("R-2.2.3")
def test_held_open_gets_can_not_exhaust_the_server(live, raw):
    """200 clients open a ``GET`` event stream each at once and keep their connections: every one is
    answered 405 at once (no stream is held for it), and a POST meanwhile is served as usual."""
    host, port = "127.0.0.1", live.main.port
    request = (
        f"GET {raw.url.split(str(port), 1)[1]} HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: {raw.auth['Authorization']}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()

    async def hold_one() -> tuple[bytes, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(request)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=15)
        length = int(
            next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
        )
        await asyncio.wait_for(reader.readexactly(length), timeout=15)
        return head, writer  # the connection stays open until all are answered

    async def hold_all() -> tuple[list[bytes], float]:
        started = time.monotonic()
        answered = await asyncio.gather(*(hold_one() for _ in range(200)))
        elapsed = time.monotonic() - started
        posted = await asyncio.to_thread(raw.post, json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        assert posted.status_code == 200 and posted.json()["result"] == {}, posted.text
        for _head, writer in answered:
            writer.close()
        return [head for head, _ in answered], elapsed

    heads, elapsed = asyncio.run(hold_all())
    assert all(head.startswith(b"HTTP/1.1 405") for head in heads), {h.split(b"\r\n")[0] for h in heads}
    assert elapsed < 15


@pytest.mark.spec("R-2.2.3")
def test_transport_refusals_are_json_rpc_bodies(live, raw):
    """What the SDK would answer in plain text: a client that does not accept JSON (406), a body that is
    labelled as anything but JSON (415), one over the 64 KiB limit, declared or streamed (413, read no further)."""
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert "Accept" in refused(raw.post(ping, Accept="text/html"), 406, -32600)["message"]
    assert "Content-Type" in refused(raw.post(ping, **{"Content-Type": "text/plain"}), 415, -32600)["message"]
    big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"x": "a" * 70_000}}})
    assert "at most 65536 bytes" in refused(raw.post(big), 413, -32600)["message"]

    def streamed():  # chunked, no Content-Length: the limit is found while reading
        yield big[:40_000].encode()
        yield big[40_000:].encode()

    response = httpx2.post(raw.url, content=streamed(), headers={**HEADERS, **raw.auth}, timeout=10)
    refused(response, 413, -32600)


# One tools/call body per way a text can break the strict parser; every one is valid to a lax one.
CALL_PREFIX = '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "pomodoro.start", '
NOT_STRICT = {
    "a NUL in activity": CALL_PREFIX + '"arguments": {"duration_seconds": 60, "activity": "read\\u0000"}}}',
    "a lone surrogate": CALL_PREFIX + '"arguments": {"duration_seconds": 60, "activity": "\\ud800"}}}',
    "a duplicate key": CALL_PREFIX + '"arguments": {"duration_seconds": 60, "duration_seconds": 61}}}',
    "a duplicate id": '{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}',
    "too deep": CALL_PREFIX + '"arguments": {"duration_seconds": 60, "x": ' + "[" * 40 + "]" * 40 + "}}}",
    "NaN": CALL_PREFIX + '"arguments": {"duration_seconds": NaN}}}',
    "out of range": CALL_PREFIX + '"arguments": {"duration_seconds": 1e309}}}',
    "not JSON": CALL_PREFIX,
}


@pytest.mark.spec("R-2.2.3")
def test_the_body_is_parsed_as_strictly_as_a_websocket_frame(live, raw):
    """Each text the WebSocket's parser refuses (``runtime.wire.loads_strict``, the same function) is a
    -32700 parse error over MCP, with no id and nothing written: no focus starts with a NUL in it."""
    before = row_counts()
    for what, text in NOT_STRICT.items():
        with pytest.raises(FrameError):
            loads_strict(text)
        error = refused(raw.post(text), 400, -32700)
        assert error["message"].startswith("Parse error: "), (what, error)
    refused(raw.post(b'{"jsonrpc": "2.0", "id": 1, "method": "p\xffng"}'), 400, -32700)
    assert row_counts() == before


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("body", "echoed"),
    [
        ("[]", None),
        ('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}]', None),
        ("1", None),
        ('"ping"', None),
        ("null", None),
        ("{}", None),
        ('{"jsonrpc": "2.0"}', None),
        ('{"id": 3, "method": "ping"}', 3),
        ('{"jsonrpc": "1.0", "id": 3, "method": "ping"}', 3),
        ('{"jsonrpc": "2.0", "id": true, "method": "ping"}', None),
        ('{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', None),
        ('{"jsonrpc": "2.0", "id": "a", "method": 5}', "a"),
        ('{"jsonrpc": "2.0", "id": "a", "method": "ping", "params": [1]}', "a"),
        ('{"jsonrpc": "2.0", "id": "a", "result": {}, "error": {"code": 1, "message": "x"}}', "a"),
        ('{"jsonrpc": "2.0", "id": "a", "error": "broken"}', "a"),
    ],
)
def test_what_is_not_one_json_rpc_message_is_an_invalid_request(live, raw, body, echoed):
    """Batches, ``[]``, bare values and objects that are not a JSON-RPC 2.0 request, notification or
    response are -32600 with a short reason (no validation dump), echoing the id when it was usable."""
    before = row_counts()
    response = raw.post(body)
    error = refused(response, 400, -32600)
    assert error["message"].startswith("Invalid Request: ") and len(error["message"]) < 120, error
    assert "pydantic" not in response.text and "validation error" not in response.text.lower()
    assert response.json()["id"] == echoed
    assert row_counts() == before
