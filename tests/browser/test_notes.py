"""Scratch notes, the second bundled MiniApp: same SDK, same sandbox (SPEC R-2.3.1, R-3.13, R-4.1.4).

Typing is saved through the SDK, debounced, into the instance's snapshot and comes back after a
Surface reload and a page refresh; once closed the snapshot is read-only history. A launch whose
Surface does not start puts Interact back in front with a clear message, and "Try again" recovers.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance, InstanceSnapshot, LifecycleEvent
from tests.browser.workspace_page import WorkspacePage, interact_instance

TEXT = "Questions for chapter 4:\n- why the harbour?\n- who wrote the letter?"


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


def open_notes(ws: WorkspacePage) -> str:
    ws.page.get_by_role("button", name="+ Scratch notes").click()
    chip = ws.page.locator("#appbar li.chip[data-app-id='notes']").first
    expect(chip).to_have_attribute("data-state", "foreground")
    return chip.get_attribute("data-instance-id")


def snapshot_of(instance_id: str) -> InstanceSnapshot:
    return InstanceSnapshot.objects.get(instance_id=instance_id)


@pytest.mark.spec("R-2.3.1", "R-2.2.4", "R-3.13", "R-4.1.5", "R-4.2.2")
def test_notes_are_saved_debounced_and_restored_after_reload_and_refresh(ws, server, conversation):
    """A burst of typing is one or two saves, not one per key; the text survives a Surface
    reload and a page refresh; after close the snapshot stays as history and takes no writes."""
    instance_id = open_notes(ws)
    ws.expect_app_in_front("notes")
    frame = ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']")
    editor = frame.locator("#text")
    expect(editor).to_be_enabled()
    editor.press_sequentially(TEXT, delay=5)
    expect(frame.locator("#status")).to_have_text("Saved")
    saved = snapshot_of(instance_id)
    assert saved.state == {"text": TEXT}
    assert 1 <= saved.revision <= 3, f"{len(TEXT)} keystrokes made {saved.revision} saves"

    ws.page.get_by_role("button", name="Reload").click()
    server.wait(lambda: LifecycleEvent.objects.filter(kind="surface.reloaded").exists(), "the reload")
    expect(editor).to_have_value(TEXT)
    expect(frame.locator("#status")).to_have_text("Restored")

    ws.reload()
    ws.expect_app_in_front("notes")
    expect(editor).to_have_value(TEXT)
    assert snapshot_of(instance_id).revision == saved.revision  # restored, not rewritten

    # No focus is running, so closing asks nothing; the snapshot is kept, read-only.
    ws.page.locator("#close-app").click()
    ws.expect_interact_in_front()
    server.wait(lambda: AppInstance.objects.get(pk=instance_id).lifecycle_state == "closed", "the close")
    ws.expect_chip_state(instance_id, "closed")
    assert snapshot_of(instance_id).state == {"text": TEXT}
    reply = ws.page.evaluate(
        """([conversationId, instanceId, revision]) => window.lineupWorkspace.connection
            .request("state.save", {conversation_id: conversationId, instance_id: instanceId,
                                    state: {text: "rewritten"}, revision})
            .then(() => "saved", (error) => error.code)""",
        [str(conversation.id), instance_id, saved.revision],
    )
    assert reply == "instance_closed"
    assert snapshot_of(instance_id).state == {"text": TEXT}


@pytest.mark.spec("R-4.1.4")
def test_a_launch_whose_surface_does_not_start_puts_interact_back_with_a_message(ws, server, conversation):
    """The Surface's files fail to load: the page says so and Interact is in front again; with
    the files back, switching to the app and "Try again" brings it up."""
    ws.page.route("**/surfaces/notes/**", lambda route: route.fulfill(status=503, body="unavailable"))
    instance_id = open_notes(ws)
    expect(ws.page.locator("#toasts")).to_contain_text("Scratch notes did not start, so you are back in Interact.")
    ws.expect_interact_in_front()
    server.wait(lambda: interact_instance(conversation).lifecycle_state == "foreground", "Interact in front")
    ws.expect_chip_state(instance_id, "background")

    ws.page.unroute("**/surfaces/notes/**")
    ws.chip(instance_id).get_by_role("button", name="Switch to Scratch notes").click()
    expect(ws.page.locator("#app-failed")).to_be_visible()
    expect(ws.page.locator("#app-failed-text")).to_have_text("Scratch notes did not start.")
    ws.page.get_by_role("button", name="Try again").click()
    expect(ws.page.locator("#app-failed")).to_be_hidden()
    editor = ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']").locator("#text")
    expect(editor).to_be_enabled()
    ws.expect_app_in_front("notes")


@pytest.mark.spec("R-2.3.1", "R-4.1.5")
def test_a_note_stops_at_its_quota_and_says_so_instead_of_retrying(ws, server, conversation, tmp_path):
    """1 500 Chinese characters are more than the 4 KiB state: the note takes what fits, shows it is
    full and how much it uses, saves that, and never shows a raw state_too_large retry."""
    from runtime.services.snapshots import encoded_size
    from tests.browser.conftest import screenshot

    instance_id = open_notes(ws)
    frame = ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']")
    editor = frame.locator("#text")
    expect(editor).to_be_enabled()
    expect(frame.locator("#usage")).to_have_text("11 of 4096 bytes")  # {"text":""}
    editor.fill("读" * 1500)
    expect(frame.locator("#usage")).to_contain_text("The note is full (4096 bytes)")
    expect(frame.locator("#status")).to_have_text("Saved")
    kept = editor.input_value()
    assert 1300 < len(kept) < 1500
    state = snapshot_of(instance_id).state
    assert state == {"text": kept} and encoded_size(state) <= 4096
    assert "state_too_large" not in frame.locator("body").inner_text()
    screenshot(ws.page, "notes-full", tmp_path)

    editor.press("End")
    editor.press("Backspace")
    expect(frame.locator("#usage")).to_have_text(f"{encoded_size({'text': kept[:-1]})} of 4096 bytes")
    expect(frame.locator("#status")).to_have_text("Saved")
    assert snapshot_of(instance_id).state == {"text": kept[:-1]}
