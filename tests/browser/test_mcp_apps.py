"""Pomodoro's Surface as an MCP App, in a test host built on the official ``AppBridge``, in Chromium.

The host page (``mcp_apps_host.html`` on ``vendor/mcp-apps-host/host.js``: ``@modelcontextprotocol/ext-apps``
2.0.4's ``AppBridge`` and the official MCP TypeScript client) is answered by Playwright at one path of
the live server's origin, so its MCP client talks to the real Daphne's ``/mcp/<conversation_id>/``
with an Agent token. It lists the tools, calls ``pomodoro.start``, reads the ``ui://`` resource and
renders it in a ``sandbox="allow-scripts"`` iframe. What the View shows is then checked against the
Runtime's rows: the countdown while focusing, ``completed`` only once the Runtime has settled the
operation at ``ends_at``, ``interrupted`` after ``pomodoro.interrupt`` over MCP; and rendering twice
or reloading changes no row. From inside the frame the workspace's isolation probes all fail.
"""

from __future__ import annotations

import re
import secrets
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Frame, Page, expect

from runtime.models import Operation, OutboxEntry, ToolCall
from runtime.services.agents import create_agent_token
from tests.browser.conftest import screenshot, watch_page
from tests.browser.test_isolation import ESCAPES

HERE = Path(__file__).parent
HOST_PATH = "/__mcp_apps_test_host__/"
FOCUS_SECONDS = 4
HELD_PAST_DEADLINE = 2
COUNTDOWN = re.compile(r"^\d\d:\d\d$")


@pytest.fixture
def host(context, server, web_user, conversation, watch) -> Page:
    """The test host page, connected over MCP with a token of ``web_user``'s Agent ``mcp-host``."""
    files = {
        f"{server.url}{HOST_PATH}": ("text/html; charset=utf-8", HERE / "mcp_apps_host.html"),
        f"{server.url}{HOST_PATH}host.js": ("text/javascript", HERE / "vendor" / "mcp-apps-host" / "host.js"),
    }
    for url, (content_type, path) in files.items():
        context.route(url, _serve(path, content_type))
    page = context.new_page()
    watch_page(page, watch)
    page.goto(f"{server.url}{HOST_PATH}")
    page.wait_for_function("() => window.host && window.McpAppsHost")
    token = create_agent_token(user=web_user, name="mcp-host", now=timezone.now())[1]
    page.connected = page.evaluate("(args) => host.connect(args)", {"url": f"/mcp/{conversation.id}/", "token": token})
    yield page
    assert not watch.errors, f"the host page threw: {watch.errors}"


def _serve(path: Path, content_type: str):
    return lambda route, request: route.fulfill(path=path, content_type=content_type)


def start(page: Page, arguments: dict, key: str) -> dict:
    result = page.evaluate("([args, key]) => host.call('pomodoro.start', args, key)", [arguments, key])
    assert not result.get("isError"), result
    return result


def render(page: Page, view: str, name: str, arguments: dict, result: dict, locale: str = "en-GB") -> Frame:
    uri = page.evaluate(
        "(spec) => host.render(spec)",
        {"view": view, "name": name, "args": arguments, "result": result, "locale": locale},
    )
    assert uri == "ui://lineup/pomodoro"
    # The host has inserted the iframe; Playwright learns of its frame a moment later (on a loaded
    # machine, after render() returned: seen failing), so it is polled for with a deadline.
    deadline = time.monotonic() + 10
    while (frame := page.frame(name=view)) is None and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert frame is not None, f"no frame named {view!r} within 10 s"
    return frame


def shown(frame: Frame) -> dict:
    return frame.evaluate(
        """() => ({
          state: document.getElementById("focus").dataset.state,
          operation: document.getElementById("focus").dataset.operationId,
          countdown: document.getElementById("countdown").textContent,
          caption: document.getElementById("caption").textContent,
          activity: document.getElementById("activity").textContent,
        })"""
    )


def seconds(countdown: str) -> int:
    minutes, secs = countdown.split(":")
    return int(minutes) * 60 + int(secs)


