"""Scratch notes in the browser with the Agent's tools, and a Surface whose script throws.

The Agent's ``notes.append`` shows in the open Notes Surface (the same state it edits), and what the
person types after is saved on top of it, not over it. A Surface script that throws is not silent:
the page shows that the app failed and the server logs ``surface.failed``; "Try again" recovers.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from runtime.inventory import inventory_for_scope
from runtime.models import InstanceSnapshot, LifecycleEvent
from runtime.tool_router import Caller, route_tool_call
from tests.browser.workspace_page import WorkspacePage, off_the_loop


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


def open_notes(ws: WorkspacePage) -> str:
    ws.page.get_by_role("button", name="+ Scratch notes").click()
    chip = ws.page.locator("#apps li.chip[data-app-id='notes']").first
    expect(chip).to_have_attribute("data-state", "foreground")
    return chip.get_attribute("data-instance-id")


def append(conversation, web_user, call_id: str, text: str):
    return route_tool_call(
        caller=Caller(label="agent:browser-test", user_id=web_user.id),
        conversation_id=str(conversation.id),
        source_tool_call_id=call_id,
        tool="notes.append",
        arguments={"text": text},
        inventory_revision=inventory_for_scope(conversation.scope).revision,
        now=timezone.now(),
    )


@pytest.mark.spec("R-2.2.4", "R-2.3.1")
def test_the_agents_note_shows_in_the_open_surface_and_typing_keeps_it(ws, server, conversation, web_user):
    instance_id = open_notes(ws)
    ws.expect_app_in_front("notes")
    frame = ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']")
    editor = frame.locator("#text")
    expect(editor).to_be_enabled()
    editor.press_sequentially("mine", delay=5)
    expect(frame.locator("#status")).to_have_text("Saved")

    receipt = off_the_loop(append, conversation, web_user, "browser-note-1", "the Agent's line").receipt
    assert receipt["instance_id"] == instance_id  # the notes the person has open
    expect(editor).to_have_value("mine\nthe Agent's line")

    editor.press("End")
    editor.press_sequentially(" and more", delay=5)
    expect(frame.locator("#status")).to_have_text("Saved")
    server.wait(
        lambda: (
            InstanceSnapshot.objects.get(instance_id=instance_id).state == {"text": "mine\nthe Agent's line and more"}
        ),
        "the typed text saved on top of the Agent's",
    )


@pytest.mark.spec("R-4.1.4")
def test_a_surface_script_that_throws_shows_the_app_failed_and_is_logged(ws, server, conversation, watch):
    instance_id = open_notes(ws)
    ws.expect_app_in_front("notes")
    editor = ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']").locator("#text")
    expect(editor).to_be_enabled()
    ws.surface(instance_id).evaluate("setTimeout(() => { throw new Error('boom in the notes'); })")

    expect(ws.page.locator("#app-failed")).to_be_visible()
    expect(ws.page.locator("#app-failed-text")).to_have_text(
        "Scratch notes failed: its page hit an error. Try loading it again."
    )
    ws.expect_app_in_front("notes")  # it stays where it is
    event = server.wait(
        lambda: LifecycleEvent.objects.filter(kind="surface.failed", instance_id=instance_id).first(), "the log line"
    )
    assert event.data["app_id"] == "notes" and "boom in the notes" in event.data["message"]

    # The one error the page saw is the one thrown here (the fixture fails on any other).
    assert watch.errors == ["boom in the notes"]
    watch.errors.clear()

    ws.page.get_by_role("button", name="Try again").click()
    expect(ws.page.locator("#app-failed")).to_be_hidden()
    expect(editor).to_be_enabled()
