"""The app bar keeps every open app reachable, and the page follows the system's dark mode.

Real Daphne, real reference Agent, Chromium. During a focus with several apps open, at 1280 px and
at 360 px, in English and Chinese: the Interact chip and the front chip's close button are on screen and not
covered or clipped (at 1280 px the chips wrap, they never scroll; at 360 px the bar is one row, the app
in front closes from its toolbar and the apps behind are in "More"). With ``prefers-color-scheme: dark`` the
workspace draws its dark palette, and axe-core finds no serious or critical problem (contrast
included) in either scheme.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import blocking
from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage, focusing_operation, settled

VIEWPORTS = {"1280": {"width": 1280, "height": 800}, "360": {"width": 360, "height": 740}}
LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
NOTES = {"en": "+ Scratch notes", "zh-hans": "+ 便签"}
STOP = {"en": "stop", "zh-hans": "停止专注"}
START = {"en": "start a 60 second reading focus", "zh-hans": "专注 60 秒阅读"}

# Is the element fully inside the viewport and the topmost thing at its centre (not scrolled away,
# clipped by its row, or covered)?
REACHABLE = """(el) => {
    const r = el.getBoundingClientRect();
    const vw = window.innerWidth, vh = window.innerHeight;
    const inside = r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
    let clipped = false;
    for (let p = el.parentElement; p; p = p.parentElement) {
        const q = p.getBoundingClientRect(), style = getComputedStyle(p);
        if (style.overflowX !== "visible" && (r.left < q.left - 0.5 || r.right > q.right + 0.5)) clipped = true;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {inside, clipped, onTop: Boolean(hit && (hit === el || el.contains(hit))),
            box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)],
            scrollWidth: document.documentElement.scrollWidth, innerWidth: vw};
}"""


def new_page(browser, server, user, *, locale: str, viewport: dict[str, int], scheme: str, errors: list[str]) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale, timezone_id="UTC", color_scheme=scheme)
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(user, server)])
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def reachable(page: Page, selector: str) -> None:
    measured = page.locator(selector).first.evaluate(REACHABLE)
    assert measured["inside"] and not measured["clipped"] and measured["onTop"], (selector, measured)
    assert measured["scrollWidth"] <= measured["innerWidth"], (selector, measured)


def no_blocking_violations(page: Page, screen: str) -> None:
    found = blocking(page)
    assert not found, f"{screen}: " + "\n".join(map(str, found))


def open_notes(page: Page, language: str) -> None:
    if page.locator("#more-toggle").is_visible():  # a phone: the launchers are in "More"
        page.locator("#more-toggle").click()
    page.get_by_role("button", name=NOTES[language]).click()
    chip = page.locator("#open-chips li.chip.is-front[data-app-id='notes']")
    expect(chip).to_have_count(1)
    # Its Surface is up (and done taking the keyboard) before the dock is used.
    frame = page.frame_locator(f"iframe[data-instance-id='{chip.get_attribute('data-instance-id')}']")
    expect(frame.locator("#text")).to_be_enabled()


@pytest.mark.spec("R-4.1.1", "R-4.1.3")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", list(LOCALES))
def test_during_a_focus_with_several_apps_open_interact_and_the_front_close_stay_on_screen(
    browser, server, web_user, conversation, language, viewport, tmp_path
):
    """Scratch notes, then a focus in front (Interact, Notes, Pomodoro open): the chips wrap instead
    of scrolling, so the Interact chip (first) and the front chip with its close button are on
    screen and clickable; the page never scrolls sideways; the Interact chip is a way back."""
    errors: list[str] = []
    page = new_page(
        browser, server, web_user, locale=LOCALES[language], viewport=VIEWPORTS[viewport], scheme="light", errors=errors
    )
    ws = WorkspacePage(page, server.url)
    ws.open()
    open_notes(page, language)
    ws.say(START[language])
    server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    expect(page.locator("#open-chips li.chip")).to_have_count(3)

    reachable(page, "#open-chips li.chip[data-app-id='interact'] .chip-main")
    reachable(page, "#open-chips li.chip.is-front")
    if viewport == "1280":
        reachable(page, "#open-chips li.chip.is-front .chip-close")
        for chip in page.locator("#open-chips li.chip").all():
            reachable(page, f"#open-chips li.chip[data-instance-id='{chip.get_attribute('data-instance-id')}']")
        overflow = page.locator("#open-chips").evaluate("(el) => getComputedStyle(el).overflowX")
        assert overflow == "visible", "the chips wrap, they do not scroll"
    else:
        # One row on a phone (issue 40): the app in front closes from its toolbar; the app behind
        # (Notes) is one tap away in "More".
        reachable(page, "#close-app")
        page.locator("#more-toggle").click()
        reachable(page, "#more-open-apps button[data-app-id='notes']")
    screenshot(page, f"app-bar-focus-several-apps-{language}-{viewport}", tmp_path)
    no_blocking_violations(page, f"app bar {language} {viewport}")
    if viewport == "360":
        page.keyboard.press("Escape")

    # The Interact chip is a real way back: it asks first, since leaving ends the focus.
    page.locator("#open-chips li.chip[data-app-id='interact'] .chip-main").click()
    expect(ws.leave_dialog()).to_be_visible()
    page.locator("#leave-cancel").click()
    ws.expect_app_in_front("pomodoro")
    assert errors == []
    page.context.close()


@pytest.mark.spec("R-4.1.1")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_page_follows_the_systems_dark_mode_with_no_serious_accessibility_problem(
    browser, server, web_user, conversation, language, viewport, tmp_path
):
    """color_scheme="dark": the page, the app bar, messages and blocks take the dark palette
    (dark surfaces, light ink); axe finds nothing serious in Interact, in a MiniApp in front and on
    the Agents page. The same page in the light scheme keeps its light colours."""
    errors: list[str] = []
    light = new_page(
        browser, server, web_user, locale=LOCALES[language], viewport=VIEWPORTS[viewport], scheme="light", errors=errors
    )
    WorkspacePage(light, server.url).open()
    light_bg = light.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    light.context.close()

    page = new_page(
        browser, server, web_user, locale=LOCALES[language], viewport=VIEWPORTS[viewport], scheme="dark", errors=errors
    )
    ws = WorkspacePage(page, server.url)
    ws.open()
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    colours = page.evaluate(
        """() => {
            const lum = (c) => { const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
                                 return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
            const of = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
            return {
                body: lum(of("html", "backgroundColor")), ink: lum(of("body", "color")),
                appbar: lum(of(".appbar", "backgroundColor")), composer: lum(of("#composer-input", "backgroundColor")),
                bodyRaw: of("html", "backgroundColor"),
            };
        }"""
    )
    assert colours["body"] < 0.2 and colours["appbar"] < 0.2 and colours["composer"] < 0.2, colours
    assert colours["ink"] > 0.8, colours
    assert colours["bodyRaw"] != light_bg, (colours, light_bg)

    ws.say(START[language])
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity=None)
    no_blocking_violations(page, f"dark focus {language} {viewport}")
    ws.say(STOP[language])
    server.wait(lambda: settled(operation), "the stop")
    ws.expect_interact_in_front()
    # The request, the Agent's answer and the live focus block are in the IM now.
    expect(page.locator("#timeline details.block")).to_have_count(1)
    message_bg = page.locator("#timeline .message.from-human").first.evaluate(
        "(el) => getComputedStyle(el).backgroundColor"
    )
    assert message_bg not in ("rgb(228, 239, 245)", "rgb(255, 255, 255)"), message_bg
    no_blocking_violations(page, f"dark interact {language} {viewport}")
    screenshot(page, f"dark-interact-{language}-{viewport}", tmp_path)

    page.goto(f"{server.url}/workspace/agents/")
    expect(page.locator("main")).to_be_visible()
    no_blocking_violations(page, f"dark agents {language} {viewport}")
    assert errors == []
    page.context.close()
