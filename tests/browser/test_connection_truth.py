"""The page tells the truth about its connection, and keeps what the person writes (issue 40, decision 0047).

Offline (the browser's network cut, Playwright's ``set_offline``) and a server killed with SIGKILL
are both said in a banner within 5 s, in the page's language, with a countdown that counts; a
message written while cut off is shown where the person looks (the dock during a focus) as "Not
sent yet" and is stored once when the page is back. A message typed and sent before the page's
scripts ran is kept and stored once.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from interact.models import AuthorKind, Message
from tests.browser.conftest import open_workspace, screenshot, session_cookie, watch_page
from tests.browser.workspace_page import WorkspacePage, start_focus

BANNER_WITHIN_MS = 5_000


def stored(conversation, text: str) -> list[Message]:
    return list(Message.objects.filter(conversation=conversation, author_kind=AuthorKind.HUMAN, text=text))


def wait_stored_once(ws: WorkspacePage, server, conversation, text: str) -> None:
    server.wait(lambda: stored(conversation, text), f"{text!r} stored")
    # Give a second send every chance to arrive before counting: the page's own settling is
    # visible (the message shown sent, in the IM), then the count.
    expect(ws.page.locator("#timeline article.message.from-human", has_text=text)).to_have_attribute(
        "data-send-state", "sent"
    )
    assert len(stored(conversation, text)) == 1


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.fixture
def zh(browser, server, web_user, watch):
    """The same person on a Chinese page (Accept-Language zh-CN) at phone width."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="zh-CN", timezone_id="Asia/Shanghai")
    context.set_default_timeout(10_000)
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    watch_page(page, watch)
    open_workspace(page, server)
    yield WorkspacePage(page, server.url)
    assert not watch.errors, f"the page threw: {watch.errors}"
    context.close()


def countdown_values(page, samples: int = 4) -> list[str]:
    """The banner's countdown read a few times, half a second apart (it must change)."""
    values = []
    for _ in range(samples):
        values.append(page.locator("#banner-countdown").inner_text())
        page.wait_for_timeout(600)  # the sampling interval, not a synchronisation
    return values


def test_offline_is_said_within_seconds_and_a_message_written_meanwhile_waits_in_the_dock_then_goes_once(
    ws, server, conversation, tmp_path
):
    """During a focus the network goes: the banner within 5 s; the message written in the dock is
    shown there as "Not sent yet" (the IM is not on screen); back online it is stored once."""
    page = ws.page
    start_focus(ws, server, conversation, "start a 1 minute reading focus")
    started = time.monotonic()
    page.context.set_offline(True)
    expect(page.locator("#banner")).to_be_visible(timeout=BANNER_WITHIN_MS)
    assert time.monotonic() - started < BANNER_WITHIN_MS / 1000
    expect(page.locator("#banner-text")).to_contain_text("You are offline")
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")

    field = page.locator("#dock-input")
    expect(field).to_be_enabled()
    field.fill("written offline in the dock 51")
    field.press("Enter")
    expect(field).to_have_value("")
    unsent = page.locator("#dock-unsent article", has_text="written offline in the dock 51")
    expect(unsent).to_be_visible()
    expect(unsent).to_contain_text("Not sent yet")
    assert len(set(countdown_values(page))) > 1, "the countdown does not count"
    screenshot(page, "40-offline-dock-unsent", tmp_path)
    assert stored(conversation, "written offline in the dock 51") == []

    page.context.set_offline(False)
    expect(page.locator("#banner")).to_be_hidden(timeout=15_000)
    server.wait(lambda: stored(conversation, "written offline in the dock 51"), "the message stored")
    expect(page.locator("#dock-unsent")).to_be_hidden()
    ws.expect_app_in_front("pomodoro")  # the focus went on: being offline is not leaving
    assert len(stored(conversation, "written offline in the dock 51")) == 1


