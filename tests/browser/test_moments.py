"""Questions fit the moment, and the Agent speaks the person's language (real Daphne, reference Agent, Chromium).

"Another round?" is asked after a completed focus only; a new focus withdraws it (it never shows over
that focus), a stop gets none, and a question from before a focus waits in the IM instead of over it.
The Agent answers in the page's language whatever script one message uses.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from interact.models import Interaction, InteractionStatus
from interact.services.interactions import request_interaction
from runtime.services.agents import create_agent_token
from tests.browser.conftest import screenshot
from tests.browser.workspace_page import (
    WorkspacePage,
    agent_said,
    focusing_operation,
    off_the_loop,
    pending_interactions,
    settled,
)
from tests.support.factories import activity_of


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.mark.spec("R-4.3.4", "R-4.3.5", "R-2.1.1")
def test_a_stale_question_is_withdrawn_by_a_new_focus_and_a_stop_asks_nothing(ws, server, conversation, tmp_path):
    """Completed -> "another round?"; the person starts something else instead: the question is
    withdrawn (superseded in the IM, never over the new focus); that focus is stopped: no question."""
    ws.say("start a 2 second reading focus")
    question = server.wait(
        lambda: next(iter(pending_interactions(conversation, interaction_id__startswith="again.")), None),
        "another round? after the completed focus",
    )
    card = ws.page.locator(f"section.interaction[data-interaction-id='{question.id}']").first
    expect(card).to_be_visible()

    ws.say("meditate for 1 minute")
    focus = server.wait(lambda: focusing_operation(conversation), "the new focus")
    assert activity_of(focus) == "meditate"
    ws.expect_app_in_front("pomodoro")
    server.wait(
        lambda: Interaction.objects.get(pk=question.pk).status == InteractionStatus.SUPERSEDED, "the withdrawal"
    )
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(focus.instance_id), activity="meditate")
    expect(ws.page.locator("#overlay")).to_be_hidden()
    screenshot(ws.page, "moments-new-focus-no-stale-question", tmp_path)

    ws.say("never mind, stop it")
    server.wait(lambda: settled(focus), "the stop")
    server.wait(lambda: agent_said(conversation, r"^Focus stopped after"), "the report of the stop")
    ws.expect_interact_in_front()
    expect(ws.page.locator("#timeline section.interaction[data-status='superseded']")).to_have_count(1)
    expect(ws.page.locator("#timeline section.interaction[data-status='pending']")).to_have_count(0)
    assert pending_interactions(conversation) == []


@pytest.mark.spec("R-4.3.4", "R-2.1.1")
def test_a_question_from_before_a_focus_waits_in_the_im_and_the_newest_shows_first(ws, server, web_user, conversation):
    """A second Agent's question asked before the focus stays in the main IM, not over the focus;
    the ones asked during the focus show over it, newest first."""
    helper, _ = create_agent_token(user=web_user, name="helper", now=timezone.now())

    def ask(interaction_id: str, prompt: str) -> Interaction:
        return off_the_loop(
            request_interaction,
            conversation=conversation,
            agent=helper,
            interaction_id=interaction_id,
            kind="confirm",
            prompt=prompt,
            now=timezone.now(),
        )

    earlier = ask("before", "Did you drink water?")
    ws.say("focus 1 minute on reading")
    focus = server.wait(lambda: focusing_operation(conversation), "the focus")
    ws.expect_app_in_front("pomodoro")
    ask("during-1", "Dim the lights?")
    ask("during-2", "Silence your phone?")
    overlay = ws.page.locator("#overlay")
    expect(overlay.locator("section.interaction")).to_have_count(1)
    expect(overlay.locator(".interaction-prompt")).to_have_text("Silence your phone?")
    expect(overlay.locator("#overlay-more")).to_have_text("1 more question after this one")
    overlay.get_by_role("button", name="No").click()
    expect(overlay.locator(".interaction-prompt")).to_have_text("Dim the lights?")
    overlay.get_by_role("button", name="No").click()
    expect(overlay).to_be_hidden()  # "Did you drink water?" is about the moment before this focus
    assert focusing_operation(conversation) == focus
    assert Interaction.objects.get(pk=earlier.pk).status == InteractionStatus.PENDING  # waiting in the IM
    ws.say("stop")
    server.wait(lambda: settled(focus), "the stop")


@pytest.mark.spec("R-2.1.1", "R-4.1.2")
def test_an_english_page_gets_english_replies_to_a_chinese_activity(ws, server, conversation, tmp_path):
    """On the English page, "Focus 25 min on 数学" is answered in English (the activity as typed), and
    so is the following "停止专注"."""
    expect(ws.page.locator("html")).to_have_attribute("lang", "en")
    ws.say("Focus 25 min on 数学")
    focus = server.wait(lambda: focusing_operation(conversation), "the focus")
    assert activity_of(focus) == "数学"
    server.wait(lambda: agent_said(conversation, r"^Focus started: 25 minutes of 数学\."), "an English start")
    ws.expect_app_in_front("pomodoro")
    ws.say("停止专注")
    server.wait(lambda: settled(focus), "the stop")
    report = server.wait(lambda: agent_said(conversation, r"^Focus stopped after .* of 数学"), "an English report")
    assert "you asked me to stop it" in report.text
    screenshot(ws.page, "moments-english-page-chinese-activity", tmp_path)


HIDE = """(hidden) => {
    Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
    Object.defineProperty(document, "visibilityState", {value: hidden ? "hidden" : "visible", configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.mark.spec("R-4.1.2", "R-2.1.1")
def test_the_tab_title_shows_the_time_left_and_what_the_agent_said_while_hidden(ws, server, conversation):
    """A running focus's time left and activity are in the tab's title; an Agent reply that arrives
    while the tab is hidden adds an unread mark, gone once the tab is seen; "how long is left?" is
    answered with the time left."""
    page = ws.page
    expect(page).to_have_title("Workspace · LineUp")
    ws.say("read for 10 minutes")
    focus = server.wait(lambda: focusing_operation(conversation), "the focus")
    ws.expect_app_in_front("pomodoro")
    expect(page).to_have_title(re.compile(r"^(10:00|9:\d\d) · read · Workspace · LineUp$"))
    # The start's reply must be shown before the tab is hidden: arriving after, it is unread too ("(2) …").
    started = server.wait(lambda: agent_said(conversation, r"^Focus started"), "the start's reply")
    expect(page.locator("#dock-last")).to_have_text(started.text)  # the dock and the unread count: one render

    page.evaluate(HIDE, True)
    ws.say("how long is left?")
    server.wait(lambda: agent_said(conversation, r"^Your focus on read is running: \d+ min"), "the status answer")
    expect(page).to_have_title(re.compile(r"^\(1\) \d+:\d\d · read · Workspace · LineUp$"))
    page.evaluate(HIDE, False)
    expect(page).to_have_title(re.compile(r"^\d+:\d\d · read · Workspace · LineUp$"))
    # At 00:00, until the server's result arrives, the page does not claim the focus is running.
    # The page's clock is moved past ends_at (again on each poll: a snapshot re-measures the offset);
    # both the hint and the title must say so at once.
    page.wait_for_function(
        """() => {
            const ui = window.lineupWorkspace.ui;
            ui.clockOffsetMs = Date.parse(ui.snapshot.operation.ends_at) - Date.now() + 60000;
            return document.getElementById("focus-hint").textContent === "Time is up. LineUp is confirming the result…"
                && /^0:00 · read · Workspace · LineUp$/.test(document.title);
        }"""
    )
    ws.say("stop")
    server.wait(lambda: settled(focus), "the stop")
    expect(page).to_have_title(re.compile(r"^(\(\d\) )?Workspace · LineUp$"))
