# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""Two operations at once on the page (issue 35, part 3; decision 0043), at 1280 and 360 px, in
English and Chinese.

An Agent on the real ``/ws/agent/`` socket starts a practice quiz and then a reading focus, as any
Agent would. Both run: each Surface shows its own countdown (neither says "--:--"), each chip names
its own app's word for running, the tab title and the dock name the app in front. Leaving the focus,
whatever else runs, asks first and names the focus; going back ends only the focus, and the quiz,
which its manifest lets run on, keeps its own countdown in its own Surface. axe-core finds nothing
serious on these screens, nothing scrolls sideways, and the screenshots are kept.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from runtime.models import Operation
from runtime.services.agents import create_agent_token
from runtime.transitions import OperationState
from tests.browser.conftest import screenshot
from tests.browser.test_people import DESKTOP, PHONES, fits, new_page, no_blocking_violations
from tests.browser.workspace_page import COUNTDOWN, WorkspacePage
from tests.support.live import Agent

QUIZ_SECONDS = 600  # both outlast the test: nothing here waits for a deadline
FOCUS_SECONDS = 900
QUESTIONS = [{"prompt": f"{n} × 7", "answer": str(n * 7)} for n in range(2, 6)]

WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "locale": "en-GB",
        "activity": "reading",
        "title": "Times tables",
        "pomodoro": "Pomodoro",
        "quiz": "Practice quiz",
        "focusing": "focusing",
        "running": "running",
        "switch_text": "Switching to Practice quiz ends your 15 min reading focus now",
        "back_title": "End the focus and go back to Interact?",
        "back_text": "Going back to Interact ends your 15 min reading focus now",
        "dock": "“stop” to end {name}",  # the long hint, or the short one a phone gets
    },
    "zh": {
        "locale": "zh-CN",
        "activity": "阅读",
        "title": "乘法口诀",
        "pomodoro": "番茄钟",
        "quiz": "练习测验",
        "focusing": "专注中",
        "running": "进行中",
        "switch_text": "切换到练习测验会立即结束你的 15 分钟「阅读」专注",
        "back_title": "结束专注并返回对话？",
        "back_text": "返回对话会立即结束你的 15 分钟「阅读」专注",
        "dock": "结束{name}",  # the long hint, or the short one a phone gets
    },
}
CASES = {
    "1280-en": (DESKTOP, "en"),
    "1280-zh": (DESKTOP, "zh"),
    "360-en": (PHONES["360x740"], "en"),
    "360-zh": (PHONES["360x740"], "zh"),
}


def countdown(page: Page, instance_id: str):
    return page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#countdown")


def minutes_left(text: str) -> int:
    assert COUNTDOWN.match(text), text
    return int(text.split(":")[0])


def chip_word(ws: WorkspacePage, instance_id: str):
    return ws.chip(instance_id).locator(".state-focusing")


def switch_to(page: Page, ws: WorkspacePage, instance_id: str, *, narrow: bool) -> None:
    """Click an app open behind: its chip, or on a phone (where the bar holds only Interact and the
    app in front) its entry in "More"."""
    if narrow:
        page.locator("#more-toggle").click()
        page.locator(f"#more-open-apps button[data-instance-id='{instance_id}']").click()
    else:
        ws.chip(instance_id).locator(".chip-main").click()


def accepted(frame: dict[str, Any]) -> dict[str, Any]:
    assert frame["type"] == "tool.accepted", frame
    return frame


