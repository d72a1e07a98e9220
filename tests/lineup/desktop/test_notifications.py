"""The Desktop Host speaks to a person who is not looking (issue 40), under Xvfb (see conftest.py).

- A focus that ends while the window is minimised reaches the person as the desktop's own
  notification: the page's offer is accepted in the window, the host grants the page's permission
  and shows the page's ``Notification`` through the freedesktop Notifications service on the
  session D-Bus — a notification daemon of the test's own owns it and records what it was asked
  to show. In the person's language (a Chinese desktop: ``LANG=zh_CN.UTF-8``), once; clicking it
  brings the window back.
- The same when the window stays shown but another application's window has the focus (the page
  is visible, ``document.hasFocus()`` false): in English on an English desktop.
- A Chinese-speaking person on a machine with no CJK font gets one message, in both languages,
  that says why the page is boxes (``FONTCONFIG_FILE`` pointing at a font configuration with
  only a Latin font); with a CJK font (the first test) there is none.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from runtime.models import Conversation
from tests.browser.workspace_page import WorkspacePage, assert_ended_once, focusing_operation, settled
from tests.lineup.desktop import x11
from tests.support.processes import PYTHON

NOTIFICATION = re.compile(r"notification\.shown (?P<record>\{.*\})")
NO_CJK_FONT_TITLE = "缺少中文字体 / No Chinese font"
LATIN_FONTS = "/usr/share/fonts/truetype/dejavu"
CHINESE_DESKTOP = {"LANG": "zh_CN.UTF-8", "LANGUAGE": "zh_CN"}


def embedded_conversation() -> Conversation:
    return Conversation.objects.get(owner__username="lineup", is_default=True)


@pytest.mark.spec("R-4.2.2")
def test_a_focus_that_ends_while_the_window_is_minimised_is_told_by_a_desktop_notification_in_chinese(
    desktop, notification_daemon
):
    desktop.env.update(CHINESE_DESKTOP)
    desktop.start()
    page = desktop.page
    ws = WorkspacePage(page, desktop.url)
    assert page.evaluate("document.documentElement.lang").lower().startswith("zh")
    conversation = embedded_conversation()

    ws.say("专注 12 秒阅读")
    operation = desktop.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    # Never on load; offered while the focus runs. The person accepts; the host grants it.
    offer = page.locator("#notify-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("通知")
    desktop.screenshot("40-desktop-notification-offer-zh")
    offer.locator("button.primary").click()
    expect(offer).to_be_hidden()
    assert page.evaluate("Notification.permission") == "granted"
    desktop.process.wait_for_log("desktop.permission_granted", timeout=10)

    window = desktop.find_window()
    x11.minimise_window(desktop.display, window, unmap=True)
    desktop.wait(lambda: page.evaluate("document.visibilityState") == "hidden", "the page to be hidden")
    desktop.wait(lambda: settled(operation), "the focus to end", timeout=30)
    shown = notification_daemon.wait_for_log(NOTIFICATION, timeout=15)
    record = json.loads(shown["record"])
    assert record["app"] == "LineUp"
    assert "专注完成" in record["summary"], record
    assert "阅读" in record["body"] or "LineUp" in record["body"], record
    assert record["actions"][0] == "default"  # a click on it brings the window back
    desktop.process.wait_for_log(r"desktop\.notification_shown .*via=freedesktop", timeout=10)

    # The person clicks it: the notification service says so on the bus (``ActionInvoked``, the
    # ``default`` action), and the window comes back, restored and in front, with the result.
    click = ["dbus-send", "--session", "--type=signal", "/org/freedesktop/Notifications"]
    click += ["org.freedesktop.Notifications.ActionInvoked", f"uint32:{record['id']}", "string:default"]
    desktop.processes.run("click", click, env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": desktop.bus_address})
    desktop.process.wait_for_log(r"desktop\.notification_clicked", timeout=10)
    desktop.wait(lambda: page.evaluate("document.visibilityState") == "visible", "the window to come back")
    assert x11.visible_windows(desktop.display, "LineUp"), "the window is not mapped again"
    ws.expect_interact_in_front()
    assert_ended_once(operation, state="completed", reason=None)
    desktop.screenshot("40-desktop-after-notification-zh")
    assert len(NOTIFICATION.findall(notification_daemon.log_text())) == 1  # once
    log = desktop.process.log_text()
    assert "desktop.no_cjk_font" not in log  # this machine has a CJK font: nothing to say
    assert "desktop.notification_unshown" not in log
    assert desktop.close_window() == 0


@pytest.mark.spec("R-4.1.1")
def test_a_chinese_desktop_without_a_cjk_font_is_told_once_in_both_languages(desktop, tmp_path):
    fonts = tmp_path / "fonts.conf"
    fonts.write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
        f"<fontconfig><dir>{LATIN_FONTS}</dir><cachedir>{tmp_path / 'font-cache'}</cachedir></fontconfig>"
    )
    desktop.env.update({**CHINESE_DESKTOP, "FONTCONFIG_FILE": str(fonts)})
    # What the run script's check sees under this configuration: no Chinese font.
    assert (
        desktop.processes.run("fc-list", ["fc-list", ":lang=zh"], env={**os.environ, "FONTCONFIG_FILE": str(fonts)})
        == ""
    )
    desktop.start()
    page = desktop.page
    assert page.evaluate("document.documentElement.lang").lower().startswith("zh")
    desktop.process.wait_for_log(r"desktop\.no_cjk_font .*fix=", timeout=20)
    message = desktop.wait(
        lambda: x11.visible_windows(desktop.display, NO_CJK_FONT_TITLE) or None, "the font message", timeout=20
    )
    desktop.screenshots.mkdir(parents=True, exist_ok=True)  # a temporary folder unless LINEUP_SCREENSHOTS_DIR
    path = desktop.screenshots / "40-desktop-no-cjk-font-zh.png"
    env = {**os.environ, "DISPLAY": desktop.display, "QT_QPA_PLATFORM": "xcb", "FONTCONFIG_FILE": str(fonts)}
    grab = str(Path(__file__).with_name("grab.py"))
    desktop.processes.run("grab-message", [PYTHON, grab, str(message[0]), str(path)], env=env)
    assert path.stat().st_size > 1_000

    # Once: a reload of the page does not say it again.
    page.reload()
    WorkspacePage(page, desktop.url).wait_ready()
    assert desktop.process.log_text().count("desktop.no_cjk_font") == 1
    assert desktop.close_window() == 0


@pytest.mark.spec("R-4.2.2")
def test_a_focus_that_ends_while_another_window_is_in_front_is_told_too(desktop, notification_daemon):
    """The window stays shown, behind another application's window (the page is visible but has
    no focus): the end of the focus is a notification as well, in English on an English desktop."""
    desktop.env.update({"LANG": "en_GB.UTF-8", "LANGUAGE": "en_GB"})
    desktop.start()
    page = desktop.page
    ws = WorkspacePage(page, desktop.url)
    conversation = embedded_conversation()
    ws.say("start a 10 second reading focus")
    operation = desktop.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    page.locator("#notify-offer").get_by_role("button", name="Notify me").click()
    assert page.evaluate("Notification.permission") == "granted"

    # Playwright emulates a focused page (document.hasFocus() always true) for the pages it drives:
    # here the window's own focus is under test, so that emulation is switched off.
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    # The person was working in this window (no window manager under Xvfb gives it the focus).
    x11.focus_window(desktop.display, desktop.find_window())
    desktop.process.wait_for_log(r"desktop\.window_active\s+active=True", timeout=10)
    desktop.wait(lambda: page.evaluate("document.hasFocus()"), "the page to have the focus")
    env = {**os.environ, "DISPLAY": desktop.display, "QT_QPA_PLATFORM": "xcb"}
    other = desktop.processes.start("other-window", [PYTHON, str(Path(__file__).with_name("other_window.py"))], env=env)
    other.wait_for_log("other_window.active", timeout=20)
    desktop.process.wait_for_log(r"desktop\.window_active\s+active=False", timeout=10)
    desktop.wait(lambda: not page.evaluate("document.hasFocus()"), "the page to lose the focus")
    assert page.evaluate("document.visibilityState") == "visible"  # shown, only not in front
    desktop.wait(lambda: settled(operation), "the focus to end", timeout=30)
    record = json.loads(notification_daemon.wait_for_log(NOTIFICATION, timeout=15)["record"])
    assert record["summary"] == "Pomodoro: focus completed", record
    assert_ended_once(operation, state="completed", reason=None)
    assert desktop.close_window() == 0
