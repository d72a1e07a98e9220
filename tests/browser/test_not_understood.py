# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""What the person sees when the built-in Agent did not understand (real Daphne, reference Agent, Chromium):
the answer and a one-tap choice of what the installed apps can do; a tap does what it says (decision 0065)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
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
    screenshot(ws.page, "not-understood-choice-desktop", tmp_path)

    choice.get_by_role("button", name="Start a 25 minute focus").focus()
    ws.page.keyboard.press("Enter")  # by keyboard, as anyone can
    operation = server.wait(lambda: focusing_operation(conversation), "the focus the tap asked for")
    assert (operation.ends_at - operation.started_at).total_seconds() == 1500
    ws.expect_app_in_front("pomodoro")
    expect(ws.interaction(kind="choice", status="answered")).to_have_count(1)


@pytest.mark.spec("R-2.1.1", "R-4.3.4")
def test_in_chinese_the_choice_speaks_chinese_at_both_widths(browser, server, web_user, conversation, tmp_path):
    """The same card for a person writing Chinese on a zh-CN page: the question, the apps' Chinese
    suggestions and "what can you do" in Chinese, whole on a 1280 px screen and on a 360 px phone."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN", timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    ws = WorkspacePage(context.new_page(), server.url)
    ws.open()

    ws.say("番茄钟是什么意思？")
    choice = ws.interaction(kind="choice")
    expect(choice).to_contain_text("你是想做下面哪一个？")
    expect(choice.get_by_role("button", name="你能做什么？")).to_be_visible()
    suggestion = choice.get_by_role("button", name="专注 25 分钟", exact=True)
    expect(suggestion).to_be_in_viewport()
    screenshot(ws.page, "not-understood-choice-zh-desktop", tmp_path)
    ws.page.set_viewport_size({"width": 360, "height": 740})
    expect(suggestion).to_be_in_viewport()
    screenshot(ws.page, "not-understood-choice-zh-phone", tmp_path)

    suggestion.focus()
    ws.page.keyboard.press("Enter")
    operation = server.wait(lambda: focusing_operation(conversation), "the focus the tap asked for")
    assert (operation.ends_at - operation.started_at).total_seconds() == 1500
    context.close()


@pytest.mark.spec("R-2.1.1", "R-4.3.4")
def test_a_length_said_alone_asks_which_app_and_the_tapped_one_starts(ws, server, conversation, tmp_path):
    """ "let's do 20 minutes" names no app: "20 minutes of what?" with each app that takes it; the quiz,
    tapped by keyboard on a phone, starts for 20 minutes (decision 0068)."""
    ws.page.set_viewport_size({"width": 360, "height": 740})
    ws.say("let's do 20 minutes")
    choice = ws.interaction(kind="choice")
    expect(choice).to_contain_text("20 minutes of what?")
    quiz = choice.get_by_role("button", name="Practice quiz · 20 minutes")
    expect(choice.get_by_role("button", name="Pomodoro · 20 minutes")).to_be_in_viewport()
    expect(quiz).to_be_in_viewport()
    screenshot(ws.page, "which-app-choice-phone", tmp_path)

    quiz.focus()
    ws.page.keyboard.press("Enter")
    operation = server.wait(lambda: focusing_operation(conversation), "the quiz the tap asked for")
    assert operation.app_id == "quiz"
    assert (operation.ends_at - operation.started_at).total_seconds() == 1200
