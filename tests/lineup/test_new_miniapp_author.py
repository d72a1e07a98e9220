"""A new MiniApp author, from docs/miniapps.md alone: a checklist (no deadline) and a reading timer.

In a fresh copy of the project, ``manage.py startminiapp`` makes two apps, and only their own
package files are edited, as docs/miniapps.md says:

- ``checklist``: short tools on ``runtime.api.open_instance`` / ``save_instance_state`` /
  ``read_instance_state`` over an ``app.instance-state.v1`` state whose ``items`` the manifest lets an
  Agent read. The Agent creates it with items; the person ticks one as the Surface's ``saveState``
  does (the logged-in page's ``state.save`` on ``/ws/workspace/``), the Agent another with its tool on
  the state as it is then; the Agent reads both back with its own tool and with
  ``conversation.state.get`` / ``lineup.conversation_state``.
- ``reading``: the scaffold's timer with ``exclusive: false`` and ``ends_when_left: false``: it may run
  twice at once (a bare stop is then ``ambiguous_operation``), and the person going back to Interact
  (the page's ``return_to_interact``) leaves it running to its one ``completed`` result.

Both run over ``/ws/agent/`` and MCP beside a Pomodoro focus and a quiz (a reading start during a
focus ends it ``interrupted(switched_app)``: Pomodoro's manifest rule), on the embedded server, and
the copy's ``runtime/`` is byte-identical to the original's.
"""

from __future__ import annotations

import hashlib
import http.cookiejar
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.lineup.gateways.mcp.client import McpClient
from tests.lineup.test_startminiapp import NOT_COPIED, _env, _http_ok, _manage, _poll, _tool_call
from tests.support.processes import ROOT, free_port

pytestmark = pytest.mark.spec("R-3.11", "R-2.2.4", "R-2.2.5", "R-2.2.8", "R-3.8")

READING_SECONDS = 12  # long enough to start it, leave it and look at it before its deadline
SHORT_READING_SECONDS = 2

CHECKLIST_MANIFEST = {
    "manifest_version": 1,
    "app_id": "checklist",
    "name": "Checklist",
    "description": "A checklist the Agent makes and the person ticks; no deadline.",
    "version": "0.1.0",
    "kind": "bundled",
    "user_launchable": False,
    "surface": {"entry": "surface/index.html"},
    "capabilities": [],
    "features": ["app.instance-state.v1"],
    "translations": {"zh-hans": {"name": "清单"}},
    "instance_state": {
        "state_schema_version": 1,
        "state_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["items"],
            "properties": {
                "items": {
                    "type": "array",
                    "maxItems": 20,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["text", "done"],
                        "properties": {"text": {"type": "string", "maxLength": 80}, "done": {"type": "boolean"}},
                    },
                }
            },
        },
        "max_bytes": 4096,
        "retention": "retain_readonly",
        "agent_readable": ["items"],
    },
    "tools": [
        {
            "name": "checklist.create",
            "version": 1,
            "call_model": "short",
            "description": "Make a checklist with these items (none ticked) in this conversation.",
            "conversation_scopes": ["personal"],
            "input_schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["items"],
                "properties": {
                    "items": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": 20,
                        "items": {"type": "string", "minLength": 1, "maxLength": 80},
                    }
                },
            },
            "result_schema": {
                "type": "object",
                "required": ["status", "instance_id", "app_session_id", "revision"],
                "properties": {"status": {"enum": ["opened"]}},
            },
        },
        {
            "name": "checklist.tick",
            "version": 1,
            "call_model": "short",
            "description": "Tick item number `index` (from 0) of the checklist the person used last.",
            "conversation_scopes": ["personal"],
            "input_schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["index"],
                "properties": {"index": {"type": "integer", "minimum": 0, "maximum": 19}},
            },
            "result_schema": {
                "type": "object",
                "required": ["status", "instance_id", "revision"],
                "properties": {"status": {"enum": ["saved"]}},
            },
        },
        {
            "name": "checklist.read",
            "version": 1,
            "call_model": "short",
            "description": "Read the checklist the person used last: its items and which are done.",
            "conversation_scopes": ["personal"],
            "input_schema": {"type": "object", "additionalProperties": False},
            "result_schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["status", "items"],
                "properties": {
                    "status": {"enum": ["read", "no_checklist"]},
                    "revision": {"type": "integer"},
                    "items": {"type": "array"},
                },
            },
        },
    ],
}

