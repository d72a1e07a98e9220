"""The sign-in pages under their Content-Security-Policy, and the lockout page, in Chromium.

Real Daphne, Debian's Chromium. The policy django-csp sets on every page without its own (sign-in,
lockout, admin) allows only the site's own scripts and styles: the pages must still look and work
as before — no CSP violation reported by the browser, the stylesheet applied, the admin's scripts
running — and a locked-out sign-in shows its page in the person's language, readable at 360 px.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.browser.axe import blocking
from tests.browser.conftest import PASSWORD, UI_TIMEOUT_MS, screenshot

# Every CSP violation the page meets, from the browser itself (the event fires for blocked inline
# scripts, styles, images, frames and connections alike).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def new_page(browser, *, locale: str = "en-GB", width: int = 1200, height: int = 760) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_init_script(RECORD_VIOLATIONS)
    return context.new_page()


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__cspViolations")


@pytest.fixture
def admin_user(django_user_model, web_user):
    web_user.is_staff = web_user.is_superuser = True
    web_user.save()
    return web_user


@pytest.mark.spec("R-2.2.3")
def test_sign_in_and_the_admin_work_under_their_csp(browser, server, admin_user, conversation):
    """The sign-in page and the admin (index, a list with its filters and actions, a change form)
    carry the policy, draw with their stylesheets and run their scripts without one violation."""
    page = new_page(browser)
    response = page.goto(f"{server.url}/admin/login/?next=/admin/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
    page.locator("#id_username").fill("ada")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#site-name")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('#header')).display") == "flex"  # admin CSS

    page.goto(f"{server.url}/admin/runtime/appinstance/")
    expect(page.locator("#changelist")).to_be_visible()
    page.goto(f"{server.url}/admin/auth/user/")
    page.locator("#action-toggle").check()  # actions.js: select all, the counter follows
    expect(page.locator(".action-counter")).to_contain_text("selected")
    page.goto(f"{server.url}/admin/auth/user/{admin_user.pk}/change/")
    expect(page.locator("#user_form")).to_be_visible()
    assert violations(page) == []
    page.context.close()

    page = new_page(browser)
    response = page.goto(f"{server.url}/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.evaluate("getComputedStyle(document.querySelector('.login-card')).display") != "inline"
    page.locator("#id_username").fill("ada")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("button[type=submit].primary").click()
    page.wait_for_url(f"{server.url}/workspace/")
    assert violations(page) == []
    page.context.close()


@pytest.mark.spec("R-2.2.3", "R-4.1.1")
@pytest.mark.parametrize(("language", "locale"), [("en", "en-GB"), ("zh-hans", "zh-CN")])
def test_a_locked_out_sign_in_gets_its_page_in_the_persons_language(
    browser, server, web_user, conversation, language, locale, tmp_path
):
    """After the limit of wrong passwords the form is replaced by the lockout page: its heading in
    the person's language, no accessibility blocker, nothing off screen at 360 px; the right password
    is refused too until the pause ends."""
    page = new_page(browser, locale=locale, width=360, height=740)
    heading = {"en": "Too many failed sign-ins", "zh-hans": "登录失败次数过多"}[language]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page.goto(f"{server.url}/accounts/login/")
        page.locator("#id_username").fill("ada")
        page.locator("#id_password").fill("wrong")
        page.locator("button[type=submit].primary").click()
    expect(page.locator("h1")).to_have_text(heading)
    screenshot(page, f"{language}-phone-sign-in-paused", tmp_path)
    assert blocking(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.goto(f"{server.url}/accounts/login/")
    page.locator("#id_username").fill("ada")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("button[type=submit].primary").click()
    expect(page.locator("h1")).to_have_text(heading)
    assert violations(page) == []
    page.context.close()
