"""MCP Apps (``io.modelcontextprotocol/ui``) on the MCP endpoint, seen by the official Python ``mcp`` client.

The extension is advertised, Pomodoro's tools name ``ui://lineup/pomodoro``, the resource is one
self-contained HTML document with the MCP Apps MIME type and no domains, and the app-only status tool
reads the Runtime's state without changing anything the Runtime guarantees. The document running in
a real host is tests/browser/test_mcp_apps.py.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from runtime.models import LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.services.conversations import conversation_get_or_create_default

UI = "io.modelcontextprotocol/ui"
MIME = "text/html;profile=mcp-app"
POMODORO_URI = "ui://lineup/pomodoro"
QUIZ_URI = "ui://lineup/quiz"
STATUS = "lineup.operation_status"
NO_DOMAINS = {"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []}


def _inline_scripts(document: str) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", document, flags=re.DOTALL)


def _facts() -> tuple:
    """What a UI must never change: tool calls, operations' states, outbox acks, lifecycle events."""
    return (
        list(ToolCall.objects.order_by("id").values_list("id", "status", "result")),
        list(Operation.objects.order_by("id").values_list("id", "state", "ended_at", "settled_at")),
        list(OutboxEntry.objects.order_by("id").values_list("id", "acked_at", "attempts")),
        LifecycleEvent.objects.count(),
    )


@pytest.mark.spec("R-3.11", "R-2.3.1")
def test_the_extension_is_advertised_and_surface_tools_name_their_ui_resource(live, mcp, token, conversation):
    """The server advertises the UI extension — on the handshake protocol (2025-11-25, where MCP Apps
    hosts read it) and on 2026-07-28 (``server/discover``); both Pomodoro tools carry
    ``_meta.ui.resourceUri`` (and the flat key older hosts read); the status tool is for the app only."""
    assert mcp.initialize_result.protocol_version == "2025-11-25"
    assert mcp.initialize_result.capabilities.extensions[UI] == {"mimeTypes": [MIME]}

    async def modern() -> tuple[str, dict]:
        async with (
            create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(live.main.url(conversation.id), http_client=http)) as client,
        ):
            return client.protocol_version, client.server_capabilities.extensions

    version, extensions = asyncio.run(modern())
    assert (version, extensions[UI]) == ("2026-07-28", {"mimeTypes": [MIME]})

    tools = {tool.name: tool for tool in mcp.list_tools().tools}
    for name in ("pomodoro.start", "pomodoro.interrupt"):
        assert tools[name].meta["ui"] == {"resourceUri": POMODORO_URI}
        assert tools[name].meta["ui/resourceUri"] == POMODORO_URI
    for name in ("quiz.start", "quiz.stop"):  # each app's tools name its own Surface
        assert tools[name].meta["ui"] == {"resourceUri": QUIZ_URI}
    status = tools[STATUS]
    assert status.meta == {"ui": {"visibility": ["app"]}}
    assert status.input_schema["required"] == ["operation_id"]
    assert status.annotations.read_only_hint is True


@pytest.mark.spec("R-2.3.5", "R-2.3.1")
def test_the_surface_is_one_self_contained_document_with_no_network(live, mcp):
    """``resources/list`` names the Surface; ``resources/read`` answers it as
    ``text/html;profile=mcp-app`` with no domains in ``_meta.ui.csp``. The document refers to no file,
    carries the Surface's own code and the official guest App, and its own policy allows no connection
    and only the scripts it contains (each by its sha256)."""
    listed = [r for r in mcp.run(lambda s: s.list_resources()).resources if str(r.uri).startswith("ui://")]
    assert [(str(r.uri), r.mime_type, r.meta["ui"]["csp"]) for r in listed] == [
        (POMODORO_URI, MIME, NO_DOMAINS),
        (QUIZ_URI, MIME, NO_DOMAINS),
    ]

    contents = mcp.read_resource(POMODORO_URI).contents
    assert len(contents) == 1
    (content,) = contents
    assert (str(content.uri), content.mime_type) == (POMODORO_URI, MIME)
    assert content.meta["ui"]["csp"] == NO_DOMAINS
    document = content.text
    assert document.startswith("<!doctype html>")
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", document, flags=re.DOTALL)
    assert not re.search(r"\s(src|href)\s*=", markup), "the document must load nothing"

    scripts = _inline_scripts(document)
    pomodoro_js = open("miniapps/pomodoro/surface/pomodoro.js", encoding="utf-8").read()
    assert pomodoro_js in scripts  # the Surface's own code, byte for byte the workspace's
    assert any("@modelcontextprotocol/ext-apps 2.0.4" in script for script in scripts)
    workspace_sdk = open("miniapps/sdk/lineup-sdk.js", encoding="utf-8").read()
    assert (
        workspace_sdk not in scripts and open("miniapps/sdk/lineup-sdk-mcp-apps.js", encoding="utf-8").read() in scripts
    )

    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', document).group(1)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == directives["connect-src"] == directives["frame-src"] == "'none'"
    hashes = {f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts}
    assert set(directives["script-src"].split()) == hashes
    # No CSP covers WebRTC: the guard that removes it is the document's first script (decision 0006).
    assert scripts[0] == open("miniapps/sdk/lineup-guard.js", encoding="utf-8").read()
    config = json.loads(re.search(r'<script type="application/json" id="lineup-mcp-app">(.*?)</script>', document)[1])
    assert config == {"app_id": "pomodoro", "status_tool": STATUS, "running_label": "focusing"}


