"""WebRTC, nested browsing contexts and server requests, attempted from inside the Notes Surface (R-2.3.5).

Neither CSP nor the iframe sandbox covers WebRTC: before the guard script (``miniapps/sdk/lineup-guard.js``)
a Surface built an ``RTCPeerConnection`` whose STUN server was a UDP listener of the test, and
packets arrived. The test runs that listener: the same attempt from an ordinary page reaches it (so
the listener can see packets), the attempt from the Surface must not. Nested frames (about:blank,
srcdoc, blob:, data:, same-origin) and popups must give the Surface no realm with WebRTC and no way
to the server: Daphne's access log shows no request carrying the probe's marker.
"""

from __future__ import annotations

import json
import secrets
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.workspace_page import WorkspacePage
from tests.support.processes import PYTHON, ROOT

PEER = r"""
async ({ port, marker }) => {
  const ice = { iceServers: [{ urls: `stun:127.0.0.1:${port}` }] };
  const connection = new RTCPeerConnection(ice);
  connection.createDataChannel("out");
  await connection.setLocalDescription(await connection.createOffer());
  return "constructed";
}
"""

ATTEMPTS = r"""
async ({ port, marker }) => {
  const out = {};
  const attempt = async (name, fn) => {
    try {
      out[name] = { allowed: true, value: String(await fn()) };
    } catch (error) {
      out[name] = { allowed: false, error: `${error && error.name}: ${error && error.message}` };
    }
  };
  const settled = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const ice = { iceServers: [{ urls: `stun:127.0.0.1:${port}` }] };
  const peer = async (realm) => {
    const connection = new realm.RTCPeerConnection(ice);
    connection.createDataChannel("out");
    await connection.setLocalDescription(await connection.createOffer());
    return "constructed";
  };
  const rtc = Object.getOwnPropertyNames(globalThis).filter((name) => /RTC/.test(name));
  await attempt("rtc_globals", () => {
    if (rtc.length) return rtc.join(",");
    throw new Error("none");
  });
  await attempt("peer_connection", () => peer(globalThis));
  await attempt("webkit_peer_connection", () => new webkitRTCPeerConnection(ice));
  await attempt("media_devices", () => navigator.mediaDevices.getUserMedia({ audio: true }));
  const nested = async (name, configure) => {
    await attempt(name, async () => {
      const frame = document.createElement("iframe");
      configure(frame);
      document.body.append(frame);
      await settled(300);  // the frame's load (or its refusal) is not observable from an opaque origin
      return peer(frame.contentWindow);
    });
  };
  await nested("iframe_about_blank", () => {});
  await nested("iframe_srcdoc", (frame) => {
    frame.srcdoc = `<img src="/workspace/?probe=srcdoc-${marker}"><script>new RTCPeerConnection(${JSON.stringify(ice)})</` + "script>";
  });
  await nested("iframe_blob", (frame) => {
    frame.src = URL.createObjectURL(new Blob([`<img src="/workspace/?probe=blob-${marker}">`], { type: "text/html" }));
  });
  await nested("iframe_data", (frame) => {
    frame.src = `data:text/html,<img src="/workspace/?probe=data-${marker}">`;
  });
  await nested("iframe_same_origin", (frame) => {
    frame.src = `/surfaces/notes/?probe=nested-${marker}`;
  });
  await attempt("object_element", async () => {
    const object = document.createElement("object");
    object.data = `/workspace/?probe=object-${marker}`;
    document.body.append(object);
    await settled(300);
    return peer(object.contentWindow);
  });
  await attempt("window_open", () => {
    const popup = window.open(`/workspace/?probe=popup-${marker}`);
    if (popup === null) throw new Error("popup refused");
    return peer(popup);
  });
  await attempt("fetch_same_origin", () => fetch(`/workspace/?probe=fetch-${marker}`).then((r) => r.status));
  await attempt("image_same_origin", () => new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve("loaded");
    image.onerror = () => reject(new Error("image failed"));
    image.src = `/?probe=image-${marker}`;
  }));
  return out;
}
"""


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.fixture
def udp_listener() -> Iterator[socket.socket]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.settimeout(0.1)
    try:
        yield listener
    finally:
        listener.close()


