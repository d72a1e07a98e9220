"""The workspace as people use it: in English and Chinese, on a phone, by keyboard, over time.

Real Daphne, real reference Agent, Debian's Chromium. What is measured here is what a person
meets: axe-core finds no serious or critical accessibility problem on any screen; from 360 px
wide nothing scrolls sideways and the message box, the countdown and the dialogs are on screen;
the keyboard starts in the message box; the chat opens at, and follows, the newest entry; ten
unanswered focuses leave one "another round?" question; and an activity with a right-to-left
override can not reorder the page's own words.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import blocking
from tests.browser.conftest import UI_TIMEOUT_MS, session_cookie
from tests.browser.workspace_page import (
    WorkspacePage,
    focusing_operation,
    settled,
)

PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
DESKTOP = {"width": 1280, "height": 800}
LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
# What a person types to start a reading focus, and the activity the Agent takes from it.
START = {"en": ("start a {n} second reading focus", "reading"), "zh-hans": ("专注 {n} 秒阅读", "阅读")}
STOP = {"en": "stop", "zh-hans": "停止专注"}

FIT = """(selectors) => {
    const vw = window.innerWidth, vh = window.innerHeight;
    const outside = [];
    for (const selector of selectors) {
        for (const el of document.querySelectorAll(selector)) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;  // not shown
            if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
                outside.push(`${selector} [${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.right)}x${Math.round(r.bottom)}]`);
            }
        }
    }
    return {scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, outside};
}"""


def new_page(browser, server, user, *, locale: str, viewport: dict[str, int], watch: list[str]) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale, timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    if user is not None:
        context.add_cookies([session_cookie(user, server)])
    page = context.new_page()
    page.on("pageerror", lambda error: watch.append(str(error)))
    return page


def fits(page: Page, *selectors: str) -> dict[str, Any]:
    """Nothing scrolls sideways, and each of ``selectors`` is fully inside the viewport."""
    measured = page.evaluate(FIT, list(selectors))
    assert measured["scrollWidth"] <= measured["innerWidth"], measured
    assert measured["outside"] == [], measured
    return measured


def countdown_on_screen(page: Page, instance_id: str) -> None:
    """The countdown inside Pomodoro's frame is inside the viewport too."""
    frame_box = page.locator(f"#frames iframe[data-instance-id='{instance_id}']").bounding_box()
    inner = page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#countdown").bounding_box()
    viewport = page.viewport_size
    assert frame_box and inner and viewport
    left, top = frame_box["x"] + inner["x"], frame_box["y"] + inner["y"]
    assert left >= 0 and top >= 0, (frame_box, inner)
    assert left + inner["width"] <= viewport["width"] and top + inner["height"] <= viewport["height"], (
        frame_box,
        inner,
    )


def no_blocking_violations(page: Page, screen: str) -> None:
    found = blocking(page)
    assert not found, f"{screen}: " + "\n".join(map(str, found))


def start_reading(ws: WorkspacePage, server, conversation, language: str, seconds: int = 30):
    text, activity = START[language]
    ws.say(text.format(n=seconds))
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity=activity)
    return operation


# --- phones ----------------------------------------------------------------------------------------


@pytest.mark.spec("R-4.1.1", "R-4.1.2", "R-4.3.4")
@pytest.mark.parametrize("phone", list(PHONES))
@pytest.mark.parametrize("language", list(LOCALES))
def test_every_screen_fits_a_phone(browser, server, web_user, conversation, phone, language):
    """At 390x844 and 360x740, in both languages: login, Interact, the focus screen, the leave
    dialog, a question over the focus, the result and Scratch notes never scroll sideways, and the
    message box, the countdown, the dialog and the question card are fully on screen."""
    errors: list[str] = []
    viewport = PHONES[phone]
    login = new_page(browser, server, None, locale=LOCALES[language], viewport=viewport, watch=errors)
    login.goto(f"{server.url}/accounts/login/")
    fits(login, ".login-card", ".language-switch")
    login.context.close()

    page = new_page(browser, server, web_user, locale=LOCALES[language], viewport=viewport, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()
    expect(page.locator("html")).to_have_attribute("lang", language)
    fits(page, ".appbar", "#composer-input", "#composer button")

    operation = start_reading(ws, server, conversation, language)
    fits(page, ".app-toolbar", "#dock-input", "#back-to-interact", "#close-app", "#reload-app")
    countdown_on_screen(page, str(operation.instance_id))
    page.locator("#back-to-interact").click()
    expect(ws.leave_dialog()).to_be_visible()
    fits(page, "#leave-dialog", "#leave-confirm", "#leave-cancel")
    page.locator("#leave-cancel").click()
    expect(ws.leave_dialog()).to_be_hidden()

    ws.say(STOP[language])
    server.wait(lambda: settled(operation), "the stop to settle the focus")
    ws.expect_interact_in_front()
    confirm = ws.interaction(kind="confirm")
    expect(confirm).to_be_visible()
    fits(page, ".appbar", "#composer-input", "#timeline > section.interaction.pending")
    ws.page.get_by_role("button", name="+ " + ("Scratch notes" if language == "en" else "便签")).click()
    ws.expect_app_in_front("notes")
    fits(page, ".app-toolbar", "#dock-input", "#overlay")
    assert not errors, errors


# --- accessibility ---------------------------------------------------------------------------------


@pytest.mark.spec("R-4.1.1", "R-4.1.3", "R-4.3.4")
@pytest.mark.parametrize("language", list(LOCALES))
def test_no_serious_or_critical_accessibility_violation_on_any_screen(
    browser, server, web_user, conversation, language
):
    """axe-core (WCAG 2.1 A/AA and best practices) on login, Interact (empty and with history), the
    focus screen with its Surface, the leave dialog, a question over the focus and Scratch notes."""
    errors: list[str] = []
    login = new_page(browser, server, None, locale=LOCALES[language], viewport=DESKTOP, watch=errors)
    login.goto(f"{server.url}/accounts/login/")
    no_blocking_violations(login, "login")
    login.locator("#id_username").fill("ada")
    login.locator("#id_password").fill("wrong")
    login.locator("button[type=submit].primary").click()
    expect(login.locator(".form-error")).to_be_visible()
    no_blocking_violations(login, "login with an error")
    login.context.close()

    page = new_page(browser, server, web_user, locale=LOCALES[language], viewport=DESKTOP, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()
    no_blocking_violations(page, "empty workspace")
    operation = start_reading(ws, server, conversation, language)
    no_blocking_violations(page, "focus screen")
    page.locator("#back-to-interact").click()
    expect(ws.leave_dialog()).to_be_visible()
    no_blocking_violations(page, "leave dialog")
    page.locator("#leave-confirm").click()
    server.wait(lambda: settled(operation), "leaving to settle the focus")
    ws.expect_interact_in_front()
    expect(ws.interaction(kind="confirm")).to_be_visible()
    no_blocking_violations(page, "Interact with a result and a question")
    page.locator("#closed-summary").click()
    no_blocking_violations(page, "the closed apps menu")
    page.keyboard.press("Escape")

    second = start_reading(ws, server, conversation, language)
    expect(page.locator("#overlay section.interaction")).to_be_visible()
    no_blocking_violations(page, "a question over the focus")
    ws.say(STOP[language])
    server.wait(lambda: settled(second), "the stop")
    ws.expect_interact_in_front()
    page.locator("#launchers button[data-app-id='notes']").click()
    ws.expect_app_in_front("notes")
    no_blocking_violations(page, "Scratch notes")
    assert not errors, errors
