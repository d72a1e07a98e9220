# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？（）) on purpose
"""The same story in English and in Chinese, on a desktop and on a phone (screenshots of each).

Sign in, ask for a 3-second focus on homework, watch the countdown, get the result and the
"another round?" question, say yes, think about leaving (the dialog), get a question over the focus
screen, and stop it from the dock (no "another round?" after a stop). Every label of the page's own chrome is in the page's language
(the browser's Accept-Language picks it), and each screen is photographed at 1280x800 and 390x844
(``LINEUP_SCREENSHOTS_DIR=docs/screenshots`` refreshes docs/hosts.md's).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from interact.services.interactions import request_interaction
from runtime.services.agents import create_agent_token
from tests.browser.conftest import PASSWORD, UI_TIMEOUT_MS, screenshot
from tests.browser.workspace_page import (
    WorkspacePage,
    agent_said,
    assert_ended_once,
    focusing_operation,
    off_the_loop,
    settled,
)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

WORDS = {
    "en": {
        "locale": "en-GB",
        "heading": "Sign in to your workspace",
        "username": "Username",
        "password": "Password",
        "sign_in": "Sign in",
        "start": "focus 3 seconds on homework",
        "activity": "homework",
        "hint": "Focus running: homework. Leaving this screen ends it.",
        "caption": "Stay with it.",
        "started": "Focus started: 3 seconds of homework",
        "completed_pill": "Completed",
        "completed_line": r"^Completed: 3 s of homework, ended ",
        "report": r"^Focus complete: 3 seconds of homework\.$",
        "another": "Start another 3-second round?",
        "yes": "Yes",
        "answered_yes": "You answered: Yes",
        "leave_title": "End the focus and go back to Interact?",
        "keep": "Keep focusing",
        "helper_prompt": "Dim the lights for you?",
        "stop": "stop",
        "interrupted_pill": "Interrupted",
        "interrupted_line": r"^Interrupted after \d+ s of 3 s of homework: the Agent stopped it\.$",
        "stopped": r"^Focus stopped after \d+ seconds? of homework \(you asked me to stop it\)\.$",
    },
    "zh-hans": {
        "locale": "zh-CN",
        "heading": "登录你的工作区",
        "username": "用户名",
        "password": "密码",
        "sign_in": "登录",
        "start": "专注 3 秒写作业",
        "activity": "写作业",
        "hint": "专注进行中：写作业。离开此画面会结束专注。",
        "caption": "保持专注。",
        "started": "专注开始：写作业，3秒",
        "completed_pill": "已完成",
        "completed_line": r"^已完成：写作业，3 秒，结束于 ",
        "report": r"^专注完成：写作业，3秒。$",
        "another": "再来一轮3秒的专注吗？",
        "yes": "是",
        "answered_yes": "你的回答：是",
        "leave_title": "结束专注并返回对话？",
        "keep": "继续专注",
        "helper_prompt": "要我帮你调暗灯光吗？",
        "stop": "停止专注",
        "interrupted_pill": "已中断",
        "interrupted_line": r"^写作业（3 秒）进行了 \d+ 秒 后中断：由助手停止。$",
        "stopped": r"^专注已停止：写作业，进行了\d+秒（按你的要求停止）。$",
    },
}

# Latin words in the page's own chrome (not what people or the Agent wrote, not times, not the
# other language's name on the language switch): on a Chinese page there must be none but these.
CHROME_WORDS = """() => {
    const skip = ".message-text, .interaction-prompt, bdi, #dock-last, .account-name, .wordmark, [lang]:not(html), time, code, script, style";
    const words = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, parent = node.parentElement;
        if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
        for (const word of node.textContent.match(/[A-Za-z]{3,}/g) || []) words.add(word);
    }
    for (const el of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
        if (el.closest(skip) || !el.checkVisibility()) continue;
        for (const name of ["aria-label", "placeholder", "title"]) {
            for (const word of (el.getAttribute(name) || "").match(/[A-Za-z]{3,}/g) || []) words.add(word);
        }
    }
    return [...words].sort();
}"""
ALLOWED_IN_CHINESE = {"LineUp", "Agent"}


def shots(page: Page, language: str, name: str, tmp_path: Path) -> None:
    """The screen at both sizes, then back to the desktop size the story runs at."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(0)  # let the layout settle (a frame), no waiting on time
        screenshot(page, f"{language}-{size}-{name}", tmp_path)
    page.set_viewport_size(SIZES["desktop"])


