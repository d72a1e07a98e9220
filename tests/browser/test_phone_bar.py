"""The app bar on a 360 px phone, in both languages (issue 40): one row; what does not fit is in
"More", including every launcher during a focus (with the leave warning); the dock's hint fits its
box; chips say plain words.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage, focusing_operation

PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
START = {"en": ("start a 1 minute reading focus", "reading"), "zh-hans": ("专注 1 分钟阅读", "阅读")}
NOTES = {"en": "+ Scratch notes", "zh-hans": "+ 便签"}
IN_FRONT = {"en": "in front", "zh-hans": "正在使用"}

# The placeholder's text as drawn in the input's own font, against the input's inner width.
HINT_FITS = """(input) => {
    const style = getComputedStyle(input);
    const context = document.createElement("canvas").getContext("2d");
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return {text: input.placeholder, width: context.measureText(input.placeholder).width, inner};
}"""

ONE_ROW = """() => {
    const bar = document.getElementById("appbar").getBoundingClientRect();
    const tops = [...document.querySelectorAll("#appbar li.chip, #more-toggle")]
        .filter((el) => el.offsetParent !== null && !el.closest(".appbar-more"))
        .map((el) => { const r = el.getBoundingClientRect(); return Math.round((r.top + r.bottom) / 20); });  // centres, 10 px
    return {height: bar.height, rows: new Set(tops).size, scrollWidth: document.documentElement.scrollWidth};
}"""


def one_row(page) -> dict:
    measured = page.evaluate(ONE_ROW)
    assert measured["rows"] == 1, measured
    assert measured["height"] < 56, measured  # one row of 2.25rem controls and padding, ~7 % of 740 px
    assert measured["scrollWidth"] <= PHONE["width"], measured
    return measured


def inside(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box, selector
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= PHONE["height"] + 0.5, (selector, box)


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_app_bar_is_one_row_at_360_px_and_every_launcher_stays_reachable_during_a_focus(
    browser, server, web_user, conversation, language, tmp_path
):
    context = browser.new_context(viewport=PHONE, locale=LOCALES[language], timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    ws = WorkspacePage(page, server.url)
    ws.open()
    one_row(page)
    expect(ws.interact_chip()).to_contain_text(IN_FRONT[language])  # in the label (hidden on a phone, read out)

    text, activity = START[language]
    ws.say(text)
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity=activity)
    measured = one_row(page)
    hint = page.locator("#dock-input").evaluate(HINT_FITS)
    assert hint["width"] <= hint["inner"], hint
    screenshot(page, f"40-phone-bar-focus-{language}", tmp_path)

    toggle = page.locator("#more-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    # Every app a person may open by hand (the bundled ones: Scratch notes; Pomodoro and the quiz
    # are started by the Agent).
    launchers = page.locator("#launchers button.launch")
    expect(launchers).to_have_count(1)
    expect(page.get_by_role("button", name=NOTES[language])).to_be_visible()
    inside(page, "#appbar-more")
    screenshot(page, f"40-phone-more-menu-{language}", tmp_path)
    page.keyboard.press("Escape")
    expect(page.locator("#appbar-more")).to_be_hidden()
    expect(toggle).to_be_focused()

    # Opening Notes during the focus: reachable, and the leave warning comes first.
    toggle.click()
    page.get_by_role("button", name=NOTES[language]).click()
    expect(ws.leave_dialog()).to_be_visible()
    inside(page, "#leave-dialog")
    page.locator("#leave-cancel").click()
    expect(ws.leave_dialog()).to_be_hidden()
    ws.expect_app_in_front("pomodoro")
    assert focusing_operation(conversation) == operation
    assert measured["height"] == page.evaluate(ONE_ROW)["height"]
    assert not errors, errors
    context.close()
