"""The official MCP conformance suite (``@modelcontextprotocol/conformance``, pinned in ``conformance/``)
against a live ``/mcp/``, at protocol revision 2026-07-28.

The suite speaks to an unauthenticated URL; LineUp's endpoint takes an Agent token and names its
conversation in the path. So the suite is pointed at a small forwarding door (``Door``, below) that
adds ``Authorization: Bearer <token>`` and the conversation's path, and passes everything else
(Host, Origin, the MCP headers, the body) through untouched: every check still meets the real
endpoint. The Daphne under test runs with ``LINEUP_MCP_CONFORMANCE_FIXTURES=1``, which installs the
suite's fixture tools as a MiniApp on the real Runtime (``miniapps.conformance``). LineUp's tool names
carry their app's prefix, so the door also renames the fixture tools (``greet`` is
``conformance.greet``) in ``tools/call`` and ``tools/list``: the one change it makes to a body.

``conformance/expected-failures.yml`` names the scenarios LineUp deliberately does not pass, each
with its reason; a scenario that passes while listed fails the run too (the suite's own rule).
``scripts/test`` installs the suite (``npm ci``); it needs Node 22, which the pin brings as the npm
package ``node``.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.lineup.gateways.mcp.conftest import Daphne
from tests.support.processes import lineup_env, start_daphne, supervised_processes

SUITE_DIR = Path(__file__).resolve().parent / "conformance"
BIN = SUITE_DIR / "node_modules" / ".bin"
EXPECTED_FAILURES = SUITE_DIR / "expected-failures.yml"
SPEC_VERSION = "2026-07-28"
# The server scenarios that apply to LineUp at 2026-07-28 (``conformance list --server``). Left out:
# prompts, completion and media-content scenarios (LineUp offers no prompts and no such tools),
# SSE-stream scenarios (JSON responses only, decision 0008), input-required (MRTR) scenarios.
SCENARIOS = (
    "server-stateless",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "resources-list",
    "resources-templates-read",
    "sep-2164-resource-not-found",
    "dns-rebinding-protection",
    "caching",
    "http-header-validation",
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-status-notifications",
    "tasks-required-task-error",
)


FIXTURE_PREFIX = "conformance."  # miniapps/conformance: the suite's fixture tools, by their bare names
FIXTURE_TOOLS = ("slow_compute", "failing_job", "greet")


def to_lineup(body: bytes | None, headers: dict[str, str]) -> bytes | None:
    """A ``tools/call`` of a fixture tool by its bare name, renamed to the MiniApp's tool (body and
    ``Mcp-Name`` alike); anything else as it is."""
    try:
        message = json.loads(body or b"")
    except ValueError:
        return body
    params = message.get("params") if isinstance(message, dict) else None
    if message.get("method") != "tools/call" or not isinstance(params, dict) or params.get("name") not in FIXTURE_TOOLS:
        return body
    for name in [name for name in headers if name.lower() == "mcp-name"]:
        if headers[name].strip() == params["name"]:
            headers[name] = FIXTURE_PREFIX + params["name"]
    params["name"] = FIXTURE_PREFIX + params["name"]
    return json.dumps(message).encode()


def from_lineup(payload: bytes) -> bytes:
    """A ``tools/list`` answer with the fixture tools under their bare names."""
    try:
        message = json.loads(payload)
    except ValueError:
        return payload
    tools = (message.get("result") or {}).get("tools") if isinstance(message, dict) else None
    if not isinstance(tools, list):
        return payload
    for tool in tools:
        tool["name"] = tool["name"].removeprefix(FIXTURE_PREFIX)
    return json.dumps(message).encode()


class Door(ThreadingHTTPServer):
    """Forwards every request to one conversation's ``/mcp/`` with an Agent token added."""

    daemon_threads = True

    def __init__(self, upstream_port: int, conversation_id: str, token: str) -> None:
        self.upstream_port = upstream_port
        self.path_to = f"/mcp/{conversation_id}/"
        self.token = token
        super().__init__(("127.0.0.1", 0), _Forward)

    @property
    def url(self) -> str:
        return f"http://localhost:{self.server_address[1]}/mcp"


