"""A closed note stays readable, read-only, from its block in Interact (real Daphne, Chromium).

Scratch notes keeps its state read-only after close (manifest retention ``retain_readonly``); the
ended block shows that text as it was, in English and Chinese, at 1280 px and 360 px: words to
read, not a field to type in.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance, InstanceSnapshot
from tests.browser.axe import blocking
from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage

LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
NOTES = {"en": "+ Scratch notes", "zh-hans": "+ 便签"}
LABEL = {"en": "Kept when it closed (read-only):", "zh-hans": "关闭时保存的内容\uff08只读\uff09\uff1a"}
TEXT = {"en": "Call the library\nabout chapter 4", "zh-hans": "给图书馆打电话\n问第四章的事"}
SIZES = {"1280": {"width": 1280, "height": 800}, "360": {"width": 360, "height": 740}}


@pytest.mark.spec("R-3.13", "R-4.3.1")
@pytest.mark.parametrize("language", list(LOCALES))
def test_a_closed_notes_text_is_readable_from_its_block(browser, server, web_user, conversation, language, tmp_path):
    context = browser.new_context(viewport=SIZES["1280"], locale=LOCALES[language], timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    ws = WorkspacePage(page, server.url)
    ws.open()

    page.get_by_role("button", name=NOTES[language]).click()
    chip = page.locator("#open-chips li.chip.is-front[data-app-id='notes']")
    expect(chip).to_have_count(1)
    instance_id = chip.get_attribute("data-instance-id")
    editor = page.frame_locator(f"iframe[data-instance-id='{instance_id}']").locator("#text")
    expect(editor).to_be_enabled()
    editor.fill(TEXT[language])
    server.wait(
        lambda: InstanceSnapshot.objects.filter(instance_id=instance_id, state={"text": TEXT[language]}).exists(),
        "the note saved",
    )
    page.locator("#close-app").click()
    ws.expect_interact_in_front()
    server.wait(lambda: AppInstance.objects.get(pk=instance_id).closed_at is not None, "the close")

    block = page.locator(f"#timeline details.block[data-instance-id='{instance_id}']")
    expect(block).to_have_attribute("data-state", "ended")
    kept = block.locator(".block-kept")
    expect(kept).to_be_hidden()  # folded, like every ended block
    block.locator(".block-summary").click()
    expect(kept.locator(".block-kept-label")).to_have_text(LABEL[language])
    expect(kept.locator(".block-kept-text")).to_have_text(TEXT[language])
    expect(block.locator("textarea, input, [contenteditable]")).to_have_count(0)
    expect(block.locator(".read-only-mark")).to_be_visible()
    found = blocking(page)
    assert not found, "\n".join(map(str, found))
    screenshot(page, f"closed-note-{language}-1280", tmp_path)

    # After a refresh (from the server's snapshot) and on a phone, the text is still there.
    page.set_viewport_size(SIZES["360"])
    ws.reload()
    block.locator(".block-summary").click()
    expect(kept.locator(".block-kept-text")).to_have_text(TEXT[language])
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    block.scroll_into_view_if_needed()
    screenshot(page, f"closed-note-{language}-360", tmp_path)
    assert errors == []
    context.close()
