"""Nothing a person writes is lost or doubled (real Daphne, reference Agent, Chromium).

The page gives each message its own id and keeps it until the server stored it; the server stores
one message per id. Through ``socket_switch`` a message is lost in flight, or stored with its
answer lost, or pending across a reload: each is stored exactly once after the page reconnects.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from interact.models import AuthorKind, Message
from tests.browser.conftest import open_workspace, screenshot, session_cookie, watch_page
from tests.browser.socket_switch import SocketSwitch


@pytest.fixture
def switch(context, server, web_user, watch) -> SocketSwitch:
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    watch_page(page, watch)
    installed = SocketSwitch(page).install()
    open_workspace(page, server)
    page.wait_for_selector("body[data-ready='true'][data-connection='open']")
    yield installed
    assert not watch.errors, f"the page threw: {watch.errors}"


def stored(conversation, text: str) -> list[Message]:
    return list(Message.objects.filter(conversation=conversation, author_kind=AuthorKind.HUMAN, text=text))


def person_articles(page, text: str):
    # Only the person's own articles: the Agent's reply may quote what was written.
    return page.locator("#timeline article.message.from-human", has_text=text)


def type_message(page, text: str) -> None:
    field = page.locator("#composer-input")
    field.fill(text)
    field.press("Enter")
    expect(field).to_have_value("")


@pytest.mark.spec("R-2.1.1")
def test_a_message_sent_while_the_socket_is_cut_is_stored_exactly_once_after_reconnect(switch, conversation, tmp_path):
    """Lost in flight: "Sending…" until the page reconnects and sends it again; stored once, shown once."""
    page = switch.page
    switch.holding_sends = True
    type_message(page, "note to self: lost in flight 41")
    article = person_articles(page, "lost in flight 41")
    expect(article).to_have_attribute("data-send-state", "pending")
    expect(article).to_contain_text("Sending…")
    switch.wait(lambda: len(switch.held) == 1, "the frame to be dropped")
    client_id = switch.held[0]["client_message_id"]
    screenshot(page, "sending-pending", tmp_path)
    assert stored(conversation, "note to self: lost in flight 41") == []

    switch.holding_sends = False
    switch.cut_all()
    [message] = switch.wait(lambda: stored(conversation, "note to self: lost in flight 41"), "the resend stored")
    assert message.client_message_id == client_id
    expect(person_articles(page, "lost in flight 41")).to_have_count(1)
    expect(person_articles(page, "lost in flight 41")).to_have_attribute("data-send-state", "sent")
    assert len(stored(conversation, "note to self: lost in flight 41")) == 1


@pytest.mark.spec("R-2.1.1")
def test_a_message_stored_with_its_answer_lost_is_not_doubled(switch, conversation):
    """Stored, but the connection died before the answer: the resend is answered with the stored
    message, so there is still one."""
    page = switch.page
    switch.cut_after_send = True
    type_message(page, "note to self: answer lost 42")
    switch.wait(lambda: len(switch.forwarded) >= 2, "the resend after the reconnect")
    assert switch.forwarded[0]["client_message_id"] == switch.forwarded[1]["client_message_id"]
    expect(person_articles(page, "answer lost 42")).to_have_attribute("data-send-state", "sent")
    expect(person_articles(page, "answer lost 42")).to_have_count(1)
    assert len(stored(conversation, "note to self: answer lost 42")) == 1


@pytest.mark.spec("R-2.1.1")
def test_a_pending_message_survives_a_reload_and_is_sent_once(switch, conversation):
    """Pending when the page is reloaded: still shown pending after the reload, sent once connected."""
    page = switch.page
    switch.holding_sends = True
    type_message(page, "note to self: across a reload 43")
    expect(person_articles(page, "across a reload 43")).to_have_attribute("data-send-state", "pending")
    page.reload()
    page.wait_for_selector("body[data-ready='true'][data-connection='open']")
    expect(person_articles(page, "across a reload 43")).to_have_attribute("data-send-state", "pending")
    assert stored(conversation, "note to self: across a reload 43") == []

    switch.holding_sends = False
    switch.cut_all()
    switch.wait(lambda: stored(conversation, "note to self: across a reload 43"), "the resend stored")
    expect(person_articles(page, "across a reload 43")).to_have_count(1)
    expect(person_articles(page, "across a reload 43")).to_have_attribute("data-send-state", "sent")
    assert len(stored(conversation, "note to self: across a reload 43")) == 1