@pytest.mark.spec("R-3.11")
def test_notes_has_no_ui_resource_because_it_has_no_tools(live, mcp):
    """Scratch notes declares a Surface but publishes no tool, so no host could open it from a tool
    call: it is neither listed nor readable as a ``ui://`` resource."""
    uris = [str(r.uri) for r in mcp.run(lambda s: s.list_resources()).resources]
    assert "ui://lineup/notes" not in uris
    for uri in ("ui://lineup/notes", "ui://lineup/interact", "ui://elsewhere/pomodoro"):
        with pytest.raises(MCPError) as refused:
            mcp.read_resource(uri)
        assert refused.value.error.code == INVALID_PARAMS, uri


@pytest.mark.spec("R-3.5", "R-3.4", "R-3.6", "R-3.10")
def test_the_status_tool_reports_the_runtime_and_changes_nothing(live, mcp, connect, token, conversation):
    """The app-only tool answers the operation's state as the Runtime has it (focusing, then completed at
    ``ends_at``; an interrupt's ``interrupted`` with its reason). Asking it and reading the ``ui://``
    resource — as often as a host that renders twice or reloads would — changes no row: no tool call,
    no state, no outbox ack; the one result is still collected the ordinary way."""
    receipt = mcp.call("pomodoro.start", {"duration_seconds": 1, "activity": "read"}, key="app-1").structured_content
    before = _facts()
    focusing = mcp.call(STATUS, {"operation_id": receipt["operation_id"]})
    assert not focusing.is_error
    status = focusing.structured_content
    assert status["state"] in ("focusing", "completed")  # one second is short on a loaded machine
    assert {k: status[k] for k in ("operation_id", "started_at", "ends_at", "activity")} == {
        "operation_id": receipt["operation_id"],
        "started_at": receipt["started_at"],
        "ends_at": receipt["ends_at"],
        "activity": "read",
    }
    assert json.loads(focusing.content[0].text) == status
    other_process = connect(token, conversation.id, server=live.remote)
    for client in (mcp, other_process):  # two renders, one per process
        client.read_resource(POMODORO_URI)
        client.call(STATUS, {"operation_id": receipt["operation_id"]})

    def settled():
        answer = other_process.call(STATUS, {"operation_id": receipt["operation_id"]}).structured_content
        return answer if answer["state"] == "completed" else None

    completed = live.wait(settled, "the Runtime to complete the focus (asked on remote)", timeout=10)
    operation = Operation.objects.get()
    assert completed["ended_at"] == receipt["ends_at"] and operation.state == "completed"
    assert completed["server_time"] >= completed["ends_at"]
    # The settlement happened meanwhile; the status calls and reads added nothing to it.
    assert _facts()[0][0][0] == before[0][0][0] and len(_facts()[0]) == len(before[0]) == 1
    assert OutboxEntry.objects.get().acked_at is None  # the UI never collects the Agent's result
    assert LifecycleEvent.objects.filter(kind__startswith="surface").count() == 0

    assert mcp.read_resource(receipt["result_uri"]).contents  # the Agent collects it, once
    assert OutboxEntry.objects.get().acked_at is not None

    second = mcp.call("pomodoro.start", {"duration_seconds": 600}, key="app-2").structured_content
    assert mcp.call("pomodoro.interrupt", key="stop-2").structured_content["status"] == "interrupted"
    interrupted = mcp.call(STATUS, {"operation_id": second["operation_id"]}).structured_content
    assert interrupted["state"] == "interrupted"
    assert interrupted["interruption_reason"] == Operation.objects.get(pk=second["operation_id"]).interruption_reason
    assert "activity" not in interrupted


@pytest.mark.spec("R-2.3.5")
def test_the_status_tool_answers_only_for_the_bound_conversation(live, mcp, connect, token_for, other_user):
    """An operation of another conversation, an unknown id, a malformed id or extra arguments are
    one and the same error: no such operation here."""
    other_conversation = conversation_get_or_create_default(user=other_user)
    theirs = connect(token_for(other_user), other_conversation.id)
    foreign = theirs.call("pomodoro.start", {"duration_seconds": 600}, key="theirs").structured_content
    for arguments in (
        {"operation_id": foreign["operation_id"]},
        {"operation_id": "00000000-0000-0000-0000-000000000000"},
        {"operation_id": "not-a-uuid"},
        {"operation_id": foreign["operation_id"], "extra": 1},
        {},
    ):
        answer = mcp.call(STATUS, arguments)
        assert answer.is_error and answer.content[0].text == "no such operation in this conversation", arguments
    assert theirs.call(STATUS, {"operation_id": foreign["operation_id"]}).structured_content["state"] == "focusing"


def test_the_vendored_mcp_apps_sdk_is_the_checked_build():
    """The checked-in guest App and test-host bundles are byte for byte what ``scripts/vendor-mcp-apps``
    built from the pinned packages (its SHA256SUMS), so an edit by hand can not slip into a Surface."""
    sums = Path("scripts/mcp-apps-vendor/SHA256SUMS").read_text().splitlines()
    checked = {}
    for line in sums:
        digest, path = line.split("  ", 1)
        checked[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest() == digest
    assert "miniapps/sdk/mcp-apps/ext-apps-app.js" in checked
    assert "tests/browser/vendor/mcp-apps-host/host.js" in checked
    assert all(checked.values()), checked