def chrome_in_language(page: Page, language: str) -> None:
    if language != "zh-hans":
        return
    stray = set(page.evaluate(CHROME_WORDS)) - ALLOWED_IN_CHINESE
    assert not stray, f"English left in the Chinese page: {sorted(stray)}"


@pytest.mark.spec("R-2.1.1", "R-3.5", "R-3.10", "R-4.1.2", "R-4.2.4", "R-4.3.2", "R-4.3.4", "R-4.3.5")
@pytest.mark.parametrize("language", list(WORDS))
def test_the_story_in_both_languages(browser, server, web_user, conversation, language, tmp_path):
    """Start, countdown, result, another round, the leave dialog, a question over the focus and a
    stop, with every label in the page's language, photographed at desktop and phone sizes."""
    words = WORDS[language]
    context = browser.new_context(viewport=SIZES["desktop"], locale=words["locale"], timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", name=words["heading"])).to_be_visible()
    chrome_in_language(page, language)
    shots(page, language, "01-login", tmp_path)
    page.get_by_label(words["username"]).fill("ada")
    page.get_by_label(words["password"]).fill(PASSWORD)
    page.get_by_role("button", name=words["sign_in"], exact=True).click()
    ws = WorkspacePage(page, server.url)
    ws.wait_ready()
    chrome_in_language(page, language)

    ws.say(words["start"])
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity=words["activity"])
    frame = page.frame_locator(f"#frames iframe[data-instance-id='{operation.instance_id}']")
    expect(frame.locator("#caption")).to_have_text(words["caption"])
    expect(page.locator("#focus-hint")).to_have_text(words["hint"])
    expect(page.locator("#dock-last")).to_contain_text(words["started"])
    chrome_in_language(page, language)
    shots(page, language, "02-focus", tmp_path)

    server.wait(lambda: settled(operation), "the deadline to complete the focus", timeout=10)
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="completed", reason=None)
    block = ws.block(str(operation.app_session_id))
    expect(block.locator(".pill")).to_have_text(words["completed_pill"])
    block.locator("summary").click()
    expect(block.locator(".block-result")).to_have_text(re.compile(words["completed_line"]))
    assert server.wait(lambda: agent_said(conversation, words["report"]), "the report")
    confirm = ws.interaction(kind="confirm")
    expect(confirm).to_contain_text(words["another"])
    chrome_in_language(page, language)
    shots(page, language, "03-result-and-question", tmp_path)

    confirm.get_by_role("button", name=words["yes"], exact=True).click()
    second = server.wait(lambda: focusing_operation(conversation), "the next round to start")
    ws.expect_app_in_front("pomodoro")
    expect(ws.interaction(kind="confirm", status="answered")).to_contain_text(words["answered_yes"])
    page.locator("#back-to-interact").click()
    dialog = ws.leave_dialog()
    expect(dialog.locator("#leave-title")).to_have_text(words["leave_title"])
    chrome_in_language(page, language)
    shots(page, language, "04-leave-dialog", tmp_path)
    dialog.get_by_role("button", name=words["keep"]).click()
    expect(dialog).to_be_hidden()

    helper, _ = create_agent_token(user=web_user, name="helper", now=timezone.now())
    off_the_loop(
        request_interaction,
        conversation=conversation,
        agent=helper,
        interaction_id="lights",
        kind="confirm",
        prompt=words["helper_prompt"],
        app_session_id=str(second.app_session_id),
        now=timezone.now(),
    )
    expect(ws.interaction(kind="confirm", within="#overlay")).to_contain_text(words["helper_prompt"])
    chrome_in_language(page, language)
    shots(page, language, "05-question-over-focus", tmp_path)

    ws.say(words["stop"])
    server.wait(lambda: settled(second), "the stop to settle the round")
    ws.expect_interact_in_front()
    assert_ended_once(second, state="interrupted", reason="agent_interrupt")
    block = ws.block(str(second.app_session_id))
    expect(block.locator(".pill")).to_have_text(words["interrupted_pill"])
    expect(block).not_to_have_attribute("open", "")  # folded: the newest entries are what is in view
    expect(block.locator(".block-result")).to_have_text(re.compile(words["interrupted_line"]))
    assert server.wait(lambda: agent_said(conversation, words["stopped"]), "the stop report")
    expect(page.locator("#timeline > .message.from-agent .message-text").last).to_have_text(
        re.compile(words["stopped"])
    )
    # A stopped round gets no "another round?": the person just said what they want.
    expect(
        page.locator("#timeline section.interaction[data-status='pending']", has_text=words["another"])
    ).to_have_count(0)
    chrome_in_language(page, language)
    shots(page, language, "06-stopped", tmp_path)
    assert not errors, errors
    context.close()
