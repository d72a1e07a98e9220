"""Interact's standard interactions in the browser (SPEC R-2.1.1, R-4.3.4, R-4.3.5, acceptance 9-10).

With Pomodoro in front, the Agent's notice / choice / confirm / input appear ABOVE it, drawn by the
host as Interact's (never by the MiniApp), and are answered there while the focus keeps running.
One still pending when the sub-session ends stays answerable in the main IM, outside the ended
block.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from interact.models import Interaction
from interact.services.interactions import request_interaction
from runtime.services.agents import create_agent_token
from tests.browser.conftest import screenshot
from tests.browser.workspace_page import (
    WorkspacePage,
    assert_ended_once,
    focusing_operation,
    off_the_loop,
    settled,
    start_focus,
)


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.fixture
def helper_agent(web_user):
    agent, _ = create_agent_token(user=web_user, name="helper", now=timezone.now())
    return agent


def ask(conversation, agent, interaction_id: str, kind: str, prompt: str, *, app_session_id=None, options=None):
    return off_the_loop(
        request_interaction,
        conversation=conversation,
        agent=agent,
        interaction_id=interaction_id,
        kind=kind,
        prompt=prompt,
        options=options,
        app_session_id=app_session_id,
        now=timezone.now(),
    )


def status_of(interaction: Interaction) -> tuple[str, object]:
    interaction.refresh_from_db()
    return interaction.status, interaction.value


@pytest.mark.spec("R-4.3.4", "R-2.1.2", "R-2.1.1", "R-4.3.5")
def test_interactions_overlay_the_focus_screen_and_a_pending_one_outlives_the_block(
    ws, server, conversation, helper_agent, tmp_path
):
    """All four kinds show over Pomodoro and are answered there; Pomodoro stays in front and
    focusing. A confirm left pending when Pomodoro is closed moves to the main IM, outside the
    read-only block, and is still answerable."""
    operation = start_focus(ws, server, conversation)
    session = str(operation.app_session_id)
    notice = ask(conversation, helper_agent, "n1", "notice", "Your phone is on silent.", app_session_id=session)
    choice = ask(
        conversation,
        helper_agent,
        "c1",
        "choice",
        "Which chapter are you reading?",
        app_session_id=session,
        options=[{"id": "ch3", "label": "Chapter 3"}, {"id": "ch4", "label": "Chapter 4"}],
    )
    confirm = ask(conversation, helper_agent, "k1", "confirm", "Dim the lights for you?", app_session_id=session)
    text = ask(conversation, helper_agent, "t1", "input", "Which page did you start on?", app_session_id=session)

    overlay = ws.page.locator("#overlay")
    # One card at a time, newest first (the question about now), and how many wait behind it.
    expect(overlay.locator("section.interaction")).to_have_count(1)
    expect(ws.interaction(kind="input", within="#overlay")).to_contain_text("Which page did you start on?")
    expect(overlay.locator("#overlay-more")).to_have_text("3 more questions after this one")
    ws.expect_app_in_front("pomodoro")
    screenshot(ws.page, "05-interaction-over-focus", tmp_path)
    # The Surface draws none of this: the cards are the host's, outside the app's frame.
    frame = ws.surface(str(operation.instance_id))
    assert frame.locator(".interaction, dialog, button").count() == 0

    answer = ws.interaction(kind="input", within="#overlay").get_by_role("textbox")
    answer.fill("page 42")
    answer.press("Enter")
    ws.interaction(kind="confirm", within="#overlay").get_by_role("button", name="No").click()
    ws.interaction(kind="choice", within="#overlay").get_by_role("button", name="Chapter 4").click()
    ws.interaction(kind="notice", within="#overlay").get_by_role("button", name="OK").click()
    expect(overlay).to_be_hidden()
    assert [status_of(i) for i in (notice, choice, confirm, text)] == [
        ("answered", None),
        ("answered", "ch4"),
        ("answered", False),
        ("answered", "page 42"),
    ]
    ws.expect_app_in_front("pomodoro")
    assert focusing_operation(conversation) == operation

    # One left pending at close: it is not cancelled and not appended to the ended block.
    pending = ask(
        conversation, helper_agent, "k2", "confirm", "Save a note about this chapter?", app_session_id=session
    )
    expect(overlay.locator("section.interaction")).to_have_count(1)
    ws.page.locator("#close-app").click()
    ws.confirm_leaving("Closing Pomodoro")
    server.wait(lambda: settled(operation), "the close to settle the focus")
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="interrupted", reason="app_closed")

    in_main_im = ws.page.locator(f"#timeline > section.interaction[data-interaction-id='{pending.id}']")
    expect(in_main_im).to_have_attribute("data-status", "pending")
    block = ws.block(session)
    expect(block.locator(f"[data-interaction-id='{pending.id}']")).to_have_count(0)
    expect(block.locator("section.interaction")).to_have_count(4)  # the four answered while it was open
    in_main_im.get_by_role("button", name="Yes").click()
    expect(in_main_im).to_have_attribute("data-status", "answered")
    assert status_of(pending) == ("answered", True)
    expect(block.locator(f"[data-interaction-id='{pending.id}']")).to_have_count(0)
