"""The Desktop Host's native window, driven for real under Xvfb (see conftest.py for the setup).

One representative flow end to end — the host starts the embedded server, logs in, the IM asks
for a focus, Pomodoro comes to the front, completes at ``ends_at`` and Interact shows the result
— then the host-integration mappings: closing the window during a focus ends it ``interrupted``
with exactly one result before the server stops, reopening restores the workspace from its
snapshot, and minimising is visibility, never an exit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance, Conversation, LifecycleEvent, Operation
from tests.browser.workspace_page import (
    WorkspacePage,
    agent_said,
    assert_ended_once,
    focusing_operation,
    interact_instance,
    settled,
    start_focus,
)
from tests.lineup.desktop import x11
from tests.support.processes import port_open

EXITS = ("operation.interrupted", "operation.completed", "lifecycle.return_to_interact", "lifecycle.switch_app")


def embedded_conversation() -> Conversation:
    """The embedded login's default conversation (the server created both)."""
    return Conversation.objects.get(owner__username="lineup", is_default=True)


def host_api_globals(frame) -> list[str]:
    """Anything a native host could have injected into a document's scripts."""
    return frame.evaluate(
        "() => ['qt', 'QWebChannel', 'pywebview', 'chrome.webview', '__TAURI__', 'lineupDesktop']"
        ".filter((name) => name.split('.').reduce((o, k) => (o == null ? undefined : o[k]), window) !== undefined)"
    )


@pytest.mark.spec("R-2.1.1", "R-3.5", "R-3.10", "R-4.1.1", "R-4.1.2", "R-4.2.1", "R-4.2.4", "R-4.3.2", "R-2.3.5")
def test_native_window_runs_the_focus_flow_and_closes_the_server_it_started(desktop):
    """Nothing configured: the host starts the embedded server and opens the workspace signed in;
    "start a 6 second reading focus" brings Pomodoro to the front, it completes by itself and
    Interact shows the result; Surfaces see no host API; closing the window stops the server."""
    desktop.start()
    page = desktop.page
    ws = WorkspacePage(page, desktop.url)
    expect(page).to_have_url(f"{desktop.url}/workspace/")  # signed in by the host, no login form
    expect(page.locator("#timeline-empty")).to_be_visible()
    conversation = embedded_conversation()

    operation = start_focus(ws, desktop, conversation, "start a 6 second reading focus")
    ws.expect_chip_state(str(operation.instance_id), "foreground")
    ws.expect_chip_state(str(interact_instance(conversation).id), "background")
    expect(page.locator("#dock-last")).to_contain_text("Focus started: 6 seconds of reading")
    # The same sandbox as in a browser: the Surface's origin is opaque and nothing is injected.
    surface = ws.surface(str(operation.instance_id))
    assert surface.evaluate("() => window.origin") == "null"
    assert host_api_globals(surface) == [] and host_api_globals(page) == []
    desktop.screenshot("08-desktop-pomodoro-focus")

    done = desktop.wait(lambda: settled(operation), "the deadline to settle the focus", timeout=15)
    assert done.ended_at == done.ends_at
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="completed", reason=None)
    block = ws.block(str(operation.app_session_id))
    expect(block.locator(".pill")).to_have_text("Completed")
    block.locator("summary").click()
    expect(block.locator(".block-result")).to_have_text(re.compile(r"^Completed: 6 s of reading, ended "))
    expect(page.locator("#timeline > .message.from-agent").last).to_contain_text("Focus complete")
    expect(ws.interaction(kind="confirm")).to_contain_text("Start another 6-second round?")
    assert agent_said(conversation, r"^Focus complete: 6 seconds of reading")
    desktop.screenshot("08-desktop-interact-result")

    # The close button with nothing running: the window goes, and so does the server the host started.
    assert desktop.close_window() == 0
    assert not port_open(desktop.server_port), "the embedded server outlived its window"
    log = desktop.process.log_text()
    assert '"closed": 0' in log and "desktop.server_stopped" in log
    assert Operation.objects.filter(conversation=conversation).count() == 1