class _Forward(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Door

    def _forward(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        headers = {name: value for name, value in self.headers.items()}
        body = to_lineup(self.rfile.read(length) if length else None, headers)
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.upstream_port, timeout=60)
        try:
            upstream.putrequest(self.command, self.server.path_to, skip_host=True, skip_accept_encoding=True)
            for name, value in headers.items():
                if name.lower() not in ("authorization", "connection", "keep-alive", "content-length"):
                    upstream.putheader(name, value)
            if body is not None:
                upstream.putheader("Content-Length", str(len(body)))
            upstream.putheader("Authorization", f"Bearer {self.server.token}")
            upstream.endheaders(body)
            response = upstream.getresponse()
            payload = from_lineup(response.read())
        finally:
            upstream.close()
        self.send_response_only(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_POST = do_GET = do_DELETE = _forward

    def log_message(self, format: str, *args: object) -> None:  # the base class's name
        pass


@pytest.fixture(scope="module")
def fixture_server(request, django_db_setup, tmp_path_factory) -> Iterator[Daphne]:
    """A Daphne with the conformance fixture MiniApp installed (never so in production)."""
    with supervised_processes(request, tmp_path_factory.mktemp("mcp-suite")) as processes:
        env = lineup_env(
            LINEUP_SCHEDULER="embedded",
            LINEUP_LOG_FORMAT="json",
            LINEUP_REFERENCE_AGENT_URL="",
            LINEUP_MCP_CONFORMANCE_FIXTURES="1",
        )
        port, process = start_daphne(processes, "daphne-suite", env=env, timeout=30)
        yield Daphne(name="suite", port=port, process=process)


@pytest.fixture
def door(fixture_server, transactional_db, conversation, token) -> Iterator[Door]:
    server = Door(fixture_server.port, str(conversation.id), token)
    thread = threading.Thread(target=server.serve_forever, name="mcp-suite-door", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def run_suite(url: str, out: Path) -> tuple[list[str], dict[str, dict[str, int]]]:
    """Run each scenario of ``SCENARIOS``; the unexpected outcomes (with their failing checks) and
    every scenario's check counts."""
    assert (BIN / "conformance").exists(), f"{BIN / 'conformance'} is missing: npm ci --prefix {SUITE_DIR}"
    env = {"PATH": f"{BIN}:{os.environ['PATH']}", "HOME": str(out), "NO_COLOR": "1"}
    verdicts: dict[str, dict[str, int]] = {}
    unexpected: list[str] = []
    for scenario in os.environ.get("LINEUP_MCP_SUITE_SCENARIOS", "").split() or SCENARIOS:
        argv = ["conformance", "server", "--url", url, "--scenario", scenario, "--spec-version", SPEC_VERSION]
        if scenario.startswith("tasks-"):
            argv.append("--force")  # an extension's scenarios are on no revision's timeline: run at this one
        argv += ["--expected-failures", str(EXPECTED_FAILURES), "-o", str(out / scenario), "--timeout", "90000"]
        run = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180, cwd=out)
        counts = {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0}
        failing = []
        for checks in (out / scenario).rglob("checks.json"):
            for check in json.loads(checks.read_text()):
                if check["status"] in counts:
                    counts[check["status"]] += 1
                if check["status"] == "FAILURE":
                    failing.append(f"  {check['id']}: {str(check.get('errorMessage'))[:400]}")
        verdicts[scenario] = counts
        if run.returncode != 0:
            unexpected.append(f"{scenario} (exit {run.returncode}):\n" + "\n".join(failing or [run.stdout[-3000:]]))
    return unexpected, verdicts


def test_the_official_suite_passes_every_applicable_server_scenario(door, tmp_path):
    """Each applicable 2026-07-28 server scenario passes, or fails only as ``expected-failures.yml`` says."""
    unexpected, verdicts = run_suite(door.url, tmp_path)
    summary = json.dumps(verdicts)
    Path(os.environ.get("LINEUP_MCP_SUITE_REPORT", tmp_path / "verdicts.json")).write_text(summary)
    assert not unexpected, "\n".join(unexpected) + "\n" + summary