@pytest.mark.spec("R-2.3.2", "R-3.4", "R-3.5", "R-3.10", "R-3.6")
def test_an_mcp_apps_host_shows_the_countdown_then_the_runtimes_end(host, server, conversation, tmp_path):
    """The host lists the tools over /mcp/ (the extension advertised, Pomodoro's tools linked to
    ``ui://lineup/pomodoro``, the status tool kept from the model), calls ``pomodoro.start`` and renders
    its View: the countdown runs from the receipt's ``ends_at``; the View says ``completed`` only when
    the Runtime's row says so — held back past ``ends_at``, it says "Time." until the settlement
    lands — learnt through the app-only status tool; a second focus
    interrupted over MCP shows ``interrupted`` in its View and in the interrupt's own View."""
    connected = host.connected
    assert connected["extension"] == {"mimeTypes": ["text/html;profile=mcp-app"]}
    tools = {tool["name"]: tool for tool in connected["tools"]}
    assert (
        tools["pomodoro.start"]["resourceUri"] == tools["pomodoro.interrupt"]["resourceUri"] == "ui://lineup/pomodoro"
    )
    assert tools["lineup.operation_status"]["visibility"] == ["app"]
    assert {"pomodoro.interrupt", "pomodoro.start", "quiz.start", "quiz.stop"} <= set(connected["modelTools"])
    assert "lineup.conversation_state" in connected["modelTools"]  # the read tool, for the model
    assert "lineup.operation_status" not in connected["modelTools"]  # app-only
    assert tools["quiz.start"]["resourceUri"] == "ui://lineup/quiz"  # each app's tools name its own View

    arguments = {"duration_seconds": FOCUS_SECONDS, "activity": "reading"}
    result = start(host, arguments, "host-1")
    receipt = result["structuredContent"]
    frame = render(host, "focus-1", "pomodoro.start", arguments, result)

    expect(frame.locator("#focus")).to_have_attribute("data-state", "focusing")
    view = shown(frame)
    assert view["operation"] == receipt["operation_id"] and view["activity"] == "reading"
    assert COUNTDOWN.match(view["countdown"]) and 0 < seconds(view["countdown"]) <= FOCUS_SECONDS
    assert view["caption"] == "Stay with it."
    screenshot(host, "09-mcp-apps-host-focus", tmp_path)

    # The Runtime is held back past ends_at (the test locks the operation's row, so the deadline's
    # settlement waits): the View counts down to zero and says "Time.", never "completed" by itself.
    with transaction.atomic():
        operation = Operation.objects.select_for_update().get(pk=receipt["operation_id"])
        held_until = operation.ends_at + timedelta(seconds=HELD_PAST_DEADLINE)
        while timezone.now() < held_until:
            assert shown(frame)["state"] in ("focusing", "due")
            host.wait_for_timeout(100)
        assert shown(frame) | {"operation": None} == {
            "state": "due",
            "operation": None,
            "countdown": "00:00",
            "caption": "Time.",
            "activity": "reading",
        }
    expect(frame.locator("#focus")).to_have_attribute("data-state", "completed", timeout=10_000)
    shown_at = timezone.now()
    operation.refresh_from_db()
    # The settlement's time is the deadline it settled (taken before it waited for the lock); the
    # View only said so after the Runtime's transaction could commit.
    assert operation.state == "completed" and operation.ended_at == operation.ends_at
    assert operation.ends_at <= operation.settled_at and held_until <= shown_at
    assert shown(frame) | {"operation": None} == {
        "state": "completed",
        "operation": None,
        "countdown": "00:00",
        "caption": "Completed.",
        "activity": "reading",
    }
    calls = host.evaluate("() => host.appCalls")
    assert {call["name"] for call in calls} == {"lineup.operation_status"}
    assert host.evaluate("() => host.refusedAppCalls") == []
    screenshot(host, "10-mcp-apps-host-completed", tmp_path)

    second_arguments = {"duration_seconds": 600}
    second = start(host, second_arguments, "host-2")
    second_frame = render(host, "focus-2", "pomodoro.start", second_arguments, second)
    expect(second_frame.locator("#focus")).to_have_attribute("data-state", "focusing")
    assert seconds(shown(second_frame)["countdown"]) > 590
    stop = host.evaluate("() => host.call('pomodoro.interrupt', {}, 'host-stop')")
    assert stop["structuredContent"] == {
        "status": "interrupted",
        "operation_id": second["structuredContent"]["operation_id"],
    }
    stop_frame = render(host, "stop-2", "pomodoro.interrupt", {}, stop)
    for each in (second_frame, stop_frame):
        expect(each.locator("#focus")).to_have_attribute("data-state", "interrupted", timeout=8000)
        assert shown(each)["caption"] == "Interrupted."
        assert 590 < seconds(shown(each)["countdown"]) <= 600  # stopped where the focus ended
    assert Operation.objects.get(pk=second["structuredContent"]["operation_id"]).state == "interrupted"


