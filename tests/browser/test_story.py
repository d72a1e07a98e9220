"""The whole story as a person lives it, in Chromium, against a live server and the reference Agent.

Log in, ask for "start a 3 second reading focus" in the IM: Pomodoro comes to the foreground with
its countdown and Interact goes to the background; at ``ends_at`` the Runtime completes the focus,
closes Pomodoro and brings Interact back, with the result inside the now folded, read-only
sub-session block, and the Agent's confirm asks about another round. Saying yes is a new round
(new instance, new sub-session); "stop" in Interact's dock over it ends that one interrupted.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance
from tests.browser.conftest import PASSWORD, PageWatch, screenshot, watch_page
from tests.browser.workspace_page import (
    WorkspacePage,
    agent_said,
    assert_ended_once,
    focusing_operation,
    interact_instance,
    operations,
    settled,
)


@pytest.mark.spec("R-2.1.1", "R-3.5", "R-3.10", "R-4.1.1", "R-4.1.2", "R-4.2.4", "R-4.3.2", "R-4.3.5", "R-3.13")
def test_login_start_a_3_second_focus_complete_and_continue(server, context, web_user, conversation, tmp_path):
    """The 3-second reading focus runs in front, completes at ends_at by itself, and Interact
    shows the result in the folded block and asks about another round; yes starts a new
    instance and sub-session, and "stop" typed over it ends that round interrupted, once."""
    page = context.new_page()
    watch = PageWatch()
    watch_page(page, watch)

    # Log in: "/" goes to the workspace, which asks for the login first.
    page.goto(f"{server.url}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/workspace/$"))
    expect(page.get_by_role("heading", name="Sign in to your workspace")).to_be_visible()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".form-error")).to_contain_text("did not match")
    screenshot(page, "01-login", tmp_path)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{server.url}/workspace/")
    ws = WorkspacePage(page, server.url)
    ws.wait_ready()
    expect(page.locator("#timeline-empty")).to_be_visible()
    expect(ws.interact_chip()).to_contain_text("in front")

    # Ask for the focus in the IM.
    ws.say("start a 3 second reading focus")
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    remaining = ws.expect_countdown(str(operation.instance_id), activity="reading")
    assert remaining in {"00:03", "00:02", "00:01", "00:00"}, remaining
    ws.expect_chip_state(str(operation.instance_id), "foreground")
    ws.expect_chip_state(str(interact_instance(conversation).id), "background")
    expect(page.locator("#focus-hint")).to_contain_text("Leaving this screen ends it")
    # A focus screen with nothing to press: no start / pause / stop, no links, no fields.
    surface = ws.surface(str(operation.instance_id))
    assert surface.locator("button, a, input, textarea, select, [role=button]").count() == 0
    expect(page.locator("#dock-last")).to_contain_text("Focus started: 3 seconds of reading")
    screenshot(page, "02-pomodoro-focus", tmp_path)

    # At ends_at the Runtime completes it and closes Pomodoro; nobody pressed anything.
    done = server.wait(lambda: settled(operation), "the deadline to settle the focus", timeout=10)
    assert done.ended_at == done.ends_at
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="completed", reason=None)
    ws.expect_chip_state(str(operation.instance_id), "closed")
    expect(ws.interact_chip()).to_contain_text("in front")

    block = ws.block(str(operation.app_session_id))
    expect(block).to_be_visible()
    expect(block).not_to_have_attribute("open", "")  # folded once ended
    expect(block.locator(".pill")).to_have_text("Completed")
    expect(block.locator(".read-only-mark")).to_be_visible()
    block.locator("summary").click()
    expect(block.locator(".block-result")).to_have_text(re.compile(r"^Completed: 3 s of reading, ended "))
    expect(block.locator(".message.from-agent")).to_contain_text("Focus started: 3 seconds of reading")
    # The Agent reports in the main IM (the block is read-only) and asks about another round.
    expect(page.locator("#timeline > .message.from-agent").last).to_contain_text("Focus complete")
    confirm = ws.interaction(kind="confirm")
    expect(confirm).to_contain_text("Start another 3-second round?")
    assert agent_said(conversation, r"^Focus complete: 3 seconds of reading")
    screenshot(page, "03-interact-result", tmp_path)

    # "Yes" continues with a NEW instance and sub-session; the old block stays as it was.
    confirm.get_by_role("button", name="Yes").click()
    second = server.wait(lambda: focusing_operation(conversation), "the next round to start")
    assert second.instance_id != operation.instance_id and second.app_session_id != operation.app_session_id
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(second.instance_id), activity="reading")
    expect(ws.interaction(kind="confirm", status="answered")).to_contain_text("You answered: Yes")

    # Stop it from Interact's dock over the focus screen: the Agent's pomodoro.interrupt.
    ws.say("stop")
    server.wait(lambda: settled(second), "the stop to settle the round")
    ws.expect_interact_in_front()
    assert_ended_once(second, state="interrupted", reason="agent_interrupt")
    expect(ws.block(str(second.app_session_id)).locator(".pill")).to_have_text("Interrupted")
    expect(ws.block(str(operation.app_session_id)).locator(".pill")).to_have_text("Completed")
    assert [o.state for o in operations(conversation)] == ["completed", "interrupted"]
    assert AppInstance.objects.filter(conversation=conversation, is_system=False).count() == 2
    assert not watch.errors, watch.errors
