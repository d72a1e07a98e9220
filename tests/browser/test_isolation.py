"""Isolation, attempted from INSIDE a running Surface (SPEC R-2.3.5, acceptance 12).

The scripts below run in the Pomodoro Surface's own frame (its JavaScript realm, under its CSP
and sandbox) and try every way out: the network (fetch, XMLHttpRequest, WebSocket, beacon,
image, nested frame, form), the host page (parent.document, top.location), the host's cookies
and storage, popups, system APIs — and forged messages to the host, on the window and on a port
it managed to get. Each attempt must fail, and the test proves it: by the error the browser
raised, by the host's refusal, by Daphne's access log (no request carrying the probe's marker
ever reached the server) and by the database (nothing changed).
"""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import expect

from interact.models import Message
from runtime.models import InstanceSnapshot, LifecycleEvent
from tests.browser.workspace_page import WorkspacePage, focusing_operation, interact_instance, start_focus

ESCAPES = r"""
async ({ base, marker }) => {
  const url = (name) => `${base}/workspace/?probe=${name}-${marker}`;
  const out = {};
  const attempt = async (name, fn) => {
    try {
      out[name] = { allowed: true, value: String(await fn()) };
    } catch (error) {
      out[name] = { allowed: false, error: `${error && error.name}: ${error && error.message}` };
    }
  };
  const settleWithin = (ms, promise) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), ms))]);

  await attempt("fetch", () => fetch(url("fetch")).then((r) => r.status));
  await attempt("fetch_relative", () => fetch(`/workspace/?probe=fetch_relative-${marker}`).then((r) => r.status));
  await attempt("xhr", () => new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", url("xhr"));
    xhr.onload = () => resolve(xhr.status);
    xhr.onerror = () => reject(new Error("xhr failed"));
    xhr.send();
  }));
  await attempt("websocket", () => settleWithin(3000, new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace("http", "ws")}/ws/workspace/?probe=websocket-${marker}`);
    socket.onopen = () => resolve("open");
    socket.onerror = () => reject(new Error("websocket failed"));
    socket.onclose = (event) => reject(new Error(`websocket closed ${event.code}`));
  })));
  await attempt("beacon", () => {
    navigator.sendBeacon(url("beacon"), "x");
    throw new Error("queued; the access log decides");
  });
  await attempt("image", () => settleWithin(3000, new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve("loaded");
    image.onerror = () => reject(new Error("image failed"));
    image.src = url("image");
  })));
  await attempt("script_tag", () => settleWithin(3000, new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.onload = () => resolve("loaded");
    script.onerror = () => reject(new Error("script failed"));
    script.src = url("script_tag");
    document.head.append(script);
  })));
  await attempt("stylesheet", () => settleWithin(3000, new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.onload = () => resolve("loaded");
    link.onerror = () => reject(new Error("stylesheet failed"));
    link.href = url("stylesheet");
    document.head.append(link);
  })));
  await attempt("css_background", () => {
    document.body.style.backgroundImage = `url("${url("css_background")}")`;
    getComputedStyle(document.body).backgroundImage;
    throw new Error("styled; the access log decides");
  });
  await attempt("nested_frame", () => {
    const frame = document.createElement("iframe");
    frame.src = url("nested_frame");
    document.body.append(frame);
    throw new Error("inserted; the access log decides");
  });
  await attempt("form", () => {
    const form = document.createElement("form");
    form.action = url("form");
    form.method = "post";
    document.body.append(form);
    form.submit();
    throw new Error("submitted; the access log decides");
  });
  await attempt("parent_document", () => parent.document.title);
  await attempt("parent_dom_query", () => parent.document.querySelector("#composer-input"));
  await attempt("top_location_read", () => top.location.href);
  await attempt("top_location_write", () => {
    top.location.href = url("top_navigation");
    return "assigned";
  });
  await attempt("cookie_read", () => document.cookie);
  await attempt("cookie_write", () => {
    document.cookie = "sessionid=forged";
    return document.cookie;
  });
  await attempt("local_storage", () => localStorage.getItem("anything"));
  await attempt("session_storage", () => sessionStorage.getItem("anything"));
  await attempt("indexed_db", () => new Promise((resolve, reject) => {
    const request = indexedDB.open("surface");
    request.onsuccess = () => resolve("opened");
    request.onerror = () => reject(request.error);
  }));
  await attempt("window_open", () => {
    const popup = window.open(url("popup"));
    if (popup === null) throw new Error("popup refused");
    return "opened";
  });
  await attempt("notification", async () => {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Error(`permission ${permission}`);
    return permission;
  });
  await attempt("eval", () => eval("1 + 1"));
  await attempt("origin", () => {
    if (self.origin !== "null") return self.origin;
    throw new Error("opaque origin");
  });
  return out;
}
"""

