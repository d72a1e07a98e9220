# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""The practice quiz in the browser, at 1280 and 360 px (SPEC R-2.3.1, R-2.2.4; docs/miniapps.md).

The person asks the reference Agent for a quiz in the IM; the quiz comes to the front showing only
the prompts (the answer key stays in the operation's details); the person types answers in the
sandboxed Surface, which saves them as instance state through the SDK; leaving the app does not end
it; at the deadline the Agent reports the score in the IM. axe-core finds nothing serious, nothing
scrolls sideways, and screenshots are kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance, InstanceSnapshot, Operation
from runtime.transitions import OperationState
from tests.browser.conftest import screenshot
from tests.browser.test_people import DESKTOP, PHONES, fits, new_page, no_blocking_violations
from tests.browser.workspace_page import WorkspacePage, agent_said

SECONDS = 25  # time to type three answers on a loaded machine
CASES = {
    "1280-en": (DESKTOP, "en-GB", f"quiz me on multiplication for {SECONDS} seconds", r"^Time's up! You got 2 of 20"),
    "360-zh": (PHONES["360x740"], "zh-CN", f"乘法口算练习 {SECONDS} 秒", r"^时间到！你答对了 2 / 20 道题"),
}


@dataclass
class Quiz:
    """One person's quiz in its own conversation and page, from the ask until the person left it."""

    case: str
    page: Any
    conversation: Any
    operation: Any
    errors: list[str]


def answer_and_leave(browser, server, user, conversation, case: str, tmp_path) -> Quiz:
    """The person asks, the quiz comes to the front with prompts only, answers are saved, leaving ends nothing."""
    viewport, locale, ask, _ = CASES[case]
    errors: list[str] = []
    page = new_page(browser, server, user, locale=locale, viewport=viewport, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()
    ws.say(ask)
    operation = server.wait(lambda: Operation.objects.filter(conversation=conversation, app_id="quiz").first(), "quiz")
    key = operation.details["answer_key"]
    ws.expect_app_in_front("quiz")
    instance_id = str(operation.instance_id)
    frame = page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']")
    inputs = frame.locator("#questions input")
    expect(inputs).to_have_count(20)
    expect(inputs.first).to_be_focused()  # the person can type straight away
    # The Surface has the prompts, never the answers (its document holds no answer key).
    surface_text = frame.locator("body").inner_text()
    assert "\u00d7" in surface_text and "answer_key" not in json.dumps(
        InstanceSnapshot.objects.get(instance_id=instance_id).state
    )

    inputs.nth(0).fill(key[0])
    inputs.nth(1).fill(key[1])
    inputs.nth(2).fill(str(int(key[2]) + 1))
    expect(frame.locator("#status")).to_have_text("Saved" if locale == "en-GB" else "已保存")
    saved = InstanceSnapshot.objects.get(instance_id=instance_id)
    assert saved.state["answers"][:3] == [key[0], key[1], str(int(key[2]) + 1)]
    assert saved.state["answers"][3:] == [""] * 17

    fits(page, "#dock-input")
    # The page calls the running quiz what its manifest says, in the page's language, never "focusing".
    running, name = ("running", "Practice quiz") if locale == "en-GB" else ("进行中", "练习测验")
    expect(page.locator(".chip .state-focusing")).to_have_text(running)
    assert name in page.locator("#dock-input").get_attribute("placeholder")
    no_blocking_violations(page, f"the quiz ({case})")
    screenshot(page, f"quiz-{case}", tmp_path)

    # Leaving the quiz does not end it (its manifest: ends_when_left false).
    page.locator("#back-to-interact").click()
    expect(page.locator("#leave-dialog")).to_be_hidden()  # nothing to warn about: leaving ends nothing
    ws.expect_interact_in_front()
    server.wait(
        lambda: AppInstance.objects.get(pk=instance_id).lifecycle_state == "background", "the quiz in the background"
    )
    operation.refresh_from_db()
    assert operation.state == OperationState.RUNNING
    return Quiz(case=case, page=page, conversation=conversation, operation=operation, errors=errors)


def the_score(server, web_user, quiz: Quiz, tmp_path) -> None:
    """At the deadline the Agent reports the score in the IM; the page still fits and passes axe."""
    viewport, _, _, report = CASES[quiz.case]
    page, conversation, operation = quiz.page, quiz.conversation, quiz.operation
    said = server.wait(lambda: agent_said(conversation, report), "the score in the IM", timeout=SECONDS + 20)
    assert said.app_session_id is None
    operation.refresh_from_db()
    assert operation.state == OperationState.COMPLETED
    expect(page.locator("#timeline")).to_contain_text(said.text)
    fits(page, "#composer-input")
    no_blocking_violations(page, f"the score ({quiz.case})")
    screenshot(page, f"quiz-{quiz.case}-score", tmp_path)
    key = operation.details["answer_key"]

    if viewport == DESKTOP:
        # The admin's operations list masks the answer key and still fits 1280 px.
        web_user.is_staff = web_user.is_superuser = True
        web_user.save()
        page.goto(f"{server.url}/admin/runtime/operation/")
        expect(page.locator("#changelist")).to_be_visible()
        expect(page.locator("#result_list")).to_contain_text("answer key: \u2022\u2022\u2022")
        assert "'" + key[0] + "', '" + key[1] + "'" not in page.content()
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        screenshot(page, "quiz-admin-operations-1280", tmp_path)
    assert quiz.errors == []


@pytest.mark.spec("R-2.3.1", "R-2.2.4", "R-4.1.2")
def test_two_people_answer_a_quiz_in_its_surface_and_the_agent_reports_each_score(
    browser, server, web_user, conversation, django_user_model, tmp_path
):
    """Ada at 1280 px in English and a second person at 360 px in Chinese, each in their own
    conversation: both quizzes run at once, so the suite waits for one quiz deadline, not two."""
    from runtime.services.conversations import conversation_get_or_create_default

    second = django_user_model(username="mei")
    second.password = web_user.password  # the same few-iteration PBKDF2 hash (tests/browser/conftest.py)
    second.save()
    second_conversation = conversation_get_or_create_default(user=second)
    quizzes = [
        answer_and_leave(browser, server, web_user, conversation, "1280-en", tmp_path),
        answer_and_leave(browser, server, second, second_conversation, "360-zh", tmp_path),
    ]
    for quiz in quizzes:
        the_score(server, web_user, quiz, tmp_path)
