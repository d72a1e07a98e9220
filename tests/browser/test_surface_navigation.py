"""A Surface that navigates its own frame (issue 38): the host's ``frame-src 'self'`` refuses the
load, and the question is what leaves the machine before that. A listener on a loopback port
stands for the attacker's host and counts every TCP connection made to it.

The listeners are on 127.0.0.2, not 127.0.0.1: their ports are ephemeral ones, and on a shared
machine another process's client can be aimed at 127.0.0.1 on the same number (a port a test took
with ``free_port`` and whose server is not up yet or has died: its readiness probe, or an Agent that
keeps reconnecting, sends a request line). A run under load once saw bytes from such a stranger and
failed as if the Surface had leaked; nothing of this machine is aimed at 127.0.0.2. What a listener
receives is printed with the failure either way."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import threading
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.workspace_page import WorkspacePage
from tests.support.processes import PYTHON, ROOT

NAVIGATIONS = 30
LISTEN_HOST = "127.0.0.2"  # loopback, but nobody else's (the module's docstring)
SPACING_MS = 5  # between navigations: each in a task of its own, as a patient leak would


class Listener:
    """A TCP listener on ``LISTEN_HOST`` that accepts and counts connections (and reads what they send)."""

    def __init__(self) -> None:
        self.sock = socket.create_server((LISTEN_HOST, 0))
        self.port = self.sock.getsockname()[1]
        self.accepted: list[bytes] = []
        self.sock.settimeout(0.2)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.sock.accept()
            except TimeoutError:
                continue
            connection.settimeout(0.5)
            try:
                self.accepted.append(connection.recv(200))
            except OSError:
                self.accepted.append(b"")
            connection.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.sock.close()


def received_bytes(listeners: list[Listener]) -> list[str]:
    """What the listeners' connections sent, each as ``port: repr(first 200 bytes)``; empty ones left out."""
    return [f"{one.port}: {data[:200]!r}" for one in listeners for data in one.accepted if data]


@pytest.fixture
def listeners():
    listening = [Listener() for _ in range(NAVIGATIONS)]
    yield listening
    for one in listening:
        one.close()


def _open_notes(ws: WorkspacePage):
    ws.page.get_by_role("button", name="+ Scratch notes").click()
    chip = ws.page.locator("#apps li.chip[data-app-id='notes']").first
    expect(chip).to_have_attribute("data-state", "foreground")
    instance_id = chip.get_attribute("data-instance-id")
    frame = ws.surface(instance_id)
    status = ws.page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#status")
    expect(status).not_to_have_text("Loading…")
    return instance_id, frame


@pytest.mark.spec("R-2.3.5")
def test_a_surface_navigating_its_frame_sends_no_request_and_is_closed(workspace, server, listeners):
    """A Surface navigates its own frame again and again, each time to another listener (a port
    stands for a host name), all in one task, then one per task. The host's frame-src refuses every
    page: no listener receives a byte of a request (the path, where data would go, never leaves),
    and the frame is closed at the first refused load and never loaded again.

    The residual (docs/decisions/0006-surface-sandbox-and-csp.md): Chromium opens a TCP connection (and
    resolves the name) at the start of each navigation, before the policy refuses it, and a
    navigation started before the previous one committed cancels it, so the connections go on while
    the Surface keeps navigating. Measured here and printed: connections per second."""
    ws = WorkspacePage(workspace, server.url)
    instance_id, frame = _open_notes(ws)
    started = time.monotonic()
    with contextlib.suppress(PlaywrightError):  # the document goes away with the last navigation
        frame.evaluate(
            """async ({ host, ports, spacing }) => {
                const go = (n) => { location.href = `http://${host}:${ports[n]}/leak-${n}-cafe`; };
                for (let n = 0; n < ports.length; n += 1) go(n);  // all in one task
                for (let n = 0; n < ports.length; n += 1) {  // then one per task
                    await new Promise((resolve) => setTimeout(resolve, spacing));
                    go(n);
                }
            }""",
            {"host": LISTEN_HOST, "ports": [one.port for one in listeners], "spacing": SPACING_MS},
        )
    selector = f"#frames iframe[data-instance-id='{instance_id}']"
    expect(ws.page.locator(selector)).to_have_count(0, timeout=10_000)  # closed by the host
    closed_after = time.monotonic() - started
    deadline = time.monotonic() + 3  # as long as a reload would take
    while time.monotonic() < deadline:
        assert ws.page.locator(selector).count() == 0
        ws.page.wait_for_timeout(200)
    accepted = [data for one in listeners for data in one.accepted]
    print(
        f"navigation residual: {len(accepted)} connections of {2 * NAVIGATIONS} navigations, closed after {closed_after:.2f} s"
    )
    received = received_bytes(listeners)
    assert not received, f"a listener got non-empty bytes (the first 200 of each connection): {received}"


@pytest.mark.spec("R-2.3.5")
def test_a_frame_that_loads_a_page_the_host_did_not_ask_for_is_closed_for_good(workspace, server, listeners):
    """The host's second line, for a navigation the guard could not cancel (here the browser's own,
    from outside the Surface): the refused load closes the frame, and the host never frames that
    instance again."""
    ws = WorkspacePage(workspace, server.url)
    instance_id, frame = _open_notes(ws)
    with contextlib.suppress(PlaywrightError):
        frame.goto(f"http://{LISTEN_HOST}:{listeners[0].port}/outside", timeout=5000)
    selector = f"#frames iframe[data-instance-id='{instance_id}']"
    expect(ws.page.locator(selector)).to_have_count(0, timeout=10_000)
    deadline = time.monotonic() + 3  # as long as a reload would take
    while time.monotonic() < deadline:
        assert ws.page.locator(selector).count() == 0
        ws.page.wait_for_timeout(200)


@pytest.mark.spec("R-2.3.5")
def test_the_desktop_host_refuses_a_surfaces_navigation_before_it_connects(server, listeners):
    """The desktop host (Qt WebEngine) decides every navigation itself (``HostPage.acceptNavigationRequest``:
    the server's origin only): a Surface navigating its frame to the listeners, one navigation per
    task, is refused, and no listener sees a connection."""
    pytest.importorskip("PySide6.QtWebEngineCore", reason="the desktop extra is not installed")
    probe = subprocess.run(
        [
            PYTHON,
            "-m",
            "tests.browser.qt_navigation_probe",
            server.url,
            LISTEN_HOST,
            *(str(one.port) for one in listeners),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    )
    outcome = json.loads(probe.stdout.strip().splitlines()[-1])
    assert outcome == {"framed": True, "navigated": NAVIGATIONS}, probe.stderr[-3000:]
    accepted = {one.port: one.accepted for one in listeners if one.accepted}
    print(f"desktop navigation residual: {sum(len(a) for a in accepted.values())} connections of {NAVIGATIONS}")
    assert accepted == {}, f"connections (the first 200 bytes of each): {received_bytes(listeners) or accepted}"
