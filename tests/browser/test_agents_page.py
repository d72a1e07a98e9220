"""The Agents page as a person uses it: Debian's Chromium against a live Daphne.

A token is created on the page by keyboard, its configuration copied with the page's own copy
button (the real clipboard), and the official ``mcp`` Python client connects with exactly that
URL and header, starts a focus and interrupts it; the copied Python snippet runs as it is and
lists the tools. The token is then revoked on the page, and the client's next request is refused.
Then the page in English and Chinese, on a desktop and a 360 px phone: nothing scrolls sideways,
axe-core finds no serious or critical problem, and the screenshots go to docs/screenshots.
"""

from __future__ import annotations

import json
import re
import subprocess

import httpx2
import pytest
from mcp.shared.exceptions import MCPError
from playwright.sync_api import Page, expect

from runtime.models import AgentToken, Operation
from runtime.transitions import OperationState
from tests.browser.axe import blocking
from tests.browser.conftest import SCREENSHOTS_DIR, UI_TIMEOUT_MS, session_cookie
from tests.lineup.gateways.mcp.client import McpClient
from tests.support.processes import PYTHON, ROOT

PAGE = "/workspace/agents/"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}
LOCALES = {"en": "en-GB", "zh-hans": "zh-CN"}


def open_agents_page(browser, server, user, *, locale: str, viewport: dict[str, int], errors: list[str]) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale, timezone_id="UTC")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    context.add_cookies([session_cookie(user, server)])
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}{PAGE}")
    return page


def create_by_keyboard(page: Page, name: str) -> str:
    """Tab from the top of the page to the name box, type, Enter; the token the page then shows."""
    page.keyboard.press("Tab")  # the skip link
    focused = None
    for _ in range(12):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        if focused == "agent-name":
            break
    assert focused == "agent-name", "the name box is not reachable by Tab"
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    token = page.locator("#new-token")
    expect(token).to_be_visible()
    return token.inner_text()


def copy_with_button(page: Page, source_id: str) -> str:
    """Press the copy button of ``source_id`` (by keyboard) and read the clipboard."""
    button = page.locator(f"button[data-copy='{source_id}']")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("data-copied", "true")
    return page.evaluate("navigator.clipboard.readText()")


def no_blocking_violations(page: Page, screen: str) -> None:
    found = blocking(page, frames=False)
    assert not found, f"{screen}: " + "\n".join(map(str, found))


@pytest.mark.spec("R-2.2.3", "R-2.2.8")
def test_a_token_made_on_the_page_drives_an_mcp_client_until_it_is_revoked_there(
    browser, server, web_user, conversation, tmp_path
):
    errors: list[str] = []
    page = open_agents_page(browser, server, web_user, locale="en-GB", viewport=VIEWPORTS["desktop"], errors=errors)
    no_blocking_violations(page, "the Agents page")
    token = create_by_keyboard(page, "inspector")
    no_blocking_violations(page, "the Agents page with a new token")
    assert copy_with_button(page, "new-token") == token

    page.locator("details[data-config='streamable-http'] summary").first.click()
    configuration = json.loads(copy_with_button(page, "config-1-streamable-http"))
    assert configuration["url"] == f"{server.url}/mcp/{conversation.id}/"
    header = configuration["headers"]["Authorization"]
    assert header == f"Bearer {token}"

    # The official client, with the URL and header exactly as copied.
    client = McpClient(configuration["url"], header.removeprefix("Bearer "))
    try:
        started = client.call("pomodoro.start", {"duration_seconds": 600}, key="agents-page-1")
        assert not started.is_error, started
        operation = server.wait(
            lambda: Operation.objects.filter(conversation=conversation, state=OperationState.RUNNING).first(),
            "the focus to start",
        )
        stopped = client.call("pomodoro.interrupt", key="agents-page-2")
        assert stopped.structured_content == {"status": "interrupted", "operation_id": str(operation.id)}
        operation.refresh_from_db()
        assert operation.state == OperationState.INTERRUPTED

        # The Python snippet as copied: it runs and lists the tools.
        page.locator("details[data-config='python-sdk'] summary").first.click()
        script = tmp_path / "snippet.py"
        script.write_text(copy_with_button(page, "config-1-python-sdk"))
        ran = subprocess.run([PYTHON, str(script)], capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert ran.returncode == 0, ran.stderr
        # The conversation's tools, and the app-only status tool of MCP Apps views (docs/agents.md).
        assert ran.stdout.strip() == (
            "['lineup.operation_status', 'pomodoro.interrupt', 'pomodoro.start', 'quiz.start', 'quiz.stop']"
        )

        # The page now says when the Agent was last seen (an MCP request holds no connection).
        page.goto(f"{server.url}{PAGE}")
        card = page.locator("li.agent[data-agent='inspector']")
        expect(card.locator("[data-last-seen]")).to_have_text("just now")
        expect(card.locator("[data-live-connections]")).to_have_text("0")
        builtin = page.locator("li.agent[data-agent='reference']")
        expect(builtin.locator("[data-live-connections]")).to_have_text("1")  # the reference Agent's socket

        # Revoked on the page, by keyboard: the very next request is refused.
        card.get_by_role("button", name=re.compile("^Revoke")).focus()
        page.keyboard.press("Enter")
        expect(page.locator(".notice")).to_contain_text("Token revoked")
        assert AgentToken.objects.get(agent__name="inspector").revoked_at is not None
        with pytest.raises(MCPError, match="missing, unknown or revoked"):
            client.call("pomodoro.start", {"duration_seconds": 600}, key="agents-page-3")
    finally:
        client.close()
    raw = httpx2.post(
        configuration["url"],
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Authorization": header, "Accept": "application/json, text/event-stream"},
        timeout=10,
    )
    assert raw.status_code == 401
    assert errors == []


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_page_in_both_languages_fits_desktops_and_phones(
    browser, server, web_user, conversation, language, viewport
):
    """In English and Chinese, at 1280 px and 360 px: the page with a new token never scrolls
    sideways, has no serious or critical axe violation, and every snippet wraps inside it."""
    errors: list[str] = []
    page = open_agents_page(
        browser, server, web_user, locale=LOCALES[language], viewport=VIEWPORTS[viewport], errors=errors
    )
    assert page.locator("html").get_attribute("lang") == language
    create_by_keyboard(page, "claude")
    page.evaluate("document.querySelectorAll('details.config').forEach((d) => { d.open = true; })")
    no_blocking_violations(page, f"{language} {viewport}")
    measured = page.evaluate("({sw: document.documentElement.scrollWidth, vw: window.innerWidth})")
    assert measured["sw"] <= measured["vw"], measured
    for snippet in page.locator("pre.snippet").all():
        box = snippet.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= measured["vw"], box
    # Collapse all but the first configuration again for the picture.
    page.evaluate("document.querySelectorAll('details.config').forEach((d, i) => { d.open = i === 0; })")
    target = (ROOT / SCREENSHOTS_DIR) if SCREENSHOTS_DIR else None
    if target is not None:
        target.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target / f"agents-{language}-{viewport}.png"), full_page=True)
    assert errors == []
