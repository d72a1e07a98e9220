"""Leaving a running focus in the browser: back to Interact, switching to Scratch notes, closing.

Each is an explicit control that says, before the person confirms, that it ends the focus;
"Keep focusing" sends nothing. Confirmed, the Runtime settles the focus ``interrupted`` with the
lifecycle reason — exactly one terminal state, one outbox result, one settlement event — and the
page shows where the person went.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from runtime.models import LifecycleEvent
from tests.browser.conftest import screenshot
from tests.browser.workspace_page import (
    WorkspacePage,
    assert_ended_once,
    focusing_operation,
    interact_instance,
    settled,
    start_focus,
)


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.mark.spec("R-4.1.2", "R-3.8", "R-4.2.8", "R-4.4.5")
def test_back_to_interact_says_it_ends_the_focus_then_interrupts_it_once(ws, server, conversation, tmp_path):
    """ "Back to Interact" first asks; "Keep focusing" changes nothing; confirming ends the focus
    interrupted(returned_to_interact) once and puts Interact in front."""
    operation = start_focus(ws, server, conversation)
    # By keyboard: the question takes the focus on "Keep focusing", and Escape keeps the focus.
    ws.page.locator("#back-to-interact").focus()
    ws.page.keyboard.press("Enter")
    dialog = ws.leave_dialog()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Keep focusing")).to_be_focused()
    ws.page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    ws.expect_app_in_front("pomodoro")

    ws.page.get_by_role("button", name="Back to Interact").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("#leave-text")).to_contain_text("Going back to Interact ends your 1 min reading focus now")
    expect(dialog.locator("#leave-text")).to_contain_text("recorded as interrupted")
    screenshot(ws.page, "04-leave-focus-confirm", tmp_path)
    dialog.get_by_role("button", name="Keep focusing").click()
    expect(dialog).to_be_hidden()
    ws.expect_app_in_front("pomodoro")
    assert focusing_operation(conversation) == operation
    assert not LifecycleEvent.objects.filter(kind="lifecycle.return_to_interact").exists()

    ws.page.get_by_role("button", name="Back to Interact").click()
    ws.confirm_leaving("Going back to Interact")
    server.wait(lambda: settled(operation), "the return to settle the focus")
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="interrupted", reason="returned_to_interact")
    expect(ws.interact_chip()).to_contain_text("in front")
    ws.expect_chip_state(str(operation.instance_id), "closed")
    block = ws.block(str(operation.app_session_id))
    expect(block.locator(".pill")).to_have_text("Interrupted")
    block.locator("summary").click()
    expect(block.locator(".block-result")).to_contain_text("you went back to Interact")


@pytest.mark.spec("R-4.1.2", "R-3.8", "R-4.2.8", "R-2.3.1")
def test_switching_to_scratch_notes_interrupts_the_focus_once_and_shows_the_notes(ws, server, conversation, tmp_path):
    """Notes opened earlier sits in the background; switching to it during a focus asks first,
    then ends the focus interrupted(switched_app) once, and the notes come back with their text."""
    ws.page.get_by_role("button", name="+ Scratch notes").click()
    ws.expect_app_in_front("notes")
    notes = ws.page.locator("#appbar li.chip[data-app-id='notes']")
    notes_id = notes.get_attribute("data-instance-id")
    editor = ws.page.frame_locator(f"iframe[data-instance-id='{notes_id}']").locator("#text")
    expect(editor).to_be_enabled()
    editor.fill("chapter 3: the harbour")
    expect(ws.page.frame_locator(f"iframe[data-instance-id='{notes_id}']").locator("#status")).to_have_text("Saved")
    # No focus is running, so going back just goes back: no question asked.
    ws.page.get_by_role("button", name="Back to Interact").click()
    ws.expect_interact_in_front()
    ws.expect_chip_state(notes_id, "background")

    operation = start_focus(ws, server, conversation)
    ws.expect_chip_state(notes_id, "background")
    notes.get_by_role("button", name="Switch to Scratch notes").click()
    ws.confirm_leaving("Switching to Scratch notes")
    server.wait(lambda: settled(operation), "the switch to settle the focus")
    ws.expect_app_in_front("notes")
    assert_ended_once(operation, state="interrupted", reason="switched_app")
    ws.expect_chip_state(notes_id, "foreground")
    ws.expect_chip_state(str(interact_instance(conversation).id), "background")
    expect(editor).to_have_value("chapter 3: the harbour")
    screenshot(ws.page, "06-scratch-notes", tmp_path)


@pytest.mark.spec("R-3.8", "R-4.2.6", "R-4.2.8", "R-2.2.7")
def test_closing_pomodoro_from_the_app_bar_interrupts_the_focus_once(ws, server, conversation):
    """The close button (x) on Pomodoro's chip asks first, then ends the focus interrupted(app_closed) once —
    the close never rewrites it — and the previous app, Interact, comes back."""
    operation = start_focus(ws, server, conversation)
    ws.chip(str(operation.instance_id)).get_by_role("button", name="Close Pomodoro").click()
    ws.confirm_leaving("Closing Pomodoro")
    server.wait(lambda: settled(operation), "the close to settle the focus")
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="interrupted", reason="app_closed")
    assert operation.tool_call.status == "succeeded"
    expect(ws.page.locator("#frames iframe")).to_have_count(0)