def packets_within(listener: socket.socket, seconds: float) -> list[tuple[str, int]]:
    """Every datagram that arrives in the next ``seconds`` (a measurement window, not a synchronisation)."""
    senders: list[tuple[str, int]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            senders.append(listener.recvfrom(2048)[1])
        except TimeoutError:
            continue
    return senders


@pytest.mark.spec("R-2.3.5")
def test_a_surface_can_not_use_webrtc_nor_a_nested_frame_nor_reach_the_server(ws, server, context, udp_listener):
    """The Notes Surface has no WebRTC constructor; no nested frame or popup hands it one; no UDP packet
    reaches the test's STUN listener and no request with the marker reaches Daphne."""
    port = udp_listener.getsockname()[1]
    marker = secrets.token_hex(8)

    # The listener sees an ordinary page's ICE gathering: without the guard a Surface did the same.
    control = context.new_page()
    control.set_content("<p>control</p>")
    assert control.evaluate(PEER, {"port": port, "marker": marker}) == "constructed"
    assert packets_within(udp_listener, 5.0), "the control page's STUN requests never reached the listener"
    control.close()
    packets_within(udp_listener, 0.5)  # drain the control's retransmissions

    ws.page.get_by_role("button", name="+ Scratch notes").click()
    chip = ws.page.locator("#appbar li.chip[data-app-id='notes']").first
    expect(chip).to_have_attribute("data-state", "foreground")
    instance_id = chip.get_attribute("data-instance-id")
    frame = ws.surface(instance_id)
    status = ws.page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#status")
    expect(status).not_to_have_text("Loading…")
    result = frame.evaluate(ATTEMPTS, {"port": port, "marker": marker})

    allowed = {name: outcome for name, outcome in result.items() if outcome["allowed"]}
    assert allowed == {}, f"escaped the sandbox: {allowed}"
    errors = {name: outcome["error"] for name, outcome in result.items()}
    assert errors["rtc_globals"] == "Error: none"
    assert errors["peer_connection"] == "TypeError: realm.RTCPeerConnection is not a constructor"
    assert errors["webkit_peer_connection"].startswith("ReferenceError"), errors["webkit_peer_connection"]
    assert errors["media_devices"].startswith("TypeError"), errors["media_devices"]
    # A refused nested frame is an error page of another origin: its window is out of reach.
    for name in ("iframe_about_blank", "iframe_srcdoc", "iframe_blob", "iframe_data", "iframe_same_origin"):
        assert errors[name].startswith("SecurityError"), (name, errors[name])
    assert errors["window_open"] == "Error: popup refused"
    assert errors["fetch_same_origin"].startswith("TypeError")
    assert errors["image_same_origin"] == "Error: image failed"

    assert packets_within(udp_listener, 3.0) == []
    # One request of the test's own after the probes orders the access log: every probe that left would be in it.
    after = f"/surfaces/notes/?after={secrets.token_hex(4)}"
    assert context.request.get(f"{server.url}{after}").ok
    server.wait(lambda: any(after in line for line in server.access_lines()), "the test's own request in the log")
    assert [line for line in server.access_lines() if marker in line] == []
    assert len(context.pages) == 1


@pytest.mark.spec("R-2.3.5")
def test_the_desktop_hosts_engine_gets_the_same_surface_without_webrtc(server, udp_listener):
    """Qt WebEngine (the desktop host's Chromium) loads the Notes Surface as the server serves it: the
    guard runs there too, the attempt finds no RTCPeerConnection and no packet reaches the listener."""
    pytest.importorskip("PySide6.QtWebEngineCore", reason="the desktop extra is not installed")
    port = udp_listener.getsockname()[1]
    probe = subprocess.run(
        [PYTHON, "-m", "tests.browser.qt_surface_probe", f"{server.url}/surfaces/notes/", str(port)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    outcome = json.loads(probe.stdout.strip().splitlines()[-1])
    assert outcome == {"loaded": True, "result": "ReferenceError: RTCPeerConnection is not defined"}, probe.stderr
    assert packets_within(udp_listener, 2.0) == []