@pytest.mark.spec("R-4.1.2", "R-4.1.3", "R-3.8")
@pytest.mark.parametrize("case", list(CASES))
def test_two_operations_each_surface_shows_its_own_and_leaving_the_focus_asks_first(
    browser, server, web_user, conversation, case, tmp_path
):
    viewport, language = CASES[case]
    words = WORDS[language]
    # A screen up to 640 px wide holds only Interact and the app in front in its bar (its max-width: 640px rule).
    narrow = viewport["width"] <= 640
    errors: list[str] = []
    page = new_page(browser, server, web_user, locale=words["locale"], viewport=viewport, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()

    # An Agent of the person's, on the real socket, starts a quiz and then a focus.
    _agent, token = create_agent_token(user=web_user, name="two-apps", now=timezone.now())
    agent = Agent(f"ws://127.0.0.1:{server.port}/ws/agent/", token)
    try:
        questions = {"duration_seconds": QUIZ_SECONDS, "title": words["title"], "questions": QUESTIONS}
        quiz = accepted(agent.call("quiz.start", **questions))
        ws.expect_app_in_front("quiz")
        focus = accepted(agent.call("pomodoro.start", duration_seconds=FOCUS_SECONDS, activity=words["activity"]))
    finally:
        agent.ws.close()
    quiz_op = Operation.objects.get(pk=quiz["operation_id"])
    focus_op = Operation.objects.get(pk=focus["operation_id"])
    quiz_id, focus_id = str(quiz_op.instance_id), str(focus_op.instance_id)
    assert quiz_op.state == focus_op.state == OperationState.RUNNING

    # The focus is in front; each Surface counts down its own operation.
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(focus_id, activity=words["activity"])
    expect(countdown(page, quiz_id)).to_have_text(COUNTDOWN)  # never "--:--": it has its own operation
    assert minutes_left(countdown(page, focus_id).inner_text()) in (14, 15)
    assert minutes_left(countdown(page, quiz_id).inner_text()) in (9, 10)
    # Each chip in its own app's word; the tab and the dock name the app in front.
    expect(chip_word(ws, focus_id)).to_have_text(words["focusing"])
    expect(chip_word(ws, quiz_id)).to_have_text(words["running"])
    expect(page).to_have_title(re.compile(rf"^1[45]:\d\d · {words['activity']} · "))
    placeholder = page.locator("#dock-input").get_attribute("placeholder") or ""
    assert words["dock"].format(name=words["pomodoro"]) in placeholder, placeholder
    expect(page.locator("#focus-hint")).to_be_visible()
    fits(page, "#dock-input")
    no_blocking_violations(page, f"the focus beside a quiz ({case})")
    screenshot(page, f"two-operations-{case}-focus", tmp_path)

    # Switching to the quiz would end the focus: the page asks first, naming the focus, and Cancel keeps it.
    switch_to(page, ws, quiz_id, narrow=narrow)
    dialog = ws.leave_dialog()
    expect(dialog).to_be_visible()
    expect(dialog.locator("#leave-text")).to_contain_text(words["switch_text"])
    expect(dialog).to_have_attribute("data-ending", str(focus_op.id))
    dialog.locator("#leave-cancel").click()
    expect(dialog).to_be_hidden()
    ws.expect_app_in_front("pomodoro")

    # "Back to Interact" asks too — the quiz running beside it does not hide the focus's guard.
    page.locator("#back-to-interact").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("#leave-title")).to_have_text(words["back_title"])
    expect(dialog.locator("#leave-text")).to_contain_text(words["back_text"])
    fits(page, "#leave-dialog", "#leave-confirm", "#leave-cancel")
    no_blocking_violations(page, f"the leave dialog beside a quiz ({case})")
    screenshot(page, f"two-operations-{case}-leave-dialog", tmp_path)
    dialog.locator("#leave-confirm").click()
    expect(dialog).to_be_hidden()
    ws.expect_interact_in_front()

    # Only the focus ended; the quiz runs on, and the page now speaks of it.
    focus_op = server.wait(
        lambda: Operation.objects.exclude(state=OperationState.RUNNING).filter(pk=focus_op.pk).first(),
        "the focus to end",
    )
    assert (focus_op.state, focus_op.interruption_reason) == (OperationState.INTERRUPTED, "returned_to_interact")
    quiz_op.refresh_from_db()
    assert quiz_op.state == OperationState.RUNNING
    expect(chip_word(ws, quiz_id)).to_have_text(words["running"])
    expect(page).to_have_title(re.compile(rf"^(9|10):\d\d · {words['title']} · "))

    # The quiz in front: its own countdown, its name in the dock; leaving it ends nothing, so no dialog.
    switch_to(page, ws, quiz_id, narrow=narrow)
    expect(dialog).to_be_hidden()
    ws.expect_app_in_front("quiz")
    expect(countdown(page, quiz_id)).to_have_text(COUNTDOWN)
    assert minutes_left(countdown(page, quiz_id).inner_text()) in (9, 10)
    placeholder = page.locator("#dock-input").get_attribute("placeholder") or ""
    assert words["dock"].format(name=words["quiz"]) in placeholder, placeholder
    fits(page, "#dock-input")
    no_blocking_violations(page, f"the quiz after the focus ({case})")
    screenshot(page, f"two-operations-{case}-quiz", tmp_path)
    page.locator("#back-to-interact").click()
    expect(dialog).to_be_hidden()
    ws.expect_interact_in_front()
    quiz_op.refresh_from_db()
    assert quiz_op.state == OperationState.RUNNING
    assert errors == []
