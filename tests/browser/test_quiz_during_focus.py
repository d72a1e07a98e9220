"""A quiz started while a Pomodoro focus runs follows Pomodoro's manifest rule (issue 35, part 4).

Pomodoro's focus runs alone in its conversation and, when another app starts, switches
(``conversation_exclusive``, ``when_another_app_starts: switch``): an Agent on the real
``/ws/agent/`` socket starts a focus, then a quiz. The focus ends ``interrupted(switched_app)`` with
its one result to the Agent, as if the person had switched away (SPEC R-3.8); the quiz is in front
with its own countdown, and the page speaks only of it (its title in the tab, its name in the
dock, no focus chip still "focusing", no leave dialog: nothing is left to guard). At 1280 px in
English and 360 px in Chinese; axe-core finds nothing serious, nothing scrolls sideways.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from runtime.models import Operation
from runtime.services.agents import create_agent_token
from runtime.transitions import OperationState
from tests.browser.conftest import screenshot
from tests.browser.test_operations_plural import (
    FOCUS_SECONDS,
    QUESTIONS,
    QUIZ_SECONDS,
    WORDS,
    accepted,
    countdown,
    minutes_left,
)
from tests.browser.test_people import DESKTOP, PHONES, fits, new_page, no_blocking_violations
from tests.browser.workspace_page import COUNTDOWN, WorkspacePage, assert_ended_once
from tests.support.live import Agent

CASES = {"1280-en": (DESKTOP, "en"), "360-zh": (PHONES["360x740"], "zh")}


@pytest.mark.spec("R-3.8", "R-4.1.2")
@pytest.mark.parametrize("case", list(CASES))
def test_a_quiz_started_during_a_focus_ends_it_switched_app_and_comes_to_the_front(
    browser, server, web_user, conversation, case, tmp_path
):
    viewport, language = CASES[case]
    words = WORDS[language]
    errors: list[str] = []
    page = new_page(browser, server, web_user, locale=words["locale"], viewport=viewport, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()

    _agent, token = create_agent_token(user=web_user, name="quiz-during-focus", now=timezone.now())
    agent = Agent(f"ws://127.0.0.1:{server.port}/ws/agent/", token)
    try:
        focus = accepted(agent.call("pomodoro.start", duration_seconds=FOCUS_SECONDS, activity=words["activity"]))
        focus_id = str(Operation.objects.get(pk=focus["operation_id"]).instance_id)
        ws.expect_app_in_front("pomodoro")
        ws.expect_countdown(focus_id, activity=words["activity"])

        questions = {"duration_seconds": QUIZ_SECONDS, "title": words["title"], "questions": QUESTIONS}
        quiz = accepted(agent.call("quiz.start", **questions))
        # The focus's one result reaches the Agent: interrupted, because the person's screen switched.
        result = agent.wait_for_result()
        assert (result["tool"], result["source_tool_call_id"]) == ("pomodoro.start", focus["source_tool_call_id"])
        assert (result["result"]["state"], result["result"]["interruption_reason"]) == ("interrupted", "switched_app")
    finally:
        agent.ws.close()
    focus_op = Operation.objects.get(pk=focus["operation_id"])
    assert_ended_once(focus_op, state=OperationState.INTERRUPTED, reason="switched_app")
    quiz_op = Operation.objects.get(pk=quiz["operation_id"])
    assert quiz_op.state == OperationState.RUNNING
    quiz_id = str(quiz_op.instance_id)

    # The quiz is in front with its own countdown; nothing of the page still speaks of a focus.
    ws.expect_app_in_front("quiz")
    expect(ws.leave_dialog()).to_be_hidden()
    expect(countdown(page, quiz_id)).to_have_text(COUNTDOWN)
    assert minutes_left(countdown(page, quiz_id).inner_text()) in (9, 10)
    expect(ws.chip(quiz_id).locator(".state-focusing")).to_have_text(words["running"])
    expect(page.locator(f"#appbar li.chip[data-instance-id='{focus_id}'] .state-focusing")).to_have_count(0)
    expect(page).to_have_title(re.compile(rf"^(9|10):\d\d · {words['title']} · "))
    placeholder = page.locator("#dock-input").get_attribute("placeholder") or ""
    # The dock's hint to say "stop" (shorter on a phone) names the quiz, never Pomodoro.
    assert words["quiz"] in placeholder and words["pomodoro"] not in placeholder, placeholder
    fits(page, "#dock-input")
    no_blocking_violations(page, f"a quiz started during a focus ({case})")
    screenshot(page, f"quiz-during-focus-{case}", tmp_path)

    # Leaving the quiz ends nothing (its manifest lets it run on): no dialog, and it still runs.
    page.locator("#back-to-interact").click()
    expect(ws.leave_dialog()).to_be_hidden()
    ws.expect_interact_in_front()
    quiz_op.refresh_from_db()
    assert quiz_op.state == OperationState.RUNNING
    assert errors == []
