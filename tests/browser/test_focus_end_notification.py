"""The end of a focus reaches a person whose page is hidden (issue 40): the page offers
notifications while a focus runs (never on load), and when the focus ends with the tab in the
background, Chromium shows a system notification (permission granted by the test). The page's
``Notification`` calls are recorded by an init script that then calls the real constructor.

Headless Chromium keeps every tab "visible" (another tab in front, a minimised window: measured,
no change), so the init script also lets the test hide the page the way a browser does: the
``document.visibilityState`` / ``hidden`` it reports, and the ``visibilitychange`` event.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage, focusing_operation, settled

RECORD = """() => {
    const Real = window.Notification;
    window.shownNotifications = [];
    class Recorded extends Real {
        constructor(title, options) {
            super(title, options);
            window.shownNotifications.push({title, body: (options || {}).body, tag: (options || {}).tag});
        }
    }
    window.Notification = Recorded;
    let hidden = false;
    Object.defineProperty(Document.prototype, "visibilityState", {configurable: true, get: () => (hidden ? "hidden" : "visible")});
    Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => hidden});
    window.setPageHidden = (value) => {
        hidden = value;
        document.dispatchEvent(new Event("visibilitychange"));
    };
}"""


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_focus_that_ends_while_the_page_is_hidden_is_told_by_a_system_notification(
    browser, server, web_user, conversation, language, tmp_path
):
    locale = {"en": "en-GB", "zh-hans": "zh-CN"}[language]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale, timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(f"({RECORD})()")
    ws = WorkspacePage(page, server.url)
    ws.open()
    # Never asked on load.
    expect(page.locator("#notify-offer")).to_be_hidden()

    ws.say("start a 4 second reading focus" if language == "en" else "专注 4 秒阅读")
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    # Permission is granted already, so the offer is not needed; the setting says it is on.
    page.locator("#more-toggle").click()
    expect(page.locator("#notify-setting")).to_be_checked()
    page.keyboard.press("Escape")

    # The person goes to another tab: this one is hidden.
    page.evaluate("window.setPageHidden(true)")
    server.wait(lambda: settled(operation), "the focus to end")
    shown = server.wait(lambda: page.evaluate("window.shownNotifications"), "a notification", timeout=15)
    assert len(shown) == 1, shown
    assert shown[0]["tag"] == f"lineup-op-{operation.pk}"
    assert ("focus completed" in shown[0]["title"]) if language == "en" else ("专注完成" in shown[0]["title"])

    page.evaluate("window.setPageHidden(false)")
    ws.expect_interact_in_front()
    screenshot(page, f"40-after-notification-{language}", tmp_path)
    assert len(page.evaluate("window.shownNotifications")) == 1  # once
    assert not errors, errors
    context.close()


def test_the_offer_comes_while_a_focus_runs_and_no_thanks_is_kept(browser, server, web_user, conversation):
    """Permission not decided yet: nothing on load; during a focus a small offer; "No thanks" keeps
    it off (the setting unchecked) and the offer does not come back."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB", timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    ws = WorkspacePage(page, server.url)
    ws.open()
    expect(page.locator("#notify-offer")).to_be_hidden()
    if page.evaluate("Notification.permission") != "default":
        pytest.skip("this Chromium decides notification permission by itself")
    ws.say("start a 1 minute reading focus")
    server.wait(lambda: focusing_operation(conversation), "the focus to start")
    offer = page.locator("#notify-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("notification")
    offer.get_by_role("button", name="No thanks").click()
    expect(offer).to_be_hidden()
    page.locator("#more-toggle").click()
    expect(page.locator("#notify-setting")).not_to_be_checked()
    ws.reload()
    expect(offer).to_be_hidden()
    context.close()
