"""axe-core on every Surface of every bundled MiniApp, in both languages and both colour schemes
(issue 40): Scratch notes (empty, then "Saved"), Pomodoro (running, then its result) and the
practice quiz (answered, "Saved"), with the host page around each. Serious and critical: none.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from runtime.models import Operation
from tests.browser.axe import blocking
from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage, focusing_operation, settled

LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
NOTES = {"en": "+ Scratch notes", "zh-hans": "+ 便签"}
SAVED = {"en": "Saved", "zh-hans": "已保存"}
FOCUS = {"en": "start a 3 second reading focus", "zh-hans": "专注 3 秒阅读"}
QUIZ = {"en": "quiz me on multiplication for 30 seconds", "zh-hans": "乘法口算练习 30 秒"}


def clean(page, screen: str) -> None:
    found = blocking(page)
    assert not found, f"{screen}: " + "\n".join(map(str, found))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", list(LOCALES))
def test_no_serious_accessibility_violation_on_any_surface_of_any_bundled_miniapp(
    browser, server, web_user, conversation, language, scheme, tmp_path
):
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale=LOCALES[language], timezone_id="UTC", color_scheme=scheme
    )
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    ws = WorkspacePage(page, server.url)
    ws.open()

    # Scratch notes: empty, then with text saved ("Saved" was 2.9:1).
    page.get_by_role("button", name=NOTES[language]).click()
    ws.expect_app_in_front("notes")
    notes = page.frame_locator("#frames iframe[data-app-id='notes']:not([hidden])")
    expect(notes.locator("#text")).to_be_enabled()
    clean(page, "notes, empty")
    notes.locator("#text").fill("milk, eggs")
    expect(notes.locator("#status")).to_have_text(SAVED[language])
    clean(page, "notes, saved")
    screenshot(page, f"40-axe-notes-saved-{language}-{scheme}", tmp_path)

    # Pomodoro: running, then the screen it leaves behind when it ends (Notes, open before it).
    ws.say(FOCUS[language])
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    clean(page, "pomodoro, running")
    server.wait(lambda: settled(operation), "the focus to end")
    ws.expect_app_in_front("notes")
    expect(page.locator("#frames iframe[data-app-id='pomodoro']")).to_have_count(0)  # its frame is gone
    clean(page, "after the focus")

    # The practice quiz: answered and saved.
    ws.say(QUIZ[language])
    quiz = server.wait(
        lambda: Operation.objects.filter(conversation=conversation, app_id="quiz").first(), "the quiz to start"
    )
    ws.expect_app_in_front("quiz")
    frame = page.frame_locator(f"#frames iframe[data-instance-id='{quiz.instance_id}']")
    inputs = frame.locator("#questions input")
    expect(inputs).to_have_count(20)
    clean(page, "quiz, new")
    inputs.nth(0).fill("7")
    expect(frame.locator("#status")).to_have_text(SAVED[language])
    clean(page, "quiz, saved")
    assert not errors, errors
    context.close()