# A malicious Surface grabs a port of its own by saying "ready" again, then sends the host what
# the SDK never would. Every reply (and the lack of one) is collected in the frame.
FORGE = r"""
async ({ interactInstanceId, operationId, revision }) => {
  const grabbed = new Promise((resolve) => {
    window.addEventListener("message", (event) => {
      if (event.ports && event.ports.length) resolve(event.ports[0]);
    });
  });
  parent.postMessage({ lineup: 1, type: "ready", load: "0123456789abcdef" }, "*");
  const port = await grabbed;
  const replies = new Map();
  port.onmessage = (event) => {
    if (event.data && event.data.type === "reply") replies.set(event.data.id, event.data);
  };
  const send = (message) => port.postMessage(message);
  const due = (ids) => new Promise((resolve) => {
    const check = () => (ids.every((id) => replies.has(id)) ? resolve() : setTimeout(check, 20));
    check();
  });

  // Window messages straight to the host page: not the handshake, so refused.
  parent.postMessage({ type: "message.send", text: "stop" }, "*");
  parent.postMessage({ type: "return_to_interact" }, "*");
  parent.postMessage({ lineup: 1, type: "connect" }, "*");
  parent.postMessage({ lineup: 1, type: "ready", load: "not-a-load-id" }, "*");

  // Port messages the host must refuse.
  send({ id: 1, type: "message.send", text: "stop" });
  send({ id: 2, type: "return_to_interact" });
  send({ id: 3, type: "interaction.answer", interaction_id: "x", value: true });
  send({ id: 4, type: "saveState", state: { text: "x" }, revision: 0, instance_id: interactInstanceId });
  send({ id: 5, type: "saveState", state: { blob: "x".repeat(20000) }, revision: 0 });
  send({ id: 6, type: "saveState", state: new Date(), revision: 0 });
  send({ id: 7, type: "getState", conversation_id: "someone-else" });
  send({ id: 8, type: "saveState", state: {}, revision: -1 });
  send({ id: 9, type: "requestCapability", name: "<script>", args: {} });
  send("just a string");
  // Relayed, and decided by the Runtime: a denied capability and a display snapshot that says
  // "completed" (a snapshot never decides the operation's state).
  send({ id: 10, type: "requestCapability", name: "system.notifications", args: { title: "done" } });
  send({
    id: 11,
    type: "saveState",
    state: { operation_id: operationId, started_at: "x", ends_at: "y", display_state: "completed" },
    revision,
  });
  await due([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  // Flooding: beyond the rate limit the host refuses without relaying.
  for (let id = 100; id < 160; id += 1) send({ id, type: "getState" });
  await due(Array.from({ length: 60 }, (_, i) => 100 + i));
  return Object.fromEntries([...replies].map(([id, reply]) => [id, reply]));
}
"""


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


def probe_requests(server, marker: str) -> list[str]:
    return [line for line in server.access_lines() if marker in line]


@pytest.mark.spec("R-2.3.5", "R-2.3.1", "R-2.2.9", "R-4.4.6", "R-3.4")
def test_a_surface_can_not_reach_the_server_the_host_or_the_system(ws, server, conversation, context, watch):
    """Every escape from inside the Pomodoro frame fails, no probe request reaches Daphne, the
    host page is untouched, and the focus keeps running."""
    operation = start_focus(ws, server, conversation, "start a 2 minute reading focus")
    frame = ws.surface(str(operation.instance_id))
    marker = secrets.token_hex(8)
    result = frame.evaluate(ESCAPES, {"base": server.url, "marker": marker})

    allowed = {name: outcome for name, outcome in result.items() if outcome["allowed"]}
    assert allowed == {}, f"escaped the sandbox: {allowed}"
    errors = {name: outcome["error"] for name, outcome in result.items()}
    for name in ("parent_document", "parent_dom_query", "top_location_read", "cookie_read", "cookie_write"):
        assert errors[name].startswith("SecurityError"), (name, errors[name])
    for name in ("local_storage", "session_storage", "indexed_db", "top_location_write"):
        assert errors[name].startswith("SecurityError"), (name, errors[name])
    assert errors["window_open"] == "Error: popup refused"
    assert errors["notification"] == "Error: permission denied"
    assert errors["eval"].startswith("EvalError")
    assert errors["origin"] == "Error: opaque origin"

    # Proof that nothing left: the Surface's own document is in Daphne's access log, no probe is.
    ws.page.get_by_role("button", name="Reload").click()  # one more request after the probes, to order the log
    server.wait(lambda: LifecycleEvent.objects.filter(kind="surface.reloaded").exists(), "the reload")
    server.wait(
        lambda: sum('"GET /surfaces/pomodoro/"' in line for line in server.access_lines()) >= 2,
        "the reloaded Surface in the access log",
    )
    assert probe_requests(server, marker) == [], probe_requests(server, marker)
    assert len(context.pages) == 1
    assert ws.page.url == f"{server.url}/workspace/"
    ws.expect_app_in_front("pomodoro")
    assert focusing_operation(conversation) == operation


