"""The operators' list of operations fits a 1280 px page, in English and in Chinese (real Daphne, Chromium).

A focus is started and stopped through the workspace (the reference Agent), so the list has a
completed-or-interrupted row with its activity, then the same staff user reads the admin list.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from interact.models import LanguagePreference
from tests.browser.conftest import UI_TIMEOUT_MS, screenshot, session_cookie
from tests.browser.workspace_page import WorkspacePage, focusing_operation, off_the_loop, settled

LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}
WIDTH = {"width": 1280, "height": 800}


def make_staff(user_id: int, language: str) -> None:
    get_user_model().objects.filter(pk=user_id).update(is_staff=True, is_superuser=True)
    LanguagePreference.objects.update_or_create(user_id=user_id, defaults={"language": language})


@pytest.mark.spec("R-4.1.1")
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_operations_list_fits_a_1280_px_page(browser, server, web_user, conversation, language, tmp_path):
    off_the_loop(make_staff, web_user.pk, language)
    context = browser.new_context(viewport=WIDTH, locale=LOCALES[language], timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    ws = WorkspacePage(page, server.url)
    ws.open()
    ws.say("start a 60 second reading focus")
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.say("stop")
    server.wait(lambda: settled(operation), "the stop")

    page.goto(f"{server.url}/admin/runtime/operation/")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    expect(page.locator("html")).to_have_attribute("lang", language)
    screenshot(page, f"admin-operations-{language}-1280", tmp_path)
    measured = page.evaluate(
        """() => ({page: document.documentElement.scrollWidth, table: document.querySelector('#result_list').scrollWidth,
                  box: document.querySelector('#changelist .results').clientWidth, vw: innerWidth})"""
    )
    assert measured["page"] <= measured["vw"], measured
    assert measured["table"] <= measured["box"] + 1, measured
    # On a phone Django's responsive admin stacks the filters; the list scrolls inside its own box.
    page.set_viewport_size({"width": 360, "height": 740})
    expect(page.locator("#result_list")).to_be_visible()
    screenshot(page, f"admin-operations-{language}-360", tmp_path)

    # The conversation LineUp made is "Main" in English, 主对话 in Chinese (issue 40), and the
    # operation's own page says how it ended in the same words.
    page.set_viewport_size(WIDTH)
    page.goto(f"{server.url}/admin/runtime/conversation/")
    expect(page.locator("#result_list")).to_contain_text("Main" if language == "en" else "主对话")
    page.goto(f"{server.url}/admin/runtime/operation/{operation.pk}/change/")
    title = page.locator("#content h2").first
    expect(title).to_contain_text("(interrupted)" if language == "en" else "\uff08已中断\uff09")  # full-width brackets
    screenshot(page, f"admin-operation-{language}-1280", tmp_path)
    context.close()
