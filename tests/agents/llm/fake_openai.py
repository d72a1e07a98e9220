"""A fake OpenAI-compatible model server: a real HTTP server on loopback, answering from a script.

``FakeOpenAI`` serves ``POST /v1/chat/completions`` in a thread of the test process. Each request
is recorded (path, headers, JSON body) and answered with the next scripted ``Reply`` — a
completion with tool calls or text, an HTTP error, or a reply held back ``delay`` seconds so the
client times out. With the script used up it answers 500, so a test that did not expect another
request fails visibly. Only the model is faked: the Agent under test talks HTTP to it through the
real ``openai`` SDK.

With ``context_tokens`` set it also behaves like a llama.cpp server started with that
``--ctx-size``: a request whose prompt counts that many tokens or more is answered with
llama-cpp-python's 400 ``context_length_exceeded`` body (the script is not consumed). Its count
(``prompt_tokens``) is a stand-in tokenizer deliberately harsher than the Agent's estimate, so
the Agent has to learn from the error, as it would from a real server.

``recorded(name)`` loads a transcript of ``transcripts/`` (model server answers, in order) as replies.
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TRANSCRIPTS = Path(__file__).parent / "transcripts"


@dataclass(frozen=True)
class Reply:
    body: dict[str, Any] | str
    status: int = 200
    delay: float = 0.0


@dataclass(frozen=True)
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body["messages"]


def completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_767_600_000,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def text(content: str) -> Reply:
    return Reply(completion({"role": "assistant", "content": content}, "stop"))


def call(name: str, arguments: str, call_id: str) -> dict[str, Any]:
    """One tool call; ``arguments`` is the raw JSON text the model wrote (malformed on purpose or not)."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def tool_calls(*calls: dict[str, Any]) -> Reply:
    return Reply(completion({"role": "assistant", "content": None, "tool_calls": list(calls)}, "tool_calls"))


def held_back(reply: Reply, seconds: float) -> Reply:
    """``reply``, sent only after ``seconds`` (longer than the client's timeout: it never sees it)."""
    return dataclasses.replace(reply, delay=seconds)


def error(status: int, message: str) -> Reply:
    return Reply({"error": {"message": message, "type": "server_error", "code": None}}, status=status)


def recorded(name: str) -> list[Reply]:
    """The answers of a transcript in ``transcripts/<name>.json``, in order, as replies."""
    transcript = json.loads((TRANSCRIPTS / f"{name}.json").read_text(encoding="utf-8"))
    return [
        Reply(exchange["response"]["body"], status=exchange["response"]["status"])
        for exchange in transcript["exchanges"]
    ]


def prompt_tokens(body: dict[str, Any]) -> int:
    """A stand-in tokenizer: ASCII at 3 characters a token, other characters 2.4 tokens, 5 a message."""
    parts = [m.get("content") or "" for m in body.get("messages", [])]
    parts += [json.dumps(m["tool_calls"]) for m in body.get("messages", []) if m.get("tool_calls")]
    parts.append(json.dumps(body.get("tools") or []) if body.get("tools") else "")
    text = "".join(parts)
    ascii_chars = sum(1 for c in text if c < "\x80")
    return math.ceil(ascii_chars / 3 + (len(text) - ascii_chars) * 2.4) + 5 * len(body.get("messages", []))


def overflow(body: dict[str, Any], context_tokens: int) -> Reply:
    """llama-cpp-python's answer (llama_cpp/server/errors.py) to a prompt of ``context_tokens`` or more."""
    prompt = prompt_tokens(body)
    completion = body.get("max_tokens")
    message = (
        f"This model's maximum context length is {context_tokens} tokens. However, you requested "
        f"{(completion or 0) + prompt} tokens ({prompt} in the messages, {completion} in the completion). "
        "Please reduce the length of the messages or completion."
    )
    return Reply(
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": "messages",
                "code": "context_length_exceeded",
            }
        },
        status=400,
    )


@dataclass
class FakeOpenAI:
    context_tokens: int | None = None
    requests: list[Recorded] = field(default_factory=list)
    overflows: list[Recorded] = field(default_factory=list)  # the requests answered with an overflow
    _script: deque[Reply] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _closing: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def _answer(self, recorded: Recorded) -> Reply:
        with self._lock:
            self.requests.append(recorded)
            if recorded.path != "/v1/chat/completions":
                return error(404, f"fake server: no route {recorded.path}")
            if self.context_tokens is not None and prompt_tokens(recorded.body) >= self.context_tokens:
                self.overflows.append(recorded)
                return overflow(recorded.body, self.context_tokens)
            if self._script:
                return self._script.popleft()
        return error(500, "fake server: no scripted reply left")

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = fake._answer(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if reply.delay:
                    fake._closing.wait(reply.delay)  # held back; released at once when the server stops
                payload = (reply.body if isinstance(reply.body, str) else json.dumps(reply.body)).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True).start()
        return self

    def stop(self) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
