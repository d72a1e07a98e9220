"""What the person sees when the built-in Agent did not understand (real Daphne, reference Agent, Chromium):
the answer and a one-tap choice of what the installed apps can do; a tap does what it says (decision 0065)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.workspace_page import WorkspacePage, focusing_operation


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.mark.spec("R-2.1.1", "R-4.3.4")
def test_a_message_not_understood_offers_what_the_apps_can_do_and_a_tap_starts_it(ws, server, conversation, tmp_path):
    ws.say("what is a pomodoro?")
    choice = ws.interaction(kind="choice")
    expect(choice).to_contain_text("Did you mean one of these?")
    expect(choice.get_by_role("button", name="What can you do?")).to_be_visible()
    ws.page.set_viewport_size({"width": 360, "height": 740})
    expect(choice.get_by_role("button", name="Start a 25 minute focus")).to_be_in_viewport()
    screenshot(ws.page, "not-understood-choice-phone", tmp_path)
    ws.page.set_viewport_size({"width": 1280, "height": 800})

    choice.get_by_role("button", name="Start a 25 minute focus").focus()
    ws.page.keyboard.press("Enter")  # by keyboard, as anyone can
    operation = server.wait(lambda: focusing_operation(conversation), "the focus the tap asked for")
    assert (operation.ends_at - operation.started_at).total_seconds() == 1500
    ws.expect_app_in_front("pomodoro")
    expect(ws.interaction(kind="choice", status="answered")).to_have_count(1)
