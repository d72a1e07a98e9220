"""A brand-new person's first words reach their built-in Agent (real Daphne, reference Agent, Chromium).

The server's built-in Agent for a person is made by the supervisor, which looks for new people every
few seconds; a person who signs up and writes at once writes before that Agent exists. The message
must still reach it when it is made (``interact.services.messages.deliver_unanswered_messages``).
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from interact.models import AuthorKind, Message
from runtime.models import Agent, Conversation
from tests.browser.conftest import PASSWORD, open_workspace, session_cookie, watch_page


@pytest.mark.spec("R-2.2.6", "R-2.1.1")
def test_a_new_person_who_writes_within_100_ms_of_the_first_page_load_gets_an_answer(
    context, server, django_user_model, watch
):
    hasher = PBKDF2PasswordHasher()
    newcomer = django_user_model(username="newcomer")
    newcomer.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
    newcomer.save()
    context.add_cookies([session_cookie(newcomer, server)])
    page = context.new_page()
    watch_page(page, watch)

    open_workspace(page, server)
    loaded = time.monotonic()
    field = page.locator("#composer-input")
    field.fill("help")
    field.press("Enter")
    sent_after = time.monotonic() - loaded
    # Typed and sent at once: ~30 ms on a quiet machine, 126 ms was seen with the two cores shared by
    # other test runs. The bound is the machine's; what matters is that nothing waited for the page.
    assert sent_after < 0.5, f"sent {sent_after * 1000:.0f} ms after the page loaded"

    conversation = server.wait(lambda: Conversation.objects.filter(owner=newcomer).first(), "the conversation")
    written = server.wait(
        lambda: Message.objects.filter(conversation=conversation, author_kind=AuthorKind.HUMAN, text="help").first(),
        "the first message stored",
    )
    answer = server.wait(
        lambda: Message.objects.filter(
            conversation=conversation, author_kind=AuthorKind.AGENT, created_at__gt=written.created_at
        ).first(),
        "the built-in Agent's answer",
        timeout=30,
    )
    assert Agent.objects.filter(user=newcomer, is_builtin=True).count() == 1
    expect(page.locator("#timeline article.message.from-agent").last).to_contain_text(answer.text[:20])
    assert watch.errors == []