@pytest.mark.spec("R-4.2.2", "R-4.2.6", "R-4.1.5", "R-4.4.5", "R-4.2.8")
def test_closing_the_window_during_a_focus_settles_it_interrupted_once_and_reopening_restores(desktop):
    """The window's close button during a running focus closes the open MiniApps through the page's
    ``workspace.close`` before the server stops: one ``interrupted(app_closed)`` result. A new start
    of the host rebuilds the workspace from its snapshot: Interact in front, the round interrupted."""
    desktop.start()
    ws = WorkspacePage(desktop.page, desktop.url)
    conversation = embedded_conversation()
    operation = start_focus(ws, desktop, conversation, "start a 2 minute reading focus")

    assert desktop.close_window() == 0
    assert not port_open(desktop.server_port)
    assert_ended_once(operation, state="interrupted", reason="app_closed")
    kinds = LifecycleEvent.objects.filter(conversation_id=conversation.id).values_list("kind", flat=True)
    assert list(kinds).count("lifecycle.close_workspace") == 1
    log = desktop.process.log_text()
    # Closed through the page before the server went: the order is in the host's log.
    assert '"closed": 1' in log
    assert log.index("desktop.apps_closed") < log.index("desktop.server_stopped")

    # Reopen (the other door, manage.py run_desktop): the same data, a new server and window; the
    # workspace comes back from its snapshot.
    desktop.start(via_manage_py=True)
    ws = WorkspacePage(desktop.page, desktop.url)
    ws.expect_interact_in_front()
    ws.expect_chip_state(str(operation.instance_id), "closed")
    expect(ws.interact_chip()).to_have_attribute("data-state", "foreground")  # its words are the person's ("in front")
    expect(ws.block(str(operation.app_session_id)).locator(".pill")).to_have_text("Interrupted")
    assert_ended_once(operation, state="interrupted", reason="app_closed")
    assert desktop.close_window() == 0


def hidden_then_back(desktop, concealments: list[tuple[str, Callable[[], None], Callable[[], None]]]) -> None:
    """During one running focus, each ``conceal()`` must suspend the Pomodoro (page visibility
    hidden) with the focus running on, and its ``reveal()`` bring it to the front again — never an
    exit. One host and one focus serve every concealment in turn (each a host start saved)."""
    ws = WorkspacePage(desktop.page, desktop.url)
    conversation = embedded_conversation()
    operation = start_focus(ws, desktop, conversation, "start a 2 minute reading focus")
    instance_id = operation.instance_id

    for name, conceal, reveal in concealments:
        conceal()
        desktop.wait(
            lambda: AppInstance.objects.get(pk=instance_id).lifecycle_state == "suspended", f"{name}: suspended"
        )
        assert ws.page.evaluate("() => document.visibilityState") == "hidden", name
        reveal()
        desktop.wait(lambda: AppInstance.objects.get(pk=instance_id).lifecycle_state == "foreground", f"{name}: back")
        ws.expect_chip_state(str(instance_id), "foreground")
        ws.expect_countdown(str(instance_id), activity="reading")
        assert focusing_operation(conversation) == operation, name

    visibility = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="lifecycle.visibility")
    assert [e.data["visible"] for e in visibility.order_by("at", "id")] == [False, True] * len(concealments)
    assert not LifecycleEvent.objects.filter(conversation_id=conversation.id, kind__in=EXITS).exists()
    assert desktop.close_window() == 0
    assert_ended_once(operation, state="interrupted", reason="app_closed")


@pytest.mark.spec("R-4.2.2", "R-4.4.5", "R-4.1.3")
def test_minimising_the_window_or_locking_the_screen_suspends_and_coming_back_restores_without_ending_the_focus(
    desktop, screensaver
):
    """Minimised (WM_STATE iconic; unmapped by a classic WM, then kept mapped as a compositing one
    does — then only the host's window-state mapping hides the page) is page visibility hidden: the
    Pomodoro is suspended and the focus runs on; restored, it is in front again. Locking the screen
    likewise: the session's screen saver announces it on the session D-Bus (``ActiveChanged``), the
    window stays mapped and shown, yet the page goes hidden; unlocking brings it back."""
    desktop.start()

    def minimising(unmap: bool) -> tuple[str, Callable[[], None], Callable[[], None]]:
        minimised: list[int] = []

        def minimise() -> None:
            minimised.append(desktop.find_window())
            x11.minimise_window(desktop.display, minimised[0], unmap=unmap)

        def restore() -> None:
            x11.restore_window(desktop.display, minimised[0], map_again=unmap)

        return ("unmapped" if unmap else "kept-mapped", minimise, restore)

    hidden_then_back(
        desktop,
        [
            minimising(unmap=True),
            minimising(unmap=False),
            ("screen lock", lambda: screensaver.set_locked(True), lambda: screensaver.set_locked(False)),
        ],
    )
    log = desktop.process.log_text()
    assert "desktop.screen_lock_unwatched" not in log
    assert [line.split("locked=")[1].split()[0] for line in log.splitlines() if "desktop.screen_lock " in line] == [
        "True",
        "False",
    ]