CHECKLIST_TOOLS = '''"""Checklist: an instance without a deadline that the Agent makes, the person ticks and the Agent reads."""

from __future__ import annotations

from typing import Any

from runtime.api import (
    InstanceView,
    Receipt,
    Refusal,
    ToolRequest,
    open_instance,
    read_instance_state,
    save_instance_state,
)


def create(request: ToolRequest) -> Receipt:
    items = [{"text": text, "done": False} for text in request.arguments["items"]]
    return open_instance(request, initial_state={"items": items})


def tick(request: ToolRequest) -> Receipt:
    index = request.arguments["index"]

    def change(view: InstanceView | None) -> dict[str, Any]:
        items = [dict(item) for item in (view.state or {}).get("items", [])] if view else []
        if index >= len(items):
            raise Refusal("no_such_item", f"the checklist has {len(items)} items")
        items[index]["done"] = True
        return {"items": items}

    return save_instance_state(request, change)


def read(request: ToolRequest) -> Receipt:
    return read_instance_state(request, answer=_read)


def _read(view: InstanceView | None) -> dict[str, Any]:
    if view is None:
        return {"status": "no_checklist", "items": []}
    return {"status": "read", "revision": view.revision, "items": (view.state or {}).get("items", [])}
'''

CHECKLIST_REGISTRATION = (
    'tools={"checklist.create": tools.create, "checklist.tick": tools.tick, "checklist.read": tools.read}'
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=NOT_COPIED)
    return copy


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _write_apps(project: Path) -> None:
    """The author's edits: only files of miniapps/checklist/ and miniapps/reading/."""
    checklist = project / "miniapps" / "checklist"
    (checklist / "manifest.json").write_text(json.dumps(CHECKLIST_MANIFEST, ensure_ascii=False, indent=2), "utf-8")
    (checklist / "tools.py").write_text(CHECKLIST_TOOLS, "utf-8")
    apps_py = (checklist / "apps.py").read_text("utf-8")
    scaffolded = 'tools={"checklist.start": tools.start, "checklist.stop": tools.stop}'
    assert scaffolded in apps_py
    apps_py = apps_py.replace(scaffolded, CHECKLIST_REGISTRATION)
    apps_py = apps_py.replace("result=tools.result,", "").replace("projection=tools.projection,", "")
    (checklist / "apps.py").write_text(apps_py, "utf-8")
    # The scaffold's phrasings name checklist.start / .stop, which the checklist no longer has (a start-up
    # error naming the file otherwise): it declares no phrasings, and the Agent learns nothing from words.
    (checklist / "phrasings.json").unlink()

    reading = project / "miniapps" / "reading" / "manifest.json"
    manifest = json.loads(reading.read_text("utf-8"))
    start = next(tool for tool in manifest["tools"] if tool["name"] == "reading.start")
    start["deadline_operation"].update(exclusive=False, ends_when_left=False, running_label="reading")
    manifest["translations"] = {"zh-hans": {"name": "阅读计时", "running_label": "阅读中"}}
    reading.write_text(json.dumps(manifest, ensure_ascii=False, indent=2), "utf-8")


class PersonPage:
    """The person's page, as the Web host drives it: logged in with the embedded login, on ``/ws/workspace/``."""

    def __init__(self, base: str, data_dir: Path) -> None:
        login = json.loads((data_dir / "login.json").read_text("utf-8"))
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(f"{base}/accounts/login/", timeout=10) as page:
            csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode()).group(1)
        form = urllib.parse.urlencode({**login, "csrfmiddlewaretoken": csrf}).encode()
        with opener.open(f"{base}/accounts/login/", data=form, timeout=10) as landed:
            assert landed.url.endswith("/workspace/"), landed.url
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
        self.ws: ClientConnection = connect(
            base.replace("http", "ws", 1) + "/ws/workspace/",
            additional_headers={"Cookie": cookie, "Origin": base},
            open_timeout=10,
            compression=None,
            ping_interval=None,
            legacy=True,
        )
        self.sent = 0

    def request(self, frame_type: str, **body: Any) -> dict[str, Any]:
        """Send one frame and return its ``ok`` (failing on its ``error``), skipping the pushes on the way."""
        self.sent += 1
        request_id = f"page-{self.sent}"
        self.ws.send(json.dumps({"type": frame_type, "request_id": request_id, **body}))
        deadline = time.monotonic() + 15
        while (remaining := deadline - time.monotonic()) > 0:
            frame = json.loads(self.ws.recv(timeout=remaining))
            if frame.get("request_id") == request_id:
                assert frame["type"] == "ok", frame
                return frame
        raise AssertionError(f"no answer to {frame_type} within 15s")

    def close(self) -> None:
        self.ws.close()