def test_a_killed_server_is_said_within_seconds_with_a_countdown_that_counts_in_chinese(
    zh, server, conversation, tmp_path
):
    """SIGKILL: the banner within 5 s, in Chinese, counting down; a message written meanwhile is
    "未发送" in the IM and stored once after the restart."""
    page = zh.page
    server.kill()
    started = time.monotonic()
    expect(page.locator("#banner")).to_be_visible(timeout=BANNER_WITHIN_MS)
    assert time.monotonic() - started < BANNER_WITHIN_MS / 1000
    expect(page.locator("#banner-text")).to_contain_text("连接已断开")
    values = countdown_values(page, samples=5)
    assert len(set(values)) > 1, f"the countdown does not count: {values}"
    assert all(re.search(r"[\u4e00-\u9fff]", value) for value in values), values

    field = page.locator("#composer-input")
    field.fill("服务器不在时写的 52")
    field.press("Enter")
    article = page.locator("#timeline article.message.from-human", has_text="服务器不在时写的 52")
    expect(article).to_have_attribute("data-send-state", "pending")
    expect(article).to_contain_text("未发送")
    screenshot(page, "40-server-gone-zh-360", tmp_path)

    server.start()
    expect(page.locator("#banner")).to_be_hidden(timeout=20_000)
    wait_stored_once(zh, server, conversation, "服务器不在时写的 52")


def test_a_message_typed_and_sent_before_the_scripts_ran_is_kept_and_sent_once(
    context, server, web_user, watch, conversation, tmp_path
):
    """The page's modules are held back: the box still takes the message (Enter sends, no newline),
    shows it not sent yet, and once the modules run it is stored once."""
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    watch_page(page, watch)
    held = []
    page.route(re.compile(r"/static/workspace/app(\.[0-9a-f]+)?\.js$"), lambda route: held.append(route))
    # Not "domcontentloaded": that waits for the deferred modules, which are held back here.
    page.goto(f"{server.url}/workspace/", wait_until="commit")
    field = page.locator("#composer-input")
    expect(field).to_be_visible()
    field.click()
    page.keyboard.type("typed before the scripts 53")
    page.keyboard.press("Enter")
    expect(field).to_have_value("")
    early = page.locator("#timeline article.message.from-human", has_text="typed before the scripts 53")
    expect(early).to_contain_text("Not sent yet")
    assert held, "the module was not held back (the test proves nothing)"
    assert page.locator("body[data-ready='true']").count() == 0
    screenshot(page, "40-typed-before-scripts", tmp_path)

    for route in held:
        route.continue_()
    page.wait_for_selector("body[data-ready='true'][data-connection='open']")
    ws = WorkspacePage(page, server.url)
    wait_stored_once(ws, server, conversation, "typed before the scripts 53")
    expect(page.locator("#timeline article.message.from-human", has_text="typed before the scripts 53")).to_have_count(
        1
    )
    assert not watch.errors, watch.errors


def test_a_connection_that_dies_silently_is_found_by_the_heartbeat_and_replaced(
    context, server, web_user, watch, conversation
):
    """No close, no error: every frame both ways is swallowed (a network that stopped answering).
    The heartbeat's unanswered ping gives the connection up within 5 s and the page reconnects."""
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    watch_page(page, watch)
    links = []

    def route(page_side) -> None:
        server_side = page_side.connect_to_server()
        link = {"silent": False}
        links.append(link)
        page_side.on_message(lambda message: None if link["silent"] else server_side.send(message))
        server_side.on_message(lambda message: None if link["silent"] else page_side.send(message))

    page.route_web_socket(re.compile(r"/ws/workspace/"), route)
    open_workspace(page, server)
    page.wait_for_selector("body[data-connection='open']")
    assert len(links) == 1
    # Every status the connection goes through, with its time: a give-up and the reconnect can be
    # quicker than a poll of the page.
    page.evaluate(
        """() => {
        window.statusLog = [];
        window.lineupWorkspace.connection.addEventListener("status", (e) => window.statusLog.push(e.detail.status));
    }"""
    )
    links[0]["silent"] = True
    started = time.monotonic()
    while not page.evaluate("window.statusLog.some((s) => s !== 'open')"):
        assert time.monotonic() - started < BANNER_WITHIN_MS / 1000, "the silent connection was not given up in 5 s"
        page.wait_for_timeout(100)  # the poll interval; frames are routed meanwhile
    page.wait_for_selector("body[data-connection='open']", timeout=15_000)
    assert len(links) >= 2
    assert not watch.errors, watch.errors
