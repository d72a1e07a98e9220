"""The MCP Inspector's CLI (``@modelcontextprotocol/inspector``, pinned in ``inspector/``) against a live Daphne.

The Inspector is the reference client people try a server with. It validates ``structuredContent``
against the tool's ``outputSchema``, error results included, and exits 5 for a tool result with
``isError`` (its own code) — so a rejection must reach it as the real rejection, not a schema error.
``scripts/test`` installs it (``npm ci``); .ci/run installs Node.js and npm.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from runtime.models import Operation
from tests.support.factories import MAX_FOCUS_SECONDS

INSPECTOR = Path(__file__).resolve().parent / "inspector" / "node_modules" / ".bin" / "mcp-inspector"
TOOL_IS_ERROR = 5  # the Inspector CLI's exit status for a result with isError


def inspect(url: str, token: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert INSPECTOR.exists(), f"{INSPECTOR} is missing: npm ci --prefix {INSPECTOR.parents[2]}"
    argv = [str(INSPECTOR), "--cli", "--transport", "http", "--server-url", url]
    argv += ["--header", f"Authorization: Bearer {token}", *args]
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.spec("R-3.11")
def test_the_inspector_cli_lists_the_tools_and_shows_rejections_as_they_are(live, conversation, token, tmp_path):
    """``tools/list`` shows the enforced maximum; a rejected ``pomodoro.interrupt`` is shown with its
    ``invalid_arguments`` detail (no output-schema error); a start and an interrupt succeed."""
    url = live.main.url(conversation.id)
    listed = inspect(url, token, tmp_path, "--method", "tools/list")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    tools = {tool["name"]: tool for tool in json.loads(listed.stdout)["tools"]}
    assert tools["pomodoro.start"]["inputSchema"]["properties"]["duration_seconds"]["maximum"] == MAX_FOCUS_SECONDS

    rejected = inspect(url, token, tmp_path, "--method", "tools/call", "--tool-name", "pomodoro.interrupt",
                       "--tool-arg", "operation_id=x")  # fmt: skip
    assert rejected.returncode == TOOL_IS_ERROR, rejected.stdout + rejected.stderr
    shown, _end = json.JSONDecoder().raw_decode(rejected.stdout.strip())  # the result, as the CLI prints it
    verdicts = [
        json.loads(line) for line in (rejected.stdout + rejected.stderr).splitlines() if line[:9] == '{"error":'
    ]
    assert [v["error"]["code"] for v in verdicts] == ["tool_is_error"], (
        rejected.stdout + rejected.stderr
    )  # no schema error
    assert shown["isError"] is True and shown["structuredContent"]["code"] == "invalid_arguments", shown

    started = inspect(url, token, tmp_path, "--method", "tools/call", "--tool-name", "pomodoro.start",
                      "--tool-arg", "duration_seconds=600")  # fmt: skip
    assert started.returncode == 0, started.stdout + started.stderr
    assert json.loads(started.stdout)["structuredContent"]["operation_id"] == str(Operation.objects.get().id)
    stopped = inspect(url, token, tmp_path, "--method", "tools/call", "--tool-name", "pomodoro.interrupt")
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert json.loads(stopped.stdout)["structuredContent"]["status"] == "interrupted"