@pytest.mark.spec("R-3.5", "R-3.7", "R-3.10", "R-2.3.5", "R-2.3.1")
def test_rendering_twice_or_reloading_changes_nothing_and_the_view_is_isolated(host, server, conversation):
    """Two Views of one start and a reload of one of them (in the host's other language): both show the
    same operation and reach ``completed``; no tool call, operation or outbox row is added or changed by
    them, and the start's one result is still the Agent's to collect (its outbox entry unacked until it
    reads it). From inside a View nothing reaches the network, the host page or storage."""
    arguments = {"duration_seconds": FOCUS_SECONDS}
    result = start(host, arguments, "twice")
    receipt = result["structuredContent"]
    frames = [render(host, view, "pomodoro.start", arguments, result) for view in ("a", "b")]
    for frame in frames:
        expect(frame.locator("#focus")).to_have_attribute("data-state", "focusing")
    start_call = ToolCall.objects.get().id
    # The host reloads view b, now in Chinese (the host context's locale).
    frames[1] = render(host, "b", "pomodoro.start", arguments, result, locale="zh-CN")
    expect(frames[1].locator("#caption")).to_have_text("保持专注。")
    for frame in frames:
        expect(frame.locator("#focus")).to_have_attribute(
            "data-state", "completed", timeout=(FOCUS_SECONDS + 10) * 1000
        )
        assert shown(frame)["operation"] == receipt["operation_id"]
    assert [shown(frame)["caption"] for frame in frames] == ["Completed.", "已完成。"]
    operation = Operation.objects.get()
    assert operation.state == "completed"
    assert list(ToolCall.objects.values_list("id", flat=True)) == [start_call]  # the Views called no LineUp tool
    entry = OutboxEntry.objects.get()
    assert entry.acked_at is None  # the Views never collect the Agent's result
    contents = host.evaluate("(uri) => host.readResource(uri)", receipt["result_uri"])
    assert '"state":"completed"' in contents[0]["text"]
    entry.refresh_from_db()
    assert entry.acked_at is not None and OutboxEntry.objects.count() == 1

    assert_isolated(host, server, frames[0])


def assert_isolated(host: Page, server, frame: Frame) -> None:
    """Inside the host's sandboxed frame, the workspace's isolation probes (tests/browser/test_isolation.py)
    fail the same way: no fetch, XHR, WebSocket, beacon, image, script, frame or form reaches Daphne
    (its access log has no probe), no parent DOM, no cookies or storage, no popups, no eval."""
    marker = secrets.token_hex(8)
    outcome = frame.evaluate(ESCAPES, {"base": server.url, "marker": marker})

    allowed = {name: each for name, each in outcome.items() if each["allowed"]}
    assert allowed == {}, f"escaped the sandbox: {allowed}"
    errors = {name: each["error"] for name, each in outcome.items()}
    for name in ("parent_document", "parent_dom_query", "top_location_read", "cookie_read", "cookie_write"):
        assert errors[name].startswith("SecurityError"), (name, errors[name])
    for name in ("local_storage", "session_storage", "indexed_db", "top_location_write"):
        assert errors[name].startswith("SecurityError"), (name, errors[name])
    assert errors["window_open"] == "Error: popup refused"
    assert errors["eval"].startswith("EvalError")
    assert errors["origin"] == "Error: opaque origin"
    # One more MCP request after the probes orders the access log; no probe ever reached Daphne.
    logged = sum("POST /mcp/" in line for line in server.access_lines())
    host.evaluate("() => host.client.listTools()")
    server.wait(lambda: sum("POST /mcp/" in line for line in server.access_lines()) > logged, "the last MCP request")
    assert [line for line in server.access_lines() if marker in line] == []
    assert host.url.endswith(HOST_PATH)
