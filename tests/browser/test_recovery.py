"""A lost connection and a server restart, as the page lives them (SPEC R-2.2.6, R-4.1.5, R-4.4.1-2).

The server is killed (SIGKILL) under an open page: the page says it is reconnecting and keeps
trying by itself. A restart before ``ends_at`` resumes the same focus (never from the start) and
the page rebuilds from the snapshot; a restart after ``ends_at`` settles it ``completed`` exactly
once, at its ``ends_at``, and the page shows the result.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from runtime.models import AppInstance
from tests.browser.conftest import screenshot
from tests.browser.workspace_page import (
    WorkspacePage,
    agent_said,
    assert_ended_once,
    focusing_operation,
    settled,
    start_focus,
)


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.mark.spec("R-2.2.6", "R-4.1.5", "R-4.4.1", "R-4.4.2", "R-4.2.3", "R-4.1.3")
def test_the_page_reconnects_by_itself_and_restarts_resume_or_settle_the_focus(ws, server, conversation, tmp_path):
    """Kill -> "Reconnecting" banner; restart before ends_at -> the same focus, restored, ends
    completed at its ends_at; a second round killed and restarted after its ends_at is settled
    once by recovery, and the page shows Interact with the result."""
    banner = ws.page.locator("#banner")
    operation = start_focus(ws, server, conversation, "start a 20 second reading focus")
    server.kill()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Reconnecting")
    expect(ws.page.locator("#dock-input")).to_be_enabled()  # what is written waits, "Not sent yet"
    ws.expect_app_in_front("pomodoro")  # the screen stays; the focus runs on the server's ends_at
    screenshot(ws.page, "07-reconnecting", tmp_path)

    server.start()
    assert timezone.now() < operation.ends_at, "restarted before ends_at (the test needs a faster machine)"
    expect(banner).to_be_hidden(timeout=15_000)
    assert focusing_operation(conversation) == operation
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity="reading")
    ws.expect_chip_state(str(operation.instance_id), "foreground")
    expect(ws.chip(str(operation.instance_id)).locator(".state-restored")).to_be_visible()
    assert AppInstance.objects.get(pk=operation.instance_id).restored_at is not None

    left = (operation.ends_at - timezone.now()).total_seconds()
    server.wait(lambda: settled(operation), "the resumed deadline", timeout=max(0.0, left) + 15)
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="completed", reason=None)
    assert operation.ended_at == operation.ends_at, "resumed from ends_at, never restarted"
    expect(ws.block(str(operation.app_session_id)).locator(".pill")).to_have_text("Completed")

    # Down across ends_at: the next start settles what fell due, once.
    # Long enough that a loaded machine shows its countdown and kills the server before it ends.
    second = start_focus(ws, server, conversation, "start an 8 second reading focus")
    server.kill()
    expect(banner).to_be_visible()
    server.wait(lambda: timezone.now() > second.ends_at + timedelta(milliseconds=300), "the deadline to pass")
    assert focusing_operation(conversation) == second  # nobody settled it while the server was down
    server.start()
    expect(banner).to_be_hidden(timeout=15_000)
    server.wait(lambda: settled(second), "recovery to settle the due focus")
    ws.expect_interact_in_front()
    assert_ended_once(second, state="completed", reason=None)
    assert second.ended_at == second.ends_at
    expect(ws.block(str(second.app_session_id)).locator(".pill")).to_have_text("Completed")
    # The Agent of the restarted server never saw the start, and the operation ended while it was
    # down: it reports the focus once, by its result, named by what ended last (conversation.state's
    # recently_ended: the activity is not in the frozen result).
    server.wait(lambda: agent_said(conversation, r"^Focus complete: 8 seconds of reading\.$"), "the report")
