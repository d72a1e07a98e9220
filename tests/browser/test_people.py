"""The workspace as people use it: in English and Chinese, on a phone, by keyboard, over time.

Real Daphne, real reference Agent, Debian's Chromium. What is measured here is what a person
meets: axe-core finds no serious or critical accessibility problem on any screen; from 360 px
wide nothing scrolls sideways and the message box, the countdown and the dialogs are on screen;
the keyboard starts in the message box; the chat opens at, and follows, the newest entry; ten
unanswered focuses leave one "another round?" question; and an activity with a right-to-left
override can not reorder the page's own words.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from interact.models import Interaction, InteractionStatus
from interact.services.interactions import request_interaction
from interact.services.messages import post_agent_message
from runtime.services.agents import create_agent_token
from tests.browser.axe import blocking
from tests.browser.conftest import UI_TIMEOUT_MS, session_cookie
from tests.browser.workspace_page import (
    WorkspacePage,
    focusing_operation,
    off_the_loop,
    pending_interactions,
    settled,
)
from tests.support.factories import activity_of

PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
DESKTOP = {"width": 1280, "height": 800}
LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
# What a person types to start a reading focus, and the activity the Agent takes from it.
START = {"en": ("start a {n} second reading focus", "reading"), "zh-hans": ("专注 {n} 秒阅读", "阅读")}
STOP = {"en": "stop", "zh-hans": "停止专注"}
# A stopped focus gets no "another round?": a request over four hours brings a question to Interact.
LONG = {"en": "focus 5 hours on the thesis", "zh-hans": "专注5小时写论文"}

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


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


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
    ws.say(LONG[language])
    confirm = ws.interaction(kind="confirm")
    expect(confirm).to_be_visible()
    fits(page, ".appbar", "#composer-input", "#timeline > section.interaction.pending")
    page.locator("#more-toggle").click()  # on a phone the launchers are in the bar's "More" menu
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
    ws.say(LONG[language])
    expect(ws.interaction(kind="confirm")).to_be_visible()
    no_blocking_violations(page, "Interact with a result and a question")
    page.locator("#closed-summary").click()
    no_blocking_violations(page, "the closed apps menu")
    page.keyboard.press("Escape")

    second = start_reading(ws, server, conversation, language)
    # A question about this focus, from a second Agent of the person (the reference Agent's own
    # question was about the moment before it, and is withdrawn by the new start).
    helper, _ = create_agent_token(user=web_user, name="helper", now=timezone.now())
    off_the_loop(
        request_interaction,
        conversation=conversation,
        agent=helper,
        interaction_id="dim-lights",
        kind="confirm",
        prompt="Dim the lights?" if language == "en" else "要调暗灯光吗",
        app_session_id=str(second.app_session_id),
        now=timezone.now(),
    )
    expect(page.locator("#overlay section.interaction")).to_be_visible()
    no_blocking_violations(page, "a question over the focus")
    ws.say(STOP[language])
    server.wait(lambda: settled(second), "the stop")
    ws.expect_interact_in_front()
    page.locator("#launchers button[data-app-id='notes']").click()
    ws.expect_app_in_front("notes")
    no_blocking_violations(page, "Scratch notes")
    assert not errors, errors


# --- keyboard ------------------------------------------------------------------------------------


@pytest.mark.spec("R-4.1.1", "R-2.1.1")
def test_the_keyboard_starts_in_the_message_box_and_stays_there(ws, server, conversation):
    """On load the composer has the focus; the first Tab from the top is a visible skip link to it;
    after sending, the focus is back in the (empty) composer; focus is always drawn."""
    page = ws.page
    expect(page.locator("#composer-input")).to_be_focused()
    # Backwards from the composer by keyboard, the skip link is the first stop of the page.
    skip = page.locator("#skip-link")
    for _ in range(30):
        if skip.evaluate("(link) => document.activeElement === link"):
            break
        page.keyboard.press("Shift+Tab")
    expect(skip).to_be_focused()
    assert page.evaluate(
        "() => document.querySelector('a[href], button, input, textarea, summary') === document.getElementById('skip-link')"
    )
    box = skip.bounding_box()
    assert box and box["y"] >= 0 and box["height"] > 10, box  # on screen once focused
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(page.locator("#composer-input")).to_be_focused()

    page.keyboard.type("hello")
    page.keyboard.press("Enter")
    expect(page.locator("#composer-input")).to_have_value("")
    expect(page.locator("#timeline .message.from-agent").last).to_contain_text("Hello!")
    expect(page.locator("#composer-input")).to_be_focused()
    # Screen readers hear the Agent's answer once, from the live region (the log itself is redrawn).
    expect(page.locator("#announcer")).to_contain_text("Agent: Hello!")


# --- the chat follows the newest entry -------------------------------------------------------------


def newest_in_view(page: Page) -> bool:
    """The last entry of the IM is inside the visible part of the timeline."""
    return page.evaluate(
        """() => {
            const timeline = document.getElementById("timeline");
            const last = timeline.lastElementChild;
            if (!last) return false;
            const view = timeline.getBoundingClientRect(), box = last.getBoundingClientRect();
            return box.top >= view.top - 1 && box.bottom <= view.bottom + 1 && box.height > 0;
        }"""
    )


@pytest.mark.spec("R-4.3.5", "R-4.2.4", "R-4.1.5")
def test_ten_unanswered_focuses_leave_one_question_a_one_row_app_bar_and_the_result_in_view(
    browser, server, web_user, conversation
):
    """After ten completed focuses with no answers: one "another round?" pending (each newer one
    superseded the older exactly once), the app bar on one row at 1280 px with the closed apps
    folded into one menu, and the newest result in view without scrolling — after a reload too.
    Scrolled up, a new entry shows "New messages" instead of pulling the view down."""
    errors: list[str] = []
    page = new_page(browser, server, web_user, locale="en-GB", viewport=DESKTOP, watch=errors)
    ws = WorkspacePage(page, server.url)
    ws.open()
    for n in range(10):
        ws.say("focus 1 second on reading")
        operation = server.wait(lambda: focusing_operation(conversation), f"focus {n + 1} to start")
        server.wait(lambda op=operation: settled(op), f"focus {n + 1} to complete")
        ws.expect_interact_in_front()
        confirm = ws.interaction(kind="confirm")
        expect(confirm).to_have_count(1)
        expect(confirm).to_contain_text("Start another 1-second round?")
        server.wait(lambda n=n: Interaction.objects.filter(conversation=conversation).count() == n + 1, "its question")
        server.wait(lambda: newest_in_view(page), "the newest result to be in view")

    pending = pending_interactions(conversation)
    assert len(pending) == 1, [p.interaction_id for p in pending]
    superseded = Interaction.objects.filter(conversation=conversation, status=InteractionStatus.SUPERSEDED)
    assert superseded.count() == 9
    expect(page.locator("#timeline section.interaction[data-status='superseded']")).to_have_count(9)

    bar = page.locator(".appbar").bounding_box()
    assert bar and bar["height"] < 64, bar  # one row of 2.25rem controls plus padding
    expect(page.locator("#open-chips li.chip")).to_have_count(1)  # Interact only: the closed ones are folded
    expect(page.locator("#closed-summary")).to_have_text("10 closed today")
    assert newest_in_view(page)

    ws.reload()
    server.wait(lambda: newest_in_view(page), "the reloaded chat to open at the newest entry")
    expect(page.locator("#composer-input")).to_be_focused()

    # A closed app's chip opens its block in Interact, where its result is.
    page.locator("#closed-summary").click()
    page.locator("#closed-chips li.chip").first.locator("button").click()
    newest_block = page.locator("#timeline details.block").last
    expect(newest_block).to_have_attribute("open", "")
    expect(newest_block.locator(".block-result")).to_contain_text("Completed: 1 s of reading")

    # Reading older history: a new entry does not pull the view down; "New messages" does.
    page.locator("#timeline").evaluate("(t) => t.scrollTo(0, 0)")
    server.wait(lambda: not newest_in_view(page), "the view to be scrolled up")
    helper, _ = create_agent_token(user=web_user, name="helper", now=timezone.now())
    off_the_loop(
        post_agent_message, conversation=conversation, agent=helper, text="A note for later.", now=timezone.now()
    )
    expect(page.locator("#new-messages")).to_be_visible()
    expect(page.locator("#timeline > .message.from-agent").last).to_have_text(re.compile("A note for later."))
    assert not newest_in_view(page)
    page.locator("#new-messages").click()
    server.wait(lambda: newest_in_view(page), "the newest entry to be in view")
    expect(page.locator("#new-messages")).to_be_hidden()
    assert not errors, errors


# --- bidi safety -----------------------------------------------------------------------------------

RLO = "\u202e"
# Where, in the rendered line, the page's own words start and end after the isolated activity.
WORD_POSITIONS = """([selector, first, last]) => {
    const el = document.querySelector(selector);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node = null;
    while (walker.nextNode()) if (walker.currentNode.textContent.includes(first)) node = walker.currentNode;
    if (node === null) {
        const texts = [];
        const all = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        while (all.nextNode()) texts.push(JSON.stringify(all.currentNode.textContent));
        return [texts.join(" | "), null];
    }
    const range = document.createRange();
    const x = (index) => { range.setStart(node, index); range.setEnd(node, index + 1); return range.getBoundingClientRect().left; };
    const at = [x(node.textContent.indexOf(first)), x(node.textContent.lastIndexOf(last))];
    return at[0] === at[1] ? [el.textContent, "not laid out"] : at;
}"""


@pytest.mark.spec("R-4.1.1", "R-2.3.2")
def test_a_right_to_left_override_in_an_activity_leaves_the_pages_labels_in_order(ws, server, conversation):
    """The activity "<U+202E>gnidaer" is shown isolated: the toolbar still reads "Focus running: …
    Leaving this screen ends it." left to right, and so do the leave dialog (to the word "focus" right
    after the activity) and the block title."""
    ws.say(f"focus 30 seconds on {RLO}gnidaer")
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    assert activity_of(operation) == f"{RLO}gnidaer"
    ws.expect_app_in_front("pomodoro")
    hint = ws.page.locator("#focus-hint")
    expect(hint).to_have_text(f"Focus running: {RLO}gnidaer. Leaving this screen ends it.")
    toolbar = ws.page.locator("#app-toolbar").inner_text()
    assert toolbar.index("Reload") < toolbar.index("Close Pomodoro") < toolbar.index("Focus running"), toolbar
    leaving, it = ws.page.evaluate(WORD_POSITIONS, ["#focus-hint", "Leaving", "it."])
    assert leaving < it, "the page's words after the activity were reversed"
    title, close = ws.page.locator("#reload-app").bounding_box(), ws.page.locator("#close-app").bounding_box()
    assert title and close and title["x"] < close["x"]

    ws.page.locator("#back-to-interact").click()
    expect(ws.leave_dialog()).to_be_visible()
    now, interrupted = ws.page.evaluate(WORD_POSITIONS, ["#leave-text", "now.", "interrupted"])
    assert now < interrupted, "the dialog's words after the activity were reversed"
    # "focus" follows the activity inside the dialog's own phrase: only the activity is isolated, so
    # the override can not turn the app's word around either.
    f, cus = ws.page.evaluate(WORD_POSITIONS, ["#leave-text", "fo", "cus"])
    assert f < cus, "the dialog's word 'focus' after the activity was reversed"
    expect(ws.leave_dialog().locator("#leave-text bdi")).to_have_text(f"{RLO}gnidaer")
    ws.page.locator("#leave-confirm").click()
    server.wait(lambda: settled(operation), "leaving to settle the focus")
    ws.expect_interact_in_front()
    title = ws.block(str(operation.app_session_id)).locator(".block-title")
    expect(title).to_have_text(f"Pomodoro · {RLO}gnidaer · 30 s")
    dot, seconds = ws.page.evaluate(
        WORD_POSITIONS,
        [f"#timeline details[data-app-session-id='{operation.app_session_id}'] .block-title", "30", "s"],
    )
    assert dot < seconds, "the block title's words after the activity were reversed"