@pytest.mark.spec("R-2.3.5")
def test_a_surface_document_makes_no_request_to_the_server(ws, server, context):
    """The browser's own request listener sees every request of every frame: the host asks for the
    Surface's document (one navigation), and the document itself asks for nothing — its scripts,
    styles and SDK are inline and its policy names no URL — not while it loads, not when it tries
    the escapes (a request the policy refuses is never made), not when it is reloaded."""
    answered: list[tuple[object, str]] = []  # a response came back: the request was made
    refused: list[tuple[object, str, str]] = []  # the browser dropped it before it left (or it failed)
    context.on("response", lambda response: answered.append((response.frame, response.url)))
    context.on("requestfailed", lambda request: refused.append((request.frame, request.url, request.failure or "")))
    ws.page.get_by_role("button", name="+ Scratch notes").click()
    chip = ws.page.locator("#appbar li.chip[data-app-id='notes']").first
    expect(chip).to_have_attribute("data-state", "foreground")
    instance_id = chip.get_attribute("data-instance-id")
    frame = ws.surface(instance_id)
    status = ws.page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#status")
    expect(status).not_to_have_text("Loading…")
    frame.evaluate(ESCAPES, {"base": server.url, "marker": secrets.token_hex(8)})
    ws.page.get_by_role("button", name="Reload").click()
    server.wait(lambda: LifecycleEvent.objects.filter(kind="surface.reloaded").exists(), "the reload")
    expect(status).not_to_have_text("Loading…")

    entry = f"{server.url}/surfaces/notes/"
    assert [url for source, url in answered if source == frame] == [entry, entry]  # loaded, reloaded
    assert [url for source, url in answered if source not in (frame, ws.page.main_frame)] == []
    # Every probe the Surface tried was stopped inside the browser, by its policy.
    blocked = [(url, failure) for source, url, failure in refused if source == frame]
    assert blocked and all("csp" in failure.lower() for _, failure in blocked), blocked


@pytest.mark.spec("R-2.3.5", "R-2.3.3", "R-2.2.9", "R-3.4", "R-3.13")
def test_forged_messages_to_the_host_are_refused_and_change_nothing(ws, server, conversation, watch):
    """Window messages other than the SDK handshake, and port messages that are not exactly
    getState / saveState / requestCapability, are refused without reaching the server; what is
    relayed acts only on the Surface's own instance and decides nothing about the focus."""
    operation = start_focus(ws, server, conversation, "start a 2 minute reading focus")
    frame = ws.surface(str(operation.instance_id))
    server.wait(lambda: InstanceSnapshot.objects.get(instance_id=operation.instance_id).revision == 1, "a snapshot")
    interact = interact_instance(conversation)
    messages_before = Message.objects.filter(conversation=conversation).count()

    replies = frame.evaluate(
        FORGE,
        {"interactInstanceId": str(interact.id), "operationId": str(operation.id), "revision": 1},
    )

    for forged in range(1, 10):
        assert replies[str(forged)]["ok"] is False, replies[str(forged)]
        assert replies[str(forged)]["error"]["code"] == "rejected_message", replies[str(forged)]
    assert "unknown message type" in replies["1"]["error"]["detail"]
    assert "takes exactly" in replies["4"]["error"]["detail"]
    assert "at most" in replies["5"]["error"]["detail"]
    assert "JSON data only" in replies["6"]["error"]["detail"]
    assert replies["10"] == {
        "type": "reply",
        "id": 10,
        "ok": True,
        "result": {"name": "system.notifications", "granted": False, "reason": "not_declared"},
    }
    assert replies["11"]["ok"] is True and replies["11"]["result"] == {"revision": 2}
    flood = [replies[str(i)] for i in range(100, 160)]
    assert any(r["ok"] for r in flood) and any(not r["ok"] and "too many" in r["error"]["detail"] for r in flood)

    assert sum("an unexpected window message" in line for line in watch.console) >= 3
    assert watch.saw(r"refused a message from the pomodoro Surface: unknown message type")
    denied = LifecycleEvent.objects.get(kind="capability.denied")
    assert (denied.instance_id, denied.data["capability"]) == (operation.instance_id, "system.notifications")

    # Nothing the forgeries named happened; the snapshot changed only on the Surface's own instance.
    assert Message.objects.filter(conversation=conversation).count() == messages_before
    assert not Message.objects.filter(conversation=conversation, author_kind="human", text="stop").exists()
    assert not InstanceSnapshot.objects.filter(instance_id=interact.id).exists()
    assert InstanceSnapshot.objects.get(instance_id=operation.instance_id).state["display_state"] == "completed"
    # ... and a display snapshot saying "completed" decides nothing: the focus runs on.
    assert focusing_operation(conversation) == operation
    ws.expect_app_in_front("pomodoro")
    expect(ws.interact_chip()).to_contain_text("open behind")