def _state_get(sock: AgentSocket, conversation_id: str) -> dict[str, Any]:
    answer = sock.request({"type": "conversation.state.get", "conversation_id": conversation_id})
    assert answer["type"] == "conversation.state", answer
    return answer


def _by_app(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        found.setdefault(entry["app_id"], []).append(entry)
    return found


def test_a_checklist_and_a_reading_timer_from_the_docs_run_beside_pomodoro_and_the_quiz(project: Path, tmp_path: Path):
    env = _env(tmp_path / "data")
    for name in ("checklist", "reading"):
        _manage(project, "startminiapp", name, env=env)
    _write_apps(project)
    assert _tree_digest(project / "runtime") == _tree_digest(ROOT / "runtime")

    _manage(project, "migrate", "--noinput", env=env)
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
        cwd=project,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _poll(lambda: _http_ok(f"http://127.0.0.1:{port}/admin/login/"), timeout=60, what="the embedded server")
        issued = _manage(project, "create_agent_token", "author", "--user", "lineup", env=env)
        token = issued.stdout.strip().splitlines()[-1]
        mcp_url = next(line for line in issued.stderr.splitlines() if "MCP URL" in line).split(": ", 1)[1]
        mcp_url = mcp_url.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{port}").strip()
        conversation_id = mcp_url.rstrip("/").rsplit("/", 1)[1]

        sock = AgentSocket(f"ws://127.0.0.1:{port}/ws/agent/")
        sock.hello(token)
        inventory = sock.inventory(conversation_id)
        published = {tool["name"]: tool for tool in inventory["tools"]}
        assert {"checklist.create", "checklist.tick", "checklist.read", "reading.start", "reading.stop"} <= set(
            published
        )
        assert {"pomodoro.start", "quiz.start"} <= set(published)
        assert published["checklist.tick"]["call_model"] == "short"
        revision = inventory["revision"]

        def call(tool: str, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
            return sock.request(_tool_call(tool, conversation_id, call_id, arguments, revision))

        # A quiz runs in the background and a Pomodoro focus in front.
        quiz = call("quiz.start", "q-1", {"duration_seconds": 600, "questions": [{"prompt": "2+2", "answer": "4"}]})
        assert quiz["type"] == "tool.accepted", quiz
        focus = call("pomodoro.start", "p-1", {"duration_seconds": 600, "activity": "writing"})
        assert focus["type"] == "tool.accepted", focus

        # (a) The checklist: the Agent makes it (behind the focus, which runs on), the person ticks, the Agent reads.
        made = call("checklist.create", "c-1", {"items": ["milk", "eggs", "bread"]})
        assert made["type"] == "tool.receipt", made
        assert (made["receipt"]["status"], made["receipt"]["revision"]) == ("opened", 1), made
        checklist_id = made["receipt"]["instance_id"]
        # The person ticks "eggs" as the Surface's saveState does: the whole state, on the revision read.
        page = PersonPage(f"http://127.0.0.1:{port}", tmp_path / "data")
        eggs = [{"text": "milk", "done": False}, {"text": "eggs", "done": True}, {"text": "bread", "done": False}]
        saved = page.request(
            "state.save", conversation_id=conversation_id, instance_id=checklist_id, state={"items": eggs}, revision=1
        )
        assert saved["revision"] == 2, saved
        # The Agent ticks "bread" on the state as it is now: the person's tick is kept.
        ticked = call("checklist.tick", "c-2", {"index": 2})
        assert ticked["type"] == "tool.receipt", ticked
        assert (ticked["receipt"]["status"], ticked["receipt"]["instance_id"], ticked["receipt"]["revision"]) == (
            "saved",
            checklist_id,
            3,
        )
        assert call("checklist.tick", "c-2", {"index": 2})["replayed"] is True  # a retry writes nothing
        beyond = call("checklist.tick", "c-3", {"index": 7})
        assert (beyond["type"], beyond["code"]) == ("tool.rejected", "no_such_item"), beyond
        read = call("checklist.read", "c-4", {})
        assert read["receipt"] == {
            "status": "read",
            "revision": 3,
            "items": [
                {"text": "milk", "done": False},
                {"text": "eggs", "done": True},
                {"text": "bread", "done": True},
            ],
        }, read
        state = _state_get(sock, conversation_id)
        instances, operations = _by_app(state["instances"]), _by_app(state["operations"])
        (listed,) = instances["checklist"]
        assert (listed["instance_id"], listed["app_name"]) == (checklist_id, "Checklist")
        assert listed["state"] == {"items": read["receipt"]["items"]}, listed
        assert "checklist" not in operations  # no operation, no deadline
        assert operations["pomodoro"][0]["operation_id"] == focus["operation_id"]  # undisturbed
        assert operations["quiz"][0]["operation_id"] == quiz["operation_id"]

        # (b) The reading timer: a start during the focus follows Pomodoro's rule (switch, interrupting
        # it); it is not exclusive; leaving it for Interact does not end it.
        first = call("reading.start", "r-1", {"duration_seconds": READING_SECONDS})
        assert first["type"] == "tool.accepted", first
        switched = sock.push("tool.result", source_tool_call_id="p-1")
        assert (switched["result"]["state"], switched["result"]["interruption_reason"]) == (
            "interrupted",
            "switched_app",
        )
        sock.ack(switched["outbox_id"], conversation_id)
        second = call("reading.start", "r-2", {"duration_seconds": 600})
        assert second["type"] == "tool.accepted", second  # exclusive: false
        ambiguous = call("reading.stop", "r-3", {})
        assert (ambiguous["type"], ambiguous["code"]) == ("tool.rejected", "ambiguous_operation"), ambiguous
        assert {c["operation_id"] for c in ambiguous["candidates"]} == {first["operation_id"], second["operation_id"]}

        # The person goes back to Interact from the reading timer in front: it runs on.
        page.request("return_to_interact", conversation_id=conversation_id)
        running = _by_app(_state_get(sock, conversation_id)["operations"])
        assert {op["operation_id"] for op in running["reading"]} == {first["operation_id"], second["operation_id"]}
        assert {op["state"] for op in running["reading"]} == {"reading"}  # its own running label
        assert running["quiz"][0]["operation_id"] == quiz["operation_id"]
        assert "pomodoro" not in running

        done = sock.push("tool.result", timeout=READING_SECONDS + 15, source_tool_call_id="r-1")
        assert (done["tool"], done["result"]["state"]) == ("reading.start", "completed"), done
        assert done["result"]["ended_at"] == done["result"]["ends_at"]
        sock.ack(done["outbox_id"], conversation_id)
        stopped = call("reading.stop", "r-4", {})  # one runs now: no ambiguity
        assert stopped["receipt"] == {"status": "interrupted", "operation_id": second["operation_id"]}, stopped
        sock.push("tool.result", source_tool_call_id="r-2")
        assert [frame for frame in sock.frames_within(0.5) if frame.get("source_tool_call_id") == "r-1"] == []

        # Over MCP: the same tools, the same conversation.
        mcp = McpClient(mcp_url, token, timeout=SHORT_READING_SECONDS + 20)
        try:
            listed_tools = {tool.name for tool in mcp.list_tools().tools}
            assert {"checklist.create", "checklist.tick", "checklist.read", "reading.start", "quiz.start"} <= (
                listed_tools
            )
            mcp_tick = mcp.call("checklist.tick", {"index": 0}, key="m-1")
            assert not mcp_tick.is_error, mcp_tick
            assert (mcp_tick.structured_content["status"], mcp_tick.structured_content["revision"]) == ("saved", 4)
            mcp_read = mcp.call("checklist.read", {}, key="m-2")
            assert [item["done"] for item in mcp_read.structured_content["items"]] == [True, True, True]
            seen = mcp.call("lineup.conversation_state", {})
            assert not seen.is_error, seen
            mcp_instances = _by_app(seen.structured_content["instances"])
            assert mcp_instances["checklist"][0]["state"] == {"items": mcp_read.structured_content["items"]}
            assert _by_app(seen.structured_content["operations"])["quiz"][0]["operation_id"] == quiz["operation_id"]

            task = mcp.call_as_task("reading.start", {"duration_seconds": SHORT_READING_SECONDS}, key="m-3").task
            final = mcp.task_result(task.task_id, timeout=SHORT_READING_SECONDS + 20)
            assert not final.is_error, final
            assert (final.structured_content["state"], final.structured_content["operation_id"]) == (
                "completed",
                task.task_id,
            )
        finally:
            mcp.close()

        # The quiz ran through all of it, and only its own stop ends it.
        quiz_stop = call("quiz.stop", "q-2", {})
        assert quiz_stop["receipt"]["status"] == "interrupted", quiz_stop
        sock.close()
        page.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    assert _tree_digest(project / "runtime") == _tree_digest(ROOT / "runtime")
