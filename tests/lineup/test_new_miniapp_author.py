# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""A new MiniApp author, from docs/miniapps.md alone: a checklist (no deadline) and a reading timer.

In a fresh copy of the project, ``manage.py startminiapp`` makes two apps, and only their own
package files are edited, as docs/miniapps.md says:

- ``checklist``: short tools on ``runtime.api.open_instance`` / ``save_instance_state`` /
  ``read_instance_state`` over an ``app.instance-state.v1`` state whose ``items`` the manifest lets an
  Agent read, and a Surface of its own (checkboxes on the SDK's ``getState`` / ``saveState`` and the
  projection's ``snapshot``) in place of the scaffold's countdown. The Agent creates it with items; the person ticks one as the Surface's ``saveState``
  does (the logged-in page's ``state.save`` on ``/ws/workspace/``), the Agent another with its tool on
  the state as it is then; the Agent reads both back with its own tool and with
  ``conversation.state.get`` / ``lineup.conversation_state``.
- ``reading``: the scaffold's timer with ``exclusive: false`` and ``ends_when_left: false``: it may run
  twice at once (a bare stop is then ``ambiguous_operation``), and the person going back to Interact
  (the page's ``return_to_interact``) leaves it running to its one ``completed`` result.

Both run over ``/ws/agent/`` and MCP beside a Pomodoro focus and a quiz (a reading start during a
focus ends it ``interrupted(switched_app)``: Pomodoro's manifest rule), on the embedded server, and
the copy's ``runtime/`` is byte-identical to the original's.

And in Chromium (1280 px in English, 360 px in Chinese), on the same server: the reading timer's
Surface counts down its own operation, titled and labelled in the page's language by the manifest's
``translations``, while a quiz runs beside it; the person opens the checklist the Agent made, ticks
an item there (the Agent reads it back ticked) and sees the Agent's tick arrive; neither opening the
checklist nor going back to Interact asks anything or ends the reading timer. Screenshots:
``docs/screenshots/new-author-*.png`` (refreshed with ``LINEUP_SCREENSHOTS_DIR=docs/screenshots``).

One copy and one server serve the module (copying, scaffolding and booting is most of its time);
each test names its own calls and instances, so none depends on another having run.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.processes import ROOT
from tests.support.project_copy import (
    AgentAccess,
    EmbeddedServer,
    copy_project,
    manage,
    project_env,
    tree_digest,
)

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


# The checklist's Surface, replacing the scaffold's countdown: the items as checkboxes, drawn from
# the projection's snapshot; a tick saves the whole state with the SDK's saveState on the revision
# read (docs/miniapps.md, "The Surface SDK"); a newer snapshot (the Agent's tick) is taken as it comes.
CHECKLIST_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Checklist</title>
  <link rel="stylesheet" href="checklist.css">
  <script src="sdk/lineup-sdk.js"></script>
  <script src="checklist.js" defer></script>
</head>
<body>
  <main id="checklist">
    <h1 id="title">Checklist</h1>
    <ul id="items"></ul>
    <p id="status" aria-live="polite"></p>
  </main>
</body>
</html>
"""

CHECKLIST_JS = """/* The checklist: ticks saved as the instance's state; the Agent's ticks arrive in the projection. */
(function () {
  "use strict";

  var WORDS = {
    en: { title: "Checklist", empty: "Nothing to tick yet.", saving: "Saving…", saved: "Saved",
          closed: "Closed: read-only", failed: "Not saved ({code})" },
    "zh-hans": { title: "清单", empty: "还没有要勾选的事项。", saving: "正在保存…", saved: "已保存",
                 closed: "已关闭：只读", failed: "没有保存（{code}）" },
  };
  var words = WORDS.en;
  var items = [];
  var revision = 0;
  var readOnly = false;
  var shown = "";
  var list = document.getElementById("items");
  var status = document.getElementById("status");

  function say(key, code) {
    shown = key;
    status.textContent = key ? words[key].replace("{code}", code || "") : "";
  }

  function draw() {
    document.getElementById("title").textContent = words.title;
    document.title = words.title;
    list.textContent = "";
    if (!items.length) {
      var empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = words.empty;
      list.appendChild(empty);
    }
    items.forEach(function (item, index) {
      var row = document.createElement("li");
      var label = document.createElement("label");
      var box = document.createElement("input");
      box.type = "checkbox";
      box.checked = item.done;
      box.disabled = readOnly;
      box.addEventListener("change", function () { tick(index, box.checked, 0); });
      label.appendChild(box);
      label.appendChild(document.createTextNode(item.text));
      row.dataset.done = String(item.done);
      row.appendChild(label);
      list.appendChild(row);
    });
  }

  function take(snapshot) {
    if (!snapshot || snapshot.revision < revision) return;
    revision = snapshot.revision;
    items = (snapshot.state && snapshot.state.items) || [];
    draw();
  }

  function tick(index, done, attempt) {
    var next = items.map(function (item, i) { return { text: item.text, done: i === index ? done : item.done }; });
    say("saving");
    LineUp.saveState({ items: next }, { revision: revision }).then(
      function (saved) {
        revision = saved.revision;
        items = next;
        say("saved");
        draw();
      },
      function (error) {
        if (error.code === "stale_revision" && attempt < 3) {
          // Someone saved first (the Agent's tick): read their list and tick again on it.
          return LineUp.getState().then(function (held) { take(held); tick(index, done, attempt + 1); });
        }
        if (error.code === "instance_closed") readOnly = true;
        say(readOnly ? "closed" : "failed", error.code);
        draw();
      }
    );
  }

  LineUp.onProjection(function (projection) {
    var language = String(projection.language || "en").toLowerCase();
    words = WORDS[language] || (language.indexOf("zh") === 0 ? WORDS["zh-hans"] : WORDS.en);
    document.documentElement.lang = language.indexOf("zh") === 0 ? "zh-Hans" : "en";
    if (projection.instance && projection.instance.read_only) readOnly = true;
    say(shown);
    if (projection.snapshot && projection.snapshot.revision > revision) take(projection.snapshot);
    else draw();
  });
  LineUp.getState().then(take);
})();
"""

CHECKLIST_CSS = """:root { color-scheme: light dark; font-family: system-ui, "Noto Sans CJK SC", sans-serif; }
:root { background: #f7f5ef; color: #2a2d31; }
@media (prefers-color-scheme: dark) { :root { background: #15191e; color: #d7dee5; } }
body { margin: 0; }
main { max-width: 32rem; margin: 0 auto; padding: 1.5rem 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
ul { list-style: none; margin: 0; padding: 0; }
li { border-bottom: 1px solid #e3e1da; }
label { display: flex; align-items: center; gap: 0.75rem; padding: 0.75rem 0.25rem; font-size: 1.1rem; cursor: pointer; }
input[type=checkbox] { width: 1.4rem; height: 1.4rem; margin: 0; }
li[data-done=true] label { text-decoration: line-through; }
li.empty { padding: 0.75rem 0.25rem; }
#status { font-size: 0.85rem; min-height: 1.3em; }
"""


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
    surface = checklist / "surface"
    for name, text in (
        ("index.html", CHECKLIST_HTML),
        ("checklist.js", CHECKLIST_JS),
        ("checklist.css", CHECKLIST_CSS),
    ):
        (surface / name).write_text(text, "utf-8")
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

    def __init__(self, base: str, login: dict[str, str]) -> None:
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


@dataclass
class Authored:
    """The copy with both apps, migrated, its embedded server running and an Agent token issued."""

    project: Path
    server: EmbeddedServer
    access: AgentAccess

    @property
    def conversation_id(self) -> str:
        return self.access.conversation_id

    def agent(self) -> tuple[AgentSocket, str]:
        """A new Agent connection on ``/ws/agent/``, said hello, with the Inventory revision."""
        sock = AgentSocket(f"ws://127.0.0.1:{self.server.port}/ws/agent/")
        sock.hello(self.access.token)
        return sock, sock.inventory(self.conversation_id)["revision"]


@pytest.fixture(scope="module")
def authored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Authored]:
    """One copy and one server for the module's tests (each call id of theirs is their own)."""
    root = tmp_path_factory.mktemp("author")
    project = copy_project(root / "project")
    env = project_env(root / "data")
    for name in ("checklist", "reading"):
        manage(project, "startminiapp", name, env=env)
    _write_apps(project)
    assert tree_digest(project / "runtime") == tree_digest(ROOT / "runtime")
    server = EmbeddedServer(project, env, root / "server.log").start()
    try:
        yield Authored(project, server, server.issue_agent_token("author"))
    finally:
        server.stop()
    assert tree_digest(project / "runtime") == tree_digest(ROOT / "runtime")


def test_a_checklist_and_a_reading_timer_from_the_docs_run_beside_pomodoro_and_the_quiz(authored: Authored):
    conversation_id, port = authored.conversation_id, authored.server.port
    mcp_url, token = authored.access.mcp_url, authored.access.token
    sock = AgentSocket(f"ws://127.0.0.1:{port}/ws/agent/")
    sock.hello(token)
    inventory = sock.inventory(conversation_id)
    published = {tool["name"]: tool for tool in inventory["tools"]}
    assert {"checklist.create", "checklist.tick", "checklist.read", "reading.start", "reading.stop"} <= set(published)
    assert {"pomodoro.start", "quiz.start"} <= set(published)
    assert published["checklist.tick"]["call_model"] == "short"
    revision = inventory["revision"]

    def call(tool: str, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return sock.call(conversation_id, call_id, tool, arguments, revision)

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
    page = PersonPage(authored.server.url, authored.server.login())
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
        assert {"checklist.create", "checklist.tick", "checklist.read", "reading.start", "quiz.start"} <= (listed_tools)
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


# --- the browser: the person's page in Chromium, on the same server -------------------------------

BROWSER_CASES: dict[str, tuple[dict[str, int], str, dict[str, str]]] = {
    # case: (viewport, browser locale, what the page says: the reading timer's and the quiz's running
    # words, a focus's activity, the reading Surface's title and caption, the checklist's title and
    # its saved status)
    "en-1280": (
        {"width": 1280, "height": 800},
        "en-GB",
        {
            "reading": "reading",
            "quiz": "running",
            "activity": "writing",
            "reading_title": "Reading",
            "caption": "Running.",
            "title": "Checklist",
            "saved": "Saved",
        },
    ),
    "zh-hans-360": (
        {"width": 360, "height": 740},
        "zh-CN",
        {
            "reading": "阅读中",
            "quiz": "进行中",
            "activity": "写作",
            "reading_title": "阅读计时",
            "caption": "计时中。",
            "title": "清单",
            "saved": "已保存",
        },
    ),
}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, for this module only (as tests/browser/conftest.py
    launches it): Playwright's sync API runs an event loop in this thread while it is started."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _bring_to_front(page: Any, ws: Any, instance_id: str, *, narrow: bool) -> None:
    """Click an app open behind: its chip, or on a phone (its bar holds Interact and the app in front) "More"."""
    if narrow:
        page.locator("#more-toggle").click()
        page.locator(f"#more-open-apps button[data-instance-id='{instance_id}']").click()
    else:
        ws.chip(instance_id).locator(".chip-main").click()


@pytest.mark.parametrize("case", list(BROWSER_CASES))
def test_the_person_ticks_the_checklist_and_the_reading_timer_runs_on_in_the_browser(
    authored: Authored, chromium: Any, case: str, tmp_path: Path
):
    """In Chromium: the checklist the Agent made shows in its Surface, the person's tick reaches the
    Agent and the Agent's tick the Surface; the reading timer's Surface counts down its own operation
    beside a quiz and a focus, and neither leaving it for the checklist nor going back to Interact ends
    it (going back asks first only while the focus, which it ends, is in front)."""
    from playwright.sync_api import expect

    from tests.browser.conftest import UI_TIMEOUT_MS, screenshot
    from tests.browser.test_people import fits, no_blocking_violations
    from tests.browser.workspace_page import COUNTDOWN, WorkspacePage

    viewport, locale, words = BROWSER_CASES[case]
    narrow = viewport["width"] <= 640
    conversation_id = authored.conversation_id
    context = chromium.new_context(viewport=viewport, locale=locale, timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    sock, revision = authored.agent()

    call_ids = itertools.count(1)

    def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        call_id = f"browser-{case}-{next(call_ids)}"  # this case's own: the server is the module's
        return sock.call(conversation_id, call_id, tool, arguments, revision)

    try:
        # The person signs in with the embedded login, as the server printed it.
        login = authored.server.login()
        page.goto(f"{authored.server.url}/accounts/login/")
        page.locator("#id_username").fill(login["username"])
        page.locator("#id_password").fill(login["password"])
        page.locator("#id_password").press("Enter")
        ws = WorkspacePage(page, authored.server.url)
        page.wait_for_url("**/workspace/")
        ws.wait_ready()

        # The Agent starts a quiz, then the reading timer: both run, the reading timer in front.
        quiz = call("quiz.start", {"duration_seconds": 1200, "questions": [{"prompt": "2+2", "answer": "4"}]})
        assert quiz["type"] == "tool.accepted", quiz
        reading = call("reading.start", {"duration_seconds": 600})
        assert reading["type"] == "tool.accepted", reading
        quiz_id, reading_id = quiz["instance_id"], reading["instance_id"]
        ws.expect_app_in_front("reading")
        reading_surface = page.frame_locator(f"#frames iframe[data-instance-id='{reading_id}']")
        # Its own operation, in its own words: a countdown (never "--:--"), its running caption and label.
        expect(reading_surface.locator("#countdown")).to_have_text(COUNTDOWN)
        assert reading_surface.locator("#countdown").inner_text()[:2] in {"10", "09"}  # its own 10 min
        expect(reading_surface.locator("#caption")).to_have_text(words["caption"])
        # The scaffold's title is the app's name in the page's language: the manifest's translations.
        expect(reading_surface.locator("#title")).to_have_text(words["reading_title"])
        expect(reading_surface.locator("#timer")).to_have_attribute("data-state", "reading")
        expect(ws.chip(reading_id).locator(".state-focusing")).to_have_text(words["reading"])
        # The quiz runs beside it with its own countdown in its own Surface.
        quiz_surface = page.frame_locator(f"#frames iframe[data-instance-id='{quiz_id}']")
        expect(quiz_surface.locator("#countdown")).to_have_text(COUNTDOWN)
        assert quiz_surface.locator("#countdown").inner_text()[:2] in {"20", "19"}  # its own 20 min, not the timer's
        if not narrow:
            expect(ws.chip(quiz_id).locator(".state-focusing")).to_have_text(words["quiz"])
        fits(page, "#dock-input")
        no_blocking_violations(page, f"the reading timer beside a quiz ({case})")
        screenshot(page, f"new-author-reading-beside-quiz-{case}", tmp_path)

        # The Agent makes a checklist (behind: the reading timer stays in front); the person opens it.
        made = call("checklist.create", {"items": ["milk", "eggs", "bread"]})
        assert made["type"] == "tool.receipt", made
        checklist_id = made["receipt"]["instance_id"]
        ws.expect_app_in_front("reading")
        _bring_to_front(page, ws, checklist_id, narrow=narrow)
        expect(ws.leave_dialog()).to_be_hidden()  # leaving the reading timer ends nothing: no question
        ws.expect_app_in_front("checklist")
        checklist = page.frame_locator(f"#frames iframe[data-instance-id='{checklist_id}']")
        expect(checklist.locator("#title")).to_have_text(words["title"])
        rows = checklist.locator("#items li")
        expect(rows).to_have_count(3)
        expect(rows.locator("input[type=checkbox]:checked")).to_have_count(0)

        # The person ticks "eggs" in the Surface; the Agent reads it back as ticked.
        rows.nth(1).locator("input[type=checkbox]").check()
        expect(checklist.locator("#status")).to_have_text(words["saved"])
        read = call("checklist.read", {})
        assert read["receipt"]["items"] == [
            {"text": "milk", "done": False},
            {"text": "eggs", "done": True},
            {"text": "bread", "done": False},
        ], read
        # The Agent ticks "bread": the Surface shows it, on top of the person's tick.
        ticked = call("checklist.tick", {"index": 2})
        assert (ticked["type"], ticked["receipt"]["instance_id"]) == ("tool.receipt", checklist_id), ticked
        expect(rows.nth(2)).to_have_attribute("data-done", "true")
        expect(rows.nth(1)).to_have_attribute("data-done", "true")
        expect(rows.nth(0)).to_have_attribute("data-done", "false")
        fits(page, "#dock-input")
        no_blocking_violations(page, f"the checklist ({case})")
        screenshot(page, f"new-author-checklist-{case}", tmp_path)

        # Back to Interact: nothing asks, and the reading timer (and the quiz) run on.
        page.locator("#back-to-interact").click()
        expect(ws.leave_dialog()).to_be_hidden()
        ws.expect_interact_in_front()
        running = _by_app(_state_get(sock, conversation_id)["operations"])
        assert [op["operation_id"] for op in running["reading"]] == [reading["operation_id"]]
        assert [op["operation_id"] for op in running["quiz"]] == [quiz["operation_id"]]
        expect(reading_surface.locator("#countdown")).to_have_text(COUNTDOWN)  # still counting, behind

        # A Pomodoro focus beside it: the focus comes to the front, the reading timer runs on behind;
        # going back now asks first, for the focus alone, and ends only the focus.
        focus = call("pomodoro.start", {"duration_seconds": 900, "activity": words["activity"]})
        assert focus["type"] == "tool.accepted", focus
        focus_id = focus["instance_id"]
        ws.expect_app_in_front("pomodoro")
        ws.expect_countdown(focus_id, activity=words["activity"])
        running = _by_app(_state_get(sock, conversation_id)["operations"])
        assert {app: len(ops) for app, ops in running.items()} == {"reading": 1, "quiz": 1, "pomodoro": 1}
        page.locator("#back-to-interact").click()
        dialog = ws.leave_dialog()
        expect(dialog).to_be_visible()
        expect(dialog).to_have_attribute("data-ending", focus["operation_id"])
        dialog.locator("#leave-confirm").click()
        expect(dialog).to_be_hidden()
        ws.expect_interact_in_front()
        ended = sock.push("tool.result", source_tool_call_id=focus["source_tool_call_id"])
        assert (ended["result"]["state"], ended["result"]["interruption_reason"]) == (
            "interrupted",
            "returned_to_interact",
        ), ended
        running = _by_app(_state_get(sock, conversation_id)["operations"])
        assert [op["operation_id"] for op in running["reading"]] == [reading["operation_id"]]
        assert "pomodoro" not in running
        if not narrow:
            expect(ws.chip(reading_id).locator(".state-focusing")).to_have_text(words["reading"])
        expect(reading_surface.locator("#countdown")).to_have_text(COUNTDOWN)
        screenshot(page, f"new-author-back-in-interact-{case}", tmp_path)
        assert errors == []

        stopped = call("reading.stop", {})
        assert stopped["receipt"] == {"status": "interrupted", "operation_id": reading["operation_id"]}, stopped
        assert call("quiz.stop", {})["receipt"]["status"] == "interrupted"
    finally:
        sock.close()
        context.close()
